"""End of round (END-*), settlement (SETTLE-*) and the match end (MATCH-*)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from sniff_rules import (
    Draw,
    IllegalMoveError,
    InvalidStateError,
    Pass,
    Phase,
    Place,
    Port,
    RoundResult,
    Rules,
    Settlement,
    SplitMix64,
    State,
    Tile,
    apply,
    legal_moves,
    new_match,
    next_round,
    round_to_five,
    settle_round,
)
from support import (
    assert_refused,
    assert_refused_call,
    layout_of,
    make_state,
    pips,
    pt,
    tiles,
)

LOW, HIGH = Port.LOW, Port.HIGH
A, B = Port.CHAIN_A, Port.CHAIN_B


# --- END-1 ---


def _before_last_tile() -> State:
    """Three players, [2|6] led; seat 1 holds only [6|6]; seat 0 holds [0|1] [0|2], seat 2 [3|4] [4|5]."""
    return make_state(
        3,
        [tiles("[0|1] [0|2]"), tiles("[6|6]"), tiles("[3|4] [4|5]")],
        layout=layout_of((Tile(2, 6), None)),
        boneyard=tiles("[1|1] [5|5]"),
        scores=(50, 40, 30),
        to_move=1,
        opener=0,
        source=SplitMix64.from_seed(8),
    )


def _round_over() -> State:
    """The round after seat 1 plays out with [6|6] on [2|6] (end count 2 + 12 = 14, no points)."""
    return apply(_before_last_tile(), Place(1, Tile(6, 6), pt(Tile(2, 6), HIGH)))


def test_placing_the_last_tile_ends_the_round_and_names_the_finisher() -> None:
    """END-1, SETTLE-2: seat 1 plays out with tiles left in the boneyard; hands of 3 and 16 pips cost 5 and 15."""
    ended = _round_over()
    assert Phase.ROUND_OVER == ended.phase
    assert ended.last_round is not None
    assert 1 == ended.last_round.finisher
    assert not ended.last_round.blocked
    assert 1 == ended.last_round.round_number
    assert () == ended.hand(1)
    assert tiles("[1|1] [5|5]") == ended.boneyard
    assert (3, 0, 16) == ended.last_round.settlement.hand_pips
    assert (5, 0, 15) == ended.last_round.settlement.deductions
    assert (50 - 5, 40, 30 - 15) == ended.scores
    assert ended.winner is None
    assert () == legal_moves(ended)


def test_a_placement_that_leaves_tiles_does_not_end_the_round() -> None:
    """END-1: only the last tile ends the round; with [1|1] still held, play passes to seat 2."""
    state = make_state(
        3,
        [tiles("[0|1] [0|2]"), tiles("[6|6] [1|1]"), tiles("[3|4] [4|5]")],
        layout=layout_of((Tile(2, 6), None)),
        boneyard=tiles("[5|5]"),
        to_move=1,
    )
    after = apply(state, Place(1, Tile(6, 6), pt(Tile(2, 6), HIGH)))
    assert (Phase.PLAYING, 2, None) == (after.phase, after.to_move, after.last_round)


@pytest.mark.parametrize(
    "move",
    [
        Place(0, Tile(0, 2), pt(Tile(2, 6), LOW)),
        Place(2, Tile(4, 5), pt(Tile(6, 6), B)),
        Place(1, Tile(0, 2), pt(Tile(2, 6), LOW)),
        Draw(2),
        Draw(1),
        Pass(2),
        Pass(0),
    ],
)
def test_no_move_is_accepted_after_the_round_ends(move: Place | Draw | Pass) -> None:
    """END-1: after the round ends every placement, draw and pass is refused until the next deal."""
    assert_refused(_round_over(), move, IllegalMoveError, "END-1")


def test_no_move_after_a_blocked_round() -> None:
    """END-1: a blocked round is over too; a further move is refused."""
    state = make_state(2, [tiles("[1|2] [5|6]"), tiles("[1|3] [2|3]")], layout=layout_of((Tile(0, 5), None)))
    ended = apply(state, Place(0, Tile(5, 6), pt(Tile(0, 5), HIGH)))
    assert Phase.ROUND_OVER == ended.phase
    assert_refused(ended, Pass(1), IllegalMoveError, "END-1")
    assert_refused(ended, Place(1, Tile(1, 3), pt(Tile(0, 5), LOW)), IllegalMoveError, "END-1")


def test_next_round_is_refused_during_play() -> None:
    """END-1: a new round is dealt only after the current one has ended."""
    fresh = new_match(Rules.standard(3), seed=4)
    assert_refused_call(fresh, next_round, InvalidStateError, "END-1")
    assert_refused_call(_before_last_tile(), next_round, InvalidStateError, "END-1")


def test_next_round_after_the_end_carries_the_scores() -> None:
    """END-1: once the round is over, next_round deals round 2 with the settled scores."""
    after = next_round(_round_over())
    assert (Phase.PLAYING, 2, (45, 40, 15)) == (after.phase, after.round_number, after.scores)
    assert [6, 6, 6] == [len(hand) for hand in after.hands]


# --- SETTLE-1 ---


@pytest.mark.parametrize(
    ("hand_pips", "expected"),
    [
        (0, 0), (1, 0), (2, 0), (3, 5), (4, 5),
        (5, 5), (6, 5), (7, 5), (8, 10), (9, 10),
        (10, 10), (11, 10), (12, 10), (13, 15), (14, 15),
        (40, 40), (41, 40), (42, 40), (43, 45), (44, 45), (84, 85),
    ],
)
def test_round_to_five_by_remainder(hand_pips: int, expected: int) -> None:
    """SETTLE-1: remainder 0 stays, 1 or 2 round down, 3 or 4 round up."""
    assert expected == round_to_five(hand_pips)


def _seat0_plays_out(hand1: Sequence[Tile], scores: tuple[int, int] = (50, 100)) -> State:
    """Two players: [2|3] led; seat 0 plays its last tile [2|2] on the 2 (count 4 + 3 = 7, no points)."""
    state = make_state(
        2,
        [tiles("[2|2]"), hand1],
        layout=layout_of((Tile(2, 3), None)),
        boneyard=tiles("[3|3]"),
        scores=scores,
    )
    return apply(state, Place(0, Tile(2, 2), pt(Tile(2, 3), LOW)))


@pytest.mark.parametrize(
    ("hand", "deduction"),
    [
        ("[0|0]", 0),
        ("[0|1]", 0),
        ("[0|2]", 0),
        ("[0|3]", 5),
        ("[0|4]", 5),
        ("[0|5]", 5),
        ("[4|6]", 10),
        ("[5|6]", 10),
        ("[6|6]", 10),
        ("[0|6] [1|6]", 15),
        ("[0|6] [4|4]", 15),
        ("[4|5] [6|6]", 20),
        ("[5|6] [6|6]", 25),
    ],
)
def test_settlement_rounds_each_remainder(hand: str, deduction: int) -> None:
    """SETTLE-1: the loser's pips are rounded to the nearest 5 (1, 2 down; 3, 4 up) and deducted."""
    held = tiles(hand)
    ended = _seat0_plays_out(held)
    assert ended.last_round is not None
    assert (0, pips(held)) == ended.last_round.settlement.hand_pips
    assert (0, deduction) == ended.last_round.settlement.deductions
    assert (50, 100 - deduction) == ended.scores


# --- SETTLE-2 ---


def _four_player_play_out(seat1: str, seat2: str, seat3: str, scores: tuple[int, int] = (60, 70)) -> State:
    """Four players: [4|6] led; seat 0 plays out with [6|6] on the 6 (count 4 + 12 = 16, no points)."""
    state = make_state(
        4,
        [tiles("[6|6]"), tiles(seat1), tiles(seat2), tiles(seat3)],
        layout=layout_of((Tile(4, 6), None)),
        boneyard=tiles("[5|5]"),
        scores=scores,
    )
    return apply(state, Place(0, Tile(6, 6), pt(Tile(4, 6), HIGH)))


def test_partners_with_3_pips_each_lose_10() -> None:
    """SETTLE-2: seats 1 and 3 hold 3 pips each: 5 + 5 = 10 comes off their score, never round(6) = 5."""
    ended = _four_player_play_out("[1|2]", "[2|4]", "[0|3]")
    assert ended.last_round is not None
    assert (0, 3, 6, 3) == ended.last_round.settlement.hand_pips
    assert (0, 5, 5, 5) == ended.last_round.settlement.deductions
    assert (5, 10) == ended.last_round.settlement.side_deductions
    assert (60 - 5, 70 - 10) == ended.scores


def test_partners_with_2_pips_each_lose_nothing() -> None:
    """SETTLE-2: seats 1 and 3 hold 2 pips each: 0 + 0, never round(4) = 5."""
    ended = _four_player_play_out("[0|2]", "[2|4]", "[1|1]")
    assert ended.last_round is not None
    assert (0, 0, 5, 0) == ended.last_round.settlement.deductions
    assert (60 - 5, 70) == ended.scores


def test_each_of_three_players_pays_into_their_own_score() -> None:
    """SETTLE-2: with three players each deduction comes off that seat's own score only."""
    ended = _round_over()
    assert (45, 40, 15) == ended.scores


def test_settle_round_rounds_partners_separately() -> None:
    """SETTLE-2: settle_round gives per-seat deductions and sums them per partnership."""
    hands = (tiles("[0|3]"), tiles("[1|1]"), tiles("[1|2]"), tiles("[2|6] [0|1]"))
    expected = Settlement(hand_pips=(3, 2, 3, 9), deductions=(5, 0, 5, 10), side_deductions=(10, 10))
    assert expected == settle_round(Rules.standard(4), hands)


def test_settle_round_needs_one_hand_per_player() -> None:
    """SETTLE-2, SETUP-2: a settlement takes exactly one hand per seat."""
    with pytest.raises(InvalidStateError) as caught:
        settle_round(Rules.standard(3), (tiles("[0|1]"), tiles("[0|2]")))
    assert "SETUP-2" == caught.value.rule


# --- SETTLE-3 ---


def test_the_finisher_pays_nothing_and_gains_nobody_elses_pips() -> None:
    """SETTLE-3: seat 0 plays out scoring 10 ([0|5] then [5|5]: 0 + 10); it gains just those 10, seat 1 loses 10."""
    state = make_state(
        2,
        [tiles("[5|5]"), tiles("[6|6]")],
        layout=layout_of((Tile(0, 5), None)),
        boneyard=tiles("[1|1]"),
        scores=(30, 30),
    )
    ended = apply(state, Place(0, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert Phase.ROUND_OVER == ended.phase
    assert ended.last_round is not None
    assert 0 == ended.last_round.finisher
    assert (0, 10) == ended.last_round.settlement.deductions
    assert (30 + 10, 30 - 10) == ended.scores


def test_the_finishers_partner_still_pays_for_their_own_hand() -> None:
    """SETTLE-3: only the finisher's empty hand is free; seat 2's 6 pips cost the partnership 5."""
    ended = _four_player_play_out("[0|1]", "[2|4]", "[0|0]")
    assert ended.last_round is not None
    assert (0, 0, 5, 0) == ended.last_round.settlement.deductions
    assert (55, 70) == ended.scores


# --- SETTLE-4 ---


def test_a_deduction_may_take_a_score_below_zero() -> None:
    """SETTLE-4: seat 1 at 5 holding 14 pips loses 15 and stands at -10."""
    ended = _seat0_plays_out(tiles("[0|6] [4|4]"), scores=(0, 5))
    assert (0, -10) == ended.scores


def test_a_negative_score_keeps_falling_and_stays_a_multiple_of_5() -> None:
    """SETTLE-4: a score of -20 losing 25 becomes -45; no floor stops it."""
    ended = _seat0_plays_out(tiles("[5|6] [6|6]"), scores=(0, -20))
    assert (0, -45) == ended.scores
    assert all(score % 5 == 0 for score in ended.scores)


def test_a_partnership_may_go_below_zero() -> None:
    """SETTLE-4: side 1 at 0 losing 10 stands at -10."""
    ended = _four_player_play_out("[1|2]", "[0|0]", "[0|3]", scores=(0, 0))
    assert (0, -10) == ended.scores


# --- MATCH-1 ---


def _about_to_score_10(scores: tuple[int, int], rules: Rules | None = None) -> State:
    """Two players, [0|5] led; seat 0 holds [5|5] [6|6] [3|4]; [5|5] on the 5 scores 10 (0 + 10)."""
    return make_state(
        rules if rules is not None else 2,
        [tiles("[3|4] [5|5] [6|6]"), tiles("[1|2] [1|3] [2|2]")],
        layout=layout_of((Tile(0, 5), None)),
        boneyard=tiles("[1|1] [4|4]"),
        scores=scores,
    )


def test_reaching_the_target_mid_round_ends_the_match_without_settlement() -> None:
    """MATCH-1: 240 + 10 = 250 wins at once: both hands stay full, no score is reduced, no round result."""
    state = _about_to_score_10((240, 0))
    won = apply(state, Place(0, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert Phase.MATCH_OVER == won.phase
    assert won.is_over
    assert 0 == won.winner
    assert (250, 0) == won.scores
    assert tiles("[3|4] [6|6]") == won.hand(0)
    assert state.hand(1) == won.hand(1)
    assert state.boneyard == won.boneyard
    assert won.last_round is None
    assert () == legal_moves(won)


def test_passing_the_target_also_wins() -> None:
    """MATCH-1: 245 + 10 = 255 passes 250 and wins with 255."""
    won = apply(_about_to_score_10((245, 0)), Place(0, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert (Phase.MATCH_OVER, 0, (255, 0)) == (won.phase, won.winner, won.scores)


def test_short_of_the_target_play_goes_on() -> None:
    """MATCH-1: 235 + 10 = 245 is short of 250; the round continues with seat 1."""
    after = apply(_about_to_score_10((235, 0)), Place(0, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert (Phase.PLAYING, None, (245, 0), 1) == (after.phase, after.winner, after.scores, after.to_move)


def test_the_target_is_per_player_count() -> None:
    """MATCH-1, SETUP-3: three players win at 200."""
    state = make_state(
        3,
        [tiles("[5|5] [1|2]"), tiles("[1|3]"), tiles("[2|2]")],
        layout=layout_of((Tile(0, 5), None)),
        boneyard=tiles("[4|4]"),
        scores=(190, 195, 0),
    )
    won = apply(state, Place(0, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert (Phase.MATCH_OVER, 0, (200, 195, 0)) == (won.phase, won.winner, won.scores)


def test_a_last_tile_that_reaches_the_target_ends_the_match_with_no_settlement() -> None:
    """MATCH-1: seat 0's last tile scores 10 to reach 250; seat 1's 20 pips are not deducted."""
    previous = RoundResult(3, 1, (tiles("[0|1]"), ()), Settlement((1, 0), (0, 0), (0, 0)))
    state = make_state(
        2,
        [tiles("[5|5]"), tiles("[6|6] [4|4]")],
        layout=layout_of((Tile(0, 5), None)),
        boneyard=tiles("[1|1]"),
        scores=(240, 100),
        round_number=4,
        last_round=previous,
    )
    won = apply(state, Place(0, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert Phase.MATCH_OVER == won.phase
    assert (0, (250, 100)) == (won.winner, won.scores)
    assert () == won.hand(0)
    assert tiles("[4|4] [6|6]") == won.hand(1)
    assert previous is won.last_round


def test_a_partnership_wins_by_a_partners_placement() -> None:
    """MATCH-1: seat 3 scores 10 for side 1, taking it from 190 to 200: side 1 wins."""
    state = make_state(
        4,
        [tiles("[1|1]"), tiles("[1|2]"), tiles("[1|3]"), tiles("[5|5] [2|2]")],
        layout=layout_of((Tile(0, 5), None)),
        boneyard=tiles("[4|4]"),
        scores=(150, 190),
        to_move=3,
    )
    won = apply(state, Place(3, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert (Phase.MATCH_OVER, 1, (150, 200)) == (won.phase, won.winner, won.scores)


def test_a_settlement_never_wins_the_match() -> None:
    """MATCH-1: settlement only subtracts; at 245 of 250 seat 0 plays out without points and the round just ends."""
    ended = _seat0_plays_out(tiles("[6|6]"), scores=(245, 245))
    assert (Phase.ROUND_OVER, None, (245, 235)) == (ended.phase, ended.winner, ended.scores)


# --- MATCH-2 ---


def _match_over() -> State:
    won = apply(_about_to_score_10((240, 0)), Place(0, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert Phase.MATCH_OVER == won.phase
    return won


@pytest.mark.parametrize(
    "move",
    [
        Place(1, Tile(1, 2), pt(Tile(0, 5), LOW)),
        Place(0, Tile(6, 6), pt(Tile(5, 5), B)),
        Place(1, Tile(2, 2), pt(Tile(5, 5), B)),
        Draw(1),
        Draw(0),
        Pass(1),
    ],
)
def test_no_move_is_accepted_after_the_match_ends(move: Place | Draw | Pass) -> None:
    """MATCH-2: once a side has won, every placement, draw and pass is refused."""
    assert_refused(_match_over(), move, IllegalMoveError, "MATCH-2")


def test_no_new_round_after_the_match_ends() -> None:
    """MATCH-2: next_round is refused once the match is over, with or without an order or opener."""
    won = _match_over()
    assert_refused_call(won, next_round, InvalidStateError, "MATCH-2")
    assert_refused_call(won, lambda s: next_round(s, opener=0), InvalidStateError, "MATCH-2")


def test_no_new_round_after_a_match_won_by_the_last_tile() -> None:
    """MATCH-2: a match won by a player's last tile is over, not a finished round awaiting a deal."""
    state = make_state(
        2, [tiles("[5|5]"), tiles("[6|6]")], layout=layout_of((Tile(0, 5), None)),
        boneyard=tiles("[1|1]"), scores=(245, 0),
    )
    won = apply(state, Place(0, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert () == legal_moves(won)
    assert_refused_call(won, next_round, InvalidStateError, "MATCH-2")
