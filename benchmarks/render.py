"""What a picture of a mid-round layout costs: SVG, text and the geometry alone.

Run from the repository root (the figures are in benchmarks/README.md)::

    python3 -m benchmarks.render
    python3 -m benchmarks.render --layouts 200 --repeat 20

The layouts are the states halfway through random 4-player rounds, each
round dealt by its own seed and played by moves drawn from SplitMix64;
every layout is drawn ``--repeat`` times and the best of three passes is
reported as the time of one picture.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

from sniff_rules.draw.geometry import geometry
from sniff_rules.draw.svg import svg
from sniff_rules.draw.text import layout_text
from sniff_rules.layout import Layout
from sniff_rules.moves import apply, legal_moves
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, new_match


def mid_round_layouts(count: int) -> list[Layout]:
    """The layout halfway through each of ``count`` random 4-player rounds."""
    layouts = []
    for seed in range(count):
        state = new_match(Rules.standard(4), seed=seed)
        source = SplitMix64.from_seed(seed)
        seen = [state.layout]
        while state.phase is Phase.PLAYING:
            moves = legal_moves(state)
            pick, source = source.below(len(moves))
            state = apply(state, moves[pick])
            seen.append(state.layout)
        layouts.append(seen[len(seen) // 2])
    return layouts


def time_each(draw: Callable[[Layout], object], layouts: Sequence[Layout], repeat: int) -> float:
    """Seconds one call of ``draw`` takes on one of ``layouts``: the best of three passes."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for layout in layouts:
            for _ in range(repeat):
                draw(layout)
        best = min(best, (time.perf_counter() - start) / (len(layouts) * repeat))
    return best


def main(argv: Sequence[str] | None = None) -> None:
    """Print the time of one SVG, text picture and geometry of a mid-round layout."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", type=int, default=100, help="mid-round layouts drawn (default 100)")
    parser.add_argument("--repeat", type=int, default=10, help="times each is drawn a pass (default 10)")
    args = parser.parse_args(argv)
    layouts = mid_round_layouts(args.layouts)
    tiles = sum(len(layout.placements) for layout in layouts) / len(layouts)
    print(f"{len(layouts)} mid-round 4-player layouts, {tiles:.1f} tiles on average")
    for name, draw in (("geometry", geometry), ("svg", svg), ("layout_text", layout_text)):
        seconds = time_each(draw, layouts, args.repeat)
        print(f"{name:>12}: {seconds * 1e6:8.1f} µs a picture")


if __name__ == "__main__":
    main()
