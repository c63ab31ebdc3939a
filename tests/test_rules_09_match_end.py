"""Section 9 of specs/rules.md, match end (MATCH-*): the target reached mid-round wins at once, and
nothing is accepted afterwards."""

from __future__ import annotations

import pytest

from sniff_rules.errors import IllegalMoveError, InvalidStateError
from sniff_rules.layout import Port
from sniff_rules.moves import Draw, Pass, Place, apply, legal_moves
from sniff_rules.rules import Rules
from sniff_rules.scoring import Settlement
from sniff_rules.state import Phase, RoundResult, State, next_round
from sniff_rules.tiles import DOUBLE_SIX, Tile
from support import assert_refused, assert_refused_call, layout_of, make_state, pt, refusal, tiles

LOW, HIGH = Port.LOW, Port.HIGH
B = Port.CHAIN_B


def _about_to_score_10(scores: tuple[int, int], rules: Rules | None = None) -> State:
    """Two players, [0|5] led; seat 0 holds [5|5] [6|6] [3|4]; [5|5] on the 5 scores 10 (0 + 10)."""
    return make_state(
        rules if rules is not None else 2,
        [tiles("[3|4] [5|5] [6|6]"), tiles("[1|2] [1|3] [2|2]")],
        layout=layout_of((Tile(0, 5), None)),
        boneyard=tiles("[1|1] [4|4]"),
        scores=scores,
    )


# --- MATCH-1 ---


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
    """MATCH-1, MATCH-2: seat 0's last tile in round 4 reaches 250: nothing is deducted and no round 5 is dealt."""
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
    # Over, not a finished round awaiting a deal, though round 3's result is kept.
    assert () == legal_moves(won)
    expected = "MATCH-2: a new round is dealt only after a round ends; the match is match-over"
    assert expected == str(assert_refused_call(won, next_round, InvalidStateError, "MATCH-2"))
    assert expected == refusal(InvalidStateError, "MATCH-2", lambda: next_round(won, opener=0, order=DOUBLE_SIX))


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


def test_opening_the_sniffs_arms_can_win() -> None:
    """MATCH-1, COUNT-4: seat 0 at 195 opens the arms of the Sniff [4|4]: 1 + 4 + 4 + 6 = 15 wins with 210."""
    state = make_state(
        3,
        [tiles("[4|6] [0|1]"), tiles("[3|3]"), tiles("[1|2]")],
        layout=layout_of((Tile(1, 4), None), (Tile(4, 4), pt(Tile(1, 4), HIGH))),
        boneyard=tiles("[0|0] [5|5]"),
        scores=(195, 0, 0),
    )
    won = apply(state, Place(0, Tile(4, 6), pt(Tile(4, 4), B)))
    assert (Phase.MATCH_OVER, 0, (210, 0, 0)) == (won.phase, won.winner, won.scores)


def test_a_settlement_never_wins_the_match() -> None:
    """MATCH-1: settlement only subtracts; at 245 of 250 seat 0 plays out without points and the round just ends."""
    state = make_state(
        2,
        [tiles("[2|2]"), tiles("[6|6]")],
        layout=layout_of((Tile(2, 3), None)),
        boneyard=tiles("[3|3]"),
        scores=(245, 245),
    )
    # [2|2] on the 2 of [2|3] counts 4 + 3 = 7: no points; seat 1's 12 pips cost 10.
    ended = apply(state, Place(0, Tile(2, 2), pt(Tile(2, 3), LOW)))
    assert (Phase.ROUND_OVER, None, (245, 235)) == (ended.phase, ended.winner, ended.scores)


# --- MATCH-2 ---


def _match_over() -> State:
    won = apply(_about_to_score_10((240, 0)), Place(0, Tile(5, 5), pt(Tile(0, 5), HIGH)))
    assert Phase.MATCH_OVER == won.phase
    return won


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Place(1, Tile(1, 2), pt(Tile(0, 5), LOW)), "1:[1|2]>[0|5].low"),
        (Place(0, Tile(6, 6), pt(Tile(5, 5), B)), "0:[6|6]>[5|5].chain-b"),
        (Place(1, Tile(2, 2), pt(Tile(5, 5), B)), "1:[2|2]>[5|5].chain-b"),
        (Draw(1), "1:draw"),
        (Draw(0), "0:draw"),
        (Pass(1), "1:pass"),
    ],
)
def test_no_move_is_accepted_after_the_match_ends(move: Place | Draw | Pass, text: str) -> None:
    """MATCH-2: once a side has won, every placement, draw and pass is refused; the error names winner and move."""
    error = assert_refused(_match_over(), move, IllegalMoveError, "MATCH-2")
    assert f"MATCH-2: the match is over; side 0 won; {text} is refused" == str(error)


def test_no_new_round_after_the_match_ends() -> None:
    """MATCH-2: next_round is refused once the match is over, with or without an order or opener."""
    won = _match_over()
    expected = "MATCH-2: a new round is dealt only after a round ends; the match is match-over"
    assert expected == str(assert_refused_call(won, next_round, InvalidStateError, "MATCH-2"))
    assert_refused_call(won, lambda s: next_round(s, opener=0), InvalidStateError, "MATCH-2")
    assert_refused_call(won, lambda s: next_round(s, opener=1, order=DOUBLE_SIX), InvalidStateError, "MATCH-2")
