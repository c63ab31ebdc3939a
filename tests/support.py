"""Shared helpers for the rule-by-rule tests (tests/test_rules_*.py) and the engine's internals.

States built here are positions written down by hand: given hands, layout,
boneyard, scores and seat to move. Tiles named nowhere are out of play, so
a scenario only has to list the tiles that matter to it. A
:class:`ScriptedSource` replays chosen random values, so a test can fix a
lot or a shuffle and check which values the engine asked for. The
``ref_*`` functions are an independent reading of SETUP-5 and OPEN-1,
written from the text of specs/rules.md, against which the engine's
source, lot and shuffle are checked. A few positions are used by the tests
of several sections; they are written here once.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Final

import attrs
import pytest

import sniff_rules
import sniff_rules.draw
import sniff_rules.formats
import sniff_rules.play
import sniff_rules.position
from sniff_rules._fast import is_native
from sniff_rules.errors import SniffError
from sniff_rules.layout import AttachmentPoint, Layout, Port
from sniff_rules.moves import Move, Place, apply
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules, Seat
from sniff_rules.state import Phase, RoundResult, State
from sniff_rules.tiles import DOUBLE_SIX, HandMask, Tile

# --- an independent reading of SETUP-5 and OPEN-1, written from the spec text ---

MASK64: Final = (1 << 64) - 1
GAMMA: Final = 0x9E3779B97F4A7C15
MIX1: Final = 0xBF58476D1CE4E5B9
MIX2: Final = 0x94D049BB133111EB


def ref_next64(state: int) -> tuple[int, int]:
    """SplitMix64 as specs/rules.md states it: the output and the new state."""
    state = (state + GAMMA) % (1 << 64)
    z = state
    z = ((z ^ (z >> 30)) * MIX1) % (1 << 64)
    z = ((z ^ (z >> 27)) * MIX2) % (1 << 64)
    return z ^ (z >> 31), state


def ref_below(state: int, n: int) -> tuple[int, int]:
    """Draw outputs until one is at least 2**64 mod n; return it modulo n."""
    while True:
        out, state = ref_next64(state)
        if out >= (1 << 64) % n:
            return out % n, state


def ref_lot(state: int, seats: tuple[int, ...]) -> tuple[int, int]:
    """Each candidate draws 1 + below(6) in seat order; ties draw again among the tied."""
    while True:
        faces = []
        for seat in seats:
            value, state = ref_below(state, 6)
            faces.append((seat, value + 1))
        best = max(face for _, face in faces)
        seats = tuple(seat for seat, face in faces if face == best)
        if len(seats) == 1:
            return seats[0], state


def ref_shuffle(state: int) -> tuple[list[int], int]:
    """Fisher–Yates over 0..27, i from 27 down to 1, with j drawn in groups.

    Bounds i + 1, i, ... are multiplied while the product stays below 2**64;
    one below(product) per group gives the j values as mixed-radix digits,
    lowest first.
    """
    order = list(range(28))
    i = 27
    while i > 0:
        group = [i + 1]
        while group[-1] > 2 and math.prod(group) * (group[-1] - 1) < 2**64:
            group.append(group[-1] - 1)
        r, state = ref_below(state, math.prod(group))
        for bound in group:
            r, j = divmod(r, bound)
            order[bound - 1], order[j] = order[j], order[bound - 1]
        i -= len(group)
    return order, state


def _unshift(value: int, shift: int) -> int:
    """The ``x`` with ``x ^ (x >> shift) == value``: each pass fixes ``shift`` more high bits."""
    x = value
    for _ in range(64 // shift + 1):
        x = value ^ (x >> shift)
    return x


def state_before_output(output: int) -> int:
    """The SplitMix64 state whose next output is ``output``: the specs/rules.md mix run backwards."""
    z = _unshift(output, 31)
    z = z * pow(MIX2, -1, 1 << 64) & MASK64
    z = _unshift(z, 27)
    z = z * pow(MIX1, -1, 1 << 64) & MASK64
    z = _unshift(z, 30)
    return (z - GAMMA) & MASK64


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
        for bound, j in reversed(list(zip(group, digits, strict=True))):
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
    for word, tile in zip(text.split(), found, strict=True):
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
        return value, ScriptedSource(self.values[1:], (*self.bounds, bound))


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
    assert all(a is b for a, b in zip(fields, _fields(state), strict=True))
    return caught.value


def assert_refused(state: State, move: Move, error: type[SniffError], rule: str) -> SniffError:
    """``apply(state, move)`` raises ``error`` citing ``rule``; ``state`` is unchanged."""
    return assert_refused_call(state, lambda s: apply(s, move), error, rule)


def refusal(error: type[SniffError], rule: str, make: Callable[[], object]) -> str:
    """The text of the error ``make()`` raises, which must be exactly ``error`` citing ``rule``.

    The text is the rule id, a colon and the explanation, so a test can pin
    the whole message.
    """
    with pytest.raises(SniffError) as caught:
        make()
    assert error is type(caught.value), repr(caught.value)
    assert rule == caught.value.rule, str(caught.value)
    return str(caught.value)


def position(layout: Layout, hand: Sequence[Tile]) -> State:
    """Two players, seat 1 to move holding ``hand``; seat 0 and the boneyard hold unused tiles."""
    used = set(hand) | {placement.tile for placement in layout.placements}
    spare = [tile for tile in DOUBLE_SIX if tile not in used]
    return make_state(2, [spare[:2], hand], layout=layout, boneyard=spare[2:4], to_move=1)


def open_points(state: State) -> set[tuple[str, int]]:
    """The open points as (name, value) pairs, for comparing with hand-written sets."""
    return {(str(point), point.value) for point in state.layout.open_points}


def mask(hand: Iterable[Tile]) -> HandMask:
    """The hand as a bit mask of tile indices, bit ``i`` for tile ``i``, summed here rather than by the engine."""
    return HandMask(sum(1 << tile.index for tile in hand))


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


# --- positions that the tests of several sections start from ---


def before_seat_1_plays_out(source: RandomSource | None = None) -> State:
    """Three players, [2|6] led; seat 1 to move holds only [6|6]; seat 0 holds [0|1] [0|2], seat 2 [3|4] [4|5].

    Scores 50, 40, 30; [1|1] and [5|5] are left in the boneyard; seat 0 opened.
    """
    return make_state(
        3,
        [tiles("[0|1] [0|2]"), tiles("[6|6]"), tiles("[3|4] [4|5]")],
        layout=layout_of((Tile(2, 6), None)),
        boneyard=tiles("[1|1] [5|5]"),
        scores=(50, 40, 30),
        to_move=1,
        opener=0,
        source=source if source is not None else SplitMix64.from_seed(1),
    )


def seat_1_played_out(source: RandomSource | None = None) -> State:
    """The round after seat 1 plays out with [6|6] on [2|6] (end count 2 + 12 = 14, no points)."""
    ended = apply(before_seat_1_plays_out(source), Place(1, Tile(6, 6), pt(Tile(2, 6), Port.HIGH)))
    assert Phase.ROUND_OVER == ended.phase
    return ended


def about_to_block() -> State:
    """Two players, [0|5] led, empty boneyard, scores 20 and 30: seat 0 holds [1|2] [5|6], seat 1 [1|3] [2|3].

    Seat 0's only placement, [5|6] on the 5, leaves ends 0 and 6 that nobody holds.
    """
    return make_state(
        2,
        [tiles("[1|2] [5|6]"), tiles("[1|3] [2|3]")],
        layout=layout_of((Tile(0, 5), None)),
        scores=(20, 30),
    )


def blocked() -> State:
    """The round of :func:`about_to_block` after seat 0 places [5|6]: blocked, with no source."""
    ended = apply(about_to_block(), Place(0, Tile(5, 6), pt(Tile(0, 5), Port.HIGH)))
    assert Phase.ROUND_OVER == ended.phase
    return ended


PLAIN_RINGS: Final = (sniff_rules.position, sniff_rules.play, sniff_rules.draw, sniff_rules.formats)
"""The rings that need no optional dependency, whose names a frontend star-imports."""


def core_names() -> list[str]:
    """The core's public names: what ``dir(sniff_rules)`` lists, the rings and their tuple apart."""
    return [name for name in dir(sniff_rules) if name not in sniff_rules.RINGS and name != "RINGS"]


def library_namespace() -> dict[str, object]:
    """Every public name of the core and the plain rings, as a frontend gets them with star imports."""
    namespace: dict[str, object] = {name: getattr(sniff_rules, name) for name in core_names()}
    for ring in PLAIN_RINGS:
        namespace.update({name: getattr(ring, name) for name in ring.__all__})
    return namespace


COMPILED_CORE: Final = is_native(State)
"""The core under test is the compiled build (``SNIFF_RULES_COMPILE=1``); ``.ci/run`` runs the suite under both."""


def interpreted_only(why: str) -> pytest.MarkDecorator:
    """Skip a test under the compiled build, saying why it needs the pure source; the pure pass runs it."""
    return pytest.mark.skipif(COMPILED_CORE, reason=f"runs on the pure source only: {why}")
