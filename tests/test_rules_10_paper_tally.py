"""Section 10 of specs/rules.md, the paper tally (TALLY-*): strokes of 5 and the 50-point symbol."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from sniff_rules.draw.tally import MAX_TALLY_POINTS, PaperTally, paper_tally
from sniff_rules.errors import InvalidStateError
from support import refusal


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        (0, PaperTally(False, 0, 0)),
        (5, PaperTally(False, 0, 1)),
        (45, PaperTally(False, 0, 9)),
        (50, PaperTally(False, 1, 0)),
        (135, PaperTally(False, 2, 7)),
        (250, PaperTally(False, 5, 0)),
        (-65, PaperTally(True, 1, 3)),
    ],
)
def test_paper_tally(score: int, expected: PaperTally) -> None:
    """TALLY-1: one stroke per 5 points, ten strokes make the 50-point symbol; a negative score follows a minus."""
    assert expected == paper_tally(score)
    assert score == paper_tally(score).points


def test_paper_tally_text() -> None:
    """TALLY-1: the symbols come first, then the single strokes."""
    assert "X X |||||||" == str(paper_tally(135))
    assert "" == str(paper_tally(0))


def test_paper_tally_refuses_non_multiples() -> None:
    """TALLY-1: only multiples of 5 can be drawn."""
    refusal(InvalidStateError, "TALLY-1", lambda: paper_tally(12))


def test_a_huge_score_is_refused_not_drawn() -> None:
    """TALLY-1: the issue's -9007199254740990 is refused at once instead of drawn as 180 million million symbols."""
    message = refusal(InvalidStateError, "TALLY-1", lambda: str(paper_tally(-9007199254740990)))
    assert f"at most {MAX_TALLY_POINTS} points" in message


def test_the_largest_tally_is_drawn_and_one_more_stroke_is_refused() -> None:
    """TALLY-1: a tally is drawn up to MAX_TALLY_POINTS either way, and not a stroke beyond."""
    assert MAX_TALLY_POINTS // 50 == str(paper_tally(-MAX_TALLY_POINTS)).count("X")
    refusal(InvalidStateError, "TALLY-1", lambda: paper_tally(MAX_TALLY_POINTS + 5))
    refusal(InvalidStateError, "TALLY-1", lambda: PaperTally(False, MAX_TALLY_POINTS // 50, 1))


@pytest.mark.parametrize(
    ("fields", "rule"),
    [
        ((True, 0, 0), "TALLY-1"),
        ((False, 0, 10), "TALLY-1"),
        ((False, -1, 0), "TALLY-1"),
        ((False, True, 0), "TALLY-1"),
        ((1, 0, 5), "FORMAT-3"),
        ((False, 0, 2.0), "TALLY-1"),
    ],
    ids=["minus zero", "ten strokes", "negative symbols", "a boolean count", "an int sign", "a fraction"],
)
def test_a_tally_no_score_draws_is_refused_at_construction(fields: tuple[object, object, object], rule: str) -> None:
    """TALLY-1 FORMAT-3: a PaperTally holds what some score draws: no "-0", 0..9 strokes, counts as ints."""
    refusal(InvalidStateError, rule, lambda: PaperTally(*fields))  # type: ignore[arg-type]


@given(st.integers(-MAX_TALLY_POINTS // 5, MAX_TALLY_POINTS // 5))
def test_a_tally_stands_for_the_score_it_was_drawn_from(fifths: int) -> None:
    """TALLY-1: for every score a tally is drawn for, its points are that score and it draws again the same."""
    tally = paper_tally(5 * fifths)
    assert (5 * fifths, tally) == (tally.points, paper_tally(tally.points))


@given(st.booleans(), st.integers(0, MAX_TALLY_POINTS // 50), st.integers(0, 9))
def test_every_tally_accepted_is_the_tally_of_its_points(negative: bool, symbols: int, strokes: int) -> None:
    """TALLY-1: whatever PaperTally accepts is the tally of its own points."""
    try:
        tally = PaperTally(negative, symbols, strokes)
    except InvalidStateError:
        return
    assert tally == paper_tally(tally.points)
