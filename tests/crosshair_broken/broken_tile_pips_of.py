"""tile_pips_of moving to the next row one index too late, so the index of
each [low|low] past the first comes out as [low-1|7] (SETUP-1).

A deliberately broken copy for ``tests/test_contracts.py``: crosshair must
refute the contract, which is copied unchanged from
``sniff_rules.verify.contracts.tile_pips_of``.
"""

# CrossHair's search budget for the contracts below: this many paths per condition, the same on any
# machine however busy, where a time budget would search less on a loaded one (tests/test_contracts.py).
# crosshair: max_iterations=100

from __future__ import annotations

from sniff_rules.tiles import HIGH_PIP, LOW_PIP, tile_index_of  # noqa: F401 - read by the post: conditions


def tile_pips_of(index: int) -> tuple[int, int]:
    """The ``(low, high)`` pips of the tile numbered ``index``.

    pre: 0 <= index < 28
    post: 0 <= __return__[0] <= __return__[1] <= 6
    post: tile_index_of(__return__[0], __return__[1]) == index
    post: __return__ == (LOW_PIP[index], HIGH_PIP[index])
    """
    low = 0
    first = 0
    while index > first + 7 - low:
        first += 7 - low
        low += 1
    return low, low + index - first
