"""Playing the browser game by keys, for the browser tests: where the focus is, the hand, one turn by keys from
wherever the focus is, and a match started by keys. Imported by a test module after its own skips."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from browser_needs import sync_api
from browser_support import CHROMIUM, CHROMIUM_ARGS, WAIT_MS, serving, shown_count

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

FOCUS = """() => {
  const on = document.activeElement;
  if (!on || on === document.body) return "body";
  if (on.matches("#hand [data-tile]")) return "tile:" + on.getAttribute("data-tile");
  if (on.matches("#open-points .sniff-point")) return "point:" + on.getAttribute("data-point");
  return "#" + on.id;
}"""
"""What has the focus: a tile of the hand, an open point, or a control by its id."""


def hand(page: Page) -> list[tuple[str, bool]]:
    """The tiles of the hand in order, each with whether it may be played."""
    found: list[list[Any]] = page.evaluate(
        "Array.from(document.querySelectorAll('#hand [data-tile]'), (t) => [t.getAttribute('data-tile'), !t.disabled])"
    )
    return [(str(tile), bool(free)) for tile, free in found]


def one_turn(page: Page, rng: random.Random) -> tuple[str, list[str], int | None]:
    """The person's turn (or the round's end) by keys from where the focus is; its kind, the keys, and the hand
    index of the tile placed."""
    keys: list[str] = []

    def press(key: str) -> None:
        keys.append(key)
        page.keyboard.press(key)

    focus = page.evaluate(FOCUS)
    if page.is_visible("#next-round"):
        assert "#next-round" == focus
        press(rng.choice(["Enter", "n"]))
        return "next", keys, None
    for button, key in (("#draw", "d"), ("#pass", "p")):
        if page.is_visible(button):
            assert button == focus
            press(rng.choice(["Enter", key]))
            return button[1:], keys, None
    assert focus.startswith("tile:")
    # By place in the hand, not by name: a hand may show a tile twice (the drawn one).
    free = [at for at, (_, ok) in enumerate(hand(page)) if ok]
    focused = page.evaluate(
        "Array.from(document.querySelectorAll('#hand [data-tile]')).indexOf(document.activeElement)"
    )
    pick = rng.randrange(len(free))
    index = free[pick]
    press("Enter" if index == focused else str(pick + 1))
    targets = page.locator("#open-points .sniff-point.target").count()
    if not targets:
        return "led", keys, index
    assert page.evaluate(FOCUS).startswith("point:")
    aim = rng.randrange(targets)
    if aim == 0:
        press("Enter")
    elif aim == 1:
        press("ArrowRight")
        press("Enter")
    else:
        press(str(aim + 1))
    return "placed", keys, index


def start_by_keys(page: Page) -> None:
    """Two players, the second a bot, chosen and started with the keyboard."""
    page.keyboard.press("Tab")
    assert "#players" == page.evaluate(FOCUS)
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert "2" == page.input_value("#players")
    for _ in range(10):
        if "#start" == page.evaluate(FOCUS):
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")


def person_status(page: Page) -> str:
    """The page's status once it is the person's to act on: your-turn, round-over or match-over."""
    page.wait_for_function(
        "() => ['your-turn', 'round-over', 'match-over'].includes(document.body.dataset.status)", timeout=WAIT_MS
    )
    return str(page.evaluate("document.body.dataset.status"))


def played_turn(page: Page, rng: random.Random) -> tuple[str, list[str], int | None]:
    """:func:`one_turn`, and the wait for the snapshot it brings."""
    before = shown_count(page)
    done = one_turn(page, rng)
    page.wait_for_function(f"() => window.__sniffTest.shown.length > {before}", timeout=WAIT_MS)
    return done


def launched(playwright: Playwright) -> Browser:
    """The distribution's Chromium, headless."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)


def opened(
    browser: Browser,
    url: str,
    script: str,
    errors: list[str],
    size: tuple[int, int] = (1200, 900),
    reduced_motion: Any = None,
) -> Page:
    """A page in a context of its own (its own storage) at ``size``, running the init ``script``, its script
    errors added to ``errors``, opened at ``url``."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion=reduced_motion)
    page = context.new_page()
    page.add_init_script(script)
    page.on("pageerror", lambda error: errors.append(f"the page failed: {error}"))
    page.goto(url)
    return page


@contextmanager
def keyboard_match(script: str, first_seed: int, errors: list[str], reduced_motion: Any = None) -> Iterator[Page]:
    """A page running the init ``script``, its script errors added to ``errors``, where the person has started a
    two-player match against a bot by keys; served with the seeds from ``first_seed`` on, so it replays."""
    seeds = iter(range(first_seed, first_seed + 100))
    with serving(seeds=lambda: next(seeds)) as url, sync_api.sync_playwright() as playwright:
        browser = launched(playwright)
        page = opened(browser, url, script, errors, reduced_motion=reduced_motion)
        start_by_keys(page)
        yield page
        browser.close()
