"""end_count_of still counting an ordinary double once both long sides are
occupied, against COUNT-3.

A deliberately broken copy for ``tests/test_contracts.py``: crosshair must
refute the contract, which is copied unchanged from
``sniff_rules.verify.contracts.end_count_of``.
"""

# CrossHair's search budget for the contracts below: this many paths per condition, the same on any
# machine however busy, where a time budget would search less on a loaded one (tests/test_contracts.py).
# crosshair: max_iterations=100

from __future__ import annotations


def end_count_of(
    free_ends: tuple[int, ...], doubles: tuple[tuple[int, int], ...], sniff: tuple[int, int, int] | None
) -> int:
    """The end count of a layout described by what can score.

    pre: len(free_ends) <= 4 and all(0 <= pips <= 6 for pips in free_ends)
    pre: all(0 <= value <= 6 and 1 <= sides <= 2 for value, sides in doubles)
    pre: sniff is None or (0 <= sniff[0] <= 6 and 0 <= sniff[1] <= 2 and 0 <= sniff[2] <= (2 if sniff[1] == 2 else 0))
    post: __return__ == sum(free_ends) + sum(2 * value for value, sides in doubles if sides < 2) + (0 if sniff is None else 2 * sniff[0] if sniff[1] < 2 else (2 - sniff[2]) * sniff[0])
    """  # noqa: E501 - CrossHair reads each condition from one line
    count = 0
    for pips in free_ends:
        count += pips
    for value, _sides in doubles:
        count += 2 * value
    if sniff is not None:
        value, sides, arms_covered = sniff
        if sides < 2:
            count += 2 * value
        else:
            count += (2 - arms_covered) * value
    return count
