"""House rules: the few numbers that differ between tables (SETUP-2..4)."""

from __future__ import annotations

from typing import Final, TypeAlias

import attrs

from sniff_rules.errors import InvalidRulesError
from sniff_rules.tiles import TILE_COUNT

Seat: TypeAlias = int
"""A player's seat, 0..players-1; turns pass 0 -> 1 -> 2 -> 3 -> 0."""

Side: TypeAlias = int
"""Who owns a score: the seat itself, or with four players the partnership
``seat % 2`` (seats 0 and 2 against 1 and 3)."""

STANDARD_HAND_SIZE: Final = {2: 7, 3: 6, 4: 5}
STANDARD_TARGET: Final = {2: 250, 3: 200, 4: 200}


def _check_players(_instance: object, _attribute: object, players: int) -> None:
    if type(players) is not int or players not in STANDARD_HAND_SIZE:
        raise InvalidRulesError("SETUP-2", f"American Sniff is for 2 to 4 players, got {players!r}")


def _check_hand_size(instance: "Rules", _attribute: object, hand_size: int) -> None:
    if type(hand_size) is not int or hand_size < 1 or hand_size * instance.players >= TILE_COUNT:
        raise InvalidRulesError(
            "SETUP-4",
            f"{hand_size!r} tiles each for {instance.players} players does not leave a boneyard"
            " of the 28 tiles",
        )


def _check_target(_instance: object, _attribute: object, target: int) -> None:
    if type(target) is not int or target <= 0 or target % 5:
        raise InvalidRulesError(
            "SETUP-3", f"the target is a positive multiple of 5 raw points, got {target!r}"
        )


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

    def side_of(self, seat: Seat) -> Side:
        """The score a seat plays for (SETUP-2)."""
        return seat % self.sides

    def seats_of(self, side: Side) -> tuple[Seat, ...]:
        """The seats that share a score."""
        return tuple(seat for seat in range(self.players) if seat % self.sides == side)
