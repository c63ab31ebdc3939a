"""The vector generator (sniff_rules.verify.vectors.generate): the generated files are the engine's, byte for byte."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import sniff_rules.verify.vectors.generate as vectorgen
from sniff_rules.cli.commands import main
from sniff_rules.formats.strict_json import JsonValue, load_json
from sniff_rules.randomness import SplitMix64, draw_lot
from sniff_rules.verify.vectors.files import dump_vector_json
from sniff_rules.verify.vectors.generate import (
    GENERATED_FILES,
    diff_generated,
    generated_files,
    source_vector_dir,
)
from sniff_rules.verify.vectors.recorded_play import POLICY_TEXT, RecordedTally

VECTORS = Path(__file__).resolve().parent.parent / "specs" / "vectors"
HAND_WRITTEN = ("refusals.json", "seed_examples.json", "settlement.json", "tally.json")


@cache
def fresh_files() -> tuple[dict[str, str], RecordedTally]:
    """The generated files, built once."""
    return generated_files()


def test_the_generated_vectors_on_disk_are_what_the_engine_generates() -> None:
    """TURN-1 SETUP-5 OPEN-1: perft.json and the recorded files are byte for byte what the engine generates now."""
    files, _ = fresh_files()
    assert sorted(GENERATED_FILES) == sorted(files)
    assert [] == list(diff_generated(VECTORS, files, max_lines=20))


def test_generation_counts_what_it_recorded() -> None:
    """SETUP-2 BLOCK-1 MATCH-1: the counts returned are the summary lines of the recorded files, added up."""
    files, tally = fresh_files()
    summed = RecordedTally()
    for name, text in files.items():
        if name.endswith(".jsonl"):
            summary = json.loads(text.splitlines()[-1])
            assert "summary" == summary.pop("type")
            summed = summed + RecordedTally(**summary)
    assert tally == summed
    assert 33 == tally.matches
    assert 0 < min(tally.blocked, tally.won_by_last_tile)


def test_hand_written_vectors_are_never_generated() -> None:
    """The vectors command rewrites only generated files, never the hand-written ones."""
    assert not set(HAND_WRITTEN) & set(GENERATED_FILES)
    assert all((VECTORS / name).is_file() for name in (*HAND_WRITTEN, *GENERATED_FILES))


def test_the_source_vectors_are_this_checkouts_specs_vectors() -> None:
    """`vectors --write` writes to specs/vectors of the checkout, the one source of the shipped vectors."""
    source = source_vector_dir()
    assert source is not None
    assert VECTORS.resolve() == source


def test_dumped_json_puts_one_key_a_line_and_short_arrays_inline() -> None:
    """dump_vector_json: past 100 characters one key a line and long flat arrays wrapped; short values inline."""
    document: JsonValue = {"name": "x", "counts": list(range(30, 64)), "nested": [{"a": [1, 2]}, {"b": "y" * 80}]}
    expected = """{
  "name": "x",
  "counts": [
    30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,
    54, 55, 56, 57, 58, 59, 60, 61, 62, 63
  ],
  "nested": [
    {"a": [1, 2]},
    {"b": "%s"}
  ]
}
""" % ("y" * 80)
    assert expected == dump_vector_json(document)
    assert document == load_json(dump_vector_json(document))


def test_vectors_command_prints_the_diff_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`vectors --check` prints a diff and exits 1 when files differ; `--write` rewrites them."""
    fresh = {"perft.json": '{"a": 1}\n', "recorded/players-2.jsonl": '{"b": 2}\n'}
    monkeypatch.setattr(vectorgen, "generated_files", lambda: (fresh, RecordedTally()))
    (tmp_path / "perft.json").write_text('{"a": 0}\n', encoding="utf-8")
    assert 1 == main(["vectors", "--check", "--dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert '-{"a": 0}' in out
    assert '+{"a": 1}' in out
    assert "+++ b/recorded/players-2.jsonl" in out
    assert '{"a": 0}\n' == (tmp_path / "perft.json").read_text(encoding="utf-8")
    assert 0 == main(["vectors", "--write", "--dir", str(tmp_path)])
    assert '{"b": 2}\n' == (tmp_path / "recorded" / "players-2.jsonl").read_text(encoding="utf-8")
    assert [] == list(diff_generated(tmp_path, fresh))
    assert 0 == main(["vectors", "--dir", str(tmp_path)])


def test_vectors_write_needs_a_folder_outside_a_checkout(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`vectors --write` from an installed package, with no checkout and no --dir, writes nothing and exits 2."""
    monkeypatch.setattr(vectorgen, "source_vector_dir", lambda: None)
    monkeypatch.setattr(vectorgen, "generated_files", lambda: pytest.fail("nothing is generated"))
    assert 2 == main(["vectors", "--write"])
    assert "--dir" in capsys.readouterr().out


def test_the_recording_policy_draws_before_forced_moves_too() -> None:
    """FORMAT-2 CONV-1: replaying a recorded match's choices needs a draw before every move, a forced one included."""
    lines = [json.loads(text) for text in (VECTORS / "recorded" / "players-2.jsonl").read_text().splitlines()]
    starts = [number for number, line in enumerate(lines) if line["type"] in ("match", "summary")]
    match, played = lines[starts[0]], lines[starts[0] + 1 : starts[1]]
    moves = [line["move"] for line in played if line["type"] == "move"]
    legal_before = [line["legal"] for line in played if line["type"] in ("deal", "move")]

    def chosen(skip_forced: bool) -> list[str]:
        policy = SplitMix64.from_seed(match["policy_seed"])
        picks = []
        for legal in legal_before[: len(moves)]:
            if not legal:
                continue
            if skip_forced and len(legal) == 1:
                picks.append(legal[0])
                continue
            index, policy = policy.below(len(legal))
            picks.append(legal[index])
        return picks

    assert moves[: len(chosen(False))] == chosen(False)
    assert any(len(legal) == 1 for legal in legal_before)
    assert moves[: len(chosen(True))] != chosen(True)
    assert "a forced one included" in POLICY_TEXT
    assert "serves the whole match" in POLICY_TEXT


def test_randomness_vectors_are_found_by_searching_seeds() -> None:
    """SETUP-5 OPEN-1: the shuffles and lots of randomness.json use the first seeds with the property they name."""
    data = json.loads(fresh_files()[0]["randomness.json"])
    rejecting = [shuffle for shuffle in data["shuffles"] if "rejects" in shuffle["name"]]
    assert [1, 2] == [len(shuffle["groups"][0]["draw"]["outputs"]) - 1 for shuffle in rejecting]
    threshold = int(rejecting[0]["groups"][0]["draw"]["threshold"])
    earlier = [seed for seed in range(rejecting[0]["seed"]) if SplitMix64.from_seed(seed).next64()[0] < threshold]
    assert [] == earlier
    lots = {(lot["players"], len(lot["lot"])): lot["seed"] for lot in data["lots"]}
    for (players, rounds), seed in lots.items():
        firsts = [
            s for s in range(seed + 1) if len(draw_lot(tuple(range(players)), SplitMix64.from_seed(s))[1]) == rounds
        ]
        assert seed == firsts[0]
