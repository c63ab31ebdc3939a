"""The browser game by keyboard and by screen reader, in the distribution's Chromium (TURN-1, PLACE-1, DRAW-1,
SETTLE-1, MATCH-1): a whole match played with the keyboard alone, no move taking more than three key presses, the
focus kept where the player was across every redrawing, and every move and score change told in words in the
page's live region.

The match is played once (a module fixture) and the tests read what it recorded. Which tile and which target each
move takes is drawn from a seeded generator, so the tiles chosen by number, by the arrows and by Enter all occur.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import browser_needs  # noqa: F401  (first: it skips this module without the browser or the extra)
from browser_support import RECORDER, WAIT_MS, status
from keyboard_support import FOCUS, hand, keyboard_match, person_status, played_turn
from sniff_rules.formats.record_json import record_from_data
from sniff_rules.play.events import Dealt, Drew, MatchWon, Passed, Placed, RoundEnded

KEYS_RECORDER = (
    RECORDER
    + """
window.__sniffKeys = { focus: [], spoken: [] };
document.addEventListener("sniff:shown", (e) => window.__sniffKeys.focus.push([e.detail.status, (FOCUS)()]));
new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes) {
    if (node.nodeName === "P" && node.parentElement && node.parentElement.id === "spoken") {
      window.__sniffKeys.spoken.push(node.textContent);
    }
  }
}).observe(document, { childList: true, subtree: true });
""".replace("FOCUS", FOCUS)
)
"""The shared recorder, and beside it where the focus is after each snapshot is drawn and every sentence added
to the live region, as it is added (the region itself keeps only the last few)."""

CONTROLS = ("tile:", "point:", "#hand", "#draw", "#pass", "#next-round", "#download-record")


@attrs.frozen
class Played:
    """What the keyboard match recorded."""

    presses: tuple[tuple[str, tuple[str, ...]], ...]
    """Each move's or deal's kind and the keys pressed for it."""
    focus_after_bots: tuple[tuple[str, str], ...]
    """At each of the person's turns after a placement: the tile expected to hold the focus, and what did."""
    focus: tuple[tuple[str, str], ...]
    """After each snapshot drawn: the status, and what had the focus."""
    spoken: tuple[str, ...]
    """Every sentence of the live region, in order."""
    events: tuple[Any, ...]
    """Every event of the match, from its record."""


def nearest(tiles: list[tuple[str, bool]], index: int) -> str:
    """The playable tile nearest ``index`` in the hand, the first of two as near."""
    free = [(abs(at - index), at, tile) for at, (tile, ok) in enumerate(tiles) if ok]
    return "tile:" + min(free)[2]


@pytest.fixture(scope="module")
def played() -> Played:
    """A two-player match, the person against a bot, played to its end with the keyboard alone."""
    rng = random.Random(24)
    errors: list[str] = []
    with keyboard_match(KEYS_RECORDER, 2400, errors) as page:
        presses: list[tuple[str, tuple[str, ...]]] = []
        after_bots: list[tuple[str, str]] = []
        placed_at: int | None = None
        for _ in range(2000):
            if "match-over" == person_status(page):
                break
            tiles = hand(page)
            if placed_at is not None and status(page) == "your-turn" and any(ok for _, ok in tiles):
                after_bots.append((nearest(tiles, placed_at), page.evaluate(FOCUS)))
            kind, keys, index = played_turn(page, rng)
            placed_at = index if kind == "placed" else None
            presses.append((kind, tuple(keys)))
        else:
            raise AssertionError("the match did not end")
        record = page.evaluate(
            """async () => {
              const seat = JSON.parse(sessionStorage.getItem("sniff-seat"));
              const headers = { "x-sniff-table": seat.table, "x-sniff-token": seat.token };
              const answer = await fetch("/api/record", { headers });
              return answer.json();
            }"""
        )
        recorded: dict[str, list[Any]] = page.evaluate("window.__sniffKeys")
    assert [] == errors
    return Played(
        tuple(presses),
        tuple(after_bots),
        tuple((str(what), str(where)) for what, where in recorded["focus"]),
        tuple(str(text) for text in recorded["spoken"]),
        tuple(record_from_data(record).events()),
    )


def test_no_move_takes_more_than_three_key_presses(played: Played) -> None:
    """A whole match by keyboard: every move is one to three key presses, by number, arrow and Enter alike."""
    moves = [(kind, keys) for kind, keys in played.presses if kind != "next"]
    assert len(moves) > 10
    assert [] == [(kind, keys) for kind, keys in played.presses if not 1 <= len(keys) <= 3]
    used = {key for _, keys in moves for key in keys}
    assert {"Enter", "ArrowRight", "1"} <= used
    assert {"placed", "next"} <= {kind for kind, _ in played.presses}


def test_the_focus_stays_where_the_player_was_across_every_update(played: Played) -> None:
    """Once the match has begun the focus is never lost to the page: after every snapshot (the person's moves and
    the bot's) it is on a tile, a target, the hand or the one button the turn allows."""
    lost = [(what, where) for what, where in played.focus if not where.startswith(CONTROLS)]
    assert [] == lost
    # While the bot plays no tile may be chosen: the hand itself holds the focus.
    assert {"#hand"} == {where for what, where in played.focus if what == "bot-turn"}


def test_the_focus_comes_back_to_the_nearest_tile_after_the_bots_move(played: Played) -> None:
    """After the person places a tile and the bot's moves arrive, the focus is on the playable tile nearest
    where the placed one was in the hand."""
    assert len(played.focus_after_bots) > 5
    assert [expected for expected, _ in played.focus_after_bots] == [actual for _, actual in played.focus_after_bots]


def kinds_told(events: tuple[Any, ...]) -> list[str]:
    """What the live region tells for these events: each deal, move, round end and win, and each score change."""
    told: list[str] = []
    scores: tuple[int, ...] | None = None
    for event in events:
        if type(event) is Dealt:
            told.append("deal")
            scores = event.scores
        elif type(event) in (Placed, Drew, Passed):
            told.append("move")
            if type(event) is Placed and event.scores != scores:
                told.append("score")
                scores = event.scores
        elif type(event) is RoundEnded:
            told.append("end")
            if event.scores_after != scores:
                told.append("score")
                scores = event.scores_after
        elif type(event) is MatchWon:
            told.append("won")
    return told


def kind_of(sentence: str) -> str:
    """Which kind of sentence the live region said."""
    if sentence.startswith("Scores: "):
        return "score"
    if " dealt, " in sentence:
        return "deal"
    if "went out: round" in sentence or " is blocked." in sentence:
        return "end"
    if "win the match" in sentence:
        return "won"
    return "move"


def test_every_move_and_score_change_is_told_once_in_words(played: Played) -> None:
    """The live region says one sentence per move (the person's and the bot's) and one per score change, in
    the match's order, in words: no tile or point notation, no markup."""
    assert kinds_told(played.events) == [kind_of(sentence) for sentence in played.spoken]
    assert [] == [sentence for sentence in played.spoken if set(sentence) & set("[]|<>&") or not sentence.strip()]
    moves = [sentence for sentence in played.spoken if kind_of(sentence) == "move"]
    assert [] == [sentence for sentence in moves if not sentence.startswith(("You ", "Seat 1, "))]
    assert any(" played " in sentence and " on the " in sentence for sentence in moves)


def test_the_hand_comes_before_the_open_points_in_tab_order() -> None:
    """Tab from the top of the page reaches the hand (one stop for all its tiles) before any open point, and
    the open points are reached from the hand, by Enter on a tile."""
    errors: list[str] = []
    with keyboard_match(KEYS_RECORDER, 2600, errors) as page:
        rng = random.Random(5)
        # Play until the layout has open points and it is the person's turn to place a tile.
        for _ in range(200):
            page.wait_for_function("() => document.body.dataset.status === 'your-turn'", timeout=WAIT_MS)
            if page.locator("#open-points .sniff-point").count() and not page.is_visible("#draw"):
                break
            played_turn(page, rng)
        # A click on the heading starts the Tab sequence at the top of the page.
        page.click("header h1")
        order = []
        for _ in range(40):
            page.keyboard.press("Tab")
            order.append(page.evaluate(FOCUS))
            if order[-1] == "#new-match":
                break
        page.keyboard.press("Shift+Tab")
        tiles = [where for where in order if where.startswith("tile:")]
        first_tile = order.index(tiles[0])
        for _ in range(len(order)):
            if page.evaluate(FOCUS).startswith("tile:"):
                break
            page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")
        chosen = page.evaluate(FOCUS)
        # The focus ring, the chosen tile's marking and a target's marking, as the browser draws them.
        rings: list[str | None] = page.evaluate(
            """() => [document.activeElement, document.querySelector('#hand .selected'),
                document.querySelector('#open-points .target:not(:focus)')].map(
                (element) => element && getComputedStyle(element).outlineColor)"""
        )
    assert [] == errors
    assert 1 == len(tiles)
    assert [] == [where for where in order[:first_tile] if where.startswith("point:")]
    assert [] == [where for where in order if where.startswith("point:")]
    assert chosen.startswith("point:")
    focused, selected, target = rings
    assert selected is not None
    assert focused not in (selected, target)
