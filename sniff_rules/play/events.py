"""What a move did, as typed events, and what each seat may see of them.

:func:`~sniff_rules.moves.apply` returns only the next state, and what
happened is subtle to recover from it: on a round-ending placement
``scores`` already holds the settlement; a drawn tile that does not fit
leaves ``drawn`` empty; a match won mid-round leaves ``last_round`` on the
round before. :func:`apply_with_events` applies a move through ``apply``
(which stays the fast path) and also says what happened, as frozen values:

========================  ==============================================================
event                     when
========================  ==============================================================
:class:`Dealt`            a round was dealt: its number, opener, lot, the hands
:class:`Placed`           a tile was placed: by whom, where, the end count, points
:class:`Drew`             a tile was drawn: by whom, the tile, whether it must be placed
:class:`Passed`           a seat passed (PASS-1)
:class:`RoundEnded`       the round ended, played out or blocked, and was settled
:class:`MatchWon`         a side reached the target (MATCH-1); nothing follows
========================  ==============================================================

A placement's points are in its :class:`Placed`; the settlement that may
follow is in the :class:`RoundEnded` after it, with the scores before and
after, so the two are never mixed. Each event has :meth:`~Drew.seen_by`, the
event as one seat may see it (SETUP-6): another seat's drawn tile and
another seat's dealt hand are hidden; everything else is public, and the
hands are revealed to every seat once the round or match ends.
:func:`event_to_data` writes an event as JSON (``$defs/event`` of the schema).

>>> from sniff_rules import Rules, new_match, Place, Tile
>>> state = new_match(Rules.standard(2), seed=20)
>>> state, events = apply_with_events(state, Place(1, Tile(0, 5)))
>>> events
(Placed(seat=1, placement=Placement(Tile(0, 5), None), end_count=5, points=5, \
contributions=(Contribution(tile=Tile(0, 5), value=0), Contribution(tile=Tile(0, 5), value=5)), scores=(0, 5)),)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeAlias

import attrs

from sniff_rules._fast import sealed, unchecked_constructor
from sniff_rules.errors import InvalidStateError, described
from sniff_rules.layout import POINT_VALUE, PORTS, Contribution, Layout, Placement, Port
from sniff_rules.moves import Draw, Move, Pass, Place, apply
from sniff_rules.randomness import LotRound
from sniff_rules.rules import MAX_PLAYERS, Seat, Side
from sniff_rules.scoring import Settlement, play_points
from sniff_rules.state import Phase, RoundResult, State
from sniff_rules.tiles import DOUBLE_SIX, HIGHEST_PIP, TILE_COUNT, Pip, Tile

# ---------------------------------------------------------------- field checks

Check: TypeAlias = Callable[[object], bool]


def _field(check: Check, expected: str) -> Any:
    """An attrs validator refusing, with FORMAT-3, a value ``check`` rejects."""

    def validate(_instance: object, attribute: attrs.Attribute[object], value: object) -> None:
        if not check(value):
            raise InvalidStateError("FORMAT-3", f"{attribute.name} is {expected}, got {described(value, 200)}")

    return validate


def _is_int(value: object) -> bool:
    return type(value) is int


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 0


def _is_seat(value: object) -> bool:
    return type(value) is int and 0 <= value < MAX_PLAYERS


def _is_tuple_of(check: Check) -> Check:
    return lambda value: type(value) is tuple and all(check(item) for item in value)


def _is_tile(value: object) -> bool:
    return isinstance(value, Tile)


def _is_pip(value: object) -> bool:
    return type(value) is int and 0 <= value <= HIGHEST_PIP


def _is_lot_round(value: object) -> bool:
    return _is_tuple_of(lambda draw: type(draw) is tuple and len(draw) == 2 and all(map(_is_int, draw)))(value)


_is_tiles: Final = _is_tuple_of(_is_tile)
_is_hands: Final = _is_tuple_of(_is_tiles)
_is_scores: Final = _is_tuple_of(_is_int)
_SEAT: Final = _field(_is_seat, "a seat, an int 0..3")
_SCORES: Final = _field(_is_scores, "a tuple of int scores, one per side")
_HANDS: Final = _field(_is_hands, "a tuple of each seat's tiles")
_ROUND: Final = _field(lambda value: type(value) is int and value >= 1, "a round number, an int from 1")
_PLACEMENT: Final = _field(lambda value: isinstance(value, Placement), "a Placement")
_COUNT: Final = _field(_is_count, "an int from 0")
_OPEN_VALUES: Final = _field(_is_tuple_of(_is_pip), "a tuple of pips 0..6")


def _check_viewer(seat: Seat | None) -> Seat | None:
    """The seat an event is shown to, or None for what every seat sees alike."""
    if seat is not None and not _is_seat(seat):
        raise InvalidStateError("SETUP-2", f"an event is seen by a seat 0..{MAX_PLAYERS - 1} or None, got {seat!r}")
    return seat


# ---------------------------------------------------------------- the events


@sealed()
@attrs.frozen(weakref_slot=False)
class Dealt:
    """A round was dealt (SETUP-4, SETUP-5): seat ``opener`` leads (OPEN-1, OPEN-2).

    ``lot`` is the lot that chose the opener, empty when the finisher opens
    or the opener was named; ``hands`` holds each seat's dealt tiles, None
    where the event is shown to another seat; ``scores`` are those the round
    starts from.
    """

    round_number: int = attrs.field(validator=_ROUND)
    opener: Seat = attrs.field(validator=_SEAT)
    lot: tuple[LotRound, ...] = attrs.field(validator=_field(_is_tuple_of(_is_lot_round), "a tuple of lot rounds"))
    hand_size: int = attrs.field(validator=_COUNT)
    boneyard_size: int = attrs.field(validator=_COUNT)
    hands: tuple[tuple[Tile, ...] | None, ...] = attrs.field(
        validator=_field(_is_tuple_of(lambda hand: hand is None or _is_tiles(hand)), "a tuple of hands or None")
    )
    scores: tuple[int, ...] = attrs.field(validator=_SCORES)

    @classmethod
    def of(cls, state: State) -> Dealt:
        """The deal of ``state``, a round dealt and not yet led (the layout empty)."""
        if type(state) is not State or state.phase is not Phase.PLAYING or not state.layout.is_empty:
            raise InvalidStateError("FORMAT-3", f"a deal is described before its lead, got {described(state, 200)}")
        return cls(
            round_number=state.round_number,
            opener=state.opener,
            lot=state.lot,
            hand_size=state.rules.hand_size,
            boneyard_size=len(state.boneyard_ids),
            hands=state.hands,
            scores=state.scores,
        )

    def seen_by(self, seat: Seat | None) -> Dealt:
        """The deal as ``seat`` sees it: its own hand only; no hand for None (SETUP-6)."""
        viewer = _check_viewer(seat)
        hands = tuple([hand if index == viewer else None for index, hand in enumerate(self.hands)])
        if hands == self.hands:
            return self
        return _new_dealt(
            self.round_number, self.opener, self.lot, self.hand_size, self.boneyard_size, hands, self.scores
        )


@sealed()
@attrs.frozen(weakref_slot=False)
class Placed:
    """Seat ``seat`` placed a tile (PLACE-1..3, OPEN-3): the end count after it
    (COUNT-1..4), the contributions counted, the points it scored (POINTS-1)
    and the scores with those points (POINTS-2), before any settlement."""

    seat: Seat = attrs.field(validator=_SEAT)
    placement: Placement = attrs.field(validator=_PLACEMENT)
    end_count: int = attrs.field(validator=_COUNT)
    points: int = attrs.field(validator=_COUNT)
    contributions: tuple[Contribution, ...] = attrs.field(
        validator=_field(_is_tuple_of(lambda item: isinstance(item, Contribution)), "a tuple of Contribution values")
    )
    scores: tuple[int, ...] = attrs.field(validator=_SCORES)

    @property
    def tile(self) -> Tile:
        """The tile placed."""
        return self.placement.tile

    def seen_by(self, seat: Seat | None) -> Placed:
        """Every seat sees a placement whole."""
        _check_viewer(seat)
        return self


@sealed()
@attrs.frozen(weakref_slot=False)
class Drew:
    """Seat ``seat``, able to place nothing, drew a tile (DRAW-1, DRAW-2).

    ``tile`` is seen by the drawer alone (None for every other seat);
    ``must_place`` says whether it fits, and so must be placed at once.
    That is public: the drawer's next move shows it. ``open_values`` are the
    values open at the draw; the drawer showed that no tile it held showed
    any of them, and a drawn tile that does not fit shows none either.
    """

    seat: Seat = attrs.field(validator=_SEAT)
    tile: Tile | None = attrs.field(validator=_field(lambda value: value is None or _is_tile(value), "a Tile or None"))
    must_place: bool = attrs.field(validator=_field(lambda value: type(value) is bool, "a bool"))
    open_values: tuple[Pip, ...] = attrs.field(validator=_OPEN_VALUES)

    def seen_by(self, seat: Seat | None) -> Drew:
        """The draw as ``seat`` sees it: the tile only for the drawer (SETUP-6)."""
        if _check_viewer(seat) == self.seat or self.tile is None:
            return self
        return _new_drew(self.seat, None, self.must_place, self.open_values)


@sealed()
@attrs.frozen(weakref_slot=False)
class Passed:
    """Seat ``seat`` passed, able to place nothing with the boneyard empty (PASS-1).

    ``open_values`` are the values open at the pass, none of which the seat's
    tiles show.
    """

    seat: Seat = attrs.field(validator=_SEAT)
    open_values: tuple[Pip, ...] = attrs.field(validator=_OPEN_VALUES)

    def seen_by(self, seat: Seat | None) -> Passed:
        """Every seat sees a pass."""
        _check_viewer(seat)
        return self


@sealed()
@attrs.frozen(weakref_slot=False)
class RoundEnded:
    """Round ``round_number`` ended, played out by ``finisher`` (END-1) or blocked
    (None, BLOCK-1), and was settled (SETTLE-1..4).

    ``hands`` are revealed to every seat; ``settlement`` holds each hand's
    pips and deduction and each side's; ``scores_before`` are the scores after
    the last move's points and before the settlement, ``scores_after`` after it.
    """

    round_number: int = attrs.field(validator=_ROUND)
    finisher: Seat | None = attrs.field(validator=_field(lambda value: value is None or _is_seat(value), "a seat"))
    hands: tuple[tuple[Tile, ...], ...] = attrs.field(validator=_HANDS)
    settlement: Settlement = attrs.field(validator=_field(lambda value: isinstance(value, Settlement), "a Settlement"))
    scores_before: tuple[int, ...] = attrs.field(validator=_SCORES)
    scores_after: tuple[int, ...] = attrs.field(validator=_SCORES)

    @property
    def blocked(self) -> bool:
        """Nobody could place and the boneyard was empty (BLOCK-1)."""
        return self.finisher is None

    @property
    def result(self) -> RoundResult:
        """The round's result, as the next state's ``last_round`` holds it."""
        return RoundResult(self.round_number, self.finisher, self.hands, self.settlement)

    def seen_by(self, seat: Seat | None) -> RoundEnded:
        """Every seat sees the end of a round, every hand revealed (SETTLE-1)."""
        _check_viewer(seat)
        return self


@sealed()
@attrs.frozen(weakref_slot=False)
class MatchWon:
    """Side ``side`` reached its target with seat ``seat``'s ``placement`` in
    round ``round_number`` and won the match, mid-round included (MATCH-1).

    ``scores`` are final: nothing is settled after a win. ``hands`` are
    the hands at that moment, revealed to every seat.
    """

    round_number: int = attrs.field(validator=_ROUND)
    side: Side = attrs.field(validator=_field(lambda value: type(value) is int and 0 <= value < 3, "a side 0..2"))
    seat: Seat = attrs.field(validator=_SEAT)
    placement: Placement = attrs.field(validator=_PLACEMENT)
    scores: tuple[int, ...] = attrs.field(validator=_SCORES)
    hands: tuple[tuple[Tile, ...], ...] = attrs.field(validator=_HANDS)

    def seen_by(self, seat: Seat | None) -> MatchWon:
        """Every seat sees the win, every hand revealed."""
        _check_viewer(seat)
        return self


Event: TypeAlias = Dealt | Placed | Drew | Passed | RoundEnded | MatchWon
"""Anything :func:`apply_with_events` or a deal reports."""

EVENT_TYPES: Final = (Dealt, Placed, Drew, Passed, RoundEnded, MatchWon)
"""Every event class, in the order a round meets them."""

_new_dealt: Final = unchecked_constructor(Dealt)
_new_placed: Final = unchecked_constructor(Placed)
_new_drew: Final = unchecked_constructor(Drew)
_new_passed: Final = unchecked_constructor(Passed)
_new_round_ended: Final = unchecked_constructor(RoundEnded)
_new_match_won: Final = unchecked_constructor(MatchWon)


def seen_by(events: tuple[Event, ...], seat: Seat | None) -> tuple[Event, ...]:
    """Each of ``events`` as ``seat`` sees it (None: what every seat sees alike).

    >>> from sniff_rules import Rules, new_match
    >>> dealt = Dealt.of(new_match(Rules.standard(2), seed=20))
    >>> [hand is None for hand in seen_by((dealt,), 1)[0].hands]
    [True, False]
    """
    _check_viewer(seat)
    if type(events) is not tuple or not all(isinstance(event, EVENT_TYPES) for event in events):
        raise InvalidStateError("FORMAT-3", f"events is a tuple of events, got {described(events, 200)}")
    return tuple(event.seen_by(seat) for event in events)


# ---------------------------------------------------------------- applying a move


def _term_of_point(point_id: int) -> Contribution:
    """What open point ``point_id`` adds to the end count; a double's two long sides, one
    term between them (COUNT-2). :attr:`Layout.contributions` is the reference
    (``tests/test_events.py`` checks the two agree)."""
    index, port = divmod(point_id, PORTS)
    tile = DOUBLE_SIX[index]
    if port in (Port.CHAIN_A, Port.CHAIN_B):
        return _DOUBLE_TERMS[index]
    return Contribution(tile, POINT_VALUE[point_id])


_DOUBLE_TERMS: Final = tuple(Contribution(tile, 2 * tile.low) for tile in DOUBLE_SIX)
_TERMS: Final = tuple(_term_of_point(point_id) for point_id in range(TILE_COUNT * PORTS))


def _contributions(layout: Layout) -> tuple[Contribution, ...]:
    """:attr:`Layout.contributions` from shared terms, built once per open point."""
    terms: list[Contribution] = []
    previous = None
    for point_id in layout.open_point_ids:
        term = _TERMS[point_id]
        # A double's long sides are adjacent ids (the ids are sorted) and share one term.
        if term is not previous:
            terms.append(term)
            previous = term
    return tuple(terms)


def _open_values(layout: Layout) -> tuple[Pip, ...]:
    return tuple(sorted({POINT_VALUE[point_id] for point_id in layout.open_point_ids}))


def apply_with_events(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """The state after ``move``, as :func:`~sniff_rules.moves.apply` gives it, and what happened.

    Refuses exactly what ``apply`` refuses, with the same errors. The events
    are, by move: a placement's :class:`Placed`, then :class:`RoundEnded`
    when it played out or blocked the round, or :class:`MatchWon` when it
    reached the target; a draw's :class:`Drew`, then :class:`RoundEnded` when
    it blocked the round; a pass's :class:`Passed`. Events are the full truth
    (a drawn tile included); show a seat ``event.seen_by(seat)``.

    >>> from sniff_rules import Rules, legal_moves, new_match
    >>> state = new_match(Rules.standard(2), seed=20)
    >>> state, _ = apply_with_events(state, legal_moves(state)[0])
    >>> state, events = apply_with_events(state, legal_moves(state)[0])
    >>> [type(event).__name__ for event in events], events[0].seat
    (['Placed'], 0)
    """
    after = apply(state, move)
    return after, _events_of(state, move, after)


def _events_of(before: State, move: Move, after: State) -> tuple[Event, ...]:
    """What ``move`` did from ``before`` to ``after = apply(before, move)``."""
    seat = move.seat
    if type(move) is Place:
        layout = after.layout
        points = play_points(layout.end_count)
        scores = list(before.scores)
        scores[before.rules.side_of(seat)] += points
        placement = layout.placements[-1]
        placed = _new_placed(seat, placement, layout.end_count, points, _contributions(layout), tuple(scores))
        if after.phase is Phase.MATCH_OVER:
            assert after.winner is not None
            won = _new_match_won(before.round_number, after.winner, seat, placement, after.scores, after.hands)
            return placed, won
        return (placed, *_round_end(after, tuple(scores)))
    if type(move) is Draw:
        tile = DOUBLE_SIX[before.boneyard_ids[0]]
        drew = _new_drew(seat, tile, after.drawn >= 0, _open_values(before.layout))
        return (drew, *_round_end(after, before.scores))
    assert type(move) is Pass
    return (_new_passed(seat, _open_values(before.layout)),)


def _round_end(after: State, scores_before: tuple[int, ...]) -> tuple[RoundEnded, ...]:
    if after.phase is not Phase.ROUND_OVER:
        return ()
    result = after.last_round
    assert result is not None
    return (
        _new_round_ended(
            result.round_number, result.finisher, result.hands, result.settlement, scores_before, after.scores
        ),
    )
