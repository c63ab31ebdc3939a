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
from sniff_rules.formats.notation import parse_move
from sniff_rules.formats.state_json import rules_to_data, state_from_data, state_to_data
from sniff_rules.formats.view_json import seat_view_to_data
from sniff_rules.play.bots import greedy_bot, random_bot
from sniff_rules.play.events import Dealt
from sniff_rules.play.view import seat_view
from sniff_rules.protocol.bot import choose
from sniff_rules.protocol.engine import handle
from sniff_rules.protocol.messages import MAX_LINE_BYTES, PROTOCOL, ProtocolError, decode, encode, read_request
from sniff_rules.protocol.process import Peer
from sniff_rules.protocol.serve import serve_engine
from sniff_rules.randomness import SplitMix64
from sniff_rules.tiles import DOUBLE_SIX, Tile

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
    requests: list[dict[str, object]] = [{"id": 0, "type": "hello", "protocol": PROTOCOL}]
    requests.append({"id": 1, "type": "new_match", "rules": rules, "seed": "18446744073709551615"})
    state = handle(requests[1])["state"]  # type: ignore[arg-type]
    whole = [str(tile) for tile in DOUBLE_SIX]
    requests += [
        {"id": 2, "type": "legal_moves", "state": state},
        {"id": 3, "type": "apply", "state": state, "move": "0:draw"},
        {"id": 4, "type": "view", "state": state, "seat": 1},
        {"id": 5, "type": "score", "layout": ["[1|4]"]},
        {"id": 6, "type": "settle", "rules": rules, "hands": [["[1|2]"], [], ["[6|6]"]]},
        {"id": 7, "type": "next_round", "state": state},
        {"id": 8, "type": "next_round", "state": state, "order": whole, "opener": 0},
        {"id": 9, "type": "next_round", "state": state_to_data(between_rounds()), "order": whole, "opener": 0},
        {"id": 10, "type": "quit"},
    ]
    answers: list[Any] = [handle(request) for request in requests]  # type: ignore[arg-type]
    expected = [True] * (2 * len(requests))
    assert expected == [valid(request) for request in requests] + [valid(answer) for answer in answers]
    assert ["END-1", "END-1", None] == [answers[n].get("refused", {}).get("rule") for n in (7, 8, 9)]
    assert (None, PROTOCOL) == (answers[3].get("error"), answers[0]["protocol"])


def between_rounds() -> sniff_rules.State:
    """Two players, a tile each, from seed 0: seat 0 leads its [3|4] and plays out; the source deals on."""
    return sniff_rules.apply(sniff_rules.new_match(sniff_rules.Rules(2, 1, 250), 0), parse_move("0:[3|4]"))


def match_won() -> sniff_rules.State:
    """Two players, a tile each, target 5: seat 0 leads [0|5], scores 5 and wins the match."""
    order = (Tile(0, 5), Tile(1, 1), *(tile for tile in DOUBLE_SIX if tile not in (Tile(0, 5), Tile(1, 1))))
    state = sniff_rules.new_match(sniff_rules.Rules(2, 1, 5), order=order, opener=0)
    return sniff_rules.apply(state, parse_move("0:[0|5]"))


WHOLE: Final = [str(tile) for tile in DOUBLE_SIX]
HOSTILE_NEXT_ROUNDS: Final[list[tuple[str, dict[str, Any], str]]] = [
    ("a tile short", {"order": WHOLE[:-1]}, "SETUP-5"),
    ("29 entries", {"order": [*WHOLE, WHOLE[0]]}, "FORMAT-2"),
    ("a tile twice", {"order": [WHOLE[1], *WHOLE[1:]]}, "SETUP-5"),
    ("an entry that is no tile", {"order": ["[7|7]", *WHOLE[1:]]}, "FORMAT-1"),
    ("an entry that is no string", {"order": [0, *WHOLE[1:]]}, "FORMAT-2"),
    ("an order that is no array", {"order": "[0|0]"}, "FORMAT-2"),
    ("a null order", {"order": None}, "FORMAT-2"),
    ("a seat the table does not have", {"opener": 2}, "SETUP-2"),
    ("a negative seat", {"opener": -1}, "SETUP-2"),
    ("a seat as text", {"opener": "0"}, "FORMAT-2"),
    ("a seat as a boolean", {"opener": True}, "FORMAT-2"),
    ("a seat as a fraction", {"opener": 1.5}, "FORMAT-2"),
    ("an opener other than the finisher", {"opener": 1}, "OPEN-2"),
    ("a bad opener and a bad order: the opener first", {"opener": 2, "order": WHOLE[:-1]}, "SETUP-2"),
    ("a malformed order before a bad opener", {"opener": 1, "order": [*WHOLE, WHOLE[0]]}, "FORMAT-2"),
    ("the order's form before the opener's", {"opener": "0", "order": ["[7|7]", *WHOLE[1:]]}, "FORMAT-1"),
]
"""Next rounds asked for after seat 0 played out, each with an order or opener the rules refuse, and the rule."""


def test_a_next_round_is_dealt_from_a_supplied_order_and_opener() -> None:
    """SETUP-5, OPEN-2: next_round with an order (and the finisher named) deals the library's round from that
    order; after a block the seat named opens, no lot drawn."""
    ended = between_rounds()
    order = tuple(reversed(DOUBLE_SIX))
    request: Any = {"id": 1, "type": "next_round", "state": state_to_data(ended), "order": [str(t) for t in order]}
    dealt: Any = handle({**request, "opener": 0})["state"]
    expected = sniff_rules.next_round(ended, order=order, opener=0)
    assert (state_to_data(expected), [["[6|6]"], ["[5|6]"]]) == (dealt, dealt["hands"])
    blocked = state_from_data(_blocked_state())
    named: Any = handle({"id": 2, "type": "next_round", "state": _blocked_state(), "opener": 1})["state"]
    assert (1, [], 1, True) == (
        named["opener"],
        named["lot"],
        named["to_move"],
        bool(sniff_rules.next_round(blocked).lot),
    )
    assert state_to_data(sniff_rules.next_round(blocked, opener=1)) == named


def _blocked_state() -> Any:
    """The start of randomness.json's next round "2 players, after a round blocked: a lot, then the shuffle"."""
    entries = json.loads((ROOT / "specs" / "vectors" / "randomness.json").read_text())["next_rounds"]
    named = "2 players, after a round blocked: a lot, then the shuffle"
    return next(entry for entry in entries if entry["name"] == named)["start"]["state"]


@pytest.mark.parametrize(("case", "fields", "rule"), HOSTILE_NEXT_ROUNDS, ids=[c for c, _, _ in HOSTILE_NEXT_ROUNDS])
def test_a_malformed_or_refused_next_round_is_refused_citing_its_rule(
    case: str, fields: dict[str, Any], rule: str
) -> None:
    """FORMAT-1, FORMAT-2, SETUP-2, SETUP-5, OPEN-2, CONV-3: each bad order or opener is refused by its rule,
    answered refused (never an error), and the request it came in is left as it was."""
    request: Any = {"id": 3, "type": "next_round", "state": state_to_data(between_rounds()), **fields}
    sent = json.dumps(request)
    answer: Any = handle(request)
    assert (["id", "refused"], rule, sent) == (sorted(answer), answer["refused"]["rule"], json.dumps(request))
    assert valid(answer)


def test_an_order_or_opener_for_a_state_not_between_rounds_is_refused_after_its_form() -> None:
    """END-1, MATCH-2, FORMAT-2, CONV-3: while a round is played or once the match is won, a next round from a
    well-formed order or opener is refused END-1 or MATCH-2; a malformed order is refused by its form first."""
    playing = state_to_data(sniff_rules.new_match(sniff_rules.Rules.standard(2), 3))
    won = state_to_data(match_won())
    asked: list[Any] = [
        {"state": playing, "order": WHOLE, "opener": 0},
        {"state": playing, "opener": 7},
        {"state": won, "order": WHOLE},
        {"state": won, "opener": 0},
        {"state": playing, "order": [*WHOLE, WHOLE[0]]},
        {"state": won, "opener": "0"},
    ]
    answers: list[Any] = [handle({"id": n, "type": "next_round", **fields}) for n, fields in enumerate(asked)]
    expected = ["END-1", "END-1", "MATCH-2", "MATCH-2", "FORMAT-2", "FORMAT-2"]
    assert expected == [answer["refused"]["rule"] for answer in answers]


def test_the_served_engine_refuses_each_hostile_next_round_and_reads_on() -> None:
    """PROTO-2, CONV-3: over stdin and stdout, every hostile next round is answered with its rule, none stops
    the server, and the next request after them all is answered."""
    state = state_to_data(between_rounds())
    lines = [
        encode({"id": n, "type": "next_round", "state": state, **fields})
        for n, (_, fields, _) in enumerate(HOSTILE_NEXT_ROUNDS)
    ]
    write = io.BytesIO()
    serve_engine(io.BytesIO(b"".join([*lines, encode({"id": 99, "type": "quit"})])), write)
    answers: list[Any] = [decode(line) for line in write.getvalue().splitlines()]
    expected = [(n, rule) for n, (_, _, rule) in enumerate(HOSTILE_NEXT_ROUNDS)] + [(99, None)]
    assert expected == [(answer["id"], answer.get("refused", {}).get("rule")) for answer in answers]


def test_hello_is_answered_in_the_version_it_names_if_served() -> None:
    """PROTO-6: the engine and the bots answer a hello of sniff-protocol/2 or /1 in that version; a hello naming
    another version, or none, is an error citing PROTO-6 that names the versions served."""
    from sniff_rules.protocol.bot import handle_bot

    asked: list[Any] = [
        {"protocol": "sniff-protocol/2"},
        {"protocol": "sniff-protocol/1"},
        {"protocol": "sniff-protocol/3"},
        {},
    ]
    engine: list[Any] = [handle({"id": n, "type": "hello", **fields}) for n, fields in enumerate(asked)]
    bot: list[Any] = [
        handle_bot({"id": n, "type": "hello", **fields}, "greedy", SplitMix64(1))[0] for n, fields in enumerate(asked)
    ]
    for answers in (engine, bot):
        said = [answer.get("protocol", answer.get("error", {}).get("rule")) for answer in answers]
        assert ["sniff-protocol/2", "sniff-protocol/1", "PROTO-6", "PROTO-6"] == said
        assert "sniff-protocol/2 and sniff-protocol/1" in answers[2]["error"]["message"]


def test_check_engine_tells_an_engine_of_version_1_it_is_too_old(capsys: pytest.CaptureFixture[str]) -> None:
    """PROTO-6: an engine answering hello as sniff-protocol/1 fails the check at once with status 2, by rule id."""
    status, out = check(["--", *FAULTY, "speaks-version-1"], capsys)
    assert (2, 1) == (status, out.count("FAIL")), out
    assert "FAIL protocol: PROTO-6: hello: the engine speaks sniff-protocol/1, which is too old" in out


def test_a_host_seats_a_bot_of_version_1_and_ends_one_of_another(tmp_path: Path) -> None:
    """PROTO-6: the bot role is the same in both versions: a bot answering sniff-protocol/1 is seated; one
    answering another version is ended, its process reaped, with PROTO-6."""
    from sniff_rules.protocol.bot_process import ProcessBot
    from sniff_rules.protocol.process import PeerFailure

    def bot(version: str) -> list[str]:
        script = tmp_path / f"bot-{version.replace('/', '-')}.py"
        script.write_text(
            "import json, sys\n"
            "for line in sys.stdin:\n"
            "    r = json.loads(line)\n"
            f"    print(json.dumps({{'id': r['id'], 'protocol': {version!r}, 'role': 'bot'}}), flush=True)\n"
        )
        return [sys.executable, str(script)]

    with ProcessBot(bot("sniff-protocol/1"), timeout=120) as old:
        assert old.peer.returncode is None
    with pytest.raises(PeerFailure) as refused:
        ProcessBot(bot("sniff-protocol/7"), timeout=120)
    assert ("PROTO-6", "hello #0") == (refused.value.rule, refused.value.request)


def test_a_host_s_failures_survive_pickling_whole() -> None:
    """PROTO-3, TURN-1: a PeerFailure and a BotAnswerError, pickled and read back, keep their type, rule,
    request and message, as a worker process or a Ray task hands them back."""
    import pickle

    from sniff_rules.protocol.bot_process import BotAnswerError
    from sniff_rules.protocol.process import PeerFailure

    failures = [PeerFailure("PROTO-3", "choose #2", "no answer within 1 s"), BotAnswerError("TURN-1", "choose #4", "x")]
    for failure in failures:
        again = pickle.loads(pickle.dumps(failure))
        assert (type(failure), failure.rule, failure.request, str(failure)) == (
            type(again),
            again.rule,
            again.request,
            str(again),
        )


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
        hello = peer.request({"type": "hello", "protocol": PROTOCOL})
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
    ("counts-covered-doubles", "POINTS-2|SETTLE-2"),
    ("fifth-points", "SETTLE-4"),
    ("lists-a-tile-once", "legal moves lack"),
    ("rounds-three-down", "SETTLE-1"),
    ("rounds-partners-together", "SETTLE-2"),
    ("ignores-the-order", "next_round with"),
    ("ignores-the-opener", "next_round with"),
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
    peer.request({"type": "hello", "protocol": PROTOCOL})
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
        ("ignores-the-order", "vectors/refusals.json: cases: after a block, an order of 29 entries"),
    ],
)
def test_a_fault_no_recorded_match_shows_is_caught_by_the_vector_kinds(fault: str, caught: str) -> None:
    """SETTLE-2, FORMAT-1, SETUP-5: a settlement off by 5, a reader refusing the spaces FORMAT-1 allows and a next
    round that ignores its supplied order each fail the vectors of one file."""
    failed = [name for name, failure, _ in _vector_kinds([*FAULTY, fault]) if failure is not None]
    assert (True, True) == (bool(failed), all(name.startswith(caught.split(":")[0]) for name in failed)), failed
    assert any(name.startswith(caught) for name in failed), failed


def test_protocol_md_names_every_vector_file_out_of_the_protocol_s_scope() -> None:
    """PROTO-2: each vector file with vectors the protocol does not express is named in specs/protocol.md."""
    from sniff_rules.verify.engine_vectors import out_of_scope

    text = (ROOT / "specs" / "protocol.md").read_text(encoding="utf-8")
    counts = out_of_scope()
    assert {"geometry.json", "tally.json", "randomness.json", "limits.json"} == set(counts)
    assert [] == [name for name in counts if f"`{name}`" not in text]
