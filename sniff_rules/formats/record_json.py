"""A match record as JSON (``$defs/matchRecord`` of ``specs/vectors/schema.json``), read as hardened as a state.

:func:`record_from_json` refuses malformed text with a
:class:`~sniff_rules.errors.NotationError` (FORMAT-2, FORMAT-1 for a
move's text), then replays the record, so that a move the rules refuse
raises the :class:`~sniff_rules.errors.IllegalMoveError` of its rule
naming the move's index, and a deal they refuse the
:class:`~sniff_rules.errors.InvalidStateError` of its rule naming the deal's.

>>> from sniff_rules import Rules, new_match, legal_moves
>>> from sniff_rules.play.record import MatchRecord
>>> record = MatchRecord.seeded(Rules.standard(2), 20)
>>> record = record.with_moves(legal_moves(new_match(Rules.standard(2), seed=20))[0])
>>> record_to_json(record)
'{"format":"sniff-rules/record@1","rules":{"players":2,"hand_size":7,"target":250},"seed":20,"deals":[],\
"moves":["1:[0|5]"]}'
>>> record_from_json(record_to_json(record)) == record
True
"""

from __future__ import annotations

import json
from typing import Final

from sniff_rules.errors import InvalidStateError, NotationError, SniffError, described
from sniff_rules.formats.notation import parse_move
from sniff_rules.formats.state_json import rules_from_data, rules_to_data, tiles_from_data, tiles_to_data
from sniff_rules.formats.strict_json import (
    JSON_RULE,
    MAX_SAFE_INT,
    JsonObject,
    JsonValue,
    json_array,
    json_int,
    json_object,
    json_strs,
    load_json,
)
from sniff_rules.moves import Move
from sniff_rules.play.record import Deal, MatchRecord
from sniff_rules.rules import Rules

RECORD_FORMAT: Final = "sniff-rules/record@1"
"""The ``format`` tag of a record document; a new layout of fields gets a new tag."""

MAX_RECORD_CHARS: Final = 1 << 22
"""Longest record text read: room for the longest moves and deals below."""

MAX_RECORD_DEPTH: Final = 8
"""Deepest nesting read; a record nests 4 deep (the record, its deals, a deal, its order)."""

MAX_RECORD_MOVES: Final = 1 << 16
"""Most moves a record holds. A standard match runs to a few thousand."""

MAX_RECORD_DEALS: Final = 1 << 12
"""Most deals a record holds, one per round."""

_RECORD_KEYS: Final = ("format", "rules", "seed", "deals", "moves")
_PAUSED_KEYS: Final = (*_RECORD_KEYS, "paused")
_DEAL_KEYS: Final = ("order", "opener")


def _message(err: SniffError) -> str:
    return str(err).removeprefix(f"{err.rule}: ")


def record_to_data(record: MatchRecord) -> JsonObject:
    """The JSON object (``$defs/matchRecord`` of the schema) for ``record``."""
    if type(record) is not MatchRecord:
        raise InvalidStateError("FORMAT-3", f"record_to_data writes a MatchRecord, got {described(record, 200)}")
    if record.seed is not None and not -MAX_SAFE_INT <= record.seed <= MAX_SAFE_INT:
        # A JavaScript reader would round it, and deal another match.
        raise NotationError(JSON_RULE, f"only a seed within ±(2**53 - 1) has a JSON form, got {record.seed}")
    deals: list[JsonValue] = [{"order": tiles_to_data(deal.order), "opener": deal.opener} for deal in record.deals]
    moves: list[JsonValue] = [str(move) for move in record.moves]
    data: JsonObject = {
        "format": RECORD_FORMAT,
        "rules": rules_to_data(record.rules),
        "seed": record.seed,
        "deals": deals,
        "moves": moves,
    }
    if record.paused:
        # Written only when true, so every record that deals on reads as it did before the key existed.
        data["paused"] = True
    return data


def record_to_json(record: MatchRecord) -> str:
    """``record`` as compact JSON text, keys in a fixed order.

    A seeded record holds every later deal in its seed, and supplied deals
    hold every hand: like a state's JSON, it is for the server, never for
    a seat.
    """
    return json.dumps(record_to_data(record), separators=(",", ":"))


def _deal_from_data(value: JsonValue, rules: Rules, what: str) -> Deal:
    data = json_object(value, what, _DEAL_KEYS)
    order = tiles_from_data(data["order"], f"{what}.order")
    opener_data = data["opener"]
    opener = None if opener_data is None else json_int(opener_data, f"{what}.opener")
    if opener is not None and not 0 <= opener < rules.players:
        raise InvalidStateError("OPEN-1", f"{what}.opener is a seat 0..{rules.players - 1}, got {opener}")
    return Deal(order, opener)


def record_from_data(value: JsonValue) -> MatchRecord:
    """The record a JSON object describes, after replaying it (see the module's docstring)."""
    paused = isinstance(value, dict) and "paused" in value
    data = json_object(value, "a record", _PAUSED_KEYS if paused else _RECORD_KEYS)
    if paused and data["paused"] is not True:
        raise NotationError(JSON_RULE, f"paused is true when written, got {described(data['paused'], 40)}")
    if data["format"] != RECORD_FORMAT:
        raise NotationError(JSON_RULE, f"format is {RECORD_FORMAT!r}, got {described(data['format'], 40)}")
    rules = rules_from_data(data["rules"])
    seed_data = data["seed"]
    seed = None if seed_data is None else json_int(seed_data, "seed")
    deals = tuple(
        _deal_from_data(item, rules, f"deals[{index}]")
        for index, item in enumerate(json_array(data["deals"], "deals", MAX_RECORD_DEALS))
    )
    if (seed is None) == (not deals):
        raise NotationError(JSON_RULE, "a record has a seed and no deals, or deals and a null seed")
    moves: list[Move] = []
    for index, text in enumerate(json_strs(data["moves"], "moves", MAX_RECORD_MOVES)):
        try:
            moves.append(parse_move(text))
        except NotationError as err:
            raise NotationError(err.rule, f"moves[{index}]: {_message(err)}") from None
    record = MatchRecord(rules, seed, deals, tuple(moves), paused)
    for _ in record.replay():
        pass
    return record


def record_from_json(text: str | bytes) -> MatchRecord:
    """The record in JSON text, read by :func:`.strict_json.load_json` and :func:`record_from_data`."""
    return record_from_data(load_json(text, max_chars=MAX_RECORD_CHARS, max_depth=MAX_RECORD_DEPTH))
