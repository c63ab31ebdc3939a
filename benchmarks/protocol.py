"""Requests a second through the engine protocol against ``sniff-rules engine``; check-engine's examples a second.

Run from the repository root (the figures are in ``benchmarks/README.md``)::

    python3 -m benchmarks.protocol --matches 5 --examples 10

The first figure plays ``--matches`` standard 2-player matches, each
dealt by its own seed, through a :class:`~sniff_rules.protocol.remote.RemoteEngine`
on one ``python -m sniff_rules engine`` process: a ``new_match``, then
for each move a ``legal_moves`` and an ``apply`` (the move the seeded
source picks), and a ``next_round`` after each settled round. Each request
carries the whole state document and each answer is read back through the
hardened reader, so the figure is the cost of the protocol's round trip,
both codecs included. The second runs the stateful differential of
``check-engine`` (without the vectors) for ``--examples`` examples.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from sniff_rules.protocol.process import Peer
from sniff_rules.protocol.remote import RemoteEngine
from sniff_rules.randomness import RandomSource, SplitMix64, draw_below
from sniff_rules.rules import Rules
from sniff_rules.state import Phase
from sniff_rules.verify.engine_check import check_machine

ENGINE = [sys.executable, "-m", "sniff_rules", "engine"]


def play_through(engine: RemoteEngine, matches: int, seed: int = 1) -> int:
    """Play ``matches`` matches through ``engine``; the number of requests sent."""
    before = len(engine.transcript)
    for index in range(matches):
        state = engine.new_match(Rules.standard(2), seed + index)
        source: RandomSource = SplitMix64.from_seed(seed + index)
        while state.phase is not Phase.MATCH_OVER:
            if state.phase is Phase.ROUND_OVER:
                state = engine.next_round(state)
                continue
            moves = engine.legal_moves(state)
            choice, source = draw_below(source, len(moves))
            state = engine.apply(state, moves[choice])
    return len(engine.transcript) - before


def main(argv: Sequence[str] | None = None) -> None:
    """Print both figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--examples", type=int, default=10)
    args = parser.parse_args(argv)
    with Peer(ENGINE, timeout=60) as peer:
        engine = RemoteEngine(peer)
        engine.hello()
        started = time.perf_counter()
        requests = play_through(engine, args.matches)
        seconds = time.perf_counter() - started
        print(f"{requests} requests in {seconds:.2f} s: {requests / seconds:.0f} requests a second")
        started = time.perf_counter()
        outcome = check_machine(engine, args.examples, seed=0)
        seconds = time.perf_counter() - started
        verdict = "agree" if outcome.verdict.passed else "DISAGREE"
        print(
            f"{args.examples} examples ({verdict}) in {seconds:.2f} s: {args.examples / seconds:.2f} examples a second"
        )


if __name__ == "__main__":
    main()
