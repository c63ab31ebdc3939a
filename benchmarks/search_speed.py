"""The search bot's determinized playouts per CPU-second, and its time a real decision.

Run from the repository root (the figures are in ``benchmarks/README.md``)::

    python3 -m benchmarks.search_speed                  # the bit-mask search bot
    python3 -m benchmarks.search_speed --reference      # the State-by-State search it replaced
    python3 -m benchmarks.search_speed --compare 5      # both, alternating, 5 rounds: medians and ratio
    python3 -m benchmarks.search_speed --instructions   # instructions a playout, counted by valgrind

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

``--instructions`` gives a figure that load does not move: machine
instructions a playout, counted by ``valgrind --tool=callgrind`` as
``benchmarks.instructions`` counts the core's. The decisions are recorded
first (every real decision of ``--matches`` seeded 4-player matches played
greedily at every seat: the seat's view and the source), then the search bot
of ``--deals`` deals is run on each; the process runs twice under valgrind,
recording only and recording then searching, with ``PYTHONHASHSEED`` fixed,
and the difference over the playouts searched is the cost of a playout with
its share of sampling and setup, as in the rate.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Final

from benchmarks import instructions
from sniff_rules.moves import Move, apply
from sniff_rules.play.bots import greedy_bot
from sniff_rules.play.deal_masks import MaskSampler
from sniff_rules.play.driver import Policy, play_match
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
    _play(matches, timed, first_seed)
    return timed


def _play(matches: int, policy: Policy[SeatView], first_seed: int) -> None:
    """Play seeded standard 4-player matches, ``policy`` at every seat."""
    rules = Rules.standard(4)
    for index in range(matches):
        seed = first_seed + index
        steps = play_match(
            new_match(rules, seed=seed), [policy] * 4, SplitMix64.from_seed(seed), present=present_seat_view
        )
        for _step in steps:
            pass


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


INSTRUCTION_MATCHES: Final = 2
"""The greedy matches whose real decisions ``--instructions`` searches by default."""


def recorded_decisions(matches: int, first_seed: int = 1) -> list[tuple[SeatView, RandomSource]]:
    """Every real decision (more than one legal move) of seeded standard 4-player matches played
    greedily at every seat, as the seat's view and the source it was given."""
    found: list[tuple[SeatView, RandomSource]] = []

    def recording(view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
        if len(view.legal_moves) > 1:
            found.append((view, source))
        return greedy_bot(view, source)

    _play(matches, recording, first_seed)
    return found


def search_recorded(decisions: Sequence[tuple[SeatView, RandomSource]], deals: int) -> int:
    """Run a search bot of ``deals`` deals on each recorded decision; the playouts it played."""
    bot = SearchBot(deals=deals)
    playouts = 0
    for view, source in decisions:
        bot(view, source)
        playouts += deals * len(view.legal_moves)
    return playouts


def _child(matches: int, deals: int, search: bool) -> None:
    """Record the decisions, search them when asked, print the playouts (run under valgrind)."""
    decisions = recorded_decisions(matches)
    print(search_recorded(decisions, deals) if search else 0)


def count_instructions(matches: int, deals: int, search: bool) -> tuple[int, int]:
    """Instructions and playouts of one child process, run under callgrind."""
    arguments = ["--child", str(matches), str(deals), str(int(search))]
    return instructions.callgrind("benchmarks.search_speed", arguments, "search_speed")


def instructions_per_playout(matches: int, deals: int) -> tuple[float, int]:
    """Instructions a playout, net of start-up and of recording the decisions, and the playouts counted."""
    base, _ = count_instructions(matches, deals, search=False)
    total, playouts = count_instructions(matches, deals, search=True)
    return (total - base) / playouts, playouts


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, help="matches to play (default: 3; with --instructions, 2)")
    parser.add_argument("--deals", type=int, default=SearchBot().deals)
    parser.add_argument("--reference", action="store_true")
    parser.add_argument("--compare", type=int, default=0, metavar="ROUNDS")
    parser.add_argument("--instructions", action="store_true", help="count instructions a playout under valgrind")
    parser.add_argument("--child", nargs=3, type=int, metavar=("MATCHES", "DEALS", "SEARCH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child[0], args.child[1], bool(args.child[2]))
        return
    if args.instructions:
        if shutil.which("valgrind") is None:
            print("valgrind is not installed: --instructions counts with valgrind --tool=callgrind", file=sys.stderr)
            raise SystemExit(2)
        matches = args.matches or INSTRUCTION_MATCHES
        cost, playouts = instructions_per_playout(matches, args.deals)
        print(
            f"bit-mask search, {args.deals} deals: {cost:,.0f} instructions a playout"
            f" over {playouts:,} playouts (the real decisions of {matches} greedy matches)",
            flush=True,
        )
        return
    args.matches = args.matches or 3
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
