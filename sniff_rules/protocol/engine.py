"""The engine role of the protocol: this library answering one request, as a pure function.

:func:`handle` takes a request (a JSON object read by
:func:`~sniff_rules.protocol.messages.read_request`) and returns its answer.
The engine keeps nothing between requests: every request that needs a
position carries it as a state document (``sniff-rules/state@1``,
:mod:`sniff_rules.formats.state_json`), so any answer can be checked,
replayed or recomputed from its request alone.

>>> from sniff_rules.protocol.messages import read_request
>>> rules = '{"players":2,"hand_size":7,"target":150}'
>>> answer = handle(read_request('{"id":1,"type":"new_match","rules":' + rules + ',"seed":"20"}'))
>>> answer["state"]["to_move"]
1
>>> moves = handle({"id": 2, "type": "legal_moves", "state": answer["state"]})["moves"]
>>> moves[:2]
['1:[0|5]', '1:[0|6]']
>>> handle({"id": 3, "type": "apply", "state": answer["state"], "move": "0:[0|5]"})["refused"]["rule"]
'TURN-2'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

import sniff_rules
from sniff_rules.errors import SniffError
from sniff_rules.formats.notation import parse_move, parse_placement
from sniff_rules.formats.state_json import (
    order_from_data,
    round_result_to_data,
    rules_from_data,
    settlement_to_data,
    state_from_data,
    state_to_data,
    tiles_from_data,
    tiles_to_data,
)
from sniff_rules.formats.strict_json import JsonObject, JsonValue, json_array, json_int, json_str
from sniff_rules.formats.view_json import option_to_data
from sniff_rules.layout import Layout
from sniff_rules.moves import Move, Place, apply, legal_moves
from sniff_rules.play.view import MoveOption, observe
from sniff_rules.protocol.messages import (
    ENGINE_REQUESTS,
    SHAPE,
    ProtocolError,
    error_answer,
    refusal_answer,
    request_id,
    spoken_protocol,
)
from sniff_rules.rules import check_seat
from sniff_rules.scoring import play_points, settle_round
from sniff_rules.state import State, new_match, next_round
from sniff_rules.tiles import TILE_COUNT

ENGINE_NAME: Final = f"sniff-rules {sniff_rules.__version__}"
"""What ``hello`` names this engine."""

RULES_VERSION: Final = "american-sniff/1"
"""The rules an engine plays, named in ``hello``: ``specs/rules.md`` as this library implements it."""


def _field(request: Mapping[str, JsonValue], key: str) -> JsonValue:
    if key not in request:
        raise ProtocolError(SHAPE, f"a {request.get('type')} request has a {key!r} field")
    return request[key]


def _state(request: Mapping[str, JsonValue]) -> State:
    return state_from_data(_field(request, "state"))


def _hello(request: Mapping[str, JsonValue]) -> JsonObject:
    return {"protocol": spoken_protocol(request), "rules": RULES_VERSION, "engine": ENGINE_NAME, "role": "engine"}


def _new_match(request: Mapping[str, JsonValue]) -> JsonObject:
    if "order" in request:
        # Checked as CONV-3 orders a deal's refusals: every field's form (FORMAT-1, FORMAT-2), then the house
        # rules (SETUP-2..4), the opener (SETUP-2) and the order (SETUP-5), which new_match checks in that order.
        order = order_from_data(request["order"], "order")
        opener = json_int(_field(request, "opener"), "opener")
        rules = rules_from_data(_field(request, "rules"))
        return {"state": state_to_data(new_match(rules, order=order, opener=opener))}
    rules = rules_from_data(_field(request, "rules"))
    return {"state": state_to_data(new_match(rules, seed_from_data(_field(request, "seed"))))}


def seed_to_data(seed: int) -> str:
    """A seed as the protocol sends it: decimal digits, as a 64-bit seed does not survive a JavaScript reader."""
    return str(seed)


def seed_from_data(value: JsonValue) -> int:
    """The seed a ``new_match`` request names: decimal digits for 0..2**64 - 1 (PROTO-2)."""
    text = json_str(value, "seed")
    if not (text.isascii() and text.isdigit() and len(text) <= 20 and int(text) < 2**64 and str(int(text)) == text):
        raise ProtocolError(SHAPE, f"seed is decimal digits for 0..2**64 - 1, got {text!r:.40}")
    return int(text)


def _legal_moves(request: Mapping[str, JsonValue]) -> JsonObject:
    return {"moves": [str(move) for move in legal_moves(_state(request))]}


def _apply(request: Mapping[str, JsonValue]) -> JsonObject:
    state = _state(request)
    text = json_str(_field(request, "move"), "move")
    try:
        after = apply(state, parse_move(text))
    except SniffError as refusal:
        return refusal_answer(request_id(request), refusal)
    return {"state": state_to_data(after)}


def _next_round(request: Mapping[str, JsonValue]) -> JsonObject:
    state = _state(request)
    try:
        # The supplied order and opener are read before any rule is asked (FORMAT-2, FORMAT-1), then
        # next_round refuses as CONV-3 orders it: END-1 or MATCH-2, SETUP-2, OPEN-2, SETUP-5. Each is a
        # refusal of this next round, the state being well formed, as a malformed move's text is for apply.
        order = order_from_data(request["order"], "order") if "order" in request else None
        opener = json_int(request["opener"], "opener") if "opener" in request else None
        after = next_round(state, order=order, opener=opener)
    except SniffError as refusal:
        return refusal_answer(request_id(request), refusal)
    return {"state": state_to_data(after)}


def _option(layout: Layout, move: Move) -> JsonObject:
    if type(move) is Place:
        count = layout.place(move.tile, move.target).end_count
        return option_to_data(MoveOption(move, count, play_points(count)))
    return option_to_data(MoveOption(move, layout.end_count, 0))


def _view(request: Mapping[str, JsonValue]) -> JsonObject:
    state = _state(request)
    seen = observe(state, check_seat(state.rules, json_int(_field(request, "seat"), "seat"), "SETUP-2"))
    revealed = seen.revealed_hands
    view: JsonObject = {
        "seat": seen.seat,
        "phase": seen.phase.value,
        "round": seen.round_number,
        "to_move": seen.to_move,
        "hand": tiles_to_data(seen.hand),
        "drawn": None if seen.drawn_tile is None else str(seen.drawn_tile),
        "hand_sizes": list(seen.hand_sizes),
        "boneyard_size": seen.boneyard_size,
        "layout": [str(placement) for placement in seen.layout.placements],
        "end_count": seen.layout.end_count,
        "scores": list(seen.scores),
        "options": [_option(seen.layout, move) for move in seen.legal_moves],
        "revealed_hands": None if revealed is None else [tiles_to_data(hand) for hand in revealed],
        "last_round": None if seen.last_round is None else round_result_to_data(seen.last_round),
        "winner": seen.winner,
    }
    return {"view": view}


def _score(request: Mapping[str, JsonValue]) -> JsonObject:
    layout = Layout.EMPTY
    placements = json_array(_field(request, "layout"), "layout", TILE_COUNT)
    for number, item in enumerate(placements):
        placement = parse_placement(json_str(item, f"layout[{number}]"))
        try:
            layout = layout.place(placement.tile, placement.target)
        except SniffError as refusal:
            return refusal_answer(request_id(request), refusal)
    return {
        "end_count": layout.end_count,
        "points": play_points(layout.end_count),
        "open": [str(point) for point in layout.open_points],
    }


def _settle(request: Mapping[str, JsonValue]) -> JsonObject:
    rules = rules_from_data(_field(request, "rules"))
    hands_data = json_array(_field(request, "hands"), "hands", rules.players)
    hands = tuple(tiles_from_data(hand, f"hands[{seat}]") for seat, hand in enumerate(hands_data))
    try:
        settlement = settle_round(rules, hands)
    except SniffError as refusal:
        return refusal_answer(request_id(request), refusal)
    return {"settlement": settlement_to_data(settlement)}


_HANDLERS: Final[Mapping[str, Callable[[Mapping[str, JsonValue]], JsonObject]]] = {
    "hello": _hello,
    "new_match": _new_match,
    "legal_moves": _legal_moves,
    "apply": _apply,
    "next_round": _next_round,
    "view": _view,
    "score": _score,
    "settle": _settle,
}
assert tuple(_HANDLERS) == ENGINE_REQUESTS


def handle(request: JsonObject) -> JsonObject:
    """The answer to ``request``: its ``id`` and the result, a ``refused`` with the rule, or an ``error``.

    A move or a next round the rules refuse is answered ``refused`` with the
    rule the library cites; a request this engine cannot read (a state
    document it refuses, a field missing, a ``choose`` sent to an engine) is
    answered ``error`` with its rule. ``quit`` is answered ``{"id": N, "bye": true}``.
    """
    number = request_id(request)
    kind = request.get("type")
    if kind == "quit":
        return {"id": number, "bye": True}
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        return error_answer(
            number, ProtocolError(SHAPE, f"an engine answers {', '.join(ENGINE_REQUESTS)}; not {kind!r:.40}")
        )
    try:
        answer = handler(request)
    except SniffError as error:
        return error_answer(number, error)
    return answer if "refused" in answer else {"id": number, **answer}
