"""Random play through the PettingZoo environment, in actions per second, against OpenSpiel's dominoes.

Run from the repository root with the ``pettingzoo`` extra and open-spiel
installed (``benchmarks/README.md`` has the figures)::

    python -m benchmarks.pettingzoo_speed [--seconds 3] [--rounds 3] [--seed 1]

Every loop picks ``legal[int(rng.random() * len(legal))]`` with a local
``random.Random`` and counts the actions of players (never chance's):

- ``sniff_rules.pettingzoo raw_env``: whole 4-player matches through the AEC
  loop, ``agent_iter``, ``last()`` (the observation vector and the action
  mask), ``step``; ``env()``: the same through PettingZoo's wrappers.
- ``python_team_dominoes, observed``: OpenSpiel's 4-player dominoes hands
  through the same work per action: the acting player's observation tensor
  and its legal-action mask as numpy arrays, then ``apply_action``; chance
  outcomes drawn uniformly (each has the same probability).
- ``python_team_dominoes, bare``: ``legal_actions`` and ``apply_action``
  alone, no observation: OpenSpiel's own loop at its cheapest.

The loops run in turn ``--rounds`` times, each about ``--seconds`` long, so
that a busy machine slows them alike; each loop's median rate is reported,
with sniff_rules' rate over each OpenSpiel loop's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np

from sniff_rules.pettingzoo import env, raw_env

Loop = Callable[[int, int], tuple[int, float]]
"""Plays ``games`` from ``seed``; returns the players' actions and the seconds taken."""


def _pick(mask: Any, uniform: Callable[[], float]) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[int(uniform() * len(legal))])


def _sniff_rules(make: Callable[[], Any]) -> Loop:
    def loop(games: int, seed: int) -> tuple[int, float]:
        actions = 0
        start = time.perf_counter()
        for game in range(games):
            environment = make()
            environment.reset(seed=seed + game)
            uniform = random.Random(seed + game).random
            for _ in environment.agent_iter():
                observation, _, terminated, truncated, _ = environment.last()
                if terminated or truncated:
                    environment.step(None)
                    continue
                environment.step(_pick(observation["action_mask"], uniform))
                actions += 1
        return actions, time.perf_counter() - start

    return loop


def _open_spiel(observed: bool) -> Loop:
    import open_spiel.python.games  # noqa: F401 - registers the Python games
    import pyspiel

    game = pyspiel.load_game("python_team_dominoes")

    def loop(games: int, seed: int) -> tuple[int, float]:
        uniform = random.Random(seed).random
        actions = 0
        start = time.perf_counter()
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(uniform() * len(outcomes))][0])
                    continue
                if observed:
                    player = state.current_player()
                    np.asarray(state.observation_tensor(player), np.float32)
                    mask = np.asarray(state.legal_actions_mask(player), np.int8)
                    state.apply_action(_pick(mask, uniform))
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(uniform() * len(legal))])
                actions += 1
        return actions, time.perf_counter() - start

    return loop


LOOPS: Final[dict[str, Callable[[], Loop]]] = {
    "sniff_rules.pettingzoo raw_env (4 players, matches)": lambda: _sniff_rules(
        lambda: raw_env(players=4, scope="match")
    ),
    "sniff_rules.pettingzoo env() (wrapped)": lambda: _sniff_rules(lambda: env(players=4, scope="match")),
    "python_team_dominoes, observed": lambda: _open_spiel(observed=True),
    "python_team_dominoes, bare": lambda: _open_spiel(observed=False),
}


def rate_for(loop: Loop, seconds: float, seed: int) -> float:
    """Actions per second over about ``seconds``: a probe doubled until it takes a tenth of them."""
    games = 1
    while True:
        actions, taken = loop(games, seed)
        if taken >= seconds / 10 or games >= 1 << 16:
            break
        games *= 2
    actions, taken = loop(max(1, round(games * seconds / max(taken, 1e-9))), seed)
    return actions / taken


def main(argv: Sequence[str] | None = None) -> int:
    """Run every loop ``--rounds`` times in turn and print each one's median rate and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="about how long each loop runs a round")
    parser.add_argument("--rounds", type=int, default=3, help="how many times each loop runs, in turn")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    loops = {name: build() for name, build in LOOPS.items()}
    rates: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(args.rounds):
        for name, loop in loops.items():
            rates[name].append(rate_for(loop, args.seconds, args.seed))
    medians = {name: statistics.median(found) for name, found in rates.items()}
    ours = medians[next(iter(LOOPS))]
    observed, bare = medians["python_team_dominoes, observed"], medians["python_team_dominoes, bare"]
    print(f"Python {sys.version.split()[0]}, {args.rounds} rounds of about {args.seconds:g} s each, medians:")
    for name, median in medians.items():
        print(f"  {name:52s} {median:10,.0f} actions/s")
    print(f"raw_env over python_team_dominoes observed: {ours / observed:.2f}x; over it bare: {ours / bare:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
