"""The documentation site in docs/, checked like code: built once a session with warnings as errors and
nitpicky references (``-W -n``), every example of its pages run alone as a doctest, every public name of
the library in its API reference, attrs' generated methods left out, its pictures the library's own.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final, NamedTuple

import pytest
from sphinx.util.inventory import InventoryFile

import sniff_rules
from sniff_rules import Layout
from sniff_rules.draw.svg import SPEC_PICTURES, svg, tally_svg
from support import library_namespace

ROOT: Final = Path(__file__).resolve().parent.parent
DOCS: Final = ROOT / "docs"
# What the reference leaves out: the data package of specs/vectors and the module that runs the command.
NOT_API: Final = ("sniff_rules.vectors", "sniff_rules.__main__")
FENCE: Final = re.compile(r"^```(?:python|pycon)\n(.*?)^```", re.MULTILINE | re.DOTALL)
INCLUDE: Final = re.compile(r"^```\{include\} (\S+)", re.MULTILINE)


class Built(NamedTuple):
    """One build of the site: the sphinx command's result and the folder of its HTML."""

    result: subprocess.CompletedProcess[str]
    html: Path


def sphinx_build(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """``python -m sphinx -W -n`` of ``source`` into ``out`` (HTML), as the README's docs command runs it."""
    command = [sys.executable, "-m", "sphinx", "-W", "-n", "-q", "-b", "html", str(source), str(out)]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=1200, check=False)


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The site built once for the whole session, in a temporary folder."""
    html = tmp_path_factory.mktemp("docs") / "html"
    return Built(sphinx_build(DOCS, html), html)


def test_the_site_builds_with_warnings_as_errors_and_every_reference_resolved(built: Built) -> None:
    """``sphinx -W -n docs`` succeeds: no docstring breaks reStructuredText, no reference is broken."""
    assert (0, "") == (built.result.returncode, built.result.stderr)


def test_a_broken_reference_fails_the_build(tmp_path: Path) -> None:
    """The build's check can fail: a page naming a function the library lacks is refused under ``-n``."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(DOCS / '_ext')!r})\n"
        "extensions = ['myst_parser', 'sphinx.ext.autodoc', 'sniff_docs']\nnitpicky = True\n"
    )
    (source / "index.md").write_text(
        "# Broken\n\n{py:func}`sniff_rules.no_such_function` and {py:class}`numpy.ndarray`.\n"
    )
    result = sphinx_build(source, tmp_path / "html")
    assert (1, ["sniff_rules.no_such_function"]) == (
        result.returncode,
        re.findall(r"reference target not found: (\S+)", result.stderr),
    )


def pages() -> list[Path]:
    """Every Markdown page of the site, and every file the pages include (specs/*.md, benchmarks/README.md)."""
    found = sorted(path for path in DOCS.rglob("*.md") if "_build" not in path.parts)
    included = {(page.parent / target).resolve() for page in found for target in INCLUDE.findall(page.read_text())}
    return found + sorted(included)


class Example(NamedTuple):
    """One fenced Python example of a page: where it is and its text."""

    page: Path
    line: int
    text: str


def examples() -> Iterator[Example]:
    """Every fenced Python example holding a ``>>>`` prompt, in every page."""
    for page in pages():
        text = page.read_text()
        for match in FENCE.finditer(text):
            if ">>>" in match.group(1):
                yield Example(page, text.count("\n", 0, match.start()) + 2, match.group(1))


EXAMPLES: Final = list(examples())


def test_the_pages_hold_examples() -> None:
    """The examples below are found: the getting-started page, the tour and the guides hold more than a dozen."""
    assert len(EXAMPLES) >= 15, [f"{example.page}:{example.line}" for example in EXAMPLES]


@pytest.mark.parametrize(
    "example", EXAMPLES, ids=[f"{example.page.relative_to(ROOT)}:{example.line}" for example in EXAMPLES]
)
def test_every_example_runs_when_copied_alone(example: Example) -> None:
    """Each example, run as a doctest in a namespace of its own (its own imports, nothing from the page
    above it), prints what the page shows."""
    test = doctest.DocTestParser().get_doctest(
        example.text, {}, f"{example.page.name}:{example.line}", str(example.page), example.line - 1
    )
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append)
    assert (0, "") == (runner.failures, "".join(report))


def public_modules() -> list[str]:
    """Every module of the package whose path has no component starting with an underscore."""
    found = ["sniff_rules"]
    for info in pkgutil.walk_packages(sniff_rules.__path__, "sniff_rules."):
        private = any(part.startswith("_") for part in info.name.split(".")[1:])
        if not private and not info.name.startswith(NOT_API):
            found.append(info.name)
    return found


def public_names(module_name: str) -> list[str]:
    """A module's public names: its ``__all__``, or else the names its own top level defines."""
    module = importlib.import_module(module_name)
    if hasattr(module, "__all__"):
        return list(module.__all__)
    names: list[str] = []
    for statement in ast.parse(inspect.getsource(module)).body:
        if isinstance(statement, ast.FunctionDef | ast.ClassDef):
            names.append(statement.name)
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            names.append(statement.target.id)
        elif isinstance(statement, ast.Assign):
            names.extend(target.id for target in statement.targets if isinstance(target, ast.Name))
    return [name for name in names if not name.startswith("_")]


def resolve(path: str) -> object:
    """The object an inventory entry's dotted path names (a module, then attributes)."""
    parts = path.split(".")
    for split in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            value = getattr(value, attribute)
        return value
    raise AssertionError(path)


def is_code(value: object, name: str) -> bool:
    """Whether a name is a class's or a function's own, documented once whatever module it is reached by.

    A type alias (``Pip: TypeAlias = int``) is a value: documented by its name, not as ``int``."""
    return (inspect.isclass(value) or inspect.isfunction(value)) and getattr(value, "__name__", None) == name


def documented(html: Path) -> tuple[set[int], set[tuple[str, int]]]:
    """What the reference documents: every class and function by identity, every value by name and identity."""
    with (html / "objects.inv").open("rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda base, uri: uri)
    code: set[int] = set()
    values: set[tuple[str, int]] = set()
    for kind, entries in inventory.items():
        # A module's own names; members of classes (an instance's attributes among them) are not looked up.
        if kind in ("py:class", "py:exception", "py:function", "py:data"):
            for path in entries:
                value = resolve(path)
                if is_code(value, path.rpartition(".")[2]):
                    code.add(id(value))
                values.add((path.rpartition(".")[2], id(value)))
    return code, values


def test_every_public_name_is_in_the_api_reference(built: Built) -> None:
    """Every name a frontend star-imports (``library_namespace()``) and every public name of every public
    module (its ``__all__``, or what its top level defines) has an entry in the reference."""
    code, values = documented(built.html)
    wanted = [("sniff_rules", name, value) for name, value in library_namespace().items()]
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        wanted.extend((module_name, name, getattr(module, name)) for name in public_names(module_name))
    missing = [
        f"{module_name}.{name}"
        for module_name, name, value in wanted
        if not inspect.ismodule(value)
        and (id(value) not in code if is_code(value, name) else (name, id(value)) not in values)
    ]
    assert [] == missing


def test_the_reference_leaves_out_the_methods_attrs_generates(built: Built) -> None:
    """No entry of the API reference is a method attrs wrote (``__eq__``, ``__init__``, ``__repr__`` ...)."""
    pages_saying_so = [
        page.name for page in (built.html / "api").glob("*.html") if "Method generated by attrs" in page.read_text()
    ]
    assert [] == pages_saying_so


def test_the_pictures_are_drawn_by_the_library_at_build_time(built: Built) -> None:
    """The rules and drawing pages show the seed's worked examples as ``sniff_rules.draw.svg`` draws them
    now, and the paper tally as ``tally_svg`` does."""
    rules, drawing = (built.html / "rules.html").read_text(), (built.html / "guides/drawing.html").read_text()
    pictures = [svg(Layout.parse(layout), size=360) for layout in SPEC_PICTURES.values()]
    shown = [picture in rules and picture in drawing for picture in pictures]
    assert ([True] * 3, True) == (shown, tally_svg(135) in rules)
