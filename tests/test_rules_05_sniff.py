"""Section 5 of specs/rules.md, the Sniff (SNIFF-*): the first double branches, its arms wait for
both long sides, then open with its value."""

from __future__ import annotations

from sniff_rules.errors import IllegalMoveError
from sniff_rules.layout import Layout, Port, recount_end
from sniff_rules.moves import Place, apply, legal_moves
from sniff_rules.tiles import Tile
from support import assert_refused, layout_of, open_points, position, pt, refusal, tiles

A, B = Port.CHAIN_A, Port.CHAIN_B
ARM_A, ARM_B = Port.ARM_A, Port.ARM_B
LOW, HIGH = Port.LOW, Port.HIGH

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


def test_a_later_double_does_not_replace_a_zero_zero_sniff() -> None:
    """SNIFF-1, COUNT-2, COUNT-3: after the Sniff [0|0] (tile 0), [3|3] has no arms: it counts 6, then 0 extended."""
    layout = layout_of(
        (Tile(0, 0), None),
        (Tile(0, 3), pt(Tile(0, 0), A)),
        (Tile(3, 3), pt(Tile(0, 3), HIGH)),
    )
    assert Tile(0, 0) == layout.sniff_tile
    assert (pt(Tile(0, 0), B), pt(Tile(3, 3), B)) == layout.open_points
    # [0|0] has chain side B free: both halves, 0; [3|3] has one long side occupied: 6.
    assert 6 == layout.end_count == recount_end(layout.placements)
    closed = layout_of(*[(p.tile, p.target) for p in layout.placements], (Tile(3, 4), pt(Tile(3, 3), B)))
    assert (pt(Tile(0, 0), B), pt(Tile(3, 4), HIGH)) == closed.open_points
    assert 4 == closed.end_count == recount_end(closed.placements)


def test_a_round_may_have_no_sniff() -> None:
    """SNIFF-1: with no double played there is no Sniff (index -1) and no arm is ever open."""
    assert (-1, None) == (layout_of((Tile(1, 4), None)).sniff, layout_of((Tile(1, 4), None)).sniff_tile)
    layout = layout_of(
        (Tile(1, 4), None),
        (Tile(4, 6), pt(Tile(1, 4), HIGH)),
        (Tile(0, 1), pt(Tile(1, 4), LOW)),
    )
    state = position(layout, tiles("[0|6]"))
    assert (-1, None) == (state.layout.sniff, state.layout.sniff_tile)
    assert all(point.port in (LOW, HIGH) for point in state.layout.open_points)


# --- SNIFF-2 ---


def test_no_arm_of_a_lone_lead_sniff() -> None:
    """SNIFF-2: a lone lead [5|5] has no long side occupied; its arms are refused and the error says why."""
    state = position(layout_of((Tile(5, 5), None)), tiles("[3|5] [0|1]"))
    for arm, name in ((ARM_A, "arm-a"), (ARM_B, "arm-b")):
        error = assert_refused(state, Place(1, Tile(3, 5), pt(Tile(5, 5), arm)), IllegalMoveError, "SNIFF-2")
        why = "both long sides must be occupied before an arm opens"
        expected = f"SNIFF-2: [5|5].{name} is a side arm of the Sniff; {why}"
        assert expected == str(error)


def test_no_arm_of_a_lead_sniff_with_one_long_side_occupied() -> None:
    """SNIFF-2: while either long side of a lead [5|5] is free, its arms are refused and the free side is open."""
    layout = layout_of((Tile(5, 5), None), (Tile(2, 5), pt(Tile(5, 5), A)))
    state = position(layout, tiles("[3|5] [0|1]"))
    assert_refused(state, Place(1, Tile(3, 5), pt(Tile(5, 5), ARM_A)), IllegalMoveError, "SNIFF-2")
    assert_refused(state, Place(1, Tile(3, 5), pt(Tile(5, 5), ARM_B)), IllegalMoveError, "SNIFF-2")
    assert {Place(1, Tile(3, 5), pt(Tile(5, 5), B))} == set(legal_moves(state))
    side_b = layout_of((Tile(5, 5), None), (Tile(3, 5), pt(Tile(5, 5), B)))
    expected = "SNIFF-2: [5|5].arm-a is a side arm of the Sniff; both long sides must be occupied before an arm opens"
    assert expected == refusal(IllegalMoveError, "SNIFF-2", lambda: side_b.place(Tile(5, 6), pt(Tile(5, 5), ARM_A)))


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
    layout = layout_of((Tile(5, 5), None), (Tile(2, 5), pt(Tile(5, 5), A)), (Tile(3, 5), pt(Tile(5, 5), B)))
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
