"""A match record (sniff_rules.play.record): it replays to every state and event, and its JSON is read as hardened."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import jsonschema  # type: ignore[import-untyped]
import pytest

import sniff_rules
from sniff_rules.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, NotationError, SniffError
from sniff_rules.formats.record_json import (
    MAX_RECORD_MOVES,
    record_from_data,
    record_from_json,
    record_to_data,
    record_to_json,
)
from sniff_rules.formats.strict_json import MAX_SAFE_INT, JsonValue
from sniff_rules.moves import Draw, Move
from sniff_rules.play.bots import random_move
from sniff_rules.play.driver import Step, play_match
from sniff_rules.play.events import Event
from sniff_rules.play.record import MAX_RECORD_SEED, Deal, MatchRecord
from sniff_rules.randomness import RandomSource, SplitMix64, shuffled
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX
from support import library_namespace

SCHEMA = Path(__file__).resolve().parent.parent / "specs" / "vectors" / "schema.json"
PLAYERS = (2, 3, 4)


@cache
def _validator() -> Any:
    loaded = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$defs": loaded["$defs"], "$ref": "#/$defs/matchRecord"})


def _driven(players: int, seed: int) -> tuple[Step, ...]:
    policies = [random_move] * players
    return tuple(play_match(new_match(Rules.standard(players), seed=seed), policies, SplitMix64.from_seed(seed)))


def _moves(steps: tuple[Step, ...]) -> tuple[Move, ...]:
    return tuple(step.move for step in steps if step.move is not None)


def _facts(steps: tuple[Step, ...] | list[Step]) -> list[tuple[Move | None, tuple[Event, ...], State]]:
    return [(step.move, step.events, step.state) for step in steps]


class _Shuffler:
    """A frontend that shuffles each round itself and names the opener where the rules let it."""

    def __init__(self, seed: int) -> None:
        self.source: RandomSource = SplitMix64.from_seed(seed)
        self.deals: list[Deal] = []

    def next_order(self) -> tuple[sniff_rules.Tile, ...]:
        order, self.source = shuffled(DOUBLE_SIX, self.source)
        return order

    def first(self, rules: Rules) -> State:
        deal = Deal(self.next_order(), 1)
        self.deals.append(deal)
        return new_match(rules, order=deal.order, opener=deal.opener)

    def deal(self, settled: State) -> State:
        assert settled.last_round is not None
        deal = Deal(self.next_order(), 0 if settled.last_round.blocked else None)
        self.deals.append(deal)
        return next_round(settled, order=deal.order, opener=deal.opener)


def _dealt_match(players: int, seed: int) -> tuple[MatchRecord, tuple[Step, ...]]:
    rules = Rules.standard(players)
    frontend = _Shuffler(seed)
    state = frontend.first(rules)
    steps = tuple(play_match(state, [random_move] * players, SplitMix64.from_seed(seed), deal=frontend.deal))
    return MatchRecord.dealt(rules, frontend.deals, _moves(steps)), steps


@pytest.mark.parametrize("players", PLAYERS)
def test_a_seeded_record_replays_to_every_state_and_event(players: int) -> None:
    """SETUP-5 OPEN-1 OPEN-2 MATCH-1: replaying (rules, seed, moves) gives every step the driver gave."""
    steps = _driven(players, 21)
    record = MatchRecord.seeded(Rules.standard(players), 21, _moves(steps))
    assert _facts(steps) == _facts(list(record.replay()))
    assert (steps[-1].state, Phase.MATCH_OVER) == (record.final_state(), record.final_state().phase)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_record_of_supplied_deals_replays_to_every_state_and_event(players: int) -> None:
    """SETUP-5 OPEN-1 OPEN-2: a match dealt by the frontend replays from its orders and openers, step for step."""
    record, steps = _dealt_match(players, 5)
    assert _facts(steps) == _facts(list(record.replay()))
    assert len(record.deals) == steps[-1].state.round_number


def test_a_record_deals_the_next_round_once_one_is_settled() -> None:
    """OPEN-2: a seeded record whose last move ends a round replays to the next deal; without a deal left, it stops."""
    steps = _driven(2, 21)
    ended = next(index for index, step in enumerate(steps) if step.state.phase is Phase.ROUND_OVER)
    record = MatchRecord.seeded(Rules.standard(2), 21, _moves(steps[: ended + 1]))
    assert steps[ended + 1].state == record.final_state()
    dealt, _ = _dealt_match(2, 5)
    played = _first_round_moves(dealt)
    assert Phase.ROUND_OVER == MatchRecord.dealt(dealt.rules, dealt.deals[:1], played).final_state().phase
    second = MatchRecord.dealt(dealt.rules, dealt.deals[:2], played).final_state()
    assert (2, Phase.PLAYING, True) == (second.round_number, second.phase, second.layout.is_empty)


def _first_round_moves(record: MatchRecord) -> tuple[Move, ...]:
    moves: list[Move] = []
    for step in record.replay():
        if step.move is not None:
            moves.append(step.move)
            if step.state.phase is Phase.ROUND_OVER:
                return tuple(moves)
    raise AssertionError("the record has no settled round")


def test_events_are_shown_as_a_seat_sees_them() -> None:
    """SETUP-6: record.events(seat) is every replayed event as that seat sees it."""
    record = MatchRecord.seeded(Rules.standard(3), 8, _moves(_driven(3, 8)))
    replayed = [event for step in record.replay() for event in step.events]
    for seat in (0, 2, None):
        assert tuple(event.seen_by(seat) for event in replayed) == record.events(seat)


def test_moves_and_deals_are_added_to_a_new_record() -> None:
    """TURN-1: with_moves and with_deal return a longer record and leave the first as it was."""
    steps = _driven(2, 3)
    first = MatchRecord.seeded(Rules.standard(2), 3, _moves(steps)[:4])
    longer = first.with_moves(*_moves(steps)[4:6])
    assert (_moves(steps)[:4], _moves(steps)[:6]) == (first.moves, longer.moves)
    dealt, _ = _dealt_match(2, 5)
    fewer = MatchRecord.dealt(dealt.rules, dealt.deals[:1])
    assert dealt.deals[:2] == fewer.with_deal(dealt.deals[1]).deals


# ---------------------------------------------------------------- refusals of a record's moves and deals


def _seeded(players: int = 2, seed: int = 21) -> MatchRecord:
    return MatchRecord.seeded(Rules.standard(players), seed, _moves(_driven(players, seed)))


def _refusal(record: MatchRecord) -> SniffError:
    with pytest.raises(SniffError) as caught:
        record.final_state()
    return caught.value


def test_an_illegal_move_is_refused_by_its_rule_naming_its_index() -> None:
    """TURN-2 DRAW-1 MATCH-2: the IllegalMoveError of the rule broken, its message naming the move's index."""
    record = _seeded()
    moves = list(record.moves)
    first = moves[0]
    wrong_seat = attrs.evolve(record, moves=(attrs.evolve(first, seat=1 - first.seat), *moves[1:]))
    draw_instead = attrs.evolve(record, moves=(*moves[:3], Draw(moves[3].seat), *moves[4:]))
    after_the_end = record.with_moves(Draw(0))
    for broken, rule, index in (
        (wrong_seat, "TURN-2", 0),
        (draw_instead, "DRAW-1", 3),
        (after_the_end, "MATCH-2", len(moves)),
    ):
        err = _refusal(broken)
        assert (IllegalMoveError, rule) == (type(err), err.rule)
        assert str(err).startswith(f"{rule}: move {index} (")


def test_a_move_past_the_last_supplied_deal_is_refused() -> None:
    """END-1: with supplied deals, a move after a settled round with no deal left is refused, naming its index."""
    dealt, _ = _dealt_match(2, 5)
    played = _first_round_moves(dealt)
    short = MatchRecord.dealt(dealt.rules, dealt.deals[:1], (*played, dealt.moves[len(played)]))
    err = _refusal(short)
    assert (IllegalMoveError, "END-1", True) == (type(err), err.rule, f"move {len(played)} (" in str(err))


def test_a_deal_the_rules_refuse_is_refused_naming_its_index() -> None:
    """SETUP-5 OPEN-1 OPEN-2: a short order, no first opener, another opener than the finisher, a deal never reached."""
    dealt, _ = _dealt_match(2, 5)
    deals = list(dealt.deals)
    second = deals[1]
    finisher_round = next(step.state.last_round for step in dealt.replay() if step.state.phase is Phase.ROUND_OVER)
    assert finisher_round is not None
    cases: list[tuple[MatchRecord, str, str]] = [
        (attrs.evolve(dealt, deals=(Deal(deals[0].order[:27], 1), *deals[1:])), "SETUP-5", "deal 0: "),
        (attrs.evolve(dealt, deals=(Deal(deals[0].order), *deals[1:])), "OPEN-1", "deal 0: "),
        (attrs.evolve(dealt, deals=(*deals, deals[0])), "SETUP-5", f"deal {len(deals)} is never dealt"),
    ]
    if finisher_round.finisher is not None:
        other = Deal(second.order, 1 - finisher_round.finisher)
        cases.append((attrs.evolve(dealt, deals=(deals[0], other, *deals[2:])), "OPEN-2", "deal 1: "))
    for broken, rule, text in cases:
        err = _refusal(broken)
        assert (InvalidStateError, rule, True) == (type(err), err.rule, text in str(err)), str(err)


def test_a_malformed_record_value_is_refused() -> None:
    """FORMAT-3: a record needs a seed or deals, not both; ints, Deals and moves of the right types."""
    rules = Rules.standard(2)
    order = DOUBLE_SIX
    cases: list[tuple[Callable[[], object], type[SniffError]]] = [
        (lambda: MatchRecord(rules, 1, (Deal(order, 0),)), InvalidStateError),
        (lambda: MatchRecord(rules, None, ()), InvalidStateError),
        (lambda: MatchRecord(rules, True, ()), InvalidStateError),
        (lambda: MatchRecord("rules", 1, ()), InvalidStateError),  # type: ignore[arg-type]
        (lambda: MatchRecord(rules, None, [Deal(order, 0)]), InvalidStateError),  # type: ignore[arg-type]
        (lambda: MatchRecord(rules, 1, (), ("0:draw",)), InvalidMoveError),  # type: ignore[arg-type]
        (lambda: MatchRecord(rules, 1, (), [Draw(0)]), InvalidMoveError),  # type: ignore[arg-type]
        (lambda: Deal(list(order), 0), InvalidStateError),  # type: ignore[arg-type]
        (lambda: Deal(order, 4), InvalidStateError),
        (lambda: Deal(order, True), InvalidStateError),
    ]
    for make, error in cases:
        with pytest.raises(SniffError) as caught:
            make()
        assert (error, "FORMAT-3") == (type(caught.value), caught.value.rule)


@pytest.mark.parametrize(
    "seed", [2**53, -(2**53), 2**60, -(2**64), 10**5000], ids=["2**53", "-2**53", "2**60", "-2**64", "10**5000"]
)
def test_a_record_whose_seed_has_no_json_form_cannot_be_built(seed: int) -> None:
    """FORMAT-2: a seed beyond ±(2**53 - 1) is refused when the record is built, by the rule that refuses
    writing it, so no record exists that record_to_json cannot write."""
    rules = Rules.standard(2)
    makers: list[Callable[[], object]] = [lambda: MatchRecord.seeded(rules, seed), lambda: MatchRecord(rules, seed, ())]
    for make in makers:
        with pytest.raises(NotationError) as caught:
            make()
        assert ("FORMAT-2", True) == (caught.value.rule, "has a JSON form" in str(caught.value))
    with pytest.raises(NotationError) as caught:
        attrs.evolve(MatchRecord.seeded(rules, 1), seed=seed)
    assert "FORMAT-2" == caught.value.rule


def test_the_seeds_at_the_bound_are_built_and_written() -> None:
    """FORMAT-2: ±(2**53 - 1), the bound itself (MAX_RECORD_SEED, FORMAT-2's integer bound), round-trip through JSON."""
    assert MAX_SAFE_INT == MAX_RECORD_SEED
    for seed in (MAX_RECORD_SEED, -MAX_RECORD_SEED):
        record = MatchRecord.seeded(Rules.standard(2), seed)
        assert record == record_from_json(record_to_json(record))


# ---------------------------------------------------------------- JSON


@pytest.mark.parametrize("kind", ["seeded", "dealt"])
def test_record_json_round_trips_and_matches_the_schema(kind: str) -> None:
    """FORMAT-2: a record's JSON reads back to an equal record and validates against $defs/matchRecord."""
    record = _seeded(4, 9) if kind == "seeded" else _dealt_match(3, 6)[0]
    text = record_to_json(record)
    _validator().validate(json.loads(text))
    assert record == record_from_json(text)
    assert record == record_from_json(text.encode())


def test_the_schema_refuses_what_the_reader_refuses() -> None:
    """FORMAT-2: the schema refuses a seed with deals, neither, an unknown key, a move without its seat."""
    data = record_to_data(_seeded())
    dealt = record_to_data(_dealt_match(2, 5)[0])
    broken: list[dict[str, JsonValue]] = [
        {**data, "deals": dealt["deals"]},
        {**data, "seed": None},
        {**data, "extra": 1},
        {**data, "moves": ["[0|5]"]},
        {**dealt, "seed": 3},
    ]
    for document in broken:
        assert not _validator().is_valid(document), document
        with pytest.raises(NotationError):
            record_from_data(document)


def _data() -> dict[str, JsonValue]:
    return dict(record_to_data(_seeded()))


def _dealt_data() -> dict[str, JsonValue]:
    return dict(record_to_data(_dealt_match(2, 5)[0]))


def _first_deal(document: dict[str, JsonValue]) -> dict[str, JsonValue]:
    deals = document["deals"]
    assert isinstance(deals, list)
    deal = deals[0]
    assert isinstance(deal, dict)
    return deal


def _moves_of(document: dict[str, JsonValue]) -> list[JsonValue]:
    moves = document["moves"]
    assert isinstance(moves, list)
    return moves


HOSTILE: list[tuple[str, Callable[[], dict[str, JsonValue]], Callable[[dict[str, JsonValue]], object], str]] = [
    ("an unknown key", _data, lambda d: d.update(extra=1), "FORMAT-2"),
    ("a missing key", _data, lambda d: d.pop("moves"), "FORMAT-2"),
    ("another format", _data, lambda d: d.update(format="sniff-rules/record@0"), "FORMAT-2"),
    ("a seed as text", _data, lambda d: d.update(seed="21"), "FORMAT-2"),
    ("a seed as a boolean", _data, lambda d: d.update(seed=True), "FORMAT-2"),
    ("a seed beyond 2**53", _data, lambda d: d.update(seed=2**60), "FORMAT-2"),
    ("neither seed nor deals", _data, lambda d: d.update(seed=None), "FORMAT-2"),
    ("a seed and deals", _dealt_data, lambda d: d.update(seed=1), "FORMAT-2"),
    ("moves as text", _data, lambda d: d.update(moves="0:draw"), "FORMAT-2"),
    ("a move as a number", _data, lambda d: _moves_of(d).append(3), "FORMAT-2"),
    ("a move without its seat", _data, lambda d: _moves_of(d).insert(0, "[0|5]"), "FORMAT-1"),
    ("a move word unknown", _data, lambda d: _moves_of(d).insert(0, "0:fold"), "FORMAT-1"),
    ("too many moves", _data, lambda d: d.update(moves=["0:draw"] * (MAX_RECORD_MOVES + 1)), "FORMAT-2"),
    ("a deal as an array", _dealt_data, lambda d: d.update(deals=[[]]), "FORMAT-2"),
    ("a deal's unknown key", _dealt_data, lambda d: _first_deal(d).update(cut=3), "FORMAT-2"),
    ("an order of 29", _dealt_data, lambda d: _first_deal(d).update(order=[*DOUBLE_SIX_TEXT, "[0|0]"]), "FORMAT-2"),
    ("a tile twice", _dealt_data, lambda d: _first_deal(d).update(order=["[0|0]", *DOUBLE_SIX_TEXT[:27]]), "SETUP-1"),
    ("a tile that is no tile", _dealt_data, lambda d: _first_deal(d).update(order=["[0|7]"]), "FORMAT-1"),
    ("an opener out of range", _dealt_data, lambda d: _first_deal(d).update(opener=2), "OPEN-1"),
    ("an opener as text", _dealt_data, lambda d: _first_deal(d).update(opener="1"), "FORMAT-2"),
    ("an order of 27", _dealt_data, lambda d: _first_deal(d).update(order=DOUBLE_SIX_TEXT[:27]), "SETUP-5"),
    ("five players", _data, lambda d: d.update(rules={"players": 5, "hand_size": 5, "target": 200}), "SETUP-2"),
    ("a move out of turn", _data, lambda d: _moves_of(d).insert(0, "0:draw"), "TURN-2"),
    # Seat 1 opens seed 21's match and holds tiles to lead: its draw breaks the rule of drawing, not of turns.
    ("a draw while a placement exists", _data, lambda d: _moves_of(d).insert(0, "1:draw"), "DRAW-1"),
]
DOUBLE_SIX_TEXT: list[JsonValue] = [str(tile) for tile in DOUBLE_SIX]


@pytest.mark.parametrize(("name", "base", "mutate", "rule"), HOSTILE, ids=[case[0] for case in HOSTILE])
def test_a_corrupt_record_is_refused_naming_the_rule(
    name: str,
    base: Callable[[], dict[str, JsonValue]],
    mutate: Callable[[dict[str, JsonValue]], object],
    rule: str,
) -> None:
    """FORMAT-1 FORMAT-2 SETUP-1 SETUP-2 SETUP-5 OPEN-1 TURN-2: a corrupt record is refused by its rule, never read."""
    document = base()
    mutate(document)
    with pytest.raises(SniffError) as caught:
        record_from_json(json.dumps(document))
    expected = NotationError if rule.startswith("FORMAT") else SniffError
    assert (True, rule) == (isinstance(caught.value, expected), caught.value.rule), str(caught.value)


def test_record_text_is_bounded_in_size_and_depth() -> None:
    """FORMAT-2: record text beyond 2**22 characters, nested beyond 8 levels, or not UTF-8 is refused."""
    for text in (" " * (1 << 22) + "{}", "[" * 9 + "]" * 9, b"\xff"):
        with pytest.raises(NotationError) as caught:
            record_from_json(text)
        assert "FORMAT-2" == caught.value.rule


def test_writing_refuses_a_non_record() -> None:
    """FORMAT-3: record_to_data writes a MatchRecord and nothing else."""
    with pytest.raises(InvalidStateError) as caught:
        record_to_data("record")  # type: ignore[arg-type]
    assert "FORMAT-3" == caught.value.rule


def test_writing_refuses_a_seed_no_json_reader_holds() -> None:
    """FORMAT-2 SETUP-5: a seed beyond ±(2**53 - 1) has no JSON form; the largest that has one is written."""
    rules = Rules.standard(2)
    with pytest.raises(NotationError) as caught:
        record_to_json(MatchRecord.seeded(rules, 2**53))
    assert "FORMAT-2" == caught.value.rule
    largest = MatchRecord.seeded(rules, 2**53 - 1)
    assert largest == record_from_json(record_to_json(largest))


@pytest.mark.parametrize("make", [_seeded, lambda: _dealt_match(2, 5)[0], lambda: _dealt_match(2, 5)[0].deals[0]])
def test_records_and_deals_are_sealed_and_paste_back(make: Callable[[], Any]) -> None:
    """A record and a deal refuse __setstate__; copies, pickles and their repr, evaluated, are equal values."""
    value = make()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        value.__setstate__({})
    namespace: dict[str, Any] = library_namespace()
    namespace.update(MatchRecord=MatchRecord, Deal=Deal)
    for rebuilt in (copy.copy(value), pickle.loads(pickle.dumps(value)), eval(repr(value), namespace)):
        assert value == rebuilt
