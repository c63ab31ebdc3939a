"""legal_placements listing a tile once even when it fits two open points,
where the engine offers it at each point (PLACE-1).

A deliberately broken copy for ``tests/test_contracts.py``: crosshair must
refute the contract, which is copied unchanged from
``sniff_rules.verify.contracts.legal_placements``.
"""

# CrossHair's search budget for the contracts below: this many paths per condition, the same on any
# machine however busy, where a time budget would search less on a loaded one (tests/test_contracts.py).
# crosshair: max_iterations=100

from __future__ import annotations

from sniff_rules.tiles import HIGH_PIP, LOW_PIP
from sniff_rules.verify.contracts import LEAD, Move, tile_pips_of  # noqa: F401 - read by the post: conditions


def legal_placements(hand: tuple[int, ...], open_values: tuple[int, ...]) -> tuple[Move, ...]:
    """Every placement from ``hand``, by open point and then in hand order.

    pre: all(0 <= tile < 28 for tile in hand)
    pre: len(open_values) <= 4
    post: list(__return__) == [(point, tile) for point in (range(len(open_values)) if open_values else (LEAD,)) for tile in hand if not open_values or open_values[point] in tile_pips_of(tile)]
    """  # noqa: E501 - CrossHair reads each condition from one line
    if not open_values:
        return tuple((LEAD, tile) for tile in hand)
    moves: list[Move] = []
    offered: set[int] = set()
    for point, value in enumerate(open_values):
        for tile in hand:
            if tile not in offered and (LOW_PIP[tile] == value or HIGH_PIP[tile] == value):
                offered.add(tile)
                moves.append((point, tile))
    return tuple(moves)
