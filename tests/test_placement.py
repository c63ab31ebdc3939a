"""Placing tiles (PLACE-*) and the Sniff (SNIFF-*)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from sniff_rules import (
    DOUBLE_SIX,
    AttachmentPoint,
    Connection,
    IllegalMoveError,
    Layout,
    Place,
    Port,
    State,
    Tile,
    apply,
    legal_moves,
)
from support import assert_refused, layout_of, make_state, pt, tiles

A, B = Port.CHAIN_A, Port.CHAIN_B
ARM_A, ARM_B = Port.ARM_A, Port.ARM_B
LOW, HIGH = Port.LOW, Port.HIGH


def position(layout: Layout, hand: Sequence[Tile]) -> State:
    """Two players, seat 1 to move holding ``hand``; seat 0 and the boneyard hold unused tiles."""
    used = set(hand) | {placement.tile for placement in layout.placements}
    spare = [tile for tile in DOUBLE_SIX if tile not in used]
    return make_state(2, [spare[:2], hand], layout=layout, boneyard=spare[2:4], to_move=1)


def open_points(state: State) -> set[tuple[str, int]]:
    """The open points as (name, value) pairs, for comparing with hand-written sets."""
    return {(str(point), point.value) for point in state.layout.open_points}


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
    """PLACE-1: [2|3] has no 4, so it cannot join the 4 end of [1|4]."""
    state = position(layout_of((Tile(1, 4), None)), tiles("[2|3] [1|2]"))
    assert_refused(state, Place(1, Tile(2, 3), pt(Tile(1, 4), HIGH)), IllegalMoveError, "PLACE-1")


def test_a_covered_end_is_not_an_open_point() -> None:
    """PLACE-1: once [4|6] covers the 4 of [1|4], [4|5] cannot join there."""
    layout = layout_of((Tile(1, 4), None), (Tile(4, 6), pt(Tile(1, 4), HIGH)))
    state = position(layout, tiles("[4|5] [1|2]"))
    assert_refused(state, Place(1, Tile(4, 5), pt(Tile(1, 4), HIGH)), IllegalMoveError, "PLACE-1")


def test_a_point_of_a_tile_not_on_the_table_is_refused() -> None:
    """PLACE-1: the 5 of [4|5] is no open point while [4|5] is not on the table."""
    state = position(layout_of((Tile(1, 4), None)), tiles("[5|6] [1|2]"))
    assert_refused(state, Place(1, Tile(5, 6), pt(Tile(4, 5), HIGH)), IllegalMoveError, "PLACE-1")


def test_the_joined_end_of_the_lead_is_closed_on_both_tiles() -> None:
    """PLACE-1: the joined half of a placed tile is no open point either."""
    layout = layout_of((Tile(1, 4), None), (Tile(4, 6), pt(Tile(1, 4), HIGH)))
    state = position(layout, tiles("[4|5] [1|2]"))
    assert_refused(state, Place(1, Tile(4, 5), pt(Tile(4, 6), LOW)), IllegalMoveError, "PLACE-1")


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
    [(Tile(3, 3), LOW), (Tile(3, 3), HIGH), (Tile(3, 4), A), (Tile(3, 4), B), (Tile(3, 4), ARM_A)],
)
def test_ports_follow_the_tile_kind(tile: Tile, port: Port) -> None:
    """PLACE-2: a double has long sides (and arms), a non-double has a low and a high end."""
    with pytest.raises(IllegalMoveError) as caught:
        AttachmentPoint(tile, port)
    assert "PLACE-2" == caught.value.rule


# --- PLACE-3 ---


def _place3_state() -> State:
    """[1|4] led by seat 0; seat 1 to move holds [4|5]; seat 0 holds [1|2]; the boneyard starts [1|3]."""
    return make_state(
        2,
        [tiles("[1|2]"), tiles("[4|5] [0|0]")],
        layout=layout_of((Tile(1, 4), None)),
        boneyard=tiles("[1|3] [4|4]"),
        to_move=1,
    )


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
    """PLACE-3: a tile held by another seat, in the boneyard or on the table cannot be placed."""
    assert_refused(_place3_state(), move, IllegalMoveError, "PLACE-3")


def test_a_lead_must_come_from_the_own_hand() -> None:
    """PLACE-3: the opener cannot lead a tile it does not hold."""
    state = make_state(2, [tiles("[1|4]"), tiles("[2|3]")], boneyard=tiles("[5|6]"))
    assert_refused(state, Place(0, Tile(2, 3)), IllegalMoveError, "PLACE-3")
    assert_refused(state, Place(0, Tile(5, 6)), IllegalMoveError, "PLACE-3")


def test_a_placed_tile_leaves_the_hand() -> None:
    """PLACE-3: the placed tile goes from the placer's hand to the table, nothing else moves."""
    state = _place3_state()
    after = apply(state, Place(1, Tile(4, 5), pt(Tile(1, 4), HIGH)))
    assert (Tile(0, 0),) == after.hand(1)
    assert state.hand(0) == after.hand(0)
    assert state.boneyard == after.boneyard
    assert Tile(4, 5) == after.layout.placements[-1].tile


# --- SNIFF-1 ---


def test_a_lead_double_is_the_sniff() -> None:
    """SNIFF-1: the lead, when a double, is the Sniff."""
    state = position(Layout.EMPTY, tiles("[4|4] [1|4]"))
    assert state.layout.sniff_tile is None
    assert Tile(4, 4) == apply(state, Place(1, Tile(4, 4))).layout.sniff_tile


def test_the_first_double_is_the_sniff_and_later_doubles_never_branch() -> None:
    """SNIFF-1: after [1|4], [1|1] then [4|4], only [1|1] is the Sniff; [4|4] extended opens no arms."""
    layout = layout_of(
        (Tile(1, 4), None),
        (Tile(1, 1), pt(Tile(1, 4), LOW)),
        (Tile(4, 4), pt(Tile(1, 4), HIGH)),
    )
    assert Tile(1, 1) == layout.sniff_tile
    state = position(layout, tiles("[3|4] [4|5]"))
    state = apply(state, Place(1, Tile(3, 4), pt(Tile(4, 4), B)))
    assert Tile(1, 1) == state.layout.sniff_tile
    assert {("[1|1].chain-b", 1), ("[3|4].low", 3)} == open_points(state)
    state = position(state.layout, tiles("[4|5] [0|0]"))
    assert_refused(state, Place(1, Tile(4, 5), pt(Tile(4, 4), ARM_A)), IllegalMoveError, "PLACE-1")
    assert_refused(state, Place(1, Tile(4, 5), pt(Tile(4, 4), ARM_B)), IllegalMoveError, "PLACE-1")


def test_a_second_double_on_the_line_stays_an_ordinary_double() -> None:
    """SNIFF-1: with [2|2] led as the Sniff, a later [5|5] gets no arms once both its long sides are taken."""
    layout = layout_of(
        (Tile(2, 2), None),
        (Tile(2, 5), pt(Tile(2, 2), A)),
        (Tile(5, 5), pt(Tile(2, 5), HIGH)),
        (Tile(5, 6), pt(Tile(5, 5), B)),
    )
    assert Tile(2, 2) == layout.sniff_tile
    state = position(layout, tiles("[0|5] [2|3]"))
    assert {("[2|2].chain-b", 2), ("[5|6].high", 6)} == open_points(state)
    assert_refused(state, Place(1, Tile(0, 5), pt(Tile(5, 5), ARM_A)), IllegalMoveError, "PLACE-1")


def test_a_round_may_have_no_sniff() -> None:
    """SNIFF-1: with no double played there is no Sniff and no arm is ever open."""
    layout = layout_of(
        (Tile(1, 4), None),
        (Tile(4, 6), pt(Tile(1, 4), HIGH)),
        (Tile(0, 1), pt(Tile(1, 4), LOW)),
    )
    state = position(layout, tiles("[0|6]"))
    assert state.layout.sniff_tile is None
    assert all(point.port in (LOW, HIGH) for point in state.layout.open_points)


# --- SNIFF-2 ---


def test_no_arm_of_a_lone_lead_sniff() -> None:
    """SNIFF-2: a lone lead [5|5] has no long side occupied; its arms are refused."""
    state = position(layout_of((Tile(5, 5), None)), tiles("[3|5] [0|1]"))
    assert_refused(state, Place(1, Tile(3, 5), pt(Tile(5, 5), ARM_A)), IllegalMoveError, "SNIFF-2")
    assert_refused(state, Place(1, Tile(3, 5), pt(Tile(5, 5), ARM_B)), IllegalMoveError, "SNIFF-2")


def test_no_arm_of_a_lead_sniff_with_one_long_side_occupied() -> None:
    """SNIFF-2: after [2|5] on one long side of [5|5], the arms stay closed; the other long side is open."""
    layout = layout_of((Tile(5, 5), None), (Tile(2, 5), pt(Tile(5, 5), A)))
    state = position(layout, tiles("[3|5] [0|1]"))
    assert_refused(state, Place(1, Tile(3, 5), pt(Tile(5, 5), ARM_A)), IllegalMoveError, "SNIFF-2")
    assert_refused(state, Place(1, Tile(3, 5), pt(Tile(5, 5), ARM_B)), IllegalMoveError, "SNIFF-2")
    assert {Place(1, Tile(3, 5), pt(Tile(5, 5), B))} == set(legal_moves(state))


def test_no_arm_of_an_attached_sniff_before_its_side_b_is_occupied() -> None:
    """SNIFF-2: [1|1] attached to [1|4] has side A taken; its arms wait for side B."""
    layout = layout_of((Tile(1, 4), None), (Tile(1, 1), pt(Tile(1, 4), LOW)))
    state = position(layout, tiles("[1|2] [0|0]"))
    assert_refused(state, Place(1, Tile(1, 2), pt(Tile(1, 1), ARM_A)), IllegalMoveError, "SNIFF-2")
    assert {Place(1, Tile(1, 2), pt(Tile(1, 1), B))} == set(legal_moves(state))


# --- SNIFF-3 ---


def test_both_long_sides_occupied_open_two_arms_of_the_sniff_value() -> None:
    """SNIFF-3: [5|5] led, [2|5] and [3|5] on its long sides: both arms open with value 5."""
    layout = layout_of((Tile(5, 5), None), (Tile(2, 5), pt(Tile(5, 5), A)))
    state = position(layout, tiles("[3|5] [4|5] [5|6]"))
    state = apply(state, Place(1, Tile(3, 5), pt(Tile(5, 5), B)))
    expected = {("[2|5].low", 2), ("[3|5].low", 3), ("[5|5].arm-a", 5), ("[5|5].arm-b", 5)}
    assert expected == open_points(state)


def test_both_arms_may_be_used_then_any_open_point() -> None:
    """SNIFF-3: [4|5] goes on arm A and [5|6] on arm B; every open point is usable throughout."""
    layout = layout_of(
        (Tile(5, 5), None), (Tile(2, 5), pt(Tile(5, 5), A)), (Tile(3, 5), pt(Tile(5, 5), B))
    )
    state = position(layout, tiles("[4|5] [5|6] [2|4]"))
    expected_moves = {
        Place(1, Tile(4, 5), pt(Tile(5, 5), ARM_A)),
        Place(1, Tile(4, 5), pt(Tile(5, 5), ARM_B)),
        Place(1, Tile(5, 6), pt(Tile(5, 5), ARM_A)),
        Place(1, Tile(5, 6), pt(Tile(5, 5), ARM_B)),
        Place(1, Tile(2, 4), pt(Tile(2, 5), LOW)),
    }
    assert expected_moves == set(legal_moves(state))
    state = apply(state, Place(1, Tile(4, 5), pt(Tile(5, 5), ARM_A)))
    assert {("[2|5].low", 2), ("[3|5].low", 3), ("[4|5].low", 4), ("[5|5].arm-b", 5)} == open_points(state)
    state = position(state.layout, tiles("[5|6] [2|4]"))
    state = apply(state, Place(1, Tile(5, 6), pt(Tile(5, 5), ARM_B)))
    expected = {("[2|5].low", 2), ("[3|5].low", 3), ("[4|5].low", 4), ("[5|6].high", 6)}
    assert expected == open_points(state)


def test_arms_of_an_attached_sniff_open_when_side_b_is_taken() -> None:
    """SNIFF-3: [1|4], [1|1], [4|4], [3|4], [1|2] as in the seed: arms of [1|1] open, each of value 1."""
    layout = layout_of(
        (Tile(1, 4), None),
        (Tile(1, 1), pt(Tile(1, 4), LOW)),
        (Tile(4, 4), pt(Tile(1, 4), HIGH)),
        (Tile(3, 4), pt(Tile(4, 4), B)),
    )
    state = position(layout, tiles("[1|2] [1|5]"))
    state = apply(state, Place(1, Tile(1, 2), pt(Tile(1, 1), B)))
    expected = {("[1|1].arm-a", 1), ("[1|1].arm-b", 1), ("[1|2].high", 2), ("[3|4].low", 3)}
    assert expected == open_points(state)


def test_a_covered_arm_is_no_longer_open() -> None:
    """SNIFF-3, PLACE-1: once [4|5] covers arm A of the Sniff, that arm is no open point."""
    layout = layout_of(
        (Tile(5, 5), None),
        (Tile(2, 5), pt(Tile(5, 5), A)),
        (Tile(3, 5), pt(Tile(5, 5), B)),
        (Tile(4, 5), pt(Tile(5, 5), ARM_A)),
    )
    state = position(layout, tiles("[5|6] [0|0]"))
    assert_refused(state, Place(1, Tile(5, 6), pt(Tile(5, 5), ARM_A)), IllegalMoveError, "PLACE-1")
    assert {Place(1, Tile(5, 6), pt(Tile(5, 5), ARM_B))} == set(legal_moves(state))
