"""Helpers for the browser game's tests: what every answer of the server is checked for.

:class:`SnapshotRecorder` wraps :func:`sniff_rules.web.seats.snapshot` so that, for every
snapshot the server builds, the test knows the table it was built from (a
value: every hand, the bots' source). :func:`assert_seat_safe` then proves
that an answer holds nothing the seat may not see, two ways: every tile
written in it is one the seat sees (its hand, the layout, the hands shown
once the round is over, or the last settled round's), and the hidden part
of the round re-dealt by :class:`~sniff_rules.play.sampler.DealSampler` (other
hands, boneyard order, random sources) gives the same snapshot byte for
byte; no random source's state or seed, and no other seat's token, appears in it either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, Final

import attrs
import pytest

from sniff_rules.formats.strict_json import JsonObject
from sniff_rules.play.events import Dealt
from sniff_rules.play.sampler import DealSampler
from sniff_rules.play.table import Table
from sniff_rules.randomness import SplitMix64
from sniff_rules.state import Phase, State
from sniff_rules.tiles import Tile
from sniff_rules.web import seats
from sniff_rules.web.seats import Layouter

TILE_TEXT: Final = re.compile(r"\[(\d)\|(\d)\]")
Recorded = tuple[Table, str, Layouter]


class SnapshotRecorder:
    """Remembers the table, token and layouter behind every snapshot built, by its text."""

    def __init__(self) -> None:
        self.built: dict[str, Recorded] = {}
        self.original = seats.snapshot

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Wrap :func:`sniff_rules.web.seats.snapshot` for the rest of the test."""
        original = seats.snapshot
        recorder = self
        self.original = original

        def snapshot(table: Table, token: str, layouter: Layouter = seats.plain_layout) -> JsonObject:
            data = original(table, token, layouter)
            recorder.built[_key(data)] = (table, token, layouter)
            return data

        monkeypatch.setattr(seats, "snapshot", snapshot)

    def table_of(self, snapshot: dict[str, Any]) -> Recorded:
        """The table, token and layouter this snapshot was built from."""
        found = self.built.get(_key(snapshot))
        assert found is not None, f"no snapshot like this one was built (version {snapshot.get('version')})"
        return found


def _key(snapshot: Any) -> str:
    return json.dumps(snapshot, sort_keys=True, separators=(",", ":"))


def _snapshots_in(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if value.get("format") == seats.SNAPSHOT_FORMAT:
            yield value
        for item in value.values():
            yield from _snapshots_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _snapshots_in(item)


def _visible_tiles(state: State, seat: int) -> set[Tile]:
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


def redealt(table: Table, token: str, seed: int) -> Table:
    """``table`` with its round's hidden tiles and every random source dealt anew, the seat of ``token``'s view kept."""
    events = table.events
    start = max(index for index, event in enumerate(events) if type(event) is Dealt)
    sampler = DealSampler(table.view(token))
    deal, source = sampler.sample(SplitMix64.from_seed(seed))
    other_state, round_events = sampler.replay(deal, SplitMix64.from_seed(seed ^ 0x5DEECE66D))
    assert isinstance(source, SplitMix64)
    return attrs.evolve(table, state=other_state, events=(*events[:start], *round_events), bot_source=source)


def assert_seat_safe(text: str, recorder: SnapshotRecorder, secrets: tuple[int, ...] = ()) -> int:
    """Every snapshot in the answer ``text`` holds nothing its seat may not see (see the module); how many."""
    data = json.loads(text)
    count = 0
    for snapshot in _snapshots_in(data):
        table, token, layouter = recorder.table_of(snapshot)
        seat, version = table.seat_of(token), table.version
        assert (seat, version) == (snapshot["seat"], snapshot["version"])
        state = table.state
        visible = _visible_tiles(state, seat)
        written = set(_tiles_written(snapshot))
        assert set() == written - visible, f"version {version} shows hidden tiles"
        hidden = {tile for other, hand in enumerate(state.hands) if other != seat for tile in hand}
        if state.phase is Phase.PLAYING:
            assert set() == written & (hidden | set(state.boneyard))
        sources = (getattr(source, "state", None) for source in (state.source, table.bot_source))
        for number in (*secrets, *(number for number in sources if number is not None)):
            assert str(number) not in text, "a random source's state or seed is in the answer"
        for player in table.seats:
            if player.token is not None and player.token != token:
                assert player.token not in text, "another seat's token is in the answer"
        for seed in (1, 2):
            other = redealt(table, token, seed)
            assert snapshot == json.loads(json.dumps(recorder.original(other, token, layouter))), (
                f"version {version} depends on hidden tiles"
            )
        count += 1
    return count
