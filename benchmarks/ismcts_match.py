"""The ISMCTS bot against the search bot at 4 players, partners against partners, with a 95% interval.

Run from the repository root (the figures are in ``benchmarks/README.md``)::

    python3 -m benchmarks.ismcts_match --matches 300 --iterations 200 --deals 32 --target 100

Each match is dealt by its own seed (``--first-seed`` on) under the
standard 4-player rules with a lower target (``--target``, short matches:
most end in a round or two). The first half of the matches seats the ISMCTS
bot at side 0 (seats 0 and 2) and the search bot at side 1; the second half
replays the same seeds with the sides swapped, so each bot plays each deal
from both sides. Both bots' sources are seeded from the match's seed. A
match is won by the side that reaches the target first; the even result is
one half. The interval is Wilson's score interval at 95%. Each bot's time a
decision is CPU time (:func:`time.process_time`, not the wall clock, which on
a loaded machine counts other work) over real decisions only: a turn with more
than one legal move (a forced move is played without a search); the report
counts the decisions of :data:`LIMIT_MS` or more.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from sniff_rules.cli.simulate import wilson
from sniff_rules.moves import Move
from sniff_rules.play.driver import play_match
from sniff_rules.play.ismcts import ISMCTSBot
from sniff_rules.play.search import SearchBot
from sniff_rules.play.view import SeatView, present_seat_view
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import new_match

Bot = Callable[[SeatView, RandomSource], tuple[Move, RandomSource]]

LIMIT_MS: float = 100.0
"""The CPU time a real decision must stay under (issue 26): the report counts those that do not."""


class Timed:
    """A bot whose real decisions are timed in CPU seconds."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.decisions: list[float] = []

    def __call__(self, view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
        """The bot's move, timed when the seat has a choice."""
        start = time.process_time()
        answer = self.bot(view, source)
        if len(view.legal_moves) > 1:
            self.decisions.append(time.process_time() - start)
        return answer


def play(seed: int, ismcts_side: int, ismcts: Timed, search: Timed, rules: Rules) -> bool:
    """One match; whether the ISMCTS bot's side won it."""
    policies = [ismcts if rules.side_of(seat) == ismcts_side else search for seat in range(rules.players)]
    state = None
    for step in play_match(
        new_match(rules, seed=seed), policies, SplitMix64.from_seed(seed), present=present_seat_view
    ):
        state = step.state
    assert state is not None
    assert state.winner is not None
    return state.winner == ismcts_side


def measure(matches: int, iterations: int, deals: int, target: int, first_seed: int) -> dict[str, Any]:
    """Play the matches (half with each seating) and sum up."""
    rules = Rules(players=4, hand_size=Rules.standard(4).hand_size, target=target)
    ismcts, search = Timed(ISMCTSBot(iterations=iterations)), Timed(SearchBot(deals=deals))
    half = matches // 2
    wins = 0
    for index in range(2 * half):
        wins += play(first_seed + index % half, 0 if index < half else 1, ismcts, search, rules)
    return {"wins": wins, "matches": 2 * half, "ismcts": ismcts.decisions, "search": search.decisions}


def _times(decisions: list[float]) -> str:
    ms = sorted(1000 * spent for spent in decisions)
    if not ms:
        return "no real decision"
    over = sum(1 for spent in ms if spent >= LIMIT_MS)
    return (
        f"{len(ms)} real decisions, ms: median {statistics.median(ms):.1f},"
        f" 95th percentile {ms[int(0.95 * (len(ms) - 1))]:.1f}, longest {ms[-1]:.1f};"
        f" {over} of {LIMIT_MS:.0f} ms or more"
    )


def report(figures: dict[str, Any], iterations: int, deals: int) -> str:
    """The figures as three lines."""
    wins, matches = figures["wins"], figures["matches"]
    low, high = wilson(wins, matches)
    verdict = "beats" if low > 0.5 else "loses to" if high < 0.5 else "ties"
    return (
        f"ismcts:{iterations} {verdict} search:{deals} at 4 players: {wins}/{matches} won, {wins / matches:.1%},"
        f" 95% [{low:.1%}, {high:.1%}], even 50.0%\n"
        f"  ismcts:{iterations}: {_times(figures['ismcts'])}\n"
        f"  search:{deals}: {_times(figures['search'])}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--deals", type=int, default=SearchBot().deals)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args(argv)
    figures = measure(args.matches, args.iterations, args.deals, args.target, args.first_seed)
    print(report(figures, args.iterations, args.deals), flush=True)


if __name__ == "__main__":
    main()
