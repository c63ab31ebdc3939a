"""The conventions of specs/rules.md (CONV-1..4): what a move is, the order of the legal moves,
which rule a refusal cites when several apply, and who is to move once a round or the match ends."""

from __future__ import annotations

from typing import Any

import pytest

from sniff_rules.errors import IllegalMoveError, InvalidRulesError, InvalidStateError, SniffError
from sniff_rules.layout import PORTS, Port
from sniff_rules.moves import Draw, Move, Pass, Place, apply, legal_moves
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, Tile
from sniff_rules.verify.perft import perft
from support import about_to_block, before_seat_1_plays_out, deal_order, layout_of, make_state, pt, tiles

PORT_NUMBERS = {"low": 0, "high": 1, "chain-a": 2, "chain-b": 3, "arm-a": 4, "arm-b": 5}
"""CONV-2's port numbers, as specs/rules.md writes them."""


def point_id(tile: Tile, port: str) -> int:
    """A point's id as CONV-2 defines it: tile index * 6 + port number."""
    return tile.index * 6 + PORT_NUMBERS[port]


def canonical(moves: tuple[Move, ...]) -> list[str]:
    """The moves sorted as CONV-2 says, computed from their text alone."""
    if not all(isinstance(move, Place) for move in moves):
        return [str(move) for move in moves]

    def key(move: Move) -> tuple[int, int]:
        assert isinstance(move, Place)
        if move.target is None:
            return (-1, move.tile.index)
        return (point_id(move.target.tile, move.target.port.label), move.tile.index)

    return [str(move) for move in sorted(moves, key=key)]


def after_lead_of_3_3() -> State:
    """Two players: seat 0 has led [3|3]; seat 1 holds [1|3] [3|5] [6|6] [2|2] [0|0]."""
    hands = [tiles("[3|3] [3|6] [2|6] [0|3] [4|5]"), tiles("[1|3] [3|5] [6|6] [2|2] [0|0]")]
    state = new_match(Rules(2, 5, 250), order=deal_order(hands), opener=0)
    return apply(state, Place(0, Tile(3, 3)))


# ---------------------------------------------------------------- CONV-1


def test_conv_1_the_two_chain_sides_of_a_lead_double_are_two_moves() -> None:
    """CONV-1: each tile that fits a double led alone has one move per chain side, two in all."""
    moves = {str(move) for move in legal_moves(after_lead_of_3_3())}
    expected = {f"1:{tile}>[3|3].{side}" for tile in ("[1|3]", "[3|5]") for side in ("chain-a", "chain-b")}
    assert expected == moves


def test_conv_1_the_two_arms_of_the_sniff_are_two_moves() -> None:
    """CONV-1: with both long sides of the Sniff occupied, a tile of its value has a move on each arm."""
    layout = layout_of((Tile(3, 3), None), (Tile(1, 3), pt(Tile(3, 3), Port.CHAIN_A)))
    layout = layout.place(Tile(3, 6), pt(Tile(3, 3), Port.CHAIN_B))
    state = make_state(2, [tiles("[0|3]"), tiles("[4|4]")], layout=layout, boneyard=tiles("[5|5]"))
    assert ["0:[0|3]>[3|3].arm-a", "0:[0|3]>[3|3].arm-b"] == [str(move) for move in legal_moves(state)]


def test_conv_1_a_tile_matching_two_open_ends_of_one_value_has_two_moves() -> None:
    """CONV-1: [4|5] fits two open ends that both show 4: one move on each point, two different moves."""
    layout = layout_of((Tile(2, 4), None), (Tile(0, 2), pt(Tile(2, 4), Port.LOW)))
    layout = layout.place(Tile(0, 4), pt(Tile(0, 2), Port.LOW))
    state = make_state(2, [tiles("[4|5]"), tiles("[6|6]")], layout=layout, boneyard=tiles("[5|5]"))
    moves = legal_moves(state)
    assert ["0:[4|5]>[0|4].high", "0:[4|5]>[2|4].high"] == [str(move) for move in moves]
    assert 2 == len(set(moves))


def test_conv_1_a_forced_move_is_counted_as_a_move() -> None:
    """CONV-1: a seat with only a draw has one legal move, and perft counts it as one sequence."""
    state = make_state(
        2, [tiles("[0|1]"), tiles("[5|5]")], layout=layout_of((Tile(2, 3), None)), boneyard=tiles("[6|6]")
    )
    assert (Draw(0),) == legal_moves(state)
    counts, divide = perft(state, 1)
    assert ([1], {"0:draw": 1}) == (counts, divide)


# ---------------------------------------------------------------- CONV-2


def test_conv_2_port_numbers_and_point_ids() -> None:
    """CONV-2: ports are numbered low 0, high 1, chain-a 2, chain-b 3, arm-a 4, arm-b 5; id = index * 6 + port."""
    assert 6 == PORTS
    assert PORT_NUMBERS == {port.label: port.value for port in Port}
    assert point_id(Tile(1, 4), "high") == pt(Tile(1, 4), Port.HIGH).id
    assert point_id(Tile(6, 6), "arm-b") == pt(Tile(6, 6), Port.ARM_B).id


def test_conv_2_the_example_of_the_rules() -> None:
    """CONV-2: with [3|3] led and [1|3] [3|5] in hand, by point first, then tile."""
    expected = ["1:[1|3]>[3|3].chain-a", "1:[3|5]>[3|3].chain-a", "1:[1|3]>[3|3].chain-b", "1:[3|5]>[3|3].chain-b"]
    assert expected == [str(move) for move in legal_moves(after_lead_of_3_3())]


def test_conv_2_leads_are_listed_by_tile_index() -> None:
    """CONV-2: on an empty table the legal moves are the leads, by tile index."""
    state = new_match(Rules.standard(2), seed=5)
    leads = legal_moves(state)
    assert [move.tile.index for move in leads if isinstance(move, Place)] == sorted(
        t.index for t in state.hand(state.to_move)
    )
    assert all(isinstance(move, Place) and move.target is None for move in leads)


@pytest.mark.parametrize("seed", range(6))
def test_conv_2_every_position_of_a_match_lists_its_moves_in_canonical_order(seed: int) -> None:
    """CONV-2: along whole rounds, legal_moves is sorted by point id, then tile index; a draw or pass is alone."""
    state = new_match(Rules.standard(2 + seed % 3), seed=seed)
    policy = SplitMix64.from_seed(seed)
    while state.phase is Phase.PLAYING:
        moves = legal_moves(state)
        assert canonical(moves) == [str(move) for move in moves]
        assert len(moves) == 1 or all(isinstance(move, Place) for move in moves)
        index, policy = policy.below(len(moves))
        state = apply(state, moves[index])
    assert () == legal_moves(state)


def test_conv_2_a_waiting_drawn_tile_has_only_its_own_placements() -> None:
    """CONV-2: while a drawn tile waits, the legal moves are that tile's placements, in the same order."""
    layout = layout_of((Tile(1, 2), None))
    state = make_state(2, [tiles("[0|1] [2|6] [3|3]"), tiles("[5|5]")], layout=layout, drawn=Tile(0, 1))
    assert ["0:[0|1]>[1|2].low"] == [str(move) for move in legal_moves(state)]


# ---------------------------------------------------------------- CONV-3


def waiting_for_a_drawn_tile() -> State:
    """Two players, [1|2] led; seat 0 drew [0|2], which fits, and holds [3|3] too; [2|2] is in the boneyard."""
    return make_state(
        2,
        [tiles("[0|2] [3|3]"), tiles("[5|5]")],
        layout=layout_of((Tile(1, 2), None)),
        boneyard=tiles("[2|2]"),
        drawn=Tile(0, 2),
    )


def refused_rule(state: State, move: Move) -> str:
    """The rule ``apply`` cites in refusing ``move``."""
    with pytest.raises(IllegalMoveError) as caught:
        apply(state, move)
    return caught.value.rule


def rule_of(call: Any) -> str:
    """The rule ``call()`` cites in its refusal."""
    with pytest.raises(SniffError) as caught:
        call()
    return caught.value.rule


def test_conv_3_the_drawn_tile_comes_before_the_hand() -> None:
    """CONV-3: while a drawn tile waits, a tile not held cites DRAW-2, not PLACE-3."""
    state = waiting_for_a_drawn_tile()
    assert "DRAW-2" == refused_rule(state, Place(0, Tile(2, 2), pt(Tile(1, 2), Port.HIGH)))
    assert "DRAW-2" == refused_rule(state, Place(0, Tile(3, 3), pt(Tile(1, 2), Port.HIGH)))
    assert "DRAW-2" == refused_rule(state, Draw(0))
    assert "PASS-1" == refused_rule(state, Pass(0))


def test_conv_3_the_drawn_tile_itself_goes_on_to_the_table_rules() -> None:
    """CONV-3: the drawn tile on a point it does not match is refused by the table (PLACE-1)."""
    state = waiting_for_a_drawn_tile()
    assert "PLACE-1" == refused_rule(state, Place(0, Tile(0, 2), pt(Tile(1, 2), Port.LOW)))


def test_conv_3_the_seat_comes_before_the_move() -> None:
    """CONV-3: a move out of turn cites TURN-2 whatever else is wrong with it; a seat the table lacks SETUP-2."""
    state = waiting_for_a_drawn_tile()
    assert "TURN-2" == refused_rule(state, Draw(1))
    assert "TURN-2" == refused_rule(state, Place(1, Tile(6, 6), pt(Tile(4, 4), Port.ARM_A)))
    assert "SETUP-2" == refused_rule(state, Pass(3))


def test_conv_3_the_end_comes_before_the_seat() -> None:
    """CONV-3: after the round or the match, every move cites END-1 or MATCH-2, by any seat."""
    ended = apply(before_seat_1_plays_out(), Place(1, Tile(6, 6), pt(Tile(2, 6), Port.HIGH)))
    assert ["END-1"] * 3 == [refused_rule(ended, Draw(seat)) for seat in (0, 1, 2)]
    won = make_state(Rules(2, 7, 5), [tiles("[0|5] [1|1]"), tiles("[2|2]")], boneyard=tiles("[6|6]"))
    won = apply(won, Place(0, Tile(0, 5)))
    assert Phase.MATCH_OVER == won.phase
    assert ["MATCH-2", "MATCH-2"] == [refused_rule(won, Pass(1)), refused_rule(won, Place(0, Tile(1, 1)))]


def test_conv_3_the_hand_comes_before_the_table() -> None:
    """CONV-3: a tile not held cites PLACE-3 even on a point that is not open or with no target after the lead."""
    state = after_lead_of_3_3()
    assert "PLACE-3" == refused_rule(state, Place(1, Tile(3, 4), pt(Tile(3, 3), Port.ARM_A)))
    assert "PLACE-3" == refused_rule(state, Place(1, Tile(3, 4)))


def test_conv_3_on_the_table_the_lead_then_the_point_then_the_match() -> None:
    """CONV-3: OPEN-3 for a lead after the lead, SNIFF-2 before a value mismatch, PLACE-1 for a later double's arm."""
    state = after_lead_of_3_3()
    assert "OPEN-3" == refused_rule(state, Place(1, Tile(0, 0)))
    assert "SNIFF-2" == refused_rule(state, Place(1, Tile(2, 2), pt(Tile(3, 3), Port.ARM_B)))
    assert "PLACE-1" == refused_rule(state, Place(1, Tile(2, 2), pt(Tile(3, 3), Port.CHAIN_A)))
    later = make_state(
        2,
        [tiles("[2|6]"), tiles("[5|5]")],
        layout=layout_of((Tile(3, 3), None), (Tile(3, 6), pt(Tile(3, 3), Port.CHAIN_A))).place(
            Tile(6, 6), pt(Tile(3, 6), Port.HIGH)
        ),
        boneyard=tiles("[0|0]"),
    )
    assert "PLACE-1" == refused_rule(later, Place(0, Tile(2, 6), pt(Tile(6, 6), Port.ARM_A)))


def test_conv_3_a_draw_where_a_placement_exists_before_an_empty_boneyard() -> None:
    """CONV-3: a draw by a seat that can place cites DRAW-1 even with the boneyard empty; with none, DRAW-2."""
    can_place = make_state(2, [tiles("[2|3]"), tiles("[5|5]")], layout=layout_of((Tile(1, 2), None)))
    assert "DRAW-1" == refused_rule(can_place, Draw(0))
    stuck = make_state(2, [tiles("[0|0]"), tiles("[1|1]")], layout=layout_of((Tile(2, 3), None)))
    assert (Pass(0),) == legal_moves(stuck)
    assert "DRAW-2" == refused_rule(stuck, Draw(0))


def test_conv_3_house_rules_players_then_hand_size_then_target() -> None:
    """CONV-3: house rules with several faults cite SETUP-2, then SETUP-4, then SETUP-3."""
    assert "SETUP-2" == rule_of(lambda: Rules(5, 0, 7))
    assert "SETUP-4" == rule_of(lambda: Rules(2, 14, 7))
    assert "SETUP-3" == rule_of(lambda: Rules(2, 7, 7))
    with pytest.raises(InvalidRulesError):
        Rules(4, 7, 200)


def test_conv_3_the_next_round_phase_then_opener_then_order() -> None:
    """CONV-3: next_round cites END-1 or MATCH-2, then a seat the table lacks (SETUP-2), OPEN-2, then SETUP-5."""
    short = DOUBLE_SIX[:27]
    assert "END-1" == rule_of(lambda: next_round(before_seat_1_plays_out(), opener=7))
    ended = apply(before_seat_1_plays_out(), Place(1, Tile(6, 6), pt(Tile(2, 6), Port.HIGH)))
    assert "SETUP-2" == rule_of(lambda: next_round(ended, opener=9, order=short))
    assert "OPEN-2" == rule_of(lambda: next_round(ended, opener=0, order=short))
    assert "SETUP-5" == rule_of(lambda: next_round(ended, opener=1, order=short))
    blocked = apply(about_to_block(), Place(0, Tile(5, 6), pt(Tile(0, 5), Port.HIGH)))
    assert "SETUP-2" == rule_of(lambda: next_round(blocked, opener=2, order=short))
    assert "SETUP-5" == rule_of(lambda: next_round(blocked, opener=1, order=short))
    with pytest.raises(InvalidStateError):
        next_round(blocked, opener=1, order=short)


# ---------------------------------------------------------------- CONV-4


def test_conv_4_the_finisher_stays_to_move_after_playing_out() -> None:
    """CONV-4: after a round played out, to_move is the finisher; the next round's opener moves first."""
    ended = apply(before_seat_1_plays_out(), Place(1, Tile(6, 6), pt(Tile(2, 6), Port.HIGH)))
    assert (Phase.ROUND_OVER, 1) == (ended.phase, ended.to_move)
    dealt = next_round(ended)
    assert (1, 1) == (dealt.opener, dealt.to_move)


def test_conv_4_the_seat_whose_placement_blocked_stays_to_move() -> None:
    """CONV-4: after a placement that blocks the round, to_move is the placer."""
    blocked = apply(about_to_block(), Place(0, Tile(5, 6), pt(Tile(0, 5), Port.HIGH)))
    assert blocked.last_round is not None
    assert (Phase.ROUND_OVER, None, 0) == (blocked.phase, blocked.last_round.finisher, blocked.to_move)


def test_conv_4_the_seat_whose_draw_blocked_stays_to_move() -> None:
    """CONV-4: after a draw that blocks the round (the last tile, which fits nowhere), to_move is the drawer."""
    layout = layout_of((Tile(0, 5), None)).place(Tile(5, 6), pt(Tile(0, 5), Port.HIGH))
    state = make_state(2, [tiles("[1|2]"), tiles("[1|3] [2|3]")], layout=layout, boneyard=tiles("[4|4]"), to_move=1)
    blocked = apply(state, Draw(1))
    assert (Phase.ROUND_OVER, 1) == (blocked.phase, blocked.to_move)


def test_conv_4_the_winning_placer_stays_to_move() -> None:
    """CONV-4: after the placement that wins the match, to_move is the placer, seat 1 here."""
    state = make_state(
        Rules(2, 7, 10),
        [tiles("[0|1] [1|1]"), tiles("[3|4] [2|2]")],
        layout=layout_of((Tile(1, 3), None)),
        boneyard=tiles("[6|6]"),
        scores=(0, 5),
        to_move=1,
    )
    won = apply(state, Place(1, Tile(3, 4), pt(Tile(1, 3), Port.HIGH)))
    assert (Phase.MATCH_OVER, 1, 1, (0, 10)) == (won.phase, won.winner, won.to_move, won.scores)
