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
from support import COMPILED_CORE, interpreted_only, library_namespace
from test_traceability import ids_defined_in, rules_by_section, section_modules

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
    if COMPILED_CORE:
        # autodoc reads signatures and docstrings that a module mypyc compiled no longer keeps.
        pytest.skip("the site documents the pure source: the pure pass builds it")
    html = tmp_path_factory.mktemp("docs") / "html"
    return Built(sphinx_build(DOCS, html), html)


def test_the_site_builds_with_warnings_as_errors_and_every_reference_resolved(built: Built) -> None:
    """``sphinx -W -n docs`` succeeds: no docstring breaks reStructuredText, no reference is broken."""
    assert (0, "") == (built.result.returncode, built.result.stderr)


@interpreted_only("it builds the site, which documents the pure source")
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


SPECS: Final = ROOT / "specs"
# A rule link as the HTML writer writes it: its page, its anchor, then (inside its markup) the id shown.
RULE_LINK: Final = re.compile(
    r'<a class="reference internal" href="\.\./spec/(\w+)\.html#([a-z]+-\d+)"[^>]*>(?:<[^>]+>)*([A-Z]+-\d+)'
)


def rule_ids_of_the_specs() -> dict[str, list[str]]:
    """The rule ids each file of specs/ defines (a paragraph starting ``**ID**``), by the file's stem."""
    return {path.stem: ids_defined_in(path.read_text(encoding="utf-8")) for path in sorted(SPECS.glob("*.md"))}


def test_every_rule_id_of_the_specs_has_an_anchor(built: Built) -> None:
    """Each rule id defined in specs/ anchors its own paragraph on its spec page (``spec/rules.html#place-1``)."""
    defined = {stem: ids for stem, ids in rule_ids_of_the_specs().items() if ids}
    missing = [
        f"{stem}: {rule}"
        for stem, ids in defined.items()
        for rule in ids
        if f'<p class="sniff-rule-definition" id="{rule.lower()}">'
        not in (built.html / f"spec/{stem}.html").read_text()
    ]
    assert ({"hosting", "protocol", "rules"}, []) == (set(defined), missing)


def test_a_docstring_rule_id_links_to_its_paragraph(built: Built) -> None:
    """A rule id in a docstring of the API reference links to that rule's paragraph, and every such link's id is its
    anchor's: PLACE-1 in the core's reference leads to ``spec/rules.html#place-1``, which is PLACE-1's paragraph."""
    links = [
        link for page in sorted((built.html / "api").glob("*.html")) for link in RULE_LINK.findall(page.read_text())
    ]
    wrong = [link for link in links if link[1] != link[2].lower()]
    anchors = {page: (built.html / f"spec/{page}.html").read_text() for page in {link[0] for link in links}}
    dangling = [link for link in links if f'id="{link[1]}"' not in anchors[link[0]]]
    core = RULE_LINK.findall((built.html / "api/core.html").read_text())
    assert (True, [], []) == (("rules", "place-1", "PLACE-1") in core, wrong, dangling)


def test_each_rule_lists_the_tests_and_code_citing_it(built: Built) -> None:
    """Under each rule of specs/rules.md its section's test module is named, and under PLACE-1 the core module
    enforcing it links to its reference: a reader goes from a rule to the code and tests citing it."""
    page = (built.html / "spec/rules.html").read_text()
    lines = dict(re.findall(r'id="([a-z]+-\d+)">.*?</p>\s*<p class="sniff-cited-by">(.*?)</p>', page, re.DOTALL))
    modules = section_modules()
    unlisted = [
        rule
        for number, rules in rules_by_section().items()
        for rule in rules
        if f">{modules[number][0].name}<" not in lines.get(rule.lower(), "")
    ]
    assert ([], True) == (unlisted, 'href="../api/core.html#module-sniff_rules.layout"' in lines["place-1"])


def test_a_link_to_an_unknown_rule_id_fails_the_build(tmp_path: Path) -> None:
    """The rule links can fail: ``{rule}`` naming an id no spec page defines, and such an id in text, are refused."""
    source = tmp_path / "source"
    (source / "spec").mkdir(parents=True)
    (source / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(DOCS / '_ext')!r})\n"
        "extensions = ['myst_parser', 'sniff_rule_ids']\nnitpicky = True\n"
    )
    (source / "index.md").write_text(
        "# Rules\n\n```{toctree}\nspec/rules\n```\n\n{rule}`ONE-1` is known; {rule}`ONE-7` and ONE-8 are not.\n"
    )
    (source / "spec" / "rules.md").write_text("# Spec\n\n**ONE-1** The only rule.\n")
    result = sphinx_build(source, tmp_path / "html")
    assert (1, ["ONE-7", "ONE-8"]) == (result.returncode, re.findall(r"unknown rule id (\S+):", result.stderr))
