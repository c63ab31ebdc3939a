"""Tiles of the double-six set (SETUP-1).

A tile is stored once, in canonical orientation: ``low <= high``. The 28
tiles are numbered 0..27 in lexicographic order of ``(low, high)``; the
engine works on those numbers and bit masks of them, the public API on
:class:`Tile` values.
"""

# CrossHair's search budget for the contracts below: this many paths per condition, the same on any
# machine however busy, where a time budget would search less on a loaded one (tests/test_contracts.py).
# crosshair: max_iterations=100

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, NewType, TypeAlias, cast, overload

import attrs

from sniff_rules._fast import sealed
from sniff_rules.errors import InvalidStateError, InvalidTileError, NotationError, described

Pip: TypeAlias = int
"""A half's pip value, 0..6."""

TileIndex = NewType("TileIndex", int)
"""A tile's position 0..27 in :data:`DOUBLE_SIX`."""

HandMask = NewType("HandMask", int)
"""A set of tiles as one int: bit ``i`` set for the tile of index ``i``.

A distinct type from :data:`TileIndex` and the scores, so that mypy
catches one passed for another; at run time it is a plain int."""

# ``tuple`` itself, typed for mypy: a cast, not a function of their own, so that they cost
# nothing more than ``tuple`` in both builds (mypyc would compile a stub under TYPE_CHECKING).
hand_masks_of: Final = cast("Callable[[Iterable[int]], tuple[HandMask, ...]]", tuple)
"""The masks as a tuple of :data:`HandMask` (at run time, ``tuple`` itself: no cost)."""
tile_indices_of: Final = cast("Callable[[Iterable[int]], tuple[TileIndex, ...]]", tuple)
"""The indices as a tuple of :data:`TileIndex` (at run time, ``tuple`` itself: no cost)."""

NO_TILE: Final = TileIndex(-1)
"""Stands for "no tile" where a tile index is kept as an int (no drawn tile, no Sniff yet)."""

HIGHEST_PIP: Final = 6
TILE_COUNT: Final = 28


def tile_index_of(low: int, high: int) -> TileIndex:
    """Position of ``[low|high]`` in the lexicographic double-six order.

    The last three conditions pin the numbering down by induction: [0|0]
    is 0, the next tile in a row is one more, and each row starts one past
    the end, [low-1|6], of the row before.

    pre: 0 <= low <= high <= 6
    post: 0 <= __return__ < 28
    post: (low == high == 6) == (__return__ == 27)
    post: (low == high == 0) == (__return__ == 0)
    post: low == high or __return__ == tile_index_of(low, high - 1) + 1
    post: low != high or low == 0 or __return__ == tile_index_of(low - 1, 6) + 1
    """
    return TileIndex(7 * low - low * (low - 1) // 2 + (high - low))


def _check_pips(instance: Any, _attribute: object, _value: Any) -> None:
    low, high = instance.low, instance.high
    if type(low) is not int or type(high) is not int:
        raise InvalidTileError("SETUP-1", f"pips must be ints, got {low!r} and {high!r}")
    if not 0 <= low <= HIGHEST_PIP or not 0 <= high <= HIGHEST_PIP:
        raise InvalidTileError("SETUP-1", f"pips run 0..6, got [{low}|{high}]")
    if low > high:
        raise InvalidTileError("SETUP-1", f"a tile is written low half first: [{high}|{low}], not [{low}|{high}]")


def _shared_tile(low: Pip, high: Pip) -> Tile:
    """The one :data:`DOUBLE_SIX` tile with these halves: what a copy or an unpickled tile becomes."""
    return Tile.from_index(Tile(low, high).index)


@sealed(_shared_tile)
@attrs.frozen(repr=False, order=True)
class Tile:
    """One domino of the double-six set, low half first.

    >>> Tile(1, 4)
    Tile(1, 4)
    >>> str(Tile.of(4, 1)), Tile(3, 3).is_double, Tile(2, 5).pips
    ('[1|4]', True, 7)
    >>> Tile(4, 1)
    Traceback (most recent call last):
    ...
    sniff_rules.errors.InvalidTileError: SETUP-1: a tile is written low half first: [1|4], not [4|1]
    """

    low: Pip = attrs.field(validator=_check_pips)
    high: Pip = attrs.field(validator=_check_pips)
    index: TileIndex = attrs.field(init=False, eq=False, order=False, hash=False, repr=False)
    """Position 0..27 of this tile in :data:`DOUBLE_SIX`."""

    def __attrs_post_init__(self) -> None:
        # Stored, not a property: the engine reads it on every move.
        object.__setattr__(self, "index", tile_index_of(self.low, self.high))

    @overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
    @classmethod
    def of(cls, a: Pip, b: Pip) -> Tile: ...
    @classmethod
    def of(cls, a: Any, b: Any) -> Tile:
        """The tile with halves ``a`` and ``b`` in either order."""
        if type(a) is not int or type(b) is not int:
            raise InvalidTileError("SETUP-1", f"pips must be ints, got {a!r} and {b!r}")
        return cls(a, b) if a <= b else cls(b, a)

    @overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
    @classmethod
    def parse(cls, text: str) -> Tile: ...
    @classmethod
    def parse(cls, text: Any) -> Tile:
        """Read ``[a|b]`` (either order, spaces allowed) (FORMAT-1).

        >>> Tile.parse("[6|3]")
        Tile(3, 6)
        """
        if not isinstance(text, str):
            raise NotationError("FORMAT-1", f"a tile's text form is a str such as '[1|4]', got {text!r}")
        found = _TILE_TEXT.fullmatch(text.strip())
        if found is None:
            raise NotationError("FORMAT-1", f"{text!r} is not a tile; write it as [a|b] with pips 0..6")
        return DOUBLE_SIX[tile_index_of(*sorted((int(found.group(1)), int(found.group(2)))))]

    @classmethod
    def from_index(cls, index: int) -> Tile:
        """The tile at ``index`` of :data:`DOUBLE_SIX`."""
        if type(index) is not int or not 0 <= index < TILE_COUNT:
            raise InvalidTileError("SETUP-1", f"tile index runs 0..27, got {index!r}")
        return DOUBLE_SIX[index]

    @property
    def is_double(self) -> bool:
        """Whether both halves show the same pips."""
        return self.low == self.high

    @property
    def pips(self) -> int:
        """Both halves added: what the tile costs left in a hand."""
        return self.low + self.high

    def __str__(self) -> str:
        return f"[{self.low}|{self.high}]"

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"


_TILE_TEXT: Final = re.compile(r"\[\s*([0-6])\s*\|\s*([0-6])\s*\]")
_TILE_ITEM: Final = re.compile(r"\[[^\]]*\]|[^\s\[]+")
"""One bracketed item, or a run of other text that :meth:`Tile.parse` then refuses."""

DOUBLE_SIX: Final[tuple[Tile, ...]] = tuple(
    Tile(low, high) for low in range(HIGHEST_PIP + 1) for high in range(low, HIGHEST_PIP + 1)
)
"""The 28 tiles, index order."""

# Tables the engine reads instead of recomputing per move.
LOW_PIP: Final[tuple[int, ...]] = tuple(t.low for t in DOUBLE_SIX)
HIGH_PIP: Final[tuple[int, ...]] = tuple(t.high for t in DOUBLE_SIX)
TILE_PIPS: Final[tuple[int, ...]] = tuple(t.pips for t in DOUBLE_SIX)
IS_DOUBLE: Final[tuple[bool, ...]] = tuple(t.is_double for t in DOUBLE_SIX)
FULL_SET_MASK: Final = (1 << TILE_COUNT) - 1
PIP_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << t.index for t in DOUBLE_SIX if pip in (t.low, t.high)) for pip in range(HIGHEST_PIP + 1)
)
"""For each pip, the bit mask of the seven tiles showing it."""


_CHUNK_BITS: Final = 7
_CHUNK: Final = (1 << _CHUNK_BITS) - 1
_INDICES_OF_CHUNK: Final = tuple(
    tuple(
        tuple(TileIndex(_CHUNK_BITS * chunk + bit) for bit in range(_CHUNK_BITS) if subset >> bit & 1)
        for subset in range(_CHUNK + 1)
    )
    for chunk in range(TILE_COUNT // _CHUNK_BITS)
)
"""The indices in every subset of tiles 0-6, 7-13, 14-20 and 21-27."""
_TILES_OF_CHUNK: Final = tuple(
    tuple(tuple(DOUBLE_SIX[index] for index in indices) for indices in chunk) for chunk in _INDICES_OF_CHUNK
)


def indices_of_mask(mask: int) -> tuple[TileIndex, ...]:
    """The tile indices whose bits are set in ``mask``, ascending."""
    low, second, third, high = _INDICES_OF_CHUNK
    return low[mask & 127] + second[mask >> 7 & 127] + third[mask >> 14 & 127] + high[mask >> 21 & 127]


def tiles_of_mask(mask: int) -> tuple[Tile, ...]:
    """The tiles whose bits are set in ``mask``, index order."""
    low, second, third, high = _TILES_OF_CHUNK
    return low[mask & 127] + second[mask >> 7 & 127] + third[mask >> 14 & 127] + high[mask >> 21 & 127]


def mask_of_tiles(tiles: Iterable[Tile]) -> HandMask:
    """The bit mask with one bit per tile."""
    mask = 0
    for tile in tiles:
        mask |= 1 << tile.index
    return HandMask(mask)


def tiles_text(tiles: Iterable[Tile]) -> str:
    """Tiles written out, separated by spaces: ``[0|5] [1|2]`` (FORMAT-1).

    >>> tiles_text(parse_tiles("[5|0] [1|2]"))
    '[0|5] [1|2]'
    """
    return " ".join(map(str, tiles))


@overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
def parse_tiles(text: str) -> tuple[Tile, ...]: ...
def parse_tiles(text: Any) -> tuple[Tile, ...]:
    """The tiles of a space-separated text such as ``[0|5] [1|2]``, in the order written (FORMAT-1)."""
    if not isinstance(text, str):
        raise NotationError("FORMAT-1", f"tiles are written as text such as '[0|5] [1|2]', got {text!r}")
    items = _TILE_ITEM.findall(text)
    if "".join("".join(items).split()) != "".join(text.split()):
        raise NotationError("FORMAT-1", f"{text!r} is not a list of tiles such as '[0|5] [1|2]'")
    return tuple(Tile.parse(item) for item in items)


_PIPS_OF_CHUNK: Final = tuple(
    tuple(sum(TILE_PIPS[index] for index in indices) for indices in chunk) for chunk in _INDICES_OF_CHUNK
)
"""Pips of every subset of tiles 0-6, 7-13, 14-20 and 21-27: a hand's pips
in four look-ups, once per hand at every settlement."""


def pips_of_mask(mask: int) -> int:
    """Pips on the tiles of ``mask``: what a hand costs at settlement.

    >>> pips_of_mask(mask_of_tiles([Tile(1, 2), Tile(6, 6)]))
    15
    """
    low, second, third, high = _PIPS_OF_CHUNK
    return low[mask & 127] + second[mask >> 7 & 127] + third[mask >> 14 & 127] + high[mask >> 21 & 127]


TilesText: TypeAlias = "Sequence[Tile] | str"
"""Tiles given as values, or as text such as ``'[0|5] [1|2]'``."""


def _tiles_given(tiles: TilesText, what: str) -> tuple[Tile, ...]:
    found = parse_tiles(tiles) if isinstance(tiles, str) else tiles
    if not isinstance(found, (tuple, list)) or not all(isinstance(tile, Tile) for tile in found):
        raise InvalidStateError("FORMAT-3", f"{what} is a sequence of tiles or their text, got {described(tiles)}")
    return tuple(found)


def _mask_of_hand(tiles: TilesText, what: str) -> HandMask:
    hand = _tiles_given(tiles, what)
    mask = mask_of_tiles(hand)
    if mask.bit_count() != len(hand):
        # Entries, not tiles: a hand is a secret a refusal must not show.
        first = next(index for index, tile in enumerate(hand) if hand.index(tile) != index)
        raise InvalidStateError(
            "SETUP-1", f"{what} holds a tile twice: entries {hand.index(hand[first])} and {first} are one tile"
        )
    return mask
