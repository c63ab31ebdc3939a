"""The rules' arithmetic as small pure functions with PEP 316 contracts.

Every function here takes and returns ints and tuples only, so ``crosshair
check`` can explore it symbolically: it cannot build the engine's attrs
classes from symbolic values, and bit operations on symbolic ints, the
engine's hands, stall its solver (see ``tests/test_contracts.py``). Where a
function restates what the engine computes, ``tests/test_contracts_agree.py``
shows the two agree on states reached by play, so what is proved here holds
for the engine on those states.

Compact descriptions used below:

* a tile is its index 0..27 (SETUP-1) or its ``(low, high)`` pips;
* a hand is a tuple of tile indices, ascending as the engine lists them;
* the open points of a layout are their values, in the engine's point
  order, and an empty tuple stands for the empty table. A layout with a
  tile on it never has fewer than one open point nor more than four: the
  lead opens two, each later placement closes one and opens one, and only
  the Sniff's arms add two (SNIFF-3);
* a move is ``(point, tile)``: ``point`` is the position of its open point
  in that tuple, or :data:`LEAD`; a draw and a pass place nothing and are
  ``(DRAW, -1)`` and ``(PASS, -1)``.

The legal-move functions accept open values that no tile shows (outside
0..6), which simply match nothing: their preconditions are kept to what the
arithmetic needs, because each one rejects some of crosshair's symbolic
inputs and slows its search for a counterexample.
"""

# CrossHair's search budget for the contracts below: this many paths per condition, the same on any
# machine however busy, where a time budget would search less on a loaded one (tests/test_contracts.py).
# crosshair: max_iterations=100

from __future__ import annotations

from typing import Final, TypeAlias

from sniff_rules.tiles import HIGH_PIP, LOW_PIP, PIP_MASK, tile_index_of

LEAD: Final = -1
"""The ``point`` of a lead on the empty table (OPEN-3)."""
DRAW: Final = -2
"""The ``point`` of a draw (DRAW-2); its tile is -1."""
PASS: Final = -3
"""The ``point`` of a pass (PASS-1); its tile is -1."""

Move: TypeAlias = tuple[int, int]
"""``(point, tile)``, see the module docstring."""


def tile_pips_of(index: int) -> tuple[int, int]:
    """The ``(low, high)`` pips of the tile numbered ``index`` (SETUP-1).

    The last condition ties the engine's pip tables to this arithmetic.

    pre: 0 <= index < 28
    post: 0 <= __return__[0] <= __return__[1] <= 6
    post: tile_index_of(__return__[0], __return__[1]) == index
    post: __return__ == (LOW_PIP[index], HIGH_PIP[index])
    """
    low = 0
    first = 0  # the index of [low|low]; each row of the set is one tile shorter than the last
    while index >= first + 7 - low:
        first += 7 - low
        low += 1
    return low, low + index - first


def tile_from_pips(a: int, b: int) -> int:
    """The index of the tile with halves ``a`` and ``b`` in either order,
    like :meth:`~sniff_rules.tiles.Tile.of` (SETUP-1).

    pre: 0 <= a <= 6 and 0 <= b <= 6
    post: 0 <= __return__ < 28
    post: tile_pips_of(__return__) == (min(a, b), max(a, b))
    """
    return tile_index_of(a, b) if a <= b else tile_index_of(b, a)


def tile_set(highest: int) -> tuple[tuple[int, int], ...]:
    """Every tile of the double-``highest`` set once, low half first, in
    index order; ``tile_set(6)`` is the game's set (SETUP-1).

    pre: 0 <= highest <= 6
    post: len(__return__) == (highest + 1) * (highest + 2) // 2
    post: all(0 <= low <= high <= highest for low, high in __return__)
    post: all(__return__[i] < __return__[i + 1] for i in range(len(__return__) - 1))
    post: highest < 6 or all(tile_index_of(low, high) == i for i, (low, high) in enumerate(__return__))
    """
    return tuple((low, high) for low in range(highest + 1) for high in range(low, highest + 1))


def pip_mask(pip: int) -> int:
    """The engine's bit mask of the seven tiles that show ``pip``.

    The condition checks the engine's table against the pips of each tile.

    pre: 0 <= pip <= 6
    post: __return__ == sum(1 << i for i in range(28) if pip in tile_pips_of(i))
    """
    return PIP_MASK[pip]


def end_count_of(
    free_ends: tuple[int, ...], doubles: tuple[tuple[int, int], ...], sniff: tuple[int, int, int] | None
) -> int:
    """The end count of a layout described by what can score (COUNT-1..4).

    ``free_ends``: the pips of every uncovered end of a non-double (at most
    four, as there are at most four open points). ``doubles``: each
    ordinary double on the table as ``(value, long sides occupied)``, 1 or
    2, since only the Sniff can be the lead. ``sniff``: ``(value, long
    sides occupied, arms covered)``, or None while no double is down; arms
    are covered only once both long sides are occupied (SNIFF-2).

    pre: len(free_ends) <= 4 and all(0 <= pips <= 6 for pips in free_ends)
    pre: all(0 <= value <= 6 and 1 <= sides <= 2 for value, sides in doubles)
    pre: sniff is None or (0 <= sniff[0] <= 6 and 0 <= sniff[1] <= 2 and 0 <= sniff[2] <= (2 if sniff[1] == 2 else 0))
    post: __return__ == sum(free_ends) + sum(2 * value for value, sides in doubles if sides < 2) + (0 if sniff is None else 2 * sniff[0] if sniff[1] < 2 else (2 - sniff[2]) * sniff[0])
    """  # noqa: E501 - CrossHair reads each condition from one line
    count = 0
    for pips in free_ends:
        count += pips  # COUNT-1
    for value, sides in doubles:
        if sides < 2:
            count += 2 * value  # COUNT-2: both halves, counted once
        # COUNT-3: an extended ordinary double is internal and counts nothing
    if sniff is not None:
        value, sides, arms_covered = sniff
        if sides < 2:
            count += 2 * value  # COUNT-2 holds for the Sniff as well
        else:
            count += (2 - arms_covered) * value  # COUNT-4: one half per uncovered arm
    return count


def settle_hands(pips_per_seat: tuple[int, ...], players: int) -> tuple[int, ...]:
    """What each side loses at settlement, from each seat's pips (SETTLE-1..3).

    Each hand is rounded to five on its own (SETTLE-1) before partners'
    amounts are added (SETTLE-2), and goes to its own side only (SETTLE-3).
    ``(p + 2) // 5 * 5`` is SETTLE-1 in closed form: remainders 1 and 2
    round down, 3 and 4 up. No hand holds more than the 168 pips of the set.

    pre: 2 <= players <= 4
    pre: len(pips_per_seat) == players
    pre: all(0 <= pips <= 168 for pips in pips_per_seat)
    post: len(__return__) == (2 if players == 4 else players)
    post: all(deduction >= 0 and deduction % 5 == 0 for deduction in __return__)
    post: all(__return__[side] == sum((pips_per_seat[seat] + 2) // 5 * 5 for seat in range(side, players, len(__return__))) for side in range(len(__return__)))
    """  # noqa: E501 - CrossHair reads each condition from one line
    sides = 2 if players == 4 else players
    deductions = [0] * sides
    for seat, pips in enumerate(pips_per_seat):
        remainder = pips % 5
        deductions[seat % sides] += pips - remainder if remainder <= 2 else pips + 5 - remainder
    return tuple(deductions)


def _fits(tile: int, value: int) -> bool:
    return LOW_PIP[tile] == value or HIGH_PIP[tile] == value


def placeable_tiles(hand: tuple[int, ...], open_values: tuple[int, ...]) -> tuple[int, ...]:
    """The tiles of ``hand`` that fit some open point; on the empty table the
    whole hand, as any tile may lead (PLACE-1, OPEN-3).

    pre: all(0 <= tile < 28 for tile in hand)
    pre: len(open_values) <= 4
    post: list(__return__) == [tile for tile in hand if not open_values or any(value in tile_pips_of(tile) for value in open_values)]
    """  # noqa: E501 - CrossHair reads each condition from one line
    if not open_values:
        return hand
    return tuple(tile for tile in hand if any(_fits(tile, value) for value in open_values))


def legal_placements(hand: tuple[int, ...], open_values: tuple[int, ...]) -> tuple[Move, ...]:
    """Every placement from ``hand``, by open point and then in hand order,
    as the engine lists them; a tile that fits two points is listed for
    each (PLACE-1, PLACE-3, OPEN-3).

    pre: all(0 <= tile < 28 for tile in hand)
    pre: len(open_values) <= 4
    post: list(__return__) == [(point, tile) for point in (range(len(open_values)) if open_values else (LEAD,)) for tile in hand if not open_values or open_values[point] in tile_pips_of(tile)]
    """  # noqa: E501 - CrossHair reads each condition from one line
    if not open_values:
        return tuple((LEAD, tile) for tile in hand)
    return tuple((point, tile) for point, value in enumerate(open_values) for tile in hand if _fits(tile, value))


def placing_hand(hand: tuple[int, ...], drawn: int) -> tuple[int, ...]:
    """The tiles the seat to move may place: its whole hand, or only the tile
    it just drew, ``drawn``, which fits and must be placed now (DRAW-2).

    pre: drawn == -1 or drawn in hand
    post: drawn >= 0 or __return__ == hand
    post: drawn < 0 or __return__ == (drawn,)
    """
    return hand if drawn < 0 else (drawn,)


def turn_moves(hand: tuple[int, ...], open_values: tuple[int, ...], boneyard_left: int) -> tuple[Move, ...]:
    """Every move of the seat to move: its placements, else a draw, else a
    pass. ``hand`` is what :func:`placing_hand` gives.

    pre: all(0 <= tile < 28 for tile in hand)
    pre: len(open_values) <= 4
    pre: boneyard_left >= 0
    post: not placeable_tiles(hand, open_values) or all(point not in (DRAW, PASS) for point, _ in __return__)
    post: bool(placeable_tiles(hand, open_values)) or __return__ == ((DRAW if boneyard_left else PASS, -1),)
    """
    placements = legal_placements(hand, open_values)
    if placements:
        return placements  # DRAW-1: who can place must place
    return ((DRAW if boneyard_left else PASS, -1),)  # DRAW-2, PASS-1
