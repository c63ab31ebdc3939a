"""Machine instructions per placement, counted by valgrind: a figure that a
busy machine does not move.

Run from the repository root (valgrind must be installed; peers as for
``benchmarks.playouts --compare``)::

    python3 -m benchmarks.instructions                       # sniff_rules
    python3 -m benchmarks.instructions --only sniff_rules dominoes

Each engine runs its random-playout adapter from ``benchmarks.peers`` (for
sniff_rules, :func:`benchmarks.loop.play_matches`, the loop of every
sniff_rules figure) twice under ``valgrind --tool=callgrind``: once with no
measured games and once with ``--games``, both after the same warm-up; the
difference, divided by the placements played, is the cost of a placement
with its share of draws, passes and deals. ``PYTHONHASHSEED`` is fixed so that two runs of the same
code count the same. Wall-clock rates stay with ``benchmarks.playouts``;
these counts are for comparing two versions of the code, and engines with
each other, without the noise of other work on the machine.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from typing import Final

from benchmarks import peers

GAMES: Final[dict[str, int]] = {
    # About 9,000 placements each; all-fives-domino is slow under valgrind.
    peers.SNIFF_RULES: 20,
    peers.ALL_FIVES: 60,
    peers.DOMINOES: 40,
    peers.OPEN_SPIEL_BLOCK: 900,
    peers.OPEN_SPIEL_TEAM: 400,
    peers.OPEN_SPIEL_CRAZY_EIGHTS: 250,
}
WARM_UP_GAMES: Final = 10
SEED: Final = 1
_COLLECTED: Final = re.compile(r"Collected : (\d+)")


def _child(name: str, games: int) -> None:
    """Warm up, then play ``games`` and print the placements (run under valgrind)."""
    runner = peers.RUNNERS[name]
    runner(WARM_UP_GAMES, SEED + 1)
    placements = runner(games, SEED).placements if games else 0
    print(placements)


def callgrind(module: str, arguments: Sequence[str], what: str) -> tuple[int, int]:
    """Instructions of ``python3 -m module arguments`` run under callgrind with ``PYTHONHASHSEED``
    fixed, and the last number it printed; ``what`` names the run in an error."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-m", module]
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run([*command, *arguments], capture_output=True, text=True, env=environment, check=False)
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"{what}: valgrind run failed ({done.returncode}): {done.stderr[-600:]}")
    return int(found.group(1)), int(done.stdout.split()[-1])


def count(name: str, games: int) -> tuple[int, int]:
    """Instructions and placements of ``games`` of engine ``name``, run under callgrind."""
    return callgrind("benchmarks.instructions", ["--child", name, str(games)], name)


def per_placement(name: str, games: int) -> tuple[float, int]:
    """Instructions per placement, net of start-up and warm-up, and the placements counted."""
    base, _ = count(name, 0)
    total, placements = count(name, games)
    return (total - base) / placements, placements


def main(argv: Sequence[str] | None = None) -> int:
    """Print instructions per placement for each engine asked for."""
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.instructions", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=tuple(peers.RUNNERS), default=[peers.SNIFF_RULES])
    parser.add_argument("--games", type=int, help="games per engine (default: about 9,000 placements)")
    parser.add_argument("--child", nargs=2, metavar=("NAME", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child[0], int(args.child[1]))
        return 0
    if shutil.which("valgrind") is None:
        print(
            "valgrind is not installed: this benchmark counts instructions with valgrind --tool=callgrind",
            file=sys.stderr,
        )
        return 2
    print(f"{'engine':34} {'placements':>10} {'instructions/placement':>23} {'cost vs sniff':>13}")
    base = None
    for name in args.only:
        try:
            peers.RUNNERS[name](1, SEED)  # fails fast when the peer is missing
        except peers.PeerUnavailable as error:
            print(f"unavailable: {error}", file=sys.stderr)
            continue
        cost, placements = per_placement(name, args.games or GAMES[name])
        if name == peers.SNIFF_RULES:
            base = cost
        ratio = f"{cost / base:13.2f}" if base else f"{'-':>13}"
        print(f"{name:34} {placements:10d} {cost:23.0f} {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
