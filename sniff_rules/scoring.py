"""Points for a placement and the settlement of a round.

Pure arithmetic on ints, with PEP 316 contracts that ``crosshair check``
proves (see ``tests/test_contracts.py``).
"""

# CrossHair's search budget for the contracts below: this many paths per condition, the same on any
# machine however busy, where a time budget would search less on a loaded one (tests/test_contracts.py).
# crosshair: max_iterations=100

from __future__ import annotations

from typing import Any, Final, overload

import attrs

from sniff_rules._fast import is_tuple, sealed, unchecked_constructor
from sniff_rules.errors import InvalidStateError
from sniff_rules.layout import Layout
from sniff_rules.rules import Rules
from sniff_rules.tiles import TILE_PIPS, HandMask, Tile, pips_of_mask


def play_points(end_count: int) -> int:
    """Raw points for a placement whose end count is ``end_count`` (POINTS-1).

    A positive multiple of 5 scores exactly itself, never divided by five;
    zero and every other count score nothing.

    pre: end_count >= 0
    post: __return__ % 5 == 0
    post: __return__ in (0, end_count)
    post: (__return__ > 0) == (end_count > 0 and end_count % 5 == 0)

    >>> [play_points(n) for n in (0, 4, 5, 14, 15)]
    [0, 0, 5, 0, 15]
    """
    return end_count if end_count > 0 and end_count % 5 == 0 else 0


def round_to_five(pips: int) -> int:
    """A hand's deduction: pips to the nearest multiple of 5 (SETTLE-1).

    A remainder of 1 or 2 rounds down, 3 or 4 rounds up.

    pre: pips >= 0
    post: __return__ % 5 == 0
    post: abs(__return__ - pips) <= 2
    post: __return__ >= pips if pips % 5 >= 3 else __return__ <= pips
    post: __return__ == (pips + 2) // 5 * 5

    >>> [round_to_five(n) for n in (0, 1, 2, 3, 4, 5, 6, 8)]
    [0, 0, 0, 5, 5, 5, 5, 10]
    """
    remainder = pips % 5
    return pips - remainder if remainder <= 2 else pips + 5 - remainder


@sealed()
@attrs.frozen
class PlayScore:
    """What a placement scores: the end count and the raw points (POINTS-1)."""

    end_count: int
    points: int


@overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
def score_play(layout: Layout) -> PlayScore: ...
def score_play(layout: Any) -> PlayScore:
    """The end count of ``layout`` and the points the placement that made it scores.

    >>> from sniff_rules.tiles import Tile
    >>> score_play(Layout.EMPTY.place(Tile(1, 4), None))
    PlayScore(end_count=5, points=5)
    """
    if type(layout) is not Layout:
        raise InvalidStateError("FORMAT-3", f"score_play scores a Layout, got {layout!r}")
    return PlayScore(layout.end_count, play_points(layout.end_count))


@sealed()
@attrs.frozen(weakref_slot=False)
class Settlement:
    """A round's settlement (SETTLE-1..4).

    ``hand_pips`` and ``deductions`` are per seat; ``side_deductions`` per
    score (the partnership's at four players).
    """

    hand_pips: tuple[int, ...] = attrs.field(validator=is_tuple)
    deductions: tuple[int, ...] = attrs.field(validator=is_tuple)
    side_deductions: tuple[int, ...] = attrs.field(validator=is_tuple)


@overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
def settle_round(rules: Rules, hands: tuple[tuple[Tile, ...], ...]) -> Settlement: ...
def settle_round(rules: Any, hands: Any) -> Settlement:
    """Each hand rounded on its own, then summed per side (SETTLE-1, SETTLE-2).

    The finisher's empty hand costs 0 and nobody is credited with another
    hand's pips (SETTLE-3): settlement only deducts.

    >>> settle_round(Rules.standard(4), ((Tile(1, 2),), (), (Tile(0, 3),), (Tile(4, 6),)))
    Settlement(hand_pips=(3, 0, 3, 10), deductions=(5, 0, 5, 10), side_deductions=(10, 10))
    """
    if not isinstance(rules, Rules):
        raise InvalidStateError("FORMAT-3", f"settle_round takes a Rules value, got {rules!r}")
    if not isinstance(hands, (tuple, list)) or len(hands) != rules.players:
        raise InvalidStateError("SETUP-2", f"{rules.players} players hold {rules.players} hands, got {hands!r}")
    for hand in hands:
        if not isinstance(hand, (tuple, list)) or not all(isinstance(tile, Tile) for tile in hand):
            raise InvalidStateError("FORMAT-3", f"a hand is a tuple of tiles, got {hand!r}")
    held = [tile for hand in hands for tile in hand]
    if len(set(held)) != len(held):
        raise InvalidStateError("SETUP-1", "each tile is in one hand at most, once")
    pips = tuple(sum(tile.pips for tile in hand) for hand in hands)
    return _settlement(rules, pips)


def settle_masks(rules: Rules, hand_masks: tuple[HandMask, ...]) -> Settlement:
    """:func:`settle_round` on the engine's bit-mask hands, without building tiles."""
    return _settlement(rules, tuple([pips_of_mask(mask) for mask in hand_masks]))


def _settlement(rules: Rules, pips: tuple[int, ...]) -> Settlement:
    deductions = tuple([_ROUNDED[p] for p in pips])
    sides = [0] * rules.sides
    seat_sides = rules.seat_sides
    for seat, deduction in enumerate(deductions):
        sides[seat_sides[seat]] += deduction
    return _build_settlement(pips, deductions, tuple(sides))


_build_settlement: Final = unchecked_constructor(Settlement)
"""Settlement(...) without its validators, for the tuples settlement has just built (every round's end)."""


_ROUNDED: Final = tuple(round_to_five(pips) for pips in range(sum(TILE_PIPS) + 1))
"""round_to_five of every pip total a hand can hold: a look-up per hand."""
