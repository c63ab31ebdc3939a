"""Every limit specs/rules.md states has a vector just inside it and one just outside it.

The rules covered: SETUP-2..5, TALLY-1, FORMAT-1, FORMAT-2, GEOM-2, GEOM-5, GEOM-6.

The limits are read from the spec's own text, so that a limit changed or
added there lacks its pair of vectors until ``limits.json`` or
``geometry.json`` gives it one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sniff_rules.verify.vectors.limit_vectors import SIDES

ROOT = Path(__file__).resolve().parents[1]
SPEC = (ROOT / "specs" / "rules.md").read_text(encoding="utf-8")
VECTORS = ROOT / "specs" / "vectors"
MINUS = "\u2212"
"""The minus sign the spec writes in its formulas and negative numbers."""
COUNT_WORDS = {"two": 2, "three": 3, "four": 4}


def paragraph(rule: str) -> str:
    """The text of rule ``rule``'s paragraph, up to the next rule id or heading, lines joined."""
    found = re.search(rf"\*\*{re.escape(rule)}\*\*(.*?)(?=\n\*\*[A-Z]+-\d+\*\*|\n#)", SPEC, re.DOTALL)
    assert found is not None, f"{rule} is not in specs/rules.md"
    return " ".join(found.group(1).split())


def _players(text: str) -> Iterator[str]:
    found = re.search(r"(Two|One|Three), (two|three|four) or (two|three|four|five) players", text)
    assert found is not None
    yield f"SETUP-2: players {COUNT_WORDS[found.group(1).lower()]}"
    yield f"SETUP-2: players {COUNT_WORDS[found.group(3)]}"


def _target(text: str) -> Iterator[str]:
    found = re.search(r"a positive multiple of (\d+), .* at most 10\^(\d+)", text)
    assert found is not None
    yield f"SETUP-3: target {found.group(1)}"
    yield f"SETUP-3: target 10^{found.group(2)}"


def _hand_sizes(text: str) -> Iterator[str]:
    found = re.findall(r"(\d+) to (\d+)(?: tiles each)? with (two|three|four)", text)
    assert len(found) == 3
    for low, high, players in found:
        yield f"SETUP-4: hand size {low} with {COUNT_WORDS[players]} players"
        yield f"SETUP-4: hand size {high} with {COUNT_WORDS[players]} players"


def _below(text: str) -> Iterator[str]:
    found = re.search(r"`n` is an integer from (\d+) to (2\^64)", text)
    assert found is not None
    yield f"SETUP-5: below(n) n {found.group(1)}"
    yield f"SETUP-5: below(n) n {found.group(2)}"


def _tally(text: str) -> Iterator[str]:
    found = re.search(rf"only scores from {MINUS}([\d,]+) to ([\d,]+) are drawn", text)
    assert found is not None
    yield f"TALLY-1: score -{found.group(1)}"
    yield f"TALLY-1: score {found.group(2)}"


def _text_forms(text: str) -> Iterator[str]:
    pips = re.search(r"A \*\*tile\*\* is `\[a\|b\]` with pips (\d) to (\d)", text)
    seats = re.search(r"the seat making it, (\d) to (\d)", text)
    assert pips is not None
    assert seats is not None
    yield from (f"FORMAT-1: pip {pip}" for pip in pips.groups())
    yield from (f"FORMAT-1: seat {seat}" for seat in seats.groups())
    for form in ("halves in either order", "spaces around the parts"):
        assert form in text
        yield f"FORMAT-1: {form}"


def _json_forms(text: str) -> Iterator[str]:
    assert f"an integer beyond ±(2^53 {MINUS} 1)" in text
    yield "FORMAT-2: integer 2^53 - 1"
    yield "FORMAT-2: integer -(2^53 - 1)"
    assert "a fraction (`1.0`) or a boolean (`true`) where an integer is due" in text
    yield "FORMAT-2: a fraction where an integer is due"
    assert "a key twice in one object" in text
    yield "FORMAT-2: a key twice in one object"
    assert "both null is no bound at all" in text
    yield "FORMAT-2: bounds both null"


def _centre(text: str) -> Iterator[str]:
    assert "except when the Sniff lies on the lower end's side of a non-double lead" in text
    yield "GEOM-2: the lower end's side"


def _folds(text: str) -> Iterator[str]:
    outward = re.search(r"\*e\* \+ (\d+) ≤ \*U\*", text)
    back = re.search(rf"\*e\* {MINUS} (\d+) ≥ (\d+)", text)
    assert outward is not None
    assert back is not None
    yield f"GEOM-5: e + {outward.group(1)} <= U"
    yield f"GEOM-5: e - {back.group(1)} >= {back.group(2)}"
    assert "(*f* ± 1 taken for *e*" in text
    yield "GEOM-5: f ± 1"
    assert "A line never turns at a double" in text
    yield "GEOM-5: never turns at a double"


def _bounds(text: str) -> Iterator[str]:
    found = re.search(
        r"a whole number of units from (\d+) to ([\d,]+), both ends included; when both are given, each must be at"
        r" least (\d+)",
        text,
    )
    assert found is not None
    least, most, both = found.groups()
    yield f"GEOM-6: half-width {least}"
    yield f"GEOM-6: half-height {least}"
    yield f"GEOM-6: at most {most}"
    yield f"GEOM-6: both ways {both}"


READERS: dict[str, Callable[[str], Iterator[str]]] = {
    "SETUP-2": _players,
    "SETUP-3": _target,
    "SETUP-4": _hand_sizes,
    "SETUP-5": _below,
    "TALLY-1": _tally,
    "FORMAT-1": _text_forms,
    "FORMAT-2": _json_forms,
    "GEOM-2": _centre,
    "GEOM-5": _folds,
    "GEOM-6": _bounds,
}
"""The rules that state limits, each with the reader of its limits from the spec text."""


def spec_limits() -> list[str]:
    """Every limit the spec states, as the ``limit`` text its vectors carry."""
    return [limit for rule, read in READERS.items() for limit in read(paragraph(rule))]


def vector_limits() -> dict[str, set[str]]:
    """The sides each limit has a vector on, over ``limits.json`` and ``geometry.json``."""
    sides: dict[str, set[str]] = {}
    for name in ("limits.json", "geometry.json"):
        for case in json.loads((VECTORS / name).read_text(encoding="utf-8"))["cases"]:
            if "limit" in case:
                sides.setdefault(case["limit"], set()).add(case["side"])
    return sides


@pytest.mark.parametrize("limit", spec_limits())
def test_every_limit_of_the_spec_has_a_vector_on_each_side(limit: str) -> None:
    """A limit the spec states has a vector just inside it and one just outside it."""
    assert set(SIDES) == vector_limits().get(limit, set())


def test_every_limit_a_vector_names_is_one_the_spec_states() -> None:
    """No vector pins a limit the spec no longer states."""
    assert set() == set(vector_limits()) - set(spec_limits())


def test_the_limits_read_from_the_spec_follow_its_text() -> None:
    """The readers see the numbers themselves: a changed bound is a changed limit, which lacks its vectors."""
    changed = paragraph("SETUP-4").replace("1 to 13 tiles", "1 to 12 tiles")
    assert "SETUP-4: hand size 12 with 2 players" in set(_hand_sizes(changed))
    assert "SETUP-4: hand size 12 with 2 players" not in vector_limits()


def test_a_limit_case_cites_the_rule_it_limits() -> None:
    """Each limit case cites the rule its limit belongs to, so the traceability test sees it."""
    for name in ("limits.json", "geometry.json"):
        for case in json.loads((VECTORS / name).read_text(encoding="utf-8"))["cases"]:
            if "limit" in case:
                assert case["limit"].split(":")[0] in case["cites"]
