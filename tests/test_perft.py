"""Perft counts (sniff_rules.verify.perft) against a plain recursive count."""

from __future__ import annotations

import pytest

from sniff_rules.errors import InvalidStateError
from sniff_rules.formats.notation import parse_move
from sniff_rules.moves import apply, legal_moves
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match
from sniff_rules.tiles import DOUBLE_SIX, Tile
from sniff_rules.verify.perft import perft


def plain_count(state: State, depth: int) -> int:
    """Move sequences of exactly ``depth`` moves, counted one by one."""
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(plain_count(apply(state, move), depth - 1) for move in moves)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_perft_counts_every_sequence_to_each_depth(players: int) -> None:
    """TURN-1 OPEN-3 PLACE-1: counts[d-1] is the number of d-move sequences; divide splits the deepest by first move."""
    state = new_match(Rules.standard(players), seed=players)
    counts, divide = perft(state, 3)
    assert [plain_count(state, depth) for depth in (1, 2, 3)] == counts
    assert sorted(str(move) for move in legal_moves(state)) == sorted(divide)
    assert {str(move): plain_count(apply(state, move), 2) for move in legal_moves(state)} == divide


def test_perft_stops_where_the_round_ends() -> None:
    """END-1 TURN-1: a sequence that ends the round contributes nothing deeper."""
    first = (Tile(0, 1), Tile(1, 1))
    order = first + tuple(tile for tile in DOUBLE_SIX if tile not in first)
    state = new_match(Rules(2, 1, 250), order=order, opener=0)
    assert Phase.ROUND_OVER == apply(state, parse_move("0:[0|1]")).phase
    assert ([1, 0, 0], {"0:[0|1]": 0}) == perft(state, 3)


@pytest.mark.parametrize("depth", [0, -1, 2.0, "2", None])
def test_a_depth_that_is_no_positive_integer_is_refused(depth: object) -> None:
    """TURN-1: a depth that is no positive integer raises InvalidStateError, never a bare ValueError."""
    state = new_match(Rules.standard(2), seed=1)
    with pytest.raises(InvalidStateError) as caught:
        perft(state, depth)  # type: ignore[arg-type]
    assert "TURN-1" == caught.value.rule
