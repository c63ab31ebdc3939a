"""A person plays a whole match against the fair bots in the terminal: ``sniff-rules play``.

The match is a live :class:`~sniff_rules.play.table.Table`, the one match
loop of live play: the person's seat holds a token, the bots move when the
session steps them, and a settled round is dealt on at once. The person
sees the seat's view (:class:`~sniff_rules.play.view.SeatView`: the table,
the count, the open points, the hand with each legal move numbered and the
points it gives, the scores, hand sizes and the boneyard) and every event as
that seat may (:meth:`~sniff_rules.play.table.Table.events_for`); the bots see
their own views alone. What people type is read by
:func:`sniff_rules.formats.notation.parse_typed_move`, besides a number from the
list, ``help``, ``undo`` and ``quit``; a bad line gets a message and the
prompt again. End of input and Ctrl-C end the session with one line.

``undo`` takes back the person's last move and the bots' replies after it:
the table goes back to the person's previous turn
(:meth:`~sniff_rules.play.table.Table.rewound_to`), its bots' random source
with it, so the bots answer as they did. With ``save`` set, the match record
(:func:`~sniff_rules.formats.record_json.record_to_json`) is written there when the
session ends, however it ends, for ``sniff-rules replay`` to play.

A bot named ``cmd:COMMAND`` is a process speaking the bot protocol
(``specs/protocol.md``): its seat is held by a token of its own, the
session sends the process that seat's view alone and plays the move it
answers. A bot that answers late (PROTO-3), garbles (PROTO-1), ends
(PROTO-5) or answers a move it was not offered (TURN-1, PLACE-1, FORMAT-1)
stops the match: the session says which seat, which request and which
rule, plays no move for it, writes the record and exits with status 2. After
an undo such a bot is asked again, and answers as it chooses.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Final, TextIO

import attrs

from sniff_rules._fast import is_tuple
from sniff_rules.draw.narration import PLAIN, Palette, Seating, count_text, describe, fit, layout_picture
from sniff_rules.draw.text import options_text
from sniff_rules.errors import InvalidStateError, SniffError
from sniff_rules.formats.notation import parse_typed_move
from sniff_rules.formats.record_json import record_to_json
from sniff_rules.moves import Move
from sniff_rules.play.registry import parse_bot
from sniff_rules.play.table import PERSON, Table
from sniff_rules.play.view import SeatView
from sniff_rules.protocol.bot_process import ProcessBot, command_of, failure_line, is_command_bot
from sniff_rules.protocol.messages import REQUEST_SECONDS
from sniff_rules.rules import Rules, Seat
from sniff_rules.state import Phase
from sniff_rules.verify.vectors.recorded_play import POLICY_SEED_OFFSET

HELP: Final = """\
Type one of:
  a number        the move of that number in the list
  a tile          14, 1-4 or [1|4]: its one legal placement (or the lead);
                  two digits beyond the list's numbers are a tile
  a tile and where
                  14 on 46, 14 on 4 (an open value), 1-4 high, [1|4]>[4|6].high
  draw, pass      when no tile of yours fits (draw while the boneyard lasts)
  Enter           the only move, when there is just one
  undo            take back your last move and the bots' replies after it
  help            this text
  quit            leave the match (end of input and Ctrl-C leave too)
Points: after each placement the free ends on the table are counted (an end
double counts both halves; the Sniff, the first double, counts its value for
each uncovered arm). A count that is a multiple of 5 scores that many points
for the placer's side. The first side to reach the target wins at once."""

GOODBYE: Final = "Goodbye."

_TOKEN: Final = "the-terminal-seat-token"
"""The person's token: the terminal has one person and no one else to keep out."""


def _tile_digits(text: str) -> bool:
    """Whether ``text`` is two pips, a tile as people type it (``14``)."""
    return len(text) == 2 and all("0" <= digit <= "6" for digit in text)


def _list_number(text: str, count: int) -> bool:
    """Whether ``text`` is the number of one of ``count`` listed moves (ASCII digits only, no leading zero)."""
    return text.isascii() and text.isdigit() and len(text) <= 3 and not text.startswith("0") and int(text) <= count


class _Quit(Exception):
    """The person left: ``quit``, end of input."""


class _Undo(Exception):
    """The person asked to take back a move."""


class _BotFailed(Exception):
    """A bot process broke the protocol or answered a move it was not offered: the match stops."""


@attrs.frozen
class GameSettings:
    """A match of ``rules`` dealt from ``seed``: the person at ``seat``, ``bots[seat]`` elsewhere;
    the table drawn ``width`` columns wide, without box-drawing characters when ``ascii_only``;
    the match record written to ``save`` when the session ends (None: not written)."""

    rules: Rules
    seat: Seat
    bots: tuple[str, ...] = attrs.field(validator=is_tuple)
    seed: int = 1
    width: int = 80
    ascii_only: bool = False
    save: Path | None = None
    bot_timeout: float = REQUEST_SECONDS


def _bot_token(seat: Seat) -> str:
    """The token that holds the seat of a ``cmd:`` bot, which the table seats as a person's."""
    return f"the-terminal-bot-seat-{seat}-token"


def bots_for_seats(players: int, seat: Seat, names: Sequence[str]) -> tuple[str, ...]:
    """Each seat's bot name from ``names``: one name for every other seat, or one per other seat, in seat order.

    The person's own entry is ``"you"``. A ``cmd:COMMAND`` names a bot process. A name that is no bot raises
    :class:`~sniff_rules.play.registry.BotNameError` (FORMAT-1); a count that fits neither,
    :class:`~sniff_rules.errors.InvalidStateError` (SETUP-2).
    """
    names = [name.strip() for name in names]
    for name in names:
        if is_command_bot(name):
            command_of(name)
        else:
            parse_bot(name)
    others = [other for other in range(players) if other != seat]
    if len(names) == 1:
        names = names * len(others)
    if len(names) != len(others):
        raise InvalidStateError(
            "SETUP-2", f"{players} players: name one bot for all, or {len(others)} (one per other seat)"
        )
    by_seat = dict(zip(others, names, strict=True))
    return tuple("you" if other == seat else by_seat[other] for other in range(players))


class Session:
    """One match at the keyboard: reads lines from ``read``, writes to ``write``."""

    def __init__(self, settings: GameSettings, read: TextIO, write: TextIO, palette: Palette = PLAIN) -> None:
        self.settings = settings
        self.read = read
        self.write = write
        self.palette = palette
        rules = settings.rules
        bots = {seat: name for seat, name in enumerate(settings.bots) if seat != settings.seat}
        self.seating = Seating.of(rules, bots, settings.seat)
        # A cmd: bot's seat is held by a token, as a person's is: the table keeps pure values, and the
        # session, which owns the process, asks it for the moves of that seat.
        self.commands = {seat: name for seat, name in bots.items() if is_command_bot(name)}
        held = sorted({settings.seat, *self.commands})
        tokens = tuple(_TOKEN if seat == settings.seat else _bot_token(seat) for seat in held)
        kinds = tuple(PERSON if seat in held else name for seat, name in enumerate(settings.bots))
        table = Table.new(rules, kinds, tokens, seed=settings.seed, bot_seed=settings.seed + POLICY_SEED_OFFSET)
        for token in tokens:
            table = table.join(token)
        self.table = table
        self.processes: dict[Seat, ProcessBot] = {}
        # The table at each of the person's turns, for undo.
        self._turns: list[Table] = []
        self._told = 0

    def _say(self, *lines: str) -> None:
        """Lines of prose, each wrapped between words to the session's width."""
        self._put(*fit([part for line in lines for part in line.split("\n")], self.settings.width))

    def _put(self, *lines: str) -> None:
        """Lines written as they are: pictures, already drawn to the width."""
        for line in lines:
            self.write.write(line + "\n")
        self.write.flush()

    def run(self) -> int:
        """Play the match to its end; the exit status: 0 (ended or left), 2 (a bot process stopped it), 130 (Ctrl-C)."""
        with contextlib.ExitStack() as processes:
            try:
                for seat, name in self.commands.items():
                    self.processes[seat] = processes.enter_context(
                        ProcessBot(command_of(name), timeout=self.settings.bot_timeout)
                    )
            except SniffError as failure:
                self._say(self.palette.bad(f"The bot of {self.seating.names[seat]} could not start: {failure}"))
                return 2
            return self._run()

    def _run(self) -> int:
        settings = self.settings
        rules = settings.rules
        try:
            self._say(
                self.palette.bold(
                    f"American Sniff, {rules.players} players, to {rules.target} points, seed {settings.seed}."
                ),
                f"You are seat {settings.seat}. Type help for how to play.",
            )
            self._play()
            return 0
        except _Quit as left:
            self._say(f"{GOODBYE}{left}")
            return 0
        except _BotFailed as failed:
            self._say(self.palette.bad(str(failed)))
            return 2
        except KeyboardInterrupt:
            self._say("", f"{GOODBYE} (interrupted)")
            return 130
        finally:
            self._save()

    def _save(self) -> None:
        path = self.settings.save
        if path is not None:
            path.write_text(record_to_json(self.table.record) + "\n", encoding="utf-8")
            self._say("Match record written. To replay it:")
            # The command alone on its line, unwrapped, so that it can be copied whole.
            self._put(f"  sniff-rules replay {path}")

    def _tell(self) -> None:
        """Tell the events the person has not been told yet, as the seat sees them."""
        table = self.table
        for event in table.events_for(_TOKEN, self._told):
            self._say(*describe(event, self.seating, self.palette))
        self._told = len(table.events)

    def _play(self) -> None:
        while True:
            self._tell()
            table = self.table
            if table.phase is Phase.MATCH_OVER:
                return
            if table.phase is Phase.ROUND_OVER:
                self.table = table.deal_on(table.version, _TOKEN)
            elif table.bot_to_move:
                self.table = table.step_bot()
            elif table.to_move in self.processes:
                self.table = self._process_move(table, table.to_move)
            else:
                self._turns.append(table)
                view = table.view(_TOKEN)
                self._show(view)
                try:
                    move = self._ask(view)
                except _Undo:
                    self._back()
                    continue
                self.table = table.play(_TOKEN, move, table.version)

    def _process_move(self, table: Table, seat: Seat) -> Table:
        """The table after the bot process of ``seat`` moves, decided from that seat's view alone."""
        token = _bot_token(seat)
        try:
            move, _ = self.processes[seat](table.view(token), table.bot_source)
        except SniffError as failure:
            raise _BotFailed(failure_line(self.seating.names[seat], failure)) from None
        return table.play(token, move, table.version)

    def _back(self) -> None:
        """Back to the person's previous turn: its table, the events before it told again from there."""
        self._turns.pop()
        earlier = self._turns.pop()
        self.table = self.table.rewound_to(earlier)
        self._told = len(earlier.events)
        # A fresh deal is told again, as the round starts over for the person.
        if earlier.state.phase is Phase.PLAYING and earlier.state.layout.is_empty:
            self._told -= 1
        self._say(self.palette.bold("Taken back: your move and the replies after it."))

    def _show(self, view: SeatView) -> None:
        palette = self.palette
        names = self.seating.names
        sizes = ", ".join(f"{names[seat]} {size}" for seat, size in enumerate(view.hand_sizes))
        width = self.settings.width
        self._say(
            "",
            palette.bold(f"Round {view.round_number}, your turn.")
            + f" Boneyard {view.boneyard_size}. Tiles in hand: {sizes}.",
            f"Scores: {self.seating.scores(view.scores, palette)} (target {view.rules.target})",
        )
        self._put(*layout_picture(view.layout, width, self.settings.ascii_only).splitlines())
        lines = [
            *([] if view.layout.is_empty else [f"Counted: {count_text(view.layout)}"]),
            f"Your hand: {palette.mine(' '.join(map(str, view.hand)) or '-')}",
        ]
        if view.drawn_tile is not None:
            lines.append(f"You drew {view.drawn_tile}: it fits, so it must be placed now.")
        self._say(*lines)
        # Indented under the hand, like the rest of the turn's lines that are not headings.
        self._put(*(f"  {line}" for line in options_text(view, width=width - 2).splitlines()))

    def _ask(self, view: SeatView) -> Move:
        options = view.options
        moves = view.legal_moves
        numbers = "1 or Enter" if len(options) == 1 else f"1-{len(options)}"
        prompt = f"Your move ({numbers}, a tile, help, undo, quit): "
        if len(prompt) + 8 > self.settings.width:
            # Room left on the line for what is typed: a narrow terminal gets the short prompt.
            prompt = f"Move ({numbers}, help): "
        prompt = self.palette.bold(prompt)
        echo = not self.read.isatty()
        while True:
            self.write.write(prompt)
            self.write.flush()
            line = self.read.readline()
            if echo and line:
                # Typed lines that come from a pipe or a file are shown, so the transcript reads as a dialogue.
                self.write.write(line if line.endswith("\n") else line + "\n")
            if not line:
                self._say("")
                raise _Quit(" (end of input)")
            text = " ".join(line.lower().split())
            if text in ("quit", "exit", "q"):
                raise _Quit("")
            if text in ("help", "h", "?"):
                self._say(HELP)
            elif text == "undo":
                if len(self._turns) > 1:
                    raise _Undo
                self._say("Nothing to take back yet: this is your first move.")
            elif not text:
                if len(moves) == 1:
                    return moves[0]
                self._say(f"Type a number from 1 to {len(options)}, or a tile; help lists the rest.")
            elif _list_number(text, len(options)):
                return moves[int(text) - 1]
            elif text.isascii() and text.isdigit() and not _tile_digits(text):
                self._say(self.palette.bad(f"There is no move {text:.12}: the moves are numbered 1 to {len(options)}."))
            else:
                # Two pips beyond the list's numbers are a tile: 14 is [1|4].
                try:
                    return parse_typed_move(text, moves)
                except SniffError as refusal:
                    self._say(self._refusal(refusal, moves))

    def _refusal(self, refusal: SniffError, moves: tuple[Move, ...]) -> str:
        message = str(refusal).removeprefix(f"{refusal.rule}: ")
        candidates = getattr(refusal, "candidates", ())
        numbers = [str(moves.index(move) + 1) for move in candidates if move in moves]
        hint = f" Did you mean {' or '.join(numbers)}?" if numbers and len(numbers) < len(moves) else ""
        return self.palette.bad(f"Not a move here ({refusal.rule}): {message}.") + hint
