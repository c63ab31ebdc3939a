"""The generator of the generated conformance vectors: perft counts, randomness, recorded play.

``perft.json``, ``randomness.json`` (built by :mod:`sniff_rules.verify.vectors.random_vectors`)
and ``recorded/players-{2,3,4}.jsonl`` under ``specs/vectors`` are rebuilt
from the engine by :func:`generated_files`; ``python -m
sniff_rules vectors`` diffs them against the files (:func:`diff_generated`)
or writes them over the files with ``--write``. The hand-written files are
never generated. Generation is deterministic: the same engine writes the
same bytes.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator, Mapping
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

from sniff_rules.formats.state_json import (
    lot_to_data,
    round_result_to_data,
    rules_to_data,
    state_from_data,
    state_to_data,
    tiles_to_data,
)
from sniff_rules.formats.strict_json import JsonObject, JsonValue
from sniff_rules.moves import apply, legal_moves
from sniff_rules.play.driver import play_match
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.scoring import settle_round
from sniff_rules.state import Phase, RoundResult, State, new_match
from sniff_rules.tiles import Tile
from sniff_rules.verify.perft import perft
from sniff_rules.verify.vectors.files import dump_vector_json
from sniff_rules.verify.vectors.geometry_vectors import geometry_vector_text
from sniff_rules.verify.vectors.random_vectors import randomness_document
from sniff_rules.verify.vectors.recorded_play import (
    POLICY_SEED_OFFSET,
    POLICY_TEXT,
    RECORDED_FORMAT,
    VECTOR_FORMAT,
    RecordedTally,
    expected_deal,
    is_deal_of,
    move_line,
    move_texts,
    recording_choice,
)

MATCHES_PER_PLAYER_COUNT: Final = 11
"""Recorded matches per player count: 33 in all, about 650 rounds."""

PERFT_LEAF_LIMIT: Final = 120_000
"""A generated perft position goes as deep as it can while its deepest count stays at most this."""

PERFT_MAX_DEPTH: Final = 14
"""The deepest a generated perft position goes, whatever its counts."""

LATE_ROUND_BONEYARD: Final = 3
"""A late-round perft position has this many tiles or fewer left to draw: deep enough
for draws, passes, blocks and the round's end to appear in its tree."""

GENERATED_FILES: Final = (
    "geometry.json",
    "perft.json",
    "randomness.json",
    "recorded/players-2.jsonl",
    "recorded/players-3.jsonl",
    "recorded/players-4.jsonl",
)
"""The files under ``specs/vectors`` that ``vectors --write`` may rewrite; all others are written by hand."""

HAND_WRITTEN_FILES: Final = ("limits.json", "refusals.json", "seed_examples.json", "settlement.json", "tally.json")
"""The vector files written by hand, never generated: each states what the rules say, not what the engine did."""

GENERATOR_COMMAND: Final = "python3 -m sniff_rules vectors --write"


def source_vector_dir() -> Path | None:
    """``specs/vectors`` of the checkout this package runs from, the one source of the vectors.

    None when the package runs from an installed wheel, which ships the
    vectors as read-only package data (:func:`sniff_rules.verify.vectors.conformance.shipped_vectors`).
    """
    folder = Path(__file__).resolve().parents[3] / "specs" / "vectors"  # the checkout: sniff_rules/verify/vectors/ up
    return folder if (folder / "schema.json").is_file() else None


# ---------------------------------------------------------------- recorded play


def record_match(name: str, players: int, seed: int, policy_seed: int) -> tuple[list[JsonObject], RecordedTally]:
    """One whole match under the recording policy (:data:`.recorded_play.POLICY_TEXT`), as lines."""
    rules = Rules.standard(players)
    lines: list[JsonObject] = [
        {"type": "match", "match": name, "rules": rules_to_data(rules), "seed": seed, "policy_seed": policy_seed}
    ]
    source: RandomSource = SplitMix64.from_seed(seed)
    policies = [recording_choice] * players
    lot_first = True
    rounds = blocked = moves = 0
    before = new_match(rules, seed=seed)
    for step in play_match(before, policies, SplitMix64.from_seed(policy_seed)):
        state = step.state
        if step.move is not None:
            lines.append(move_line(before, step.move, state))
            moves += 1
            before = state
            continue
        if rounds:
            # A deal after the first: ``before`` is the round it follows, settled.
            result = before.last_round
            assert result is not None
            assert before.source is not None
            lot_first = result.blocked
            blocked += lot_first
            source = before.source
        lot, opener, order, source = expected_deal(rules, source, lot_first)
        if state.lot != lot or (opener is not None and opener != state.opener) or not is_deal_of(state, order):
            raise AssertionError(f"{name}: the engine's deal differs from SETUP-5/OPEN-1 as recomputed")
        if state.source != source:
            raise AssertionError(f"{name}: the engine's source after the deal differs from the recomputed one")
        rounds += 1
        lines.append(
            {
                "type": "deal",
                "round": state.round_number,
                "lot": lot_to_data(lot),
                "opener": state.opener,
                "order": tiles_to_data(order),
                "legal": move_texts(legal_moves(state)),
            }
        )
        before = state
    last_tile = not before.hand(before.to_move)
    return lines, RecordedTally(1, rounds, blocked, int(not last_tile), int(last_tile), moves)


def recorded_text(players: int, matches: int = MATCHES_PER_PLAYER_COUNT) -> tuple[str, RecordedTally]:
    """The JSONL file of recorded matches for one player count, and its counts."""
    header: JsonObject = {
        "type": "header",
        "format": VECTOR_FORMAT,
        "kind": RECORDED_FORMAT,
        "players": players,
        "policy": POLICY_TEXT,
        "generator": GENERATOR_COMMAND,
    }
    lines: list[JsonObject] = [header]
    total = RecordedTally()
    for number in range(1, matches + 1):
        seed = players * 1000 + number
        match_lines, tally = record_match(f"{players}p-{number:02d}", players, seed, seed + POLICY_SEED_OFFSET)
        lines += match_lines
        total = total + tally
    summary: JsonObject = {"type": "summary"}
    summary.update(total.as_data())
    lines.append(summary)
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines), total


# ---------------------------------------------------------------- perft


def _perft_position(name: str, start: JsonObject, state: State, note: str, seeds: JsonObject) -> JsonObject:
    """A perft vector for ``state``, which ``start`` describes; ``seeds`` names where a dealt start came from."""
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
    return {
        "name": name,
        **seeds,
        "note": note,
        "start": start,
        "depth": depth,
        "counts": counts_data,
        "divide": divide_data,
    }


def _deal_start(rules: Rules, seed: int) -> tuple[JsonObject, State]:
    _lot, opener, order, _source = expected_deal(rules, SplitMix64.from_seed(seed), True)
    assert opener is not None
    deal: JsonObject = {"rules": rules_to_data(rules), "order": tiles_to_data(order), "opener": opener}
    return {"deal": deal, "moves": []}, new_match(rules, order=order, opener=opener)


def _late_round(rules: Rules, seed: int) -> tuple[JsonObject, State, int]:
    """A position late in a round, reached by the recording policy, with at most three tiles
    left to draw; from the first seed at or after ``seed`` whose round gets that far (returned too)."""
    while True:
        start, state = _deal_start(rules, seed)
        policy: RandomSource = SplitMix64.from_seed(seed + POLICY_SEED_OFFSET)
        played: list[JsonValue] = []
        while state.phase is Phase.PLAYING and len(state.boneyard) > LATE_ROUND_BONEYARD:
            move, policy = recording_choice(state, policy)
            state = apply(state, move)
            played.append(str(move))
        if state.phase is Phase.PLAYING:
            start["moves"] = played
            return start, state, seed
        seed += 1


def _free_first_round(rules: Rules, finisher: int) -> RoundResult:
    """A round 1 that ``finisher`` played out while every other hand kept tiles of 2 pips or fewer, which cost 0."""
    cheap = iter((Tile(0, 0), Tile(0, 1), Tile(0, 2)))
    hands = tuple(() if seat == finisher else (next(cheap),) for seat in range(rules.players))
    return RoundResult(1, finisher, hands, settle_round(rules, hands))


def perft_text() -> str:
    """The generated ``perft.json``."""
    positions: list[JsonValue] = []
    for players in (2, 3, 4):
        rules = Rules.standard(players)
        for seed in (1, 2):
            number = players * 100 + seed
            start, state = _deal_start(rules, number)
            note = "a fresh deal from seed: the lot, then the shuffle (OPEN-1, SETUP-5); the opener leads (OPEN-3)"
            positions.append(_perft_position(f"{players}p-deal-{number}", start, state, note, {"seed": number}))
        start, state, seed = _late_round(rules, players * 100 + 3)
        name = f"{players}p-late-round"
        late = _perft_position(
            name,
            start,
            state,
            "late in a round: the deal of seed, then the moves the recording policy chose from"
            " policy_seed; draws (DRAW-1, DRAW-2), passes (PASS-1), blocks (BLOCK-1) and the"
            " round's end (END-1) cut sequences short; state is the position the moves reach",
            {"seed": seed, "policy_seed": seed + POLICY_SEED_OFFSET},
        )
        late["state"] = state_to_data(state)
        positions.append(late)
        # The same position one placement from the target: sequences stop where the match is won.
        # Placed in round 2, after a round 1 the opener played out at no cost to anyone, since
        # in round 1 the scores are exactly the points of the round's placements.
        near = state_to_data(state)
        near["round"] = 2
        near["scores"] = [rules.target - 5 for _ in state.scores]
        near["last_round"] = round_result_to_data(_free_first_round(rules, state.opener))
        positions.append(
            _perft_position(
                f"{name}-near-target",
                {"state": near},
                state_from_data(near),
                "the late-round position in round 2 with every side 5 short of the target: any"
                " scoring placement ends the match (MATCH-1, MATCH-2)",
                {},
            )
        )
    document: JsonObject = {
        "kind": "perft",
        "format": VECTOR_FORMAT,
        "description": (
            "counts[d-1] is the number of distinct legal move sequences of length d from the start"
            " position (a draw and a pass are moves; a sequence ends where the round or match ends,"
            " contributing nothing deeper). divide maps each legal first move to the count at full"
            " depth below it, keyed by its text. seed, where given, is the SplitMix64 seed the deal"
            " was drawn from (a match started from it: the lot, then the shuffle); policy_seed, where"
            " given, seeds the recording policy that chose the moves after the deal."
        ),
        "generator": GENERATOR_COMMAND,
        "positions": positions,
    }
    return dump_vector_json(document)


def randomness_text() -> str:
    """The generated ``randomness.json`` (see :mod:`sniff_rules.verify.vectors.random_vectors`)."""
    return dump_vector_json(randomness_document(GENERATOR_COMMAND))


# ---------------------------------------------------------------- files


def generated_files() -> tuple[dict[str, str], RecordedTally]:
    """Every generated vector file by path under ``specs/vectors``, and the recorded counts."""
    files: dict[str, str] = {}
    total = RecordedTally()
    for players in (2, 3, 4):
        text, tally = recorded_text(players)
        files[f"recorded/players-{players}.jsonl"] = text
        total = total + tally
    files["perft.json"] = perft_text()
    files["randomness.json"] = randomness_text()
    # Imported here: the geometry vectors build on vectorgen's layout of JSON text.
    files["geometry.json"] = geometry_vector_text()
    assert sorted(files) == sorted(GENERATED_FILES)
    return files, total


def diff_generated(directory: Traversable, files: Mapping[str, str], max_lines: int = 400) -> Iterator[str]:
    """Unified diff lines between the files in ``directory`` and freshly generated ones."""
    for name, fresh in sorted(files.items()):
        path = directory
        for part in name.split("/"):
            path = path / part
        old = path.read_text(encoding="utf-8") if path.is_file() else ""
        if old == fresh:
            continue
        shown = hidden = 0
        diff = difflib.unified_diff(
            old.splitlines(keepends=True), fresh.splitlines(keepends=True), f"a/{name}", f"b/{name}", n=1
        )
        for line in diff:
            if shown < max_lines:
                yield line if line.endswith("\n") else line + "\n"
                shown += 1
            else:
                hidden += 1
        if hidden:
            yield f"... {hidden} more diff lines for {name}\n"
