"""The bit-mask sampler (sniff_rules.play.deal_masks): the counting sampler's distribution, a position
without a replay, and nothing drawn from what the seat cannot see (SETUP-6)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import pytest

from sniff_rules.errors import InvalidStateError
from sniff_rules.play import deal_masks
from sniff_rules.play.deal_masks import MaskSampler
from sniff_rules.play.playout import Playout
from sniff_rules.play.sampler import DealSampler, SampledDeal
from sniff_rules.play.view import SeatView, seat_view
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase
from sniff_rules.tiles import DOUBLE_SIX, Tile
from test_playout import _turns
from test_sampler import _critical

SAMPLES: int = 3000
"""Deals drawn from each sampler a position in the two-sample test: about 25 a cell."""


def _views(players: int, seed: int) -> list[SeatView]:
    """The views of the seats to move in a random match: every phase of a round, kept draws and passes."""
    return [view for _state, view in _turns(players, seed)]


def _slot(deal: SampledDeal, tile: Tile) -> int:
    """Where ``tile`` is in ``deal``: the seat whose dealt hand holds it, or players plus its boneyard position."""
    for seat, hand in enumerate(deal.hands):
        if tile in hand:
            return seat
    return len(deal.hands) + deal.boneyard.index(tile)


def _homogeneity(first: Counter[tuple[int, int]], second: Counter[tuple[int, int]]) -> tuple[float, int]:
    """Pearson's two-sample statistic for equal sample sizes, and its degrees of freedom."""
    cells = set(first) | set(second)
    statistic = 0.0
    for cell in cells:
        expected = (first[cell] + second[cell]) / 2
        statistic += ((first[cell] - expected) ** 2 + (second[cell] - expected) ** 2) / expected
    return statistic, len(cells) - 1


def _pair_counts(
    sample: Callable[[RandomSource], tuple[SampledDeal, RandomSource]], tiles: tuple[Tile, Tile], seed: int
) -> Counter[tuple[int, int]]:
    """How often each pair of slots holds the two tiles over :data:`SAMPLES` deals from ``seed``."""
    source: RandomSource = SplitMix64.from_seed(seed)
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(SAMPLES):
        deal, source = sample(source)
        counts[_slot(deal, tiles[0]), _slot(deal, tiles[1])] += 1
    return counts


TWO_SAMPLE_TURNS: tuple[int, ...] = (0, 12, 35, 62)
"""Turns of the 4-player match of seed 9: a round's first, one after kept draws (five groups of
room), one with the boneyard spent (five kinds of tile), one late in the next round."""


def _two_sample_views() -> list[tuple[SeatView, tuple[Tile, Tile]]]:
    """The views of :data:`TWO_SAMPLE_TURNS`, each with the two hidden tiles whose slots are compared:
    from the first two kinds the log allows in more than one room (one kind twice if it is alone)."""
    chosen: list[tuple[SeatView, tuple[Tile, Tile]]] = []
    views = _views(4, 9)
    for turn in TWO_SAMPLE_TURNS:
        view = views[turn]
        free = [tiles for rooms, _fits, tiles in MaskSampler(view)._kinds if len(rooms) > 1]
        pair = (free[0][0], free[1][0]) if len(free) > 1 else free[0][:2]
        chosen.append((view, (DOUBLE_SIX[pair[0]], DOUBLE_SIX[pair[1]])))
    return chosen


def test_the_bit_mask_sampler_draws_the_counting_samplers_distribution() -> None:
    """SETUP-6: over 3,000 deals from each sampler at fixed seeds, where two hidden tiles lie (hand or
    boneyard position, jointly) is distributed alike: Pearson's two-sample statistic stays under its
    0.001 critical value on early, middle and late 4-player positions (:data:`TWO_SAMPLE_TURNS`)."""
    for number, (view, tiles) in enumerate(_two_sample_views()):
        masks = _pair_counts(MaskSampler(view).sample, tiles, 100 + number)
        counting = _pair_counts(DealSampler(view).sample, tiles, 200 + number)
        statistic, freedom = _homogeneity(masks, counting)
        assert freedom > 0
        assert (number, True) == (number, statistic < _critical(freedom))


def test_the_two_sample_check_catches_a_sampler_that_skips_its_shuffles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The distribution check can fail: with its shuffles made the identity, the bit-mask sampler's
    deals no longer pass it against the counting sampler's on the round's first position."""
    view, tiles = _two_sample_views()[0]
    counting = _pair_counts(DealSampler(view).sample, tiles, 200)
    monkeypatch.setattr(deal_masks, "shuffled", lambda items, source: (tuple(items), source))
    masks = _pair_counts(MaskSampler(view).sample, tiles, 100)
    statistic, freedom = _homogeneity(masks, counting)
    assert statistic > _critical(freedom)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_both_samplers_count_the_same_deals(players: int) -> None:
    """SETUP-6: on every turn of a random match, the bit-mask sampler's count of consistent deals is the
    counting sampler's, BLOCK-1's held tile and kept draws included."""
    for view in _views(players, 40 + players)[::2]:
        assert DealSampler(view).count == MaskSampler(view).count


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_sampled_position_is_the_one_its_deal_reaches(players: int) -> None:
    """From one source, sample_masks gives the hands and boneyard that Playout.of_deal reaches from
    sample's deal (no replay), and leaves the source where sample does."""
    for index, view in enumerate(_views(players, 70 + players)):
        if view.phase is not Phase.PLAYING:
            continue
        sampler = MaskSampler(view)
        source = SplitMix64.from_seed(index)
        deal, after = sampler.sample(source)
        hands, boneyard, again = sampler.sample_masks(source)
        expected = Playout.of_deal(view, deal)
        actual = Playout.of_sample(view, hands, boneyard)
        assert (expected.hands, expected.boneyard, after) == (actual.hands, actual.boneyard, again)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_sampler_draws_alike_whatever_the_seat_cannot_see(players: int) -> None:
    """SETUP-6: with everything the seat cannot see re-dealt consistently, the same source gives the
    same sampled positions: the sampler reads the view alone."""
    redealt = 0
    for index, (state, view) in enumerate(_turns(players, 20 + players)[::2]):
        counting = DealSampler(view)
        deal, _ = counting.sample(SplitMix64.from_seed(index))
        other, events = counting.replay(deal)
        redealt += other.hands != state.hands or other.boneyard != state.boneyard
        again = seat_view(other, view.seat, events)
        source: RandomSource = SplitMix64.from_seed(index)
        mine, theirs = MaskSampler(view), MaskSampler(again)
        for _ in range(3):
            expected = mine.sample_masks(source)
            assert expected == theirs.sample_masks(source)
            source = expected[2]
    assert redealt > 0


def test_the_sampler_refuses_what_is_not_a_seat_view() -> None:
    """FORMAT-3: the bit-mask sampler is built from a SeatView, not a state."""
    state = _turns(2, 1)[0][0]
    with pytest.raises(InvalidStateError, match="FORMAT-3"):
        MaskSampler(state)  # type: ignore[arg-type]


def test_a_split_is_counted_as_the_multinomial() -> None:
    """The ways to split a kind are n! over the parts' factorials: 23 tiles into three hands of 5 and a
    boneyard of 8 at the first turn of a 4-player round, the boneyard's order counted apart."""
    view = _views(4, 3)[0]
    sampler = MaskSampler(view)
    expected = math.factorial(23) // (math.factorial(5) ** 3 * math.factorial(8)) * math.factorial(8)
    assert (expected, 1) == (sampler.count, len(sampler._kinds))
    assert Rules.standard(4).hand_size == 5
