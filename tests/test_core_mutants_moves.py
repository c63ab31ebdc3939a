"""Moves and apply (TURN-*, PLACE-3, DRAW-*, PASS-1, BLOCK-1, END-1, MATCH-2): positions and refusals."""

from __future__ import annotations

from typing import cast

import attrs
import pytest

import sniff_rules
from sniff_rules import (
    Draw,
    IllegalMoveError,
    Layout,
    Move,
    Pass,
    Phase,
    Place,
    Placement,
    Port,
    RoundResult,
    Settlement,
    State,
    Tile,
    apply,
    legal_moves,
)
from sniff_rules.layout import placement_refusal
from support import assert_refused, layout_of, make_state, pt, tiles

B = Port.CHAIN_B
LOW, HIGH = Port.LOW, Port.HIGH


def refusal_text(state: State, move: Move, rule: str) -> str:
    """``move`` is refused citing ``rule`` and ``state`` is unchanged; the error's text."""
    return str(assert_refused(state, move, IllegalMoveError, rule))


def mask(hand: tuple[Tile, ...]) -> int:
    """The hand as a bit mask of tile indices, bit ``i`` for tile ``i``."""
    return sum(1 << tile.index for tile in hand)


def _drew_zero_zero() -> State:
    """Two players, [0|3] led: seat 1 holds no 0 or 3, draws [0|0], which fits the 0; [5|5] is left."""
    state = make_state(
        2,
        [tiles("[2|2]"), tiles("[1|1] [2|4]")],
        layout=layout_of((Tile(0, 3), None)),
        boneyard=tiles("[0|0] [5|5]"),
        to_move=1,
    )
    assert (Draw(1),) == legal_moves(state)
    state = apply(state, Draw(1))
    assert (Tile(0, 0), 0) == (state.drawn_tile, state.drawn)
    return state


def test_after_drawing_zero_zero_only_it_may_be_placed() -> None:
    """DRAW-2: seat 1 drew [0|0] (tile 0), which fits; it is the one legal move and placing [1|1] is refused."""
    state = _drew_zero_zero()
    assert (Place(1, Tile(0, 0), pt(Tile(0, 3), LOW)),) == legal_moves(state)
    expected = "DRAW-2: seat 1 drew [0|0] and must place it, not [1|1]"
    assert expected == refusal_text(state, Place(1, Tile(1, 1), pt(Tile(0, 3), LOW)), "DRAW-2")


def test_after_drawing_zero_zero_no_further_draw() -> None:
    """DRAW-2: [0|0] drawn fits, so a second draw is refused though [5|5] is left in the boneyard."""
    expected = "DRAW-2: seat 1 drew [0|0], which fits, and must place it now"
    assert expected == refusal_text(_drew_zero_zero(), Draw(1), "DRAW-2")


def test_after_drawing_zero_zero_no_pass() -> None:
    """PASS-1, DRAW-2: a pass is refused to the seat that drew [0|0], which fits; the error names the tile."""
    expected = "PASS-1: seat 1 drew [0|0], which fits, and must place it"
    assert expected == refusal_text(_drew_zero_zero(), Pass(1), "PASS-1")


def test_a_drawn_tile_excludes_every_other_tile_of_the_hand() -> None:
    """DRAW-2: in this written position seat 1 drew [0|0] and also holds [0|2], which fits; only [0|0] is legal."""
    state = make_state(
        2,
        [tiles("[5|5]"), tiles("[0|0] [0|2] [4|4]")],
        layout=layout_of((Tile(0, 3), None)),
        boneyard=tiles("[6|6]"),
        to_move=1,
        drawn=Tile(0, 0),
    )
    assert (Place(1, Tile(0, 0), pt(Tile(0, 3), LOW)),) == legal_moves(state)
    assert_refused(state, Place(1, Tile(0, 2), pt(Tile(0, 3), LOW)), IllegalMoveError, "DRAW-2")


def test_a_placement_keeps_the_round_record() -> None:
    """TURN-1, OPEN-1: a placement changes hand, layout and turn only; opener, lot and last round are kept."""
    last = RoundResult(1, None, (tiles("[1|2]"), tiles("[1|3]")), Settlement((3, 4), (5, 5), (5, 5)))
    made = make_state(
        2,
        [tiles("[4|6] [2|2]"), tiles("[3|3]")],
        layout=layout_of((Tile(1, 4), None)),
        boneyard=tiles("[0|0]"),
        scores=(10, 15),
        opener=1,
        round_number=2,
        last_round=last,
    )
    before = attrs.evolve(made, context=attrs.evolve(made.context, lot=(((0, 2), (1, 5)),)))
    after = apply(before, Place(0, Tile(4, 6), pt(Tile(1, 4), HIGH)))
    # [1|4] with [4|6] on its 4 counts 1 + 6 = 7: no points, and the round goes on.
    expected = attrs.evolve(
        before,
        to_move=1,
        hand_masks=(mask(tiles("[2|2]")), before.hand_masks[1]),
        layout=layout_of((Tile(1, 4), None), (Tile(4, 6), pt(Tile(1, 4), HIGH))),
    )
    assert expected == after
    assert (1, 1, (((0, 2), (1, 5)),), last, -1) == (after.opener, after.to_move, after.lot, after.last_round, after.drawn)


def test_a_draw_that_does_not_fit_changes_only_the_hand_and_the_boneyard() -> None:
    """DRAW-2: [2|2] drawn does not fit [1|4]; seat 1 keeps the turn and nothing is marked as drawn."""
    before = make_state(
        2,
        [tiles("[4|6]"), tiles("[3|3]")],
        layout=layout_of((Tile(1, 4), None)),
        boneyard=tiles("[2|2] [1|5]"),
        to_move=1,
    )
    after = apply(before, Draw(1))
    expected = attrs.evolve(
        before,
        hand_masks=(before.hand_masks[0], mask(tiles("[2|2] [3|3]"))),
        boneyard_ids=(Tile(1, 5).index,),
    )
    assert expected == after
    assert (-1, None, (Draw(1),)) == (after.drawn, after.drawn_tile, legal_moves(after))


def test_no_block_while_a_seat_before_the_last_can_place() -> None:
    """BLOCK-1: seat 0 places [5|6]; seat 1 holds no 0 or 6, but seat 0 still holds [6|6]: seat 1 passes."""
    state = make_state(
        2,
        [tiles("[5|6] [6|6]"), tiles("[1|3] [2|3]")],
        layout=layout_of((Tile(0, 5), None)),
    )
    after = apply(state, Place(0, Tile(5, 6), pt(Tile(0, 5), HIGH)))
    assert (Phase.PLAYING, 1, (Pass(1),)) == (after.phase, after.to_move, legal_moves(after))


def test_a_seat_must_be_an_int() -> None:
    """TURN-2: a move names its seat as an int; "1" is refused and quoted."""
    seat = cast(int, "1")
    for make in (lambda: Place(seat, Tile(1, 4)), lambda: Draw(seat), lambda: Pass(seat)):
        with pytest.raises(IllegalMoveError) as caught:
            make()
        assert "TURN-2: a move names its seat as an int, got '1'" == str(caught.value)


def test_a_place_reads_back_from_its_repr() -> None:
    """TURN-1, OPEN-3: repr of a lead and of an attached placement evaluates back to the same move."""
    for move in (Place(2, Tile(1, 4)), Place(3, Tile(4, 6), pt(Tile(1, 4), HIGH))):
        assert move == eval(repr(move), dict(vars(sniff_rules)))
    assert "Place(2, Tile(1, 4))" == repr(Place(2, Tile(1, 4)))


def test_a_place_is_written_seat_tile_and_target() -> None:
    """TURN-2, PLACE-1: a lead is written seat:tile, an attached tile seat:tile>point."""
    assert "2:[1|4]" == str(Place(2, Tile(1, 4)))
    assert "3:[4|6]>[1|4].high" == str(Place(3, Tile(4, 6), pt(Tile(1, 4), HIGH)))


def _three_players() -> State:
    """Three players, [1|4] led, seat 0 to move holding [4|6]; seat 2 holds [1|2]; two tiles in the boneyard."""
    return make_state(
        3,
        [tiles("[4|6]"), tiles("[3|3]"), tiles("[1|2]")],
        layout=layout_of((Tile(1, 4), None)),
        boneyard=tiles("[0|0] [5|5]"),
    )


def test_moving_out_of_turn_names_both_seats() -> None:
    """TURN-2: seat 1 moves while it is seat 0's turn."""
    assert "TURN-2: seat 1 moved, but it is seat 0's turn" == refusal_text(_three_players(), Draw(1), "TURN-2")


def test_placing_or_passing_out_of_turn_is_refused_like_drawing() -> None:
    """TURN-2: each kind of move is checked against the seat to move, not only a draw."""
    state = _three_players()
    expected = "TURN-2: seat 2 moved, but it is seat 0's turn"
    assert expected == refusal_text(state, Place(2, Tile(1, 2), pt(Tile(1, 4), LOW)), "TURN-2")
    assert expected == refusal_text(state, Pass(2), "TURN-2")


def test_apply_names_the_rule_a_placement_breaks_whatever_the_geometry_refuses() -> None:
    """PLACE-1, SNIFF-2: apply refuses a closed point, a tile without the point's value and an
    arm of the Sniff with a long side free, each as an IllegalMoveError naming the rule."""
    state = _three_players()
    closed = refusal_text(state, Place(0, Tile(4, 6), pt(Tile(4, 6), HIGH)), "PLACE-1")
    assert closed.startswith("PLACE-1: [4|6].high is not an open attachment point; open: [1|4].low, [1|4].high")
    unmatched = refusal_text(state, Place(0, Tile(4, 6), pt(Tile(1, 4), LOW)), "PLACE-1")
    assert "PLACE-1: [4|6] has no half matching [1|4].low (value 1)" == unmatched
    sniff = make_state(3, [tiles("[1|3]"), tiles("[3|3]"), tiles("[1|2]")], layout=layout_of((Tile(1, 1), None)))
    arm = refusal_text(sniff, Place(0, Tile(1, 3), pt(Tile(1, 1), Port.ARM_A)), "SNIFF-2")
    assert arm.startswith("SNIFF-2: [1|1].arm-a is a side arm of the Sniff")


def test_a_refused_placement_shows_the_rule_alone() -> None:
    """PLACE-1: the table look-up that found the placement impossible is not chained to the
    error, so a traceback shows the rule and nothing of how it was found."""
    refusal = assert_refused(_three_players(), Place(0, Tile(4, 6), pt(Tile(1, 4), LOW)), IllegalMoveError, "PLACE-1")
    assert (None, True) == (refusal.__cause__, refusal.__suppress_context__)


def test_a_tile_facing_its_own_open_point_is_refused() -> None:
    """PLACE-1: only a hand-built layout can show [1|4]'s own end open with [1|4] still to place;
    the geometry allows the match, and the refusal says why it cannot be."""
    own_end = pt(Tile(1, 4), HIGH)
    layout = Layout(placements=(Placement(Tile(2, 5), None),), open_point_ids=(own_end.id,))
    refusal = placement_refusal(layout, Tile(1, 4).index, own_end.id)
    assert ("PLACE-1", "PLACE-1: [1|4] cannot attach to its own [1|4].high") == (refusal.rule, str(refusal))


def test_drawing_from_an_empty_boneyard_is_refused_and_said_so() -> None:
    """DRAW-2: seat 0 cannot place [0|0] on [1|4] and the boneyard is empty; a draw is refused."""
    state = make_state(3, [tiles("[0|0]"), tiles("[1|3]"), tiles("[2|4]")], layout=layout_of((Tile(1, 4), None)))
    expected = "DRAW-2: the boneyard is empty; nothing can be drawn"
    assert expected == refusal_text(state, Draw(0), "DRAW-2")


def test_a_move_that_is_no_move_is_named() -> None:
    """TURN-1: a move is a placement, a draw or a pass; the text "draw" is refused and quoted."""
    expected = "TURN-1: a move is a Place, Draw or Pass, got 'draw'"
    assert expected == refusal_text(_three_players(), cast(Move, "draw"), "TURN-1")


def test_placing_a_tile_not_held_lists_the_hand() -> None:
    """PLACE-3: seat 0 does not hold [4|5]; the error lists what it holds."""
    state = attrs.evolve(_three_players(), hand_masks=(mask(tiles("[0|1] [4|6]")), mask(tiles("[3|3]")), mask(tiles("[1|2]"))))
    expected = "PLACE-3: seat 0 does not hold [4|5]; it holds [0|1] [4|6]"
    assert expected == refusal_text(state, Place(0, Tile(4, 5), pt(Tile(1, 4), HIGH)), "PLACE-3")


def test_a_second_lead_is_named() -> None:
    """OPEN-3: [4|6] without a target after the lead is refused and named."""
    expected = "OPEN-3: only the first tile is a lead; attach [4|6] to an open point"
    assert expected == refusal_text(_three_players(), Place(0, Tile(4, 6)), "OPEN-3")


def test_drawing_while_able_to_place_names_the_seat() -> None:
    """DRAW-1: seat 0 holds [4|6], which fits the 4, so its draw is refused."""
    expected = "DRAW-1: seat 0 can place a tile and must place rather than draw"
    assert expected == refusal_text(_three_players(), Draw(0), "DRAW-1")


def test_passing_while_able_to_place_names_the_seat() -> None:
    """PASS-1: seat 0 holds [4|6], which fits, so its pass is refused."""
    expected = "PASS-1: seat 0 can place a tile; a pass is only for a player who cannot"
    assert expected == refusal_text(_three_players(), Pass(0), "PASS-1")


def test_passing_while_the_boneyard_has_tiles_names_how_many() -> None:
    """PASS-1: seat 1 cannot place, but the boneyard holds 2 tiles; it must draw, not pass."""
    state = attrs.evolve(_three_players(), to_move=1)
    expected = "PASS-1: the boneyard has 2 tiles; draw before passing"
    assert expected == refusal_text(state, Pass(1), "PASS-1")


def test_no_move_after_the_round_ends() -> None:
    """END-1: seat 0 plays out with [4|6]; the next move is refused and named."""
    ended = apply(_three_players(), Place(0, Tile(4, 6), pt(Tile(1, 4), HIGH)))
    assert Phase.ROUND_OVER == ended.phase
    expected = "END-1: round 1 is over; deal the next round before 1:draw"
    assert expected == refusal_text(ended, Draw(1), "END-1")


def test_no_move_after_the_match_is_won() -> None:
    """MATCH-2, COUNT-4: seat 0 at 195 opens the Sniff's arms for 1 + 4 + 4 + 6 = 15 and wins; moves are refused."""
    state = attrs.evolve(
        _three_players(),
        hand_masks=(mask(tiles("[4|6] [0|1]")), mask(tiles("[3|3]")), mask(tiles("[1|2]"))),
        layout=layout_of((Tile(1, 4), None), (Tile(4, 4), pt(Tile(1, 4), HIGH))),
        scores=(195, 0, 0),
    )
    won = apply(state, Place(0, Tile(4, 6), pt(Tile(4, 4), B)))
    assert (Phase.MATCH_OVER, 0, (210, 0, 0)) == (won.phase, won.winner, won.scores)
    expected = "MATCH-2: the match is over; side 0 won; 1:draw is refused"
    assert expected == refusal_text(won, Draw(1), "MATCH-2")


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
                assert after.last_round is not None and after.last_round.round_number == state.round_number
            state = after
    assert ended == 12
