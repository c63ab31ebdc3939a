"""Section 7 of specs/rules.md, drawing, passing and blocking (DRAW-*, PASS-*, BLOCK-*)."""

from __future__ import annotations

import attrs

from sniff_rules.errors import IllegalMoveError
from sniff_rules.layout import Port
from sniff_rules.moves import Draw, Pass, Place, apply, legal_moves
from sniff_rules.state import Phase, State
from sniff_rules.tiles import DOUBLE_SIX, HandMask, Tile
from support import (
    NON_SIX,
    about_to_block,
    all_tiles_of,
    assert_refused,
    layout_of,
    make_state,
    pips,
    pt,
    tiles,
)

A, B = Port.CHAIN_A, Port.CHAIN_B
LOW, HIGH = Port.LOW, Port.HIGH


def refused_text(state: State, move: Draw | Pass | Place, rule: str) -> str:
    """``move`` is refused as an IllegalMoveError citing ``rule``, ``state`` is unchanged; the error's text."""
    return str(assert_refused(state, move, IllegalMoveError, rule))


# --- DRAW-1 ---


def test_a_player_who_can_place_may_not_draw() -> None:
    """DRAW-1: seat 1 holds [4|5], which fits the 4 of [1|4]; drawing instead is refused and the error says so."""
    state = make_state(
        2,
        [tiles("[2|2]"), tiles("[0|0] [4|5] [3|3]")],
        layout=layout_of((Tile(1, 4), None)),
        boneyard=tiles("[1|2] [6|6]"),
        to_move=1,
    )
    expected = "DRAW-1: seat 1 can place a tile and must place rather than draw"
    assert expected == refused_text(state, Draw(1), "DRAW-1")
    assert Draw(1) not in legal_moves(state)
    assert {Place(1, Tile(4, 5), pt(Tile(1, 4), HIGH))} == set(legal_moves(state))


def test_the_opener_may_not_draw_instead_of_leading() -> None:
    """DRAW-1: on an empty table every tile can be led, so the opener may not draw."""
    state = make_state(3, [tiles("[0|1]"), tiles("[6|6]"), tiles("[2|3]")], boneyard=tiles("[4|4]"), to_move=1)
    assert_refused(state, Draw(1), IllegalMoveError, "DRAW-1")


# --- DRAW-2 ---


def _long_draw_state() -> State:
    """Two players, every tile placed: [6|6] led by seat 0; seat 1 holds no six.

    The boneyard holds 13 tiles without a six, then [5|6] last.
    """
    seat0 = tiles("[0|0] [0|6] [1|6] [2|6] [3|6] [4|6]")
    seat1 = tiles("[0|1] [0|2] [0|3] [0|4] [0|5] [1|1] [1|2]")
    boneyard = (*(tile for tile in NON_SIX if tile not in seat0 + seat1), Tile(5, 6))
    assert 14 == len(boneyard)
    return make_state(2, [seat0, seat1], layout=layout_of((Tile(6, 6), None)), boneyard=boneyard, to_move=1, opener=0)


def test_draw_one_at_a_time_until_a_tile_fits() -> None:
    """DRAW-2, TURN-1: 13 draws that do not fit each move one tile to seat 1's hand, nothing else; the 14th fits."""
    state = _long_draw_state()
    boneyard = state.boneyard
    assert sorted(DOUBLE_SIX) == sorted(all_tiles_of(state))
    for count in range(13):
        assert (Draw(1),) == legal_moves(state)
        before = state
        state = apply(state, Draw(1))
        # Seat 1 keeps the turn and nothing is marked as drawn: the whole state is otherwise the same.
        expected = attrs.evolve(
            before,
            hand_masks=(before.hand_masks[0], HandMask(before.hand_masks[1] | 1 << boneyard[count].index)),
            boneyard_ids=before.boneyard_ids[1:],
        )
        assert expected == state
        assert (1, Phase.PLAYING, None, -1) == (state.to_move, state.phase, state.drawn_tile, state.drawn)
        assert boneyard[count] in state.hand(1)
        assert boneyard[count + 1 :] == state.boneyard
        assert 7 + count + 1 == len(state.hand(1))
        assert (before.hand(0), before.scores, before.layout) == (state.hand(0), state.scores, state.layout)
        assert sorted(DOUBLE_SIX) == sorted(all_tiles_of(state))
    state = apply(state, Draw(1))
    assert Tile(5, 6) == state.drawn_tile
    assert () == state.boneyard
    assert 1 == state.to_move
    expected_moves = {Place(1, Tile(5, 6), pt(Tile(6, 6), A)), Place(1, Tile(5, 6), pt(Tile(6, 6), B))}
    assert expected_moves == set(legal_moves(state))
    state = apply(state, Place(1, Tile(5, 6), pt(Tile(6, 6), B)))
    assert 0 == state.to_move
    assert state.drawn_tile is None
    assert 20 == len(state.hand(1))
    assert set(boneyard[:13]) <= set(state.hand(1))
    assert sorted(DOUBLE_SIX) == sorted(all_tiles_of(state))


def _drew_zero_zero() -> State:
    """Two 0 ends open ([0|3] led, [3|4], [0|4]); seat 1 held [1|1] [2|5], drew [1|2] (no fit) then [0|0] (fits).

    [0|0] is tile 0, the one whose index is also the "nothing drawn" test's edge; [5|6] is left to draw.
    """
    state = make_state(
        2,
        [tiles("[5|5] [2|2]"), tiles("[1|1] [2|5]")],
        layout=layout_of((Tile(0, 3), None), (Tile(3, 4), pt(Tile(0, 3), HIGH)), (Tile(0, 4), pt(Tile(3, 4), HIGH))),
        boneyard=tiles("[1|2] [0|0] [5|6]"),
        to_move=1,
    )
    assert (Draw(1),) == legal_moves(state)
    state = apply(state, Draw(1))
    assert (None, -1) == (state.drawn_tile, state.drawn)
    state = apply(state, Draw(1))
    assert (Tile(0, 0), 0) == (state.drawn_tile, state.drawn)
    assert tiles("[0|0] [1|1] [1|2] [2|5]") == state.hand(1)
    return state


def test_a_drawn_tile_that_fits_must_be_placed_and_no_other() -> None:
    """DRAW-2: after drawing [0|0], placing [1|1] or the earlier drawn [1|2] instead is refused; only [0|0] is legal."""
    state = _drew_zero_zero()
    expected = "DRAW-2: seat 1 drew [0|0] and must place it, not [1|1]"
    assert expected == refused_text(state, Place(1, Tile(1, 1), pt(Tile(0, 3), LOW)), "DRAW-2")
    expected = "DRAW-2: seat 1 drew [0|0] and must place it, not [1|2]"
    assert expected == refused_text(state, Place(1, Tile(1, 2), pt(Tile(0, 4), LOW)), "DRAW-2")
    assert (Place(1, Tile(0, 0), pt(Tile(0, 3), LOW)), Place(1, Tile(0, 0), pt(Tile(0, 4), LOW))) == legal_moves(state)


def test_no_further_draw_after_a_fitting_tile() -> None:
    """DRAW-2: once a drawn tile fits, drawing again is refused though the boneyard is not empty."""
    state = _drew_zero_zero()
    assert (Tile(5, 6),) == state.boneyard
    expected = "DRAW-2: seat 1 drew [0|0], which fits, and must place it now"
    assert expected == refused_text(state, Draw(1), "DRAW-2")


def test_the_drawn_tile_goes_to_any_point_where_it_fits() -> None:
    """DRAW-2: [0|0] may go on either open 0; the turn then passes and the drawn mark clears."""
    state = _drew_zero_zero()
    for end in (Tile(0, 3), Tile(0, 4)):
        after = apply(state, Place(1, Tile(0, 0), pt(end, LOW)))
        assert (0, None, -1) == (after.to_move, after.drawn_tile, after.drawn)
        assert tiles("[1|1] [1|2] [2|5]") == after.hand(1)
        assert (Tile(5, 6),) == after.boneyard


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


def test_drawing_from_an_empty_boneyard_is_refused() -> None:
    """DRAW-2: with the boneyard empty there is nothing to draw, and the error says so; seat 1 must pass instead."""
    state = make_state(
        2,
        [tiles("[0|6]"), tiles("[0|1] [1|2]")],
        layout=layout_of((Tile(5, 6), None)),
        to_move=1,
    )
    assert (Pass(1),) == legal_moves(state)
    assert "DRAW-2: the boneyard is empty; nothing can be drawn" == refused_text(state, Draw(1), "DRAW-2")


# --- PASS-1 ---


def _must_pass() -> State:
    """Three players, [5|6] led, empty boneyard: seat 1 holds no 5 or 6, seat 2 holds [2|5]."""
    return make_state(
        3,
        [tiles("[0|0]"), tiles("[0|1] [1|2]"), tiles("[2|5] [3|3]")],
        layout=layout_of((Tile(5, 6), None)),
        to_move=1,
    )


def test_pass_with_no_placement_and_an_empty_boneyard() -> None:
    """PASS-1, TURN-1: seat 1 cannot place and cannot draw, so it passes; only the turn moves on."""
    state = _must_pass()
    assert (Pass(1),) == legal_moves(state)
    after = apply(state, Pass(1))
    assert attrs.evolve(state, to_move=2) == after
    assert Phase.PLAYING == after.phase
    assert {Place(2, Tile(2, 5), pt(Tile(5, 6), LOW))} == set(legal_moves(after))


def test_pass_refused_to_a_player_who_can_place() -> None:
    """PASS-1: with the boneyard empty, seat 2 holding [2|5] must place, not pass; the error says why."""
    state = attrs.evolve(_must_pass(), to_move=2)
    expected = "PASS-1: seat 2 can place a tile; a pass is only for a player who cannot"
    assert expected == refused_text(state, Pass(2), "PASS-1")


def test_pass_refused_while_the_boneyard_has_tiles() -> None:
    """PASS-1: seat 1 cannot place but the boneyard holds 2 tiles, so it must draw, not pass; the error counts them."""
    state = attrs.evolve(_must_pass(), boneyard_ids=(Tile(4, 4).index, Tile(0, 3).index))
    assert (Draw(1),) == legal_moves(state)
    assert "PASS-1: the boneyard has 2 tiles; draw before passing" == refused_text(state, Pass(1), "PASS-1")


def test_pass_refused_after_drawing_a_fitting_tile() -> None:
    """PASS-1, DRAW-2: a player holding a drawn tile that fits has a placement and may not pass; the error names it."""
    expected = "PASS-1: seat 1 drew [0|0], which fits, and must place it"
    assert expected == refused_text(_drew_zero_zero(), Pass(1), "PASS-1")


def test_last_tile_drawn_does_not_fit_then_pass() -> None:
    """PASS-1, DRAW-2: seat 1 draws the last tile, [0|1], which does not fit; seat 2 can place, so seat 1 passes."""
    state = make_state(
        3,
        [tiles("[0|0]"), tiles("[1|2]"), tiles("[2|5] [3|3]")],
        layout=layout_of((Tile(5, 6), None)),
        boneyard=tiles("[0|1]"),
        to_move=1,
    )
    state = apply(state, Draw(1))
    assert (Phase.PLAYING, 1, ()) == (state.phase, state.to_move, state.boneyard)
    assert (Pass(1),) == legal_moves(state)
    state = apply(state, Pass(1))
    assert 2 == state.to_move


# --- BLOCK-1 ---


def test_round_blocks_at_once_after_a_placement() -> None:
    """BLOCK-1, SETTLE-1: no finisher; hands of 3 and 9 pips cost 5 and 10; no pass is needed to find it."""
    state = about_to_block()
    assert {Place(0, Tile(5, 6), pt(Tile(0, 5), HIGH))} == set(legal_moves(state))
    ended = apply(state, Place(0, Tile(5, 6), pt(Tile(0, 5), HIGH)))
    assert Phase.ROUND_OVER == ended.phase
    assert ended.last_round is not None
    assert ended.last_round.finisher is None
    assert ended.last_round.blocked
    assert (tiles("[1|2]"), tiles("[1|3] [2|3]")) == ended.last_round.hands
    assert (3, 9) == (pips(ended.hand(0)), pips(ended.hand(1)))
    assert (3, 9) == ended.last_round.settlement.hand_pips
    assert (5, 10) == ended.last_round.settlement.deductions
    assert (20 - 5, 30 - 10) == ended.scores
    assert () == legal_moves(ended)


def test_round_blocks_at_once_after_a_draw() -> None:
    """BLOCK-1, DRAW-2, SETTLE-4: the last tile drawn, [4|5], fits nowhere and goes to the hand; scores go negative."""
    # Seat 1 draws the last tile; nobody can place on [0|6] after it.
    state = make_state(
        2,
        [tiles("[2|3]"), tiles("[1|2]")],
        layout=layout_of((Tile(0, 6), None)),
        boneyard=tiles("[4|5]"),
        to_move=1,
    )
    ended = apply(state, Draw(1))
    assert Phase.ROUND_OVER == ended.phase
    assert ended.last_round is not None
    assert ended.last_round.finisher is None
    assert (tiles("[2|3]"), tiles("[1|2] [4|5]")) == ended.last_round.hands
    assert tiles("[1|2] [4|5]") == ended.hand(1)
    assert () == ended.boneyard
    assert sorted(all_tiles_of(state)) == sorted(all_tiles_of(ended))
    # seat 0: 5 pips -> 5; seat 1: 3 + 9 = 12 pips -> 10
    assert (-5, -10) == ended.scores


def test_no_block_while_the_boneyard_has_tiles() -> None:
    """BLOCK-1: nobody holds a 0 or a 6, but the boneyard is not empty, so seat 1 draws."""
    state = attrs.evolve(about_to_block(), boneyard_ids=(Tile(4, 4).index,))
    after = apply(state, Place(0, Tile(5, 6), pt(Tile(0, 5), HIGH)))
    assert Phase.PLAYING == after.phase
    assert (Draw(1),) == legal_moves(after)


def test_no_block_while_some_seat_can_place() -> None:
    """BLOCK-1: ends 0 and 6 with an empty boneyard, but seat 1 holds [0|3], or seat 0 itself still holds [6|6]."""
    state = make_state(
        2,
        [tiles("[1|2] [5|6]"), tiles("[0|3] [2|3]")],
        layout=layout_of((Tile(0, 5), None)),
    )
    after = apply(state, Place(0, Tile(5, 6), pt(Tile(0, 5), HIGH)))
    assert (Phase.PLAYING, 1) == (after.phase, after.to_move)
    assert {Place(1, Tile(0, 3), pt(Tile(0, 5), LOW))} == set(legal_moves(after))
    # Only the seat that just placed can go on: seat 1 passes.
    state = make_state(2, [tiles("[5|6] [6|6]"), tiles("[1|3] [2|3]")], layout=layout_of((Tile(0, 5), None)))
    after = apply(state, Place(0, Tile(5, 6), pt(Tile(0, 5), HIGH)))
    assert (Phase.PLAYING, 1, (Pass(1),)) == (after.phase, after.to_move, legal_moves(after))


def test_pass_then_the_next_placement_blocks() -> None:
    """BLOCK-1, PASS-1: seat 0 passes, seat 1 places [1|5] on the 5; nobody holds a 0 or a 1: blocked."""
    state = make_state(
        2,
        [tiles("[2|2] [3|4]"), tiles("[1|5] [3|3]")],
        layout=layout_of((Tile(0, 5), None)),
        scores=(10, 10),
    )
    state = apply(state, Pass(0))
    assert Phase.PLAYING == state.phase
    ended = apply(state, Place(1, Tile(1, 5), pt(Tile(0, 5), HIGH)))
    assert Phase.ROUND_OVER == ended.phase
    assert ended.last_round is not None
    assert ended.last_round.blocked
    # seat 0: 4 + 7 = 11 pips -> 10; seat 1: 6 pips -> 5; [0|5] then [1|5] counts 0 + 1, no points.
    assert (0, 5) == ended.scores
