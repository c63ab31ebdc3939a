"""A live table: one match seated by people and named bots, without any I/O; the one match loop for live play.

A :class:`Table` is an immutable value. Each seat is a person or a bot
named as :mod:`sniff_rules.play.registry` names them; each person seat has
an unguessable token (made by the server, for instance with
:func:`secrets.token_urlsafe`, and passed in: the table draws no randomness
of its own), and every request names its token, so it acts for that seat
alone. Every change — a join, a leave, a move, a bot's move, the next
round dealt — returns a new table whose :attr:`Table.version` is one more;
a request names the version it was made on, and one made on an older
version is refused (:class:`StaleVersionError`, TURN-2). Two people moving
at once thus get one success and one refusal, whatever order they arrive.

Waiting for a change is the caller's: the table is a value, so a server
keeps the current one beside an ``asyncio.Condition`` (or a thread's
``Condition``) and notifies on every replacement; a client that last saw
version ``v`` is sent the table as soon as ``table.version > v``.

Bots move only when the caller asks (:meth:`Table.step_bot`,
:meth:`Table.step_bots`), so an asyncio server, a thread, a terminal or a
test decides when; the bots' random source is kept in the table, so a
match replays. When a round is settled the table waits (END-1) until a
person seat asks for the next round (:meth:`Table.deal_on` with its token)
or the caller's own timer says so (:meth:`Table.deal_on` without a token):
the table has no clock.

Each seat sees its :meth:`Table.view` (:func:`~sniff_rules.play.view.seat_view`)
and its :meth:`Table.events_for`, redacted for it (SETUP-6); the whole
table, with every hand and the bots' source, is for the server's storage
(:mod:`sniff_rules.formats.table_json`). :attr:`Table.record` is the match
so far (:class:`~sniff_rules.play.record.MatchRecord`, paused at a settled
round while the table waits there).

>>> from sniff_rules import Rules
>>> table = Table.new(Rules.standard(2), ("person", "greedy"), ("token-of-seat-0-abcdef",), seed=20, bot_seed=1)
>>> table.version, table.to_move, table.bot_to_move
(1, 1, True)
>>> table = table.step_bots()
>>> table.version, table.to_move, [type(event).__name__ for event in table.events_for("token-of-seat-0-abcdef")]
(2, 0, ['Dealt', 'Placed'])
>>> table.play("token-of-seat-0-abcdef", table.view("token-of-seat-0-abcdef").legal_moves[0], version=1)
Traceback (most recent call last):
...
sniff_rules.play.table.StaleVersionError: TURN-2: the request was made on version 1, the table is at version 2
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from typing import Final

import attrs

from sniff_rules._fast import is_tuple
from sniff_rules.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, described
from sniff_rules.moves import Draw, Move, Pass, Place
from sniff_rules.play.driver import Policy
from sniff_rules.play.events import Dealt, Event, apply_with_events
from sniff_rules.play.record import MatchRecord
from sniff_rules.play.registry import bot_policy, check_seat_bot
from sniff_rules.play.view import SeatView, seat_view
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules, Seat
from sniff_rules.state import Phase, State, next_round

PERSON: Final = "person"
"""The kind of a seat a person plays; every other kind is a bot's name."""

MIN_TOKEN_CHARS: Final = 16
"""The shortest seat token accepted: shorter ones could be guessed (``secrets.token_urlsafe()`` gives 43)."""

MAX_TOKEN_CHARS: Final = 128
"""The longest seat token accepted."""

MAX_STOP_CHARS: Final = 1000
"""The longest line a stopped table keeps saying why: a failure's message is cut to fit."""

_TOKEN_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class SeatTokenError(InvalidMoveError):
    """A request whose token is no person seat's: it may act for no seat and see no hand (SETUP-6)."""


class StaleVersionError(IllegalMoveError):
    """A request made on a version of the table older than its own: the turn it was made for is gone (TURN-2)."""


def _check_token(token: object, what: str) -> str:
    if type(token) is not str or not MIN_TOKEN_CHARS <= len(token) <= MAX_TOKEN_CHARS or not set(token) <= _TOKEN_CHARS:
        raise InvalidStateError(
            "FORMAT-3",
            f"{what} is {MIN_TOKEN_CHARS}..{MAX_TOKEN_CHARS} URL-safe characters (A-Z a-z 0-9 - _), got "
            f"{described(token, 20)}",
        )
    return token


@attrs.frozen
class TableSeat:
    """One seat: its ``kind`` (:data:`PERSON` or a bot's name), a person's ``token``, whether the person ``joined``."""

    kind: str
    token: str | None = attrs.field(default=None, repr=False)
    joined: bool = False

    @property
    def is_person(self) -> bool:
        """Whether a person plays the seat."""
        return self.kind == PERSON


def check_seats(rules: Rules, seats: Sequence[TableSeat]) -> tuple[TableSeat, ...]:
    """``seats`` as a tuple, if it is one seat per player, each a person with a token of its own or a named bot.

    A bot is a fair bot's name or an offered bot's
    (:func:`~sniff_rules.play.registry.check_seat_bot`), whose process its
    server runs. Refused: a count other than the players (SETUP-2), a kind that names no
    bot (FORMAT-1, :class:`~sniff_rules.play.registry.BotNameError`), a
    person without a well-formed token, a bot with one, two seats with one
    token (FORMAT-3).
    """
    if not isinstance(seats, Sequence) or len(seats) != rules.players:
        raise InvalidStateError(
            "SETUP-2", f"{rules.players} players need {rules.players} seats, got {described(seats, 200)}"
        )
    seen: set[str] = set()
    for index, seat in enumerate(seats):
        if type(seat) is not TableSeat or type(seat.kind) is not str or type(seat.joined) is not bool:
            raise InvalidStateError("FORMAT-3", f"seat {index} is a TableSeat, got {described(seat, 200)}")
        if seat.is_person:
            token = _check_token(seat.token, f"seat {index}'s token")
            if token in seen:
                raise InvalidStateError("FORMAT-3", f"seat {index}'s token is another seat's: each person has one")
            seen.add(token)
        else:
            check_seat_bot(seat.kind)
            if seat.token is not None or seat.joined:
                raise InvalidStateError("FORMAT-3", f"seat {index} is a bot's: it has no token and never joins")
    return tuple(seats)


def _round_start(events: tuple[Event, ...]) -> int:
    return max(index for index, event in enumerate(events) if type(event) is Dealt)


@attrs.frozen(eq=False)
class Table:
    """One live match (see the module's docstring); build it with :meth:`new` or :meth:`restored`.

    ``record`` is the match so far, ``seats`` who plays each seat,
    ``bot_source`` the bots' random source, ``version`` the number of the
    change it is; ``state`` and ``events`` (every event, nothing hidden)
    follow from the record and are kept so that no request replays it.
    ``stopped`` is None, or the one line saying why the match was stopped
    before its end (:meth:`stopped_by`): a bot's process failed it, and no
    move or round follows. Two tables are equal when their record, seats,
    source, version and stop are.
    """

    record: MatchRecord
    seats: tuple[TableSeat, ...] = attrs.field(validator=is_tuple)
    bot_source: SplitMix64 = attrs.field(repr=False)
    version: int
    state: State = attrs.field(repr=False)
    events: tuple[Event, ...] = attrs.field(validator=is_tuple, repr=False)
    stopped: str | None = None

    def __eq__(self, other: object) -> bool:
        if type(other) is not Table:
            return NotImplemented
        return (self.record, self.seats, self.bot_source, self.version, self.stopped) == (
            other.record,
            other.seats,
            other.bot_source,
            other.version,
            other.stopped,
        )

    def __hash__(self) -> int:
        return hash((self.record, self.seats, self.bot_source, self.version, self.stopped))

    # ------------------------------------------------------------ making one

    @classmethod
    def new(cls, rules: Rules, kinds: Sequence[str], tokens: Sequence[str], *, seed: int, bot_seed: int) -> Table:
        """A match of ``rules`` from ``seed``, ``kinds[seat]`` at each seat; the people's ``tokens`` in seat order.

        The bots' source is ``SplitMix64.from_seed(bot_seed)``. Refused as
        :func:`check_seats` refuses, and a token count other than the
        person seats (SETUP-2).
        """
        if isinstance(kinds, str) or not isinstance(kinds, Sequence) or isinstance(tokens, str):
            raise InvalidStateError("FORMAT-3", f"kinds and tokens are sequences of text, got {described(kinds, 100)}")
        people = [seat for seat, kind in enumerate(kinds) if kind == PERSON]
        if len(tokens) != len(people):
            raise InvalidStateError(
                "SETUP-2", f"{len(people)} person seats need {len(people)} tokens, got {len(tokens)}"
            )
        by_seat = dict(zip(people, tokens, strict=True))
        seats = tuple(TableSeat(kind, by_seat.get(seat)) for seat, kind in enumerate(kinds))
        return cls.restored(MatchRecord.seeded(rules, seed), seats, SplitMix64.from_seed(bot_seed), 1)

    @classmethod
    def restored(
        cls,
        record: MatchRecord,
        seats: Sequence[TableSeat],
        bot_source: SplitMix64,
        version: int,
        stopped: str | None = None,
    ) -> Table:
        """The table that ``record`` replays to, with these seats, bots' source, version and stop (as saved).

        The record is replayed, so a move or a deal the rules refuse raises as
        :meth:`~sniff_rules.play.record.MatchRecord.replay` does.
        """
        if type(record) is not MatchRecord:
            raise InvalidStateError("FORMAT-3", f"a table plays a MatchRecord, got {described(record, 200)}")
        if type(bot_source) is not SplitMix64:
            raise InvalidStateError(
                "SETUP-5", f"the bots' source is a SplitMix64, so it can be saved; got {described(bot_source, 100)}"
            )
        if type(version) is not int or version < 1:
            raise InvalidStateError("FORMAT-3", f"a table's version is an int from 1, got {described(version, 40)}")
        if stopped is not None and (type(stopped) is not str or not 0 < len(stopped) <= MAX_STOP_CHARS):
            raise InvalidStateError(
                "FORMAT-3", f"a table's stop is 1..{MAX_STOP_CHARS} characters or None, got {described(stopped, 40)}"
            )
        checked = check_seats(record.rules, seats)
        events: list[Event] = []
        state: State | None = None
        for step in record.replay():
            events += step.events
            state = step.state
        assert state is not None
        return cls(record, checked, bot_source, version, state, tuple(events), stopped)

    # ------------------------------------------------------------ what anyone may ask

    @property
    def rules(self) -> Rules:
        """The house rules."""
        return self.record.rules

    @property
    def phase(self) -> Phase:
        """Playing, round over (waiting for the next round) or match over."""
        return self.state.phase

    @property
    def to_move(self) -> Seat:
        """The seat to move (after a round's end, the seat that ended it, CONV-4)."""
        return self.state.to_move

    @property
    def bot_to_move(self) -> bool:
        """Whether a bot is to move now: what :meth:`step_bot` plays (never once the match is stopped)."""
        return self.state.phase is Phase.PLAYING and not self.seats[self.state.to_move].is_person and not self.stopped

    @property
    def person_to_move(self) -> Seat | None:
        """The person seat to move now, or None (a bot's turn, or no turn)."""
        if self.state.phase is not Phase.PLAYING or self.bot_to_move or self.stopped:
            return None
        return self.state.to_move

    def seat_of(self, token: str) -> Seat:
        """The person seat ``token`` is the token of; any other text is refused (:class:`SeatTokenError`, SETUP-6)."""
        if type(token) is str:
            encoded = token.encode("utf-8", "replace")
            found = [
                seat
                for seat, player in enumerate(self.seats)
                # Compared in constant time, so the time taken tells nothing of a token.
                if player.token is not None and hmac.compare_digest(encoded, player.token.encode())
            ]
            if found:
                return found[0]
        raise SeatTokenError("SETUP-6", "this token is no seat's: a request acts for its own seat alone")

    def view(self, token: str) -> SeatView:
        """What the seat of ``token`` may know now (:func:`~sniff_rules.play.view.seat_view`)."""
        seat = self.seat_of(token)
        return seat_view(self.state, seat, self.events[_round_start(self.events) :])

    def events_for(self, token: str, since: int = 0) -> tuple[Event, ...]:
        """The match's events from index ``since`` on, as the seat of ``token`` sees them (SETUP-6)."""
        seat = self.seat_of(token)
        return tuple(event.seen_by(seat) for event in self.events[max(0, since) :])

    def public_events(self, since: int = 0) -> tuple[Event, ...]:
        """The match's events from index ``since`` on, as every seat sees them alike (no hand shown)."""
        return tuple(event.seen_by(None) for event in self.events[max(0, since) :])

    # ------------------------------------------------------------ changes

    def _changed(self, **changes: object) -> Table:
        return attrs.evolve(self, version=self.version + 1, **changes)  # type: ignore[arg-type]

    def _check_version(self, version: int) -> None:
        if type(version) is not int or version != self.version:
            raise StaleVersionError(
                "TURN-2",
                f"the request was made on version {described(version, 20)}, the table is at version {self.version}",
            )

    def join(self, token: str) -> Table:
        """The table with the seat of ``token`` present; unchanged (the same version) when it already was."""
        seat = self.seat_of(token)
        if self.seats[seat].joined:
            return self
        return self._with_seat(seat, joined=True)

    def leave(self, token: str) -> Table:
        """The table with the seat of ``token`` away; unchanged when it already was. The seat keeps its token."""
        seat = self.seat_of(token)
        if not self.seats[seat].joined:
            return self
        return self._with_seat(seat, joined=False)

    def _with_seat(self, seat: Seat, *, joined: bool) -> Table:
        seats = tuple(
            attrs.evolve(player, joined=joined) if index == seat else player for index, player in enumerate(self.seats)
        )
        return self._changed(seats=seats)

    def _check_not_stopped(self) -> None:
        if self.stopped is not None:
            raise IllegalMoveError("MATCH-2", f"the match was stopped: {self.stopped}")

    def _check_turn(self, seat: Seat) -> None:
        self._check_not_stopped()
        phase = self.state.phase
        if phase is Phase.MATCH_OVER:
            raise IllegalMoveError("MATCH-2", "the match is over: no move now")
        if phase is Phase.ROUND_OVER:
            raise IllegalMoveError("END-1", "the round is over: ask for the next round first")
        if self.state.to_move != seat:
            raise IllegalMoveError("TURN-2", f"it is seat {self.state.to_move}'s turn, not seat {seat}'s")

    def play(self, token: str, move: Move, version: int) -> Table:
        """The table after the seat of ``token`` plays ``move`` on ``version``.

        Refused with nothing changed, in this order: a token of no seat
        (SETUP-6), a stale version (TURN-2), the match or the round over
        (MATCH-2, END-1), another seat's turn (TURN-2), then as
        :func:`~sniff_rules.moves.apply` refuses the move.
        """
        seat = self.seat_of(token)
        self._check_version(version)
        self._check_turn(seat)
        if type(move) not in (Place, Draw, Pass):
            raise InvalidMoveError("FORMAT-3", f"a move is a Place, Draw or Pass, got {described(move, 100)}")
        if move.seat != seat:
            raise IllegalMoveError("TURN-2", f"the move names seat {move.seat}, the token is seat {seat}'s")
        return self._moved(move)

    def _moved(self, move: Move, **changes: object) -> Table:
        state, happened = apply_with_events(self.state, move)
        record = self.record.with_moves(move)
        if state.phase is Phase.ROUND_OVER:
            record = record.paused_at_round_end()
        return self._changed(record=record, state=state, events=self.events + happened, **changes)

    def step_bot(self, policy: Policy[SeatView] | None = None) -> Table:
        """The table after the bot to move plays, deciding from its own seat's view and the table's source.

        The bot is the fair bot its seat names, or ``policy`` when given: the
        process its server runs for an offered bot's seat, which is sent that
        seat's view alone. Refused when no bot is to move (TURN-2); a move
        the policy answers that the rules refuse raises as
        :func:`~sniff_rules.moves.apply` does. Pure but for ``policy``: a
        server may run it in a worker thread and keep the answer only if the
        table it holds is still this one (the same version).
        """
        if not self.bot_to_move:
            self._check_not_stopped()
            raise IllegalMoveError("TURN-2", "no bot is to move now")
        seat = self.state.to_move
        view = seat_view(self.state, seat, self.events[_round_start(self.events) :])
        chosen = bot_policy(self.seats[seat].kind) if policy is None else policy
        move, source = chosen(view, self.bot_source)
        if type(source) is not SplitMix64:
            raise InvalidStateError(
                "SETUP-5", f"a bot returned a source that cannot be saved: {described(source, 100)}"
            )
        return self._moved(move, bot_source=source)

    def step_bots(self, limit: int | None = None) -> Table:
        """The table after the bots play while one is to move (at most ``limit`` moves): up to a person's
        turn, a round's end or the match's end. No bot asks for the next round."""
        table = self
        moves = 0
        while table.bot_to_move and (limit is None or moves < limit):
            table = table.step_bot()
            moves += 1
        return table

    def deal_on(self, version: int, token: str | None = None) -> Table:
        """The next round dealt, once a round is settled: asked by the seat of ``token``, or with no token by
        the caller (its own timeout for the pause at ``version``).

        Refused: a token of no seat (SETUP-6), a stale version (TURN-2), a
        round still played (END-1), the match over (MATCH-2).
        """
        if token is not None:
            self.seat_of(token)
        self._check_version(version)
        self._check_not_stopped()
        phase = self.state.phase
        if phase is Phase.MATCH_OVER:
            raise IllegalMoveError("MATCH-2", "the match is over: no round follows")
        if phase is not Phase.ROUND_OVER:
            raise IllegalMoveError("END-1", "the round is still played: the next is dealt once it is settled")
        state = next_round(self.state)
        return self._changed(
            record=self.record.paused_at_round_end(False), state=state, events=(*self.events, Dealt.of(state))
        )

    def stopped_by(self, reason: str) -> Table:
        """The table stopped before its end, ``reason`` the one line every seat is told; nothing follows.

        For its server, when a seat's bot process fails (it answers late,
        garbles, ends or answers a move it was not offered): no move is made
        for it, the record up to it is kept, and every later move or round is
        refused (MATCH-2). Refused when already stopped (MATCH-2) or for a
        reason that is no line of 1..:data:`MAX_STOP_CHARS` characters (FORMAT-3).
        """
        self._check_not_stopped()
        if type(reason) is not str or not reason.strip() or len(reason) > MAX_STOP_CHARS or "\n" in reason:
            raise InvalidStateError("FORMAT-3", f"a stop is one line of 1..{MAX_STOP_CHARS} characters")
        return self._changed(stopped=reason)

    def rewound_to(self, earlier: Table) -> Table:
        """``earlier`` (a table this one grew from: an undo) as the next change, its version past this one's."""
        if type(earlier) is not Table or earlier.version >= self.version or earlier.seats != self.seats:
            raise InvalidStateError("FORMAT-3", "a table rewinds only to an earlier version of itself")
        return attrs.evolve(earlier, version=self.version + 1)
