"""The bit-mask playout (sniff_rules.play.playout) plays the rounds ``apply`` plays, and the search
bot built on it decides as the State-by-State search did."""

from __future__ import annotations

import pytest

from benchmarks.search_speed import reference_search
from sniff_rules.moves import apply, legal_moves
from sniff_rules.play.bots import random_move
from sniff_rules.play.driver import play_match
from sniff_rules.play.events import Event
from sniff_rules.play.playout import Playout, move_key
from sniff_rules.play.sampler import DealSampler
from sniff_rules.play.search import SearchBot, playout_value
from sniff_rules.play.view import SeatView, seat_view
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match


def _turns(players: int, seed: int, target: int = 100) -> list[tuple[State, SeatView]]:
    """Every state in play of a random match, with its seat to move's view."""
    rules = Rules(players=players, hand_size=Rules.standard(players).hand_size, target=target)
    turns: list[tuple[State, SeatView]] = []
    events: list[Event] = []
    for step in play_match(new_match(rules, seed=seed), [random_move] * players, SplitMix64.from_seed(seed)):
        events += step.events
        if step.state.phase is Phase.PLAYING:
            turns.append((step.state, seat_view(step.state, step.state.to_move, events)))
    return turns


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_playout_is_worth_what_playout_value_says(players: int) -> None:
    """From every state of random matches, after each legal move, the bit-mask playout's value
    for each side is playout_value's, which plays the round through apply."""
    checked = 0
    for seed in range(4):
        for state, _view in _turns(players, 50 + seed)[::2]:
            for move in legal_moves(state):
                after = apply(state, move)
                if after.phase is not Phase.PLAYING:
                    continue  # the next test's case
                for side in range(state.rules.sides):
                    expected = playout_value(after, side)
                    again = Playout.of_state(state)
                    again.play(move)
                    assert (expected, move) == (again.value(side), move)
                    checked += 1
    assert checked > 100


def test_a_playout_ends_a_round_as_apply_does() -> None:
    """A move that ends the round (or the match) at once is valued on the settled scores or the win."""
    ended = 0
    for state, _view in _turns(2, 7, target=60):
        for move in legal_moves(state):
            after = apply(state, move)
            if after.phase is Phase.PLAYING:
                continue
            playout = Playout.of_state(state)
            playout.play(move)
            expected = playout_value(after, 0)
            assert expected == playout.value(0)
            ended += 1
    assert ended > 0


def test_a_playout_stepped_a_move_at_a_time_stops_where_apply_ends_the_round() -> None:
    """play_key, one move at a time as the ISMCTS tree steps, stops on the very move that ends the
    round through apply, a block (BLOCK-1) included, with apply's scores; a run to the end finds a
    block only once every seat has passed, so this is the check that a stepped run finds it at once."""
    blocked = 0
    for players in (2, 3, 4):
        for state, _view in _turns(players, 40 + players)[::4]:
            playout = Playout.of_state(state)
            while state.phase is Phase.PLAYING:
                move = legal_moves(state)[-1]
                state = apply(state, move)
                playout.play_key(move_key(move))
                assert (state.phase is not Phase.PLAYING, move) == (playout.over, move)
            assert (list(state.scores), state.winner) == (playout.scores, playout.winner)
            blocked += bool(not state.boneyard_ids and all(state.hand_masks))
    assert blocked > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_deal_starts_the_position_its_replay_reaches(players: int) -> None:
    """Playout.of_deal, with no replay, holds the hands, boneyard, layout, scores and seat to move
    that the sampler's replay of the same deal reaches."""
    for index, (_state, view) in enumerate(_turns(players, 60 + players)[::3]):
        sampler = DealSampler(view)
        deal, _ = sampler.sample(SplitMix64.from_seed(index))
        replayed, _events = sampler.replay(deal)
        playout = Playout.of_deal(view, deal)
        expected = (
            list(replayed.hand_masks),
            list(replayed.boneyard_ids)[::-1],
            list(replayed.layout.open_point_ids),
            replayed.layout.end_count,
            replayed.layout.sniff,
            list(replayed.scores),
            replayed.to_move,
            replayed.drawn,
        )
        assert expected == (
            playout.hands,
            playout.boneyard,
            playout.open_ids,
            playout.count,
            playout.sniff,
            playout.scores,
            playout.seat,
            playout.drawn,
        )


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_bot_decides_as_the_state_by_state_search(players: int) -> None:
    """Same view, same source: the bit-mask search bot plays the move and leaves the source the
    State-by-State reference (the benchmark's) does, on every turn of a match."""
    bot = SearchBot(deals=3)
    for index, (_state, view) in enumerate(_turns(players, 80 + players)):
        source = SplitMix64.from_seed(index)
        assert reference_search(bot, view, source) == bot(view, source)
