"""One registry of the fair bots: the names the command line, the browser game and its page offer and read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sniff_rules.cli.simulate import lineup_for
from sniff_rules.cli.terminal_game import bots_for_seats
from sniff_rules.play.bots import greedy_bot, random_bot
from sniff_rules.play.ismcts import ISMCTSBot
from sniff_rules.play.registry import (
    BOT_CHOICES,
    BOT_NAMES,
    MAX_DEALS,
    MAX_ITERATIONS,
    BotName,
    BotNameError,
    bot_label,
    bot_policy,
    parse_bot,
)
from sniff_rules.play.search import SearchBot
from sniff_rules.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "sniff_rules" / "web" / "static"
UNKNOWN = [
    "cheater",
    "ismcts:0",
    f"ismcts:{MAX_ITERATIONS + 1}",
    "search:0",
    f"search:{MAX_DEALS + 1}",
    "search:-3",
    "search:\u0664",
    "greedy:2",
    "",
    "Greedy",
]


def test_every_name_builds_the_bot_it_names() -> None:
    """FORMAT-1: random and greedy are the view bots themselves, search and search:N search bots of their deals."""
    assert (random_bot, greedy_bot, SearchBot(), SearchBot(deals=8)) == tuple(
        bot_policy(name) for name in ("random", "greedy", "search", " search:8 ")
    )
    assert BotName("search", 8) == parse_bot("search:8")
    assert ("search:8", "Search bot (8 deals)", "Search bot (1 deal)") == (
        str(parse_bot("search:8")),
        bot_label("search:8"),
        bot_label("search:1"),
    )
    assert tuple(choice.name for choice in BOT_CHOICES) == BOT_NAMES


def test_ismcts_names_build_the_ismcts_bot_of_their_iterations() -> None:
    """FORMAT-1: ismcts is the ISMCTS bot of its default iterations, ismcts:N one of N iterations."""
    assert (ISMCTSBot(), ISMCTSBot(iterations=50)) == (bot_policy("ismcts"), bot_policy("ismcts:50"))
    assert (BotName("ismcts", iterations=50), "ismcts:50", "ISMCTS bot (1 iteration)") == (
        parse_bot("ismcts:50"),
        str(parse_bot("ismcts:50")),
        bot_label("ismcts:1"),
    )


@pytest.mark.parametrize("name", UNKNOWN)
def test_an_unknown_name_is_refused_alike_by_every_user(name: str) -> None:
    """FORMAT-1: the registry, simulate's lineup, play's seats and the browser game refuse a name with one error."""
    with pytest.raises(BotNameError) as by_registry:
        parse_bot(name)
    with pytest.raises(BotNameError) as by_simulate:
        lineup_for(Rules.standard(2), [name])
    with pytest.raises(BotNameError) as by_play:
        bots_for_seats(2, 0, [name])
    assert ["FORMAT-1"] * 3 == [by_registry.value.rule, by_simulate.value.rule, by_play.value.rule]
    assert str(by_registry.value) == str(by_simulate.value)
    web = pytest.importorskip("sniff_rules.web.seats")
    with pytest.raises(web.WebError) as by_web:
        web.check_kinds(("person", name))
    assert (400, "FORMAT-1", BotNameError) == (by_web.value.status, by_web.value.rule, type(by_web.value.__cause__))


def test_a_bot_name_is_text() -> None:
    """FORMAT-1: a name that is not text is refused as the registry refuses any other."""
    with pytest.raises(BotNameError):
        parse_bot(3)  # type: ignore[arg-type]


def test_every_name_offered_is_read_by_every_user() -> None:
    """Each name of the registry is a lineup, a seat's bot at the terminal and a browser table's bot."""
    web = pytest.importorskip("sniff_rules.web.seats")
    for name in (*BOT_NAMES, "search:3"):
        assert (name, name) == lineup_for(Rules.standard(2), [name])
        assert ("you", name) == bots_for_seats(2, 0, [name])
    for name in BOT_NAMES:
        kinds = web.check_kinds(("person", name))
        table = web.Table.new(Rules.standard(2), kinds, ("token-of-seat-0-abcdef",), seed=1, bot_seed=1)
        assert bot_label(name) == web.snapshot(table, "token-of-seat-0-abcdef")["players"][1]["name"]


@pytest.mark.parametrize("name", ["search:3", "search:10000"])
def test_a_browser_table_seats_only_the_bots_its_page_offers(name: str) -> None:
    """FORMAT-1: a visitor's search:N is refused, so no request makes every decision of a table a long search."""
    web = pytest.importorskip("sniff_rules.web.seats")
    with pytest.raises(web.WebError) as refused:
        web.check_kinds(("person", name))
    assert (400, "FORMAT-1") == (refused.value.status, refused.value.rule)
    assert "random, greedy, search" in str(refused.value)


def _help(command: str) -> str:
    return subprocess.run(
        [sys.executable, "-m", "sniff_rules", command, "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,  # a hang guard: a busy machine may be slow, only a hang is this slow
        check=True,
    ).stdout


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_the_command_line_offers_the_registrys_names(command: str) -> None:
    """The --bots help of play and simulate lists every name of the registry, search:N too."""
    flat = " ".join(_help(command).split())
    assert [True] * (len(BOT_NAMES) + 1) == [f"{name}," in flat or f"{name} " in flat for name in BOT_NAMES] + [
        "search:N" in flat
    ]


def test_the_page_offers_what_the_server_lists_and_holds_no_list_of_its_own() -> None:
    """GET /api/bots is the registry's list with its labels; the page's script names no bot."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    from sniff_rules.web.app import create_app

    with TestClient(create_app(allowed_hosts=["testserver"])) as client:
        answer = client.get("/api/bots")
    assert 200 == answer.status_code
    offered = answer.json()
    assert [{"name": choice.name, "label": choice.label} for choice in BOT_CHOICES] == offered["bots"]
    assert offered["default"] in BOT_NAMES
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    named = [text for choice in BOT_CHOICES for text in (f'"{choice.name}"', choice.label) if text in script]
    assert [] == named


# ---------------------------------------------------------------- bots the operator offers


def test_an_operator_offers_a_bot_process_by_a_name_of_its_own() -> None:
    """FORMAT-1: NAME=COMMAND is an offer; the name joins the choices after the fair bots, and the command stays
    the server's."""
    from sniff_rules.play.registry import BotOffer

    offer = BotOffer.of(["strong=./my-bot --level 3", "node-bot = node bot.mjs"])
    expected = (["random", "greedy", "search", "ismcts", "strong", "node-bot"], ("node", "bot.mjs"), None)
    assert expected == ([c.name for c in offer.choices], offer.command_of(" node-bot "), offer.command_of("search:4"))
    assert ("strong (bot process)", "Greedy bot") == (offer.label("strong"), offer.label("greedy"))


@pytest.mark.parametrize(
    "offer",
    [
        "greedy=./x",
        "search=./x",
        "cmd=./x",
        "person=./x",
        "=./x",
        "strong=",
        "strong",
        "Strong=./x",
        "a b=./x",
        "strong=./x 'unclosed",
        "x" * 33 + "=./x",
    ],
)
def test_an_offer_that_names_no_bot_or_shadows_a_fair_one_is_refused(offer: str) -> None:
    """FORMAT-1: an offer without a name of its own, with a fair bot's or a reserved name, or without a command
    is refused."""
    from sniff_rules.play.registry import parse_offer

    with pytest.raises(BotNameError) as refused:
        parse_offer(offer)
    assert "FORMAT-1" == refused.value.rule


def test_a_page_names_an_offered_bot_never_a_command() -> None:
    """FORMAT-1: among the offered names a page may send, cmd:COMMAND and unknown names are refused; the same
    name offered twice is refused when the offer is made."""
    from sniff_rules.play.registry import BotOffer

    offer = BotOffer.of(["strong=./my-bot"])
    for sent in ("cmd:./my-bot", "cmd:rm -rf /", "./my-bot", "strong=./other", "weak", 7):
        with pytest.raises(BotNameError) as refused:
            offer.parse(sent)  # type: ignore[arg-type]
        assert "FORMAT-1" == refused.value.rule
    with pytest.raises(BotNameError):
        BotOffer.of(["strong=./a", "strong=./b"])
    with pytest.raises(BotNameError):
        BotOffer.of("strong=./a")
