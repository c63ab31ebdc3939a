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

from sniff_rules import (
    AttachmentPoint,
    Draw,
    IllegalMoveError,
    InvalidMoveError,
    InvalidRulesError,
    InvalidStateError,
    InvalidTileError,
    Layout,
    NotationError,
    Pass,
    Place,
    Port,
    RoundResult,
    Rules,
    Settlement,
    SniffError,
    SplitMix64,
    State,
    Tile,
    apply,
    legal_moves,
    new_match,
    next_round,
    parse_tiles,
    position_key,
    score_play,
    settle_round,
)
from sniff_rules.codec import state_from_json
from sniff_rules.view import observe

_RULES = Rules.standard(2)
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
    ("an opener of text", lambda: new_match(_RULES, seed=1, opener=_nothing("0")), InvalidStateError, "OPEN-1"),
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
]


@pytest.mark.parametrize(("call", "error", "rule"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_malformed_argument_is_a_typed_error_naming_its_rule(
    call: Callable[[], object], error: type[SniffError], rule: str
) -> None:
    """FORMAT-1, FORMAT-3: each malformed argument raises exactly the error class and rule id listed."""
    with pytest.raises(SniffError) as caught:
        call()
    assert (error, rule) == (type(caught.value), caught.value.rule), str(caught.value)


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
    """OPEN-1: a source whose below() always returns 0 ties every lot; the lot stops with a refusal, not a loop."""

    class Stuck:
        def below(self, bound: int) -> tuple[int, Stuck]:
            return 0, self

    with pytest.raises(InvalidStateError) as caught:
        new_match(_RULES, source=Stuck())
    assert "OPEN-1" == caught.value.rule
    assert "64 times" in str(caught.value)


@pytest.mark.parametrize("answer", [(6, None), (-1, None), ("1", None), 3, (1, "not a source")])
def test_an_injected_source_answering_outside_the_protocol_is_refused(answer: object) -> None:
    """SETUP-5: a draw outside range(bound), of the wrong type, or without a next source, is refused by name."""

    class Broken:
        def below(self, bound: int) -> object:
            return answer

    with pytest.raises(InvalidStateError) as caught:
        new_match(_RULES, source=_nothing(Broken()))
    assert "SETUP-5" == caught.value.rule


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
    (_BASE.context, "opener", 4, "OPEN-1", "seats run 0..3, got 4"),
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
