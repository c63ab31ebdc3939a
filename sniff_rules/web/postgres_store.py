"""The PostgreSQL table store (the ``postgres`` extra, psycopg 3): several server processes, one set of tables.

:class:`PostgresStore` keeps every table in one PostgreSQL table (created
if absent) and is a :class:`~sniff_rules.web.store.TableStore`: every
process that opens a store on the same database and ``name`` serves the
same tables. Each write is one statement, so it is whole or absent:

- :meth:`~PostgresStore.replace` is ``UPDATE … WHERE table_id = %s AND
  version = %s``: of two processes writing on one version, one succeeds and
  the other is told False, whichever the database orders first;
- the same statement sends ``pg_notify(name, 'table_id version')``, so a
  change is announced exactly when it is committed, never before and
  never for a write that did not happen.

Every process's listener thread ``LISTEN``\\s on the channel and calls the
subscribers, in that thread, with ``(table_id, version)`` (``-1`` for a
removal). A process hears its own changes the same way, not in the writing
thread, so every process hears every change in the one order the database
committed them.

Bounded everywhere: at most ``connections`` connections for statements
(a caller waits at most ``wait`` seconds for one, then
:class:`TimeoutError`), one for listening, a statement timeout on each;
ids and creators are short printable text and a document at most
:data:`~sniff_rules.formats.table_json.MAX_TABLE_CHARS`, so a payload stays
far below PostgreSQL's 8000 bytes. A dropped listening connection is
reconnected with a backoff; once listening again, the tables changed while
it was away (by the database's clock, with a margin) are told to the
subscribers at their current versions, so no process misses a move (a
table changed twice while it was away is told once, at its last version).
A subscriber may also hear of one version twice, and should treat a notice
as "read the table again".
A removal made while the listener was away is not told again: the table is
simply gone when it is next read.
"""

from __future__ import annotations

import datetime
import logging
import math
import re
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final, LiteralString

try:
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
except ModuleNotFoundError as missing:  # pragma: no cover - the extra is installed wherever the tests run
    raise ModuleNotFoundError(
        f"the PostgreSQL table store needs the postgres extra ({missing.name} is missing): "
        "pip install 'sniff-rules[postgres]'"
    ) from missing

from sniff_rules.errors import InvalidStateError
from sniff_rules.formats.table_json import MAX_TABLE_CHARS
from sniff_rules.web.store import REMOVED, STORE_RULE, Listener, StoreConflictError, StoredTable

EXTRA_HINT: Final = "pip install 'sniff-rules[postgres]'"
"""How to install what :class:`PostgresStore` needs."""

DEFAULT_NAME: Final = "sniff_tables"
"""The PostgreSQL table and notification channel a store uses unless told another ``name``."""

APPLICATION_NAME: Final = "sniff-rules"
"""How the store's connections name themselves to the server (``pg_stat_activity``), unless the DSN says;
the listening one adds `` listener``."""

MAX_ID_CHARS: Final = 128
"""The longest table id kept (``secrets.token_urlsafe()`` gives 43)."""

MAX_CREATOR_CHARS: Final = 256
"""The longest creator key kept (an IPv6 address and port is under 64)."""

MAX_VERSION: Final = 2**63 - 1
"""The largest version kept: PostgreSQL's ``bigint``."""

CATCH_UP_LIMIT: Final = 10_000
"""The most tables told to the subscribers after the listener reconnects (the most recently changed)."""

_NAME: Final = re.compile(r"[a-z_][a-z0-9_]{0,40}")
_VERSION_TEXT: Final = re.compile(r"-1|[1-9][0-9]{0,18}")
_POLL_SECONDS: Final = 0.2  # how soon the listener notices close(): it waits for notices this long at a time
_HEARTBEAT_SECONDS: Final = 5.0  # how often the listener asks the database's clock, which also finds a dead link
# A change is stamped when its statement runs and told at its commit, a moment later: the catch-up looks back further.
_CATCH_UP_MARGIN: Final = datetime.timedelta(seconds=5)
_MAX_BACKOFF_SECONDS: Final = 5.0
_log = logging.getLogger(__name__)

Connection = psycopg.Connection[tuple[Any, ...]]


def _text(value: object, what: str, longest: int) -> str:
    if type(value) is not str or not 1 <= len(value) <= longest or not value.isprintable():
        raise InvalidStateError(STORE_RULE, f"{what} is 1..{longest} printable characters, got {value!r:.60}")
    return value


def _version(value: object, what: str) -> int:
    if type(value) is not int or not 1 <= value <= MAX_VERSION:
        raise InvalidStateError(STORE_RULE, f"{what} is an int from 1 to 2**63 - 1, got {value!r:.40}")
    return value


def _checked(stored: object) -> StoredTable:
    if type(stored) is not StoredTable:
        raise InvalidStateError(STORE_RULE, f"a store keeps StoredTable values, got {stored!r:.100}")
    _text(stored.table_id, "a table id", MAX_ID_CHARS)
    _text(stored.creator, "a creator", MAX_CREATOR_CHARS)
    _version(stored.version, "a version")
    document = stored.document
    if type(document) is not str or len(document) > MAX_TABLE_CHARS or "\x00" in document:
        raise InvalidStateError(
            STORE_RULE, f"a document is table JSON text of at most {MAX_TABLE_CHARS} characters, got {document!r:.40}"
        )
    touched = stored.touched
    if type(touched) not in (int, float) or not math.isfinite(touched):
        raise InvalidStateError(STORE_RULE, f"touched is a finite number of seconds, got {touched!r:.40}")
    return stored


class _Connections:
    """At most ``size`` connections made by ``connect``, lent one caller at a time; a broken one is dropped."""

    def __init__(self, connect: Callable[[], Connection], size: int, wait: float) -> None:
        self._connect = connect
        self._wait = wait
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._idle: list[Connection] = []
        self._closed = False

    @contextmanager
    def lent(self) -> Iterator[Connection]:
        """A connection for one statement, back in the pool after it (or closed, when it broke)."""
        if not self._slots.acquire(timeout=self._wait):
            raise TimeoutError(f"no PostgreSQL connection came free within {self._wait} seconds")
        try:
            with self._lock:
                if self._closed:
                    raise InvalidStateError(STORE_RULE, "the store is closed")
                connection = self._idle.pop() if self._idle else None
            if connection is None or connection.closed:
                connection = self._connect()
            try:
                yield connection
            finally:
                self._give_back(connection)
        finally:
            self._slots.release()

    def _give_back(self, connection: Connection) -> None:
        with self._lock:
            if connection.broken or connection.closed or self._closed:
                connection.close()
            else:
                self._idle.append(connection)

    def close(self) -> None:
        """Close every idle connection; one lent now is closed when it comes back."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()


class PostgresStore:
    """The tables of one PostgreSQL database, shared by every process that opens it (see the module's docstring).

    ``dsn`` is a libpq connection string or URI (``host=/run/postgresql
    dbname=sniff``, ``postgresql://user@db.example/sniff``); ``name`` the
    table and channel (lower-case letters, digits and ``_``), so several
    sets of tables may share one database. ``connections`` bounds the
    connections used for statements, ``wait`` the seconds a caller waits
    for one; ``statement_timeout`` bounds each statement. The schema is
    created if absent, under an advisory lock, so processes may start at once.
    """

    def __init__(
        self,
        dsn: str,
        *,
        name: str = DEFAULT_NAME,
        connections: int = 4,
        wait: float = 10.0,
        statement_timeout: float = 10.0,
    ) -> None:
        if type(dsn) is not str:
            raise InvalidStateError(STORE_RULE, f"a PostgreSQL DSN is text, got {dsn!r:.40}")
        if type(name) is not str or not _NAME.fullmatch(name):
            raise InvalidStateError(STORE_RULE, f"a store's name is [a-z_][a-z0-9_]{{0,40}}, got {name!r:.60}")
        if type(connections) is not int or not 1 <= connections <= 64:
            raise InvalidStateError(STORE_RULE, f"connections is an int from 1 to 64, got {connections!r:.20}")
        # Keep the caller's own settings; fill in only what bounds a hang on a lost server.
        given = conninfo_to_dict(dsn)
        defaults: dict[str, str | int] = {
            "connect_timeout": 10,
            "keepalives": 1,
            "keepalives_idle": 10,
            "keepalives_interval": 5,
            "application_name": APPLICATION_NAME,
        }
        self._conninfo = make_conninfo(dsn, **{key: value for key, value in defaults.items() if key not in given})
        self._statement_ms = max(1, round(statement_timeout * 1000))
        self._name = name
        self._table = sql.Identifier(name)
        self._pool = _Connections(self._connect, connections, wait)
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._create_schema()

    def __repr__(self) -> str:
        # The DSN may hold a password: only the name is shown.
        return f"PostgresStore(name={self._name!r})"

    # ------------------------------------------------------------ connections and schema

    def _connect(self, application_name: str | None = None) -> Connection:
        conninfo = self._conninfo
        if application_name is not None:
            conninfo = make_conninfo(conninfo, application_name=application_name)
        connection = psycopg.connect(conninfo, autocommit=True)
        connection.execute(sql.SQL("SET statement_timeout = {}").format(sql.Literal(self._statement_ms)))
        return connection

    def _sql(self, text: LiteralString) -> sql.Composed:
        return sql.SQL(text).format(table=self._table)

    def _create_schema(self) -> None:
        with self._pool.lent() as connection, connection.transaction():
            # CREATE … IF NOT EXISTS is not safe against itself in two sessions at once: serialise them.
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (zlib.crc32(self._name.encode()),))
            connection.execute(
                self._sql(
                    "CREATE TABLE IF NOT EXISTS {table} ("
                    " table_id text PRIMARY KEY, document text NOT NULL, version bigint NOT NULL,"
                    " creator text NOT NULL, touched double precision NOT NULL,"
                    " changed_at timestamptz NOT NULL DEFAULT clock_timestamp())"
                )
            )
            for column in ("creator", "touched", "changed_at"):
                index = sql.Identifier(f"{self._name}_{column}")
                connection.execute(
                    sql.SQL("CREATE INDEX IF NOT EXISTS {} ON {} ({})").format(
                        index, self._table, sql.Identifier(column)
                    )
                )

    def _changed(self, query: sql.Composed, params: tuple[object, ...]) -> bool:
        """Run a write that notifies of each row it changed; whether it changed one."""
        with self._pool.lent() as connection:
            return connection.execute(query, params).fetchone() is not None

    def _read(self, query: sql.Composed, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        """Run a read; once more on a fresh connection when the first had broken (a server restarted, a session
        ended): a read may be repeated, a write may not, since it may have been committed before the link broke."""
        for attempt in range(2):
            with self._pool.lent() as connection:
                try:
                    return connection.execute(query, params).fetchall()
                except psycopg.OperationalError:
                    if attempt or not connection.broken:
                        raise
        raise AssertionError("unreachable: the second attempt returns or raises")

    # ------------------------------------------------------------ the store

    def add(self, stored: StoredTable) -> None:
        """Keep a new table; :class:`~sniff_rules.web.store.StoreConflictError` when its id is already kept."""
        stored = _checked(stored)
        query = self._sql(
            "WITH added AS (INSERT INTO {table} (table_id, document, version, creator, touched)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (table_id) DO NOTHING RETURNING table_id, version)"
            " SELECT pg_notify(%s, table_id || ' ' || version) FROM added"
        )
        params = (stored.table_id, stored.document, stored.version, stored.creator, stored.touched, self._name)
        if not self._changed(query, params):
            raise StoreConflictError(STORE_RULE, f"a table with id {stored.table_id!r:.60} is already kept")

    def get(self, table_id: str) -> StoredTable | None:
        """The table kept under ``table_id``, or None."""
        _text(table_id, "a table id", MAX_ID_CHARS)
        rows = self._read(
            self._sql("SELECT table_id, document, version, creator, touched FROM {table} WHERE table_id = %s"),
            (table_id,),
        )
        if not rows:
            return None
        found, document, version, creator, touched = rows[0]
        return StoredTable(found, document, version, creator, touched)

    def replace(self, stored: StoredTable, expected_version: int) -> bool:
        """Write ``stored`` only when the kept version is ``expected_version``, in one statement; False when stale
        or gone, with nothing written."""
        stored = _checked(stored)
        _version(expected_version, "the expected version")
        query = self._sql(
            "WITH replaced AS (UPDATE {table} SET document = %s, version = %s, creator = %s, touched = %s,"
            " changed_at = clock_timestamp() WHERE table_id = %s AND version = %s RETURNING table_id, version)"
            " SELECT pg_notify(%s, table_id || ' ' || version) FROM replaced"
        )
        params = (
            stored.document,
            stored.version,
            stored.creator,
            stored.touched,
            stored.table_id,
            expected_version,
            self._name,
        )
        return self._changed(query, params)

    def remove(self, table_id: str) -> None:
        """Forget the table; no error, and no notice, when it is already gone."""
        _text(table_id, "a table id", MAX_ID_CHARS)
        query = self._sql(
            "WITH removed AS (DELETE FROM {table} WHERE table_id = %s RETURNING table_id)"
            " SELECT pg_notify(%s, table_id || ' ' || %s) FROM removed"
        )
        self._changed(query, (table_id, self._name, REMOVED))

    def count(self, creator: str | None = None) -> int:
        """How many tables are kept: all, or those of one creator."""
        if creator is None:
            rows = self._read(self._sql("SELECT count(*) FROM {table}"), ())
        else:
            _text(creator, "a creator", MAX_CREATOR_CHARS)
            rows = self._read(self._sql("SELECT count(*) FROM {table} WHERE creator = %s"), (creator,))
        return int(rows[0][0])

    def idle(self, before: float, limit: int) -> list[str]:
        """The ids of tables with ``touched < before``, at most ``limit``, the longest idle first."""
        if type(before) not in (int, float) or math.isnan(before):
            raise InvalidStateError(STORE_RULE, f"before is a number of seconds, got {before!r:.40}")
        if type(limit) is not int or limit < 0:
            raise InvalidStateError(STORE_RULE, f"limit is an int from 0, got {limit!r:.40}")
        rows = self._read(
            self._sql("SELECT table_id FROM {table} WHERE touched < %s ORDER BY touched, table_id LIMIT %s"),
            (float(before), limit),
        )
        return [row[0] for row in rows]

    # ------------------------------------------------------------ notices

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(table_id, version)`` after every change by any process sharing the store.

        The first subscription starts the listener thread and returns once it
        listens, so no change made after it returns is missed; a database it
        cannot reach raises here, as a statement would.
        """
        if not callable(listener):
            raise InvalidStateError(STORE_RULE, f"a listener is callable, got {listener!r:.60}")
        with self._lock:
            if self._stopping.is_set():
                raise InvalidStateError(STORE_RULE, "the store is closed")
            self._listeners.append(listener)
            if self._thread is None:
                connection, since = self._listening()
                self._thread = threading.Thread(
                    target=self._listen, args=(connection, since), name=f"{self._name} listener", daemon=True
                )
                self._thread.start()

    def _tell(self, table_id: str, version: int) -> None:
        with self._lock:
            listeners = tuple(self._listeners)
        for listener in listeners:
            try:
                listener(table_id, version)
            except Exception:
                # One subscriber's failure must stop neither the others hearing nor the listener thread.
                _log.exception("a table store listener failed on %r version %d", table_id, version)

    def _listening(self) -> tuple[Connection, datetime.datetime]:
        """A connection listening on the channel, and the database's time once it listens."""
        connection = self._connect(f"{APPLICATION_NAME} listener")
        try:
            connection.execute(sql.SQL("LISTEN {}").format(self._table))
            return connection, self._now(connection)
        except BaseException:
            connection.close()
            raise

    @staticmethod
    def _now(connection: Connection) -> datetime.datetime:
        row = connection.execute("SELECT clock_timestamp()").fetchone()
        assert row is not None
        moment: datetime.datetime = row[0]
        return moment

    def _listen(self, connection: Connection | None, heard_until: datetime.datetime) -> None:
        """The listener thread: hear notices until closed; reconnect, with a backoff, when the connection drops.

        ``heard_until`` is the database's time up to which every change has
        been told; after a reconnection the tables changed since then are
        told, and the time moves on to when listening began again.
        """
        backoff = 0.1
        while not self._stopping.is_set():
            try:
                if connection is None:
                    connection, listening_since = self._listening()
                    self._catch_up(connection, heard_until)
                    heard_until = listening_since
                    backoff = 0.1
                beat = time.monotonic()
                while not self._stopping.is_set():
                    for notice in connection.notifies(timeout=_POLL_SECONDS):
                        self._heard(notice.payload)
                    if time.monotonic() - beat >= _HEARTBEAT_SECONDS:
                        heard_until = self._now(connection)
                        beat = time.monotonic()
            except Exception as error:
                # Whatever went wrong, the thread lives on: a dead listener would leave every process deaf.
                if connection is not None:
                    connection.close()
                    connection = None
                if self._stopping.is_set():
                    break
                _log.warning(
                    "the table store's listening connection failed (%s); reconnecting",
                    error,
                    exc_info=not isinstance(error, psycopg.Error),
                )
                self._stopping.wait(backoff)
                backoff = min(backoff * 2, _MAX_BACKOFF_SECONDS)
        if connection is not None:
            connection.close()

    def _heard(self, payload: str) -> None:
        table_id, _, version = payload.rpartition(" ")
        if not table_id or not _VERSION_TEXT.fullmatch(version) or len(payload) > MAX_ID_CHARS + 24:
            _log.warning("a notice on the table store's channel is not 'table_id version': %r", payload[:80])
            return
        self._tell(table_id, int(version))

    def _catch_up(self, connection: Connection, since: datetime.datetime) -> None:
        query = self._sql(
            "SELECT table_id, version FROM {table} WHERE changed_at >= %s ORDER BY changed_at DESC LIMIT %s"
        )
        rows = connection.execute(query, (since - _CATCH_UP_MARGIN, CATCH_UP_LIMIT)).fetchall()
        for table_id, version in reversed(rows):
            self._tell(table_id, version)

    def close(self) -> None:
        """Stop the listener thread (within a fraction of a second) and close every connection; idempotent."""
        with self._lock:
            self._stopping.set()
            thread, self._thread = self._thread, None
            self._listeners.clear()
        # A listener may close the store from the listener thread itself, which cannot wait for its own end.
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=_POLL_SECONDS * 10 + _MAX_BACKOFF_SECONDS)
        self._pool.close()
