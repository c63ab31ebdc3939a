"""The browser game in a real browser: the distribution's Chromium, driven by Playwright, plays a whole
four-player match by clicks against uvicorn serving sniff_rules.web.app (TURN-1, PLACE-1, SETTLE-1, MATCH-1).

Playwright never downloads a browser here: it launches /usr/bin/chromium, and the test skips, saying
so, where that is not installed. A screenshot of the page mid-round is saved under test-artifacts/
(gitignored), with the click-to-shown times of the person's moves measured in the page.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator

import pytest

from browser_needs import sync_api  # first: it skips this module without the browser or the extra
from browser_support import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    RECORDER,
    WAIT_MS,
    act,
    fixed_seeds,
    serving,
    shown_count,
    status,
)
from keyboard_support import person_status


@pytest.fixture
def served() -> Iterator[str]:
    """The game served on a free port of 127.0.0.1; its URL."""
    with serving() as url:
        yield url


def test_a_whole_four_player_match_by_clicks_in_chromium(served: str) -> None:
    """A person plays seat 0 of a four-player match to its end by clicks; every move is shown, and timed."""
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.add_init_script(RECORDER)
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
            before = shown_count(page)
            done.append(act(page, shot if wanted else None))
            page.wait_for_function(f"() => window.__sniffTest.shown.length > {before}", timeout=WAIT_MS)
        else:
            raise AssertionError("the match did not end")
        page.screenshot(path=str(ARTIFACTS / "browser-match-over.png"), full_page=True)
        times: list[float] = page.evaluate("window.__sniffTest.moveTimes")
        shown: list[list[object]] = page.evaluate("window.__sniffTest.shown")
        status_text = page.inner_text("#status")
        # The page itself keeps no record of what it drew: only the test's recorder holds one.
        page_globals: list[str] = page.evaluate("Object.keys(window).filter((name) => /sniff/i.test(name))")
        browser.close()
    moves = len(done) - done.count("next")
    (ARTIFACTS / "browser-move-times.json").write_text(
        json.dumps({"moves": moves, "times_ms": times, "median_ms": statistics.median(times), "max_ms": max(times)})
    )
    assert [] == errors
    assert ["__sniffTest"] == page_globals
    # Four players: "You and seat 2 win the match!" or "Seats 1 and 3 win the match."
    assert status_text in ("You and seat 2 win the match!", "Seats 1 and 3 win the match."), status_text
    assert done.count("next") >= 1
    assert shot.exists()
    # Every one of the person's moves was timed in the page. The times are a measurement, kept in the
    # artifact, not a verdict: how fast a page draws depends on what else the machine runs.
    assert moves == len(times)
    # Bot moves arrived one by one: many snapshots drawn while a bot was to move.
    assert sum(1 for _, what in shown if what == "bot-turn") > moves


def test_two_people_play_one_table_from_two_browser_contexts(served: str) -> None:
    """HOST-1: one person makes a two-person table, a second opens the invite link in another browser context
    (its own storage), and the two play the match to its end by clicks, each seeing the other's moves."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        errors: list[str] = []
        first = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        first.add_init_script(RECORDER)
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
        second.add_init_script(RECORDER)
        second.on("pageerror", lambda error: errors.append(str(error)))
        second.goto(link)
        first.wait_for_function("() => document.querySelector('#invites').textContent.includes('Seat 1: joined')")
        pages = (first, second)
        acted = [0, 0]
        for _ in range(3000):
            statuses = [status(page) for page in pages]
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
            before = shown_count(page)
            act(page, None)
            acted[index] += 1
            page.wait_for_function(f"() => window.__sniffTest.shown.length > {before}", timeout=20_000)
        else:
            raise AssertionError("the match did not end")
        texts = [page.inner_text("#status") for page in pages]
        browser.close()
    assert [] == errors
    assert all(count > 5 for count in acted), acted
    # Two players: each page names the winner by its seat, "You win the match!" or "Seat 1 wins the match."
    winner = texts.index("You win the match!") if "You win the match!" in texts else None
    assert [f"Seat {winner} wins the match.", "You win the match!"] == sorted(texts), texts


def test_a_snapshot_older_than_the_one_shown_is_never_drawn_even_from_an_earlier_round() -> None:
    """A table's version only grows, across rounds too: a snapshot of round 1 arriving once round 2 is shown (a
    move's late answer overtaken by the socket's pushes) is ignored, and the page stays on round 2 (TURN-2)."""
    pushed: list[dict[str, object]] = []
    sockets: list[sync_api.WebSocketRoute] = []

    def relay(page_side: sync_api.WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()

        def forward(message: str | bytes) -> None:
            pushed.append(json.loads(message))
            page_side.send(message)

        server_side.on_message(forward)
        sockets.append(page_side)

    with sync_api.sync_playwright() as playwright, serving(seeds=fixed_seeds(40)) as url:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.add_init_script(RECORDER)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.route_web_socket("**/api/updates", relay)
        page.goto(url)
        page.select_option("#players", "2")
        page.click("#start")
        for _ in range(2000):
            now = person_status(page)
            if now == "your-turn" and any(snapshot_round(snapshot) >= 2 for snapshot in pushed):
                break
            before = shown_count(page)
            act(page)
            page.wait_for_function(f"() => window.__sniffTest.shown.length > {before}", timeout=WAIT_MS)
        else:
            raise AssertionError("round 2 never came to the person")
        drawn_before: list[list[object]] = page.evaluate("window.__sniffTest.shown")
        stale = next(
            snapshot for snapshot in pushed if snapshot_round(snapshot) == 1 and snapshot["status"] == "your-turn"
        )
        # Messages are handled in order: once the marker after it is drawn, the stale snapshot has been handled.
        marker = {**pushed[-1], "version": int(str(pushed[-1]["version"])) + 1}
        sockets[-1].send(json.dumps(stale))
        sockets[-1].send(json.dumps(marker))
        page.wait_for_function(f"() => window.__sniffTest.shown.length > {len(drawn_before)}", timeout=WAIT_MS)
        drawn: list[list[object]] = page.evaluate("window.__sniffTest.shown")
        still = status(page)
        browser.close()
    assert [] == errors
    assert int(str(stale["version"])) < int(str(drawn_before[-1][0]))
    assert [*drawn_before, [marker["version"], "your-turn"]] == drawn, "the older snapshot was drawn"
    assert "your-turn" == still


def snapshot_round(snapshot: dict[str, object]) -> int:
    """The round a pushed snapshot shows."""
    view = snapshot["view"]
    assert isinstance(view, dict)
    return int(view["round"])
