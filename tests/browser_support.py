"""What the browser game's tests share: the distribution's Chromium, the game served by uvicorn in a thread,
a recorder of what the page announces, and one person's move by clicks.

Playwright never downloads a browser here: it launches /usr/bin/chromium. A test module imports this after
its own ``pytest.importorskip`` lines, so a missing extra or browser skips it, saying why.
"""

from __future__ import annotations

import itertools
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import uvicorn

from sniff_rules.web.app import create_app

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

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
    return _move(page, page.click, lambda: None if shot is None else _save(page, shot))


def _save(page: Page, shot: Path) -> None:
    page.screenshot(path=str(shot), full_page=True)


SIZES: dict[str, tuple[int, int, bool]] = {
    "phone": (390, 844, True),
    "tablet": (768, 1024, False),
    "desktop": (1440, 900, False),
}
"""The screens the page is tested and pictured at: name to (CSS width, height, a touch phone)."""

EDGE_SIZES: dict[str, tuple[int, int, bool]] = {
    "small-phone": (360, 640, True),
    "phone-landscape": (844, 390, True),
    "wide": (1920, 1080, False),
}
"""The ends of the range the page is laid out for, portrait and landscape, checked screen by screen."""

SCREENS = ("setup", "lobby", "turn", "round-over", "match-over")
"""The screens of a match, in the order a player meets them: the new-match form, the table of people with its
invite links, the person's turn with a tile chosen and its targets marked, a settled round, the match's end."""

TOUCH_PX = 44
"""The least width and height of a control at phone size (WCAG 2.5.5's target size)."""

REGIONS = ("header", "#setup", "#lobby", "#board", "#you", "#round-end", "#table-info", "#log-box", "#leave")
"""The page's main boxes: no two visible ones may overlap."""

_MEASURE = """(regions) => {
  const boxes = [];
  for (const selector of regions) {
    const node = document.querySelector(selector);
    if (!node || !node.checkVisibility()) continue;
    const r = node.getBoundingClientRect();
    if (r.width && r.height) {
      boxes.push([selector, r.left + scrollX, r.top + scrollY, r.right + scrollX, r.bottom + scrollY]);
    }
  }
  const controls = Array.from(document.querySelectorAll("button, select, input, summary, a.invite"))
    .filter((node) => node.checkVisibility())
    .map((node) => {
      const r = node.getBoundingClientRect();
      return [node.id || node.textContent.slice(0, 30), r.width, r.height];
    });
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth, boxes, controls };
}"""


def layout_problems(page: Page, touch: bool) -> list[str]:
    """What is wrong with the page's layout as shown: a horizontal overflow, two main boxes overlapping, and
    with ``touch`` a control smaller than :data:`TOUCH_PX` either way. Empty when all is well."""
    found: dict[str, Any] = page.evaluate(_MEASURE, list(REGIONS))
    problems = []
    if found["scrollWidth"] > found["innerWidth"]:
        problems.append(f"overflow: the page is {found['scrollWidth']} px wide in {found['innerWidth']}")
    boxes = found["boxes"]
    for index, (name, left, top, right, bottom) in enumerate(boxes):
        for other, left2, top2, right2, bottom2 in boxes[index + 1 :]:
            # A pixel of shared edge is rounding, not overlap.
            if min(right, right2) - max(left, left2) > 1 and min(bottom, bottom2) - max(top, top2) > 1:
                problems.append(f"overlap: {name} and {other}")
    if touch:
        for name, width, height in found["controls"]:
            if width < TOUCH_PX or height < TOUCH_PX:
                problems.append(f"small target: {name!r} is {width:.0f}x{height:.0f}")
    return problems


def fixed_seeds(first: int = 20) -> Callable[[], int]:
    """A ``seeds=`` for the server giving 20, 21, 22, ...: every deal and every bot's choice the same on every run."""
    counter = itertools.count(first)
    return lambda: next(counter)


def _wait_for_person(page: Page) -> str:
    page.wait_for_function(
        "() => ['your-turn', 'round-over', 'match-over'].includes(document.body.dataset.status)", timeout=WAIT_MS
    )
    return status(page)


def walk_screens(page: Page, url: str, visit: Callable[[str], None]) -> list[str]:
    """Play one match through every screen of :data:`SCREENS` by taps or clicks, calling ``visit(screen)`` the
    first time each is on show; the person's moves in order ("placed", "draw", "next", ...).

    The lobby is a two-person table, shown and then left; the match is seat 0 against three greedy bots. Its
    moves are the page's first choice each time, so with :func:`fixed_seeds` every run plays the same match.
    """
    tap = page.tap if _touch(page) else page.click
    page.goto(url)
    page.wait_for_function("() => document.querySelectorAll('.bot-kind').length === 4", timeout=WAIT_MS)
    visit("setup")
    page.select_option("#players", "2")
    page.select_option('.bot-kind[data-seat="1"]', "person")
    tap("#start")
    page.locator('#invites a.invite[data-seat="1"]').wait_for(timeout=WAIT_MS)
    visit("lobby")
    tap("#new-match")
    page.locator("#setup").wait_for(timeout=WAIT_MS)
    page.select_option("#players", "4")
    # The form keeps each seat's choice: seat 1 is a person's still.
    page.select_option('.bot-kind[data-seat="1"]', "greedy")
    tap("#start")
    done: list[str] = []
    seen: set[str] = set()
    for _ in range(3000):
        now = _wait_for_person(page)
        if now in ("round-over", "match-over") and now not in seen:
            page.locator("#round-end").wait_for(timeout=WAIT_MS)
            seen.add(now)
            visit(now)
        if now == "match-over":
            return done
        before = shown_count(page)
        done.append(_move(page, tap, lambda: chosen(seen, visit)))
        page.wait_for_function(f"() => window.__sniffTest.shown.length > {before}", timeout=WAIT_MS)
    raise AssertionError("the match did not end")


def chosen(seen: set[str], visit: Callable[[str], None]) -> None:
    """The first tile chosen with its targets marked is the "turn" screen."""
    if "turn" not in seen:
        seen.add("turn")
        visit("turn")


def _touch(page: Page) -> bool:
    return bool(page.evaluate("matchMedia('(pointer: coarse)').matches"))


def _move(page: Page, tap: Callable[[str], None], chosen: Callable[[], None]) -> str:
    """The person's one move by taps: the round's next deal, draw or pass, or a tile and then its first target
    (``chosen`` is called between the two); what was done."""
    for button, done in (("#next-round", "next"), ("#draw", "draw"), ("#pass", "pass")):
        if page.is_visible(button):
            tap(button)
            return done
    tap("#hand .sniff-hand-tile:not([disabled]) >> nth=0")
    if not page.locator("#open-points .sniff-point.target").count():
        return "led"
    chosen()
    # Every other placement is made on the picture itself, the others on the buttons below it.
    where = "#layout svg" if page.evaluate("window.__sniffTest.moveTimes.length") % 2 else "#open-points"
    tap(f"{where} .sniff-point.target >> nth=0")
    return "placed"


def screen_page(browser: Browser, size: str) -> Page:
    """A fresh page of the named :data:`SIZES` (a touch phone with ``is_mobile`` and ``has_touch``), its own
    storage, the :data:`RECORDER` installed."""
    width, height, phone = {**SIZES, **EDGE_SIZES}[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone, device_scale_factor=1
    )
    page = context.new_page()
    page.add_init_script(RECORDER)
    return page


def shot_of(size: str, screen: str) -> str:
    """The file name of a screen's screenshot: ``page-phone-turn.png``."""
    return f"page-{size}-{screen}.png"
