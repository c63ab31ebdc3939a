"""The hidden-information sampler (play.sampler): consistent deals drawn uniformly (SETUP-6, DRAW-1, PASS-1)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, strategies as st

from sniff_rules.errors import IllegalMoveError, InvalidStateError
from sniff_rules.formats.view_json import seat_view_to_json
from sniff_rules.moves import Move
from sniff_rules.play.bots import random_move
from sniff_rules.play.deal_masks import MaskSampler
from sniff_rules.play.driver import Step, play_match
from sniff_rules.play.events import Event, apply_with_events, seen_by
from sniff_rules.play.sampler import DealSampler, SampledDeal, replay_deal
from sniff_rules.play.view import SeatView, seat_view
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import State, new_match
from sniff_rules.tiles import DOUBLE_SIX

SAMPLERS: dict[str, Callable[[SeatView], DealSampler | MaskSampler]] = {
    "counting": DealSampler,
    "bit-mask": MaskSampler,
}
"""Both samplers of the consistent deals: every test of the distribution holds each to it."""

CHI_SQUARE_Z: float = 3.090
"""The standard normal quantile for a 0.001 upper tail: a uniform sampler fails one test in a thousand."""


def _steps(rules: Rules, seed: int) -> list[Step]:
    return list(play_match(new_match(rules, seed=seed), [random_move] * rules.players, SplitMix64.from_seed(seed)))


def _view_at(steps: list[Step], index: int, seat: int) -> SeatView:
    events = tuple(event for step in steps[: index + 1] for event in step.events)
    return seat_view(steps[index].state, seat, events)


@pytest.mark.parametrize("kind", list(SAMPLERS))
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    at=st.floats(0, 1),
    viewer=st.integers(0, 3),
    sample_seed=st.integers(0, 2**32),
)
def test_every_sample_replays_the_public_log_to_the_same_view(
    kind: str, players: int, seed: int, at: float, viewer: int, sample_seed: int
) -> None:
    """SETUP-6, DRAW-1, PASS-1: a sampled deal replays the round's public moves to the seat's very view
    (either sampler's deal; the counting sampler's own state too)."""
    rules = Rules(players=players, hand_size=Rules.standard(players).hand_size, target=100)
    steps = _steps(rules, seed)
    index = min(len(steps) - 1, int(at * len(steps)))
    view = _view_at(steps, index, viewer % players)
    sampler = SAMPLERS[kind](view)
    source: RandomSource = SplitMix64.from_seed(sample_seed)
    for _ in range(3):
        deal, source = sampler.sample(source)
        state, events = replay_deal(view, deal)
        assert seat_view_to_json(view) == seat_view_to_json(seat_view(state, view.seat, events))
    sampled, _ = DealSampler(view).sample_state(source)
    assert view.hand == sampled.hand(view.seat)


def _all_consistent_deals(view: SeatView, first: State, moves: list[Move]) -> set[SampledDeal]:
    """Every deal of the round that replays the moves to the seat's log, by brute force over the unseen tiles."""
    seat = view.seat
    own = first.hands[seat]
    drawn_here = [i for i, drew in enumerate(view.history.draws) if drew.seat == seat]
    seen = set(own) | {drew.tile for drew in view.history.draws if drew.tile is not None}
    unseen = [tile for tile in DOUBLE_SIX if tile not in seen]
    open_positions = [i for i in range(len(first.boneyard)) if i not in drawn_here]
    public = view.history.events
    found: set[SampledDeal] = set()
    for pile in itertools.permutations(unseen, len(open_positions)):
        boneyard = list(first.boneyard)
        for position, tile in zip(open_positions, pile, strict=True):
            boneyard[position] = tile
        other = tuple(sorted(set(unseen) - set(pile), key=lambda tile: tile.index))
        hands = tuple(own if index == seat else other for index in range(2))
        state = State.create(
            rules=first.rules, hands=hands, boneyard=tuple(boneyard), opener=first.opener, lot=first.lot
        )
        events: list[Event] = list(seen_by((public[0],), seat))
        try:
            for move in moves:
                state, happened = apply_with_events(state, move)
                events += seen_by(happened, seat)
        except IllegalMoveError:
            continue
        if tuple(events[1:]) == public[1:]:
            found.add(SampledDeal(hands, tuple(boneyard)))
    return found


def _critical(df: int) -> float:
    """The chi-square quantile for a 0.001 upper tail (Wilson and Hilferty's approximation)."""
    return df * (1 - 2 / (9 * df) + CHI_SQUARE_Z * math.sqrt(2 / (9 * df))) ** 3


# (seed, step, seat) of a two-seat match of 13-tile hands: no constraint but placements;
# kept draws of the other seat; a fitting draw still to be placed; the last tile drawn
# and kept, where only a held tile that fits keeps the round from blocking (BLOCK-1).
SMALL_POSITIONS = [(4, 12, 0), (57, 9, 0), (69, 24, 0), (91, 20, 0), (21, 15, 0), (20, 25, 0), (8, 26, 1)]


@pytest.mark.parametrize("kind", list(SAMPLERS))
@pytest.mark.parametrize(("seed", "index", "seat"), SMALL_POSITIONS)
def test_on_small_positions_the_sampler_reaches_every_consistent_deal_uniformly(
    kind: str, seed: int, index: int, seat: int
) -> None:
    """SETUP-6: with every consistent deal enumerated, each sampler's count is theirs and its frequencies
    are uniform (40 samples a deal, from the position's seed)."""
    rules = Rules(players=2, hand_size=13, target=200)
    steps = _steps(rules, seed)[: index + 1]
    view = _view_at(steps, index, seat)
    moves = [step.move for step in steps[1:] if step.move is not None]
    every = _all_consistent_deals(view, steps[0].state, moves)
    sampler = SAMPLERS[kind](view)
    assert len(every) == sampler.count
    samples = 40 * len(every)
    source: RandomSource = SplitMix64.from_seed(seed)
    counts: Counter[SampledDeal] = Counter()
    for _ in range(samples):
        deal, source = sampler.sample(source)
        counts[deal] += 1
    assert every == set(counts)
    if len(every) > 1:
        expected = samples / len(every)
        statistic = sum((counts[deal] - expected) ** 2 / expected for deal in every)
        assert statistic < _critical(len(every) - 1)


def test_the_chi_square_check_catches_a_skewed_sampler() -> None:
    """The frequency check can fail: counts skewed toward one deal exceed the critical value."""
    expected, cells = 40.0, 10
    skewed = [100.0] + [(expected * cells - 100) / (cells - 1)] * (cells - 1)
    statistic = sum((count - expected) ** 2 / expected for count in skewed)
    assert statistic > _critical(cells - 1)


def test_the_sampler_refuses_what_is_not_a_seat_view() -> None:
    """FORMAT-3: a sampler is built from a SeatView, not a state."""
    with pytest.raises(InvalidStateError, match="FORMAT-3"):
        DealSampler(new_match(Rules.standard(2), seed=1))  # type: ignore[arg-type]
