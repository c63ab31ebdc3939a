"""The engine's values: State, Layout and SplitMix64, built by their own fast ``__new__``, behave
exactly as frozen attrs values (refuse assignment, compare and hash by fields, copy, pickle and
evolve); ``State.create`` keeps what it is given; moves and placements read back from their text; the
sequence-field checks refuse a list naming the field, and a refusal quotes only what ``described`` shows.
In the mutation test selection: the core's validators and ``described`` are reached by these tests alone."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import sniff_rules
from sniff_rules._fast import is_optional_tuple_of_tuples, is_tuple_of_tuples
from sniff_rules.errors import InvalidMoveError, InvalidStateError, described
from sniff_rules.layout import Layout, Placement, Port
from sniff_rules.moves import Place, apply, legal_moves
from sniff_rules.randomness import SplitMix64
from sniff_rules.round_facts import RoundContext
from sniff_rules.rules import Rules
from sniff_rules.scoring import Settlement
from sniff_rules.state import Phase, RoundResult, State, new_match
from sniff_rules.tiles import Tile
from support import GAMMA, MASK64, layout_of, pt, state_before_output

FIELD_VALUES: dict[str, Any] = {
    "to_move": 2,
    "phase": Phase.ROUND_OVER,
    "drawn": 5,
    "winner": 1,
}


def _played(moves: int = 9) -> State:
    state = new_match(Rules.standard(4), seed=11)
    for _ in range(moves):
        state = apply(state, legal_moves(state)[-1])
    return state


def _values(value: Any) -> tuple[object, ...]:
    return tuple(getattr(value, field.name) for field in attrs.fields(type(value)))


# --- frozen values built by a fast __new__ ---


def test_a_built_state_is_exactly_a_state_with_the_fields_given() -> None:
    """Frozen values: State(...) from a played state's fields is an equal State, same hash, no __dict__."""
    state = _played()
    again = State(*_values(state))  # type: ignore[arg-type]
    assert type(again) is State
    assert state == again
    assert hash(state) == hash(again)
    assert _values(again) == _values(state)
    assert not hasattr(again, "__dict__")


def test_defaults_and_keywords_reach_the_right_fields() -> None:
    """Frozen values: State by keywords takes drawn -1 and no winner by default; Layout() is the empty layout."""
    state = _played()
    built = State(
        context=state.context,
        phase=state.phase,
        to_move=state.to_move,
        hand_masks=state.hand_masks,
        boneyard_ids=state.boneyard_ids,
        layout=state.layout,
        scores=state.scores,
    )
    assert (-1, None) == (built.drawn, built.winner)
    assert (built.to_move, built.scores, built.layout) == (state.to_move, state.scores, state.layout)
    empty = Layout()
    assert ((), (), 0, -1, 0) == _values(empty)
    assert Layout.EMPTY == empty


@pytest.mark.parametrize("field", sorted(FIELD_VALUES))
def test_states_differing_in_one_field_are_unequal(field: str) -> None:
    """Frozen values: attrs.evolve of one State field gives an unequal State sharing every other field."""
    state = _played()
    changed = attrs.evolve(state, **{field: FIELD_VALUES[field]})
    assert State is type(changed)
    assert state != changed
    assert getattr(changed, field) == FIELD_VALUES[field]
    others = [f.name for f in attrs.fields(State) if f.name != field]
    assert all(getattr(changed, name) is getattr(state, name) for name in others)


def test_layout_fields_each_take_part_in_equality() -> None:
    """Frozen values: changing any one field of a Layout makes it unequal."""
    layout = _played().layout
    other: dict[str, Any] = {
        "placements": (),
        "open_point_ids": (),
        "end_count": layout.end_count + 5,
        "sniff": 26 if layout.sniff == 27 else 27,
        "placed_mask": layout.placed_mask ^ 1,
    }
    assert sorted(other) == sorted(field.name for field in attrs.fields(Layout))
    for field, value in other.items():
        assert attrs.evolve(layout, **{field: value}) != layout, field


@pytest.mark.parametrize("cls", [State, Layout])
def test_subclassing_is_refused(cls: type) -> None:
    """Frozen values: State and Layout are final, since their fast __new__ builds exactly that class."""
    name = cls.__name__
    with pytest.raises(TypeError, match=f"^{name} is final: its fast __new__ builds exactly {name}$"):
        type("Sub", (cls,), {})


def test_an_advanced_source_is_a_whole_splitmix64_value() -> None:
    """SETUP-5: the sources below() and next64() return, built without __init__, are whole SplitMix64 values."""
    source = SplitMix64(state_before_output(4))
    for _, after in (source.below(6), source.next64()):
        made = SplitMix64((source.state + GAMMA) & MASK64)
        assert (SplitMix64, made, hash(made), repr(made)) == (type(after), after, hash(after), repr(after))
        with pytest.raises(AttributeError):
            after.state = 0  # type: ignore[misc]


def test_create_keeps_every_fact_it_is_given() -> None:
    """MATCH-1, OPEN-1: State.create stores each named fact, the round's fixed ones in the context."""
    rules = Rules.standard(2)
    last = RoundResult(1, None, ((), ()), Settlement((0, 0), (0, 0), (0, 0)))
    lot = (((0, 3), (1, 3)), ((0, 6), (1, 2)))
    source = SplitMix64.from_seed(9)
    state = State.create(
        rules=rules,
        phase=Phase.MATCH_OVER,
        round_number=2,
        opener=0,
        to_move=1,
        hands=((), ()),
        boneyard=(),
        layout=layout_of((Tile(1, 4), None)),
        scores=(250, 35),
        drawn=None,
        source=source,
        lot=lot,
        last_round=last,
        winner=0,
    )
    assert (rules, 2, 0, source, lot, last) == (
        state.rules,
        state.round_number,
        state.opener,
        state.source,
        state.lot,
        state.last_round,
    )
    assert (Phase.MATCH_OVER, 1, (250, 35), -1, 0) == (
        state.phase,
        state.to_move,
        state.scores,
        state.drawn,
        state.winner,
    )


# --- text and repr of moves and placements ---


def test_a_place_reads_back_from_its_repr() -> None:
    """TURN-1, OPEN-3: repr of a lead and of an attached placement evaluates back to the same move."""
    for move in (Place(2, Tile(1, 4)), Place(3, Tile(4, 6), pt(Tile(1, 4), Port.HIGH))):
        assert move == eval(repr(move), dict(vars(sniff_rules)))
    assert "Place(2, Tile(1, 4))" == repr(Place(2, Tile(1, 4)))


def test_a_place_is_written_seat_tile_and_target() -> None:
    """TURN-2, PLACE-1: a lead is written seat:tile, an attached tile seat:tile>point."""
    assert "2:[1|4]" == str(Place(2, Tile(1, 4)))
    assert "3:[4|6]>[1|4].high" == str(Place(3, Tile(4, 6), pt(Tile(1, 4), Port.HIGH)))


def test_placement_text_shows_the_target() -> None:
    """OPEN-3, PLACE-1: the lead is written as its tile alone, an attached tile as tile>point."""
    assert "[1|4]" == str(Placement(Tile(1, 4), None))
    assert "[4|6]>[1|4].high" == str(Placement(Tile(4, 6), pt(Tile(1, 4), Port.HIGH)))


@attrs.frozen
class _Nested:
    """A value with the two nested-sequence fields the outer rings use (a sampled deal's, a view's)."""

    hands: tuple[tuple[int, ...], ...] = attrs.field(validator=is_tuple_of_tuples)
    shown: tuple[tuple[int, ...], ...] | None = attrs.field(default=None, validator=is_optional_tuple_of_tuples)


def test_a_list_in_a_settlement_is_refused_naming_the_field() -> None:
    """FORMAT-3: a list where a settlement keeps a tuple is refused, naming the class, the field and the value."""
    with pytest.raises(InvalidStateError) as refused:
        Settlement((0, 0), [5, 0], (0, 0))  # type: ignore[arg-type]
    assert ("FORMAT-3", "FORMAT-3: Settlement.deductions is a tuple, got list [5, 0]") == (
        refused.value.rule,
        str(refused.value),
    )


@pytest.mark.parametrize(
    ("hands", "shown", "message"),
    [
        ([(1,)], None, "_Nested.hands is a tuple of tuples, got list [(1,)]"),
        (((1,), [2]), None, "_Nested.hands is a tuple of tuples, got tuple ((1,), [2])"),
        (((1,),), [(2,)], "_Nested.shown is a tuple of tuples, got list [(2,)]"),
        (((1,),), ((2,), [3]), "_Nested.shown is a tuple of tuples, got tuple ((2,), [3])"),
    ],
)
def test_a_list_at_either_level_of_a_nested_field_is_refused(hands: Any, shown: Any, message: str) -> None:
    """FORMAT-3: a tuple-of-tuples field, optional or not, refuses a list outside or inside, naming both."""
    with pytest.raises(InvalidStateError) as refused:
        _Nested(hands, shown)
    assert f"FORMAT-3: {message}" == str(refused.value)


def test_tuples_of_tuples_and_none_are_accepted() -> None:
    """A tuple of tuples passes both nested-field checks, and None the optional one."""
    assert [((1,), (2, 3)), None, ((4,),)] == [
        _Nested(((1,), (2, 3))).hands,
        _Nested(((1,),)).shown,
        _Nested(((1,),), ((4,),)).shown,
    ]


def test_a_refusal_quotes_a_scalar_cut_to_forty_characters_and_names_anything_else_by_type() -> None:
    """What a refusal shows of a value: a scalar's repr cut to 40 characters, a sequence its type and length."""
    assert [repr("x" * 50)[:40], "a list of 2", "an object", "a State"] == [
        described("x" * 50),
        described([1, 2]),
        described(object()),
        described(new_match(Rules.standard(2), seed=1)),
    ]


def test_a_long_text_given_for_a_state_is_quoted_to_two_hundred_characters() -> None:
    """FORMAT-3: ``legal_moves`` given a string names its type and quotes it cut to 200 characters."""
    with pytest.raises(InvalidStateError) as refused:
        legal_moves("s" * 300)  # type: ignore[call-overload]
    assert f"FORMAT-3: legal_moves takes a State, got str: {repr('s' * 300)[:200]}" == str(refused.value)


def test_a_long_text_given_for_a_move_is_quoted_to_two_hundred_characters() -> None:
    """TURN-1: ``apply`` given a string for a move quotes it cut to 200 characters, and refuses it as no move."""
    state = new_match(Rules.standard(4), seed=3)
    with pytest.raises(InvalidMoveError) as refused:
        apply(state, "m" * 300)  # type: ignore[call-overload]
    assert f"TURN-1: a move is a Place, Draw or Pass, got {repr('m' * 300)[:200]}" == str(refused.value)


@pytest.mark.parametrize(
    "lot",
    [([(0, 3), (1, 5)],), (((0, 3), [1, 5]),), (((0, 3), (1, 5, 2)),), (((0, 3), ("1", "5")),)],
    ids=["a round as a list", "a draw as a list", "a draw of three", "a draw of strings"],
)
def test_a_lot_not_made_of_int_pairs_in_tuples_is_refused(lot: Any) -> None:
    """FORMAT-3: a round context's lot is tuples all the way down, each draw a (seat, face) pair of ints."""
    with pytest.raises(InvalidStateError) as refused:
        RoundContext(Rules.standard(2), 1, 0, lot=lot)
    assert f"FORMAT-3: lot is a tuple of lot rounds, got {lot!r}" == str(refused.value)


def test_a_lot_of_int_pairs_in_tuples_is_kept() -> None:
    """A lot written as tuples of (seat, face) pairs is accepted as given."""
    lot = (((0, 3), (1, 3)), ((0, 6), (1, 2)))
    assert lot == RoundContext(Rules.standard(2), 1, 0, lot=lot).lot
