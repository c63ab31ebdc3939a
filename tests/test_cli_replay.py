"""sniff-rules replay: a match record or a recorded vector's match, told turn by turn."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

from sniff_rules.cli.replay import load_record, replay
from sniff_rules.draw.narration import Seating
from sniff_rules.formats.record_json import record_to_json

ROOT = Path(__file__).resolve().parent.parent
RECORDED = ROOT / "specs" / "vectors" / "recorded"


def _replay(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sniff_rules", "replay", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,  # a hang guard: a busy machine may be slow, only a hang is this slow
        check=False,
    )


def _recorded_lines(name: str) -> list[dict[str, object]]:
    """The lines of recorded match ``name`` in its vector file, read here apart from the replay module."""
    lines = [json.loads(line) for line in (RECORDED / f"players-{name[0]}.jsonl").read_text().splitlines()]
    start = next(index for index, line in enumerate(lines) if line.get("match") == name)
    end = next(
        (
            index
            for index in range(start + 1, len(lines))
            if lines[index]["type"] != "move" and lines[index]["type"] != "deal"
        ),
        len(lines),
    )
    return lines[start:end]


def test_a_recorded_match_is_replayed_move_by_move() -> None:
    """replay 3p-04 prints one numbered line per recorded move, and the final scores of the file's last move."""
    lines = _recorded_lines("3p-04")
    moves = [line for line in lines if line["type"] == "move"]
    done = _replay("3p-04", "--brief")
    numbered = [line for line in done.stdout.splitlines() if line[:5].strip().rstrip(".").isdigit()]
    record, _ = load_record("3p-04")
    scores = moves[-1]["scores"]
    assert isinstance(scores, list)
    assert (0, "") == (done.returncode, done.stderr)
    assert len(moves) == len(numbered)
    assert f"Final scores: {Seating.of(record.rules, {}).scores(tuple(scores))}" in done.stdout


def test_a_record_file_replays_as_its_match(tmp_path: Path) -> None:
    """A match record's JSON file replays to the same turns as the recorded match it was written from."""
    record, label = load_record("2p-03")
    path = tmp_path / "match.json"
    told = io.StringIO()
    replay(record, label, told, drawn=False)
    path.write_text(record_to_json(record), encoding="utf-8")
    done = _replay(str(path), "--brief")
    # The heading names the file, so it differs (and may wrap); the turns after it do not.
    expected, shown = told.getvalue().splitlines(), done.stdout.splitlines()
    assert expected[expected.index("-- round 1 --") :] == shown[shown.index("-- round 1 --") :]


def test_the_table_is_drawn_after_each_placement() -> None:
    """Without --brief each placement is followed by the table's picture and its end count."""
    record, label = load_record("4p-01")
    told = io.StringIO()
    replay(record, label, told)
    placements = sum("plays" in line or "leads [" in line for line in told.getvalue().splitlines())
    assert placements == told.getvalue().count("end count ")


def test_a_record_that_is_not_one_is_refused_with_a_message(tmp_path: Path) -> None:
    """A missing name, a malformed file and an unknown recorded match end with status 2 and the reason."""
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "sniff-rules/record@1"', encoding="utf-8")
    for argument, reason in [("nothing-here", "neither a record file"), (str(broken), "FORMAT-2"), ("2p-99", "2p-99")]:
        done = _replay(argument)
        assert (2, "") == (done.returncode, done.stdout)
        assert reason in done.stderr
        assert "Traceback" not in done.stderr


def test_svg_writes_one_picture_a_move(tmp_path: Path) -> None:
    """--svg DIR writes move-0001.svg and on, one per recorded move, each an SVG document."""
    record, _ = load_record("4p-02")
    done = _replay("4p-02", "--brief", "--svg", str(tmp_path / "pictures"))
    written = sorted(path.name for path in (tmp_path / "pictures").iterdir())
    assert 0 == done.returncode
    assert [f"move-{number:04}.svg" for number in range(1, len(record.moves) + 1)] == written
    root = ElementTree.parse(tmp_path / "pictures" / written[-1]).getroot()
    assert "{http://www.w3.org/2000/svg}svg" == root.tag


def test_an_odd_record_path_ends_in_one_line_with_the_rule(tmp_path: Path) -> None:
    """A record name the system cannot look up (300 characters) ends in one FORMAT-2 line and status 2."""
    done = _replay("r" * 300)
    assert (2, "", 1) == (done.returncode, done.stdout, len(done.stderr.splitlines()))
    assert done.stderr.startswith("sniff-rules replay: FORMAT-2: ")


def test_an_svg_folder_that_cannot_be_had_ends_in_one_line_with_the_rule(tmp_path: Path) -> None:
    """--svg naming a file, a path under a file, an unmakeable folder, a 300-character name or a folder
    whose first picture's name is taken ends in one FORMAT-3 line and status 2, never a traceback."""
    a_file = tmp_path / "a-file"
    a_file.write_text("", encoding="utf-8")
    taken = tmp_path / "taken"
    (taken / "move-0001.svg").mkdir(parents=True)
    folders = [a_file, a_file / "under", Path("/proc/sniff-rules-pictures"), tmp_path / ("d" * 300), taken]
    for folder in folders:
        done = _replay("2p-01", "--brief", "--svg", str(folder))
        assert (2, 1) == (done.returncode, len(done.stderr.splitlines())), (folder, done.stderr)
        assert done.stderr.startswith("sniff-rules replay: FORMAT-3: --svg "), done.stderr
