"""Text pictures (sniff_rules.draw.text): they fit the width, mark the Sniff and the open points, and keep secrets."""

from __future__ import annotations

from functools import cache
from itertools import islice

import pytest

from sniff_rules.draw.tally import paper_tally
from sniff_rules.draw.text import MIN_PICTURE_WIDTH, layout_text, tally_text, text
from sniff_rules.errors import InvalidStateError
from sniff_rules.layout import Layout
from sniff_rules.play.bots import random_bot
from sniff_rules.play.driver import play_match
from sniff_rules.play.events import Event
from sniff_rules.play.view import SeatView, present_seat_view, seat_view
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import State, new_match
from support import refusal

SEED_CHAIN = Layout.parse(
    "[1|4] [1|1]>[1|4].low [4|4]>[1|4].high [3|4]>[4|4].chain-b [1|2]>[1|1].chain-b"
    " [1|5]>[1|1].arm-a [5|5]>[1|5].high [0|5]>[5|5].chain-b [1|3]>[1|1].arm-b"
)
HEAVY = set("━┃┏┓┗┛┣┫┳┻╋")


@cache
def match_steps(players: int, seed: int) -> tuple[tuple[State, tuple[Event, ...]], ...]:
    """The states of the start of a match played by random bots, each with the events that led to it."""
    state = new_match(Rules.standard(players), seed=seed)
    bots = [random_bot] * players
    steps = play_match(state, bots, SplitMix64.from_seed(seed), present=present_seat_view)
    events: list[Event] = []
    found = []
    for step in islice(steps, 60):
        events += step.events
        found.append((step.state, tuple(events)))
    return tuple(found)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("width", [1, 20, 36, MIN_PICTURE_WIDTH, 40, 80, 120])
def test_every_line_fits_the_width(players: int, width: int) -> None:
    """Text: every line of a state's and of a seat's view's text fits the width, in box-drawing and in ASCII."""
    too_wide = []
    for state, events in match_steps(players, 3 + players):
        view = seat_view(state, 0, events)
        for subject in (state, view, state.layout):
            for plain in (False, True):
                too_wide += [line for line in text(subject, width=width, ascii=plain).splitlines() if len(line) > width]
    assert [] == too_wide


def test_ascii_pictures_are_plain_ascii() -> None:
    """Text: with ascii=True nothing but ASCII is written; without, box-drawing characters are."""
    state, _ = match_steps(4, 1)[-1]
    assert text(state, ascii=True).isascii()
    assert not text(state).isascii()


def test_the_sniff_alone_is_drawn_heavy() -> None:
    """Text: the Sniff's border is heavy, every other tile's light; ASCII draws it with #."""
    drawn = layout_text(SEED_CHAIN)
    before_sniff = layout_text(Layout.parse("[1|4] [4|6]>[1|4].high"))
    assert any(char in HEAVY for char in drawn)
    assert not any(char in HEAVY for char in before_sniff)
    assert "#" in layout_text(SEED_CHAIN, ascii=True)
    assert "#" not in layout_text(Layout.parse("[1|4] [4|6]>[1|4].high"), ascii=True)


def test_open_points_are_marked_and_listed() -> None:
    """Text: each counted free end shows its value in the picture; the end count and the open points are listed."""
    drawn = layout_text(Layout.parse("[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b"))
    picture = "\n".join(drawn.splitlines()[:-2])
    assert 2 == picture.count("(5)")
    assert ["(2)", "(3)"] == [mark for mark in ("(2)", "(3)") if mark in picture]
    assert "end count 2 + 3 + 5 + 5 = 15, 15 points; Sniff [5|5]" in drawn
    assert "open: [2|5].low (2), [3|5].low (3), [5|5].arm-a (5), [5|5].arm-b (5)" in drawn


def test_a_double_s_long_sides_are_empty_points() -> None:
    """Text: the open long sides of a lone double are empty markers, not counted values."""
    picture = "\n".join(layout_text(Layout.parse("[2|2]")).splitlines()[:-2])
    assert 2 == picture.count("( )")
    assert "(2)" not in picture


def test_the_picture_matches_the_seed_chain() -> None:
    """Text: the seed's chain, both arms covered, drawn in 80 columns."""
    expected = "\n".join(
        [
            "             (0)",
            "            ┌───┐",
            "            │ 0 │",
            "            │╌╌╌│",
            "            │ 5 │",
            "          ┌─┴───┴─┐",
            "          │ 5 ╎ 5 │",
            "          └─┬───┬─┘",
            "            │ 5 │",
            "            │╌╌╌│",
            "            │ 1 │",
            "            ┣━━━┫       ┌───┐",
            "    ┌───────┫ 1 ┣───────┤ 4 ├───────┐",
            " (2)│ 2 ╎ 1 ┃╍╍╍┃ 1 ╎ 4 │╌╌╌│ 4 ╎ 3 │",
            "    └───────┫ 1 ┣───────┤ 4 ├───────┘",
            "            ┣━━━┫       └───┘    (3)",
            "            │ 1 │",
            "            │╌╌╌│",
            "            │ 3 │",
            "            └───┘",
            "             (3)",
        ]
    )
    assert expected == "\n".join(layout_text(SEED_CHAIN).splitlines()[:-2])


def test_a_seat_view_shows_no_other_hand() -> None:
    """SETUP-6: a seat's view's text names no tile of another hand, only how many tiles it holds."""
    leaked = []
    for state, events in match_steps(3, 11):
        for seat in range(3):
            view: SeatView = seat_view(state, seat, events)
            drawn = text(view)
            if view.revealed_hands is None:
                others = [tile for other in range(3) if other != seat for tile in state.hand(other)]
                leaked += [str(tile) for tile in others if str(tile) in drawn]
                assert f"{len(state.hand((seat + 1) % 3))} face down" in drawn
    assert [] == leaked


def test_a_state_shows_every_hand_and_the_seat_to_move() -> None:
    """Text: a state's text lists each hand and marks the seat to move."""
    state = new_match(Rules.standard(2), seed=20)
    drawn = text(state)
    assert all(str(tile) in drawn for hand in state.hands for tile in hand)
    assert f"seat {state.to_move} (to move):" in drawn


@pytest.mark.parametrize("score", [0, 5, 45, 50, 135, -65, 250])
def test_the_tally_is_drawn_as_symbols_and_strokes(score: int) -> None:
    """TALLY-1: a 50-point symbol per 50 points (a large X with a small x in each field), then a stroke per 5."""
    tally = paper_tally(score)
    drawn = tally_text(score, ascii=True).splitlines()
    assert (3 if score else 0) == len(drawn)
    if score:
        assert tally.fifty_symbols == drawn[1].count("xXx")
        assert tally.strokes == drawn[1].count("|")
        assert tally.negative == drawn[1].startswith("-")
        assert tally.fifty_symbols == tally_text(score).count("\u2573")


def test_the_tally_of_a_score_no_multiple_of_five_is_refused() -> None:
    """TALLY-1: only a multiple of 5 has a tally."""
    refusal(InvalidStateError, "TALLY-1", lambda: tally_text(12))


@pytest.mark.parametrize("width", [0, -1, True, 2.0])
def test_a_width_that_is_not_a_positive_int_is_refused(width: object) -> None:
    """FORMAT-3: the width is an int of columns."""
    refusal(InvalidStateError, "FORMAT-3", lambda: layout_text(Layout.EMPTY, width=width))  # type: ignore[arg-type]


def test_text_refuses_what_it_cannot_draw() -> None:
    """FORMAT-3: text draws a Layout, a State or a SeatView."""
    refusal(InvalidStateError, "FORMAT-3", lambda: text("[1|4]"))  # type: ignore[arg-type]
