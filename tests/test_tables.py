"""The engine's precomputed tables and bit masks, each checked against the rule it is built from.

Tables built when a module is imported (the point table, ``_STEPS``) or
memoized on first use (the shuffle groups) are rebuilt here by calling
their builders directly, so that a change to a builder made after import,
as a mutation test makes, is still seen.
"""

from __future__ import annotations

import random
from math import prod

import pytest

from sniff_rules.layout import (
    _STEPS,
    POINTS,
    VALID_POINT_IDS,
    AttachmentPoint,
    Port,
    _attach_by_chain_or_double,
    _step,
    place_on,
)
from sniff_rules.moves import _DRAWS, _LEADS, _PASSES, _PLACES_ON, _POINT_NEEDS, Draw, Pass, Place, _fill_places
from sniff_rules.points import _make_points
from sniff_rules.randomness import _shuffle_groups
from sniff_rules.tiles import (
    DOUBLE_SIX,
    FULL_SET_MASK,
    HIGH_PIP,
    IS_DOUBLE,
    LOW_PIP,
    NO_TILE,
    PIP_MASK,
    TILE_PIPS,
    Tile,
    TileIndex,
    indices_of_mask,
    mask_of_tiles,
    pips_of_mask,
    tiles_of_mask,
)
from support import layout_of, pt

A, B = Port.CHAIN_A, Port.CHAIN_B
ARM_A, ARM_B = Port.ARM_A, Port.ARM_B
LOW, HIGH = Port.LOW, Port.HIGH


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


def test_each_fixed_step_is_what_the_general_rule_gives() -> None:
    """COUNT-1, COUNT-4: each precomputed step of a non-double on an end or arm equals the general rule's."""
    fixed = 0
    for number, steps in enumerate(_STEPS):
        index = TileIndex(number)
        for point_id, step in steps.items():
            # _step is called here too so that a change to it made after import is still seen.
            assert step == _step(index, point_id)
            placement, free_id, delta = _step(index, point_id)
            assert (DOUBLE_SIX[index], POINTS[point_id]) == (placement.tile, placement.target)
            opened: list[int] = []
            count, sniff = _attach_by_chain_or_double(opened, 100, NO_TILE, index, point_id)
            if DOUBLE_SIX[index].is_double or point_id % 6 in (A, B):
                # Doubles and long sides depend on the layout: they take the general rule.
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


def test_place_on_cannot_build_a_layout_the_geometry_forbids() -> None:
    """PLACE-1: unchecked place_on fails on a tile lacking the value (KeyError) and on a closed point (ValueError)."""
    layout = layout_of((Tile(1, 4), None))
    with pytest.raises(KeyError):
        place_on(layout, Tile(2, 6).index, pt(Tile(1, 4), HIGH).id)
    with pytest.raises(ValueError, match="not in list"):
        place_on(layout, Tile(4, 6).index, pt(Tile(2, 4), HIGH).id)


def test_the_shuffle_groups_cover_each_position_once_with_bound_position_plus_one() -> None:
    """SETUP-5: positions n-1 .. 1 in order, each bound i + 1, each group as long as its product below 2**64 allows."""
    for length in range(45):
        groups = _shuffle_groups(length)
        assert list(range(length - 1, 0, -1)) == [i for _, positions in groups for i, _ in positions]
        for number, (product, positions) in enumerate(groups):
            assert all(bound == i + 1 for i, bound in positions)
            assert prod(bound for _, bound in positions) == product < 2**64
            if number + 1 < len(groups):
                assert product * groups[number + 1][1][0][1] >= 2**64


def test_mask_of_tiles_sets_one_bit_per_tile_index() -> None:
    """SETUP-1: [0|1], [1|1] and [6|6] are tiles 1, 7 and 27, so their mask is 2 + 128 + 2**27."""
    assert 0 == mask_of_tiles([])
    assert 2 + 128 + 2**27 == mask_of_tiles([Tile(0, 1), Tile(1, 1), Tile(6, 6)])
    assert 1 + 2**27 == mask_of_tiles((Tile(6, 6), Tile(0, 0)))


def test_the_per_tile_and_per_pip_tables_follow_the_tiles() -> None:
    """SETUP-1: each tile's halves, pips and doubleness, and for each pip the mask of the seven tiles showing it."""
    assert [(tile.low, tile.high, tile.low + tile.high, tile.low == tile.high) for tile in DOUBLE_SIX] == list(
        zip(LOW_PIP, HIGH_PIP, TILE_PIPS, IS_DOUBLE, strict=True)
    )
    showing = [sum(1 << tile.index for tile in DOUBLE_SIX if pip in (tile.low, tile.high)) for pip in range(7)]
    assert showing == list(PIP_MASK)
    assert [7] * 7 == [mask.bit_count() for mask in PIP_MASK]
    assert 2**28 - 1 == FULL_SET_MASK


def test_the_chunk_tables_read_a_mask_as_a_loop_over_its_bits_does() -> None:
    """SETUP-1, SETTLE-1: indices, tiles and pips of a mask, read seven bits at a time, agree with one bit at a time."""
    generator = random.Random(11)
    masks = [0, FULL_SET_MASK] + [1 << i for i in range(28)] + [127 << shift for shift in (0, 7, 14, 21)]
    masks += [generator.getrandbits(28) for _ in range(300)]
    for mask in masks:
        indices = tuple(i for i in range(28) if mask >> i & 1)
        assert indices == indices_of_mask(mask), mask
        assert tuple(DOUBLE_SIX[i] for i in indices) == tiles_of_mask(mask), mask
        assert sum(DOUBLE_SIX[i].low + DOUBLE_SIX[i].high for i in indices) == pips_of_mask(mask), mask


def test_the_move_tables_hold_each_seats_draw_pass_leads_and_placements() -> None:
    """TURN-1, OPEN-3, PLACE-1: the shared moves are those built by hand, and each point's candidates show its value."""
    seats = range(4)  # SETUP-2: four players at most
    assert tuple(Draw(seat) for seat in seats) == _DRAWS
    assert tuple(Pass(seat) for seat in seats) == _PASSES
    assert tuple(tuple(Place(seat, tile) for tile in DOUBLE_SIX) for seat in seats) == _LEADS
    for point_id in VALID_POINT_IDS:
        value = POINTS[point_id].value
        assert sum(1 << t.index for t in DOUBLE_SIX if value in (t.low, t.high)) == _POINT_NEEDS[point_id]
    # [1|4] led: [0|1] and [1|2] fit its 1, [4|4] and [4|5] its 4, [3|3] neither. The second call
    # reads the tables the first one filled.
    open_ids = (pt(Tile(1, 4), LOW).id, pt(Tile(1, 4), HIGH).id)
    hand = mask_of_tiles([Tile(0, 1), Tile(1, 2), Tile(4, 5), Tile(4, 4), Tile(3, 3)])
    expected = (
        Place(2, Tile(0, 1), pt(Tile(1, 4), LOW)),
        Place(2, Tile(1, 2), pt(Tile(1, 4), LOW)),
        Place(2, Tile(4, 4), pt(Tile(1, 4), HIGH)),
        Place(2, Tile(4, 5), pt(Tile(1, 4), HIGH)),
    )
    assert expected == _fill_places(2, open_ids, hand)
    assert expected == _fill_places(2, open_ids, hand)


def test_a_points_table_holds_the_places_of_every_set_of_tiles_that_fit_it() -> None:
    """PLACE-1, CONV-2: once a seat may attach at a point, its table answers every hand at once, each set
    of fitting tiles with the places built by hand in tile order, one Place per tile shared between sets."""
    point = pt(Tile(2, 5), HIGH)
    needs = _POINT_NEEDS[point.id]
    _fill_places(1, (point.id,), needs)
    table = _PLACES_ON[1][point.id]
    subsets: set[int] = set()
    subset = needs
    while subset:
        subsets.add(subset)
        subset = (subset - 1) & needs
    assert len(subsets) == 127
    assert set(table) == subsets
    for mask, places in table.items():
        assert places == tuple(Place(1, tile, point) for tile in tiles_of_mask(mask)), mask
    singles = {places[0].tile: places[0] for mask, places in table.items() if len(places) == 1}
    for places in table.values():
        assert all(place is singles[place.tile] for place in places)


def test_each_lead_layout_is_built_as_the_rules_say() -> None:
    """OPEN-3, COUNT-1, COUNT-2, SNIFF-1: each precomputed lead equals a lead built again now, field by field."""
    from sniff_rules.layout import _LEADS as LEAD_LAYOUTS, _lead

    for tile in DOUBLE_SIX:
        built = _lead(tile.index)
        assert LEAD_LAYOUTS[tile.index] == built
        base = tile.index * 6
        expected: tuple[tuple[int, int], int, int]
        if tile.is_double:
            expected = ((base + 2, base + 3), 2 * tile.low, tile.index)  # both long sides open; the Sniff
        else:
            expected = ((base, base + 1), tile.low + tile.high, -1)  # both ends open and counted
        assert expected == (built.open_point_ids, built.end_count, built.sniff)
        assert ((tile,), 1 << tile.index) == (tuple(p.tile for p in built.placements), built.placed_mask)
        assert (None,) == tuple(p.target for p in built.placements)


def test_the_fast_constructor_builds_the_class_it_is_taken_from() -> None:
    """The hot path's constructors build exactly their class, by keyword or position, without the public check."""
    from sniff_rules._fast import constructor
    from sniff_rules.layout import Layout
    from sniff_rules.randomness import SplitMix64

    build_source = constructor(SplitMix64)
    assert (SplitMix64, SplitMix64(5)) == (type(build_source(5)), build_source(state=5))
    unchecked = build_source(-1)  # the public constructor refuses this; the hot path trusts its caller
    assert -1 == unchecked.state
    build_layout = constructor(Layout)
    assert Layout.EMPTY == build_layout()
    assert Layout is type(build_layout(end_count=5))


def test_the_rules_tables_give_each_seats_side_and_successor() -> None:
    """SETUP-2, TURN-1: the per-Rules tables: partners share a side at four players; turns pass clockwise."""
    from sniff_rules.rules import Rules, side_of_seat

    expected = {2: ((0, 1), (1, 0)), 3: ((0, 1, 2), (1, 2, 0)), 4: ((0, 1, 0, 1), (1, 2, 3, 0))}
    for players, tables in expected.items():
        rules = Rules.standard(players)
        assert tables == (rules.seat_sides, rules.next_seats)
        assert tables[0] == tuple(side_of_seat(players, seat) for seat in range(players))
        assert rules == Rules(players, rules.hand_size, rules.target)
        assert hash(rules) == hash(Rules(players, rules.hand_size, rules.target))
