"""The rules core imports nothing outward.

``sniff_rules.layers.CORE_MODULES`` names the core. Every core module is
read with :mod:`ast`, and each of its imports that reaches a module of
sniff_rules outside the core fails the test: absolute or relative, at the
top or inside a function, under ``TYPE_CHECKING`` or not, and
``importlib.import_module`` or ``__import__`` with a literal name. The
package itself (``import sniff_rules``, ``from sniff_rules import Tile``)
counts as outside, since its ``__init__`` may import any module. The
checker is shown to fail on planted sources.
"""

from __future__ import annotations

import ast
from collections.abc import Collection
from pathlib import Path

import pytest

from sniff_rules.layers import CORE_MODULES, PACKAGE, core_path

ROOT = Path(__file__).resolve().parent.parent


def _is_submodule(name: str) -> bool:
    """Whether ``name`` is a module of the package rather than a name its ``__init__`` defines."""
    folder = ROOT / PACKAGE
    return (folder / f"{name}.py").is_file() or (folder / name / "__init__.py").is_file()


def _module_of(dotted: str) -> str | None:
    """The package module an absolute import name reaches: '' for the package itself, None outside it."""
    if dotted == PACKAGE:
        return ""
    if dotted.startswith(PACKAGE + "."):
        return dotted.split(".")[1]
    return None


def package_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) for each module of the package that ``source`` imports; '' is the package itself."""
    found: set[tuple[int, str]] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                module = _module_of(alias.name)
                if module is not None:
                    found.add((node.lineno, module))
        elif isinstance(node, ast.ImportFrom):
            if node.level > 1:
                continue  # above the package
            if node.level == 1:
                base = node.module  # relative to a module of the package
            elif node.module is not None and _module_of(node.module) is not None:
                base = node.module[len(PACKAGE) + 1 :] or None
            else:
                continue
            if base:
                found.add((node.lineno, base.split(".")[0]))
            else:
                # ``from sniff_rules import x``: a submodule, or a name from the package's __init__.
                found.update((node.lineno, alias.name if _is_submodule(alias.name) else "") for alias in node.names)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
            literal = node.args[0].value
            if name in ("import_module", "__import__") and isinstance(literal, str):
                module = _module_of(literal)
                if module is not None:
                    found.add((node.lineno, module))
    return sorted(found)


def outward_imports(source: str, core: Collection[str]) -> list[str]:
    """Each import of ``source`` that reaches a module of the package outside ``core``, as ``line N: module``."""
    return [
        f"line {line}: {PACKAGE}" + (f".{module}" if module else "")
        for line, module in package_imports(source)
        if module not in core
    ]


def _source(module: str) -> str:
    return (ROOT / core_path(module)).read_text(encoding="utf-8")


def test_every_core_module_exists() -> None:
    """Layering: the core list names modules of sniff_rules, each once."""
    assert [] == [module for module in CORE_MODULES if not (ROOT / core_path(module)).is_file()]
    assert len(set(CORE_MODULES)) == len(CORE_MODULES)


@pytest.mark.parametrize("module", CORE_MODULES)
def test_a_core_module_imports_only_core_modules(module: str) -> None:
    """Layering: a core module imports no module of sniff_rules outside the core, nor the package itself."""
    assert [] == outward_imports(_source(module), CORE_MODULES)


def test_each_core_module_imports_only_those_before_it() -> None:
    """Layering: the core list is in import order, so the core has no import cycle and reads inside out."""
    late = []
    for position, module in enumerate(CORE_MODULES):
        for line, imported in package_imports(_source(module)):
            if imported in CORE_MODULES and CORE_MODULES.index(imported) >= position:
                late.append(f"{module} line {line}: {imported}")
    assert [] == late


def test_the_core_imports_something_of_its_own() -> None:
    """Layering: the checker sees the core's real imports (moves imports state, layout and tiles)."""
    imported = {module for _, module in package_imports(_source("moves"))}
    assert {"errors", "layout", "rules", "scoring", "state", "tiles"} <= imported


PLANTED = {
    "from sniff_rules.notation import parse_move": ["line 1: sniff_rules.notation"],
    "import sniff_rules.view": ["line 1: sniff_rules.view"],
    "import sniff_rules.bots as bots": ["line 1: sniff_rules.bots"],
    "from sniff_rules import cli": ["line 1: sniff_rules.cli"],
    "from sniff_rules import Tile": ["line 1: sniff_rules"],
    "import sniff_rules": ["line 1: sniff_rules"],
    "from . import conformance": ["line 1: sniff_rules.conformance"],
    "from .tally import paper_tally": ["line 1: sniff_rules.tally"],
    "from . import tiles, strategies": ["line 1: sniff_rules.strategies"],
    "def later():\n    from sniff_rules.testing import SniffMachine\n": ["line 2: sniff_rules.testing"],
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from sniff_rules.view import Observation\n": [
        "line 3: sniff_rules.view"
    ],
    "import importlib\nimportlib.import_module('sniff_rules.contracts')\n": ["line 2: sniff_rules.contracts"],
    "__import__('sniff_rules.notation')": ["line 1: sniff_rules.notation"],
}


@pytest.mark.parametrize(("source", "expected"), sorted(PLANTED.items()))
def test_the_checker_catches_a_planted_outward_import(source: str, expected: list[str]) -> None:
    """Layering: a core module importing an outer module, by any of the forms of import, is reported with its line."""
    assert expected == outward_imports(source, CORE_MODULES)


def test_the_checker_accepts_imports_of_the_core_and_elsewhere() -> None:
    """Layering: imports of core modules, in every form, and of other packages are not reported."""
    source = "\n".join(
        [
            "import attrs",
            "from typing import Final",
            "from sniff_rules.tiles import Tile",
            "import sniff_rules.errors",
            "from sniff_rules import layout, rules",
            "from . import state",
            "from .moves import apply",
            "from .. import elsewhere",
            "from sniff_rules_extra import notation",
        ]
    )
    assert [] == outward_imports(source, CORE_MODULES)
    assert "moves" in {module for _, module in package_imports(source)}
