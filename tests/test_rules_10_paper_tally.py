"""Section 10 of specs/rules.md, the paper tally (TALLY-*): strokes of 5 and the 50-point symbol."""

from __future__ import annotations

import pytest

from sniff_rules import InvalidStateError
from sniff_rules.tally import PaperTally, paper_tally
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
