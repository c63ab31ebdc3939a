"""The random-playout loop of sniff_rules: every benchmark's figure for sniff_rules comes from it.

``benchmarks.playouts`` (its table, ``--workers``, ``--profile`` and
``--against``), ``benchmarks.peers`` (``run_sniff_rules``, also behind
``playouts --compare``) and ``benchmarks.instructions`` all play their
sniff_rules matches through :func:`play_matches`, so two figures never
differ because two copies of the loop do.

Only public names are imported, and nothing else from this repository: the
loop must also time an older ``sniff_rules`` put first on the path
(``benchmarks/README.md``, "Against another revision").
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import attrs

from sniff_rules.moves import Draw, Place, apply, legal_moves
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, new_match, next_round


@attrs.frozen
class Playouts:
    """What a batch of random matches played, and the time its loop took."""

    players: int
    matches: int
    placements: int
    draws: int
    passes: int
    seconds: float
    """Wall-clock time of the loop."""
    cpu_seconds: float
    """CPU time of this process over the loop: unlike wall-clock time, it does
    not grow while other processes hold the machine's cores."""
    outcome: tuple[tuple[int, ...], ...]
    """Final scores per match: equal outcomes show two runs played alike."""

    @property
    def placements_per_second(self) -> float:
        """Placements over the loop's wall-clock time."""
        return self.placements / self.seconds if self.seconds > 0 else 0.0


def play_matches(players: int, seeds: Sequence[int]) -> Playouts:
    """One random match per seed, timed as a whole: the deal, every move, every next round.

    The seed deals the match and also seeds the ``random.Random`` that picks
    every move, ``moves[int(uniform() * len(moves))]``: the pick the peers'
    adapters in ``benchmarks.peers`` make, so that it costs every engine
    alike (``benchmarks/README.md`` says why not ``randrange``).
    """
    rules = Rules.standard(players)
    placements = draws = passes = 0
    outcome = []
    match_over, round_over = Phase.MATCH_OVER, Phase.ROUND_OVER  # locals: enum attributes are slow to read
    start, start_cpu = time.perf_counter(), time.process_time()
    for seed in seeds:
        state = new_match(rules, seed=seed)
        uniform = random.Random(seed).random
        while state.phase is not match_over:
            if state.phase is round_over:
                state = next_round(state)
                continue
            moves = legal_moves(state)
            move = moves[int(uniform() * len(moves))]
            kind = type(move)
            if kind is Place:
                placements += 1
            elif kind is Draw:
                draws += 1
            else:
                passes += 1
            state = apply(state, move)
        outcome.append(state.scores)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - start_cpu
    return Playouts(players, len(seeds), placements, draws, passes, seconds, cpu_seconds, tuple(outcome))
