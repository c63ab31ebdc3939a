"""sniff_rules.web.app over HTTP (Starlette's TestClient): whole matches at 2, 3 and 4 players, every answer
checked for the seat's secrets (SETUP-6), and every refusal a JSON error that changes nothing (TURN-2)."""

from __future__ import annotations

import itertools
import json
import time
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

pytest.importorskip("starlette", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (the test extra)")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sniff_rules.formats.strict_json import JsonObject
from sniff_rules.play.table import Table
from sniff_rules.web import seats as web_seats
from sniff_rules.web.app import MAX_BODY_BYTES, create_app
from web_support import SnapshotRecorder, assert_seat_safe

SEEDS = (8_611_686_018_427_017, 8_611_686_018_427_123, 8_611_686_018_429_001, 8_611_686_018_428_777)
ORIGIN = {"origin": "http://testserver"}
SCHEMA = Path(__file__).resolve().parent.parent / "specs" / "vectors" / "schema.json"


def seed_maker(first: int = 0) -> Any:
    """A seeds= for create_app giving large known seeds, so a test can look for them in every answer."""
    counter = itertools.count(first)
    return lambda: SEEDS[next(counter) % len(SEEDS)] + next(counter)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> SnapshotRecorder:
    """Every snapshot's table remembered for the leak checks."""
    made = SnapshotRecorder()
    made.install(monkeypatch)
    return made


def client_of(**options: Any) -> TestClient:
    """A test client of a fresh app serving the TestClient's host name."""
    settings: dict[str, Any] = {"allowed_hosts": ["testserver"], "bot_delay": 0.0, "seeds": seed_maker()}
    return TestClient(create_app(**{**settings, **options}))


Seat = dict[str, str]
"""A seat as its requests name it: the table and token headers."""


def start(client: TestClient, seats: list[str]) -> tuple[Seat, dict[str, Any]]:
    """A new table: the creator's seat and first snapshot."""
    answer = client.post("/api/tables", json={"seats": seats})
    assert 201 == answer.status_code, answer.text
    data = answer.json()
    return {"x-sniff-table": data["table"], "x-sniff-token": data["token"]}, data["snapshot"]


def header(seat: Seat) -> dict[str, str]:
    """The headers naming the seat."""
    return seat


def hello(seat: Seat) -> dict[str, str]:
    """A socket's first message for the seat."""
    return {"table": seat["x-sniff-table"], "token": seat["x-sniff-token"]}


def tables_held(client: TestClient) -> int:
    """How many tables the app's store holds."""
    return int(client.app.state.host.store.count())  # type: ignore[attr-defined]


def updates(client: TestClient) -> Any:
    """A WebSocket to the updates, from the page's own origin."""
    return client.websocket_connect("/api/updates", headers=dict(ORIGIN))


def _play_by_socket(
    client: TestClient, seats: list[str], recorder: SnapshotRecorder, typed: bool, sessions: list[Seat] | None = None
) -> Iterator[dict[str, Any]]:
    session, _ = start(client, seats)
    if sessions is not None:
        sessions.append(session)
    with updates(client) as socket:
        socket.send_json(hello(session))
        acted = 0
        while True:
            text = socket.receive_text()
            assert 1 == assert_seat_safe(text, recorder, SEEDS)
            snapshot = json.loads(text)
            yield snapshot
            if snapshot["version"] <= acted:
                continue
            status = snapshot["status"]
            if status == "match-over":
                return
            if status == "bot-turn":
                continue
            acted = snapshot["version"]
            if status == "round-over":
                answer = client.post("/api/next-round", headers=header(session), json={"version": acted})
            else:
                options = snapshot["view"]["options"]
                move = options[acted % len(options)]["move"]
                # Typed as a person types it (the tile alone, or with its target), or as listed.
                text_sent = move.split(":", 1)[1] if typed else move
                answer = client.post("/api/move", headers=header(session), json={"move": text_sent, "version": acted})
            assert 200 == answer.status_code, answer.text
            assert 1 == assert_seat_safe(answer.text, recorder, SEEDS)


@pytest.mark.parametrize(
    ("seats", "typed"),
    [
        (["person", "greedy"], False),
        (["random", "person", "greedy"], True),
        (["greedy", "search", "person", "random"], False),
    ],
)
def test_a_whole_match_over_http_never_shows_the_seat_a_hidden_tile(
    recorder: SnapshotRecorder, seats: list[str], typed: bool
) -> None:
    """SETUP-6: a whole match played through the API; no answer holds another hand, the boneyard or a source."""
    with client_of() as client:
        snapshots = list(_play_by_socket(client, seats, recorder, typed))
    last = snapshots[-1]
    assert "match-over" == last["status"]
    assert last["view"]["winner"] is not None
    assert any(snapshot["view"]["round"] > 1 for snapshot in snapshots)
    # Bot moves are pushed one by one: some snapshots show a bot to move.
    assert any("bot-turn" == snapshot["status"] for snapshot in snapshots)


def test_the_match_record_is_served_once_the_match_is_over_and_replays_to_its_end(recorder: SnapshotRecorder) -> None:
    """MATCH-1, SETUP-6: the record is refused while the match is played (it holds every hand), then served whole."""
    from sniff_rules.formats.record_json import record_from_data

    with client_of() as client:
        early, _ = start(client, ["person", "greedy"])
        refused = client.get("/api/record", headers=header(early))
        assert (409, "match-not-over") == (refused.status_code, refused.json()["error"])
        sessions: list[Seat] = []
        last = list(_play_by_socket(client, ["greedy", "person"], recorder, False, sessions))[-1]
        answer = client.get("/api/record", headers=header(sessions[0]))
    assert 200 == answer.status_code
    assert "attachment" in answer.headers["content-disposition"]
    end = record_from_data(answer.json()).final_state()
    assert (last["view"]["winner"], last["view"]["scores"]) == (end.winner, list(end.scores))


@pytest.mark.parametrize("planted", ["other hand", "boneyard", "pips of the other hand", "source"])
def test_the_leak_check_fails_on_a_server_sending_a_secret(monkeypatch: pytest.MonkeyPatch, planted: str) -> None:
    """SETUP-6: a server whose snapshot carries seat 1's hand, the boneyard, a number derived from
    a hidden hand or the deal's source state is caught by the check."""
    real = web_seats.snapshot

    def leaky(table: Table, token: str, layouter: web_seats.Layouter = web_seats.plain_layout) -> JsonObject:
        data = real(table, token, layouter)
        state = table.state
        secret: dict[str, Any] = {
            "other hand": [str(tile) for tile in state.hand(1)],
            "boneyard": [str(state.boneyard[-1])],
            "pips of the other hand": sum(tile.pips for tile in state.hand(1)),
            "source": getattr(state.source, "state", None),
        }
        view = data["view"]
        assert isinstance(view, dict)
        view["debug"] = secret[planted]
        return data

    monkeypatch.setattr(web_seats, "snapshot", leaky)
    recorder = SnapshotRecorder()
    recorder.install(monkeypatch)
    with client_of() as client:
        seat, _ = start(client, ["person", "greedy"])
        answer = client.get("/api/table", headers=seat)
    with pytest.raises(AssertionError, match=r"hidden tiles|random source"):
        assert_seat_safe(answer.text, recorder, SEEDS)


# ---------------------------------------------------------------- refusals


def _waiting_table(client: TestClient, seats: list[str]) -> tuple[Seat, dict[str, Any]]:
    """A session whose person is to move (the bots play at once)."""
    session, snapshot = start(client, seats)
    # The bots move in a task of their own: polled until a deadline only a hang reaches, not a count of
    # polls that a busy machine could run through before the bots' task is scheduled.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        snapshot = client.get("/api/table", headers=header(session)).json()["snapshot"]
        if "your-turn" == snapshot["status"]:
            return session, snapshot
        time.sleep(0.01)
    raise AssertionError("the bots never handed the turn over")


def _unchanged(client: TestClient, session: Seat, before: dict[str, Any]) -> None:
    after = client.get("/api/table", headers=header(session)).json()["snapshot"]
    assert before == after


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"move": "draw", "version": 0}, 409, "stale"),
        ({"move": "1:draw"}, 400, "bad-request"),
        ({"move": 14, "version": 1}, 400, "bad-request"),
        ({"move": "14", "version": True}, 400, "bad-request"),
        ({"move": "14", "version": 1, "extra": 1}, 400, "bad-request"),
        ({"move": "x" * 300, "version": 1}, 400, "bad-request"),
    ],
)
def test_a_malformed_or_stale_move_is_a_json_error_and_changes_nothing(
    recorder: SnapshotRecorder, body: dict[str, Any], status: int, code: str
) -> None:
    """TURN-2: a move body of the wrong shape, or on a version the table has left, is refused; nothing moves."""
    with client_of() as client:
        session, snapshot = _waiting_table(client, ["person", "greedy"])
        answer = client.post("/api/move", headers=header(session), json=body)
        assert (status, code) == (answer.status_code, answer.json()["error"])
        _unchanged(client, session, snapshot)


@pytest.mark.parametrize(
    ("text", "status", "code", "rule"),
    [
        ("9:draw", 403, "not-your-seat", "TURN-2"),
        ("1:pass", 403, "not-your-seat", "TURN-2"),
        ("[6|6] on 99", 422, "illegal-move", "FORMAT-1"),
    ],
)
def test_a_move_for_another_seat_or_not_legal_is_refused(text: str, status: int, code: str, rule: str | None) -> None:
    """TURN-2: a move naming a seat other than the token's, or no legal move, is refused with nothing changed."""
    with client_of() as client:
        session, snapshot = _waiting_table(client, ["person", "greedy"])
        answer = client.post("/api/move", headers=header(session), json={"move": text, "version": snapshot["version"]})
        assert (status, code, rule) == (answer.status_code, answer.json()["error"], answer.json()["rule"])
        _unchanged(client, session, snapshot)


def test_a_seat_field_in_the_body_is_refused() -> None:
    """TURN-2: the token names the seat; a body naming one too is refused as malformed, nothing changed."""
    with client_of() as client:
        session, snapshot = _waiting_table(client, ["person", "greedy"])
        body = {"move": snapshot["view"]["options"][0]["move"], "version": snapshot["version"], "seat": 1}
        answer = client.post("/api/move", headers=header(session), json=body)
        assert (400, "bad-request") == (answer.status_code, answer.json()["error"])
        _unchanged(client, session, snapshot)


def test_an_illegal_move_names_its_rule() -> None:
    """PLACE-1, DRAW-1: text naming no legal move is a 422 with the rule the move breaks."""
    with client_of() as client:
        session, snapshot = _waiting_table(client, ["person", "greedy"])
        hand = set(snapshot["view"]["hand"])
        absent = next(f"[{a}|{b}]" for a in range(7) for b in range(a, 7) if f"[{a}|{b}]" not in hand)
        for text in (absent, "pass"):
            answer = client.post(
                "/api/move", headers=header(session), json={"move": text, "version": snapshot["version"]}
            )
            assert 422 == answer.status_code
            assert answer.json()["rule"] in ("PLACE-1", "PASS-1", "DRAW-1", "DRAW-2")
        _unchanged(client, session, snapshot)


def test_a_move_out_of_turn_is_refused_while_a_bot_thinks() -> None:
    """TURN-2: while a bot is to move, the person's move is a 409 and the table does not change."""
    with client_of(bot_delay=30.0, seeds=lambda: 20) as client:
        session, snapshot = start(client, ["person", "greedy"])
        assert "bot-turn" == snapshot["status"]
        answer = client.post("/api/move", headers=header(session), json={"move": "05", "version": snapshot["version"]})
        assert (409, "not-your-turn", "TURN-2") == (
            answer.status_code,
            answer.json()["error"],
            answer.json()["rule"],
        )
        deal = client.post("/api/next-round", headers=header(session), json={"version": snapshot["version"]})
        assert (409, "not-your-turn", "END-1") == (deal.status_code, deal.json()["error"], deal.json()["rule"])
        _unchanged(client, session, snapshot)


def test_a_move_after_the_round_or_the_match_cites_the_end_not_the_turn() -> None:
    """END-1 MATCH-2 CONV-3: a move posted once the round is settled, or the match won, is refused by the
    rule of the end, as apply refuses it, not by TURN-2, in a sentence a player can read."""
    refusals: dict[str, tuple[int, str, str]] = {}
    with client_of() as client:
        session, _ = start(client, ["person", "greedy"])
        with updates(client) as socket:
            socket.send_json(hello(session))
            acted = 0
            while "match-over" not in refusals:
                snapshot = json.loads(socket.receive_text())
                status = snapshot["status"]
                if snapshot["version"] <= acted or status == "bot-turn":
                    continue
                acted = snapshot["version"]
                if status in ("round-over", "match-over"):
                    late = client.post("/api/move", headers=header(session), json={"move": "draw", "version": acted})
                    refusals.setdefault(status, (late.status_code, late.json()["rule"], late.json()["message"]))
                    if status == "match-over":
                        break
                    answer = client.post("/api/next-round", headers=header(session), json={"version": acted})
                else:
                    move = snapshot["view"]["options"][0]["move"]
                    answer = client.post("/api/move", headers=header(session), json={"move": move, "version": acted})
                assert 200 == answer.status_code, answer.text
    assert {
        "round-over": (409, "END-1", "END-1: no move now, the round is over: the next one is dealt first"),
        "match-over": (409, "MATCH-2", "MATCH-2: no move now, the match is over"),
    } == refusals


@pytest.mark.parametrize(
    ("content", "kind", "status"),
    [
        (b"{not json", "application/json", 400),
        (b"[1, 2]", "application/json", 400),
        (b'{"move": "14", "move": "15", "version": 1}', "application/json", 400),
        (b"\xff\xfe", "application/json", 400),
        (b'{"move": "draw", "version": 1}', "text/plain", 415),
        (b'{"move": "' + b"x" * MAX_BODY_BYTES + b'", "version": 1}', "application/json", 413),
    ],
)
def test_a_body_malformed_or_too_large_is_refused(content: bytes, kind: str, status: int) -> None:
    """FORMAT-2: the body must be a small UTF-8 JSON object without duplicate keys, sent as JSON."""
    with client_of() as client:
        session, snapshot = _waiting_table(client, ["person", "greedy"])
        answer = client.post("/api/move", headers={**header(session), "content-type": kind}, content=content)
        assert status == answer.status_code
        assert {"error", "message", "rule"} == set(answer.json())
        _unchanged(client, session, snapshot)


def test_a_body_too_large_without_a_length_is_refused_as_it_streams() -> None:
    """A chunked body is read only up to the limit: 413, whatever length it would have."""
    with client_of() as client:
        session, snapshot = _waiting_table(client, ["person", "greedy"])

        def chunks() -> Iterator[bytes]:
            yield b'{"move": "'
            for _ in range(100):
                yield b"x" * 1024

        answer = client.post(
            "/api/move", headers={**header(session), "content-type": "application/json"}, content=chunks()
        )
        assert 413 == answer.status_code
        _unchanged(client, session, snapshot)


@pytest.mark.parametrize(
    "seats",
    [["greedy", "greedy"], ["person"], ["person", "wizard"], ["person", "search:5000"], ["person", "greedy"] * 3],
)
def test_a_table_without_a_person_or_with_unknown_bots_is_refused(seats: list[str]) -> None:
    """SETUP-2: 2..4 seats, one at least a person's, every other a bot this server offers."""
    with client_of() as client:
        answer = client.post("/api/tables", json={"seats": seats})
        assert (400, "bad-request") == (answer.status_code, answer.json()["error"])
        assert 0 == tables_held(client)


def test_another_tables_id_or_token_or_none_is_refused() -> None:
    """An unknown table is a 404, a token of none of its seats a 403 (SETUP-6); neither reaches the table."""
    with client_of() as client:
        session, snapshot = _waiting_table(client, ["person", "greedy"])
        table_id, token = session["x-sniff-table"], session["x-sniff-token"]
        cases = [
            ({}, 404, "no-table"),
            ({"x-sniff-table": "x" * 43, "x-sniff-token": token}, 404, "no-table"),
            ({"x-sniff-table": table_id[:-1], "x-sniff-token": token}, 404, "no-table"),
            ({"x-sniff-table": table_id}, 403, "not-your-seat"),
            # Another token of the same shape: the last character changed, whatever it was.
            (
                {"x-sniff-table": table_id, "x-sniff-token": token[:-1] + ("B" if token.endswith("A") else "A")},
                403,
                "not-your-seat",
            ),
        ]
        for headers, status, code in cases:
            answer = client.get("/api/table", headers=headers)
            assert (status, code) == (answer.status_code, answer.json()["error"])
            move = client.post("/api/move", headers=headers, json={"move": "draw", "version": snapshot["version"]})
            assert status == move.status_code
        _unchanged(client, session, snapshot)
        other, _ = start(client, ["person", "greedy"])
        assert other != session
        _unchanged(client, session, snapshot)


def test_leaving_ends_a_table_of_one_person() -> None:
    """POST /api/leave: the last person to leave ends the table; its seat reaches nothing afterwards."""
    with client_of() as client:
        session, _ = start(client, ["person", "greedy"])
        left = client.post("/api/leave", headers=header(session))
        assert (200, {"left": True, "ended": True}) == (left.status_code, left.json())
        assert 404 == client.get("/api/table", headers=header(session)).status_code
        assert 404 == client.post("/api/leave", headers=header(session)).status_code
        assert 0 == tables_held(client)


# ---------------------------------------------------------------- hosts and origins


def test_a_foreign_host_header_is_refused() -> None:
    """DNS rebinding: a request naming another host is refused, page and API alike."""
    with client_of() as client:
        assert 200 == client.get("/").status_code
        for path in ("/", "/app.js", "/api/table"):
            answer = client.get(path, headers={"host": "attacker.example"})
            assert (400, "host") == (answer.status_code, answer.json()["error"])
            assert "Sniff" not in answer.text
        answer = client.post("/api/tables", headers={"host": "attacker.example"}, json={"seats": ["person", "greedy"]})
        assert 400 == answer.status_code
        assert 0 == tables_held(client)


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [("GET", "/no-such-page", 404), ("DELETE", "/api/move", 405), ("PUT", "/api/tables", 405)],
)
def test_every_refusal_of_the_framework_is_json_too(method: str, path: str, status: int) -> None:
    """An unknown path or a method not served is refused with the same JSON error as the API's own refusals."""
    with client_of() as client:
        answer = client.request(method, path)
        assert (status, f"http-{status}") == (answer.status_code, answer.json()["error"])
        assert {"error", "message", "rule"} == set(answer.json())


def test_unknown_keys_are_refused_when_a_table_is_made() -> None:
    """A body with keys the API does not read is refused, and no table is made."""
    with client_of() as client:
        answer = client.post("/api/tables", json={"seats": ["person", "greedy"], "colour": "red"})
        assert (400, "bad-request") == (answer.status_code, answer.json()["error"])
        assert "colour" in answer.json()["message"]
        assert 0 == tables_held(client)


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://attacker.example"},
        {"origin": "https://testserver"},
        {"origin": "null"},
        {},
        {"origin": "http://testserver", "host": "attacker.example"},
    ],
)
def test_a_cross_origin_websocket_is_refused(headers: dict[str, str]) -> None:
    """A WebSocket from another origin (or with none, or to a foreign host) is closed before it is accepted."""
    with client_of() as client:
        with pytest.raises(WebSocketDisconnect) as refused:
            client.websocket_connect("/api/updates", headers=headers).__enter__()
        if "host" in headers:  # refused by the host check first, with an HTTP answer
            assert 400 == getattr(refused.value, "status_code", None)
        else:
            assert 1008 == refused.value.code


@pytest.mark.parametrize("hello", ['{"table": "nope", "token": "nope"}', "not json", '{"other": 1}', '{"table": 1}'])
def test_a_websocket_naming_no_seat_is_closed(hello: str) -> None:
    """A socket's first message must name a table and one of its seats' tokens; otherwise it is closed (4404, 4400)."""
    with client_of() as client, client.websocket_connect("/api/updates", headers=dict(ORIGIN)) as socket:
        socket.send_text(hello)
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_text()
        assert closed.value.code in (4400, 4404)


def test_the_page_and_its_files_are_served_with_a_strict_policy() -> None:
    """The page, its script and its style come from the package, under a content security policy."""
    with client_of() as client:
        for path, kind in (
            ("/", "text/html"),
            ("/app.js", "text/javascript"),
            ("/keyboard.js", "text/javascript"),
            ("/motion.js", "text/javascript"),
            ("/style.css", "text/css"),
        ):
            answer = client.get(path)
            assert (200, kind) == (answer.status_code, answer.headers["content-type"].split(";")[0])
            assert "script-src 'self'" in answer.headers["content-security-policy"]


@cache
def _schema_validator(name: str) -> Any:
    loaded = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$defs": loaded["$defs"], "$ref": f"#/$defs/{name}"})


def _schema_of(path: str, data: Any) -> str:
    """The schema definition an answer of the API at ``path`` is written to."""
    if isinstance(data, dict) and "error" in data:
        return "webRefusal"
    named = {"/api/bots": "webBots", "/api/record": "matchRecord", "/api/tables": "webCreated", "/api/leave": "webLeft"}
    return named.get(path, "webAnswer")


class _ValidatingClient(TestClient):
    """A test client that checks every JSON answer against the schema, and counts them by definition."""

    checked: Counter[str]

    def request(self, method: str, url: Any, *args: Any, **kwargs: Any) -> Any:
        """The answer, once its body is validated against its definition of specs/vectors/schema.json."""
        answer = super().request(method, url, *args, **kwargs)
        if answer.headers.get("content-type", "").startswith("application/json"):
            path = str(url)
            name = _schema_of(path, answer.json())
            _schema_validator(name).validate(answer.json())
            self.checked[name] += 1
        return answer


def test_every_document_the_server_sends_is_valid_against_the_schema(recorder: SnapshotRecorder) -> None:
    """FORMAT-2: every answer of a whole match played over HTTP and WebSocket, its refusals and its record,
    is valid against its definition of specs/vectors/schema.json."""
    settings: dict[str, Any] = {"allowed_hosts": ["testserver"], "bot_delay": 0.0, "seeds": seed_maker()}
    with _ValidatingClient(create_app(**settings)) as client:
        client.checked = Counter()
        client.get("/api/bots")
        client.get("/api/table", headers={"x-sniff-table": "no-such-table-at-all"})
        sessions: list[Seat] = []
        for snapshot in _play_by_socket(client, ["person", "greedy", "random"], recorder, True, sessions):
            _schema_validator("webSnapshot").validate(snapshot)
            client.checked["socket"] += 1
        client.post("/api/move", headers=header(sessions[0]), json={"move": "draw", "version": 1})
        client.get("/api/record", headers=header(sessions[0]))
        client.post("/api/leave", headers=header(sessions[0]))
    assert {"webBots", "webRefusal", "webCreated", "webAnswer", "matchRecord", "webLeft", "socket"} == set(
        client.checked
    )
    assert client.checked["socket"] > 20
