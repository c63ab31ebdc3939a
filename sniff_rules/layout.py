"""The layout on the table: the Sniff geometry and the end count.

Where a tile may be attached and what is scored are different things
(COUNT-1..4), so the layout keeps both: the open attachment points
(:mod:`sniff_rules.points`, the ports of a tile and the tables of every
point), and the end count updated incrementally with each placement.
"""

from __future__ import annotations

import re
from bisect import insort
from typing import Any, ClassVar, Final, final, overload

from sniff_rules._fast import constructor, is_native, refuse_unstorable
from sniff_rules._value_class import value_class
from sniff_rules.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, NotationError, unchained
from sniff_rules.points import (
    POINT_VALUE as POINT_VALUE,
    POINTS as POINTS,
    PORTS as PORTS,
    VALID_POINT_IDS as VALID_POINT_IDS,
    AttachmentPoint as AttachmentPoint,
    Connection as Connection,
    Contribution as Contribution,
    Placement as Placement,
    PointId as PointId,
    Port as Port,
    _port_value,
    point_ids_of,
)
from sniff_rules.tiles import (
    DOUBLE_SIX,
    FULL_SET_MASK,
    HIGH_PIP,
    IS_DOUBLE,
    LOW_PIP,
    NO_TILE,
    TILE_COUNT,
    Tile,
    TileIndex,
)

_LOW, _HIGH, _CHAIN_A, _CHAIN_B, _ARM_A, _ARM_B = range(PORTS)


def _check_layout_fields(layout: Any) -> None:
    """The shape of a Layout built by a public call; its geometry is checked by :meth:`Layout.place`."""
    placements = layout.placements
    if type(placements) is not tuple or not all(type(placement) is Placement for placement in placements):
        raise InvalidStateError("FORMAT-3", f"placements is a tuple of Placement values, got {placements!r}")
    ids = layout.open_point_ids
    if type(ids) is not tuple or not all(type(pid) is int and pid in VALID_POINT_IDS for pid in ids):
        raise InvalidStateError("FORMAT-3", f"open_point_ids is a tuple of point ids, got {ids!r}")
    for name in ("end_count", "sniff", "placed_mask"):
        if type(getattr(layout, name)) is not int:
            raise InvalidStateError("FORMAT-3", f"{name} is an int, got {getattr(layout, name)!r}")
    if not NO_TILE <= layout.sniff < TILE_COUNT:
        raise InvalidStateError("FORMAT-3", f"sniff is a tile index or -1, got {layout.sniff!r}")
    if not 0 <= layout.placed_mask <= FULL_SET_MASK:
        raise InvalidStateError("FORMAT-3", f"placed_mask is a set of the 28 tiles, got {layout.placed_mask!r}")


_PLACEMENT_TEXT: Final = re.compile(
    r"\s*(\[\s*[0-6]\s*\|\s*[0-6]\s*\])(?:\s*>\s*(\[\s*[0-6]\s*\|\s*[0-6]\s*\])\s*\.\s*([a-z-]+))?\s*"
)
_PORT_OF_LABEL: Final = {port.label: port for port in Port}


@final
@value_class(frozen=True, auto_attribs=True, slots=False, repr=False, weakref_slot=False)
class Layout:
    """Everything on the table, kept so each placement costs O(open points).

    ``open_point_ids`` is sorted; ``end_count`` is the sum of the scored
    contributions (COUNT-1..4); ``sniff`` is the tile index of the Sniff, or
    -1 before any double is played (SNIFF-1). Its text form is the
    placements in the order played, ``[5|5] [2|5]>[5|5].chain-a``, which
    :meth:`parse` replays.

    >>> layout = Layout.EMPTY.place(Tile(5, 5), None)
    >>> layout = layout.place(Tile(2, 5), AttachmentPoint(Tile(5, 5), Port.CHAIN_A))
    >>> layout = layout.place(Tile(3, 5), AttachmentPoint(Tile(5, 5), Port.CHAIN_B))
    >>> layout.end_count, [str(c) for c in layout.contributions]
    (15, ['[2|5]: 2', '[3|5]: 3', '[5|5]: 5', '[5|5]: 5'])
    >>> layout
    Layout.parse('[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b')
    """

    placements: tuple[Placement, ...] = ()
    open_point_ids: tuple[PointId, ...] = ()
    end_count: int = 0
    sniff: TileIndex = NO_TILE
    placed_mask: int = 0

    EMPTY: ClassVar[Layout]

    def __new__(
        cls,
        placements: object = (),
        open_point_ids: object = (),
        end_count: object = 0,
        sniff: object = NO_TILE,
        placed_mask: object = 0,
    ) -> Layout:
        """Unchecked, for the engine; runs compiled only (the interpreted build replaces it: _fast.frozen_value)."""
        if (
            type(placements) is not tuple
            or type(open_point_ids) is not tuple
            or type(end_count) is not int
            or type(sniff) is not int
            or type(placed_mask) is not int
        ):
            refuse_unstorable(_check_layout_fields, cls, (placements, open_point_ids, end_count, sniff, placed_mask))
        layout = object.__new__(cls)
        object.__setattr__(layout, "placements", placements)
        object.__setattr__(layout, "open_point_ids", open_point_ids)
        object.__setattr__(layout, "end_count", end_count)
        object.__setattr__(layout, "sniff", sniff)
        object.__setattr__(layout, "placed_mask", placed_mask)
        return layout

    def _check_fields(self) -> None:
        """What ``Layout(...)`` checks, and ``Layout.__new__(Layout, ...)`` does not (FORMAT-3)."""
        _check_layout_fields(self)

    @overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
    @classmethod
    def parse(cls, text: str) -> Layout: ...
    @classmethod
    def parse(cls, text: Any) -> Layout:
        """The layout of placements written as :meth:`__str__` writes them, each one checked (FORMAT-1, PLACE-1)."""
        if not isinstance(text, str):
            raise NotationError("FORMAT-1", f"a layout's text form is a str, got {text!r}")
        layout = cls.EMPTY
        position = 0
        while position < len(text) and not text[position:].isspace():
            found = _PLACEMENT_TEXT.match(text, position)
            if found is None or found.end() == position:
                raise NotationError("FORMAT-1", f"{text[position:]!r} is not a placement such as [1|1]>[1|4].low")
            tile = Tile.parse(found.group(1))
            target = None
            if found.group(2) is not None:
                port = _PORT_OF_LABEL.get(found.group(3))
                if port is None:
                    raise NotationError(
                        "FORMAT-1", f"{found.group(3)!r} is not a port; ports: {' '.join(_PORT_OF_LABEL)}"
                    )
                target = AttachmentPoint(Tile.parse(found.group(2)), port)
            layout = layout.place(tile, target)
            position = found.end()
        return layout

    @overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
    @classmethod
    def from_placements(cls, placements: tuple[Placement, ...]) -> Layout: ...
    @classmethod
    def from_placements(cls, placements: Any) -> Layout:
        """The layout these placements build, in order, each one checked (PLACE-1, SNIFF-2)."""
        layout = cls.EMPTY
        for placement in placements:
            if not isinstance(placement, Placement):
                raise InvalidMoveError("FORMAT-3", f"a layout is built from Placement values, got {placement!r}")
            layout = layout.place(placement.tile, placement.target)
        return layout

    def __str__(self) -> str:
        return " ".join(map(str, self.placements))

    def __repr__(self) -> str:
        return f"Layout.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The layout as SVG, for a notebook (:func:`sniff_rules.draw.svg.svg`)."""
        # The one import from the core outward (tests/test_layering.py names it):
        # a notebook asks for the picture, and the renderer imports the core.
        from sniff_rules.draw.svg import svg

        return svg(self)

    @property
    def open_points(self) -> tuple[AttachmentPoint, ...]:
        """Where a tile may attach now, sorted by tile then port."""
        return tuple(POINTS[pid] for pid in self.open_point_ids)

    @property
    def sniff_tile(self) -> Tile | None:
        """The Sniff, once a double has been played (SNIFF-1)."""
        return None if self.sniff < 0 else DOUBLE_SIX[self.sniff]

    @property
    def is_empty(self) -> bool:
        """Nothing played yet: the next placement is the lead (OPEN-3)."""
        return not self.placements

    @property
    def contributions(self) -> tuple[Contribution, ...]:
        """The scored terms of :attr:`end_count`, in point order (COUNT-1..4).

        A double with an open long side counts both halves once, however
        many of its long sides are open (COUNT-2).
        """
        terms: list[Contribution] = []
        counted_doubles: set[int] = set()
        for pid in self.open_point_ids:
            index, port = divmod(pid, PORTS)
            tile = DOUBLE_SIX[index]
            if port in (_CHAIN_A, _CHAIN_B):
                if index not in counted_doubles:
                    counted_doubles.add(index)
                    terms.append(Contribution(tile, 2 * tile.low))
            else:
                terms.append(Contribution(tile, POINT_VALUE[pid]))
        return tuple(terms)

    @property
    def connections(self) -> tuple[Connection, ...]:
        """Which port of which tile joins which, in the order played."""
        joined: list[Connection] = []
        for placement in self.placements:
            target = placement.target
            if target is not None:
                tile = placement.tile
                port = Port.CHAIN_A if tile.is_double else Port.LOW if tile.low == target.value else Port.HIGH
                joined.append(Connection(target, AttachmentPoint(tile, port)))
        return tuple(joined)

    @overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
    def place(self, tile: Tile, target: AttachmentPoint | None) -> Layout: ...
    def place(self, tile: Any, target: Any) -> Layout:
        """The layout after attaching ``tile`` at ``target`` (None: the lead).

        Checks the geometry only (PLACE-1, SNIFF-2); whose turn it is and
        what they hold is for :func:`sniff_rules.moves.apply`.
        """
        if not isinstance(tile, Tile):
            raise InvalidMoveError("FORMAT-3", f"a placement puts a Tile on the table, got {tile!r}")
        index = tile.index
        if self.placed_mask >> index & 1:
            raise IllegalMoveError("SETUP-1", f"{tile} is already on the table")
        if target is None:
            if self.placements:
                raise IllegalMoveError("OPEN-3", f"only the first tile is a lead; attach {tile} to an open point")
            return place_lead(index)
        if not isinstance(target, AttachmentPoint):
            raise InvalidMoveError("FORMAT-3", f"a target is an AttachmentPoint, or None for the lead; got {target!r}")
        try:
            return place_on(self, index, target.id)
        except (KeyError, ValueError):
            # place_on refuses exactly what the geometry forbids; the caller
            # sees only the rule, not the look-up that failed.
            raise unchained(placement_refusal(self, index, target.id)) from None


Layout.EMPTY = Layout()


def _new_layout(
    placements: tuple[Placement, ...],
    open_point_ids: tuple[PointId, ...],
    end_count: int,
    sniff: TileIndex,
    placed_mask: int,
) -> Layout:
    """``Layout(...)`` without the public check, for the hot path; bound as ``state._new_state`` is."""
    return Layout.__new__(Layout, placements, open_point_ids, end_count, sniff, placed_mask)


if not is_native(Layout):
    globals()["_new_layout"] = constructor(Layout)


def check_target(layout: Layout, index: TileIndex, point_id: PointId) -> None:
    """Refuse a placement of tile ``index`` on ``point_id`` that the geometry forbids."""
    if not layout.placements:
        raise IllegalMoveError("OPEN-3", f"the layout is empty: {DOUBLE_SIX[index]} must be led, not attached")
    if point_id not in layout.open_point_ids:
        point = POINTS[point_id]
        port = point_id % PORTS
        sniff_base = layout.sniff * PORTS
        long_side_free = (
            sniff_base + _CHAIN_A in layout.open_point_ids or sniff_base + _CHAIN_B in layout.open_point_ids
        )
        if port >= _ARM_A and point_id // PORTS == layout.sniff and long_side_free:
            raise IllegalMoveError(
                "SNIFF-2",
                f"{point} is a side arm of the Sniff; both long sides must be occupied before an arm opens",
            )
        raise IllegalMoveError(
            "PLACE-1",
            f"{point} is not an open attachment point; open: "
            + (", ".join(str(POINTS[pid]) for pid in layout.open_point_ids) or "none"),
        )
    value = POINT_VALUE[point_id]
    if LOW_PIP[index] != value and HIGH_PIP[index] != value:
        raise IllegalMoveError(
            "PLACE-1", f"{DOUBLE_SIX[index]} has no half matching {POINTS[point_id]} (value {value})"
        )


def placement_refusal(layout: Layout, index: TileIndex, point_id: PointId) -> IllegalMoveError:
    """The error naming the rule that forbids a placement :func:`place_on` refused."""
    try:
        check_target(layout, index, point_id)
    except IllegalMoveError as refusal:
        return refusal
    # Only a layout built by hand can hold a tile's own point open while the
    # tile is still to be placed.
    return IllegalMoveError("PLACE-1", f"{DOUBLE_SIX[index]} cannot attach to its own {POINTS[point_id]}")


def place_lead(index: TileIndex) -> Layout:
    """The lead, unchecked (OPEN-3): a layout of one tile, the same for every
    lead of that tile, so built once. A lead double is the Sniff (SNIFF-1)."""
    return _LEADS[index]


def place_on(layout: Layout, index: TileIndex, point_id: PointId) -> Layout:
    """Attach tile ``index`` at ``point_id``, from the parts that change.

    Checks nothing on purpose (:func:`check_target` does), but cannot build
    a wrong layout either: a tile that does not match the point raises
    KeyError, a point that is not open raises ValueError.
    """
    placement, free_id, delta = _STEPS[index][point_id]
    open_ids: list[int] = list(layout.open_point_ids)
    open_ids.remove(point_id)
    sniff = layout.sniff
    if free_id >= 0:
        # A non-double on an end or arm: fixed per (tile, point) (COUNT-1, COUNT-4).
        insort(open_ids, free_id)
        count = layout.end_count + delta
    else:
        count, sniff = _attach_by_chain_or_double(open_ids, layout.end_count, sniff, index, point_id)
        open_ids.sort()
    # By position, in the fields' order (placements, open_point_ids, end_count, sniff, placed_mask): keywords
    # cost a name match each on the one call every attachment makes.
    return _new_layout(
        layout.placements + (placement,),  # noqa: RUF005 - hot path: cheaper than unpacking
        point_ids_of(open_ids),
        count,
        sniff,
        layout.placed_mask | 1 << index,
    )


def _attach_by_chain_or_double(
    open_ids: list[int], count: int, sniff: TileIndex, index: TileIndex, point_id: PointId
) -> tuple[int, TileIndex]:
    """The end count and Sniff after a double is placed or a double's long
    side is covered; adds the points this opens to ``open_ids``."""
    value = POINT_VALUE[point_id]
    port = point_id % PORTS
    if port == _CHAIN_A or port == _CHAIN_B:  # noqa: SIM109 - hot path: builds no tuple of globals
        if point_id ^ 1 in open_ids:
            pass  # COUNT-2: the double still has a free long side and still counts both halves
        else:
            count -= 2 * value  # COUNT-3: an extended double counts nothing
            if point_id // PORTS == sniff:
                # SNIFF-3 / COUNT-4: both long sides now occupied; each uncovered arm counts one half.
                base = sniff * PORTS
                open_ids.append(base + _ARM_A)
                open_ids.append(base + _ARM_B)
                count += 2 * value
    else:
        count -= value  # COUNT-1 / COUNT-4: the covered end or arm no longer counts
    base = index * PORTS
    if IS_DOUBLE[index]:
        # PLACE-2: a double attaches by chain side A; side B is a new free end (COUNT-2).
        open_ids.append(base + _CHAIN_B)
        count += 2 * value
        if sniff < 0:
            sniff = index  # SNIFF-1: the first double of the round is the Sniff
    elif LOW_PIP[index] == value:
        open_ids.append(base + _HIGH)
        count += HIGH_PIP[index]
    else:
        open_ids.append(base + _LOW)
        count += LOW_PIP[index]
    return count, sniff


_LEAD_PLACEMENTS: Final = tuple(Placement(tile, None) for tile in DOUBLE_SIX)


def _lead(index: TileIndex) -> Layout:
    base = index * PORTS
    if IS_DOUBLE[index]:
        # COUNT-2: a lone double counts both halves once, not once per open side.
        open_ids = (PointId(base + _CHAIN_A), PointId(base + _CHAIN_B))
        return Layout((_LEAD_PLACEMENTS[index],), open_ids, 2 * LOW_PIP[index], index, 1 << index)
    return Layout(
        (_LEAD_PLACEMENTS[index],),
        (PointId(base + _LOW), PointId(base + _HIGH)),
        LOW_PIP[index] + HIGH_PIP[index],  # COUNT-1: both free ends of the lead
        NO_TILE,
        1 << index,
    )


_LEADS: Final = tuple(_lead(tile.index) for tile in DOUBLE_SIX)
"""Every lead's layout: a lead depends on the tile alone."""


def _step(index: TileIndex, point_id: PointId) -> tuple[Placement, PointId, int]:
    """What attaching tile ``index`` at ``point_id`` records, and, for a
    non-double on an end or arm, the point it opens and what the end count
    gains; ``(-1, 0)`` where the step depends on the layout."""
    tile = DOUBLE_SIX[index]
    placement = Placement(tile, POINTS[point_id])
    if tile.is_double or point_id % PORTS in (_CHAIN_A, _CHAIN_B):
        return placement, _NO_POINT, 0
    value = POINT_VALUE[point_id]
    if tile.low == value:
        # COUNT-1: the covered end stops counting, the tile's other end starts.
        return placement, PointId(index * PORTS + _HIGH), tile.high - value
    return placement, PointId(index * PORTS + _LOW), tile.low - value


_NO_POINT: Final = PointId(-1)


_STEPS: Final[tuple[dict[PointId, tuple[Placement, PointId, int]], ...]] = tuple(
    {
        pid: _step(tile.index, pid)
        for pid in sorted(VALID_POINT_IDS)
        if pid // PORTS != tile.index and POINT_VALUE[pid] in (tile.low, tile.high)
    }
    for tile in DOUBLE_SIX
)
"""For each tile, the points it can attach to (a matching half, another
tile) and each attachment's :func:`_step`."""


def recount_end(placements: tuple[Placement, ...]) -> int:
    """The end count rebuilt from the placements alone (COUNT-1..4).

    Independent of the incremental count kept by :class:`Layout`: it finds
    which ports are covered and sums the scored ends from scratch, so the
    two can be checked against each other.
    """
    if not placements:
        return 0
    covered: set[tuple[Tile, Port]] = set()
    sniff: Tile | None = None
    for placement in placements:
        tile, target = placement.tile, placement.target
        if tile.is_double and sniff is None:
            sniff = tile
        if target is not None:
            covered.add((target.tile, target.port))
            if tile.is_double:
                covered.add((tile, Port.CHAIN_A))
            elif tile.low == target.value:
                covered.add((tile, Port.LOW))
            else:
                covered.add((tile, Port.HIGH))
    total = 0
    for placement in placements:
        tile = placement.tile
        if not tile.is_double:
            total += sum(_port_value(tile, port) for port in (Port.LOW, Port.HIGH) if (tile, port) not in covered)
            continue
        long_sides = sum((tile, port) in covered for port in (Port.CHAIN_A, Port.CHAIN_B))
        if long_sides < 2:
            total += 2 * tile.low
        elif tile == sniff:
            total += sum(tile.low for port in (Port.ARM_A, Port.ARM_B) if (tile, port) not in covered)
    return total
