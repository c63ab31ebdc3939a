"""Reading a seat view's JSON (sniff_rules.formats.view_json): every view round-trips, a hostile one is refused."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from functools import cache
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from hostile_documents import _structural, _textual
from sniff_rules.errors import NotationError, SniffError
from sniff_rules.formats.event_json import event_from_data, event_to_data
from sniff_rules.formats.strict_json import JsonValue
from sniff_rules.formats.view_json import (
    MAX_VIEW_CHARS,
    seat_view_from_data,
    seat_view_from_json,
    seat_view_to_data,
    seat_view_to_json,
)
from sniff_rules.play.bots import random_move
from sniff_rules.play.driver import play_match
from sniff_rules.play.events import Event
from sniff_rules.play.sampler import DealSampler
from sniff_rules.play.view import SeatView, seat_view
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import State, new_match

THOROUGH = os.environ.get("SNIFF_HYPOTHESIS_PROFILE") == "thorough"
HOSTILE_VIEWS = 2_000 if THOROUGH else 300
"""Mutated view documents per run of the fuzz property."""


@cache
def match_views() -> tuple[SeatView, ...]:
    """Every seat's view at every step of whole matches: 2, 3 and 4 players and house rules, every phase."""
    found: list[SeatView] = []
    for rules, seed in ((Rules.standard(2), 3), (Rules.standard(3), 4), (Rules.standard(4), 5), (Rules(3, 4, 60), 6)):
        events: list[Event] = []
        steps = play_match(new_match(rules, seed=seed), [random_move] * rules.players, SplitMix64.from_seed(seed))
        for number, step in enumerate(steps):
            events += step.events
            # Every third step, and every step that ends a round or the match: each phase and event kind is met.
            if number % 3 == 0 or step.state.phase.value != "playing":
                found += [seat_view(step.state, seat, events) for seat in range(rules.players)]
    return tuple(found)


def test_every_view_of_whole_matches_reads_back_equal() -> None:
    """FORMAT-2 SETUP-6: every view written, at every phase, 2..4 players and house rules, reads back equal."""
    views = match_views()
    assert [] == [view for view in views if seat_view_from_json(seat_view_to_json(view)) != view]
    assert {"playing", "round-over", "match-over"} == {view.phase.value for view in views}


def test_every_event_reads_back_equal() -> None:
    """FORMAT-2: every event of a view's history, as the seat sees it, reads back equal."""
    views = match_views()
    events = {(view.rules.players, event) for view in views for event in view.history.events}
    assert [] == [event for players, event in events if event_from_data(event_to_data(event), players) != event]
    assert {"Dealt", "Placed", "Drew", "Passed", "RoundEnded", "MatchWon"} == {type(e).__name__ for _, e in events}


def _view_data(index: int = 40) -> dict[str, Any]:
    """A view's JSON in mid-round, on its seat's turn, with options and a history of placements."""
    views = [view for view in match_views() if view.options and len(view.history.events) > 4]
    data: dict[str, Any] = json.loads(seat_view_to_json(views[index % len(views)]))
    return data


def _history(data: dict[str, Any]) -> list[Any]:
    history: list[Any] = data["history"]
    return history


HOSTILE: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("an unknown key", lambda d: d.update(extra=1), "FORMAT-2"),
    ("a missing key", lambda d: d.pop("lacking"), "FORMAT-2"),
    ("another format", lambda d: d.update(format="sniff-rules/seat-view@0"), "FORMAT-2"),
    ("a seat as text", lambda d: d.update(seat="0"), "FORMAT-2"),
    ("a seat the table lacks", lambda d: d.update(seat=7), "SETUP-2"),
    ("five players", lambda d: d["rules"].update(players=5), "SETUP-2"),
    ("a tile that is no tile", lambda d: d["hand"].append("[0|7]"), "FORMAT-1"),
    ("a move that is no move", lambda d: d["options"][0].update(move="0:fold"), "FORMAT-1"),
    ("an event of no kind", lambda d: _history(d).append({"event": "cheated"}), "FORMAT-2"),
    ("an event's unknown key", lambda d: _history(d)[1].update(extra=1), "FORMAT-2"),
    ("a history too long", lambda d: d.update(history=[d["history"][1]] * 300), "FORMAT-2"),
    ("another seat's dealt hand shown", lambda d: _history(d)[0]["hands"].__setitem__(d["seat"] - 1, []), "SETUP-6"),
    ("a hand the log does not give", lambda d: d["hand"].pop(), "FORMAT-3"),
    ("a hand size off by one", lambda d: d["hand_sizes"].__setitem__(0, d["hand_sizes"][0] + 1), "FORMAT-3"),
    ("an option that is no legal move", lambda d: d["options"].pop(0), "FORMAT-3"),
    ("an option's points changed", lambda d: d["options"][0].update(points=d["options"][0]["points"] + 5), "FORMAT-3"),
    ("a score changed", lambda d: d["scores"].__setitem__(0, d["scores"][0] + 5), "FORMAT-3"),
    ("another seat to move", lambda d: d.update(to_move=(d["to_move"] + 1) % d["rules"]["players"]), "FORMAT-3"),
    ("the round over while it goes on", lambda d: d.update(phase="round-over"), "FORMAT-3"),
    ("a placement's end count changed", lambda d: _history(d)[1].update(end_count=95), "FORMAT-3"),
    ("lacking values no draw showed", lambda d: d["lacking"].__setitem__(0, [0, 1, 2]), "FORMAT-3"),
    (
        "the sides changed",
        lambda d: d.update(sides=[[1], [0]] if len(d["sides"]) == 2 else [[2], [1], [0]]),
        "FORMAT-3",
    ),
    ("a placement out of turn", lambda d: _history(d)[1].update(seat=(_history(d)[1]["seat"] + 1) % 2), "FORMAT-3"),
]


@pytest.mark.parametrize(("name", "mutate", "rule"), HOSTILE, ids=[case[0] for case in HOSTILE])
def test_a_corrupt_view_is_refused_naming_the_rule(
    name: str, mutate: Callable[[dict[str, Any]], object], rule: str
) -> None:
    """FORMAT-1 FORMAT-2 FORMAT-3 SETUP-2 SETUP-6: a corrupt view is refused by its rule, never read."""
    document = _view_data()
    mutate(document)
    with pytest.raises(SniffError) as caught:
        seat_view_from_json(json.dumps(document))
    malformed = rule in ("FORMAT-1", "FORMAT-2")
    assert (malformed, rule) == (isinstance(caught.value, NotationError), caught.value.rule), str(caught.value)


def test_view_text_is_bounded_in_size_and_depth() -> None:
    """FORMAT-2: view text beyond its size or depth bound, or not UTF-8, is refused before it is parsed."""
    for text in (" " * MAX_VIEW_CHARS + "{}", "[" * 9 + "]" * 9, b"\xff"):
        with pytest.raises(NotationError) as caught:
            seat_view_from_json(text)
        assert "FORMAT-2" == caught.value.rule


def test_the_view_read_is_the_one_its_round_gives_not_the_document_s_objects() -> None:
    """SETUP-6: the view returned is built from the replayed round, so no list of the document is kept in it."""
    data = _view_data()
    view = seat_view_from_data(data)
    data["hand"].clear()
    assert (True, view) == (bool(view.hand), seat_view_from_data(json.loads(seat_view_to_json(view))))


@attrs.frozen
class DrawnChoices:
    """A mutation's choices drawn by Hypothesis, so that a failing document shrinks."""

    data: st.DataObject

    def below(self, bound: int) -> int:
        """A choice in ``0..bound-1``."""
        return self.data.draw(st.integers(0, bound - 1))


def _judge(document: JsonValue | str | bytes) -> str:
    """``refused`` for a typed refusal; ``accepted`` for a view that reads back and that a bot can play from."""
    try:
        view = seat_view_from_json(document) if isinstance(document, str | bytes) else seat_view_from_data(document)
    except SniffError:
        return "refused"
    if seat_view_from_json(seat_view_to_json(view)) != view:
        return "not round-tripped"
    if view.options and DealSampler(view).count < 1:
        return "no deal"
    return "accepted"


@settings(max_examples=HOSTILE_VIEWS, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_a_mutated_view_is_refused_or_wholly_sound(data: st.DataObject) -> None:
    """FORMAT-1..3 SETUP-6: one to three changes to a real view's data or text are refused with a SniffError,
    or read as a view that round-trips and that a bot's sampler can deal from; never another error or a hang."""
    choose = DrawnChoices(data)
    views = match_views()
    view = views[choose.below(len(views))]
    state: State = new_match(view.rules, seed=0)  # only for the mutations' plausible values
    document: JsonValue = copy.deepcopy(seat_view_to_data(view))
    for _ in range(1 + choose.below(3)):
        document = _structural(choose, document, state)
    target: JsonValue | str | bytes = document
    if choose.below(4) == 0:
        target = _textual(choose, json.dumps(document))
    assert _judge(target) in ("refused", "accepted")
