"""A fixed action space until sniff_rules.actions lands: leads, (point, tile) placements, draw, pass."""

from __future__ import annotations

from typing import Final

from sniff_rules.errors import InvalidMoveError
from sniff_rules.layout import POINT_VALUE, POINTS, VALID_POINT_IDS
from sniff_rules.moves import Draw, Move, Pass, Place
from sniff_rules.rules import Seat
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT

_PAIRS: Final = tuple(
    (point_id, tile.index)
    for point_id in sorted(VALID_POINT_IDS)
    for tile in DOUBLE_SIX
    if POINT_VALUE[point_id] in (tile.low, tile.high) and tile.index != point_id // 6
)
_PAIR_ACTION: Final = {pair: TILE_COUNT + n for n, pair in enumerate(_PAIRS)}
DRAW_ACTION: Final = TILE_COUNT + len(_PAIRS)
PASS_ACTION: Final = DRAW_ACTION + 1
NUM_ACTIONS: Final = PASS_ACTION + 1


def action_of(move: Move) -> int:
    """The action id of ``move``."""
    if type(move) is Place:
        if move.target is None:
            return move.tile.index
        return _PAIR_ACTION[move.target.id, move.tile.index]
    return DRAW_ACTION if type(move) is Draw else PASS_ACTION


def move_of(action: int, seat: Seat) -> Move:
    """The move of action id ``action`` for ``seat``."""
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        raise InvalidMoveError("TURN-1", f"an action id is an int 0..{NUM_ACTIONS - 1}, got {action!r}")
    if action < TILE_COUNT:
        return Place(seat, DOUBLE_SIX[action])
    if action == DRAW_ACTION:
        return Draw(seat)
    if action == PASS_ACTION:
        return Pass(seat)
    point_id, index = _PAIRS[action - TILE_COUNT]
    return Place(seat, DOUBLE_SIX[index], POINTS[point_id])
