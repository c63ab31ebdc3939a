"""The browser game's web app: a Starlette application over :mod:`sniff_rules.web.sessions` (the ``web`` extra).

:func:`create_app` builds it. The page (``web/static/``, shipped in the
package) talks JSON to a small API and hears of every change over one
WebSocket:

- ``GET /api/bots`` the fair bots a seat may be given
  (:func:`~sniff_rules.web.sessions.bots_offered`: each bot's name and
  label, and the default), so the page holds no list of its own;
- ``POST /api/sessions`` ``{"seats": ["person", "greedy", ...]}`` starts a
  match and a session; the answer holds the session id (kept by the tab,
  sent back in the ``X-Sniff-Session`` header) and the first snapshot;
- ``GET /api/snapshot`` the session's snapshot;
- ``POST /api/move`` ``{"move": "14 high", "version": 7}`` plays the
  person's move as typed, ``POST /api/next-round`` ``{"version": 9}`` deals
  on after a settled round, ``DELETE /api/session`` ends the session;
- ``GET /api/record`` the match record (``$defs/matchRecord``, what
  ``sniff-rules replay`` plays), once the match is over: a record holds
  every hand and the seed of every deal, so before the end it is a 409;
- ``/api/updates``, a WebSocket: the page sends ``{"session": id}`` once
  and receives the snapshot after every change, each bot move as soon as
  it is decided.

The state stays here; a snapshot is built from the person's seat view
alone (:meth:`~sniff_rules.web.sessions.Table.snapshot`). Every refusal is a
JSON ``{"error", "message", "rule"}`` with an HTTP status, and changes
nothing. A ``Host`` header other than the allowed names is refused
(Starlette's ``TrustedHostMiddleware``, against DNS rebinding), as is a
WebSocket whose ``Origin`` is not the page's own; moves need a JSON body
and the session header, which no other site's page can send without the
cross-origin permission this app never grants.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from importlib.resources import files
from typing import Any, Final

try:
    import anyio.to_thread
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.types import ASGIApp, Message, Receive, Scope, Send
    from starlette.websockets import WebSocket, WebSocketDisconnect
except ModuleNotFoundError as missing:  # pragma: no cover - the extra is installed wherever the tests run
    raise ModuleNotFoundError(
        f"the browser game needs the web extra ({missing.name} is missing): pip install 'sniff-rules[web]'"
    ) from missing

from sniff_rules.draw.svg import svg
from sniff_rules.errors import SniffError
from sniff_rules.formats.record_json import record_to_data
from sniff_rules.formats.strict_json import (
    JsonObject,
    JsonValue,
    json_array,
    json_int,
    json_object,
    json_str,
    load_json,
)
from sniff_rules.rules import Rules
from sniff_rules.web.sessions import PERSON, Layouter, SessionStore, Table, WebError, bots_offered, plain_layout

SESSION_HEADER: Final = "x-sniff-session"
"""The request header carrying the session id."""

MAX_BODY_BYTES: Final = 2048
"""The largest request body read; every request of the page is far smaller."""

MAX_SOCKETS_PER_SESSION: Final = 4
"""WebSockets one session may hold open at once."""

HELLO_SECONDS: Final = 10.0
"""How long a new WebSocket may take to name its session."""

_STATIC: Final = {
    "/": ("index.html", "text/html"),
    "/app.js": ("app.js", "text/javascript"),
    "/style.css": ("style.css", "text/css"),
}
_PAGE_HEADERS: Final = {
    # The page runs its own script only; the drawn layout is inline SVG, which may carry style attributes.
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}

SeedSource = Callable[[], int]
"""Gives a fresh seed for a match or its bots."""


def _fresh_seed() -> int:
    # Below 2**53, so the match record's JSON can carry the seed (a JavaScript reader would round a larger one).
    return secrets.randbits(53)


def default_layouter() -> Layouter:
    """The layout drawn by :func:`sniff_rules.draw.svg.svg`, beside its text lines.

    Only the table is drawn: the page shows the hands and scores itself.
    """

    def layouter(view: Any) -> JsonObject:
        return {**plain_layout(view), "svg": svg(view.layout, size=720)}

    return layouter


class _Session:
    """A table with what serves it: the change signal, the bot task, the sockets open."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.changed = asyncio.Event()
        self.bots: asyncio.Task[None] | None = None
        self.sockets = 0
        self.closed = False

    def notify(self) -> None:
        """Wake every socket waiting for a change."""
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()

    def close(self) -> None:
        """Stop the bots and the sockets of a session forgotten."""
        self.closed = True
        if self.bots is not None:
            self.bots.cancel()
        self.notify()


_REFUSAL_BODY_LIMIT: Final = 4096
"""The most of a plain-text refusal's body kept for its JSON message."""


class JsonRefusals:
    """ASGI middleware: a plain-text refusal from the framework (a foreign ``Host``, an unknown
    path, a method not served) is sent as this server's JSON error instead, so that every
    refusal a client gets reads alike: ``{"error", "message", "rule"}``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: dict[str, Any] = {}

        async def send_json_refusals(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers", []))
                kind = headers.get(b"content-type", b"")
                if message["status"] >= 400 and kind.startswith(b"text/plain"):
                    held["start"] = message
                    held["body"] = b""
                    return
            elif "start" in held and message["type"] == "http.response.body":
                held["body"] = (held["body"] + message.get("body", b""))[:_REFUSAL_BODY_LIMIT]
                if message.get("more_body", False):
                    return
                status = held["start"]["status"]
                text = held["body"].decode("utf-8", "replace").strip() or "refused"
                error = WebError(status, "host" if text == "Invalid host header" else f"http-{status}", text)
                await _refusal(error)(scope, receive, send)
                return
            await send(message)

        await self.app(scope, receive, send_json_refusals)


def _refusal(error: WebError) -> JSONResponse:
    return JSONResponse(error.to_data(), status_code=error.status, headers={"cache-control": "no-store"})


def _refuse_unknown_keys(data: Mapping[str, JsonValue], known: set[str]) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise WebError(400, "bad-request", f"unknown keys in the body: {', '.join(unknown)[:100]}")


async def _json_body(request: Request) -> Mapping[str, JsonValue]:
    """The request's body as a JSON object, refused when it is not small, UTF-8, well-formed JSON."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise WebError(415, "bad-request", "send the body as application/json")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
        raise WebError(413, "too-large", f"a body is at most {MAX_BODY_BYTES} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise WebError(413, "too-large", f"a body is at most {MAX_BODY_BYTES} bytes")
    try:
        return json_object(load_json(bytes(body), max_chars=MAX_BODY_BYTES, max_depth=3), "the body")
    except SniffError as err:
        raise WebError(400, "bad-request", str(err), err.rule) from None


def _field(data: Mapping[str, JsonValue], key: str) -> JsonValue:
    if key not in data:
        raise WebError(400, "bad-request", f"the body lacks {key!r}")
    return data[key]


def _read(read: Callable[[], Any]) -> Any:
    """A typed accessor's answer, its refusal a 400."""
    try:
        return read()
    except SniffError as err:
        raise WebError(400, "bad-request", str(err), err.rule) from None


def _same_origin(websocket: WebSocket) -> bool:
    """Whether the socket's ``Origin`` is the page's own scheme and host, as a browser sends it."""
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host")
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    return origin is not None and host is not None and origin.lower() == f"{scheme}://{host}".lower()


def create_app(
    *,
    allowed_hosts: Sequence[str] = ("127.0.0.1", "localhost", "::1"),
    bot_delay: float = 0.6,
    session_limit: int = 64,
    idle_seconds: float = 3600.0,
    clock: Callable[[], float] = time.monotonic,
    seeds: SeedSource = _fresh_seed,
    layouter: Layouter | None = None,
) -> Starlette:
    """The browser game as an ASGI application (see the module's docstring).

    ``allowed_hosts`` are the ``Host`` names served; ``bot_delay`` the
    seconds each bot waits before its move, so a person can follow the
    play; at most ``session_limit`` sessions are kept, each forgotten after
    ``idle_seconds`` unused (by ``clock``); ``seeds`` gives each match's
    and its bots' seeds; ``layouter`` draws the layout (default
    :func:`default_layouter`).
    """
    store: SessionStore[_Session] = SessionStore(session_limit, idle_seconds, clock)
    draw = default_layouter() if layouter is None else layouter
    pages = {
        path: ((files("sniff_rules") / "web/static" / name).read_bytes(), kind)
        for path, (name, kind) in _STATIC.items()
    }

    def forget(gone: list[_Session]) -> None:
        for session in gone:
            session.close()

    def session_of(request: Request) -> _Session:
        key = request.headers.get(SESSION_HEADER, "")
        forget(store.purge())
        session = store.get(key) if key else None
        if session is None:
            raise WebError(404, "no-session", "no such session (it may have expired): start a new match")
        return session

    def start_bots(session: _Session) -> None:
        if session.bots is None and session.table.bot_to_move and not session.closed:
            session.bots = asyncio.create_task(run_bots(session))

    async def run_bots(session: _Session) -> None:
        try:
            while not session.closed and session.table.bot_to_move:
                if bot_delay > 0:
                    await asyncio.sleep(bot_delay)
                # A search bot thinks for a while: in a worker thread, so other requests go on.
                decision = await anyio.to_thread.run_sync(session.table.decide_bot)
                if session.closed:
                    return
                session.table.commit_bot(decision)
                session.notify()
        finally:
            session.bots = None

    def answer(session: _Session, status: int = 200, extra: JsonObject | None = None) -> JSONResponse:
        start_bots(session)
        body: JsonObject = {**(extra or {}), "snapshot": session.table.snapshot()}
        return JSONResponse(body, status_code=status, headers={"cache-control": "no-store"})

    def refusing(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except WebError as error:
                return _refusal(error)

        return endpoint

    async def page(request: Request) -> Response:
        content, kind = pages[request.url.path]
        return Response(content, media_type=kind, headers=_PAGE_HEADERS)

    async def bots(_request: Request) -> Response:
        return JSONResponse(bots_offered(), headers={"cache-control": "no-store"})

    @refusing
    async def create(request: Request) -> Response:
        data = await _json_body(request)
        _refuse_unknown_keys(data, {"seats"})
        kinds = tuple(
            _read(lambda: [json_str(kind, "seats[]") for kind in json_array(_field(data, "seats"), "seats", 4)])
        )
        if kinds.count(PERSON) != 1:
            raise WebError(400, "bad-request", f"one seat is the person's ({PERSON!r}), got {list(kinds)!r:.100}")
        if not 2 <= len(kinds) <= 4:
            raise WebError(400, "bad-request", f"a match is for 2, 3 or 4 players, not {len(kinds)}")
        table = Table(Rules.standard(len(kinds)), kinds.index(PERSON), kinds, seeds(), seeds(), draw)
        session = _Session(table)
        key, gone = store.add(session)
        forget(gone)
        return answer(session, 201, {"session": key})

    @refusing
    async def snapshot(request: Request) -> Response:
        return answer(session_of(request))

    @refusing
    async def move(request: Request) -> Response:
        session = session_of(request)
        data = await _json_body(request)
        text = _read(lambda: json_str(_field(data, "move"), "move"))
        version = _read(lambda: json_int(_field(data, "version"), "version"))
        seat = _read(lambda: json_int(data["seat"], "seat")) if "seat" in data else None
        _refuse_unknown_keys(data, {"move", "version", "seat"})
        session.table.play(text, version, seat)
        session.notify()
        return answer(session)

    @refusing
    async def deal(request: Request) -> Response:
        session = session_of(request)
        data = await _json_body(request)
        _refuse_unknown_keys(data, {"version"})
        session.table.deal_next_round(_read(lambda: json_int(_field(data, "version"), "version")))
        session.notify()
        return answer(session)

    @refusing
    async def record(request: Request) -> Response:
        session = session_of(request)
        headers = {"cache-control": "no-store", "content-disposition": 'attachment; filename="sniff-match.json"'}
        return JSONResponse(record_to_data(session.table.record()), headers=headers)

    @refusing
    async def end(request: Request) -> Response:
        key = request.headers.get(SESSION_HEADER, "")
        session = store.remove(key) if key else None
        if session is None:
            raise WebError(404, "no-session", "no such session (it may have expired)")
        session.close()
        return JSONResponse({"ended": True}, headers={"cache-control": "no-store"})

    async def updates(websocket: WebSocket) -> None:
        if not _same_origin(websocket):
            await websocket.close(code=1008, reason="cross-origin WebSocket refused")
            return
        await websocket.accept()
        try:
            hello = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
            data = load_json(hello, max_chars=MAX_BODY_BYTES, max_depth=2)
            key = json_str(json_object(data, "the hello", ("session",))["session"], "session")
        except (SniffError, TimeoutError, WebSocketDisconnect, KeyError):
            await _close(websocket, 4400, 'send {"session": id} first')
            return
        forget(store.purge())
        session = store.get(key)
        if session is None or session.sockets >= MAX_SOCKETS_PER_SESSION:
            await _close(websocket, 4404, "no such session, or too many sockets for it")
            return
        session.sockets += 1
        try:
            await _push(websocket, session)
        finally:
            session.sockets -= 1

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        forget(store.clear())

    app = Starlette(
        routes=[
            *(Route(path, page, methods=["GET"]) for path in _STATIC),
            Route("/api/bots", bots, methods=["GET"]),
            Route("/api/sessions", create, methods=["POST"]),
            Route("/api/snapshot", snapshot, methods=["GET"]),
            Route("/api/move", move, methods=["POST"]),
            Route("/api/next-round", deal, methods=["POST"]),
            Route("/api/record", record, methods=["GET"]),
            Route("/api/session", end, methods=["DELETE"]),
            WebSocketRoute("/api/updates", updates),
        ],
        middleware=[Middleware(JsonRefusals), Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))],
        lifespan=lifespan,
    )
    app.state.sessions = store  # for the operator and the tests; never sent to a page
    return app


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(RuntimeError, WebSocketDisconnect):
        await websocket.close(code=code, reason=reason)


async def _push(websocket: WebSocket, session: _Session) -> None:
    """Send the snapshot now and after every change, until the socket or the session closes."""
    receiving = asyncio.ensure_future(websocket.receive())
    try:
        while not session.closed:
            changed = session.changed
            await websocket.send_text(json.dumps(session.table.snapshot(), separators=(",", ":")))
            waiting = asyncio.ensure_future(changed.wait())
            done, _ = await asyncio.wait({receiving, waiting}, return_when=asyncio.FIRST_COMPLETED)
            if receiving in done:
                waiting.cancel()
                if receiving.result()["type"] == "websocket.disconnect":
                    return
                receiving = asyncio.ensure_future(websocket.receive())  # the page has nothing more to say
        await _close(websocket, 4410, "the session ended")
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        receiving.cancel()
