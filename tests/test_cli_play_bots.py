"""sniff-rules play seats bots in other processes (cmd:): they play as the library's bots do, see their seat's
view alone, and a bot that answers late, garbles, ends or answers a move not offered stops the match by its rule."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

from sniff_rules.cli.terminal_game import bots_for_seats
from sniff_rules.errors import NotationError
from sniff_rules.formats.record_json import record_from_json

ROOT: Final = Path(__file__).resolve().parent.parent
NODE: Final = shutil.which("node")
BOT_WITH: Final = f"{sys.executable} {ROOT / 'tests' / 'protocol' / 'bot_with.py'}"
TYPED: Final = "1\n" * 200
"""The person types 1 at every turn: the first listed move."""


def _play(*options: str, players: int = 2) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "sniff_rules", "play", "--players", str(players), "--seed", "3"]
    env = {**{key: value for key, value in os.environ.items() if key != "NO_COLOR"}, "PYTHONPATH": str(ROOT)}
    # The widest layout: lines are compared and searched with the bot's command in them, which no wrap may split.
    return subprocess.run(
        [*command, "--target", "60", "--width", "500", *options],
        input=TYPED,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("players", [2, 3])
def test_the_node_bot_plays_the_match_the_greedy_bot_plays(players: int) -> None:
    """SETUP-6, POINTS-1: against cmd: the Node bot, the person's match is the one against greedy, line for line."""
    name = f"cmd:{NODE} {ROOT / 'tests' / 'js' / 'bot.mjs'}"
    greedy, node = _play("--bots", "greedy", players=players), _play("--bots", name, players=players)
    assert (0, 0) == (greedy.returncode, node.returncode), node.stdout[-2000:] + node.stderr
    assert greedy.stdout == node.stdout.replace(name, "greedy")
    assert "won the match" in node.stdout


FAULTS: Final = [
    ("hang", "(PROTO-3): choose #1: no answer within 2 s"),
    ("crash", "(PROTO-5): choose #1: the process ended without an answer (exit status 3)"),
    ("garbage", "(PROTO-1): choose #1: a line is one JSON object"),
    ("huge-line", "(PROTO-1): choose #1: the answer passes the line limit of 1048576 bytes"),
    ("wrong-id", "(PROTO-4): choose #1: the answer is to request 8, not 1"),
    ("other-seat", "(TURN-1): choose #1: the bot of seat 1 answered '0:draw', not among its options"),
    ("not-offered", "(PLACE-1): choose #1: the bot of seat 1 answered '1:[0|0]', not among its options"),
    ("no-move", "(FORMAT-1): choose #1: the bot of seat 1 answered no move"),
]


@pytest.mark.parametrize(("fault", "said"), FAULTS, ids=[fault for fault, _ in FAULTS])
def test_a_hostile_bot_stops_the_match_naming_seat_request_and_rule(fault: str, said: str, tmp_path: Path) -> None:
    """PROTO-1, PROTO-3, PROTO-4, PROTO-5, TURN-1, PLACE-1, FORMAT-1: the match stops with status 2 and one line
    naming the seat and the rule; no move is made for the bot, and the record up to it is written."""
    saved = tmp_path / "match.json"
    done = _play("--bot-timeout", "2", "--save", str(saved), "--bots", f"cmd:{BOT_WITH} {fault}")
    expected = f"The bot of seat 1 (cmd:{BOT_WITH} {fault}) stopped the match {said}"
    assert (2, True) == (done.returncode, expected in done.stdout), done.stdout[-1500:] + done.stderr
    assert "No move was made for it." in done.stdout
    record = record_from_json(saved.read_text(encoding="utf-8"))
    assert [] == [move for move in record.moves if move.seat == 1]


def test_a_bot_that_cannot_start_is_a_message_with_status_2() -> None:
    """PROTO-5: a cmd: bot whose command does not run ends the session at once with status 2 and a message."""
    done = _play("--bots", "cmd:/nonexistent/bot --level 3")
    assert (2, True) == (done.returncode, "could not start" in done.stdout), done.stdout + done.stderr


def test_a_bot_process_is_sent_its_seat_s_view_and_nothing_else(tmp_path: Path) -> None:
    """SETUP-6: every choose the bot of seat 2 reads is seat 2's view, with its options, never a state."""
    log = tmp_path / "sent.jsonl"
    done = _play("--bots", f"greedy,cmd:{BOT_WITH} none {log}", players=3)
    assert 0 == done.returncode, done.stdout[-1500:] + done.stderr
    sent = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    views = [request["view"] for request in sent if request["type"] == "choose"]
    assert ({"hello", "choose", "quit"}, {2}) == ({request["type"] for request in sent}, {v["seat"] for v in views})
    assert set() == {"hands", "boneyard", "source"} & {key for view in views for key in view}
    assert all(view["options"] and len(view["hand"]) == view["hand_sizes"][2] for view in views)


def test_a_lineup_names_a_bot_process_and_refuses_an_empty_command() -> None:
    """FORMAT-1: cmd:COMMAND is a bot of the lineup; cmd: with no command is refused as malformed."""
    assert ("you", "cmd:./my-bot --level 3", "greedy") == bots_for_seats(3, 0, ["cmd:./my-bot --level 3", "greedy"])
    with pytest.raises(NotationError) as refused:
        bots_for_seats(2, 0, ["cmd:  "])
    assert "FORMAT-1" == refused.value.rule


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "3601"])
def test_a_bot_timeout_outside_its_range_is_a_usage_error(seconds: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PROTO-3: --bot-timeout is seconds above 0 and at most an hour; anything else exits 2 before the match."""
    from sniff_rules.cli.commands import main

    with pytest.raises(SystemExit) as stopped:
        main(["play", "--bot-timeout", seconds])
    assert (2, True) == (stopped.value.code, "--bot-timeout" in capsys.readouterr().err)
