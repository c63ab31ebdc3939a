"""The house by layer: the core at the top of the package, a ring around it per subpackage.

Every module of sniff_rules is read with :mod:`ast`. A module at the top
of the package is the rules core; a subpackage is a ring, and
:data:`MAY_IMPORT` says which rings each may import. Every import counts:
absolute or relative, at the top or inside a function, under
``TYPE_CHECKING`` or not, ``importlib.import_module`` or ``__import__``
with a literal name, and a look-up of ``sys.modules`` by a literal name
(an import in all but name). One import outward is allowed, and named
here: a ``_repr_svg_`` method importing the SVG renderer, since a
notebook asks a value for its picture and the renderer imports the value
(python-chess does the same). The same imports, that exception apart,
form no cycle. The checker is shown to fail on planted sources.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

import sniff_rules

ROOT: Final = Path(__file__).resolve().parent.parent
PACKAGE: Final = "sniff_rules"
FOLDER: Final = ROOT / PACKAGE

CORE: Final = "core"

MAY_IMPORT: Final[dict[str, frozenset[str]]] = {
    CORE: frozenset(),
    "position": frozenset({CORE}),
    "play": frozenset({CORE, "position"}),
    "draw": frozenset({CORE, "position", "play"}),
    "formats": frozenset({CORE, "position", "play", "draw"}),
    # The protocol speaks in the JSON forms and is spoken by the checker, the tables and the command line.
    "protocol": frozenset({CORE, "position", "play", "draw", "formats"}),
    "verify": frozenset({CORE, "position", "play", "draw", "formats", "protocol"}),
    "adapters": frozenset({CORE, "position", "play", "draw", "formats", "protocol"}),
    "web": frozenset({CORE, "position", "play", "draw", "formats", "protocol"}),
    "cli": frozenset({CORE, "position", "play", "draw", "formats", "protocol", "verify", "web"}),
}
"""Which rings each ring may import, besides its own modules: a ring sees the core and the rings inside it."""

EXCEPTION_FUNCTION: Final = "_repr_svg_"
EXCEPTION_TARGET: Final = "sniff_rules.draw.svg"
"""The one import outward: a value's ``_repr_svg_`` asks the renderer for its picture."""


def module_name(path: Path) -> str:
    """The dotted name of the module at ``path`` inside the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    return {module_name(path): path for path in sorted(FOLDER.rglob("*.py"))}


def ring_of(module: str) -> str:
    """The ring a module of the package belongs to: ``core`` for the package and its top-level modules.

    ``python -m sniff_rules`` is the command line, so ``__main__`` is of the ``cli`` ring.
    """
    if module == f"{PACKAGE}.__main__":
        return "cli"
    parts = module.split(".")
    if len(parts) == 1 or (len(parts) == 2 and not (FOLDER / parts[1]).is_dir()):
        return CORE
    return parts[1]


def _resolve(target: str, known: set[str]) -> str:
    """The module of the package that ``target`` names, or the nearest package above it."""
    while target not in known and "." in target:
        target = target.rpartition(".")[0]
    return target


def _literal_import(node: ast.Call) -> str | None:
    function = node.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
    if name in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
        value = node.args[0].value
        return value if isinstance(value, str) else None
    # sys.modules.get("...") and sys.modules["..."] are imports in all but name.
    looked_up = isinstance(function, ast.Attribute) and ast.unparse(function.value).endswith("sys.modules")
    if name == "get" and looked_up and node.args and isinstance(node.args[0], ast.Constant):
        value = node.args[0].value
        return value if isinstance(value, str) else None
    return None


def imports_of(source: str, module: str, is_package: bool, known: set[str]) -> Iterator[tuple[int, str, str | None]]:
    """(line, imported module, enclosing function or None) for each module of the package ``source`` imports."""

    def walk(node: ast.AST, function: str | None) -> Iterator[tuple[int, str, str | None]]:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            targets: list[str] = []
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base_parts = module.split(".") if is_package else module.split(".")[:-1]
                    base_parts = base_parts[: len(base_parts) - (child.level - 1)]
                    base = ".".join(base_parts + ([child.module] if child.module else []))
                else:
                    base = child.module or ""
                targets = [f"{base}.{alias.name}" for alias in child.names]
            elif isinstance(child, ast.Call):
                literal = _literal_import(child)
                targets = [literal] if literal else []
            elif isinstance(child, ast.Subscript) and ast.unparse(child.value).endswith("sys.modules"):
                key = child.slice
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    targets = [key.value]
            for target in targets:
                if target == PACKAGE or target.startswith(PACKAGE + "."):
                    resolved = _resolve(target, known)
                    if resolved != module:
                        yield getattr(child, "lineno", 0), resolved, function
            yield from walk(child, inner)

    yield from walk(ast.parse(source), None)


def violations(source: str, module: str, known: set[str], is_package: bool = False) -> list[str]:
    """Each import of ``source`` (module ``module``) that its ring may not make, as ``line N: target``."""
    ring = ring_of(module)
    found = []
    for line, target, function in imports_of(source, module, is_package, known):
        target_ring = ring_of(target)
        if target_ring == ring or target_ring in MAY_IMPORT[ring]:
            if ring == CORE and target == PACKAGE and module != PACKAGE:
                found.append(f"line {line}: {target}")  # the core never imports the package's face
            continue
        if function == EXCEPTION_FUNCTION and target == EXCEPTION_TARGET:
            continue
        found.append(f"line {line}: {target}")
    return found


def import_graph(include_exception: bool = False) -> dict[str, set[str]]:
    """Every module's imports of the package's modules, lazy ones included."""
    modules = package_modules()
    known = set(modules)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for _, target, function in imports_of(
            path.read_text(encoding="utf-8"), name, path.name == "__init__.py", known
        ):
            if include_exception or not (function == EXCEPTION_FUNCTION and target == EXCEPTION_TARGET):
                graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _core_order() -> list[str]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        paths: list[str] = tomllib.load(file)["tool"]["mutmut"]["only_mutate"]
    return [Path(path).stem for path in paths]


# ---------------------------------------------------------------- the layout


def test_the_rings_are_the_subpackages() -> None:
    """Layering: every subpackage is a ring named in the face's RINGS and in MAY_IMPORT, and each ring is a folder."""
    folders = {path.parent.name for path in FOLDER.glob("*/__init__.py")}
    assert folders == set(sniff_rules.RINGS)
    assert {CORE, *sniff_rules.RINGS} == set(MAY_IMPORT)


def test_the_rings_are_listed_innermost_first() -> None:
    """Layering: a ring may import only rings listed before it in RINGS."""
    order = [CORE, *sniff_rules.RINGS]
    assert [] == [
        (ring, seen)
        for ring, allowed in MAY_IMPORT.items()
        for seen in allowed
        if order.index(seen) >= order.index(ring)
    ]


def test_every_module_imports_only_what_its_ring_may() -> None:
    """Layering: no module imports a ring outside its own (the one named exception apart)."""
    modules = package_modules()
    known = set(modules)
    found = {
        name: problems
        for name, path in modules.items()
        if (problems := violations(path.read_text(encoding="utf-8"), name, known, path.name == "__init__.py"))
    }
    assert {} == found


def test_the_package_has_no_import_cycle() -> None:
    """Layering: the imports of the package, lazy ones included and the named exception apart, form no cycle."""
    assert [] == cycles(import_graph())


def test_the_named_exception_is_the_one_cycle_it_makes() -> None:
    """Layering: with the exception counted the checker does see cycles (svg draws layouts, states and views)."""
    found = cycles(import_graph(include_exception=True))
    assert found
    assert all(EXCEPTION_TARGET in component for component in found)


def test_the_core_is_the_top_of_the_package_in_import_order() -> None:
    """Layering: the core is every module at the top of the package; each imports only those before it.

    pyproject's ``only_mutate`` lists the core innermost first, so mutation
    testing mutates exactly the core.
    """
    top = sorted(path.stem for path in FOLDER.glob("*.py") if path.stem not in ("__init__", "__main__"))
    order = _core_order()
    assert top == sorted(order)
    known = set(package_modules())
    late = []
    for position, name in enumerate(order):
        source = (FOLDER / f"{name}.py").read_text(encoding="utf-8")
        for line, target, function in imports_of(source, f"{PACKAGE}.{name}", False, known):
            stem = target.rpartition(".")[2]
            if function != EXCEPTION_FUNCTION and stem in order and order.index(stem) >= position:
                late.append(f"{name} line {line}: {stem}")
    assert [] == late


def test_the_core_imports_something_of_its_own() -> None:
    """Layering: the checker sees the core's real imports (moves imports state, layout and tiles)."""
    known = set(package_modules())
    source = (FOLDER / "moves.py").read_text(encoding="utf-8")
    imported = {target.rpartition(".")[2] for _, target, _ in imports_of(source, "sniff_rules.moves", False, known)}
    assert {"errors", "layout", "rules", "scoring", "state", "tiles"} <= imported


def test_every_package_is_installed() -> None:
    """Layering: pyproject installs every subpackage, so a wheel holds the whole house."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        listed = set(tomllib.load(file)["tool"]["setuptools"]["packages"])
    folders = {module_name(path) for path in FOLDER.rglob("__init__.py")}
    assert folders == listed - {"sniff_rules.vectors", "sniff_rules.vectors.recorded"}


MAX_MODULE_LINES: Final = 500
"""The most lines a module of the package may have: past it, a module holds more than one job."""


def test_no_module_of_the_package_passes_500_lines() -> None:
    """Layering: every module of the package is at most :data:`MAX_MODULE_LINES` lines; a longer one is split."""
    lines = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in package_modules().items()}
    assert {} == {name: count for name, count in lines.items() if count > MAX_MODULE_LINES}


# ---------------------------------------------------------------- the face


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return done.stdout


def test_importing_the_package_loads_the_core_alone() -> None:
    """The face: ``import sniff_rules`` (or a tile) loads the package and its core modules, nothing more."""
    loaded = _run(
        "import sys, sniff_rules.tiles; print(*sorted(m for m in sys.modules if m.startswith('sniff_rules')))"
    )
    # The compiled build's core modules share one C library, itself a module (setup.py's group_name).
    modules = {name for name in loaded.split() if name != f"{PACKAGE}._compiled__mypyc"}
    assert {PACKAGE, *(f"{PACKAGE}.{name}" for name in _core_order())} == modules


def test_a_ring_loads_on_first_use_from_the_face() -> None:
    """The face: ``sniff_rules.play`` loads the ring on first use; an unknown name is an AttributeError."""
    assert "True\n" == _run(
        "import sniff_rules, sys; sniff_rules.play.seat_view; print('sniff_rules.play' in sys.modules)"
    )
    with pytest.raises(AttributeError, match="no_such_ring"):
        sniff_rules.no_such_ring  # noqa: B018


def test_help_on_the_package_is_short() -> None:
    """The face: ``help(sniff_rules)`` reads in well under 1,000 lines."""
    import pydoc

    lines = pydoc.plain(pydoc.render_doc(sniff_rules)).splitlines()
    assert len(lines) < 1000


def test_no_module_is_shadowed_by_a_name_of_its_package() -> None:
    """The face: no package defines or imports a name that is also one of its submodules' names.

    ``import sniff_rules.draw.svg as svg`` must give the module, not a function.
    """
    shadowed = []
    for init in sorted(FOLDER.rglob("__init__.py")):
        submodules = {path.stem for path in init.parent.glob("*.py")} | {
            path.parent.name for path in init.parent.glob("*/__init__.py")
        }
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):
                names = [alias.asname or alias.name for alias in node.names]
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [target.id for target in node.targets if isinstance(target, ast.Name)]
            shadowed += [f"{module_name(init)}.{name}" for name in names if name in submodules]
    assert [] == shadowed


def test_every_exported_name_exists() -> None:
    """The face: each ring without optional dependencies imports, and each name in its ``__all__`` is defined."""
    import importlib

    missing = []
    for ring in ("position", "play", "draw", "formats"):
        module = importlib.import_module(f"{PACKAGE}.{ring}")
        missing += [f"{ring}.{name}" for name in module.__all__ if not hasattr(module, name)]
    assert [] == missing


# ---------------------------------------------------------------- the checker fails on planted sources

KNOWN: Final = set(package_modules())

PLANTED_IN_CORE = {
    "from sniff_rules.formats.notation import parse_move": ["line 1: sniff_rules.formats.notation"],
    "import sniff_rules.play.view": ["line 1: sniff_rules.play.view"],
    "import sniff_rules.play.bots as bots": ["line 1: sniff_rules.play.bots"],
    "from sniff_rules import cli": ["line 1: sniff_rules.cli"],
    "from sniff_rules import Tile": ["line 1: sniff_rules"],
    "import sniff_rules": ["line 1: sniff_rules"],
    "from .verify.vectors import conformance": ["line 1: sniff_rules.verify.vectors.conformance"],
    "from .draw.tally import paper_tally": ["line 1: sniff_rules.draw.tally"],
    "from . import tiles, verify": ["line 1: sniff_rules.verify"],
    "def later():\n    from sniff_rules.verify.machine import SniffMachine\n": ["line 2: sniff_rules.verify.machine"],
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from sniff_rules.play.view import Observation\n": [
        "line 3: sniff_rules.play.view"
    ],
    "import importlib\nimportlib.import_module('sniff_rules.verify.contracts')\n": [
        "line 2: sniff_rules.verify.contracts"
    ],
    "__import__('sniff_rules.formats.notation')": ["line 1: sniff_rules.formats.notation"],
    "import sys\nsys.modules.get('sniff_rules.draw.svg')\n": ["line 2: sniff_rules.draw.svg"],
    "import sys\nsys.modules['sniff_rules.draw.text']\n": ["line 2: sniff_rules.draw.text"],
    "def picture(self):\n    from sniff_rules.draw.svg import svg\n": ["line 2: sniff_rules.draw.svg"],
    "def _repr_svg_(self):\n    from sniff_rules.draw.text import text\n": ["line 2: sniff_rules.draw.text"],
}


@pytest.mark.parametrize(("source", "expected"), sorted(PLANTED_IN_CORE.items()))
def test_the_checker_catches_a_planted_outward_import(source: str, expected: list[str]) -> None:
    """Layering: a core module importing a ring, by any form of import, is reported with its line."""
    assert expected == violations(source, "sniff_rules.layout", KNOWN)


PLANTED_IN_RINGS = {
    ("sniff_rules.play.bots", "from sniff_rules.draw.text import text"): ["line 1: sniff_rules.draw.text"],
    ("sniff_rules.draw.svg", "from sniff_rules.formats.state_json import state_to_json"): [
        "line 1: sniff_rules.formats.state_json"
    ],
    ("sniff_rules.web.app", "import sniff_rules.cli.commands"): ["line 1: sniff_rules.cli.commands"],
    ("sniff_rules.adapters.actions", "from sniff_rules.verify.perft import perft"): [
        "line 1: sniff_rules.verify.perft"
    ],
    ("sniff_rules.position.laws", "from ..play import driver"): ["line 1: sniff_rules.play.driver"],
}


@pytest.mark.parametrize(("place", "expected"), sorted(PLANTED_IN_RINGS.items()))
def test_the_checker_catches_a_ring_importing_outward(place: tuple[str, str], expected: list[str]) -> None:
    """Layering: a ring importing a ring outside it is reported, relative imports resolved."""
    module, source = place
    assert expected == violations(source, module, KNOWN)


def test_the_checker_accepts_imports_inward_and_elsewhere() -> None:
    """Layering: imports of the core and of inner rings, in every form, and of other packages are not reported."""
    source = "\n".join(
        [
            "import attrs",
            "from typing import Final",
            "from sniff_rules.tiles import Tile",
            "import sniff_rules.errors",
            "from sniff_rules import layout, rules",
            "from sniff_rules.play.view import seat_view",
            "from .geometry import geometry",
            "from ..play.events import Placed",
            "from sniff_rules_extra import notation",
            "def _repr_svg_(self):\n    from sniff_rules.draw.svg import svg",
        ]
    )
    assert [] == violations(source, "sniff_rules.draw.text", KNOWN)
    assert [] == violations(
        "def _repr_svg_(self):\n    from sniff_rules.draw.svg import svg", "sniff_rules.state", KNOWN
    )


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    """Layering: the cycle finder reports a loop of three and a module importing itself, and nothing in a tree."""
    assert [["a", "b", "c"]] == cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert [["a"]] == cycles({"a": {"a"}})
    assert [] == cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()})
