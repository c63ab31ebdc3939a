"""Events as JSON (``$defs/event`` of ``specs/vectors/schema.json``), both ways.

Write what a seat may see: ``event_to_data(event.seen_by(seat))``; an
event as played holds every hand it deals. :func:`event_from_data` reads
one back as hardened as a state: FORMAT-2 for the JSON's shape, FORMAT-1
for a tile's or a placement's text, FORMAT-3 for a value no event holds.

>>> event_from_data(event_to_data(Passed(1, (0, 5))), 2)
Passed(seat=1, open_values=(0, 5))
"""

from __future__ import annotations

import json
from typing import Final

from sniff_rules.errors import InvalidStateError, NotationError, described
from sniff_rules.formats.notation import parse_placement, parse_tile
from sniff_rules.formats.state_json import (
    contributions_to_data,
    lot_from_data,
    lot_to_data,
    read_hands,
    settlement_from_data,
    settlement_to_data,
    tiles_to_data,
)
from sniff_rules.formats.strict_json import (
    JSON_RULE,
    JsonObject,
    JsonValue,
    json_array,
    json_int,
    json_ints,
    json_object,
    json_str,
)
from sniff_rules.layout import Contribution
from sniff_rules.play.events import Dealt, Drew, Event, MatchWon, Passed, Placed, RoundEnded
from sniff_rules.rules import MAX_PLAYERS, Rules
from sniff_rules.tiles import HIGHEST_PIP, TILE_COUNT, Tile

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
        return {
            "event": "placed",
            "seat": event.seat,
            "placement": str(event.placement),
            "end_count": event.end_count,
            "points": event.points,
            "contributions": contributions_to_data(event.contributions),
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


# ---------------------------------------------------------------- JSON -> event

_EVENT_KEYS: Final = {
    "dealt": ("event", "round", "opener", "lot", "hand_size", "boneyard_size", "hands", "scores"),
    "placed": ("event", "seat", "placement", "end_count", "points", "contributions", "scores"),
    "drew": ("event", "seat", "tile", "must_place", "open_values"),
    "passed": ("event", "seat", "open_values"),
    "round-ended": ("event", "round", "finisher", "hands", "settlement", "scores_before", "scores_after"),
    "match-won": ("event", "round", "side", "seat", "placement", "scores", "hands"),
}


def _shown_hands(value: JsonValue, players: int, what: str) -> tuple[tuple[Tile, ...], ...]:
    return tuple(hand for hand in read_hands(value, players, what) if hand is not None)


def _bool(value: JsonValue, what: str) -> bool:
    if type(value) is not bool:
        raise NotationError(JSON_RULE, f"{what} is true or false, got {value!r:.40}")
    return value


def _open_values(value: JsonValue, what: str) -> tuple[int, ...]:
    return tuple(json_ints(value, what, HIGHEST_PIP + 1))


def _contributions(value: JsonValue, what: str) -> tuple[Contribution, ...]:
    found = []
    for number, item in enumerate(json_array(value, what, TILE_COUNT * 2)):
        entry = json_object(item, f"{what}[{number}]", ("tile", "value"))
        tile = parse_tile(json_str(entry["tile"], f"{what}[{number}].tile"))
        found.append(Contribution(tile, json_int(entry["value"], f"{what}[{number}].value")))
    return tuple(found)


def event_from_data(value: JsonValue, players: int, what: str = "event") -> Event:
    """The event a JSON object (``$defs/event``) describes, at a table of ``players`` seats.

    The object has exactly the keys of its ``event`` kind (FORMAT-2); its
    tiles and placements are read by FORMAT-1, its values checked as the
    event's constructor checks them (FORMAT-3). Whether the event could
    happen where it stands is for the round it is read in to say
    (:func:`sniff_rules.formats.view_json.seat_view_from_data`).
    """
    kind = json_str(json_object(value, what).get("event"), f"{what}.event")
    keys = _EVENT_KEYS.get(kind)
    if keys is None:
        raise NotationError(JSON_RULE, f"{what}.event is one of {', '.join(_EVENT_KEYS)}; got {kind!r:.40}")
    data = json_object(value, what, keys)
    rules = Rules.standard(players) if type(players) is int and 2 <= players <= MAX_PLAYERS else None
    if rules is None:
        raise InvalidStateError("SETUP-2", f"an event is read at a table of 2..{MAX_PLAYERS} seats, got {players!r}")

    def number(key: str) -> int:
        return json_int(data[key], f"{what}.{key}")

    def scores(key: str) -> tuple[int, ...]:
        return tuple(json_ints(data[key], f"{what}.{key}", MAX_PLAYERS))

    def seat_or_none(key: str) -> int | None:
        return None if data[key] is None else number(key)

    if kind == "dealt":
        hands = read_hands(data["hands"], players, f"{what}.hands", hidden=True)
        lot = lot_from_data(data["lot"], rules, f"{what}.lot")
        counts = (number("round"), number("opener"), number("hand_size"), number("boneyard_size"))
        return Dealt(counts[0], counts[1], lot, counts[2], counts[3], hands, scores("scores"))
    if kind == "placed":
        placement = parse_placement(json_str(data["placement"], f"{what}.placement"))
        contributions = _contributions(data["contributions"], f"{what}.contributions")
        return Placed(number("seat"), placement, number("end_count"), number("points"), contributions, scores("scores"))
    if kind == "drew":
        tile = None if data["tile"] is None else parse_tile(json_str(data["tile"], f"{what}.tile"))
        must_place = _bool(data["must_place"], f"{what}.must_place")
        return Drew(number("seat"), tile, must_place, _open_values(data["open_values"], f"{what}.open_values"))
    if kind == "passed":
        return Passed(number("seat"), _open_values(data["open_values"], f"{what}.open_values"))
    if kind == "round-ended":
        return RoundEnded(
            number("round"),
            seat_or_none("finisher"),
            _shown_hands(data["hands"], players, f"{what}.hands"),
            settlement_from_data(data["settlement"], f"{what}.settlement"),
            scores("scores_before"),
            scores("scores_after"),
        )
    placement = parse_placement(json_str(data["placement"], f"{what}.placement"))
    return MatchWon(
        number("round"),
        number("side"),
        number("seat"),
        placement,
        scores("scores"),
        _shown_hands(data["hands"], players, f"{what}.hands"),
    )
