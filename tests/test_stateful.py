"""The stateful machine of sniff_rules.verify.machine: it passes on the library and bites on broken adapters."""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import ClassVar

import attrs
import pytest
from hypothesis import HealthCheck, Phase as HypothesisPhase, settings
from hypothesis.stateful import run_state_machine_as_test

import sniff_rules
from sniff_rules.errors import IllegalMoveError, SniffError
from sniff_rules.layout import Port
from sniff_rules.moves import Move, Place
from sniff_rules.position.laws import DEAL_LAWS, MOVE_LIST_LAWS, POSITION_LAWS, STEP_LAWS
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State
from sniff_rules.verify.machine import CHECK_OF_LAW, InvariantViolation, SniffMachine

TestSniffMachine = SniffMachine.TestCase
TestSniffMachine.__doc__ = (
    "SETUP-1, SETUP-4, SETUP-5, TURN-1, TURN-2, DRAW-2, COUNT-1, POINTS-1, SETTLE-4, MATCH-1, MATCH-2:"
    " whole matches under the active profile keep every law of SniffMachine."
)


# Hypothesis leaves this function unannotated; typed here so the tests stay strict.
run_machine: Callable[..., None] = run_state_machine_as_test

BITE = settings(
    max_examples=200,
    database=None,
    deadline=None,
    report_multiple_bugs=False,
    suppress_health_check=list(HealthCheck),
    # The explain phase traces every line of every rerun: minutes for a stateful failure.
    phases=[HypothesisPhase.explicit, HypothesisPhase.reuse, HypothesisPhase.generate, HypothesisPhase.shrink],
)


def bite(machine: type[SniffMachine]) -> InvariantViolation:
    """Run ``machine`` until Hypothesis reports its failure; the reported error."""
    with pytest.raises(InvariantViolation) as caught:
        run_machine(machine, settings=BITE)
    failure = caught.value
    notes = "\n".join(getattr(failure, "__notes__", []))
    # Hypothesis attaches the shrunk program (headed "Falsifying example" in
    # older releases, "Failing test case" in newer); the message carries the replay.
    assert "Falsifying example" in notes or "Failing test case" in notes, notes
    assert "state = new_match(" in str(failure), str(failure)
    return failure


class InvariantsOnly(SniffMachine):
    """A broken adapter must be caught by the laws themselves, not by the comparison with the library."""

    compare_with_reference: ClassVar[bool] = False


class KeepsTheTurn(InvariantsOnly):
    """Forgets to hand the turn on after a placement."""

    def apply(self, state: State, move: Move) -> State:
        after = sniff_rules.apply(state, move)
        if isinstance(move, Place) and after.phase is Phase.PLAYING:
            return attrs.evolve(after, to_move=state.to_move)
        return after


class DoublesTheEndCount(InvariantsOnly):
    """Keeps twice the end count on the layout."""

    def apply(self, state: State, move: Move) -> State:
        after = sniff_rules.apply(state, move)
        layout = after.layout
        return attrs.evolve(after, layout=attrs.evolve(layout, end_count=2 * layout.end_count))


class TakesAnyMove(InvariantsOnly):
    """While a round is played, treats a refused move as a pass instead of raising."""

    def apply(self, state: State, move: Move) -> State:
        try:
            return sniff_rules.apply(state, move)
        except SniffError:
            if state.phase is not Phase.PLAYING:
                raise  # after the match it refuses, so only the illegal-move check can see the fault
            return attrs.evolve(state, to_move=(state.to_move + 1) % state.rules.players)


class ScribblesOnRefusal(InvariantsOnly):
    """Refuses illegal moves, but first changes the state it was handed."""

    def apply(self, state: State, move: Move) -> State:
        try:
            return sniff_rules.apply(state, move)
        except SniffError:
            object.__setattr__(state, "scores", (*state.scores[:-1], state.scores[-1] + 5))
            raise


class PlaysOnAfterTheWin(InvariantsOnly):
    """Accepts moves once the match is won, leaving the state as it was."""

    def apply(self, state: State, move: Move) -> State:
        if state.phase is Phase.MATCH_OVER:
            return state
        return sniff_rules.apply(state, move)


class DealsByTheClock(InvariantsOnly):
    """Shuffles from a counter instead of the seed alone, so a replay deals differently."""

    deals: ClassVar[collections.Counter[str]] = collections.Counter()

    def new_match(self, rules: Rules, seed: int) -> State:
        self.deals["count"] += 1
        return sniff_rules.new_match(rules, seed + self.deals["count"])


class CitesEndOneAfterTheWin(SniffMachine):
    """Refuses every move once the match is won, but cites END-1 (the round is over) where the rules say MATCH-2."""

    def apply(self, state: State, move: Move) -> State:
        if state.phase is Phase.MATCH_OVER:
            raise IllegalMoveError("END-1", f"round {state.round_number} is over; {move} is refused")
        return sniff_rules.apply(state, move)


ARMS = (Port.ARM_A, Port.ARM_B)


class HidesTheSniffArms(SniffMachine):
    """Never lists a placement on a side arm: consistent with itself, wrong against the library."""

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        moves = sniff_rules.legal_moves(state)
        kept = tuple(
            move
            for move in moves
            if not (isinstance(move, Place) and move.target is not None and move.target.port in ARMS)
        )
        return kept or moves


@pytest.mark.parametrize(
    ("machine", "check", "law", "rule"),
    [
        (KeepsTheTurn, "turn-order", "turn-passes", "TURN-1"),
        (DoublesTheEndCount, "end-count", "end-count", "COUNT-1..4"),
        (TakesAnyMove, "illegal-move", None, "must be refused"),
        (ScribblesOnRefusal, "caller-state", None, "changed ['scores']"),
        (PlaysOnAfterTheWin, "match-over", None, "must be refused"),
        (DealsByTheClock, "replay", None, "SETUP-5"),
        (HidesTheSniffArms, "reference", None, "legal moves"),
        (CitesEndOneAfterTheWin, "refusal-rule", None, "citing 'END-1', where the library cites MATCH-2"),
    ],
)
def test_the_machine_catches_a_broken_adapter(
    machine: type[SniffMachine], check: str, law: str | None, rule: str
) -> None:
    """TURN-1, TURN-2, COUNT-1, MATCH-2, SETUP-5, SNIFF-3: each broken adapter is reported by its own check and law."""
    failure = bite(machine)
    assert (check, law) == (failure.check, failure.law), str(failure)
    assert rule in str(failure), str(failure)


def test_every_law_is_reported_under_a_check_of_the_machine() -> None:
    """Every law of sniff_rules.position.laws, and no other name, is reported under one of SniffMachine.CHECKS."""
    every_law = {*POSITION_LAWS, *MOVE_LIST_LAWS, *STEP_LAWS, *DEAL_LAWS}
    assert every_law == set(CHECK_OF_LAW)
    assert set(CHECK_OF_LAW.values()) <= set(SniffMachine.CHECKS)


class Census(SniffMachine):
    """Counts what the machine reaches, to show it plays whole matches."""

    reached: ClassVar[collections.Counter[tuple[int, Phase]]] = collections.Counter()

    def check_position(self, state: State) -> None:
        super().check_position(state)
        self.reached[state.rules.players, state.phase] += 1


def test_the_machine_plays_whole_matches_for_two_three_and_four() -> None:
    """MATCH-1, END-1, SETUP-2: in a short run matches for 2, 3 and 4 players are settled round by round and won."""
    Census.reached.clear()
    run_machine(Census, settings=settings(max_examples=30, stateful_step_count=40, derandomize=True, database=None))
    for players in (2, 3, 4):
        for phase in Phase:
            assert Census.reached[players, phase] > 0, (players, phase, Census.reached)
