"""The search bot's determinized playouts per CPU-second, and its time a real decision.

Run from the repository root (the figures are in ``benchmarks/README.md``)::

    python3 -m benchmarks.search_speed                  # the bit-mask search bot
    python3 -m benchmarks.search_speed --reference      # the State-by-State search it replaced
    python3 -m benchmarks.search_speed --compare 5      # both, alternating, 5 rounds: medians and ratio

Every seat of ``--matches`` seeded standard 4-player matches is a search bot
of ``--deals`` deals. Only real decisions are timed — a turn with more than
one legal move; a forced move is played without a search — each by
:func:`time.process_time`, the CPU time of this process, so other work on
the machine does not count. A decision plays ``deals`` times the legal
moves playouts; the figure is their sum over the CPU time of the decisions.
With ``--reference`` each deal is replayed into a State and each playout
played through ``apply`` (the search bot's first form); the two make the
same moves, so they play the same matches. ``--compare N`` plays N rounds,
each the bit-mask form then the reference on the same matches, and prints
each form's median rate and the median of the rounds' ratios: on a busy
machine both are slowed alike within a round.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from sniff_rules.moves import Move, apply
from sniff_rules.play.deal_masks import MaskSampler
from sniff_rules.play.driver import play_match
from sniff_rules.play.sampler import replay_deal
from sniff_rules.play.search import SearchBot, playout_value
from sniff_rules.play.view import SeatView, present_seat_view
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import new_match


def reference_search(bot: SearchBot, view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
    """The search bot's first form: each deal replayed into a State, each playout through ``apply``.

    It draws the deals the bot draws (:meth:`MaskSampler.sample` gives the deal that
    :meth:`MaskSampler.sample_masks` gives as a position), so it makes the bot's moves.
    """
    moves = view.legal_moves
    if len(moves) == 1:
        return moves[0], source
    sampler = MaskSampler(view)
    side = view.rules.side_of(view.seat)
    totals = [0] * len(moves)
    for _ in range(bot.deals):
        deal, source = sampler.sample(source)
        state, _events = replay_deal(view, deal)
        for index, move in enumerate(moves):
            totals[index] += playout_value(apply(state, move), side)
    points = [option.points for option in view.options]
    best = max(range(len(moves)), key=lambda index: (totals[index], points[index]))
    return moves[best], source


class Timed:
    """A search bot that times its real decisions in CPU seconds and counts their playouts."""

    def __init__(self, bot: SearchBot, reference: bool = False) -> None:
        self.bot = bot
        self.reference = reference
        self.playouts = 0
        self.decisions: list[float] = []

    def __call__(self, view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
        """The bot's move; timed and counted when the seat has a choice."""
        moves = len(view.legal_moves)
        start = time.process_time()
        answer = reference_search(self.bot, view, source) if self.reference else self.bot(view, source)
        spent = time.process_time() - start
        if moves > 1:
            self.decisions.append(spent)
            self.playouts += self.bot.deals * moves
        return answer


def measure(matches: int, deals: int, reference: bool, first_seed: int = 1) -> Timed:
    """Play the matches, every seat the one timed bot."""
    timed = Timed(SearchBot(deals=deals), reference)
    rules = Rules.standard(4)
    for index in range(matches):
        seed = first_seed + index
        steps = play_match(
            new_match(rules, seed=seed), [timed] * 4, SplitMix64.from_seed(seed), present=present_seat_view
        )
        for _step in steps:
            pass
    return timed


def rate(timed: Timed) -> float:
    """Playouts per CPU-second of the real decisions."""
    return timed.playouts / sum(timed.decisions)


def report(timed: Timed) -> str:
    """The figures on one line."""
    decisions = timed.decisions
    ms = sorted(1000 * spent for spent in decisions)
    return (
        f"{'reference' if timed.reference else 'bit-mask'} search, {timed.bot.deals} deals:"
        f" {rate(timed):,.0f} playouts per CPU-second over {len(decisions)} real decisions;"
        f" ms a decision: median {statistics.median(ms):.1f}, mean {statistics.fmean(ms):.1f},"
        f" 95th percentile {ms[int(0.95 * (len(ms) - 1))]:.1f}, longest {ms[-1]:.1f}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--deals", type=int, default=SearchBot().deals)
    parser.add_argument("--reference", action="store_true")
    parser.add_argument("--compare", type=int, default=0, metavar="ROUNDS")
    args = parser.parse_args(argv)
    if not args.compare:
        print(report(measure(args.matches, args.deals, args.reference)), flush=True)
        return
    fast_rates, slow_rates, ratios = [], [], []
    for number in range(1, args.compare + 1):
        fast, slow = measure(args.matches, args.deals, False), measure(args.matches, args.deals, True)
        fast_rates.append(rate(fast))
        slow_rates.append(rate(slow))
        ratios.append(fast_rates[-1] / slow_rates[-1])
        print(f"round {number}/{args.compare}: {report(fast)}\n  {report(slow)}", flush=True)
    print(
        f"median playouts per CPU-second: bit-mask {statistics.median(fast_rates):,.0f},"
        f" reference {statistics.median(slow_rates):,.0f};"
        f" the median of the rounds' ratios {statistics.median(ratios):.2f}x",
        flush=True,
    )


if __name__ == "__main__":
    main()
