"""The OpenSpiel adapter's positions as immutable values, and the step between them.

Kept apart from :mod:`sniff_rules.adapters.openspiel.game` so that it imports neither pyspiel nor numpy:
a :class:`Core` is the lot, the deal, a pending draw, a seat to move, or the end, around the
library's :class:`~sniff_rules.state.State`; :func:`advance` applies an action or a chance
outcome through :func:`~sniff_rules.moves.apply`, :func:`~sniff_rules.state.new_match` and
:func:`~sniff_rules.state.next_round`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeAlias

import attrs

from sniff_rules._fast import constructor
from sniff_rules.adapters.actions import DRAW_ACTION, PASS_ACTION, move_of
from sniff_rules.errors import IllegalMoveError, InvalidRulesError, described
from sniff_rules.moves import Draw, apply, legal_moves
from sniff_rules.position._turn_problems import MAX_SIDE_DEDUCTION
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT

LOT, DEAL, DRAW, PLAY, OVER = range(5)
"""A core's phase: the lot for the opener, the deal, a draw's tile, a seat to move, the end."""

SCOPES: Final = ("round", "match")

HIGHEST_PLAY: Final = 48
"""More than any one placement can score: at most four terms count (two line ends, two
arms), each at most 12 (COUNT-1..4); a bound for the declared utilities."""

Entry: TypeAlias = tuple[int, int, int]
"""One move of the round's log: the seat, its action, and the tile it placed or drew (-1 for a
pass, or a draw whose tile is still to come)."""


@attrs.frozen
class GameShape:
    """The parameters of a game and the bounds they give."""

    rules: Rules
    scope: str
    max_rounds: int
    dealt_tiles: int = attrs.field(
        init=False, default=attrs.Factory(lambda shape: shape.rules.players * shape.rules.hand_size, takes_self=True)
    )
    """The tiles a round deals (SETUP-4), read at every deal node."""

    @classmethod
    def of(cls, players: object, scope: object, max_rounds: object) -> GameShape:
        """The shape for OpenSpiel's parameters; a bad one raises a :class:`~sniff_rules.errors.SniffError`."""
        rules = Rules.standard(players)  # type: ignore[arg-type]
        if scope not in SCOPES:
            raise InvalidRulesError("MATCH-1", f"scope is 'round' or 'match', got {scope!r}")
        if type(max_rounds) is not int or not 1 <= max_rounds <= 1000:
            raise InvalidRulesError("MATCH-1", f"max_rounds is an int 1..1000, got {max_rounds!r}")
        return cls(rules, str(scope), max_rounds if scope == "match" else 1)

    @property
    def players(self) -> int:
        """How many seats."""
        return self.rules.players

    @property
    def boneyard_size(self) -> int:
        """The tiles left undealt (SETUP-4)."""
        return TILE_COUNT - self.rules.players * self.rules.hand_size

    @property
    def round_actions(self) -> int:
        """The most actions seats take in one round: 28 placements, every boneyard draw, and
        up to ``players - 1`` passes before each placement and after the last: a seat passes
        only when nothing fits, and ``players`` passes in a row cannot happen, since the round
        is blocked as soon as no seat can place (BLOCK-1)."""
        return TILE_COUNT + self.boneyard_size + (self.players - 1) * (TILE_COUNT + 1)

    @property
    def max_player_actions(self) -> int:
        """OpenSpiel's ``max_game_length``: the round bound times the rounds."""
        return self.round_actions * self.max_rounds

    @property
    def max_chance_nodes(self) -> int:
        """Per round a lot, a node per dealt tile and one per draw."""
        return (1 + self.players * self.rules.hand_size + self.boneyard_size) * self.max_rounds

    @property
    def utility_bound(self) -> float:
        """The largest return in absolute value (see :func:`returns_of`)."""
        if self.scope == "match":
            return 1.0
        sides = self.rules.sides
        # A side's net points lie between the largest settlement and the target reached by
        # the highest placement; a return is a side's less the mean.
        spread = self.rules.target - 5 + HIGHEST_PLAY + MAX_SIDE_DEDUCTION
        return spread * (sides - 1) / sides


class Core:
    """One position; treated as immutable, so a clone shares it (``__deepcopy__`` is itself).

    ``state`` is the library's state (the last round's end during a later round's lot and
    deal; None before the first deal); ``dealt`` the tiles dealt so far this round, seat 0's
    first; ``log`` this round's moves, ``past`` the logs of the rounds before; ``steps`` the
    actions and outcomes applied; ``deal_at`` the step this round's deal began at; ``start``
    the round as dealt; ``undealt`` during the deal, the tiles not yet dealt, ascending (the deal
    node's outcomes, kept so that no deal node counts them again).
    """

    __slots__ = ("deal_at", "dealt", "log", "opener", "past", "phase", "shape", "start", "state", "steps", "undealt")
    # Built by make_core alone, which sets every slot.
    shape: GameShape
    phase: int
    state: State | None
    opener: int
    dealt: tuple[int, ...]
    log: tuple[Entry, ...]
    past: tuple[tuple[Entry, ...], ...]
    steps: int
    deal_at: int
    start: State | None
    undealt: tuple[int, ...]

    def __deepcopy__(self, memo: object) -> Core:
        return self

    def __reduce__(self) -> tuple[Callable[..., Core], tuple[object, ...]]:
        return make_core, tuple(getattr(self, name) for name in _FIELDS)

    @property
    def round_number(self) -> int:
        """The round being dealt or played, from 1."""
        return len(self.past) + 1


_FIELDS: Final = ("shape", "phase", "state", "opener", "dealt", "log", "past", "steps", "deal_at", "start", "undealt")
_EVERY_TILE: Final = tuple(range(TILE_COUNT))
_PLAYING: Final = Phase.PLAYING
_construct_state: Final = constructor(State)
_new_object: Final = object.__new__


def initial_core(shape: GameShape) -> Core:
    """The position before the first lot."""
    return make_core(shape, LOT, None, -1, (), (), (), 0, 1, None)


def make_core(
    shape: GameShape,
    phase: int,
    state: State | None,
    opener: int,
    dealt: tuple[int, ...],
    log: tuple[Entry, ...],
    past: tuple[tuple[Entry, ...], ...],
    steps: int,
    deal_at: int,
    start: State | None,
    undealt: tuple[int, ...] = (),
) -> Core:
    """A :class:`Core` with these fields. :func:`advance` builds one at every node, so the
    slots are set directly, without ``type.__call__`` and an ``__init__``."""
    core: Core = _new_object(Core)
    core.shape = shape
    core.phase = phase
    core.state = state
    core.opener = opener
    core.dealt = dealt
    core.log = log
    core.past = past
    core.steps = steps
    core.deal_at = deal_at
    core.start = start
    core.undealt = undealt
    return core


def advance(core: Core, action: int) -> Core:
    """The position after a seat's action or a chance outcome; an illegal one raises."""
    phase = core.phase
    if phase == PLAY:
        state: State = core.state  # type: ignore[assignment]
        seat = state.to_move
        if action == DRAW_ACTION:
            moves = legal_moves(state)
            if len(moves) != 1 or type(moves[0]) is not Draw:
                apply(state, Draw(seat))  # raises, citing the rule that refuses the draw (DRAW-1, DRAW-2)
            log = (*core.log, (seat, action, -1))
            return make_core(
                core.shape, DRAW, state, core.opener, (), log, core.past, core.steps + 1, core.deal_at, core.start
            )
        after = apply(state, move_of(action, seat))
        log = (*core.log, (seat, action, -1 if action == PASS_ACTION else after.layout.placements[-1].tile.index))
        if after.phase is _PLAYING:  # the common case of _after_move, without the call
            return make_core(
                core.shape, PLAY, after, core.opener, (), log, core.past, core.steps + 1, core.deal_at, core.start
            )
        return _after_move(core, after, log, core.steps + 1)
    if phase == DEAL:
        undealt = core.undealt
        try:
            if type(action) is not int:
                raise ValueError
            at = undealt.index(action)
        except ValueError:
            raise IllegalMoveError(
                "SETUP-5", f"a deal's outcome is a tile not yet dealt, got {described(action, 80)}"
            ) from None
        dealt = (*core.dealt, action)
        rest = undealt[:at] + undealt[at + 1 :]
        if len(dealt) < core.shape.dealt_tiles:
            return make_core(
                core.shape,
                DEAL,
                core.state,
                core.opener,
                dealt,
                (),
                core.past,
                core.steps + 1,
                core.deal_at,
                None,
                rest,
            )
        return _dealt(core, dealt + rest)
    if phase == DRAW:
        state = core.state  # type: ignore[assignment]
        boneyard = state.boneyard_ids
        try:
            if type(action) is not int:
                raise ValueError
            at = boneyard.index(action)
        except ValueError:
            raise IllegalMoveError(
                "DRAW-2", f"a draw's outcome is a boneyard tile, got {described(action, 80)}"
            ) from None
        # The chance outcome decides which tile is on top; the library then draws it. The
        # boneyard is the same tiles in another order, so the state needs no check again.
        ordered = _construct_state(
            state.context,
            state.phase,
            state.to_move,
            state.hand_masks,
            (boneyard[at], *boneyard[:at], *boneyard[at + 1 :]),
            state.layout,
            state.scores,
            state.drawn,
            state.winner,
        )
        after = apply(ordered, move_of(DRAW_ACTION, state.to_move))
        seat, drew, _ = core.log[-1]
        log = (*core.log[:-1], (seat, drew, action))
        if after.phase is _PLAYING:
            return make_core(
                core.shape, PLAY, after, core.opener, (), log, core.past, core.steps + 1, core.deal_at, core.start
            )
        return _after_move(core, after, log, core.steps + 1)
    if phase == LOT:
        if type(action) is not int or not 0 <= action < core.shape.players:
            raise IllegalMoveError("OPEN-1", f"the lot's outcome is a seat, got {described(action, 80)}")
        return make_core(
            core.shape, DEAL, core.state, action, (), (), core.past, core.steps + 1, core.deal_at, None, _EVERY_TILE
        )
    raise IllegalMoveError("MATCH-2", f"the game is over; {described(action, 80)} is refused")


def _dealt(core: Core, order_ids: tuple[int, ...]) -> Core:
    """The round's first position once every hand is dealt: ``order_ids`` is the deal, then the
    rest as the boneyard, whose order is decided draw by draw, by chance nodes."""
    rules = core.shape.rules
    order = tuple([DOUBLE_SIX[index] for index in order_ids])
    previous = core.state
    if previous is None:
        state = new_match(rules, order=order, opener=core.opener)
    else:
        state = next_round(previous, order=order, opener=core.opener)
    return make_core(core.shape, PLAY, state, state.opener, (), (), core.past, core.steps + 1, core.deal_at, state)


def _after_move(core: Core, after: State, log: tuple[Entry, ...], steps: int) -> Core:
    shape = core.shape
    if after.phase is Phase.PLAYING:
        return make_core(shape, PLAY, after, core.opener, (), log, core.past, steps, core.deal_at, core.start)
    if after.phase is Phase.MATCH_OVER or len(core.past) + 1 >= shape.max_rounds:
        return make_core(shape, OVER, after, core.opener, (), log, core.past, steps, core.deal_at, core.start)
    past = (*core.past, log)
    finisher = after.last_round.finisher if after.last_round is not None else None
    if finisher is None:
        return make_core(shape, LOT, after, -1, (), (), past, steps, steps + 1, None)  # OPEN-2: a lot after a block
    return make_core(
        shape, DEAL, after, finisher, (), (), past, steps, steps, None, _EVERY_TILE
    )  # OPEN-2: the finisher opens


def returns_of(core: Core) -> list[float]:
    """Each seat's return at the end (see :mod:`sniff_rules.adapters.openspiel.game`); zeros before it."""
    shape = core.shape
    rules = shape.rules
    if core.phase != OVER or core.state is None:
        return [0.0] * rules.players
    scores = core.state.scores
    sides = rules.sides
    if shape.scope == "round":
        # Round scope always starts from 0-0, so the scores are the round's net points.
        mean = sum(scores) / sides
        by_side = [score - mean for score in scores]
    else:
        winner = core.state.winner
        best = max(scores)
        leaders = [winner] if winner is not None else [side for side in range(sides) if scores[side] == best]
        share = (sides - len(leaders)) / (len(leaders) * (sides - 1))
        by_side = [share if side in leaders else -1 / (sides - 1) for side in range(sides)]
    return [float(by_side[side]) for side in rules.seat_sides]
