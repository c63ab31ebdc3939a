"""Section 11, text and JSON forms: malformed input of every kind is a typed error naming its rule (FORMAT-1..3).

The text and JSON readers have their own modules of tests (test_notation,
test_jsonio, test_codec); here, one case per kind of malformed input, and
every argument of a public function or constructor that once escaped as a
bare TypeError, ValueError, IndexError or AttributeError, returned a wrong
value, or never returned.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from sniff_rules._fast import is_native
from sniff_rules.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidRulesError,
    InvalidStateError,
    InvalidTileError,
    NotationError,
    SniffError,
)
from sniff_rules.formats.state_json import state_from_json
from sniff_rules.layout import AttachmentPoint, Connection, Contribution, Layout, Placement, Port
from sniff_rules.moves import Draw, Pass, Place, apply, legal_moves
from sniff_rules.play.view import observe
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.scoring import Settlement, score_play, settle_round
from sniff_rules.state import Phase, RoundResult, State, new_match, next_round, position_key
from sniff_rules.tiles import Tile, parse_tiles

_RULES = Rules.standard(2)
_POINT = AttachmentPoint(Tile(1, 4), Port.HIGH)


class _LookAlike:
    """Not a State, but with a phase and a seat to move, as a buggy caller might pass."""

    to_move = 0

    def __init__(self, phase: Phase) -> None:
        self.phase = phase

    def __repr__(self) -> str:
        return "look-alike"


_STATE = new_match(_RULES, seed=1)
_ANY: Any = None


def _nothing(_value: object) -> Any:
    return _value


CASES: list[tuple[str, Callable[[], object], type[SniffError], str]] = [
    ("a port number no port has", lambda: AttachmentPoint(Tile(1, 4), _nothing(7)), InvalidMoveError, "PLACE-2"),
    ("a bool for a port", lambda: AttachmentPoint(Tile(1, 4), _nothing(True)), InvalidMoveError, "PLACE-2"),
    ("a point on text, not a tile", lambda: AttachmentPoint(_nothing("[1|4]"), Port.LOW), InvalidMoveError, "FORMAT-3"),
    ("a placement of text", lambda: Place(0, _nothing("[1|4]")), InvalidMoveError, "TURN-1"),
    ("a target of text", lambda: Place(0, Tile(1, 4), _nothing("x")), InvalidMoveError, "TURN-1"),
    ("a seat of text", lambda: Draw(_nothing("1")), InvalidMoveError, "TURN-2"),
    ("a seat no table has", lambda: Pass(4), InvalidMoveError, "TURN-2"),
    ("a pip of text", lambda: Tile.of(1, _nothing("4")), InvalidTileError, "SETUP-1"),
    ("a pip that is a float", lambda: Tile(1, _nothing(4.0)), InvalidTileError, "SETUP-1"),
    ("no text to parse", lambda: Tile.parse(_nothing(None)), NotationError, "FORMAT-1"),
    ("bytes to parse", lambda: Tile.parse(_nothing(b"[1|4]")), NotationError, "FORMAT-1"),
    ("tiles text with junk", lambda: parse_tiles("[1|4] x"), NotationError, "FORMAT-1"),
    ("an unclosed tile", lambda: parse_tiles("[1|4"), NotationError, "FORMAT-1"),
    ("a point id past the end", lambda: AttachmentPoint.from_id(999), InvalidMoveError, "PLACE-2"),
    ("the id of [0|0].low", lambda: AttachmentPoint.from_id(0), InvalidMoveError, "PLACE-2"),
    ("the id of [0|0].high", lambda: AttachmentPoint.from_id(1), InvalidMoveError, "PLACE-2"),
    ("the id of [0|1].chain-a", lambda: AttachmentPoint.from_id(8), InvalidMoveError, "PLACE-2"),
    ("a negative point id", lambda: AttachmentPoint.from_id(-1), InvalidMoveError, "PLACE-2"),
    ("a placement of text on the table", lambda: Layout.EMPTY.place(_nothing("x"), None), InvalidMoveError, "FORMAT-3"),
    (
        "a target of text on the table",
        lambda: Layout.parse("[1|4]").place(Tile(4, 6), _nothing("[1|4].high")),
        InvalidMoveError,
        "FORMAT-3",
    ),
    ("a layout text with junk", lambda: Layout.parse("[1|4] >"), NotationError, "FORMAT-1"),
    ("a layout text with no port", lambda: Layout.parse("[1|4] [4|6]>[1|4].top"), NotationError, "FORMAT-1"),
    (
        "a layout text that breaks the geometry",
        lambda: Layout.parse("[1|4] [5|6]>[1|4].high"),
        IllegalMoveError,
        "PLACE-1",
    ),
    ("a bound of text", lambda: SplitMix64(1).below(_nothing("6")), InvalidStateError, "SETUP-5"),
    ("a bound past 2**64", lambda: SplitMix64(1).below(2**64 + 1), InvalidStateError, "SETUP-5"),
    ("an infinite bound", lambda: SplitMix64(1).below(_nothing(float("inf"))), InvalidStateError, "SETUP-5"),
    ("a bound that is not a number", lambda: SplitMix64(1).below(_nothing(float("nan"))), InvalidStateError, "SETUP-5"),
    ("a source state out of range", lambda: SplitMix64(2**64), InvalidStateError, "SETUP-5"),
    ("no hands to settle", lambda: settle_round(_RULES, _nothing(None)), InvalidStateError, "SETUP-2"),
    ("hands of text to settle", lambda: settle_round(_RULES, _nothing(("[1|2]", ()))), InvalidStateError, "FORMAT-3"),
    ("a tile in two hands", lambda: settle_round(_RULES, ((Tile(1, 2),), (Tile(1, 2),))), InvalidStateError, "SETUP-1"),
    ("no rules to settle by", lambda: settle_round(_nothing(2), ((), ())), InvalidStateError, "FORMAT-3"),
    ("a layout of text to score", lambda: score_play(_nothing("[1|4]")), InvalidStateError, "FORMAT-3"),
    ("a source of text", lambda: new_match(_RULES, source=_nothing("x")), InvalidStateError, "SETUP-5"),
    ("a seed and a source", lambda: new_match(_RULES, 1, source=SplitMix64(1)), InvalidStateError, "SETUP-5"),
    (
        "an order that is an iterator",
        lambda: new_match(_RULES, order=_nothing(iter(range(28))), opener=0),
        InvalidStateError,
        "SETUP-5",
    ),
    ("an order that is a number", lambda: new_match(_RULES, seed=1, order=_nothing(5)), InvalidStateError, "SETUP-5"),
    ("an opener of text", lambda: new_match(_RULES, seed=1, opener=_nothing("0")), InvalidStateError, "SETUP-2"),
    ("a seed of text", lambda: new_match(_RULES, seed=_nothing("1")), InvalidStateError, "SETUP-5"),
    ("legal moves of text", lambda: legal_moves(_nothing("state")), InvalidStateError, "FORMAT-3"),
    ("legal moves of None", lambda: legal_moves(_nothing(None)), InvalidStateError, "FORMAT-3"),
    ("legal moves of a view", lambda: legal_moves(_nothing(observe(_STATE, 0))), InvalidStateError, "FORMAT-3"),
    ("apply to text", lambda: apply(_nothing("state"), Draw(0)), InvalidStateError, "FORMAT-3"),
    ("apply to a view", lambda: apply(_nothing(observe(_STATE, 0)), Draw(0)), InvalidStateError, "FORMAT-3"),
    ("apply of text", lambda: apply(_STATE, _nothing("0:draw")), InvalidMoveError, "TURN-1"),
    ("apply of None", lambda: apply(_STATE, _nothing(None)), InvalidMoveError, "TURN-1"),
    ("observe text", lambda: observe(_nothing("state"), 0), InvalidStateError, "FORMAT-3"),
    ("observe a seat of text", lambda: observe(_STATE, _nothing("0")), InvalidStateError, "SETUP-2"),
    ("next round of text", lambda: next_round(_nothing("state")), InvalidStateError, "FORMAT-3"),
    ("a position key of text", lambda: position_key(_nothing("state")), InvalidStateError, "FORMAT-3"),
    ("a hand of a seat no table has", lambda: _STATE.hand(5), InvalidStateError, "SETUP-2"),
    ("a side of a seat of text", lambda: _RULES.side_of(_nothing("1")), InvalidRulesError, "SETUP-2"),
    ("the seats of a side no match has", lambda: _RULES.seats_of(2), InvalidRulesError, "SETUP-2"),
    ("a target past 10**15", lambda: Rules(2, 7, 5 * 2**60), InvalidRulesError, "SETUP-3"),
    ("a target that is a bool", lambda: Rules(2, 7, _nothing(True)), InvalidRulesError, "SETUP-3"),
    (
        "a state with a seat to move of text",
        lambda: State.create(rules=_RULES, hands=((), ()), boneyard=(), to_move=_nothing("0")),
        InvalidStateError,
        "TURN-1",
    ),
    (
        "a state with one hand too few",
        lambda: State.create(rules=_RULES, hands=((),), boneyard=()),
        InvalidStateError,
        "SETUP-2",
    ),
    (
        "a state whose hand holds a tile twice",
        lambda: State.create(rules=_RULES, hands=("[1|2] [2|1]", ()), boneyard=()),
        InvalidStateError,
        "SETUP-1",
    ),
    (
        "a state with hands of numbers",
        lambda: State.create(rules=_RULES, hands=_nothing(((1, 2), ())), boneyard=()),
        InvalidStateError,
        "FORMAT-3",
    ),
    (
        "a state with a drawn tile of a number",
        lambda: State.create(rules=_RULES, hands=((), ()), boneyard=(), drawn=_nothing(5)),
        InvalidStateError,
        "FORMAT-3",
    ),
    (
        "a state with three scores for two sides",
        lambda: State.create(rules=_RULES, hands=((), ()), boneyard=(), scores=(0, 0, 0)),
        InvalidStateError,
        "SETUP-2",
    ),
    (
        "a state with a winner no match has",
        lambda: State.create(rules=_RULES, hands=((), ()), boneyard=(), winner=2),
        InvalidStateError,
        "MATCH-1",
    ),
    (
        "a state with a layout of numbers",
        lambda: State.create(rules=_RULES, hands=((), ()), boneyard=(), layout=_nothing(5)),
        InvalidStateError,
        "FORMAT-3",
    ),
    (
        "a state with a round of text",
        lambda: State.create(rules=_RULES, hands=((), ()), boneyard=(), round_number=_nothing("1")),
        InvalidStateError,
        "FORMAT-3",
    ),
    (
        "a layout of garbage fields",
        lambda: Layout(placements=_nothing(["[1|4]"])),
        InvalidStateError,
        "FORMAT-3",
    ),
    ("a contribution of text", lambda: Contribution(Tile(1, 2), _nothing("5")), InvalidStateError, "FORMAT-3"),
    ("a contribution of no tile", lambda: Contribution(_nothing("x"), 5), InvalidMoveError, "FORMAT-3"),
    ("a connection from text", lambda: Connection(_nothing("x"), _POINT), InvalidStateError, "FORMAT-3"),
    ("a connection to text", lambda: Connection(_POINT, _nothing("y")), InvalidStateError, "FORMAT-3"),
    ("a placement record of text", lambda: Placement(_nothing("x"), None), InvalidMoveError, "FORMAT-3"),
    ("a placement record on text", lambda: Placement(Tile(1, 4), _nothing("x")), InvalidMoveError, "FORMAT-3"),
    ("a layout text that is no text", lambda: Layout.parse(_nothing(None)), NotationError, "FORMAT-1"),
    ("tiles text that is no text", lambda: parse_tiles(_nothing(None)), NotationError, "FORMAT-1"),
    ("a layout of text placements", lambda: Layout.from_placements(_nothing(("x",))), InvalidMoveError, "FORMAT-3"),
    ("hands of numbers to settle", lambda: settle_round(_RULES, _nothing(((1, 2), ()))), InvalidStateError, "FORMAT-3"),
    (
        "legal moves of a look-alike",
        lambda: legal_moves(_nothing(_LookAlike(Phase.ROUND_OVER))),
        InvalidStateError,
        "FORMAT-3",
    ),
    (
        "apply to a look-alike",
        lambda: apply(_nothing(_LookAlike(Phase.ROUND_OVER)), Draw(0)),
        InvalidStateError,
        "FORMAT-3",
    ),
    (
        "apply out of turn to a look-alike",
        lambda: apply(_nothing(_LookAlike(Phase.PLAYING)), Draw(1)),
        InvalidStateError,
        "FORMAT-3",
    ),
    (
        "a state under no rules",
        lambda: State.create(rules=_nothing("x"), hands=((), ()), boneyard=()),
        InvalidStateError,
        "FORMAT-3",
    ),
    (
        "a state with hands of text",
        lambda: State.create(rules=_RULES, hands=_nothing("ab"), boneyard=()),
        InvalidStateError,
        "SETUP-2",
    ),
    (
        "a state with a boneyard of numbers",
        lambda: State.create(rules=_RULES, hands=((), ()), boneyard=_nothing((1,))),
        InvalidStateError,
        "FORMAT-3",
    ),
]


# The whole message of each refusal above: it names the rule, the value given and what was expected.
MESSAGES: dict[str, str] = {
    "a port number no port has": "PLACE-2: a port is a Port or its number 0..5, got 7",
    "a bool for a port": "PLACE-2: a port is a Port or its number 0..5, got True",
    "a point on text, not a tile": "FORMAT-3: an attachment point is on a Tile, got '[1|4]'",
    "a placement of text": "TURN-1: a placement places a Tile, got '[1|4]'",
    "a target of text": "TURN-1: a placement's target is an AttachmentPoint or None, got 'x'",
    "a seat of text": "TURN-2: a move names its seat as an int 0..3, got '1'",
    "a seat no table has": "TURN-2: a move names its seat as an int 0..3, got 4",
    "a pip of text": "SETUP-1: pips must be ints, got 1 and '4'",
    "a pip that is a float": "SETUP-1: pips must be ints, got 1 and 4.0",
    "no text to parse": "FORMAT-1: a tile's text form is a str such as '[1|4]', got None",
    "bytes to parse": "FORMAT-1: a tile's text form is a str such as '[1|4]', got b'[1|4]'",
    "tiles text with junk": "FORMAT-1: 'x' is not a tile; write it as [a|b] with pips 0..6",
    "an unclosed tile": "FORMAT-1: '[1|4' is not a list of tiles such as '[0|5] [1|2]'",
    "a point id past the end": "PLACE-2: a point id is tile index * 6 + a port that tile has, 0..167; got 999",
    "the id of [0|0].low": "PLACE-2: a point id is tile index * 6 + a port that tile has, 0..167; got 0",
    "the id of [0|0].high": "PLACE-2: a point id is tile index * 6 + a port that tile has, 0..167; got 1",
    "the id of [0|1].chain-a": "PLACE-2: a point id is tile index * 6 + a port that tile has, 0..167; got 8",
    "a negative point id": "PLACE-2: a point id is tile index * 6 + a port that tile has, 0..167; got -1",
    "a placement of text on the table": "FORMAT-3: a placement puts a Tile on the table, got 'x'",
    "a target of text on the table": "FORMAT-3: a target is an AttachmentPoint, or None for the lead; got '[1|4].high'",
    "a layout text with junk": "FORMAT-1: '>' is not a placement such as [1|1]>[1|4].low",
    "a layout text with no port": "FORMAT-1: 'top' is not a port; ports: low high chain-a chain-b arm-a arm-b",
    "a layout text that breaks the geometry": "PLACE-1: [5|6] has no half matching [1|4].high (value 4)",
    "a bound of text": "SETUP-5: below(n) takes an int n from 1 to 2**64, got '6'",
    "a bound past 2**64": "SETUP-5: below(n) takes an int n from 1 to 2**64, got 18446744073709551617",
    "an infinite bound": "SETUP-5: below(n) takes an int n from 1 to 2**64, got inf",
    "a bound that is not a number": "SETUP-5: below(n) takes an int n from 1 to 2**64, got nan",
    "a source state out of range": "SETUP-5: a SplitMix64 state is an integer in 0..2**64-1, got 18446744073709551616",
    "no hands to settle": "SETUP-2: 2 players hold 2 hands, got None",
    "hands of text to settle": "FORMAT-3: a hand is a tuple of tiles, got '[1|2]'",
    "a tile in two hands": "SETUP-1: each tile is in one hand at most, once",
    "no rules to settle by": "FORMAT-3: settle_round takes a Rules value, got 2",
    "a layout of text to score": "FORMAT-3: score_play scores a Layout, got '[1|4]'",
    "a source of text": "SETUP-5: a random source has a below(bound) method, got 'x'",
    "a seed and a source": "SETUP-5: give a seed or a random source, not both",
    "an order that is an iterator": "SETUP-5: a deal order is a tuple of the 28 tiles, got range_iterator",
    "an order that is a number": "SETUP-5: a deal order is a tuple of the 28 tiles, got int",
    "an opener of text": "SETUP-2: seats run 0..1, got '0'",
    "a seed of text": "SETUP-5: a seed is an int, got '1'",
    "legal moves of text": "FORMAT-3: legal_moves takes a State, got str: 'state'",
    "legal moves of None": "FORMAT-3: legal_moves takes a State, got NoneType: None",
    # A view by its type alone: it holds a hand.
    "legal moves of a view": "FORMAT-3: legal_moves takes a State, got an Observation",
    "apply to text": "FORMAT-3: apply takes a State, got str: 'state'",
    "apply to a view": "FORMAT-3: apply takes a State, got an Observation",
    "apply of text": "TURN-1: a move is a Place, Draw or Pass, got '0:draw'",
    "apply of None": "TURN-1: a move is a Place, Draw or Pass, got None",
    "observe text": "FORMAT-3: observe takes a State, got 'state'",
    "observe a seat of text": "SETUP-2: seats run 0..1, got '0'",
    "next round of text": "FORMAT-3: next_round deals after a State, got 'state'",
    "a position key of text": "FORMAT-3: a position key is of a State, got 'state'",
    "a hand of a seat no table has": "SETUP-2: seats run 0..1, got 5",
    "a side of a seat of text": "SETUP-2: seats run 0..1, got '1'",
    "the seats of a side no match has": "SETUP-2: sides run 0..1, got 2",
    "a target past 10**15": (
        "SETUP-3: the target is a positive multiple of 5 raw points up to 10**15, got 5764607523034234880"
    ),
    "a target that is a bool": "SETUP-3: the target is a positive multiple of 5 raw points up to 10**15, got True",
    "a state with a seat to move of text": "TURN-1: seats run 0..1, got '0'",
    "a state with one hand too few": "SETUP-2: 2 players hold 2 hands, got a tuple of 1",
    "a state whose hand holds a tile twice": "SETUP-1: hand 0 holds a tile twice: entries 0 and 1 are one tile",
    "a state with hands of numbers": "FORMAT-3: hand 0 is a sequence of tiles or their text, got a tuple of 2",
    "a state with a drawn tile of a number": "FORMAT-3: drawn is a Tile, its text or None; got 5",
    "a state with three scores for two sides": "SETUP-2: the match keeps 2 int scores, got (0, 0, 0)",
    "a state with a winner no match has": "MATCH-1: the winner is a side 0..1 or None, got 2",
    "a state with a layout of numbers": "FORMAT-3: layout is a Layout, got 5",
    "a state with a round of text": "FORMAT-3: round_number counts from 1, got '1'",
    "a layout of garbage fields": "FORMAT-3: placements is a tuple of Placement values, got ['[1|4]']",
    "a contribution of text": "FORMAT-3: value is an int, got '5'",
    "a contribution of no tile": "FORMAT-3: a placement puts a Tile on the table, got 'x'",
    "a connection from text": "FORMAT-3: existing is an AttachmentPoint, got 'x'",
    "a connection to text": "FORMAT-3: placed is an AttachmentPoint, got 'y'",
    "a placement record of text": "FORMAT-3: a placement puts a Tile on the table, got 'x'",
    "a placement record on text": "FORMAT-3: a target is an AttachmentPoint, or None for the lead; got 'x'",
    "a layout text that is no text": "FORMAT-1: a layout's text form is a str, got None",
    "tiles text that is no text": "FORMAT-1: tiles are written as text such as '[0|5] [1|2]', got None",
    "a layout of text placements": "FORMAT-3: a layout is built from Placement values, got 'x'",
    "hands of numbers to settle": "FORMAT-3: a hand is a tuple of tiles, got (1, 2)",
    "legal moves of a look-alike": "FORMAT-3: legal_moves takes a State, got a _LookAlike",
    "apply to a look-alike": "FORMAT-3: apply takes a State, got a _LookAlike",
    "apply out of turn to a look-alike": "FORMAT-3: apply takes a State, got a _LookAlike",
    "a state under no rules": "FORMAT-3: rules is a Rules value, got 'x'",
    "a state with hands of text": "SETUP-2: 2 players hold 2 hands, got 'ab'",
    "a state with a boneyard of numbers": (
        "FORMAT-3: the boneyard is a sequence of tiles or their text, got a tuple of 1"
    ),
}


@pytest.mark.parametrize(("name", "call", "error", "rule"), CASES, ids=[case[0] for case in CASES])
def test_a_malformed_argument_is_a_typed_error_naming_its_rule(
    name: str, call: Callable[[], object], error: type[SniffError], rule: str
) -> None:
    """FORMAT-1, FORMAT-3: each malformed argument raises exactly the error class, rule id and message listed."""
    with pytest.raises(SniffError) as caught:
        call()
    assert (error, rule) == (type(caught.value), caught.value.rule), str(caught.value)
    message = MESSAGES[name]
    shown = str(caught.value)
    assert message == (shown[: len(message)] if message.endswith("Observation(") else shown)


def test_every_case_has_its_message() -> None:
    """The message table and the cases name the same refusals."""
    assert [case[0] for case in CASES] == list(MESSAGES)


@pytest.mark.parametrize(
    "text",
    ['{"format": "sniff-rules/state@1", "format": 1}', "[1e400]", '{"a": NaN}', "[9007199254740992]", "[[[" * 20],
    ids=["a key twice", "a number a double cannot hold", "NaN", "an integer beyond 2**53 - 1", "nesting too deep"],
)
def test_malformed_json_is_refused_before_any_rule_of_play(text: str) -> None:
    """FORMAT-2: a state document that is not JSON of the documented kinds is a NotationError citing FORMAT-2."""
    with pytest.raises(NotationError) as caught:
        state_from_json(text)
    assert "FORMAT-2" == caught.value.rule, str(caught.value)


def test_a_lot_that_ties_for_ever_gives_up() -> None:
    """OPEN-1: a source whose below() always returns 0 ties every lot; the lot stops after 64 rounds, not a loop."""
    draws: list[int] = []

    class Stuck:
        def below(self, bound: int) -> tuple[int, Stuck]:
            draws.append(bound)
            return 0, self

    with pytest.raises(InvalidStateError) as caught:
        new_match(_RULES, source=Stuck())
    expected = "OPEN-1: the lot tied 64 times in a row: the random source does not draw uniformly"
    assert expected == str(caught.value)
    assert [6] * 64 * 2 == draws, "64 rounds of one draw per seat"


@pytest.mark.parametrize(
    ("value", "following", "message"),
    [
        (6, "self", "below(6) returned 6, outside 0..5"),
        (-1, "self", "below(6) returned -1, outside 0..5"),
        ("1", "self", "below(6) returned '1', outside 0..5"),
        (True, "self", "below(6) returned True, outside 0..5"),
        (1, "not a source", "a random source has a below(bound) method, got 'not a source'"),
        (None, None, "below(6) returns (value, next source), got 3"),
        (1, None, "below(6) returns (value, next source), got (1,)"),
    ],
)
def test_an_injected_source_answering_outside_the_protocol_is_refused(
    value: object, following: object, message: str
) -> None:
    """SETUP-5: a draw outside range(bound), of the wrong type, or without a next source, is refused by name."""

    class Broken:
        def below(self, bound: int) -> object:
            if value is None:
                return 3
            if following is None:
                return (value,)
            return value, self if following == "self" else following

    with pytest.raises(InvalidStateError) as caught:
        new_match(_RULES, source=_nothing(Broken()))
    assert f"SETUP-5: {message}" == str(caught.value)


def test_an_injected_source_is_drawn_from_as_the_lot_and_shuffle_need() -> None:
    """SETUP-5, OPEN-1: a well-behaved injected source deals: the lot's draws of 6, then the shuffle's two groups."""
    bounds: list[int] = []

    class Counting:
        def __init__(self, source: SplitMix64) -> None:
            self.source = source

        def below(self, bound: int) -> tuple[int, Counting]:
            bounds.append(bound)
            value, following = self.source.below(bound)
            return value, Counting(following)

    injected = new_match(_RULES, source=Counting(SplitMix64.from_seed(1)))
    seeded = new_match(_RULES, seed=1)
    assert (injected.hands, injected.boneyard, injected.opener) == (seeded.hands, seeded.boneyard, seeded.opener)
    lot_draws = sum(len(lot_round) for lot_round in seeded.lot)
    assert [6] * lot_draws == bounds[:lot_draws]
    assert 2 == len(bounds) - lot_draws, "the 28-tile shuffle draws twice"


def test_below_serves_the_largest_bound() -> None:
    """SETUP-5: 2**64 itself is a bound below() can serve; a draw is every output unchanged."""
    source = SplitMix64(9)
    output, _ = source.next64()
    assert output == source.below(2**64)[0]


def test_next_round_refuses_an_order_that_is_a_number() -> None:
    """SETUP-5: next_round(s, order=5) is refused by rule, not by a failing len()."""
    state = _STATE
    while legal_moves(state):
        state = apply(state, legal_moves(state)[0])
    with pytest.raises(InvalidStateError) as caught:
        next_round(state, order=_nothing(5))
    assert "SETUP-5" == caught.value.rule


# --- FORMAT-3: the fields of a value built by a public call ---


def _mid_round() -> State:
    state = new_match(Rules.standard(4), seed=2)
    for _ in range(3):
        state = apply(state, legal_moves(state)[0])
    return state


_BASE = _mid_round()


def _evolve(value: Any, **changes: Any) -> Any:
    """attrs.evolve, untyped: the tests hand each field values of the wrong type on purpose."""
    return attrs.evolve(value, **changes)


_FULL = (1 << 28) - 1

# (field, malformed value, error class, rule, exact message) for State(...) through attrs.evolve.
STATE_FIELDS: list[tuple[str, object, type[SniffError], str, str]] = [
    ("context", "ctx", InvalidStateError, "FORMAT-3", "context is a RoundContext, got 'ctx'"),
    ("phase", "playing", InvalidStateError, "FORMAT-3", "phase is a Phase, got 'playing'"),
    ("to_move", 4, InvalidStateError, "TURN-1", "seats run 0..3, got 4"),
    ("hand_masks", (0, 0, 0), InvalidStateError, "SETUP-2", "4 players hold 4 hands, got (0, 0, 0)"),
    ("hand_masks", [0, 0, 0, 0], InvalidStateError, "SETUP-2", "4 players hold 4 hands, got [0, 0, 0, 0]"),
    (
        "hand_masks",
        (0, 0, 0, -1),
        InvalidStateError,
        "FORMAT-3",
        "hand_masks holds sets of tiles as ints, got (0, 0, 0, -1)",
    ),
    (
        "hand_masks",
        (0, 0, 0, _FULL + 1),
        InvalidStateError,
        "FORMAT-3",
        f"hand_masks holds sets of tiles as ints, got (0, 0, 0, {_FULL + 1})",
    ),
    (
        "hand_masks",
        (0, 0, 0, True),
        InvalidStateError,
        "FORMAT-3",
        "hand_masks holds sets of tiles as ints, got (0, 0, 0, True)",
    ),
    ("boneyard_ids", [1], InvalidStateError, "FORMAT-3", "boneyard_ids is a tuple of tile indices, got [1]"),
    ("boneyard_ids", (28,), InvalidStateError, "FORMAT-3", "boneyard_ids is a tuple of tile indices, got (28,)"),
    ("boneyard_ids", (-1,), InvalidStateError, "FORMAT-3", "boneyard_ids is a tuple of tile indices, got (-1,)"),
    ("boneyard_ids", ("1",), InvalidStateError, "FORMAT-3", "boneyard_ids is a tuple of tile indices, got ('1',)"),
    ("layout", "[1|4]", InvalidStateError, "FORMAT-3", "layout is a Layout, got '[1|4]'"),
    ("scores", (0, 0, 0), InvalidStateError, "SETUP-2", "the match keeps 2 int scores, got (0, 0, 0)"),
    ("scores", [0, 0], InvalidStateError, "SETUP-2", "the match keeps 2 int scores, got [0, 0]"),
    ("scores", (0, 0.0), InvalidStateError, "SETUP-2", "the match keeps 2 int scores, got (0, 0.0)"),
    ("drawn", 28, InvalidStateError, "FORMAT-3", "drawn is a tile index or -1, got 28"),
    ("drawn", -2, InvalidStateError, "FORMAT-3", "drawn is a tile index or -1, got -2"),
    ("drawn", 1.0, InvalidStateError, "FORMAT-3", "drawn is a tile index or -1, got 1.0"),
    ("winner", 2, InvalidStateError, "MATCH-1", "the winner is a side 0..1 or None, got 2"),
    ("winner", -1, InvalidStateError, "MATCH-1", "the winner is a side 0..1 or None, got -1"),
    ("winner", "0", InvalidStateError, "MATCH-1", "the winner is a side 0..1 or None, got '0'"),
]


@pytest.mark.parametrize(
    ("field", "value", "error", "rule", "message"), STATE_FIELDS, ids=[f"{c[0]}={c[1]!r}" for c in STATE_FIELDS]
)
def test_a_state_built_by_a_public_call_refuses_a_malformed_field(
    field: str, value: object, error: type[SniffError], rule: str, message: str
) -> None:
    """FORMAT-3, SETUP-2, TURN-1, MATCH-1: State(...) (and attrs.evolve) refuses each malformed field, by name."""
    with pytest.raises(SniffError) as caught:
        _evolve(_BASE, **{field: value})
    assert (error, f"{rule}: {message}") == (type(caught.value), str(caught.value))


@pytest.mark.parametrize(
    "changes",
    [
        {"to_move": 0},
        {"to_move": 3},
        {"hand_masks": (0, _FULL, 0, 0)},
        {"boneyard_ids": (0, 27)},
        {"drawn": -1},
        {"drawn": 0},
        {"drawn": 27},
        {"winner": 0},
        {"winner": 1},
        {"scores": (-5, 10**15)},
    ],
    ids=repr,
)
def test_a_state_field_at_the_edge_of_its_range_is_accepted(changes: dict[str, object]) -> None:
    """FORMAT-3: the first and last value of each field's range are accepted as they are."""
    changed = _evolve(_BASE, **changes)
    assert changes == {name: getattr(changed, name) for name in changes}


LAYOUT_FIELDS: list[tuple[str, object, str]] = [
    ("placements", ["[1|4]"], "placements is a tuple of Placement values, got ['[1|4]']"),
    ("placements", ("[1|4]",), "placements is a tuple of Placement values, got ('[1|4]',)"),
    ("open_point_ids", [8], "open_point_ids is a tuple of point ids, got [8]"),
    ("open_point_ids", (0,), "open_point_ids is a tuple of point ids, got (0,)"),
    ("open_point_ids", (8.0,), "open_point_ids is a tuple of point ids, got (8.0,)"),
    ("end_count", 5.0, "end_count is an int, got 5.0"),
    ("sniff", None, "sniff is an int, got None"),
    ("placed_mask", "1", "placed_mask is an int, got '1'"),
    ("sniff", 28, "sniff is a tile index or -1, got 28"),
    ("sniff", -2, "sniff is a tile index or -1, got -2"),
    ("placed_mask", -1, "placed_mask is a set of the 28 tiles, got -1"),
    ("placed_mask", _FULL + 1, f"placed_mask is a set of the 28 tiles, got {_FULL + 1}"),
]


@pytest.mark.parametrize(("field", "value", "message"), LAYOUT_FIELDS, ids=[f"{c[0]}={c[1]!r}" for c in LAYOUT_FIELDS])
def test_a_layout_built_by_a_public_call_refuses_a_malformed_field(field: str, value: object, message: str) -> None:
    """FORMAT-3: Layout(...) refuses each malformed field by name; the geometry is Layout.place's to check."""
    with pytest.raises(InvalidStateError) as caught:
        _evolve(_BASE.layout, **{field: value})
    assert f"FORMAT-3: {message}" == str(caught.value)


def test_a_layout_field_at_the_edge_of_its_range_is_accepted() -> None:
    """FORMAT-3: the extreme sniff, mask and point ids are accepted as they are."""
    for changes in (
        {"sniff": -1},
        {"sniff": 27},
        {"placed_mask": 0},
        {"placed_mask": _FULL},
        {"open_point_ids": (2, 167)},
    ):
        changed = _evolve(_BASE.layout, **changes)
        assert changes == {name: getattr(changed, name) for name in changes}


_RESULT = RoundResult(1, None, ((), ()), Settlement((0, 0), (0, 0), (0, 0)))

CONTEXT_AND_RESULT_FIELDS: list[tuple[object, str, object, str, str]] = [
    (_BASE.context, "rules", 2, "FORMAT-3", "rules is a Rules value, got 2"),
    (_BASE.context, "round_number", 0, "FORMAT-3", "round_number counts from 1, got 0"),
    (_BASE.context, "round_number", True, "FORMAT-3", "round_number counts from 1, got True"),
    (_BASE.context, "opener", 4, "SETUP-2", "seats run 0..3, got 4"),
    (_BASE.context, "source", "x", "SETUP-5", "a random source has a below(bound) method, got 'x'"),
    (_BASE.context, "lot", [], "FORMAT-3", "lot is a tuple of lot rounds, got []"),
    (_BASE.context, "last_round", "r", "FORMAT-3", "last_round is a RoundResult or None, got 'r'"),
    (_RESULT, "round_number", 0, "FORMAT-3", "round_number counts from 1, got 0"),
    (_RESULT, "round_number", 1.0, "FORMAT-3", "round_number counts from 1, got 1.0"),
    (_RESULT, "finisher", "0", "FORMAT-3", "finisher is a seat or None, got '0'"),
    (_RESULT, "hands", [(), ()], "FORMAT-3", "hands is a tuple of tuples of tiles, got [(), ()]"),
    (_RESULT, "hands", ([], ()), "FORMAT-3", "hands is a tuple of tuples of tiles, got ([], ())"),
    (_RESULT, "hands", (("[1|2]",), ()), "FORMAT-3", "hands is a tuple of tuples of tiles, got (('[1|2]',), ())"),
    (_RESULT, "settlement", (), "FORMAT-3", "settlement is a Settlement, got ()"),
]


@pytest.mark.parametrize(
    ("value", "field", "bad", "rule", "message"),
    CONTEXT_AND_RESULT_FIELDS,
    ids=[f"{type(c[0]).__name__}.{c[1]}={c[2]!r}" for c in CONTEXT_AND_RESULT_FIELDS],
)
def test_a_round_context_or_result_refuses_a_malformed_field(
    value: object, field: str, bad: object, rule: str, message: str
) -> None:
    """FORMAT-3, OPEN-1, SETUP-5: RoundContext(...) and RoundResult(...) refuse each malformed field by name."""
    with pytest.raises(InvalidStateError) as caught:
        _evolve(value, **{field: bad})
    assert f"{rule}: {message}" == str(caught.value)


def test_a_round_context_and_result_accept_the_edges_of_their_ranges() -> None:
    """FORMAT-3: round 1, the last seat, no source and a finisher are accepted as given."""
    context = _evolve(_BASE.context, round_number=1, opener=3, source=None, lot=(), last_round=_RESULT)
    assert (1, 3, None, (), _RESULT) == (
        context.round_number,
        context.opener,
        context.source,
        context.lot,
        context.last_round,
    )
    result = _evolve(_RESULT, finisher=1, hands=((Tile(0, 0),), ()))
    assert (1, ((Tile(0, 0),), ())) == (result.finisher, result.hands)


def test_a_port_is_given_as_a_port_or_its_number() -> None:
    """PLACE-2, FORMAT-3: a port's number 0..5 stands for the port; the first and last number are accepted."""
    assert AttachmentPoint(Tile(1, 4), Port.LOW) == AttachmentPoint(Tile(1, 4), _nothing(0))
    assert Port.ARM_B is AttachmentPoint(Tile(1, 1), _nothing(5)).port
    with pytest.raises(InvalidMoveError) as caught:
        AttachmentPoint(Tile(1, 1), _nothing(6))
    assert "PLACE-2: a port is a Port or its number 0..5, got 6" == str(caught.value)


def test_tiles_text_is_read_with_spaces_inside_and_between_tiles() -> None:
    """FORMAT-1: a reader accepts spaces inside and between the tiles and the halves in either order."""
    assert (Tile(1, 2), Tile(3, 4)) == parse_tiles(" [2 | 1]   [3|4] ")
    assert (Tile(1, 4), Tile(1, 4)) == (Tile.of(1, 4), Tile.of(4, 1))


def test_a_layout_reads_back_from_its_repr() -> None:
    """FORMAT-1: a layout's repr is the Layout.parse call of its placements."""
    layout = Layout.parse("[5|5] [2|5]>[5|5].chain-a")
    assert "Layout.parse('[5|5] [2|5]>[5|5].chain-a')" == repr(layout)
    assert layout == eval(repr(layout), {"Layout": Layout})


def test_an_unbuilt_state_is_not_mistaken_for_a_malformed_argument() -> None:
    """FORMAT-3: a State whose fields were never set is a broken State, so its AttributeError is not reworded."""
    if is_native(State):
        # The compiled build's State cannot be made without its fields at all.
        with pytest.raises(TypeError, match=r"object.__new__\(State\) is not safe"):
            object.__new__(State)
        return
    empty: Any = object.__new__(State)
    with pytest.raises(AttributeError, match="'phase'"):
        legal_moves(empty)
    with pytest.raises(AttributeError, match="'phase'"):
        apply(empty, Draw(0))


def test_the_target_may_be_five_and_up_to_ten_to_the_fifteen() -> None:
    """SETUP-3: the least and the greatest target are accepted."""
    assert (5, 10**15) == (Rules(2, 7, 5).target, Rules(2, 7, 10**15).target)


def test_a_state_created_with_no_opener_has_seat_zero_open_and_move() -> None:
    """OPEN-1: State.create's opener defaults to seat 0, and the seat to move to the opener."""
    state = State.create(rules=_RULES, hands=("[1|2]", "[3|4]"), boneyard="")
    assert (0, 0) == (state.opener, state.to_move)


def test_a_layout_is_rebuilt_from_its_placements() -> None:
    """PLACE-1, SNIFF-3: Layout.from_placements replays each placement in order, the lead and the arms included."""
    layout = Layout.parse("[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b [4|5]>[5|5].arm-a")
    assert layout == Layout.from_placements(layout.placements)
    assert Layout.EMPTY == Layout.from_placements(())
    with pytest.raises(IllegalMoveError) as caught:
        Layout.from_placements(layout.placements[1:])
    assert "OPEN-3" == caught.value.rule
