"""Helpers for the browser game's tests: what every answer of the server is checked for.

:class:`SnapshotRecorder` wraps :meth:`Table.snapshot` so that, for every
snapshot the server builds, the test knows the table as it was then (the
state, the events, the bots' source). :func:`assert_seat_safe` then proves
that an answer holds nothing the seat may not see, two ways: every tile
written in it is one the seat sees (its hand, the layout, the hands shown
once the round is over, or the last settled round's), and the hidden part
of the round re-dealt by :class:`~sniff_rules.play.sampler.DealSampler` (other
hands, boneyard order, random sources) gives the same snapshot byte for
byte; no random source's state or seed appears in it either.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any, Final

import attrs
import pytest

from sniff_rules.formats.strict_json import JsonValue
from sniff_rules.play.events import Dealt, Event
from sniff_rules.play.sampler import DealSampler
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.state import Phase, State
from sniff_rules.tiles import Tile
from sniff_rules.web.sessions import Table

TILE_TEXT: Final = re.compile(r"\[(\d)\|(\d)\]")
Recorded = tuple[State, tuple[Event, ...], RandomSource]


class SnapshotRecorder:
    """Remembers the table behind every snapshot built: (table id, version) -> (state, events, bot source)."""

    def __init__(self) -> None:
        self.tables: dict[tuple[int, int], Recorded] = {}
        self.of_table: dict[int, Table] = {}
        self.original = Table.snapshot

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Wrap :meth:`Table.snapshot` for the rest of the test."""
        original = Table.snapshot
        recorder = self
        self.original = original

        def snapshot(table: Table) -> dict[str, JsonValue]:
            data = original(table)
            version = data["version"]
            assert isinstance(version, int)
            recorder.tables[(id(table), version)] = (table.state, tuple(table.events), table.bot_source)
            recorder.of_table[id(table)] = table
            return data

        monkeypatch.setattr(Table, "snapshot", snapshot)

    def table_at(self, seat: int, version: int) -> tuple[Table, Recorded]:
        """The one recorded table of the person at ``seat`` with a snapshot at ``version``."""
        # The server's bot thread may record a snapshot meanwhile: read a copy, taken in one step.
        found = [
            (self.of_table[key], recorded)
            for (key, at), recorded in list(self.tables.items())
            if at == version and self.of_table[key].seat == seat
        ]
        assert found, f"no snapshot was built at version {version}"
        return found[-1]


def _snapshots_in(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if value.get("format") == "sniff-rules/web-snapshot@1":
            yield value
        for item in value.values():
            yield from _snapshots_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _snapshots_in(item)


def _visible_tiles(state: State, seat: int, events: tuple[Event, ...]) -> set[Tile]:
    seen = set(state.hand(seat)) | {placement.tile for placement in state.layout.placements}
    if state.drawn_tile is not None and state.to_move == seat:
        seen.add(state.drawn_tile)
    if state.phase is not Phase.PLAYING:
        seen |= {tile for hand in state.hands for tile in hand}
    return seen


def _tiles_written(value: Any, skip: frozenset[str] = frozenset({"last_round"})) -> Iterator[Tile]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                yield from _tiles_written(item)
    elif isinstance(value, list):
        for item in value:
            yield from _tiles_written(item)
    elif isinstance(value, str):
        for found in TILE_TEXT.finditer(value):
            yield Tile(int(found.group(1)), int(found.group(2)))


def redealt(table: Table, version: int, recorded: Recorded, seed: int) -> Table:
    """A copy of ``table`` as recorded at ``version``, its round's hidden tiles and every random source dealt anew."""
    state, events, _ = recorded
    start = max(index for index, event in enumerate(events) if type(event) is Dealt)
    view = copy.copy(table)
    view.live = attrs.evolve(table.live, state=state, events=tuple(events), version=version)
    sampler = DealSampler(view.view())
    deal, source = sampler.sample(SplitMix64.from_seed(seed))
    other_state, round_events = sampler.replay(deal, SplitMix64.from_seed(seed ^ 0x5DEECE66D))
    other = copy.copy(table)
    assert isinstance(source, SplitMix64)
    other.live = attrs.evolve(
        table.live, state=other_state, events=(*events[:start], *round_events), bot_source=source, version=version
    )
    return other


def assert_seat_safe(text: str, recorder: SnapshotRecorder, secrets: tuple[int, ...] = ()) -> int:
    """Every snapshot in the answer ``text`` holds nothing its seat may not see (see the module); how many."""
    data = json.loads(text)
    count = 0
    for snapshot in _snapshots_in(data):
        seat, version = snapshot["seat"], snapshot["version"]
        table, recorded = recorder.table_at(seat, version)
        state, events, bot_source = recorded
        visible = _visible_tiles(state, seat, events)
        written = set(_tiles_written(snapshot))
        assert set() == written - visible, f"version {version} shows hidden tiles"
        hidden = {tile for other, hand in enumerate(state.hands) if other != seat for tile in hand}
        if state.phase is Phase.PLAYING:
            assert set() == written & (hidden | set(state.boneyard))
        sources = (getattr(source, "state", None) for source in (state.source, bot_source))
        for number in (*secrets, *(number for number in sources if number is not None)):
            assert str(number) not in text, "a random source's state or seed is in the answer"
        for seed in (1, 2):
            other = redealt(table, version, recorded, seed)
            assert snapshot == json.loads(json.dumps(recorder.original(other))), (
                f"version {version} depends on hidden tiles"
            )
        count += 1
    return count
