"""Real positions and steps of seeded matches, and helpers to spoil them, for the tests of sniff_rules.position.laws."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs
import pytest

from sniff_rules._fast import constructor, is_native
from sniff_rules.errors import SniffError
from sniff_rules.moves import Draw, Move, Pass, Place, apply
from sniff_rules.play.bots import random_move
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round

T = TypeVar("T")

Step = tuple[State, Move | None, State]
"""A state, the move made in it (None for ``next_round``), and the state it led to."""


@functools.cache
def steps_of(players: int) -> tuple[Step, ...]:
    """Every step of three seeded random matches for ``players``, deals included."""
    found: list[Step] = []
    for seed in range(3):
        state = new_match(Rules.standard(players), seed)
        source: RandomSource = SplitMix64.from_seed(seed)
        while state.phase is not Phase.MATCH_OVER:
            if state.phase is Phase.ROUND_OVER:
                after = next_round(state)
                found.append((state, None, after))
            else:
                move, source = random_move(state, source)
                after = apply(state, move)
                found.append((state, move, after))
            state = after
    return tuple(found)


def first_step(players: int, wanted: Callable[[State, Move | None, State], bool]) -> Step:
    """The first step of :func:`steps_of` that is ``wanted``."""
    return next(step for step in steps_of(players) if wanted(*step))


def first_move(players: int, wanted: Callable[[State, Move, State], bool]) -> tuple[State, Move, State]:
    """The first move (not a deal) of :func:`steps_of` that is ``wanted``."""
    for before, move, after in steps_of(players):
        if move is not None and wanted(before, move, after):
            return before, move, after
    raise AssertionError("no such move in the sample matches")


def evolved(value: T, **changes: Any) -> T:
    """``value`` with changes of any type, to build states that break a law.

    The library's public constructors refuse a malformed field (FORMAT-3), so
    a value built on every move is rebuilt through its unchecked constructor,
    as a buggy engine would build it; the laws must still catch it.
    """
    cls: Any = type(value)
    if "_construct" in vars(cls):
        fields = {field.name: getattr(value, field.name) for field in attrs.fields(cls)}
        try:
            return cast(T, constructor(cls)(**{**fields, **changes}))
        except SniffError:
            # The compiled build's native values refuse, even unchecked, a field they cannot hold:
            # such a value does not exist there, so no law has to catch it.
            if not is_native(cls):
                raise
            pytest.skip(f"a compiled {cls.__name__} cannot hold {changes!r:.80}")
    original: Any = value
    return cast(T, attrs.evolve(original, **changes))


def with_context(state: State, **changes: Any) -> State:
    """``state`` with the fields of its round context changed."""
    return evolved(state, context=evolved(state.context, **changes))


def placed_out(before: State, move: Move, after: State) -> bool:
    """The move played the last tile of the hand and ended the round."""
    return isinstance(move, Place) and after.phase is Phase.ROUND_OVER and not after.hand_masks[before.to_move]


def blocked(before: State, move: Move, after: State) -> bool:
    """The move ended the round with nobody able to place."""
    return after.phase is Phase.ROUND_OVER and not (isinstance(move, Place) and not after.hand_masks[before.to_move])


def scoring(before: State, move: Move, after: State) -> bool:
    """The move was a placement that scored, and the round goes on."""
    return isinstance(move, Place) and after.phase is Phase.PLAYING and after.scores != before.scores


OPENING = new_match(Rules.standard(2), seed=1)
"""Round 1 of a two-player match, before the lead: seat 0 leads."""
PLACED = first_move(2, scoring)
"""A placement that scores and leaves the round in play."""
DRAW_FITS = first_move(2, lambda b, m, a: isinstance(m, Draw) and a.drawn >= 0)
DRAW_MISSES = first_move(2, lambda b, m, a: isinstance(m, Draw) and a.phase is Phase.PLAYING and a.drawn < 0)
PASSED = first_move(4, lambda b, m, a: isinstance(m, Pass))
PLAYED_OUT = first_move(4, placed_out)
"""A four-player round played out: partners' hands settle per side."""
BLOCKED = first_move(2, blocked)
WON = first_move(2, lambda b, m, a: a.phase is Phase.MATCH_OVER)
DEALT = first_step(2, lambda b, m, a: m is None and b.last_round is not None and b.last_round.finisher is not None)
"""A round dealt after a played-out one."""
DEALT_AFTER_BLOCK = first_step(2, lambda b, m, a: m is None and b.last_round is not None and b.last_round.blocked)
