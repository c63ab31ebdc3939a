"""A SeatView built by hand is checked against its own log (FORMAT-3), so the sampler and the bots meet none other."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from sniff_rules.errors import InvalidStateError, SniffError
from sniff_rules.play.bots import greedy_bot, random_bot, random_move
from sniff_rules.play.driver import Step, play_match
from sniff_rules.play.sampler import DealSampler
from sniff_rules.play.search import SearchBot
from sniff_rules.play.view import SeatView, seat_view
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import new_match

# Any: the fuzz hands each field values of every type on purpose, which the typed evolve forbids.
_evolve: Any = attrs.evolve


def _steps(players: int, seed: int) -> list[Step]:
    rules = Rules.standard(players)
    return list(play_match(new_match(rules, seed=seed), [random_move] * players, SplitMix64.from_seed(seed)))


def _view_at(steps: list[Step], index: int, seat: int) -> SeatView:
    events = tuple(event for step in steps[: index + 1] for event in step.events)
    return seat_view(steps[index].state, seat, events)


def _some_views() -> list[SeatView]:
    views: list[SeatView] = []
    for players, seed in [(2, 3), (3, 8), (4, 11)]:
        steps = _steps(players, seed)
        for index in (0, 3, 9, 20):
            views.extend(_view_at(steps, min(index, len(steps) - 1), seat) for seat in range(players))
    return views


def test_the_views_of_the_issue_are_refused_with_format_3() -> None:
    """seat None or out of range, boneyard_size=99, hand_sizes=() and hand=() are each refused, typed."""
    view = _view_at(_steps(2, 3), 3, 0)
    for name, value in {"boneyard_size": 99, "hand_sizes": (), "hand": ()}.items():
        with pytest.raises(InvalidStateError) as refusal:
            _evolve(view, **{name: value})
        assert "FORMAT-3" == refusal.value.rule, name
    # A seat the table does not have is SETUP-2's, as FORMAT-3 says.
    for seat in (None, 1, 5):
        with pytest.raises(InvalidStateError) as refusal:
            _evolve(view, seat=seat)
        assert refusal.value.rule in {"FORMAT-3", "SETUP-2"}


def test_a_real_view_rebuilt_by_hand_is_accepted() -> None:
    """Every field of a seat_view passed back to the constructor builds the same view."""
    for view in _some_views():
        assert view == _evolve(view)


def test_mutated_views_give_typed_refusals_or_consistent_samples() -> None:
    """Fuzz: real views with one field swapped (a wrong type, an out-of-range value, another view's field)
    are refused with a typed error, or sample deals that replay to the view's own hand and sizes,
    and the bots then answer a move of the view's options or a typed refusal, never a crash."""
    views = _some_views()
    chooser = random.Random(27)
    names = [field.name for field in attrs.fields(SeatView)]
    odd: list[object] = [None, -1, 1, 5, 99, (), [], "x", 2**70, True]
    refused = accepted = 0
    for _ in range(600):
        view = chooser.choice(views)
        name = chooser.choice(names)
        value = chooser.choice([*odd, getattr(chooser.choice(views), name)])
        try:
            mutated = _evolve(view, **{name: value})
        except SniffError:
            refused += 1
            continue
        accepted += 1
        try:
            sampler = DealSampler(mutated)
            state, _ = sampler.sample_state(SplitMix64.from_seed(1))
        except SniffError:
            continue
        assert sorted(mutated.hand) == sorted(state.hand(mutated.seat))
        assert mutated.hand_sizes == tuple(mask.bit_count() for mask in state.hand_masks)
        assert mutated.boneyard_size == len(state.boneyard_ids)
        for bot in (random_bot, greedy_bot, SearchBot(deals=2)):
            try:
                move, _ = bot(mutated, SplitMix64.from_seed(2))
            except SniffError:
                continue
            assert move in mutated.legal_moves
    # Both outcomes happen, so the fuzz exercises the checks and the sampler alike.
    assert refused > 0
    assert accepted > 0
