"""Section 2 of specs/rules.md, the opener (OPEN-*): the lot, who opens the next round, and the lead."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sniff_rules.errors import IllegalMoveError, InvalidStateError
from sniff_rules.layout import Layout, Placement, Port
from sniff_rules.moves import Place, apply, legal_moves
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, Tile
from support import (
    IDENTITY_SHUFFLE,
    ScriptedSource,
    assert_refused,
    assert_refused_call,
    blocked,
    layout_of,
    lot_script,
    make_state,
    pt,
    refusal,
    seat_1_played_out,
    shuffle_bounds,
    tiles,
)

# --- OPEN-1 ---


def test_lot_picks_the_highest_and_redraws_ties_among_the_tied_only() -> None:
    """OPEN-1: faces 3, 6, 6 tie seats 1 and 2; only they redraw (5 against 2) and seat 1 opens."""
    script = lot_script(3, 6, 6) + lot_script(5, 2) + IDENTITY_SHUFFLE
    state = new_match(Rules.standard(3), source=ScriptedSource(script))
    assert 1 == state.opener
    assert 1 == state.to_move
    assert (((0, 3), (1, 6), (2, 6)), ((1, 5), (2, 2))) == state.lot
    assert isinstance(state.source, ScriptedSource)
    assert (6,) * 5 + shuffle_bounds() == state.source.bounds
    assert () == state.source.values


def test_lot_with_a_three_way_then_two_way_tie() -> None:
    """OPEN-1: four seats draw 6, 3, 6, 6; then 0, 2, 3 draw 2, 5, 5; then 2, 3 draw 1, 4: seat 3 opens."""
    script = lot_script(6, 3, 6, 6) + lot_script(2, 5, 5) + lot_script(1, 4) + IDENTITY_SHUFFLE
    state = new_match(Rules.standard(4), source=ScriptedSource(script))
    assert 3 == state.opener
    expected_lot = (((0, 6), (1, 3), (2, 6), (3, 6)), ((0, 2), (2, 5), (3, 5)), ((2, 1), (3, 4)))
    assert expected_lot == state.lot


def test_lot_is_drawn_before_the_shuffle() -> None:
    """OPEN-1: with the lot's values first, the identity shuffle that follows deals the tiles in index order."""
    script = lot_script(2, 5) + IDENTITY_SHUFFLE
    state = new_match(Rules.standard(2), source=ScriptedSource(script))
    assert 1 == state.opener
    assert DOUBLE_SIX[0:7] == state.hand(0)
    assert DOUBLE_SIX[7:14] == state.hand(1)
    assert DOUBLE_SIX[14:] == state.boneyard


def test_tiles_held_give_no_precedence_in_the_lot() -> None:
    """OPEN-1: seat 0 wins the lot and opens though seat 1 holds [1|1] and [2|2] and seat 0 only [0|0]."""
    script = lot_script(6, 1) + IDENTITY_SHUFFLE
    state = new_match(Rules.standard(2), source=ScriptedSource(script))
    assert Tile(2, 2) in state.hand(1)
    assert 0 == state.opener
    assert all(move.seat == 0 for move in legal_moves(state))


def test_frontend_may_name_the_first_opener() -> None:
    """OPEN-1: a named opener replaces the lot; no lot value is drawn before the shuffle."""
    state = new_match(Rules.standard(4), source=ScriptedSource(IDENTITY_SHUFFLE), opener=2)
    assert (2, 2, ()) == (state.opener, state.to_move, state.lot)
    assert isinstance(state.source, ScriptedSource)
    assert shuffle_bounds() == state.source.bounds


@pytest.mark.parametrize("opener", [-1, 4, 9])
def test_named_opener_must_be_a_seat(opener: int) -> None:
    """OPEN-1, SETUP-2: a named opener is one of the seats 0..3, with a seed or with an order; the error names it."""
    expected = f"SETUP-2: seats run 0..3, got {opener}"
    rules = Rules.standard(4)
    assert expected == refusal(InvalidStateError, "SETUP-2", lambda: new_match(rules, seed=1, opener=opener))
    assert expected == refusal(InvalidStateError, "SETUP-2", lambda: new_match(rules, order=DOUBLE_SIX, opener=opener))


def test_no_lot_without_a_source() -> None:
    """OPEN-1: with neither a seed, a source nor a named opener there is no lot to draw; the error says what to give."""
    expected = "OPEN-1: the opener is drawn by lot: give a seed or source, or name the opener"
    assert expected == refusal(InvalidStateError, "OPEN-1", lambda: new_match(Rules.standard(2), order=DOUBLE_SIX))


# --- OPEN-2 ---


def test_finisher_opens_the_next_round_without_a_lot() -> None:
    """OPEN-2: seat 1 played out, so seat 1 opens round 2; only the shuffle is drawn."""
    ended = seat_1_played_out(ScriptedSource(IDENTITY_SHUFFLE))
    after = next_round(ended)
    assert (2, 1, 1, ()) == (after.round_number, after.opener, after.to_move, after.lot)
    assert Phase.PLAYING == after.phase
    assert isinstance(after.source, ScriptedSource)
    assert shuffle_bounds() == after.source.bounds
    assert ended.scores == after.scores
    assert Layout.EMPTY == after.layout
    assert DOUBLE_SIX[0:6] == after.hand(0)


@pytest.mark.parametrize("other", [0, 2])
def test_naming_another_opener_after_a_played_out_round_is_refused(other: int) -> None:
    """OPEN-2: the finisher opens; a frontend cannot name another seat, and the error names both seats."""
    ended = seat_1_played_out()
    error = assert_refused_call(ended, lambda s: next_round(s, opener=other), InvalidStateError, "OPEN-2")
    assert f"OPEN-2: seat 1 played out and opens the next round, not seat {other}" == str(error)


@pytest.mark.parametrize("ended", [seat_1_played_out, blocked], ids=["played-out", "blocked"])
@pytest.mark.parametrize("opener", [-1, 3, 9, True])
def test_a_next_round_opener_must_be_a_seat(ended: Callable[[], State], opener: int) -> None:
    """OPEN-2, SETUP-2: a seat the table lacks is SETUP-2 before OPEN-2 asks who may open; the error names it."""
    state = ended()
    error = assert_refused_call(state, lambda s: next_round(s, opener=opener), InvalidStateError, "SETUP-2")
    assert f"SETUP-2: seats run 0..{state.rules.players - 1}, got {opener!r}" == str(error)


def test_naming_the_finisher_is_accepted() -> None:
    """OPEN-2: naming the finisher as opener agrees with the rule and is accepted."""
    assert 1 == next_round(seat_1_played_out(), opener=1).opener


def test_a_frontend_may_name_the_opener_after_a_block() -> None:
    """OPEN-2: after a blocked round the named seat 1 opens; no lot is drawn (the state has no source)."""
    ended = blocked()
    assert ended.source is None
    after = next_round(ended, opener=1, order=DOUBLE_SIX)
    assert (2, 1, 1, ()) == (after.round_number, after.opener, after.to_move, after.lot)


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
    return apply(state, Place(2, Tile(5, 6), pt(Tile(0, 5), Port.HIGH)))


def test_blocked_round_settles_every_hand_and_the_next_opener_comes_from_a_new_lot() -> None:
    """OPEN-2, OPEN-1, BLOCK-1: after a block all four seats draw lots; ties redraw among the tied seats only."""
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
    """OPEN-2, BLOCK-1: the new lot is among all seats: here seat 0, who did not place last, wins at once."""
    script = lot_script(5, 1, 2, 4) + IDENTITY_SHUFFLE
    after = next_round(_blocked_four_players(ScriptedSource(script)))
    assert 0 == after.opener
    assert (((0, 5), (1, 1), (2, 2), (3, 4)),) == after.lot


# --- OPEN-3 ---


def test_opener_may_lead_any_tile_of_the_hand() -> None:
    """OPEN-3: every tile of the opener's hand is a legal lead, and only those."""
    hand = tiles("[0|0] [1|4] [2|6] [3|3] [5|6]")
    others = [tiles("[0|1]"), tiles("[0|2]"), hand, tiles("[0|3]")]
    state = make_state(4, others, boneyard=tiles("[1|1]"), to_move=2)
    assert {Place(2, tile) for tile in hand} == set(legal_moves(state))
    for tile in hand:
        led = apply(state, Place(2, tile))
        assert (Placement(tile, None),) == led.layout.placements
        assert tile not in led.hand(2)
        assert 3 == led.to_move


@pytest.mark.parametrize(
    ("lead", "points"),
    [("[1|4]", 5), ("[2|3]", 5), ("[5|5]", 10), ("[4|6]", 10), ("[0|5]", 5), ("[0|1]", 0), ("[3|3]", 0)],
)
def test_the_lead_scores_like_any_placement(lead: str, points: int) -> None:
    """OPEN-3: the lead scores its end count when a multiple of 5 ([5|5] counts 10, [3|3] counts 6)."""
    tile = Tile.parse(lead)
    state = make_state(3, [(tile, Tile(6, 6)), tiles("[1|1]"), tiles("[2|2]")], boneyard=tiles("[0|0]"))
    assert (points, 0, 0) == apply(state, Place(0, tile)).scores


def test_a_lead_with_a_target_is_refused() -> None:
    """OPEN-3: on an empty table a tile is led, not attached to a point; apply and Layout.place both say so."""
    state = make_state(2, [tiles("[1|4] [4|4]"), tiles("[2|3]")], boneyard=tiles("[5|6]"))
    attached = Place(0, Tile(1, 4), pt(Tile(4, 4), Port.CHAIN_A))
    error = assert_refused(state, attached, IllegalMoveError, "OPEN-3")
    assert "OPEN-3: the layout is empty: [1|4] must be led, not attached" == str(error)
    expected = "OPEN-3: the layout is empty: [4|6] must be led, not attached"
    target = pt(Tile(1, 4), Port.HIGH)
    assert expected == refusal(IllegalMoveError, "OPEN-3", lambda: Layout.EMPTY.place(Tile(4, 6), target))


def test_only_the_first_tile_is_a_lead() -> None:
    """OPEN-3: once a tile is down, another tile without a target is refused by apply and by Layout.place."""
    state = make_state(
        2,
        [tiles("[0|0]"), tiles("[4|6] [2|3]")],
        layout=layout_of((Tile(1, 4), None)),
        boneyard=tiles("[5|6]"),
        to_move=1,
    )
    expected = "OPEN-3: only the first tile is a lead; attach [4|6] to an open point"
    assert expected == str(assert_refused(state, Place(1, Tile(4, 6)), IllegalMoveError, "OPEN-3"))
    assert expected == refusal(IllegalMoveError, "OPEN-3", lambda: state.layout.place(Tile(4, 6), None))
