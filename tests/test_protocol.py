"""The engine and bot protocol (specs/protocol.md): its messages, the served engine and bots, and check-engine."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any, Final

import jsonschema  # type: ignore[import-untyped]
import pytest

import sniff_rules
from sniff_rules.cli.commands import main
from sniff_rules.formats.state_json import rules_to_data, state_to_data
from sniff_rules.formats.view_json import seat_view_to_data
from sniff_rules.play.bots import greedy_bot, random_bot
from sniff_rules.play.events import Dealt
from sniff_rules.play.view import seat_view
from sniff_rules.protocol.bot import choose
from sniff_rules.protocol.engine import handle
from sniff_rules.protocol.messages import MAX_LINE_BYTES, ProtocolError, decode, encode, read_request
from sniff_rules.protocol.process import Peer
from sniff_rules.protocol.serve import serve_engine
from sniff_rules.randomness import SplitMix64

ROOT: Final = Path(__file__).resolve().parent.parent
SCHEMA: Final = json.loads((ROOT / "specs" / "protocol.schema.json").read_text())
FAULTY: Final = [sys.executable, str(ROOT / "tests" / "protocol" / "engine_with.py")]
ENGINE: Final = [sys.executable, "-m", "sniff_rules", "engine"]


def valid(message: object) -> bool:
    """Whether ``message`` is a line the protocol's schema allows."""
    return bool(jsonschema.Draft202012Validator(SCHEMA).is_valid(message))


def test_every_request_and_answer_of_a_match_fits_the_schema() -> None:
    """PROTO-2, PROTO-4: the requests a host sends and the engine's answers are lines the schema describes."""
    rules = {"players": 3, "hand_size": 6, "target": 200}
    requests: list[dict[str, object]] = [{"id": 0, "type": "hello", "protocol": "sniff-protocol/1"}]
    requests.append({"id": 1, "type": "new_match", "rules": rules, "seed": "18446744073709551615"})
    state = handle(requests[1])["state"]  # type: ignore[arg-type]
    requests += [
        {"id": 2, "type": "legal_moves", "state": state},
        {"id": 3, "type": "apply", "state": state, "move": "0:draw"},
        {"id": 4, "type": "view", "state": state, "seat": 1},
        {"id": 5, "type": "score", "layout": ["[1|4]"]},
        {"id": 6, "type": "settle", "rules": rules, "hands": [["[1|2]"], [], ["[6|6]"]]},
        {"id": 7, "type": "next_round", "state": state},
        {"id": 8, "type": "quit"},
    ]
    answers: list[Any] = [handle(request) for request in requests]  # type: ignore[arg-type]
    expected = [True] * (2 * len(requests))
    assert expected == [valid(request) for request in requests] + [valid(answer) for answer in answers]
    assert ["END-1", None] == [answers[7].get("refused", {}).get("rule"), answers[3].get("error")]


def test_the_engine_answers_as_the_library_plays() -> None:
    """SETUP-5, TURN-1: new_match, legal_moves and apply through the protocol give the library's states and moves."""
    state = sniff_rules.new_match(sniff_rules.Rules.standard(2), 7)
    dealt = handle({"id": 0, "type": "new_match", "rules": rules_to_data(state.rules), "seed": "7"})
    move = sniff_rules.legal_moves(state)[0]
    after = handle({"id": 1, "type": "apply", "state": state_to_data(state), "move": str(move)})
    assert (state_to_data(state), state_to_data(sniff_rules.apply(state, move))) == (dealt["state"], after["state"])


def test_a_refusal_cites_the_rule_and_a_bad_request_is_an_error() -> None:
    """FORMAT-1, TURN-1, PROTO-2: a malformed or another seat's move is refused by its rule; a bad state is an error."""
    state = state_to_data(sniff_rules.new_match(sniff_rules.Rules.standard(2), 7))
    other = 1 - sniff_rules.new_match(sniff_rules.Rules.standard(2), 7).to_move
    answers: list[Any] = [
        handle({"id": 0, "type": "apply", "state": state, "move": "0:[7|7]"}),
        handle({"id": 1, "type": "apply", "state": state, "move": f"{other}:draw"}),
        handle({"id": 2, "type": "apply", "state": {**state, "to_move": 5}, "move": "0:draw"}),
        handle({"id": 3, "type": "fly"}),
    ]
    rules = [answer.get("refused", answer.get("error"))["rule"] for answer in answers]
    assert ["FORMAT-1", "TURN-2", "TURN-1", "PROTO-2"] == rules
    assert ["refused", "refused", "error", "error"] == [next(k for k in answer if k != "id") for answer in answers]


def test_a_line_past_the_limit_is_refused_and_the_server_reads_on() -> None:
    """PROTO-1: the server drops a line past 1 MiB with an error and answers the next request."""
    read = io.BytesIO(b"x" * (MAX_LINE_BYTES + 10) + b"\n" + encode({"id": 4, "type": "quit"}))
    write = io.BytesIO()
    serve_engine(read, write)
    answers: list[Any] = [decode(line) for line in write.getvalue().splitlines()]
    assert [("PROTO-1", None), (None, 4)] == [(answer.get("error", {}).get("rule"), answer["id"]) for answer in answers]
    with pytest.raises(ProtocolError, match="PROTO-1"):
        read_request(b"[1, 2]")


def test_the_served_bots_choose_as_the_library_bots_do() -> None:
    """SETUP-6: from the seat's view as data, greedy and random answer the moves greedy_bot and random_bot make."""
    state = sniff_rules.new_match(sniff_rules.Rules.standard(4), 11)
    view = seat_view(state, state.to_move, [Dealt.of(state)])
    data = seat_view_to_data(view)
    source = SplitMix64.from_seed(3)
    expected = [str(greedy_bot(view, source)[0]), str(random_bot(view, source)[0])]
    assert expected == [choose(data, "greedy", source)[0], choose(data, "random", source)[0]]


def check(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``sniff-rules check-engine`` run with ``arguments``: its status and output.

    Without a ``--timeout`` of the test's own, each request gets 120 s, not the default 10: a margin a
    busy machine cannot use up, so only a hang fails on time.
    """
    timeout = [] if "--timeout" in arguments else ["--timeout", "120"]
    status = main(["check-engine", *timeout, *arguments])
    return status, capsys.readouterr().out


def test_check_engine_passes_the_library_s_own_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SETUP-5, MATCH-1: every recorded match and the differential agree with sniff-rules engine; JUnit is written."""
    report = tmp_path / "report.xml"
    status, out = check(["--examples", "2", "--junit", str(report), "--", *ENGINE], capsys)
    assert (0, 0) == (status, out.count("FAIL")), out
    assert 'failures="0"' in report.read_text()


BROKEN: Final = [
    ("keeps-turn", "TURN-1"),
    ("takes-any-move", "FAIL stateful differential"),
    ("hides-sniff-arms", "legal moves lack"),
]


@pytest.mark.parametrize(("fault", "found"), BROKEN)
def test_check_engine_catches_and_shrinks_a_broken_engine(
    fault: str, found: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TURN-1, SNIFF-3, OPEN-3: a broken adapter behind the protocol exits 1 with a replay file that fails again."""
    out_file = tmp_path / "failure.jsonl"
    status, out = check(["--no-vectors", "--examples", "100", "--out", str(out_file), "--", *FAULTY, fault], capsys)
    assert (1, True) == (status, found in out), out
    assert f"--replay {out_file}" in out
    replayed, again = check(["--replay", str(out_file), "--", *FAULTY, fault], capsys)
    assert (1, True) == (replayed, "FAIL replay" in again), again
    assert (0, "PASS replay") == (check(["--replay", str(out_file), "--", *ENGINE], capsys)[0], "PASS replay")


HOSTILE: Final = [
    ("hang", "PROTO-3: new_match #1: no answer within"),
    ("crash", "PROTO-5: new_match #1: the process ended without an answer (exit status 3)"),
    ("garbage", "PROTO-1: new_match #1: a line is one JSON object"),
    ("huge-line", "PROTO-1: new_match #1: the answer passes the line limit"),
    ("wrong-id", "PROTO-4: new_match #1: the answer is to request 999, not 1"),
    ("flood-stderr", "PROTO-3: new_match #1: no answer within"),
]


@pytest.mark.parametrize(("fault", "verdict"), HOSTILE)
def test_a_hostile_engine_gets_a_verdict_naming_the_request(
    fault: str, verdict: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """PROTO-1, PROTO-3, PROTO-4, PROTO-5: each hostile engine ends in a FAIL naming new_match, with status 2."""
    # Only the hanging and flooding engines wait out the timeout; the others fail long before it. The
    # timeout also bounds the hello, answered by a process still starting, so even the short one leaves a
    # busy machine a wide margin: only a hang reaches it.
    timeout = "20" if fault in ("hang", "flood-stderr") else "120"
    status, out = check(["--timeout", timeout, "--no-vectors", "--", *FAULTY, fault], capsys)
    assert (2, True) == (status, f"FAIL protocol: {verdict}" in out), out


@pytest.mark.parametrize("fault", [fault for fault, _ in HOSTILE])
def test_a_hostile_engine_is_always_reaped(fault: str) -> None:
    """PROTO-5: after a failure the process has been killed and reaped, and later requests fail the same way."""
    # The hello, answered while the process starts, gets a margin a busy machine cannot use up; the
    # faulty request then gets a short timeout, which only the planted hang reaches.
    peer = Peer([*FAULTY, fault], timeout=120.0)
    peer.request({"type": "hello", "protocol": "sniff-protocol/1"})
    peer.timeout = 5.0 if fault in ("hang", "flood-stderr") else 120.0
    rules: Any = {"players": 2, "hand_size": 7, "target": 150}
    with pytest.raises(ProtocolError) as first:
        peer.request({"type": "new_match", "rules": rules, "seed": "1"})
    with pytest.raises(ProtocolError) as second:
        peer.request({"type": "legal_moves"})
    assert (True, first.value) == (peer.returncode is not None, second.value)
