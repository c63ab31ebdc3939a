"""A fixed action space: every move of American Sniff as one int, for learning libraries.

OpenSpiel and PettingZoo want a game's moves numbered once and for all, the
same at every state, so that a policy is a vector over them. The numbering
here covers every move of any seat (the seat is the one to move, so it is not
part of the id):

=================  ===============  ====================================
ids                count            move
=================  ===============  ====================================
0 .. 27            28               the lead of tile ``id`` (OPEN-3)
28 .. 447          420              a tile placed on an attachment point
448                1                draw from the boneyard (DRAW-1, DRAW-2)
449                1                pass (PASS-1)
=================  ===============  ====================================

Tiles are numbered 0..27 as in :data:`~sniff_rules.tiles.DOUBLE_SIX`, points
by their id (tile index * 6 + port, :data:`~sniff_rules.layout.PointId`).
The placements are every (point, tile) pair where the tile shows the point's
value and is not the point's own tile: 70 points, 6 tiles each, numbered in
order of point id, then tile index. That is the order
:func:`~sniff_rules.moves.legal_moves` lists moves in (CONV-2), so
:func:`legal_actions` is sorted without sorting.

>>> from sniff_rules import Rules, new_match
>>> state = new_match(Rules.standard(4), seed=3)
>>> legal_actions(state)[:3]
(1, 16, 19)
>>> move_of(16, state.to_move), action_text(16)
(Place(3, Tile(2, 5)), '[2|5]')
>>> action_text(28), action_text(DRAW_ACTION), action_of(Pass(0))
('[0|1]>[0|0].chain-a', 'draw', 449)
"""

from __future__ import annotations

from typing import Final, TypeAlias, cast

from sniff_rules.errors import InvalidMoveError, described
from sniff_rules.layout import POINT_VALUE, POINTS, PORTS, VALID_POINT_IDS
from sniff_rules.moves import Draw, Move, Pass, Place, legal_moves
from sniff_rules.rules import MAX_PLAYERS, Seat
from sniff_rules.state import State
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT

Action: TypeAlias = int
"""A move's id, 0..:data:`ACTION_COUNT` - 1."""

LEAD_BASE: Final = 0
"""The lead of tile ``i`` is action ``LEAD_BASE + i``."""
PLACE_BASE: Final = LEAD_BASE + TILE_COUNT
"""The first placement's id."""

_PAIRS: Final = tuple(
    (point_id, tile.index)
    for point_id in sorted(VALID_POINT_IDS)
    for tile in DOUBLE_SIX
    if tile.index != point_id // PORTS and POINT_VALUE[point_id] in (tile.low, tile.high)
)
"""Every (point id, tile index) placement the space numbers, in id order."""

PLACEMENT_COUNT: Final = len(_PAIRS)
"""How many (point, tile) placements are numbered: 420."""
DRAW_ACTION: Final = PLACE_BASE + PLACEMENT_COUNT
"""The id of a draw."""
PASS_ACTION: Final = DRAW_ACTION + 1
"""The id of a pass."""
ACTION_COUNT: Final = PASS_ACTION + 1
"""The size of the action space: 450."""

_PLACE_ACTION: Final = [-1] * (len(POINTS) * TILE_COUNT)
"""Action of ``point_id * 28 + tile index``, -1 where no placement is numbered."""
for _action, (_point_id, _index) in enumerate(_PAIRS, PLACE_BASE):
    _PLACE_ACTION[_point_id * TILE_COUNT + _index] = _action

_MOVES: Final[tuple[tuple[Move, ...], ...]] = tuple(
    tuple(
        [Place(seat, tile) for tile in DOUBLE_SIX]
        + [Place(seat, DOUBLE_SIX[index], POINTS[point_id]) for point_id, index in _PAIRS]
        + [Draw(seat), Pass(seat)]
    )
    for seat in range(MAX_PLAYERS)
)
"""Each seat's move of each action."""

_TEXTS: Final = tuple(
    "draw" if type(move) is Draw else "pass" if type(move) is Pass else str(move).partition(":")[2]
    for move in _MOVES[0]
)


def _check_action(action: object) -> Action:
    if type(action) is not int or not 0 <= action < ACTION_COUNT:
        raise InvalidMoveError("TURN-1", f"an action is an int 0..{ACTION_COUNT - 1}, got {described(action, 80)}")
    return action


def action_of(move: Move) -> Action:
    """The id of ``move`` (its seat is not part of the id).

    A placement the space does not number (a tile on its own point, or on a
    point whose value it does not show) is no move of any state and raises
    :class:`~sniff_rules.errors.InvalidMoveError`.
    """
    if type(move) is Place:
        target = move.target
        index = move.tile.index
        if target is None:
            return LEAD_BASE + index
        action = _PLACE_ACTION[target.id * TILE_COUNT + index]
        if action < 0:
            raise InvalidMoveError("PLACE-1", f"{move} puts a tile where it cannot attach: no action numbers it")
        return action
    if type(move) is Draw:
        return DRAW_ACTION
    if type(move) is Pass:
        return PASS_ACTION
    raise InvalidMoveError("TURN-1", f"a move is a Place, Draw or Pass, got {described(move, 80)}")


def move_of(action: Action, seat: Seat) -> Move:
    """The move ``action`` stands for when ``seat`` makes it.

    Whether it is legal is for :func:`~sniff_rules.moves.apply` to say.
    """
    if type(seat) is not int or not 0 <= seat < MAX_PLAYERS:
        raise InvalidMoveError("TURN-2", f"a move names its seat as an int 0..{MAX_PLAYERS - 1}, got {seat!r}")
    return _MOVES[seat][_check_action(action)]


def action_text(action: Action) -> str:
    """The move's text without its seat: ``[2|5]``, ``[3|5]>[2|5].high``, ``draw``, ``pass``."""
    return _TEXTS[_check_action(action)]


def actions_of_moves(moves: tuple[Move, ...]) -> tuple[Action, ...]:
    """The ids of ``moves``, in their order."""
    return tuple([action_of(move) for move in moves])


def legal_actions(state: State) -> tuple[Action, ...]:
    """The ids of :func:`~sniff_rules.moves.legal_moves`, ascending; empty once the round or match is over."""
    moves = legal_moves(state)
    if not moves:
        return ()
    first = moves[0]
    if type(first) is Draw:
        return (DRAW_ACTION,)
    if type(first) is Pass:
        return (PASS_ACTION,)
    # Otherwise every move is a placement (DRAW-1), and all leads or none (OPEN-3).
    places = cast("tuple[Place, ...]", moves)
    if places[0].target is None:
        return tuple([LEAD_BASE + place.tile.index for place in places])
    table = _PLACE_ACTION
    return tuple([table[place.target.id * TILE_COUNT + place.tile.index] for place in places])  # type: ignore[union-attr]
