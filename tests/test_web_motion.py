"""Moves you can follow, in the distribution's Chromium: the tile just placed fades in under its highlight and
every tile that moves glides from its old place (GEOM-2: when the Sniff is played the picture re-centres on it);
under ``prefers-reduced-motion: reduce`` nothing is animated at all.

The page is watched from the moment each new picture replaces the old one (a mutation observer, which runs
before the browser paints): each tile's animations are held at their first frame and at their last to read
where the tile starts and where it comes to rest, then let run on.
"""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

import browser_needs  # noqa: F401  (first: it skips this module without the browser or the extra)
from browser_support import RECORDER, WAIT_MS, status
from keyboard_support import hand, keyboard_match, person_status, played_turn

MOTION_RECORDER = (
    RECORDER
    + """
window.__sniffMotion = { frames: [] };
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("layout");
  new MutationObserver(() => {
    const picture = box.querySelector("svg");
    if (!picture) return;
    const tiles = {};
    for (const tile of picture.querySelectorAll(".sniff-tile[data-tile]")) {
      const running = tile.getAnimations();
      const at = (time) => {
        for (const one of running) { one.pause(); one.currentTime = time(one); }
        const box = tile.getBoundingClientRect();
        return [box.x, box.y, box.width];
      };
      const first = at(() => 0);
      const rest = at((one) => one.effect.getComputedTiming().endTime);
      for (const one of running) { one.currentTime = 0; one.play(); }
      tiles[tile.getAttribute("data-tile")] = { first, rest, animated: running.length };
    }
    const sniff = picture.querySelector(".sniff-tile.sniff-sniff");
    window.__sniffMotion.frames.push({
      sniff: sniff ? sniff.getAttribute("data-tile") : null, all: document.getAnimations().length, tiles,
    });
  }).observe(box, { childList: true });
});
"""
)
"""The shared recorder, and for each new picture of the layout: its Sniff, every animation of the document
then, and for each tile where its first frame and its resting place are on the screen, and how many
animations it has."""

RESTING = """() => Object.fromEntries(Array.from(document.querySelectorAll('#layout svg .sniff-tile[data-tile]'),
  (tile) => {
    const box = tile.getBoundingClientRect();
    return [tile.getAttribute('data-tile'), [box.x, box.y, box.width]];
  }))"""
"""Where each tile of the picture is on the screen."""

NEAR_PX = 1.5
"""How far apart two places on the screen may be and still be one place: rounding of the picture's scale."""


def frames(page: Page) -> list[dict[str, Any]]:
    """Every picture recorded so far."""
    found: list[dict[str, Any]] = page.evaluate("window.__sniffMotion.frames")
    return found


def near(one: list[float], other: list[float]) -> bool:
    """Whether two boxes on the screen are in one place, at one size."""
    return all(abs(a - b) <= NEAR_PX for a, b in zip(one, other, strict=True))


def play_recentring(page: Page, rng: random.Random) -> tuple[dict[str, list[float]], dict[str, Any]] | None:
    """On the person's turn, before any Sniff, with a double in hand that may be played: the double played by
    keys; where each tile rested before, and the first picture drawn after. None on any other turn (played at
    random)."""
    tiles = hand(page)
    free = [tile for tile, ok in tiles if ok]
    doubles = [number for number, tile in enumerate(free) if tile[1] == tile[3]]
    sniffless = page.locator("#layout svg .sniff-tile").count() and not page.locator("#layout svg .sniff-sniff").count()
    if not (status(page) == "your-turn" and sniffless and doubles and doubles[0] < 9):
        played_turn(page, rng)
        return None
    # The old places are read once nothing moves: the last glide is over.
    page.wait_for_function("() => document.getAnimations().length === 0", timeout=WAIT_MS)
    resting: dict[str, list[float]] = page.evaluate(RESTING)
    drawn = len(frames(page))
    page.keyboard.press(str(doubles[0] + 1))
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.__sniffMotion.frames.length > {drawn}", timeout=WAIT_MS)
    return resting, frames(page)[drawn]


def test_a_tile_glides_from_its_old_place_when_the_picture_re_centres() -> None:
    """GEOM-2: when the person plays the Sniff the picture re-centres on it; each tile's first animated frame is
    where it rested before, and the tiles that moved glide to their new places."""
    rng = random.Random(11)
    errors: list[str] = []
    with keyboard_match(MOTION_RECORDER, 2400, errors) as page:
        found = None
        for _ in range(2000):
            if person_status(page) == "match-over":
                break
            found = play_recentring(page, rng)
            if found is not None and found[1]["sniff"] is not None:
                break
        drawn = frames(page)
    assert [] == errors
    assert found is not None
    resting, after = found
    assert after["sniff"] is not None
    kept = sorted(set(resting) & set(after["tiles"]))
    assert len(kept) >= 1
    assert [] == [tile for tile in kept if not near(resting[tile], after["tiles"][tile]["first"])]
    moved = [tile for tile in kept if not near(resting[tile], after["tiles"][tile]["rest"])]
    assert len(moved) >= 1
    assert [] == [tile for tile in moved if not after["tiles"][tile]["animated"]]
    # Every picture that adds a tile to the table shows it arriving.
    grown = [frame for earlier, frame in itertools.pairwise(drawn) if len(frame["tiles"]) > len(earlier["tiles"])]
    assert len(grown) > 3
    assert [] == [frame for frame in grown if not any(tile["animated"] for tile in frame["tiles"].values())]


def test_nothing_moves_under_reduced_motion() -> None:
    """Under prefers-reduced-motion: reduce, no picture of a round played by keys has a single animation on the
    page, and no tile a first frame apart from its resting place."""
    rng = random.Random(11)
    errors: list[str] = []
    with keyboard_match(MOTION_RECORDER, 2400, errors, reduced_motion="reduce") as page:
        for _ in range(2000):
            if person_status(page) != "your-turn":
                break
            play_recentring(page, rng)
        drawn = frames(page)
    assert [] == errors
    assert len(drawn) > 10
    assert [] == [frame["all"] for frame in drawn if frame["all"]]
    assert [] == [tile for frame in drawn for tile in frame["tiles"].values() if tile["animated"]]
