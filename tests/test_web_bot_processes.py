"""sniff-rules serve --bot NAME=COMMAND: a served table seats the operator's bot processes by name (HOST-6),
sends each its seat's view alone (SETUP-6), stops a match its bot fails, reaps every process and runs at most
the limit at once (HOST-7)."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Final

import pytest

pytest.importorskip("starlette", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (the test extra)")

from starlette.testclient import TestClient

from sniff_rules.formats.record_json import record_from_data
from sniff_rules.play.registry import BotOffer
from sniff_rules.web.app import create_app
from sniff_rules.web.bot_seats import TableBots
from test_web import SEEDS, Seat, _play_by_socket, header, hello, seed_maker, start, updates
from web_support import SnapshotRecorder, assert_seat_safe

ROOT: Final = Path(__file__).resolve().parent.parent
NODE: Final = shutil.which("node")
BOT_WITH: Final = f"{sys.executable} {ROOT / 'tests' / 'protocol' / 'bot_with.py'}"


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> SnapshotRecorder:
    """Every snapshot's table remembered for the leak checks."""
    made = SnapshotRecorder()
    made.install(monkeypatch)
    return made


def served(*offers: str, timeout: float = 20.0, limit: int = 8) -> tuple[TestClient, TableBots]:
    """A test client of an app offering these bot processes, and its keeper of them."""
    bots = TableBots(BotOffer.of(offers), timeout=timeout, limit=limit)
    app = create_app(allowed_hosts=["testserver"], bot_delay=0.0, seeds=seed_maker(), bots=bots)
    return TestClient(app), bots


def settled(bots: TableBots) -> tuple[int, int]:
    """The processes running and the places held once the tables' ends have been dealt with (in worker threads)."""
    for _ in range(200):
        if (bots.processes.running, bots.held) == (0, 0):
            break
        time.sleep(0.05)
    return bots.processes.running, bots.held


def _joined(client: TestClient, link: str) -> Seat:
    fragment = dict(part.split("=", 1) for part in link.split("#", 1)[1].split("&"))
    seat = {"x-sniff-table": fragment["table"], "x-sniff-token": fragment["token"]}
    assert 200 == client.post("/api/join", headers=seat).status_code
    return seat


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("seats", [["person", "node"], ["node", "greedy", "person"]])
def test_the_node_bot_plays_a_whole_served_match_seeing_its_seat_alone(
    recorder: SnapshotRecorder, seats: list[str]
) -> None:
    """SETUP-6, MATCH-1, HOST-6: the Node bot offered by name plays a whole match at a served table against a
    person playing over HTTP and WebSocket; no snapshot shows a hidden tile; its process ends with the match."""
    client, bots = served(f"node={NODE} {ROOT / 'tests' / 'js' / 'bot.mjs'}")
    with client:
        offered = client.get("/api/bots").json()
        snapshots = list(_play_by_socket(client, seats, recorder, False))
        last = snapshots[-1]
        assert (0, 0) == settled(bots)
    assert {"name": "node", "label": "node (bot process)"} in offered["bots"]
    assert ("match-over", None) == (last["status"], last["stopped"])
    assert "node (bot process)" in {player["name"] for player in last["players"]}
    assert any(snapshot["view"]["round"] > 1 for snapshot in snapshots)


def test_a_bot_process_is_sent_its_seat_s_view_and_nothing_else(recorder: SnapshotRecorder, tmp_path: Path) -> None:
    """SETUP-6: every request a served bot process reads is a hello, its own seat's view with its options, or quit."""
    log = tmp_path / "sent.jsonl"
    client, _ = served(f"logged={BOT_WITH} none {log}")
    with client:
        list(_play_by_socket(client, ["person", "greedy", "logged"], recorder, False))
    sent = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    views = [request["view"] for request in sent if request["type"] == "choose"]
    assert ({"hello", "choose", "quit"}, {2}) == ({request["type"] for request in sent}, {v["seat"] for v in views})
    assert set() == {"hands", "boneyard", "source", "token"} & {key for view in views for key in view}


HOSTILE: Final = [
    ("hang", "PROTO-3", "no answer within the time a request may take"),
    ("crash", "PROTO-5", "its process ended or stopped reading"),
    ("garbage", "PROTO-1", "its answer was no JSON object on one line within the line limit"),
    ("huge-line", "PROTO-1", "its answer was no JSON object on one line within the line limit"),
    ("wrong-id", "PROTO-4", "it answered another request"),
    ("other-seat", "TURN-1", "it answered another seat's move"),
    ("not-offered", "PLACE-1", "it answered a move not among its options"),
    ("no-move", "FORMAT-1", "it answered no move"),
]


def _until_stopped(client: TestClient, seats: list[Seat], recorder: SnapshotRecorder) -> list[dict[str, Any]]:
    """Every person seat's snapshot once the match stopped: the first seat's socket is followed, each person
    playing its first option at its turn, and each seat then hears the stop over a socket of its own."""
    with updates(client) as socket:
        socket.send_json(hello(seats[0]))
        while True:
            text = socket.receive_text()
            assert 1 == assert_seat_safe(text, recorder, SEEDS)
            if json.loads(text)["status"] == "stopped":
                break
            for seat in seats:
                answer = client.get("/api/table", headers=header(seat))
                assert 1 == assert_seat_safe(answer.text, recorder, SEEDS)
                snapshot = answer.json()["snapshot"]
                if snapshot["status"] == "your-turn":
                    move = snapshot["view"]["options"][0]["move"]
                    version = snapshot["version"]
                    client.post("/api/move", headers=header(seat), json={"move": move, "version": version})
    told = []
    for seat in seats:
        with updates(client) as socket:
            socket.send_json(hello(seat))
            text = socket.receive_text()
            assert 1 == assert_seat_safe(text, recorder, SEEDS)
            told.append(json.loads(text))
    return told


def _created(client: TestClient, seats: list[str]) -> tuple[Seat, list[Seat]]:
    """A new table: the creator's seat, and every other person seat joined through its invite link."""
    answer = client.post("/api/tables", json={"seats": seats})
    assert 201 == answer.status_code, answer.text
    data = answer.json()
    links = [invite["link"] for invite in data["invites"] if not invite["you"]]
    return {"x-sniff-table": data["table"], "x-sniff-token": data["token"]}, [_joined(client, link) for link in links]


@pytest.mark.parametrize(("fault", "rule", "said"), HOSTILE, ids=[fault for fault, _, _ in HOSTILE])
def test_a_hostile_bot_process_stops_its_match_and_the_server_serves_on(
    recorder: SnapshotRecorder, fault: str, rule: str, said: str
) -> None:
    """HOST-6, PROTO-1, PROTO-3, PROTO-4, PROTO-5, TURN-1, PLACE-1, FORMAT-1, MATCH-2: a bot process that answers
    late, garbles, ends or answers a move not offered stops its match; each person seat is told in one line
    naming the seat, the request and the rule, quoting nothing the bot wrote; no move is made for it, later
    moves are refused, the record is kept, the process is reaped, and another table plays on."""
    client, bots = served(f"hostile={BOT_WITH} {fault}", timeout=1.0)
    with client:
        first, others = _created(client, ["person", "hostile", "person"])
        told = _until_stopped(client, [first, *others], recorder)
        expected = (
            f"The bot of seat 1 (hostile) stopped the match ({rule}): choose #1: {said}. No move was made for it."
        )
        assert [expected, expected] == [snapshot["stopped"] for snapshot in told]
        refused = client.post("/api/move", headers=header(first), json={"move": "draw", "version": told[0]["version"]})
        assert (409, "MATCH-2") == (refused.status_code, refused.json()["rule"])
        record = record_from_data(client.get("/api/record", headers=header(first)).json())
        assert [] == [move for move in record.moves if move.seat == 1]
        assert (0, 0) == settled(bots)
        again, _ = start(client, ["person", "greedy"])
        assert 200 == client.get("/api/table", headers=header(again)).status_code


def test_a_server_runs_at_most_its_limit_of_bot_processes_and_ends_them_when_it_stops() -> None:
    """HOST-7, HOST-3: a table that would pass the limit is refused (503) and changes nothing; a table that ends
    frees its places; every process ends when the server stops."""
    client, bots = served(f"calm={BOT_WITH} none", limit=2)
    with client:
        first, _ = start(client, ["person", "calm", "calm"])
        refused = client.post("/api/tables", json={"seats": ["person", "calm"]})
        assert (503, "HOST-7") == (refused.status_code, refused.json()["rule"])
        assert 200 == client.post("/api/leave", headers=header(first)).status_code
        assert (0, 0) == settled(bots)
        start(client, ["calm", "person"])
        assert 201 == client.post("/api/tables", json={"seats": ["person", "greedy", "calm"]}).status_code
        assert 2 == bots.held
    assert (0, 0) == (bots.processes.running, bots.held)


def test_a_table_kept_from_before_a_restart_is_stopped_naming_host_7_when_no_place_is_left() -> None:
    """HOST-7: a table met without places (kept before a restart) takes them when its bot is to move, or, the limit
    reached, is stopped in one line naming the seat and HOST-7; no process is started for it."""
    from sniff_rules.play.table import Table
    from sniff_rules.rules import Rules

    bots = TableBots(BotOffer.of([f"calm={BOT_WITH} none"]), limit=1)
    assert bots.reserve("elsewhere", ["person", "calm"])
    table = Table.new(Rules.standard(2), ("calm", "person"), ("token-of-seat-1-abcdef",), seed=3, bot_seed=1)
    while not table.bot_to_move:
        table = table.play("token-of-seat-1-abcdef", table.view("token-of-seat-1-abcdef").legal_moves[0], table.version)
    stopped = bots.step("restored", table)
    expected = (
        f"The bot of seat {table.to_move} (calm) could not start (HOST-7): this server runs at most 1 bot processes"
        " at once. No move was made for it."
    )
    assert (expected, table.record.moves, 0) == (stopped.stopped, stopped.record.moves, bots.processes.running)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--bot", "greedy=./x"], "--bot: FORMAT-1: 'greedy=./x' is no offer"),
        (["--bot", "strong"], "--bot: FORMAT-1: 'strong' is no offer"),
        (["--bot", "strong="], "--bot: FORMAT-1: the offer 'strong' names no command"),
        (["--bot", "strong=./a", "--bot", "strong=./b"], "--bot: FORMAT-1: at most 16 offers, each name once"),
        (["--bot", "strong=/nonexistent/bot --level 3"], "--bot strong: cannot find the program '/nonexistent/bot'"),
        (["--bot-timeout", "0"], "--bot-timeout is 0.1..600 seconds, got 0"),
        (["--max-bot-processes", "0"], "--max-bot-processes is 1..256, got 0"),
    ],
)
def test_a_bad_bot_offer_or_limit_is_a_usage_error_before_the_server_listens(options: list[str], said: str) -> None:
    """FORMAT-1, HOST-7: serve refuses a misspelt offer, a program not found, a timeout or a limit out of range
    with one line and status 2, before it listens."""
    import io

    from sniff_rules.cli.serve import serve_main

    out = io.StringIO()
    assert 2 == serve_main(["--memory", *options], out)
    assert said in out.getvalue()
    assert "Sniff in the browser" not in out.getvalue()
