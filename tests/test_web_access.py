"""axe-core on every screen of the browser game, in the distribution's Chromium, at a phone's and a desktop's
size: the setup, the lobby with its invite links, the person's turn with a tile chosen, a bot's turn, a round's
end and the match's end, each without a serious or critical violation.

axe-core comes from the npm registry at the version pinned in ``.ci/axe/package.json`` (``npm ci --prefix
.ci/axe``, which ``.ci/run`` runs). It is evaluated in the page through the browser's debugging protocol, so the
page keeps its own content security policy while it is checked: no script is added to the page's document.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

from browser_needs import sync_api  # first: it skips this module without the browser or the extra

AXE = Path(__file__).resolve().parent.parent / ".ci" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
if not AXE.exists():
    # CI installs it (.ci/run): there a missing axe-core is a broken run, never a skipped check.
    if os.environ.get("CI"):
        raise RuntimeError(f"no axe-core at {AXE}: .ci/run installs it with `npm ci --prefix .ci/axe`")
    pytest.skip(f"no axe-core at {AXE}: install it with `npm ci --prefix .ci/axe`", allow_module_level=True)

from browser_support import RECORDER, WAIT_MS, serving, status  # noqa: E402
from keyboard_support import hand, launched, opened, person_status, played_turn, start_by_keys  # noqa: E402

SIZES = ((390, 844), (1440, 900))
SERIOUS = ("serious", "critical")


def violations(page: Page, screen: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, each as one line naming the screen."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{screen}: {item['id']} ({item['impact']}) {[node['target'] for node in item['nodes']]}"
        for item in found
        if item["impact"] in SERIOUS
    ]


def played_screens(browser: Browser, size: tuple[int, int], url: str) -> list[str]:
    """The setup, a turn with a tile chosen, a round's end and the match's end of a match played by keys."""
    # A script error is a finding of its own: the screen it leaves is not one a person can use.
    found: list[str] = []
    page = opened(browser, url, RECORDER, found, size)
    page.wait_for_function("() => document.querySelectorAll('.bot-kind option').length > 1", timeout=WAIT_MS)
    found += violations(page, "setup")
    start_by_keys(page)
    rng = random.Random(7)
    seen: set[str] = set()
    for _ in range(2000):
        now = person_status(page)
        if now == "match-over":
            found += violations(page, "match over")
            return found
        if now == "round-over" and "round" not in seen:
            seen.add("round")
            found += violations(page, "round over")
        if now == "your-turn" and "chosen" not in seen and page.locator("#open-points .sniff-point").count():
            free = [at for at, (_, ok) in enumerate(hand(page)) if ok]
            if free:
                seen.add("chosen")
                page.keyboard.press("1")
                found += violations(page, "a tile chosen")
                page.keyboard.press("Escape")
        played_turn(page, rng)
    raise AssertionError("the match did not end")


def waiting_screens(browser: Browser, size: tuple[int, int], url: str) -> list[str]:
    """The lobby of a table for two people with its invite link, and a bot's turn (the bots here wait long)."""
    found: list[str] = []
    page = opened(browser, url, RECORDER, found, size)
    page.wait_for_function("() => document.querySelectorAll('.bot-kind option').length > 1", timeout=WAIT_MS)
    page.select_option("#players", "3")
    page.select_option('.bot-kind[data-seat="1"]', "person")
    page.click("#start")
    page.locator('#invites a.invite[data-seat="1"]').wait_for(timeout=WAIT_MS)
    found += violations(page, "lobby")
    page.close()
    page = opened(browser, url, RECORDER, found, size)
    start_by_keys(page)
    # The match's first snapshot, not merely a status other than "setup".
    page.wait_for_function("() => ['your-turn', 'bot-turn'].includes(document.body.dataset.status)", timeout=WAIT_MS)
    if status(page) == "your-turn":
        played_turn(page, random.Random(3))
    assert "bot-turn" == status(page)
    found += violations(page, "a bot's turn")
    return found


@pytest.mark.parametrize("size", SIZES, ids=[f"{width}x{height}" for width, height in SIZES])
def test_no_serious_accessibility_violation_on_any_screen(size: tuple[int, int]) -> None:
    """axe-core finds no serious or critical violation on any screen of a match, at a phone's and a desktop's size."""
    seeds = iter(range(2400, 2500))
    found: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = launched(playwright)
        with serving(seeds=lambda: next(seeds), deal_on_seconds=600) as url:
            found += played_screens(browser, size, url)
        with serving(seeds=lambda: next(seeds), bot_delay=600) as url:
            found += waiting_screens(browser, size, url)
        browser.close()
    assert [] == found, "\n".join(found)
