"""JSON forms of states and their parts (sniff_rules.formats.state_json): round trips, and corrupt documents refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache

import attrs
import pytest
from hypothesis import given, settings, strategies as st

from hostile_documents import json_paths
from sniff_rules.errors import InvalidRulesError, InvalidStateError, NotationError, SniffError
from sniff_rules.formats.notation import parse_move, parse_tile
from sniff_rules.formats.state_json import (
    lot_from_data,
    lot_to_data,
    round_result_from_data,
    round_result_to_data,
    rules_from_data,
    rules_to_data,
    settlement_from_data,
    settlement_to_data,
    state_from_data,
    state_from_json,
    state_to_data,
    state_to_json,
)
from sniff_rules.formats.strict_json import JsonValue, json_str, load_json
from sniff_rules.moves import apply, legal_moves
from sniff_rules.play.bots import random_move
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import MAX_TARGET, Rules
from sniff_rules.state import Phase, RoundResult, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, Tile
from sniff_rules.verify.strategies import illegal_moves_of, legal_moves_of, states, tiles


def play_on(state: State, source: SplitMix64, steps: int) -> State:
    """``state`` after up to ``steps`` random moves, dealing new rounds from its own source."""
    for _ in range(steps):
        if state.phase is Phase.MATCH_OVER:
            break
        if state.phase is Phase.ROUND_OVER:
            if state.source is None:
                break
            state = next_round(state)
            continue
        move, next_source = random_move(state, source)
        assert isinstance(next_source, SplitMix64)
        source = next_source
        state = apply(state, move)
    return state


@st.composite
def played_states(draw: st.DrawFn) -> State:
    """States reached by random play: seeded matches, or a frontend's own order and opener."""
    players = draw(st.sampled_from((2, 3, 4)))
    rules = Rules.standard(players)
    if draw(st.booleans()):
        state = new_match(rules, seed=draw(st.integers(0, 2**64 - 1)))
    else:
        order = tuple(draw(st.permutations(DOUBLE_SIX)))
        state = new_match(rules, order=order, opener=draw(st.integers(0, players - 1)))
    return play_on(state, SplitMix64.from_seed(draw(st.integers(0, 2**32))), draw(st.integers(0, 700)))


@cache
def sample_states() -> tuple[State, ...]:
    """Every state of three whole matches per player count, all phases included."""
    found: list[State] = []
    for players in (2, 3, 4):
        for seed in range(3):
            state = new_match(Rules.standard(players), seed=seed)
            source = SplitMix64.from_seed(seed + 77)
            while True:
                found.append(state)
                if state.phase is Phase.MATCH_OVER:
                    break
                if state.phase is Phase.ROUND_OVER:
                    state = next_round(state)
                    continue
                move, next_source = random_move(state, source)
                assert isinstance(next_source, SplitMix64)
                source, state = next_source, apply(state, move)
    return tuple(found)


# ---------------------------------------------------------------- state round trip


@settings(max_examples=40)
@given(played_states())
def test_state_json_round_trips_after_random_play(state: State) -> None:
    """SETUP-1 SETUP-5 OPEN-1: a state reached by play reads back equal from its JSON."""
    assert state == state_from_json(state_to_json(state))


def test_every_state_of_whole_matches_round_trips() -> None:
    """END-1 BLOCK-1 MATCH-1 SETTLE-1: states in every phase, from deal to match end, read back equal."""
    states = sample_states()
    assert {Phase.PLAYING, Phase.ROUND_OVER, Phase.MATCH_OVER} == {s.phase for s in states}
    assert any(s.drawn >= 0 for s in states)
    assert any(s.lot for s in states)
    for state in states:
        assert state == state_from_json(state_to_json(state))


def test_state_json_is_plain_and_readable() -> None:
    """SETUP-5: tiles and moves as text, the 64-bit source as hex so JavaScript keeps it exactly."""
    state = new_match(Rules.standard(2), seed=2**63 + 5)
    data = json.loads(state_to_json(state))
    assert data["format"] == "sniff-rules/state@1"
    assert data["hands"][0][0].startswith("[")
    assert isinstance(state.source, SplitMix64)
    assert {"splitmix64": f"{state.source.state:016x}"} == data["source"]
    assert all(abs(n) < 2**53 for n in _integers(data))


def _integers(value: JsonValue) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        return [n for item in value for n in _integers(item)]
    if isinstance(value, dict):
        return [n for item in value.values() for n in _integers(item)]
    return []


def test_a_source_without_a_json_form_is_refused() -> None:
    """FORMAT-2 SETUP-5: only a SplitMix64 source (or none) has a JSON form; another is refused when written."""

    class Other:
        def below(self, bound: int) -> tuple[int, Other]:
            return 0, self

    # Named opener: a source that always answers 0 would tie the lot for ever.
    state = new_match(Rules.standard(2), source=Other(), opener=0)
    with pytest.raises(NotationError) as caught:
        state_to_json(state)
    assert "FORMAT-2" == caught.value.rule


# ---------------------------------------------------------------- the parts, each written once


@pytest.mark.parametrize("rules", [Rules.standard(2), Rules.standard(3), Rules.standard(4), Rules(4, 3, 55)])
def test_rules_round_trip(rules: Rules) -> None:
    """SETUP-2 SETUP-3 SETUP-4: house rules read back equal from their JSON object."""
    assert rules == rules_from_data(json.loads(json.dumps(rules_to_data(rules))))


def test_rules_that_describe_no_game_are_refused_by_their_rule() -> None:
    """FORMAT-2 SETUP-2 SETUP-3: five players or an odd target are refused by the game rule, a fraction by FORMAT-2."""
    refusals = []
    impossible: list[JsonValue] = [
        {"players": 5, "hand_size": 5, "target": 200},
        {"players": 2, "hand_size": 7, "target": 201},
    ]
    for data in impossible:
        with pytest.raises(InvalidRulesError) as caught:
            rules_from_data(data)
        refusals.append(caught.value.rule)
    with pytest.raises(NotationError) as malformed:
        rules_from_data({"players": 2.0, "hand_size": 7, "target": 250})
    assert ["SETUP-2", "SETUP-3", "FORMAT-2"] == [*refusals, malformed.value.rule]


def settled_results() -> list[tuple[Rules, RoundResult]]:
    """Every distinct settled round of the sample matches, with its rules."""
    return sorted(
        {(state.rules, state.last_round) for state in sample_states() if state.last_round is not None},
        key=repr,
    )


def test_round_results_and_settlements_round_trip() -> None:
    """SETTLE-1..2 END-1 BLOCK-1: every settled round, blocked or played out, and its settlement read back equal."""
    results = settled_results()
    assert {True, False} == {result.blocked for _, result in results}
    for rules, result in results:
        assert result == round_result_from_data(json.loads(json.dumps(round_result_to_data(result))), rules)
        assert result.settlement == settlement_from_data(settlement_to_data(result.settlement))


@pytest.mark.parametrize(
    ("key", "change", "error", "rule"),
    [
        ("hand_pips", lambda pips: [pips[0] + 1, *pips[1:]], InvalidStateError, "SETTLE-1"),
        ("deductions", lambda cost: [cost[0] + 5, *cost[1:]], InvalidStateError, "SETTLE-1"),
        ("side_deductions", lambda cost: [cost[0] + 5, *cost[1:]], InvalidStateError, "SETTLE-2"),
        ("deductions", lambda cost: [float(n) for n in cost], NotationError, "FORMAT-2"),
        ("hand_pips", lambda pips: [False if n == 0 else n for n in pips], NotationError, "FORMAT-2"),
    ],
)
def test_a_settlement_that_disagrees_with_its_hands_is_refused(
    key: str, change: Callable[[list[int]], list[JsonValue]], error: type[SniffError], rule: str
) -> None:
    """FORMAT-2 SETTLE-1 SETTLE-2: a settlement must be its hands' own, in integers; 0.0 or false for 0 is refused."""
    rules, result = next((rules, result) for rules, result in settled_results() if not result.blocked)
    settlement = settlement_to_data(result.settlement)
    settlement[key] = change(list(getattr(result.settlement, key)))
    with pytest.raises(SniffError) as caught:
        round_result_from_data({**round_result_to_data(result), "settlement": settlement}, rules)
    assert (error, rule) == (type(caught.value), caught.value.rule), str(caught.value)


def test_lots_round_trip() -> None:
    """OPEN-1: every lot of the sample matches, ties drawn again included, reads back equal."""
    lots = {(state.rules, state.lot) for state in sample_states() if state.lot}
    assert any(len(lot) > 1 for _, lot in lots)
    for rules, lot in lots:
        assert lot == lot_from_data(json.loads(json.dumps(lot_to_data(lot))), rules)


# ---------------------------------------------------------------- hostile input


def base_document() -> dict[str, JsonValue]:
    """A mid-round four-player state with a lot, as JSON data."""
    state = new_match(Rules.standard(4), seed=11)
    state = play_on(state, SplitMix64.from_seed(5), 6)
    assert state.phase is Phase.PLAYING
    assert state.lot
    assert state.layout.placements
    return state_to_data(state)


def _opener_plus_one(doc: dict[str, JsonValue]) -> None:
    opener = doc["opener"]
    assert isinstance(opener, int)
    doc["opener"] = (opener + 1) % 4


Mutation = Callable[[dict[str, JsonValue]], object]


def _hands(doc: dict[str, JsonValue]) -> list[list[JsonValue]]:
    hands = doc["hands"]
    assert isinstance(hands, list)
    return [hand for hand in hands if isinstance(hand, list)]


def _boneyard(doc: dict[str, JsonValue]) -> list[JsonValue]:
    boneyard = doc["boneyard"]
    assert isinstance(boneyard, list)
    return boneyard


def _rules(doc: dict[str, JsonValue]) -> dict[str, JsonValue]:
    rules = doc["rules"]
    assert isinstance(rules, dict)
    return rules


def _empty_a_hand(doc: dict[str, JsonValue]) -> None:
    _boneyard(doc).extend(_hands(doc)[1])
    _hands(doc)[1].clear()


HOSTILE: list[tuple[str, Mutation, type[SniffError], str]] = [
    ("a boneyard tile missing", lambda d: _boneyard(d).pop(), InvalidStateError, "SETUP-1"),
    ("a hand tile also in the boneyard", lambda d: _boneyard(d).append(_hands(d)[0][0]), InvalidStateError, "SETUP-1"),
    ("a tile twice in one hand", lambda d: _hands(d)[0].append(_hands(d)[0][0]), InvalidStateError, "SETUP-1"),
    ("a tile outside the set", lambda d: _hands(d)[0].append("[6|7]"), NotationError, "FORMAT-1"),
    ("seat to move out of range", lambda d: d.update(to_move=4), InvalidStateError, "TURN-1"),
    ("negative seat", lambda d: d.update(to_move=-1), InvalidStateError, "TURN-1"),
    ("seat as text", lambda d: d.update(to_move="0"), NotationError, "FORMAT-2"),
    ("seat as a boolean", lambda d: d.update(opener=True), NotationError, "FORMAT-2"),
    ("seat as a fraction", lambda d: d.update(to_move=1.0), NotationError, "FORMAT-2"),
    ("a huge score", lambda d: d.update(scores=[10**30, 0]), NotationError, "FORMAT-2"),
    ("a huge round", lambda d: d.update(round=2**60), NotationError, "FORMAT-2"),
    ("a score not a multiple of 5", lambda d: d.update(scores=[3, 0]), InvalidStateError, "SETTLE-4"),
    ("a score per seat, not per side", lambda d: d.update(scores=[0, 0, 0, 0]), InvalidStateError, "SETUP-2"),
    ("a score past the target while playing", lambda d: d.update(scores=[200, 0]), InvalidStateError, "MATCH-1"),
    ("five players", lambda d: _rules(d).update(players=5), InvalidStateError, "SETUP-2"),
    ("a target not a multiple of 5", lambda d: _rules(d).update(target=201), InvalidStateError, "SETUP-3"),
    ("no hand size", lambda d: _rules(d).update(hand_size=0), InvalidStateError, "SETUP-4"),
    ("hands as text", lambda d: d.update(hands="[1|4]"), NotationError, "FORMAT-2"),
    (
        "three hands for four players",
        lambda d: d.update(hands=list[JsonValue](_hands(d)[:3])),
        InvalidStateError,
        "SETUP-2",
    ),
    ("a placement as a number", lambda d: d.update(layout=[1]), NotationError, "FORMAT-2"),
    ("an impossible layout", lambda d: d.update(layout=["[1|4]", "[2|5]>[1|4].low"]), InvalidStateError, "PLACE-1"),
    (
        "an arm before both long sides",
        lambda d: d.update(layout=["[5|5]", "[4|5]>[5|5].arm-a"]),
        InvalidStateError,
        "SNIFF-2",
    ),
    ("two leads", lambda d: d.update(layout=["[5|5]", "[4|5]"]), InvalidStateError, "OPEN-3"),
    ("an unknown phase", lambda d: d.update(phase="paused"), NotationError, "FORMAT-2"),
    ("over without a winner", lambda d: d.update(phase="match-over"), InvalidStateError, "MATCH-1"),
    ("a winner while playing", lambda d: d.update(winner=0), InvalidStateError, "MATCH-1"),
    ("a drawn tile nobody holds", lambda d: d.update(drawn=_boneyard(d)[0]), InvalidStateError, "DRAW-2"),
    ("a lot won by another seat", _opener_plus_one, InvalidStateError, "OPEN-1"),
    (
        "a lot with a value of 7",
        lambda d: d.update(lot=[[[0, 7], [1, 1], [2, 1], [3, 1]]]),
        InvalidStateError,
        "OPEN-1",
    ),
    ("a lot ending in a tie", lambda d: d.update(lot=[[[0, 6], [1, 6], [2, 1], [3, 1]]]), InvalidStateError, "OPEN-1"),
    ("a source that is no hex", lambda d: d.update(source={"splitmix64": "xyz"}), NotationError, "FORMAT-2"),
    ("a 64-bit source as a number", lambda d: d.update(source={"splitmix64": 2**64 - 1}), NotationError, "FORMAT-2"),
    ("a played-out hand while playing", _empty_a_hand, InvalidStateError, "END-1"),
    ("a previous round in round 1", lambda d: d.update(last_round={"round": 0}), NotationError, "FORMAT-2"),
    ("an unknown key", lambda d: d.update(extra=1), NotationError, "FORMAT-2"),
    ("a missing key", lambda d: d.pop("winner"), NotationError, "FORMAT-2"),
    ("another format", lambda d: d.update(format="sniff-rules/state@0"), NotationError, "FORMAT-2"),
    ("rules as an array", lambda d: d.update(rules=[2, 7, 250]), NotationError, "FORMAT-2"),
    ("a tile as a number", lambda d: _hands(d)[0].append(7), NotationError, "FORMAT-2"),
    ("a tile high half first is the same tile", lambda d: _hands(d)[0].append("[4|1]"), InvalidStateError, "SETUP-1"),
    ("a score that is infinite", lambda d: d.update(scores=[float("inf"), 0]), NotationError, "FORMAT-2"),
    ("a score as a fraction", lambda d: d.update(scores=[5.0, 0]), NotationError, "FORMAT-2"),
    ("a lot of 65 rounds", lambda d: d.update(lot=[[[0, 1]]] * 65), NotationError, "FORMAT-2"),
    ("a lot entry of three", lambda d: d.update(lot=[[[0, 6, 1], [1, 1]]]), NotationError, "FORMAT-2"),
    ("a drawn tile as a list", lambda d: d.update(drawn=["[1|4]"]), NotationError, "FORMAT-2"),
    ("a drawn tile that is no tile", lambda d: d.update(drawn="[1|9]"), NotationError, "FORMAT-1"),
    ("a placement that is no placement", lambda d: d.update(layout=["[1|4]>low"]), NotationError, "FORMAT-1"),
    (
        "a source with a capital",
        lambda d: d.update(source={"splitmix64": "ABCDEF0123456789"}),
        NotationError,
        "FORMAT-2",
    ),
]


@pytest.mark.parametrize(("name", "mutate", "error", "rule"), HOSTILE, ids=[case[0] for case in HOSTILE])
def test_corrupt_state_json_is_refused_naming_the_rule(
    name: str, mutate: Mutation, error: type[SniffError], rule: str
) -> None:
    """FORMAT-1..2 SETUP-1..4 OPEN-1 OPEN-3 TURN-1 PLACE-1 SNIFF-2 END-1 MATCH-1 SETTLE-4 DRAW-2: the right refusal."""
    # Malformed: NotationError citing FORMAT-1 or FORMAT-2. Well formed but impossible: InvalidStateError citing
    # the game rule it breaks.
    document = base_document()
    mutate(document)
    with pytest.raises(SniffError) as caught:
        state_from_data(document)
    assert (error, rule) == (type(caught.value), caught.value.rule), str(caught.value)


def drawn_state() -> State:
    """Two players, hands of 3: seat 0 cannot place, draws [3|3] (no fit) then [0|2], which fits."""
    first = [Tile(1, 4), Tile(4, 6), Tile(0, 1), Tile(1, 2), Tile(3, 5), Tile(6, 6), Tile(3, 3), Tile(0, 2)]
    order = tuple(first) + tuple(t for t in DOUBLE_SIX if t not in first)
    state = new_match(Rules(2, 3, 250), order=order, opener=0)
    for text in ("0:[1|4]", "1:[1|2]>[1|4].low", "0:[4|6]>[1|4].high", "1:[6|6]>[4|6].high", "0:draw", "0:draw"):
        state = apply(state, parse_move(text))
    assert Tile(0, 2) == state.drawn_tile
    return state


def test_a_drawn_tile_must_be_held_and_fit() -> None:
    """DRAW-2: the drawn tile is in the drawer's hand and fits; [3|3] (no fit) or [1|4] (on the table) is refused."""
    document = state_to_data(drawn_state())
    assert drawn_state() == state_from_data(document)
    for wrong in ("[3|3]", "[1|4]"):
        with pytest.raises(InvalidStateError) as caught:
            state_from_data({**document, "drawn": wrong})
        assert "DRAW-2" == caught.value.rule


def test_a_drawer_holds_no_other_tile_that_fits() -> None:
    """DRAW-1: a player who could place does not draw, so a drawn state with another fitting tile is refused."""
    document = state_to_data(drawn_state())
    hands = _hands(document)
    boneyard = _boneyard(document)
    # [2|3] fits the open 2; swapping it for the misfit [3|3] makes the earlier draws illegal.
    hands[0][hands[0].index("[3|3]")] = "[2|3]"
    boneyard[boneyard.index("[2|3]")] = "[3|3]"
    with pytest.raises(InvalidStateError) as caught:
        state_from_data(document)
    assert "DRAW-1" == caught.value.rule


json_values: st.SearchStrategy[JsonValue] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["[1|4]", "[6|6]", "[1|1].arm-a", "playing", "match-over", "0:draw", ""])
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def _replace(document: JsonValue, path: tuple[str | int, ...], value: JsonValue) -> JsonValue:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(document, dict) and isinstance(head, str):
        return {**document, head: _replace(document[head], rest, value)}
    if isinstance(document, list) and isinstance(head, int):
        return [*document[:head], _replace(document[head], rest, value), *document[head + 1 :]]
    raise AssertionError(path)


@settings(max_examples=150)
@given(st.data(), json_values)
def test_a_corrupted_state_is_refused_or_wholly_valid(data: st.DataObject, value: JsonValue) -> None:
    """FORMAT-2 SETUP-1 TURN-1 END-1: a state with any part replaced by any JSON value is refused or wholly valid."""
    document: JsonValue = base_document() if data.draw(st.booleans()) else state_to_data(drawn_state())
    path = data.draw(st.sampled_from(json_paths(document)))
    corrupted = _replace(document, path, value)
    try:
        state = state_from_data(corrupted)
    except SniffError:
        return
    assert state == state_from_data(state_to_data(state))
    everything = [t for hand in state.hands for t in hand] + list(state.boneyard)
    everything += [placement.tile for placement in state.layout.placements]
    assert sorted(everything) == list(DOUBLE_SIX)
    if state.phase is Phase.PLAYING:
        for move in legal_moves(state):
            apply(state, move)


# ---------------------------------------------------------------- every value the library builds reads back equal


def through_json(value: JsonValue) -> JsonValue:
    """``value`` written as JSON text and read back by the hardened reader."""
    return load_json(json.dumps(value))


@given(st.integers(-3, 8), st.integers(-3, 40), st.one_of(st.integers(-10, 600), st.integers(0, 2**64)))
def test_any_rules_accepted_read_back_equal_from_json(players: int, hand_size: int, target: int) -> None:
    """SETUP-2 SETUP-3 SETUP-4: whatever Rules accepts reads back equal from its JSON; the rest is refused at once."""
    try:
        rules = Rules(players, hand_size, target)
    except InvalidRulesError:
        return
    assert rules == rules_from_data(through_json(rules_to_data(rules)))


def test_a_target_no_json_reader_holds_exactly_is_refused_when_built() -> None:
    """SETUP-3: the issue's Rules(2, 7, 5 * 2**60), whose JSON no reader held exactly, is refused at construction."""
    with pytest.raises(InvalidRulesError) as caught:
        Rules(2, 7, 5 * 2**60)
    assert "SETUP-3" == caught.value.rule
    assert Rules(2, 7, MAX_TARGET) == rules_from_data(through_json(rules_to_data(Rules(2, 7, MAX_TARGET))))


@given(tiles())
def test_every_tile_reads_back_equal_from_its_json(tile: Tile) -> None:
    """SETUP-1 FORMAT-1: a tile's JSON is its text, which reads back as the same tile."""
    assert tile == parse_tile(json_str(through_json(str(tile)), "tile"))


@given(states(max_moves=120), st.data())
def test_every_move_reads_back_equal_from_its_json(state: State, data: st.DataObject) -> None:
    """FORMAT-1 TURN-1: a legal or an illegal move's JSON is its text, which reads back as the same move."""
    moves = [data.draw(illegal_moves_of(state))]
    if state.phase is Phase.PLAYING:
        moves.append(data.draw(legal_moves_of(state)))
    for move in moves:
        assert move == parse_move(json_str(through_json(str(move)), "move"))


@given(states(max_moves=400))
def test_every_state_of_any_house_rules_reads_back_equal_from_its_json(state: State) -> None:
    """SETUP-1..5 OPEN-1 END-1 MATCH-1: a state reached under any house rules reads back equal from its JSON."""
    assert state == state_from_json(state_to_json(state))


@pytest.mark.parametrize(
    "change",
    [{"scores": (2**53, 0)}, {"scores": (-(2**60), 0)}, {"context": "round"}],
    ids=["a score of 2**53", "a score of -2**60", "round 2**60"],
)
def test_a_state_with_a_number_no_json_reader_holds_is_refused_when_written(change: dict[str, object]) -> None:
    """FORMAT-2: a state whose round or score is beyond 2**53 - 1 has no JSON form: writing it is refused."""
    state = new_match(Rules.standard(2), seed=1)
    if change.get("context") == "round":
        state = attrs.evolve(state, context=attrs.evolve(state.context, round_number=2**60))
    else:
        state = attrs.evolve(state, **change)  # type: ignore[arg-type]
    with pytest.raises(NotationError) as caught:
        state_to_json(state)
    assert "FORMAT-2" == caught.value.rule
