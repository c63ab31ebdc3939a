"""The browser game's tables and sessions, without the web framework: what ``sniff-rules serve`` keeps.

A :class:`Table` is one match between a person and the library's fair
bots. Its state and events never leave it whole: :meth:`Table.snapshot`
is what the person's page receives, built from that seat's view
(:func:`~sniff_rules.play.view.seat_view`, :func:`~sniff_rules.formats.view_json.seat_view_to_data`)
and nothing else, so it holds no other hand, no boneyard order and no
random source. Moves arrive as people type them and are read against the
seat's legal moves (:func:`~sniff_rules.formats.notation.parse_typed_move`); a move
refused for any reason raises :class:`WebError` and changes nothing. Bots
decide from their own seat's view (:meth:`Table.decide_bot`, which reads
only) and the move is committed apart (:meth:`Table.commit_bot`), so a
server can let a bot think in a worker thread while the table stays
consistent.

:class:`SessionStore` keeps tables under unguessable ids, forgets those
idle too long and holds at most a bounded number, dropping the least
recently used first: no client can exhaust the server's memory.

>>> table = Table(Rules.standard(2), seat=0, bots=("person", "greedy"), seed=20, bot_seed=1)
>>> snapshot = table.snapshot()
>>> snapshot["seat"], snapshot["status"], snapshot["view"]["hand_sizes"]
(0, 'bot-turn', [7, 7])
>>> table.commit_bot(table.decide_bot()); table.snapshot()["status"]
'your-turn'
"""

from __future__ import annotations

import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final, Generic, TypeVar

from sniff_rules.errors import SniffError
from sniff_rules.formats.notation import parse_typed_move
from sniff_rules.formats.strict_json import JsonObject, JsonValue
from sniff_rules.formats.view_json import seat_view_to_data
from sniff_rules.moves import Move
from sniff_rules.play.events import Event, Placed
from sniff_rules.play.record import MatchRecord
from sniff_rules.play.registry import (
    BOT_CHOICES,
    BOT_RULE,
    DEFAULT_BOT,
    BotNameError,
    bot_label,
    parse_bot,
)
from sniff_rules.play.table import Table as LiveTable
from sniff_rules.play.view import SeatView
from sniff_rules.randomness import RandomSource
from sniff_rules.rules import Rules, Seat
from sniff_rules.state import Phase, State

SNAPSHOT_FORMAT: Final = "sniff-rules/web-snapshot@1"
"""The ``format`` tag of what the page receives."""

PERSON: Final = "person"
"""The player kind of the seat a person plays."""


def bots_offered() -> JsonObject:
    """The fair bots a page offers for a seat, from :mod:`sniff_rules.play.registry`: name and label, the default."""
    bots: list[JsonValue] = [{"name": choice.name, "label": choice.label} for choice in BOT_CHOICES]
    return {"bots": bots, "default": DEFAULT_BOT}


MAX_MOVE_CHARS: Final = 200
"""The longest move text read; what people type is far shorter."""

_SEAT_PREFIX: Final = re.compile(r"\s*(\d{1,3})\s*:")

Layouter = Callable[[SeatView], JsonObject]
"""Draws a seat view's layout for the page (SVG or text); sees the view alone."""


OFFERED_BOTS: Final = tuple(choice.name for choice in BOT_CHOICES)
"""The bots a table on this server may seat: those its page offers, each with its own default search."""


class WebError(Exception):
    """A request refused: an HTTP ``status``, a short ``code``, a message, the rule id when one applies."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule

    def to_data(self) -> JsonObject:
        """The JSON body of the refusal."""
        return {"error": self.code, "message": self.message, "rule": self.rule}


def plain_layout(view: SeatView) -> JsonObject:
    """The layout as text lines, a placement a line (where no drawing is at hand)."""
    layout = view.layout
    return {
        "svg": None,
        "lines": [str(placement) for placement in layout.placements],
    }


def check_players(players: int, seat: Seat, kinds: tuple[str, ...]) -> None:
    """Refuse a table that is not 2..4 seats, the person at ``seat`` and a bot at every other.

    A kind that names no bot is refused with the registry's
    :class:`~sniff_rules.play.registry.BotNameError` as the cause (FORMAT-1).
    The server seats only the bots its page offers, :data:`BOT_CHOICES` by
    name: a ``search:N`` from a visitor could make every decision of the
    table cost up to the registry's largest search.
    """
    if players not in (2, 3, 4):
        raise WebError(400, "bad-request", f"a match is for 2, 3 or 4 players, not {players}")
    if not 0 <= seat < players:
        raise WebError(400, "bad-request", f"seat {seat} is not one of the {players} seats")
    if len(kinds) != players:
        raise WebError(400, "bad-request", f"{players} seats need {players} player kinds, got {len(kinds)}")
    for index, kind in enumerate(kinds):
        if (kind == PERSON) != (index == seat):
            raise WebError(400, "bad-request", f"seat {index}: the person plays seat {seat}, the others a bot")
        if kind != PERSON:
            try:
                parse_bot(kind)
            except BotNameError as refusal:
                raise WebError(400, "bad-request", f"seat {index}: {refusal}", refusal.rule) from refusal
            if kind not in OFFERED_BOTS:
                offered = ", ".join(OFFERED_BOTS)
                raise WebError(400, "bad-request", f"seat {index}: this server seats the bots {offered}", BOT_RULE)


class Table:
    """One match between a person at ``seat`` and a bot at every other seat (``bots[seat]`` is ``"person"``).

    ``seed`` deals the match, ``bot_seed`` seeds the bots' random source; both stay on the server.
    The match is a live :class:`sniff_rules.play.table.Table` (:attr:`live`), the one match loop of
    live play; this class reads people's typed moves and answers with HTTP refusals and snapshots.
    """

    def __init__(
        self,
        rules: Rules,
        seat: Seat,
        bots: tuple[str, ...],
        seed: int,
        bot_seed: int,
        layouter: Layouter = plain_layout,
        token: str | None = None,
    ) -> None:
        check_players(rules.players, seat, bots)
        self.rules: Final = rules
        self.seat: Final = seat
        self.kinds: Final = bots
        self.layouter: Final = layouter
        self.token: Final = secrets.token_urlsafe(32) if token is None else token
        self.live: LiveTable = LiveTable.new(rules, bots, (self.token,), seed=seed, bot_seed=bot_seed)

    @property
    def state(self) -> State:
        """The match's state: every hand; never sent."""
        return self.live.state

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event of the match, nothing hidden; never sent whole."""
        return self.live.events

    @property
    def bot_source(self) -> RandomSource:
        """The bots' random source; never sent."""
        return self.live.bot_source

    @property
    def version(self) -> int:
        """The live table's version: one more with every change."""
        return self.live.version

    # ------------------------------------------------------------ what the page sees

    @property
    def status(self) -> str:
        """``your-turn``, ``bot-turn``, ``round-over`` or ``match-over``."""
        phase = self.state.phase
        if phase is Phase.MATCH_OVER:
            return "match-over"
        if phase is Phase.ROUND_OVER:
            return "round-over"
        return "your-turn" if self.state.to_move == self.seat else "bot-turn"

    def view(self) -> SeatView:
        """The person's seat view: everything the page may know."""
        return self.live.view(self.token)

    def snapshot(self) -> JsonObject:
        """What the person's page receives: the table's version and players, the seat view's JSON, the layout drawn.

        Built from the seat's view alone (and the public seat kinds), so two
        tables whose hidden tiles and random sources differ but whose public
        play is the same give the same snapshot.
        """
        view = self.view()
        players: list[JsonValue] = [
            {
                "seat": seat,
                "kind": kind,
                "name": "You" if kind == PERSON else bot_label(kind),
                "side": self.rules.side_of(seat),
            }
            for seat, kind in enumerate(self.kinds)
        ]
        last = next((event for event in reversed(view.history.events) if type(event) is Placed), None)
        return {
            "format": SNAPSHOT_FORMAT,
            "version": self.version,
            "seat": self.seat,
            "status": self.status,
            "players": players,
            "last_placement": None if last is None else str(last.placement),
            "layout": self.layouter(view),
            "view": seat_view_to_data(view),
        }

    def record(self) -> MatchRecord:
        """The match record, once the match is over (409 before: a record holds every hand)."""
        if self.state.phase is not Phase.MATCH_OVER:
            raise WebError(409, "match-not-over", "the record holds every hand: it is served once the match is over")
        return self.live.record

    # ------------------------------------------------------------ what the person does

    def _check_version(self, version: int) -> None:
        if version != self.version:
            raise WebError(409, "stale", f"the page shows version {version}, the table is at {self.version}: reload it")

    def play(self, text: str, version: int, seat: Seat | None = None) -> Move:
        """Play the person's move ``text`` (as typed) on the page's ``version``; the move played.

        Refused with nothing changed: another seat named (403), a stale
        version or a move out of turn (409), text that names no legal move
        (422, with the rule id).
        """
        if seat is not None and seat != self.seat:
            raise WebError(403, "not-your-seat", f"this session plays seat {self.seat}, not seat {seat}")
        if len(text) > MAX_MOVE_CHARS:
            raise WebError(400, "bad-request", f"a move is at most {MAX_MOVE_CHARS} characters")
        named = _SEAT_PREFIX.match(text)
        if named is not None and int(named.group(1)) != self.seat:
            raise WebError(403, "not-your-seat", f"this session plays seat {self.seat}, not seat {named.group(1)}")
        self._check_version(version)
        if self.state.phase is not Phase.PLAYING:
            # CONV-3: the end of the round or the match comes before whose turn it is, as apply cites it.
            rule = "MATCH-2" if self.state.phase is Phase.MATCH_OVER else "END-1"
            raise WebError(409, "not-your-turn", f"no move now: the {self.status.replace('-', ' ')}", rule)
        if self.state.to_move != self.seat:
            raise WebError(409, "not-your-turn", f"it is seat {self.state.to_move}'s turn", "TURN-2")
        try:
            move = parse_typed_move(text, self.view().legal_moves)
        except SniffError as refusal:
            raise WebError(422, "illegal-move", str(refusal), refusal.rule) from None
        self.live = self.live.play(self.token, move, version)
        return move

    def deal_next_round(self, version: int) -> None:
        """Deal the next round once the page has shown the settled one (409 otherwise)."""
        self._check_version(version)
        if self.state.phase is not Phase.ROUND_OVER:
            raise WebError(409, "not-round-over", f"the round is not over: the {self.status.replace('-', ' ')}")
        self.live = self.live.deal_on(version, self.token)

    # ------------------------------------------------------------ the bots

    @property
    def bot_to_move(self) -> bool:
        """Whether a bot is to move now."""
        return self.live.bot_to_move

    def decide_bot(self) -> LiveTable:
        """The table after the bot to move plays, from its own seat's view; this table unchanged.

        Reads the table only, so it may run in a worker thread; :meth:`commit_bot` keeps the answer.
        """
        if not self.bot_to_move:
            raise WebError(409, "not-bot-turn", "no bot is to move")
        return self.live.step_bot()

    def commit_bot(self, decided: LiveTable) -> None:
        """Keep a bot's decided move, unless the table moved on since it was decided (then nothing changes)."""
        if decided.version == self.version + 1 and decided.record.moves[:-1] == self.live.record.moves:
            self.live = decided


T = TypeVar("T")


class SessionStore(Generic[T]):
    """Values under unguessable ids; each forgotten after ``idle_seconds`` unused, at most ``limit`` kept.

    ``clock`` gives seconds (monotonic); a new value past the limit drops
    the least recently used.
    """

    def __init__(self, limit: int = 64, idle_seconds: float = 3600.0, clock: Callable[[], float] = time.monotonic):
        if limit < 1 or idle_seconds <= 0:
            raise ValueError(f"a store keeps at least one session for some time, got {limit}, {idle_seconds}")
        self.limit: Final = limit
        self.idle_seconds: Final = idle_seconds
        self.clock: Final = clock
        self._entries: OrderedDict[str, tuple[float, T]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def purge(self) -> list[T]:
        """Forget the values idle too long; those forgotten."""
        now = self.clock()
        gone: list[T] = []
        while self._entries:
            key, (seen, value) = next(iter(self._entries.items()))
            if now - seen < self.idle_seconds:
                break
            del self._entries[key]
            gone.append(value)
        return gone

    def add(self, value: T) -> tuple[str, list[T]]:
        """Keep ``value`` under a new id; the id, and the values forgotten to make room."""
        gone = self.purge()
        while len(self._entries) >= self.limit:
            gone.append(self._entries.popitem(last=False)[1][1])
        key = secrets.token_urlsafe(32)
        self._entries[key] = (self.clock(), value)
        return key, gone

    def get(self, key: str) -> T | None:
        """The value under ``key``, marked used now; None when unknown or expired."""
        self.purge()
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries[key] = (self.clock(), entry[1])
        self._entries.move_to_end(key)
        return entry[1]

    def remove(self, key: str) -> T | None:
        """Forget ``key``; its value, or None."""
        entry = self._entries.pop(key, None)
        return None if entry is None else entry[1]

    def clear(self) -> list[T]:
        """Forget every value; those forgotten."""
        gone = [value for _, value in self._entries.values()]
        self._entries.clear()
        return gone
