"""Section 4 of specs/rules.md, placing tiles (PLACE-*): matching halves, doubles crosswise, and
only a tile from the own hand (with SETUP-1: a tile on the table is not placed again)."""

from __future__ import annotations

import attrs
import pytest

from sniff_rules.errors import IllegalMoveError, InvalidMoveError
from sniff_rules.layout import AttachmentPoint, Connection, Layout, Placement, Port, placement_refusal
from sniff_rules.moves import Place, apply, legal_moves
from sniff_rules.scoring import Settlement
from sniff_rules.state import RoundResult
from sniff_rules.tiles import Tile
from support import assert_refused, layout_of, make_state, mask, open_points, position, pt, refusal, tiles

A, B = Port.CHAIN_A, Port.CHAIN_B
LOW, HIGH = Port.LOW, Port.HIGH


# --- PLACE-1 ---


def test_non_double_joins_by_its_matching_half_and_the_other_end_opens() -> None:
    """PLACE-1: [4|6] on the 4 of [1|4] opens its 6; [0|1] on the 1 joins by its high end and opens 0."""
    state = position(layout_of((Tile(1, 4), None)), tiles("[0|1] [4|6]"))
    assert {("[1|4].low", 1), ("[1|4].high", 4)} == open_points(state)
    state = apply(state, Place(1, Tile(4, 6), pt(Tile(1, 4), HIGH)))
    assert {("[1|4].low", 1), ("[4|6].high", 6)} == open_points(state)
    state = position(state.layout, tiles("[0|1]"))
    state = apply(state, Place(1, Tile(0, 1), pt(Tile(1, 4), LOW)))
    assert {("[0|1].low", 0), ("[4|6].high", 6)} == open_points(state)
    expected = (
        Connection(pt(Tile(1, 4), HIGH), pt(Tile(4, 6), LOW)),
        Connection(pt(Tile(1, 4), LOW), pt(Tile(0, 1), HIGH)),
    )
    assert expected == state.layout.connections


def test_a_tile_matching_two_ends_may_join_either() -> None:
    """PLACE-1: with ends 2 and 5 open, [2|5] joins the 2 (opening 5) or the 5 (opening 2)."""
    layout = layout_of((Tile(2, 3), None), (Tile(3, 5), pt(Tile(2, 3), HIGH)))
    state = position(layout, tiles("[2|5]"))
    on_two = apply(state, Place(1, Tile(2, 5), pt(Tile(2, 3), LOW)))
    on_five = apply(state, Place(1, Tile(2, 5), pt(Tile(3, 5), HIGH)))
    assert {("[2|5].high", 5), ("[3|5].high", 5)} == open_points(on_two)
    assert {("[2|3].low", 2), ("[2|5].low", 2)} == open_points(on_five)


def test_legal_placements_are_exactly_the_matching_tile_and_point_pairs() -> None:
    """PLACE-1: with [1|4] led, [1|2] fits the 1, [4|5] the 4, [3|3] nothing."""
    state = position(layout_of((Tile(1, 4), None)), tiles("[1|2] [3|3] [4|5]"))
    expected = {
        Place(1, Tile(1, 2), pt(Tile(1, 4), LOW)),
        Place(1, Tile(4, 5), pt(Tile(1, 4), HIGH)),
    }
    assert expected == set(legal_moves(state))


def test_a_tile_without_a_matching_half_is_refused() -> None:
    """PLACE-1: [2|3] has no 4, [4|6] no 1: apply and Layout.place refuse each, with the value and no chained error."""
    state = position(layout_of((Tile(1, 4), None)), tiles("[1|2] [2|3] [4|6]"))
    on_four = Place(1, Tile(2, 3), pt(Tile(1, 4), HIGH))
    error = assert_refused(state, on_four, IllegalMoveError, "PLACE-1")
    assert "PLACE-1: [2|3] has no half matching [1|4].high (value 4)" == str(error)
    assert (None, True) == (error.__cause__, error.__suppress_context__)
    error = assert_refused(state, Place(1, Tile(4, 6), pt(Tile(1, 4), LOW)), IllegalMoveError, "PLACE-1")
    assert "PLACE-1: [4|6] has no half matching [1|4].low (value 1)" == str(error)
    assert (None, True) == (error.__cause__, error.__suppress_context__)
    with pytest.raises(IllegalMoveError) as caught:
        state.layout.place(Tile(2, 3), pt(Tile(1, 4), HIGH))
    assert "PLACE-1: [2|3] has no half matching [1|4].high (value 4)" == str(caught.value)
    assert (None, True) == (caught.value.__cause__, caught.value.__suppress_context__)


def test_a_covered_end_is_not_an_open_point() -> None:
    """PLACE-1: once [4|6] covers the 4 of [1|4], [4|5] cannot join there; the refusal lists the open points."""
    layout = layout_of((Tile(1, 4), None), (Tile(4, 6), pt(Tile(1, 4), HIGH)))
    state = position(layout, tiles("[4|5] [1|2]"))
    expected = "PLACE-1: [1|4].high is not an open attachment point; open: [1|4].low, [4|6].high"
    covered = Place(1, Tile(4, 5), pt(Tile(1, 4), HIGH))
    assert expected == str(assert_refused(state, covered, IllegalMoveError, "PLACE-1"))
    assert expected == refusal(IllegalMoveError, "PLACE-1", lambda: layout.place(Tile(4, 4), pt(Tile(1, 4), HIGH)))


def test_a_point_of_a_tile_not_on_the_table_is_refused() -> None:
    """PLACE-1: the 5 of [4|5] is no open point while [4|5] is not on the table, nor is the placed tile's own 6."""
    state = position(layout_of((Tile(1, 4), None)), tiles("[5|6] [1|2] [4|6]"))
    elsewhere = assert_refused(state, Place(1, Tile(5, 6), pt(Tile(4, 5), HIGH)), IllegalMoveError, "PLACE-1")
    assert "PLACE-1: [4|5].high is not an open attachment point; open: [1|4].low, [1|4].high" == str(elsewhere)
    own = assert_refused(state, Place(1, Tile(4, 6), pt(Tile(4, 6), HIGH)), IllegalMoveError, "PLACE-1")
    assert "PLACE-1: [4|6].high is not an open attachment point; open: [1|4].low, [1|4].high" == str(own)


def test_the_joined_end_of_the_lead_is_closed_on_both_tiles() -> None:
    """PLACE-1: the joined half of a placed tile is no open point either."""
    layout = layout_of((Tile(1, 4), None), (Tile(4, 6), pt(Tile(1, 4), HIGH)))
    state = position(layout, tiles("[4|5] [1|2]"))
    assert_refused(state, Place(1, Tile(4, 5), pt(Tile(4, 6), LOW)), IllegalMoveError, "PLACE-1")


def test_a_layout_built_with_no_open_point_says_none_is_open() -> None:
    """PLACE-1: placing builds no such layout, but Layout(...) can; its refusal lists "none"."""
    closed = Layout(placements=(Placement(Tile(1, 4), None),), open_point_ids=(), placed_mask=1 << Tile(1, 4).index)
    expected = "PLACE-1: [1|4].high is not an open attachment point; open: none"
    assert expected == refusal(IllegalMoveError, "PLACE-1", lambda: closed.place(Tile(4, 6), pt(Tile(1, 4), HIGH)))


def test_a_tile_facing_its_own_open_point_is_refused() -> None:
    """PLACE-1: a hand-built layout showing [1|4]'s own end open cannot take [1|4] there; the refusal says why."""
    own_end = pt(Tile(1, 4), HIGH)
    layout = Layout(placements=(Placement(Tile(2, 5), None),), open_point_ids=(own_end.id,))
    expected = "PLACE-1: [1|4] cannot attach to its own [1|4].high"
    assert expected == refusal(IllegalMoveError, "PLACE-1", lambda: layout.place(Tile(1, 4), own_end))
    made = placement_refusal(layout, Tile(1, 4).index, own_end.id)
    assert (IllegalMoveError, "PLACE-1", expected) == (type(made), made.rule, str(made))


# --- PLACE-2 ---


def test_a_double_joins_crosswise_by_chain_side_a_and_opens_only_side_b() -> None:
    """PLACE-2: [5|5] on the 5 of [3|5] joins by chain-a; chain-b is its one open point."""
    state = position(layout_of((Tile(3, 5), None)), tiles("[5|5] [0|1]"))
    state = apply(state, Place(1, Tile(5, 5), pt(Tile(3, 5), HIGH)))
    assert {("[3|5].low", 3), ("[5|5].chain-b", 5)} == open_points(state)
    assert (Connection(pt(Tile(3, 5), HIGH), pt(Tile(5, 5), A)),) == state.layout.connections


def test_the_joined_long_side_of_a_double_is_closed() -> None:
    """PLACE-2: chain side A of an attached double is occupied by the tile it joined."""
    layout = layout_of((Tile(3, 5), None), (Tile(5, 5), pt(Tile(3, 5), HIGH)))
    state = position(layout, tiles("[5|6] [0|1]"))
    assert_refused(state, Place(1, Tile(5, 6), pt(Tile(5, 5), A)), IllegalMoveError, "PLACE-1")
    assert {
        Place(1, Tile(5, 6), pt(Tile(5, 5), B)),
    } == set(legal_moves(state))


def test_a_double_led_alone_has_both_long_sides_open() -> None:
    """PLACE-2: a lone lead [3|3] offers chain-a and chain-b, each of value 3."""
    state = position(layout_of((Tile(3, 3), None)), tiles("[3|4] [0|1]"))
    assert {("[3|3].chain-a", 3), ("[3|3].chain-b", 3)} == open_points(state)
    expected = {Place(1, Tile(3, 4), pt(Tile(3, 3), A)), Place(1, Tile(3, 4), pt(Tile(3, 3), B))}
    assert expected == set(legal_moves(state))


@pytest.mark.parametrize(
    ("tile", "port"),
    [(Tile(3, 3), LOW), (Tile(3, 3), HIGH), (Tile(3, 4), A), (Tile(3, 4), B), (Tile(3, 4), Port.ARM_A)],
)
def test_ports_follow_the_tile_kind(tile: Tile, port: Port) -> None:
    """PLACE-2: a double has long sides (and arms), a non-double has a low and a high end."""
    refusal(InvalidMoveError, "PLACE-2", lambda: AttachmentPoint(tile, port))


# --- PLACE-3 ---


@pytest.mark.parametrize(
    "move",
    [
        Place(1, Tile(1, 2), pt(Tile(1, 4), LOW)),
        Place(1, Tile(1, 3), pt(Tile(1, 4), LOW)),
        Place(1, Tile(4, 4), pt(Tile(1, 4), HIGH)),
        Place(1, Tile(1, 4), pt(Tile(1, 4), LOW)),
        Place(1, Tile(4, 6), pt(Tile(1, 4), HIGH)),
    ],
    ids=["opponents-tile", "boneyard-front", "boneyard-tile", "tile-on-table", "out-of-play"],
)
def test_only_a_tile_from_the_own_hand_may_be_placed(move: Place) -> None:
    """PLACE-3: a tile held by another seat, in the boneyard or on the table is refused; the error lists the hand."""
    # [1|4] led by seat 0; seat 1 to move holds [4|5] [0|0]; seat 0 holds [1|2]; the boneyard starts [1|3].
    state = make_state(
        2,
        [tiles("[1|2]"), tiles("[4|5] [0|0]")],
        layout=layout_of((Tile(1, 4), None)),
        boneyard=tiles("[1|3] [4|4]"),
        to_move=1,
    )
    error = assert_refused(state, move, IllegalMoveError, "PLACE-3")
    assert f"PLACE-3: seat 1 does not hold {move.tile}; it holds [0|0] [4|5]" == str(error)


def test_a_lead_must_come_from_the_own_hand() -> None:
    """PLACE-3: the opener cannot lead a tile it does not hold."""
    state = make_state(2, [tiles("[1|4]"), tiles("[2|3]")], boneyard=tiles("[5|6]"))
    assert_refused(state, Place(0, Tile(2, 3)), IllegalMoveError, "PLACE-3")
    assert_refused(state, Place(0, Tile(5, 6)), IllegalMoveError, "PLACE-3")


def test_a_placed_tile_leaves_the_hand_and_nothing_else_changes() -> None:
    """PLACE-3, TURN-1, OPEN-1: the tile goes from the hand to the table and the turn moves on; nothing else changes."""
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
    assert (tiles("[2|2]"), before.hand(1), before.boneyard) == (after.hand(0), after.hand(1), after.boneyard)
    assert Tile(4, 6) == after.layout.placements[-1].tile
    kept = (after.opener, after.to_move, after.lot, after.last_round, after.drawn)
    assert (1, 1, (((0, 2), (1, 5)),), last, -1) == kept


# --- SETUP-1 on the table: each tile exists once ---


def test_a_tile_already_led_cannot_be_placed_again() -> None:
    """SETUP-1, PLACE-3: each tile exists once; [1|4], led, is refused a second time, even on its own open 4."""
    layout = layout_of((Tile(1, 4), None))
    expected = "SETUP-1: [1|4] is already on the table"
    assert expected == refusal(IllegalMoveError, "SETUP-1", lambda: layout.place(Tile(1, 4), pt(Tile(1, 4), HIGH)))


def test_a_double_already_led_cannot_be_placed_again() -> None:
    """SETUP-1, PLACE-3: [5|5] led is on the table; placing it on its own long side is refused, [5|6] is not."""
    layout = layout_of((Tile(5, 5), None))
    expected = "SETUP-1: [5|5] is already on the table"
    assert expected == refusal(IllegalMoveError, "SETUP-1", lambda: layout.place(Tile(5, 5), pt(Tile(5, 5), A)))
    after = layout.place(Tile(5, 6), pt(Tile(5, 5), A))
    assert (Placement(Tile(5, 5), None), Placement(Tile(5, 6), pt(Tile(5, 5), A))) == after.placements


def test_an_attached_tile_cannot_be_placed_again() -> None:
    """SETUP-1, PLACE-3: [4|6], attached to [1|4], is on the table; attaching it again to its own open 6 is refused."""
    layout = layout_of((Tile(1, 4), None), (Tile(4, 6), pt(Tile(1, 4), HIGH)))
    expected = "SETUP-1: [4|6] is already on the table"
    assert expected == refusal(IllegalMoveError, "SETUP-1", lambda: layout.place(Tile(4, 6), pt(Tile(4, 6), HIGH)))
    expected = "SETUP-1: [1|4] is already on the table"
    assert expected == refusal(IllegalMoveError, "SETUP-1", lambda: layout.place(Tile(1, 4), pt(Tile(4, 6), HIGH)))
