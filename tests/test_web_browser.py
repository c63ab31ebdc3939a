"""The browser game in a real browser: the distribution's Chromium, driven by Playwright, plays a whole
four-player match by clicks against uvicorn serving sniff_rules.web.app (TURN-1, PLACE-1, SETTLE-1, MATCH-1).

Playwright never downloads a browser here: it launches /usr/bin/chromium, and the test skips, saying
so, where that is not installed. A screenshot of the page mid-round is saved under test-artifacts/
(gitignored), with the click-to-shown times of the person's moves measured in the page.
"""

from __future__ import annotations

import json
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

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

pytest.importorskip("starlette", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
uvicorn = pytest.importorskip("uvicorn", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser test needs playwright (the test extra)")
if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM}: install it with `apt-get install chromium`", allow_module_level=True)

from sniff_rules.web.app import create_app  # noqa: E402


@pytest.fixture
def served() -> Iterator[str]:
    """uvicorn serving the game on a free port of 127.0.0.1, in a thread; its URL."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    app = create_app(allowed_hosts=["127.0.0.1"], bot_delay=0.01)
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


def _act(page: Page, shot: Path | None) -> str:
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
        where = "#layout svg" if page.evaluate("window.sniffMoveTimes.length") % 2 else "#open-points"
        page.click(f"{where} .sniff-point.target >> nth=0")
        return "placed"
    return "led"


def test_a_whole_four_player_match_by_clicks_in_chromium(served: str) -> None:
    """A person plays seat 0 of a four-player match to its end by clicks; every move is shown, and timed."""
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(served)
        page.select_option("#players", "4")
        page.select_option('.bot-kind[data-seat="2"]', "search")
        page.click("#start")
        done: list[str] = []
        shot = ARTIFACTS / "browser-mid-round.png"
        shot.unlink(missing_ok=True)
        for _ in range(2000):
            page.wait_for_function(
                "() => ['your-turn', 'round-over', 'match-over'].includes(document.body.dataset.status)",
                timeout=WAIT_MS,
            )
            if page.evaluate("document.body.dataset.status") == "match-over":
                break
            wanted = not shot.exists() and done.count("placed") >= 2 and page.locator("#round-end").is_hidden()
            before = page.evaluate("window.sniffShown.length")
            done.append(_act(page, shot if wanted else None))
            page.wait_for_function(f"() => window.sniffShown.length > {before}", timeout=WAIT_MS)
        else:
            raise AssertionError("the match did not end")
        page.screenshot(path=str(ARTIFACTS / "browser-match-over.png"), full_page=True)
        times: list[float] = page.evaluate("window.sniffMoveTimes")
        shown: list[list[object]] = page.evaluate("window.sniffShown")
        status = page.inner_text("#status")
        browser.close()
    moves = len(done) - done.count("next")
    (ARTIFACTS / "browser-move-times.json").write_text(
        json.dumps({"moves": moves, "times_ms": times, "median_ms": statistics.median(times), "max_ms": max(times)})
    )
    assert [] == errors
    assert "wins the match" in status or "You win" in status
    assert done.count("next") >= 1
    assert shot.exists()
    # Every one of the person's moves was timed in the page. The times are a measurement, kept in the
    # artifact, not a verdict: how fast a page draws depends on what else the machine runs.
    assert moves == len(times)
    # Bot moves arrived one by one: many snapshots drawn while a bot was to move.
    assert sum(1 for _, what in shown if what == "bot-turn") > moves


def _status(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.status"))


def test_two_people_play_one_table_from_two_browser_contexts(served: str) -> None:
    """HOST-1: one person makes a two-person table, a second opens the invite link in another browser context
    (its own storage), and the two play the match to its end by clicks, each seeing the other's moves."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        errors: list[str] = []
        first = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        first.on("pageerror", lambda error: errors.append(str(error)))
        first.goto(served)
        first.select_option("#players", "2")
        first.select_option('.bot-kind[data-seat="1"]', "person")
        first.click("#start")
        invite = first.locator('#invites a.invite[data-seat="1"]')
        invite.wait_for(timeout=20_000)
        link = invite.get_attribute("href")
        assert link is not None
        assert "#table=" in link
        second = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        second.on("pageerror", lambda error: errors.append(str(error)))
        second.goto(link)
        first.wait_for_function("() => document.querySelector('#invites').textContent.includes('Seat 1: joined')")
        pages = (first, second)
        acted = [0, 0]
        for _ in range(3000):
            statuses = [_status(page) for page in pages]
            if ["match-over", "match-over"] == statuses:
                break
            # The first person deals each next round: the second page's round-over may be a push behind,
            # its button about to go, so it only moves.
            movers = [
                index
                for index, status in enumerate(statuses)
                if status == "your-turn" or (status == "round-over" and index == 0)
            ]
            if not movers:
                first.wait_for_timeout(20)
                continue
            index = movers[0]
            page = pages[index]
            before = page.evaluate("window.sniffShown.length")
            _act(page, None)
            acted[index] += 1
            page.wait_for_function(f"() => window.sniffShown.length > {before}", timeout=20_000)
        else:
            raise AssertionError("the match did not end")
        texts = [page.inner_text("#status") for page in pages]
        browser.close()
    assert [] == errors
    assert all(count > 5 for count in acted), acted
    assert all("wins the match" in text or "You win" in text for text in texts), texts
