"""Section 3 of specs/rules.md, turns (TURN-*): clockwise order, what a move is, and who may move."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, cast

import pytest

from sniff_rules.errors import IllegalMoveError, InvalidMoveError
from sniff_rules.layout import Port
from sniff_rules.moves import Draw, Move, Pass, Place, apply, legal_moves
from sniff_rules.rules import Rules
from sniff_rules.state import State, new_match
from sniff_rules.tiles import DOUBLE_SIX, Tile
from support import assert_refused, deal_order, layout_of, make_state, play, pt, refusal, tiles

# --- TURN-1 ---


def test_turns_pass_clockwise_and_wrap_to_seat_0() -> None:
    """TURN-1: seat 3 leads, then 0, 1, 2, 3, 0 each place in turn."""
    hands = [DOUBLE_SIX[0:5], DOUBLE_SIX[5:10], DOUBLE_SIX[10:15], DOUBLE_SIX[15:20]]
    state = new_match(Rules.standard(4), order=deal_order(hands), opener=3)
    assert tiles("[2|4] [2|5] [2|6] [3|3] [3|4]") == state.hand(3)
    seen = [state.to_move]
    moves = [
        Place(3, Tile(2, 4)),
        Place(0, Tile(0, 2), pt(Tile(2, 4), Port.LOW)),
        Place(1, Tile(0, 5), pt(Tile(0, 2), Port.LOW)),
        Place(2, Tile(1, 5), pt(Tile(0, 5), Port.HIGH)),
        Place(3, Tile(3, 4), pt(Tile(2, 4), Port.HIGH)),
    ]
    for move in moves:
        state = apply(state, move)
        seen.append(state.to_move)
    assert [3, 0, 1, 2, 3, 0] == seen


def test_two_players_alternate() -> None:
    """TURN-1: with two players the turn goes 0, 1, 0."""
    state = make_state(
        2,
        [tiles("[1|4] [4|5]"), tiles("[1|2] [0|6]")],
        boneyard=tiles("[3|3]"),
    )
    state = apply(state, Place(0, Tile(1, 4)))
    assert 1 == state.to_move
    state = apply(state, Place(1, Tile(1, 2), pt(Tile(1, 4), Port.LOW)))
    assert 0 == state.to_move


@pytest.mark.parametrize("not_a_move", ["0:[1|4]", "draw", None, 3, ("place", 0)])
def test_anything_but_a_placement_draw_or_pass_is_refused(not_a_move: object) -> None:
    """TURN-1: a move is a placement, a draw or a pass, and nothing else; the error quotes a scalar
    given, and names anything else by its type (it might hold a state)."""
    state = make_state(2, [tiles("[1|4]"), tiles("[2|3]")], boneyard=tiles("[5|6]"))
    error = assert_refused(state, cast(Any, not_a_move), InvalidMoveError, "TURN-1")
    quoted = "a tuple of 2" if type(not_a_move) is tuple else repr(not_a_move)
    assert f"TURN-1: a move is a Place, Draw or Pass, got {quoted}" == str(error)


# --- TURN-2 ---


def _turn_state() -> State:
    """Three players, [3|5] led, seat 2 to move and able to place; seat 0 must draw if it were its turn."""
    return make_state(
        3,
        [tiles("[0|1]"), tiles("[3|4] [1|1]"), tiles("[5|6] [2|2]")],
        layout=layout_of((Tile(3, 5), None)),
        boneyard=tiles("[0|0] [6|6]"),
        to_move=2,
    )


def test_a_seat_the_table_does_not_have_cites_setup_2() -> None:
    """SETUP-2, TURN-2: seat 3 at a table of three is refused as a seat the table does not have, not as out of turn."""
    move = Place(3, Tile(3, 4), pt(Tile(3, 5), Port.LOW))
    error = assert_refused(_turn_state(), move, IllegalMoveError, "SETUP-2")
    assert "SETUP-2: seat 3 moved, but the table has seats 0..2" == str(error)


@pytest.mark.parametrize("seat", [0, 1])
def test_only_the_seat_to_move_may_place(seat: int) -> None:
    """TURN-2: a placement naming any seat but the one to move is refused, even seat 1 with its own fitting tile."""
    move = Place(seat, Tile(3, 4), pt(Tile(3, 5), Port.LOW))
    error = assert_refused(_turn_state(), move, IllegalMoveError, "TURN-2")
    assert f"TURN-2: seat {seat} moved, but it is seat 2's turn" == str(error)


def test_only_the_seat_to_move_may_draw_or_pass() -> None:
    """TURN-2: seat 0 cannot place, but it is not its turn to draw or pass; the error names both seats."""
    state = _turn_state()
    expected = "TURN-2: seat 0 moved, but it is seat 2's turn"
    assert expected == str(assert_refused(state, Draw(0), IllegalMoveError, "TURN-2"))
    assert expected == str(assert_refused(state, Pass(0), IllegalMoveError, "TURN-2"))


def test_a_move_names_its_seat_as_an_int() -> None:
    """TURN-2: a move's seat is an int; "1" is refused and quoted by a Place, a Draw and a Pass alike."""
    kinds: tuple[Callable[[int], Move], ...] = (lambda s: Place(s, Tile(1, 4)), Draw, Pass)
    for kind in kinds:
        for seat in (cast(int, "1"), 7, -1, cast(int, True)):
            expected = f"TURN-2: a move names its seat as an int 0..3, got {seat!r}"
            assert expected == refusal(InvalidMoveError, "TURN-2", partial(kind, seat))


def test_legal_moves_name_the_seat_to_move() -> None:
    """TURN-2: every legal move names the seat to move, and applying one moves the turn on."""
    state = _turn_state()
    moves = legal_moves(state)
    assert (Place(2, Tile(5, 6), pt(Tile(3, 5), Port.HIGH)),) == moves
    assert 0 == play(state, *moves).to_move
