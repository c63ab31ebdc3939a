"""Random play through the learning-library adapters, against OpenSpiel's Python dominoes, in one run.

Run from the repository root with the adapters' extras installed (``benchmarks/README.md``,
"Adapters", has the figures)::

    python -m benchmarks.adapters [--part all|PART] [--seconds 3] [--turns 3] [--seed 1]

A *part* names the loops measured against each other in one run, the one measured first. Every
loop plays whole games for about ``--seconds`` of CPU time, picks
``options[int(rng.random() * len(options))]`` with a local ``random.Random`` (chance outcomes too,
each equally likely) and counts the players' actions, never chance's; rates are per CPU second of
the loop, which other work on a shared machine inflates far less than wall-clock time:

- ``openspiel``: ``python_american_sniff`` (4 players, one round) and OpenSpiel's own
  ``python_team_dominoes`` (4 players, one hand) through the same function,
  :func:`play_openspiel`: the pyspiel calls a learning loop makes (``is_terminal``,
  ``is_chance_node``, ``chance_outcomes`` or ``current_player`` and ``legal_actions``,
  ``apply_action``).
- ``observed``: the same, the acting player's ``observation_tensor`` and ``legal_actions_mask``
  taken as numpy arrays at every action and the pick made from the mask.
- ``rl-information-state`` and ``rl-observation``: both games through OpenSpiel's
  ``rl_environment.Environment`` (:func:`play_rl_environment`), which builds every player's
  information-state (or observation) tensor and legal actions at every step.
- ``pettingzoo``: ``sniff_rules.adapters.pettingzoo``'s ``raw_env`` through the AEC loop
  (``agent_iter``, ``last()`` with the acting agent's observation vector and action mask,
  ``step``), :func:`play_pettingzoo`, whole 4-player matches; and ``python_team_dominoes``
  through :func:`play_openspiel` with ``observed``: the same work per action (the acting
  player's observation tensor and legal-action mask as numpy arrays, the pick from the mask),
  then, for reference, its bare loop as in ``openspiel``.
- ``pettingzoo-wrapped``: the same with ``env()``, ``raw_env`` in PettingZoo's wrappers, against
  ``python_team_dominoes`` with ``observed``.
- ``events``: :func:`~sniff_rules.play.events.apply_with_events` against
  :func:`~sniff_rules.moves.apply` on the same recorded (state, move) pairs of random 4-player
  matches: what the typed events cost over the move itself.

``all`` (the default) runs every part but ``events``. The loops of a part alternate, each for
``--seconds``, ``--turns`` times, so that load on the machine slows them alike; each loop's median
rate is reported with the first loop's median over it, the figure to quote, and the lowest and
highest of that ratio turn by turn.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Final, TextIO

import attrs


@attrs.frozen
class LoopResult:
    """What one timed loop played: games, player actions, chance outcomes, CPU seconds."""

    name: str
    games: int
    actions: int
    chance: int
    seconds: float

    @property
    def actions_per_second(self) -> float:
        """Player actions a CPU second (chance outcomes applied in the same time not counted)."""
        return self.actions / self.seconds


Loop = Callable[[float, int], LoopResult]
"""A timed loop: plays whole games for about ``seconds`` of this process's CPU time from ``seed``."""


def play_openspiel(
    game_string: str,
    params: dict[str, Any],
    seconds: float,
    seed: int,
    *,
    observed: bool = False,
    max_games: int | None = None,
) -> LoopResult:
    """Whole random games of an OpenSpiel game through the pyspiel API, for about ``seconds``
    (or ``max_games`` games). ``observed``: each player action first builds the acting player's
    observation tensor and legal-action mask as numpy arrays, and picks from the mask."""
    import numpy as np
    import pyspiel

    if game_string.startswith("python_american_sniff"):
        import sniff_rules.adapters.openspiel  # noqa: F401  (registers the game)
    else:
        import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's Python games)

    game = pyspiel.load_game(game_string, params)
    uniform = random.Random(seed).random
    flatnonzero, asarray, float32, int8 = np.flatnonzero, np.asarray, np.float32, np.int8
    games = actions = chance = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline and (max_games is None or games < max_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(uniform() * len(outcomes))][0])
                chance += 1
                continue
            player = state.current_player()
            if observed:
                asarray(state.observation_tensor(player), float32)
                legal = flatnonzero(asarray(state.legal_actions_mask(player), int8))
                state.apply_action(int(legal[int(uniform() * len(legal))]))
            else:
                options = state.legal_actions(player)
                state.apply_action(options[int(uniform() * len(options))])
            actions += 1
        games += 1
    return LoopResult(game_string, games, actions, chance, time.process_time() - start)


def play_rl_environment(
    game_string: str,
    params: dict[str, Any],
    seconds: float,
    seed: int,
    *,
    information_state: bool = True,
    max_games: int | None = None,
) -> LoopResult:
    """Whole random games through OpenSpiel's ``rl_environment.Environment``, for about ``seconds``
    (or ``max_games`` games): every step builds every player's information-state tensor (or, without
    ``information_state``, observation tensor) and legal actions, as the environment does for a
    learner. Chance outcomes are picked as every loop here picks them, by a local ``random.Random``;
    the environment applies them, so they are not counted."""
    import pyspiel
    from open_spiel.python import rl_environment

    if game_string.startswith("python_american_sniff"):
        import sniff_rules.adapters.openspiel  # noqa: F401  (registers the game)
    else:
        import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's Python games)

    uniform = random.Random(seed).random

    class Sampler(rl_environment.ChanceEventSampler):  # type: ignore[misc]
        def __call__(self, state: Any) -> int:
            outcomes = state.chance_outcomes()
            return int(outcomes[int(uniform() * len(outcomes))][0])

    kind = rl_environment.ObservationType
    environment = rl_environment.Environment(
        pyspiel.load_game(game_string, params),
        observation_type=kind.INFORMATION_STATE if information_state else kind.OBSERVATION,
        chance_event_sampler=Sampler(),
    )
    games = actions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline and (max_games is None or games < max_games):
        step = environment.reset()
        while not step.last():
            player = step.observations["current_player"]
            options = step.observations["legal_actions"][player]
            step = environment.step([options[int(uniform() * len(options))]])
            actions += 1
        games += 1
    return LoopResult(game_string, games, actions, 0, time.process_time() - start)


def play_pettingzoo(
    make: Callable[[], Any], name: str, seconds: float, seed: int, *, max_games: int | None = None
) -> LoopResult:
    """Whole episodes of the environment ``make`` builds, through PettingZoo's AEC loop, for about
    ``seconds`` (or ``max_games`` episodes): game ``g`` is reset with seed ``seed + g`` and picks
    from ``random.Random(seed + g)``. The finished agents' ``step(None)`` are not counted."""
    import numpy as np

    flatnonzero = np.flatnonzero
    games = actions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline and (max_games is None or games < max_games):
        environment = make()
        environment.reset(seed=seed + games)
        uniform = random.Random(seed + games).random
        for _ in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            legal = flatnonzero(observation["action_mask"])
            environment.step(int(legal[int(uniform() * len(legal))]))
            actions += 1
        games += 1
    return LoopResult(name, games, actions, 0, time.process_time() - start)


@cache
def _recorded_moves() -> tuple[tuple[Any, Any], ...]:
    from benchmarks.playouts import recorded

    return tuple(recorded(4, 60))


def call_on_recorded(function: Callable[[Any, Any], object], name: str, seconds: float) -> LoopResult:
    """``function(state, move)`` over the recorded pairs of 60 random 4-player matches, again and
    again for about ``seconds``; each call counts as an action, each pass over the pairs a game."""
    pairs = _recorded_moves()
    games = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for state, move in pairs:
            function(state, move)
        games += 1
    return LoopResult(name, games, games * len(pairs), 0, time.process_time() - start)


_SNIFF: Final = "python_american_sniff"
_TEAM: Final = "python_team_dominoes"
_OURS: Final = "python_american_sniff (4 players, a round)"
_THEIRS: Final = "python_team_dominoes (4 players, a hand)"


def _openspiel_loops() -> dict[str, Loop]:
    return {
        _OURS: lambda s, seed: play_openspiel(_SNIFF, {"players": 4}, s, seed),
        _THEIRS: lambda s, seed: play_openspiel(_TEAM, {}, s, seed),
    }


def _observed_loops() -> dict[str, Loop]:
    return {
        f"{_OURS}, observation tensor and mask each action": lambda s, seed: play_openspiel(
            _SNIFF, {"players": 4}, s, seed, observed=True
        ),
        f"{_THEIRS}, observation tensor and mask each action": lambda s, seed: play_openspiel(
            _TEAM, {}, s, seed, observed=True
        ),
    }


def _rl_loops(information_state: bool) -> Callable[[], dict[str, Loop]]:
    mode = "information state" if information_state else "observation"

    def loops() -> dict[str, Loop]:
        return {
            f"rl_environment, {mode}: {_OURS}": lambda s, seed: play_rl_environment(
                _SNIFF, {"players": 4}, s, seed, information_state=information_state
            ),
            f"rl_environment, {mode}: {_THEIRS}": lambda s, seed: play_rl_environment(
                _TEAM, {}, s, seed, information_state=information_state
            ),
        }

    return loops


_RAW: Final = "sniff_rules.adapters.pettingzoo raw_env (4 players, matches)"
_WRAPPED: Final = "sniff_rules.adapters.pettingzoo env() (wrapped, 4 players, matches)"
_TEAM_OBSERVED: Final = "python_team_dominoes, observation and mask each action"


def _pettingzoo_loops() -> dict[str, Loop]:
    from sniff_rules.adapters.pettingzoo import raw_env

    return {
        _RAW: lambda s, seed: play_pettingzoo(lambda: raw_env(players=4, scope="match"), _RAW, s, seed),
        _TEAM_OBSERVED: lambda s, seed: play_openspiel(_TEAM, {}, s, seed, observed=True),
        "python_team_dominoes, bare loop": lambda s, seed: play_openspiel(_TEAM, {}, s, seed),
    }


def _wrapped_loops() -> dict[str, Loop]:
    from sniff_rules.adapters.pettingzoo import env

    return {
        _WRAPPED: lambda s, seed: play_pettingzoo(lambda: env(players=4, scope="match"), _WRAPPED, s, seed),
        _TEAM_OBSERVED: lambda s, seed: play_openspiel(_TEAM, {}, s, seed, observed=True),
    }


def _events_loops() -> dict[str, Loop]:
    from sniff_rules.moves import apply
    from sniff_rules.play.events import apply_with_events

    return {
        "apply_with_events": lambda s, _seed: call_on_recorded(apply_with_events, "apply_with_events", s),
        "apply": lambda s, _seed: call_on_recorded(apply, "apply", s),
    }


PARTS: Final[dict[str, Callable[[], dict[str, Loop]]]] = {
    "openspiel": _openspiel_loops,
    "observed": _observed_loops,
    "rl-information-state": _rl_loops(True),
    "rl-observation": _rl_loops(False),
    "pettingzoo": _pettingzoo_loops,
    "pettingzoo-wrapped": _wrapped_loops,
    "events": _events_loops,
}
"""Each part: its loops, the one measured first."""

ALL: Final = ("openspiel", "observed", "rl-information-state", "rl-observation", "pettingzoo", "pettingzoo-wrapped")
"""The parts ``--part all`` runs: every path through the two adapters."""


def measure(part: str, seconds: float, turns: int, seed: int) -> dict[str, list[LoopResult]]:
    """Every loop of ``part``, alternating, ``turns`` times each."""
    loops = PARTS[part]()
    results: dict[str, list[LoopResult]] = {name: [] for name in loops}
    for turn in range(turns):
        for name, loop in loops.items():
            results[name].append(loop(seconds, seed + turn))
    return results


def report(results: dict[str, list[LoopResult]], out: TextIO) -> None:
    """A table: each loop's median player actions a second, the first loop's median over it, and the
    spread of that ratio over the turns (the first loop's rate in a turn over this loop's in the same turn)."""
    medians = {name: statistics.median(r.actions_per_second for r in runs) for name, runs in results.items()}
    first = next(iter(medians))
    out.write(f"| loop | games | player actions | chance outcomes | player actions/s (median) | {first} is | ")
    out.write("per turn, lowest – highest |\n")
    out.write("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for name, runs in results.items():
        ratio = spread = "—"
        if name != first:
            ratio = f"{medians[first] / medians[name]:.2f}x"
            turns = [a.actions_per_second / b.actions_per_second for a, b in zip(results[first], runs, strict=True)]
            spread = f"{min(turns):.2f}x – {max(turns):.2f}x"
        games, actions, chance = (sum(getattr(r, f) for r in runs) for f in ("games", "actions", "chance"))
        out.write(f"| {name} | {games:,} | {actions:,} | {chance:,} | {medians[name]:,.0f} | {ratio} | {spread} |\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, measure each part, print its table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.adapters", description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=["all", *PARTS], default="all")
    parser.add_argument("--seconds", type=float, default=3.0, help="about how many CPU seconds each loop runs a turn")
    parser.add_argument("--turns", type=int, default=3, help="how many times each loop runs, in turn")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    parts = ALL if args.part == "all" else (args.part,)
    print(f"Python {sys.version.split()[0]}, {args.turns} turns of about {args.seconds:g} CPU s a loop, medians:")
    for part in parts:
        print(f"\n{part}:\n")
        report(measure(part, args.seconds, args.turns, args.seed), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
