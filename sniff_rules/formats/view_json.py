"""A seat's view as JSON (``$defs/seatView`` of ``specs/vectors/schema.json``), both ways: what a server sends a seat.

Unlike a state's JSON it holds no secret: the view it writes is built
from one seat's knowledge alone (:func:`sniff_rules.play.view.seat_view`).
:func:`seat_view_from_json` reads one back — what a bot in another process
receives — as hardened as a state: malformed JSON is refused citing FORMAT-2
(FORMAT-1 for a tile's, a placement's or a move's text), and a well-formed
view that no round could give its seat, FORMAT-3: the round its history
tells is replayed from a deal consistent with it, and every other key must
be what that round gives, so the view read is exactly the one written.

>>> from sniff_rules import Rules, new_match
>>> from sniff_rules.play.events import Dealt
>>> from sniff_rules.play.view import seat_view
>>> state = new_match(Rules.standard(2), seed=20)
>>> view = seat_view(state, 1, [Dealt.of(state)])
>>> seat_view_from_json(seat_view_to_json(view)) == view
True
"""

from __future__ import annotations

import json
from typing import Final

from sniff_rules.errors import InvalidStateError, SniffError, described
from sniff_rules.formats.event_json import event_from_data, event_to_data
from sniff_rules.formats.notation import parse_move
from sniff_rules.formats.state_json import (
    contributions_to_data,
    format_checked,
    lot_from_data,
    lot_to_data,
    read_phase,
    read_placements,
    read_seat,
    round_result_from_data,
    round_result_to_data,
    rules_from_data,
    rules_to_data,
    tiles_from_data,
    tiles_to_data,
)
from sniff_rules.formats.strict_json import (
    JsonObject,
    JsonValue,
    json_array,
    json_int,
    json_ints,
    json_object,
    json_str,
    load_json,
)
from sniff_rules.layout import Layout, Placement
from sniff_rules.moves import Draw, Place
from sniff_rules.play.history import RoundLog
from sniff_rules.play.sampler import DealSampler
from sniff_rules.play.view import MoveOption, SeatView, seat_view
from sniff_rules.position.reachability import problems
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import MAX_PLAYERS
from sniff_rules.tiles import TILE_COUNT

SEAT_VIEW_FORMAT: Final = "sniff-rules/seat-view@1"
"""The ``format`` tag of a seat view's JSON."""


def _layout_data(layout: Layout) -> JsonObject:
    return {
        "placements": [str(placement) for placement in layout.placements],
        "open_points": [str(point) for point in layout.open_points],
        "end_count": layout.end_count,
        "contributions": contributions_to_data(layout.contributions),
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


# ---------------------------------------------------------------- JSON -> view

MAX_VIEW_CHARS: Final = 1 << 18
"""Longest seat view text read: a view of the longest round is under 20 kB."""

MAX_VIEW_DEPTH: Final = 8
"""Deepest nesting read; a view nests 5 deep (the view, its history, an event, its hands, a hand)."""

MAX_HISTORY: Final = 256
"""Most events a view's history holds. A round has its deal, at most 28 placements and 26 draws, fewer
passes in a row than seats (all of them passing is a block, BLOCK-1) and its end: well under this."""

_VIEW_KEYS: Final = (
    "format",
    "seat",
    "rules",
    "sides",
    "phase",
    "round",
    "opener",
    "lot",
    "to_move",
    "hand",
    "drawn",
    "hand_sizes",
    "boneyard_size",
    "layout",
    "scores",
    "history",
    "lacking",
    "options",
    "last_round",
    "revealed_hands",
    "winner",
)
_OPTION_KEYS: Final = ("move", "kind", "tile", "point", "seat", "end_count", "points")
_LAYOUT_KEYS: Final = ("placements", "open_points", "end_count", "contributions")


def _refuse(message: str) -> InvalidStateError:
    return InvalidStateError("FORMAT-3", f"a seat view {message}")


def _because(err: SniffError) -> str:
    return str(err) if str(err).startswith(f"{err.rule}: ") else f"{err.rule}: {err}"


def _placement_refused(number: int, placement: Placement, err: SniffError) -> SniffError:
    return _refuse(f"layout placement {number} ({placement}) breaks {_because(err)}")


def _layout(value: JsonValue) -> Layout:
    data = json_object(value, "layout", _LAYOUT_KEYS)
    return read_placements(data["placements"], "layout.placements", _placement_refused)


def _option(value: JsonValue, what: str) -> MoveOption:
    data = json_object(value, what, _OPTION_KEYS)
    move = parse_move(json_str(data["move"], f"{what}.move"))
    return MoveOption(
        move, json_int(data["end_count"], f"{what}.end_count"), json_int(data["points"], f"{what}.points")
    )


def _read(value: JsonValue) -> SeatView:
    """The view as its keys say, checked against its own log by SeatView (FORMAT-3), not yet replayed."""
    fields = json_object(value, "a seat view", _VIEW_KEYS)
    format_checked(fields, SEAT_VIEW_FORMAT)
    rules = rules_from_data(fields["rules"])
    seat = read_seat(fields["seat"], rules, "seat", "SETUP-2")
    events = tuple(
        event_from_data(item, rules.players, f"history[{number}]")
        for number, item in enumerate(json_array(fields["history"], "history", MAX_HISTORY))
    )
    log = RoundLog(seat, events)
    drawn = fields["drawn"]
    revealed = fields["revealed_hands"]
    winner = fields["winner"]
    options = tuple(
        _option(item, f"options[{number}]")
        for number, item in enumerate(json_array(fields["options"], "options", TILE_COUNT * 6))
    )
    return SeatView(
        seat=seat,
        rules=rules,
        phase=read_phase(fields["phase"]),
        round_number=json_int(fields["round"], "round"),
        opener=json_int(fields["opener"], "opener"),
        lot=lot_from_data(fields["lot"], rules),
        to_move=json_int(fields["to_move"], "to_move"),
        hand=tiles_from_data(fields["hand"], "hand"),
        drawn_tile=None if drawn is None else tiles_from_data([drawn], "drawn")[0],
        hand_sizes=tuple(json_ints(fields["hand_sizes"], "hand_sizes", MAX_PLAYERS)),
        boneyard_size=json_int(fields["boneyard_size"], "boneyard_size"),
        layout=_layout(fields["layout"]),
        scores=tuple(json_ints(fields["scores"], "scores", MAX_PLAYERS)),
        history=log,
        options=options,
        last_round=None if fields["last_round"] is None else round_result_from_data(fields["last_round"], rules),
        round_end=log.end,
        revealed_hands=None
        if revealed is None
        else tuple(
            tiles_from_data(hand, f"revealed_hands[{n}]")
            for n, hand in enumerate(json_array(revealed, "revealed_hands", MAX_PLAYERS))
        ),
        winner=None if winner is None else json_int(winner, "winner"),
    )


def seat_view_from_data(value: JsonValue) -> SeatView:
    """The seat view a JSON object (``$defs/seatView``) describes, refused unless some round gives it.

    Read as :func:`seat_view_to_data` writes it, every key once: the shape
    and types by FORMAT-2, the text of tiles, placements and moves by
    FORMAT-1, the fields against the view's own history as
    :class:`~sniff_rules.play.view.SeatView` checks them (FORMAT-3). Then
    the round is replayed: a deal consistent with the history is drawn
    (:class:`~sniff_rules.play.sampler.DealSampler`), the history's moves
    are played on it, and the view that round gives the seat must be the
    one read, key for key — the options, the counts, the scores, the
    lacking values and every event's figures included; the first key that
    differs is refused with FORMAT-3, as is a history whose moves no deal
    allows. The view returned is the one the replayed round gives.
    """
    view = _read(value)
    try:
        sampler = DealSampler(view)
        deal, _ = sampler.sample(SplitMix64.from_seed(0))
        state, events = sampler.replay(deal)
    except SniffError as err:
        raise _refuse(f"history no round can have: {_because(err)}") from None
    found = problems(state)
    if found:
        raise _refuse(f"history reaches a position legal play cannot: {found[0].rule}: {found[0].message:.200}")
    try:
        rebuilt = seat_view(state, view.seat, events)
    except SniffError as err:
        raise _refuse(f"history no round can have: {_because(err)}") from None
    expected = seat_view_to_data(rebuilt)
    given = json_object(value, "a seat view")
    for key in _VIEW_KEYS:
        if given[key] != expected[key]:
            raise _refuse(f"{key} is {given[key]!r:.120}; its history gives {expected[key]!r:.120}")
    return rebuilt


def seat_view_from_json(text: str | bytes) -> SeatView:
    """The seat view in JSON text, read by :func:`.strict_json.load_json` and :func:`seat_view_from_data`."""
    return seat_view_from_data(load_json(text, max_chars=MAX_VIEW_CHARS, max_depth=MAX_VIEW_DEPTH))
