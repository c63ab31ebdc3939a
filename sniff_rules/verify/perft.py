"""Perft: how many distinct legal move sequences lead from a position to each depth.

The count python-chess and every chess engine use to prove move generation
right: a wrong legal move anywhere in the tree changes a number. The
``perft.json`` vectors record these counts for fixed positions.

>>> from sniff_rules import Rules, new_match
>>> state = new_match(Rules.standard(2), seed=1)
>>> counts, divide = perft(state, 2)
>>> counts[0] == len(divide) and counts[1] == sum(divide.values())
True
"""

from __future__ import annotations

from sniff_rules.errors import InvalidStateError
from sniff_rules.moves import apply, legal_moves
from sniff_rules.state import State


def perft(state: State, depth: int) -> tuple[list[int], dict[str, int]]:
    """Distinct legal move sequences from ``state``: the count at each depth 1..depth,
    and for each first move the count at ``depth`` below it ("divide").

    A draw and a pass are moves (TURN-1). A sequence stops where the round
    or the match ends: a state with no legal move contributes nothing deeper.
    """
    if type(depth) is not int or depth < 1:
        raise InvalidStateError("TURN-1", f"perft counts sequences of one move or more; depth {depth!r} is not")
    moves = legal_moves(state)
    counts = [0] * depth
    counts[0] = len(moves)
    divide: dict[str, int] = {}
    for move in moves:
        if depth == 1:
            divide[str(move)] = 1
            continue
        below = _counts(apply(state, move), depth - 1)
        for ply, count in enumerate(below, 1):
            counts[ply] += count
        divide[str(move)] = below[-1]
    return counts, divide


def _counts(state: State, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(node: State, ply: int) -> None:
        moves = legal_moves(node)
        counts[ply] += len(moves)
        if ply + 1 < depth:
            for move in moves:
                walk(apply(node, move), ply + 1)

    walk(state, 0)
    return counts
