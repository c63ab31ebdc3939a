"""Complete random matches for two, three and four players, checked at every step."""

from __future__ import annotations

import pytest

from sniff_rules import (
    DOUBLE_SIX,
    Draw,
    Pass,
    Phase,
    Place,
    RandomSource,
    Rules,
    SplitMix64,
    State,
    apply,
    legal_moves,
    new_match,
    next_round,
)
from sniff_rules.bots import play_out, random_move
from support import all_tiles_of, pips

SEEDS = (0, 1, 2, 17, 2024)
PLAYERS = (2, 3, 4)


def check_position(state: State) -> None:
    """The laws that hold in every state of a match."""
    rules = state.rules
    assert sorted(DOUBLE_SIX) == sorted(all_tiles_of(state))
    assert all(score % 5 == 0 for score in state.scores)
    assert rules.sides == len(state.scores)
    assert 0 <= state.to_move < rules.players
    if state.phase is Phase.PLAYING:
        assert legal_moves(state)
        assert all(score < rules.target for score in state.scores)
    else:
        assert () == legal_moves(state)


def check_settlement(before: State, after: State, scored: tuple[int, ...]) -> None:
    """A round that just ended: hands revealed, each rounded on its own and taken off its side."""
    rules = after.rules
    result = after.last_round
    assert result is not None
    assert before.round_number == result.round_number
    assert after.hands == result.hands
    assert tuple(pips(hand) for hand in after.hands) == result.settlement.hand_pips
    lost = [0] * rules.sides
    for seat, hand in enumerate(after.hands):
        lost[rules.side_of(seat)] += 5 * ((pips(hand) + 2) // 5)
    assert tuple(score - cost for score, cost in zip(scored, lost)) == after.scores
    if result.finisher is None:
        assert () == after.boneyard
        assert all(hand for hand in after.hands)
    else:
        assert () == after.hand(result.finisher)


def check_step(before: State, move: Place | Draw | Pass, after: State) -> None:
    """What one move may change, by kind (TURN-1, DRAW-2, PASS-1, END-1, BLOCK-1, SETTLE-2, MATCH-1)."""
    rules = before.rules
    seat = before.to_move
    assert seat == move.seat
    if isinstance(move, Draw):
        assert (Draw(seat),) == legal_moves(before)
        assert before.boneyard[0] in after.hand(seat)
        assert before.boneyard[1:] == after.boneyard
        if after.phase is Phase.PLAYING:
            assert seat == after.to_move
            assert before.scores == after.scores
        else:
            assert Phase.ROUND_OVER == after.phase
            check_settlement(before, after, before.scores)
        return
    if isinstance(move, Pass):
        assert (Pass(seat),) == legal_moves(before)
        assert () == before.boneyard
        assert (seat + 1) % rules.players == after.to_move
        assert (Phase.PLAYING, before.scores) == (after.phase, after.scores)
        return
    assert move.tile in before.hand(seat)
    assert move.tile not in after.hand(seat)
    count = after.layout.end_count
    points = count if count > 0 and count % 5 == 0 else 0
    scored = list(before.scores)
    scored[rules.side_of(seat)] += points
    if after.phase is Phase.MATCH_OVER:
        assert tuple(scored) == after.scores
        assert rules.side_of(seat) == after.winner
        assert before.last_round is after.last_round
    elif after.phase is Phase.ROUND_OVER:
        assert after.last_round is not None
        assert (seat if not after.hand(seat) else None) == after.last_round.finisher
        check_settlement(before, after, tuple(scored))
    else:
        assert tuple(scored) == after.scores
        assert (seat + 1) % rules.players == after.to_move


def play_checked(players: int, seed: int, check: bool = True) -> tuple[State, RandomSource, int]:
    """A random match played move by move, every position and step checked; also the rounds played."""
    state = new_match(Rules.standard(players), seed=seed)
    source: RandomSource = SplitMix64.from_seed(seed + 1000)
    rounds = 1
    if check:
        check_position(state)
    while state.phase is not Phase.MATCH_OVER:
        if state.phase is Phase.ROUND_OVER:
            result = state.last_round
            assert result is not None
            dealt = next_round(state)
            rounds += 1
            if not check:
                state = dealt
                continue
            assert state.round_number + 1 == dealt.round_number
            assert state.scores == dealt.scores
            if result.finisher is not None:
                assert (result.finisher, ()) == (dealt.opener, dealt.lot)
            else:
                assert dealt.lot
            state = dealt
        else:
            move, source = random_move(state, source)
            after = apply(state, move)
            if check:
                check_step(state, move, after)
            state = after
        if check:
            check_position(state)
    return state, source, rounds


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_match_ends_with_a_winner_at_the_target(players: int, seed: int) -> None:
    """MATCH-1, SETTLE-4, SETUP-1: tiles are conserved, scores stay multiples of 5, one side wins."""
    final, _, rounds = play_checked(players, seed)
    rules = final.rules
    assert Phase.MATCH_OVER == final.phase
    assert final.winner is not None
    assert final.scores[final.winner] >= rules.target
    assert all(score < rules.target for side, score in enumerate(final.scores) if side != final.winner)
    assert all(score % 5 == 0 for score in final.scores)
    assert rounds == final.round_number
    assert () == legal_moves(final)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_play_out_agrees_with_the_checked_match(players: int, seed: int) -> None:
    """MATCH-1, SETUP-5: bots.play_out reaches the same final state as the match played move by move."""
    checked, checked_source, _ = play_checked(players, seed, check=False)
    final, source = play_out(new_match(Rules.standard(players), seed=seed), SplitMix64.from_seed(seed + 1000))
    assert checked == final
    assert checked_source == source


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_same_seed_same_match(players: int, seed: int) -> None:
    """SETUP-5: the same seed and the same move choices give an equal final state."""
    first, _ = play_out(new_match(Rules.standard(players), seed=seed), SplitMix64.from_seed(seed))
    second, _ = play_out(new_match(Rules.standard(players), seed=seed), SplitMix64.from_seed(seed))
    assert first == second
    assert first.is_over


def test_different_seeds_deal_differently() -> None:
    """SETUP-5: the seed decides the deal; five seeds give five different first deals."""
    deals = {new_match(Rules.standard(4), seed=seed).hands for seed in SEEDS}
    assert len(SEEDS) == len(deals)
