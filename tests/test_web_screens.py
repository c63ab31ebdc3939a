"""The browser page on every screen: at phone (390x844, touch), tablet (768x1024) and desktop (1440x900)
size a person plays a whole match by taps or clicks, and at every screen of it (setup, the lobby, a turn
with a tile chosen, a round over, the match over) nothing overflows sideways, no two of the page's main
boxes overlap, and at phone size every control is a 44 x 44 px touch target (HOST-1, TURN-1, SETTLE-1,
MATCH-1). Each screen is saved as ``test-artifacts/page-SIZE-SCREEN.png``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import browser_needs  # noqa: F401  (first: it skips this module without the browser or the extra)

# isort: split
from playwright import sync_api

from browser_support import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    SCREENS,
    SIZES,
    fixed_seeds,
    layout_problems,
    screen_page,
    serving,
    shot_of,
    walk_screens,
)


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """The game served with fixed seeds on a free port of 127.0.0.1; its URL."""
    with serving(seeds=fixed_seeds()) as url:
        yield url


@pytest.mark.parametrize("size", list(SIZES))
def test_a_whole_match_by_taps_fits_every_screen(served: str, size: str) -> None:
    """At each size the person plays a whole match; at every screen no overflow, no overlap, and at phone size
    no control smaller than 44 x 44 px; each screen is saved."""
    ARTIFACTS.mkdir(exist_ok=True)
    problems: dict[str, list[str]] = {}
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        page = screen_page(browser, size)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))

        def visit(screen: str) -> None:
            problems[screen] = layout_problems(page, touch=SIZES[size][2])
            page.screenshot(path=str(ARTIFACTS / shot_of(size, screen)), full_page=True)

        moves = walk_screens(page, served, visit)
        browser.close()
    assert [] == errors
    assert {screen: [] for screen in SCREENS} == problems
    assert moves.count("next") >= 1
