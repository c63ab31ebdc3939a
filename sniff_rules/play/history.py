"""A round's public log, as one seat sees it, and what it implies about the hidden hands.

A :class:`RoundLog` is a round's events from its deal on, each as one seat
may see it (:meth:`~sniff_rules.play.events.Drew.seen_by`): who placed what where
and for how many points, who drew (how many times; which tile only when the
seat itself drew it), who passed, and how the round ended. A draw or a pass
shows something more: the seat held no tile showing any value open at that
moment (DRAW-1, PASS-1), which :attr:`RoundLog.lacks` lists and
:meth:`RoundLog.lacking` sums up for a seat's hand now.

>>> from sniff_rules import Rules, SplitMix64, new_match
>>> from sniff_rules.play.bots import random_move
>>> from sniff_rules.play.driver import play_match
>>> steps = play_match(new_match(Rules.standard(4), seed=2), [random_move] * 4, SplitMix64.from_seed(2))
>>> events = [event for step in steps for event in step.events]
>>> first = round_logs(events, seat=0)[0]
>>> first.opener, first.draw_counts, first.hand_sizes, type(first.end).__name__
(0, (0, 0, 2, 0), (0, 1, 3, 1), 'RoundEnded')
>>> first.draws[1]
Drew(seat=2, tile=None, must_place=True, open_values=(2, 3, 4))
>>> round_logs(events, seat=2)[0].draws[1].tile, first.lacks[0], first.lacking(2)
(Tile(3, 5), Lacked(seat=2, values=(2, 3, 4), at=15), (2, 3, 4))
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Final, TypeAlias, assert_never

import attrs

from sniff_rules._fast import is_tuple, sealed
from sniff_rules.errors import InvalidStateError, described
from sniff_rules.play.events import EVENT_TYPES, Dealt, Drew, Event, MatchWon, Passed, Placed, RoundEnded
from sniff_rules.randomness import LotRound
from sniff_rules.rules import MAX_PLAYERS, Seat
from sniff_rules.tiles import Pip

_ENDS: Final = (RoundEnded, MatchWon)


@sealed()
@attrs.frozen
class Lacked:
    """Seat ``seat`` showed, at event ``at`` of its round's log (a draw or a pass),
    that no tile it held showed any of ``values``, the values then open (DRAW-1, PASS-1).

    The tiles it held are those dealt to it or drawn before ``at`` and not
    placed before ``at``; a tile drawn at ``at`` that does not fit shows none
    of ``values`` either.
    """

    seat: Seat
    values: tuple[Pip, ...] = attrs.field(validator=is_tuple)
    at: int


def _check_log(log: RoundLog) -> None:
    seat, events = log.seat, log.events
    if seat is not None and (type(seat) is not int or not 0 <= seat < MAX_PLAYERS):
        raise InvalidStateError("SETUP-2", f"a log is seen by a seat 0..{MAX_PLAYERS - 1} or None, got {seat!r}")
    if type(events) is not tuple or not all(isinstance(event, EVENT_TYPES) for event in events):
        raise InvalidStateError("FORMAT-3", f"a log's events are a tuple of events, got {described(events, 200)}")
    if not events or type(events[0]) is not Dealt:
        raise InvalidStateError("FORMAT-3", "a round's log starts with its deal, a Dealt event")
    for index, event in enumerate(events[1:], 1):
        if type(event) is Dealt:
            raise InvalidStateError("FORMAT-3", f"a round's log holds one deal; event {index} is another")
        if isinstance(events[index - 1], _ENDS):
            raise InvalidStateError("END-1", f"the round ended at event {index - 1}; event {index} follows it")
    hidden = [index for index, event in enumerate(events) if event.seen_by(seat) != event]
    if hidden:
        raise InvalidStateError("SETUP-6", f"events {hidden} hold what seat {seat} cannot see; use RoundLog.of")


@sealed()
@attrs.frozen
class RoundLog:
    """One round's events, from its :class:`~sniff_rules.play.events.Dealt` on, as ``seat`` sees them.

    ``seat`` None is what every seat sees alike (no dealt hand, no drawn
    tile). The log may stop before the round ends; once it ends, its last
    event is the :class:`~sniff_rules.play.events.RoundEnded` or
    :class:`~sniff_rules.play.events.MatchWon`. Build one with :meth:`of`, which
    hides what ``seat`` may not see; the constructor refuses a log holding it.
    """

    seat: Seat | None
    events: tuple[Event, ...]

    def __attrs_post_init__(self) -> None:
        _check_log(self)

    @classmethod
    def of(cls, events: Iterable[Event], seat: Seat | None = None) -> RoundLog:
        """The log of the last round in ``events`` (from its last deal on), as ``seat`` sees it."""
        if isinstance(events, (str, bytes)) or not isinstance(events, Iterable):
            raise InvalidStateError("FORMAT-3", f"events are an iterable of events, got {described(events, 200)}")
        given = tuple(events)
        if not all(isinstance(event, EVENT_TYPES) for event in given):
            raise InvalidStateError("FORMAT-3", f"events are an iterable of events, got {described(given, 200)}")
        starts = [index for index, event in enumerate(given) if type(event) is Dealt]
        round_events = given[starts[-1] :] if starts else given
        if seat is not None and (type(seat) is not int or not 0 <= seat < MAX_PLAYERS):
            raise InvalidStateError("SETUP-2", f"a log is seen by a seat 0..{MAX_PLAYERS - 1} or None, got {seat!r}")
        return cls(seat, tuple(event.seen_by(seat) for event in round_events))

    @property
    def deal(self) -> Dealt:
        """The round's deal: its number, opener, lot and (for the seat) its dealt hand."""
        deal = self.events[0]
        assert type(deal) is Dealt
        return deal

    @property
    def round_number(self) -> int:
        """The round's number, 1 for the first of the match."""
        return self.deal.round_number

    @property
    def opener(self) -> Seat:
        """The seat that led the round (OPEN-1, OPEN-2)."""
        return self.deal.opener

    @property
    def lot(self) -> tuple[LotRound, ...]:
        """The lot that chose the opener; empty when the finisher opens or the opener was named."""
        return self.deal.lot

    @property
    def players(self) -> int:
        """How many seats play."""
        return len(self.deal.hands)

    @property
    def placements(self) -> tuple[Placed, ...]:
        """Every placement of the round, in order: who placed what where, for how many points."""
        return tuple(event for event in self.events if type(event) is Placed)

    @property
    def draws(self) -> tuple[Drew, ...]:
        """Every draw of the round, in order; the tile is shown for the log's own seat only."""
        return tuple(event for event in self.events if type(event) is Drew)

    @property
    def passes(self) -> tuple[Passed, ...]:
        """Every pass of the round, in order."""
        return tuple(event for event in self.events if type(event) is Passed)

    @property
    def draw_counts(self) -> tuple[int, ...]:
        """How many tiles each seat has drawn this round."""
        counts = [0] * self.players
        for draw in self.draws:
            counts[draw.seat] += 1
        return tuple(counts)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds after the last event: dealt, plus drawn, less placed."""
        sizes = [self.deal.hand_size + drawn for drawn in self.draw_counts]
        for placed in self.placements:
            sizes[placed.seat] -= 1
        return tuple(sizes)

    @property
    def boneyard_size(self) -> int:
        """Tiles left to draw after the last event."""
        return self.deal.boneyard_size - len(self.draws)

    @property
    def end(self) -> RoundEnded | MatchWon | None:
        """How the round ended, or None while it goes on."""
        last = self.events[-1]
        return last if isinstance(last, _ENDS) else None

    @property
    def is_over(self) -> bool:
        """The round has ended: played out, blocked, or the match won in it."""
        return self.end is not None

    @property
    def lacks(self) -> tuple[Lacked, ...]:
        """What each draw and pass showed: the values the seat held no tile of (DRAW-1, PASS-1)."""
        return tuple(
            Lacked(event.seat, event.open_values, index)
            for index, event in enumerate(self.events)
            if type(event) is Drew or type(event) is Passed
        )

    def lacking(self, seat: Seat) -> tuple[Pip, ...]:
        """The values no tile of ``seat``'s hand shows after the last event, as far as the log shows.

        A draw or a pass shows the hand held none of the open values; the
        hand keeps lacking them while it only loses tiles. A tile drawn and
        kept (it did not fit) lacks only the values open when it was drawn,
        so a turn that keeps one starts the sum again from that turn's values.
        A drawn tile waiting to be placed (DRAW-2) is left out: it fits, and
        the next event places it.

        >>> from sniff_rules import Placement, Tile
        >>> from sniff_rules.scoring import Settlement
        >>> deal = Dealt(1, 0, (), 1, 24, ((Tile(1, 4),), (Tile(2, 2),)), (0, 0))
        >>> led = Placed(0, Placement(Tile(1, 4), None), 5, 5, (), (5, 0))
        >>> log = RoundLog.of([deal, led, Drew(1, Tile(0, 3), False, (1, 4))], seat=0)
        >>> log.lacking(1), log.events[-1].tile is None
        ((1, 4), True)
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            raise InvalidStateError("SETUP-2", f"seats run 0..{self.players - 1}, got {seat!r}")
        lack = NO_LACK
        for event in self.events:
            match event:
                case Placed() | Drew() | Passed() if event.seat == seat:
                    lack = lack_after(lack, event)
        return lacking_values(lack)


Lack: TypeAlias = tuple[frozenset[Pip], frozenset[Pip] | None, bool]
"""What :meth:`RoundLog.lacking` folds over one seat's events: the values lacked before
the seat's current turn, the values open at that turn's first draw or pass (None outside
such a turn), and whether the turn kept a drawn tile."""

NO_LACK: Final[Lack] = (frozenset(), None, False)
"""A seat's :data:`Lack` before any of its draws or passes."""


def lack_after(lack: Lack, event: Drew | Passed | Placed) -> Lack:
    """The seat's :data:`Lack` after ``event``, one of its own draws, passes or placements.

    :meth:`RoundLog.lacking` is this fold over a log; a caller that sees a round one event
    at a time (an environment) keeps each seat's :data:`Lack` instead of replaying the log.
    """
    lacked, turn, kept = lack
    # Cases in the order of how often they come: most turns place a tile. A draw or a pass outside a
    # turn opens one, with the values open then.
    match event:
        case Placed():
            return lack if turn is None else (_after_turn(lacked, turn, kept), None, False)
        case Drew():
            if turn is None:
                turn, kept = frozenset(event.open_values), False
            return (lacked, turn, kept or not event.must_place)
        case Passed():
            if turn is None:
                turn, kept = frozenset(event.open_values), False
            return (_after_turn(lacked, turn, kept), None, False)
        case _:
            assert_never(event)


def lacking_values(lack: Lack) -> tuple[Pip, ...]:
    """The values a seat's hand lacks, given its :data:`Lack` (see :meth:`RoundLog.lacking`)."""
    lacked, turn, kept = lack
    return tuple(sorted(lacked if turn is None else _after_turn(lacked, turn, kept)))


def _after_turn(lacked: frozenset[Pip], turn: frozenset[Pip], kept: bool) -> frozenset[Pip]:
    """What a hand lacks after a turn that drew or passed with ``turn`` open."""
    return turn if kept else lacked | turn


def round_logs(events: Iterable[Event], seat: Seat | None = None) -> tuple[RoundLog, ...]:
    """Every round of ``events`` (a match's, from its first deal on) as its log, as ``seat`` sees it."""
    given = tuple(events)
    starts = [index for index, event in enumerate(given) if type(event) is Dealt]
    if given and (not starts or starts[0] != 0):
        raise InvalidStateError("FORMAT-3", "a match's events start with its first deal, a Dealt event")
    bounds = [*starts, len(given)]
    return tuple(RoundLog.of(given[start:stop], seat) for start, stop in pairwise(bounds))
