"""Drawing (DRAW-*), passing (PASS-*) and blocked rounds (BLOCK-*)."""

from __future__ import annotations

import attrs

from sniff_rules import (
    DOUBLE_SIX,
    Draw,
    IllegalMoveError,
    Layout,
    Pass,
    Phase,
    Place,
    Port,
    State,
    Tile,
    apply,
    legal_moves,
    next_round,
)
from support import (
    IDENTITY_SHUFFLE,
    NON_SIX,
    ScriptedSource,
    all_tiles_of,
    assert_refused,
    layout_of,
    lot_script,
    make_state,
    pips,
    pt,
    shuffle_bounds,
    tiles,
)

A, B = Port.CHAIN_A, Port.CHAIN_B
LOW, HIGH = Port.LOW, Port.HIGH


# --- DRAW-1 ---


def test_a_player_who_can_place_may_not_draw() -> None:
    """DRAW-1: seat 1 holds [4|5], which fits the 4 of [1|4]; drawing instead is refused."""
    state = make_state(
        2,
        [tiles("[2|2]"), tiles("[0|0] [4|5] [3|3]")],
        layout=layout_of((Tile(1, 4), None)),
        boneyard=tiles("[1|2] [6|6]"),
        to_move=1,
    )
    assert_refused(state, Draw(1), IllegalMoveError, "DRAW-1")
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
    boneyard = tuple(tile for tile in NON_SIX if tile not in seat0 + seat1) + (Tile(5, 6),)
    assert 14 == len(boneyard)
    return make_state(
        2, [seat0, seat1], layout=layout_of((Tile(6, 6), None)), boneyard=boneyard, to_move=1, opener=0
    )


def test_draw_one_at_a_time_until_a_tile_fits() -> None:
    """DRAW-2, TURN-1: 13 draws that do not fit each keep the turn with seat 1; the 14th, [5|6], fits."""
    state = _long_draw_state()
    boneyard = state.boneyard
    assert sorted(DOUBLE_SIX) == sorted(all_tiles_of(state))
    for count in range(13):
        assert (Draw(1),) == legal_moves(state)
        before = state
        state = apply(state, Draw(1))
        assert 1 == state.to_move
        assert Phase.PLAYING == state.phase
        assert state.drawn_tile is None
        assert boneyard[count] in state.hand(1)
        assert boneyard[count + 1 :] == state.boneyard
        assert 7 + count + 1 == len(state.hand(1))
        assert before.hand(0) == state.hand(0)
        assert before.scores == state.scores
        assert before.layout == state.layout
        assert sorted(DOUBLE_SIX) == sorted(all_tiles_of(state))
    state = apply(state, Draw(1))
    assert Tile(5, 6) == state.drawn_tile
    assert () == state.boneyard
    assert 1 == state.to_move
    expected = {Place(1, Tile(5, 6), pt(Tile(6, 6), A)), Place(1, Tile(5, 6), pt(Tile(6, 6), B))}
    assert expected == set(legal_moves(state))
    state = apply(state, Place(1, Tile(5, 6), pt(Tile(6, 6), B)))
    assert 0 == state.to_move
    assert state.drawn_tile is None
    assert 20 == len(state.hand(1))
    assert set(boneyard[:13]) <= set(state.hand(1))
    assert sorted(DOUBLE_SIX) == sorted(all_tiles_of(state))


def _drew_a_fitting_tile() -> State:
    """[6|6] led; seat 1 held only [0|1], drew [1|2] (no fit) then [3|6] (fits); [0|0] is left to draw."""
    state = make_state(
        2,
        [tiles("[0|6] [4|4]"), tiles("[0|1]")],
        layout=layout_of((Tile(6, 6), None)),
        boneyard=tiles("[1|2] [3|6] [0|0]"),
        to_move=1,
    )
    state = apply(state, Draw(1))
    assert state.drawn_tile is None
    state = apply(state, Draw(1))
    assert Tile(3, 6) == state.drawn_tile
    assert tiles("[0|1] [1|2] [3|6]") == state.hand(1)
    return state


def test_a_drawn_tile_that_fits_must_be_placed_and_no_other() -> None:
    """DRAW-2: after drawing [3|6], placing [0|1] or the earlier drawn [1|2] instead is refused."""
    state = _drew_a_fitting_tile()
    assert_refused(state, Place(1, Tile(0, 1), pt(Tile(6, 6), A)), IllegalMoveError, "DRAW-2")
    assert_refused(state, Place(1, Tile(1, 2), pt(Tile(6, 6), B)), IllegalMoveError, "DRAW-2")
    assert {Place(1, Tile(3, 6), pt(Tile(6, 6), A)), Place(1, Tile(3, 6), pt(Tile(6, 6), B))} == set(
        legal_moves(state)
    )


def test_no_further_draw_after_a_fitting_tile() -> None:
    """DRAW-2: once a drawn tile fits, drawing again is refused though the boneyard is not empty."""
    state = _drew_a_fitting_tile()
    assert (Tile(0, 0),) == state.boneyard
    assert_refused(state, Draw(1), IllegalMoveError, "DRAW-2")


def test_the_drawn_tile_goes_to_any_point_where_it_fits() -> None:
    """DRAW-2: [3|6] may go on either long side of [6|6]; the turn then passes and the drawn mark clears."""
    state = _drew_a_fitting_tile()
    for side in (A, B):
        after = apply(state, Place(1, Tile(3, 6), pt(Tile(6, 6), side)))
        assert 0 == after.to_move
        assert after.drawn_tile is None
        assert tiles("[0|1] [1|2]") == after.hand(1)
        assert (Tile(0, 0),) == after.boneyard


def test_drawing_from_an_empty_boneyard_is_refused() -> None:
    """DRAW-2: with the boneyard empty there is nothing to draw; seat 1 must pass instead."""
    state = make_state(
        2,
        [tiles("[0|6]"), tiles("[0|1] [1|2]")],
        layout=layout_of((Tile(5, 6), None)),
        to_move=1,
    )
    assert (Pass(1),) == legal_moves(state)
    assert_refused(state, Draw(1), IllegalMoveError, "DRAW-2")


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
    """PASS-1: with the boneyard empty, seat 2 holding [2|5] must place, not pass."""
    state = attrs.evolve(_must_pass(), to_move=2)
    assert_refused(state, Pass(2), IllegalMoveError, "PASS-1")


def test_pass_refused_while_the_boneyard_has_tiles() -> None:
    """PASS-1: seat 1 cannot place but the boneyard holds [4|4], so it must draw, not pass."""
    state = make_state(
        3,
        [tiles("[0|0]"), tiles("[0|1] [1|2]"), tiles("[2|5] [3|3]")],
        layout=layout_of((Tile(5, 6), None)),
        boneyard=tiles("[4|4]"),
        to_move=1,
    )
    assert (Draw(1),) == legal_moves(state)
    assert_refused(state, Pass(1), IllegalMoveError, "PASS-1")


def test_pass_refused_after_drawing_a_fitting_tile() -> None:
    """PASS-1: a player holding a drawn tile that fits has a placement and may not pass."""
    assert_refused(_drew_a_fitting_tile(), Pass(1), IllegalMoveError, "PASS-1")


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


def _about_to_block() -> State:
    """Two players, [0|5] led, empty boneyard: seat 0 can place [5|6], leaving ends 0 and 6 nobody holds."""
    return make_state(
        2,
        [tiles("[1|2] [5|6]"), tiles("[1|3] [2|3]")],
        layout=layout_of((Tile(0, 5), None)),
        scores=(20, 30),
    )


def test_round_blocks_at_once_after_a_placement() -> None:
    """BLOCK-1, SETTLE-1: no finisher; hands of 3 and 9 pips cost 5 and 10; no pass is needed to find it."""
    state = _about_to_block()
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


def _last_draw_blocks() -> State:
    """Seat 1 to draw the last tile, [4|5], which fits nowhere; nobody can place after it."""
    return make_state(
        2,
        [tiles("[2|3]"), tiles("[1|2]")],
        layout=layout_of((Tile(0, 6), None)),
        boneyard=tiles("[4|5]"),
        to_move=1,
    )


def test_round_blocks_at_once_after_a_draw() -> None:
    """BLOCK-1, SETTLE-4: the last tile drawn, [4|5], fits nowhere and nobody can place; both scores go negative."""
    state = _last_draw_blocks()
    ended = apply(state, Draw(1))
    assert Phase.ROUND_OVER == ended.phase
    assert ended.last_round is not None
    assert ended.last_round.finisher is None
    assert (tiles("[2|3]"), tiles("[1|2] [4|5]")) == ended.last_round.hands
    # seat 0: 5 pips -> 5; seat 1: 3 + 9 = 12 pips -> 10
    assert (-5, -10) == ended.scores


def test_a_draw_that_blocks_moves_the_tile_out_of_the_boneyard() -> None:
    """BLOCK-1, DRAW-2: the blocking draw takes [4|5] into the hand; it is no longer in the boneyard."""
    state = _last_draw_blocks()
    ended = apply(state, Draw(1))
    assert Phase.ROUND_OVER == ended.phase
    assert tiles("[1|2] [4|5]") == ended.hand(1)
    assert () == ended.boneyard
    assert sorted(all_tiles_of(state)) == sorted(all_tiles_of(ended))


def test_no_block_while_the_boneyard_has_tiles() -> None:
    """BLOCK-1: nobody holds a 0 or a 6, but the boneyard is not empty, so seat 1 draws."""
    state = attrs.evolve(_about_to_block(), boneyard_ids=(Tile(4, 4).index,))
    after = apply(state, Place(0, Tile(5, 6), pt(Tile(0, 5), HIGH)))
    assert Phase.PLAYING == after.phase
    assert (Draw(1),) == legal_moves(after)


def test_no_block_while_some_seat_can_place() -> None:
    """BLOCK-1: ends 0 and 6 with an empty boneyard, but seat 1 holds [0|3]: play goes on."""
    state = make_state(
        2,
        [tiles("[1|2] [5|6]"), tiles("[0|3] [2|3]")],
        layout=layout_of((Tile(0, 5), None)),
    )
    after = apply(state, Place(0, Tile(5, 6), pt(Tile(0, 5), HIGH)))
    assert (Phase.PLAYING, 1) == (after.phase, after.to_move)
    assert {Place(1, Tile(0, 3), pt(Tile(0, 5), LOW))} == set(legal_moves(after))


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
    assert ended.last_round is not None and ended.last_round.blocked
    # seat 0: 4 + 7 = 11 pips -> 10; seat 1: 6 pips -> 5; [0|5] then [1|5] counts 0 + 1, no points.
    assert (0, 5) == ended.scores


def _blocked_four_players(source: ScriptedSource) -> State:
    """Four players: seat 2 places [5|6] on [0|5]; nobody holds a 0 or a 6 and the boneyard is empty."""
    state = make_state(
        4,
        [tiles("[2|3]"), tiles("[1|3]"), tiles("[5|6] [1|1]"), tiles("[1|2]")],
        layout=layout_of((Tile(0, 5), None)),
        scores=(100, 100),
        to_move=2,
        opener=1,
        source=source,
    )
    return apply(state, Place(2, Tile(5, 6), pt(Tile(0, 5), HIGH)))


def test_blocked_round_settles_every_hand_and_the_next_opener_comes_from_a_new_lot() -> None:
    """BLOCK-1, OPEN-2, OPEN-1: after a block all four seats draw lots; ties redraw among the tied seats only."""
    script = lot_script(6, 3, 6, 6) + lot_script(2, 5, 5) + lot_script(1, 4) + IDENTITY_SHUFFLE
    ended = _blocked_four_players(ScriptedSource(script))
    assert Phase.ROUND_OVER == ended.phase
    assert ended.last_round is not None
    assert ended.last_round.finisher is None
    # pips 5, 4, 2, 3 round to 5, 5, 0, 5; side 0 = seats 0 + 2, side 1 = seats 1 + 3.
    assert (5, 5, 0, 5) == ended.last_round.settlement.deductions
    assert (100 - 5, 100 - 10) == ended.scores
    after = next_round(ended)
    assert (Phase.PLAYING, 2) == (after.phase, after.round_number)
    assert 3 == after.opener
    assert 3 == after.to_move
    expected_lot = (((0, 6), (1, 3), (2, 6), (3, 6)), ((0, 2), (2, 5), (3, 5)), ((2, 1), (3, 4)))
    assert expected_lot == after.lot
    assert isinstance(after.source, ScriptedSource)
    assert (6,) * 9 + shuffle_bounds() == after.source.bounds
    assert DOUBLE_SIX[0:5] == after.hand(0)
    assert Layout.EMPTY == after.layout
    assert (95, 90) == after.scores


def test_blocked_round_lot_may_pick_any_seat() -> None:
    """BLOCK-1, OPEN-2: the new lot is among all seats: here seat 0, who did not place last, wins at once."""
    script = lot_script(5, 1, 2, 4) + IDENTITY_SHUFFLE
    after = next_round(_blocked_four_players(ScriptedSource(script)))
    assert 0 == after.opener
    assert (((0, 5), (1, 1), (2, 2), (3, 4)),) == after.lot
