"""What the browser game's tests share: the distribution's Chromium, the game served by uvicorn in a thread,
a recorder of what the page announces, and one person's move by clicks.

Playwright never downloads a browser here: it launches /usr/bin/chromium. A test module imports this after
its own ``pytest.importorskip`` lines, so a missing extra or browser skips it, saying why.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import uvicorn

from sniff_rules.web.app import create_app

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
WAIT_MS = 120_000
"""How long a wait for the page may take: a hang guard only a hung page or server reaches."""

RECORDER = """
window.__sniffTest = { shown: [], moveTimes: [] };
document.addEventListener("sniff:shown", (e) => window.__sniffTest.shown.push([e.detail.version, e.detail.status]));
document.addEventListener("sniff:move-shown", (e) => window.__sniffTest.moveTimes.push(e.detail.ms));
"""
"""An init script, run in the test's page only, that keeps what the page announces (the page itself keeps
nothing): every snapshot drawn as [version, status], and every person's click-to-painted time."""


@contextmanager
def serving(**options: Any) -> Iterator[str]:
    """uvicorn serving the game on a free port of 127.0.0.1, in a thread; its URL. ``options`` go to
    :func:`~sniff_rules.web.app.create_app` (by default only 127.0.0.1 is allowed, bots wait 0.01 s)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    app = create_app(**{"allowed_hosts": ["127.0.0.1"], "bot_delay": 0.01, **options})
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="websockets-sansio"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    # Waited for until a deadline only a hung server reaches, however busy the machine.
    deadline = time.monotonic() + 120
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=60)
        listener.close()


def shown_count(page: Page) -> int:
    """How many snapshots the page has drawn (needs :data:`RECORDER`)."""
    return int(page.evaluate("window.__sniffTest.shown.length"))


def status(page: Page) -> str:
    """The page's status: setup, your-turn, bot-turn, waiting, round-over or match-over."""
    return str(page.evaluate("document.body.dataset.status"))


def act(page: Page, shot: Path | None = None) -> str:
    """One click (or two: a tile, then its target) for the person's turn or the round's end; what was done.

    With ``shot``, the page is saved there once the tile is chosen and its targets are marked."""
    if page.is_visible("#next-round"):
        page.click("#next-round")
        return "next"
    for button in ("#draw", "#pass"):
        if page.is_visible(button):
            page.click(button)
            return button[1:]
    page.click("#hand .sniff-hand-tile:not([disabled]) >> nth=0")
    if page.locator("#open-points .sniff-point.target").count():
        if shot is not None:
            page.screenshot(path=str(shot), full_page=True)
        # Every other placement is made on the picture itself, the others on the list below it.
        where = "#layout svg" if page.evaluate("window.__sniffTest.moveTimes.length") % 2 else "#open-points"
        page.click(f"{where} .sniff-point.target >> nth=0")
        return "placed"
    return "led"
