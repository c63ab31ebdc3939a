"""The table store contract (sniff_rules.web.store.TableStore): the same tests over every store.

A store is tested by adding its factory to :data:`STORE_FACTORIES`: given a
folder for its files, a factory returns an opener, and each call of the
opener opens another handle on the same storage (another process's view of
it, where the store is shared between processes). Every test here runs once
per factory.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

import pytest

from postgres_support import shared_server
from sniff_rules.formats.table_json import table_to_json
from sniff_rules.play.table import Table
from sniff_rules.rules import Rules
from sniff_rules.web.postgres_store import PostgresStore
from sniff_rules.web.store import (
    REMOVED,
    MemoryStore,
    SQLiteStore,
    StoreConflictError,
    StoredTable,
    TableStore,
    new_table_id,
)

StoreOpener = Callable[[], TableStore]
"""Opens another handle on one store's storage."""

StoreFactory = Callable[[Path], StoreOpener]
"""Given a folder for its files, the opener of a fresh store."""


def memory_factory(folder: Path) -> StoreOpener:
    """A memory store: every handle is the one store, since it lives in one process."""
    store = MemoryStore()
    return lambda: store


def sqlite_factory(folder: Path) -> StoreOpener:
    """An SQLite store in the folder: each handle is a connection of its own, as another process's would be."""
    return lambda: SQLiteStore(folder / "tables.sqlite3")


def postgres_factory(folder: Path) -> StoreOpener:
    """A PostgreSQL store on a fresh database of the tests' real server: each handle has connections of its own."""
    dsn = shared_server().new_database()
    return lambda: PostgresStore(dsn)


STORE_FACTORIES: Final[list[tuple[str, StoreFactory]]] = [
    ("memory", memory_factory),
    ("sqlite", sqlite_factory),
    ("postgres", postgres_factory),
]
"""Every store the contract is run over; a new store adds its factory here."""

WAIT_SECONDS: Final = 10.0
"""How long a test waits for a change to reach another handle: far beyond any store's poll, so it cannot flake."""


@pytest.fixture(params=[factory for _, factory in STORE_FACTORIES], ids=[name for name, _ in STORE_FACTORIES])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreOpener]:
    """The opener of a fresh store of each kind; every handle it opened is closed after the test."""
    factory: StoreFactory = request.param
    opener = factory(tmp_path)
    opened: list[TableStore] = []

    def open_one() -> TableStore:
        store = opener()
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: StoreOpener) -> TableStore:
    """One handle on a fresh store."""
    return open_store()


def stored(table_id: str = "", version: int = 1, creator: str = "127.0.0.1", touched: float = 100.0) -> StoredTable:
    """A stored table with a real table document, under ``table_id`` (a fresh id when empty)."""
    table = Table.new(Rules.standard(2), ("person", "greedy"), ("token-of-seat-0-abcdef",), seed=3, bot_seed=4)
    return StoredTable(table_id or new_table_id(), table_to_json(table), version, creator, touched)


def wait_for(condition: Callable[[], bool]) -> bool:
    """Whether ``condition`` holds within :data:`WAIT_SECONDS`, checked every few milliseconds."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_table_added_is_read_back_whole(store: TableStore) -> None:
    """What add() keeps, get() returns field for field, the document byte for byte."""
    table = stored(version=3, creator="10.0.0.7", touched=1234.5)
    store.add(table)
    assert table == store.get(table.table_id)


def test_an_unknown_id_reads_as_none(store: TableStore) -> None:
    """get() of an id never added is None, not an error."""
    assert None is store.get(new_table_id())


def test_adding_a_held_id_is_refused_and_changes_nothing(store: TableStore) -> None:
    """add() of an id the store holds raises StoreConflictError (FORMAT-3); the held table is kept."""
    first = stored(version=1)
    store.add(first)
    with pytest.raises(StoreConflictError) as refusal:
        store.add(stored(first.table_id, version=7, creator="someone else"))
    assert "FORMAT-3" == refusal.value.rule
    assert first == store.get(first.table_id)


def test_replace_writes_only_on_the_expected_version(store: TableStore) -> None:
    """replace() is a compare-and-set: it writes on the held version, and refuses a stale one with nothing changed."""
    first = stored(version=1)
    store.add(first)
    second = stored(first.table_id, version=2, touched=200.0)
    assert True is store.replace(second, expected_version=1)
    assert second == store.get(first.table_id)
    assert False is store.replace(stored(first.table_id, version=3), expected_version=1)
    assert second == store.get(first.table_id)


def test_replace_of_a_removed_table_is_false(store: TableStore) -> None:
    """replace() of a table gone (or never added) writes nothing and says False."""
    table = stored()
    assert False is store.replace(table, expected_version=1)
    assert None is store.get(table.table_id)


def test_two_writers_on_one_version_one_wins(open_store: StoreOpener) -> None:
    """Two handles replacing from the same version at the same instant: exactly one succeeds."""
    first, second = open_store(), open_store()
    table = stored(version=1)
    first.add(table)
    start = threading.Barrier(2)
    results: list[bool] = []

    def write(handle: TableStore, creator: str) -> None:
        start.wait()
        results.append(handle.replace(stored(table.table_id, version=2, creator=creator), expected_version=1))

    threads = [threading.Thread(target=write, args=(handle, name)) for handle, name in ((first, "a"), (second, "b"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [False, True] == sorted(results)
    held = first.get(table.table_id)
    assert held is not None
    assert 2 == held.version


def test_remove_forgets_and_is_quiet_when_gone(store: TableStore) -> None:
    """remove() forgets a table; removing it again, or an id never held, raises nothing."""
    table = stored()
    store.add(table)
    store.remove(table.table_id)
    store.remove(table.table_id)
    store.remove(new_table_id())
    assert None is store.get(table.table_id)


def test_count_counts_all_tables_or_one_creators(store: TableStore) -> None:
    """count() is every table held, count(creator) those that creator made."""
    for creator in ("a", "a", "b"):
        store.add(stored(creator=creator))
    assert (3, 2, 1, 0) == (store.count(), store.count("a"), store.count("b"), store.count("c"))


def test_idle_lists_the_longest_idle_first_up_to_the_limit(store: TableStore) -> None:
    """idle(before, limit) lists ids touched before ``before``, oldest first, at most ``limit``."""
    tables = [stored(touched=touched) for touched in (50.0, 10.0, 30.0, 90.0)]
    for table in tables:
        store.add(table)
    by_age = [tables[1].table_id, tables[2].table_id, tables[0].table_id]
    assert by_age == store.idle(60.0, 10)
    assert by_age[:2] == store.idle(60.0, 2)
    assert [] == store.idle(10.0, 10)
    assert [] == store.idle(1000.0, 0)


def test_replace_moves_the_touched_time(store: TableStore) -> None:
    """A replace with a later touched time takes the table off the idle list."""
    table = stored(touched=10.0)
    store.add(table)
    store.replace(stored(table.table_id, version=2, touched=500.0), expected_version=1)
    assert [] == store.idle(100.0, 10)


def test_listeners_hear_every_change_in_order(store: TableStore) -> None:
    """A listener is told (id, version) after each add and replace, and (id, -1) after a remove."""
    heard: list[tuple[str, int]] = []
    store.subscribe(lambda table_id, version: heard.append((table_id, version)))
    table = stored(version=1)
    store.add(table)
    store.replace(stored(table.table_id, version=2), expected_version=1)
    store.replace(stored(table.table_id, version=3), expected_version=1)
    store.remove(table.table_id)
    expected = [(table.table_id, 1), (table.table_id, 2), (table.table_id, REMOVED)]
    assert wait_for(lambda: len(heard) >= len(expected))
    assert expected == heard


def test_a_refused_write_tells_no_listener(store: TableStore) -> None:
    """A conflicting add, a stale replace and the remove of a gone table tell nothing."""
    table = stored()
    store.add(table)
    heard: list[tuple[str, int]] = []
    store.subscribe(lambda table_id, version: heard.append((table_id, version)))
    with pytest.raises(StoreConflictError):
        store.add(table)
    store.replace(stored(table.table_id, version=5), expected_version=4)
    store.remove(new_table_id())
    marker = stored()
    store.add(marker)
    assert wait_for(lambda: bool(heard))
    assert [(marker.table_id, 1)] == heard


def test_changes_made_through_another_handle_reach_the_listeners(open_store: StoreOpener) -> None:
    """Another handle on the same storage (another process, for a shared store) sees and hears every change."""
    mine, theirs = open_store(), open_store()
    heard: list[tuple[str, int]] = []
    mine.subscribe(lambda table_id, version: heard.append((table_id, version)))
    table = stored()
    theirs.add(table)
    theirs.replace(stored(table.table_id, version=2), expected_version=1)
    theirs.remove(table.table_id)
    expected = [(table.table_id, 1), (table.table_id, 2), (table.table_id, REMOVED)]
    assert wait_for(lambda: len(heard) >= len(expected))
    assert expected == heard


def test_a_listener_may_call_the_store(store: TableStore) -> None:
    """A listener that reads the store while being told does not deadlock: listeners are told outside any lock."""
    read: list[StoredTable | None] = []
    store.subscribe(lambda table_id, version: read.append(store.get(table_id)))
    table = stored()
    store.add(table)
    assert wait_for(lambda: bool(read))
    assert [table] == read


def test_a_reopened_store_keeps_its_tables(open_store: StoreOpener) -> None:
    """Closing one handle and opening another loses nothing (for the memory store, while its process lives)."""
    first = open_store()
    table = stored()
    first.add(table)
    first.close()
    assert table == open_store().get(table.table_id)


def test_a_stored_table_refuses_a_version_below_one() -> None:
    """A stored table's version is a table's: an int from 1 (FORMAT-3)."""
    with pytest.raises(ValueError, match="FORMAT-3"):
        stored(version=0)


def test_table_ids_are_fresh_and_long() -> None:
    """new_table_id() gives 43 URL-safe characters (32 random bytes), a new one each call."""
    ids = {new_table_id() for _ in range(100)}
    assert (100, {43}) == (len(ids), {len(table_id) for table_id in ids})
