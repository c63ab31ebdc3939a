"""Tiles of the double-six set (SETUP-1): validation, parsing and the bit masks of tiles."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import pytest

from sniff_rules import InvalidTileError, NotationError, SniffError, Tile
from sniff_rules.tiles import mask_of_tiles


def refusal(error: type[SniffError], make: Callable[[], object]) -> str:
    """The text of the ``error`` that ``make()`` raises (the rule id, a colon, the explanation)."""
    with pytest.raises(error) as caught:
        make()
    assert error is type(caught.value)
    return str(caught.value)


def test_a_float_pip_is_refused_even_beside_an_int() -> None:
    """SETUP-1: pips are ints 0..6; [1.0|4] is refused though 4 is an int and 1.0 lies in range."""
    loose = cast(int, 1.0)
    assert "SETUP-1: pips must be ints, got 1.0 and 4" == refusal(InvalidTileError, lambda: Tile(loose, 4))
    assert "SETUP-1: pips must be ints, got 2 and 5.0" == refusal(InvalidTileError, lambda: Tile(2, cast(int, 5.0)))


def test_a_pip_above_six_is_refused_and_named() -> None:
    """SETUP-1: pips run 0 to 6; [0|7] is refused and the error shows the tile as given."""
    assert "SETUP-1: pips run 0..6, got [0|7]" == refusal(InvalidTileError, lambda: Tile(0, 7))


def test_a_tile_written_high_half_first_is_refused_with_its_canonical_form() -> None:
    """SETUP-1: [4|1] is not a tile; the error names [1|4], the way to write it."""
    expected = "SETUP-1: a tile is written low half first: [1|4], not [4|1]"
    assert expected == refusal(InvalidTileError, lambda: Tile(4, 1))


def test_text_that_is_not_a_tile_is_refused_and_quoted() -> None:
    """SETUP-1: "[7|1]" names no tile of the double-six set; the error quotes the text."""
    expected = "SETUP-1: '[7|1]' is not a tile; write it as [a|b] with pips 0..6"
    assert expected == refusal(NotationError, lambda: Tile.parse("[7|1]"))


def test_an_index_outside_the_set_is_refused_and_named() -> None:
    """SETUP-1: the tiles are numbered 0 to 27; index 28 is refused."""
    assert "SETUP-1: tile index runs 0..27, got 28" == refusal(InvalidTileError, lambda: Tile.from_index(28))


def test_a_double_is_the_same_tile_in_either_order() -> None:
    """SETUP-1: Tile.of(3, 3) is [3|3], numbered 7 * 3 - 3 + 0 = 18."""
    assert (Tile(3, 3), 18) == (Tile.of(3, 3), Tile.of(3, 3).index)


def test_mask_of_tiles_sets_one_bit_per_tile_index() -> None:
    """SETUP-1: [0|1], [1|1] and [6|6] are tiles 1, 7 and 27, so their mask is 2 + 128 + 2**27."""
    assert 0 == mask_of_tiles([])
    assert 2 + 128 + 2**27 == mask_of_tiles([Tile(0, 1), Tile(1, 1), Tile(6, 6)])
    assert 1 + 2**27 == mask_of_tiles((Tile(6, 6), Tile(0, 0)))
