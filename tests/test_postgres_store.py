"""The PostgreSQL table store against a real server (tests/postgres_support.py): compare-and-set, notices
between two store objects on one database (two processes' worth), bounds, reconnection and a clean close.

Waits for a notice are bounded (a queue read with a timeout that only
stops a hang); no verdict depends on how fast anything is. A notice's
absence is shown by order, not by waiting: notices on one channel arrive in
commit order, so once a later change has been heard, an earlier echo that
never came never will.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from sniff_rules.errors import InvalidStateError
from sniff_rules.formats.table_json import MAX_TABLE_CHARS
from sniff_rules.web.postgres_store import MAX_CREATOR_CHARS, MAX_ID_CHARS, PostgresStore
from sniff_rules.web.store import StoreConflictError, StoredTable, TableStore

ROOT = Path(__file__).resolve().parent.parent
HANG = 30.0  # seconds before a missing notice fails the test: a bound on a hang, never a measure
Heard = queue.Queue[tuple[str, int]]


def stored(
    table_id: str = "table-one", version: int = 1, creator: str = "127.0.0.1", touched: float = 10.0
) -> StoredTable:
    """A stored table whose document says its version, so a test can tell which write it reads."""
    return StoredTable(table_id, f'{{"version":{version}}}', version, creator, touched)


@pytest.fixture
def stores(postgres_dsn: str) -> Iterator[Callable[..., PostgresStore]]:
    """Opens stores on one fresh database (each standing for a server process); closes them all after the test."""
    opened: list[PostgresStore] = []

    def open_store(**options: object) -> PostgresStore:
        store = PostgresStore(postgres_dsn, **options)  # type: ignore[arg-type]
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        store.close()


def listen(store: PostgresStore) -> Heard:
    """A queue that receives every ``(table_id, version)`` the store's subscribers are told."""
    heard: Heard = queue.Queue()
    store.subscribe(lambda table_id, version: heard.put((table_id, version)))
    return heard


def next_heard(heard: Heard) -> tuple[str, int]:
    """The next notice, waiting for it (a bound on a hang only)."""
    return heard.get(timeout=HANG)


def heard_through(heard: Heard, last: tuple[str, int]) -> list[tuple[str, int]]:
    """Every notice up to and including ``last``."""
    told = [next_heard(heard)]
    while told[-1] != last:
        told.append(next_heard(heard))
    return told


def test_the_store_is_a_table_store(stores: Callable[..., PostgresStore]) -> None:
    """PostgresStore has every method of the TableStore protocol, so a server takes it for any other store."""
    store: TableStore = stores()
    assert [] == [name for name in vars(TableStore) if not name.startswith("_") and not hasattr(store, name)]


def test_a_table_added_reads_back_whole(stores: Callable[..., PostgresStore]) -> None:
    """add then get gives the same StoredTable, in this store and in another on the same database."""
    first, second = stores(), stores()
    first.add(stored(touched=12.5))
    assert (stored(touched=12.5), stored(touched=12.5)) == (first.get("table-one"), second.get("table-one"))
    assert None is first.get("no-such-table")


def test_adding_an_id_twice_is_refused_and_keeps_the_first(stores: Callable[..., PostgresStore]) -> None:
    """A second add of one id raises StoreConflictError (FORMAT-3), whichever process adds it; the first stays."""
    first, second = stores(), stores()
    first.add(stored(creator="a"))
    with pytest.raises(StoreConflictError) as refused:
        second.add(stored(version=5, creator="b"))
    assert ("FORMAT-3", stored(creator="a")) == (refused.value.rule, first.get("table-one"))


def test_replace_writes_only_on_the_expected_version(stores: Callable[..., PostgresStore]) -> None:
    """Compare-and-set: the expected version writes; a stale one, or a table gone, writes nothing and says False."""
    store = stores()
    store.add(stored())
    assert store.replace(stored(version=2), expected_version=1)
    assert (False, stored(version=2)) == (store.replace(stored(version=3), expected_version=1), store.get("table-one"))
    assert not store.replace(stored("never-added", version=2), expected_version=1)
    assert None is store.get("never-added")


def test_two_processes_writing_on_one_version_get_one_success(stores: Callable[..., PostgresStore]) -> None:
    """Two stores replacing from the same version at the same instant: one True, one False, the winner's write kept."""
    first, second = stores(), stores()
    first.add(stored())
    for version in range(1, 21):
        start = threading.Barrier(2)
        results: dict[str, bool] = {}

        def write(
            name: str,
            store: PostgresStore,
            version: int = version,
            start: threading.Barrier = start,
            results: dict[str, bool] = results,
        ) -> None:
            document = StoredTable("table-one", name, version + 1, "127.0.0.1", 1.0)
            start.wait(timeout=HANG)
            results[name] = store.replace(document, expected_version=version)

        threads = [threading.Thread(target=write, args=(name, store)) for name, store in (("a", first), ("b", second))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=HANG)
        winners = [name for name, won in results.items() if won]
        kept = first.get("table-one")
        assert kept is not None
        assert ([kept.document], version + 1) == (winners, kept.version)


def test_every_change_is_told_to_both_processes_once(stores: Callable[..., PostgresStore]) -> None:
    """add, replace and remove are told to both stores' subscribers, each once, in the order committed (-1: removed)."""
    first, second = stores(), stores()
    heard_first, heard_second = listen(first), listen(second)
    first.add(stored())
    second.replace(stored(version=2), expected_version=1)
    first.remove("table-one")
    # Heard last by both: a second notice of any earlier change would have come before it.
    second.add(stored("table-two"))
    told = [("table-one", 1), ("table-one", 2), ("table-one", -1), ("table-two", 1)]
    assert told == [next_heard(heard_first) for _ in told]
    assert told == [next_heard(heard_second) for _ in told]
    assert (0, 0) == (heard_first.qsize(), heard_second.qsize())


def test_a_write_that_changes_nothing_tells_nothing(stores: Callable[..., PostgresStore]) -> None:
    """A refused add, a stale replace and the removal of a table gone are not told: only real changes are."""
    first, second = stores(), stores()
    first.add(stored())
    heard = listen(second)
    with pytest.raises(StoreConflictError):
        first.add(stored())
    first.replace(stored(version=3), expected_version=2)
    first.remove("never-added")
    first.add(stored("table-two"))
    assert ("table-two", 1) == next_heard(heard)


def test_a_subscriber_that_raises_stops_no_other(stores: Callable[..., PostgresStore]) -> None:
    """A failing subscriber is logged; the write stands and the other subscribers, here and there, still hear."""
    first, second = stores(), stores()

    def broken(table_id: str, version: int) -> None:
        raise RuntimeError("a broken subscriber")

    first.subscribe(broken)
    second.subscribe(broken)
    heard_first, heard_second = listen(first), listen(second)
    first.add(stored())
    assert (("table-one", 1), ("table-one", 1)) == (next_heard(heard_first), next_heard(heard_second))
    assert stored() == second.get("table-one")


def test_removal_forgets_the_table_and_may_be_repeated(stores: Callable[..., PostgresStore]) -> None:
    """remove forgets a table for every process; removing it again is no error."""
    first, second = stores(), stores()
    first.add(stored())
    second.remove("table-one")
    second.remove("table-one")
    assert (None, 0) == (first.get("table-one"), first.count())


def test_counts_are_of_all_tables_or_one_creators(stores: Callable[..., PostgresStore]) -> None:
    """count() counts every table, count(creator) that client's alone (for per-client bounds)."""
    store = stores()
    for index, creator in enumerate(("10.0.0.1", "10.0.0.2", "10.0.0.1")):
        store.add(stored(f"table-{index}", creator=creator))
    assert (3, 2, 1, 0) == (store.count(), store.count("10.0.0.1"), store.count("10.0.0.2"), store.count("10.0.0.3"))


def test_idle_lists_the_longest_idle_first_within_the_limit(stores: Callable[..., PostgresStore]) -> None:
    """idle(before, limit): the ids touched before the time, longest idle first, never more than limit."""
    store = stores()
    for table_id, touched in (("b", 30.0), ("a", 10.0), ("c", 20.0), ("d", 40.0)):
        store.add(stored(table_id, touched=touched))
    assert (["a", "c", "b"], ["a", "c"], []) == (store.idle(40.0, 10), store.idle(40.0, 2), store.idle(10.0, 10))
    store.replace(stored("a", version=2, touched=50.0), expected_version=1)
    assert ["c", "b"] == store.idle(40.0, 10)


@pytest.mark.parametrize(
    "bad",
    [
        StoredTable("x" * (MAX_ID_CHARS + 1), "{}", 1, "c", 1.0),
        StoredTable("line\nbreak", "{}", 1, "c", 1.0),
        StoredTable("table", "nul\x00", 1, "c", 1.0),
        StoredTable("table", "x" * (MAX_TABLE_CHARS + 1), 1, "c", 1.0),
        StoredTable("table", "{}", 2**63, "c", 1.0),
        StoredTable("table", "{}", 1, "", 1.0),
        StoredTable("table", "{}", 1, "c" * (MAX_CREATOR_CHARS + 1), 1.0),
        StoredTable("table", "{}", 1, "c", float("nan")),
        StoredTable("table", "{}", 1, "c", float("inf")),
        ("table", "{}", 1, "c", 1.0),
    ],
)
def test_bad_input_is_refused_with_nothing_written(stores: Callable[..., PostgresStore], bad: object) -> None:
    """A malformed stored table is refused (FORMAT-3) by add and replace; nothing is written, nothing told."""
    store = stores()
    store.add(stored("table"))
    writes: tuple[Callable[[object], object], ...] = (
        store.add,  # type: ignore[assignment]
        lambda value: store.replace(value, expected_version=1),  # type: ignore[arg-type]
    )
    for write in writes:
        with pytest.raises(InvalidStateError) as refused:
            write(bad)
        assert "FORMAT-3" == refused.value.rule
    assert (1, stored("table")) == (store.count(), store.get("table"))


def test_the_longest_id_travels_in_a_notice(stores: Callable[..., PostgresStore]) -> None:
    """An id of MAX_ID_CHARS characters is kept and told to the other process whole (the payload stays bounded)."""
    first, second = stores(), stores()
    heard = listen(second)
    first.add(stored("x" * MAX_ID_CHARS))
    assert ("x" * MAX_ID_CHARS, 1) == next_heard(heard)


def test_a_store_uses_no_more_connections_than_its_bound(
    stores: Callable[..., PostgresStore], postgres_dsn: str
) -> None:
    """Sixteen writers held by a row lock through a store of two connections: two connections wait on the lock,
    the other writers wait for one of them, and the store has one more connection, to listen."""
    store = stores(connections=2, wait=HANG)
    listen(store)
    store.add(stored())
    won: list[bool] = []
    with psycopg.connect(postgres_dsn) as locker, psycopg.connect(postgres_dsn, autocommit=True) as admin:
        locker.execute("SELECT 1 FROM sniff_tables WHERE table_id = 'table-one' FOR UPDATE")
        writers = [
            threading.Thread(target=lambda: won.append(store.replace(stored(version=2), expected_version=1)))
            for _ in range(16)
        ]
        for writer in writers:
            writer.start()
        for _ in range(int(HANG * 10)):
            waiting = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND application_name = 'sniff-rules' AND wait_event_type = 'Lock'"
            ).fetchone()
            if waiting is not None and waiting[0] >= 2:
                break
            threading.Event().wait(0.1)
        rows = admin.execute(
            "SELECT application_name, count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND application_name LIKE 'sniff-rules%%' GROUP BY application_name ORDER BY application_name"
        ).fetchall()
        locker.rollback()
    for writer in writers:
        writer.join(timeout=HANG)
    assert [("sniff-rules", 2), ("sniff-rules listener", 1)] == rows
    assert [True] + [False] * 15 == sorted(won, reverse=True)


def test_a_caller_waits_a_bounded_time_for_a_connection(
    stores: Callable[..., PostgresStore], postgres_dsn: str
) -> None:
    """With its one connection held by a write waiting on a lock, a read gives up after `wait` with TimeoutError."""
    store = stores(connections=1, wait=0.2)
    store.add(stored())
    with psycopg.connect(postgres_dsn) as locker:
        locker.execute("SELECT 1 FROM sniff_tables WHERE table_id = 'table-one' FOR UPDATE")
        writer = threading.Thread(target=lambda: store.replace(stored(version=2), expected_version=1))
        writer.start()
        with psycopg.connect(postgres_dsn, autocommit=True) as admin:
            # The writer holds the store's one connection once its UPDATE waits on the row lock.
            for _ in range(int(HANG * 10)):
                waiting = admin.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND application_name = 'sniff-rules'"
                    " AND wait_event_type = 'Lock'"
                ).fetchone()
                if waiting == (1,):
                    break
                writer.join(timeout=0.1)
        with pytest.raises(TimeoutError):
            store.get("table-one")
        locker.rollback()
    writer.join(timeout=HANG)
    assert stored(version=2) == store.get("table-one")


def test_a_dropped_listening_connection_is_reconnected_and_misses_nothing(
    stores: Callable[..., PostgresStore], postgres_dsn: str
) -> None:
    """The server ends the listener's session; a change made while it is away is still told, and later ones too."""
    first, second = stores(), stores()
    heard = listen(first)
    with psycopg.connect(postgres_dsn, autocommit=True) as admin:
        ended = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
            " AND application_name = 'sniff-rules listener'"
        ).fetchall()
    assert [(True,)] == ended
    second.add(stored())
    second.replace(stored(version=2), expected_version=1)
    # The catch-up tells a table's current version (a notice means "read it again"), so version 1 may be told,
    # or not, or twice; version 2 is told in the end, and nothing else.
    told = heard_through(heard, ("table-one", 2))
    assert set() == set(told) - {("table-one", 1), ("table-one", 2)}
    second.remove("table-one")
    assert ("table-one", -1) == heard_through(heard, ("table-one", -1))[-1]


def test_after_the_server_ends_the_stores_sessions_reads_retry_and_writes_fail_once(
    stores: Callable[..., PostgresStore], postgres_dsn: str
) -> None:
    """A read on a connection the server ended is retried on a fresh one; a write raises (it may have been
    committed, so it is never repeated) and the next write gets a fresh connection."""

    def end_the_stores_sessions() -> None:
        with psycopg.connect(postgres_dsn, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                " AND application_name = 'sniff-rules'"
            )

    store = stores(connections=1)
    store.add(stored())
    end_the_stores_sessions()
    assert stored() == store.get("table-one")
    end_the_stores_sessions()
    with pytest.raises(psycopg.OperationalError):
        store.replace(stored(version=2), expected_version=1)
    assert store.replace(stored(version=2), expected_version=1)


def test_a_statement_waiting_past_its_timeout_is_cancelled(
    stores: Callable[..., PostgresStore], postgres_dsn: str
) -> None:
    """A write held by another session's lock past statement_timeout is cancelled, writes nothing, and the
    store's next write goes through once the lock is gone."""
    store = stores(statement_timeout=0.2)
    store.add(stored())
    with psycopg.connect(postgres_dsn) as locker:
        locker.execute("SELECT 1 FROM sniff_tables WHERE table_id = 'table-one' FOR UPDATE")
        with pytest.raises(psycopg.errors.QueryCanceled):
            store.replace(stored(version=2), expected_version=1)
        locker.rollback()
    assert stored() == store.get("table-one")
    assert store.replace(stored(version=2), expected_version=1)


def test_close_stops_the_listener_and_is_final(stores: Callable[..., PostgresStore], postgres_dsn: str) -> None:
    """close() ends the listener thread and every connection, may be repeated, and the store refuses use after."""
    store = stores()
    listen(store)
    store.close()
    store.close()
    assert [] == [thread.name for thread in threading.enumerate() if thread.name.startswith("sniff_tables listener")]
    with psycopg.connect(postgres_dsn, autocommit=True) as admin:
        # A session ends on the server a moment after its client closes the socket: looked at until it has.
        for _ in range(int(HANG * 10)):
            left = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND application_name LIKE 'sniff-rules%%'"
            ).fetchone()
            if left == (0,):
                break
            threading.Event().wait(0.1)
    assert (0,) == left
    with pytest.raises(InvalidStateError):
        store.get("table-one")
    with pytest.raises(InvalidStateError):
        store.subscribe(print)


def test_stores_opened_at_once_on_a_fresh_database_all_start(postgres_dsn: str) -> None:
    """Eight processes' stores created at the same instant on an empty database: the schema is made once, no error."""
    start = threading.Barrier(8)
    opened: list[PostgresStore] = []
    failed: list[BaseException] = []

    def open_store() -> None:
        start.wait(timeout=HANG)
        try:
            opened.append(PostgresStore(postgres_dsn))
        except BaseException as error:
            failed.append(error)

    threads = [threading.Thread(target=open_store) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=HANG)
    for store in opened:
        store.close()
    assert ([], 8) == (failed, len(opened))


def test_two_names_keep_two_sets_of_tables_in_one_database(stores: Callable[..., PostgresStore]) -> None:
    """Stores of different names share a database but neither tables nor notices."""
    first, other = stores(), stores(name="other_tables")
    heard = listen(other)
    first.add(stored())
    other.add(stored("its-own"))
    assert ((1, 1), None, ("its-own", 1)) == ((first.count(), other.count()), other.get("table-one"), next_heard(heard))


def test_the_store_never_shows_its_dsn(stores: Callable[..., PostgresStore]) -> None:
    """The DSN may carry a password: the store's repr shows its name alone."""
    assert "PostgresStore(name='sniff_tables')" == repr(stores())


def test_without_the_extra_the_error_names_it() -> None:
    """Without psycopg, importing the store raises ModuleNotFoundError naming the postgres extra."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "import sys; sys.modules['psycopg'] = None\n"
                "try:\n    import sniff_rules.web.postgres_store\n"
                "except ModuleNotFoundError as error:\n    print(error)"
            ),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "pip install 'sniff-rules[postgres]'" in done.stdout, done.stderr


def test_a_listener_may_close_the_store(stores: Callable[..., PostgresStore]) -> None:
    """A listener closing the store from the listener thread ends that thread instead of waiting on itself."""
    first, second = stores(), stores()
    closed = threading.Event()

    def close_on_notice(table_id: str, version: int) -> None:
        first.close()
        closed.set()

    first.subscribe(close_on_notice)
    second.add(stored())
    assert closed.wait(timeout=HANG)
    with pytest.raises(InvalidStateError):
        first.get("table-one")


def test_a_postgresql_uri_names_the_database_as_well(postgres_dsn: str) -> None:
    """The DSN may be a postgresql:// URI (here with the socket folder as its host, quoted), as libpq reads it."""
    settings = dict(part.split("=", 1) for part in postgres_dsn.split())
    host = urllib.parse.quote(settings["host"], safe="")
    uri = f"postgresql://{settings['user']}@{host}:{settings['port']}/{settings['dbname']}"
    store = PostgresStore(uri)
    try:
        store.add(stored())
        assert 1 == store.count()
    finally:
        store.close()


def test_a_notice_not_of_a_table_is_ignored(stores: Callable[..., PostgresStore], postgres_dsn: str) -> None:
    """Another program's NOTIFY on the channel, not 'table_id version' or too long, reaches no subscriber."""
    store = stores()
    heard = listen(store)
    with psycopg.connect(postgres_dsn, autocommit=True) as other:
        for payload in ("", "no-version", "table 1.5", "table --5", "table 0", "table 1e3", " 7", "x" * 200 + " 1"):
            other.execute("SELECT pg_notify('sniff_tables', %s)", (payload,))
    store.add(stored())
    assert ("table-one", 1) == next_heard(heard)
