"""``sniff-rules simulate`` over worker processes against one process: matches a second, results identical.

Run from the repository root (figures in benchmarks/README.md)::

    python3 -m benchmarks.simulate                        # greedy against random, 2 players, 300 matches
    python3 -m benchmarks.simulate --players 4 --matches 600 --repeats 3

Each repeat plays the same simulation (:mod:`sniff_rules.cli.simulate`, the
command's own code) in one process and over ``--workers`` processes,
alternating which goes first so that load slows both alike; it checks
the two give the same outcomes, match by match, and prints each side's
matches a second and their ratio. The figure to quote is the median
ratio: two runs of one repeat share the machine's state.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from sniff_rules.cli.simulate import MatchOutcome, Simulation, lineup_for, outcomes
from sniff_rules.rules import Rules


def timed(simulation: Simulation, workers: int) -> tuple[float, list[MatchOutcome]]:
    """Matches a second of one run over ``workers`` processes (1: this process), and its outcomes."""
    started = time.perf_counter()
    played = list(outcomes(simulation, workers))
    return simulation.matches / (time.perf_counter() - started), played


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line, run the repeats and print a line each and the median ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    rules = Rules.standard(args.players)
    simulation = Simulation(rules, lineup_for(rules, args.bots.split(",")), seed=1, matches=args.matches)
    ratios = []
    for repeat in range(args.repeats):
        order = (1, args.workers) if repeat % 2 == 0 else (args.workers, 1)
        runs = {workers: timed(simulation, workers) for workers in order}
        alone, spread = runs[1], runs[args.workers]
        if alone[1] != spread[1]:
            raise SystemExit(f"repeat {repeat}: {args.workers} workers gave other outcomes than one process")
        ratios.append(spread[0] / alone[0])
        print(
            f"repeat {repeat + 1}: one process {alone[0]:.1f} matches/s, {args.workers} workers {spread[0]:.1f}"
            f" matches/s: {ratios[-1]:.2f}x, outcomes identical",
            flush=True,
        )
    print(f"median {statistics.median(ratios):.2f}x over {args.repeats} repeats of {args.matches} matches")


if __name__ == "__main__":
    main()
