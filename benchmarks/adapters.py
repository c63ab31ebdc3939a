"""Random play through the learning-library adapters, against OpenSpiel's Python dominoes, in one run.

Run from the repository root with the adapter's extra installed::

    python -m benchmarks.adapters --part openspiel [--seconds 3] [--turns 3] [--seed 1]

A *part* is one adapter: it names the loop that plays the adapter through its own API and the
peer loops it is measured against in the same run. ``openspiel`` plays ``python_american_sniff``
(4 players, one round) and OpenSpiel's own ``python_team_dominoes`` (4 players, one hand)
through the same function, :func:`play_openspiel`: the pyspiel API calls a learning loop makes
(``legal_actions`` or ``chance_outcomes``, ``apply_action``, ``is_terminal``,
``current_player``), a uniformly random pick, chance included. The engines alternate, each
for ``--seconds``, ``--turns`` times, so that load on the machine slows them alike, and each
one's median rate is reported; the figure to quote is the ratio of player actions per second.
A new adapter adds its loop and its entry in :data:`PARTS`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TextIO

import attrs


@attrs.frozen
class LoopResult:
    """What one timed loop played: games, player actions, chance outcomes, seconds."""

    name: str
    games: int
    actions: int
    chance: int
    seconds: float

    @property
    def actions_per_second(self) -> float:
        """Player actions a second (chance outcomes applied in the same time not counted)."""
        return self.actions / self.seconds


Loop: Callable[[float, int], LoopResult]
"""A timed loop: plays whole games for about ``seconds`` from ``seed``."""


def play_openspiel(game_string: str, params: dict[str, Any], seconds: float, seed: int) -> LoopResult:
    """Whole random games of an OpenSpiel game through the pyspiel API, for about ``seconds``."""
    import pyspiel

    if game_string.startswith("python_american_sniff"):
        import sniff_rules.openspiel  # noqa: F401  (registers the game)
    else:
        import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's Python games)

    game = pyspiel.load_game(game_string, params)
    rng = random.Random(seed)
    games = actions = chance = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                chance += 1
            else:
                options = state.legal_actions(state.current_player())
                state.apply_action(options[int(rng.random() * len(options))])
                actions += 1
        games += 1
    return LoopResult(game_string, games, actions, chance, time.perf_counter() - start)


def _openspiel_loops() -> dict[str, Callable[[float, int], LoopResult]]:
    return {
        "python_american_sniff (4 players, a round)": lambda s, seed: play_openspiel(
            "python_american_sniff", {"players": 4}, s, seed
        ),
        "python_team_dominoes (4 players, a hand)": lambda s, seed: play_openspiel("python_team_dominoes", {}, s, seed),
    }


PARTS: Final[dict[str, Callable[[], dict[str, Callable[[float, int], LoopResult]]]]] = {
    "openspiel": _openspiel_loops,
}
"""Each part: its loops, the adapter's first and the peers after it."""


def measure(part: str, seconds: float, turns: int, seed: int) -> dict[str, list[LoopResult]]:
    """Every loop of ``part``, alternating, ``turns`` times each."""
    loops = PARTS[part]()
    results: dict[str, list[LoopResult]] = {name: [] for name in loops}
    for turn in range(turns):
        for name, loop in loops.items():
            results[name].append(loop(seconds, seed + turn))
    return results


def report(results: dict[str, list[LoopResult]], out: TextIO) -> None:
    """A table: each loop's median player actions a second, and the adapter's ratio to it."""
    medians = {name: statistics.median(r.actions_per_second for r in runs) for name, runs in results.items()}
    first = next(iter(medians))
    out.write("| loop | games | player actions | chance outcomes | player actions/s (median) | adapter is |\n")
    out.write("| --- | ---: | ---: | ---: | ---: | ---: |\n")
    for name, runs in results.items():
        ratio = "—" if name == first else f"{medians[first] / medians[name]:.2f}x faster"
        games, actions, chance = (sum(getattr(r, f) for r in runs) for f in ("games", "actions", "chance"))
        out.write(f"| {name} | {games:,} | {actions:,} | {chance:,} | {medians[name]:,.0f} | {ratio} |\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, measure, print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.adapters", description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=sorted(PARTS), required=True)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    report(measure(args.part, args.seconds, args.turns, args.seed), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
