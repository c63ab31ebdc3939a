"""Two `sniff-rules serve --postgres DSN` processes on one PostgreSQL database, a person on each (HOST-5, TURN-2,
END-1, MATCH-1): one person creates a four-seat table on server A, the other joins it on server B, and each plays over
HTTP and hears every change over its own server's WebSocket, the other person's moves included, until the
match ends. Both servers drive the bots, racing through the store's compare-and-set; the record each person
downloads is the one the same match gives played in one process.

A person acts only on a snapshot its WebSocket pushed, never by polling, so the match ends only if each
server pushes the changes the other made. Waits are bounded to stop a hang, and measure nothing.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from postgres_player import next_change
from sniff_rules.formats.record_json import record_to_data
from sniff_rules.formats.table_json import table_from_json
from sniff_rules.play.table import Table
from sniff_rules.state import Phase
from sniff_rules.web.postgres_store import PostgresStore

ROOT = Path(__file__).resolve().parent.parent
SEATS = ["person", "person", "greedy", "random"]
HANG = 300.0  # seconds before a stuck match fails the test: a bound on a hang, never a measure


def start_server(dsn: str) -> tuple[subprocess.Popen[str], str]:
    """`sniff-rules serve --postgres DSN` on a free port of 127.0.0.1, its bots moving at once; it and its URL."""
    server = subprocess.Popen(
        [sys.executable, "-m", "sniff_rules", "serve", "--postgres", dsn, "--port", "0", "--bot-delay", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if found is None:
        server.kill()
        _, errors = server.communicate(timeout=HANG)
        pytest.fail(f"the server printed no URL: {line!r} {errors[-2000:]}")
    base = found.group(0)
    # The URL is printed once the port is bound, a moment before uvicorn listens on it.
    for _ in range(int(HANG * 10)):
        try:
            with urllib.request.urlopen(base + "api/bots", timeout=HANG):
                return server, base
        except urllib.error.URLError:
            if server.poll() is not None:
                pytest.fail(f"the server at {base} stopped: {server.communicate()[1][-2000:]}")
            threading.Event().wait(0.1)
    pytest.fail(f"the server at {base} never answered")


@pytest.fixture
def two_servers(postgres_dsn: str) -> Iterator[tuple[str, str]]:
    """Two server processes on one fresh database; their URLs. Stopped (SIGTERM, then a kill) after the test."""
    servers = [start_server(postgres_dsn) for _ in range(2)]
    yield servers[0][1], servers[1][1]
    for server, _ in servers:
        server.terminate()
    for server, _ in servers:
        try:
            server.communicate(timeout=HANG)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()


def call(base: str, method: str, path: str, ids: tuple[str, str], body: object = None) -> tuple[int, Any]:
    """One HTTP request to the API as the seat of ``ids`` (table id, token); its status and JSON answer."""
    request = urllib.request.Request(
        base + path.lstrip("/"),
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"content-type": "application/json", "x-sniff-table": ids[0], "x-sniff-token": ids[1]},
    )
    try:
        with urllib.request.urlopen(request, timeout=HANG) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


class Person(threading.Thread):
    """A person at one server: plays the first of its options on each pushed snapshot of its turn, asks for the
    next round at each round's end, and downloads the record at the match's end."""

    def __init__(self, base: str, table_id: str, token: str) -> None:
        super().__init__(daemon=True)
        self.base = base
        self.ids = (table_id, token)
        self.pushed: list[int] = []
        self.moves_kept = 0
        self.record: object = None
        self.failure: BaseException | None = None

    def run(self) -> None:
        """Play to the match's end over the WebSocket and HTTP."""
        try:
            self._play()
        except BaseException as failure:
            self.failure = failure

    def _play(self) -> None:
        origin = self.base.rstrip("/")
        address = origin.replace("http://", "ws://") + "/api/updates"
        with connect(address, origin=Origin(origin), open_timeout=HANG) as socket:
            socket.send(json.dumps({"table": self.ids[0], "token": self.ids[1]}))
            while True:
                snapshot = json.loads(socket.recv(timeout=HANG))
                self.pushed.append(snapshot["version"])
                status, version = snapshot["status"], snapshot["version"]
                if status == "your-turn":
                    option = snapshot["view"]["options"][0]["move"]
                    done, _ = call(self.base, "POST", "/api/move", self.ids, {"move": option, "version": version})
                    self.moves_kept += done == 200
                elif status == "round-over":
                    # Both people ask; one is dealt on, the other refused as stale (409), and both hear the deal.
                    call(self.base, "POST", "/api/next-round", self.ids, {"version": version})
                elif status == "match-over":
                    done, self.record = call(self.base, "GET", "/api/record", self.ids)
                    assert 200 == done
                    return


def played_in_one_process(table: Table, tokens: tuple[str, str]) -> Table:
    """The match from ``table`` on, both people's seats played in turn by one loop with no server between."""
    while table.phase is not Phase.MATCH_OVER:
        table = next(change for token in tokens if (change := next_change(table, token)) is not None)
    return table


def test_two_server_processes_on_one_database_serve_one_match_to_two_people(
    two_servers: tuple[str, str], postgres_dsn: str
) -> None:
    """Created on A, joined on B, played to the end with each person on its own server; one record for both,
    the record one process plays."""
    base_a, base_b = two_servers
    created, answer = call(base_a, "POST", "/api/tables", ("", ""), {"seats": SEATS})
    assert 201 == created, answer
    table_id, token_a = answer["table"], answer["token"]
    invite = next(invite["link"] for invite in answer["invites"] if not invite["you"])
    token_b = re.search(r"token=([A-Za-z0-9_-]+)", invite).group(1)  # type: ignore[union-attr]
    # The bots are moving meanwhile: a join that loses the race to a bot's move is refused (409) and asked again.
    for _ in range(100):
        joined, answer = call(base_b, "POST", "/api/join", (table_id, token_b))
        if joined != 409:
            break
    assert 200 == joined, answer
    # The table as the store holds it before either person moves: where the one-process match starts.
    store = PostgresStore(postgres_dsn)
    stored = store.get(table_id)
    store.close()
    assert stored is not None
    expected = played_in_one_process(table_from_json(stored.document), (token_a, token_b))
    people = [Person(base_a, table_id, token_a), Person(base_b, table_id, token_b)]
    for person in people:
        person.start()
    for person in people:
        person.join(timeout=HANG)
    assert [None, None] == [person.failure for person in people]
    assert [record_to_data(expected.record)] * 2 == [person.record for person in people]
    # Each played its own seat through its own server, and heard the match's changes pushed as they came.
    assert all(person.moves_kept > 0 for person in people)
    assert all(person.pushed == sorted(set(person.pushed)) and len(person.pushed) > 2 for person in people)


def _serve(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=HANG, check=False
    )


def test_serve_without_the_postgres_extra_names_it() -> None:
    """Without psycopg, `serve --postgres` says which extra to install and exits 2, with no traceback."""
    done = _serve(
        "import sys; sys.modules['psycopg'] = None\n"
        "from sniff_rules.cli.commands import main\n"
        "raise SystemExit(main(['serve', '--postgres', 'host=/nowhere']))"
    )
    assert (2, False) == (done.returncode, "Traceback" in done.stderr), done.stderr
    assert "pip install 'sniff-rules[postgres]'" in done.stdout


def test_serve_with_a_database_it_cannot_reach_says_so_without_the_dsn(tmp_path: Path) -> None:
    """A DSN naming no server: `serve` prints why, never the DSN (it may hold a password), and exits 2."""
    dsn = f"host={tmp_path} port=1 dbname=sniff password=secret-pass-123 connect_timeout=5"
    done = _serve(
        f"from sniff_rules.cli.commands import main\nraise SystemExit(main(['serve', '--postgres', {dsn!r}]))"
    )
    assert 2 == done.returncode, done.stderr
    assert "cannot use the PostgreSQL database given to --postgres" in done.stdout
    assert "secret-pass-123" not in done.stdout + done.stderr
