"""The bot processes of a server's tables (``serve --bot NAME=COMMAND``): started per seat, bounded, always ended.

:class:`TableBots` seats the bots the operator offers
(:class:`~sniff_rules.play.registry.BotOffer`) through the one keeper of
bot processes, :class:`~sniff_rules.protocol.bot_process.BotProcesses`, a
process per (table, seat), each sent only its seat's view. It adds what a
server needs around it (``specs/hosting.md``, HOST-6 and HOST-7):

- at most :data:`MAX_BOT_PROCESSES` at once: a table holds a place for each
  of its offered seats from its creation (refused past the limit) to its
  end; a table met without one (kept by a server before a restart) takes
  its places when its bot is first to move, or is stopped naming HOST-7;
- a bot that fails (late, garbled, ended, a move not offered) stops its
  match: :meth:`TableBots.step` answers the table stopped with one line
  naming the seat, the request and the rule, and its process is reaped;
- :meth:`TableBots.end` ends a table's processes (its end, its expiry, its
  match over) and :meth:`TableBots.close_all` every one (the server stops).

A request to a process runs in a worker thread, and a process may be ended
from the event loop meanwhile: it is killed at once (the request waiting on
it ends), then reaped once its seat's request is over, under that seat's lock.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Final

from sniff_rules.errors import SniffError
from sniff_rules.play.registry import BotOffer
from sniff_rules.play.table import MAX_STOP_CHARS, Table
from sniff_rules.protocol.bot_process import BotProcesses, failure_line
from sniff_rules.protocol.messages import REQUEST_SECONDS
from sniff_rules.rules import MAX_PLAYERS, Seat

MAX_BOT_PROCESSES: Final = 8
"""The most bot processes one server process runs at once (HOST-7): each is another program with its own memory,
and a bot is idle between its turns, so a few serve many visitors; ``serve --max-bot-processes`` sets another."""

LOG: Final = logging.getLogger("sniff_rules.web")
"""Where a failed bot's whole message (its stderr's tail too) goes: for the operator, never for a seat."""

Key = tuple[str, Seat]
"""A bot process's key: the table's id and the seat."""


class TableBots:
    """The offered bots of a server's tables as processes (see the module's docstring).

    ``timeout`` is the seconds a bot may take a request (PROTO-3), ``limit``
    the processes run at once (HOST-7).
    """

    def __init__(self, offer: BotOffer, *, timeout: float = REQUEST_SECONDS, limit: int = MAX_BOT_PROCESSES) -> None:
        self.offer: Final = offer
        self.limit: Final = limit
        self.processes: Final = BotProcesses(offer, timeout=timeout)
        self._guard = threading.Lock()
        self._places: dict[str, int] = {}
        self._seat_locks: dict[Key, threading.Lock] = {}

    def is_process(self, kind: str) -> bool:
        """Whether a seat of ``kind`` is played by an offered bot's process."""
        return any(bot.name == kind for bot in self.offer.offered)

    def needed(self, kinds: Sequence[str]) -> int:
        """How many processes a table seating ``kinds`` runs."""
        return sum(1 for kind in kinds if self.is_process(kind))

    @property
    def held(self) -> int:
        """How many places the tables hold, each a process running or to be started."""
        with self._guard:
            return sum(self._places.values())

    def reserve(self, table_id: str, kinds: Sequence[str]) -> bool:
        """Hold a place for each offered seat of the table, if the limit allows; whether it holds them."""
        count = self.needed(kinds)
        with self._guard:
            if table_id in self._places or count == 0:
                return True
            if sum(self._places.values()) + count > self.limit:
                return False
            self._places[table_id] = count
            return True

    def _lock_of(self, key: Key) -> threading.Lock:
        with self._guard:
            return self._seat_locks.setdefault(key, threading.Lock())

    def step(self, table_id: str, table: Table) -> Table:
        """The table after its offered bot to move plays from its seat's view, or stopped by the bot's failure.

        Blocks for the bot's answer (at most the timeout, PROTO-3): call it
        in a worker thread. Never raises for what the process does.
        """
        seat = table.to_move
        kind = table.seats[seat].kind
        who = f"seat {seat} ({kind})"
        if not self.reserve(table_id, [player.kind for player in table.seats]):
            return table.stopped_by(
                f"The bot of {who} could not start (HOST-7): this server runs at most {self.limit} bot processes"
                " at once. No move was made for it."
            )
        key = (table_id, seat)
        with self._lock_of(key):
            try:
                return table.step_bot(self.processes.policy(key, kind))
            except SniffError as failure:
                self.processes.close(key)
                LOG.warning("table %s: %s", table_id, failure_line(who, failure))
                return table.stopped_by(failure_line(who, failure, public=True)[:MAX_STOP_CHARS])

    def end(self, table_id: str) -> None:
        """End and reap the table's processes and free its places; a request under way ends at once.

        Blocks while an idle process is asked to quit (a second at most): call
        it in a worker thread from an event loop.
        """
        keys = [(table_id, seat) for seat in range(MAX_PLAYERS)]
        for key in keys:
            lock = self._lock_of(key)
            if not lock.acquire(blocking=False):
                # A request is under way: killed, it ends at once, and the process is reaped once it has.
                self.processes.kill(key)
                lock.acquire()
            try:
                # Idle: asked to quit first (specs/protocol.md), killed only if it does not.
                self.processes.close(key)
            finally:
                lock.release()
        with self._guard:
            self._places.pop(table_id, None)
            for key in keys:
                self._seat_locks.pop(key, None)

    def close_all(self) -> None:
        """End every table's processes: the server stops, and no process outlives it."""
        with self._guard:
            tables = {*self._places, *(table_id for table_id, _ in self._seat_locks)}
        for table_id in tables:
            self.end(table_id)
        self.processes.close_all()
