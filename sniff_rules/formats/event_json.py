"""Events as JSON (``$defs/event`` of ``specs/vectors/schema.json``).

Write what a seat may see: ``event_to_data(event.seen_by(seat))``; an
event as played holds every hand it deals.
"""

from __future__ import annotations

import json
from typing import Final

from sniff_rules.errors import InvalidStateError, described
from sniff_rules.formats.state_json import lot_to_data, settlement_to_data, tiles_to_data
from sniff_rules.formats.strict_json import JsonObject, JsonValue
from sniff_rules.play.events import Dealt, Drew, Event, MatchWon, Passed, Placed, RoundEnded
from sniff_rules.tiles import Tile

EVENT_FORMAT: Final = "sniff-rules/event@1"
"""The ``format`` tag of a lone event's document (:func:`event_document`); an event within a view carries none."""


def _hands_data(hands: tuple[tuple[Tile, ...] | None, ...]) -> list[JsonValue]:
    return [None if hand is None else tiles_to_data(hand) for hand in hands]


def event_to_data(event: Event) -> JsonObject:
    """The JSON object (``$defs/event`` of ``specs/vectors/schema.json``) for ``event``.

    ``"event"`` names the kind (``dealt``, ``placed``, ``drew``, ``passed``,
    ``round-ended``, ``match-won``); the other keys are the event's fields,
    ``round_number`` written ``round``, tiles and placements in their text
    forms. Write what a seat may see: ``event_to_data(event.seen_by(seat))``.

    >>> event_to_data(Drew(0, None, False, (2, 6)))
    {'event': 'drew', 'seat': 0, 'tile': None, 'must_place': False, 'open_values': [2, 6]}
    """
    if type(event) is Dealt:
        return {
            "event": "dealt",
            "round": event.round_number,
            "opener": event.opener,
            "lot": lot_to_data(event.lot),
            "hand_size": event.hand_size,
            "boneyard_size": event.boneyard_size,
            "hands": _hands_data(event.hands),
            "scores": list(event.scores),
        }
    if type(event) is Placed:
        contributions: list[JsonValue] = [{"tile": str(item.tile), "value": item.value} for item in event.contributions]
        return {
            "event": "placed",
            "seat": event.seat,
            "placement": str(event.placement),
            "end_count": event.end_count,
            "points": event.points,
            "contributions": contributions,
            "scores": list(event.scores),
        }
    if type(event) is Drew:
        tile = None if event.tile is None else str(event.tile)
        values: list[JsonValue] = list(event.open_values)
        return {
            "event": "drew",
            "seat": event.seat,
            "tile": tile,
            "must_place": event.must_place,
            "open_values": values,
        }
    if type(event) is Passed:
        return {"event": "passed", "seat": event.seat, "open_values": list(event.open_values)}
    if type(event) is RoundEnded:
        return {
            "event": "round-ended",
            "round": event.round_number,
            "finisher": event.finisher,
            "hands": _hands_data(event.hands),
            "settlement": settlement_to_data(event.settlement),
            "scores_before": list(event.scores_before),
            "scores_after": list(event.scores_after),
        }
    if type(event) is MatchWon:
        return {
            "event": "match-won",
            "round": event.round_number,
            "side": event.side,
            "seat": event.seat,
            "placement": str(event.placement),
            "scores": list(event.scores),
            "hands": _hands_data(event.hands),
        }
    raise InvalidStateError("FORMAT-3", f"event_to_data writes an event, got {described(event, 200)}")


def event_document(event: Event) -> JsonObject:
    """``event`` as a document of its own (``$defs/eventDocument``): its format tag, then :func:`event_to_data`.

    >>> event_document(Passed(1, (0, 5)))
    {'format': 'sniff-rules/event@1', 'event': 'passed', 'seat': 1, 'open_values': [0, 5]}
    """
    return {"format": EVENT_FORMAT, **event_to_data(event)}


def event_to_json(event: Event) -> str:
    """``event`` as compact JSON text, its format tag first (see :func:`event_document`)."""
    return json.dumps(event_document(event), separators=(",", ":"))
