"""Where every tile of a layout lies: the one standard picture (GEOM-1..6).

:func:`geometry` is a pure function of a :class:`~sniff_rules.layout.Layout`
and optional :class:`Bounds`. It gives each tile its centre and
orientation on a grid of units (a tile is 4 by 2 units, a half 2 by 2;
x runs east, y south, as in SVG) and each open point its **anchor**, the
middle of the edge a tile attached there joins, with the **direction**
that tile goes. Text (:mod:`sniff_rules.draw.text`) and SVG
(:mod:`sniff_rules.draw.svg`) draw from it, and so can any frontend: the
conventions are rules with ids in ``specs/rules.md`` (section 12), and
``specs/vectors/geometry.json`` pins them for other implementations.

>>> picture = geometry(Layout.parse("[1|4] [1|1]>[1|4].low"))
>>> [(str(t.tile), t.x, t.y, t.orientation) for t in picture.tiles]
[('[1|4]', 3, 0, 'horizontal'), ('[1|1]', 0, 0, 'vertical')]
>>> [(str(p.point), p.x, p.y, p.direction.value) for p in picture.points]
[('[1|1].chain-b', -1, 0, 'west'), ('[1|4].high', 5, 0, 'east')]
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Final

import attrs

from sniff_rules._fast import is_tuple, sealed
from sniff_rules.errors import InvalidStateError, described
from sniff_rules.layout import AttachmentPoint, Layout, Port
from sniff_rules.tiles import Pip, Tile

HALF: Final = 2
"""A half of a tile is HALF by HALF units (GEOM-1)."""
LENGTH: Final = 2 * HALF
"""A tile is LENGTH units long and HALF wide (GEOM-1)."""
MIN_HALF_EXTENT: Final = 9
"""The smallest half-width or half-height :class:`Bounds` accepts (GEOM-6)."""
FIT_HALF_EXTENT: Final = 30
"""Bounds of at least this half-width and half-height hold every layout of a round (GEOM-6)."""
_TURN_ROOM: Final = 7
"""Units a line needs ahead of a free end to go on straight: a double (2),
a non-double (4), and the one unit a double laid at the turn after it
reaches past that non-double's end (GEOM-5)."""
_INNER: Final = 2
"""Rows after the first keep this far from the centre's cross (GEOM-5)."""


class Direction(enum.Enum):
    """A direction on the table; y grows southward (GEOM-1)."""

    EAST = "east"
    SOUTH = "south"
    WEST = "west"
    NORTH = "north"

    def __repr__(self) -> str:
        return f"Direction.{self.name}"

    @property
    def dx(self) -> int:
        """The step east (1), west (-1) or neither (0)."""
        return _STEP[self][0]

    @property
    def dy(self) -> int:
        """The step south (1), north (-1) or neither (0)."""
        return _STEP[self][1]

    @property
    def clockwise(self) -> Direction:
        """The direction a quarter turn clockwise: east to south to west to north."""
        return _BY_STEP[(-self.dy, self.dx)]

    @property
    def opposite(self) -> Direction:
        """The direction turned half round."""
        return _BY_STEP[(-self.dx, -self.dy)]


_STEP: Final = {Direction.EAST: (1, 0), Direction.SOUTH: (0, 1), Direction.WEST: (-1, 0), Direction.NORTH: (0, -1)}
_BY_STEP: Final = {step: direction for direction, step in _STEP.items()}


def _check_extent(_instance: object, attribute: attrs.Attribute[int | None], value: int | None) -> None:
    if value is None:
        return
    if type(value) is not int or not MIN_HALF_EXTENT <= value <= 10_000:
        raise InvalidStateError(
            "GEOM-6",
            f"{attribute.name} is None or an int of {MIN_HALF_EXTENT}..10000 units, got {described(value, 40)}",
        )


def _check_both(instance: Bounds, attribute: attrs.Attribute[int | None], value: int | None) -> None:
    _check_extent(instance, attribute, value)
    width = instance.half_width
    if value is not None and width is not None and min(width, value) < FIT_HALF_EXTENT:
        raise InvalidStateError(
            "GEOM-6",
            f"bounds both ways are at least {FIT_HALF_EXTENT} units each, which hold every layout of a round"
            f" (one way alone may be {MIN_HALF_EXTENT} or more), got {width} by {value}",
        )


@sealed()
@attrs.frozen
class Bounds:
    """The rectangle a picture must keep to, centred on the centre tile (GEOM-6).

    Every tile stays within ``-half_width <= x <= half_width`` and
    ``-half_height <= y <= half_height`` (None: no limit that way); lines
    turn to keep to it (GEOM-5).
    """

    half_width: int | None = attrs.field(validator=_check_extent)
    half_height: int | None = attrs.field(validator=_check_both)

    @classmethod
    def fitting(cls) -> Bounds:
        """Bounds that hold every layout a round can reach (GEOM-6)."""
        return cls(FIT_HALF_EXTENT, FIT_HALF_EXTENT)


@sealed()
@attrs.frozen
class TileGeometry:
    """Where one tile lies: its centre, its orientation and the pips of each half (GEOM-1..3).

    ``ends`` holds the pips of the west then east half of a horizontal
    tile, of the north then south half of a vertical one.
    """

    tile: Tile
    x: int
    y: int
    orientation: str
    """``"horizontal"`` (4 units east-west) or ``"vertical"`` (4 units north-south)."""
    ends: tuple[Pip, Pip] = attrs.field(validator=is_tuple)
    direction: Direction
    """The way its line runs where it lies: from the half that joins to the other (GEOM-3)."""

    @property
    def horizontal(self) -> bool:
        """Whether the tile lies east-west."""
        return self.orientation == "horizontal"

    @property
    def box(self) -> tuple[int, int, int, int]:
        """``(left, top, right, bottom)`` in units."""
        across, along = (LENGTH // 2, HALF // 2) if self.horizontal else (HALF // 2, LENGTH // 2)
        return self.x - across, self.y - along, self.x + across, self.y + along

    @property
    def halves(self) -> tuple[tuple[int, int, Pip], tuple[int, int, Pip]]:
        """Each half's centre and pips, west/north half first."""
        offset = HALF // 2
        first, second = self.ends
        if self.horizontal:
            return (self.x - offset, self.y, first), (self.x + offset, self.y, second)
        return (self.x, self.y - offset, first), (self.x, self.y + offset, second)


@sealed()
@attrs.frozen
class PointGeometry:
    """An open point: the middle of the edge a tile attached there joins, and the way that tile goes (GEOM-4)."""

    point: AttachmentPoint
    x: int
    y: int
    direction: Direction

    @property
    def spot(self) -> tuple[int, int]:
        """The centre of the half that a tile attached here would join by: where a marker goes."""
        return self.x + self.direction.dx * (HALF // 2), self.y + self.direction.dy * (HALF // 2)


@sealed()
@attrs.frozen
class LayoutGeometry:
    """The picture of a layout: its tiles in the order played and its open points in point order."""

    tiles: tuple[TileGeometry, ...] = attrs.field(validator=is_tuple)
    points: tuple[PointGeometry, ...] = attrs.field(validator=is_tuple)
    bounds: Bounds | None

    @property
    def extent(self) -> tuple[int, int, int, int]:
        """``(left, top, right, bottom)`` of the tiles and the spots of the open points; all 0 when empty."""
        if not self.tiles:
            return 0, 0, 0, 0
        boxes = [tile.box for tile in self.tiles]
        boxes += [(x - 1, y - 1, x + 1, y + 1) for x, y in (point.spot for point in self.points)]
        return (
            min(box[0] for box in boxes),
            min(box[1] for box in boxes),
            max(box[2] for box in boxes),
            max(box[3] for box in boxes),
        )

    def of(self, tile: Tile) -> TileGeometry:
        """Where ``tile`` lies; a tile not on the table is refused."""
        for placed in self.tiles:
            if placed.tile == tile:
                return placed
        raise InvalidStateError("PLACE-3", f"{tile} is not on the table")


# ---------------------------------------------------------------- the lines from the centre


def _joins(layout: Layout) -> dict[tuple[Tile, Port], tuple[Tile, Port]]:
    """Each joined port of the table and the port it is joined to, both ways."""
    joined: dict[tuple[Tile, Port], tuple[Tile, Port]] = {}
    for connection in layout.connections:
        existing = (connection.existing.tile, connection.existing.port)
        placed = (connection.placed.tile, connection.placed.port)
        joined[existing] = placed
        joined[placed] = existing
    return joined


_OTHER_PORT: Final = {Port.LOW: Port.HIGH, Port.HIGH: Port.LOW, Port.CHAIN_A: Port.CHAIN_B, Port.CHAIN_B: Port.CHAIN_A}


def _walk(joined: dict[tuple[Tile, Port], tuple[Tile, Port]], start: tuple[Tile, Port]) -> Iterator[tuple[Tile, Port]]:
    """The tiles of the line leaving ``start``, each with the port it is entered by (GEOM-3)."""
    here = joined.get(start)
    while here is not None:
        yield here
        tile, port = here
        here = joined.get((tile, _OTHER_PORT[port]))


def _pip(tile: Tile, port: Port) -> Pip:
    return tile.high if port is Port.HIGH else tile.low


def _centre_ports(layout: Layout, joined: dict[tuple[Tile, Port], tuple[Tile, Port]]) -> list[tuple[Port, Direction]]:
    """The centre's ports and the way each one's line leaves (GEOM-2)."""
    sniff = layout.sniff_tile
    if sniff is None:
        return [(Port.LOW, Direction.WEST), (Port.HIGH, Direction.EAST)]
    lead = layout.placements[0].tile
    toward_lead = Direction.WEST
    if sniff != lead:
        for tile, port in _walk(joined, (sniff, Port.CHAIN_A)):
            if tile == lead:
                # The Sniff on the lead's low end lies west of it, so its chain side A faces east.
                toward_lead = Direction.EAST if port is Port.LOW else Direction.WEST
    return [
        (Port.CHAIN_A, toward_lead),
        (Port.CHAIN_B, toward_lead.opposite),
        (Port.ARM_A, Direction.NORTH),
        (Port.ARM_B, Direction.SOUTH),
    ]


def _limit(bounds: Bounds | None, direction: Direction) -> int | None:
    if bounds is None:
        return None
    return bounds.half_width if direction.dx else bounds.half_height


def _room(limit: int | None, u: int, row: int) -> bool:
    """Whether a row going ``row`` (+1 outward, -1 back) from ``u`` still holds a double, a non-double and a turn."""
    if limit is None:
        return True
    return u + _TURN_ROOM <= limit if row > 0 else u - _TURN_ROOM >= _INNER


class _Line:
    """Lays one line out in its own frame: ``u`` along its first direction, ``v`` a quarter turn clockwise (GEOM-5)."""

    def __init__(self, direction: Direction, start: int, limit: int | None) -> None:
        self.forward = direction
        self.side = direction.clockwise
        self.limit = limit
        self.u, self.v = start, 0
        self.heading = (1, 0)
        self.row = 1

    def to_global(self, u: int, v: int) -> tuple[int, int]:
        return u * self.forward.dx + v * self.side.dx, u * self.forward.dy + v * self.side.dy

    def direction(self) -> Direction:
        du, dv = self.heading
        dx, dy = self.to_global(du, dv)
        return _BY_STEP[(dx, dy)]

    def place(self, tile: Tile, entry: Pip) -> TileGeometry:
        du, dv = self.heading
        heading = self.direction()
        if tile.is_double:
            # GEOM-3: a double lies crosswise, centred on the line, which goes on straight past it.
            x, y = self.to_global(self.u + du, self.v + dv)
            self.u, self.v = self.u + 2 * du, self.v + 2 * dv
            return TileGeometry(tile, x, y, "vertical" if heading.dx else "horizontal", (tile.low, tile.low), heading)
        x, y = self.to_global(self.u + 2 * du, self.v + 2 * dv)
        other = tile.low + tile.high - entry
        # GEOM-3: the joining half lies next to the point it joins.
        ends = (entry, other) if heading in (Direction.EAST, Direction.SOUTH) else (other, entry)
        placed = TileGeometry(tile, x, y, "horizontal" if heading.dx else "vertical", ends, heading)
        end_u, end_v = self.u + 4 * du, self.v + 4 * dv
        free_u, free_v = self.u + 3 * du, self.v + 3 * dv
        if dv == 0:
            if _room(self.limit, end_u, self.row):
                self.u, self.v = end_u, end_v
            else:
                # GEOM-5: turn clockwise off the side of the free half.
                self.u, self.v, self.heading = free_u, free_v + 1, (0, 1)
        else:
            row = -self.row
            if _room(self.limit, free_u + row, row):
                # GEOM-5: back the other way, one row further on.
                self.u, self.v, self.heading, self.row = free_u + row, free_v, (row, 0), row
            else:
                self.u, self.v = end_u, end_v
        return placed

    def anchor(self) -> tuple[int, int]:
        return self.to_global(self.u, self.v)


def geometry(layout: Layout, *, bounds: Bounds | None = None) -> LayoutGeometry:
    """The standard picture of ``layout`` (GEOM-1..6): pure, the same for every frontend.

    Without ``bounds`` every line runs straight; with them, lines turn to
    keep within them (GEOM-5).

    >>> picture = geometry(Layout.parse("[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b"))
    >>> [(str(p.point), p.x, p.y, p.direction.value) for p in picture.points]
    [('[2|5].low', -5, 0, 'west'), ('[3|5].low', 5, 0, 'east'), ('[5|5].arm-a', 0, -2, 'north'), \
('[5|5].arm-b', 0, 2, 'south')]
    """
    if type(layout) is not Layout:
        raise InvalidStateError("FORMAT-3", f"geometry draws a Layout, got {described(layout, 200)}")
    if bounds is not None and type(bounds) is not Bounds:
        raise InvalidStateError("FORMAT-3", f"bounds is a Bounds or None, got {described(bounds, 200)}")
    if layout.is_empty:
        return LayoutGeometry((), (), bounds)
    joined = _joins(layout)
    sniff = layout.sniff_tile
    centre = sniff if sniff is not None else layout.placements[0].tile
    # GEOM-2: the centre at the origin; a non-double lead low half west, the Sniff crosswise.
    placed = {
        centre: TileGeometry(
            centre, 0, 0, "vertical" if sniff else "horizontal", (centre.low, centre.high), Direction.EAST
        )
    }
    anchors: dict[tuple[Tile, Port], tuple[int, int, Direction]] = {}
    for port, direction in _centre_ports(layout, joined):
        # GEOM-3: the chain sides of the Sniff are 1 unit from its centre, its arms and a lead's ends 2.
        start = 1 if sniff is not None and port in (Port.CHAIN_A, Port.CHAIN_B) else 2
        line = _Line(direction, start, _limit(bounds, direction))
        last = (centre, port)
        for tile, entry in _walk(joined, (centre, port)):
            placed[tile] = line.place(tile, _pip(tile, entry))
            last = (tile, _OTHER_PORT[entry])
        x, y = line.anchor()
        anchors[last] = (x, y, line.direction())
    tiles = tuple(placed[placement.tile] for placement in layout.placements)
    points = []
    for point in layout.open_points:
        x, y, direction = anchors[(point.tile, point.port)]
        points.append(PointGeometry(point, x, y, direction))
    return LayoutGeometry(tiles, tuple(points), bounds)


def overlapping(picture: LayoutGeometry) -> list[tuple[Tile, Tile]]:
    """Each pair of tiles whose boxes share more than an edge: none, by GEOM-1."""
    found = []
    tiles = picture.tiles
    for i, first in enumerate(tiles):
        a = first.box
        for second in tiles[i + 1 :]:
            b = second.box
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                found.append((first.tile, second.tile))
    return found


def outside(picture: LayoutGeometry, bounds: Bounds) -> list[Tile]:
    """The tiles that reach past ``bounds``."""
    found = []
    for tile in picture.tiles:
        left, top, right, bottom = tile.box
        wide, high = bounds.half_width, bounds.half_height
        if (wide is not None and (left < -wide or right > wide)) or (
            high is not None and (top < -high or bottom > high)
        ):
            found.append(tile.tile)
    return found
