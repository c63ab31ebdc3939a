"""Conformance vectors: replay them against this library, and regenerate the recorded ones.

The vectors in ``specs/vectors`` are plain JSON, described by
``specs/vectors/schema.json``, so an implementation in any language can
replay them with nothing but a JSON parser:

``seed_examples.json`` (``kind: layout-examples``, written by hand)
    The seed's worked examples, placement by placement: open attachment
    points with values, connections, counted contributions, end count,
    points, the Sniff; and placements the rules refuse.
``settlement.json`` (``kind: settlement``, written by hand)
    Hands and their settlement; short scripted positions with the moves
    that end a round (played out, blocked) or the match.
``perft.json`` (``kind: perft``, generated)
    The number of distinct legal move sequences to each depth from fixed
    positions.
``recorded/*.jsonl`` (generated)
    Whole matches, one JSON object per line: the deal of each round, every
    move, and after it the legal moves, points, scores and what happened.

:func:`check_paths` replays files and reports one :class:`VectorResult`
per vector; :func:`generated_files` rebuilds the generated files, which
``python -m sniff_rules vectors`` diffs against (or writes over) the ones on
disk. Hand-written files are never generated.
"""

from __future__ import annotations

import difflib
import json
from functools import partial
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final

import attrs

from sniff_rules.errors import SniffError
from sniff_rules.layout import Layout
from sniff_rules.moves import Draw, Move, Place, apply, legal_moves
from sniff_rules.notation import (
    JsonObject,
    JsonValue,
    load_json,
    parse_move,
    parse_placement,
    parse_tile,
    state_from_data,
    state_to_data,
)
from sniff_rules.randomness import RandomSource, SplitMix64, draw_lot, shuffled
from sniff_rules.rules import Rules
from sniff_rules.scoring import Settlement, play_points, settle_round
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT, Tile

VECTOR_FORMAT: Final = 1
"""The ``format`` of every vector file; a change that old readers would misread gets a new one."""

RECORDED_FORMAT: Final = "sniff-rules/recorded@1"

MATCHES_PER_PLAYER_COUNT: Final = 11
"""Recorded matches per player count: 33 in all, about 650 rounds."""

PERFT_LEAF_LIMIT: Final = 120_000
"""A generated perft position goes as deep as it can while its deepest count stays at most this."""

PERFT_MAX_DEPTH: Final = 14

LATE_ROUND_BONEYARD: Final = 3
"""A late-round perft position has this many tiles or fewer left to draw: deep enough
for draws, passes, blocks and the round's end to appear in its tree."""

GENERATED_FILES: Final = (
    "perft.json",
    "recorded/players-2.jsonl",
    "recorded/players-3.jsonl",
    "recorded/players-4.jsonl",
)
"""The files under ``specs/vectors`` that ``vectors --write`` may rewrite; all others are written by hand."""

POLICY_TEXT: Final = (
    "Moves are chosen by a SplitMix64 source seeded with the match's policy_seed (SETUP-5's"
    " generator, separate from the match's own source): before each move, with L the legal"
    " moves in canonical order, the move is L[below(len(L))]. Canonical order: a lead by tile"
    " index (SETUP-1); otherwise by attachment point (tile index * 6 + port, ports low=0,"
    " high=1, chain-a=2, chain-b=3, arm-a=4, arm-b=5), then by tile index; a draw or a pass is"
    " alone. New rounds are dealt by the match's own source (seed) exactly as SETUP-5 and"
    " OPEN-1/OPEN-2 say."
)


@attrs.frozen
class VectorResult:
    """The outcome of one vector: ``failure`` is None when the library agrees."""

    path: str
    name: str
    failure: str | None = None

    @property
    def passed(self) -> bool:
        """Whether the library reproduced the vector exactly."""
        return self.failure is None

    def __str__(self) -> str:
        verdict = "PASS" if self.failure is None else "FAIL"
        text = f"{verdict}  {self.path} :: {self.name}"
        return text if self.failure is None else f"{text}\n      {self.failure}"


class Mismatch(Exception):
    """The library disagrees with a vector; the message says where and how."""


def _expect_equal(what: str, expected: object, actual: object) -> None:
    if expected != actual:
        raise Mismatch(f"{what}: expected {expected!r}, got {actual!r}")


# ---------------------------------------------------------------- shared pieces


def _as_object(value: JsonValue, what: str) -> Mapping[str, JsonValue]:
    if not isinstance(value, dict):
        raise Mismatch(f"{what} is not a JSON object")
    return value


def _as_list(value: JsonValue, what: str) -> list[JsonValue]:
    if not isinstance(value, list):
        raise Mismatch(f"{what} is not a JSON array")
    return value


def _as_int(value: JsonValue, what: str) -> int:
    if type(value) is not int:
        raise Mismatch(f"{what} is not an integer")
    return value


def _as_str(value: JsonValue, what: str) -> str:
    if not isinstance(value, str):
        raise Mismatch(f"{what} is not a string")
    return value


def _strings(value: JsonValue, what: str) -> list[str]:
    return [_as_str(item, what) for item in _as_list(value, what)]


def _rules_of(value: JsonValue) -> Rules:
    data = _as_object(value, "rules")
    return Rules(_as_int(data["players"], "players"), _as_int(data["hand_size"], "hand_size"), _as_int(data["target"], "target"))


def _order_of(value: JsonValue) -> tuple[Tile, ...]:
    return tuple(parse_tile(text) for text in _strings(value, "order"))


def _settlement_data(settlement: Settlement) -> JsonObject:
    return {
        "hand_pips": list(settlement.hand_pips),
        "deductions": list(settlement.deductions),
        "side_deductions": list(settlement.side_deductions),
    }


def _move_texts(moves: Iterable[Move]) -> list[JsonValue]:
    return [str(move) for move in moves]


def start_state(spec: JsonValue) -> State:
    """The position a vector starts from: ``{"state": ...}``, or a deal and moves.

    A deal is ``{"rules", "order", "opener"}``: seat 0 gets the first
    ``hand_size`` tiles of ``order`` and so on, the rest is the boneyard
    (SETUP-5); the optional ``moves`` are then applied in turn.
    """
    data = _as_object(spec, "start")
    if "state" in data:
        return state_from_data(data["state"])
    deal = _as_object(data["deal"], "start.deal")
    state = new_match(
        _rules_of(deal["rules"]), order=_order_of(deal["order"]), opener=_as_int(deal["opener"], "opener")
    )
    for number, text in enumerate(_strings(data.get("moves", []), "start.moves")):
        try:
            state = apply(state, parse_move(text))
        except SniffError as err:
            raise Mismatch(f"start move {number} ({text}) refused: {err}") from None
    return state


def _refused_as_expected(step: str, refused: JsonValue, action: Callable[[], object]) -> None:
    allowed = _strings(refused, "refused")
    try:
        action()
    except SniffError as err:
        if err.rule not in allowed:
            raise Mismatch(f"{step}: refused citing {err.rule}, expected {' or '.join(allowed)} ({err})") from None
        return
    raise Mismatch(f"{step}: accepted, but the rules refuse it ({' or '.join(allowed)})")


# ---------------------------------------------------------------- layout examples


def _check_layout_example(example: Mapping[str, JsonValue]) -> None:
    layout = Layout.EMPTY
    for number, raw in enumerate(_as_list(example["steps"], "steps")):
        step = _as_object(raw, "step")
        text = _as_str(step["place"], "place")
        where = f"step {number} ({text})"
        placement = parse_placement(text)
        if "refused" in step:
            _refused_as_expected(where, step["refused"], lambda: layout.place(placement.tile, placement.target))
            continue
        try:
            layout = layout.place(placement.tile, placement.target)
        except SniffError as err:
            raise Mismatch(f"{where}: refused ({err})") from None
        expect = _as_object(step["expect"], "expect")
        open_points = Counter((str(p), p.value) for p in layout.open_points)
        expected_points = Counter(
            (_as_str(item["point"], "point"), _as_int(item["value"], "value"))
            for item in map(lambda v: _as_object(v, "open point"), _as_list(expect["open_points"], "open_points"))
        )
        _expect_equal(f"{where}: open attachment points", _sorted_counter(expected_points), _sorted_counter(open_points))
        connections = [[str(c.existing), str(c.placed)] for c in layout.connections]
        expected_connections = [
            [_as_str(item["existing"], "existing"), _as_str(item["placed"], "placed")]
            for item in map(lambda v: _as_object(v, "connection"), _as_list(expect["connections"], "connections"))
        ]
        _expect_equal(f"{where}: connections in the order played", expected_connections, connections)
        contributions = Counter((str(c.tile), c.value) for c in layout.contributions)
        expected_contributions = Counter(
            (_as_str(item["tile"], "tile"), _as_int(item["value"], "value"))
            for item in map(lambda v: _as_object(v, "contribution"), _as_list(expect["contributions"], "contributions"))
        )
        _expect_equal(
            f"{where}: counted contributions",
            _sorted_counter(expected_contributions),
            _sorted_counter(contributions),
        )
        _expect_equal(f"{where}: end count", expect["end_count"], layout.end_count)
        _expect_equal(f"{where}: points", expect["points"], play_points(layout.end_count))
        sniff = layout.sniff_tile
        _expect_equal(f"{where}: the Sniff", expect["sniff"], None if sniff is None else str(sniff))


def _sorted_counter(counter: Counter[tuple[str, int]]) -> list[tuple[str, int]]:
    return sorted(counter.elements())


def _check_layout_examples(path: str, data: Mapping[str, JsonValue]) -> list[VectorResult]:
    return [
        _run(path, _as_str(example["name"], "name"), partial(_check_layout_example, example))
        for example in map(lambda v: _as_object(v, "example"), _as_list(data["examples"], "examples"))
    ]


# ---------------------------------------------------------------- settlement


def _check_hand_case(case: Mapping[str, JsonValue]) -> None:
    rules = Rules.standard(_as_int(case["players"], "players"))
    hands = tuple(tuple(parse_tile(t) for t in _strings(hand, "hand")) for hand in _as_list(case["hands"], "hands"))
    settlement = settle_round(rules, hands)
    _expect_equal("settlement", dict(_as_object(case["expect"], "expect")), _settlement_data(settlement))


def _state_facts(state: State) -> dict[str, JsonValue]:
    """What a scenario step may assert about the state after a move."""
    facts: dict[str, JsonValue] = {
        "phase": state.phase.value,
        "scores": list(state.scores),
        "to_move": state.to_move,
        "winner": state.winner,
        "hands": [[str(t) for t in hand] for hand in state.hands],
        "boneyard": [str(t) for t in state.boneyard],
        "legal": _move_texts(legal_moves(state)),
        "count": state.layout.end_count,
        "round": state.round_number,
    }
    result = state.last_round
    facts["last_round"] = (
        None
        if result is None
        else {
            "round": result.round_number,
            "finisher": result.finisher,
            "hands": [[str(t) for t in hand] for hand in result.hands],
            "settlement": _settlement_data(result.settlement),
        }
    )
    return facts


def _check_scenario(case: Mapping[str, JsonValue]) -> None:
    state = start_state(case["start"])
    for number, raw in enumerate(_as_list(case["steps"], "steps")):
        step = _as_object(raw, "step")
        text = _as_str(step["move"], "move")
        where = f"step {number} ({text})"
        if "legal" in step:
            _expect_equal(
                f"{where}: legal moves before it (any order)",
                sorted(_strings(step["legal"], "legal")),
                sorted(str(m) for m in legal_moves(state)),
            )
        move = parse_move(text)
        if "refused" in step:
            current = state
            _refused_as_expected(where, step["refused"], lambda: apply(current, move))
            continue
        try:
            state = apply(state, move)
        except SniffError as err:
            raise Mismatch(f"{where}: refused ({err})") from None
        facts = _state_facts(state)
        if isinstance(move, Place):
            facts["points"] = play_points(state.layout.end_count)
        for key, expected in _as_object(step["expect"], "expect").items():
            if key not in facts:
                raise Mismatch(f"{where}: the vector asserts {key!r}, which this runner does not know")
            actual = facts[key]
            if key in ("legal",):
                _expect_equal(f"{where}: {key}", sorted(_strings(expected, key)), sorted(_strings(actual, key)))
            else:
                _expect_equal(f"{where}: {key}", expected, actual)


def _check_settlement(path: str, data: Mapping[str, JsonValue]) -> list[VectorResult]:
    results = [
        _run(path, _as_str(case["name"], "name"), partial(_check_hand_case, case))
        for case in map(lambda v: _as_object(v, "hand case"), _as_list(data["hands"], "hands"))
    ]
    results += [
        _run(path, _as_str(case["name"], "name"), partial(_check_scenario, case))
        for case in map(lambda v: _as_object(v, "scenario"), _as_list(data["scenarios"], "scenarios"))
    ]
    return results


# ---------------------------------------------------------------- perft


def perft(state: State, depth: int) -> tuple[list[int], dict[str, int]]:
    """Distinct legal move sequences from ``state``: the count at each depth 1..depth,
    and for each first move the count at ``depth`` below it ("divide").

    A sequence stops where the round or the match ends: a state with no
    legal move contributes nothing deeper.
    """
    if depth < 1:
        raise ValueError(f"perft depth is at least 1, got {depth}")
    moves = legal_moves(state)
    counts = [0] * depth
    counts[0] = len(moves)
    divide: dict[str, int] = {}
    for move in moves:
        if depth == 1:
            divide[str(move)] = 1
            continue
        below = _perft_counts(apply(state, move), depth - 1)
        for ply, count in enumerate(below, 1):
            counts[ply] += count
        divide[str(move)] = below[-1]
    return counts, divide


def _perft_counts(state: State, depth: int) -> list[int]:
    counts = [0] * depth

    def walk(node: State, ply: int) -> None:
        moves = legal_moves(node)
        counts[ply] += len(moves)
        if ply + 1 < depth:
            for move in moves:
                walk(apply(node, move), ply + 1)

    walk(state, 0)
    return counts


def _check_perft_position(position: Mapping[str, JsonValue]) -> None:
    state = start_state(position["start"])
    if "state" in position:
        _expect_equal("the start position as a state", position["state"], state_to_data(state))
    depth = _as_int(position["depth"], "depth")
    counts, divide = perft(state, depth)
    _expect_equal("counts at depths 1..depth", position["counts"], counts)
    _expect_equal("divide (count at full depth below each first move)", position["divide"], divide)


def _check_perft(path: str, data: Mapping[str, JsonValue]) -> list[VectorResult]:
    return [
        _run(path, _as_str(p["name"], "name"), partial(_check_perft_position, p))
        for p in map(lambda v: _as_object(v, "position"), _as_list(data["positions"], "positions"))
    ]


# ---------------------------------------------------------------- recorded play


def expected_deal(
    rules: Rules, source: RandomSource, lot_first: bool
) -> tuple[tuple[tuple[tuple[int, int], ...], ...], int | None, tuple[Tile, ...], RandomSource]:
    """The lot (when one is drawn), its winner, the deal order and the next source (OPEN-1, SETUP-5).

    At the start of a match and after a blocked round the lot is drawn
    before the shuffle; after a round played out, only the shuffle.
    """
    lot: tuple[tuple[tuple[int, int], ...], ...] = ()
    opener: int | None = None
    if lot_first:
        opener, lot, source = draw_lot(tuple(range(rules.players)), source)
    indices, source = shuffled(tuple(range(TILE_COUNT)), source)
    return lot, opener, tuple(DOUBLE_SIX[i] for i in indices), source


def _deal_facts(state: State, order: tuple[Tile, ...]) -> bool:
    """Whether ``state`` is the deal of ``order``: hands by slices, boneyard in order."""
    size = state.rules.hand_size
    for seat in range(state.rules.players):
        if set(state.hand(seat)) != set(order[seat * size : (seat + 1) * size]):
            return False
    return state.boneyard == order[state.rules.players * size :]


def _lot_data(lot: Sequence[Sequence[tuple[int, int]]]) -> list[JsonValue]:
    return [[[seat, value] for seat, value in lot_round] for lot_round in lot]


def _end_data(after: State, move: Move) -> JsonObject | None:
    if after.phase is Phase.MATCH_OVER:
        assert isinstance(move, Place)
        return {"kind": "match-won", "winner": after.winner, "last_tile": not after.hand(move.seat)}
    if after.phase is Phase.ROUND_OVER:
        result = after.last_round
        assert result is not None
        return {
            "kind": "blocked" if result.finisher is None else "played-out",
            "finisher": result.finisher,
            "hands": [[str(t) for t in hand] for hand in result.hands],
            "settlement": _settlement_data(result.settlement),
        }
    return None


def _move_line(before: State, move: Move, after: State) -> JsonObject:
    line: JsonObject = {"type": "move", "move": str(move)}
    if isinstance(move, Place):
        line["count"] = after.layout.end_count
        line["points"] = play_points(after.layout.end_count)
    else:
        line["points"] = 0
    if isinstance(move, Draw):
        line["drew"] = str(before.boneyard[0])
    line["scores"] = list(after.scores)
    end = _end_data(after, move)
    if end is not None:
        line["end"] = end
    line["legal"] = _move_texts(legal_moves(after))
    return line


@attrs.frozen
class RecordedTally:
    """Counts over recorded matches, as the summary line states them."""

    matches: int = 0
    rounds: int = 0
    blocked: int = 0
    won_mid_round: int = 0
    won_by_last_tile: int = 0
    moves: int = 0

    def __add__(self, other: RecordedTally) -> RecordedTally:
        return RecordedTally(*(a + b for a, b in zip(attrs.astuple(self), attrs.astuple(other))))

    def as_data(self) -> JsonObject:
        """The summary line's counts."""
        return {key: value for key, value in attrs.asdict(self).items()}


def record_match(name: str, players: int, seed: int, policy_seed: int) -> tuple[list[JsonObject], RecordedTally]:
    """One whole match under the recording policy (see :data:`POLICY_TEXT`), as lines."""
    rules = Rules.standard(players)
    lines: list[JsonObject] = [
        {
            "type": "match",
            "match": name,
            "rules": {"players": rules.players, "hand_size": rules.hand_size, "target": rules.target},
            "seed": seed,
            "policy_seed": policy_seed,
        }
    ]
    policy: RandomSource = SplitMix64.from_seed(policy_seed)
    source: RandomSource = SplitMix64.from_seed(seed)
    state = new_match(rules, seed=seed)
    lot_first = True
    rounds = blocked = moves = 0
    while True:
        lot, opener, order, source = expected_deal(rules, source, lot_first)
        if state.lot != lot or (opener is not None and opener != state.opener) or not _deal_facts(state, order):
            raise AssertionError(f"{name}: the engine's deal differs from SETUP-5/OPEN-1 as recomputed")
        if state.source != source:
            raise AssertionError(f"{name}: the engine's source after the deal differs from the recomputed one")
        rounds += 1
        lines.append(
            {
                "type": "deal",
                "round": state.round_number,
                "lot": _lot_data(lot),
                "opener": state.opener,
                "order": [str(t) for t in order],
                "legal": _move_texts(legal_moves(state)),
            }
        )
        while state.phase is Phase.PLAYING:
            options = legal_moves(state)
            index, policy = policy.below(len(options))
            move = options[index]
            after = apply(state, move)
            lines.append(_move_line(state, move, after))
            moves += 1
            state = after
        if state.phase is Phase.MATCH_OVER:
            last_tile = not state.hand(state.to_move)
            tally = RecordedTally(1, rounds, blocked, int(not last_tile), int(last_tile), moves)
            return lines, tally
        result = state.last_round
        assert result is not None
        lot_first = result.finisher is None
        blocked += lot_first
        assert state.source is not None
        source = state.source
        state = next_round(state)


def recorded_text(players: int, matches: int = MATCHES_PER_PLAYER_COUNT) -> tuple[str, RecordedTally]:
    """The JSONL file of recorded matches for one player count, and its counts."""
    header: JsonObject = {
        "type": "header",
        "format": VECTOR_FORMAT,
        "kind": RECORDED_FORMAT,
        "players": players,
        "policy": POLICY_TEXT,
        "generator": "python3 -m sniff_rules vectors --write",
    }
    lines: list[JsonObject] = [header]
    total = RecordedTally()
    for number in range(1, matches + 1):
        seed = players * 1000 + number
        match_lines, tally = record_match(f"{players}p-{number:02d}", players, seed, seed + 500_000)
        lines += match_lines
        total = total + tally
    summary: JsonObject = {"type": "summary"}
    summary.update(total.as_data())
    lines.append(summary)
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines), total


def _check_recorded_match(lines: Sequence[Mapping[str, JsonValue]]) -> RecordedTally:
    head = lines[0]
    rules = _rules_of(head["rules"])
    seed = _as_int(head["seed"], "seed")
    policy: RandomSource = SplitMix64.from_seed(_as_int(head["policy_seed"], "policy_seed"))
    source: RandomSource = SplitMix64.from_seed(seed)
    state: State | None = None
    legal: tuple[Move, ...] = ()
    rounds = blocked = moves = 0
    won_mid = won_last = 0
    for number, line in enumerate(lines[1:], 1):
        where = f"line {number} of the match"
        kind = line["type"]
        if kind == "deal":
            if state is None:
                state = new_match(rules, seed=seed)
                lot_first = True
            else:
                if state.phase is not Phase.ROUND_OVER or state.last_round is None:
                    raise Mismatch(f"{where}: a deal, but the round is {state.phase.value}")
                lot_first = state.last_round.finisher is None
                blocked += lot_first
                if state.source is None:
                    raise Mismatch(f"{where}: the match lost its random source (SETUP-5)")
                source = state.source
                state = next_round(state)
            rounds += 1
            lot, opener, order, source = expected_deal(rules, source, lot_first)
            _expect_equal(f"{where}: round", line["round"], state.round_number)
            _expect_equal(f"{where}: lot (OPEN-1)", line["lot"], _lot_data(state.lot))
            _expect_equal(f"{where}: lot drawn from SplitMix64 (OPEN-1)", line["lot"], _lot_data(lot))
            _expect_equal(f"{where}: opener (OPEN-1, OPEN-2)", line["opener"], state.opener)
            if opener is not None:
                _expect_equal(f"{where}: opener chosen by the lot (OPEN-1)", line["opener"], opener)
            recorded_order = _order_of(line["order"])
            _expect_equal(f"{where}: deal order from SplitMix64 (SETUP-5)", [str(t) for t in recorded_order], [str(t) for t in order])
            if not _deal_facts(state, recorded_order):
                raise Mismatch(f"{where}: the dealt hands and boneyard differ from the order (SETUP-5)")
            legal = legal_moves(state)
            _expect_equal(f"{where}: legal moves", line["legal"], _move_texts(legal))
        elif kind == "move":
            if state is None:
                raise Mismatch(f"{where}: a move before the first deal")
            text = _as_str(line["move"], "move")
            where = f"{where} ({text})"
            move = parse_move(text)
            if move not in legal:
                raise Mismatch(f"{where}: not among the legal moves {_move_texts(legal)}")
            index, policy = policy.below(len(legal))
            if legal[index] != move:
                raise Mismatch(f"{where}: the policy chooses {legal[index]}, not this move")
            before = state
            try:
                state = apply(state, move)
            except SniffError as err:
                raise Mismatch(f"{where}: refused ({err})") from None
            moves += 1
            expected_line = _move_line(before, move, state)
            for key in sorted(set(expected_line) | set(line)):
                _expect_equal(f"{where}: {key}", line.get(key), expected_line.get(key))
            legal = legal_moves(state)
            if state.phase is Phase.MATCH_OVER:
                if state.hand(move.seat):
                    won_mid += 1
                else:
                    won_last += 1
        else:
            raise Mismatch(f"{where}: unexpected line type {kind!r}")
    if state is None or state.phase is not Phase.MATCH_OVER:
        raise Mismatch("the match's lines end before the match does")
    return RecordedTally(1, rounds, blocked, won_mid, won_last, moves)


def _check_recorded(path: str, lines: list[JsonValue]) -> list[VectorResult]:
    objects = [_as_object(line, "line") for line in lines]
    if not objects or objects[0].get("type") != "header":
        return [VectorResult(path, "header", "the first line is not a header")]
    results: list[VectorResult] = []
    groups: list[list[Mapping[str, JsonValue]]] = []
    summary: Mapping[str, JsonValue] | None = None
    for line in objects[1:]:
        kind = line.get("type")
        if kind == "match":
            groups.append([line])
        elif kind == "summary":
            summary = line
        elif groups:
            groups[-1].append(line)
        else:
            results.append(VectorResult(path, "header", f"a {kind!r} line before any match line"))
    total = RecordedTally()
    complete = True
    for group in groups:
        name = str(group[0].get("match"))
        try:
            total = total + _check_recorded_match(group)
            results.append(VectorResult(path, name))
        except (Mismatch, SniffError, KeyError) as err:
            complete = False
            results.append(VectorResult(path, name, _describe(err)))
    if summary is None:
        results.append(VectorResult(path, "summary", "no summary line"))
    elif complete:
        stated = {key: value for key, value in summary.items() if key != "type"}
        failure = None if stated == total.as_data() else f"summary states {stated}, replay counted {total.as_data()}"
        results.append(VectorResult(path, "summary", failure))
    return results


# ---------------------------------------------------------------- files


def _describe(err: BaseException) -> str:
    if isinstance(err, KeyError):
        return f"the vector lacks the field {err}"
    return str(err)


def _run(path: str, name: str, check: Callable[[], object]) -> VectorResult:
    try:
        check()
    except (Mismatch, SniffError, KeyError) as err:
        return VectorResult(path, name, _describe(err))
    return VectorResult(path, name)


def vector_paths(paths: Sequence[Path]) -> list[Path]:
    """The vector files named by ``paths``: files as given, folders searched for
    ``*.json`` (not ``schema.json``) and ``*.jsonl``, in sorted order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(
                p for p in path.rglob("*") if p.suffix in (".json", ".jsonl") and p.name != "schema.json"
            )
        else:
            found.append(path)
    return found


def default_vector_dir() -> Path:
    """``specs/vectors`` of the checkout this package runs from, else of the working folder."""
    beside = Path(__file__).resolve().parent.parent / "specs" / "vectors"
    return beside if beside.is_dir() else Path.cwd() / "specs" / "vectors"


def read_vector_file(path: Path) -> JsonValue:
    """A vector file's content: the object of a ``.json``, the list of lines of a ``.jsonl``."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        return [load_json(line) for line in text.splitlines() if line.strip()]
    return load_json(text, max_chars=1 << 26, max_depth=32)


def check_file(path: Path, label: str | None = None) -> list[VectorResult]:
    """Replay every vector of one file."""
    name = label if label is not None else str(path)
    try:
        data = read_vector_file(path)
    except (OSError, SniffError) as err:
        return [VectorResult(name, "file", f"cannot read: {err}")]
    if isinstance(data, list):
        return _check_recorded(name, data)
    if not isinstance(data, dict):
        return [VectorResult(name, "file", "neither a JSON object nor JSON lines")]
    if data.get("format") != VECTOR_FORMAT:
        return [VectorResult(name, "file", f"format {data.get('format')!r}; this runner reads {VECTOR_FORMAT}")]
    checkers: dict[str, Callable[[str, Mapping[str, JsonValue]], list[VectorResult]]] = {
        "layout-examples": _check_layout_examples,
        "settlement": _check_settlement,
        "perft": _check_perft,
    }
    checker = checkers.get(str(data.get("kind")))
    if checker is None:
        return [VectorResult(name, "file", f"unknown kind {data.get('kind')!r}")]
    try:
        return checker(name, data)
    except (Mismatch, SniffError, KeyError) as err:
        return [VectorResult(name, "file", _describe(err))]


def check_paths(paths: Sequence[Path]) -> list[VectorResult]:
    """Replay every vector in ``paths`` (files or folders); see :func:`vector_paths`."""
    return [result for path in vector_paths(paths) for result in check_file(path)]


# ---------------------------------------------------------------- generation


def _perft_position(name: str, start: JsonObject, note: str) -> JsonObject:
    state = start_state(start)
    depth = 1
    counts, divide = perft(state, depth)
    # Deepen while the next level stays within the budget, so the file costs seconds to check.
    while depth < PERFT_MAX_DEPTH:
        deeper, deeper_divide = perft(state, depth + 1)
        if deeper[-1] > PERFT_LEAF_LIMIT or deeper[-1] == 0:
            break
        depth, counts, divide = depth + 1, deeper, deeper_divide
    counts_data: list[JsonValue] = list(counts)
    divide_data: JsonObject = dict(divide)
    return {"name": name, "note": note, "start": start, "depth": depth, "counts": counts_data, "divide": divide_data}


def _deal_start(rules: Rules, seed: int) -> tuple[JsonObject, State]:
    _lot, opener, order, _source = expected_deal(rules, SplitMix64.from_seed(seed), True)
    assert opener is not None
    deal: JsonObject = {
        "rules": {"players": rules.players, "hand_size": rules.hand_size, "target": rules.target},
        "order": [str(t) for t in order],
        "opener": opener,
    }
    return {"deal": deal, "moves": []}, new_match(rules, order=order, opener=opener)


def _late_round(rules: Rules, seed: int) -> tuple[JsonObject, State]:
    """A position late in a round, reached by the recording policy, with at most three tiles
    left to draw; from the first seed at or after ``seed`` whose round gets that far."""
    while True:
        start, state = _deal_start(rules, seed)
        policy: RandomSource = SplitMix64.from_seed(seed + 500_000)
        played: list[JsonValue] = []
        while state.phase is Phase.PLAYING and len(state.boneyard) > LATE_ROUND_BONEYARD:
            options = legal_moves(state)
            index, policy = policy.below(len(options))
            state = apply(state, options[index])
            played.append(str(options[index]))
        if state.phase is Phase.PLAYING:
            start["moves"] = played
            return start, state
        seed += 1


def perft_text() -> str:
    """The generated ``perft.json``."""
    positions: list[JsonValue] = []
    for players in (2, 3, 4):
        rules = Rules.standard(players)
        for seed in (1, 2):
            number = players * 100 + seed
            start, _ = _deal_start(rules, number)
            note = (
                f"a fresh deal: lot, then shuffle, from SplitMix64 seed {number} (OPEN-1, SETUP-5);"
                " the opener leads (OPEN-3)"
            )
            positions.append(_perft_position(f"{players}p-deal-{number}", start, note))
        start, state = _late_round(rules, players * 100 + 3)
        name = f"{players}p-late-round"
        late = _perft_position(
            name,
            start,
            "late in a round: draws (DRAW-1, DRAW-2), passes (PASS-1), blocks (BLOCK-1) and the"
            " round's end (END-1) cut sequences short; state is the position the moves reach",
        )
        late["state"] = state_to_data(state)
        positions.append(late)
        # The same position one placement from the target: sequences stop where the match is won.
        near = state_to_data(state)
        near["scores"] = [rules.target - 5 for _ in state.scores]
        positions.append(
            _perft_position(
                f"{name}-near-target",
                {"state": near},
                "the late-round position with every side 5 short of the target: any scoring"
                " placement ends the match (MATCH-1, MATCH-2)",
            )
        )
    document: JsonObject = {
        "kind": "perft",
        "format": VECTOR_FORMAT,
        "description": (
            "counts[d-1] is the number of distinct legal move sequences of length d from the start"
            " position (a draw and a pass are moves; a sequence ends where the round or match ends,"
            " contributing nothing deeper). divide maps each legal first move to the count at full"
            " depth below it. Generated by: python3 -m sniff_rules vectors --write"
        ),
        "positions": positions,
    }
    return dump_vector_json(document)


def dump_vector_json(value: JsonValue) -> str:
    """JSON laid out for reading and diffing: objects one key a line, short arrays inline."""
    return _dump(value, 0) + "\n"


def _dump(value: JsonValue, indent: int) -> str:
    inline = json.dumps(value, separators=(", ", ": "))
    if len(inline) + indent <= 100 or not isinstance(value, (dict, list)):
        return inline
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(key)}: {_dump(item, indent + 2)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if all(not isinstance(item, (dict, list)) for item in value):
        return _wrap([json.dumps(item) for item in value], indent)
    return "[\n" + ",\n".join(pad + _dump(item, indent + 2) for item in value) + "\n" + " " * indent + "]"


def _wrap(words: list[str], indent: int) -> str:
    pad = " " * (indent + 2)
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(pad) + len(current) + len(word) + 2 > 100:
            lines.append(current + ",")
            current = word
        else:
            current = f"{current}, {word}" if current else word
    lines.append(current)
    return "[\n" + "\n".join(pad + line for line in lines) + "\n" + " " * indent + "]"


def generated_files() -> tuple[dict[str, str], RecordedTally]:
    """Every generated vector file by path under ``specs/vectors``, and the recorded counts."""
    files: dict[str, str] = {}
    total = RecordedTally()
    for players in (2, 3, 4):
        text, tally = recorded_text(players)
        files[f"recorded/players-{players}.jsonl"] = text
        total = total + tally
    files["perft.json"] = perft_text()
    assert sorted(files) == sorted(GENERATED_FILES)
    return files, total


def diff_generated(directory: Path, files: Mapping[str, str], max_lines: int = 400) -> Iterator[str]:
    """Unified diff lines between the files on disk and freshly generated ones."""
    for name, fresh in sorted(files.items()):
        path = directory / name
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old == fresh:
            continue
        shown = 0
        diff = difflib.unified_diff(
            old.splitlines(keepends=True), fresh.splitlines(keepends=True), f"a/{name}", f"b/{name}", n=1
        )
        hidden = 0
        for line in diff:
            if shown < max_lines:
                yield line if line.endswith("\n") else line + "\n"
                shown += 1
            else:
                hidden += 1
        if hidden:
            yield f"... {hidden} more diff lines for {name}\n"
