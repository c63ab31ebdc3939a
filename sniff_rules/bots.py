"""Simple players for demos, tests and benchmarks; they use the core only.

A bot is a pure function from a state (and a random source, for the
random one) to a move; it sees the whole state, so it is for simulation,
not for fair play against people.
"""

from __future__ import annotations

from sniff_rules.driver import play_match
from sniff_rules.errors import IllegalMoveError, InvalidStateError
from sniff_rules.moves import Move, Place, apply, legal_moves
from sniff_rules.randomness import RandomSource, draw_below
from sniff_rules.scoring import play_points
from sniff_rules.state import Phase, State


def _moves_of(state: State) -> tuple[Move, ...]:
    moves = legal_moves(state)
    if not moves:
        rule = "MATCH-2" if state.phase is Phase.MATCH_OVER else "END-1"
        raise IllegalMoveError(rule, f"no move is legal: the match is {state.phase.value}")
    return moves


def random_move(state: State, source: RandomSource) -> tuple[Move, RandomSource]:
    """A uniformly random legal move and the advanced source."""
    moves = _moves_of(state)
    choice, source = draw_below(source, len(moves))
    return moves[choice], source


def greedy_move(state: State) -> Move:
    """The legal move scoring the most points now; ties go to the heaviest tile,
    then to the first listed (shedding pips lowers the settlement)."""
    moves = _moves_of(state)
    best = moves[0]
    best_key = (-1, -1)
    for move in moves:
        if type(move) is not Place:
            return move
        after = apply(state, move)
        key = (play_points(after.layout.end_count), move.tile.pips)
        if key > best_key:
            best, best_key = move, key
    return best


def play_out(state: State, source: RandomSource) -> tuple[State, RandomSource]:
    """Play random moves (dealing new rounds as needed) until the match ends.

    The match is driven by :func:`sniff_rules.driver.play_match` with
    :func:`random_move` at every seat; returns its last state and source.
    """
    if type(state) is not State:
        raise InvalidStateError("FORMAT-3", f"play_out plays on from a State, got {state!r:.200}")
    for step in play_match(state, [random_move] * state.rules.players, source):
        state = step.state
        assert step.source is not None
        source = step.source
    return state, source
