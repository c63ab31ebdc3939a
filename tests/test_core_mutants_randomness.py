"""The seeded source and the shuffle (SETUP-5): rejection sampling, seeds and the grouping of draws."""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from math import factorial, prod
from typing import cast

import pytest

from sniff_rules import InvalidStateError, SplitMix64, shuffled
from sniff_rules.randomness import _shuffle_groups
from support import ScriptedSource

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def _unshift(value: int, shift: int) -> int:
    """The ``x`` with ``x ^ (x >> shift) == value``: each pass fixes ``shift`` more high bits."""
    x = value
    for _ in range(64 // shift + 1):
        x = value ^ (x >> shift)
    return x


def state_before_output(output: int) -> int:
    """The SplitMix64 state whose next output is ``output``: the specs/rules.md mix run backwards."""
    z = _unshift(output, 31)
    z = z * pow(MIX2, -1, 1 << 64) & MASK64
    z = _unshift(z, 27)
    z = z * pow(MIX1, -1, 1 << 64) & MASK64
    z = _unshift(z, 30)
    return (z - GAMMA) & MASK64


def refusal(make: Callable[[], object]) -> str:
    """The text of the :class:`InvalidStateError` that ``make()`` raises."""
    with pytest.raises(InvalidStateError) as caught:
        make()
    assert InvalidStateError is type(caught.value)
    return str(caught.value)


def test_an_output_equal_to_the_threshold_is_kept() -> None:
    """SETUP-5: below(6) keeps outputs of at least 2**64 mod 6 = 4; an output of exactly 4 gives 4 at once."""
    source = SplitMix64(state_before_output(4))
    assert 4 == source.next64()[0]
    value, after = source.below(6)
    assert (4, SplitMix64((source.state + GAMMA) & MASK64)) == (value, after)


def test_an_output_just_below_the_threshold_is_drawn_again() -> None:
    """SETUP-5: an output of 3 is under 2**64 mod 6 = 4, so below(6) draws the next output instead."""
    source = SplitMix64(state_before_output(3))
    second, after = source.next64()[1].next64()
    assert (second % 6, after) == source.below(6)


def test_a_seed_must_be_an_int() -> None:
    """SETUP-5: a seed is an int (taken modulo 2**64); 1.5 is refused and named."""
    assert "SETUP-5: a seed is an int, got 1.5" == refusal(lambda: SplitMix64.from_seed(cast(int, 1.5)))


def test_no_draw_below_zero() -> None:
    """SETUP-5: below(n) needs n of at least 1; below(0) is refused and names the bound."""
    assert "SETUP-5: cannot draw below 0" == refusal(lambda: SplitMix64(0).below(0))


def test_two_items_take_one_draw_below_two() -> None:
    """SETUP-5: i runs from 1 down to 1: one swap with j = below(2); j = 0 swaps the pair."""
    order, source = shuffled(("a", "b"), ScriptedSource((0,)))
    assert ("b", "a") == order
    assert isinstance(source, ScriptedSource)
    assert (2,) == source.bounds
    order, _ = shuffled(("a", "b"), ScriptedSource((1,)))
    assert ("a", "b") == order


def test_a_group_stops_before_its_product_reaches_two_to_the_64() -> None:
    """SETUP-5: for 21 items 21 * 20 * ... * 4 = 21!/3! < 2**64 but 21!/2! is not, so 3 * 2 is a second draw."""
    order, source = shuffled(tuple(range(21)), ScriptedSource((0, 0)))
    assert isinstance(source, ScriptedSource)
    assert (8515157028618240000, 6) == source.bounds
    assert 8515157028618240000 < 2**64 < 8515157028618240000 * 3
    # Every j is 0: position i swaps with position 0 for i = 20, 19, ..., 1.
    assert (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 0) == order


@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_the_packed_values_of_one_draw_give_every_order_once(length: int) -> None:
    """SETUP-5: with one draw below n!, each value is one permutation: the digits are j in range(i + 1)."""
    items = tuple(range(length))
    orders = set()
    for value in range(factorial(length)):
        order, source = shuffled(items, ScriptedSource((value,)))
        assert isinstance(source, ScriptedSource)
        assert (factorial(length),) == source.bounds
        orders.add(order)
    assert set(permutations(items)) == orders


def test_the_groups_cover_each_position_once_with_bound_position_plus_one() -> None:
    """SETUP-5: positions n-1 .. 1 in order, each bound i + 1, each group as long as its product allows."""
    for length in range(45):
        groups = _shuffle_groups(length)
        assert list(range(length - 1, 0, -1)) == [i for _, positions in groups for i, _ in positions]
        for number, (product, positions) in enumerate(groups):
            assert all(bound == i + 1 for i, bound in positions)
            assert prod(bound for _, bound in positions) == product < 2**64
            if number + 1 < len(groups):
                assert product * groups[number + 1][1][0][1] >= 2**64


def test_an_advanced_source_is_a_whole_splitmix64_value() -> None:
    """SETUP-5: the sources below() and next64() return, built without attrs' __init__, are
    the frozen SplitMix64 values the constructor makes: equal, same hash and text, unassignable."""
    source = SplitMix64(state_before_output(4))
    for _, after in (source.below(6), source.next64()):
        made = SplitMix64((source.state + GAMMA) & MASK64)
        assert (SplitMix64, made, hash(made), repr(made)) == (type(after), after, hash(after), repr(after))
        with pytest.raises(AttributeError):
            after.state = 0  # type: ignore[misc]
