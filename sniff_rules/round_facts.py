"""A round's facts: what stays fixed through it, how it ended, and where the match stands.

A :class:`~sniff_rules.state.State` holds its round's fixed facts in one
:class:`RoundContext`, so that a move copies one reference instead of six
fields; the last settled round is a :class:`RoundResult` in that context.
"""

from __future__ import annotations

import enum
from typing import Any, Final, final

import attrs

from sniff_rules._fast import constructor, fast_frozen, refuse_unstorable
from sniff_rules._value_class import value_class
from sniff_rules.errors import InvalidStateError
from sniff_rules.randomness import LotRound, RandomSource, check_source
from sniff_rules.rules import Rules, Seat, check_seat
from sniff_rules.scoring import Settlement
from sniff_rules.tiles import Tile


class Phase(enum.Enum):
    """Where the match stands."""

    PLAYING = "playing"
    """A round is under way; :func:`~sniff_rules.moves.legal_moves` is non-empty."""
    ROUND_OVER = "round-over"
    """The round ended and was settled; :func:`next_round` deals the next."""
    MATCH_OVER = "match-over"
    """A side reached the target (MATCH-1); nothing more is accepted (MATCH-2)."""

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


def _check_round_result(result: Any) -> None:
    if type(result.round_number) is not int or result.round_number < 1:
        raise InvalidStateError("FORMAT-3", f"round_number counts from 1, got {result.round_number!r}")
    if result.finisher is not None and type(result.finisher) is not int:
        raise InvalidStateError("FORMAT-3", f"finisher is a seat or None, got {result.finisher!r}")
    hands = result.hands
    if type(hands) is not tuple or not all(
        type(hand) is tuple and all(isinstance(tile, Tile) for tile in hand) for hand in hands
    ):
        raise InvalidStateError("FORMAT-3", f"hands is a tuple of tuples of tiles, got {hands!r}")
    if not isinstance(result.settlement, Settlement):
        raise InvalidStateError("FORMAT-3", f"settlement is a Settlement, got {result.settlement!r}")


@final
@fast_frozen(check=_check_round_result)
@attrs.frozen(weakref_slot=False)
class RoundResult:
    """How a round ended: the finisher (None when blocked), the hands
    revealed at its end, and their settlement (END-1, BLOCK-1, SETTLE-1..4)."""

    round_number: int
    finisher: Seat | None
    hands: tuple[tuple[Tile, ...], ...]
    settlement: Settlement

    @property
    def blocked(self) -> bool:
        """The round ended with nobody able to place (BLOCK-1)."""
        return self.finisher is None


def _is_lot(lot: object) -> bool:
    """A tuple of lot rounds, each a tuple of (seat, face) pairs: tuples all the way down, so the value hashes."""
    return type(lot) is tuple and all(
        type(lot_round) is tuple
        and all(
            type(draw) is tuple and len(draw) == 2 and all(type(part) is int for part in draw) for draw in lot_round
        )
        for lot_round in lot
    )


def _check_context(context: Any) -> None:
    if not isinstance(context.rules, Rules):
        raise InvalidStateError("FORMAT-3", f"rules is a Rules value, got {context.rules!r}")
    if type(context.round_number) is not int or context.round_number < 1:
        raise InvalidStateError("FORMAT-3", f"round_number counts from 1, got {context.round_number!r}")
    check_seat(context.rules, context.opener, "SETUP-2", InvalidStateError)
    if context.source is not None:
        check_source(context.source)
    if not _is_lot(context.lot):
        raise InvalidStateError("FORMAT-3", f"lot is a tuple of lot rounds, got {context.lot!r}")
    if context.last_round is not None and not isinstance(context.last_round, RoundResult):
        raise InvalidStateError("FORMAT-3", f"last_round is a RoundResult or None, got {context.last_round!r}")


@final
@value_class(frozen=True, auto_attribs=True, slots=False, weakref_slot=False)
class RoundContext:
    """What stays fixed through a round: the rules, the round's number and
    opener, the lot that chose the opener (empty when the finisher opens,
    OPEN-2), the random source for later deals, and the last settled round.

    Kept apart from :class:`~sniff_rules.state.State` so that a move copies one reference
    instead of six fields.
    """

    rules: Rules
    round_number: int
    opener: Seat
    source: RandomSource | None = None
    lot: tuple[LotRound, ...] = ()
    last_round: RoundResult | None = None

    def __new__(
        cls,
        rules: object,
        round_number: object,
        opener: object,
        source: object = None,
        lot: object = (),
        last_round: object = None,
    ) -> RoundContext:
        """Unchecked, for the engine; runs compiled only (the interpreted build replaces it: _fast.frozen_value)."""
        if (
            not isinstance(rules, Rules)
            or type(round_number) is not int
            or type(opener) is not int
            or type(lot) is not tuple
            or (last_round is not None and not isinstance(last_round, RoundResult))
        ):
            refuse_unstorable(_check_context, cls, (rules, round_number, opener, source, lot, last_round))
        context = object.__new__(cls)
        object.__setattr__(context, "rules", rules)
        object.__setattr__(context, "round_number", round_number)
        object.__setattr__(context, "opener", opener)
        object.__setattr__(context, "source", source)
        object.__setattr__(context, "lot", lot)
        object.__setattr__(context, "last_round", last_round)
        return context

    def _check_fields(self) -> None:
        """What ``RoundContext(...)`` checks, and ``RoundContext.__new__(RoundContext, ...)`` does not."""
        _check_context(self)


construct_result: Final = constructor(RoundResult)
"""RoundResult(...) for the engine's round ends, without the public check."""
