"""A seat's view as JSON (``$defs/seatView`` of ``specs/vectors/schema.json``): what a server sends a seat.

Unlike a state's JSON it holds no secret: the view it writes is built
from one seat's knowledge alone (:func:`sniff_rules.play.view.seat_view`).
"""

from __future__ import annotations

import json
from typing import Final

from sniff_rules.errors import InvalidStateError, described
from sniff_rules.formats.event_json import event_to_data
from sniff_rules.formats.state_json import lot_to_data, round_result_to_data, rules_to_data, tiles_to_data
from sniff_rules.formats.strict_json import JsonObject, JsonValue
from sniff_rules.layout import Layout
from sniff_rules.moves import Draw, Place
from sniff_rules.play.view import MoveOption, SeatView

SEAT_VIEW_FORMAT: Final = "sniff-rules/seat-view@1"
"""The ``format`` tag of a seat view's JSON."""


def _layout_data(layout: Layout) -> JsonObject:
    contributions: list[JsonValue] = [{"tile": str(item.tile), "value": item.value} for item in layout.contributions]
    return {
        "placements": [str(placement) for placement in layout.placements],
        "open_points": [str(point) for point in layout.open_points],
        "end_count": layout.end_count,
        "contributions": contributions,
    }


def option_to_data(option: MoveOption) -> JsonObject:
    """A legal move of a seat's view as JSON: its text, and the same move as data, so no client parses the text.

    ``kind`` is ``place``, ``draw`` or ``pass``; ``tile`` the tile placed and
    ``point`` the attachment point it goes on, in their text forms (``point``
    null for a lead, both null for a draw or a pass); ``seat`` the seat
    moving; ``end_count`` and ``points`` what the move gives now.

    >>> from sniff_rules import Rules, new_match
    >>> from sniff_rules.play.events import Dealt
    >>> from sniff_rules.play.view import seat_view
    >>> state = new_match(Rules.standard(2), seed=20)
    >>> option_to_data(seat_view(state, state.to_move, [Dealt.of(state)]).options[0])
    {'move': '1:[0|5]', 'kind': 'place', 'tile': '[0|5]', 'point': None, 'seat': 1, 'end_count': 5, 'points': 5}
    """
    move = option.move
    if type(move) is Place:
        kind, tile, point = "place", str(move.tile), None if move.target is None else str(move.target)
    else:
        kind, tile, point = ("draw" if type(move) is Draw else "pass"), None, None
    return {
        "move": str(move),
        "kind": kind,
        "tile": tile,
        "point": point,
        "seat": move.seat,
        "end_count": option.end_count,
        "points": option.points,
    }


def seat_view_to_data(view: SeatView) -> JsonObject:
    """The JSON object (``$defs/seatView`` of ``specs/vectors/schema.json``) for ``view``.

    Keys in a fixed order; tiles, placements, points and moves in their
    text forms, each option beside its text as data (:func:`option_to_data`);
    ``history`` the round's events as the seat sees them
    (``$defs/event``); ``lacking`` the values each seat's hand lacks;
    ``sides`` the seats of each side (so no client hard-codes 0+2 / 1+3).
    Where a key differs from the field's name (``round``, ``drawn``) the
    schema's ``$defs/seatView`` says so.

    >>> from sniff_rules import Rules, new_match
    >>> from sniff_rules.play.events import Dealt
    >>> from sniff_rules.play.view import seat_view
    >>> state = new_match(Rules.standard(2), seed=20)
    >>> data = seat_view_to_data(seat_view(state, 0, [Dealt.of(state)]))
    >>> data["hand_sizes"], data["options"], data["history"][0]["hands"][1]
    ([7, 7], [], None)
    """
    if type(view) is not SeatView:
        raise InvalidStateError("FORMAT-3", f"seat_view_to_data writes a SeatView, got {described(view, 200)}")
    options: list[JsonValue] = [option_to_data(option) for option in view.options]
    lacking: list[JsonValue] = [list(values) for values in view.lacking]
    revealed = view.revealed_hands
    return {
        "format": SEAT_VIEW_FORMAT,
        "seat": view.seat,
        "rules": rules_to_data(view.rules),
        "sides": [list(view.rules.seats_of(side)) for side in range(view.rules.sides)],
        "phase": view.phase.value,
        "round": view.round_number,
        "opener": view.opener,
        "lot": lot_to_data(view.lot),
        "to_move": view.to_move,
        "hand": tiles_to_data(view.hand),
        "drawn": None if view.drawn_tile is None else str(view.drawn_tile),
        "hand_sizes": list(view.hand_sizes),
        "boneyard_size": view.boneyard_size,
        "layout": _layout_data(view.layout),
        "scores": list(view.scores),
        "history": [event_to_data(event) for event in view.history.events],
        "lacking": lacking,
        "options": options,
        "last_round": None if view.last_round is None else round_result_to_data(view.last_round),
        "revealed_hands": None if revealed is None else [tiles_to_data(hand) for hand in revealed],
        "winner": view.winner,
    }


def seat_view_to_json(view: SeatView) -> str:
    """``view`` as compact JSON text (see :func:`seat_view_to_data`); safe to send to its seat."""
    return json.dumps(seat_view_to_data(view), separators=(",", ":"))
