"""Text forms of tiles, points, placements and moves (sniff_rules.formats.notation, FORMAT-1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, strategies as st

from sniff_rules.errors import NotationError
from sniff_rules.formats.notation import parse_move, parse_placement, parse_point, parse_tile
from sniff_rules.layout import AttachmentPoint, Placement, Port
from sniff_rules.moves import Draw, Move, Pass, Place
from sniff_rules.tiles import DOUBLE_SIX, Tile

POINTS = tuple(
    AttachmentPoint(tile, port)
    for tile in DOUBLE_SIX
    for port in Port
    if tile.is_double == (port >= Port.CHAIN_A) and (tile.is_double or port <= Port.HIGH)
)
tiles = st.sampled_from(DOUBLE_SIX)
points = st.sampled_from(POINTS)
seats = st.integers(0, 3)
moves: st.SearchStrategy[Move] = st.one_of(
    st.builds(Place, seats, tiles, st.none() | points), st.builds(Draw, seats), st.builds(Pass, seats)
)


@given(tiles)
def test_tile_text_round_trips(tile: Tile) -> None:
    """FORMAT-1 SETUP-1: a tile reads back from its text [a|b]."""
    assert tile == parse_tile(str(tile))


def test_tile_text_may_name_the_high_half_first_and_hold_spaces() -> None:
    """FORMAT-1: a reader accepts [a|b] in either order and spaces around its parts; it writes low half first."""
    assert [Tile(3, 6), Tile(3, 6), Tile(0, 0)] == [parse_tile(text) for text in ("[6|3]", " [ 3 | 6 ] ", "[0|0]")]
    assert "[3|6]" == str(parse_tile("[6|3]"))


@given(points)
def test_point_text_round_trips(point: AttachmentPoint) -> None:
    """FORMAT-1 PLACE-1 PLACE-2: an attachment point reads back from [a|b].port, the port by its label."""
    assert point == parse_point(str(point))


def test_every_port_a_tile_has_is_read_and_no_other() -> None:
    """FORMAT-1: low and high on a non-double; chain-a, chain-b, arm-a and arm-b on a double; nothing else."""
    readable, refusals = set(), set()
    for tile in DOUBLE_SIX:
        for port in Port:
            try:
                readable.add(parse_point(f"{tile}.{port.label}"))
            except NotationError as err:
                refusals.add(err.rule)
    assert set(POINTS) == readable
    assert 21 * 2 + 7 * 4 == len(readable)
    assert {"FORMAT-1"} == refusals


@given(tiles, st.none() | points)
def test_placement_text_round_trips(tile: Tile, target: AttachmentPoint | None) -> None:
    """FORMAT-1 PLACE-1 OPEN-3: a placement reads back from [a|b] (the lead) or [a|b]>point."""
    placement = Placement(tile, target)
    assert placement == parse_placement(str(placement))


@given(moves)
def test_move_text_round_trips(move: Move) -> None:
    """FORMAT-1 TURN-1 TURN-2: every move reads back from str(move), its seat included."""
    assert move == parse_move(str(move))


def test_move_text_is_what_str_prints() -> None:
    """FORMAT-1 TURN-1 OPEN-3: the four shapes of a move, exactly as str() writes them."""
    lead = Place(0, Tile(1, 4))
    attach = Place(1, Tile(1, 1), AttachmentPoint(Tile(1, 4), Port.LOW))
    assert ["0:[1|4]", "1:[1|1]>[1|4].low", "2:draw", "3:pass"] == [
        str(lead),
        str(attach),
        str(Draw(2)),
        str(Pass(3)),
    ]
    assert [lead, attach, Draw(2), Pass(3)] == [
        parse_move(text) for text in ("0:[1|4]", "1:[1|1]>[1|4].low", "2:draw", "3:pass")
    ]


MALFORMED_MOVES = [
    ("0:[1|7]", "a pip beyond 6"),
    ("0:[1,4]", "a tile without its bar"),
    ("0:[]", "an empty tile"),
    ("4:draw", "a seat beyond 3"),
    ("-1:draw", "a negative seat"),
    ("03:draw", "a seat with a leading zero"),
    ("1" * 5000 + ":draw", "a seat of 5000 digits"),
    ("draw", "no seat"),
    ("x:draw", "a seat that is no number"),
    ("0:fold", "no such move"),
    ("0:Draw", "a capitalised word"),
    ("0:[1|4]>[1|4].side", "no such port"),
    ("0:[1|4]>[1|4]", "a target without a port"),
    ("0:[1|4]>", "an empty target"),
    ("0:[1|1]>[1|4].chain-a", "a chain side on a non-double"),
    ("0:[1|4]>[1|1].low", "a low end on a double"),
    ("0:[1|4]>[1|4].arm-b", "an arm on a non-double"),
    ("", "nothing"),
]


@pytest.mark.parametrize(("text", "what"), MALFORMED_MOVES, ids=[case[1] for case in MALFORMED_MOVES])
def test_malformed_move_text_is_refused_citing_format_1(text: str, what: str) -> None:
    """FORMAT-1: text that is no move raises NotationError citing FORMAT-1, before any rule of play is asked."""
    with pytest.raises(NotationError) as caught:
        parse_move(text)
    assert "FORMAT-1" == caught.value.rule, what


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (parse_tile, "[1|4"),
        (parse_tile, "1|4"),
        (parse_tile, "[1|4]x"),
        (parse_point, "[1|4]"),
        (parse_point, "[1|4].HIGH"),
        (parse_point, "[9|4].high"),
        (parse_placement, "[1|4]>[2|4].high>[4|4].chain-b"),
        (parse_placement, "draw"),
    ],
)
def test_malformed_tiles_points_and_placements_cite_format_1(parse: Callable[[str], object], text: str) -> None:
    """FORMAT-1: each text form refuses what is not that form, citing FORMAT-1."""
    with pytest.raises(NotationError) as caught:
        parse(text)
    assert "FORMAT-1" == caught.value.rule


@pytest.mark.parametrize("parse", [parse_tile, parse_point, parse_placement, parse_move])
@pytest.mark.parametrize("value", [7, None, b"0:draw", ["[1|4]"]])
def test_only_text_is_parsed(parse: Callable[[Any], object], value: object) -> None:
    """FORMAT-1: a value that is not a string raises NotationError citing FORMAT-1, never TypeError."""
    with pytest.raises(NotationError) as caught:
        parse(value)
    assert "FORMAT-1" == caught.value.rule


def test_well_formed_text_names_a_move_the_rules_may_still_refuse() -> None:
    """FORMAT-1 TURN-2: parsing does not judge legality; seat 3's draw and an arm of any double are read."""
    assert Draw(3) == parse_move("3:draw")
    assert Place(2, Tile(4, 5), AttachmentPoint(Tile(5, 5), Port.ARM_A)) == parse_move("2:[4|5]>[5|5].arm-a")
