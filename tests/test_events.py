"""What a move did (sniff_rules.play.events): each event's facts, apply's refusals kept, and what each seat sees."""

from __future__ import annotations

import copy
import json
import pickle
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import jsonschema  # type: ignore[import-untyped]
import pytest
from hypothesis import given, strategies as st

import sniff_rules
from sniff_rules.errors import IllegalMoveError, InvalidStateError, SniffError
from sniff_rules.formats.event_json import event_to_data
from sniff_rules.formats.notation import parse_move
from sniff_rules.layout import AttachmentPoint, Contribution, Placement, Port
from sniff_rules.moves import Draw, Pass, Place, apply, legal_moves
from sniff_rules.play.bots import random_move
from sniff_rules.play.driver import play_match
from sniff_rules.play.events import (
    EVENT_TYPES,
    Dealt,
    Drew,
    Event,
    MatchWon,
    Passed,
    Placed,
    RoundEnded,
    apply_with_events,
    seen_by,
)
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.scoring import Settlement
from sniff_rules.state import Phase, State, new_match
from sniff_rules.tiles import Tile
from sniff_rules.verify.strategies import illegal_moves_of, legal_moves_of, states
from support import about_to_block, deal_order, layout_of, library_namespace, make_state, pt, tiles

SCHEMA = Path(__file__).resolve().parent.parent / "specs" / "vectors" / "schema.json"


def _placed_then(events: tuple[Event, ...]) -> tuple[Placed, Event]:
    """A placement's two events: its Placed, then the round's or the match's end."""
    placed, end = events
    assert isinstance(placed, Placed)
    return placed, end


def _round_ends_on_a_scoring_tile() -> State:
    """Two players, [0|5] led; seat 0 holds only [5|5] (on the 5: count 0 + 10), seat 1 [1|3] [2|3]; scores 20, 30."""
    return make_state(
        2,
        [tiles("[5|5]"), tiles("[1|3] [2|3]")],
        layout=layout_of((Tile(0, 5), None)),
        boneyard=tiles("[4|4]"),
        scores=(20, 30),
    )


def _drawing() -> State:
    """Two players, hands of 3: seat 0 cannot place and draws [3|3] (no fit), then [0|2] (fits the open 2)."""
    first = tiles("[1|4] [4|6] [0|1] [1|2] [3|5] [6|6] [3|3] [0|2]")
    state = new_match(Rules(2, 3, 250), order=deal_order([first[:3], first[3:6]], first[6:]), opener=0)
    for text in ("0:[1|4]", "1:[1|2]>[1|4].low", "0:[4|6]>[1|4].high", "1:[6|6]>[4|6].high"):
        state = apply(state, parse_move(text))
    return state


def _one_short_of_the_target() -> State:
    """Two players, [0|5] led, scores 245 and 0: seat 0's [5|5] on the 5 scores 10 and wins; it keeps [1|2]."""
    return make_state(
        2,
        [tiles("[5|5] [1|2]"), tiles("[1|3] [2|3]")],
        layout=layout_of((Tile(0, 5), None)),
        boneyard=tiles("[4|4]"),
        scores=(245, 0),
    )


def test_a_lead_reports_its_placement_count_points_and_contributions() -> None:
    """OPEN-3 COUNT-1 POINTS-1 POINTS-2: the lead's Placed names the seat, the tile, both free ends and its points."""
    state = new_match(Rules.standard(2), seed=20)
    after, events = apply_with_events(state, Place(1, Tile(0, 5)))
    expected = Placed(
        seat=1,
        placement=Placement(Tile(0, 5), None),
        end_count=5,
        points=5,
        contributions=(Contribution(Tile(0, 5), 0), Contribution(Tile(0, 5), 5)),
        scores=(0, 5),
    )
    assert ((expected,), apply(state, Place(1, Tile(0, 5)))) == (events, after)
    assert Tile(0, 5) == expected.tile


def test_a_round_ending_placement_reports_its_points_apart_from_the_settlement() -> None:
    """POINTS-1 END-1 SETTLE-1 SETTLE-2: Placed holds the 10 points; RoundEnded the scores before and after settling."""
    state = _round_ends_on_a_scoring_tile()
    move = Place(0, Tile(5, 5), pt(Tile(0, 5), Port.HIGH))
    after, events = apply_with_events(state, move)
    placed, ended = _placed_then(events)
    assert (10, 10, (30, 30)) == (placed.end_count, placed.points, placed.scores)
    hands = ((), tiles("[1|3] [2|3]"))
    assert RoundEnded(1, 0, hands, Settlement((0, 9), (0, 10), (0, 10)), (30, 30), (30, 20)) == ended
    assert ((30, 20), ended.result) == (after.scores, after.last_round)
    assert not ended.blocked


def test_a_draw_that_does_not_fit_still_names_its_tile() -> None:
    """DRAW-2: the first draw ([3|3]) does not fit and leaves drawn empty; its event names it, must_place False."""
    state = _drawing()
    after, events = apply_with_events(state, Draw(0))
    assert (Drew(0, Tile(3, 3), False, (2, 6)),) == events
    assert (None, 0) == (after.drawn_tile, after.to_move)
    again, more = apply_with_events(after, Draw(0))
    assert ((Drew(0, Tile(0, 2), True, (2, 6)),), Tile(0, 2)) == (more, again.drawn_tile)


def test_a_draw_that_blocks_the_round_reports_the_end() -> None:
    """BLOCK-1 SETTLE-1 DRAW-2: the last boneyard tile fits nowhere, nobody can place: Drew, then a blocked end."""
    state = make_state(
        2,
        [tiles("[1|2]"), tiles("[1|3] [2|3]")],
        layout=layout_of((Tile(0, 5), None)),
        boneyard=tiles("[6|6]"),
        scores=(20, 30),
    )
    after, events = apply_with_events(state, Draw(0))
    hands = (tiles("[1|2] [6|6]"), tiles("[1|3] [2|3]"))
    settlement = Settlement((15, 9), (15, 10), (15, 10))
    expected = (Drew(0, Tile(6, 6), False, (0, 5)), RoundEnded(1, None, hands, settlement, (20, 30), (5, 20)))
    assert (expected, Phase.ROUND_OVER, (5, 20)) == (events, after.phase, after.scores)
    ended = events[1]
    assert isinstance(ended, RoundEnded)
    assert ended.blocked


def test_a_placement_that_blocks_the_round_reports_the_end() -> None:
    """BLOCK-1 SETTLE-2: [5|6] leaves ends nobody holds: Placed with its count, then a RoundEnded with no finisher."""
    after, events = apply_with_events(about_to_block(), Place(0, Tile(5, 6), pt(Tile(0, 5), Port.HIGH)))
    placed, ended = _placed_then(events)
    assert (6, 0, (20, 30)) == (placed.end_count, placed.points, placed.scores)
    assert isinstance(ended, RoundEnded)
    assert (None, (20, 30), after.scores) == (ended.finisher, ended.scores_before, ended.scores_after)


def test_a_pass_reports_the_values_the_seat_lacked() -> None:
    """PASS-1: a seat that can neither place nor draw passes; Passed names it and the open values."""
    state = make_state(2, [tiles("[1|2]"), tiles("[0|0] [2|3]")], layout=layout_of((Tile(0, 5), None)), scores=(0, 0))
    after, events = apply_with_events(state, Pass(0))
    assert ((Passed(0, (0, 5)),), 1) == (events, after.to_move)


def test_a_match_won_mid_round_reports_the_winning_placement_and_the_hands() -> None:
    """MATCH-1: Placed, then MatchWon with the side, the placement, final scores and the hands; no settlement."""
    state = _one_short_of_the_target()
    move = Place(0, Tile(5, 5), pt(Tile(0, 5), Port.HIGH))
    after, events = apply_with_events(state, move)
    placed, won = _placed_then(events)
    hands = (tiles("[1|2]"), tiles("[1|3] [2|3]"))
    assert MatchWon(1, 0, 0, Placement(Tile(5, 5), pt(Tile(0, 5), Port.HIGH)), (255, 0), hands) == won
    assert ((255, 0), (255, 0), None) == (placed.scores, after.scores, after.last_round)


@given(st.data(), states(max_moves=120))
def test_apply_with_events_reaches_the_state_apply_does(data: st.DataObject, state: State) -> None:
    """TURN-1: for any reachable state and legal move, apply_with_events returns apply's state."""
    if state.phase is not Phase.PLAYING:
        return
    move = data.draw(legal_moves_of(state))
    assert apply(state, move) == apply_with_events(state, move)[0]


@given(st.data(), states(max_moves=120))
def test_apply_with_events_refuses_what_apply_refuses(data: st.DataObject, state: State) -> None:
    """TURN-2 PLACE-1 PLACE-3 DRAW-1 DRAW-2 PASS-1 END-1 MATCH-2: the same error, rule and message as apply."""
    move = data.draw(illegal_moves_of(state))
    with pytest.raises(SniffError) as by_apply:
        apply(state, move)
    with pytest.raises(SniffError) as by_events:
        apply_with_events(state, move)
    assert (type(by_apply.value), str(by_apply.value)) == (type(by_events.value), str(by_events.value))


@given(st.data(), states(max_moves=120))
def test_events_built_on_the_fast_path_equal_those_the_checked_constructors_build(
    data: st.DataObject, state: State
) -> None:
    """TURN-1 COUNT-2: each event apply_with_events reports is of its class, equal to the same fields through the
    checked constructor, its contributions the layout's own, and it passes the field checks unchanged."""
    if state.phase is not Phase.PLAYING:
        return
    after, events = apply_with_events(state, data.draw(legal_moves_of(state)))
    for event in events:
        fields = attrs.asdict(event, recurse=False)
        rebuilt = type(event)(**fields)
        assert (type(rebuilt), rebuilt, hash(rebuilt), repr(rebuilt)) == (type(event), event, hash(event), repr(event))
        attrs.validate(event)  # raises InvalidStateError on a field the checks refuse
        if type(event) is Placed:
            assert after.layout.contributions == event.contributions


def test_every_contribution_of_whole_matches_is_the_layouts_own() -> None:
    """COUNT-1..4: the Placed events of random matches hold exactly Layout.contributions after each placement."""
    checked = 0
    for players in (2, 3, 4):
        for seed in range(6):
            for step in play_match(
                new_match(Rules.standard(players), seed=seed), [random_move] * players, SplitMix64.from_seed(seed)
            ):
                for event in step.events:
                    if type(event) is Placed:
                        assert step.state.layout.contributions == event.contributions
                        checked += 1
    assert checked > 500


def test_apply_with_events_refuses_a_non_state_as_apply_does() -> None:
    """FORMAT-3: something that is not a State is refused with apply's InvalidStateError."""
    with pytest.raises(InvalidStateError) as caught:
        apply_with_events("state", Draw(0))  # type: ignore[arg-type]
    assert "FORMAT-3" == caught.value.rule


# ---------------------------------------------------------------- what each seat sees


def test_a_draw_shows_its_tile_to_the_drawer_alone() -> None:
    """SETUP-6: seat 0 sees the tile it drew; seat 1 and the public see only that it drew, and whether it fits."""
    drew = Drew(0, Tile(3, 3), False, (2, 6))
    hidden = Drew(0, None, False, (2, 6))
    assert [drew, hidden, hidden] == [drew.seen_by(0), drew.seen_by(1), drew.seen_by(None)]


def test_a_deal_shows_each_seat_its_own_hand() -> None:
    """SETUP-6: a seat sees its own dealt hand, not the others'; the public sees none; sizes stay known."""
    state = new_match(Rules.standard(3), seed=5)
    dealt = Dealt.of(state)
    assert (state.hands, 6, 10) == (dealt.hands, dealt.hand_size, dealt.boneyard_size)
    assert (None, state.hand(1), None) == dealt.seen_by(1).hands
    assert (None, None, None) == dealt.seen_by(None).hands


def test_placements_passes_and_ends_are_public() -> None:
    """SETUP-6 SETTLE-1: every seat sees a placement, a pass, a round's end (all hands) and a win whole."""
    _, (placed, ended) = apply_with_events(
        _round_ends_on_a_scoring_tile(), Place(0, Tile(5, 5), pt(Tile(0, 5), Port.HIGH))
    )
    _, (_, won) = apply_with_events(_one_short_of_the_target(), Place(0, Tile(5, 5), pt(Tile(0, 5), Port.HIGH)))
    public: list[Event] = [placed, ended, won, Passed(1, (0, 5))]
    for seat in (0, 1, 2, 3, None):
        assert public == [event.seen_by(seat) for event in public]


def test_seen_by_refuses_a_seat_no_table_has() -> None:
    """SETUP-2: an event is shown to a seat 0..3 or to None; anything else is refused."""
    for seat in (4, -1, True, "0"):
        with pytest.raises(InvalidStateError) as caught:
            Passed(0, (1,)).seen_by(seat)  # type: ignore[arg-type]
        assert "SETUP-2" == caught.value.rule


def test_seen_by_of_many_events_redacts_each() -> None:
    """SETUP-6: seen_by over a tuple hides each hidden fact; a non-tuple of events is refused (FORMAT-3)."""
    state = new_match(Rules.standard(2), seed=20)
    events = (Dealt.of(state), Drew(1, Tile(6, 6), True, (1,)))
    assert (Dealt.of(state).seen_by(0), Drew(1, None, True, (1,))) == seen_by(events, 0)
    with pytest.raises(InvalidStateError) as caught:
        seen_by([Passed(0, ())], 0)  # type: ignore[arg-type]
    assert "FORMAT-3" == caught.value.rule


def test_dealt_of_refuses_a_state_already_led() -> None:
    """FORMAT-3: a deal is described before its lead; a state with a tile on the table is refused."""
    state = new_match(Rules.standard(2), seed=20)
    with pytest.raises(InvalidStateError) as caught:
        Dealt.of(apply(state, legal_moves(state)[0]))
    assert "FORMAT-3" == caught.value.rule


# ---------------------------------------------------------------- the values


def _examples() -> dict[type, Event]:
    state = new_match(Rules.standard(2), seed=20)
    _, (placed, ended) = apply_with_events(
        _round_ends_on_a_scoring_tile(), Place(0, Tile(5, 5), pt(Tile(0, 5), Port.HIGH))
    )
    _, (_, won) = apply_with_events(_one_short_of_the_target(), Place(0, Tile(5, 5), pt(Tile(0, 5), Port.HIGH)))
    found: list[Event] = [Dealt.of(state), placed, Drew(0, Tile(3, 3), False, (2, 6)), Passed(1, (0,)), ended, won]
    return {type(event): event for event in found}


EXAMPLES = _examples()
NAMESPACE: dict[str, Any] = library_namespace()
NAMESPACE.update({cls.__name__: cls for cls in EVENT_TYPES})


def test_every_event_class_has_an_example() -> None:
    """The examples below cover every event class, so a new one cannot skip them."""
    assert set(EVENT_TYPES) == set(EXAMPLES)


@pytest.mark.parametrize("cls", EVENT_TYPES, ids=lambda cls: cls.__name__)
def test_an_event_repr_pastes_back_as_code(cls: type) -> None:
    """An event's repr, evaluated, is an equal event: a failure replays."""
    event = EXAMPLES[cls]
    assert event == eval(repr(event), NAMESPACE)


@pytest.mark.parametrize("cls", EVENT_TYPES, ids=lambda cls: cls.__name__)
def test_an_event_cannot_be_changed_and_copies_equal(cls: type) -> None:
    """An event refuses assignment and __setstate__; copies and pickles are equal events."""
    event: Any = EXAMPLES[cls]
    first = attrs.fields(cls)[0].name
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(event, first, None)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        event.__setstate__({first: None})
    for rebuilt in (copy.copy(event), copy.deepcopy(event), pickle.loads(pickle.dumps(event))):
        assert (cls, event) == (type(rebuilt), rebuilt)


@pytest.mark.parametrize("cls", EVENT_TYPES, ids=lambda cls: cls.__name__)
def test_an_event_refuses_a_malformed_field(cls: type) -> None:
    """FORMAT-3: each field of an event refuses a value of the wrong type, naming the field."""
    event: Any = EXAMPLES[cls]
    for field in attrs.fields(cls):
        with pytest.raises(InvalidStateError) as caught:
            attrs.evolve(event, **{field.name: "x"})
        assert ("FORMAT-3", True) == (caught.value.rule, f"{field.name} is " in str(caught.value))


def test_event_ranges_are_checked() -> None:
    """FORMAT-3: seats run 0..3, counts from 0, rounds from 1, pips 0..6, sides 0..2; each end accepted."""
    placed = EXAMPLES[Placed]
    assert isinstance(placed, Placed)
    assert 3 == attrs.evolve(placed, seat=3).seat
    assert 0 == attrs.evolve(placed, points=0).points
    bad: list[tuple[Any, dict[str, object]]] = [
        (placed, {"seat": 4}),
        (placed, {"seat": -1}),
        (placed, {"points": -5}),
        (placed, {"seat": True}),
        (EXAMPLES[Dealt], {"round_number": 0}),
        (EXAMPLES[Drew], {"open_values": (7,)}),
        (EXAMPLES[Drew], {"must_place": 1}),
        (EXAMPLES[MatchWon], {"side": 3}),
    ]
    for event, changes in bad:
        with pytest.raises(InvalidStateError) as caught:
            attrs.evolve(event, **changes)
        assert "FORMAT-3" == caught.value.rule, changes


def test_a_placed_event_names_the_point_it_covers() -> None:
    """PLACE-1: Placed.placement is the layout's own last placement, target point included."""
    state = _round_ends_on_a_scoring_tile()
    after, (placed, _) = apply_with_events(state, Place(0, Tile(5, 5), AttachmentPoint(Tile(0, 5), Port.HIGH)))
    assert isinstance(placed, Placed)
    assert after.layout.placements[-1] == placed.placement


def test_observe_is_importable_from_the_play_ring() -> None:
    """SETUP-6: observe and Observation are public names of the play ring."""
    assert (sniff_rules.play.view.observe, sniff_rules.play.view.Observation) == (
        sniff_rules.play.observe,
        sniff_rules.play.Observation,
    )
    assert {"observe", "Observation"} <= set(sniff_rules.play.__all__)


def test_an_illegal_move_changes_nothing_and_reports_nothing() -> None:
    """TURN-2: a move by the wrong seat raises IllegalMoveError; nothing is returned."""
    state = new_match(Rules.standard(2), seed=20)
    with pytest.raises(IllegalMoveError) as caught:
        apply_with_events(state, Draw(0))
    assert "TURN-2" == caught.value.rule


# ---------------------------------------------------------------- JSON


@cache
def _event_validator() -> Any:
    loaded = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$defs": loaded["$defs"], "$ref": "#/$defs/event"})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_event_of_a_match_as_any_seat_sees_it_matches_the_schema(players: int) -> None:
    """FORMAT-2 SETUP-6: each event's JSON, whole and as each seat sees it, validates against $defs/event."""
    steps = play_match(new_match(Rules.standard(players), seed=13), [random_move] * players, SplitMix64.from_seed(13))
    events = [event for step in steps for event in step.events]
    validator = _event_validator()
    for seat in (*range(players), None):
        for event in events:
            data = event_to_data(event.seen_by(seat))
            validator.validate(json.loads(json.dumps(data)))
    assert {Dealt, Placed, Drew, RoundEnded, MatchWon} <= {type(event) for event in events}


def test_an_event_is_written_with_its_fields_by_name() -> None:
    """FORMAT-2 SETTLE-1: a round's end is written with its kind, round, finisher, hands, settlement and scores."""
    _, (_, ended) = apply_with_events(_round_ends_on_a_scoring_tile(), Place(0, Tile(5, 5), pt(Tile(0, 5), Port.HIGH)))
    assert {
        "event": "round-ended",
        "round": 1,
        "finisher": 0,
        "hands": [[], ["[1|3]", "[2|3]"]],
        "settlement": {"hand_pips": [0, 9], "deductions": [0, 10], "side_deductions": [0, 10]},
        "scores_before": [30, 30],
        "scores_after": [30, 20],
    } == event_to_data(ended)
    assert {"event": "passed", "seat": 1, "open_values": [0, 5]} == event_to_data(Passed(1, (0, 5)))


def test_the_event_schema_refuses_a_hidden_fact_written_wrongly() -> None:
    """FORMAT-2: a drawn tile high half first, an unknown kind or an extra key is refused by the schema."""
    drew = event_to_data(Drew(0, Tile(1, 4), True, (1,)))
    for broken in ({**drew, "tile": "[4|1]"}, {**drew, "event": "discarded"}, {**drew, "extra": 1}):
        assert not _event_validator().is_valid(broken)


def test_writing_refuses_what_is_no_event() -> None:
    """FORMAT-3: event_to_data writes an event and nothing else."""
    with pytest.raises(InvalidStateError) as caught:
        event_to_data("placed")  # type: ignore[arg-type]
    assert "FORMAT-3" == caught.value.rule
