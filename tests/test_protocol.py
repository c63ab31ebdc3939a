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


def test_the_served_search_bot_chooses_as_the_library_s_search_bot_does() -> None:
    """SETUP-6: from the seat's view as data, search:N answers the move SearchBot(deals=N) makes from the view."""
    from sniff_rules.play.search import SearchBot

    state = sniff_rules.new_match(sniff_rules.Rules.standard(3), 5)
    view = seat_view(state, state.to_move, [Dealt.of(state)])
    source = SplitMix64.from_seed(9)
    move, after = SearchBot(deals=4)(view, source)
    assert (str(move), after) == choose(seat_view_to_data(view), "search:4", source)


def test_the_served_search_bot_refuses_a_view_no_round_gives() -> None:
    """FORMAT-3: a search bot sent a view whose scores its history does not give answers an error, not a move."""
    from sniff_rules.protocol.bot import handle_bot

    state = sniff_rules.new_match(sniff_rules.Rules.standard(2), 5)
    data = seat_view_to_data(seat_view(state, state.to_move, [Dealt.of(state)]))
    request: Any = {"id": 3, "type": "choose", "view": {**data, "scores": [5, 0]}}
    answer: Any = handle_bot(request, "search", SplitMix64(1))[0]
    assert (3, "FORMAT-3", False) == (answer["id"], answer["error"]["rule"], "move" in answer)


def test_sniff_rules_bot_serves_every_bot_of_the_registry_and_refuses_others(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """FORMAT-1: sniff-rules bot names any registry bot (search:N included); another name exits 2 naming the rule."""
    assert 2 == main(["bot", "search:0"])
    assert "FORMAT-1: 'search:0' is no bot" in capsys.readouterr().err
    command = [sys.executable, "-m", "sniff_rules", "bot", "search:2", "--seed", "4"]
    state = sniff_rules.new_match(sniff_rules.Rules.standard(2), 8)
    view = seat_view(state, state.to_move, [Dealt.of(state)])
    with Peer(command) as peer:
        hello = peer.request({"type": "hello", "protocol": "sniff-protocol/1"})
        answer = peer.request({"type": "choose", "view": seat_view_to_data(view)})
    assert ("search:2", True) == (hello["bot"], answer["move"] in [str(move) for move in view.legal_moves])


def test_a_search_bot_process_plays_a_whole_match_through_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    """SETUP-6, MATCH-1: simulate seats sniff-rules bot search:2 by cmd: and the match is played to its end."""
    bot = f"cmd:{sys.executable} -m sniff_rules bot search:2"
    arguments = ["--matches", "1", "--target", "60", "--bots", f"{bot},greedy", "--json", "--no-progress"]
    status = main(["simulate", *arguments])
    summary = json.loads(capsys.readouterr().out)
    assert (0, 1) == (status, summary["matches"]), summary


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
    ("doubles-end-count", "POINTS-2"),
    ("plays-on-after-the-win", "must be refused"),
    ("deals-by-the-clock", "SETUP-5"),
    ("cites-end-1-after-the-win", "citing 'END-1', where the library cites MATCH-2"),
    ("counts-covered-doubles", "POINTS-2"),
    ("fifth-points", "SETTLE-4"),
    ("lists-a-tile-once", "legal moves lack"),
    ("rounds-three-down", "SETTLE-1"),
    ("rounds-partners-together", "SETTLE-2"),
]
"""Each broken adapter of tests/test_stateful.py and each broken copy of tests/crosshair_broken that the
protocol can carry, by its fault in tests/protocol/engine_with.py, and what its verdict names (one of the
texts between ``|``)."""


@pytest.mark.parametrize(("fault", "found"), BROKEN)
def test_check_engine_catches_and_shrinks_a_broken_engine(
    fault: str, found: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TURN-1, SNIFF-3, OPEN-3, COUNT-3, POINTS-1, POINTS-2, MATCH-2, SETUP-5, PLACE-1, SETTLE-1, SETTLE-2: each broken
    adapter behind the protocol exits 1 with a shrunk replay file that fails again and that the library passes."""
    out_file = tmp_path / "failure.jsonl"
    status, out = check(["--no-vectors", "--examples", "100", "--out", str(out_file), "--", *FAULTY, fault], capsys)
    assert (1, True) == (status, any(text in out for text in found.split("|"))), out
    assert f"--replay {out_file}" in out
    replayed, again = check(["--replay", str(out_file), "--", *FAULTY, fault], capsys)
    assert (1, True) == (replayed, "FAIL replay" in again), again
    assert (0, "PASS replay") == (check(["--replay", str(out_file), "--", *ENGINE], capsys)[0], "PASS replay")


def test_one_seed_gives_the_differential_the_same_examples_whatever_the_hash_seed(tmp_path: Path) -> None:
    """SETUP-5, POINTS-2: check-engine from one --seed, run twice under two PYTHONHASHSEEDs, writes the same
    shrunk replay file byte for byte; another --seed meets other examples."""
    import os
    import subprocess

    def replay_file(hash_seed: str, seed: str) -> bytes:
        out = tmp_path / f"failure-{hash_seed}-{seed}.jsonl"
        env = {key: value for key, value in os.environ.items() if key != "CI"}
        command = [sys.executable, "-m", "sniff_rules", "check-engine", "--no-vectors", "--examples", "100"]
        command += ["--timeout", "120", "--seed", seed, "--out", str(out), "--", *FAULTY, "counts-covered-doubles"]
        done = subprocess.run(
            command, env={**env, "PYTHONHASHSEED": hash_seed}, capture_output=True, text=True, timeout=900, check=False
        )
        assert 1 == done.returncode, done.stdout + done.stderr
        return out.read_bytes()

    first = replay_file("0", "0")
    assert (first, True) == (replay_file("1", "0"), first != replay_file("2", "1"))


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


def test_offered_bot_processes_play_a_match_and_are_all_reaped() -> None:
    """SETUP-6, MATCH-1: a server's BotProcesses seats an offered bot by name, one process per key, plays a
    whole match with it and a fair bot, and ends every process it started; a page's command is refused."""
    from sniff_rules.errors import NotationError
    from sniff_rules.play.driver import play_match
    from sniff_rules.play.registry import BotOffer
    from sniff_rules.play.view import present_seat_view
    from sniff_rules.protocol.bot_process import BotProcesses, ProcessBot

    command = f"{sys.executable} {ROOT / 'tests' / 'protocol' / 'bot_with.py'} none"
    offer = BotOffer.of([f"first-option={command}"])
    rules = sniff_rules.Rules(3, 6, 60)
    with BotProcesses(offer, timeout=60) as processes:
        seated = [processes.policy(("table-1", seat), "first-option" if seat else "greedy") for seat in range(3)]
        again = processes.policy(("table-1", 1), "first-option")
        steps = list(
            play_match(sniff_rules.new_match(rules, 4), seated, SplitMix64.from_seed(4), present=present_seat_view)
        )
        started = [policy for policy in seated if isinstance(policy, ProcessBot)]
        with pytest.raises(NotationError):
            processes.policy(("table-1", 0), f"cmd:{command}")
        assert (2, True, 2) == (processes.running, again is seated[1], len(started))
    assert (True, 0) == (steps[-1].state.winner is not None, processes.running)
    assert all(bot.peer.returncode is not None for bot in started)


def _vector_kinds(command: list[str]) -> list[tuple[str, str | None, float]]:
    from sniff_rules.protocol.remote import RemoteEngine
    from sniff_rules.verify.engine_vectors import check_vector_kinds

    with Peer(command, timeout=60) as peer:
        engine = RemoteEngine(peer)
        engine.hello()
        return check_vector_kinds(engine)


def test_every_vector_kind_the_protocol_expresses_agrees_through_sniff_rules_engine() -> None:
    """CONV-2, CONV-3, SETUP-5, SETTLE-1, COUNT-1: perft, refusals, settlements, the seed's layouts, seeded deals
    and the limits run through the protocol, and the library's engine agrees with every one."""
    results = _vector_kinds(ENGINE)
    files = {name.split(":")[0] for name, _, _ in results}
    expected = {f"vectors/{name}.json" for name in ("perft", "refusals", "settlement", "seed_examples", "limits")}
    assert (expected | {"vectors/randomness.json"}, []) == (files, [(n, f) for n, f, _ in results if f is not None])


@pytest.mark.parametrize(
    ("fault", "caught"),
    [
        ("settles-five-more", "vectors/settlement.json: hands:"),
        ("refuses-spaced-moves", "vectors/limits.json: cases: spaces around every part"),
    ],
)
def test_a_fault_no_recorded_match_shows_is_caught_by_the_vector_kinds(fault: str, caught: str) -> None:
    """SETTLE-2, FORMAT-1: a settlement off by 5 and a reader refusing the spaces FORMAT-1 allows fail vectors."""
    failed = [name for name, failure, _ in _vector_kinds([*FAULTY, fault]) if failure is not None]
    assert (True, True) == (bool(failed), all(name.startswith(caught.split(":")[0]) for name in failed)), failed
    assert any(name.startswith(caught) for name in failed), failed


def test_protocol_md_names_every_vector_file_out_of_the_protocol_s_scope() -> None:
    """PROTO-2: each vector file with vectors the protocol does not express is named in specs/protocol.md."""
    from sniff_rules.verify.engine_vectors import out_of_scope

    text = (ROOT / "specs" / "protocol.md").read_text(encoding="utf-8")
    counts = out_of_scope()
    assert {"geometry.json", "tally.json", "randomness.json", "limits.json", "refusals.json"} == set(counts)
    assert [] == [name for name in counts if f"`{name}`" not in text]
