"""The conformance vectors of specs/vectors: valid against their schema, and replayed by the runner."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from sniff_rules.cli.commands import main
from sniff_rules.verify.vectors.checks import VECTOR_GROUPS
from sniff_rules.verify.vectors.conformance import (
    VectorResult,
    check_file,
    check_paths,
    read_vector_file,
    shipped_vectors,
    vector_paths,
)
from sniff_rules.verify.vectors.generate import GENERATED_FILES, HAND_WRITTEN_FILES

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "specs" / "vectors"
SCHEMA = VECTORS / "schema.json"
HAND_WRITTEN = HAND_WRITTEN_FILES
RECORDED_DEFS = {
    "header": "recordedHeader",
    "match": "recordedMatch",
    "deal": "recordedDeal",
    "move": "recordedMove",
    "summary": "recordedSummary",
}


def relative(path: Traversable) -> str:
    """A vector file's name under specs/vectors, as the test ids show it."""
    assert isinstance(path, Path)
    return path.relative_to(VECTORS).as_posix()


FILES = vector_paths([VECTORS])


@cache
def results_of(name: str) -> dict[str, VectorResult]:
    """Every vector of one file replayed once, by vector name."""
    return {result.name: result for result in check_file(VECTORS / name, name)}


def vector_names(path: Traversable) -> list[str]:
    """The names of a file's vectors, read without replaying them."""
    data = read_vector_file(path)
    if isinstance(data, list):
        names = [str(line["match"]) for line in data if isinstance(line, dict) and line.get("type") == "match"]
        return [*names, "summary"]
    assert isinstance(data, dict)
    found: list[str] = []
    for group in VECTOR_GROUPS[str(data["kind"])]:
        items = data[group]
        assert isinstance(items, list)
        found += [str(item["name"]) for item in items if isinstance(item, dict)]
    return found


CASES = [(relative(path), name) for path in FILES for name in vector_names(path)]


def replay(file: str, name: str) -> None:
    """Fail with the runner's message unless the named vector passes."""
    result = results_of(file).get(name)
    assert result is not None, f"the runner reported no vector {name!r} in {file}"
    assert result.passed, str(result)


def test_every_expected_vector_file_is_shipped() -> None:
    """The hand-written and the generated vector files are all there, and nothing else."""
    assert sorted([*HAND_WRITTEN, *GENERATED_FILES]) == sorted(relative(path) for path in FILES)


@pytest.mark.parametrize(("file", "name"), [case for case in CASES if case[0] == "seed_examples.json"])
def test_seed_worked_example_replays(file: str, name: str) -> None:
    """OPEN-3 PLACE-1..2 SNIFF-1..3 COUNT-1..4 POINTS-1: a worked example of the seed, placement by placement."""
    replay(file, name)


@pytest.mark.parametrize(("file", "name"), [case for case in CASES if case[0] == "settlement.json"])
def test_settlement_vector_replays(file: str, name: str) -> None:
    """SETTLE-1..4 END-1 BLOCK-1 MATCH-1..2 DRAW-1..2 PASS-1 POINTS-2 TURN-1..2 PLACE-3: hand-written endings."""
    replay(file, name)


@pytest.mark.parametrize(("file", "name"), [case for case in CASES if case[0] == "perft.json"])
def test_perft_counts_replay(file: str, name: str) -> None:
    """TURN-1 OPEN-3 PLACE-1 DRAW-1..2 PASS-1 BLOCK-1 MATCH-1..2: legal move sequences counted to each depth."""
    replay(file, name)


@pytest.mark.parametrize(("file", "name"), [case for case in CASES if case[0].startswith("recorded/")])
def test_recorded_match_replays(file: str, name: str) -> None:
    """SETUP-2..5 OPEN-1..2 TURN-1..2 END-1 BLOCK-1 MATCH-1: a whole recorded match, deal by deal and move by move."""
    replay(file, name)


# ---------------------------------------------------------------- the schema


@cache
def schema() -> dict[str, Any]:
    """specs/vectors/schema.json, checked to be a valid draft 2020-12 schema."""
    loaded: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(loaded)
    return loaded


def validator(definition: str | None = None) -> Any:
    """A validator for the whole schema, or for one of its definitions."""
    loaded = schema()
    if definition is None:
        return jsonschema.Draft202012Validator(loaded)
    return jsonschema.Draft202012Validator({"$defs": loaded["$defs"], "$ref": f"#/$defs/{definition}"})


def test_schema_is_draft_2020_12() -> None:
    """The schema is itself valid JSON Schema, draft 2020-12."""
    assert "https://json-schema.org/draft/2020-12/schema" == schema()["$schema"]


@pytest.mark.parametrize("name", ["seed_examples.json", "settlement.json", "perft.json"])
def test_vector_file_matches_the_schema(name: str) -> None:
    """Each vector document validates against specs/vectors/schema.json."""
    errors = [
        f"{list(e.absolute_path)}: {e.message}"
        for e in validator().iter_errors(json.loads((VECTORS / name).read_text()))
    ]
    assert [] == errors[:5]


@pytest.mark.parametrize("name", [relative(p) for p in FILES if p.name.endswith(".jsonl")])
def test_every_recorded_line_matches_the_schema(name: str) -> None:
    """Every line of a recorded file validates against its line definition in the schema."""
    validators = {kind: validator(definition) for kind, definition in RECORDED_DEFS.items()}
    whole = validator()
    lines = (VECTORS / name).read_text(encoding="utf-8").splitlines()
    # The whole schema's oneOf is tried on a sample; every line against its own definition (faster).
    for number, text in enumerate(lines):
        line = json.loads(text)
        validators[line["type"]].validate(line)
        if number % 500 == 0:
            whole.validate(line)


def test_the_schema_refuses_a_malformed_vector() -> None:
    """SETUP-1: the schema refuses a tile written high half first, and an unknown field."""
    line = {"type": "move", "move": "0:[4|1]", "points": 0, "scores": [0, 0], "legal": []}
    assert not validator("recordedMove").is_valid(line)
    assert not validator("recordedMove").is_valid({**line, "move": "0:draw", "colour": "red"})
    assert validator("recordedMove").is_valid({**line, "move": "0:draw"})


# ---------------------------------------------------------------- what the recorded play covers


def test_recorded_play_covers_enough_matches_and_endings() -> None:
    """SETUP-2 BLOCK-1 MATCH-1: 2, 3 and 4 players, 300+ rounds, 30+ matches, blocks, mid-round and last-tile wins."""
    totals: dict[str, int] = {}
    players: set[int] = set()
    for path in FILES:
        if not path.name.endswith(".jsonl"):
            continue
        lines = read_vector_file(path)
        assert isinstance(lines, list)
        header, summary = lines[0], lines[-1]
        assert isinstance(header, dict)
        assert isinstance(summary, dict)
        players.add(int(str(header["players"])))
        for key, value in summary.items():
            if isinstance(value, int):
                totals[key] = totals.get(key, 0) + value
    assert {2, 3, 4} == players
    assert totals["rounds"] >= 300, totals
    assert totals["matches"] >= 30, totals
    assert 0 < min(totals["blocked"], totals["won_mid_round"], totals["won_by_last_tile"]), totals


# ---------------------------------------------------------------- the runner catches disagreement


def _edited_copy(tmp_path: Path, name: str, edit: Mapping[str, Any]) -> Path:
    data = json.loads((VECTORS / name).read_text(encoding="utf-8"))
    target: Any = data
    path = list(edit["path"])
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = edit["value"]
    copy = tmp_path / name
    copy.write_text(json.dumps(data), encoding="utf-8")
    return copy


@pytest.mark.parametrize(
    ("name", "edit", "message"),
    [
        (
            "seed_examples.json",
            {"path": ["examples", 4, "steps", 3, "expect", "end_count"], "value": 5},
            "end count",
        ),
        (
            "seed_examples.json",
            {"path": ["examples", 0, "steps", 2, "refused"], "value": ["PLACE-1"]},
            "SNIFF-2",
        ),
        (
            "seed_examples.json",
            {"path": ["examples", 1, "steps", 0, "expect", "contributions", 0, "value"], "value": 8},
            "contributions",
        ),
        (
            "settlement.json",
            {"path": ["hands", 6, "expect", "side_deductions"], "value": [5, 5]},
            "settlement",
        ),
        (
            "settlement.json",
            {"path": ["scenarios", 4, "steps", 0, "expect", "scores"], "value": [250, 180]},
            "scores",
        ),
    ],
)
def test_a_vector_the_engine_disagrees_with_fails(
    tmp_path: Path, name: str, edit: Mapping[str, Any], message: str
) -> None:
    """SNIFF-2 COUNT-2 COUNT-4 SETTLE-2 MATCH-1: a hand-written expectation made wrong fails, naming what differs."""
    results = check_file(_edited_copy(tmp_path, name, edit))
    failures = [result for result in results if not result.passed]
    assert 1 == len(failures), [str(r) for r in results]
    assert message in str(failures[0].failure)


def test_a_recorded_line_changed_fails(tmp_path: Path) -> None:
    """POINTS-1 TURN-1: a recorded move's points changed make its match fail and leave the others passing."""
    lines = (VECTORS / "recorded" / "players-3.jsonl").read_text(encoding="utf-8").splitlines()
    index = next(i for i, text in enumerate(lines) if '"points":15' in text)
    lines[index] = lines[index].replace('"points":15', '"points":10')
    copy = tmp_path / "players-3.jsonl"
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")
    failures = [result for result in check_file(copy) if not result.passed]
    assert 1 == len(failures), [str(f) for f in failures]
    assert "points" in str(failures[0].failure)


def _first_match_with_a_choice(lines: list[str]) -> tuple[int, str]:
    """The index of the first recorded move with another legal move, and that other move."""
    legal: list[str] = []
    for index, text in enumerate(lines):
        line = json.loads(text)
        if line.get("type") == "move" and len(legal) > 1:
            return index, next(move for move in legal if move != line["move"])
        if line.get("type") in ("deal", "move"):
            legal = line.get("legal", [])
    raise AssertionError("no recorded move had a choice")


def test_a_legal_move_the_policy_did_not_choose_fails(tmp_path: Path) -> None:
    """TURN-1: a recorded move that is legal but not the header policy's choice fails its match, naming the choice."""
    lines = (VECTORS / "recorded" / "players-2.jsonl").read_text(encoding="utf-8").splitlines()
    index, other = _first_match_with_a_choice(lines)
    chosen = json.loads(lines[index])["move"]
    lines[index] = json.dumps({**json.loads(lines[index]), "move": other}, separators=(",", ":"))
    copy = tmp_path / "players-2.jsonl"
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")
    failures = [result for result in check_file(copy) if not result.passed]
    assert 1 == len(failures), [str(f) for f in failures]
    assert f"the policy chooses {chosen}, not this move" in str(failures[0].failure)


def test_a_deal_line_in_mid_round_fails(tmp_path: Path) -> None:
    """END-1: a deal line while the round is still being played fails its match."""
    lines = (VECTORS / "recorded" / "players-2.jsonl").read_text(encoding="utf-8").splitlines()
    first_deal = next(i for i, text in enumerate(lines) if json.loads(text).get("type") == "deal")
    lines.insert(first_deal + 2, lines[first_deal])
    copy = tmp_path / "players-2.jsonl"
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")
    failures = [result for result in check_file(copy) if not result.passed]
    assert 1 == len(failures), [str(f) for f in failures]
    assert "a deal, but the round is playing" in str(failures[0].failure)


def test_conform_command_exits_1_on_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """COUNT-4 SETTLE-1: `conform PATH` prints FAIL for a wrong vector and exits 1; PASS and exit 0 for right ones."""
    wrong = _edited_copy(
        tmp_path, "seed_examples.json", {"path": ["examples", 4, "steps", 4, "expect", "points"], "value": 14}
    )
    assert 1 == main(["conform", str(wrong)])
    assert "FAIL" in capsys.readouterr().out
    assert 0 == main(["conform", str(VECTORS / "settlement.json")])
    out = capsys.readouterr().out
    assert "PASS" in out
    assert "FAIL" not in out


MALFORMED_VECTORS = [
    ("a number beyond a double", "seed_examples.json", b'"end_count": 5', b'"end_count": 1e400', "FORMAT-2"),
    ("a duplicate key", "seed_examples.json", b'"end_count": 5', b'"end_count": 5, "end_count": 5', "FORMAT-2"),
    ("a step without its placement", "seed_examples.json", b'"place":', b'"placed":', "FORMAT-2"),
    ("a tile that is no tile", "settlement.json", b'"[0|1]"', b'"[0|9]"', "FORMAT-1"),
    ("a count as a fraction", "perft.json", b'"depth": ', b'"depth": 0.5, "_": ', "FORMAT-2"),
    ("bytes that are no UTF-8", "settlement.json", b'"description": "', b'"description": "\xff', "FORMAT-2"),
]


@pytest.mark.parametrize(
    ("what", "name", "old", "new", "rule"), MALFORMED_VECTORS, ids=[case[0] for case in MALFORMED_VECTORS]
)
def test_a_malformed_vector_fails_citing_its_format_rule(
    tmp_path: Path, what: str, name: str, old: bytes, new: bytes, rule: str
) -> None:
    """FORMAT-1 FORMAT-2: a malformed vector fails naming its format rule; the runner does not crash."""
    original = (VECTORS / name).read_bytes()
    assert old in original, what
    copy = tmp_path / name
    copy.write_bytes(original.replace(old, new, 1))
    failures = [result for result in check_file(copy) if not result.passed]
    assert 1 <= len(failures), what
    assert f"{rule}:" in str(failures[0].failure), str(failures[0])


def test_the_shipped_vectors_are_specs_vectors_in_a_checkout() -> None:
    """The vectors the package ships are read from specs/vectors itself in a checkout: one source, no copy."""
    shipped = shipped_vectors()
    assert isinstance(shipped, Path)
    assert VECTORS.resolve() == shipped.resolve()
    assert [relative(path) for path in FILES] == [
        Path(str(p)).relative_to(shipped).as_posix() for p in vector_paths([shipped])
    ]


def test_conform_with_no_paths_replays_the_shipped_vectors_in_any_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`conform` with no paths replays every shipped vector wherever it runs, saying where they came from."""
    monkeypatch.chdir(tmp_path)
    assert 0 == main(["conform", "-q"])
    out = capsys.readouterr().out.splitlines()
    assert f"vectors shipped with sniff_rules: {shipped_vectors()}" == out[0]
    assert out[-1].startswith(f"{len(CASES)} vectors in {len(FILES)} files: all passed")


def test_check_paths_reports_every_vector_of_every_file() -> None:
    """check_paths over a folder reports exactly the vectors the files name, each file's in order."""
    names = [(relative(VECTORS / result.path), result.name) for result in check_paths([VECTORS / "settlement.json"])]
    assert [case for case in CASES if case[0] == "settlement.json"] == names
