"""The browser game's web app: Starlette over :class:`~sniff_rules.web.host.TableHost` (the ``web`` extra).

:func:`create_app` builds it. The page (``web/static/``, shipped in the
package) talks JSON to a small API and hears of every change over one
WebSocket per seat. A request names its table and its seat's token in the
``X-Sniff-Table`` and ``X-Sniff-Token`` headers and acts for that seat alone:

- ``GET /api/bots`` the bots a seat may be given, the fair bots and the
  operator's bot processes (:func:`~sniff_rules.web.seats.bots_offered`:
  each bot's name and label, and the default), so the page holds no list of its own;
- ``POST /api/tables`` ``{"seats": ["person", "greedy", "person", ...]}``
  makes a table; the creator takes the first person seat, and the answer
  holds the table id, the creator's token, one invite link per person seat
  (the id and token in the URL's fragment, which no browser sends on) and
  the creator's snapshot;
- ``GET /api/table`` the seat's snapshot (:func:`~sniff_rules.web.seats.snapshot`:
  its view, its redacted events, the seats and who has joined, the version);
- ``POST /api/join`` takes the seat of an invite link;
- ``POST /api/move`` ``{"move": "14 high", "version": 7}`` plays the seat's
  move as typed on the version the page shows; ``POST /api/next-round``
  ``{"version": 9}`` deals on after a settled round; ``POST /api/leave``
  leaves the table (it ends once every person has left);
- ``GET /api/record`` the match record (``$defs/matchRecord``, what
  ``sniff-rules replay`` plays), once the match is over or was stopped: a
  record holds every hand and the seed of every deal, so before the end it is a 409;
- ``/api/updates``, a WebSocket: the page sends ``{"table": id, "token": token}``
  within :data:`HELLO_SECONDS` and receives its snapshot after every change.

Every refusal is a JSON ``{"error", "message", "rule"}`` with an HTTP
status, and changes nothing. A ``Host`` header other than the allowed names
is refused (Starlette's ``TrustedHostMiddleware``, against DNS rebinding),
as is a WebSocket whose ``Origin`` is not the page's own; moves need a JSON
body and the token header, which no other site's page can send without the
cross-origin permission this app never grants.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from importlib.resources import files
from typing import Any, Final

try:
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
from sniff_rules.layout import Layout
from sniff_rules.play.table import Table
from sniff_rules.state import Phase
from sniff_rules.web import seats
from sniff_rules.web.bot_seats import TableBots
from sniff_rules.web.host import (
    DEAL_ON_SECONDS,
    IDLE_SECONDS,
    MAX_TABLES,
    MAX_TABLES_PER_CLIENT,
    SeedSource,
    TableHost,
    fresh_seed,
)
from sniff_rules.web.seats import Layouter, WebError, bots_offered, plain_layout
from sniff_rules.web.store import MemoryStore, TableStore

TABLE_HEADER: Final = "x-sniff-table"
"""The request header carrying the table's id."""

TOKEN_HEADER: Final = "x-sniff-token"
"""The request header carrying the seat's token; it travels in headers and the page's URL fragment, never in a path
or query, so no log and no Referer holds it."""

MAX_BODY_BYTES: Final = 2048
"""The largest request body read; every request of the page is far smaller."""

MAX_SOCKETS_PER_SEAT: Final = 4
"""WebSockets one seat may hold open at once in one process: a few tabs, not a flood."""

HELLO_SECONDS: Final = 5.0
"""How long a new WebSocket may take to name its table and token before it is closed: a page sends them at once."""

MAX_UNNAMED_SOCKETS: Final = 64
"""WebSockets accepted at once that have not yet named their seat; past it a new one is refused before it is
accepted, so a flood of silent sockets holds a bounded amount of memory for at most HELLO_SECONDS."""

_STATIC: Final = {
    "/": ("index.html", "text/html"),
    "/app.js": ("app.js", "text/javascript"),
    "/keyboard.js": ("keyboard.js", "text/javascript"),
    "/motion.js": ("motion.js", "text/javascript"),
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


def default_layouter() -> Layouter:
    """The layout drawn by :func:`sniff_rules.draw.svg.svg`, beside its text lines.

    Only the table is drawn: the page shows the hands and scores itself. The
    layout is public, the same for every seat, so each is drawn once for all
    the seats its change is sent to (the last :data:`LAYOUT_CACHE` kept).
    """

    @functools.lru_cache(maxsize=LAYOUT_CACHE)
    def drawn(layout: Layout) -> str:
        return svg(layout, size=720)

    def layouter(view: Any) -> JsonObject:
        return {**plain_layout(view), "svg": drawn(view.layout)}

    return layouter


LAYOUT_CACHE: Final = 64
"""Layouts kept drawn: enough for the changes of many tables in flight, each picture a few KiB."""

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


def _ids(request: Request) -> tuple[str, str]:
    return request.headers.get(TABLE_HEADER, ""), request.headers.get(TOKEN_HEADER, "")


def _invite_link(base: str, table_id: str, token: str) -> str:
    # In the fragment: a browser sends no fragment to any server, so neither a log nor a Referer holds the token.
    return f"{base}#table={table_id}&token={token}"


def create_app(
    *,
    store: TableStore | None = None,
    allowed_hosts: Sequence[str] = ("127.0.0.1", "localhost", "::1"),
    bot_delay: float = 0.6,
    deal_on_seconds: float = DEAL_ON_SECONDS,
    idle_seconds: float = IDLE_SECONDS,
    max_tables: int = MAX_TABLES,
    max_tables_per_client: int = MAX_TABLES_PER_CLIENT,
    clock: Callable[[], float] = time.time,
    seeds: SeedSource = fresh_seed,
    layouter: Layouter | None = None,
    close_store: bool = False,
    bots: TableBots | None = None,
) -> Starlette:
    """The browser game as an ASGI application (see the module's docstring).

    ``store`` keeps the tables (a fresh :class:`~sniff_rules.web.store.MemoryStore`
    by default; closed with the app when ``close_store``); ``allowed_hosts``
    are the ``Host`` names served; ``bot_delay`` the seconds each bot waits
    before its move, so a person can follow the play; the other settings are
    :class:`~sniff_rules.web.host.TableHost`'s; ``layouter`` draws the layout
    (default :func:`default_layouter`); ``bots`` the operator's bot processes
    (none by default), ended when the app stops.
    """
    host = TableHost(
        MemoryStore() if store is None else store,
        clock=clock,
        seeds=seeds,
        bot_delay=bot_delay,
        deal_on_seconds=deal_on_seconds,
        idle_seconds=idle_seconds,
        max_tables=max_tables,
        max_tables_per_client=max_tables_per_client,
        bots=bots,
    )
    draw = default_layouter() if layouter is None else layouter
    pages = {
        path: ((files("sniff_rules") / "web/static" / name).read_bytes(), kind)
        for path, (name, kind) in _STATIC.items()
    }
    unnamed = [0]
    seat_sockets: dict[tuple[str, int], int] = {}

    def seen_by(table: Table, token: str) -> JsonObject:
        # Through the module, so a test can watch every snapshot sent.
        return seats.snapshot(table, token, draw)

    def answer(table: Table, token: str, status: int = 200, extra: JsonObject | None = None) -> JSONResponse:
        body: JsonObject = {**(extra or {}), "snapshot": seen_by(table, token)}
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

    async def bot_list(_request: Request) -> Response:
        return JSONResponse(bots_offered(host.bots.offer), headers={"cache-control": "no-store"})

    @refusing
    async def create(request: Request) -> Response:
        data = await _json_body(request)
        _refuse_unknown_keys(data, {"seats"})
        kinds = tuple(
            _read(lambda: [json_str(kind, "seats[]") for kind in json_array(_field(data, "seats"), "seats", 4)])
        )
        creator = request.client.host if request.client is not None else "unknown"
        table_id, table, people = host.create(kinds, creator)
        base = str(request.base_url)
        invites: list[JsonValue] = [
            {"seat": seat, "you": index == 0, "link": _invite_link(base, table_id, token)}
            for index, (seat, token) in enumerate(people)
        ]
        mine = people[0][1]
        return answer(table, mine, 201, {"table": table_id, "token": mine, "invites": invites})

    @refusing
    async def snapshot(request: Request) -> Response:
        table_id, token = _ids(request)
        return answer(host.for_seat(table_id, token), token)

    @refusing
    async def join(request: Request) -> Response:
        table_id, token = _ids(request)
        return answer(host.change(table_id, token, None, lambda table: table.join(token)), token)

    @refusing
    async def move(request: Request) -> Response:
        table_id, token = _ids(request)
        data = await _json_body(request)
        text = _read(lambda: json_str(_field(data, "move"), "move"))
        version = _read(lambda: json_int(_field(data, "version"), "version"))
        _refuse_unknown_keys(data, {"move", "version"})
        if len(text) > seats.MAX_MOVE_CHARS:
            raise WebError(400, "bad-request", f"a move is at most {seats.MAX_MOVE_CHARS} characters")

        def play(table: Table) -> Table:
            return table.play(token, seats.read_move(table, token, text), version)

        return answer(host.change(table_id, token, version, play), token)

    @refusing
    async def deal(request: Request) -> Response:
        table_id, token = _ids(request)
        data = await _json_body(request)
        _refuse_unknown_keys(data, {"version"})
        version = _read(lambda: json_int(_field(data, "version"), "version"))
        return answer(host.change(table_id, token, version, lambda table: table.deal_on(version, token)), token)

    @refusing
    async def record(request: Request) -> Response:
        table = host.for_seat(*_ids(request))
        if table.phase is not Phase.MATCH_OVER and table.stopped is None:
            raise WebError(409, "match-not-over", "the record holds every hand: it is served once the match is over")
        headers = {"cache-control": "no-store", "content-disposition": 'attachment; filename="sniff-match.json"'}
        return JSONResponse(record_to_data(table.record), headers=headers)

    @refusing
    async def leave(request: Request) -> Response:
        ended = host.leave(*_ids(request))
        return JSONResponse({"left": True, "ended": ended}, headers={"cache-control": "no-store"})

    async def updates(websocket: WebSocket) -> None:
        if not _same_origin(websocket):
            await websocket.close(code=1008, reason="cross-origin WebSocket refused")
            return
        if unnamed[0] >= MAX_UNNAMED_SOCKETS:
            await websocket.close(code=1013, reason="too many sockets opening at once: try again")
            return
        unnamed[0] += 1
        try:
            await websocket.accept()
            hello = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
            data = json_object(load_json(hello, max_chars=MAX_BODY_BYTES, max_depth=2), "the hello", ("table", "token"))
            table_id = json_str(data["table"], "table")
            token = json_str(data["token"], "token")
        except (SniffError, TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
            await _close(websocket, 4400, f'send {{"table": id, "token": token}} within {HELLO_SECONDS:g} s')
            return
        finally:
            unnamed[0] -= 1
        try:
            table = host.for_seat(table_id, token)
        except WebError as error:
            await _close(websocket, 4404, error.message[:120])
            return
        key = (table_id, table.seat_of(token))
        if seat_sockets.get(key, 0) >= MAX_SOCKETS_PER_SEAT:
            await _close(websocket, 4429, f"a seat holds at most {MAX_SOCKETS_PER_SEAT} sockets")
            return
        seat_sockets[key] = seat_sockets.get(key, 0) + 1
        changed = host.watch(table_id)
        try:
            await _push(websocket, host, table_id, token, changed, seen_by)
        finally:
            host.unwatch(table_id, changed)
            seat_sockets[key] -= 1
            if not seat_sockets[key]:
                del seat_sockets[key]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await host.start()
        try:
            yield
        finally:
            await host.stop()
            if close_store:
                host.store.close()

    app = Starlette(
        routes=[
            *(Route(path, page, methods=["GET"]) for path in _STATIC),
            Route("/api/bots", bot_list, methods=["GET"]),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/table", snapshot, methods=["GET"]),
            Route("/api/join", join, methods=["POST"]),
            Route("/api/move", move, methods=["POST"]),
            Route("/api/next-round", deal, methods=["POST"]),
            Route("/api/record", record, methods=["GET"]),
            Route("/api/leave", leave, methods=["POST"]),
            WebSocketRoute("/api/updates", updates),
        ],
        middleware=[Middleware(JsonRefusals), Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))],
        lifespan=lifespan,
    )
    app.state.host = host  # for the operator and the tests; never sent to a page
    return app


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(RuntimeError, WebSocketDisconnect):
        await websocket.close(code=code, reason=reason)


async def _push(
    websocket: WebSocket,
    host: TableHost,
    table_id: str,
    token: str,
    changed: asyncio.Event,
    seen_by: Callable[[Table, str], JsonObject],
) -> None:
    """Send the seat's snapshot now and after every change, until the socket closes or the table ends."""
    receiving = asyncio.ensure_future(websocket.receive())
    sent = 0
    try:
        while True:
            changed.clear()
            try:
                table = host.load(table_id)
            except WebError:
                await _close(websocket, 4410, "the table ended")
                return
            if table.version > sent:
                await websocket.send_text(json.dumps(seen_by(table, token), separators=(",", ":")))
                sent = table.version
            waiting = asyncio.ensure_future(changed.wait())
            done, _ = await asyncio.wait({receiving, waiting}, return_when=asyncio.FIRST_COMPLETED)
            if receiving in done:
                waiting.cancel()
                if receiving.result()["type"] == "websocket.disconnect":
                    return
                receiving = asyncio.ensure_future(websocket.receive())  # the page has nothing more to say
            if host.stopped:
                await _close(websocket, 1001, "the server is stopping")
                return
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        receiving.cancel()
