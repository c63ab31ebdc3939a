"""The optional paper tally: strokes of 5 and the 50-point symbol (TALLY-1)."""

from __future__ import annotations

import attrs

from sniff_rules._fast import sealed
from sniff_rules.errors import InvalidStateError

STROKE_POINTS = 5
STROKES_PER_SYMBOL = 10
"""The 50-point symbol: a large X (2 strokes) and a small x in each of its
four fields (2 strokes each)."""


@sealed()
@attrs.frozen
class PaperTally:
    """A score as drawn on paper: 50-point symbols, then single strokes.

    >>> paper_tally(135)
    PaperTally(negative=False, fifty_symbols=2, strokes=7)
    >>> str(paper_tally(-65))
    '-X |||'
    """

    negative: bool
    fifty_symbols: int
    strokes: int

    @property
    def points(self) -> int:
        """The score this tally stands for."""
        magnitude = (self.fifty_symbols * STROKES_PER_SYMBOL + self.strokes) * STROKE_POINTS
        return -magnitude if self.negative else magnitude

    def __str__(self) -> str:
        parts = ["X"] * self.fifty_symbols + (["|" * self.strokes] if self.strokes else [])
        return ("-" if self.negative else "") + " ".join(parts)


def paper_tally(score: int) -> PaperTally:
    """Draw ``score`` (a multiple of 5) as a paper tally (TALLY-1)."""
    if type(score) is not int or score % STROKE_POINTS:
        raise InvalidStateError("TALLY-1", f"a tally draws multiples of 5 points, got {score!r}")
    strokes = abs(score) // STROKE_POINTS
    return PaperTally(score < 0, strokes // STROKES_PER_SYMBOL, strokes % STROKES_PER_SYMBOL)
