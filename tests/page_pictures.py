"""Make the page's pictures for the README and the browser guide, by one command:

    python3 tests/page_pictures.py

It plays the match of ``tests/test_web_screens.py`` (the same harness, :func:`browser_support.walk_screens`,
with the server's seeds fixed) and saves the screens of :data:`PICTURES` under ``specs/pictures/``, each the
size of its screen in :data:`browser_support.SIZES`. Needs the ``web`` and ``test`` extras and Chromium at
/usr/bin/chromium.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from playwright.sync_api import Page

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_support import CHROMIUM, CHROMIUM_ARGS, fixed_seeds, screen_page, serving, walk_screens

PICTURES: Final = {("phone", "turn"): "page-phone.png", ("desktop", "turn"): "page-desktop.png"}
"""(size, screen) to the file it is saved as: a turn with a tile chosen and its targets marked, by phone and
desktop."""

FOLDER: Final = Path(__file__).resolve().parent.parent / "specs" / "pictures"
"""Where the pictures go."""


def make(folder: Path = FOLDER) -> list[Path]:
    """Play the match at each size of :data:`PICTURES` and save its screens there; the files written."""
    from playwright.sync_api import sync_playwright

    written: list[Path] = []
    with serving(seeds=fixed_seeds()) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        for size in sorted({size for size, _ in PICTURES}):
            page = screen_page(browser, size)
            # Under reduced motion the page draws each screen settled: a shot never catches a tile mid-glide.
            page.emulate_media(reduced_motion="reduce")
            walk_screens(page, url, functools.partial(_save, page, size, folder, written))
            page.context.close()
        browser.close()
    return written


def _save(page: Page, size: str, folder: Path, written: list[Path], screen: str) -> None:
    name = PICTURES.get((size, screen))
    if name is not None:
        # The screen as a person sees it, the viewport alone: the picture is the screen's size.
        page.screenshot(path=str(folder / name))
        written.append(folder / name)


if __name__ == "__main__":
    for path in make():
        print(path)
