"""play_points dividing the end count by five, as Muggins-style tallies do,
where POINTS-1 says a count of 15 scores 15.

A deliberately broken copy for ``tests/test_contracts.py``: crosshair must
refute the contract, which is copied unchanged from
``sniff_rules.scoring.play_points``.
"""

# CrossHair's search budget for the contracts below: this many paths per condition, the same on any
# machine however busy, where a time budget would search less on a loaded one (tests/test_contracts.py).
# crosshair: max_iterations=100

from __future__ import annotations


def play_points(end_count: int) -> int:
    """Raw points for a placement whose end count is ``end_count``.

    pre: end_count >= 0
    post: __return__ % 5 == 0
    post: __return__ in (0, end_count)
    post: (__return__ > 0) == (end_count > 0 and end_count % 5 == 0)
    """
    return end_count // 5 if end_count > 0 and end_count % 5 == 0 else 0
