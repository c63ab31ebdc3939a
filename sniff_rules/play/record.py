"""A match record: the rules, how the rounds were dealt, and the moves; it replays to every state and event.

A :class:`MatchRecord` is what a server stores for a match and what it
accepts from a client: a seed (every lot and shuffle drawn from
SplitMix64, SETUP-5, OPEN-1) or the deals a frontend made itself (each
round's 28-tile order and, where the rules let it, the opener), and the
moves in order. :meth:`MatchRecord.replay` plays it back through
:func:`~sniff_rules.play.events.apply_with_events`, yielding the same
:class:`~sniff_rules.play.driver.Step` values as the driver that played it: a
deal step per round, dealt as soon as the round before is settled (with
supplied deals, while one is left), and a step per move. A position sent
by a client is never to be trusted: every state follows from the record.

Its JSON (``$defs/matchRecord`` of ``specs/vectors/schema.json``) is
written and read, as hardened as a state, by
:mod:`sniff_rules.formats.record_json`.

>>> from sniff_rules import Rules, new_match, legal_moves
>>> record = MatchRecord.seeded(Rules.standard(2), 20)
>>> record = record.with_moves(legal_moves(new_match(Rules.standard(2), seed=20))[0])
>>> record.moves
(Place(1, Tile(0, 5)),)
>>> [type(event).__name__ for event in record.events()]
['Dealt', 'Placed']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

import attrs

from sniff_rules._fast import sealed
from sniff_rules.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
    NotationError,
    SniffError,
    described,
)
from sniff_rules.moves import Draw, Move, Pass, Place
from sniff_rules.play.driver import Step
from sniff_rules.play.events import Dealt, Event, apply_with_events
from sniff_rules.rules import MAX_PLAYERS, Rules, Seat
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import Tile


def _message(err: SniffError) -> str:
    return str(err).removeprefix(f"{err.rule}: ")


def _check_order(_instance: object, _attribute: object, order: tuple[Tile, ...]) -> None:
    if type(order) is not tuple or not all(isinstance(tile, Tile) for tile in order):
        raise InvalidStateError("FORMAT-3", f"a deal's order is a tuple of tiles, got {described(order, 200)}")


def _check_opener(_instance: object, _attribute: object, opener: Seat | None) -> None:
    if opener is not None and (type(opener) is not int or not 0 <= opener < MAX_PLAYERS):
        raise InvalidStateError("FORMAT-3", f"a deal's opener is a seat 0..3 or None, got {described(opener, 200)}")


@sealed()
@attrs.frozen
class Deal:
    """A round as a frontend dealt it: the order of the 28 tiles (SETUP-5) and the opener.

    The opener is named for the first round and after a blocked one
    (OPEN-1); after a round played out it is the finisher (OPEN-2), so None
    (or the finisher) is given there.
    """

    order: tuple[Tile, ...] = attrs.field(validator=_check_order)
    opener: Seat | None = attrs.field(default=None, validator=_check_opener)


def _check_rules(_instance: object, _attribute: object, rules: Rules) -> None:
    if not isinstance(rules, Rules):
        raise InvalidStateError("FORMAT-3", f"a record's rules are a Rules value, got {described(rules, 200)}")


MAX_RECORD_SEED: Final = 2**53 - 1
"""The largest seed a record holds, either way from 0: FORMAT-2's bound on a JSON integer, so that every
record has its JSON form (a JavaScript reader would round a larger seed and deal another match)."""


def _check_seed(_instance: object, _attribute: object, seed: int | None) -> None:
    if seed is not None and type(seed) is not int:
        raise InvalidStateError("FORMAT-3", f"a record's seed is an int or None, got {described(seed, 200)}")
    if seed is not None and not -MAX_RECORD_SEED <= seed <= MAX_RECORD_SEED:
        # Refused when built, not only when written: a record that cannot be saved is refused by the rule
        # that would refuse its JSON form.
        # A huge int is named by its size: writing its digits could itself fail (Python's digit limit).
        given = str(seed) if seed.bit_length() <= 128 else f"an int of {seed.bit_length()} bits"
        raise NotationError("FORMAT-2", f"only a seed within ±(2**53 - 1) has a JSON form, got {given}")


def _check_moves(_instance: object, _attribute: object, moves: tuple[Move, ...]) -> None:
    if type(moves) is not tuple:
        raise InvalidMoveError("FORMAT-3", f"a record's moves are a tuple of moves, got {described(moves, 200)}")
    for index, move in enumerate(moves):
        if type(move) not in (Place, Draw, Pass):
            raise InvalidMoveError(
                "FORMAT-3", f"move {index} of a record is a Place, Draw or Pass, got {described(move, 200)}"
            )


@sealed()
@attrs.frozen
class MatchRecord:
    """A whole match as data: ``rules``, a ``seed`` or the ``deals``, and the ``moves``.

    Exactly one of ``seed`` (an int) and ``deals`` (one :class:`Deal` per
    round, the first included) is given. The moves run across rounds: a
    round's first move follows the last move of the round before.
    ``paused`` says that the record ends at a settled round not yet dealt
    on, as a live table waits there for a seat to ask for the next round
    (:meth:`paused_at_round_end`); a record that is not paused deals the next
    round as soon as one is settled.
    """

    rules: Rules = attrs.field(validator=_check_rules)
    seed: int | None = attrs.field(validator=_check_seed)
    deals: tuple[Deal, ...] = attrs.field()
    moves: tuple[Move, ...] = attrs.field(default=(), validator=_check_moves)
    paused: bool = attrs.field(default=False)

    @paused.validator
    def _check_paused(self, _attribute: object, paused: object) -> None:
        if type(paused) is not bool:
            raise InvalidStateError("FORMAT-3", f"a record's paused is a bool, got {described(paused, 200)}")

    @deals.validator
    def _check_deals(self, _attribute: object, deals: object) -> None:
        if type(deals) is not tuple or not all(type(deal) is Deal for deal in deals):
            raise InvalidStateError(
                "FORMAT-3", f"a record's deals are a tuple of Deal values, got {described(deals, 200)}"
            )
        if (self.seed is None) == (not deals):
            raise InvalidStateError("FORMAT-3", "a record has a seed or its deals, one of the two")

    @classmethod
    def seeded(cls, rules: Rules, seed: int, moves: Sequence[Move] = ()) -> MatchRecord:
        """A match dealt from ``seed``, as ``new_match(rules, seed=seed)`` deals it, and its moves so far."""
        return cls(rules, seed, (), tuple(moves))

    @classmethod
    def dealt(cls, rules: Rules, deals: Sequence[Deal], moves: Sequence[Move] = ()) -> MatchRecord:
        """A match whose rounds a frontend dealt, and its moves so far."""
        return cls(rules, None, tuple(deals), tuple(moves))

    def with_moves(self, *moves: Move) -> MatchRecord:
        """This record with ``moves`` played after its own; :meth:`replay` checks them.

        A move after a pause is played in the round dealt next, so the record is no longer paused.
        """
        return attrs.evolve(self, moves=self.moves + moves, paused=self.paused and not moves)

    def paused_at_round_end(self, paused: bool = True) -> MatchRecord:
        """This record ending at its settled round, not dealt on (``paused``), or dealing on (not ``paused``).

        :meth:`replay` refuses a paused record whose moves do not end a round
        short of the match's end (END-1).
        """
        return attrs.evolve(self, paused=paused)

    def with_deal(self, deal: Deal) -> MatchRecord:
        """This record with one more round dealt by the frontend."""
        return attrs.evolve(self, deals=(*self.deals, deal))

    def replay(self) -> Iterator[Step]:
        """Every step of the match: each deal and each move, with its events and the state after.

        Raises, when the step is reached, the refusal of the rule a move or a
        deal breaks, naming the move's or the deal's index. A seeded match
        deals the next round as soon as one is settled; with supplied deals,
        while one is left; a deal never reached is refused (SETUP-5).
        """
        deals = iter(enumerate(self.deals))
        # Read once: a sealed value's fields are fixed, and the loop below reads it once per round.
        paused = self.paused
        state = self._deal(None, deals)
        assert state is not None
        yield Step(None, (Dealt.of(state),), state)
        for index, move in enumerate(self.moves):
            if state.phase is Phase.ROUND_OVER:
                dealt = self._deal(state, deals)
                if dealt is not None:
                    state = dealt
                    yield Step(None, (Dealt.of(state),), state)
            try:
                state, events = apply_with_events(state, move)
            except IllegalMoveError as err:
                raise IllegalMoveError(err.rule, f"move {index} ({move}): {_message(err)}") from None
            yield Step(move, events, state)
        if paused and state.phase is not Phase.ROUND_OVER:
            raise InvalidStateError(
                "END-1", f"a paused record ends at a settled round; its moves end in {state.phase.value}"
            )
        if state.phase is Phase.ROUND_OVER and not paused:
            dealt = self._deal(state, deals)
            if dealt is not None:
                yield Step(None, (Dealt.of(dealt),), dealt)
        unused = next(deals, None)
        if unused is not None:
            raise InvalidStateError(
                "SETUP-5", f"deal {unused[0]} is never dealt: the moves end in round {state.round_number}"
            )

    def _deal(self, settled: State | None, deals: Iterator[tuple[int, Deal]]) -> State | None:
        """The next round's deal after ``settled`` (None: the match's first), or None when no deal is left."""
        if self.seed is not None:
            return new_match(self.rules, seed=self.seed) if settled is None else next_round(settled)
        number, deal = next(deals, (-1, None))
        if deal is None:
            return None
        try:
            if settled is None:
                return new_match(self.rules, order=deal.order, opener=deal.opener)
            return next_round(settled, order=deal.order, opener=deal.opener)
        except InvalidStateError as err:
            raise InvalidStateError(err.rule, f"deal {number}: {_message(err)}") from None

    def final_state(self) -> State:
        """The state the record reaches."""
        state: State | None = None
        for step in self.replay():
            state = step.state
        assert state is not None
        return state

    def events(self, seat: Seat | None = None) -> tuple[Event, ...]:
        """Every event of the match, as ``seat`` sees it (None: what every seat sees alike)."""
        return tuple(event.seen_by(seat) for step in self.replay() for event in step.events)
