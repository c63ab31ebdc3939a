"""Points and settlement (POINTS-1, SETTLE-1..2, SETUP-2): the edges of the counts and the hands given."""

from __future__ import annotations

import pytest

from sniff_rules import InvalidStateError, Rules, play_points, settle_round
from support import tiles


def test_a_count_of_zero_or_one_scores_nothing() -> None:
    """POINTS-1: zero and 1 are no positive multiple of 5; 5 scores 5."""
    assert (0, 0, 5) == (play_points(0), play_points(1), play_points(5))


def test_settlement_needs_one_hand_per_player() -> None:
    """SETUP-2: four players hold four hands; settling three is refused with both numbers named."""
    hands = (tiles("[1|2]"), (), tiles("[0|3]"))
    with pytest.raises(InvalidStateError) as caught:
        settle_round(Rules.standard(4), hands)
    assert "SETUP-2: 4 players hold 4 hands, got 3" == str(caught.value)


def test_partners_are_rounded_separately() -> None:
    """SETTLE-1, SETTLE-2: seats 0 and 2 hold 3 pips each: 5 + 5 = 10 off side 0, not the rounding of 6."""
    hands = (tiles("[1|2]"), tiles("[0|1]"), tiles("[0|3]"), tiles("[6|6]"))
    settlement = settle_round(Rules.standard(4), hands)
    assert ((3, 1, 3, 12), (5, 0, 5, 10), (10, 10)) == (
        settlement.hand_pips,
        settlement.deductions,
        settlement.side_deductions,
    )
