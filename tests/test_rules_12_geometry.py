"""Section 12 of specs/rules.md, drawing the layout (GEOM-*): one picture of every layout, without overlaps."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from sniff_rules.draw.geometry import (
    FIT_HALF_EXTENT,
    MIN_HALF_EXTENT,
    Bounds,
    Direction,
    LayoutGeometry,
    TileGeometry,
    geometry,
    outside,
    overlapping,
)
from sniff_rules.errors import InvalidStateError
from sniff_rules.formats.geometry_json import geometry_to_data, geometry_to_json
from sniff_rules.layout import Layout, Port
from sniff_rules.moves import Place, apply, legal_moves
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match
from sniff_rules.tiles import Tile
from sniff_rules.verify.vectors.conformance import check_paths
from sniff_rules.verify.vectors.geometry_vectors import geometry_document
from support import refusal

SEED_CHAIN = (
    "[1|4] [1|1]>[1|4].low [4|4]>[1|4].high [3|4]>[4|4].chain-b [1|2]>[1|1].chain-b"
    " [1|5]>[1|1].arm-a [5|5]>[1|5].high [0|5]>[5|5].chain-b [1|3]>[1|1].arm-b"
)


@cache
def round_states(players: int, seed: int) -> tuple[State, ...]:
    """Every state of one whole round, moves chosen by a seeded source."""
    state = new_match(Rules.standard(players), seed=seed)
    source = SplitMix64.from_seed(seed ^ 0x5EED)
    states = [state]
    while state.phase is Phase.PLAYING:
        moves = legal_moves(state)
        pick, source = source.below(len(moves))
        state = apply(state, moves[pick])
        states.append(state)
    return tuple(states)


bounds_choices = st.one_of(
    st.none(),
    st.builds(Bounds, st.integers(MIN_HALF_EXTENT, 40), st.none()),
    st.builds(Bounds, st.none(), st.integers(MIN_HALF_EXTENT, 40)),
    st.builds(Bounds, st.integers(FIT_HALF_EXTENT, 40), st.integers(FIT_HALF_EXTENT, 40)),
)


def half_at(picture: LayoutGeometry, tile: Tile, pips: int, near: tuple[int, int]) -> tuple[int, int]:
    """The centre of the half of ``tile`` showing ``pips`` nearest ``near``."""
    halves = [(x, y) for x, y, value in picture.of(tile).halves if value == pips]
    return min(halves, key=lambda h: abs(h[0] - near[0]) + abs(h[1] - near[1]))


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Manhattan distance."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


# ---------------------------------------------------------------- GEOM-1


def test_a_tile_is_four_units_by_two_on_whole_units() -> None:
    """GEOM-1: a horizontal tile is 4 by 2 units, a vertical one 2 by 4; ends are west/north pips, then east/south."""
    picture = geometry(Layout.parse("[1|4] [4|4]>[1|4].high"))
    lead, double = picture.tiles
    assert ((-5, -1, -1, 1), (1, 4)) == (lead.box, lead.ends)
    assert ((-1, -2, 1, 2), "vertical") == (double.box, double.orientation)


def test_the_overlap_check_catches_a_planted_overlap() -> None:
    """GEOM-1: two tiles sharing more than an edge are reported; sharing an edge is not."""
    a = TileGeometry(Tile(1, 4), 0, 0, "horizontal", (1, 4), Direction.EAST)
    touching = TileGeometry(Tile(4, 5), 4, 0, "horizontal", (4, 5), Direction.EAST)
    over = TileGeometry(Tile(2, 4), 1, 1, "vertical", (2, 4), Direction.SOUTH)
    assert [] == overlapping(LayoutGeometry((a, touching), (), None))
    assert [(Tile(1, 4), Tile(2, 4))] == overlapping(LayoutGeometry((a, over), (), None))


# ---------------------------------------------------------------- GEOM-2


def test_a_non_double_lead_lies_at_the_centre_low_end_west() -> None:
    """GEOM-2: the lead [4|1] lies horizontal at (0, 0) with its lower end, 1, west."""
    (lead,) = geometry(Layout.parse("[4|1]")).tiles
    assert (0, 0, "horizontal", (1, 4)) == (lead.x, lead.y, lead.orientation, lead.ends)


@pytest.mark.parametrize(
    ("layout", "chain_a"),
    [("[3|3]", Direction.WEST), ("[1|4] [4|4]>[1|4].high", Direction.WEST), ("[1|4] [1|1]>[1|4].low", Direction.EAST)],
)
def test_the_sniff_is_the_centre_and_chain_a_faces_the_lead(layout: str, chain_a: Direction) -> None:
    """GEOM-2: the Sniff lies vertical at (0, 0); chain side A faces west, or east on the lead's lower end."""
    picture = geometry(Layout.parse(layout))
    sniff = Layout.parse(layout).sniff_tile
    assert sniff is not None
    placed = picture.of(sniff)
    assert (0, 0, "vertical") == (placed.x, placed.y, placed.orientation)
    lead = picture.tiles[0]
    if lead.tile != sniff:
        assert chain_a == (Direction.WEST if lead.x < 0 else Direction.EAST)
        assert (1, 4) == lead.ends, "the lead keeps its lower end west"
    else:
        points = {point.point.port: point.direction for point in picture.points}
        assert chain_a == points[Port.CHAIN_A]


def test_the_arms_face_north_then_south() -> None:
    """GEOM-2: once open, arm A of the Sniff faces north and arm B south, on whichever side of the lead it lies."""
    for text in ("[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b", "[1|4] [1|1]>[1|4].low [1|2]>[1|1].chain-b"):
        directions = {p.point.port: (p.x, p.y, p.direction) for p in geometry(Layout.parse(text)).points}
        assert (0, -2, Direction.NORTH) == directions[Port.ARM_A]
        assert (0, 2, Direction.SOUTH) == directions[Port.ARM_B]


# ---------------------------------------------------------------- GEOM-3, GEOM-4: joins and open points


def shares_an_edge(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two boxes meet along a stretch of edge, without overlapping."""
    across = min(a[2], b[2]) - max(a[0], b[0])
    along = min(a[3], b[3]) - max(a[1], b[1])
    return (across == 0 and along > 0) or (along == 0 and across > 0)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32), bounds_choices)
def test_every_joined_pair_of_tiles_meets_at_the_joining_half(players: int, seed: int, bounds: Bounds | None) -> None:
    """GEOM-3: each placed tile meets the tile it joins along an edge, a non-double by its joining half."""
    layout = round_states(players, seed)[-1].layout
    picture = geometry(layout, bounds=bounds)
    apart = []
    for connection in layout.connections:
        placed, existing = picture.of(connection.placed.tile), picture.of(connection.existing.tile)
        box = placed.box
        if not placed.tile.is_double:
            x, y, _ = next(h for h in placed.halves if h[2] == connection.placed.value)
            box = (x - 1, y - 1, x + 1, y + 1)
        if not shares_an_edge(box, existing.box):
            apart.append(str(connection))
    assert [] == apart


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32), st.data())
def test_a_tile_attached_at_a_point_lands_on_its_spot_and_nothing_moves(
    players: int, seed: int, data: st.DataObject
) -> None:
    """GEOM-3 GEOM-4: a tile attached at an open point joins at the point's spot; no other tile moves, unless
    it is the first double, which becomes the centre (GEOM-2)."""
    states = round_states(players, seed)
    state = data.draw(st.sampled_from([s for s in states if s.phase is Phase.PLAYING and not s.layout.is_empty]))
    bounds = data.draw(bounds_choices)
    before = geometry(state.layout, bounds=bounds)
    spots = {p.point: p for p in before.points}
    for move in legal_moves(state):
        if type(move) is not Place or move.target is None:
            continue
        after_layout = state.layout.place(move.tile, move.target)
        after = geometry(after_layout, bounds=bounds)
        if after_layout.sniff != state.layout.sniff:
            continue
        point = spots[move.target]
        joined = after.of(move.tile)
        landed = (
            (joined.x, joined.y) if move.tile.is_double else half_at(after, move.tile, point.point.value, point.spot)
        )
        assert point.spot == landed
        assert before.tiles == after.tiles[:-1]


def test_open_points_of_the_lone_sniff() -> None:
    """GEOM-4: a lone double lead's chain sides are open at (-1, 0) west and (1, 0) east, spots one unit further."""
    picture = geometry(Layout.parse("[2|2]"))
    assert [((-1, 0), Direction.WEST, (-2, 0)), ((1, 0), Direction.EAST, (2, 0))] == [
        ((p.x, p.y), p.direction, p.spot) for p in picture.points
    ]


# ---------------------------------------------------------------- GEOM-5, GEOM-6: turning and bounds


def test_without_bounds_every_line_runs_straight() -> None:
    """GEOM-5: with no bounds the seed's chain lies on the Sniff's cross: the chain on y = 0, the arms on x = 0."""
    picture = geometry(Layout.parse(SEED_CHAIN))
    assert [] == [str(t.tile) for t in picture.tiles if t.x != 0 and t.y != 0]


def test_a_line_folds_clockwise_within_the_bounds() -> None:
    """GEOM-5: a line of 10 tiles east in half-width 20 turns south at the edge, comes back west, and keeps within."""
    layout = Layout.parse(
        "[0|1] [1|2]>[0|1].high [2|3]>[1|2].high [3|4]>[2|3].high [4|5]>[3|4].high [5|6]>[4|5].high"
        " [0|6]>[5|6].high [0|2]>[0|6].low [2|4]>[0|2].high [4|6]>[2|4].high"
    )
    bounds = Bounds(20, None)
    picture = geometry(layout, bounds=bounds)
    directions = [t.direction for t in picture.tiles[1:]]
    assert Direction.SOUTH in directions
    assert Direction.WEST in directions
    assert directions.index(Direction.SOUTH) < directions.index(Direction.WEST)
    assert [] == outside(picture, bounds)
    assert [] == overlapping(picture)


@pytest.mark.parametrize("extent", [8, 0, -3, True, 2.5, 10_001])
def test_bounds_below_the_minimum_are_refused(extent: object) -> None:
    """GEOM-6: a half-width or half-height under 9 units (or not an int) is refused."""
    refusal(InvalidStateError, "GEOM-6", lambda: Bounds(extent, None))  # type: ignore[arg-type]
    refusal(InvalidStateError, "GEOM-6", lambda: Bounds(None, extent))  # type: ignore[arg-type]


@pytest.mark.parametrize(("width", "height"), [(29, 30), (30, 29), (9, 9), (12, 40)])
def test_bounds_both_ways_below_the_fitting_size_are_refused(width: int, height: int) -> None:
    """GEOM-6: bounds both ways under 30 units each, which some layout of a round would leave, are refused."""
    refusal(InvalidStateError, "GEOM-6", lambda: Bounds(width, height))
    assert Bounds(30, 30) == Bounds.fitting()


def test_geometry_refuses_what_is_not_a_layout() -> None:
    """FORMAT-3: geometry draws a Layout with Bounds or None, nothing else."""
    refusal(InvalidStateError, "FORMAT-3", lambda: geometry("[1|4]"))  # type: ignore[arg-type]
    refusal(InvalidStateError, "FORMAT-3", lambda: geometry(Layout.EMPTY, bounds=(9, 9)))  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32), bounds_choices)
def test_no_two_tiles_overlap_in_any_state_of_a_round(players: int, seed: int, bounds: Bounds | None) -> None:
    """GEOM-1 GEOM-5 GEOM-6: over every state of a random whole round, no two tiles overlap and none leaves
    the bounds, whichever bounds are drawn (one way at any size, both ways from 30), and none leaves the
    fitting bounds."""
    fitting = Bounds.fitting()
    for state in round_states(players, seed):
        picture = geometry(state.layout, bounds=bounds)
        assert [] == overlapping(picture)
        if bounds is not None:
            assert [] == outside(picture, bounds)
        assert [] == outside(geometry(state.layout, bounds=fitting), fitting)
    assert FIT_HALF_EXTENT == fitting.half_width == fitting.half_height


# ---------------------------------------------------------------- vectors and JSON


def test_the_geometry_vectors_replay() -> None:
    """GEOM-1..6: every case of specs/vectors/geometry.json replays, and a planted wrong anchor fails."""
    path = Path(__file__).resolve().parent.parent / "specs" / "vectors" / "geometry.json"
    results = check_paths([path])
    assert len(results) == len(geometry_document()["cases"])  # type: ignore[arg-type]
    assert [] == [str(result) for result in results if not result.passed]


def test_a_wrong_geometry_vector_fails(tmp_path: Path) -> None:
    """GEOM-4: the runner fails a case whose anchor is one unit off, and a refusal the bounds do not get."""
    document: Any = json.loads(json.dumps(geometry_document()))
    first, last = document["cases"][0], document["cases"][-1]
    first["geometry"]["points"][0]["x"] += 1
    last["bounds"] = {"half_width": 9, "half_height": None}
    path = tmp_path / "geometry.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    failed = [result.name for result in check_paths([path]) if not result.passed]
    assert [first["name"], last["name"]] == failed


def test_the_json_form_lists_tiles_and_points() -> None:
    """GEOM-1 GEOM-4: the JSON form holds each tile's centre, orientation and ends, each point's anchor, direction."""
    picture = geometry(Layout.parse("[1|4]"))
    assert {
        "tiles": [{"tile": "[1|4]", "x": 0, "y": 0, "orientation": "horizontal", "ends": [1, 4]}],
        "points": [
            {"point": "[1|4].low", "x": -2, "y": 0, "direction": "west"},
            {"point": "[1|4].high", "x": 2, "y": 0, "direction": "east"},
        ],
    } == geometry_to_data(picture)
    assert {"format": "sniff-rules/geometry@1", **geometry_to_data(picture)} == json.loads(geometry_to_json(picture))
