"""The protocol is language-neutral: a bot and an engine client written in JavaScript for Node, with no packages."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import pytest

from sniff_rules.cli.commands import main
from sniff_rules.protocol import bot_process
from sniff_rules.protocol.process import Peer

ROOT: Final = Path(__file__).resolve().parent.parent
JS: Final = ROOT / "tests" / "js"
NODE: Final = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

GENEROUS_SECONDS: Final = 120.0
"""Each request of a cmd: bot here may take this long, not the default 10 s: the first is answered by a
process still starting, and a busy machine must not fail it; only a hang takes this long."""


@pytest.fixture(autouse=True)
def _generous_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every cmd: bot of these tests (played in this process: one worker) gets GENEROUS_SECONDS a request."""
    original = Peer

    def generous(command: Sequence[str], timeout: float) -> Peer:
        return original(command, timeout=max(timeout, GENEROUS_SECONDS))

    monkeypatch.setattr(bot_process, "Peer", generous)


def simulate(bots: str, capsys: pytest.CaptureFixture[str], players: int = 2, workers: int = 1) -> dict[str, Any]:
    """``sniff-rules simulate --json`` between ``bots``: its summary without the bots' names."""
    arguments = ["--players", str(players), "--matches", "3", "--bots", bots, "--workers", str(workers)]
    status = main(["simulate", *arguments, "--json", "--no-progress"])
    summary = json.loads(capsys.readouterr().out)
    assert 0 == status
    summary["rows"] = [{key: value for key, value in row.items() if key != "bot"} for row in summary["rows"]]
    return {key: value for key, value in summary.items() if key not in ("bots", "entries")}


@pytest.mark.parametrize("players", [2, 4])
def test_the_node_bot_plays_whole_matches_as_greedy_does(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    """SETUP-6, POINTS-1: the Node greedy bot, seated by cmd:, plays every move the library's greedy bot plays."""
    expected = simulate("greedy", capsys, players)
    assert expected == simulate(f"cmd:{NODE} {JS / 'bot.mjs'}", capsys, players)


def test_cmd_bots_play_over_worker_processes_as_in_one(capsys: pytest.CaptureFixture[str]) -> None:
    """SETUP-6: simulate --workers 2 starts the Node bot in each worker and the matches end as greedy's do."""
    expected = simulate("greedy", capsys, 2)
    assert expected == simulate(f"cmd:{NODE} {JS / 'bot.mjs'}", capsys, 2, workers=2)


def test_the_node_client_replays_a_recorded_match_through_the_engine() -> None:
    """SETUP-5, TURN-1: the Node client replays match 3p-01 through sniff-rules engine; lists and scores agree."""
    recorded = ROOT / "specs" / "vectors" / "recorded" / "players-3.jsonl"
    engine = [sys.executable, "-m", "sniff_rules", "engine"]
    done = subprocess.run(
        [str(NODE), str(JS / "client.mjs"), str(recorded), "3p-01", "--", *engine],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert (0, "match 3p-01:") == (done.returncode, done.stdout[:12]), done.stderr


def test_a_bot_answering_a_move_not_offered_stops_the_match_naming_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TURN-1: a cmd: bot that answers another seat's move stops the match with TURN-1, played here or in a
    worker process; no move is made for it."""
    script = tmp_path / "cheat.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    a = {'id': r['id'], 'protocol': 'sniff-protocol/1', 'role': 'bot'} if r['type'] == 'hello' else "
        "{'id': r['id'], 'move': f\"{1 - r['view']['seat']}:draw\"}\n"
        "    print(json.dumps(a), flush=True)\n"
    )
    bots = f"cmd:{sys.executable} {script},greedy"
    for workers in ("1", "2"):
        status = main(["simulate", "--matches", "4", "--workers", workers, "--bots", bots, "--no-progress"])
        said = capsys.readouterr().err
        # The line names the request too (choose #N), as every bot failure does.
        named = ("sniff-rules simulate: TURN-1: choose #" in said, ": the bot of seat" in said)
        assert (2, True, True) == (status, *named)


def test_a_process_bot_receives_its_seat_s_view_and_nothing_else(tmp_path: Path) -> None:
    """SETUP-6: every choose a cmd: bot reads is its seat's view (the JSON the leak tests cover), never a state."""
    log = tmp_path / "seen.jsonl"
    script = tmp_path / "recorder.py"
    script.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    log.write(line); log.flush()\n"
        "    a = {'id': r['id'], 'protocol': 'sniff-protocol/1', 'role': 'bot'} if r['type'] == 'hello' else "
        "{'id': r['id'], 'move': r['view']['options'][0]['move']} if r['type'] == 'choose' else "
        "{'id': r['id'], 'bye': True}\n"
        "    print(json.dumps(a), flush=True)\n"
    )
    assert 0 == main(["simulate", "--matches", "1", "--bots", f"cmd:{sys.executable} {script},greedy", "--no-progress"])
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    views = [request["view"] for request in seen if request["type"] == "choose"]
    kinds = {(request["type"], tuple(sorted(request))) for request in seen}
    expected_kinds = {
        ("hello", ("id", "protocol", "type")),
        ("choose", ("id", "type", "view")),
        ("quit", ("id", "type")),
    }
    assert (expected_kinds, set()) == (kinds, {"boneyard", "hands", "source"} & {key for view in views for key in view})
    assert {"sniff-rules/seat-view@1"} == {view["format"] for view in views}
    assert all(len(view["hand"]) == view["hand_sizes"][view["seat"]] for view in views)
