"""A table saved to JSON and restored (sniff_rules.formats.table_json), and a record paused at a round's end."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from sniff_rules.errors import InvalidStateError, NotationError, SniffError
from sniff_rules.formats.record_json import record_from_json, record_to_json
from sniff_rules.formats.table_json import table_from_json, table_to_data, table_to_json
from sniff_rules.play.record import MatchRecord
from sniff_rules.play.table import PERSON, Table
from sniff_rules.rules import Rules
from sniff_rules.state import Phase

SCHEMA = Path(__file__).resolve().parent.parent / "specs" / "vectors" / "schema.json"
TOKENS = ("token-seat-zero-0000000000", "token-seat-two-22222222222")


@cache
def _validator(name: str) -> Any:
    loaded = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$defs": loaded["$defs"], "$ref": f"#/$defs/{name}"})


def _table() -> Table:
    kinds = (PERSON, "greedy", PERSON, "random")
    return Table.new(Rules.standard(4), kinds, TOKENS, seed=11, bot_seed=5).join(TOKENS[1])


def _advance(table: Table) -> Table:
    """One change: a person's first legal move, a bot's move, or the next round dealt."""
    if table.phase is Phase.ROUND_OVER:
        return table.deal_on(table.version, TOKENS[0])
    if table.bot_to_move:
        return table.step_bot()
    seat = table.person_to_move
    token = TOKENS[0] if seat == 0 else TOKENS[1]
    return table.play(token, table.view(token).legal_moves[-1], table.version)


def _to_end(table: Table) -> Table:
    while table.phase is not Phase.MATCH_OVER:
        table = _advance(table)
    return table


def _saved(table: Table) -> Table:
    text = table_to_json(table)
    _validator("table").validate(json.loads(text))
    restored = table_from_json(text)
    assert table == restored
    assert (table.state, table.events) == (restored.state, restored.events)
    return restored


def test_a_table_saved_mid_round_and_at_a_rounds_end_plays_on_to_the_same_end() -> None:
    """FORMAT-2, END-1: saved and restored at each change of two rounds, the match ends as one never saved."""
    never_saved = _to_end(_table())
    table = _table()
    paused = 0
    while table.state.round_number <= 2 and table.phase is not Phase.MATCH_OVER:
        restored = _saved(table)
        paused += restored.phase is Phase.ROUND_OVER
        table = _advance(restored)
    assert paused >= 1
    assert never_saved == _to_end(table)


def test_a_paused_record_replays_to_the_settled_round_and_its_json_says_so() -> None:
    """END-1: a record paused at a round's end replays to ROUND_OVER; its JSON holds paused, and reads back."""
    table = _table()
    while table.phase is not Phase.ROUND_OVER:
        table = _advance(table)
    record = table.record
    assert (True, Phase.ROUND_OVER) == (record.paused, record.final_state().phase)
    dealt_on = record.paused_at_round_end(False)
    assert (Phase.PLAYING, 2) == (dealt_on.final_state().phase, dealt_on.final_state().round_number)
    data = json.loads(record_to_json(record))
    assert True is data["paused"]
    _validator("matchRecord").validate(data)
    assert record == record_from_json(record_to_json(record))
    assert "paused" not in json.loads(record_to_json(dealt_on))


def test_a_record_paused_mid_round_is_refused() -> None:
    """END-1: a paused record whose moves end no round is refused when replayed, and read."""
    record = MatchRecord.seeded(Rules.standard(2), 20).paused_at_round_end()
    with pytest.raises(InvalidStateError) as refused:
        record.final_state()
    assert "END-1" == refused.value.rule
    text = record_to_json(MatchRecord.seeded(Rules.standard(2), 20)).replace('"moves":[]', '"moves":[],"paused":true')
    with pytest.raises(InvalidStateError):
        record_from_json(text)


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        (lambda data: data.update(format="sniff-rules/table@0"), "FORMAT-2"),
        (lambda data: data.update(version=0), "FORMAT-3"),
        (lambda data: data["seats"][1].update(token="token-seat-two-22222222222"), "FORMAT-3"),
        (lambda data: data["seats"][0].update(joined="yes"), "FORMAT-2"),
        (lambda data: data["bot_source"].update(splitmix64="00"), "FORMAT-2"),
        (lambda data: data["seats"].pop(), "SETUP-2"),
        (lambda data: data["record"].update(paused=False), "FORMAT-2"),
        (lambda data: data.update(extra=1), "FORMAT-2"),
    ],
)
def test_a_malformed_table_is_refused(change: Any, rule: str) -> None:
    """FORMAT-2, FORMAT-3, SETUP-2: each malformed field is refused with its rule."""
    data = table_to_data(_table())
    change(data)
    with pytest.raises(SniffError) as refused:
        table_from_json(json.dumps(data))
    assert rule == refused.value.rule
    assert isinstance(refused.value, (NotationError, InvalidStateError))


def test_every_lone_document_carries_its_format_tag_and_is_valid() -> None:
    """FORMAT-2: each event, each seat view, a table and a geometry written alone carry their format tag and
    are valid against their definitions; a view names the sides."""
    from sniff_rules.draw.geometry import geometry
    from sniff_rules.formats.event_json import event_to_json
    from sniff_rules.formats.geometry_json import geometry_to_json
    from sniff_rules.formats.view_json import seat_view_to_json

    table = _table()
    while table.state.round_number == 1:
        table = _advance(table)
    tags = set()
    for event in table.events_for(TOKENS[0]):
        data = json.loads(event_to_json(event))
        _validator("eventDocument").validate(data)
        tags.add(data["format"])
    view = json.loads(seat_view_to_json(table.view(TOKENS[1])))
    _validator("seatView").validate(view)
    picture = json.loads(geometry_to_json(geometry(table.state.layout)))
    _validator("geometryDocument").validate(picture)
    assert ({"sniff-rules/event@1"}, [[0, 2], [1, 3]]) == (tags, view["sides"])
    assert ("sniff-rules/geometry@1", "sniff-rules/table@2") == (picture["format"], table_to_data(table)["format"])
    with pytest.raises(jsonschema.ValidationError):
        _validator("eventDocument").validate({k: v for k, v in data.items() if k != "format"})


def test_a_stopped_table_round_trips_and_a_first_layout_document_is_still_read() -> None:
    """FORMAT-2, MATCH-2: a table stopped by its server keeps its line through its document; a table@1 document,
    without stopped, reads as the table it saved, not stopped."""
    from sniff_rules import Rules
    from sniff_rules.formats.table_json import table_from_data, table_to_data
    from sniff_rules.play.table import Table

    table = Table.new(Rules.standard(2), ("person", "strong"), ("token-of-seat-0-abcdef",), seed=20, bot_seed=1)
    stopped = table.stopped_by("The bot of seat 1 (strong) stopped the match (PROTO-3): choose #0: no answer.")
    assert stopped == table_from_data(table_to_data(stopped))
    first = {key: value for key, value in table_to_data(table).items() if key != "stopped"}
    assert table == table_from_data({**first, "format": "sniff-rules/table@1"})
