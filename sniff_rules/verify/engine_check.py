"""Checking an engine behind the protocol against this library: the vectors, then a stateful differential.

:func:`check_vectors` replays every recorded match of the conformance
vectors (``recorded/*.jsonl``) through the engine — each deal by
``new_match`` from the recorded seed and ``next_round``, each move by
``apply``, each list of moves by ``legal_moves`` — and compares every
answer with the recorded line and with this library. :func:`check_machine`
then runs :class:`EngineMachine`, the :class:`~sniff_rules.verify.machine.SniffMachine`
whose adapter is the engine, with the library as the oracle: random
matches at 2, 3 and 4 players and house rules, illegal and malformed
moves (a refusal must cite the library's rule), deals from seeds and from
supplied orders, and next rounds from supplied orders and openers
(:func:`next_round_fields`), well formed or not, in every phase.
Hypothesis shrinks a disagreement; the requests of the shrunk example are
written as a replay file (:func:`replay`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar, Final

import attrs
from hypothesis import (
    HealthCheck,
    Phase as HypothesisPhase,
    seed as hypothesis_seed,
    settings,
    stateful,
    strategies as st,
)
from hypothesis.stateful import precondition, rule
from hypothesis.strategies import DataObject

import sniff_rules
from sniff_rules.errors import SniffError
from sniff_rules.formats.notation import parse_move
from sniff_rules.formats.state_json import rules_from_data, state_from_data, state_to_data, tiles_to_data
from sniff_rules.formats.strict_json import JsonObject, JsonValue, json_field, json_int, json_object, json_str
from sniff_rules.moves import Move
from sniff_rules.protocol.engine import handle
from sniff_rules.protocol.messages import decode, encode
from sniff_rules.protocol.process import Peer, PeerFailure
from sniff_rules.protocol.remote import RemoteEngine
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT
from sniff_rules.verify.adapter_checks import changed_fields
from sniff_rules.verify.machine import InvariantViolation, SniffMachine
from sniff_rules.verify.vectors.conformance import shipped_vectors
from sniff_rules.verify.vectors.files import read_vector_file, vector_paths
from sniff_rules.verify.vectors.recorded_play import move_line, move_texts


def seeded_machine_test(machine: type[SniffMachine], chosen: settings, seed: int) -> Callable[[], None]:
    """The test that runs ``machine`` under ``chosen`` from ``seed``: the same examples in every environment.

    ``run_state_machine_as_test`` builds its ``@given`` test inside itself,
    where no ``@seed`` reaches it: each run then drew a fresh seed from the
    operating system, so one ``--seed`` met other examples on every run and
    every machine. The seed is put on that test itself.
    """
    # Hypothesis leaves this function unannotated; typed here so the module stays strict.
    build: Callable[..., Callable[[], None]] = stateful.get_state_machine_test
    test = build(machine, settings=chosen)
    seeded: Callable[[], None] = hypothesis_seed(seed)(test)
    return seeded


REPLAY_FORMAT: Final = "sniff-rules/engine-replay@1"
"""The first line of a replay file; each later line is one request, sent in order."""

MALFORMED_MOVES: Final = ("", "0:", "9:draw", "0:[7|7]", "0:[1|2]@nowhere", "draw", "0:pass!", "0:[2|1]")
"""Move texts no engine may accept: each must be refused citing the rule the library cites."""

NO_TILE_TEXTS: Final = ("[7|7]", "", "[1|2", "draw", "[0|0]>[0|1].low")
"""Entries of a supplied order that are no tile (FORMAT-1)."""

NEITHER_ORDER_NOR_SEAT: Final[tuple[JsonValue, ...]] = (None, True, "0", 1.5, [], {}, 2**53 - 1)
"""JSON values that are no order and, but the last (a seat no table has, SETUP-2), no seat (FORMAT-2)."""


def _spoiled_orders(order: list[JsonValue]) -> st.SearchStrategy[list[JsonValue]]:
    """``order`` (the 28 tiles as text) spoiled one way: each refused by its rule, as CONV-3 orders them."""
    entry = st.integers(0, TILE_COUNT - 1)
    return st.one_of(
        st.just(order[:-1]),  # a tile short: SETUP-5
        st.just([*order, order[0]]),  # 29 entries: FORMAT-2
        entry.map(lambda i: [*order[:i], order[(i + 1) % TILE_COUNT], *order[i + 1 :]]),  # a tile twice: SETUP-5
        st.tuples(entry, st.sampled_from(NO_TILE_TEXTS)).map(
            lambda spot: [*order[: spot[0]], spot[1], *order[spot[0] + 1 :]]  # an entry no tile: FORMAT-1
        ),
        entry.map(lambda i: [*order[:i], i, *order[i + 1 :]]),  # an entry no string: FORMAT-2
    )


def next_round_fields(players: int) -> st.SearchStrategy[JsonObject]:
    """The ``order`` and ``opener`` a host may send with ``next_round``, each present or not, well formed or not.

    An order is the 28 tiles in any order, or one spoiled (a tile short or
    twice, 29 entries, an entry that is no tile or no string), or a value
    that is no order; an opener a seat of the table, a seat it does not
    have, or a value that is no seat.
    """
    whole = st.permutations(DOUBLE_SIX).map(lambda tiles: tiles_to_data(tiles))
    orders = st.one_of(whole, whole.flatmap(_spoiled_orders), st.sampled_from(NEITHER_ORDER_NOR_SEAT))
    openers = st.one_of(st.integers(0, players - 1), st.integers(-2, 5), st.sampled_from(NEITHER_ORDER_NOR_SEAT))
    return st.fixed_dictionaries({}, optional={"order": orders, "opener": openers})


@attrs.frozen
class Verdict:
    """One check's outcome: ``name``, passed or not, and the message (with the replay command on a failure)."""

    name: str
    passed: bool
    message: str = ""
    seconds: float = 0.0


class EngineMachine(SniffMachine):
    """:class:`SniffMachine` through an engine process; ``engine`` is set by :func:`check_machine`."""

    engine: ClassVar[RemoteEngine | None] = None

    def __init__(self) -> None:
        assert self.engine is not None
        self.engine.transcript.clear()
        super().__init__()

    def _remote(self) -> RemoteEngine:
        assert self.engine is not None
        return self.engine

    def new_match(self, rules: Rules, seed: int) -> State:
        """The engine's deal from ``seed``."""
        return self._remote().new_match(rules, seed)

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        """The engine's legal moves."""
        return self._remote().legal_moves(state)

    def apply(self, state: State, move: Move) -> State:
        """The engine's next state, or its refusal."""
        return self._remote().apply(state, move)

    def next_round(self, state: State) -> State:
        """The engine's next deal."""
        return self._remote().next_round(state)

    @rule(text=st.sampled_from(MALFORMED_MOVES))
    def attempt_malformed_move(self, text: str) -> None:
        """Send a move text that is no move, or no move of this match: refused, citing the library's rule."""
        expected = _refusal_rule(lambda: sniff_rules.apply(self.state, parse_move(text)))
        actual = _refusal_rule(lambda: self._remote().apply_text(self.state, text))
        if expected != actual:
            self.fail(
                "refusal-rule", f"the move text {text!r} is refused citing {actual!r}, the library cites {expected}"
            )

    @rule(data=st.data())
    def deal_from_order(self, data: DataObject) -> None:
        """Deal a match from a supplied order and opener: the engine's deal is the library's."""
        rules = data.draw(self.rules_strategy, label="rules")
        order = tuple(data.draw(st.permutations(DOUBLE_SIX), label="order"))
        opener = data.draw(st.integers(0, rules.players - 1), label="opener")
        expected = sniff_rules.new_match(rules, order=order, opener=opener)
        if self._remote().new_match(rules, order=order, opener=opener) != expected:
            self.fail("reference", f"the deal from order {order!r} and opener {opener} differs from the library's")

    @precondition(lambda self: self.state.phase is Phase.ROUND_OVER)
    @rule(data=st.data())
    def deal_next_round_from_order(self, data: DataObject) -> None:
        """Deal the next round from a supplied order, opener or both (SETUP-5, OPEN-2): the engine's deal is the
        library's, or both refuse it citing one rule."""
        self._next_round_with(data.draw(next_round_fields(self.state.rules.players), label="next round"))

    @rule(data=st.data())
    def attempt_next_round_with_fields(self, data: DataObject) -> None:
        """Ask for a next round with an order or opener, well formed or not, whatever the phase (CONV-3): the
        engine refuses it citing the library's rule, or deals the library's deal."""
        self._next_round_with(data.draw(next_round_fields(self.state.rules.players), label="next round"))

    def _next_round_with(self, fields: JsonObject) -> None:
        state = self.state
        expected = handle({"id": 0, "type": "next_round", "state": state_to_data(state), **fields})
        shown = json.dumps(fields)[:200]
        refused = expected.get("refused")
        wanted = json_str(json_object(refused, "refused").get("rule"), "rule") if refused is not None else None
        try:
            dealt = self._remote().next_round_with(state, fields)
        except PeerFailure:
            raise
        except SniffError as refusal:
            if refusal.rule != wanted:
                said = f"refuses it citing {wanted}" if wanted else "deals it"
                self.fail(
                    "refusal-rule", f"next_round with {shown} is refused citing {refusal.rule!r}; the library {said}"
                )
            return
        if wanted is not None:
            self.fail("refusal-rule", f"next_round with {shown} is dealt; the library refuses it citing {wanted}")
        library = state_from_data(expected["state"])
        if dealt != library:
            self.fail("reference", f"next_round with {shown} deals other {', '.join(changed_fields(library, dealt))}")


def _refusal_rule(action: object) -> str | None:
    try:
        action()  # type: ignore[operator]
    except PeerFailure:
        raise
    except SniffError as refusal:
        return refusal.rule
    return None


def _check_recorded(engine: RemoteEngine, lines: Sequence[JsonValue]) -> None:
    head = lines[0]
    assert isinstance(head, dict)
    rules = rules_from_data(json_field(head, "rules", "match line"))
    seed = json_int(json_field(head, "seed", "match line"), "seed")
    state: State | None = None
    for number, line in enumerate(lines[1:], 1):
        assert isinstance(line, dict)
        if line.get("type") == "deal":
            state = engine.new_match(rules, seed) if state is None else engine.next_round(state)
            expected = sniff_rules.new_match(rules, seed) if number == 1 else None
            if expected is not None and state != expected:
                raise AssertionError(f"line {number}: the deal differs from the library's")
            if move_texts(engine.legal_moves(state)) != line.get("legal"):
                raise AssertionError(f"line {number}: the legal moves differ from the recorded {line.get('legal')}")
        else:
            assert state is not None
            move = parse_move(json_str(json_field(line, "move", "move line"), "move"))
            after = engine.apply(state, move)
            if after != sniff_rules.apply(state, move):
                raise AssertionError(f"line {number} ({move}): the state differs from the library's")
            recorded = move_line(state, move, after)
            if recorded.get("legal") != move_texts(engine.legal_moves(after)) or any(
                line.get(k) != v for k, v in recorded.items()
            ):
                raise AssertionError(f"line {number} ({move}): the answers differ from the recorded line")
            state = after


def _matches(lines: Sequence[JsonValue]) -> list[list[JsonValue]]:
    groups: list[list[JsonValue]] = []
    for line in lines:
        kind = line.get("type") if isinstance(line, dict) else None
        if kind == "match":
            groups.append([line])
        elif kind in ("deal", "move") and groups:
            groups[-1].append(line)
    return groups


def check_vectors(engine: RemoteEngine) -> list[Verdict]:
    """A verdict for each recorded match of the shipped vectors, replayed through ``engine``."""
    verdicts = []
    for path in vector_paths([shipped_vectors()]):
        if not path.name.endswith(".jsonl"):
            continue
        data = read_vector_file(path)
        assert isinstance(data, list)
        for group in _matches(data):
            head = group[0]
            name = f"vectors/{path.name}: match {head.get('match') if isinstance(head, dict) else '?'}"
            try:
                _check_recorded(engine, group)
            except PeerFailure:
                raise
            except (AssertionError, SniffError) as failure:
                verdicts.append(Verdict(name, False, str(failure)))
            else:
                verdicts.append(Verdict(name, True))
    return verdicts


@attrs.frozen
class MachineOutcome:
    """The differential's verdict, and on a failure the requests of the shrunk example."""

    verdict: Verdict
    requests: tuple[JsonObject, ...] = ()


def check_machine(engine: RemoteEngine, examples: int, seed: int, steps: int = 30) -> MachineOutcome:
    """Run :class:`EngineMachine` against ``engine`` for ``examples`` examples from ``seed``."""
    machine = type("CheckedEngine", (EngineMachine,), {"engine": engine})
    chosen = settings(
        max_examples=examples,
        stateful_step_count=steps,
        database=None,
        deadline=None,
        derandomize=False,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
        phases=[HypothesisPhase.generate, HypothesisPhase.shrink],
    )

    try:
        seeded_machine_test(machine, chosen, seed)()
    except Exception as failure:
        # A peer that broke the protocol fails every later request, which Hypothesis may report as flaky:
        # the protocol failure is the verdict, whatever was raised.
        if isinstance(engine.peer, Peer) and engine.peer.failure is not None:
            raise engine.peer.failure from None
        if not isinstance(failure, InvariantViolation | AssertionError | SniffError):
            raise
        first = str(failure).split("\n")[0]
        return MachineOutcome(Verdict("stateful differential", False, first), tuple(engine.transcript))
    return MachineOutcome(Verdict("stateful differential", True, f"{examples} examples agree"))


def write_replay(path: Path, requests: Sequence[JsonObject]) -> None:
    """Write ``requests`` as a replay file: the format line, then one request a line."""
    lines = [encode({"format": REPLAY_FORMAT, "requests": len(requests)})]
    lines += [encode({k: v for k, v in request.items() if k != "id"}) for request in requests]
    path.write_bytes(b"".join(lines))


def replay(path: Path, peer: Peer) -> Verdict:
    """Send each request of the replay file at ``path`` to ``peer``; the first answer unlike the library's fails."""
    lines = path.read_bytes().splitlines()
    head = decode(lines[0]) if lines else {}
    if head.get("format") != REPLAY_FORMAT:
        return Verdict("replay", False, f"{path} is no replay file: its first line names {REPLAY_FORMAT!r}")
    for number, line in enumerate(lines[1:], 1):
        request = decode(line)
        answer = {k: v for k, v in peer.request(request).items() if k != "id"}
        expected = {k: v for k, v in handle({**request, "id": 0}).items() if k != "id"}
        if _comparable(answer) != _comparable(expected):
            shown, library = json.dumps(answer)[:300], json.dumps(expected)[:300]
            return Verdict(
                "replay",
                False,
                f"request {number} ({request.get('type')}): the engine answers {shown}, the library {library}",
            )
    return Verdict("replay", True, f"{len(lines) - 1} requests agree")


def _comparable(answer: JsonObject) -> JsonObject:
    # A refusal agrees when it cites the same rule; its wording is the engine's own.
    refused = answer.get("refused")
    if isinstance(refused, dict):
        return {"refused": refused.get("rule")}
    moves = answer.get("moves")
    if isinstance(moves, list):
        # The machine takes a list in any order; so does the replay.
        listed: list[JsonValue] = [str(move) for move in sorted(map(str, moves))]
        return {**answer, "moves": listed}
    return answer
