"""State and Layout are built by their own ``__new__`` for speed; they must
still behave exactly as frozen attrs values: refuse assignment, compare and
hash by fields, copy, pickle and evolve."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from sniff_rules import Layout, Phase, Rules, State, apply, legal_moves, new_match

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


@pytest.mark.parametrize("make", [_played, lambda: _played().layout], ids=["State", "Layout"])
def test_every_field_refuses_assignment_and_deletion(make: Callable[[], Any]) -> None:
    value = make()
    before = _values(value)
    for field in attrs.fields(type(value)):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(value, field.name, None)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            delattr(value, field.name)
    assert _values(value) == before


def test_a_built_state_is_exactly_a_state_with_the_fields_given() -> None:
    state = _played()
    again = State(*_values(state))  # type: ignore[arg-type]
    assert type(again) is State
    assert again == state and hash(again) == hash(state)
    assert _values(again) == _values(state)
    assert not hasattr(again, "__dict__")


def test_defaults_and_keywords_reach_the_right_fields() -> None:
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
    assert built.drawn == -1 and built.winner is None
    assert (built.to_move, built.scores, built.layout) == (state.to_move, state.scores, state.layout)
    empty = Layout()
    assert _values(empty) == ((), (), 0, -1, 0) and empty == Layout.EMPTY


@pytest.mark.parametrize("field", sorted(FIELD_VALUES))
def test_states_differing_in_one_field_are_unequal(field: str) -> None:
    state = _played()
    changed = attrs.evolve(state, **{field: FIELD_VALUES[field]})
    assert type(changed) is State and changed != state
    assert getattr(changed, field) == FIELD_VALUES[field]
    others = [f.name for f in attrs.fields(State) if f.name != field]
    assert all(getattr(changed, name) is getattr(state, name) for name in others)


def test_layout_fields_each_take_part_in_equality() -> None:
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


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_and_copies_rebuild_equal_values(protocol: int) -> None:
    state = _played()
    for copied in (pickle.loads(pickle.dumps(state, protocol)), copy.copy(state), copy.deepcopy(state)):
        assert type(copied) is State and copied == state
        assert type(copied.layout) is Layout and copied.layout == state.layout
    assert copy.deepcopy(state).layout is not state.layout


@pytest.mark.parametrize("cls", [State, Layout])
def test_subclassing_is_refused(cls: type) -> None:
    name = cls.__name__
    with pytest.raises(TypeError, match=f"^{name} is final: its fast __new__ builds exactly {name}$"):
        type("Sub", (cls,), {})
