"""What one seat may see: its own hand and the public facts (SETUP-6).

Hands stay secret until the round is settled; a frontend or a fair bot
works from a seat's view, never from the full state. :func:`observe` gives
a thin :class:`Observation` from the state alone; :func:`seat_view` the
complete :class:`SeatView`, from the state and the events that led to it
(the round's public log, the last settled round, the end of a round won
mid-way), with each legal move's end count and points. Its JSON
(:func:`seat_view_to_json`, ``$defs/seatView`` of the schema) is what a
server sends a seat: unlike a state's JSON it holds no secret.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import attrs

from sniff_rules._fast import is_optional_tuple_of_tuples, is_tuple, sealed, unchecked_constructor
from sniff_rules.errors import InvalidStateError, described
from sniff_rules.layout import Layout
from sniff_rules.moves import Move, Place, legal_moves
from sniff_rules.play.events import Drew, Event, MatchWon, Placed, RoundEnded
from sniff_rules.play.history import RoundLog
from sniff_rules.randomness import LotRound
from sniff_rules.rules import Rules, Seat, Side, check_seat
from sniff_rules.scoring import play_points
from sniff_rules.state import Phase, RoundResult, State
from sniff_rules.tiles import Pip, Tile


@sealed()
@attrs.frozen
class Observation:
    """One seat's view of a state: other hands only by their size.

    ``revealed_hands`` holds every hand once the round has ended (SETTLE-1)
    and is None while it is secret.
    """

    seat: Seat
    rules: Rules
    phase: Phase
    round_number: int
    to_move: Seat
    hand: tuple[Tile, ...] = attrs.field(validator=is_tuple)
    hand_sizes: tuple[int, ...] = attrs.field(validator=is_tuple)
    boneyard_size: int
    layout: Layout
    scores: tuple[int, ...] = attrs.field(validator=is_tuple)
    drawn_tile: Tile | None
    legal_moves: tuple[Move, ...] = attrs.field(validator=is_tuple)
    revealed_hands: tuple[tuple[Tile, ...], ...] | None = attrs.field(validator=is_optional_tuple_of_tuples)
    last_round: RoundResult | None
    winner: Side | None


def observe(state: State, seat: Seat) -> Observation:
    """What ``seat`` knows in ``state``.

    >>> from sniff_rules import Rules, new_match
    >>> view = observe(new_match(Rules.standard(3), seed=5), 1)
    >>> len(view.hand), view.hand_sizes, view.boneyard_size, view.revealed_hands
    (6, (6, 6, 6), 10, None)
    """
    if type(state) is not State:
        raise InvalidStateError("FORMAT-3", f"observe takes a State, got {described(state, 200)}")
    check_seat(state.rules, seat, "SETUP-2", InvalidStateError)
    own_turn = seat == state.to_move and state.phase is Phase.PLAYING
    return Observation(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        round_number=state.round_number,
        to_move=state.to_move,
        hand=state.hand(seat),
        hand_sizes=tuple(mask.bit_count() for mask in state.hand_masks),
        boneyard_size=len(state.boneyard_ids),
        layout=state.layout,
        scores=state.scores,
        drawn_tile=state.drawn_tile if own_turn else None,
        legal_moves=legal_moves(state) if own_turn else (),
        revealed_hands=None if state.phase is Phase.PLAYING else state.hands,
        last_round=state.last_round,
        winner=state.winner,
    )


# ---------------------------------------------------------------- the complete seat view


@sealed()
@attrs.frozen
class MoveOption:
    """A legal move on the seat's turn, with the end count after it and the points
    it scores now (COUNT-1..4, POINTS-1); a draw or a pass leaves the count and scores 0."""

    move: Move
    end_count: int
    points: int


@sealed()
@attrs.frozen(weakref_slot=False)
class SeatView:
    """Everything seat ``seat`` may know (SETUP-6), built by :func:`seat_view`.

    Its own ``hand`` (and ``drawn_tile``, a drawn tile it must place,
    DRAW-2); of the others only ``hand_sizes``; the ``layout`` (its open
    points, end count and counted contributions are its properties); the
    ``scores``, the ``boneyard_size``, the round's ``opener`` and ``lot``;
    ``history``, the round's public log as this seat sees it (who placed,
    drew and passed, and what that implies, :meth:`RoundLog.lacking`);
    ``options``, on its turn, each legal move with its end count and points.
    ``last_round`` is the last settled round; ``round_end`` the end of this
    round once it has ended, a :class:`~sniff_rules.play.events.MatchWon` when
    the match was won in it (no settlement follows a win, so ``last_round``
    then still names the round before); ``revealed_hands`` every hand once
    the round has ended, else None. No field holds another seat's hidden
    tile, the boneyard's order or the random source.
    """

    seat: Seat
    rules: Rules
    phase: Phase
    round_number: int
    opener: Seat
    lot: tuple[LotRound, ...]
    to_move: Seat
    hand: tuple[Tile, ...]
    drawn_tile: Tile | None
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    layout: Layout
    scores: tuple[int, ...]
    history: RoundLog
    options: tuple[MoveOption, ...]
    last_round: RoundResult | None
    round_end: RoundEnded | MatchWon | None
    revealed_hands: tuple[tuple[Tile, ...], ...] | None
    winner: Side | None

    def __attrs_post_init__(self) -> None:
        # A view built by hand (or by attrs.evolve) is checked against its own log, so that
        # the sampler and the bots never meet a view no round could give; seat_view, which
        # builds its views from a state, skips this through _trusted_view.
        _check_view(self)

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves on the seat's turn (TURN-1); none on another's turn."""
        return tuple(option.move for option in self.options)

    @property
    def lacking(self) -> tuple[tuple[Pip, ...], ...]:
        """Per seat, the values its hand showed it lacks now (DRAW-1, PASS-1), from the history."""
        return tuple(self.history.lacking(seat) for seat in range(self.rules.players))

    def _repr_svg_(self) -> str:
        """The view as SVG, the other hands face down, for a notebook (:func:`sniff_rules.draw.svg.svg`)."""
        # The one import outward, as in Layout._repr_svg_: the renderer draws views.
        from sniff_rules.draw.svg import svg

        return svg(self)


_trusted_view: Final = unchecked_constructor(SeatView)


def _refuse(message: str) -> InvalidStateError:
    return InvalidStateError("FORMAT-3", f"a SeatView {message}")


def _held_by_log(log: RoundLog, seat: Seat) -> list[Tile] | None:
    """The tiles ``seat``'s own log says it holds now, or None when the log does not show them all."""
    dealt = log.deal.hands[seat]
    if dealt is None:
        return None
    held = list(dealt)
    for event in log.events:
        if type(event) is Drew and event.seat == seat:
            if event.tile is None:
                return None
            held.append(event.tile)
        elif type(event) is Placed and event.seat == seat and event.tile in held:
            held.remove(event.tile)
    return held


def _check_view(view: SeatView) -> None:
    """Refuse (FORMAT-3) a view whose fields are of another type or disagree with its own log."""
    if type(view.rules) is not Rules:
        raise _refuse(f"has rules of type {type(view.rules).__name__}")
    check_seat(view.rules, view.seat, "SETUP-2", InvalidStateError)
    log = view.history
    if type(log) is not RoundLog or log.seat != view.seat:
        raise _refuse(f"for seat {view.seat} needs that seat's RoundLog, got {described(log, 120)}")
    if type(view.phase) is not Phase or type(view.layout) is not Layout:
        raise _refuse("has a phase and a layout of the wrong types")
    placed = tuple(event.placement for event in log.placements)
    facts = (view.round_number, view.hand_sizes, view.boneyard_size, view.layout.placements, view.opener, view.lot)
    logged = (log.round_number, log.hand_sizes, log.boneyard_size, placed, log.opener, log.lot)
    if facts != logged or log.players != view.rules.players:
        raise _refuse(
            f"disagrees with its own log: {described(facts, 200)} where the log gives {described(logged, 200)}"
        )
    hand = view.hand
    if type(hand) is not tuple or any(type(tile) is not Tile for tile in hand):
        raise _refuse(f"hand is a tuple of tiles, got {described(hand, 200)}")
    held = _held_by_log(log, view.seat)
    if held is None or sorted(hand) != sorted(held):
        raise _refuse(
            f"hand {described(hand, 200)} is not the one its log gives seat {view.seat}: {described(held, 200)}"
        )
    if type(view.scores) is not tuple or len(view.scores) != len(log.deal.scores):
        raise _refuse(f"has scores {described(view.scores, 200)} for {log.players} players")
    if type(view.options) is not tuple or any(type(option) is not MoveOption for option in view.options):
        raise _refuse(f"options are a tuple of MoveOption, got {described(view.options, 200)}")
    if view.round_end is not log.end and view.round_end != log.end:
        raise _refuse("has a round end its log does not")


def _options(state: State) -> tuple[MoveOption, ...]:
    layout = state.layout
    options = []
    for move in legal_moves(state):
        if type(move) is Place:
            count = layout.place(move.tile, move.target).end_count
            options.append(MoveOption(move, count, play_points(count)))
        else:
            options.append(MoveOption(move, layout.end_count, 0))
    return tuple(options)


def _last_settled(events: tuple[Event, ...], state: State) -> RoundResult | None:
    for event in reversed(events):
        if type(event) is RoundEnded:
            return event.result
    return state.last_round


def seat_view(state: State, seat: Seat, events: Iterable[Event]) -> SeatView:
    """What ``seat`` knows in ``state``, the events of the match up to it given.

    ``events`` are those that led to ``state``, from its round's
    :class:`~sniff_rules.play.events.Dealt` on at least (as
    :func:`sniff_rules.play.driver.play_match` reports them, hidden parts
    included or already hidden: each is shown as ``seat`` sees it). Events
    that do not reach ``state`` (another round, other hand sizes, another
    layout) are refused with FORMAT-3.

    >>> from sniff_rules import Rules, new_match
    >>> from sniff_rules.play.events import Dealt
    >>> state = new_match(Rules.standard(2), seed=20)
    >>> view = seat_view(state, 1, [Dealt.of(state)])
    >>> view.hand_sizes, view.boneyard_size, view.opener, view.revealed_hands
    ((7, 7), 14, 1, None)
    >>> view.options[0]
    MoveOption(move=Place(1, Tile(0, 5)), end_count=5, points=5)
    """
    if type(state) is not State:
        raise InvalidStateError("FORMAT-3", f"seat_view takes a State, got {described(state, 200)}")
    check_seat(state.rules, seat, "SETUP-2", InvalidStateError)
    given = tuple(events) if isinstance(events, Iterable) and not isinstance(events, (str, bytes)) else None
    if given is None:
        raise InvalidStateError("FORMAT-3", f"events are an iterable of events, got {described(events, 200)}")
    log = RoundLog.of(given, seat)
    sizes = tuple(mask.bit_count() for mask in state.hand_masks)
    placed = tuple(event.placement for event in log.placements)
    if (log.round_number, log.hand_sizes, log.boneyard_size, placed) != (
        state.round_number,
        sizes,
        len(state.boneyard_ids),
        state.layout.placements,
    ):
        raise InvalidStateError("FORMAT-3", f"the events do not lead to this state: round {log.round_number} as logged")
    own_turn = seat == state.to_move and state.phase is Phase.PLAYING
    end = log.end
    return _trusted_view(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        round_number=state.round_number,
        opener=state.opener,
        lot=state.lot,
        to_move=state.to_move,
        hand=state.hand(seat),
        drawn_tile=state.drawn_tile if own_turn else None,
        hand_sizes=sizes,
        boneyard_size=len(state.boneyard_ids),
        layout=state.layout,
        scores=state.scores,
        history=log,
        options=_options(state) if own_turn else (),
        last_round=_last_settled(given, state),
        round_end=end,
        revealed_hands=None if end is None else end.hands,
        winner=state.winner,
    )


def present_seat_view(state: State, events: tuple[Event, ...]) -> SeatView:
    """The view of the seat to move: a ``present=`` for :func:`sniff_rules.play.driver.play_match`."""
    return seat_view(state, state.to_move, events)
