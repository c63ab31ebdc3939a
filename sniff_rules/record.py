"""A match record: the rules, how the rounds were dealt, and the moves; it replays to every state and event.

A :class:`MatchRecord` is what a server stores for a match and what it
accepts from a client: a seed (every lot and shuffle drawn from
SplitMix64, SETUP-5, OPEN-1) or the deals a frontend made itself (each
round's 28-tile order and, where the rules let it, the opener), and the
moves in order. :meth:`MatchRecord.replay` plays it back through
:func:`~sniff_rules.events.apply_with_events`, yielding the same
:class:`~sniff_rules.driver.Step` values as the driver that played it: a
deal step per round, dealt as soon as the round before is settled (with
supplied deals, while one is left), and a step per move. A position sent
by a client is never to be trusted: every state follows from the record.

Its JSON (``$defs/matchRecord`` of ``specs/vectors/schema.json``) is read
as hardened as a state: :func:`record_from_json` refuses malformed text
with a :class:`~sniff_rules.errors.NotationError` (FORMAT-2, FORMAT-1 for
a move's text), then replays the record, so that a move the rules refuse
raises the :class:`~sniff_rules.errors.IllegalMoveError` of its rule naming
the move's index, and a deal they refuse the
:class:`~sniff_rules.errors.InvalidStateError` of its rule naming the deal's.

>>> from sniff_rules import Rules, new_match, legal_moves
>>> record = MatchRecord.seeded(Rules.standard(2), 20)
>>> record = record.with_moves(legal_moves(new_match(Rules.standard(2), seed=20))[0])
>>> record_to_json(record)
'{"format":"sniff-rules/record@1","rules":{"players":2,"hand_size":7,"target":250},"seed":20,"deals":[],\
"moves":["1:[0|5]"]}'
>>> record_from_json(record_to_json(record)) == record
True
>>> [type(event).__name__ for event in record.events()]
['Dealt', 'Placed']
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Final

import attrs

from sniff_rules._fast import sealed
from sniff_rules.codec import rules_from_data, rules_to_data, tiles_from_data, tiles_to_data
from sniff_rules.driver import Step
from sniff_rules.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, NotationError, SniffError
from sniff_rules.events import Dealt, Event, apply_with_events
from sniff_rules.jsonio import (
    JSON_RULE,
    MAX_SAFE_INT,
    JsonObject,
    JsonValue,
    json_array,
    json_int,
    json_object,
    json_strs,
    load_json,
)
from sniff_rules.moves import Draw, Move, Pass, Place
from sniff_rules.notation import parse_move
from sniff_rules.rules import MAX_PLAYERS, Rules, Seat
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import Tile

RECORD_FORMAT: Final = "sniff-rules/record@1"
"""The ``format`` tag of a record document; a new layout of fields gets a new tag."""

MAX_RECORD_CHARS: Final = 1 << 22
"""Longest record text read: room for the longest moves and deals below."""

MAX_RECORD_DEPTH: Final = 8
"""Deepest nesting read; a record nests 4 deep (the record, its deals, a deal, its order)."""

MAX_RECORD_MOVES: Final = 1 << 16
"""Most moves a record holds. A standard match runs to a few thousand."""

MAX_RECORD_DEALS: Final = 1 << 12
"""Most deals a record holds, one per round."""

_RECORD_KEYS: Final = ("format", "rules", "seed", "deals", "moves")
_DEAL_KEYS: Final = ("order", "opener")


def _message(err: SniffError) -> str:
    return str(err).removeprefix(f"{err.rule}: ")


def _check_order(_instance: object, _attribute: object, order: tuple[Tile, ...]) -> None:
    if type(order) is not tuple or not all(isinstance(tile, Tile) for tile in order):
        raise InvalidStateError("FORMAT-3", f"a deal's order is a tuple of tiles, got {order!r:.200}")


def _check_opener(_instance: object, _attribute: object, opener: Seat | None) -> None:
    if opener is not None and (type(opener) is not int or not 0 <= opener < MAX_PLAYERS):
        raise InvalidStateError("FORMAT-3", f"a deal's opener is a seat 0..3 or None, got {opener!r:.200}")


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
        raise InvalidStateError("FORMAT-3", f"a record's rules are a Rules value, got {rules!r:.200}")


def _check_seed(_instance: object, _attribute: object, seed: int | None) -> None:
    if seed is not None and type(seed) is not int:
        raise InvalidStateError("FORMAT-3", f"a record's seed is an int or None, got {seed!r:.200}")


def _check_moves(_instance: object, _attribute: object, moves: tuple[Move, ...]) -> None:
    if type(moves) is not tuple:
        raise InvalidMoveError("FORMAT-3", f"a record's moves are a tuple of moves, got {moves!r:.200}")
    for index, move in enumerate(moves):
        if type(move) not in (Place, Draw, Pass):
            raise InvalidMoveError("FORMAT-3", f"move {index} of a record is a Place, Draw or Pass, got {move!r:.200}")


@sealed()
@attrs.frozen
class MatchRecord:
    """A whole match as data: ``rules``, a ``seed`` or the ``deals``, and the ``moves``.

    Exactly one of ``seed`` (an int) and ``deals`` (one :class:`Deal` per
    round, the first included) is given. The moves run across rounds: a
    round's first move follows the last move of the round before.
    """

    rules: Rules = attrs.field(validator=_check_rules)
    seed: int | None = attrs.field(validator=_check_seed)
    deals: tuple[Deal, ...] = attrs.field()
    moves: tuple[Move, ...] = attrs.field(default=(), validator=_check_moves)

    @deals.validator
    def _check_deals(self, _attribute: object, deals: object) -> None:
        if type(deals) is not tuple or not all(type(deal) is Deal for deal in deals):
            raise InvalidStateError("FORMAT-3", f"a record's deals are a tuple of Deal values, got {deals!r:.200}")
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
        """This record with ``moves`` played after its own; :meth:`replay` checks them."""
        return attrs.evolve(self, moves=self.moves + moves)

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
        if state.phase is Phase.ROUND_OVER:
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


# ---------------------------------------------------------------- JSON


def record_to_data(record: MatchRecord) -> JsonObject:
    """The JSON object (``$defs/matchRecord`` of the schema) for ``record``."""
    if type(record) is not MatchRecord:
        raise InvalidStateError("FORMAT-3", f"record_to_data writes a MatchRecord, got {record!r:.200}")
    if record.seed is not None and not -MAX_SAFE_INT <= record.seed <= MAX_SAFE_INT:
        # A JavaScript reader would round it, and deal another match.
        raise NotationError(JSON_RULE, f"only a seed within ±(2**53 - 1) has a JSON form, got {record.seed}")
    deals: list[JsonValue] = [{"order": tiles_to_data(deal.order), "opener": deal.opener} for deal in record.deals]
    moves: list[JsonValue] = [str(move) for move in record.moves]
    return {
        "format": RECORD_FORMAT,
        "rules": rules_to_data(record.rules),
        "seed": record.seed,
        "deals": deals,
        "moves": moves,
    }


def record_to_json(record: MatchRecord) -> str:
    """``record`` as compact JSON text, keys in a fixed order.

    A seeded record holds every later deal in its seed, and supplied deals
    hold every hand: like a state's JSON, it is for the server, never for
    a seat.
    """
    return json.dumps(record_to_data(record), separators=(",", ":"))


def _deal_from_data(value: JsonValue, rules: Rules, what: str) -> Deal:
    data = json_object(value, what, _DEAL_KEYS)
    order = tiles_from_data(data["order"], f"{what}.order")
    opener_data = data["opener"]
    opener = None if opener_data is None else json_int(opener_data, f"{what}.opener")
    if opener is not None and not 0 <= opener < rules.players:
        raise InvalidStateError("OPEN-1", f"{what}.opener is a seat 0..{rules.players - 1}, got {opener}")
    return Deal(order, opener)


def record_from_data(value: JsonValue) -> MatchRecord:
    """The record a JSON object describes, after replaying it (see the module's docstring)."""
    data = json_object(value, "a record", _RECORD_KEYS)
    if data["format"] != RECORD_FORMAT:
        raise NotationError(JSON_RULE, f"format is {RECORD_FORMAT!r}, got {data['format']!r:.40}")
    rules = rules_from_data(data["rules"])
    seed_data = data["seed"]
    seed = None if seed_data is None else json_int(seed_data, "seed")
    deals = tuple(
        _deal_from_data(item, rules, f"deals[{index}]")
        for index, item in enumerate(json_array(data["deals"], "deals", MAX_RECORD_DEALS))
    )
    if (seed is None) == (not deals):
        raise NotationError(JSON_RULE, "a record has a seed and no deals, or deals and a null seed")
    moves: list[Move] = []
    for index, text in enumerate(json_strs(data["moves"], "moves", MAX_RECORD_MOVES)):
        try:
            moves.append(parse_move(text))
        except NotationError as err:
            raise NotationError(err.rule, f"moves[{index}]: {_message(err)}") from None
    record = MatchRecord(rules, seed, deals, tuple(moves))
    for _ in record.replay():
        pass
    return record


def record_from_json(text: str | bytes) -> MatchRecord:
    """The record in JSON text, read by :func:`~sniff_rules.jsonio.load_json` and :func:`record_from_data`."""
    return record_from_data(load_json(text, max_chars=MAX_RECORD_CHARS, max_depth=MAX_RECORD_DEPTH))
