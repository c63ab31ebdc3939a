"""A person plays a whole match against the fair bots in the terminal: ``sniff-rules play``.

The match is played by :func:`sniff_rules.play.driver.play_match`; the
person's seat is a policy that shows the seat's view
(:class:`~sniff_rules.play.view.SeatView`: the table, the count, the open
points, the hand with each legal move numbered and the points it gives,
the scores, hand sizes and the boneyard) and reads a line. The bots see
their own views alone, and the person sees every event as that seat may
(:meth:`~sniff_rules.play.events.Dealt.seen_by`). What people type is read by
:func:`sniff_rules.formats.notation.parse_typed_move`, besides a number from the
list, ``help``, ``undo`` and ``quit``; a bad line gets a message and the
prompt again. End of input and Ctrl-C end the session with one line.

``undo`` takes back the person's last move and the bots' replies after it:
the session goes back to the state, events and bots' random source of the
person's previous turn and plays on from there with
:func:`~sniff_rules.play.driver.play_match`, so the bots answer as they did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TextIO

import attrs

from sniff_rules.draw.narration import PLAIN, Palette, Seating, count_text, describe, layout_picture
from sniff_rules.errors import InvalidStateError, SniffError
from sniff_rules.formats.notation import parse_typed_move
from sniff_rules.moves import Draw, Move, Place
from sniff_rules.play.driver import Policy, play_match
from sniff_rules.play.events import Event
from sniff_rules.play.registry import bot_policy, parse_bot
from sniff_rules.play.view import MoveOption, SeatView, seat_view
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules, Seat
from sniff_rules.state import Phase, State, new_match
from sniff_rules.verify.vectors.recorded_play import POLICY_SEED_OFFSET

HELP: Final = """\
Type one of:
  a number        the move of that number in the list
  a tile          14, 1-4 or [1|4]: its one legal placement (or the lead);
                  two digits are a tile when the list is shorter than that number
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


@attrs.frozen
class GameSettings:
    """A match of ``rules`` dealt from ``seed``: the person at ``seat``, ``bots[seat]`` elsewhere;
    the table drawn ``width`` columns wide, without box-drawing characters when ``ascii_only``."""

    rules: Rules
    seat: Seat
    bots: tuple[str, ...]
    seed: int = 1
    width: int = 80
    ascii_only: bool = False


def bots_for_seats(players: int, seat: Seat, names: Sequence[str]) -> tuple[str, ...]:
    """Each seat's bot name from ``names``: one name for every other seat, or one per other seat, in seat order.

    The person's own entry is ``"you"``. A name that is no bot raises
    :class:`~sniff_rules.play.registry.BotNameError` (FORMAT-1); a count that fits neither,
    :class:`~sniff_rules.errors.InvalidStateError` (SETUP-2).
    """
    names = [name.strip() for name in names]
    for name in names:
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


def _typed(move: Move) -> str:
    if type(move) is Place:
        return str(move.tile) if move.target is None else f"{move.tile} on {move.target}"
    return "draw" if type(move) is Draw else "pass"


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
        self._bots = {seat: bot_policy(name) for seat, name in bots.items()}
        self._history: list[Event] = []
        self._prefix: tuple[Event, ...] = ()
        self._current: State | None = None
        # At each of the person's turns: the state, how many events led to it, the bots' source.
        self._turns: list[tuple[State, int, RandomSource]] = []

    def _say(self, *lines: str) -> None:
        for line in lines:
            self.write.write(line + "\n")
        self.write.flush()

    def run(self) -> int:
        """Play the match to its end; the exit status: 0 (ended or left), 130 (Ctrl-C)."""
        settings = self.settings
        rules = settings.rules
        try:
            self._say(
                self.palette.bold(
                    f"American Sniff, {rules.players} players, to {rules.target} points, seed {settings.seed}."
                ),
                f"You are seat {settings.seat}. Type help for how to play.",
            )
            state = new_match(rules, seed=settings.seed)
            source: RandomSource = SplitMix64.from_seed(settings.seed + POLICY_SEED_OFFSET)
            while True:
                try:
                    self._play_from(state, source)
                    return 0
                except _Undo:
                    state, source = self._back()
        except _Quit as left:
            self._say(f"{GOODBYE}{left}")
            return 0
        except KeyboardInterrupt:
            self._say("", f"{GOODBYE} (interrupted)")
            return 130

    def _play_from(self, state: State, source: RandomSource) -> None:
        policies: list[Policy[SeatView]] = [
            self._person if seat == self.settings.seat else self._bots[seat] for seat in range(state.rules.players)
        ]
        self._prefix = tuple(self._history)
        for step in play_match(state, policies, source, present=self._present):
            self._history += step.events
            for event in step.events:
                self._say(*describe(event.seen_by(self.settings.seat), self.seating, self.palette))

    def _present(self, state: State, events: tuple[Event, ...]) -> SeatView:
        self._current = state
        return seat_view(state, state.to_move, self._prefix + events)

    def _back(self) -> tuple[State, RandomSource]:
        """Back to the person's previous turn: its state and source, the events before it."""
        self._turns.pop()
        state, known, source = self._turns.pop()
        # A fresh deal is told again by play_match, so its Dealt is dropped here.
        if state.phase is Phase.PLAYING and state.layout.is_empty:
            known -= 1
        del self._history[known:]
        self._say(self.palette.bold("Taken back: your move and the replies after it."))
        return state, source

    def _person(self, view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
        assert self._current is not None
        self._turns.append((self._current, len(self._history), source))
        self._show(view)
        return self._ask(view), source

    def _show(self, view: SeatView) -> None:
        palette = self.palette
        names = self.seating.names
        sizes = ", ".join(f"{names[seat]} {size}" for seat, size in enumerate(view.hand_sizes))
        lines = [
            "",
            palette.bold(f"Round {view.round_number}, your turn.")
            + f" Boneyard {view.boneyard_size}. Tiles in hand: {sizes}.",
            f"Scores: {self.seating.scores(view.scores, palette)} (target {view.rules.target})",
            *layout_picture(view.layout, self.settings.width, self.settings.ascii_only).splitlines(),
            *([] if view.layout.is_empty else [f"Counted: {count_text(view.layout)}"]),
            f"Your hand: {palette.mine(' '.join(map(str, view.hand)) or '-')}",
        ]
        if view.drawn_tile is not None:
            lines.append(f"You drew {view.drawn_tile}: it fits, so it must be placed now.")
        lines += [self._option_line(number, option) for number, option in enumerate(view.options, 1)]
        self._say(*lines)

    def _option_line(self, number: int, option: MoveOption) -> str:
        move = option.move
        if type(move) is not Place:
            return f"  {number:>2}. {_typed(move)}"
        points = self.palette.good(f"+{option.points}") if option.points else "+0"
        return f"  {number:>2}. {_typed(move):<24} count {option.end_count:>2}  {points}"

    def _ask(self, view: SeatView) -> Move:
        options = view.options
        moves = view.legal_moves
        numbers = "1 or Enter" if len(options) == 1 else f"1-{len(options)}"
        prompt = self.palette.bold(f"Your move ({numbers}, a tile, help, undo, quit): ")
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
