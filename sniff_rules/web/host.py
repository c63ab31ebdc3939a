"""The server's tables: kept in a :class:`~sniff_rules.web.store.TableStore`, changed by compare-and-set, driven on.

:class:`TableHost` is the match loop of ``sniff-rules serve`` around the
library's :class:`~sniff_rules.play.table.Table`, without the web
framework. Every table lives in the store, whole (:mod:`sniff_rules.formats.table_json`);
a request loads it, asks the table for the change (a move, the next round,
a join, a leave) and writes it back only if nobody wrote first (the store's
``replace`` on the version it loaded), so two requests on one version get
one success and one refusal (TURN-2), whichever process serves them. The
host moves the bots when their turn comes (in a worker thread: a search
bot thinks), deals on after :data:`DEAL_ON_SECONDS` at a round's end if no
seat asked first, forgets tables idle for :data:`IDLE_SECONDS`, and wakes
the WebSockets of a table on every change the store reports, from this
process or another. ``specs/hosting.md`` states what it promises (HOST-1..7; the bot processes in
:mod:`sniff_rules.web.bot_seats`).

No visitor can end another's table: creation is bounded per client and in
total (:data:`MAX_TABLES_PER_CLIENT`, :data:`MAX_TABLES`) with a refusal,
never by dropping a table; a table ends when every person seat has left
or when it is idle too long.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Final

from sniff_rules.errors import SniffError
from sniff_rules.formats.table_json import table_from_json, table_to_json
from sniff_rules.play.registry import BotOffer
from sniff_rules.play.table import PERSON, Table
from sniff_rules.rules import Rules
from sniff_rules.state import Phase
from sniff_rules.web.bot_seats import TableBots
from sniff_rules.web.seats import WebError, check_kinds, refusal_of
from sniff_rules.web.store import REMOVED, StoredTable, TableStore, new_table_id

IDLE_SECONDS: Final = 24 * 3600.0
"""A table unchanged this long is forgotten: a day without a move or a join is a match abandoned."""

SWEEP_SECONDS: Final = 60.0
"""How often the idle tables are looked for; a table lives at most this much past its idle time."""

SWEEP_BATCH: Final = 500
"""The most idle tables forgotten in one sweep, so one sweep never holds the event loop long."""

MAX_TABLES: Final = 10_000
"""The most tables one server keeps at once; a creation past it is refused (503), no table is dropped. A table in
memory takes tens of KiB (benchmarks/README.md), so the memory store stays well within a GiB."""

MAX_TABLES_PER_CLIENT: Final = 20
"""The most tables one client (one address) keeps at once; past it, a creation is refused (429)."""

DEAL_ON_SECONDS: Final = 60.0
"""At a round's end the table waits for a seat to ask for the next round; after this long the server deals on,
so one absent person cannot hold the others at the pause."""

TABLE_CACHE: Final = 256
"""Tables kept read (replayed) in this process, so a request does not replay the record; a cache only: the store
holds every table, and one dropped from here is read again."""

SeedSource = Callable[[], int]
"""Gives a fresh seed for a match or its bots."""


def fresh_seed() -> int:
    """A random seed below 2**53, so the match record's JSON carries it exactly (a JavaScript reader would round)."""
    return secrets.randbits(53)


def no_table() -> WebError:
    """The refusal of a request naming no table held (never made, ended, or expired)."""
    return WebError(
        404, "no-table", "HOST-1: no such table (it may have ended or expired): start a new match", "HOST-1"
    )


class TableHost:
    """The server's tables in ``store`` (see the module's docstring); asyncio tasks move bots and deal on.

    ``clock`` gives the store's seconds (wall time, since the store outlives
    the process); ``seeds`` each match's and its bots' seeds; ``bot_delay``
    the seconds a bot waits before its move, so a person can follow the play;
    ``bots`` the operator's bot processes (:class:`~sniff_rules.web.bot_seats.TableBots`),
    none by default.
    """

    def __init__(
        self,
        store: TableStore,
        *,
        clock: Callable[[], float] = time.time,
        seeds: SeedSource = fresh_seed,
        bot_delay: float = 0.6,
        deal_on_seconds: float = DEAL_ON_SECONDS,
        idle_seconds: float = IDLE_SECONDS,
        max_tables: int = MAX_TABLES,
        max_tables_per_client: int = MAX_TABLES_PER_CLIENT,
        bots: TableBots | None = None,
    ) -> None:
        self.store: Final = store
        self.clock: Final = clock
        self.seeds: Final = seeds
        self.bot_delay: Final = bot_delay
        self.deal_on_seconds: Final = deal_on_seconds
        self.idle_seconds: Final = idle_seconds
        self.max_tables: Final = max_tables
        self.max_tables_per_client: Final = max_tables_per_client
        self.bots: Final = TableBots(BotOffer()) if bots is None else bots
        self._cache: OrderedDict[str, Table] = OrderedDict()
        self._tasks: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._stopped = False

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called: the sockets waiting here close."""
        return self._stopped

    # ------------------------------------------------------------ starting and stopping

    async def start(self) -> None:
        """Listen to the store and start the sweeper, on the running event loop."""
        self._loop = asyncio.get_running_loop()
        self.store.subscribe(self._heard)
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def stop(self) -> None:
        """Stop every task this host runs and end every bot process; the tables stay in the store."""
        self._stopped = True
        tasks = [task for task in (self._sweeper, *self._tasks.values()) if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        # In a worker thread: a seat's process is reaped once its request under way has ended.
        await asyncio.to_thread(self.bots.close_all)
        for events in self._watchers.values():
            for event in events:
                event.set()
        self._loop = None

    # ------------------------------------------------------------ reading and writing tables

    def load(self, table_id: str) -> Table:
        """The table under ``table_id`` as the store holds it now (404 when there is none)."""
        stored = self.store.get(table_id) if table_id else None
        if stored is None:
            self._cache.pop(table_id, None)
            raise no_table()
        cached = self._cache.get(table_id)
        if cached is not None and cached.version == stored.version:
            self._cache.move_to_end(table_id)
            return cached
        table = table_from_json(stored.document)
        self._remember(table_id, table)
        return table

    def _remember(self, table_id: str, table: Table) -> None:
        self._cache[table_id] = table
        self._cache.move_to_end(table_id)
        while len(self._cache) > TABLE_CACHE:
            self._cache.popitem(last=False)

    def _commit(self, table_id: str, old: Table, new: Table) -> bool:
        """Write ``new`` over ``old`` if the store still holds ``old``'s version; whether it was written."""
        stored = self.store.get(table_id)
        if stored is None:
            return False
        document = table_to_json(new)
        written = self.store.replace(
            StoredTable(table_id, document, new.version, stored.creator, self.clock()), old.version
        )
        if written:
            self._remember(table_id, new)
            if new.stopped is not None or new.phase is Phase.MATCH_OVER:
                self._end_bots(table_id)
            self.drive(table_id, new)
        return written

    def create(self, kinds: tuple[str, ...], creator: str) -> tuple[str, Table, tuple[tuple[int, str], ...]]:
        """A new table seating ``kinds``, made by ``creator``: its id, the table, and (seat, token) for each person.

        The creator takes the first person seat (joined). Refused when the
        client holds :data:`MAX_TABLES_PER_CLIENT` tables (429) or the server
        :data:`MAX_TABLES` (503): no table is ever dropped to make room.
        """
        checked = check_kinds(kinds, self.bots.offer)
        if self.store.count(creator) >= self.max_tables_per_client:
            raise WebError(
                429,
                "too-many-tables",
                f"HOST-2: one client keeps at most {self.max_tables_per_client} tables: finish or leave one first",
                "HOST-2",
            )
        if self.store.count() >= self.max_tables:
            raise WebError(
                503,
                "server-full",
                f"HOST-2: this server keeps at most {self.max_tables} tables: try again later",
                "HOST-2",
            )
        table_id = new_table_id()
        if not self.bots.reserve(table_id, checked):
            raise WebError(
                503,
                "server-full",
                f"HOST-7: this server runs at most {self.bots.limit} bot processes at once: seat other bots, "
                "or try again later",
                "HOST-7",
            )
        people = [seat for seat, kind in enumerate(checked) if kind == PERSON]
        tokens = tuple(secrets.token_urlsafe(32) for _ in people)
        table = Table.new(Rules.standard(len(checked)), checked, tokens, seed=self.seeds(), bot_seed=self.seeds())
        table = table.join(tokens[0])
        self.store.add(StoredTable(table_id, table_to_json(table), table.version, creator, self.clock()))
        self._remember(table_id, table)
        self.drive(table_id, table)
        return table_id, table, tuple(zip(people, tokens, strict=True))

    def for_seat(self, table_id: str, token: str) -> Table:
        """The table, if ``token`` is one of its seats' (403 otherwise, 404 for no table); driven on if it waits."""
        table = self.load(table_id)
        try:
            table.seat_of(token)
        except SniffError as error:
            raise refusal_of(error) from None
        self.drive(table_id, table)
        return table

    def change(self, table_id: str, token: str, version: int | None, act: Callable[[Table], Table]) -> Table:
        """The table after ``act`` made the change the seat of ``token`` asked for on ``version``; written back.

        Refused with nothing changed: no table (404), a token of no seat (403),
        a version not the table's (409, TURN-2), what ``act`` refuses, and a
        write that another came before (409, TURN-2).
        """
        table = self.for_seat(table_id, token)
        if version is not None and version != table.version:
            raise WebError(
                409,
                "stale",
                f"TURN-2: the request was made on version {version}, the table is at version {table.version}: reload",
                "TURN-2",
            )
        try:
            new = act(table)
        except SniffError as error:
            raise refusal_of(error) from None
        if new is table:
            return table
        if not self._commit(table_id, table, new):
            raise WebError(409, "stale", "TURN-2: another change came first: reload", "TURN-2")
        return new

    def leave(self, table_id: str, token: str) -> bool:
        """The seat of ``token`` leaves; the table ends when no person seat is left joined. Whether it ended."""
        table = self.change(table_id, token, None, lambda table: table.leave(token))
        if any(seat.is_person and seat.joined for seat in table.seats):
            return False
        self._forget(table_id)
        return True

    def _forget(self, table_id: str) -> None:
        """The table ended: out of the store and the cache, its bot processes ended."""
        self.store.remove(table_id)
        self._cache.pop(table_id, None)
        self._end_bots(table_id)

    def _end_bots(self, table_id: str) -> None:
        """End the table's bot processes, in a worker thread when a loop runs (asking one to quit takes a while)."""
        if self._loop is None:
            self.bots.end(table_id)
        else:
            self._start(table_id, "end-bots", asyncio.to_thread(self.bots.end, table_id))

    # ------------------------------------------------------------ driving tables on

    def drive(self, table_id: str, table: Table) -> None:
        """Start what the table waits for, unless started: the bot to move, or the timer at a round's end."""
        if self._loop is None:
            return
        if table.bot_to_move:
            self._start(table_id, "bots", self._run_bots(table_id))
        elif table.phase is Phase.ROUND_OVER:
            self._start(table_id, "deal-on", self._deal_on_later(table_id, table.state.round_number))

    def _start(self, table_id: str, kind: str, work: Coroutine[object, object, None]) -> None:
        key = (table_id, kind)
        if key in self._tasks:
            work.close()
            return
        task = asyncio.ensure_future(work)
        self._tasks[key] = task
        task.add_done_callback(lambda _: self._tasks.pop(key, None))

    async def _run_bots(self, table_id: str) -> None:
        while True:
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            try:
                table = self.load(table_id)
            except WebError:
                self._end_bots(table_id)
                return
            if not table.bot_to_move:
                break
            # A search bot thinks for a while, a bot process answers within its timeout: in a worker thread, so
            # other requests go on.
            if self.bots.is_process(table.seats[table.to_move].kind):
                new = await asyncio.to_thread(self.bots.step, table_id, table)
            else:
                new = await asyncio.to_thread(table.step_bot)
            # Kept only if nobody changed the table meanwhile; if someone did, the next turn is looked at afresh.
            self._commit(table_id, table, new)
        with contextlib.suppress(WebError):
            table = self.load(table_id)
            if table.phase is Phase.ROUND_OVER:
                self._start(table_id, "deal-on", self._deal_on_later(table_id, table.state.round_number))

    async def _deal_on_later(self, table_id: str, round_number: int) -> None:
        await asyncio.sleep(self.deal_on_seconds)
        try:
            table = self.load(table_id)
        except WebError:
            return
        if table.phase is Phase.ROUND_OVER and table.state.round_number == round_number:
            self._commit(table_id, table, table.deal_on(table.version))

    async def sweep(self) -> int:
        """Forget the tables idle past :data:`IDLE_SECONDS`, at most :data:`SWEEP_BATCH`; how many."""
        idle = self.store.idle(self.clock() - self.idle_seconds, SWEEP_BATCH)
        for table_id in idle:
            self._forget(table_id)
        return len(idle)

    async def _sweep_forever(self) -> None:
        while True:
            await self.sweep()
            await asyncio.sleep(SWEEP_SECONDS)

    # ------------------------------------------------------------ hearing of changes

    def watch(self, table_id: str) -> asyncio.Event:
        """An event set at every change of the table the store reports (from any process); :meth:`unwatch` it."""
        event = asyncio.Event()
        self._watchers.setdefault(table_id, set()).add(event)
        return event

    def unwatch(self, table_id: str, event: asyncio.Event) -> None:
        """Stop telling ``event`` of the table's changes."""
        events = self._watchers.get(table_id)
        if events is not None:
            events.discard(event)
            if not events:
                del self._watchers[table_id]

    def watching(self) -> int:
        """How many sockets wait for changes in this process."""
        return sum(len(events) for events in self._watchers.values())

    def _heard(self, table_id: str, version: int) -> None:
        # The store may call from its own thread: asyncio objects are touched on the loop alone.
        loop = self._loop
        if loop is not None and table_id in self._watchers:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake, table_id, version)

    def _wake(self, table_id: str, version: int) -> None:
        if version == REMOVED:
            self._cache.pop(table_id, None)
            self._end_bots(table_id)
        for event in tuple(self._watchers.get(table_id, ())):
            event.set()
        if version != REMOVED and table_id in self._watchers:
            # A change made by another process: the table may now wait for a bot here.
            with contextlib.suppress(WebError, SniffError):
                self.drive(table_id, self.load(table_id))
