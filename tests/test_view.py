"""What one seat may see (sniff_rules.view.observe): its own hand, the sizes of the others (SETUP-6)."""

from __future__ import annotations

import pytest

from sniff_rules import InvalidStateError, Phase, Rules, apply, legal_moves, new_match
from sniff_rules.bots import random_move
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.view import observe


def test_observation_hides_other_hands_until_the_round_ends() -> None:
    """SETUP-6: a seat sees its own hand and only the sizes of the others, until settlement."""
    state = new_match(Rules.standard(4), seed=11)
    source: RandomSource = SplitMix64.from_seed(11)
    while state.phase is Phase.PLAYING:
        for seat in range(4):
            view = observe(state, seat)
            assert state.hand(seat) == view.hand
            assert tuple(len(h) for h in state.hands) == view.hand_sizes
            assert view.revealed_hands is None
            assert (legal_moves(state) if seat == state.to_move else ()) == view.legal_moves
            if seat != state.to_move:
                assert view.drawn_tile is None
        move, source = random_move(state, source)
        state = apply(state, move)
    assert state.hands == observe(state, 0).revealed_hands


def test_observation_refuses_unknown_seat() -> None:
    """SETUP-2: a three-player state has no seat 3."""
    with pytest.raises(InvalidStateError):
        observe(new_match(Rules.standard(3), seed=1), 3)
