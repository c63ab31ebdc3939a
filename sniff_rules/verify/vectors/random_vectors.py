"""The generator of ``randomness.json``: the random source pinned step by step (SETUP-5, OPEN-1).

An implementation whose deals differ from the recorded ones can narrow the
fault down here: SplitMix64's outputs, then ``below`` with the outputs it
rejects, then the shuffle's packed draws and their digits, then the lot,
then whole deals and next rounds as state documents with their source
written out (FORMAT-2). :mod:`sniff_rules.verify.vectors.generate` writes the file with
the other generated vectors; :mod:`sniff_rules.verify.vectors.checks` replays it.

Where a vector needs a seed with a property (a lot that ties, a packed
draw that rejects) the first seed from 0 that has it is searched for, so
the file says what it covers rather than trusting a chosen number.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from sniff_rules.formats.state_json import lot_to_data, rules_to_data, state_to_data, tiles_to_data
from sniff_rules.formats.strict_json import JsonObject, JsonValue
from sniff_rules.moves import apply, legal_moves
from sniff_rules.randomness import RandomSource, SplitMix64, draw_lot, shuffled
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT
from sniff_rules.verify.vectors.checks import below_draw, hex_text, shuffle_groups
from sniff_rules.verify.vectors.recorded_play import POLICY_SEED_OFFSET, VECTOR_FORMAT

STREAM_SEEDS: Final = (0, 1, 7, 42, -1, (1 << 53) - 1)
"""Seeds of the SplitMix64 streams: zero, small ones, -1 (state 2**64 - 1) and the largest JSON integer."""

STREAM_STEPS: Final = 5
"""Outputs written per SplitMix64 stream."""

BELOW_SEEDS: Final = (0, 1, 7, 42)
"""Seeds of the ``below`` sequences."""

BELOW_BOUNDS: Final = (6, 28, 1, 1 << 64, (1 << 64) - 1)
"""The bounds every ``below`` sequence starts with: a lot's, the largest a shuffle draws alone, the
smallest, the largest, the largest below 2**64. None of them rejects an output in practice."""

REJECTING_BOUND: Final = (1 << 63) + 1
"""A bound whose threshold, 2**64 mod n = 2**63 - 1, rejects nearly half of all outputs."""

REJECTING_DRAWS: Final = 2
"""Each ``below`` sequence ends with calls of :data:`REJECTING_BOUND` until this many have rejected."""

MAX_REJECTING_CALLS: Final = 16
"""Calls of :data:`REJECTING_BOUND` after which a seed is given up on (each rejects with odds near 1/2)."""

SEED_SEARCH: Final = 1 << 16
"""Seeds tried, from 0, when a vector needs a seed with some property."""

DESCRIPTION: Final = (
    "SplitMix64, below, the shuffle and the lot (SETUP-5, OPEN-1), from the source up; then whole"
    " deals and next rounds as state documents, their source written out (FORMAT-2). Every 64-bit"
    " quantity is a string: states and outputs as 16 lower-case hex digits; bounds, thresholds and"
    " values of below in decimal. splitmix64: from SplitMix64 seeded with seed (taken mod 2**64),"
    " each step's state after it advances and its output. below: successive below(bound) calls from"
    " one source seeded with seed; each has threshold = 2**64 mod bound, every output it draws in"
    " order (those under the threshold rejected, the last accepted) and value = the last output mod"
    " bound; state is the source after the last call. shuffles: Fisher-Yates over the tile indices"
    " 0..27 from a source seeded with seed; each group is one packed draw: bounds its first and last"
    " bound (i + 1, for i from 27 down), product the bound of its below call, draw that call, j the"
    " mixed-radix digits of the drawn value, lowest first, one j per i; indices and order are the"
    " shuffled indices and their tiles, state the source after. lots: the lot of a new match among"
    " players seats from a source seeded with seed: one array per round of draws, [seat, 1 +"
    " below(6)] in seat order, a tie drawn again among the tied seats only; opener the winner, state"
    " the source after the lot (the shuffle continues from it). deals: the state of a new match"
    " started from seed under rules (the lot, then the shuffle); its source is the state after both."
    " next_rounds: from a state whose round has ended, the state of the next round, dealt from the"
    " start state's source (after a block a lot first, after a round played out only the shuffle);"
    " opener, where given, is the seat named to open it: after a block no lot is drawn then, and the"
    " shuffle continues from the start state's source (OPEN-2)."
)
"""The ``description`` of ``randomness.json``."""


def _first_seed(kind: str, test: Callable[[int], bool]) -> int:
    """The first seed from 0 that ``test`` accepts; ``kind`` says what it looks for."""
    for seed in range(SEED_SEARCH):
        if test(seed):
            return seed
    raise AssertionError(f"no seed below {SEED_SEARCH} gives {kind}")


def _stream(seed: int) -> JsonObject:
    source = SplitMix64.from_seed(seed)
    steps: list[JsonValue] = []
    for _ in range(STREAM_STEPS):
        output, source = source.next64()
        steps.append({"state": hex_text(source.state), "output": hex_text(output)})
    return {"name": f"splitmix64 from seed {seed}", "seed": seed, "steps": steps}


def _rejected(draw: JsonObject) -> int:
    """How many outputs a written ``below`` call rejected."""
    outputs = draw["outputs"]
    assert isinstance(outputs, list)
    return len(outputs) - 1


def _below_sequence(seed: int) -> JsonObject:
    """``below`` from ``seed``: the fixed bounds, then the rejecting bound until two calls have rejected."""
    source = SplitMix64.from_seed(seed)
    draws: list[JsonValue] = []
    for bound in BELOW_BOUNDS:
        draw, source = below_draw(source, bound)
        draws.append(draw)
    rejecting = 0
    for _ in range(MAX_REJECTING_CALLS):
        draw, source = below_draw(source, REJECTING_BOUND)
        draws.append(draw)
        rejecting += _rejected(draw) > 0
        if rejecting == REJECTING_DRAWS:
            return {"name": f"below from seed {seed}", "seed": seed, "draws": draws, "state": hex_text(source.state)}
    raise AssertionError(f"seed {seed}: below({REJECTING_BOUND}) hardly rejects; choose another seed")


def _first_draw_rejections(seed: int) -> int:
    """How many outputs the first packed draw of a shuffle from ``seed`` rejects."""
    draw, _ = below_draw(SplitMix64.from_seed(seed), math.prod(shuffle_groups(TILE_COUNT)[0]))
    return _rejected(draw)


def _shuffle(seed: int, why: str = "") -> JsonObject:
    source = SplitMix64.from_seed(seed)
    groups: list[JsonValue] = []
    for bounds in shuffle_groups(TILE_COUNT):
        draw, source = below_draw(source, math.prod(bounds))
        packed = int(str(draw["value"]))
        digits: list[JsonValue] = []
        for bound in bounds:
            packed, j = divmod(packed, bound)
            digits.append(j)
        groups.append({"bounds": [bounds[0], bounds[-1]], "product": draw["bound"], "draw": draw, "j": digits})
    indices, after = shuffled(tuple(range(TILE_COUNT)), SplitMix64.from_seed(seed))
    if after != source:
        raise AssertionError(f"seed {seed}: the shuffle draws other than its groups")
    return {
        "name": f"shuffle from seed {seed}{why}",
        "seed": seed,
        "groups": groups,
        "indices": list(indices),
        "order": tiles_to_data([DOUBLE_SIX[index] for index in indices]),
        "state": hex_text(source.state),
    }


def _lot_rounds(players: int, seed: int) -> int:
    """How many rounds of draws the lot of a match of ``players`` from ``seed`` takes."""
    return len(draw_lot(tuple(range(players)), SplitMix64.from_seed(seed))[1])


def _lot(players: int, rounds: int) -> JsonObject:
    seed = _first_seed(f"a lot of {rounds} rounds", lambda seed: _lot_rounds(players, seed) == rounds)
    opener, lot, source = draw_lot(tuple(range(players)), SplitMix64.from_seed(seed))
    assert isinstance(source, SplitMix64)
    return {
        "name": f"{players} players, seed {seed}: " + ("no tie" if rounds == 1 else f"{rounds} rounds of draws"),
        "players": players,
        "seed": seed,
        "lot": lot_to_data(lot),
        "opener": opener,
        "state": hex_text(source.state),
    }


def _deal(rules: Rules) -> JsonObject:
    """A new match under ``rules`` from the first seed whose lot ties."""
    seed = _first_seed("a lot that ties", lambda seed: _lot_rounds(rules.players, seed) > 1)
    return {
        "name": f"{rules.players} players, {rules.hand_size} tiles each, target {rules.target}, seed {seed}",
        "rules": rules_to_data(rules),
        "seed": seed,
        "state": state_to_data(new_match(rules, seed=seed)),
    }


def _first_round_ended(rules: Rules, blocked: bool) -> State:
    """The first round of the first match, from seed 0 on, that the recording policy ends as asked."""
    for seed in range(SEED_SEARCH):
        state = new_match(rules, seed=seed)
        policy: RandomSource = SplitMix64.from_seed(seed + POLICY_SEED_OFFSET)
        while state.phase is Phase.PLAYING:
            options = legal_moves(state)
            index, policy = policy.below(len(options))
            state = apply(state, options[index])
        if state.last_round is not None and state.last_round.blocked is blocked:
            return state
    raise AssertionError(f"no first round below seed {SEED_SEARCH} ends {'blocked' if blocked else 'played out'}")


def _next_round(players: int, blocked: bool) -> JsonObject:
    ended = _first_round_ended(Rules.standard(players), blocked)
    how = "blocked: a lot, then the shuffle" if blocked else "played out: the finisher opens, only the shuffle"
    return {
        "name": f"{players} players, after a round {how}",
        "start": {"state": state_to_data(ended)},
        "state": state_to_data(next_round(ended)),
    }


def _named_next_round(players: int) -> JsonObject:
    """After a block, the opener named: no lot is drawn, and the shuffle continues from the source (OPEN-2)."""
    ended = _first_round_ended(Rules.standard(players), True)
    opener = players - 1
    return {
        "name": f"{players} players, after a round blocked: seat {opener} named to open, no lot, only the shuffle",
        "start": {"state": state_to_data(ended)},
        "opener": opener,
        "state": state_to_data(next_round(ended, opener=opener)),
    }


def randomness_document(generator: str) -> JsonObject:
    """The content of ``randomness.json``; ``generator`` is the command that writes it."""
    once = _first_seed("a first packed draw rejecting once", lambda seed: _first_draw_rejections(seed) == 1)
    twice = _first_seed("a first packed draw rejecting twice", lambda seed: _first_draw_rejections(seed) == 2)
    house = Rules(3, 4, 100)
    return {
        "kind": "randomness",
        "format": VECTOR_FORMAT,
        "description": DESCRIPTION,
        "generator": generator,
        "splitmix64": [_stream(seed) for seed in STREAM_SEEDS],
        "below": [_below_sequence(seed) for seed in BELOW_SEEDS],
        "shuffles": [
            _shuffle(0),
            _shuffle(1),
            _shuffle(once, ": its first packed draw rejects one output"),
            _shuffle(twice, ": its first packed draw rejects two outputs"),
        ],
        "lots": [_lot(players, rounds) for players in (2, 3, 4) for rounds in (1, 2, 3)],
        "deals": [*(_deal(Rules.standard(players)) for players in (2, 3, 4)), _deal(house)],
        "next_rounds": [
            *(_next_round(players, blocked) for players in (2, 4) for blocked in (False, True)),
            _named_next_round(3),
        ],
    }
