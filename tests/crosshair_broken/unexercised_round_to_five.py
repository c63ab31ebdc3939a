"""round_to_five, correct, under a precondition that no input meets
(``pips % 5 == 5`` for ``pips % 5 == 0``), so none of its postconditions is
ever exercised.

Not a bug crosshair can show with a counterexample: without
``--report_all`` it prints nothing and exits 0 on this file.
``tests/test_contracts.py`` must still count it as a failure.
"""

# CrossHair's search budget for the contracts below: this many paths per condition, the same on any
# machine however busy, where a time budget would search less on a loaded one (tests/test_contracts.py).
# crosshair: max_iterations=100

from __future__ import annotations


def round_to_five(pips: int) -> int:
    """A multiple of five's deduction: itself.

    pre: pips >= 0 and pips % 5 == 5
    post: __return__ % 5 == 0
    post: __return__ == pips
    """
    remainder = pips % 5
    return pips - remainder if remainder <= 2 else pips + 5 - remainder
