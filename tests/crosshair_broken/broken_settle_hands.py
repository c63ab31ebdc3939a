"""settle_hands adding partners' pips before rounding, against SETTLE-2
(two hands of 3 pips cost 5 + 5, never the rounding of 6).

A deliberately broken copy for ``tests/test_contracts.py``: crosshair must
refute the contract, which is copied unchanged from
``sniff_rules.verify.contracts.settle_hands``.
"""

# CrossHair's search budget for the contracts below: this many paths per condition, the same on any
# machine however busy, where a time budget would search less on a loaded one (tests/test_contracts.py).
# crosshair: max_iterations=100

from __future__ import annotations


def settle_hands(pips_per_seat: tuple[int, ...], players: int) -> tuple[int, ...]:
    """What each side loses at settlement, from each seat's pips.

    pre: 2 <= players <= 4
    pre: len(pips_per_seat) == players
    pre: all(0 <= pips <= 168 for pips in pips_per_seat)
    post: len(__return__) == (2 if players == 4 else players)
    post: all(deduction >= 0 and deduction % 5 == 0 for deduction in __return__)
    post: all(__return__[side] == sum((pips_per_seat[seat] + 2) // 5 * 5 for seat in range(side, players, len(__return__))) for side in range(len(__return__)))
    """  # noqa: E501 - CrossHair reads each condition from one line
    sides = 2 if players == 4 else players
    side_pips = [0] * sides
    for seat, pips in enumerate(pips_per_seat):
        side_pips[seat % sides] += pips
    deductions = []
    for pips in side_pips:
        remainder = pips % 5
        deductions.append(pips - remainder if remainder <= 2 else pips + 5 - remainder)
    return tuple(deductions)
