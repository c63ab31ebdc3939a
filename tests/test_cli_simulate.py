"""sniff-rules simulate: matches from seeds, win rates with Wilson intervals, identical over processes and Ray."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from sniff_rules.cli.progress import Progress
from sniff_rules.cli.simulate import Simulation, SimulationError, lineup_for, outcomes, run, summarize, wilson
from sniff_rules.cli.simulate_ray import RayMissingError
from sniff_rules.play.bots import greedy_bot, random_bot
from sniff_rules.play.driver import play_match
from sniff_rules.play.registry import BotNameError
from sniff_rules.play.view import present_seat_view
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import new_match
from sniff_rules.verify.vectors.recorded_play import POLICY_SEED_OFFSET

ROOT = Path(__file__).resolve().parent.parent


def _simulate(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sniff_rules", "simulate", "--target", "60", *options],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
        check=False,
    )


def test_each_match_is_the_one_its_seed_deals() -> None:
    """Match i is dealt by seed + i, its bots draw from seed + i + the policy offset; the lineup turns each match."""
    rules = Rules(3, 6, 60)
    simulation = Simulation(rules, ("greedy", "random", "random"), seed=40, matches=6)
    for outcome in run(simulation).outcomes:
        seed = 40 + outcome.index
        bots = [greedy_bot if (seat + outcome.index) % 3 == 0 else random_bot for seat in range(3)]
        state = new_match(rules, seed=seed)
        for step in play_match(state, bots, SplitMix64.from_seed(seed + POLICY_SEED_OFFSET), present=present_seat_view):
            state = step.state
        assert state.winner is not None
        assert (seed, (state.winner + outcome.index) % 3, state.round_number) == (
            outcome.seed,
            outcome.winner,
            outcome.rounds,
        )


def test_the_lineup_turns_round_the_seats() -> None:
    """Entry (s + i) % sides plays side s in match i, so every entry plays every seat equally often."""
    simulation = Simulation(Rules(3, 6, 60), ("greedy", "random", "random"), matches=3)
    assert [[0, 1, 2], [1, 2, 0], [2, 0, 1]] == [
        [simulation.entry_of_side(index, side) for side in range(3)] for index in range(3)
    ]


def test_wilson_interval_matches_the_textbook_value() -> None:
    """Wilson's 95% interval for 8 of 10 is 0.490 to 0.943 (Newcombe 1998), and stays within 0..1."""
    assert (0.490, 0.943) == tuple(round(bound, 3) for bound in wilson(8, 10))
    assert (0.0, 0.161) == tuple(round(bound, 3) for bound in wilson(0, 20))
    assert (0.0, 1.0) == wilson(0, 0)


def test_rows_count_the_wins_and_points_of_each_entry() -> None:
    """The summary's rows add every outcome's win to its entry, and points per round are scores over rounds."""
    simulation = Simulation(Rules(2, 7, 60), ("greedy", "random"), seed=3, matches=10)
    summary = run(simulation)
    outcomes = summary.outcomes
    rounds = sum(outcome.rounds for outcome in outcomes)
    assert [sum(outcome.winner == entry for outcome in outcomes) for entry in range(2)] == [
        row.wins for row in summary.rows
    ]
    assert [sum(outcome.scores[entry] for outcome in outcomes) / rounds for entry in range(2)] == [
        row.points_per_round for row in summary.rows
    ]
    assert rounds / 10 == summary.mean_rounds
    assert summary == summarize(simulation, outcomes)


def test_a_lineup_names_one_bot_for_all_or_one_per_side() -> None:
    """One name for all, one per side, or at four players one per seat with partners alike; otherwise refused."""
    assert ("greedy",) * 3 == lineup_for(Rules.standard(3), ["greedy"])
    assert ("greedy", "random") == lineup_for(Rules.standard(4), ["greedy", "random", "greedy", "random"])
    with pytest.raises(SimulationError, match="one per side"):
        lineup_for(Rules.standard(3), ["greedy", "random"])
    with pytest.raises(BotNameError, match="no bot"):
        lineup_for(Rules.standard(2), ["greedy", "search:0"])


def test_the_command_prints_the_table() -> None:
    """simulate prints a row per bot with its wins, rate and interval, and times the run on stderr."""
    done = _simulate("--players", "2", "--matches", "12", "--bots", "greedy,random", "--seed", "3")
    summary = run(Simulation(Rules(2, 7, 60), ("greedy", "random"), seed=3, matches=12))
    rows = [line for line in done.stdout.splitlines() if line[:2] in ("1.", "2.")]
    assert 0 == done.returncode
    assert [f"{row.wins}/12" for row in summary.rows] == [row.split()[2] for row in rows]
    assert "12 matches in" in done.stderr


def test_the_json_holds_the_rows_and_every_outcome() -> None:
    """--json writes the rows and each match's seed, winner, rounds and scores."""
    done = _simulate("--players", "4", "--matches", "6", "--bots", "random", "--json")
    data = json.loads(done.stdout)
    summary = run(Simulation(Rules(4, 5, 60), ("random", "random"), seed=1, matches=6))
    assert "sniff-rules/simulation@1" == data["format"]
    assert [row.wins for row in summary.rows] == [row["wins"] for row in data["rows"]]
    assert [[o.seed, o.winner, o.rounds, list(o.scores)] for o in summary.outcomes] == [
        [o["seed"], o["winner"], o["rounds"], o["scores"]] for o in data["outcomes"]
    ]


def test_two_workers_give_the_same_output_as_one_process() -> None:
    """--workers 2 gives output identical to one process, seed by seed."""
    options = ("--players", "3", "--matches", "40", "--bots", "greedy,random,random", "--json")
    one = _simulate(*options)
    two = _simulate(*options, "--workers", "2")
    assert (0, 0) == (one.returncode, two.returncode)
    assert one.stdout == two.stdout
    assert "over 2 processes" in two.stderr


def test_ray_gives_the_same_output_as_one_process() -> None:
    """--ray local (a Ray instance started for the run) gives output identical to one process."""
    pytest.importorskip("ray", reason="the [ray] extra is not installed")
    options = ("--players", "2", "--matches", "16", "--bots", "greedy,random", "--json")
    one = _simulate(*options)
    on_ray = _simulate(*options, "--ray", "local", "--workers", "2")
    assert 0 == on_ray.returncode, on_ray.stderr
    assert one.stdout == on_ray.stdout


def test_bad_arguments_are_refused_with_a_message() -> None:
    """A lineup of the wrong length or an unknown bot ends the command with status 2 and a message, no traceback."""
    done = _simulate("--players", "3", "--bots", "greedy,random")
    assert (2, "") == (done.returncode, done.stdout)
    assert "one per side (3)" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_plain_progress_counts_the_matches() -> None:
    """Without tqdm, progress is a count rewritten in place, and wiped when done."""
    stream = io.StringIO()
    progress = Progress(10, stream, plain=True)
    progress.advance(3)
    progress.advance(7)
    progress.close()
    assert ["", "3/10 matches played", "10/10 matches played", " " * 21, ""] == stream.getvalue().split("\r")


def test_with_the_cli_extra_progress_is_a_tqdm_bar() -> None:
    """With tqdm installed (the [cli] extra) the progress is its bar, counting the matches."""
    pytest.importorskip("tqdm", reason="the [cli] extra is not installed")
    stream = io.StringIO()
    progress = Progress(10, stream)
    progress.advance(10)
    progress.close()
    assert "/10 [" in stream.getvalue()
    assert "matches played" not in stream.getvalue()


def test_a_ray_address_nothing_answers_on_is_refused_at_once() -> None:
    """--ray HOST:PORT where nothing listens ends with a message and status 2, not Ray's minutes of retries."""
    pytest.importorskip("ray", reason="the [ray] extra is not installed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    done = _simulate("--players", "2", "--matches", "2", "--ray", f"127.0.0.1:{closed_port}")
    # The message is written only by the probe made before Ray is started, so it shows that Ray's retries
    # never began; no clock is asked, so a busy machine cannot fail this (300 s is only a hang guard).
    assert (2, True) == (done.returncode, "nothing answers there" in done.stderr)


def test_without_ray_the_message_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """With Ray not importable, --ray fails with a message naming the [ray] extra, before any match is played."""
    monkeypatch.setitem(sys.modules, "ray", None)
    simulation = Simulation(Rules(2, 7, 60), ("greedy", "random"), matches=2)
    with pytest.raises(RayMissingError, match=r"pip install 'sniff-rules\[ray\]'"):
        list(outcomes(simulation, ray_address="local"))


def test_the_command_line_imports_no_optional_package() -> None:
    """Importing the command line, the simulation and the session loads neither Ray nor tqdm."""
    probe = (
        "import sys, sniff_rules.cli.commands, sniff_rules.cli.simulate\n"
        "import sniff_rules.cli.terminal_game, sniff_rules.cli.replay\n"
        "print(sorted(name for name in ('ray', 'tqdm') if name in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    assert "[]" == done.stdout.strip()


def test_the_benchmark_times_the_commands_own_outcomes() -> None:
    """benchmarks/simulate.py times outcomes() itself: the outcomes it times are the command's."""
    from benchmarks.simulate import timed

    simulation = Simulation(Rules(2, 7, 60), ("greedy", "random"), seed=9, matches=4)
    rate, played = timed(simulation, 1)
    assert list(run(simulation).outcomes) == played
    assert rate > 0


@pytest.mark.parametrize("width", [3, 11, 12, 40, 200])
def test_the_table_keeps_its_columns_aligned_whatever_the_bots_names(width: int) -> None:
    """simulate's table: with a bot's name of any width (a cmd: bot's is its command), every row's counts, rates,
    intervals and points end under their headings, and each name is shown whole."""
    import attrs

    from sniff_rules.cli.simulate import table

    summary = run(Simulation(Rules(2, 7, 60), ("greedy", "random"), seed=3, matches=4))
    names = ("cmd:" + "x" * (width - 4) if width > 4 else "rnd"[:width], "greedy")
    renamed = attrs.evolve(
        summary, rows=tuple(attrs.evolve(r, bot=n) for r, n in zip(summary.rows, names, strict=True))
    )
    head, *rows = table(renamed).splitlines()[1:4]
    titles = ("won", "rate", "95% interval", "points/round")
    # Numbers end under their headings; the interval starts under its own.
    expected = [head.index(title) + (0 if title == "95% interval" else len(title)) for title in titles]
    for row, name in zip(rows, names, strict=True):
        assert row.startswith(f"{rows.index(row) + 1}. {name} ")
        won, rate, low, _, high, points = row[len(f"1. {name}") :].split()
        found, at = [], len(f"1. {name}")
        for cell in (won, rate, f"{low} - {high}", points):
            at = row.index(cell, at)
            found.append(at if cell.startswith(low) and " - " in cell else at + len(cell))
            at += len(cell)
        assert expected == found


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        ("crash", "PROTO-5: choose #1: the process ended without an answer (exit status 3)"),
        ("not-offered", "PLACE-1: choose #1: the bot of seat 1 answered '1:[0|0]', not among its options"),
    ],
)
def test_a_cmd_bot_failing_inside_a_ray_task_stops_the_run_by_its_rule(fault: str, said: str) -> None:
    """PROTO-5, PLACE-1: a cmd: bot that fails in a Ray task stops simulate with status 2 and the line naming its
    request and rule, the same line local workers print, not a traceback of Ray's."""
    pytest.importorskip("ray", reason="the [ray] extra is not installed")
    bot = f"cmd:{sys.executable} {ROOT / 'tests' / 'protocol' / 'bot_with.py'} {fault}"
    options = ("--players", "2", "--matches", "2", "--seed", "3", "--bots", f"greedy,{bot}", "--workers", "2")
    local, on_ray = _simulate(*options), _simulate(*options, "--ray", "local")
    expected = f"sniff-rules simulate: {said}"
    assert (2, 2) == (local.returncode, on_ray.returncode), on_ray.stderr[-2000:]
    assert [expected, expected] == [done.stderr.strip().splitlines()[-1] for done in (local, on_ray)]
    assert "Traceback" not in on_ray.stderr
