"""House rules (SETUP-2..4): the limits and who plays for which score."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sniff_rules import DOUBLE_SIX, InvalidRulesError, Rules, new_match


def refusal(make: Callable[[], object]) -> str:
    """The text of the :class:`InvalidRulesError` that ``make()`` raises."""
    with pytest.raises(InvalidRulesError) as caught:
        make()
    return str(caught.value)


def test_five_players_are_refused_and_named() -> None:
    """SETUP-2: two, three or four players; the error names the 5 asked for."""
    assert "SETUP-2: American Sniff is for 2 to 4 players, got 5" == refusal(lambda: Rules.standard(5))


def test_a_hand_of_one_tile_is_a_valid_house_rule() -> None:
    """SETUP-4: one tile each for four players leaves 24 in the boneyard, so it is allowed and dealt."""
    rules = Rules(4, 1, 200)
    assert 1 == rules.hand_size
    state = new_match(rules, order=DOUBLE_SIX, opener=0)
    assert ((DOUBLE_SIX[0],), (DOUBLE_SIX[1],), (DOUBLE_SIX[2],), (DOUBLE_SIX[3],)) == state.hands
    assert DOUBLE_SIX[4:] == state.boneyard


def test_a_hand_size_that_leaves_no_boneyard_is_refused_and_named() -> None:
    """SETUP-4: 7 tiles each for 4 players is all 28 tiles; the error names both numbers."""
    expected = "SETUP-4: 7 tiles each for 4 players does not leave a boneyard of the 28 tiles"
    assert expected == refusal(lambda: Rules(4, 7, 200))


def test_a_target_that_is_not_a_multiple_of_five_is_refused_and_named() -> None:
    """SETUP-3: the target is a positive multiple of 5; 12 is refused."""
    assert "SETUP-3: the target is a positive multiple of 5 raw points, got 12" == refusal(lambda: Rules(2, 7, 12))


def test_partners_sit_opposite() -> None:
    """SETUP-2: with four players seats 0 and 2 play for side 0, seats 1 and 3 for side 1."""
    rules = Rules.standard(4)
    assert ((0, 2), (1, 3)) == (rules.seats_of(0), rules.seats_of(1))


def test_without_partners_each_seat_is_its_own_side() -> None:
    """SETUP-2: with two or three players each side is one seat."""
    assert ((0,), (1,), (2,)) == tuple(Rules.standard(3).seats_of(side) for side in range(3))
    assert ((0,), (1,)) == tuple(Rules.standard(2).seats_of(side) for side in range(2))
