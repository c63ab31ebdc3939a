"""What one seat may see (sniff_rules.play.view.observe): its own hand, the sizes of the others (SETUP-6)."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from hypothesis import given, note, strategies as st

from sniff_rules.errors import IllegalMoveError, InvalidStateError
from sniff_rules.formats.notation import parse_move, parse_point, parse_tile
from sniff_rules.formats.state_json import state_to_json
from sniff_rules.formats.view_json import seat_view_to_data, seat_view_to_json
from sniff_rules.moves import Draw, Move, Pass, Place, apply, legal_moves
from sniff_rules.play.bots import random_move
from sniff_rules.play.driver import Step, play_match
from sniff_rules.play.events import Dealt, Drew, Event, MatchWon, Placed, RoundEnded, apply_with_events, seen_by
from sniff_rules.play.history import RoundLog
from sniff_rules.play.view import SeatView, observe, present_seat_view, seat_view
from sniff_rules.randomness import RandomSource, SplitMix64, draw_below
from sniff_rules.rules import Rules, Seat
from sniff_rules.state import Phase, State, new_match
from sniff_rules.tiles import Tile


def test_observation_hides_other_hands_until_the_round_ends() -> None:
    """SETUP-6: a seat sees its own hand and only the sizes of the others, until settlement."""
    state = new_match(Rules.standard(4), seed=11)
    source: RandomSource = SplitMix64.from_seed(11)
    while state.phase is Phase.PLAYING:
        for seat in range(4):
            view = observe(state, seat)
            assert state.hand(seat) == view.hand
            assert tuple(len(h) for h in state.hands) == view.hand_sizes
            assert view.revealed_hands is None
            assert (legal_moves(state) if seat == state.to_move else ()) == view.legal_moves
            if seat != state.to_move:
                assert view.drawn_tile is None
        move, source = random_move(state, source)
        state = apply(state, move)
    assert state.hands == observe(state, 0).revealed_hands


def test_observation_refuses_unknown_seat() -> None:
    """SETUP-2: a three-player state has no seat 3."""
    with pytest.raises(InvalidStateError):
        observe(new_match(Rules.standard(3), seed=1), 3)


# ---------------------------------------------------------------- the complete seat view

SCHEMA = Path(__file__).resolve().parent.parent / "specs" / "vectors" / "schema.json"


@functools.cache
def _view_validator() -> Any:
    loaded = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$defs": loaded["$defs"], "$ref": "#/$defs/seatView"})


def _choose(view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
    choice, source = draw_below(source, len(view.options))
    return view.options[choice].move, source


def _match_steps(players: int, seed: int) -> list[Step]:
    state = new_match(Rules(players=players, target=60, hand_size=Rules.standard(players).hand_size), seed=seed)
    policies = [_choose] * players
    return list(play_match(state, policies, SplitMix64.from_seed(seed), present=present_seat_view))


def _events_to(steps: list[Step], index: int) -> tuple[Event, ...]:
    return tuple(event for step in steps[: index + 1] for event in step.events)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_view_holds_the_public_facts_and_validates(players: int) -> None:
    """SETUP-6: a view holds its hand, every size, the layout, scores, opener, lot; its JSON fits the schema."""
    steps = _match_steps(players, 40 + players)
    for index, step in enumerate(steps):
        state, events = step.state, _events_to(steps, index)
        for seat in range(players):
            view = seat_view(state, seat, events)
            assert (state.hand(seat), tuple(len(hand) for hand in state.hands)) == (view.hand, view.hand_sizes)
            assert (len(state.boneyard), state.layout, state.scores) == (view.boneyard_size, view.layout, view.scores)
            assert (state.opener, state.lot, state.round_number) == (view.opener, view.lot, view.round_number)
            assert RoundLog.of(events, seat) == view.history
            own_turn = seat == state.to_move and state.phase is Phase.PLAYING
            assert (legal_moves(state) if own_turn else ()) == view.legal_moves
            if seat == state.to_move:
                assert [] == list(_view_validator().iter_errors(seat_view_to_data(view)))


def test_each_option_gives_the_end_count_and_points_the_move_scores() -> None:
    """COUNT-1, POINTS-1: an option's end count and points are those its placement reports when applied."""
    steps = _match_steps(3, 5)
    for index, step in enumerate(steps[:-1]):
        state = step.state
        if state.phase is not Phase.PLAYING:
            continue
        view = seat_view(state, state.to_move, _events_to(steps, index))
        for option in view.options:
            if type(option.move) is not Place:
                continue
            _, events = apply_with_events(state, option.move)
            placed = events[0]
            assert type(placed) is Placed
            assert (placed.end_count, placed.points) == (option.end_count, option.points)


def _move_of_option_data(data: dict[str, Any]) -> Move:
    """The move an option's data names, read from its fields alone, never from its text."""
    if data["kind"] == "place":
        target = None if data["point"] is None else parse_point(data["point"])
        return Place(data["seat"], parse_tile(data["tile"]), target)
    assert (None, None) == (data["tile"], data["point"])
    return Draw(data["seat"]) if data["kind"] == "draw" else Pass(data["seat"])


@functools.cache
def _option_validator() -> Any:
    loaded = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(
        {"$defs": loaded["$defs"], "$ref": "#/$defs/seatView/properties/options/items"}
    )


def _playing_steps(matches: list[tuple[int, int]]) -> Iterator[tuple[tuple[Event, ...], Step]]:
    """Each step of the matches (players, seed) with a seat to move, and the events up to it."""
    for players, seed in matches:
        steps = _match_steps(players, seed)
        for index, step in enumerate(steps[:-1]):
            if step.state.phase is Phase.PLAYING:
                yield _events_to(steps, index), step


def test_each_options_data_fits_the_schema_and_is_the_move() -> None:
    """FORMAT-1: every option of a real match is sent as its text and as data (kind, tile, point, seat), each
    naming the same move, with its end count and points; leads, placements on a point, draws and passes."""
    kinds = set()
    for events, step in _playing_steps([(2, 3), (3, 7), (4, 9), (4, 12), (2, 30)]):
        state = step.state
        view = seat_view(state, state.to_move, events)
        sent: Any = seat_view_to_data(view)["options"]
        for option, data in zip(view.options, sent, strict=True):
            assert [] == list(_option_validator().iter_errors(data))
            assert (option.move, option.move) == (_move_of_option_data(data), parse_move(data["move"]))
            assert (option.end_count, option.points) == (data["end_count"], data["points"])
            kinds.add(data["kind"] if data["kind"] != "place" or data["point"] else "lead")
    assert {"lead", "place", "draw", "pass"} == kinds


def test_options_of_a_draw_and_a_pass_keep_the_count_and_score_nothing() -> None:
    """DRAW-1, PASS-1: a draw or a pass leaves the end count and scores no points."""
    seen = set()
    steps = _match_steps(4, 9)
    for index, step in enumerate(steps[:-1]):
        state = step.state
        if state.phase is Phase.PLAYING:
            view = seat_view(state, state.to_move, _events_to(steps, index))
            for option in view.options:
                if type(option.move) is not Place:
                    seen.add(type(option.move))
                    assert (state.layout.end_count, 0) == (option.end_count, option.points)
    assert {Draw} <= seen


def test_a_match_won_mid_round_is_in_the_view_with_every_hand() -> None:
    """MATCH-1: a match won mid-round is the view's round_end, hands revealed, the settled round kept."""
    steps = _match_steps(2, 3)
    final = steps[-1]
    won = final.events[-1]
    assert type(won) is MatchWon
    events = _events_to(steps, len(steps) - 1)
    settled = [event.result for event in events if type(event) is RoundEnded]
    view = seat_view(final.state, 0, events)
    assert (won, won.hands, won.side) == (view.round_end, view.revealed_hands, view.winner)
    assert (settled[-1] if settled else None) == view.last_round
    assert [] == list(_view_validator().iter_errors(seat_view_to_data(view)))


def test_a_settled_round_reveals_its_hands_and_is_the_last_round() -> None:
    """SETTLE-1: once a round is settled every hand is revealed and it is the view's last round."""
    steps = _match_steps(3, 8)
    index = next(i for i, step in enumerate(steps) if step.state.phase is Phase.ROUND_OVER)
    state = steps[index].state
    view = seat_view(state, 1, _events_to(steps, index))
    assert (state.hands, state.last_round) == (view.revealed_hands, view.last_round)
    assert type(view.round_end) is RoundEnded


def test_seat_view_refuses_events_that_do_not_lead_to_the_state() -> None:
    """FORMAT-3: events of another deal, or no events, are refused; so is a non-state."""
    steps = _match_steps(2, 12)
    with pytest.raises(InvalidStateError, match="FORMAT-3"):
        seat_view(steps[5].state, 0, steps[0].events)
    with pytest.raises(InvalidStateError, match="FORMAT-3"):
        seat_view(steps[0].state, 0, [])
    with pytest.raises(InvalidStateError, match="FORMAT-3"):
        seat_view_to_data(observe(steps[0].state, 0))  # type: ignore[arg-type]


def test_seat_view_is_exported() -> None:
    """SETUP-6: the seat view is a public name of the play ring, its JSON writers of the formats ring."""
    import sniff_rules.formats
    import sniff_rules.play

    assert {"SeatView", "MoveOption", "seat_view", "present_seat_view"} <= set(sniff_rules.play.__all__)
    assert {"seat_view_to_data", "seat_view_to_json"} <= set(sniff_rules.formats.__all__)
    assert sniff_rules.play.seat_view is seat_view


# ---------------------------------------------------------------- nothing leaks


def _replayed(first: State, hands: list[list[Tile]], boneyard: list[Tile], moves: list[Move]) -> list[Step] | None:
    """The steps of ``moves`` from ``first`` re-dealt as given, or None where a move is refused."""
    state = State.create(
        rules=first.rules,
        hands=[tuple(hand) for hand in hands],
        boneyard=tuple(boneyard),
        opener=first.opener,
        lot=first.lot,
        source=SplitMix64.from_seed(99),
    )
    steps = [Step(None, (Dealt.of(state),), state)]
    try:
        for move in moves:
            state, events = apply_with_events(state, move)
            steps.append(Step(move, events, state))
    except IllegalMoveError:
        return None
    return steps


def _public(steps: list[Step], seat: Seat) -> list[tuple[Event, ...]]:
    return [seen_by(step.events, seat) for step in steps]


@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    length=st.integers(0, 60),
    viewer=st.integers(0, 3),
    shuffle=st.randoms(use_true_random=False),
)
def test_a_view_is_the_same_whatever_the_seat_cannot_see(
    players: int, seed: int, length: int, viewer: int, shuffle: random.Random
) -> None:
    """SETUP-6: other hands and the boneyard re-dealt consistently with the public log: the view's JSON is unchanged."""
    seat = viewer % players
    steps = _match_steps(players, seed)
    rounds = [i for i, step in enumerate(steps) if step.move is None]
    steps = steps[: rounds[1] if len(rounds) > 1 else len(steps)][: length + 1]
    first = steps[0].state
    moves = [step.move for step in steps[1:] if step.move is not None]
    hands, boneyard = [list(hand) for hand in first.hands], list(first.boneyard)
    slots = [(owner, i) for owner in range(players) if owner != seat for i in range(len(hands[owner]))]
    drawn_by_seat = {i for i, drew in enumerate(_draws(steps)) if drew.seat == seat}
    slots += [(-1, i) for i in range(len(boneyard)) if i not in drawn_by_seat]
    public = _public(steps, seat)
    changed = 0
    for _ in range(40):
        (owner_a, i), (owner_b, j) = shuffle.choice(slots), shuffle.choice(slots)
        pile_a, pile_b = hands[owner_a] if owner_a >= 0 else boneyard, hands[owner_b] if owner_b >= 0 else boneyard
        pile_a[i], pile_b[j] = pile_b[j], pile_a[i]
        again = _replayed(first, hands, boneyard, moves)
        if again is None or _public(again, seat) != public:
            pile_a[i], pile_b[j] = pile_b[j], pile_a[i]
            continue
        changed += 1
    note(f"{changed} swaps kept")
    again = _replayed(first, hands, boneyard, moves)
    assert again is not None
    events, events_again = _events_to(steps, len(steps) - 1), _events_to(again, len(again) - 1)
    view = seat_view_to_json(seat_view(steps[-1].state, seat, events))
    assert view == seat_view_to_json(seat_view(again[-1].state, seat, events_again))


def _draws(steps: list[Step]) -> list[Drew]:
    return [event for step in steps for event in step.events if type(event) is Drew]


def test_the_leak_check_changes_hidden_tiles_and_would_see_a_leak() -> None:
    """SETUP-6: a consistent re-deal changes the hidden hands yet not the view; the state's JSON does change."""
    steps = _match_steps(3, 21)[:6]
    first = steps[0].state
    moves = [step.move for step in steps[1:] if step.move is not None]
    hands, boneyard = [list(hand) for hand in first.hands], list(first.boneyard)
    boneyard[-1], boneyard[-2] = boneyard[-2], boneyard[-1]
    again = _replayed(first, hands, boneyard, moves)
    assert again is not None
    before, after = steps[-1].state, again[-1].state
    assert state_to_json(before) != state_to_json(after)
    events, events_again = _events_to(steps, len(steps) - 1), _events_to(again, len(again) - 1)
    assert seat_view_to_json(seat_view(before, 0, events)) == seat_view_to_json(seat_view(after, 0, events_again))
