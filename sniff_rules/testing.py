"""A stateful Hypothesis test of whole matches, for any engine behind an adapter.

:class:`SniffMachine` plays whole matches of American Sniff for 2, 3 and 4
players through four adapter methods — ``new_match``, ``legal_moves``,
``apply`` and ``next_round`` — which default to this library's functions.
A frontend or another engine subclasses it, routes the four methods to
its own code, and runs ``TestCase`` in its CI::

    # test_sniff_machine.py, in the frontend's repository
    from sniff_rules import IllegalMoveError, Move, Rules, State
    from sniff_rules.testing import SniffMachine

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

The adapter speaks in :class:`~sniff_rules.State` and the library's move
values, so an engine with its own representation converts at the edge.
Set ``compare_with_reference = False`` when the engine deals or shuffles
differently on purpose; set ``rules_strategy`` (e.g.
``strategies.rules(players=2, custom=False)``) to what the frontend
supports. Hypothesis settings come from the active profile, or from
``TestMyFrontend.settings = settings(max_examples=200, stateful_step_count=100)``.
"""

from __future__ import annotations

import copy
import operator
import pickle
from collections.abc import Callable
from typing import ClassVar, Final, NoReturn

import attrs
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from hypothesis.strategies import DataObject, SearchStrategy

import sniff_rules
from sniff_rules.errors import SniffError
from sniff_rules.layout import recount_end
from sniff_rules.moves import Draw, Move, Pass, Place
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.scoring import play_points
from sniff_rules.state import Phase, State
from sniff_rules import strategies
from sniff_rules.strategies import NextRound, Playthrough, Step, illegal_moves_of, seeds
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT

__all__ = ["InvariantViolation", "SniffMachine"]

MAX_MOVES_PER_STEP: Final = 200
"""The most moves one ``play_moves`` step makes: a standard match takes
roughly 400 to 600 moves, which the default 60 steps must be able to reach."""

_MAX_CHOICE: Final = 2**16


class InvariantViolation(AssertionError):
    """What :class:`SniffMachine` raises when an adapter breaks a law of the game.

    ``check`` names the law (see :attr:`SniffMachine.CHECKS`); the message
    starts with the rule ids from ``specs/rules.md`` and ends with Python
    that replays the match up to the failure.

    >>> failure = InvariantViolation("turn-order", "TURN-1: seat 0 is still to move")
    >>> failure.check, str(failure)
    ('turn-order', 'TURN-1: seat 0 is still to move')
    """

    check: str

    def __init__(self, check: str, message: str) -> None:
        super().__init__(message)
        self.check = check


_EVERY_INDEX: Final = list(range(TILE_COUNT))
_FIELD_NAMES: Final = tuple(field.name for field in attrs.fields(State))


_FIELDS_OF: Final = operator.attrgetter(*_FIELD_NAMES)


def _fields(state: State) -> tuple[object, ...]:
    fields: tuple[object, ...] = _FIELDS_OF(state)
    return fields


def _changed_fields(first: State, second: State) -> list[str]:
    return [name for name in _FIELD_NAMES if getattr(first, name) != getattr(second, name)]


def _deep_copy(state: State) -> State:
    """A copy sharing no object with ``state``; a pickle round trip costs
    about half of ``copy.deepcopy`` on these values."""
    try:
        copied = pickle.loads(pickle.dumps(state))
    except (pickle.PickleError, TypeError, AttributeError):
        return copy.deepcopy(state)
    assert isinstance(copied, State)
    return copied


def _rounded(pips: int) -> int:
    # SETTLE-1 written out again rather than taken from the scoring module,
    # so the machine does not trust the code it checks.
    return 5 * ((pips + 2) // 5)


class SniffMachine(RuleBasedStateMachine):
    """Whole matches through an adapter, with every law checked after every move.

    The rules of the machine start a match (house rules from
    :attr:`rules_strategy`, a seed from :func:`~sniff_rules.strategies.seeds`),
    make one legal move, make many (dealing each next round), finish a
    round, deal the next round, attempt an illegal move, attempt
    ``next_round`` while it is not allowed, replay the match, and start a
    fresh match once one is won. An illegal move can be attempted in every
    state, so the machine never runs out of rules.

    After every step, and after every move within a step, it checks:

    - ``tiles`` (SETUP-1): each of the 28 tiles exactly once across the
      hands, the boneyard and the layout;
    - ``sizes`` (SETUP-4): hands + boneyard + placed tiles = 28, and what a
      placement, a draw or a pass moves from where to where;
    - ``scores`` (SETTLE-4, POINTS-1, POINTS-2, SETTLE-1..3, MATCH-1): every
      score a multiple of 5; a placement adds exactly its points to the
      placer's side; a settlement takes off each hand rounded on its own;
      nobody at the target while play goes on, the winner at it after;
    - ``turn-order`` (TURN-1, DRAW-2): after a placement or a pass the
      next seat moves, after a draw the same seat;
    - ``legal-moves`` (TURN-1, TURN-2, END-1, MATCH-2): non-empty, without
      repeats and all by the seat to move while the round is played, empty
      otherwise; every listed move applies;
    - ``illegal-move``: a move not listed raises a ``SniffError``;
    - ``caller-state``: a refused move (or ``next_round``) leaves the state
      passed in equal to a deep copy taken before, field by field, and every
      field the same object; an accepted move or a listing leaves every
      field the same object;
    - ``end-count`` (COUNT-1..4): the layout's end count equals
      :func:`~sniff_rules.layout.recount_end` of its placements;
    - ``match-over`` (MATCH-2): a won match refuses every move and
      ``next_round``;
    - ``deal`` (SETUP-4, OPEN-2): a new match or round starts empty, with
      full hands and the right opener;
    - ``replay`` (SETUP-5): the same rules, seed and steps give equal
      states (the log is replayed through the adapter);
    - ``reference`` (when :attr:`compare_with_reference`): the adapter's
      deals, legal moves and results equal this library's.

    A failure raises :class:`InvariantViolation` whose message ends with a
    script replaying the match; Hypothesis shrinks the steps first. The
    match so far is in ``house_rules``, ``seed``, ``steps`` (moves and
    :class:`~sniff_rules.strategies.NextRound`) and ``history`` (the state
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
        "tiles",
        "sizes",
        "scores",
        "turn-order",
        "legal-moves",
        "illegal-move",
        "caller-state",
        "end-count",
        "match-over",
        "deal",
        "replay",
        "reference",
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
        self._recounted: object = None
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
        for number, (step, expected) in enumerate(zip([None, *self.steps], self.history)):
            if step is not None:
                state = self.next_round(state) if isinstance(step, NextRound) else self.apply(state, step)
            if state != expected:
                changed = ", ".join(_changed_fields(expected, state))
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
        """Check the laws that hold in every state of a match (tiles,
        sizes, scores, end count, legal moves, match over)."""
        if state is self._checked:
            return  # already checked after the move; a refusal that changed it fails on its own
        self._checked = state
        rules = state.rules
        everywhere = [tile for hand in state.hands for tile in hand]
        everywhere += state.boneyard
        everywhere += [placement.tile for placement in state.layout.placements]
        if sorted(tile.index for tile in everywhere) != _EVERY_INDEX:
            missing = [str(tile) for tile in DOUBLE_SIX if tile not in everywhere]
            twice = sorted({str(tile) for tile in everywhere if everywhere.count(tile) > 1})
            self.fail("tiles", f"SETUP-1: each tile once; missing {missing}, more than once {twice}", state)
        held = sum(len(hand) for hand in state.hands)
        if held + len(state.boneyard) + len(state.layout.placements) != TILE_COUNT:
            self.fail(
                "sizes",
                f"SETUP-4: {held} held + {len(state.boneyard)} in the boneyard"
                f" + {len(state.layout.placements)} placed is not 28",
                state,
            )
        if type(state.to_move) is not int or not 0 <= state.to_move < rules.players:
            self.fail("turn-order", f"TURN-1: seats run 0..{rules.players - 1}, not {state.to_move!r}", state)
        if len(state.scores) != rules.sides or any(score % 5 for score in state.scores):
            self.fail("scores", f"SETTLE-4: {rules.sides} scores, each a multiple of 5, not {state.scores}", state)
        if state.layout is not self._recounted:  # a draw or a pass keeps the layout
            recounted = recount_end(state.layout.placements)
            if state.layout.end_count != recounted:
                self.fail(
                    "end-count",
                    f"COUNT-1..4: the end count is {state.layout.end_count}, recounted from the placements {recounted}",
                    state,
                )
            self._recounted = state.layout
        moves = self._legal_moves(state)
        if state.phase is Phase.PLAYING:
            self._check_playing(state, moves)
        else:
            self._check_settled_or_won(state, moves)

    def _check_playing(self, state: State, moves: tuple[Move, ...]) -> None:
        if not moves:
            self.fail("legal-moves", "TURN-1, PASS-1: the round is played, but no move is listed", state)
        if len(set(moves)) != len(moves):
            self.fail("legal-moves", f"a move is listed twice: {moves!r}", state)
        if any(move.seat != state.to_move for move in moves):
            self.fail("legal-moves", f"TURN-2: seat {state.to_move} is to move, but the list is {moves!r}", state)
        if any(score >= state.rules.target for score in state.scores):
            self.fail("scores", f"MATCH-1: {state.scores} reaches the target, but the match goes on", state)
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

    def _check_settled_or_won(self, state: State, moves: tuple[Move, ...]) -> None:
        rule = "MATCH-2" if state.phase is Phase.MATCH_OVER else "END-1"
        if moves:
            self.fail("legal-moves", f"{rule}: the {state.phase.value} state lists moves {moves!r}", state)
        if state.phase is Phase.ROUND_OVER:
            if state.last_round is None or state.last_round.hands != state.hands:
                self.fail("scores", "SETTLE-1: a settled round reveals the hands it settled", state)
            return  # attempt_illegal_move offers moves here; next_round is legal
        winner = state.winner
        target = state.rules.target
        if winner is None or state.scores[winner] < target:
            self.fail("scores", f"MATCH-1: won with scores {state.scores}, winner {winner!r}", state)
        if any(score >= target for side, score in enumerate(state.scores) if side != winner):
            self.fail("scores", f"MATCH-1: another side than {winner} reached {target}: {state.scores}", state)
        # Every move a seat could mean: each draw and pass, each of its tiles
        # led or put on each open point it fits.
        attempts: list[Move] = []
        for seat, hand in enumerate(state.hands):
            attempts += [Draw(seat), Pass(seat)]
            for tile in hand:
                attempts.append(Place(seat, tile))
                attempts += [
                    Place(seat, tile, point)
                    for point in state.layout.open_points
                    if point.value in (tile.low, tile.high)
                ]
        self._expect_refusals(state, attempts, next_round_too=True, check="match-over")

    def _check_step(self, before: State, move: Move, after: State) -> None:
        """What one listed move may change; a failure shows the state before it."""

        def fail(check: str, message: str) -> NoReturn:
            self.fail(check, message, before, label="before the move")

        rules = before.rules
        seat = before.to_move
        if isinstance(move, Place):
            hand_before, hand_after = before.hand(seat), after.hand(seat)
            placed = after.layout.placements
            if (
                move.tile in hand_after
                or len(hand_after) != len(hand_before) - 1
                or len(placed) != len(before.layout.placements) + 1
                or (placed[-1].tile, placed[-1].target) != (move.tile, move.target)
                or after.boneyard != before.boneyard
            ):
                fail("sizes", f"PLACE-1, PLACE-3: {move!r} must move that tile from the hand to the table")
        elif isinstance(move, Draw):
            if (
                not before.boneyard
                or after.boneyard != before.boneyard[1:]
                or set(after.hand(seat)) != {*before.hand(seat), before.boneyard[0]}
                or after.layout.placements != before.layout.placements
            ):
                fail("sizes", f"DRAW-2: {move!r} must move the first boneyard tile to the hand")
        elif after.hands != before.hands or after.boneyard != before.boneyard or after.layout != before.layout:
            fail("sizes", f"PASS-1: {move!r} changes nothing but the turn")
        if after.phase is Phase.PLAYING:
            expected = seat if isinstance(move, Draw) else (seat + 1) % rules.players
            if after.to_move != expected:
                rule = "DRAW-2" if isinstance(move, Draw) else "TURN-1"
                fail("turn-order", f"{rule}: after {move!r} seat {expected} is to move, not seat {after.to_move}")
        scored = list(before.scores)
        if isinstance(move, Place):
            scored[rules.side_of(seat)] += play_points(after.layout.end_count)  # POINTS-1, POINTS-2
        if after.phase is Phase.ROUND_OVER:
            for hand_seat, hand in enumerate(after.hands):
                scored[rules.side_of(hand_seat)] -= _rounded(sum(tile.pips for tile in hand))
        if tuple(scored) != after.scores:
            fail(
                "scores",
                f"POINTS-1, POINTS-2, SETTLE-1..3: after {move!r} the scores are {tuple(scored)}, not {after.scores}",
            )
        if after.phase is Phase.MATCH_OVER and after.winner != rules.side_of(seat):
            fail("scores", f"MATCH-1: {move!r} won the match for side {rules.side_of(seat)}")

    def _check_deal(self, state: State, round_number: int, scores: tuple[int, ...], what: str) -> None:
        rules = state.rules
        if (
            state.phase is not Phase.PLAYING
            or state.round_number != round_number
            or state.scores != scores
            or not state.layout.is_empty
            or any(len(hand) != rules.hand_size for hand in state.hands)
            or len(state.boneyard) != TILE_COUNT - rules.players * rules.hand_size
            or state.to_move != state.opener
            or state.drawn_tile is not None
        ):
            self.fail(
                "deal",
                f"SETUP-4, OPEN-3: {what} deals round {round_number}, {rules.hand_size} tiles a hand,"
                f" an empty table and scores {scores}, the opener to move",
                state,
            )

    # Plumbing.

    def fail(self, check: str, message: str, state: State | None = None, *, label: str = "state") -> NoReturn:
        """Raise :class:`InvariantViolation` for ``check``, with ``state``'s
        repr (which pastes back) and a script replaying the match so far."""
        parts = [message]
        if state is not None:
            parts.append(f"{label}: {state!r}")
        played = Playthrough(self.house_rules, self.seed, tuple(self.steps), self.state)
        parts.append("replay (through sniff_rules; swap in the adapter's functions to replay a frontend):")
        parts.append(played.script())
        raise InvariantViolation(check, "\n".join(parts))

    def _start(self, data: DataObject) -> None:
        house_rules = data.draw(self.rules_strategy, label="rules")
        seed = data.draw(seeds(), label="seed")
        state = self.new_match(house_rules, seed)
        self.house_rules, self.seed, self.state = house_rules, seed, state
        self.steps, self.history, self._replayed = [], [state], 0
        self._check_deal(state, 1, (0,) * house_rules.sides, f"new_match({house_rules!r}, {seed})")
        if state.last_round is not None or state.winner is not None:
            self.fail("deal", "SETUP-4: a new match has no settled round and no winner", state)
        if self.new_match(house_rules, seed) != state:
            self.fail("replay", f"SETUP-5: new_match({house_rules!r}, {seed}) deals two different matches", state)
        if self.compare_with_reference and state != sniff_rules.new_match(house_rules, seed):
            expected = sniff_rules.new_match(house_rules, seed)
            self.fail("reference", f"the deal differs from the library's in {_changed_fields(expected, state)}", state)
        self.check_position(state)

    def _legal_moves(self, state: State) -> tuple[Move, ...]:
        listed_for, moves = self._listed
        if state is listed_for:
            return moves  # the list of a state is asked for by the check and again by the move
        fields = _fields(state)
        moves = self.legal_moves(state)
        if any(a is not b for a, b in zip(fields, _fields(state))):
            self.fail("caller-state", "legal_moves changed the state it was given", state)
        self._listed = (state, moves)
        return moves

    def _play(self, move: Move) -> None:
        before = self.state
        fields = _fields(before)
        after = self.apply(before, move)
        if any(a is not b for a, b in zip(fields, _fields(before))):
            self.fail("caller-state", f"apply(state, {move!r}) changed the state it was given", before)
        self.steps.append(move)
        self.history.append(after)
        self.state = after
        # The position first: a wrong end count is reported as such, not as
        # the wrong points it leads to.
        self.check_position(after)
        self._check_step(before, move, after)
        if self.compare_with_reference:
            expected = sniff_rules.apply(before, move)
            if after != expected:
                self.fail(
                    "reference",
                    f"after {move!r} the state differs from the library's in {_changed_fields(expected, after)}",
                    before,
                )

    def _deal_next_round(self) -> None:
        before = self.state
        after = self.next_round(before)
        self.steps.append(NextRound())
        self.history.append(after)
        self.state = after
        self._check_deal(after, before.round_number + 1, before.scores, "next_round")
        finisher = before.last_round.finisher if before.last_round is not None else None
        if finisher is not None and after.opener != finisher:
            self.fail("deal", f"OPEN-2: seat {finisher} played out and opens, not seat {after.opener}", after)
        if after.last_round != before.last_round:
            self.fail("deal", "SETTLE-1: the next round keeps the result of the one before", after)
        if self.compare_with_reference and after != sniff_rules.next_round(before):
            expected = sniff_rules.next_round(before)
            self.fail("reference", f"the deal differs from the library's in {_changed_fields(expected, after)}", after)
        self.check_position(after)

    def _expect_refusals(
        self, state: State, moves: list[Move], *, next_round_too: bool = False, check: str = "illegal-move"
    ) -> None:
        """``apply`` refuses each move (and ``next_round`` the state) with a
        SniffError, and none of them changes ``state``."""
        snapshot = _deep_copy(state)
        fields = _fields(state)
        calls: list[tuple[Callable[[], object], Move | None]] = [
            (self._apply_call(state, move), move) for move in moves
        ]
        if next_round_too:
            calls.append((lambda: self.next_round(state), None))
        for call, move in calls:
            try:
                result = call()
            except SniffError:
                continue
            except Exception as error:
                self.fail(check, f"{_call_text(move)} raised {error!r}, not a SniffError", state)
            self.fail(check, f"{_call_text(move)} must be refused with a SniffError, but gave {result!r}", state)
        moved = [name for name, a, b in zip(_FIELD_NAMES, fields, _fields(state)) if a is not b]
        changed = _changed_fields(snapshot, state)
        if moved or changed or state != snapshot:
            refused = ", ".join(_call_text(move) for _, move in calls)
            self.fail("caller-state", f"refusing {refused} changed {sorted({*moved, *changed})}", snapshot)

    def _apply_call(self, state: State, move: Move) -> Callable[[], object]:
        return lambda: self.apply(state, move)


def _call_text(move: Move | None) -> str:
    return "next_round(state)" if move is None else f"apply(state, {move!r})"
