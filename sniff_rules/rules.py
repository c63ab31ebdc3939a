"""House rules: the few numbers that differ between tables (SETUP-2..4).

A :class:`Rules` value also carries the per-seat tables the engine reads on
every move (each seat's side, the next seat), so that the partnership rule
is written once, here.
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias, overload

import attrs

from sniff_rules._fast import sealed
from sniff_rules.errors import InvalidRulesError, SniffError
from sniff_rules.tiles import TILE_COUNT

Seat: TypeAlias = int
"""A player's seat, 0..players-1; turns pass 0 -> 1 -> 2 -> 3 -> 0."""

Side: TypeAlias = int
"""Who owns a score: the seat itself, or with four players the partnership
``seat % 2`` (seats 0 and 2 against 1 and 3)."""

STANDARD_HAND_SIZE: Final = {2: 7, 3: 6, 4: 5}
STANDARD_TARGET: Final = {2: 250, 3: 200, 4: 200}
PLAYER_COUNTS: Final = tuple(STANDARD_HAND_SIZE)
"""How many may play: 2, 3 or 4 (SETUP-2)."""
MAX_PLAYERS: Final = max(PLAYER_COUNTS)
"""The most seats at a table; the engine's per-seat tables have this many entries."""
MAX_TARGET: Final = 10**15
"""The largest target (SETUP-3): far below 2**53, so that every score a match
can reach stays an integer that any JSON reader carries exactly (FORMAT-2)."""


def _check_players(_instance: object, _attribute: object, players: Any) -> None:
    if type(players) is not int or players not in STANDARD_HAND_SIZE:
        raise InvalidRulesError("SETUP-2", f"American Sniff is for 2 to 4 players, got {players!r}")


def _check_hand_size(instance: Any, _attribute: object, hand_size: Any) -> None:
    if type(hand_size) is not int or hand_size < 1 or hand_size * instance.players >= TILE_COUNT:
        raise InvalidRulesError(
            "SETUP-4",
            f"{hand_size!r} tiles each for {instance.players} players does not leave a boneyard of the 28 tiles",
        )


def _check_target(_instance: object, _attribute: object, target: Any) -> None:
    if type(target) is not int or not 0 < target <= MAX_TARGET or target % 5:
        raise InvalidRulesError(
            "SETUP-3", f"the target is a positive multiple of 5 raw points up to 10**15, got {target!r}"
        )


def side_of_seat(players: int, seat: Seat) -> Side:
    """The score ``seat`` plays for: the seat itself, or with four players its partnership (SETUP-2)."""
    return seat % (2 if players == 4 else players)


@sealed()
@attrs.frozen
class Rules:
    """The table's settings; :meth:`standard` gives the seed's.

    >>> Rules.standard(4)
    Rules(players=4, hand_size=5, target=200)
    >>> Rules.standard(4).side_of(2), Rules.standard(3).sides
    (0, 3)
    >>> Rules.standard(5)
    Traceback (most recent call last):
    ...
    sniff_rules.errors.InvalidRulesError: SETUP-2: American Sniff is for 2 to 4 players, got 5
    """

    players: int = attrs.field(validator=_check_players)
    hand_size: int = attrs.field(validator=_check_hand_size)
    target: int = attrs.field(validator=_check_target)
    seat_sides: tuple[Side, ...] = attrs.field(init=False, eq=False, repr=False)
    """Each seat's side (SETUP-2), read by the engine on every scoring placement."""
    next_seats: tuple[Seat, ...] = attrs.field(init=False, eq=False, repr=False)
    """The seat after each seat, clockwise (TURN-1)."""

    def __attrs_post_init__(self) -> None:
        seats = range(self.players)
        object.__setattr__(self, "seat_sides", tuple(side_of_seat(self.players, seat) for seat in seats))
        object.__setattr__(self, "next_seats", tuple((seat + 1) % self.players for seat in seats))

    @classmethod
    def standard(cls, players: int) -> Rules:
        """The seed's rules: 7/6/5 tiles each, target 250 (2 players) or 200."""
        _check_players(None, None, players)
        return cls(players, STANDARD_HAND_SIZE[players], STANDARD_TARGET[players])

    @property
    def partnerships(self) -> bool:
        """Four players play as two fixed partnerships of opposite seats."""
        return self.players == 4

    @property
    def sides(self) -> int:
        """How many scores the match keeps."""
        return 2 if self.players == 4 else self.players

    @overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
    def side_of(self, seat: Seat) -> Side: ...
    def side_of(self, seat: Any) -> Side:
        """The score a seat plays for (SETUP-2)."""
        return self.seat_sides[check_seat(self, seat, "SETUP-2")]

    def seats_of(self, side: Side) -> tuple[Seat, ...]:
        """The seats that share a score."""
        if type(side) is not int or not 0 <= side < self.sides:
            raise InvalidRulesError("SETUP-2", f"sides run 0..{self.sides - 1}, got {side!r}")
        return tuple(seat for seat, owner in enumerate(self.seat_sides) if owner == side)


def check_seat(rules: Rules, seat: object, rule: str, error: type[SniffError] = InvalidRulesError) -> Seat:
    """``seat`` if it is a seat of ``rules``; otherwise ``error`` citing ``rule``.

    The one seat check of the library: a seat is an int (not a bool) in
    ``0..players-1``.
    """
    if type(seat) is not int or not 0 <= seat < rules.players:
        raise error(rule, f"seats run 0..{rules.players - 1}, got {seat!r}")
    return seat
