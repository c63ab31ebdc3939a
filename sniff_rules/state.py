"""The match state: one frozen value per position, from deal to match end.

A state is made by :func:`new_match`, :func:`next_round` and
:func:`sniff_rules.moves.apply`, never changed. The engine's fields are
small ints (tile indices, bit masks of hands) so a move costs little;
properties give the same facts as :class:`~sniff_rules.tiles.Tile` values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeAlias, final, overload

from sniff_rules._fast import constructor, is_native, refuse_unstorable
from sniff_rules._value_class import value_class
from sniff_rules.errors import InvalidStateError, described
from sniff_rules.layout import Layout
from sniff_rules.randomness import LotRound, RandomSource, SplitMix64, check_source, draw_lot, shuffled
from sniff_rules.round_facts import (
    Phase as Phase,
    RoundContext as RoundContext,
    RoundResult as RoundResult,
    construct_result as construct_result,
)
from sniff_rules.rules import Rules, Seat, Side, check_seat
from sniff_rules.tiles import (
    DOUBLE_SIX,
    FULL_SET_MASK,
    NO_TILE,
    TILE_COUNT,
    HandMask,
    Tile,
    TileIndex,
    TilesText,
    _mask_of_hand,
    _tiles_given,
    hand_masks_of,
    tile_indices_of,
    tiles_of_mask,
    tiles_text,
)


def _check_state_fields(state: Any) -> None:
    """The shape of a State built by a public call (FORMAT-3); whether legal
    play reaches it is another question."""
    context = state.context
    if not isinstance(context, RoundContext):
        raise InvalidStateError("FORMAT-3", f"context is a RoundContext, got {context!r}")
    rules = context.rules
    if type(state.phase) is not Phase:
        raise InvalidStateError("FORMAT-3", f"phase is a Phase, got {state.phase!r}")
    check_seat(rules, state.to_move, "TURN-1", InvalidStateError)
    masks = state.hand_masks
    if type(masks) is not tuple or len(masks) != rules.players:
        raise InvalidStateError("SETUP-2", f"{rules.players} players hold {rules.players} hands, got {masks!r}")
    if not all(type(mask) is int and 0 <= mask <= FULL_SET_MASK for mask in masks):
        raise InvalidStateError("FORMAT-3", f"hand_masks holds sets of tiles as ints, got {masks!r}")
    boneyard = state.boneyard_ids
    if type(boneyard) is not tuple or not all(type(i) is int and 0 <= i < TILE_COUNT for i in boneyard):
        raise InvalidStateError("FORMAT-3", f"boneyard_ids is a tuple of tile indices, got {boneyard!r}")
    if type(state.layout) is not Layout:
        raise InvalidStateError("FORMAT-3", f"layout is a Layout, got {state.layout!r}")
    scores = state.scores
    if type(scores) is not tuple or len(scores) != rules.sides or not all(type(score) is int for score in scores):
        raise InvalidStateError("SETUP-2", f"the match keeps {rules.sides} int scores, got {scores!r}")
    if type(state.drawn) is not int or not NO_TILE <= state.drawn < TILE_COUNT:
        raise InvalidStateError("FORMAT-3", f"drawn is a tile index or -1, got {state.drawn!r}")
    if state.winner is not None and (type(state.winner) is not int or not 0 <= state.winner < rules.sides):
        raise InvalidStateError("MATCH-1", f"the winner is a side 0..{rules.sides - 1} or None, got {state.winner!r}")


@final
@value_class(frozen=True, auto_attribs=True, slots=False, repr=False, weakref_slot=False)
class State:
    """A position of a match of American Sniff.

    ``hand_masks[seat]`` holds bit ``i`` for each tile index ``i`` in the hand;
    ``boneyard_ids`` is the draw pile, next draw first; ``drawn`` is the tile
    index a player drew and now must place (DRAW-2), else -1; ``scores`` has
    one entry per side (:meth:`Rules.side_of`). The round's fixed facts are
    in ``context`` and read through :attr:`rules`, :attr:`round_number`,
    :attr:`opener`, :attr:`source`, :attr:`lot` and :attr:`last_round`.
    :meth:`create` builds a state from tiles, and ``repr`` writes that call.

    A state holds every secret of the match: each hand, the boneyard order
    and the random source. A seat sees only its view
    (:func:`sniff_rules.play.view.observe`).

    >>> State.create(rules=Rules.standard(2), hands=("[0|1] [2|2]", "[3|4]"), boneyard="[5|5]",
    ...              layout="[1|1]", to_move=1)
    State.create(rules=Rules(players=2, hand_size=7, target=250), round_number=1, opener=0, to_move=1, \
hands=('[0|1] [2|2]', '[3|4]'), boneyard='[5|5]', layout='[1|1]', scores=(0, 0))
    """

    context: RoundContext
    phase: Phase
    to_move: Seat
    hand_masks: tuple[HandMask, ...]
    boneyard_ids: tuple[TileIndex, ...]
    layout: Layout
    scores: tuple[int, ...]
    drawn: TileIndex = NO_TILE
    winner: Side | None = None

    def __new__(
        cls,
        context: object,
        phase: object,
        to_move: object,
        hand_masks: object,
        boneyard_ids: object,
        layout: object,
        scores: object,
        drawn: object = NO_TILE,
        winner: object = None,
    ) -> State:
        """Unchecked, for the engine; runs compiled only (the interpreted build replaces it: _fast.frozen_value)."""
        if (
            type(context) is not RoundContext
            or type(phase) is not Phase
            or type(to_move) is not int
            or type(hand_masks) is not tuple
            or type(boneyard_ids) is not tuple
            or type(layout) is not Layout
            or type(scores) is not tuple
            or type(drawn) is not int
            or (winner is not None and type(winner) is not int)
        ):
            refuse_unstorable(
                _check_state_fields,
                cls,
                (context, phase, to_move, hand_masks, boneyard_ids, layout, scores, drawn, winner),
            )
        state = object.__new__(cls)
        object.__setattr__(state, "context", context)
        object.__setattr__(state, "phase", phase)
        object.__setattr__(state, "to_move", to_move)
        object.__setattr__(state, "hand_masks", hand_masks)
        object.__setattr__(state, "boneyard_ids", boneyard_ids)
        object.__setattr__(state, "layout", layout)
        object.__setattr__(state, "scores", scores)
        object.__setattr__(state, "drawn", drawn)
        object.__setattr__(state, "winner", winner)
        return state

    def _check_fields(self) -> None:
        """What ``State(...)`` checks, and ``State.__new__(State, ...)`` does not (FORMAT-3, SETUP-2, TURN-1)."""
        _check_state_fields(self)

    @overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
    @classmethod
    def create(
        cls,
        *,
        rules: Rules,
        hands: Sequence[TilesText],
        boneyard: TilesText,
        layout: Layout | str = Layout.EMPTY,
        scores: tuple[int, ...] | None = None,
        round_number: int = 1,
        opener: Seat = 0,
        to_move: Seat | None = None,
        phase: Phase = Phase.PLAYING,
        drawn: Tile | str | None = None,
        source: RandomSource | None = None,
        lot: tuple[LotRound, ...] = (),
        last_round: RoundResult | None = None,
        winner: Side | None = None,
    ) -> State: ...
    @classmethod
    def create(
        cls,
        *,
        rules: Any,
        hands: Any,
        boneyard: Any,
        layout: Any = Layout.EMPTY,
        scores: Any = None,
        round_number: Any = 1,
        opener: Any = 0,
        to_move: Any = None,
        phase: Any = Phase.PLAYING,
        drawn: Any = None,
        source: Any = None,
        lot: Any = (),
        last_round: Any = None,
        winner: Any = None,
    ) -> State:
        """A state from its facts by name, with tiles as values or text.

        Each hand and the boneyard are tiles (``(Tile(0, 5), Tile(1, 2))``)
        or their text (``'[0|5] [1|2]'``); the layout a :class:`Layout` or
        its text, replayed and checked; ``scores`` default to zeros and
        ``to_move`` to the opener. The shape of every fact is checked; whether
        legal play can reach the position is not (a position check does that).
        """
        if not isinstance(rules, Rules):
            raise InvalidStateError("FORMAT-3", f"rules is a Rules value, got {rules!r}")
        if not isinstance(hands, (tuple, list)) or len(hands) != rules.players:
            raise InvalidStateError(
                "SETUP-2", f"{rules.players} players hold {rules.players} hands, got {described(hands)}"
            )
        masks = hand_masks_of(_mask_of_hand(hand, f"hand {seat}") for seat, hand in enumerate(hands))
        pile = tile_indices_of(tile.index for tile in _tiles_given(boneyard, "the boneyard"))
        table = Layout.parse(layout) if isinstance(layout, str) else layout
        drawn_tile = Tile.parse(drawn) if isinstance(drawn, str) else drawn
        if drawn_tile is not None and not isinstance(drawn_tile, Tile):
            raise InvalidStateError("FORMAT-3", f"drawn is a Tile, its text or None; got {drawn!r}")
        context = RoundContext(rules, round_number, opener, source, lot, last_round)
        return cls(
            context=context,
            phase=phase,
            to_move=opener if to_move is None else to_move,
            hand_masks=masks,
            boneyard_ids=pile,
            layout=table,
            scores=(0,) * rules.sides if scores is None else scores,
            drawn=NO_TILE if drawn_tile is None else drawn_tile.index,
            winner=winner,
        )

    def _repr_svg_(self) -> str:
        """The state as SVG, every hand face up, for a notebook (:func:`sniff_rules.draw.svg.svg`)."""
        # The one import from the core outward, as in Layout._repr_svg_.
        from sniff_rules.draw.svg import svg

        return svg(self)

    def __repr__(self) -> str:
        context = self.context
        facts = [
            f"rules={context.rules!r}",
            f"round_number={context.round_number!r}",
            f"opener={context.opener!r}",
            f"to_move={self.to_move!r}",
            f"hands={tuple(tiles_text(hand) for hand in self.hands)!r}",
            f"boneyard={tiles_text(self.boneyard)!r}",
            f"layout={str(self.layout)!r}",
            f"scores={self.scores!r}",
        ]
        if self.phase is not Phase.PLAYING:
            facts.append(f"phase={self.phase!r}")
        if self.drawn >= 0:
            facts.append(f"drawn={str(DOUBLE_SIX[self.drawn])!r}")
        optional = (("source", context.source), ("lot", context.lot), ("last_round", context.last_round))
        facts += [f"{name}={value!r}" for name, value in optional if value]
        if self.winner is not None:
            facts.append(f"winner={self.winner!r}")
        return f"State.create({', '.join(facts)})"

    @property
    def rules(self) -> Rules:
        """The house rules of the match."""
        return self.context.rules

    @property
    def round_number(self) -> int:
        """1 for the first round of the match."""
        return self.context.round_number

    @property
    def opener(self) -> Seat:
        """The seat that led (or leads) this round (OPEN-1, OPEN-2)."""
        return self.context.opener

    @property
    def source(self) -> RandomSource | None:
        """The random source for the next deals and lots (SETUP-5)."""
        return self.context.source

    @property
    def lot(self) -> tuple[LotRound, ...]:
        """The lot that chose this round's opener; empty when the finisher opens."""
        return self.context.lot

    @property
    def last_round(self) -> RoundResult | None:
        """The most recently ended round: this one once it is over."""
        return self.context.last_round

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's tiles, index order."""
        return tuple(tiles_of_mask(mask) for mask in self.hand_masks)

    def hand(self, seat: Seat) -> tuple[Tile, ...]:
        """One seat's tiles, index order."""
        return tiles_of_mask(self.hand_masks[check_seat(self.rules, seat, "SETUP-2", InvalidStateError)])

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The draw pile as tiles, next draw first."""
        return tuple(DOUBLE_SIX[i] for i in self.boneyard_ids)

    @property
    def drawn_tile(self) -> Tile | None:
        """The tile just drawn that must be placed now (DRAW-2)."""
        return None if self.drawn < 0 else DOUBLE_SIX[self.drawn]

    @property
    def is_over(self) -> bool:
        """The match has a winner (MATCH-1)."""
        return self.phase is Phase.MATCH_OVER

    def score_of(self, seat: Seat) -> int:
        """The score ``seat`` plays for: its own, or its partnership's."""
        return self.scores[self.rules.side_of(seat)]


def _new_state(
    context: RoundContext,
    phase: Phase,
    to_move: Seat,
    hand_masks: tuple[HandMask, ...],
    boneyard_ids: tuple[TileIndex, ...],
    layout: Layout,
    scores: tuple[int, ...],
    drawn: TileIndex = NO_TILE,
    winner: Side | None = None,
) -> State:
    """``State(...)`` unchecked, for the engine: compiled, a direct call of the native ``__new__``;
    interpreted, the name is bound to the generated constructor instead (below), one call cheaper."""
    return State.__new__(State, context, phase, to_move, hand_masks, boneyard_ids, layout, scores, drawn, winner)


if not is_native(State):
    globals()["_new_state"] = constructor(State)


PositionKey: TypeAlias = tuple[object, ...]
"""A hashable key of what decides a position's future; see :func:`position_key`."""


@overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
def position_key(state: State) -> PositionKey: ...
def position_key(state: Any) -> PositionKey:
    """What decides the rest of the match from ``state``, for transposition tables.

    Leaves out the random source, the lot, the last round, the round number,
    the opener and the order in which the tiles on the table were placed:
    two states with equal keys have the same legal moves, and every line
    of play from them reaches the same points, until a deal needs the
    source. Equal states always have equal keys.

    >>> from sniff_rules import Rules, new_match
    >>> position_key(new_match(Rules.standard(2), seed=1)) == position_key(new_match(Rules.standard(2), seed=1))
    True
    """
    if type(state) is not State:
        raise InvalidStateError("FORMAT-3", f"a position key is of a State, got {described(state)}")
    layout = state.layout
    return (
        state.rules,
        state.phase,
        state.to_move,
        state.hand_masks,
        state.boneyard_ids,
        layout.open_point_ids,
        layout.end_count,
        layout.sniff,
        layout.placed_mask,
        state.scores,
        state.drawn,
        state.winner,
    )


def _check_order(order: object) -> tuple[TileIndex, ...]:
    if not isinstance(order, tuple) or len(order) != TILE_COUNT:
        size = f" of {len(order)}" if isinstance(order, tuple) else ""
        raise InvalidStateError("SETUP-5", f"a deal order is a tuple of the 28 tiles, got {type(order).__name__}{size}")
    indices = []
    for tile in order:
        if not isinstance(tile, Tile):
            raise InvalidStateError("SETUP-5", f"a deal order holds tiles, got {tile!r}")
        indices.append(tile.index)
    if len(set(indices)) != TILE_COUNT:
        twice = sorted({str(DOUBLE_SIX[i]) for i in indices if indices.count(i) > 1})
        raise InvalidStateError(
            "SETUP-5", "a deal order holds each of the 28 tiles once; repeated: " + ", ".join(twice)
        )
    return tile_indices_of(indices)


def _choose_opener(
    rules: Rules, opener: object, source: RandomSource | None
) -> tuple[Seat, tuple[LotRound, ...], RandomSource | None]:
    if opener is not None:
        return check_seat(rules, opener, "SETUP-2", InvalidStateError), (), source
    if source is None:
        raise InvalidStateError("OPEN-1", "the opener is drawn by lot: give a seed or source, or name the opener")
    return draw_lot(tuple(range(rules.players)), source)


_BIT: Final = tuple(1 << index for index in range(TILE_COUNT))
_INDEX_OF_BIT: Final = {bit: TileIndex(index) for index, bit in enumerate(_BIT)}


def _deal(
    rules: Rules,
    round_number: int,
    opener: Seat,
    lot: tuple[LotRound, ...],
    order: object,
    source: RandomSource | None,
    scores: tuple[int, ...],
    last_round: RoundResult | None,
) -> State:
    if order is None:
        if source is None:
            raise InvalidStateError("SETUP-5", "the tiles are shuffled by the random source: give one, or an order")
        # Shuffling the tiles' bits rather than their indices gives the same
        # order, and a hand is then one C-level sum: distinct tiles' bits
        # never overlap, so their sum is their union.
        bits, source = shuffled(_BIT, source)
    else:
        bits = tuple([_BIT[index] for index in _check_order(order)])
    size = rules.hand_size
    dealt = rules.players * size
    return _new_state(
        context=RoundContext.__new__(RoundContext, rules, round_number, opener, source, lot, last_round),
        phase=Phase.PLAYING,
        to_move=opener,
        hand_masks=hand_masks_of([sum(bits[start : start + size]) for start in range(0, dealt, size)]),
        boneyard_ids=tile_indices_of([_INDEX_OF_BIT[bit] for bit in bits[dealt:]]),
        layout=Layout.EMPTY,
        scores=scores,
    )


@overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
def new_match(
    rules: Rules,
    seed: int | None = None,
    *,
    source: RandomSource | None = None,
    order: tuple[Tile, ...] | None = None,
    opener: Seat | None = None,
) -> State: ...
def new_match(rules: Any, seed: Any = None, *, source: Any = None, order: Any = None, opener: Any = None) -> State:
    """The first deal of a match.

    Give a ``seed`` (or an injected ``source``, not both) and the lot and
    the shuffle come from it (OPEN-1, SETUP-5): the lot is drawn first, then
    the tiles are shuffled. A frontend that shuffles itself passes ``order``
    (all 28 tiles; seat 0 gets the first ``hand_size``, seat 1 the next, the
    rest is the boneyard, drawn from the front) and may name the ``opener``.

    >>> state = new_match(Rules.standard(2), seed=1)
    >>> state.round_number, state.opener, len(state.hand(0)), len(state.boneyard)
    (1, 0, 7, 14)
    """
    if not isinstance(rules, Rules):
        raise InvalidStateError("SETUP-2", f"rules must be a Rules value, got {rules!r}")
    if source is not None:
        if seed is not None:
            raise InvalidStateError("SETUP-5", "give a seed or a random source, not both")
        source = check_source(source)
    elif seed is not None:
        source = SplitMix64.from_seed(seed)
    first, lot, source = _choose_opener(rules, opener, source)
    return _deal(rules, 1, first, lot, order, source, (0,) * rules.sides, None)


@overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
def next_round(state: State, *, order: tuple[Tile, ...] | None = None, opener: Seat | None = None) -> State: ...
def next_round(state: Any, *, order: Any = None, opener: Any = None) -> State:
    """Deal the next round after a settled one (OPEN-2).

    The finisher opens; after a block a new lot picks the opener, unless
    the frontend names one. Tiles are shuffled from the state's source
    unless ``order`` is given.
    """
    if type(state) is not State:
        raise InvalidStateError("FORMAT-3", f"next_round deals after a State, got {described(state)}")
    if state.phase is not Phase.ROUND_OVER or state.last_round is None:
        rule = "MATCH-2" if state.phase is Phase.MATCH_OVER else "END-1"
        raise InvalidStateError(rule, f"a new round is dealt only after a round ends; the match is {state.phase.value}")
    finisher = state.last_round.finisher
    source = state.source
    if opener is not None:
        # A seat the table does not have is SETUP-2 whoever may open (CONV-3), before OPEN-2 asks who may.
        check_seat(state.rules, opener, "SETUP-2", InvalidStateError)
    if finisher is not None:
        if opener is not None and opener != finisher:
            raise InvalidStateError(
                "OPEN-2", f"seat {finisher} played out and opens the next round, not seat {opener!r}"
            )
        first: Seat = finisher
        lot: tuple[LotRound, ...] = ()
    else:
        first, lot, source = _choose_opener(state.rules, opener, source)
    return _deal(state.rules, state.round_number + 1, first, lot, order, source, state.scores, state.last_round)
