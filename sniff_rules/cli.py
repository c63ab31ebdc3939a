"""The ``sniff-rules`` command: watch a match, or replay conformance vectors."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from sniff_rules.bots import greedy_move
from sniff_rules.moves import Place, apply
from sniff_rules.rules import Rules
from sniff_rules.scoring import play_points
from sniff_rules.state import Phase, State, new_match, next_round


def _describe_round_end(state: State) -> str:
    result = state.last_round
    assert result is not None
    how = "blocked" if result.finisher is None else f"seat {result.finisher} played out"
    hands = "; ".join(
        f"seat {seat}: {' '.join(map(str, hand)) or '-'} = {pips} -> -{cost}"
        for seat, (hand, pips, cost) in enumerate(
            zip(result.hands, result.settlement.hand_pips, result.settlement.deductions)
        )
    )
    return f"round {result.round_number} {how}. Settlement: {hands}. Scores {state.scores}"


def demo(players: int, seed: int, out: TextIO) -> State:
    """Play a whole match between greedy bots, printing every move."""
    rules = Rules.standard(players)
    state = new_match(rules, seed=seed)
    print(f"American Sniff, {players} players, target {rules.target}, seed {seed}", file=out)
    if state.lot:
        print(f"lot: {state.lot} -> seat {state.opener} opens", file=out)
    while True:
        if state.phase is Phase.MATCH_OVER:
            seats = ", ".join(map(str, rules.seats_of(state.winner or 0)))
            print(f"match over: side {state.winner} (seat {seats}) wins with {state.scores}", file=out)
            return state
        if state.phase is Phase.ROUND_OVER:
            print(_describe_round_end(state), file=out)
            state = next_round(state)
            opener = f"lot {state.lot}" if state.lot else "the finisher opens"
            print(f"-- round {state.round_number}: seat {state.opener} opens ({opener})", file=out)
            continue
        move = greedy_move(state)
        after = apply(state, move)
        line = str(move)
        if isinstance(move, Place):
            points = play_points(after.layout.end_count)
            line += f"  count {after.layout.end_count}" + (f"  +{points}" if points else "")
        elif after.drawn >= 0:
            line += f" {after.drawn_tile} (fits: must place it)"
        print(f"{line}  scores {after.scores}", file=out)
        state = after


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``sniff-rules`` and ``python -m sniff_rules``."""
    parser = argparse.ArgumentParser(prog="sniff-rules", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    watch = commands.add_parser("demo", help="print a whole match between greedy bots")
    watch.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    watch.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "demo":
        demo(args.players, args.seed, sys.stdout)
    return 0
