"""The match state: one frozen value per position, from deal to match end.

A state is made by :func:`new_match`, :func:`next_round` and
:func:`sniff_rules.moves.apply`, never changed. The engine's fields are
small ints (tile indices, bit masks of hands) so a move costs little;
properties give the same facts as :class:`~sniff_rules.tiles.Tile` values.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, Final, final


import attrs

from sniff_rules.errors import InvalidStateError
from sniff_rules.layout import Layout
from sniff_rules.randomness import LotRound, RandomSource, SplitMix64, draw_lot, shuffled
from sniff_rules.rules import Rules, Seat, Side
from sniff_rules.scoring import Settlement
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT, Tile, TileIndex, tiles_of_mask


class Phase(enum.Enum):
    """Where the match stands."""

    PLAYING = "playing"
    """A round is under way; :func:`~sniff_rules.moves.legal_moves` is non-empty."""
    ROUND_OVER = "round-over"
    """The round ended and was settled; :func:`next_round` deals the next."""
    MATCH_OVER = "match-over"
    """A side reached the target (MATCH-1); nothing more is accepted (MATCH-2)."""

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@attrs.frozen
class RoundResult:
    """How a round ended: the finisher (None when blocked), the hands
    revealed at its end, and their settlement (END-1, BLOCK-1, SETTLE-1..4)."""

    round_number: int
    finisher: Seat | None
    hands: tuple[tuple[Tile, ...], ...]
    settlement: Settlement

    @property
    def blocked(self) -> bool:
        """The round ended with nobody able to place (BLOCK-1)."""
        return self.finisher is None


@attrs.frozen
class RoundContext:
    """What stays fixed through a round: the rules, the round's number and
    opener, the lot that chose the opener (empty when the finisher opens,
    OPEN-2), the random source for later deals, and the last settled round.

    Kept apart from :class:`State` so that a move copies one reference
    instead of six fields.
    """

    rules: Rules
    round_number: int
    opener: Seat
    source: RandomSource | None = None
    lot: tuple[LotRound, ...] = ()
    last_round: RoundResult | None = None


@final
@attrs.frozen(init=False, weakref_slot=False)
class State:
    """A position of a match of American Sniff.

    ``hand_masks[seat]`` holds bit ``i`` for each tile index ``i`` in the hand;
    ``boneyard_ids`` is the draw pile, next draw first; ``drawn`` is the tile
    index a player drew and now must place (DRAW-2), else -1; ``scores`` has
    one entry per side (:meth:`Rules.side_of`). The round's fixed facts are
    in ``context`` and read through :attr:`rules`, :attr:`round_number`,
    :attr:`opener`, :attr:`source`, :attr:`lot` and :attr:`last_round`;
    :meth:`create` builds a state from those facts directly.
    """

    context: RoundContext
    phase: Phase
    to_move: Seat
    hand_masks: tuple[int, ...]
    boneyard_ids: tuple[TileIndex, ...]
    layout: Layout
    scores: tuple[int, ...]
    drawn: TileIndex = -1
    winner: Side | None = None

    def __new__(
        cls,
        context: RoundContext,
        phase: Phase,
        to_move: Seat,
        hand_masks: tuple[int, ...],
        boneyard_ids: tuple[TileIndex, ...],
        layout: Layout,
        scores: tuple[int, ...],
        drawn: TileIndex = -1,
        winner: Side | None = None,
    ) -> State:
        # Every move makes a State. attrs' frozen __init__ sets each field
        # through object.__setattr__, about 90 ns a field; filling a mutable
        # twin with the same slots and then giving it this class costs a
        # third of that. Equality, hashing, repr and the refusal to assign
        # stay attrs' own.
        state: Any = _new_object(_MutableState)
        state.context = context
        state.phase = phase
        state.to_move = to_move
        state.hand_masks = hand_masks
        state.boneyard_ids = boneyard_ids
        state.layout = layout
        state.scores = scores
        state.drawn = drawn
        state.winner = winner
        state.__class__ = cls
        built: State = state
        return built

    if TYPE_CHECKING:
        # For type checkers only, so that attrs.evolve is checked: at run
        # time __new__ builds the state and there is no __init__.
        def __init__(
            self,
            context: RoundContext,
            phase: Phase,
            to_move: Seat,
            hand_masks: tuple[int, ...],
            boneyard_ids: tuple[TileIndex, ...],
            layout: Layout,
            scores: tuple[int, ...],
            drawn: TileIndex = -1,
            winner: Side | None = None,
        ) -> None: ...

    def __init_subclass__(cls) -> None:
        raise TypeError("State is final: its fast __new__ builds exactly State")

    def __reduce__(self) -> tuple[type[State], tuple[object, ...]]:
        # pickle and copy rebuild through __new__, which needs the fields.
        fields = (self.context, self.phase, self.to_move, self.hand_masks, self.boneyard_ids, self.layout, self.scores)
        return State, (*fields, self.drawn, self.winner)

    @classmethod
    def create(
        cls,
        *,
        rules: Rules,
        phase: Phase,
        round_number: int,
        opener: Seat,
        to_move: Seat,
        hand_masks: tuple[int, ...],
        boneyard_ids: tuple[TileIndex, ...],
        layout: Layout,
        scores: tuple[int, ...],
        drawn: TileIndex = -1,
        source: RandomSource | None = None,
        lot: tuple[LotRound, ...] = (),
        last_round: RoundResult | None = None,
        winner: Side | None = None,
    ) -> State:
        """A state from every fact by name, the round's fixed ones included."""
        context = RoundContext(rules, round_number, opener, source, lot, last_round)
        return cls(context, phase, to_move, hand_masks, boneyard_ids, layout, scores, drawn, winner)

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
        return tiles_of_mask(self.hand_masks[seat])

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


_MutableState: Final[type[Any]] = type("_MutableState", (), {"__slots__": tuple(f.name for f in attrs.fields(State))})
"""State's mutable twin: the same slots, so an instance can become a State."""
_new_object: Final = object.__new__


def _check_order(order: tuple[Tile, ...]) -> tuple[TileIndex, ...]:
    if not isinstance(order, tuple) or len(order) != TILE_COUNT:
        raise InvalidStateError(
            "SETUP-5", f"a deal order is a tuple of the 28 tiles, got {type(order).__name__} of {len(order)}"
        )
    indices = []
    for tile in order:
        if not isinstance(tile, Tile):
            raise InvalidStateError("SETUP-5", f"a deal order holds tiles, got {tile!r}")
        indices.append(tile.index)
    if len(set(indices)) != TILE_COUNT:
        twice = sorted({str(DOUBLE_SIX[i]) for i in indices if indices.count(i) > 1})
        raise InvalidStateError("SETUP-5", "a deal order holds each of the 28 tiles once; repeated: " + ", ".join(twice))
    return tuple(indices)


def _check_seat(rules: Rules, seat: object, rule: str) -> Seat:
    if type(seat) is not int or not 0 <= seat < rules.players:
        raise InvalidStateError(rule, f"seats run 0..{rules.players - 1}, got {seat!r}")
    return seat


def _choose_opener(
    rules: Rules, opener: Seat | None, source: RandomSource | None
) -> tuple[Seat, tuple[LotRound, ...], RandomSource | None]:
    if opener is not None:
        return _check_seat(rules, opener, "OPEN-1"), (), source
    if source is None:
        raise InvalidStateError("OPEN-1", "the opener is drawn by lot: give a seed or source, or name the opener")
    return draw_lot(tuple(range(rules.players)), source)


_BIT: Final = tuple(1 << index for index in range(TILE_COUNT))
_INDEX_OF_BIT: Final = {bit: index for index, bit in enumerate(_BIT)}


def _deal(
    rules: Rules,
    round_number: int,
    opener: Seat,
    lot: tuple[LotRound, ...],
    order: tuple[Tile, ...] | None,
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
    return State(
        RoundContext(rules, round_number, opener, source, lot, last_round),
        Phase.PLAYING,
        opener,
        tuple([sum(bits[start : start + size]) for start in range(0, dealt, size)]),
        tuple([_INDEX_OF_BIT[bit] for bit in bits[dealt:]]),
        Layout.EMPTY,
        scores,
    )


def new_match(
    rules: Rules,
    seed: int | None = None,
    *,
    source: RandomSource | None = None,
    order: tuple[Tile, ...] | None = None,
    opener: Seat | None = None,
) -> State:
    """The first deal of a match.

    Give a ``seed`` (or an injected ``source``) and the lot and the shuffle
    come from it (OPEN-1, SETUP-5): the lot is drawn first, then the tiles are
    shuffled. A frontend that shuffles itself passes ``order`` (all 28
    tiles; seat 0 gets the first ``hand_size``, seat 1 the next, the rest is
    the boneyard, drawn from the front) and may name the ``opener``.

    >>> state = new_match(Rules.standard(2), seed=1)
    >>> state.round_number, state.opener, len(state.hand(0)), len(state.boneyard)
    (1, 0, 7, 14)
    """
    if not isinstance(rules, Rules):
        raise InvalidStateError("SETUP-2", f"rules must be a Rules value, got {rules!r}")
    if source is None and seed is not None:
        source = SplitMix64.from_seed(seed)
    first, lot, source = _choose_opener(rules, opener, source)
    return _deal(rules, 1, first, lot, order, source, (0,) * rules.sides, None)


def next_round(
    state: State, *, order: tuple[Tile, ...] | None = None, opener: Seat | None = None
) -> State:
    """Deal the next round after a settled one (OPEN-2).

    The finisher opens; after a block a new lot picks the opener, unless
    the frontend names one. Tiles are shuffled from the state's source
    unless ``order`` is given.
    """
    if state.phase is not Phase.ROUND_OVER or state.last_round is None:
        rule = "MATCH-2" if state.phase is Phase.MATCH_OVER else "END-1"
        raise InvalidStateError(rule, f"a new round is dealt only after a round ends; the match is {state.phase.value}")
    finisher = state.last_round.finisher
    source = state.source
    if finisher is not None:
        if opener is not None and opener != finisher:
            raise InvalidStateError("OPEN-2", f"seat {finisher} played out and opens the next round, not seat {opener!r}")
        first: Seat = finisher
        lot: tuple[LotRound, ...] = ()
    else:
        first, lot, source = _choose_opener(state.rules, opener, source)
    return _deal(
        state.rules, state.round_number + 1, first, lot, order, source, state.scores, state.last_round
    )


