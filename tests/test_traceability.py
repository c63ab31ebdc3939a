"""Every rule of specs/rules.md has a test, and nothing cites a rule that does not exist.

A rule id is written ``**ID**`` at the start of a paragraph of
specs/rules.md. A test cites a rule by naming its id anywhere in a test
module (docstring, name, string or comment): ``COUNT-2``, ``COUNT_2`` in a
name, or a range ``COUNT-1..4`` for COUNT-1 to COUNT-4. The code, the tests
and the vectors may only cite ids that exist; a citation is any token whose
prefix is one of the prefixes rules.md uses, followed by a number.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "specs" / "rules.md"
TESTS = ROOT / "tests"
CODE = ROOT / "sniff_rules"
VECTORS = ROOT / "specs" / "vectors"

_DEFINED = re.compile(r"^\*\*([A-Z]+-\d+)\*\*", re.MULTILINE)


def defined_ids() -> list[str]:
    """The rule ids of specs/rules.md, in order of appearance."""
    text = RULES.read_text(encoding="utf-8")
    # A paragraph starts after a blank line (or at the top); ids elsewhere are mentions.
    return [found.group(1) for found in _DEFINED.finditer(text) if found.start() == 0 or text[found.start() - 2 : found.start()] == "\n\n"]


@cache
def prefixes() -> frozenset[str]:
    """The prefixes rule ids use: SETUP, OPEN, ..."""
    return frozenset(rule.split("-")[0] for rule in defined_ids())


def cited_ids(text: str) -> set[str]:
    """Every rule id ``text`` cites, ranges expanded, for the prefixes rules.md uses."""
    alternatives = "|".join(sorted(prefixes(), key=len, reverse=True))
    pattern = re.compile(rf"(?<![A-Za-z0-9])({alternatives})[-_](\d+)(?:\.\.(\d+))?(?![0-9])")
    found: set[str] = set()
    for match in pattern.finditer(text):
        prefix, first, last = match.group(1), int(match.group(2)), match.group(3)
        for number in range(first, (int(last) if last else first) + 1):
            found.add(f"{prefix}-{number}")
    return found


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


# Modules around the engine that restate or exercise rules rather than enforce them.
_NOT_ENFORCING = {"strategies.py", "testing.py", "contracts.py", "conformance.py", "notation.py"}


def test_every_rule_is_cited_by_the_code_that_enforces_it() -> None:
    """Every rule id of specs/rules.md is cited by the engine code that enforces it, so a reader finds it by id."""
    cited: set[str] = set()
    for path in sorted(CODE.glob("*.py")):
        if path.name not in _NOT_ENFORCING:
            cited |= cited_ids(path.read_text(encoding="utf-8"))
    assert [] == [rule for rule in defined_ids() if rule not in cited]


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
