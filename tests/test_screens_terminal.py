"""The terminal frontends at the width they are given, and the wording every frontend shares.

``sniff-rules play`` and ``replay`` lay prose out between words within their
width (:func:`sniff_rules.draw.narration.fit`); the options a seat may take
are listed by the library (:func:`sniff_rules.draw.text.options_text`), so a
terminal frontend writes no loop of its own; a finished match names no seat
"to move"; scores never run into seat numbers.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sniff_rules.cli.commands import MIN_COLUMNS
from sniff_rules.cli.simulate import lineup_for
from sniff_rules.cli.terminal_game import GameSettings, Session
from sniff_rules.draw.narration import Seating, fit, visible_length
from sniff_rules.draw.svg import svg
from sniff_rules.draw.text import move_text, options_text, text
from sniff_rules.errors import SniffError
from sniff_rules.moves import Place
from sniff_rules.play.bots import greedy_bot
from sniff_rules.play.driver import play_match
from sniff_rules.play.events import Event
from sniff_rules.play.view import SeatView, present_seat_view, seat_view
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match

ROOT = Path(__file__).resolve().parent.parent


def _session_output(players: int, width: int, typed: str = "1\n" * 400) -> str:
    rules = Rules(players, Rules.standard(players).hand_size, 60)
    bots = tuple("you" if seat == 0 else "greedy" for seat in range(players))
    out = io.StringIO()
    Session(GameSettings(rules, 0, bots, seed=3, width=width), io.StringIO(typed), out).run()
    return out.getvalue()


@pytest.mark.parametrize("width", [MIN_COLUMNS, 80, 120])
@pytest.mark.parametrize("players", [2, 4])
def test_every_line_of_the_terminal_game_fits_its_width(players: int, width: int) -> None:
    """At 4 players the status line ran past 120 columns and the terminal wrapped it mid-word."""
    lines = _session_output(players, width).splitlines()
    assert [] == [line for line in lines if visible_length(line) > width]


def test_the_status_line_is_broken_between_words() -> None:
    """The hand sizes, wrapped at 80 columns, read back word for word as one line."""
    lines = _session_output(4, 80).splitlines()
    start = next(number for number, line in enumerate(lines) if line.startswith("Round 1, your turn."))
    status = lines[start]
    for line in lines[start + 1 :]:
        if not line.startswith("  ") or line.startswith("  1."):
            break
        status += " " + line.strip()
    sizes = "you 7, seat 1 (greedy) 7, seat 2 (your partner, greedy) 7, seat 3 (greedy) 7"
    assert re.fullmatch(r"Round 1, your turn\. Boneyard \d+\. Tiles in hand: (.*)\.", status) is not None
    assert sizes.replace(" 7", " ?") == re.sub(r" \d+(?=,|$)", " ?", status.split("Tiles in hand: ")[1].rstrip("."))


def test_fit_never_breaks_a_word_that_fits_a_line() -> None:
    """Wrapping keeps every word whole and in order; only a word wider than a line is cut."""
    line = "Scores: you and seat 2: 105, seats 1 and 3: 95 (target 200) " * 4
    wrapped = fit([line], 30)
    assert all(len(part) <= 30 for part in wrapped)
    assert line.split() == " ".join(wrapped).split()
    assert ["x" * 10, "  " + "x" * 8, "  " + "x" * 2] == fit(["x" * 20], 10)


def test_scores_keep_apart_from_seat_numbers() -> None:
    """'you and seat 2 0' read as a seat number followed by a score; a colon now ends each name."""
    rules = Rules.standard(4)
    seating = Seating.of(rules, {1: "greedy", 2: "greedy", 3: "greedy"}, 0)
    assert "you and seat 2: 0, seats 1 and 3: 35" == seating.scores((0, 35))
    assert "seat 0: 10, seat 1 (greedy): 5" == Seating.of(Rules.standard(2), {1: "greedy"}).scores((10, 5))


@pytest.mark.parametrize("width", [MIN_COLUMNS, 80])
def test_replay_fits_its_width(width: int) -> None:
    """``replay --width`` lays a 4-player recorded match out within the width, pictures and prose."""
    done = subprocess.run(
        [sys.executable, "-m", "sniff_rules", "replay", "4p-01", "--width", str(width)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert 0 == done.returncode, done.stderr
    assert [] == [line for line in done.stdout.splitlines() if len(line) > width]


def _match(players: int, seed: int) -> tuple[State, tuple[Event, ...]]:
    state = new_match(Rules(players, Rules.standard(players).hand_size, 40), seed=seed)
    events: list[Event] = []
    for step in play_match(state, [greedy_bot] * players, SplitMix64.from_seed(seed), present=present_seat_view):
        state = step.state
        events += step.events
    return state, tuple(events)


def test_a_finished_match_names_no_seat_to_move() -> None:
    """After the match is won, text(view) and svg(view) still said a seat was 'to move'."""
    state, events = _match(2, 5)
    assert Phase.MATCH_OVER is state.phase
    view = seat_view(state, 0, events)
    assert "to move" not in text(view)
    assert "to move" not in svg(view)
    assert "to move" not in text(state)
    playing = new_match(Rules.standard(2), seed=20)
    assert "(to move)" in text(playing)


def _first_view(players: int, seed: int) -> SeatView:
    state = new_match(Rules.standard(players), seed=seed)
    steps = play_match(state, [greedy_bot] * players, SplitMix64.from_seed(seed), present=present_seat_view)
    events: list[Event] = []
    for step in steps:
        events += step.events
        if step.state.layout.placements and step.state.to_move == 0:
            return seat_view(step.state, 0, events)
    raise AssertionError("seat 0 never moved")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_options_are_listed_with_their_count_and_points(players: int) -> None:
    """options_text numbers every legal move from 1 in the order of view.options, each placement
    with the end count after it and its points."""
    view = _first_view(players, 7)
    lines = options_text(view).splitlines()
    assert len(view.options) == len(lines)
    for number, (line, option) in enumerate(zip(lines, view.options, strict=True), 1):
        expected = f"{number}. {move_text(option.move)}"
        assert expected == line[: len(expected)].lstrip()
        if type(option.move) is Place:
            figures = re.search(r"count +(\d+) +\+(\d+)$", line)
            assert figures is not None, line
            assert (option.end_count, option.points) == (int(figures[1]), int(figures[2]))


def test_the_options_fit_a_narrow_width_and_a_seat_not_to_move_gets_none() -> None:
    """At 24 columns each option still reads whole; a seat that is not to move has no options."""
    view = _first_view(4, 7)
    assert all(len(line) <= 24 for line in options_text(view, width=24).splitlines())
    state = new_match(Rules.standard(2), seed=20)
    from sniff_rules.play.events import Dealt

    assert "" == options_text(seat_view(state, 0, [Dealt.of(state)]))


def test_the_simulate_lineup_error_and_help_name_the_per_seat_form() -> None:
    """Four names are accepted when partners match: the help and the refusal both say so."""
    rules = Rules.standard(4)
    assert ("greedy", "random") == lineup_for(rules, ["greedy", "random", "greedy", "random"])
    with pytest.raises(SniffError) as refused:
        lineup_for(rules, ["greedy", "random", "random", "greedy"])
    assert "one per seat (4) with partners the same bot" in str(refused.value)
    shown = subprocess.run(
        [sys.executable, "-m", "sniff_rules", "simulate", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    ).stdout
    assert "one per seat with partners" in " ".join(shown.split())
