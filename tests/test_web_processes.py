"""`sniff-rules serve` as real server processes: a restart with the same --data loses nothing, two people
at one instant get one success and one stale refusal, and memory returns to its baseline after a burst of
creations and after 1,000 silent WebSockets (HOST-2..5, TURN-2).

Memory is the server process's resident set, read from /proc/PID/status (VmRSS). The margin is the issue's:
within 10% of the baseline. The baseline is read after a warm-up that runs the same work once, so what a
first use keeps for good is in it: imports, caches, and the allocator's high-water mark — CPython and the C
allocator keep the pages of a burst's freed objects for reuse rather than return them, so a first flood
of sockets raises an idle server's RSS for good, and every later one leaves it where it was.
What is measured is growth that stays: memory held per socket or per table after they are gone.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest

pytest.importorskip("starlette", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
pytest.importorskip("uvicorn", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")

ROOT: Final = Path(__file__).resolve().parent.parent
MEMORY_MARGIN: Final = 0.10
"""How far above its baseline the server's resident memory may stay after a burst: the issue's 10%."""

SETTLE_SECONDS: Final = 30.0
"""How long memory and sockets are given to settle after a burst; far beyond what they take, so it cannot flake."""

Seat = dict[str, str]


class Server:
    """A `sniff-rules serve` process on a free port of 127.0.0.1; its URL and pid."""

    def __init__(self, *options: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sniff_rules", "serve", "--port", "0", "--bot-delay", "0", *options],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found is not None, line
        self.url = found.group(0)
        self.port = int(found.group(1))
        self.kept = self.process.stdout.readline()
        for _ in range(100):
            try:
                self.request("GET", "/api/bots")
                break
            except OSError:
                time.sleep(0.1)

    def request(self, method: str, path: str, seat: Seat | None = None, body: Any = None) -> tuple[int, Any]:
        """One request; the status and the JSON answer."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"content-type": "application/json", **(seat or {})}
        sent = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(sent, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())

    def rss_kib(self) -> int:
        """The process's resident memory now, in KiB, from /proc."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
        assert found is not None
        return int(found.group(1))

    def stop(self) -> None:
        """Stop the process as Ctrl-C would, and wait for it."""
        self.process.send_signal(2)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def memory_server() -> Iterator[Server]:
    """A server keeping its tables in memory."""
    server = Server("--memory")
    yield server
    server.stop()


def create(server: Server, kinds: list[str]) -> list[Seat]:
    """A new table's person seats, the creator's first, every other joined by its invite link."""
    status, data = server.request("POST", "/api/tables", body={"seats": kinds})
    assert 201 == status, data
    seats = []
    for invite in data["invites"]:
        table, token = re.findall(r"(?:table|token)=([A-Za-z0-9_-]+)", invite["link"])
        seats.append({"x-sniff-table": table, "x-sniff-token": token})
    for seat in seats[1:]:
        assert 200 == server.request("POST", "/api/join", seat)[0]
    return seats


def snap(server: Server, seat: Seat) -> dict[str, Any]:
    """The seat's snapshot."""
    status, data = server.request("GET", "/api/table", seat)
    assert 200 == status, data
    return dict(data["snapshot"])


def play_until(server: Server, people: list[Seat], wanted: str, moves: int | None = None) -> dict[str, Any]:
    """Play the people's first legal moves until seat 0's status is ``wanted`` (or ``moves`` were made)."""
    made = 0
    for _ in range(3000):
        views = [snap(server, seat) for seat in people]
        if wanted == views[0]["status"] or (moves is not None and made >= moves):
            return views[0]
        for seat, view in zip(people, views, strict=True):
            if "your-turn" == view["status"]:
                move = view["view"]["options"][0]["move"]
                status, _ = server.request("POST", "/api/move", seat, {"move": move, "version": view["version"]})
                made += status == 200
        if "round-over" == views[0]["status"]:
            server.request("POST", "/api/next-round", people[0], {"version": views[0]["version"]})
    raise AssertionError(f"never reached {wanted}")


def test_a_restart_with_the_same_data_loses_nothing(tmp_path: Path) -> None:
    """HOST-3: a table made and played on one server process is there, whole, on the next with the same --data."""
    first = Server("--data", str(tmp_path))
    try:
        assert str(tmp_path / "tables.sqlite3") in first.kept
        people = create(first, ["person", "greedy", "person"])
        play_until(first, people, "match-over", moves=6)
        before = [snap(first, seat) for seat in people]
    finally:
        first.stop()
    second = Server("--data", str(tmp_path))
    try:
        assert before == [snap(second, seat) for seat in people]
        after = play_until(second, people, "match-over", moves=3)
        assert after["version"] > before[0]["version"]
    finally:
        second.stop()


def test_two_people_at_one_instant_get_one_success_and_one_stale_refusal(memory_server: Server) -> None:
    """HOST-5, TURN-2: at a round's end both people ask for the next round on one version at the same instant,
    over HTTP; one is dealt, the other refused as stale, and both then see the same table."""
    people = create(memory_server, ["person", "person"])
    seen = play_until(memory_server, people, "round-over")
    start = threading.Barrier(2)
    answers: list[tuple[int, Any]] = []

    def ask(seat: Seat) -> None:
        start.wait()
        answers.append(memory_server.request("POST", "/api/next-round", seat, {"version": seen["version"]}))

    threads = [threading.Thread(target=ask, args=(seat,)) for seat in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [200, 409] == sorted(status for status, _ in answers)
    refused = next(data for status, data in answers if status == 409)
    assert ("stale", "TURN-2") == (refused["error"], refused["rule"])
    after = [snap(memory_server, seat) for seat in people]
    assert [seen["version"] + 1] * 2 == [view["version"] for view in after]
    assert [seen["view"]["round"] + 1] * 2 == [view["view"]["round"] for view in after]


def _burst(server: Server, count: int) -> list[int]:
    """``count`` creations from this client; their statuses."""
    return [server.request("POST", "/api/tables", body={"seats": ["person", "greedy"]})[0] for _ in range(count)]


def _settled_rss(server: Server, ceiling: int) -> int:
    """The server's memory once it is at or below ``ceiling`` KiB, or after SETTLE_SECONDS; the last read."""
    deadline = time.monotonic() + SETTLE_SECONDS
    rss = server.rss_kib()
    while rss > ceiling and time.monotonic() < deadline:
        time.sleep(0.5)
        rss = server.rss_kib()
    return rss


def test_memory_returns_to_its_baseline_after_a_burst_of_creations(memory_server: Server) -> None:
    """HOST-2: 300 creations from one client are bounded (429 past the client's tables, naming HOST-2) and leave
    the server's memory within 10% of its baseline."""
    _burst(memory_server, 300)
    baseline = memory_server.rss_kib()
    statuses = _burst(memory_server, 300)
    assert {429} == set(statuses)
    assert 429 == memory_server.request("POST", "/api/tables", body={"seats": ["person", "greedy"]})[0]
    ceiling = int(baseline * (1 + MEMORY_MARGIN))
    assert _settled_rss(memory_server, ceiling) <= ceiling


async def _silent_sockets(port: int, count: int) -> int:
    """Open ``count`` WebSockets that never name a seat; wait until the server has closed every one; how many
    it accepted (101) rather than refused."""

    async def one() -> bool:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            (
                "GET /api/updates HTTP/1.1\r\n"
                f"Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        head = await reader.readline()
        # Read until the server closes the connection: it must, whether it accepted or refused.
        while await reader.read(4096):
            pass
        writer.close()
        return b" 101 " in head

    accepted = await asyncio.wait_for(asyncio.gather(*(one() for _ in range(count))), timeout=120)
    return sum(accepted)


def test_a_thousand_silent_sockets_leave_memory_within_ten_percent_of_baseline(memory_server: Server) -> None:
    """HOST-4: 1,000 WebSockets that never name a seat are closed (those over the unnamed bound at once), and the
    server's memory is within 10% of its baseline after they close."""
    asyncio.run(_silent_sockets(memory_server.port, 1000))
    baseline = memory_server.rss_kib()
    accepted = asyncio.run(_silent_sockets(memory_server.port, 1000))
    # The unnamed bound, not the flood, decides how many are held at once.
    assert 0 < accepted < 1000
    ceiling = int(baseline * (1 + MEMORY_MARGIN))
    assert _settled_rss(memory_server, ceiling) <= ceiling
    people = create(memory_server, ["person", "greedy"])
    assert "sniff-rules/web-snapshot@3" == snap(memory_server, people[0])["format"]


def test_two_server_processes_on_one_data_folder_play_one_match(tmp_path: Path) -> None:
    """HOST-5: two processes sharing one --data serve one table, a person on each; a move made through one is
    pushed over the other's WebSocket, and a request on a version the other moved past is refused as stale."""
    from websockets.sync.client import connect
    from websockets.typing import Origin

    first, second = Server("--data", str(tmp_path)), Server("--data", str(tmp_path))
    try:
        status, made = first.request("POST", "/api/tables", body={"seats": ["person", "person"]})
        assert 201 == status
        seats = []
        for invite in made["invites"]:
            table, token = re.findall(r"(?:table|token)=([A-Za-z0-9_-]+)", invite["link"])
            seats.append({"x-sniff-table": table, "x-sniff-token": token})
        servers = (first, second)
        url = f"ws://127.0.0.1:{first.port}/api/updates"
        with connect(url, origin=Origin(first.url.rstrip("/"))) as socket:
            socket.send(json.dumps({"table": seats[0]["x-sniff-table"], "token": seats[0]["x-sniff-token"]}))
            shown = json.loads(socket.recv(timeout=SETTLE_SECONDS))
            assert 200 == second.request("POST", "/api/join", seats[1])[0]
            pushed = json.loads(socket.recv(timeout=SETTLE_SECONDS))
            assert shown["version"] + 1 == pushed["version"]
            views = [snap(server, seat) for server, seat in zip(servers, seats, strict=True)]
            mover = next(index for index, view in enumerate(views) if view["status"] == "your-turn")
            view = views[mover]
            body = {"move": view["view"]["options"][0]["move"], "version": view["version"]}
            assert 200 == servers[mover].request("POST", "/api/move", seats[mover], body)[0]
            refused = servers[1 - mover].request("POST", "/api/move", seats[mover], body)
            assert (409, "TURN-2") == (refused[0], refused[1]["rule"])
            moved = json.loads(socket.recv(timeout=SETTLE_SECONDS))
            assert view["version"] + 1 == moved["version"]
    finally:
        first.stop()
        second.stop()
