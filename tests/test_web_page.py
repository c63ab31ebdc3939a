"""The browser page's own defects, each shown on a real table's snapshot drawn by the served page in Chromium:
a drawn tile is one button of the hand (DRAW-2), a hidden screen shows nothing, the empty table is said once,
the scores and the winners are named as a player says them (SETUP-2, MATCH-1), and every target shows its
points before it is chosen (POINTS-1)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import browser_needs  # noqa: F401  (first: it skips this module without the browser or the extra)

# isort: split
from playwright import sync_api

from browser_support import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    EDGE_SIZES,
    WAIT_MS,
    layout_problems,
    screen_page,
    serving,
    shot_of,
)
from sniff_rules import Rules
from sniff_rules.formats.view_json import option_to_data
from sniff_rules.play.table import Table
from sniff_rules.state import Phase
from sniff_rules.web.app import default_layouter
from sniff_rules.web.seats import snapshot

TOKEN = "token-of-seat-0-abcdefghijk"
APP_JS = Path(__file__).resolve().parent.parent / "sniff_rules" / "web" / "static" / "app.js"


def played_until(done: Callable[[Table], bool], players: int = 4) -> Table:
    """The first table, over seeds 20.., where ``done`` holds: seat 0 a person playing its first legal move,
    every other seat a greedy bot."""
    for seed in range(20, 120):
        table = Table.new(
            Rules.standard(players), ("person",) + ("greedy",) * (players - 1), (TOKEN,), seed=seed, bot_seed=seed
        ).join(TOKEN)
        while not done(table):
            if table.phase is Phase.MATCH_OVER:
                break
            if table.bot_to_move:
                table = table.step_bot()
            elif table.phase is Phase.ROUND_OVER:
                table = table.deal_on(table.version, TOKEN)
            else:
                table = table.play(TOKEN, table.view(TOKEN).legal_moves[0], table.version)
        else:
            return table
    raise AssertionError("no seed reached the position")


def sent(table: Table) -> dict[str, Any]:
    """The snapshot the server sends seat 0, through JSON as it travels."""
    data: dict[str, Any] = json.loads(json.dumps(snapshot(table, TOKEN, default_layouter())))
    return data


@pytest.fixture(scope="module")
def page_of() -> Iterator[Callable[[str], Any]]:
    """A page of the served game at a named size, on a fresh context each call."""
    with serving() as url, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)

        def opened(size: str) -> Any:
            page = screen_page(browser, size)
            page.goto(url)
            page.wait_for_function("() => document.querySelectorAll('.bot-kind').length === 4", timeout=WAIT_MS)
            return page

        yield opened
        browser.close()


def drawn(page: Any, table: Table) -> dict[str, Any]:
    """``table``'s snapshot for seat 0, drawn by the page as if the server had sent it."""
    data = sent(table)
    page.evaluate("(snap) => render(snap)", data)
    return data


def test_a_drawn_tile_is_one_button_of_the_hand(page_of: Callable[[str], Any]) -> None:
    """DRAW-2: the hand already holds the tile just drawn; the page shows each tile of it once."""
    table = played_until(lambda table: table.to_move == 0 and table.view(TOKEN).drawn_tile is not None)
    page = page_of("desktop")
    data = drawn(page, table)
    assert data["view"]["drawn"] in data["view"]["hand"]
    shown = page.eval_on_selector_all("#hand .sniff-hand-tile", "(tiles) => tiles.map((t) => t.dataset.tile)")
    assert data["view"]["hand"] == shown


def test_a_hidden_screen_shows_nothing_at_setup_or_after_leaving(page_of: Callable[[str], Any]) -> None:
    """The setup screen shows no game area; after leaving a table its game area is gone, its buttons too."""
    page = page_of("phone")
    assert [False, True] == [page.is_visible("#game"), page.is_visible("#setup")]
    page.click("#start")
    page.locator("#board").wait_for(timeout=WAIT_MS)
    assert [True, False] == [page.is_visible("#game"), page.is_visible("#setup")]
    page.click("#new-match")
    assert [False, True, False] == [page.is_visible("#game"), page.is_visible("#setup"), page.is_visible("#next-round")]


def test_the_empty_table_is_said_once_by_the_picture(page_of: Callable[[str], Any]) -> None:
    """OPEN-3: at the lead the picture says the table is empty; the page adds no second sentence, and its status
    says what to do."""
    table = played_until(lambda table: table.to_move == 0 and not table.view(TOKEN).layout.placements)
    page = page_of("desktop")
    drawn(page, table)
    assert "empty" in page.inner_html("#layout")
    assert ["", False] == [page.inner_text("#count"), page.is_visible("#count")]
    assert "Your turn: you lead. Choose the tile to lead with." == page.inner_text("#status")


def test_the_scores_and_the_winners_are_named_as_a_player_says_them(page_of: Callable[[str], Any]) -> None:
    """SETUP-2 MATCH-1: at four players the sides are "you and seat 2" and "seats 1 and 3", never "Side 1 (seat
    1 and 3)"; the match's end says who won in a sentence, with every hand left."""
    table = played_until(lambda table: table.phase is Phase.MATCH_OVER)
    page = page_of("desktop")
    data = drawn(page, table)
    scores = data["view"]["scores"]
    winner = ["You and seat 2 win the match!", "Seats 1 and 3 win the match."][data["view"]["winner"]]
    assert winner == page.inner_text("#status")
    assert f"Scores: you and seat 2: {scores[0]}, seats 1 and 3: {scores[1]}" == page.inner_text("#scores-summary")
    plays_for = page.eval_on_selector_all("#scores tbody td:nth-child(3)", "(cells) => cells.map((c) => c.textContent)")
    assert ["you and seat 2", "seats 1 and 3", "you and seat 2", "seats 1 and 3"] == plays_for
    assert page.inner_text("#round-end-title").startswith(winner)
    hands = page.eval_on_selector_all("#revealed tbody td:nth-child(2)", "(cells) => cells.map((c) => c.textContent)")
    last = data["view"]["history"][-1]
    assert [" ".join(hand) or "none: out" for hand in last["hands"]] == hands


def test_the_page_builds_no_sentence_of_sides_by_number() -> None:
    """SETUP-2: no sentence of the page names a side by its number or a seat list in brackets."""
    source = APP_JS.read_text()
    assert [] == [phrase for phrase in ("Side ${", "side ${", "(seat ${", "the ${status") if phrase in source]


def test_the_page_writes_no_markup_from_strings() -> None:
    """The page builds its text with ``textContent`` alone and adopts the server's picture as a parsed SVG
    document, so no string it is sent ever goes through an HTML parser."""
    static = APP_JS.parent
    writers = ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "createContextualFragment")
    found = [(script.name, writer) for script in sorted(static.glob("*.js")) for writer in writers]
    assert [] == [(name, writer) for name, writer in found if writer in (static / name).read_text()]


def test_a_small_layout_is_not_blown_up_to_the_page_width(page_of: Callable[[str], Any]) -> None:
    """A layout of one tile is drawn at most four times its picture's own size, centred, not across the whole
    desktop page; a long layout still takes the width it needs."""
    table = played_until(lambda table: table.to_move == 0 and len(table.view(TOKEN).layout.placements) == 1)
    page = page_of("desktop")
    drawn(page, table)
    own, shown, box = page.eval_on_selector(
        "#layout svg",
        "(svg) => [svg.viewBox.baseVal.width, svg.getBoundingClientRect().width,"
        " svg.parentElement.getBoundingClientRect().width]",
    )
    assert 0 < shown <= own * 4 + 1 < box


def test_every_target_shows_its_points_before_it_is_chosen(page_of: Callable[[str], Any]) -> None:
    """POINTS-1: once a tile is chosen, each of its targets shows the points that placement scores, on the list
    of open points ("no points" too) and, where it scores, on the picture, from the options the snapshot carries."""
    table = played_until(
        lambda table: (
            table.to_move == 0
            and any(one["points"] and one["point"] for one in map(option_to_data, table.view(TOKEN).options))
        )
    )
    page = page_of("desktop")
    data = drawn(page, table)
    option = next(option for option in data["view"]["options"] if option["points"] and option["point"])
    page.click(f'#hand [data-tile="{option["tile"]}"]')
    options = [one for one in data["view"]["options"] if one["tile"] == option["tile"] and one["point"]]
    listed = page.eval_on_selector_all(
        "#open-points .sniff-point.target",
        "(marks) => marks.map((m) => [m.dataset.point, m.querySelector('.gain').textContent])",
    )
    pictured = page.eval_on_selector_all("#layout svg .sniff-gain", "(marks) => marks.map((m) => m.textContent)")
    assert [[one["point"], f"+{one['points']} points" if one["points"] else "no points"] for one in options] == listed
    assert [f"+{one['points']}" for one in options if one["points"]] == pictured


@pytest.mark.parametrize("size", list(EDGE_SIZES))
def test_the_ends_of_the_range_lay_out_a_turn_and_a_round_end(page_of: Callable[[str], Any], size: str) -> None:
    """At 360x640, a phone on its side and 1920x1080: a turn with a tile chosen and a settled round fit the
    screen, their boxes apart, every control a touch target on a touch screen."""
    turn = played_until(
        lambda table: (
            table.to_move == 0
            and len(table.view(TOKEN).layout.placements) > 3
            and any(one["kind"] == "place" for one in map(option_to_data, table.view(TOKEN).options))
        )
    )
    ended = played_until(lambda table: table.phase is Phase.ROUND_OVER)
    page = page_of(size)
    touch = EDGE_SIZES[size][2]
    data = drawn(page, turn)
    tile = next(one["tile"] for one in data["view"]["options"] if one["kind"] == "place")
    page.click(f'#hand [data-tile="{tile}"]')
    problems = {"turn": layout_problems(page, touch)}
    page.screenshot(path=str(ARTIFACTS / shot_of(size, "turn")), full_page=True)
    # Another table's round end: the page draws it as a fresh table, once it has left the first.
    page.evaluate("() => forget('left')")
    drawn(page, ended)
    problems["round-over"] = layout_problems(page, touch)
    page.screenshot(path=str(ARTIFACTS / shot_of(size, "round-over")), full_page=True)
    assert [True, True] == [page.is_visible("#round-end"), page.is_visible("#revealed")]
    assert {"turn": [], "round-over": []} == problems
