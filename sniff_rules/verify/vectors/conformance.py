"""The conformance runner: replay the vectors against this library.

The vectors are plain JSON that ``specs/vectors/schema.json`` describes,
shipped inside the package (:func:`shipped_vectors`):

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
``limits.json`` (``kind: limits``, written by hand)
    Each numeric limit and written form of the rules from both sides
    (:mod:`sniff_rules.verify.vectors.limit_vectors`).

:func:`check_paths` replays files and reports one :class:`VectorResult` per
vector; a malformed vector fails naming FORMAT-1 or FORMAT-2. The files are
found and read by :mod:`sniff_rules.verify.vectors.files`, which gives every file a
verdict however broken it is, and parsed by :mod:`sniff_rules.formats.strict_json`.
:mod:`sniff_rules.verify.vectors.generate` writes the generated files. The randomness,
refusal and tally files, and the seeds a perft position names, are checked
by :mod:`sniff_rules.verify.vectors.checks`.
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

from sniff_rules.errors import SniffError
from sniff_rules.formats.notation import parse_move, parse_placement, parse_tile
from sniff_rules.formats.state_json import (
    lot_to_data,
    round_result_to_data,
    rules_from_data,
    settlement_to_data,
    state_to_data,
    tiles_to_data,
)
from sniff_rules.formats.strict_json import (
    JsonValue,
    json_array,
    json_field,
    json_int,
    json_object,
    json_str,
    json_strs,
)
from sniff_rules.layout import Layout
from sniff_rules.moves import Place, apply, legal_moves
from sniff_rules.play.driver import play_match
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.scoring import play_points, settle_round
from sniff_rules.state import Phase, State, new_match
from sniff_rules.verify.perft import perft
from sniff_rules.verify.vectors.checks import CHECKERS, check_perft_seeds
from sniff_rules.verify.vectors.files import (
    Mismatch,
    VectorResult,
    check_perft_budget,
    file_verdict,
    read_vector_file,
    start_state,
    strictly_equal,
    vector_paths,
)
from sniff_rules.verify.vectors.geometry_vectors import check_geometry_file
from sniff_rules.verify.vectors.limit_vectors import check_limits_file
from sniff_rules.verify.vectors.recorded_play import (
    VECTOR_FORMAT,
    RecordedTally,
    expected_deal,
    is_deal_of,
    move_line,
    move_texts,
    recording_choice,
)

__all__ = [
    "VECTOR_PACKAGE",
    "Mismatch",
    "VectorResult",
    "check_file",
    "check_paths",
    "read_vector_file",
    "shipped_vectors",
    "start_state",
    "vector_paths",
]

VECTOR_PACKAGE: Final = "sniff_rules.vectors"
"""The package whose data are the vectors: ``specs/vectors`` of the source, mapped by pyproject.toml."""


def _expect_equal(what: str, expected: object, actual: object) -> None:
    if not strictly_equal(expected, actual):
        raise Mismatch(f"{what}: expected {expected!r}, got {actual!r}")


# ---------------------------------------------------------------- shared pieces


def _objects(value: JsonValue, what: str) -> list[Mapping[str, JsonValue]]:
    return [json_object(item, f"{what}[{index}]") for index, item in enumerate(json_array(value, what))]


def _refused_as_expected(step: str, refused: JsonValue, action: Callable[[], object]) -> None:
    allowed = json_strs(refused, "refused")
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
    for number, step in enumerate(_objects(json_field(example, "steps", "example"), "steps")):
        text = json_str(json_field(step, "place", "step"), "place")
        where = f"step {number} ({text})"
        placement = parse_placement(text)
        if "refused" in step:
            _refused_as_expected(where, step["refused"], partial(layout.place, placement.tile, placement.target))
            continue
        try:
            layout = layout.place(placement.tile, placement.target)
        except SniffError as err:
            raise Mismatch(f"{where}: refused ({err})") from None
        expect = json_object(json_field(step, "expect", where), f"{where}.expect")
        _expect_equal(
            f"{where}: open attachment points",
            sorted(
                (json_str(point, "point"), json_int(value, "value")) for point, value in _entries(expect, "open_points")
            ),
            sorted((str(point), point.value) for point in layout.open_points),
        )
        _expect_equal(
            f"{where}: connections in the order played",
            [(json_str(old, "existing"), json_str(new, "placed")) for old, new in _entries(expect, "connections")],
            [(str(c.existing), str(c.placed)) for c in layout.connections],
        )
        _expect_equal(
            f"{where}: counted contributions",
            sorted(
                (json_str(tile, "tile"), json_int(value, "value")) for tile, value in _entries(expect, "contributions")
            ),
            sorted((str(c.tile), c.value) for c in layout.contributions),
        )
        _expect_equal(f"{where}: end count", json_field(expect, "end_count", where), layout.end_count)
        _expect_equal(f"{where}: points", json_field(expect, "points", where), play_points(layout.end_count))
        sniff = layout.sniff_tile
        _expect_equal(f"{where}: the Sniff", json_field(expect, "sniff", where), None if sniff is None else str(sniff))


_ENTRY_FIELDS: Final = {
    "open_points": ("point", "value"),
    "connections": ("existing", "placed"),
    "contributions": ("tile", "value"),
}


def _entries(expect: Mapping[str, JsonValue], key: str) -> list[tuple[JsonValue, JsonValue]]:
    """The two fields of each object listed under ``key`` of a layout step's expectations."""
    first, second = _ENTRY_FIELDS[key]
    items = _objects(json_field(expect, key, "expect"), key)
    return [(json_field(item, first, key), json_field(item, second, key)) for item in items]


def _check_layout_examples(path: str, data: Mapping[str, JsonValue]) -> list[VectorResult]:
    return [
        _run(path, json_str(json_field(example, "name", "example"), "name"), partial(_check_layout_example, example))
        for example in _objects(json_field(data, "examples", path), "examples")
    ]


# ---------------------------------------------------------------- settlement


def _check_hand_case(case: Mapping[str, JsonValue]) -> None:
    rules = Rules.standard(json_int(json_field(case, "players", "hand case"), "players"))
    hands = tuple(
        tuple(parse_tile(text) for text in json_strs(hand, "hand"))
        for hand in json_array(json_field(case, "hands", "hand case"), "hands")
    )
    expect = dict(json_object(json_field(case, "expect", "hand case"), "expect"))
    _expect_equal("settlement", expect, settlement_to_data(settle_round(rules, hands)))


def _state_facts(state: State) -> dict[str, JsonValue]:
    """What a scenario step may assert about the state after a move."""
    result = state.last_round
    return {
        "phase": state.phase.value,
        "scores": list(state.scores),
        "to_move": state.to_move,
        "winner": state.winner,
        "hands": [[str(t) for t in hand] for hand in state.hands],
        "boneyard": [str(t) for t in state.boneyard],
        "legal": move_texts(legal_moves(state)),
        "count": state.layout.end_count,
        "round": state.round_number,
        "last_round": None if result is None else round_result_to_data(result),
    }


def _check_scenario(case: Mapping[str, JsonValue]) -> None:
    state = start_state(json_field(case, "start", "scenario"))
    for number, step in enumerate(_objects(json_field(case, "steps", "scenario"), "steps")):
        text = json_str(json_field(step, "move", "step"), "move")
        where = f"step {number} ({text})"
        if "legal" in step:
            _expect_equal(
                f"{where}: legal moves before it (any order)",
                sorted(json_strs(step["legal"], "legal")),
                sorted(str(m) for m in legal_moves(state)),
            )
        move = parse_move(text)
        if "refused" in step:
            _refused_as_expected(where, step["refused"], partial(apply, state, move))
            continue
        try:
            state = apply(state, move)
        except SniffError as err:
            raise Mismatch(f"{where}: refused ({err})") from None
        facts = _state_facts(state)
        if isinstance(move, Place):
            facts["points"] = play_points(state.layout.end_count)
        for key, expected in json_object(json_field(step, "expect", where), f"{where}.expect").items():
            if key not in facts:
                raise Mismatch(f"{where}: the vector asserts {key!r}, which this runner does not know")
            actual = facts[key]
            if key == "legal":
                _expect_equal(f"{where}: {key}", sorted(json_strs(expected, key)), sorted(json_strs(actual, key)))
            else:
                _expect_equal(f"{where}: {key}", expected, actual)


def _check_settlement(path: str, data: Mapping[str, JsonValue]) -> list[VectorResult]:
    results = [
        _run(path, json_str(json_field(case, "name", "hand case"), "name"), partial(_check_hand_case, case))
        for case in _objects(json_field(data, "hands", path), "hands")
    ]
    results += [
        _run(path, json_str(json_field(case, "name", "scenario"), "name"), partial(_check_scenario, case))
        for case in _objects(json_field(data, "scenarios", path), "scenarios")
    ]
    return results


# ---------------------------------------------------------------- perft


def _check_perft_position(position: Mapping[str, JsonValue]) -> None:
    state = start_state(json_field(position, "start", "position"))
    if "state" in position:
        _expect_equal("the start position as a state", position["state"], state_to_data(state))
    depth = json_int(json_field(position, "depth", "position"), "depth")
    check_perft_budget(state, depth, position.get("counts"))
    check_perft_seeds(position, state)
    counts, divide = perft(state, depth)
    _expect_equal("counts at depths 1..depth", json_field(position, "counts", "position"), counts)
    _expect_equal(
        "divide (count at full depth below each first move)", json_field(position, "divide", "position"), divide
    )


def _check_perft(path: str, data: Mapping[str, JsonValue]) -> list[VectorResult]:
    return [
        _run(path, json_str(json_field(position, "name", "position"), "name"), partial(_check_perft_position, position))
        for position in _objects(json_field(data, "positions", path), "positions")
    ]


# ---------------------------------------------------------------- recorded play


def _check_recorded_match(lines: Sequence[Mapping[str, JsonValue]]) -> RecordedTally:
    head = lines[0]
    rules = rules_from_data(json_field(head, "rules", "match line"))
    seed = json_int(json_field(head, "seed", "match line"), "seed")
    policy = SplitMix64.from_seed(json_int(json_field(head, "policy_seed", "match line"), "policy_seed"))
    # The driver plays the match as the header's policy chooses; each line is
    # checked against its next step, and the deal again against SplitMix64 alone.
    steps = play_match(new_match(rules, seed=seed), [recording_choice] * rules.players, policy)
    source: RandomSource = SplitMix64.from_seed(seed)
    state: State | None = None
    rounds = blocked = moves = 0
    won_mid = won_last = 0
    for number, line in enumerate(lines[1:], 1):
        where = f"line {number} of the match"
        kind = json_field(line, "type", where)
        if kind == "deal":
            if state is None:
                lot_first = True
            else:
                if state.phase is not Phase.ROUND_OVER or state.last_round is None:
                    raise Mismatch(f"{where}: a deal, but the round is {state.phase.value}")
                lot_first = state.last_round.blocked
                blocked += lot_first
                if state.source is None:
                    raise Mismatch(f"{where}: the match lost its random source (SETUP-5)")
                source = state.source
            state = next(steps).state
            rounds += 1
            lot, opener, order, source = expected_deal(rules, source, lot_first)
            recorded_lot = json_field(line, "lot", where)
            _expect_equal(f"{where}: round", json_field(line, "round", where), state.round_number)
            _expect_equal(f"{where}: lot (OPEN-1)", recorded_lot, lot_to_data(state.lot))
            _expect_equal(f"{where}: lot drawn from SplitMix64 (OPEN-1)", recorded_lot, lot_to_data(lot))
            _expect_equal(f"{where}: opener (OPEN-1, OPEN-2)", json_field(line, "opener", where), state.opener)
            if opener is not None:
                _expect_equal(f"{where}: opener chosen by the lot (OPEN-1)", line["opener"], opener)
            _expect_equal(
                f"{where}: deal order from SplitMix64 (SETUP-5)", json_field(line, "order", where), tiles_to_data(order)
            )
            if not is_deal_of(state, order):
                raise Mismatch(f"{where}: the dealt hands and boneyard differ from the order (SETUP-5)")
            _expect_equal(f"{where}: legal moves", json_field(line, "legal", where), move_texts(legal_moves(state)))
        elif kind == "move":
            if state is None:
                raise Mismatch(f"{where}: a move before the first deal")
            text = json_str(json_field(line, "move", where), "move")
            where = f"{where} ({text})"
            move = parse_move(text)
            legal = legal_moves(state)
            if move not in legal:
                raise Mismatch(f"{where}: not among the legal moves {move_texts(legal)}")
            before, step = state, next(steps)
            if step.move != move:
                raise Mismatch(f"{where}: the policy chooses {step.move}, not this move")
            state = step.state
            moves += 1
            expected_line = move_line(before, move, state)
            for key in sorted(set(expected_line) | set(line)):
                _expect_equal(f"{where}: {key}", line.get(key), expected_line.get(key))
            if state.phase is Phase.MATCH_OVER:
                if state.hand(move.seat):
                    won_mid += 1
                else:
                    won_last += 1
        else:
            raise Mismatch(f"{where}: unexpected line type {kind!r:.40}")
    if state is None or state.phase is not Phase.MATCH_OVER:
        raise Mismatch("the match's lines end before the match does")
    return RecordedTally(1, rounds, blocked, won_mid, won_last, moves)


def _check_recorded(path: str, lines: list[JsonValue]) -> list[VectorResult]:
    try:
        objects = [json_object(line, f"line {number}") for number, line in enumerate(lines, 1)]
    except SniffError as err:
        return [VectorResult(path, "file", str(err))]
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
            results.append(VectorResult(path, "header", f"a {kind!r:.40} line before any match line"))
    total = RecordedTally()
    complete = True
    for group in groups:
        name = str(group[0].get("match"))
        try:
            total = total + _check_recorded_match(group)
            results.append(VectorResult(path, name))
        except (Mismatch, SniffError) as err:
            complete = False
            results.append(VectorResult(path, name, str(err)))
    if summary is None:
        results.append(VectorResult(path, "summary", "no summary line"))
    elif complete:
        stated = {key: value for key, value in summary.items() if key != "type"}
        failure = (
            None
            if strictly_equal(stated, total.as_data())
            else f"summary states {stated}, replay counted {total.as_data()}"
        )
        results.append(VectorResult(path, "summary", failure))
    return results


# ---------------------------------------------------------------- files


def _run(path: str, name: str, check: Callable[[], object]) -> VectorResult:
    try:
        check()
    except (Mismatch, SniffError) as err:
        return VectorResult(path, name, str(err))
    return VectorResult(path, name)


def shipped_vectors() -> Traversable:
    """The vectors shipped with this package: the package data ``sniff_rules.vectors``.

    Read through :mod:`importlib.resources`, so an installed wheel reads its
    own copy in any working folder, and an editable install reads
    ``specs/vectors`` of its checkout, the one source. A checkout run in
    place without being installed has no ``sniff_rules.vectors`` to import;
    it reads that same ``specs/vectors`` directly.
    """
    try:
        return importlib.resources.files(VECTOR_PACKAGE)
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[3] / "specs" / "vectors"  # the checkout: sniff_rules/verify/vectors/ up


def check_file(path: Traversable, label: str | None = None) -> list[VectorResult]:
    """Replay every vector of one file; a file that cannot be read or holds none fails
    (:func:`sniff_rules.verify.vectors.files.file_verdict`)."""
    return file_verdict(path, label, _check_document)


def _check_document(name: str, data: JsonValue) -> list[VectorResult]:
    if isinstance(data, list):
        return _check_recorded(name, data)
    if not isinstance(data, dict):
        return [VectorResult(name, "file", "neither a JSON object nor JSON lines")]
    if not strictly_equal(data.get("format"), VECTOR_FORMAT):
        return [VectorResult(name, "file", f"format {data.get('format')!r:.40}; this runner reads {VECTOR_FORMAT}")]
    checkers: dict[str, Callable[[str, Mapping[str, JsonValue]], list[VectorResult]]] = {
        "layout-examples": _check_layout_examples,
        "settlement": _check_settlement,
        "perft": _check_perft,
        "geometry": check_geometry_file,
        "limits": check_limits_file,
        **CHECKERS,
    }
    checker = checkers.get(str(data.get("kind")))
    if checker is None:
        return [VectorResult(name, "file", f"unknown kind {data.get('kind')!r:.40}")]
    return checker(name, data)


def check_paths(paths: Sequence[Traversable]) -> list[VectorResult]:
    """Replay every vector in ``paths`` (files or folders); see :func:`vector_paths`."""
    return [result for path in vector_paths(paths) for result in check_file(path)]
