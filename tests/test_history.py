"""A round's public log (sniff_rules.play.history): what each seat sees of a round, and what draws and passes imply."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from functools import cache
from typing import Any

import attrs
import pytest

from sniff_rules.errors import InvalidStateError
from sniff_rules.layout import Placement
from sniff_rules.play.bots import random_move
from sniff_rules.play.driver import Step, play_match
from sniff_rules.play.events import Dealt, Drew, Event, Passed, Placed, RoundEnded
from sniff_rules.play.history import Lacked, RoundLog, round_logs
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.scoring import Settlement
from sniff_rules.state import State, new_match
from sniff_rules.tiles import Tile

PLAYERS = (2, 3, 4)
SEEDS = (1, 2, 3)


@cache
def _match(players: int, seed: int) -> tuple[Step, ...]:
    policies = [random_move] * players
    return tuple(play_match(new_match(Rules.standard(players), seed=seed), policies, SplitMix64.from_seed(seed)))


def _shows(tile: Tile, values: tuple[int, ...]) -> bool:
    return tile.low in values or tile.high in values


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_seats_log_agrees_with_the_state_after_every_step(players: int, seed: int) -> None:
    """SETUP-4 SETUP-6 DRAW-2 END-1: hand sizes, boneyard size, the seat's own tiles and the end, step by step."""
    events: list[Event] = []
    for step in _match(players, seed):
        events += step.events
        state = step.state
        for seat in (*range(players), None):
            log = RoundLog.of(events, seat)
            assert (state.round_number, state.opener, state.lot) == (log.round_number, log.opener, log.lot)
            assert tuple(len(hand) for hand in state.hands) == log.hand_sizes
            assert len(state.boneyard) == log.boneyard_size
            assert (state.phase.value != "playing") == log.is_over
            assert [hand if index == seat else None for index, hand in enumerate(log.deal.hands)] == list(
                log.deal.hands
            )
            assert all((draw.tile is not None) == (draw.seat == seat) for draw in log.draws)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_draw_and_pass_shows_values_the_hand_lacked(players: int, seed: int) -> None:
    """DRAW-1 DRAW-2 PASS-1: at each draw or pass the seat held no tile showing an open value; a kept draw neither."""
    before: State | None = None
    checked = 0
    for step in _match(players, seed):
        for event in step.events:
            if isinstance(event, (Drew, Passed)):
                assert before is not None
                assert [] == [tile for tile in before.hand(event.seat) if _shows(tile, event.open_values)]
                if isinstance(event, Drew) and event.tile is not None:
                    assert _shows(event.tile, event.open_values) == event.must_place
                checked += 1
        before = step.state
    assert checked > 0


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_what_a_log_says_a_hand_lacks_it_lacks(players: int, seed: int) -> None:
    """DRAW-1 DRAW-2 PASS-1 SETUP-6: after every step, no seat's hand shows a value its public log says it lacks."""
    events: list[Event] = []
    found = 0
    for step in _match(players, seed):
        events += step.events
        log = RoundLog.of(events, None)
        for seat in range(players):
            lacking = log.lacking(seat)
            # A drawn tile that must be placed now is left out (DRAW-2).
            held = [tile for tile in step.state.hand(seat) if tile != step.state.drawn_tile]
            assert [] == [tile for tile in held if _shows(tile, lacking)]
            found += bool(lacking)
    assert found > 0


def _deal(hands: tuple[tuple[Tile, ...] | None, ...]) -> Dealt:
    return Dealt(1, 0, (), 2, 24, hands, (0, 0))


LEAD = Placed(0, Placement(Tile(1, 4), None), 5, 5, (), (5, 0))


def test_a_hand_that_only_loses_tiles_keeps_lacking_what_it_lacked() -> None:
    """DRAW-1 PASS-1: a pass, then a draw that fits and is placed: the hand lacks both turns' values."""
    hidden = _deal((None, None))
    events: list[Event] = [
        hidden,
        LEAD,
        Passed(1, (1, 4)),
        Placed(0, Placement(Tile(4, 6), None), 7, 0, (), (5, 0)),
        Drew(1, None, True, (1, 6)),
        Placed(1, Placement(Tile(1, 1), None), 7, 0, (), (5, 0)),
    ]
    log = RoundLog.of(events)
    assert ((1, 4, 6), ()) == (log.lacking(1), log.lacking(0))
    assert (Lacked(1, (1, 4), 2), Lacked(1, (1, 6), 4)) == log.lacks


def test_a_kept_draw_starts_what_the_hand_lacks_again() -> None:
    """DRAW-2: a drawn tile that did not fit stays in the hand and lacks only the values open when it was drawn."""
    events: list[Event] = [
        _deal((None, None)),
        LEAD,
        Passed(1, (1, 4)),
        Placed(0, Placement(Tile(4, 6), None), 7, 0, (), (5, 0)),
        Drew(1, None, False, (1, 6)),
    ]
    assert (1, 6) == RoundLog.of(events).lacking(1)
    events += [Drew(1, None, True, (1, 6)), Placed(1, Placement(Tile(1, 1), None), 7, 0, (), (5, 0))]
    assert (1, 6) == RoundLog.of(events).lacking(1)


def test_a_log_counts_draws_and_lists_each_kind() -> None:
    """DRAW-2 PASS-1: draws are counted per seat; placements, draws and passes are listed in order."""
    events: list[Event] = [_deal((None, None)), LEAD, Drew(1, None, False, (1, 4)), Drew(1, None, True, (1, 4))]
    log = RoundLog.of(events)
    assert ((0, 2), (LEAD,), (), 22, (1, 4)) == (
        log.draw_counts,
        log.placements,
        log.passes,
        log.boneyard_size,
        log.hand_sizes,
    )
    assert (events[2], events[3]) == log.draws


def test_the_log_of_events_is_the_last_round() -> None:
    """OPEN-2: RoundLog.of takes the events from the last deal on; round_logs splits a match into its rounds."""
    steps = _match(3, 2)
    events = [event for step in steps for event in step.events]
    logs = round_logs(events, 1)
    assert steps[-1].state.round_number == len(logs)
    assert RoundLog.of(events, 1) == logs[-1]
    assert tuple(event.seen_by(1) for event in events) == tuple(event for log in logs for event in log.events)
    assert all(isinstance(log.end, RoundEnded) for log in logs[:-1])


def test_a_log_must_start_at_its_deal_and_stop_at_its_end() -> None:
    """FORMAT-3 END-1: a log without its deal, with two deals, or going on after its end is refused."""
    ended = RoundEnded(1, 0, ((), ()), Settlement((0, 0), (0, 0), (0, 0)), (5, 0), (5, 0))
    cases: list[tuple[tuple[Event, ...], str]] = [
        ((), "FORMAT-3"),
        ((LEAD,), "FORMAT-3"),
        ((_deal((None, None)), LEAD, _deal((None, None))), "FORMAT-3"),
        ((_deal((None, None)), ended, LEAD), "END-1"),
    ]
    for events, rule in cases:
        with pytest.raises(InvalidStateError) as caught:
            RoundLog(None, events)
        assert rule == caught.value.rule, events
    with pytest.raises(InvalidStateError) as refused:
        round_logs([LEAD, _deal((None, None))])
    assert "FORMAT-3" == refused.value.rule


def test_a_log_refuses_what_its_seat_cannot_see() -> None:
    """SETUP-6: a log for seat 0 holding seat 1's drawn tile or dealt hand is refused; RoundLog.of hides both."""
    dealt = _deal(((Tile(1, 4), Tile(0, 0)), (Tile(2, 2), Tile(3, 3))))
    drew = Drew(1, Tile(5, 5), False, (1, 4))
    for events in ((dealt,), (dealt.seen_by(0), LEAD, drew)):
        with pytest.raises(InvalidStateError) as caught:
            RoundLog(0, events)
        assert "SETUP-6" == caught.value.rule
    log = RoundLog.of([dealt, LEAD, drew], 0)
    assert (((Tile(1, 4), Tile(0, 0)), None), None) == (log.deal.hands, log.draws[0].tile)


def test_a_log_refuses_malformed_arguments() -> None:
    """SETUP-2 FORMAT-3: a seat outside 0..3, events that are not events, a seat the round has not."""
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: RoundLog.of([_deal((None, None))], 4), "SETUP-2"),
        (lambda: RoundLog(-1, (_deal((None, None)),)), "SETUP-2"),
        (lambda: RoundLog.of(["event"]), "FORMAT-3"),  # type: ignore[list-item]
        (lambda: RoundLog.of(5), "FORMAT-3"),  # type: ignore[arg-type]
        (lambda: RoundLog(None, [_deal((None, None))]), "FORMAT-3"),  # type: ignore[arg-type]
        (lambda: RoundLog.of([_deal((None, None))]).lacking(2), "SETUP-2"),
    ]
    for call, rule in calls:
        with pytest.raises(InvalidStateError) as caught:
            call()
        assert rule == caught.value.rule


def test_logs_and_lacks_are_sealed_values() -> None:
    """A log and a lack refuse assignment and __setstate__; copies and pickles are equal values."""
    log = RoundLog.of([_deal((None, None)), LEAD, Passed(1, (1, 4))])
    values: list[Any] = [log, log.lacks[0]]
    for value in values:
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            value.__setstate__({})
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            value.seat = 3
        for rebuilt in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
            assert value == rebuilt
