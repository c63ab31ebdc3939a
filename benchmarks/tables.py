"""What `sniff-rules serve` does per second: whole 4-person matches over HTTP and WebSocket, and its tables per GiB.

Run from the repository root (the figures are in benchmarks/README.md)::

    python3 -m benchmarks.tables
    python3 -m benchmarks.tables --matches 8 --parallel 4 --stores sqlite memory --capacity 2000

For each store a real server process is started on 127.0.0.1
(``sniff-rules serve --port 0 --bot-delay 0`` with ``--memory`` or
``--data`` in a fresh folder). ``--parallel`` matches at a time, each of
four person seats, are played to their end by scripted clients: one
thread per seat holds the seat's WebSocket, and on each snapshot pushed
there that shows its turn (or a settled round, for seat 0) it sends its
first legal move over HTTP on the version shown. Every seat leaves at the
match's end, so the table ends. Reported: the HTTP requests per second
over the whole run, the p50 and p99 latency of one request, and the
WebSocket messages received per second.

The tables one process holds within 1 GiB are measured in this process:
``--capacity`` tables are made in a :class:`~sniff_rules.web.store.MemoryStore`
through :class:`~sniff_rules.web.host.TableHost` and each played
``--moves`` moves by its bots, and the growth of the resident set
(``/proc/self/status``) is divided into 1 GiB. With the SQLite store a
table is on disk, and a process holds only its cache of
:data:`~sniff_rules.web.host.TABLE_CACHE` tables read.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent
GIB: Final = 1 << 30


class Served:
    """A `sniff-rules serve` process on a free port of 127.0.0.1."""

    def __init__(self, *options: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sniff_rules", "serve", "--port", "0", "--bot-delay", "0", *options],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", self.process.stdout.readline())
        if found is None:
            raise RuntimeError("the server printed no URL")
        self.url = found.group(0).rstrip("/")
        self.port = int(found.group(1))
        self.process.stdout.readline()
        # The URL is printed as the socket is bound; the app answers once uvicorn has started.
        for _ in range(200):
            try:
                with urllib.request.urlopen(self.url + "/api/bots", timeout=5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not answer")

    def stop(self) -> None:
        """Stop it as Ctrl-C would."""
        self.process.send_signal(2)
        self.process.wait(timeout=30)


class Timings:
    """Each request's seconds and the count of messages heard, from every seat's thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests: list[float] = []
        self.messages = 0
        self.refused = 0

    def request(self, url: str, method: str, path: str, seat: dict[str, str], body: Any = None) -> tuple[int, Any]:
        """One timed request; its status and JSON answer."""
        data = None if body is None else json.dumps(body).encode()
        sent = urllib.request.Request(
            url + path, data=data, method=method, headers={"content-type": "application/json", **seat}
        )
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(sent, timeout=60) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            status, text = refused.code, refused.read()
        took = time.perf_counter() - start
        with self.lock:
            self.requests.append(took)
            self.refused += status >= 400
        return status, json.loads(text)


def _seat(served: Served, timings: Timings, seat: dict[str, str], first: bool, until: int | None) -> None:
    from websockets.sync.client import connect
    from websockets.typing import Origin

    url = served.url
    with connect(f"ws://127.0.0.1:{served.port}/api/updates", origin=Origin(url)) as socket:
        socket.send(json.dumps({"table": seat["x-sniff-table"], "token": seat["x-sniff-token"]}))
        acted = 0
        while True:
            snapshot = json.loads(socket.recv(timeout=60))
            with timings.lock:
                timings.messages += 1
            version, status = snapshot["version"], snapshot["status"]
            if status == "match-over" or (until is not None and version >= until):
                break
            if version <= acted:
                continue
            if status == "your-turn":
                acted = version
                move = snapshot["view"]["options"][0]["move"]
                timings.request(url, "POST", "/api/move", seat, {"move": move, "version": version})
            elif status == "round-over" and first:
                acted = version
                timings.request(url, "POST", "/api/next-round", seat, {"version": version})
    timings.request(url, "POST", "/api/leave", seat)


def play_match(served: Served, timings: Timings, until: int | None = None) -> None:
    """One 4-person match to its end (or to version ``until``), a thread a seat."""
    status, made = timings.request(served.url, "POST", "/api/tables", {}, {"seats": ["person"] * 4})
    if status != 201:
        raise RuntimeError(f"the table was refused: {made}")
    seats = []
    for invite in made["invites"]:
        table, token = re.findall(r"(?:table|token)=([A-Za-z0-9_-]+)", invite["link"])
        seats.append({"x-sniff-table": table, "x-sniff-token": token})
    for seat in seats[1:]:
        timings.request(served.url, "POST", "/api/join", seat)
    threads = [
        threading.Thread(target=_seat, args=(served, timings, seat, index == 0, until))
        for index, seat in enumerate(seats)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def run_store(store: str, matches: int, parallel: int, until: int | None = None) -> dict[str, float]:
    """Play ``matches`` matches, ``parallel`` at a time, on a server with ``store``; the figures."""
    with tempfile.TemporaryDirectory() as folder:
        served = Served("--memory") if store == "memory" else Served("--data", folder)
        timings = Timings()
        try:
            start = time.perf_counter()
            left = [matches]
            lock = threading.Lock()

            def worker() -> None:
                while True:
                    with lock:
                        if not left[0]:
                            return
                        left[0] -= 1
                    play_match(served, timings, until)

            workers = [threading.Thread(target=worker) for _ in range(max(1, parallel))]
            for thread in workers:
                thread.start()
            for thread in workers:
                thread.join()
            took = time.perf_counter() - start
        finally:
            served.stop()
    quantiles = statistics.quantiles(timings.requests, n=100) if len(timings.requests) > 1 else [0.0] * 99
    return {
        "requests": len(timings.requests),
        "requests_per_second": len(timings.requests) / took,
        "p50_ms": statistics.median(timings.requests) * 1000,
        "p99_ms": quantiles[98] * 1000,
        "messages_per_second": timings.messages / took,
        "seconds": took,
        "refused": timings.refused,
    }


def _rss() -> int:
    found = re.search(r"^VmRSS:\s+(\d+) kB", Path("/proc/self/status").read_text(), re.MULTILINE)
    assert found is not None
    return int(found.group(1)) * 1024


def tables_per_gib(count: int, moves: int) -> tuple[int, float]:
    """Tables held in memory within 1 GiB, and bytes each: measured in a fresh process (:func:`_tables_here`), so
    nothing this one freed before is reused and hides the growth."""
    measured = subprocess.run(
        [sys.executable, "-m", "benchmarks.tables", "--stores", "--measure-here", str(count), str(moves)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    each = float(measured.stdout.split()[-1])
    return int(GIB / each), each


def _tables_here(count: int, moves: int) -> float:
    """Bytes of resident memory a table adds in this process: ``count`` tables of 4 seats (a person and three
    bots) each played ``moves`` moves in a memory store through the host."""
    import asyncio

    from sniff_rules.web.host import TableHost
    from sniff_rules.web.store import MemoryStore

    host = TableHost(MemoryStore(), max_tables=count, max_tables_per_client=count)
    before = _rss()
    held = []
    for index in range(count):
        table_id, table, _ = host.create(("person", "greedy", "greedy", "greedy"), f"client-{index}")
        for _ in range(moves):
            if table.bot_to_move:
                new = table.step_bot()
            elif table.person_to_move is not None:
                token = table.seats[table.person_to_move].token
                assert token is not None
                new = table.play(token, table.view(token).legal_moves[0], table.version)
            else:
                break
            host._commit(table_id, table, new)
            table = new
        held.append(table_id)
    each = max(1.0, (_rss() - before) / count)
    asyncio.run(host.stop())
    return each


def main(argv: Sequence[str] | None = None) -> None:
    """Print the figures (see the module's docstring)."""
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.tables", description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=4, help="whole matches per store (default 4)")
    parser.add_argument("--parallel", type=int, default=2, help="matches played at a time (default 2)")
    parser.add_argument("--stores", nargs="*", default=["sqlite", "memory"], choices=["sqlite", "memory"])
    parser.add_argument("--capacity", type=int, default=2000, help="tables made for the memory figure (default 2000)")
    parser.add_argument("--moves", type=int, default=60, help="moves played at each of those tables (default 60)")
    parser.add_argument("--until", type=int, default=None, help="end each match at this version (a quick check)")
    parser.add_argument("--measure-here", nargs=2, type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure_here is not None:
        print(_tables_here(*args.measure_here))
        return
    for store in args.stores:
        figures = run_store(store, args.matches, args.parallel, args.until)
        print(
            f"{store:>6}: {args.matches} matches, {figures['requests']:.0f} requests in {figures['seconds']:.1f} s: "
            f"{figures['requests_per_second']:.0f} requests/s, p50 {figures['p50_ms']:.1f} ms, "
            f"p99 {figures['p99_ms']:.1f} ms; {figures['messages_per_second']:.0f} WebSocket messages/s; "
            f"{figures['refused']:.0f} refused"
        )
    if args.capacity > 0:
        count, each = tables_per_gib(args.capacity, args.moves)
        print(f"memory store: {each / 1024:.1f} KiB a table {args.moves} moves in: {count} tables within 1 GiB")


if __name__ == "__main__":
    main()
