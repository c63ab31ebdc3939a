"""A PostgreSQL server of the tests' own, from the distribution's binaries: never a mock, never left running.

:func:`running_postgres` runs ``initdb`` into a temporary folder and starts
``postgres`` listening on a Unix socket in that folder alone (no TCP port,
so nothing else on the machine can reach it), with ``fsync`` off: the data
is thrown away at the end. PostgreSQL refuses to run as root, so as root
(CI and the development machine) the server runs as the ``postgres`` user
the Debian package creates, through ``runuser``, the folder given to it;
otherwise as the current user. The binaries are found under
``/usr/lib/postgresql/*/bin``; when they are missing the test fails, saying
that ``.ci/run`` installs them, so the store's tests are never skipped.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import attrs
import pytest

BINARIES: Final = "/usr/lib/postgresql/*/bin"
SUPERUSER: Final = "sniff_test"
PORT: Final = 5432  # the socket's name only: it lives in the server's own folder, so no two servers meet
START_SECONDS: Final = 60.0  # a bound on a hang, not a measure: the server is ready long before
_databases = itertools.count(1)


def server_binaries() -> Path:
    """The folder of the newest ``initdb`` and ``postgres`` the distribution installed; the test fails without."""
    found = [
        folder
        for folder in Path("/").glob(BINARIES.lstrip("/"))
        if (folder / "initdb").is_file() and (folder / "postgres").is_file()
    ]
    if not found:
        pytest.fail(
            f"no PostgreSQL server binaries under {BINARIES}: .ci/run installs them "
            "(apt-get install postgresql), and the PostgreSQL store's tests need a real server"
        )
    return max(found, key=lambda folder: int(folder.parent.name) if folder.parent.name.isdigit() else 0)


@attrs.frozen
class PostgresServer:
    """A running server: its ``folder`` (data and socket) and its process; :meth:`dsn` names a database on it."""

    folder: Path
    process: subprocess.Popen[bytes] = attrs.field(repr=False)

    @property
    def socket_folder(self) -> Path:
        """The folder holding the server's Unix socket."""
        return self.folder / "socket"

    def dsn(self, dbname: str = "postgres") -> str:
        """A libpq connection string for ``dbname`` on this server."""
        return f"host={self.socket_folder} port={PORT} user={SUPERUSER} dbname={dbname}"

    def new_database(self) -> str:
        """A fresh, empty database's connection string: each test's tables and channels are its own."""
        # Imported here: conftest imports this module, and a missing extra must not stop the whole suite.
        import psycopg

        name = f"test_{os.getpid()}_{next(_databases)}"
        with psycopg.connect(self.dsn(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")  # a name made here, never from input
        return self.dsn(name)


def _as_server_user(command: list[str], *more: str) -> list[str]:
    """``command`` (and ``more``) run as the ``postgres`` user when this process is root (postgres refuses
    root), else as is."""
    command = [*command, *more]
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def _give_to_server_user(folder: Path) -> None:
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, user.pw_uid, user.pw_gid)


_shared: list[PostgresServer] = []


def shared_server() -> PostgresServer:
    """The one server of this test run, started on first use and stopped when the run ends.

    The store contract's factories (tests/test_table_stores.py) are given a
    folder, not a fixture, so they reach the server here; the
    ``postgres_server`` fixture is this same server.
    """
    if not _shared:
        stack = contextlib.ExitStack()
        _shared.append(stack.enter_context(running_postgres()))
        atexit.register(stack.close)
    return _shared[0]


@contextlib.contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    """A fresh server in a temporary folder for the ``with`` block; stopped and its folder removed after."""
    binaries = server_binaries()
    if os.geteuid() == 0 and not _has_user("postgres"):
        pytest.fail("running as root, PostgreSQL needs the postgres user: .ci/run installs postgresql, which makes it")
    # As root the server runs as postgres, which must reach the folder: /tmp, whatever TMPDIR names, is open to all.
    folder = Path(tempfile.mkdtemp(prefix="sniff-postgres-", dir="/tmp" if os.geteuid() == 0 else None))
    try:
        (folder / "socket").mkdir()
        _give_to_server_user(folder)
        initdb = _as_server_user(
            [str(binaries / "initdb"), "-D", str(folder / "data"), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8"],
            "--no-sync",
            "--no-instructions",
        )
        done = subprocess.run(initdb, capture_output=True, text=True, timeout=START_SECONDS, check=False)
        if done.returncode != 0:
            pytest.fail(f"initdb failed ({done.returncode}): {done.stderr[-2000:]}")
        log = (folder / "server.log").open("wb")
        process = subprocess.Popen(
            _as_server_user(
                [str(binaries / "postgres"), "-D", str(folder / "data"), "-k", str(folder / "socket")],
                *("-p", str(PORT), "-c", "listen_addresses=", "-c", "fsync=off", "-c", "max_connections=200"),
            ),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        server = PostgresServer(folder, process)
        try:
            _wait_until_ready(server)
            yield server
        finally:
            _stop(server)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _wait_until_ready(server: PostgresServer) -> None:
    binaries = server_binaries()
    ready = [str(binaries / "pg_isready"), "-q", "-h", str(server.socket_folder), "-p", str(PORT)]
    for _ in range(int(START_SECONDS * 10)):
        if server.process.poll() is not None:
            log = (server.folder / "server.log").read_text(errors="replace")
            pytest.fail(f"postgres exited ({server.process.returncode}) before it was ready: {log[-2000:]}")
        if subprocess.run([*ready, "-t", "1"], check=False).returncode == 0:
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.process.wait(timeout=0.1)
    pytest.fail(f"postgres was not ready within {START_SECONDS} seconds")


def _stop(server: PostgresServer) -> None:
    """A fast shutdown (SIGINT to the postmaster, which ends its sessions); a kill if it does not end."""
    pid_file = server.folder / "data" / "postmaster.pid"
    with contextlib.suppress(FileNotFoundError, ValueError, ProcessLookupError, IndexError):
        # runuser does not pass signals on: the postmaster itself is told, by the id it wrote.
        os.kill(int(pid_file.read_text().splitlines()[0]), signal.SIGINT)
    try:
        server.process.wait(timeout=START_SECONDS)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
