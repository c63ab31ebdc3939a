"""A match told in lines of text, for the terminal: who did what, the table, the scores.

Shared by ``sniff-rules play`` (a person against bots) and ``sniff-rules
replay`` (a recorded match). Nothing here decides what a seat may see:
the caller passes events already shown to the seat
(:meth:`~sniff_rules.play.events.Dealt.seen_by`). Colour is a
:class:`Palette`; :func:`colour_wanted` says whether a stream gets it (a
terminal, and no ``NO_COLOR`` in the environment, https://no-color.org).

>>> from sniff_rules import Rules, new_match, legal_moves
>>> from sniff_rules.play.events import apply_with_events
>>> state = new_match(Rules.standard(2), seed=20)
>>> state, events = apply_with_events(state, legal_moves(state)[0])
>>> describe(events[0], Seating.of(state.rules, {1: "greedy"}), PLAIN)
['seat 1 (greedy) leads [0|5]: count 5, +5. Scores: seat 0: 0, seat 1 (greedy): 5']
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Final, TextIO

import attrs

from sniff_rules._fast import is_tuple
from sniff_rules.draw.text import layout_text
from sniff_rules.layout import Layout
from sniff_rules.play.events import Dealt, Drew, Event, MatchWon, Passed, Placed, RoundEnded
from sniff_rules.rules import Rules, Seat

_RESET: Final = "\x1b[0m"


@attrs.frozen
class Palette:
    """How text is coloured: ANSI colours, or none at all (``enabled`` False)."""

    enabled: bool

    def _paint(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}{_RESET}" if self.enabled and text else text

    def bold(self, text: str) -> str:
        """Headings and the prompt."""
        return self._paint("1", text)

    def good(self, text: str) -> str:
        """Points scored."""
        return self._paint("32", text)

    def bad(self, text: str) -> str:
        """Refusals and deductions."""
        return self._paint("31", text)

    def mine(self, text: str) -> str:
        """The person's own seat and hand."""
        return self._paint("36", text)

    def quiet(self, text: str) -> str:
        """What matters less: hints, hidden tiles."""
        return self._paint("2", text)


PLAIN: Final = Palette(False)
"""No colour: pipes, files and ``NO_COLOR``."""

COLOUR: Final = Palette(True)
"""ANSI colours, for a terminal."""


def colour_wanted(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` gets colour: it is a terminal and ``NO_COLOR`` is unset or empty."""
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR", ""):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


@attrs.frozen
class Seating:
    """Who sits where: ``names[seat]`` as the lines call the seat, ``you`` the person's seat (or None)."""

    rules: Rules
    names: tuple[str, ...] = attrs.field(validator=is_tuple)
    you: Seat | None = None

    @classmethod
    def of(cls, rules: Rules, bots: Mapping[Seat, str], you: Seat | None = None) -> Seating:
        """Seats named ``you``, ``seat N (bot)``, ``seat N (your partner, bot)``, or ``seat N``."""
        names = []
        for seat in range(rules.players):
            if seat == you:
                names.append("you")
                continue
            notes = []
            if you is not None and rules.partnerships and rules.side_of(seat) == rules.side_of(you):
                notes.append("your partner")
            if seat in bots:
                notes.append(bots[seat])
            names.append(f"seat {seat}" + (f" ({', '.join(notes)})" if notes else ""))
        return cls(rules, tuple(names), you)

    def side_name(self, side: int) -> str:
        """The name of a score: a seat's, or a partnership's at four players."""
        seats = self.rules.seats_of(side)
        if len(seats) == 1:
            return self.names[seats[0]]
        if self.you in seats:
            partner = next(seat for seat in seats if seat != self.you)
            return f"you and seat {partner}"
        return "seats " + " and ".join(str(seat) for seat in seats)

    def scores(self, scores: tuple[int, ...], palette: Palette = PLAIN) -> str:
        """Every score, named: ``you: 35, seat 1 (greedy): 20`` (ASCII, for any terminal).

        The colon keeps a score apart from a seat number: ``you and seat 2: 0``.
        """
        parts = []
        for side, score in enumerate(scores):
            text = f"{self.side_name(side)}: {score}"
            mine = self.you is not None and self.rules.side_of(self.you) == side
            parts.append(palette.mine(text) if mine else text)
        return ", ".join(parts)


_ESCAPE: Final = re.compile(r"\x1b\[[0-9;]*m")


def visible_length(line: str) -> int:
    """The columns ``line`` takes in a terminal: its ANSI colour codes take none."""
    return len(_ESCAPE.sub("", line))


def fit(lines: Iterable[str], width: int, indent: str = "  ") -> list[str]:
    """``lines`` of prose wrapped at spaces to ``width`` columns, later parts indented.

    A line that fits is kept as it is; a longer one is broken between words,
    never inside one, unless a word alone is wider than the line.

    >>> fit(["Tiles in hand: you 7, seat 1 (greedy) 7, seat 2 (your partner, greedy) 7"], 40)
    ['Tiles in hand: you 7, seat 1 (greedy) 7,', '  seat 2 (your partner, greedy) 7']
    """
    out: list[str] = []
    for line in lines:
        if visible_length(line) <= width:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip(" "))]
        current = lead
        for word in line.split():
            candidate = current + (" " if current.strip() else "") + word
            if visible_length(candidate) <= width or not current.strip():
                current = candidate
            else:
                out.append(current)
                current = lead + indent + word
            # Only a word wider than a whole line is cut, and only when it carries no colour codes to cut through.
            while visible_length(current) > width and not _ESCAPE.search(current):
                out.append(current[:width])
                current = lead + indent + current[width:]
        if current.strip():
            out.append(current)
    return out


def tiles_text(tiles: tuple[object, ...]) -> str:
    """Tiles in their text forms, or ``-`` for none."""
    return " ".join(map(str, tiles)) or "-"


def layout_picture(layout: Layout, width: int = 80, ascii_only: bool = False) -> str:
    """The table drawn for a terminal of ``width`` columns (:func:`sniff_rules.draw.text.layout_text`),
    with its end count and open points; ``ascii_only`` draws without box-drawing characters."""
    return layout_text(layout, width=width, ascii=ascii_only)


def unicode_ok(stream: TextIO) -> bool:
    """Whether ``stream`` can show the box-drawing characters of the pictures."""
    try:
        "\u250c\u2501\u2573".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def count_text(layout: Layout) -> str:
    """The counted contributions and the end count: ``[1|2] 1 + [3|5] 5 = 6``."""
    terms = " + ".join(f"{item.tile} {item.value}" for item in layout.contributions)
    return f"{terms} = {layout.end_count}" if terms else str(layout.end_count)


def _points(points: int, palette: Palette) -> str:
    return palette.good(f"+{points}") if points else "+0"


def describe(event: Event, seating: Seating, palette: Palette = PLAIN) -> list[str]:
    """The lines telling ``event``, as shown to the seat it is seen by."""
    names = seating.names
    if type(event) is Dealt:
        lines = [palette.bold(f"-- round {event.round_number} --")]
        if event.lot:
            draws = "; then ".join(
                ", ".join(f"{names[seat]} {value}" for seat, value in round_draws) for round_draws in event.lot
            )
            lines.append(f"The lot (a die each, the highest opens): {draws}.")
        lines.append(f"{names[event.opener]} {'lead' if event.opener == seating.you else 'leads'}.")
        for seat, hand in enumerate(event.hands):
            if hand is not None:
                lines.append(f"{names[seat]}: {tiles_text(hand)}")
        return lines
    if type(event) is Placed:
        you = event.seat == seating.you
        target = event.placement.target
        verb = ("lead" if you else "leads") if target is None else ("play" if you else "plays")
        where = "" if target is None else f" on {target}"
        scores = seating.scores(event.scores, palette)
        told = f"{names[event.seat]} {verb} {event.tile}{where}: count {event.end_count}"
        return [f"{told}, {_points(event.points, palette)}. Scores: {scores}"]
    if type(event) is Drew:
        you = event.seat == seating.you
        tile = palette.quiet("a tile") if event.tile is None else str(event.tile)
        fits = " It fits: it must be placed now." if event.must_place else ""
        return [f"{names[event.seat]} {'draw' if you else 'draws'} {tile}.{fits}"]
    if type(event) is Passed:
        return [f"{names[event.seat]} {'pass' if event.seat == seating.you else 'passes'}: the boneyard is empty."]
    if type(event) is RoundEnded:
        how = "is blocked" if event.blocked else f"is played out by {names[event.finisher or 0]}"
        lines = [palette.bold(f"Round {event.round_number} {how}.")]
        settlement = event.settlement
        for seat, hand in enumerate(event.hands):
            cost = settlement.deductions[seat]
            deduction = palette.bad(f"-{cost}") if cost else "-0"
            lines.append(f"  {names[seat]}: {tiles_text(hand)} = {settlement.hand_pips[seat]} pips, {deduction}")
        lines.append(f"Scores: {seating.scores(event.scores_after, palette)}")
        return lines
    assert type(event) is MatchWon
    return [
        palette.bold(f"{seating.side_name(event.side)} won the match with {event.placement.tile}!"),
        f"Final scores: {seating.scores(event.scores, palette)}",
    ]
