"""Win rates of the fair bots against each other, with 95% intervals, and the search bot's speed.

Run from the repository root (the figures are in docs/guides/views.md)::

    python3 -m benchmarks.bots --part greedy                   # greedy against random, 2-4 players
    python3 -m benchmarks.bots --part search --players 4       # search against greedy
    python3 -m benchmarks.bots --workers 2 --greedy-matches 1000 --search-matches 200

Every match is a standard match (``Rules.standard``) dealt by its own seed
and played by :func:`sniff_rules.play.driver.play_match`, each seat handed its
view (``present_seat_view``). One side is the bot measured, every other
side the baseline; the measured side turns with the match's index, so each
side plays it equally often. A match is won when the measured side wins;
an even result is one win in as many matches as there are sides. The
interval is Wilson's score interval at 95%. For the search bot, each turn
with more than one legal move plays ``deals`` times the moves playouts; the
figures are those playouts per second of the bot's own time, and its mean
and longest time a move. Matches are spread over ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sniff_rules.cli.simulate import wilson
from sniff_rules.moves import Move
from sniff_rules.play.bots import greedy_bot, random_bot
from sniff_rules.play.driver import play_match
from sniff_rules.play.search import SearchBot
from sniff_rules.play.view import SeatView, present_seat_view
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import new_match


class _Timed:
    """A search bot that counts its playouts and its time."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.playouts = 0
        self.seconds = 0.0
        self.longest = 0.0
        self.turns = 0

    def __call__(self, view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
        start = time.perf_counter()
        answer = self.bot(view, source)
        spent = time.perf_counter() - start
        moves = len(view.options)
        self.playouts += self.bot.deals * moves if moves > 1 else 0
        self.seconds += spent
        self.longest = max(self.longest, spent)
        self.turns += 1
        return answer


def play_one(task: tuple[str, int, int, int]) -> dict[str, Any]:
    """One match of the measured bot (``greedy`` or ``search``) against its baseline."""
    part, players, index, deals = task
    rules = Rules.standard(players)
    measured_side = index % rules.sides
    timed = _Timed(SearchBot(deals=deals)) if part == "search" else None
    measured: Any = timed if timed is not None else greedy_bot
    baseline: Any = greedy_bot if part == "search" else random_bot
    policies = [measured if rules.side_of(seat) == measured_side else baseline for seat in range(players)]
    seed = 7_000_003 * players + index
    steps = play_match(new_match(rules, seed=seed), policies, SplitMix64.from_seed(seed), present=present_seat_view)
    state = None
    for step in steps:
        state = step.state
    assert state is not None
    return {
        "won": state.winner == measured_side,
        "playouts": 0 if timed is None else timed.playouts,
        "seconds": 0.0 if timed is None else timed.seconds,
        "longest": 0.0 if timed is None else timed.longest,
        "turns": 0 if timed is None else timed.turns,
    }


def measure(part: str, players: int, matches: int, deals: int, workers: int) -> dict[str, Any]:
    """Play ``matches`` matches over ``workers`` processes and sum up their results."""
    tasks = [(part, players, index, deals) for index in range(matches)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(play_one, tasks, chunksize=max(1, matches // (8 * workers))))
    else:
        results = [play_one(task) for task in tasks]
    wins = sum(result["won"] for result in results)
    seconds = sum(result["seconds"] for result in results)
    turns = sum(result["turns"] for result in results)
    return {
        "wins": wins,
        "matches": matches,
        "interval": wilson(wins, matches),
        "even": 1 / Rules.standard(players).sides,
        "playouts_per_second": sum(result["playouts"] for result in results) / seconds if seconds else 0.0,
        "mean_move_seconds": seconds / turns if turns else 0.0,
        "longest_move_seconds": max(result["longest"] for result in results),
    }


def report(part: str, players: int, figures: dict[str, Any]) -> str:
    """One line of the table."""
    low, high = figures["interval"]
    rate = figures["wins"] / figures["matches"]
    line = (
        f"{part:>6} {players}p  {figures['wins']:>5}/{figures['matches']:<5} won  {rate:6.1%}"
        f"  95% [{low:6.1%}, {high:6.1%}]  even {figures['even']:5.1%}"
        f"  {'beats' if low > figures['even'] else 'loses to' if high < figures['even'] else 'ties'} the baseline"
    )
    if part == "search":
        line += (
            f"  {figures['playouts_per_second']:,.0f} playouts/s"
            f"  {figures['mean_move_seconds'] * 1000:.1f} ms a move"
            f" (longest {figures['longest_move_seconds'] * 1000:.0f})"
        )
    return line


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--part", choices=("greedy", "search", "all"), default="all")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--greedy-matches", type=int, default=1000)
    parser.add_argument("--search-matches", type=int, default=200)
    parser.add_argument("--deals", type=int, default=SearchBot().deals)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    parts = ("greedy", "search") if args.part == "all" else (args.part,)
    for part in parts:
        matches = args.greedy_matches if part == "greedy" else args.search_matches
        for players in args.players:
            print(report(part, players, measure(part, players, matches, args.deals, args.workers)), flush=True)


if __name__ == "__main__":
    main()
