"""Section 8 of specs/rules.md, end of round and settlement (END-*, SETTLE-*)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import sniff_rules
from sniff_rules.errors import IllegalMoveError, InvalidStateError
from sniff_rules.layout import Port
from sniff_rules.moves import Draw, Pass, Place, apply, legal_moves
from sniff_rules.rules import Rules
from sniff_rules.scoring import Settlement, round_to_five, settle_round
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, Tile
from support import (
    assert_refused,
    assert_refused_call,
    before_seat_1_plays_out,
    blocked,
    layout_of,
    make_state,
    pips,
    pt,
    refusal,
    seat_1_played_out,
    tiles,
)

LOW, HIGH = Port.LOW, Port.HIGH
A, B = Port.CHAIN_A, Port.CHAIN_B


# --- END-1 ---


def test_placing_the_last_tile_ends_the_round_and_names_the_finisher() -> None:
    """END-1, SETTLE-2: seat 1 plays out with tiles left to draw; seats 0 and 2 lose 5 and 15 for 3 and 16 pips."""
    ended = seat_1_played_out()
    assert Phase.ROUND_OVER == ended.phase
    assert ended.last_round is not None
    assert 1 == ended.last_round.finisher
    assert not ended.last_round.blocked
    assert 1 == ended.last_round.round_number
    assert () == ended.hand(1)
    assert tiles("[1|1] [5|5]") == ended.boneyard
    assert (3, 0, 16) == ended.last_round.settlement.hand_pips
    assert (5, 0, 15) == ended.last_round.settlement.deductions
    # With three players each deduction comes off that seat's own score only.
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
    ("move", "text"),
    [
        (Place(0, Tile(0, 2), pt(Tile(2, 6), LOW)), "0:[0|2]>[2|6].low"),
        (Place(2, Tile(4, 5), pt(Tile(6, 6), B)), "2:[4|5]>[6|6].chain-b"),
        (Place(1, Tile(0, 2), pt(Tile(2, 6), LOW)), "1:[0|2]>[2|6].low"),
        (Draw(2), "2:draw"),
        (Draw(1), "1:draw"),
        (Pass(2), "2:pass"),
        (Pass(0), "0:pass"),
    ],
)
def test_no_move_is_accepted_after_the_round_ends(move: Place | Draw | Pass, text: str) -> None:
    """END-1: after the round ends every placement, draw and pass is refused until the next deal, and named."""
    error = assert_refused(seat_1_played_out(), move, IllegalMoveError, "END-1")
    assert f"END-1: round 1 is over; deal the next round before {text}" == str(error)


def test_no_move_after_a_blocked_round() -> None:
    """END-1: a blocked round is over too; a further move is refused."""
    ended = blocked()
    assert_refused(ended, Pass(1), IllegalMoveError, "END-1")
    assert_refused(ended, Place(1, Tile(1, 3), pt(Tile(0, 5), LOW)), IllegalMoveError, "END-1")


def test_next_round_is_refused_during_play() -> None:
    """END-1: a new round is dealt only after the current one has ended, in round 1 or a later round."""
    fresh = new_match(Rules.standard(3), seed=4)
    assert_refused_call(fresh, next_round, InvalidStateError, "END-1")
    assert_refused_call(before_seat_1_plays_out(), next_round, InvalidStateError, "END-1")
    # Round 2 is under way and round 1's result is kept: still no new round.
    playing = next_round(blocked(), opener=0, order=DOUBLE_SIX)
    assert playing.last_round is not None
    expected = "END-1: a new round is dealt only after a round ends; the match is playing"
    assert expected == refusal(InvalidStateError, "END-1", lambda: next_round(playing, opener=0, order=DOUBLE_SIX))


def test_next_round_after_the_end_carries_the_scores() -> None:
    """END-1: once the round is over, next_round deals round 2 with the settled scores."""
    after = next_round(seat_1_played_out())
    assert (Phase.PLAYING, 2, (45, 40, 15)) == (after.phase, after.round_number, after.scores)
    assert [6, 6, 6] == [len(hand) for hand in after.hands]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_round_that_ends_keeps_the_rounds_fixed_facts(players: int) -> None:
    """END-1, BLOCK-1: the settled state keeps the rules, number, opener, lot and source of its round."""
    ended = 0
    for seed in range(12):
        state = sniff_rules.new_match(sniff_rules.Rules.standard(players), seed=seed)
        while state.phase is Phase.PLAYING:
            after = apply(state, legal_moves(state)[seed % len(legal_moves(state))])
            if after.phase is Phase.ROUND_OVER:
                ended += 1
                kept = ("rules", "round_number", "opener", "source", "lot")
                assert [getattr(after, name) for name in kept] == [getattr(state, name) for name in kept]
                assert after.last_round is not None
                assert state.round_number == after.last_round.round_number
            state = after
    assert ended == 12


# --- SETTLE-1 ---


@pytest.mark.parametrize(
    ("hand_pips", "expected"),
    [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 5),
        (4, 5),
        (5, 5),
        (6, 5),
        (7, 5),
        (8, 10),
        (9, 10),
        (10, 10),
        (11, 10),
        (12, 10),
        (13, 15),
        (14, 15),
        (40, 40),
        (41, 40),
        (42, 40),
        (43, 45),
        (44, 45),
        (84, 85),
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


def test_settle_round_rounds_partners_separately() -> None:
    """SETTLE-1, SETTLE-2: settle_round gives per-seat deductions and sums them per partnership, for either side."""
    hands = (tiles("[0|3]"), tiles("[1|1]"), tiles("[1|2]"), tiles("[2|6] [0|1]"))
    expected = Settlement(hand_pips=(3, 2, 3, 9), deductions=(5, 0, 5, 10), side_deductions=(10, 10))
    assert expected == settle_round(Rules.standard(4), hands)
    # Seats 0 and 2 hold 3 pips each: 5 + 5 = 10 off side 0, not the rounding of 6.
    settlement = settle_round(Rules.standard(4), (tiles("[1|2]"), tiles("[0|1]"), tiles("[0|3]"), tiles("[6|6]")))
    assert ((3, 1, 3, 12), (5, 0, 5, 10), (10, 10)) == (
        settlement.hand_pips,
        settlement.deductions,
        settlement.side_deductions,
    )


def test_settle_round_needs_one_hand_per_player() -> None:
    """SETTLE-2, SETUP-2: a settlement takes exactly one hand per seat; the error names both numbers."""
    two = (tiles("[0|1]"), tiles("[0|2]"))
    assert f"SETUP-2: 3 players hold 3 hands, got {two!r}" == refusal(
        InvalidStateError, "SETUP-2", lambda: settle_round(Rules.standard(3), two)
    )
    three = (tiles("[1|2]"), (), tiles("[0|3]"))
    assert f"SETUP-2: 4 players hold 4 hands, got {three!r}" == refusal(
        InvalidStateError, "SETUP-2", lambda: settle_round(Rules.standard(4), three)
    )


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
