"""Every rule of specs/rules.md has a test and code that enforces it, and nothing cites a rule that does not exist.

A rule id is written ``**ID**`` at the start of a paragraph of
specs/rules.md. A test cites a rule by naming its id anywhere in a test
module (docstring, name, string or comment): ``COUNT-2``, ``COUNT_2`` in a
name, or a range ``COUNT-1..4`` for COUNT-1 to COUNT-4. The code, the tests
and the vectors may only cite ids that exist; a citation is any token whose
prefix is one of the prefixes rules.md uses, followed by a number.

The tests mirror the spec: each numbered section ``## N. Title`` of
rules.md has one module ``tests/test_rules_NN_*.py`` that cites every rule
of its section. The rules core is every module at the top of
``sniff_rules/`` (``tests/test_layering.py``); mutation testing (pyproject's
``[tool.mutmut]``) mutates exactly the core and runs every rule-section module.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, Final

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "specs" / "rules.md"
TESTS = ROOT / "tests"
CODE = ROOT / "sniff_rules"
VECTORS = ROOT / "specs" / "vectors"


def core_paths() -> list[str]:
    """The core's modules, as pyproject writes them: every module at the top of the package."""
    return sorted(f"sniff_rules/{path.name}" for path in CODE.glob("*.py") if path.stem not in ("__init__", "__main__"))


_DEFINED = re.compile(r"^\*\*([A-Z]+-\d+)\*\*", re.MULTILINE)
_HEADING = re.compile(r"^## (?:(\d+)\. )?.+$", re.MULTILINE)


def _definitions(text: str) -> list[re.Match[str]]:
    """Each ``**ID**`` that starts a paragraph of ``text``."""
    # A paragraph starts after a blank line (or at the top); ids elsewhere are mentions.
    return [
        found
        for found in _DEFINED.finditer(text)
        if found.start() == 0 or text[found.start() - 2 : found.start()] == "\n\n"
    ]


def ids_defined_in(text: str) -> list[str]:
    """The rule ids a spec file's text defines, in order of appearance."""
    return [found.group(1) for found in _definitions(text)]


def defined_ids() -> list[str]:
    """The rule ids of specs/rules.md, in order of appearance."""
    return ids_defined_in(RULES.read_text(encoding="utf-8"))


@cache
def prefixes() -> frozenset[str]:
    """The prefixes rule ids use: SETUP, OPEN, ..."""
    return frozenset(rule.split("-")[0] for rule in defined_ids())


def cited_ids(text: str, *, any_prefix: bool = False) -> set[str]:
    """Every rule id ``text`` cites, ranges expanded, for the prefixes rules.md uses (or, with ``any_prefix``,
    for any prefix of capitals: the ids of the other spec files too, HOST-1 or PROTO-2)."""
    alternatives = "[A-Z]+" if any_prefix else "|".join(sorted(prefixes(), key=len, reverse=True))
    pattern = re.compile(rf"(?<![A-Za-z0-9])({alternatives})[-_](\d+)(?:\.\.(\d+))?(?![0-9])")
    found: set[str] = set()
    for match in pattern.finditer(text):
        prefix, first, last = match.group(1), int(match.group(2)), match.group(3)
        for number in range(first, (int(last) if last else first) + 1):
            found.add(f"{prefix}-{number}")
    return found


def rules_by_section(text: str | None = None) -> dict[int, list[str]]:
    """The rule ids of each numbered section ``## N. Title`` of specs/rules.md (or ``text``), by number.

    Any other ``##`` heading ends a section: the ids under it belong to no numbered section.
    """
    text = RULES.read_text(encoding="utf-8") if text is None else text
    headings = [(found.start(), int(found.group(1)) if found.group(1) else 0) for found in _HEADING.finditer(text)]
    sections: dict[int, list[str]] = {number: [] for _, number in headings if number}
    for found in _definitions(text):
        before = [number for start, number in headings if start < found.start()]
        if before and before[-1]:
            sections[before[-1]].append(found.group(1))
    return sections


def section_modules() -> dict[int, list[Path]]:
    """The rule-section test modules tests/test_rules_NN_*.py, by section number NN."""
    modules: dict[int, list[Path]] = {}
    for path in sorted(TESTS.glob("test_rules_*.py")):
        number = re.match(r"test_rules_(\d+)_", path.name)
        assert number is not None, f"{path.name}: name a rule-section module test_rules_NN_topic.py"
        modules.setdefault(int(number.group(1)), []).append(path)
    return modules


def modules_with_tests() -> list[Path]:
    """The test modules pytest collects (tests/test_*.py)."""
    return sorted(TESTS.glob("test_*.py"))


def _python_files(*folders: Path) -> Iterator[Path]:
    for folder in folders:
        yield from sorted(folder.rglob("*.py"))


def _vector_citations() -> Iterable[tuple[str, str]]:
    """(file, id) for each id a vector file cites in its cites or refused lists."""
    for path in sorted(VECTORS.glob("*.json")):
        if path.name == "schema.json":
            continue

        def walk(value: object) -> Iterator[str]:
            if isinstance(value, dict):
                for key, item in value.items():
                    if key in ("cites", "refused") and isinstance(item, list):
                        yield from (str(rule) for rule in item)
                    else:
                        yield from walk(item)
            elif isinstance(value, list):
                for item in value:
                    yield from walk(item)

        for rule in walk(json.loads(path.read_text(encoding="utf-8"))):
            yield path.name, rule


def test_rules_md_defines_unique_ids() -> None:
    """specs/rules.md defines its rule ids once each, and some are found."""
    ids = defined_ids()
    assert len(ids) > 20
    assert len(ids) == len(set(ids)), sorted({rule for rule in ids if ids.count(rule) > 1})


def test_every_rule_has_a_test() -> None:
    """Every rule id of specs/rules.md is cited by at least one test module."""
    covered: set[str] = set()
    for path in modules_with_tests():
        covered |= cited_ids(path.read_text(encoding="utf-8"))
    missing = [rule for rule in defined_ids() if rule not in covered]
    assert [] == missing, f"rules with no test citing them: {', '.join(missing)}"


# The rules that the core leaves to a module around it, and that module: what a seat may
# see is for the frontend (SETUP-6), the paper tally only draws a score (TALLY-1), and
# JSON documents are read by the one hardened reader (FORMAT-2), and where a tile is
# drawn is for the geometry module (GEOM-1..6).
ENFORCED_AROUND_THE_CORE: Final = {
    "SETUP-6": "play/view",
    "TALLY-1": "draw/tally",
    "FORMAT-2": "formats/strict_json",
    **{f"GEOM-{number}": "draw/geometry" for number in range(1, 7)},
}


def test_every_rule_is_cited_by_the_code_that_enforces_it() -> None:
    """Every rule id of specs/rules.md is cited by the core code that enforces it, or the outer module named for it."""
    core: set[str] = set()
    for path in core_paths():
        core |= cited_ids((ROOT / path).read_text(encoding="utf-8"))
    missing = []
    for rule in defined_ids():
        outer = ENFORCED_AROUND_THE_CORE.get(rule)
        text = (CODE / f"{outer}.py").read_text(encoding="utf-8") if outer else ""
        if rule not in (cited_ids(text) if outer else core):
            missing.append(f"{rule} (in {outer or 'the core'})")
    assert [] == missing
    assert set(ENFORCED_AROUND_THE_CORE) <= set(defined_ids())


def test_each_section_of_the_rules_has_one_test_module() -> None:
    """Each numbered section N of specs/rules.md has one module tests/test_rules_NN_*.py, and no other exists."""
    sections = sorted(rules_by_section())
    assert list(range(1, len(sections) + 1)) == sections
    modules = section_modules()
    assert sections == sorted(modules)
    assert [] == [f"section {n}: {[p.name for p in paths]}" for n, paths in modules.items() if len(paths) != 1]


def test_each_section_module_cites_every_rule_of_its_section() -> None:
    """The tests of a rule are found in its section's module: tests/test_rules_NN_*.py cites each rule of section NN."""
    modules = section_modules()
    missing = []
    for number, rules in rules_by_section().items():
        cited = set().union(*(cited_ids(path.read_text(encoding="utf-8")) for path in modules.get(number, [])))
        missing += [f"section {number}: {rule}" for rule in rules if rule not in cited]
    assert [] == missing


def test_rules_are_read_by_numbered_section() -> None:
    """A rule belongs to the numbered section it is written in; a heading without a number ends the section."""
    text = "\n".join(
        [
            "# Title",
            "",
            "**PRE-1** before any section.",
            "",
            "## 1. First",
            "",
            "**ONE-1** a rule. **ONE-9** is a mention.",
            "",
            "**ONE-2** another.",
            "",
            "## 2. Second",
            "",
            "**TWO-1** the second.",
            "",
            "## Appendix",
            "",
            "**APP-1** in no numbered section.",
        ]
    )
    assert {1: ["ONE-1", "ONE-2"], 2: ["TWO-1"]} == rules_by_section(text)


def _mutmut() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        config: dict[str, Any] = tomllib.load(file)["tool"]["mutmut"]
    return config


def test_mutation_testing_mutates_exactly_the_core() -> None:
    """pyproject's [tool.mutmut] only_mutate is the core, every module at the top of sniff_rules/, each once."""
    listed = _mutmut()["only_mutate"]
    assert core_paths() == sorted(listed)
    assert len(set(listed)) == len(listed)


def test_mutation_testing_runs_every_rule_section_module() -> None:
    """The mutmut test selection names existing files once each, among them every rule-section and internals module."""
    selection = _mutmut()["pytest_add_cli_args_test_selection"]
    assert [] == [name for name in selection if not (ROOT / name).is_file()]
    assert len(set(selection)) == len(selection)
    needed = [path for paths in section_modules().values() for path in paths]
    needed += [TESTS / "test_seed_examples.py", TESTS / "test_tables.py", TESTS / "test_values.py"]
    assert [] == [str(path.relative_to(ROOT)) for path in needed if str(path.relative_to(ROOT)) not in selection]


def test_the_docs_say_what_the_core_is() -> None:
    """The README and specs/mutation.md say the core is the top of the package, and name no module list beside it."""
    for doc in (ROOT / "README.md", ROOT / "specs" / "mutation.md"):
        text = doc.read_text(encoding="utf-8")
        assert "top of `sniff_rules/`" in text, doc.name
        assert "layers.py" not in text, doc.name


def test_code_and_tests_cite_only_existing_rules() -> None:
    """No module of sniff_rules/ or tests/ cites a rule id that specs/rules.md does not define."""
    known = set(defined_ids())
    unknown = sorted(
        f"{path.relative_to(ROOT)}: {rule}"
        for path in _python_files(CODE, TESTS)
        for rule in cited_ids(path.read_text(encoding="utf-8"))
        if rule not in known
    )
    assert [] == unknown


def test_vectors_cite_only_existing_rules() -> None:
    """The cites and refused lists of specs/vectors name only rules that specs/rules.md defines."""
    known = set(defined_ids())
    assert [] == sorted(f"{name}: {rule}" for name, rule in _vector_citations() if rule not in known)


def test_citations_are_recognised_in_every_form() -> None:
    """Ids in text, test names and ranges are all found; other capitals are not."""
    some = defined_ids()[0]
    prefix, number = some.split("-")
    assert {some} == cited_ids(f"covers {some}: ...")
    assert {some} == cited_ids(f"def test_{prefix}_{number}_holds")
    assert {f"{prefix}-{n}" for n in range(int(number), int(number) + 3)} == cited_ids(
        f"{prefix}-{number}..{int(number) + 2}"
    )
    assert set() == cited_ids("UTF-8 and SHA-256 are not rules")
