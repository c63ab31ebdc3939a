"""Tables of several people over HTTP and WebSocket (Starlette's TestClient): invites, seats kept apart,
bounds and expiry, and every byte sent to every person seat checked for leaks (HOST-1..5, SETUP-6, TURN-2)."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (the test extra)")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sniff_rules.web.app import create_app
from sniff_rules.web.store import MemoryStore
from test_web import SEEDS, _schema_validator, seed_maker
from web_support import SnapshotRecorder, assert_seat_safe

ORIGIN = {"origin": "http://testserver"}
Seat = dict[str, str]


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> SnapshotRecorder:
    """Every snapshot's table remembered for the leak checks."""
    made = SnapshotRecorder()
    made.install(monkeypatch)
    return made


def client_of(**options: Any) -> TestClient:
    """A test client of a fresh app with a memory store, serving the TestClient's host name."""
    settings: dict[str, Any] = {"allowed_hosts": ["testserver"], "bot_delay": 0.0, "seeds": seed_maker()}
    return TestClient(create_app(**{**settings, **options}))


def seat_of_link(link: str) -> Seat:
    """The headers of the seat an invite link names (from its fragment)."""
    parts = urllib.parse.urlsplit(link)
    found = dict(urllib.parse.parse_qsl(parts.fragment))
    return {"x-sniff-table": found["table"], "x-sniff-token": found["token"]}


def create(client: TestClient, kinds: list[str]) -> tuple[dict[str, Any], list[Seat]]:
    """A new table: the creation answer and every person seat's headers, in seat order (the creator's first)."""
    answer = client.post("/api/tables", json={"seats": kinds})
    assert 201 == answer.status_code, answer.text
    data = answer.json()
    _schema_validator("webCreated").validate(data)
    return data, [seat_of_link(invite["link"]) for invite in data["invites"]]


def hello(seat: Seat) -> dict[str, str]:
    """A socket's first message for the seat."""
    return {"table": seat["x-sniff-table"], "token": seat["x-sniff-token"]}


def snap(client: TestClient, seat: Seat) -> dict[str, Any]:
    """The seat's snapshot now."""
    answer = client.get("/api/table", headers=seat)
    assert 200 == answer.status_code, answer.text
    return dict(answer.json()["snapshot"])


# ---------------------------------------------------------------- invites and joining


def test_a_table_answers_with_one_invite_link_per_person_seat_its_token_in_the_fragment() -> None:
    """HOST-1: one link per person seat, the creator's first; the id and token in the fragment, not path or query."""
    with client_of() as client:
        data, people = create(client, ["greedy", "person", "random", "person"])
        assert [1, 3] == [invite["seat"] for invite in data["invites"]]
        assert [True, False] == [invite["you"] for invite in data["invites"]]
        for invite, seat in zip(data["invites"], people, strict=True):
            parts = urllib.parse.urlsplit(invite["link"])
            assert ("/", "") == (parts.path, parts.query)
            assert seat["x-sniff-token"] in parts.fragment
        assert data["token"] == people[0]["x-sniff-token"]
        assert 2 == len({seat["x-sniff-token"] for seat in people})


def test_joining_by_the_invite_link_takes_the_seat_and_everyone_sees_who_joined() -> None:
    """HOST-1: the creator has joined; a visitor with the link joins that seat; both see who has joined."""
    with client_of(bot_delay=30.0) as client:
        _, (mine, theirs) = create(client, ["person", "greedy", "person"])
        assert [True, True, False] == [player["joined"] for player in snap(client, mine)["players"]]
        joined = client.post("/api/join", headers=theirs)
        assert 200 == joined.status_code
        assert 2 == joined.json()["snapshot"]["seat"]
        assert [True, True, True] == [player["joined"] for player in snap(client, mine)["players"]]
        version = snap(client, mine)["version"]
        assert version == client.post("/api/join", headers=theirs).json()["snapshot"]["version"]


def test_a_socket_pushes_another_seats_join_and_resumes_after_a_reconnect() -> None:
    """HOST-1: a seat's socket hears the other seat join; a new socket for the seat (a reload) resumes it."""
    with client_of(bot_delay=30.0) as client:
        _, (mine, theirs) = create(client, ["person", "person"])
        with client.websocket_connect("/api/updates", headers=ORIGIN) as socket:
            socket.send_json(hello(mine))
            first = socket.receive_json()
            client.post("/api/join", headers=theirs)
            pushed = socket.receive_json()
        assert first["version"] + 1 == pushed["version"]
        assert [True, True] == [player["joined"] for player in pushed["players"]]
        with client.websocket_connect("/api/updates", headers=ORIGIN) as again:
            again.send_json(hello(mine))
            assert pushed == again.receive_json()


# ---------------------------------------------------------------- seats kept apart


def _seat_to_move(client: TestClient, people: list[Seat]) -> tuple[Seat, Seat, dict[str, Any]]:
    """A person seat whose turn it is, another person seat, and the mover's snapshot."""
    for seat in people:
        seen = snap(client, seat)
        if "your-turn" == seen["status"]:
            return seat, next(other for other in people if other is not seat), seen
    raise AssertionError("no person is to move")


def test_a_token_for_one_seat_cannot_move_another_read_its_hand_or_its_events() -> None:
    """HOST-1, SETUP-6, TURN-2: seat 1's token moves only seat 1; its snapshot and socket hold seat 0's hand nowhere."""
    with client_of(bot_delay=30.0) as client:
        _, people = create(client, ["person", "person"])
        mover, other, seen = _seat_to_move(client, people)
        before = snap(client, mover)
        move = seen["view"]["options"][0]["move"]
        for text in (move, move.split(":", 1)[1]):
            answer = client.post("/api/move", headers=other, json={"move": text, "version": seen["version"]})
            assert 409 == answer.status_code or 403 == answer.status_code
            assert "TURN-2" == answer.json()["rule"]
        assert before == snap(client, mover)
        hand = before["view"]["hand"]
        others_view = json.dumps(snap(client, other))
        with client.websocket_connect("/api/updates", headers=ORIGIN) as socket:
            socket.send_json(hello(other))
            pushed = socket.receive_text()
        for text in (others_view, pushed):
            assert [] == [tile for tile in hand if tile in text]
            assert before["seat"] != json.loads(text)["seat"]


def test_a_socket_naming_a_table_with_another_tables_token_is_closed() -> None:
    """HOST-1: a token is good for its own table only, over WebSocket as over HTTP."""
    with client_of(bot_delay=30.0) as client:
        _, (first,) = create(client, ["person", "greedy"])
        _, (second,) = create(client, ["person", "greedy"])
        crossed = {"table": first["x-sniff-table"], "token": second["x-sniff-token"]}
        with client.websocket_connect("/api/updates", headers=ORIGIN) as socket:
            socket.send_json(crossed)
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_text()
        assert 4404 == closed.value.code
        assert 403 == client.get("/api/table", headers={**first, "x-sniff-token": second["x-sniff-token"]}).status_code


def test_two_people_asking_for_the_next_round_on_one_version_get_one_success_and_one_stale_refusal() -> None:
    """HOST-5, TURN-2: both ask on the same version; the second is refused as stale and the state is the first's."""
    with client_of(bot_delay=0.0, deal_on_seconds=3600.0) as client:
        _, people = create(client, ["person", "person"])
        for _ in range(500):
            seen = snap(client, people[0])
            if "round-over" == seen["status"]:
                break
            mover, _, mine = _seat_to_move(client, people)
            options = mine["view"]["options"]
            answer = client.post(
                "/api/move", headers=mover, json={"move": options[0]["move"], "version": mine["version"]}
            )
            assert 200 == answer.status_code, answer.text
        else:
            raise AssertionError("the round did not end")
        version = seen["version"]
        answers = [client.post("/api/next-round", headers=seat, json={"version": version}) for seat in people]
        assert [200, 409] == [answer.status_code for answer in answers]
        assert ("stale", "TURN-2") == (answers[1].json()["error"], answers[1].json()["rule"])
        after = [snap(client, seat) for seat in people]
        assert [version + 1] * 2 == [seen["version"] for seen in after]
        assert [seen["view"]["round"] + 1] * 2 == [one["view"]["round"] for one in after]


def test_the_server_deals_on_after_its_timeout_when_no_seat_asks() -> None:
    """HOST-5: at a round's end with nobody asking, the server deals the next round after DEAL_ON_SECONDS."""
    with client_of(bot_delay=0.0, deal_on_seconds=0.05) as client:
        _, (only,) = create(client, ["person", "greedy"])
        rounds = set()
        for _ in range(3000):
            seen = snap(client, only)
            rounds.add(seen["view"]["round"])
            if len(rounds) > 1:
                break
            if "your-turn" == seen["status"]:
                move = seen["view"]["options"][0]["move"]
                client.post("/api/move", headers=only, json={"move": move, "version": seen["version"]})
        assert len(rounds) > 1


# ---------------------------------------------------------------- no visitor breaks another's match


def test_a_burst_of_creations_ends_no_live_table_and_is_refused_clearly() -> None:
    """HOST-2, HOST-3: 100 creations from one client after a live table: past the bound a 429 naming HOST-2;
    the live table plays on."""
    with client_of(bot_delay=30.0, max_tables_per_client=5) as client:
        _, (live,) = create(client, ["person", "greedy"])
        before = snap(client, live)
        statuses = [client.post("/api/tables", json={"seats": ["person", "greedy"]}) for _ in range(100)]
        assert [201] * 4 + [429] * 96 == [answer.status_code for answer in statuses]
        refusal = statuses[-1].json()
        _schema_validator("webRefusal").validate(refusal)
        assert ("too-many-tables", "HOST-2") == (refusal["error"], refusal["rule"])
        assert before == snap(client, live)


def test_the_total_bound_refuses_with_503_and_drops_no_table() -> None:
    """HOST-2: past the server's total, a creation is a 503 naming HOST-2; every table made is still there."""
    store = MemoryStore()
    with client_of(store=store, max_tables=3, bot_delay=30.0) as client:
        made = [create(client, ["person", "greedy"])[1][0] for _ in range(3)]
        refused = client.post("/api/tables", json={"seats": ["person", "greedy"]})
        assert (503, "server-full", "HOST-2") == (
            refused.status_code,
            refused.json()["error"],
            refused.json()["rule"],
        )
        assert [200] * 3 == [client.get("/api/table", headers=seat).status_code for seat in made]


def test_a_table_ends_after_its_idle_time_and_not_before() -> None:
    """HOST-3: a table unchanged for IDLE_SECONDS is forgotten at the next sweep; a changed one is kept."""
    now = [1000.0]
    with client_of(clock=lambda: now[0], idle_seconds=100.0, bot_delay=30.0) as client:
        _, (idle,) = create(client, ["person", "greedy"])
        now[0] = 1050.0
        _, (busy, _) = create(client, ["person", "person"])
        host = client.app.state.host  # type: ignore[attr-defined]
        portal = client.portal
        assert portal is not None
        now[0] = 1099.0
        assert 0 == portal.call(host.sweep)
        now[0] = 1120.0
        assert 1 == portal.call(host.sweep)
        assert 404 == client.get("/api/table", headers=idle).status_code
        assert 200 == client.get("/api/table", headers=busy).status_code


def test_a_table_ends_when_its_last_person_leaves_and_its_sockets_close() -> None:
    """HOST-3: one person leaving keeps the table; the last to leave ends it, and its sockets close with 4410."""
    with client_of(bot_delay=30.0) as client:
        _, (mine, theirs) = create(client, ["person", "person"])
        client.post("/api/join", headers=theirs)
        with client.websocket_connect("/api/updates", headers=ORIGIN) as socket:
            socket.send_json(hello(theirs))
            socket.receive_json()
            assert {"left": True, "ended": False} == client.post("/api/leave", headers=mine).json()
            socket.receive_json()
            assert {"left": True, "ended": True} == client.post("/api/leave", headers=theirs).json()
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_text()
        assert 4410 == closed.value.code


def test_a_silent_websocket_is_closed_after_the_hello_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """HOST-4: a socket that names no seat within HELLO_SECONDS is closed with 4400."""
    import sniff_rules.web.app as app_module

    monkeypatch.setattr(app_module, "HELLO_SECONDS", 0.2)
    with (
        client_of() as client,
        client.websocket_connect("/api/updates", headers=ORIGIN) as socket,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        socket.receive_text()
    assert 4400 == closed.value.code


# ---------------------------------------------------------------- every byte to every person seat


class _Sockets:
    """One socket per person seat; each message checked for leaks and against the schema as it arrives."""

    def __init__(self, client: TestClient, people: list[Seat], recorder: SnapshotRecorder) -> None:
        self.recorder = recorder
        self.opened = [client.websocket_connect("/api/updates", headers=ORIGIN) for _ in people]
        self.sockets = [opened.__enter__() for opened in self.opened]
        self.seen = [0] * len(people)
        self.checked = 0
        for socket, seat in zip(self.sockets, people, strict=True):
            socket.send_json(hello(seat))

    def catch_up(self, version: int) -> None:
        """Read every socket until it has shown ``version`` or later."""
        for index, socket in enumerate(self.sockets):
            while self.seen[index] < version:
                text = socket.receive_text()
                assert 1 == assert_seat_safe(text, self.recorder, SEEDS)
                data = json.loads(text)
                _schema_validator("webSnapshot").validate(data)
                self.seen[index] = data["version"]
                self.checked += 1

    def close(self) -> None:
        """Close every socket."""
        for opened in self.opened:
            opened.__exit__(None, None, None)


def _play_everyone(client: TestClient, people: list[Seat], recorder: SnapshotRecorder) -> Iterator[dict[str, Any]]:
    """A whole match, every person seat acting over HTTP and hearing over its socket; every byte checked."""
    sockets = _Sockets(client, people, recorder)
    try:
        for seat in people[1:]:
            joined = client.post("/api/join", headers=seat)
            assert 1 == assert_seat_safe(joined.text, recorder, SEEDS)
        for _ in range(5000):
            views = []
            for seat in people:
                answer = client.get("/api/table", headers=seat)
                assert 1 == assert_seat_safe(answer.text, recorder, SEEDS)
                views.append(answer.json()["snapshot"])
            version = max(view["version"] for view in views)
            sockets.catch_up(version)
            yield views[0]
            status = views[0]["status"]
            if "match-over" == status:
                return
            acted = None
            if "round-over" == status:
                acted = client.post("/api/next-round", headers=people[0], json={"version": views[0]["version"]})
            for seat, view in zip(people, views, strict=True):
                if "your-turn" == view["status"]:
                    options = view["view"]["options"]
                    move = options[view["version"] % len(options)]["move"]
                    acted = client.post("/api/move", headers=seat, json={"move": move, "version": view["version"]})
            if acted is not None:
                assert 200 == acted.status_code, acted.text
                assert 1 == assert_seat_safe(acted.text, recorder, SEEDS)
        raise AssertionError("the match did not end")
    finally:
        assert sockets.checked > 0
        sockets.close()


def test_every_byte_sent_to_every_person_seat_of_a_four_seat_table_is_leak_free(recorder: SnapshotRecorder) -> None:
    """SETUP-6, HOST-1: three people and a bot play a whole match; every HTTP answer and socket message sent to each
    person seat is the same when the hidden tiles are re-dealt, and valid against the schema."""
    with client_of(deal_on_seconds=3600.0) as client:
        _, people = create(client, ["person", "person", "greedy", "person"])
        shown = list(_play_everyone(client, people, recorder))
    assert "match-over" == shown[-1]["status"]
    assert any(view["view"]["round"] > 1 for view in shown)
    assert any("person-turn" == view["status"] for view in shown)
