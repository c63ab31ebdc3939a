"""The optional paper tally: strokes of 5 and the 50-point symbol (TALLY-1).

A tally is for paper, so it is drawn for scores of at most
:data:`MAX_TALLY_POINTS` points either way (20,000 symbols, 40 kB of
text); a larger score, which only a house target far beyond the standard
one reaches, is refused (TALLY-1) rather than drawn in gigabytes. Every
:class:`PaperTally` the library accepts stands for the score it was drawn
from: ``paper_tally(tally.points) == tally``.
"""

from __future__ import annotations

from typing import Final

import attrs

from sniff_rules._fast import sealed
from sniff_rules.errors import InvalidStateError, described

STROKE_POINTS = 5
STROKES_PER_SYMBOL = 10
"""The 50-point symbol: a large X (2 strokes) and a small x in each of its
four fields (2 strokes each)."""

MAX_TALLY_POINTS: Final = 1_000_000
"""The largest score, either way, that a tally is drawn for (TALLY-1)."""

_MAX_SYMBOLS: Final = MAX_TALLY_POINTS // (STROKE_POINTS * STROKES_PER_SYMBOL)


def _check_negative(_instance: object, _attribute: object, negative: bool) -> None:
    if type(negative) is not bool:
        raise InvalidStateError("FORMAT-3", f"negative is a bool, got {described(negative, 40)}")


def _check_symbols(_instance: object, _attribute: object, symbols: int) -> None:
    if type(symbols) is not int or not 0 <= symbols <= _MAX_SYMBOLS:
        raise InvalidStateError(
            "TALLY-1", f"a tally has 0..{_MAX_SYMBOLS} 50-point symbols, got {described(symbols, 40)}"
        )


def _check_strokes(instance: PaperTally, _attribute: object, strokes: int) -> None:
    if type(strokes) is not int or not 0 <= strokes < STROKES_PER_SYMBOL:
        raise InvalidStateError(
            "TALLY-1", f"ten strokes make a symbol, so a tally has 0..9, got {described(strokes, 40)}"
        )
    if instance.fifty_symbols * STROKES_PER_SYMBOL + strokes > MAX_TALLY_POINTS // STROKE_POINTS:
        raise InvalidStateError("TALLY-1", f"a tally stands for at most {MAX_TALLY_POINTS} points")
    if instance.negative and not instance.fifty_symbols and not strokes:
        raise InvalidStateError("TALLY-1", "a tally of 0 points has no minus sign")


@sealed()
@attrs.frozen
class PaperTally:
    """A score as drawn on paper: 50-point symbols, then single strokes.

    >>> paper_tally(135)
    PaperTally(negative=False, fifty_symbols=2, strokes=7)
    >>> str(paper_tally(-65))
    '-X |||'
    """

    negative: bool = attrs.field(validator=_check_negative)
    fifty_symbols: int = attrs.field(validator=_check_symbols)
    strokes: int = attrs.field(validator=_check_strokes)

    @property
    def points(self) -> int:
        """The score this tally stands for."""
        magnitude = (self.fifty_symbols * STROKES_PER_SYMBOL + self.strokes) * STROKE_POINTS
        return -magnitude if self.negative else magnitude

    def __str__(self) -> str:
        parts = ["X"] * self.fifty_symbols + (["|" * self.strokes] if self.strokes else [])
        return ("-" if self.negative else "") + " ".join(parts)


def paper_tally(score: int) -> PaperTally:
    """Draw ``score`` (a multiple of 5, at most :data:`MAX_TALLY_POINTS` either way) as a paper tally (TALLY-1).

    >>> paper_tally(-9007199254740990)
    Traceback (most recent call last):
    ...
    sniff_rules.errors.InvalidStateError: TALLY-1: a tally is drawn for at most 1000000 points either way, \
got -9007199254740990
    """
    if type(score) is not int or score % STROKE_POINTS:
        raise InvalidStateError("TALLY-1", f"a tally draws multiples of 5 points, got {described(score, 40)}")
    if abs(score) > MAX_TALLY_POINTS:
        raise InvalidStateError(
            "TALLY-1", f"a tally is drawn for at most {MAX_TALLY_POINTS} points either way, got {score}"
        )
    strokes = abs(score) // STROKE_POINTS
    return PaperTally(score < 0, strokes // STROKES_PER_SYMBOL, strokes % STROKES_PER_SYMBOL)
