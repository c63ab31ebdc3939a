"""A stateful Hypothesis test of whole matches, for any engine behind an adapter.

:class:`SniffMachine` plays whole matches of American Sniff for 2, 3 and 4
players through four adapter methods — ``new_match``, ``legal_moves``,
``apply`` and ``next_round`` — which default to this library's functions.
A frontend or another engine subclasses it, routes the four methods to
its own code, and runs ``TestCase`` in its CI::

    # test_sniff_machine.py, in the frontend's repository
    from sniff_rules import IllegalMoveError, Move, Rules, State
    from sniff_rules.verify.machine import SniffMachine

    import my_frontend  # the engine or client under test


    class MyFrontendMachine(SniffMachine):
        def new_match(self, rules: Rules, seed: int) -> State:
            return my_frontend.deal(rules, seed).to_sniff_state()

        def legal_moves(self, state: State) -> tuple[Move, ...]:
            return my_frontend.Game.from_sniff_state(state).legal_moves()

        def apply(self, state: State, move: Move) -> State:
            game = my_frontend.Game.from_sniff_state(state)
            try:
                game.play(move)
            except my_frontend.Refused as refusal:
                # The machine expects a refusal as a SniffError.
                raise IllegalMoveError(refusal.rule, str(refusal)) from refusal
            return game.to_sniff_state()

        # next_round is left to the library here; override it the same way.


    TestMyFrontend = MyFrontendMachine.TestCase

Unlike every other loop of the package that plays matches, the machine
does not go through :func:`sniff_rules.play.driver.play_match`: the driver plays
this library's own ``apply``, and the machine's point is to step the engine
under test, one Hypothesis rule at a time, checking each step.

The adapter speaks in :class:`~sniff_rules.State` and the library's move
values, so an engine with its own representation converts at the edge.
The laws the machine checks are plain functions in :mod:`sniff_rules.position.laws`,
which a frontend can also run on its production logs without Hypothesis.
Set ``compare_with_reference = False`` when the engine deals or shuffles
differently on purpose; set ``rules_strategy`` (e.g.
``strategies.rules(players=2, custom=False)``) to what the frontend
supports. Hypothesis settings come from the active profile, or from
``TestMyFrontend.settings = settings(max_examples=200, stateful_step_count=100)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Final, NoReturn

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from hypothesis.strategies import DataObject, SearchStrategy

import sniff_rules
import sniff_rules.position.laws as laws
import sniff_rules.verify.strategies as strategies
from sniff_rules.errors import SniffError
from sniff_rules.moves import Move
from sniff_rules.position.laws import Violation
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State
from sniff_rules.tiles import TILE_COUNT
from sniff_rules.verify.adapter_checks import Call, changed_fields, every_meant_move, fields_of, refusal_failure
from sniff_rules.verify.strategies import NextRound, Playthrough, Step, illegal_moves_of, seeds

__all__ = ["CHECK_OF_LAW", "InvariantViolation", "SniffMachine"]

MAX_MOVES_PER_STEP: Final = 200
"""The most moves one ``play_moves`` step makes: a standard match takes
roughly 400 to 600 moves, which the default 60 steps must be able to reach."""

_MAX_CHOICE: Final = 2**16


class InvariantViolation(AssertionError):
    """What :class:`SniffMachine` raises when an adapter breaks a law of the game.

    ``check`` names the kind of law (see :attr:`SniffMachine.CHECKS`);
    ``law`` the law of :mod:`sniff_rules.position.laws` that was broken, or None for
    a check of the adapter itself (refusals, replays, the reference). The
    message starts with the rule ids from ``specs/rules.md`` and ends with
    Python that replays the match up to the failure.

    >>> failure = InvariantViolation("turn-order", "TURN-1: seat 0 is still to move", law="turn-passes")
    >>> failure.check, failure.law, str(failure)
    ('turn-order', 'turn-passes', 'TURN-1: seat 0 is still to move')
    """

    check: str
    law: str | None

    def __init__(self, check: str, message: str, law: str | None = None) -> None:
        super().__init__(message)
        self.check = check
        self.law = law


_LAWS_OF_CHECK: Final = {
    "well-formed": ("well-formed",),
    "tiles": ("tiles-once",),
    "sizes": ("placement-moves-tile", "draw-takes-first-tile", "pass-changes-only-turn"),
    "scores": (
        *("score-per-side", "scores-multiple-of-five", "below-target", "winner", "settlement"),
        *("points-credited", "settlement-deducted", "won-by-placement"),
    ),
    "turn-order": ("seat-to-move", "turn-passes"),
    "legal-moves": ("drawn-tile", *laws.MOVE_LIST_LAWS, "move-legal", "draw-marks-fitting-tile"),
    "end-count": ("end-count",),
    "round-end": ("last-round", "hands-revealed", "round-ended", "hands-held", "not-blocked", "round-result-recorded"),
    "match-over": ("accepted-while-playing",),
    "deal": (*laws.DEAL_LAWS, "round-facts-kept"),
}
CHECK_OF_LAW: Final = {law: check for check, names in _LAWS_OF_CHECK.items() for law in names}
"""The check of :class:`SniffMachine` under which each law of
:mod:`sniff_rules.position.laws` is reported."""


class SniffMachine(RuleBasedStateMachine):
    """Whole matches through an adapter, with every law checked after every move.

    The rules of the machine start a match (house rules from
    :attr:`rules_strategy`, a seed from :func:`~sniff_rules.verify.strategies.seeds`),
    make one legal move, make many (dealing each next round), finish a
    round, deal the next round, attempt an illegal move, attempt
    ``next_round`` while it is not allowed, replay the match, and start a
    fresh match once one is won. An illegal move can be attempted in every
    state, so the machine never runs out of rules.

    After every step, and after every move within a step, it checks the
    laws of :mod:`sniff_rules.position.laws` — each position, the adapter's list of
    legal moves, each move made and each deal — and reports a broken law
    under one of these checks (:data:`CHECK_OF_LAW` says which):

    - ``well-formed``: every field of a state has its type and range;
    - ``tiles`` (SETUP-1): each of the 28 tiles exactly once across the
      hands, the boneyard and the layout;
    - ``sizes`` (PLACE-3, DRAW-2, PASS-1): what a placement, a draw or a
      pass moves from where to where;
    - ``scores`` (SETTLE-4, POINTS-1, POINTS-2, SETTLE-1..3, MATCH-1): every
      score a multiple of 5; a placement adds exactly its points to the
      placer's side; a settlement takes off each hand rounded on its own;
      nobody at the target while play goes on, the winner at it after;
    - ``turn-order`` (TURN-1, DRAW-2): the seat to move is a seat; after a
      placement or a pass the next seat moves, after a draw the same seat;
    - ``legal-moves`` (TURN-1, TURN-2, DRAW-2, END-1, MATCH-2): non-empty,
      without repeats and all by the seat to move while the round is
      played, empty otherwise; every listed move applies and is legal;
    - ``end-count`` (COUNT-1..4): the layout's end count equals
      :func:`~sniff_rules.layout.recount_end` of its placements;
    - ``round-end`` (END-1, BLOCK-1, SETTLE-1): a round is played while
      every hand holds a tile and it is not blocked, and a settled round
      records the hands, its number and its finisher;
    - ``deal`` (SETUP-4, OPEN-1..3): a new match or round starts on an
      empty table, with full hands, the right opener and the scores and
      result carried over; a move keeps the round's facts.

    It also checks the adapter itself (:mod:`sniff_rules.verify.adapter_checks`):

    - ``illegal-move``: a move not listed raises a ``SniffError``;
    - ``caller-state``: a refused move (or ``next_round``) leaves the state
      passed in equal to a deep copy taken before, field by field, and every
      field the same object; an accepted move or a listing leaves every
      field the same object;
    - ``match-over`` (MATCH-2): a won match refuses every move and
      ``next_round``;
    - ``replay`` (SETUP-5): the same rules, seed and steps give equal
      states (the log is replayed through the adapter);
    - ``reference`` (when :attr:`compare_with_reference`): the adapter's
      deals, legal moves and results equal this library's;
    - ``refusal-rule`` (when :attr:`compare_with_reference`): a refusal
      cites the rule id (``SniffError.rule``) this library cites for the
      same state and move — MATCH-2 after the match, not END-1.

    A failure raises :class:`InvariantViolation` whose message ends with a
    script replaying the match; Hypothesis shrinks the steps first. The
    match so far is in ``house_rules``, ``seed``, ``steps`` (moves and
    :class:`~sniff_rules.verify.strategies.NextRound`) and ``history`` (the state
    after each step, the deal first); ``state`` is the current state.

    To check another engine, override the adapter methods and run the
    subclass's ``TestCase`` with pytest or unittest. Here the "engine" keeps
    its state as text, as a frontend that stores or sends it would:

    >>> import sniff_rules
    >>> class ThroughText(SniffMachine):
    ...     def apply(self, state, move):
    ...         text = repr(sniff_rules.apply(state, move))  # the frontend's engine goes here
    ...         return eval(text, vars(sniff_rules))
    >>> TestThroughText = ThroughText.TestCase  # what pytest collects
    >>> from hypothesis import settings
    >>> from hypothesis.stateful import run_state_machine_as_test
    >>> run_state_machine_as_test(ThroughText, settings=settings(max_examples=3, stateful_step_count=10))

    A subclass that overrides a rule of the machine must decorate it again;
    an undecorated override silently removes the rule.
    """

    CHECKS: ClassVar[tuple[str, ...]] = (
        "well-formed",
        "tiles",
        "sizes",
        "scores",
        "turn-order",
        "legal-moves",
        "illegal-move",
        "caller-state",
        "end-count",
        "round-end",
        "match-over",
        "deal",
        "replay",
        "reference",
        "refusal-rule",
    )
    """The names :attr:`InvariantViolation.check` takes."""

    rules_strategy: ClassVar[SearchStrategy[Rules]] = strategies.rules()
    """House rules to play: standard and custom, for 2, 3 and 4 players."""

    compare_with_reference: ClassVar[bool] = True
    """Also require the adapter's deals, legal moves and results to equal
    :mod:`sniff_rules`'s own; turn off for an engine that deals its own way."""

    def __init__(self) -> None:
        super().__init__()
        self.house_rules = Rules.standard(2)
        self.seed = 0
        self.state = sniff_rules.new_match(self.house_rules, self.seed)
        self.steps: list[Step] = []
        self.history: list[State] = []
        self._checked: State | None = None
        self._listed: tuple[State | None, tuple[Move, ...]] = (None, ())
        self._replayed = 0

    # The adapter: override these four to test another engine.

    def new_match(self, rules: Rules, seed: int) -> State:
        """The first deal of a match (adapter; default :func:`sniff_rules.new_match`)."""
        return sniff_rules.new_match(rules, seed)

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        """The moves of the seat to move (adapter; default :func:`sniff_rules.legal_moves`)."""
        return sniff_rules.legal_moves(state)

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or a ``SniffError`` (adapter; default :func:`sniff_rules.apply`)."""
        return sniff_rules.apply(state, move)

    def next_round(self, state: State) -> State:
        """The next deal after a settled round (adapter; default :func:`sniff_rules.next_round`)."""
        return sniff_rules.next_round(state)

    # Rules of the state machine.

    @initialize(data=st.data())
    def start(self, data: DataObject) -> None:
        """Deal a match with drawn house rules and seed."""
        self._start(data)

    @precondition(lambda self: self.state.phase is Phase.MATCH_OVER)
    @rule(data=st.data())
    def start_another_match(self, data: DataObject) -> None:
        """After a won match, replay it, then deal a fresh one."""
        self.replay()
        self._start(data)

    @precondition(lambda self: self.state.phase is Phase.PLAYING)
    @rule(choice=st.integers(0, _MAX_CHOICE))
    def play_move(self, choice: int) -> None:
        """Make the legal move at ``choice`` (modulo how many there are)."""
        moves = self._legal_moves(self.state)
        self._play(moves[choice % len(moves)])

    @precondition(lambda self: self.state.phase is not Phase.MATCH_OVER)
    @rule(count=st.integers(1, MAX_MOVES_PER_STEP), seed=st.integers(0, 2**32 - 1))
    def play_moves(self, count: int, seed: int) -> None:
        """Make up to ``count`` legal moves chosen by a seeded source, dealing
        each next round, until the match is won."""
        source = SplitMix64.from_seed(seed)
        for _ in range(count):
            if self.state.phase is Phase.MATCH_OVER:
                return
            if self.state.phase is Phase.ROUND_OVER:
                self._deal_next_round()
                continue
            moves = self._legal_moves(self.state)
            choice, source = source.below(len(moves))
            self._play(moves[choice])

    @precondition(lambda self: self.state.phase is Phase.PLAYING)
    @rule(seed=st.integers(0, 2**32 - 1))
    def finish_round(self, seed: int) -> None:
        """Make legal moves chosen by a seeded source until the round ends."""
        source = SplitMix64.from_seed(seed)
        # A round is at most 28 placements and 28 draws and some passes; the
        # bound only keeps a broken adapter from looping for ever.
        for _ in range(10 * TILE_COUNT):
            if self.state.phase is not Phase.PLAYING:
                return
            moves = self._legal_moves(self.state)
            choice, source = source.below(len(moves))
            self._play(moves[choice])
        self.fail("legal-moves", "END-1, BLOCK-1: a round went on for 280 moves without ending")

    @precondition(lambda self: self.state.phase is Phase.ROUND_OVER)
    @rule()
    def deal_next_round(self) -> None:
        """Deal the round after a settled one."""
        self._deal_next_round()

    @rule(data=st.data())
    def attempt_illegal_move(self, data: DataObject) -> None:
        """Offer a move that is not legal: it must be refused and change nothing."""
        state = self.state
        move = data.draw(illegal_moves_of(state), label="illegal move")
        if move in self._legal_moves(state):
            self.fail("legal-moves", f"{move!r} is listed as legal, but the rules forbid it", state)
        self._expect_refusals(state, [move])

    @precondition(lambda self: self.state.phase is not Phase.ROUND_OVER)
    @rule()
    def attempt_next_round(self) -> None:
        """Ask for the next round before this one is settled, or after the match."""
        self._expect_refusals(self.state, [], next_round_too=True)

    @precondition(lambda self: len(self.steps) > self._replayed)
    @rule()
    def replay(self) -> None:
        """Replay the match from its seed through the adapter: every state must recur."""
        self._replayed = len(self.steps)
        state = self.new_match(self.house_rules, self.seed)
        for number, (step, expected) in enumerate(zip([None, *self.steps], self.history, strict=True)):
            if step is not None:
                state = self.next_round(state) if isinstance(step, NextRound) else self.apply(state, step)
            if state != expected:
                changed = ", ".join(changed_fields(expected, state))
                self.fail(
                    "replay",
                    f"SETUP-5: replaying step {number} ({step!r}) gave other {changed}",
                    expected,
                    label="first reached",
                )

    @invariant()
    def position_is_lawful(self) -> None:
        """Every static law of a position holds in the current state."""
        self.check_position(self.state)

    # The checks; a subclass may extend check_position with its own.

    def check_position(self, state: State) -> None:
        """Check the laws that hold in every state of a match (:func:`~sniff_rules.position.laws.position_violations`
        and :func:`~sniff_rules.position.laws.move_list_violations` of the adapter's list), that every listed move
        applies, and that a won match refuses everything."""
        if state is self._checked:
            return  # already checked after the move; a refusal that changed it fails on its own
        self._checked = state
        self._report(laws.position_violations(state), state)
        moves = self._legal_moves(state)
        self._report(laws.move_list_violations(state, moves), state)
        if state.phase is Phase.PLAYING:
            self._check_listed_moves(state, moves)
        elif state.phase is Phase.MATCH_OVER:
            self._expect_refusals(state, every_meant_move(state), next_round_too=True, check="match-over")

    def _check_listed_moves(self, state: State, moves: tuple[Move, ...]) -> None:
        for move in moves:
            try:
                self.apply(state, move)
            except SniffError as error:
                self.fail("legal-moves", f"{move!r} is listed, but apply refuses it: {error}", state)
        if self.compare_with_reference:
            expected = sniff_rules.legal_moves(state)
            if moves != expected and set(moves) != set(expected):
                missing = sorted(map(repr, set(expected) - set(moves)))
                extra = sorted(map(repr, set(moves) - set(expected)))
                self.fail("reference", f"the legal moves lack {missing} and add {extra} to the library's", state)

    def _report(self, violations: tuple[Violation, ...], state: State, *, label: str = "state") -> None:
        """Fail on the first of ``violations``, if any, under its law's check."""
        if not violations:
            return
        first = violations[0]
        message = str(first)
        if len(violations) > 1:
            message += "\nalso broken: " + "; ".join(f"{violation.law} ({violation})" for violation in violations[1:])
        self.fail(CHECK_OF_LAW[first.law], message, state, label=label, law=first.law)

    # Plumbing.

    def fail(
        self, check: str, message: str, state: State | None = None, *, label: str = "state", law: str | None = None
    ) -> NoReturn:
        """Raise :class:`InvariantViolation` for ``check`` (and ``law``), with
        ``state``'s repr (which pastes back) and a script replaying the match so far."""
        parts = [message]
        if state is not None:
            parts.append(f"{label}: {state!r}")
        played = Playthrough(self.house_rules, self.seed, tuple(self.steps), self.state)
        parts.append("replay (through sniff_rules; swap in the adapter's functions to replay a frontend):")
        parts.append(played.script())
        raise InvariantViolation(check, "\n".join(parts), law=law)

    def _start(self, data: DataObject) -> None:
        house_rules = data.draw(self.rules_strategy, label="rules")
        seed = data.draw(seeds(), label="seed")
        state = self.new_match(house_rules, seed)
        self.house_rules, self.seed, self.state = house_rules, seed, state
        self.steps, self.history, self._replayed = [], [state], 0
        self._report(laws.deal_violations(None, state), state)
        if state.rules != house_rules:
            self.fail("deal", f"new_match({house_rules!r}, {seed}) deals a match of {state.rules!r}", state)
        if self.new_match(house_rules, seed) != state:
            self.fail("replay", f"SETUP-5: new_match({house_rules!r}, {seed}) deals two different matches", state)
        if self.compare_with_reference and state != sniff_rules.new_match(house_rules, seed):
            expected = sniff_rules.new_match(house_rules, seed)
            self.fail("reference", f"the deal differs from the library's in {changed_fields(expected, state)}", state)
        self.check_position(state)

    def _legal_moves(self, state: State) -> tuple[Move, ...]:
        listed_for, moves = self._listed
        if state is listed_for:
            return moves  # the list of a state is asked for by the check and again by the move
        fields = fields_of(state)
        moves = self.legal_moves(state)
        if any(a is not b for a, b in zip(fields, fields_of(state), strict=True)):
            self.fail("caller-state", "legal_moves changed the state it was given", state)
        self._listed = (state, moves)
        return moves

    def _play(self, move: Move) -> None:
        before = self.state
        fields = fields_of(before)
        after = self.apply(before, move)
        if any(a is not b for a, b in zip(fields, fields_of(before), strict=True)):
            self.fail("caller-state", f"apply(state, {move!r}) changed the state it was given", before)
        self.steps.append(move)
        self.history.append(after)
        self.state = after
        # The position first: a wrong end count is reported as such, not as
        # the wrong points it leads to.
        self.check_position(after)
        self._report(laws.step_violations(before, move, after), before, label="before the move")
        if self.compare_with_reference:
            expected = sniff_rules.apply(before, move)
            if after != expected:
                self.fail(
                    "reference",
                    f"after {move!r} the state differs from the library's in {changed_fields(expected, after)}",
                    before,
                )

    def _deal_next_round(self) -> None:
        before = self.state
        after = self.next_round(before)
        self.steps.append(NextRound())
        self.history.append(after)
        self.state = after
        self._report(laws.deal_violations(before, after), after)
        if self.compare_with_reference and after != sniff_rules.next_round(before):
            expected = sniff_rules.next_round(before)
            self.fail("reference", f"the deal differs from the library's in {changed_fields(expected, after)}", after)
        self.check_position(after)

    def _expect_refusals(
        self, state: State, moves: list[Move], *, next_round_too: bool = False, check: str = "illegal-move"
    ) -> None:
        """``apply`` refuses each move (and ``next_round`` the state) with a
        SniffError, and none of them changes ``state`` (:func:`~sniff_rules.verify.adapter_checks.refusal_failure`)."""
        calls: list[Call] = [(self._apply_call(state, move), move) for move in moves]
        if next_round_too:
            calls.append((lambda: self.next_round(state), None))
        failure = refusal_failure(state, calls, check=check, compare_with_reference=self.compare_with_reference)
        if failure is not None:
            self.fail(failure.check, failure.message, failure.state)

    def _apply_call(self, state: State, move: Move) -> Callable[[], object]:
        return lambda: self.apply(state, move)
