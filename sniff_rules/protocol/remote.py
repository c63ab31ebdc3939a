"""An engine behind the protocol, as the library's functions: states and moves in, states and refusals out.

:class:`RemoteEngine` sends each call to a :class:`~sniff_rules.protocol.process.Peer`
and reads the answer back into the library's values, so anything that
drives this library's functions (the conformance vectors, the stateful
machine) can drive another engine. A ``refused`` answer is raised as an
:class:`~sniff_rules.errors.IllegalMoveError` citing the engine's rule; an
``error`` answer, or an answer of the wrong shape, as a
:class:`~sniff_rules.protocol.process.PeerFailure` (PROTO-4). Every
request and answer is kept in ``transcript`` for a replay file.
"""

from __future__ import annotations

from typing import Protocol

from sniff_rules.errors import IllegalMoveError, SniffError
from sniff_rules.formats.notation import parse_move
from sniff_rules.formats.state_json import rules_to_data, state_from_data, state_to_data, tiles_to_data
from sniff_rules.formats.strict_json import JsonObject, JsonValue, json_array, json_object, json_str
from sniff_rules.moves import Move
from sniff_rules.protocol.messages import ANSWER, FIRST_PROTOCOL, PROTOCOL, VERSION
from sniff_rules.protocol.process import PeerFailure
from sniff_rules.rules import Rules, Seat
from sniff_rules.state import State
from sniff_rules.tiles import Tile


class Requester(Protocol):
    """What sends one request and returns its answer (a :class:`~sniff_rules.protocol.process.Peer`)."""

    def request(self, message: JsonObject) -> JsonObject:
        """The answer to ``message``."""
        ...


class RemoteEngine:
    """The library's engine functions, each answered by the engine behind ``peer``."""

    def __init__(self, peer: Requester) -> None:
        self.peer = peer
        self.transcript: list[JsonObject] = []

    def _ask(self, message: JsonObject) -> JsonObject:
        self.transcript.append(message)
        answer = self.peer.request(message)
        if "error" in answer:
            error = json_object(answer["error"], "error")
            raise PeerFailure(
                ANSWER,
                f"{message['type']}",
                f"the engine answered an error: {error.get('rule')}: {error.get('message')!s:.300}",
            )
        return answer

    def _result(self, message: JsonObject, key: str) -> JsonValue:
        answer = self._ask(message)
        if "refused" in answer:
            refused = json_object(answer["refused"], "refused")
            raise IllegalMoveError(json_str(refused.get("rule"), "refused.rule"), str(refused.get("message"))[:300])
        if key not in answer:
            raise PeerFailure(ANSWER, f"{message['type']}", f"the answer has no {key!r}: {str(answer)[:200]}")
        return answer[key]

    def _state(self, message: JsonObject) -> State:
        try:
            return state_from_data(self._result(message, "state"))
        except PeerFailure:
            raise
        except IllegalMoveError:
            raise
        except SniffError as err:
            raise PeerFailure(ANSWER, f"{message['type']}", f"the state answered is refused: {err}") from None

    def hello(self) -> JsonObject:
        """The engine's ``hello``: its protocol must be :data:`~sniff_rules.protocol.messages.PROTOCOL` (PROTO-6).

        An engine of version 1 cannot deal a next round from a supplied order
        or opener, which the vectors and the differential ask for: it is told
        so by PROTO-6, not half checked.
        """
        answer = self._ask({"type": "hello", "protocol": PROTOCOL})
        spoken = answer.get("protocol")
        if spoken == FIRST_PROTOCOL:
            raise PeerFailure(
                VERSION,
                "hello",
                f"the engine speaks {FIRST_PROTOCOL}, which is too old: this host checks {PROTOCOL}, whose"
                " next_round may carry an order and an opener (specs/protocol.md)",
            )
        if spoken != PROTOCOL:
            raise PeerFailure(VERSION, "hello", f"the engine speaks {spoken!r:.40}; this host checks {PROTOCOL}")
        return answer

    def new_match(
        self,
        rules: Rules,
        seed: int | None = None,
        *,
        order: tuple[Tile, ...] | None = None,
        opener: Seat | None = None,
    ) -> State:
        """A match dealt from ``seed``, or from ``order`` and ``opener``."""
        message: JsonObject = {"type": "new_match", "rules": rules_to_data(rules)}
        if order is not None:
            message |= {"order": tiles_to_data(order), "opener": opener}
        else:
            message["seed"] = str(seed)
        return self._state(message)

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        """The engine's legal moves, read as moves."""
        listed = json_array(self._result({"type": "legal_moves", "state": state_to_data(state)}, "moves"), "moves")
        try:
            return tuple(parse_move(json_str(text, "move")) for text in listed)
        except SniffError as err:
            raise PeerFailure(ANSWER, "legal_moves", f"a move listed is no move: {err}") from None

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, or the engine's refusal as an ``IllegalMoveError`` with its rule."""
        return self._state({"type": "apply", "state": state_to_data(state), "move": str(move)})

    def apply_text(self, state: State, text: str) -> State:
        """The state after the move written ``text`` (which may be malformed), or the refusal."""
        return self._state({"type": "apply", "state": state_to_data(state), "move": text})

    def next_round(self, state: State, *, order: tuple[Tile, ...] | None = None, opener: Seat | None = None) -> State:
        """The next deal after a settled round, from ``order`` and ``opener`` when given; or the refusal."""
        fields: JsonObject = {}
        if order is not None:
            fields["order"] = tiles_to_data(order)
        if opener is not None:
            fields["opener"] = opener
        return self.next_round_with(state, fields)

    def next_round_with(self, state: State, fields: JsonObject) -> State:
        """The next deal after ``state`` with ``fields`` (``order``, ``opener``) as written, which may be
        malformed; or the refusal, with its rule."""
        return self._state({"type": "next_round", "state": state_to_data(state), **fields})
