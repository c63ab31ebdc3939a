"""What an agent of the PettingZoo environment observes: its vector and its action mask.

An agent's observation is ``{"observation": int32 vector, "action_mask": int8
vector}``, built from what the seat may see (:func:`sniff_rules.play.view.observe`
and the round's public log, :class:`sniff_rules.play.history.RoundLog`): never
another hand, the boneyard's order or the random source. The mask is
non-zero only for the agent to move. Seats are counted from the observer
("relative": 0 is the observer, 1 the seat after it) and sides from the
observer's own. The vector, in order:

====================  ==============  =======================================
part                  length          value
====================  ==============  =======================================
hand                  28              1 for each tile the seat holds
drawn                 28              1 for the drawn tile it must place now (DRAW-2)
on the table          28              1 for each tile placed
Sniff                 7               1 for the Sniff's value, once a double is down (SNIFF-1)
counted               28              per tile, what it adds to the end count (COUNT-1..4);
                                      for [0|0], which adds no pips, how many times it is listed
open points           70              1 for each open point, in point-id order of the 70 points
end count             1               the end count
hand sizes            players         tiles each seat holds, relative
boneyard              1               tiles left to draw
scores                sides           each side's score, own side first
lacking               7 * players     per relative seat, 1 for each value the public log shows it lacks
to move               players         1 for the seat to move, relative
====================  ==============  =======================================

Every entry can take more than one value (no entry is always 0, as the 98 attachment points
that no tile has and the Sniff entries of tiles that are no double would be), and
:meth:`ObservationShape.bounds` are true and tight: an entry's highest value is the most it
can reach (a tile's pips for its count, 48 for the end count: at most four terms of at most
12, a hand's size at the deal plus the whole boneyard), and the scores lie between the largest
settlement of a round (in ``match`` scope, of as many rounds as ``max_cycles`` allows; with
no cap the type's own bound, since settlement only subtracts) and the target less 5 plus the
highest placement, 48 (MATCH-1: only a placement reaches the target).

:func:`observation_of` builds it from a seat view, the reference;
:class:`~sniff_rules.adapters.pettingzoo.environment.raw_env` builds the
same arrays from the state's own fields (:func:`_encode_state`,
:func:`_state_mask`), keeping the layout's part (:func:`_table_part`)
until the next placement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeAlias

import sniff_rules.adapters.actions as actions
from sniff_rules.layout import VALID_POINT_IDS, Contribution, Layout
from sniff_rules.play.events import Event
from sniff_rules.play.history import RoundLog
from sniff_rules.play.view import Observation, SeatView, seat_view
from sniff_rules.position._turn_problems import MAX_SIDE_DEDUCTION
from sniff_rules.rules import Rules, Seat, side_of_seat
from sniff_rules.state import Phase, State
from sniff_rules.tiles import DOUBLE_SIX, HIGHEST_PIP, TILE_COUNT, TILE_PIPS, indices_of_mask

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(
        f"sniff_rules.adapters.pettingzoo.observation needs the pettingzoo extra ({missing.name} is missing): "
        "pip install 'sniff-rules[pettingzoo]'"
    ) from missing

Observed: TypeAlias = dict[str, "NDArray[Any]"]
"""An agent's observation: ``{"observation": ..., "action_mask": ...}``."""

NUM_ACTIONS: Final = actions.ACTION_COUNT
"""The length of the action mask: the size of the action space, the same for every player count."""

_VALUES: Final = HIGHEST_PIP + 1
_POINT_POSITION: Final = {point_id: position for position, point_id in enumerate(sorted(VALID_POINT_IDS))}
"""Where each attachment point's entry sits in the open points part."""
_SCORE_BOUND: Final = 2**31 - 1
"""Scores have no floor in a match without a cap (SETTLE-4): the bound is the vector's type's."""
HIGHEST_PLAY: Final = 48
"""More than any one placement can score, and the highest end count: at most four terms count
(two line ends, two arms), each at most 12 (COUNT-1..4)."""


class ObservationShape:
    """Where each part of the observation vector of a ``players``-seat table starts, and its bounds
    for an episode of ``scope`` capped at ``max_cycles``.

    >>> shape = ObservationShape(4)
    >>> shape.size, shape.open_points, shape.scores
    (229, 119, 195)
    """

    def __init__(self, players: int, scope: str = "round", max_cycles: int | None = None) -> None:
        rules = Rules.standard(players)
        self.players: Final = players
        self.sides: Final = rules.sides
        self.rules: Final = rules
        self.scope: Final = scope
        self.max_cycles: Final = max_cycles
        self.boneyard_size: Final = TILE_COUNT - players * rules.hand_size
        """The tiles left to draw at the deal."""
        self.hand: Final = 0
        self.drawn: Final = TILE_COUNT
        self.table: Final = self.drawn + TILE_COUNT
        self.sniff: Final = self.table + TILE_COUNT
        self.counted: Final = self.sniff + _VALUES
        self.open_points: Final = self.counted + TILE_COUNT
        self.end_count: Final = self.open_points + len(_POINT_POSITION)
        self.hand_sizes: Final = self.end_count + 1
        self.boneyard: Final = self.hand_sizes + players
        self.scores: Final = self.boneyard + 1
        self.lacking: Final = self.scores + self.sides
        self.to_move: Final = self.lacking + _VALUES * players
        self.size: Final = self.to_move + players
        self.rotations: Final = tuple(tuple((me + k) % players for k in range(players)) for me in range(players))
        """Per observer, the seats from its own on."""
        self.side_rotations: Final = tuple(
            tuple((side_of_seat(players, me) + k) % self.sides for k in range(self.sides)) for me in range(players)
        )
        """Per observer, the sides from its own on."""

    def bounds(self) -> tuple[NDArray[np.int32], NDArray[np.int32]]:
        """The lowest and highest value of each entry (see the module)."""
        low = np.zeros(self.size, np.int32)
        high = np.ones(self.size, np.int32)
        counted = list(TILE_PIPS)
        counted[0] = 2  # [0|0] as the Sniff with both arms open is listed twice (COUNT-4)
        high[self.counted : self.counted + TILE_COUNT] = counted
        high[self.end_count] = HIGHEST_PLAY
        high[self.hand_sizes : self.hand_sizes + self.players] = self.rules.hand_size + self.boneyard_size
        high[self.boneyard] = self.boneyard_size
        if self.scope == "round":
            lowest = -MAX_SIDE_DEDUCTION
        elif self.max_cycles is not None:
            # A round takes at least one action, so a capped match has at most that many settlements.
            lowest = max(-_SCORE_BOUND, -MAX_SIDE_DEDUCTION * self.max_cycles * self.players)
        else:
            lowest = -_SCORE_BOUND
        low[self.scores : self.scores + self.sides] = lowest
        high[self.scores : self.scores + self.sides] = self.rules.target - 5 + HIGHEST_PLAY
        return low, high


def _table_part(
    shape: ObservationShape, layout: Layout, contributions: Sequence[Contribution] | None = None
) -> NDArray[np.int32]:
    """The entries from "on the table" to "end count": what the layout alone decides.

    ``contributions`` are the layout's own, when a :class:`~sniff_rules.play.events.Placed` already holds them.
    """
    part = np.zeros(shape.hand_sizes - shape.table, np.int32)
    for index in indices_of_mask(layout.placed_mask):
        part[index] = 1
    if layout.sniff >= 0:
        part[shape.sniff - shape.table + DOUBLE_SIX[layout.sniff].low] = 1
    opened = shape.open_points - shape.table
    for point_id in layout.open_point_ids:
        part[opened + _POINT_POSITION[point_id]] = 1
    counted = shape.counted - shape.table
    for item in layout.contributions if contributions is None else contributions:
        index = item.tile.index
        # [0|0] adds no pips: its entry counts its listings instead, so that it is not always 0.
        part[counted + index] += item.value if index else 1
    part[-1] = layout.end_count
    return part


def _encode(
    shape: ObservationShape,
    view: Observation | SeatView,
    lacking: Sequence[Sequence[int]],
    table_part: NDArray[np.int32],
) -> NDArray[np.int32]:
    """The observation vector of ``view``, the seat's view, given the values each seat
    lacks and :func:`_table_part` of its layout."""
    me = view.seat
    seats = shape.rotations[me]
    vector = np.zeros(shape.size, np.int32)
    ones: list[int] = [tile.index for tile in view.hand]
    if view.drawn_tile is not None:
        ones.append(shape.drawn + view.drawn_tile.index)
    lacking_at = shape.lacking
    for seat in seats:
        ones += [lacking_at + value for value in lacking[seat]]
        lacking_at += _VALUES
    ones.append(shape.to_move + seats.index(view.to_move))
    vector[ones] = 1
    vector[shape.table : shape.hand_sizes] = table_part
    # Hand sizes, the boneyard and the scores sit side by side: one assignment.
    sizes, scores = view.hand_sizes, view.scores
    vector[shape.hand_sizes : shape.lacking] = [
        *[sizes[seat] for seat in seats],
        view.boneyard_size,
        *[scores[side] for side in shape.side_rotations[me]],
    ]
    return vector


def _encode_state(
    shape: ObservationShape,
    state: State,
    seat: Seat,
    lacking: Sequence[Sequence[int]],
    base: NDArray[np.int32],
) -> NDArray[np.int32]:
    """:func:`_encode` of ``observe(state, seat)``, read from the state's own fields: the seat's
    hand and its drawn tile on its turn, the sizes, the scores; ``base`` holds
    :func:`_table_part` of the layout in place and zeros elsewhere."""
    # A few dozen entries change: one numpy store each costs less than building index lists.
    seats = shape.rotations[seat]
    vector = base.copy()
    for index in indices_of_mask(state.hand_masks[seat]):
        vector[index] = 1
    if seat == state.to_move and state.phase is Phase.PLAYING and state.drawn >= 0:
        vector[shape.drawn + state.drawn] = 1
    lacking_at = shape.lacking
    masks = state.hand_masks
    at = shape.hand_sizes
    for other in seats:
        for value in lacking[other]:
            vector[lacking_at + value] = 1
        lacking_at += _VALUES
        vector[at] = masks[other].bit_count()
        at += 1
    vector[shape.to_move + seats.index(state.to_move)] = 1
    vector[at] = len(state.boneyard_ids)
    at += 1
    scores = state.scores
    for side in shape.side_rotations[seat]:
        vector[at] = scores[side]
        at += 1
    return vector


def _state_mask(state: State, seat: Seat) -> NDArray[np.int8]:
    """:func:`_mask` of ``observe(state, seat)``: the legal actions, on the seat's own turn only."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if seat == state.to_move and state.phase is Phase.PLAYING:
        for action in actions.legal_actions(state):
            mask[action] = 1
    return mask


def _mask(view: Observation | SeatView) -> NDArray[np.int8]:
    mask = np.zeros(NUM_ACTIONS, np.int8)
    moves = view.legal_moves
    if moves:
        mask[list(actions.actions_of_moves(moves))] = 1
    return mask


def observation_of(state: State, events: Sequence[Event], seat: Seat) -> Observed:
    """The observation of ``seat``, from :func:`sniff_rules.play.view.seat_view` of ``state``
    and the round's ``events`` (from its deal on): what the environment gives that agent.

    The environment builds the same arrays more cheaply, from the state's
    fields that :func:`~sniff_rules.play.view.observe` would give the seat and
    each seat's lacking values folded one event at a time
    (:func:`~sniff_rules.play.history.lack_after`); this is the reference it is
    tested against.
    """
    view = seat_view(state, seat, events)
    shape = ObservationShape(state.rules.players)
    vector = _encode(shape, view, view.lacking, _table_part(shape, view.layout))
    return {"observation": vector, "action_mask": _mask(view)}


def _lacking_of(public: Sequence[Event], players: int) -> tuple[tuple[int, ...], ...]:
    """Per seat, the values the round's public log (its events as every seat sees them,
    from the deal on) shows its hand lacks (DRAW-1, PASS-1)."""
    log = RoundLog(None, tuple(public))
    return tuple(log.lacking(seat) for seat in range(players))


def _observation(
    shape: ObservationShape, view: Observation, lacking: Sequence[Sequence[int]], table_part: NDArray[np.int32]
) -> Observed:
    """An observation dict from the thin view of :func:`~sniff_rules.play.view.observe` (the tests' other reference)."""
    return {"observation": _encode(shape, view, lacking, table_part), "action_mask": _mask(view)}
