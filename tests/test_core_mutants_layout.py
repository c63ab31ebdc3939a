"""The layout (PLACE-*, SNIFF-*, COUNT-*): the point table, refusals, the Sniff and the end count rebuilt."""

from __future__ import annotations

import pytest

from sniff_rules import (
    DOUBLE_SIX,
    AttachmentPoint,
    IllegalMoveError,
    Layout,
    Placement,
    Port,
    Tile,
    recount_end,
)
from sniff_rules.layout import POINTS, VALID_POINT_IDS, _STEPS, _attach_by_chain_or_double, _make_points, _step, place_on
from support import layout_of, pt

A, B = Port.CHAIN_A, Port.CHAIN_B
ARM_A, ARM_B = Port.ARM_A, Port.ARM_B
LOW, HIGH = Port.LOW, Port.HIGH


def refused(layout: Layout, tile: Tile, target: AttachmentPoint | None, rule: str) -> str:
    """``layout.place(tile, target)`` raises an :class:`IllegalMoveError` citing ``rule``; its text."""
    with pytest.raises(IllegalMoveError) as caught:
        layout.place(tile, target)
    assert rule == caught.value.rule
    return str(caught.value)


def test_the_point_table_holds_exactly_the_ports_each_tile_has() -> None:
    """PLACE-1, PLACE-2, SNIFF-3: a non-double has a lower and a higher end; a double two long sides and two arms."""
    expected: list[AttachmentPoint | None] = []
    for tile in DOUBLE_SIX:
        if tile.is_double:
            expected += [None, None] + [AttachmentPoint(tile, port) for port in (A, B, ARM_A, ARM_B)]
        else:
            expected += [AttachmentPoint(tile, LOW), AttachmentPoint(tile, HIGH), None, None, None, None]
    table = _make_points()
    assert tuple(expected) == table
    # Entry tile index * 6 + port holds that point: 28 tiles of 6 ports, 21 * 2 + 7 * 4 = 70 points.
    assert 28 * 6 == len(table)
    assert 70 == sum(point is not None for point in table)
    assert all(point.id == pid for pid, point in enumerate(table) if point is not None)


def test_placement_text_shows_the_target() -> None:
    """OPEN-3, PLACE-1: the lead is written as its tile alone, an attached tile as tile>point."""
    assert "[1|4]" == str(Placement(Tile(1, 4), None))
    assert "[4|6]>[1|4].high" == str(Placement(Tile(4, 6), pt(Tile(1, 4), HIGH)))


def test_a_tile_already_led_cannot_be_placed_again() -> None:
    """SETUP-1: each tile exists once; [1|4], led, is refused a second time, even on its own open 4."""
    layout = layout_of((Tile(1, 4), None))
    assert "SETUP-1: [1|4] is already on the table" == refused(layout, Tile(1, 4), pt(Tile(1, 4), HIGH), "SETUP-1")


def test_a_double_already_led_cannot_be_placed_again() -> None:
    """SETUP-1: [5|5] led is on the table; placing it on its own long side is refused, [5|6] is not."""
    layout = layout_of((Tile(5, 5), None))
    assert "SETUP-1: [5|5] is already on the table" == refused(layout, Tile(5, 5), pt(Tile(5, 5), A), "SETUP-1")
    after = layout.place(Tile(5, 6), pt(Tile(5, 5), A))
    assert (Placement(Tile(5, 5), None), Placement(Tile(5, 6), pt(Tile(5, 5), A))) == after.placements


def test_an_attached_tile_cannot_be_placed_again() -> None:
    """SETUP-1: [4|6], attached to [1|4], is on the table; attaching it again to its own open 6 is refused."""
    layout = layout_of((Tile(1, 4), None), (Tile(4, 6), pt(Tile(1, 4), HIGH)))
    assert "SETUP-1: [4|6] is already on the table" == refused(layout, Tile(4, 6), pt(Tile(4, 6), HIGH), "SETUP-1")
    assert "SETUP-1: [1|4] is already on the table" == refused(layout, Tile(1, 4), pt(Tile(4, 6), HIGH), "SETUP-1")


def test_a_second_lead_is_refused() -> None:
    """OPEN-3: only the first tile is led; a second tile without a target is refused and named."""
    layout = layout_of((Tile(1, 4), None))
    expected = "OPEN-3: only the first tile is a lead; attach [4|6] to an open point"
    assert expected == refused(layout, Tile(4, 6), None, "OPEN-3")


def test_attaching_to_an_empty_layout_is_refused() -> None:
    """OPEN-3: on an empty table the first tile is led, not attached; the error names the tile."""
    expected = "OPEN-3: the layout is empty: [4|6] must be led, not attached"
    assert expected == refused(Layout.EMPTY, Tile(4, 6), pt(Tile(1, 4), HIGH), "OPEN-3")


def test_a_covered_end_is_refused_and_the_open_points_are_listed() -> None:
    """PLACE-1: after [4|6] covers the 4 of [1|4], that 4 is not open; the open points are its 1 and the 6."""
    layout = layout_of((Tile(1, 4), None), (Tile(4, 6), pt(Tile(1, 4), HIGH)))
    expected = "PLACE-1: [1|4].high is not an open attachment point; open: [1|4].low, [4|6].high"
    assert expected == refused(layout, Tile(4, 4), pt(Tile(1, 4), HIGH), "PLACE-1")


def test_a_layout_built_with_no_open_point_says_none_is_open() -> None:
    """PLACE-1: placing builds no such layout, but Layout(...) can; its refusal lists "none"."""
    closed = Layout(placements=(Placement(Tile(1, 4), None),), open_point_ids=(), placed_mask=1 << Tile(1, 4).index)
    expected = "PLACE-1: [1|4].high is not an open attachment point; open: none"
    assert expected == refused(closed, Tile(4, 6), pt(Tile(1, 4), HIGH), "PLACE-1")


def test_a_tile_without_the_point_value_is_refused_and_named() -> None:
    """PLACE-1: [2|3] shows no 4, so it cannot go on the higher end of [1|4]."""
    layout = layout_of((Tile(1, 4), None))
    expected = "PLACE-1: [2|3] has no half matching [1|4].high (value 4)"
    assert expected == refused(layout, Tile(2, 3), pt(Tile(1, 4), HIGH), "PLACE-1")


def test_an_arm_stays_closed_while_chain_side_a_is_free() -> None:
    """SNIFF-2: [5|5] led, [3|5] on chain side B; side A is still free, so arm A is refused as a Sniff arm."""
    layout = layout_of((Tile(5, 5), None), (Tile(3, 5), pt(Tile(5, 5), B)))
    expected = (
        "SNIFF-2: [5|5].arm-a is a side arm of the Sniff; both long sides must be occupied before an arm opens"
    )
    assert expected == refused(layout, Tile(5, 6), pt(Tile(5, 5), ARM_A), "SNIFF-2")


def test_a_non_double_lead_leaves_the_round_without_a_sniff() -> None:
    """SNIFF-1: a round may have no Sniff; after leading [1|4] the Sniff index is still -1."""
    layout = layout_of((Tile(1, 4), None))
    assert (-1, None) == (layout.sniff, layout.sniff_tile)


def test_a_later_double_does_not_replace_a_zero_zero_sniff() -> None:
    """SNIFF-1, PLACE-2: [0|0] led is the Sniff; [3|3] attached later is an ordinary double with no arms."""
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


def test_recount_of_nothing_is_zero() -> None:
    """COUNT-1: with no tile on the table there is nothing to count."""
    assert 0 == recount_end(())


def test_recount_counts_a_sniff_with_one_long_side_as_both_halves() -> None:
    """COUNT-1, COUNT-2: [1|4] led, the Sniff [4|4] on its 4: the free 1 and both halves of [4|4], 1 + 8 = 9."""
    layout = layout_of((Tile(1, 4), None), (Tile(4, 4), pt(Tile(1, 4), HIGH)))
    assert 9 == recount_end(layout.placements) == layout.end_count


def test_recount_counts_the_open_arms_of_a_sniff_played_after_the_lead() -> None:
    """COUNT-4: [2|5] led, Sniff [5|5] on the 5, [3|5] on its side B: 2 + 3 + 5 + 5 = 15."""
    layout = layout_of(
        (Tile(2, 5), None),
        (Tile(5, 5), pt(Tile(2, 5), HIGH)),
        (Tile(3, 5), pt(Tile(5, 5), B)),
    )
    assert 15 == recount_end(layout.placements) == layout.end_count
    covered = layout.place(Tile(5, 6), pt(Tile(5, 5), ARM_A))
    # COUNT-4: arm A is covered and its line's outer end, 6, counts instead: 2 + 3 + 5 + 6 = 16.
    assert 16 == recount_end(covered.placements) == covered.end_count


def test_place_on_cannot_build_a_layout_the_geometry_forbids() -> None:
    """PLACE-1: the unchecked place_on still refuses, if not by rule: a tile without the
    point's value raises KeyError, a point that is not open raises ValueError."""
    layout = layout_of((Tile(1, 4), None))
    with pytest.raises(KeyError):
        place_on(layout, Tile(2, 6).index, pt(Tile(1, 4), HIGH).id)
    with pytest.raises(ValueError):
        place_on(layout, Tile(4, 6).index, pt(Tile(2, 4), HIGH).id)


def test_each_fixed_step_is_what_the_general_rule_gives() -> None:
    """COUNT-1, COUNT-4: for a non-double on an end or arm, the precomputed point it opens and
    change of the end count equal those of the general rule; other attachments take that rule."""
    fixed = 0
    for index, steps in enumerate(_STEPS):
        for point_id, step in steps.items():
            # _STEPS is built at import; _step is called here too so that a change to it
            # made after import (as a mutation test makes) is still seen.
            assert step == _step(index, point_id)
            placement, free_id, delta = _step(index, point_id)
            assert (DOUBLE_SIX[index], POINTS[point_id]) == (placement.tile, placement.target)
            opened: list[int] = []
            count, sniff = _attach_by_chain_or_double(opened, 100, -1, index, point_id)
            if DOUBLE_SIX[index].is_double or point_id % 6 in (A, B):
                assert (-1, 0) == (free_id, delta)
            else:
                fixed += 1
                assert ([free_id], delta, -1) == (opened, count - 100, sniff)
    # Counted apart, so that a table missing some attachments fails.
    assert fixed == sum(
        1
        for tile in DOUBLE_SIX
        if not tile.is_double
        for point in map(POINTS.__getitem__, VALID_POINT_IDS)
        if point.tile != tile and point.port not in (A, B) and point.value in (tile.low, tile.high)
    )


def test_layout_place_refuses_with_the_rule_alone() -> None:
    """PLACE-1: Layout.place reports what the geometry forbids as an IllegalMoveError with no
    look-up error chained to it, also for a hand-built layout showing a tile's own end open."""
    layout = layout_of((Tile(1, 4), None))
    with pytest.raises(IllegalMoveError) as caught:
        layout.place(Tile(2, 3), pt(Tile(1, 4), HIGH))
    assert (None, True) == (caught.value.__cause__, caught.value.__suppress_context__)
    own_end = pt(Tile(1, 4), HIGH)
    odd = Layout(placements=(Placement(Tile(2, 5), None),), open_point_ids=(own_end.id,))
    assert "PLACE-1: [1|4] cannot attach to its own [1|4].high" == refused(odd, Tile(1, 4), own_end, "PLACE-1")
