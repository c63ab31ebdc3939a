"""The contract-bearing functions of ``sniff_rules.verify.contracts`` agree with the engine.

Crosshair proves each function meets its contract for every input its
preconditions admit (``tests/test_contracts.py``); these tests show the
engine computes the same thing on the states play reaches, so the proof
speaks for the engine there. Every call goes through :func:`checked`,
which also requires the engine-derived inputs to meet the preconditions
(else the proof would not cover them) and the results to meet the
postconditions.
"""

from __future__ import annotations

import functools
import inspect
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from types import CodeType
from typing import Any, Final, TypeVar

from hypothesis import given, strategies as st

from sniff_rules.layout import Layout, Port, recount_end
from sniff_rules.moves import Draw, Pass, Place, apply, legal_moves
from sniff_rules.play.bots import random_move
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.scoring import settle_round
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, PIP_MASK, Tile, indices_of_mask, mask_of_tiles
from sniff_rules.verify.contracts import (
    DRAW,
    LEAD,
    PASS,
    Move,
    end_count_of,
    legal_placements,
    pip_mask,
    placeable_tiles,
    placing_hand,
    settle_hands,
    tile_from_pips,
    tile_pips_of,
    tile_set,
    turn_moves,
)

R = TypeVar("R")

_CONDITION: Final = re.compile(r"^\s*(pre|post):\s*(.*)$")

MAX_MOVES: Final = 400
"""Moves played per match: enough for several rounds, Sniff arms, draws and blocks."""
SEEDS: Final = range(12)


def checked(function: Callable[..., R], *args: Any) -> R:
    """``function(*args)``, failing unless every ``pre:`` holds for the args
    and every ``post:`` for the result."""
    name, parameters, pre, post = _contract_of(function)
    # One dict for globals and locals, as comprehensions in a condition see only globals.
    scope = {**vars(sys.modules[function.__module__]), **dict(zip(parameters, args, strict=True))}
    for text, code in pre:
        assert eval(code, scope), f"{name}{args} misses pre: {text}"
    result = function(*args)
    scope["__return__"] = result
    for text, code in post:
        assert eval(code, scope), f"{name}{args} = {result!r} breaks post: {text}"
    return result


Conditions = tuple[tuple[str, CodeType], ...]


@functools.cache
def _contract_of(function: Callable[..., object]) -> tuple[str, tuple[str, ...], Conditions, Conditions]:
    parameters = tuple(inspect.signature(function).parameters)
    found = [match.groups() for match in map(_CONDITION.match, (function.__doc__ or "").splitlines()) if match]
    pre = tuple((text, compile(text, "<pre>", "eval")) for kind, text in found if kind == "pre")
    post = tuple((text, compile(text, "<post>", "eval")) for kind, text in found if kind == "post")
    assert pre, f"{function} has no precondition"
    assert post, f"{function} has no postcondition"
    return getattr(function, "__name__", repr(function)), parameters, pre, post


def played_states(players: int, seed: int, moves: int = MAX_MOVES) -> Iterator[State]:
    """Every state of a match of random moves, new rounds dealt, up to ``moves`` moves."""
    state = new_match(Rules.standard(players), seed=seed)
    source: RandomSource = SplitMix64.from_seed(seed ^ 0x5EED)  # the bot's choices, apart from the deal's
    for _ in range(moves):
        yield state
        if state.phase is Phase.MATCH_OVER:
            return
        if state.phase is Phase.ROUND_OVER:
            state = next_round(state)
            continue
        move, source = random_move(state, source)
        state = apply(state, move)
    yield state


def open_values(layout: Layout) -> tuple[int, ...]:
    return tuple(point.value for point in layout.open_points)


def describe(layout: Layout) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, int, int] | None]:
    """The arguments of :func:`end_count_of`, worked out from the placements
    alone rather than from the engine's open points."""
    covered: set[tuple[Tile, Port]] = set()
    for placement in layout.placements:
        tile, target = placement.tile, placement.target
        if target is None:
            continue
        covered.add((target.tile, target.port))
        if tile.is_double:
            covered.add((tile, Port.CHAIN_A))
        else:
            covered.add((tile, Port.LOW if tile.low == target.value else Port.HIGH))
    doubles = [p.tile for p in layout.placements if p.tile.is_double]
    sniff_tile = doubles[0] if doubles else None
    free_ends = tuple(
        value
        for placement in layout.placements
        if not placement.tile.is_double
        for port, value in ((Port.LOW, placement.tile.low), (Port.HIGH, placement.tile.high))
        if (placement.tile, port) not in covered
    )

    def count(tile: Tile, ports: tuple[Port, ...]) -> int:
        return sum((tile, port) in covered for port in ports)

    long_sides = (Port.CHAIN_A, Port.CHAIN_B)
    ordinary = tuple((tile.low, count(tile, long_sides)) for tile in doubles[1:])
    sniff = None
    if sniff_tile is not None:
        sniff = (sniff_tile.low, count(sniff_tile, long_sides), count(sniff_tile, (Port.ARM_A, Port.ARM_B)))
    return free_ends, ordinary, sniff


def engine_moves(state: State) -> tuple[Move, ...]:
    """:func:`legal_moves` in the compact form of :mod:`sniff_rules.verify.contracts`."""
    points = state.layout.open_points
    moves: list[Move] = []
    for move in legal_moves(state):
        if isinstance(move, Place):
            moves.append((LEAD if move.target is None else points.index(move.target), move.tile.index))
        elif isinstance(move, Draw):
            moves.append((DRAW, -1))
        else:
            assert isinstance(move, Pass)
            moves.append((PASS, -1))
    return tuple(moves)


def check_state(state: State, seen: Counter[str]) -> None:
    """Every agreement that ``state`` can show, counting what it exercised."""
    layout = state.layout
    free_ends, ordinary, sniff = describe(layout)
    assert checked(end_count_of, free_ends, ordinary, sniff) == layout.end_count == recount_end(layout.placements)
    assert sorted(free_ends) == sorted(p.value for p in layout.open_points if p.port <= Port.HIGH)
    seen["ordinary double extended"] += any(sides == 2 for _, sides in ordinary)
    seen["Sniff arm covered"] += sniff is not None and sniff[2] > 0
    if state.phase is Phase.ROUND_OVER:
        assert state.last_round is not None
        players = state.rules.players
        pips = tuple(sum(tile.pips for tile in hand) for hand in state.last_round.hands)
        assert checked(settle_hands, pips, players) == state.last_round.settlement.side_deductions
        seen[f"round settled, {players} players"] += 1
        seen["blocked round"] += state.last_round.blocked
    if state.phase is not Phase.PLAYING:
        return
    values = open_values(layout)
    hand = tuple(indices_of_mask(state.hand_masks[state.to_move]))
    expected = engine_moves(state)
    placing = checked(placing_hand, hand, state.drawn)
    assert checked(turn_moves, placing, values, len(state.boneyard_ids)) == expected
    placements = checked(legal_placements, placing, values)
    assert placements == tuple(move for move in expected if move[0] >= LEAD)
    assert checked(placeable_tiles, placing, values) == tuple(sorted({tile for _, tile in placements}))
    seen["draw"] += expected == ((DRAW, -1),)
    seen["pass"] += expected == ((PASS, -1),)
    seen["drawn tile to place"] += state.drawn >= 0
    seen["tile fits two points"] += len(placements) > len({tile for _, tile in placements})


def test_tiles_agree_with_the_tile_class() -> None:
    """SETUP-1: indices, pips and the set as :class:`Tile` and :data:`DOUBLE_SIX` have them."""
    for a in range(7):
        for b in range(7):
            assert checked(tile_from_pips, a, b) == Tile.of(a, b).index
    for index in range(28):
        tile = Tile.from_index(index)
        assert checked(tile_pips_of, index) == (tile.low, tile.high)
    assert checked(tile_set, 6) == tuple((tile.low, tile.high) for tile in DOUBLE_SIX)
    for highest in range(6):
        assert checked(tile_set, highest) == tuple((t.low, t.high) for t in DOUBLE_SIX if t.high <= highest)
    for pip in range(7):
        assert checked(pip_mask, pip) == mask_of_tiles([t for t in DOUBLE_SIX if pip in (t.low, t.high)])
        assert pip_mask(pip) == PIP_MASK[pip]


def test_agreement_over_whole_matches() -> None:
    """Fixed seeds for every table size, and proof that the situations the
    contracts are about (draws, passes, blocks, Sniff arms, extended doubles,
    settlements) are among the states compared."""
    seen: Counter[str] = Counter()
    for players in (2, 3, 4):
        for seed in SEEDS:
            for state in played_states(players, seed):
                check_state(state, seen)
    wanted = [
        "ordinary double extended",
        "Sniff arm covered",
        "blocked round",
        "draw",
        "pass",
        "drawn tile to place",
        "tile fits two points",
        *(f"round settled, {players} players" for players in (2, 3, 4)),
    ]
    assert not [name for name in wanted if not seen[name]], seen


@given(players=st.sampled_from((2, 3, 4)), seed=st.integers(0, 2**64 - 1))
def test_agreement_on_random_matches(players: int, seed: int) -> None:
    """COUNT-1..4, SETTLE-1..3, PLACE-1, OPEN-3, DRAW-1, DRAW-2, PASS-1 on
    every state of a random match."""
    seen: Counter[str] = Counter()
    for state in played_states(players, seed):
        check_state(state, seen)


@given(
    players=st.sampled_from((2, 3, 4)),
    owners=st.lists(st.integers(-1, 3), min_size=28, max_size=28),
)
def test_settlement_agrees_on_any_hands(players: int, owners: list[int]) -> None:
    """SETTLE-1..3 for hands no play reaches, e.g. every tile in hand, via
    :func:`settle_round`; -1 leaves a tile out of every hand."""
    hands = tuple(
        tuple(tile for tile, owner in zip(DOUBLE_SIX, owners, strict=True) if owner % players == seat and owner >= 0)
        for seat in range(players)
    )
    pips = tuple(sum(tile.pips for tile in hand) for hand in hands)
    assert checked(settle_hands, pips, players) == settle_round(Rules.standard(players), hands).side_deductions
