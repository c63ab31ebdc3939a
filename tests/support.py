"""Shared helpers for the rule-by-rule tests.

States built here are positions written down by hand: given hands, layout,
boneyard, scores and seat to move. Tiles named nowhere are out of play, so
a scenario only has to list the tiles that matter to it. A
:class:`ScriptedSource` replays chosen random values, so a test can fix a
lot or a shuffle and check which values the engine asked for.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Final

import attrs
import pytest

from sniff_rules import (
    DOUBLE_SIX,
    AttachmentPoint,
    Layout,
    Move,
    Phase,
    Port,
    Rules,
    Seat,
    SniffError,
    State,
    Tile,
    apply,
)
from sniff_rules.randomness import RandomSource
from sniff_rules.state import RoundResult



def shuffle_groups(size: int = 28) -> tuple[tuple[int, ...], ...]:
    """The bounds of a shuffle of ``size`` items, grouped as SETUP-5 states.

    Fisher–Yates needs ``j`` below ``i + 1`` for ``i`` from ``size - 1`` down
    to 1; successive bounds are multiplied while the product stays below
    2**64, and each group is one draw.
    """
    groups: list[tuple[int, ...]] = []
    bound = size
    while bound > 1:
        group = [bound]
        product = bound
        bound -= 1
        while bound > 1 and product * bound < 2**64:
            group.append(bound)
            product *= bound
            bound -= 1
        groups.append(tuple(group))
    return tuple(groups)


def shuffle_script(swaps: Sequence[int]) -> tuple[int, ...]:
    """The ``below`` values that make the shuffle swap position ``i`` with ``swaps[27 - i]``.

    Within a group the ``j`` values are mixed-radix digits, lowest first:
    ``j = r mod (i + 1)``, then ``r = r div (i + 1)``.
    """
    assert 27 == len(swaps)
    values = []
    position = 0
    for group in shuffle_groups():
        digits = swaps[position : position + len(group)]
        position += len(group)
        packed = 0
        for bound, j in reversed(list(zip(group, digits))):
            assert 0 <= j < bound
            packed = packed * bound + j
        values.append(packed)
    return tuple(values)


IDENTITY_SHUFFLE: Final[tuple[int, ...]] = shuffle_script(range(27, 0, -1))
"""Shuffle values that leave 0..27 in place: every swap is ``j = i``."""


def shuffle_bounds() -> tuple[int, ...]:
    """The bounds a shuffle of the 28 tiles asks ``below`` for, one per group."""
    return tuple(math.prod(group) for group in shuffle_groups())


NON_SIX: Final[tuple[Tile, ...]] = tuple(tile for tile in DOUBLE_SIX if 6 not in (tile.low, tile.high))
"""The 21 tiles showing no six."""


def tiles(text: str) -> tuple[Tile, ...]:
    """Tiles written as ``"[0|1] [2|5]"``; each must already be low half first."""
    found = tuple(Tile.parse(word) for word in text.split())
    for word, tile in zip(text.split(), found):
        assert str(tile) == word, f"write {word} as {tile}"
    return found


def pt(tile: Tile, port: Port) -> AttachmentPoint:
    """The attachment point ``port`` of ``tile``."""
    return AttachmentPoint(tile, port)


def layout_of(*steps: tuple[Tile, AttachmentPoint | None]) -> Layout:
    """The layout after placing each ``(tile, target)`` in turn, the lead first."""
    layout = Layout.EMPTY
    for tile, target in steps:
        layout = layout.place(tile, target)
    return layout


@attrs.frozen
class ScriptedSource:
    """A random source that returns the scripted values in order.

    ``bounds`` records each bound asked for, so a test can see what was drawn
    and in which order. Running out of values, or a value outside
    ``range(bound)``, fails the test.
    """

    values: tuple[int, ...]
    bounds: tuple[int, ...] = ()

    def below(self, bound: int) -> tuple[int, ScriptedSource]:
        """The next scripted value, which must lie in ``range(bound)``."""
        if not self.values:
            pytest.fail(f"the script ran out at below({bound}) after bounds {self.bounds}")
        value = self.values[0]
        if not 0 <= value < bound:
            pytest.fail(f"scripted value {value} is not below {bound}")
        return value, ScriptedSource(self.values[1:], self.bounds + (bound,))


def lot_script(*faces: int) -> tuple[int, ...]:
    """The ``below(6)`` values that make a lot draw the faces 1..6 given."""
    assert all(1 <= face <= 6 for face in faces)
    return tuple(face - 1 for face in faces)


def deal_order(hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile] = ()) -> tuple[Tile, ...]:
    """A deal order giving seat 0 the first hand, seat 1 the next, and so on.

    The boneyard follows: the tiles given first, then every tile not yet
    named, in index order.
    """
    assert len({len(hand) for hand in hands}) == 1, "every hand of a deal has the same size"
    named = [tile for hand in hands for tile in hand] + list(boneyard)
    assert len(set(named)) == len(named), "a tile is named twice"
    return tuple(named) + tuple(tile for tile in DOUBLE_SIX if tile not in named)


def make_state(
    rules: Rules | int,
    hands: Sequence[Iterable[Tile]],
    *,
    layout: Layout = Layout.EMPTY,
    boneyard: Sequence[Tile] = (),
    scores: Sequence[int] | None = None,
    to_move: Seat = 0,
    opener: Seat | None = None,
    drawn: Tile | None = None,
    source: RandomSource | None = None,
    round_number: int = 1,
    last_round: RoundResult | None = None,
) -> State:
    """A playing state with exactly the given hands, layout, boneyard and scores."""
    if isinstance(rules, int):
        rules = Rules.standard(rules)
    hand_tiles = [tuple(hand) for hand in hands]
    assert len(hand_tiles) == rules.players
    named = [tile for hand in hand_tiles for tile in hand] + list(boneyard)
    named += [placement.tile for placement in layout.placements]
    assert len(set(named)) == len(named), "a tile is in two places"
    if drawn is not None:
        assert drawn in hand_tiles[to_move], "the drawn tile is in the drawer's hand"
    return State.create(
        rules=rules,
        phase=Phase.PLAYING,
        round_number=round_number,
        opener=to_move if opener is None else opener,
        to_move=to_move,
        hands=hand_tiles,
        boneyard=tuple(boneyard),
        layout=layout,
        scores=tuple(scores) if scores is not None else (0,) * rules.sides,
        drawn=drawn,
        source=source,
        last_round=last_round,
    )


def _fields(state: State) -> tuple[object, ...]:
    return tuple(getattr(state, field.name) for field in attrs.fields(State))


def assert_refused_call(
    state: State, call: Callable[[State], object], error: type[SniffError], rule: str
) -> SniffError:
    """``call(state)`` raises exactly ``error`` citing ``rule`` and leaves ``state`` as it was."""
    before = copy.deepcopy(state)
    fields = _fields(state)
    with pytest.raises(SniffError) as caught:
        call(state)
    assert error is type(caught.value), repr(caught.value)
    assert rule == caught.value.rule, str(caught.value)
    assert before == state
    assert all(a is b for a, b in zip(fields, _fields(state)))
    return caught.value


def assert_refused(state: State, move: Move, error: type[SniffError], rule: str) -> SniffError:
    """``apply(state, move)`` raises ``error`` citing ``rule``; ``state`` is unchanged."""
    return assert_refused_call(state, lambda s: apply(s, move), error, rule)


def play(state: State, *moves: Move) -> State:
    """The state after applying ``moves`` in order."""
    for move in moves:
        state = apply(state, move)
    return state


def all_tiles_of(state: State) -> list[Tile]:
    """Every tile in a hand, the boneyard or the layout, with repeats."""
    found = [tile for hand in state.hands for tile in hand]
    found += list(state.boneyard)
    found += [placement.tile for placement in state.layout.placements]
    return found


def pips(hand: Iterable[Tile]) -> int:
    """The pips on ``hand``, summed by hand here rather than by the engine."""
    return sum(tile.low + tile.high for tile in hand)
