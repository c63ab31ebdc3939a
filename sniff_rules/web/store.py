"""Where the server keeps its tables: one interface, :class:`TableStore`, shared by every store.

A stored table is its whole document (:mod:`sniff_rules.formats.table_json`,
every hand in it: never sent to a client) beside what the server looks it
up by: its id, its version, its creator and the time it last changed.
Writes are compare-and-set on the version, so two server processes sharing
a store never overwrite each other's move; every change is told to every
subscriber of every process sharing the store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import attrs

from sniff_rules.errors import SniffError


@attrs.frozen
class StoredTable:
    """One table as a store keeps it.

    ``table_id`` is its unguessable id (:func:`secrets.token_urlsafe`), its
    key; ``document`` the whole table as
    :func:`~sniff_rules.formats.table_json.table_to_json` writes it (it
    holds every hand: never sent to a client); ``version`` the table's own
    :attr:`~sniff_rules.play.table.Table.version`; ``creator`` the creating
    client's key (its address), for per-client bounds; ``touched`` the
    store clock's seconds at the last change, for idle expiry.
    """

    table_id: str
    document: str = attrs.field(repr=False)
    version: int
    creator: str
    touched: float


class StoreConflictError(SniffError):
    """An :meth:`TableStore.add` of an id the store already holds: ids are never reused (FORMAT-3)."""


class TableStore(Protocol):
    """What every table store does (:class:`StoredTable` values in, out and compared by version)."""

    def add(self, stored: StoredTable) -> None:
        """Keep a new table; :class:`StoreConflictError` when its id is already kept."""

    def get(self, table_id: str) -> StoredTable | None:
        """The table kept under ``table_id``, or None."""

    def replace(self, stored: StoredTable, expected_version: int) -> bool:
        """Compare-and-set: write ``stored`` only when the kept version is ``expected_version``.

        False, with nothing written, when the kept table is at another version or gone.
        """

    def remove(self, table_id: str) -> None:
        """Forget the table; no error when it is already gone."""

    def count(self, creator: str | None = None) -> int:
        """How many tables are kept: all, or those of one creator."""

    def idle(self, before: float, limit: int) -> list[str]:
        """The ids of tables with ``touched < before``, at most ``limit`` of them."""

    def subscribe(self, listener: Callable[[str, int], None]) -> None:
        """Call ``listener(table_id, version)`` after every add, replace and remove (version -1) made by any
        process sharing the store, this one included; it may be called from another thread."""

    def close(self) -> None:
        """Let go of every resource the store holds (connections, threads); the store is not used again."""
