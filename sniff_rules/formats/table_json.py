"""A live table as JSON (``$defs/table`` of ``specs/vectors/schema.json``): what a server stores, never a seat.

:func:`table_to_data` writes the match record (paused at a settled round
while the table waits there), each seat's kind, token and presence, the
bots' random source and the version; :func:`table_from_data` reads it as
hardened as a state and replays the record, so the table restored is the
one saved (``==``) and plays on to the same end. The document holds every
hand (in its record), every seat's token and the bots' source: it is for
the server's storage alone.

>>> from sniff_rules import Rules
>>> from sniff_rules.play.table import Table
>>> table = Table.new(Rules.standard(2), ("person", "greedy"), ("token-of-seat-0-abcdef",), seed=20, bot_seed=1)
>>> table_from_json(table_to_json(table.step_bots())) == table.step_bots()
True
>>> table_to_data(table)["seats"][1]
{'kind': 'greedy', 'token': None, 'joined': False}
"""

from __future__ import annotations

import json
import re
from typing import Final

from sniff_rules.errors import InvalidStateError, NotationError, described
from sniff_rules.formats.record_json import MAX_RECORD_CHARS, record_from_data, record_to_data
from sniff_rules.formats.strict_json import (
    JSON_RULE,
    JsonObject,
    JsonValue,
    json_array,
    json_int,
    json_object,
    json_str,
    load_json,
)
from sniff_rules.play.table import MAX_TOKEN_CHARS, Table, TableSeat
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import MAX_PLAYERS

TABLE_FORMAT: Final = "sniff-rules/table@2"
"""The ``format`` tag of a table document; a new layout of fields gets a new tag (``@2``: ``stopped``)."""

TABLE_FORMAT_1: Final = "sniff-rules/table@1"
"""The tag of the first layout, without ``stopped``: still read, so the tables a server kept before play on."""

MAX_TABLE_CHARS: Final = MAX_RECORD_CHARS + 4096
"""Longest table text read: its record and four seats."""

MAX_TABLE_DEPTH: Final = 9
"""Deepest nesting read: a record's (8) one level down."""

_TABLE_KEYS: Final = ("format", "record", "seats", "bot_source", "version", "stopped")
_SEAT_KEYS: Final = ("kind", "token", "joined")
_HEX64: Final = re.compile(r"[0-9a-f]{16}")


def table_to_data(table: Table) -> JsonObject:
    """The JSON object (``$defs/table`` of the schema) for ``table``; keys in a fixed order."""
    if type(table) is not Table:
        raise InvalidStateError("FORMAT-3", f"table_to_data writes a Table, got {described(table, 200)}")
    seats: list[JsonValue] = [{"kind": seat.kind, "token": seat.token, "joined": seat.joined} for seat in table.seats]
    return {
        "format": TABLE_FORMAT,
        "record": record_to_data(table.record),
        "seats": seats,
        "bot_source": {"splitmix64": f"{table.bot_source.state:016x}"},
        "version": table.version,
        "stopped": table.stopped,
    }


def table_to_json(table: Table) -> str:
    """``table`` as compact JSON text (see :func:`table_to_data`); for the server's storage alone."""
    return json.dumps(table_to_data(table), separators=(",", ":"))


def _seat_from_data(value: JsonValue, what: str) -> TableSeat:
    data = json_object(value, what, _SEAT_KEYS)
    kind = json_str(data["kind"], f"{what}.kind")
    token_data = data["token"]
    token = None if token_data is None else json_str(token_data, f"{what}.token")
    if token is not None and len(token) > MAX_TOKEN_CHARS:
        raise NotationError(JSON_RULE, f"{what}.token is at most {MAX_TOKEN_CHARS} characters")
    joined = data["joined"]
    if type(joined) is not bool:
        raise NotationError(JSON_RULE, f"{what}.joined is true or false, got {described(joined, 40)}")
    return TableSeat(kind, token, joined)


def table_from_data(value: JsonValue) -> Table:
    """The table a JSON object describes, its record replayed (see the module's docstring).

    Malformed JSON is refused with FORMAT-2; seats the rules refuse as
    :func:`~sniff_rules.play.table.check_seats` does; the record as
    :func:`~sniff_rules.formats.record_json.record_from_data` does.
    """
    first = isinstance(value, dict) and value.get("format") == TABLE_FORMAT_1
    data = json_object(value, "a table", _TABLE_KEYS[:-1] if first else _TABLE_KEYS)
    if data["format"] not in (TABLE_FORMAT, TABLE_FORMAT_1):
        raise NotationError(JSON_RULE, f"format is {TABLE_FORMAT!r}, got {described(data['format'], 40)}")
    stopped_data = None if first else data["stopped"]
    stopped = None if stopped_data is None else json_str(stopped_data, "stopped")
    seats = tuple(
        _seat_from_data(item, f"seats[{index}]")
        for index, item in enumerate(json_array(data["seats"], "seats", MAX_PLAYERS))
    )
    source = json_object(data["bot_source"], "bot_source", ("splitmix64",))
    text = json_str(source["splitmix64"], "bot_source.splitmix64")
    if not _HEX64.fullmatch(text):
        raise NotationError(JSON_RULE, f"bot_source.splitmix64 is 16 lower-case hex digits, got {len(text)} characters")
    version = json_int(data["version"], "version")
    record = record_from_data(data["record"])
    return Table.restored(record, seats, SplitMix64(int(text, 16)), version, stopped)


def table_from_json(text: str | bytes) -> Table:
    """The table in JSON text, read by :func:`.strict_json.load_json` and :func:`table_from_data`."""
    return table_from_data(load_json(text, max_chars=MAX_TABLE_CHARS, max_depth=MAX_TABLE_DEPTH))
