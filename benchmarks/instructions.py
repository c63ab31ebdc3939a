"""Machine instructions per placement, counted by valgrind: a figure that a
busy machine does not move.

Run from the repository root (valgrind must be installed; peers as for
``benchmarks.playouts --compare``)::

    python3 -m benchmarks.instructions                       # sniff_rules
    python3 -m benchmarks.instructions --only sniff_rules dominoes
    python3 -m benchmarks.instructions --split                # where a placement's count goes

Each engine runs its random-playout adapter from ``benchmarks.peers`` (for
sniff_rules, :func:`benchmarks.loop.play_matches`, the loop of every
sniff_rules figure) twice under ``valgrind --tool=callgrind``: once with no
measured games and once with ``--games``, both after the same warm-up; the
difference, divided by the placements played, is the cost of a placement
with its share of draws, passes and deals. ``PYTHONHASHSEED`` is fixed so that two runs of the same
code count the same. Wall-clock rates stay with ``benchmarks.playouts``;
these counts are for comparing two versions of the code, and engines with
each other, without the noise of other work on the machine.

``--split`` says where sniff_rules' count goes. The moves of
:data:`SPLIT_MATCHES` random 4-player matches, picked as the loop picks
them, are recorded as (state, move) pairs, then ``legal_moves`` alone and
``apply`` alone are called on every pair; each run's count net of a run that only
records, divided by the placements, is that function's share, and the rest
of the whole loop's count is the loop's own (its picks, its checks of the
phase, the deals). Allocation is the self count of CPython's allocator,
deallocators and garbage collector in the whole loop (functions whose names
say so, read from callgrind's per-function counts), net of start-up: a
part of the other three, not a fourth share.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from benchmarks import peers
from benchmarks.playouts import recorded
from sniff_rules import Place, apply, legal_moves

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
_FUNCTION_COUNT: Final = re.compile(r"^\s*([\d,]+) .*:([\w.']+) \[", re.MULTILINE)
_ALLOCATION: Final = re.compile(r"alloc|Malloc|Free|free|PyMem_|gc_|GC_")
"""CPython's functions that allocate, free or collect objects, by name."""
SPLIT_MATCHES: Final = 12
"""Matches recorded for --split: about 5,000 placements, each one's state kept alive."""


def _child(name: str, games: int) -> None:
    """Warm up, then play ``games`` and print the placements (run under valgrind)."""
    runner = peers.RUNNERS[name]
    runner(WARM_UP_GAMES, SEED + 1)
    placements = runner(games, SEED).placements if games else 0
    print(placements)


def _split_child(part: str, matches: int) -> None:
    """Record the moves of ``matches``, call ``part`` (legal_moves, apply or neither) on each, and print
    the placements (run under valgrind)."""
    recorded(4, 2)  # the warm-up: imports and the move tables
    pairs = recorded(4, matches)
    if part == "legal_moves":
        for state, _move in pairs:
            legal_moves(state)
    elif part == "apply":
        for state, move in pairs:
            apply(state, move)
    print(sum(1 for _, move in pairs if type(move) is Place))


def callgrind(module: str, arguments: Sequence[str], what: str, out_file: str = "/dev/null") -> tuple[int, int]:
    """Instructions of ``python3 -m module arguments`` run under callgrind with ``PYTHONHASHSEED``
    fixed, and the last number it printed; ``what`` names the run in an error, ``out_file`` is where
    callgrind writes its per-function counts."""
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", sys.executable, "-m", module]
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


def allocation_count(out_file: str) -> int:
    """The self instructions of CPython's allocation, freeing and collecting functions in a callgrind file."""
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--threshold=100", out_file],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return allocation_in(annotated)


def allocation_in(annotated: str) -> int:
    """The self instructions of the allocation, freeing and collecting functions in callgrind_annotate's text."""
    return sum(
        int(found.group(1).replace(",", ""))
        for found in _FUNCTION_COUNT.finditer(annotated)
        if _ALLOCATION.search(found.group(2))
    )


def split(games: int, matches: int = SPLIT_MATCHES) -> dict[str, float]:
    """sniff_rules' instructions a placement: the whole loop, legal_moves, apply, the loop's own rest,
    and allocation (see the module doc)."""
    with tempfile.TemporaryDirectory() as folder:
        files = [str(Path(folder) / name) for name in ("base", "whole")]
        base, _ = callgrind("benchmarks.instructions", ["--child", peers.SNIFF_RULES, "0"], "base", files[0])
        whole, placements = callgrind(
            "benchmarks.instructions", ["--child", peers.SNIFF_RULES, str(games)], "whole", files[1]
        )
        allocation = allocation_count(files[1]) - allocation_count(files[0])
    parts = {}
    for part in ("none", "legal_moves", "apply"):
        parts[part] = callgrind("benchmarks.instructions", ["--split-child", part, str(matches)], part)
    recorded_placements = parts["none"][1]
    shares = {part: (parts[part][0] - parts["none"][0]) / recorded_placements for part in ("legal_moves", "apply")}
    whole_share = (whole - base) / placements
    return {
        "whole loop": whole_share,
        **shares,
        "the loop's own": whole_share - shares["legal_moves"] - shares["apply"],
        "allocation (within the above)": allocation / placements,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Print instructions per placement for each engine asked for."""
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.instructions", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=tuple(peers.RUNNERS), default=[peers.SNIFF_RULES])
    parser.add_argument("--games", type=int, help="games per engine (default: about 9,000 placements)")
    parser.add_argument("--split", action="store_true", help="where sniff_rules' count goes, and nothing else")
    parser.add_argument("--child", nargs=2, metavar=("NAME", "GAMES"), help=argparse.SUPPRESS)
    parser.add_argument("--split-child", nargs=2, metavar=("PART", "MATCHES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child[0], int(args.child[1]))
        return 0
    if args.split_child:
        _split_child(args.split_child[0], int(args.split_child[1]))
        return 0
    if shutil.which("valgrind") is None:
        print(
            "valgrind is not installed: this benchmark counts instructions with valgrind --tool=callgrind",
            file=sys.stderr,
        )
        return 2
    if args.split:
        print(f"{'sniff_rules, 4 players':32} {'instructions/placement':>23}")
        for part, cost in split(args.games or GAMES[peers.SNIFF_RULES]).items():
            print(f"{part:32} {cost:23,.0f}")
        return 0
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
