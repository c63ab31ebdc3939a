"""round_to_five with a remainder of 3 rounded down instead of up (SETTLE-1).

A deliberately broken copy for ``tests/test_contracts.py``: crosshair must
refute the contract, which is copied unchanged from
``sniff_rules.scoring.round_to_five``.
"""

# CrossHair's search budget for the contracts below: this many paths per condition, the same on any
# machine however busy, where a time budget would search less on a loaded one (tests/test_contracts.py).
# crosshair: max_iterations=100

from __future__ import annotations


def round_to_five(pips: int) -> int:
    """A hand's deduction: pips to the nearest multiple of 5.

    pre: pips >= 0
    post: __return__ % 5 == 0
    post: abs(__return__ - pips) <= 2
    post: __return__ >= pips if pips % 5 >= 3 else __return__ <= pips
    post: __return__ == (pips + 2) // 5 * 5
    """
    remainder = pips % 5
    return pips - remainder if remainder <= 3 else pips + 5 - remainder
