"""Attachment points: the ports of a tile and the tables of every point.

The seed's own vocabulary: a non-double has a **lower end** and a **higher
end**; a double, played crosswise, has **chain sides A and B** (side A is
the one attached to the line, PLACE-2); the Sniff also has **arms A and
B** (SNIFF-1). An :class:`AttachmentPoint` is a (tile, port) pair where a
tile may be attached. Every point there is is built once, into
:data:`POINTS`, its value into :data:`POINT_VALUE`: the layout reads them
on every placement instead of building points.

Point ids: ``tile index * 6 + port``; sorting them sorts by tile, then port.

A :class:`Placement` is a tile put on a point (or led), a :class:`Connection`
which ports two placed tiles join by, a :class:`Contribution` one scored term
of the end count; :mod:`sniff_rules.layout` keeps them and re-exports them.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, Final, NewType, cast

import attrs

from sniff_rules._fast import sealed
from sniff_rules.errors import InvalidMoveError, InvalidStateError
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT, Pip, Tile

PointId = NewType("PointId", int)
"""``tile index * 6 + port``: an attachment point as one small int."""

# ``tuple`` itself, typed for mypy, as tiles.hand_masks_of is.
point_ids_of: Final = cast("Callable[[list[int]], tuple[PointId, ...]]", tuple)
"""The ids as a tuple of :data:`PointId` (at run time, ``tuple`` itself: no cost)."""


class Port(enum.IntEnum):
    """Where on a tile something may attach."""

    LOW = 0
    """A non-double's lower end."""
    HIGH = 1
    """A non-double's higher end."""
    CHAIN_A = 2
    """A double's long side that joins the line (either side of a lone lead)."""
    CHAIN_B = 3
    """A double's other long side."""
    ARM_A = 4
    """The Sniff's first side arm."""
    ARM_B = 5
    """The Sniff's second side arm."""

    def __repr__(self) -> str:
        return f"Port.{self.name}"

    @property
    def label(self) -> str:
        """The seed's name for the port: ``low``, ``high``, ``chain-a`` ..."""
        return self.name.lower().replace("_", "-")


PORTS: Final = 6
"""Ports a tile has room for: a point id is ``tile index * PORTS + port``."""


def _port_value(tile: Tile, port: Port) -> Pip:
    return tile.high if port is Port.HIGH else tile.low


def _to_port(port: object) -> Port:
    if type(port) is Port:
        return port
    if type(port) is not int or not 0 <= port < PORTS:
        raise InvalidMoveError("PLACE-2", f"a port is a Port or its number 0..5, got {port!r}")
    return Port(port)


def _check_point_tile(_instance: object, _attribute: object, tile: Any) -> None:
    if not isinstance(tile, Tile):
        raise InvalidMoveError("FORMAT-3", f"an attachment point is on a Tile, got {tile!r}")


def _check_port_of_tile(point: Any, _attribute: object, port: Any) -> None:
    tile = point.tile
    if tile.is_double == (port <= Port.HIGH):
        kind = "double" if tile.is_double else "non-double"
        raise InvalidMoveError("PLACE-2", f"a {kind} like {tile} has no {port.label} port")


def _shared_point(tile: Tile, port: Port) -> AttachmentPoint:
    """The one point of this tile and port that the engine's tables hold."""
    return AttachmentPoint.from_id(AttachmentPoint(tile, port).id)


@sealed(_shared_point)
@attrs.frozen(repr=False)
class AttachmentPoint:
    """A port of a tile on the table, e.g. the higher end of [1|4].

    >>> AttachmentPoint(Tile(1, 4), Port.HIGH)
    AttachmentPoint(Tile(1, 4), Port.HIGH)
    >>> str(AttachmentPoint(Tile(1, 1), Port.ARM_A)), AttachmentPoint(Tile(1, 4), Port.HIGH).value
    ('[1|1].arm-a', 4)
    """

    tile: Tile = attrs.field(validator=_check_point_tile)
    # The validator is given here, not with @port.validator: mypyc compiles this class body and drops
    # a validator registered by decorating a method.
    port: Port = attrs.field(converter=_to_port, validator=_check_port_of_tile)
    id: PointId = attrs.field(init=False, eq=False, order=False, hash=False, repr=False)
    """This point as one int, ``tile.index * 6 + port``; stored because
    ``apply`` reads it on every placement."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "id", self.tile.index * PORTS + self.port)

    @classmethod
    def from_id(cls, point_id: int) -> AttachmentPoint:
        """The point with this id (see :data:`PointId`); an id of a port no tile has is refused."""
        if type(point_id) is not int or point_id not in VALID_POINT_IDS:
            raise InvalidMoveError(
                "PLACE-2", f"a point id is tile index * 6 + a port that tile has, 0..167; got {point_id!r}"
            )
        return POINTS[point_id]

    @property
    def value(self) -> Pip:
        """The pips a tile must show to attach here."""
        return _port_value(self.tile, self.port)

    def __str__(self) -> str:
        return f"{self.tile}.{self.port.label}"

    def __repr__(self) -> str:
        return f"AttachmentPoint({self.tile!r}, {self.port!r})"


def _make_points() -> tuple[AttachmentPoint | None, ...]:
    return tuple(
        None if tile.is_double == (port <= Port.HIGH) else AttachmentPoint(tile, port)
        for tile in DOUBLE_SIX
        for port in Port
    )


_POINT_OR_NONE: Final = _make_points()
POINTS: Final[tuple[AttachmentPoint, ...]] = tuple(
    point if point is not None else AttachmentPoint(Tile(0, 1), Port.LOW) for point in _POINT_OR_NONE
)
"""Every point by id; ids of ports a tile does not have hold a placeholder
and never occur in a layout."""
POINT_VALUE: Final[tuple[int, ...]] = tuple(
    _port_value(DOUBLE_SIX[pid // PORTS], Port(pid % PORTS)) for pid in range(TILE_COUNT * PORTS)
)
VALID_POINT_IDS: Final = frozenset(PointId(pid) for pid, p in enumerate(_POINT_OR_NONE) if p is not None)


def _check_placed_tile(_instance: object, _attribute: object, tile: Any) -> None:
    if not isinstance(tile, Tile):
        raise InvalidMoveError("FORMAT-3", f"a placement puts a Tile on the table, got {tile!r}")


def _check_optional_target(_instance: object, _attribute: object, target: Any) -> None:
    if target is not None and not isinstance(target, AttachmentPoint):
        raise InvalidMoveError("FORMAT-3", f"a target is an AttachmentPoint, or None for the lead; got {target!r}")


@sealed()
@attrs.frozen(repr=False)
class Placement:
    """One tile put on the table: on ``target``, or as the lead when None."""

    tile: Tile = attrs.field(validator=_check_placed_tile)
    target: AttachmentPoint | None = attrs.field(validator=_check_optional_target)

    def __repr__(self) -> str:
        return f"Placement({self.tile!r}, {self.target!r})"

    def __str__(self) -> str:
        return f"{self.tile}" if self.target is None else f"{self.tile}>{self.target}"


def _check_int(_instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not int:
        raise InvalidStateError("FORMAT-3", f"{attribute.name} is an int, got {value!r}")


def _check_point(_instance: object, attribute: attrs.Attribute[Any], point: Any) -> None:
    if not isinstance(point, AttachmentPoint):
        raise InvalidStateError("FORMAT-3", f"{attribute.name} is an AttachmentPoint, got {point!r}")


@sealed()
@attrs.frozen
class Contribution:
    """One scored term of the end count: a tile and what it adds (COUNT-1..4)."""

    tile: Tile = attrs.field(validator=_check_placed_tile)
    value: int = attrs.field(validator=_check_int)

    def __str__(self) -> str:
        return f"{self.tile}: {self.value}"


@sealed()
@attrs.frozen
class Connection:
    """Two ports joined on the table, as the seed lists them."""

    existing: AttachmentPoint = attrs.field(validator=_check_point)
    placed: AttachmentPoint = attrs.field(validator=_check_point)

    def __str__(self) -> str:
        return f"{self.existing} - {self.placed}"
