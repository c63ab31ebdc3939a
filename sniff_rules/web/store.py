"""Where the server keeps its tables: one interface, :class:`TableStore`, and the stores that follow it.

A stored table is the whole table as :mod:`sniff_rules.formats.table_json`
writes it (every hand, every token, the bots' source: it never reaches a
client), its version, the client that created it and when it last changed.
Every store does the same five things — add, get, compare-and-set replace,
remove, count and list the idle — and tells its listeners of every change
made by any process that shares it, so a server holding a WebSocket for a
seat pushes the change whichever process made it.

- :class:`MemoryStore` keeps them in a dict: for tests and ``serve --memory``;
  one process, gone when it stops.
- :class:`SQLiteStore` keeps them in one SQLite file (the standard
  library's :mod:`sqlite3`, WAL mode): the server's default, ``serve --data DIR``.
  Several processes may open one file; each learns of the others' changes
  from a change log it polls (:data:`POLL_SECONDS`).

>>> store = MemoryStore()
>>> seen = []
>>> store.subscribe(lambda table_id, version: seen.append((table_id, version)))
>>> store.add(StoredTable("t" * 22, "{}", 1, "127.0.0.1", 10.0))
>>> store.replace(StoredTable("t" * 22, "{}", 2, "127.0.0.1", 11.0), expected_version=1)
True
>>> store.replace(StoredTable("t" * 22, "{}", 3, "127.0.0.1", 12.0), expected_version=1)
False
>>> store.remove("t" * 22); seen
[('tttttttttttttttttttttt', 1), ('tttttttttttttttttttttt', 2), ('tttttttttttttttttttttt', -1)]
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final, Protocol

import attrs

from sniff_rules.errors import SniffError

Listener = Callable[[str, int], None]
"""Told ``(table_id, version)`` after a change; the version is -1 when the table was removed."""

REMOVED: Final = -1
"""The version a listener is told when a table is removed."""

STORE_RULE: Final = "FORMAT-3"
"""The rule a store's refusals name: a value handed to it that it cannot keep as asked."""


class StoreConflictError(SniffError):
    """An :meth:`TableStore.add` of an id the store already holds: ids are unique, nothing is overwritten."""


def _positive_version(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 1:
        raise SniffError(STORE_RULE, f"a stored table's version is an int from 1, got {value!r:.40}")


def _text(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if type(value) is not str or (attribute.name == "table_id" and not value):
        raise SniffError(STORE_RULE, f"a stored table's {attribute.name} is text, got {value!r:.40}")


@attrs.frozen
class StoredTable:
    """One table as a store keeps it.

    ``table_id`` is its unguessable key (:func:`new_table_id`); ``document``
    the whole table as :func:`~sniff_rules.formats.table_json.table_to_json`
    writes it (every hand: never sent to a client); ``version`` the table's
    own :attr:`~sniff_rules.play.table.Table.version`; ``creator`` the
    creating client's key (its address), for the per-client bound;
    ``touched`` the store clock's seconds at the last change, for idle expiry.
    """

    table_id: str = attrs.field(validator=_text)
    document: str = attrs.field(repr=False, validator=_text)
    version: int = attrs.field(validator=_positive_version)
    creator: str = attrs.field(validator=_text)
    touched: float = attrs.field(converter=float)


def new_table_id() -> str:
    """A fresh unguessable table id: 32 random bytes, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


class TableStore(Protocol):
    """What every store does; the server uses nothing else."""

    def add(self, stored: StoredTable) -> None:
        """Keep a new table; :class:`StoreConflictError` when its id is held already (nothing changed)."""

    def get(self, table_id: str) -> StoredTable | None:
        """The table under ``table_id``, or None."""

    def replace(self, stored: StoredTable, expected_version: int) -> bool:
        """Compare-and-set: write ``stored`` only if the held version is ``expected_version``.

        False, with nothing changed, when the table is gone or another write came first.
        """

    def remove(self, table_id: str) -> None:
        """Forget the table; nothing when it is gone already."""

    def count(self, creator: str | None = None) -> int:
        """How many tables are held, or how many ``creator`` made."""

    def idle(self, before: float, limit: int) -> list[str]:
        """Up to ``limit`` ids of tables last touched before ``before``, the longest idle first."""

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(table_id, version)`` after every add, replace and remove (version -1) by any process.

        It may be called from another thread: a server hops into its event
        loop (``loop.call_soon_threadsafe``) before touching asyncio objects.
        """

    def close(self) -> None:
        """Let go of the store's resources; the tables stay where they are kept."""


class _Listeners:
    """The listeners of one store, told outside any lock so a listener may call the store again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    def add(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def __bool__(self) -> bool:
        return bool(self._listeners)

    def tell(self, table_id: str, version: int) -> None:
        with self._lock:
            listeners = tuple(self._listeners)
        for listener in listeners:
            listener(table_id, version)


class MemoryStore:
    """Tables in a dict, for one process: tests and ``serve --memory``. Everything is gone when it stops."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[str, StoredTable] = {}
        self._listeners = _Listeners()

    def add(self, stored: StoredTable) -> None:
        """Keep a new table (see :meth:`TableStore.add`)."""
        with self._lock:
            if stored.table_id in self._tables:
                raise StoreConflictError(STORE_RULE, f"a table {stored.table_id[:8]}... is held already")
            self._tables[stored.table_id] = stored
        self._listeners.tell(stored.table_id, stored.version)

    def get(self, table_id: str) -> StoredTable | None:
        """The table under ``table_id``, or None."""
        with self._lock:
            return self._tables.get(table_id)

    def replace(self, stored: StoredTable, expected_version: int) -> bool:
        """Compare-and-set (see :meth:`TableStore.replace`)."""
        with self._lock:
            held = self._tables.get(stored.table_id)
            if held is None or held.version != expected_version:
                return False
            self._tables[stored.table_id] = stored
        self._listeners.tell(stored.table_id, stored.version)
        return True

    def remove(self, table_id: str) -> None:
        """Forget the table; nothing when it is gone already."""
        with self._lock:
            gone = self._tables.pop(table_id, None)
        if gone is not None:
            self._listeners.tell(table_id, REMOVED)

    def count(self, creator: str | None = None) -> int:
        """How many tables are held, or how many ``creator`` made."""
        with self._lock:
            if creator is None:
                return len(self._tables)
            return sum(1 for stored in self._tables.values() if stored.creator == creator)

    def idle(self, before: float, limit: int) -> list[str]:
        """Up to ``limit`` ids of tables last touched before ``before``, the longest idle first."""
        with self._lock:
            old = sorted(
                (stored.touched, stored.table_id) for stored in self._tables.values() if stored.touched < before
            )
        return [table_id for _, table_id in old[: max(0, limit)]]

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` after every change (this store is one process's alone)."""
        self._listeners.add(listener)

    def close(self) -> None:
        """Nothing to let go of: the tables are dropped with the store."""


POLL_SECONDS: Final = 0.1
"""How often an :class:`SQLiteStore` with listeners reads the change log for other processes' changes:
a move made through another process reaches this one's sockets within about this long."""

CHANGE_LOG_SECONDS: Final = 300.0
"""How long a change stays in the change log: far longer than a poll, so a busy process misses none."""

BUSY_SECONDS: Final = 5.0
"""How long a write waits for another process's write to finish before it fails (SQLite's busy timeout)."""

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    document TEXT NOT NULL,
    version INTEGER NOT NULL,
    creator TEXT NOT NULL,
    touched REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tables_touched ON tables (touched);
CREATE INDEX IF NOT EXISTS tables_creator ON tables (creator);
CREATE TABLE IF NOT EXISTS changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    origin TEXT NOT NULL,
    at REAL NOT NULL
);
"""


class SQLiteStore:
    """Tables in one SQLite file at ``path`` (WAL mode), shared by every process that opens it.

    Each change is written with a row of the change log in one transaction;
    this store's listeners are told at once, and a thread (started by the
    first :meth:`subscribe`) reads the other processes' changes every
    :data:`POLL_SECONDS`. ``clock`` stamps the change log for pruning
    (seconds; wall time, since the file outlives the process).
    """

    def __init__(self, path: str | Path, clock: Callable[[], float] | None = None) -> None:
        self.path: Final = Path(path)
        self._clock: Final = time.time if clock is None else clock
        self._origin: Final = secrets.token_hex(8)
        self._lock = threading.Lock()
        # One connection, used under the lock from whichever thread calls: the server
        # calls from its event loop and from worker threads.
        self._db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL is durable across a process crash in WAL mode; only power loss may drop the last commits.
        self._db.execute("PRAGMA synchronous=NORMAL")
        with self._lock:
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM changes").fetchone()
        self._seen_seq: int = int(row[0])
        self._listeners = _Listeners()
        self._closed = threading.Event()
        self._poller: threading.Thread | None = None

    def _write(self, statement: str, values: tuple[object, ...], table_id: str, version: int) -> int:
        """Run one write and log it, in one transaction; the rows the write changed (0: nothing logged)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                changed = self._db.execute(statement, values).rowcount
                if changed:
                    now = self._clock()
                    self._db.execute(
                        "INSERT INTO changes (table_id, version, origin, at) VALUES (?, ?, ?, ?)",
                        (table_id, version, self._origin, now),
                    )
                    self._db.execute("DELETE FROM changes WHERE at < ?", (now - CHANGE_LOG_SECONDS,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        if changed:
            self._listeners.tell(table_id, version)
        return changed

    def add(self, stored: StoredTable) -> None:
        """Keep a new table (see :meth:`TableStore.add`)."""
        try:
            self._write(
                "INSERT INTO tables (table_id, document, version, creator, touched) VALUES (?, ?, ?, ?, ?)",
                (stored.table_id, stored.document, stored.version, stored.creator, stored.touched),
                stored.table_id,
                stored.version,
            )
        except sqlite3.IntegrityError:
            raise StoreConflictError(STORE_RULE, f"a table {stored.table_id[:8]}... is held already") from None

    def get(self, table_id: str) -> StoredTable | None:
        """The table under ``table_id``, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT table_id, document, version, creator, touched FROM tables WHERE table_id = ?", (table_id,)
            ).fetchone()
        return None if row is None else StoredTable(*row)

    def replace(self, stored: StoredTable, expected_version: int) -> bool:
        """Compare-and-set (see :meth:`TableStore.replace`)."""
        changed = self._write(
            "UPDATE tables SET document = ?, version = ?, creator = ?, touched = ? WHERE table_id = ? AND version = ?",
            (stored.document, stored.version, stored.creator, stored.touched, stored.table_id, expected_version),
            stored.table_id,
            stored.version,
        )
        return changed == 1

    def remove(self, table_id: str) -> None:
        """Forget the table; nothing when it is gone already."""
        self._write("DELETE FROM tables WHERE table_id = ?", (table_id,), table_id, REMOVED)

    def count(self, creator: str | None = None) -> int:
        """How many tables are held, or how many ``creator`` made."""
        with self._lock:
            if creator is None:
                row = self._db.execute("SELECT COUNT(*) FROM tables").fetchone()
            else:
                row = self._db.execute("SELECT COUNT(*) FROM tables WHERE creator = ?", (creator,)).fetchone()
        return int(row[0])

    def idle(self, before: float, limit: int) -> list[str]:
        """Up to ``limit`` ids of tables last touched before ``before``, the longest idle first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT table_id FROM tables WHERE touched < ? ORDER BY touched, table_id LIMIT ?",
                (before, max(0, limit)),
            ).fetchall()
        return [str(row[0]) for row in rows]

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` after every change, this process's at once and the others' from the poller."""
        self._listeners.add(listener)
        with self._lock:
            if self._poller is None and not self._closed.is_set():
                self._poller = threading.Thread(target=self._poll, name="sqlite-store-poll", daemon=True)
                self._poller.start()

    def poll(self) -> int:
        """Read the change log once and tell the listeners of the other processes' changes; how many."""
        with self._lock:
            if self._closed.is_set():
                return 0
            # One read of every new row, this process's too, so no row written meanwhile is skipped.
            rows = self._db.execute(
                "SELECT seq, table_id, version, origin FROM changes WHERE seq > ? ORDER BY seq", (self._seen_seq,)
            ).fetchall()
            if rows:
                self._seen_seq = int(rows[-1][0])
        theirs = [(str(table_id), int(version)) for _, table_id, version, origin in rows if origin != self._origin]
        for table_id, version in theirs:
            self._listeners.tell(table_id, version)
        return len(theirs)

    def _poll(self) -> None:
        while not self._closed.wait(POLL_SECONDS):
            try:
                self.poll()
            except sqlite3.Error:
                # A busy or closing database is read again at the next poll.
                continue

    def close(self) -> None:
        """Stop the poller and close the file; the tables stay in it."""
        self._closed.set()
        poller = self._poller
        if poller is not None and poller is not threading.current_thread():
            poller.join()
        with self._lock:
            self._db.close()
