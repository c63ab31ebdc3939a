"""Fair bots (sniff_rules.play.bots and .search): they decide from a seat's view, never the state (SETUP-6)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from benchmarks.bots import play_one
from sniff_rules.cli.simulate import wilson
from sniff_rules.errors import IllegalMoveError, InvalidStateError
from sniff_rules.moves import Move
from sniff_rules.play.bots import greedy_bot, greedy_move, random_bot, random_move
from sniff_rules.play.driver import Step, play_match
from sniff_rules.play.events import Dealt, Event
from sniff_rules.play.ismcts import ISMCTSBot
from sniff_rules.play.sampler import DealSampler
from sniff_rules.play.search import SearchBot, playout_value
from sniff_rules.play.view import SeatView, present_seat_view, seat_view
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match

FairBot = Callable[[SeatView, RandomSource], tuple[Move, RandomSource]]
BOTS: dict[str, FairBot] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "search": SearchBot(deals=3),
    "ismcts": ISMCTSBot(iterations=12),
}


def _steps(players: int, seed: int) -> list[Step]:
    rules = Rules(players=players, hand_size=Rules.standard(players).hand_size, target=60)
    return list(play_match(new_match(rules, seed=seed), [random_move] * players, SplitMix64.from_seed(seed)))


def _turns(steps: list[Step]) -> list[tuple[State, SeatView]]:
    """Each state of ``steps`` with a seat to move, and that seat's view."""
    turns: list[tuple[State, SeatView]] = []
    events: list[Event] = []
    for step in steps:
        events += step.events
        if step.state.phase is Phase.PLAYING:
            turns.append((step.state, seat_view(step.state, step.state.to_move, events)))
    return turns


@pytest.mark.parametrize("name", list(BOTS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_bot_moves_alike_whatever_the_seat_cannot_see(name: str, players: int) -> None:
    """SETUP-6: everything the seat cannot see re-dealt consistently, each bot's move and source are unchanged."""
    bot, redealt = BOTS[name], 0
    for index, (state, view) in enumerate(_turns(_steps(players, 30 + players))[::3]):
        sampler = DealSampler(view)
        deal, _ = sampler.sample(SplitMix64.from_seed(index))
        other, events = sampler.replay(deal, SplitMix64.from_seed(index + 1))
        redealt += other.hands != state.hands or other.boneyard != state.boneyard
        again = seat_view(other, view.seat, events)
        source = SplitMix64.from_seed(index)
        assert bot(view, source) == bot(again, source)
    assert redealt > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fair_greedy_bot_plays_as_the_greedy_simulator(players: int) -> None:
    """POINTS-1: the fair greedy bot picks what greedy_move picks from the whole state; random_bot a legal move."""
    source = SplitMix64.from_seed(players)
    for state, view in _turns(_steps(players, 50 + players)):
        assert greedy_move(state) == greedy_bot(view, source)[0]
        assert random_bot(view, source)[0] in view.legal_moves


def test_the_search_bot_takes_a_match_winning_lead() -> None:
    """MATCH-1: with 5 to go, the search bot leads the tile that scores 5 and wins at once."""
    rules = Rules(players=2, hand_size=7, target=200)
    state = State.create(
        rules=rules,
        hands=("[1|2] [1|3] [2|4] [0|5] [1|1] [2|3] [3|3]", "[4|4] [0|0] [0|1] [0|2] [0|3] [0|4] [0|6]"),
        boneyard="[1|4] [1|5] [1|6] [2|2] [2|5] [2|6] [3|4] [3|5] [3|6] [4|5] [4|6] [5|5] [5|6] [6|6]",
        scores=(195, 0),
    )
    view = seat_view(state, 0, [Dealt.of(state)])
    move, _ = SearchBot(deals=2)(view, SplitMix64.from_seed(1))
    assert "0:[0|5]" == str(move)


def test_a_playout_is_worth_the_score_lead_and_the_target_for_a_win() -> None:
    """MATCH-1: a playout that wins the match is worth ten targets to the winner, less that to the loser."""
    rules = Rules(players=2, hand_size=7, target=200)
    state = State.create(
        rules=rules,
        hands=("[0|5] [1|2] [1|3] [2|4] [1|1] [2|3] [3|3]", "[4|4] [0|0] [0|1] [0|2] [0|3] [0|4] [0|6]"),
        boneyard="[1|4] [1|5] [1|6] [2|2] [2|5] [2|6] [3|4] [3|5] [3|6] [4|5] [4|6] [5|5] [5|6] [6|6]",
        scores=(195, 0),
    )
    assert (2000, -2000) == (playout_value(state, 0), playout_value(state, 1))


def test_fair_bots_refuse_a_state_and_a_view_off_turn() -> None:
    """FORMAT-3, TURN-1: a fair bot takes a SeatView, on its seat's turn; a search needs a deal to sample."""
    state = new_match(Rules.standard(2), seed=3)
    off_turn = seat_view(state, 1 - state.to_move, [Dealt.of(state)])
    for bot in BOTS.values():
        with pytest.raises(InvalidStateError, match="FORMAT-3"):
            bot(state, SplitMix64.from_seed(1))  # type: ignore[arg-type]
        with pytest.raises(IllegalMoveError, match="TURN-1"):
            bot(off_turn, SplitMix64.from_seed(1))
    with pytest.raises(InvalidStateError, match="FORMAT-3"):
        SearchBot(deals=0)


def test_fair_bots_play_whole_matches_through_the_driver() -> None:
    """MATCH-1: the fair bots, handed each seat's view by the driver, play a match to its end."""
    policies: list[FairBot] = [SearchBot(deals=2), greedy_bot, random_bot]
    steps = play_match(
        new_match(Rules.standard(3), seed=8), policies, SplitMix64.from_seed(8), present=present_seat_view
    )
    assert Phase.MATCH_OVER == list(steps)[-1].state.phase


def test_the_benchmark_interval_is_wilsons() -> None:
    """The bots benchmark's 95% interval is Wilson's: 50 of 100 gives 40.4%..59.6%, 0 of 10 starts at 0."""
    low, high = wilson(50, 100)
    assert (0.4038, 0.5962) == (round(low, 4), round(high, 4))
    assert (0.0, 0.2775) == tuple(round(bound, 4) for bound in wilson(0, 10))


def test_the_benchmark_plays_a_match_and_counts_the_search_playouts() -> None:
    """The bots benchmark plays one match to its end; a search side reports its playouts and its time."""
    result = play_one(("search", 2, 0, 1))
    assert (bool, True, True) == (type(result["won"]), result["playouts"] > 0, result["seconds"] > 0)
