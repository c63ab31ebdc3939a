"""The match driver (sniff_rules.play.driver.play_match): policies choose, the driver deals and reports every event."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest

from sniff_rules.cli.commands import demo
from sniff_rules.draw.narration import PLAIN, Seating, describe
from sniff_rules.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, SniffError
from sniff_rules.moves import Move, apply, legal_moves
from sniff_rules.play.bots import greedy_move, random_move
from sniff_rules.play.driver import Step, play_match
from sniff_rules.play.events import Dealt, Drew, Event, MatchWon, Passed, Placed, RoundEnded
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round
from support import deal_order, tiles

PLAYERS = (2, 3, 4)


def _loop(state: State, source: RandomSource) -> list[tuple[Move | None, State]]:
    """The match played on by random_move with apply and next_round, written out by hand."""
    steps: list[tuple[Move | None, State]] = [(None, state)] if state.layout.is_empty else []
    while state.phase is not Phase.MATCH_OVER:
        if state.phase is Phase.ROUND_OVER:
            state = next_round(state)
            steps.append((None, state))
            continue
        move, source = random_move(state, source)
        state = apply(state, move)
        steps.append((move, state))
    return steps


def _match(players: int, seed: int) -> list[Step]:
    policies = [random_move] * players
    return list(play_match(new_match(Rules.standard(players), seed=seed), policies, SplitMix64.from_seed(seed)))


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_driver_plays_the_match_a_hand_written_loop_plays(players: int, seed: int) -> None:
    """TURN-1 OPEN-2 MATCH-1: every step's move and state is the hand-written loop's, deals included."""
    expected = _loop(new_match(Rules.standard(players), seed=seed), SplitMix64.from_seed(seed))
    assert expected == [(step.move, step.state) for step in _match(players, seed)]


@pytest.mark.parametrize("players", PLAYERS)
def test_each_step_reports_the_events_of_its_move_or_deal(players: int) -> None:
    """SETUP-5 TURN-1 END-1 MATCH-1: a deal step holds one Dealt; a move step starts with its own kind of event."""
    steps = _match(players, 7)
    previous = steps[0].state
    for step in steps:
        if step.move is None:
            assert (Dealt.of(step.state),) == step.events
        else:
            kinds = {"Place": Placed, "Draw": Drew, "Pass": Passed}
            first = step.events[0]
            assert isinstance(first, (Placed, Drew, Passed))
            assert (kinds[type(step.move).__name__], step.move.seat) == (type(first), first.seat)
            assert (step.state.phase is Phase.PLAYING) == (len(step.events) == 1)
        previous = step.state
    assert isinstance(steps[-1].events[-1], MatchWon)
    assert previous.is_over


@pytest.mark.parametrize("players", PLAYERS)
def test_the_events_account_for_every_point(players: int) -> None:
    """POINTS-1 POINTS-2 SETTLE-2 MATCH-1: placements' points less settlements' deductions make the final scores."""
    steps = _match(players, 11)
    rules = Rules.standard(players)
    scores = [0] * rules.sides
    for step in steps:
        for event in step.events:
            if isinstance(event, Placed):
                scores[rules.side_of(event.seat)] += event.points
                assert tuple(scores) == event.scores
            elif isinstance(event, RoundEnded):
                assert tuple(scores) == event.scores_before
                scores = [score - cost for score, cost in zip(scores, event.settlement.side_deductions, strict=True)]
                assert tuple(scores) == event.scores_after
    assert tuple(scores) == steps[-1].state.scores


def test_a_fresh_deal_is_reported_and_a_round_in_play_is_not() -> None:
    """OPEN-3: a state with nothing led starts with its Dealt step; a state in mid-round starts with a move."""
    state = new_match(Rules.standard(2), seed=5)
    led = apply(state, legal_moves(state)[0])
    first = next(play_match(led, [random_move] * 2, SplitMix64.from_seed(1)))
    assert first.move is not None
    assert [] == list(play_match(_match(2, 5)[-1].state, [random_move] * 2, SplitMix64.from_seed(1)))


def test_each_policy_plays_its_own_seat_with_the_source_threaded() -> None:
    """TURN-1 TURN-2: the policy of the seat to move is asked; each gets the source the last one returned."""
    calls: list[tuple[int, int, RandomSource]] = []

    def policy_of(seat: int) -> Callable[[State, RandomSource], tuple[Move, RandomSource]]:
        def policy(state: State, source: RandomSource) -> tuple[Move, RandomSource]:
            calls.append((seat, state.to_move, source))
            return random_move(state, source)

        return policy

    source = SplitMix64.from_seed(3)
    steps = list(play_match(new_match(Rules.standard(3), seed=3), [policy_of(seat) for seat in range(3)], source))
    assert all(seat == to_move for seat, to_move, _ in calls)
    moved = [step for step in steps if step.move is not None]
    assert [source] + [step.source for step in moved[:-1]] == [given for _, _, given in calls]


def test_present_builds_what_the_policy_sees_from_the_state_and_the_events() -> None:
    """SETUP-6: with present, a policy is handed present(state, events so far), not the state."""
    seen: list[tuple[State, tuple[Event, ...]]] = []

    def present(state: State, events: tuple[Event, ...]) -> tuple[State, tuple[Event, ...]]:
        return state, events

    def policy(view: tuple[State, tuple[Event, ...]], source: RandomSource) -> tuple[Move, RandomSource]:
        seen.append(view)
        return random_move(view[0], source)

    steps = list(
        play_match(new_match(Rules.standard(2), seed=9), [policy] * 2, SplitMix64.from_seed(9), present=present)
    )
    moves = [index for index, step in enumerate(steps) if step.move is not None]
    for (state, events), index in zip(seen, moves, strict=True):
        assert steps[index - 1].state == state
        assert tuple(event for step in steps[:index] for event in step.events) == events


def test_a_given_deal_function_deals_every_later_round() -> None:
    """SETUP-5 OPEN-2: with deal, each round after the first is dealt by it from the settled state."""
    order = deal_order(
        [tiles("[0|0] [0|1] [0|2] [0|3] [0|4] [0|5] [0|6]"), tiles("[1|1] [1|2] [1|3] [1|4] [1|5] [1|6] [2|2]")]
    )
    dealt: list[int] = []

    def deal(settled: State) -> State:
        dealt.append(settled.round_number)
        finisher = settled.last_round.finisher if settled.last_round else None
        return next_round(settled, order=order, opener=0 if finisher is None else finisher)

    state = new_match(Rules.standard(2), order=order, opener=0)
    steps = list(play_match(state, [random_move] * 2, SplitMix64.from_seed(2), deal=deal))
    deals = [step.state for step in steps if step.move is None]
    assert list(range(1, len(deals))) == dealt
    assert all(state.hands == fresh.hands for fresh in deals)


def test_a_deal_function_must_deal_the_next_round() -> None:
    """FORMAT-3: a deal function answering anything but the next round's State is refused."""
    settled = next(step.state for step in _match(2, 4) if step.state.phase is Phase.ROUND_OVER)
    for answer in (settled, "state"):
        with pytest.raises(InvalidStateError) as caught:
            list(play_match(settled, [random_move] * 2, SplitMix64.from_seed(1), deal=lambda _s, a=answer: a))  # type: ignore[misc]
        assert "FORMAT-3" == caught.value.rule


def test_bad_arguments_are_refused_before_any_step() -> None:
    """FORMAT-3 SETUP-2 SETUP-5: a non-state, a wrong policy count, a non-callable, a source without below."""
    state = new_match(Rules.standard(2), seed=1)
    source = SplitMix64.from_seed(1)
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: play_match("state", [random_move] * 2, source), "FORMAT-3"),  # type: ignore[call-overload]
        (lambda: play_match(state, [random_move] * 3, source), "SETUP-2"),
        (lambda: play_match(state, random_move, source), "SETUP-2"),  # type: ignore[call-overload]
        (lambda: play_match(state, [random_move, None], source), "FORMAT-3"),  # type: ignore[list-item]
        (lambda: play_match(state, [random_move] * 2, source, deal=5), "FORMAT-3"),  # type: ignore[call-overload]
        (lambda: play_match(state, [random_move] * 2, "source"), "SETUP-5"),  # type: ignore[call-overload]
    ]
    for call, rule in cases:
        with pytest.raises(InvalidStateError) as caught:
            call()
        assert rule == caught.value.rule


def test_a_policy_must_answer_a_move_and_a_source() -> None:
    """TURN-1 SETUP-5: a policy answering a non-move is refused; one answering a bad source too."""
    state = new_match(Rules.standard(2), seed=1)
    answers: list[tuple[object, type[SniffError], str]] = [
        ("0:draw", InvalidMoveError, "TURN-1"),
        ((legal_moves(state)[0],), InvalidMoveError, "TURN-1"),
        ((legal_moves(state)[0], "source"), InvalidStateError, "SETUP-5"),
    ]
    for answer, error, rule in answers:
        steps = play_match(state, [lambda _s, _r, a=answer: a] * 2, SplitMix64.from_seed(1))  # type: ignore[misc]
        next(steps)
        with pytest.raises(SniffError) as caught:
            next(steps)
        assert (error, rule) == (type(caught.value), caught.value.rule)


def test_an_illegal_move_from_a_policy_is_refused_by_its_rule() -> None:
    """TURN-2: a policy that moves for another seat is refused as apply refuses it."""
    state = new_match(Rules.standard(2), seed=20)
    other = legal_moves(apply(state, legal_moves(state)[0]))[0]
    steps = play_match(state, [lambda _s, r: (other, r)] * 2, SplitMix64.from_seed(1))
    next(steps)
    with pytest.raises(IllegalMoveError) as caught:
        next(steps)
    assert "TURN-2" == caught.value.rule


def test_the_demo_tells_the_match_in_the_narrations_words() -> None:
    """END-1 MATCH-1: the demo, driven by greedy bots, tells every event of the seeded match in the lines
    that play and replay use (narration's describe), heading apart, and no raw tuple of the values."""
    out = io.StringIO()
    final = demo(4, 3, out)
    lines = out.getvalue().splitlines()
    steps = list(
        play_match(
            new_match(Rules.standard(4), seed=3), [lambda s, r: (greedy_move(s), r)] * 4, SplitMix64.from_seed(3)
        )
    )
    seating = Seating.of(Rules.standard(4), {})
    told = [line for step in steps for event in step.events for line in describe(event, seating, PLAIN)]
    assert told == lines[1:]
    assert f"American Sniff, 4 players, to {Rules.standard(4).target} points, seed 3: greedy bots" == lines[0]
    assert [] == [line for line in lines if re.search(r"\(\(|\(\d+, \d+", line)]
    ends = sum(isinstance(event, RoundEnded) for step in steps for event in step.events)
    assert ends == sum(line.startswith("Round ") and line.endswith(".") for line in lines)
    assert (final, True) == (steps[-1].state, final.winner is not None)
