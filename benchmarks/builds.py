"""The pure and the compiled build against each other and the peers, taking turns in one run.

Run from a checkout whose core has been compiled in place::

    SNIFF_RULES_COMPILE=1 pip install -e '.[bench]'
    python3 -m benchmarks.builds --rounds 7 --seconds 3

Two copies of this checkout's ``sniff_rules`` are made under one temporary folder,
in folders whose paths are as long as each other (as ``benchmarks.revisions``
does): "pure_src" without the compiled extensions, "compiled" with them. Each
round, in a turn order that rotates, a fresh process per engine plays random
matches for about ``--seconds`` (:func:`benchmarks.peers.run_for`): sniff_rules
from each copy, ``dominoes`` and OpenSpiel's C++ ``crazy_eights(players=4)``
through pyspiel. Every rate is per CPU second of that process. Each engine's
median is reported, and each ratio as the median of the rounds' ratios, since a
round's runs share a moment of the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import sniff_rules
from benchmarks import peers

ROOT: Final = Path(__file__).resolve().parent.parent
PURE: Final = "pure_src"
COMPILED: Final = "compiled"
ENGINES: Final = (PURE, COMPILED, peers.DOMINOES, peers.OPEN_SPIEL_CRAZY_EIGHTS)


class BuildsError(RuntimeError):
    """The compiled build is missing, or a measuring process failed."""


def make_trees(folder: Path) -> dict[str, Path]:
    """The two copies of ``sniff_rules``: without and with the compiled extensions."""
    # The compiled modules and the library they share all lie in sniff_rules/ (setup.py's group_name).
    extensions = sorted((ROOT / "sniff_rules").glob("*.so"))
    if not extensions:
        raise BuildsError("no compiled core here: run SNIFF_RULES_COMPILE=1 pip install -e . first")
    trees = {name: folder / name for name in (PURE, COMPILED)}
    for name, tree in trees.items():
        ignored = ["__pycache__", *(["*.so"] if name == PURE else [])]
        shutil.copytree(ROOT / "sniff_rules", tree / "sniff_rules", ignore=shutil.ignore_patterns(*ignored))
    return trees


def measure(engine: str, tree: Path, seconds: float, hash_seed: int) -> dict[str, float]:
    """One engine's figures from a fresh process started in ``tree``."""
    runner = peers.SNIFF_RULES if engine in (PURE, COMPILED) else engine
    path = os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))
    environment = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": str(hash_seed)}
    command = [sys.executable, "-m", "benchmarks.builds", "--child", runner, str(seconds)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tree, env=environment, check=False)
    if done.returncode != 0:
        raise BuildsError(f"{engine}: the measuring process failed ({done.returncode}): {done.stderr[-800:]}")
    figures = json.loads(done.stdout.splitlines()[-1])
    compiled = not str(figures.pop("core")).endswith(".py")
    if engine in (PURE, COMPILED) and compiled != (engine == COMPILED):
        raise BuildsError(f"{engine}: its process imported the {'compiled' if compiled else 'pure'} core")
    return {name: float(value) for name, value in figures.items()}


def _child(runner: str, seconds: float) -> None:
    start = time.process_time()
    result = peers.run_for(peers.RUNNERS[runner], seconds, seed=1)
    cpu = time.process_time() - start
    played = (result.placements + result.other_moves) / result.seconds * cpu
    placements = result.placements / result.seconds * cpu
    # The rate of the measured run, rescaled from its loop's wall time to the CPU time of the whole call.
    figures = {"core": sniff_rules.moves.__file__, "placements": placements, "moves": played, "cpu_seconds": cpu}
    print(json.dumps(figures))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.builds", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="turns of every engine (default 5)")
    parser.add_argument("--seconds", type=float, default=3.0, help="play time per engine and turn (default 3)")
    parser.add_argument("--child", nargs=2, metavar=("RUNNER", "SECONDS"), help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        _child(options.child[0], float(options.child[1]))
        return 0
    # A peer that is not installed (dominoes comes with the bench extra) is left out, with its ratios.
    available = peers.available_peers()
    engines = tuple(engine for engine in ENGINES if engine in (PURE, COMPILED) or engine in available)
    rates: dict[str, list[float]] = {engine: [] for engine in engines}
    moves: dict[str, list[float]] = {engine: [] for engine in engines}
    ratios: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="sniff-rules-builds-") as folder:
        trees = make_trees(Path(folder))
        for number in range(options.rounds):
            order = engines[number % len(engines) :] + engines[: number % len(engines)]
            got = {engine: measure(engine, trees.get(engine, trees[PURE]), options.seconds, number) for engine in order}
            for engine, figures in got.items():
                rates[engine].append(figures["placements"] / figures["cpu_seconds"])
                moves[engine].append(figures["moves"] / figures["cpu_seconds"])
            rate = {engine: rates[engine][-1] for engine in engines}
            round_ratios = {"compiled / pure": rate[COMPILED] / rate[PURE]}
            if peers.DOMINOES in rate:
                round_ratios["pure / dominoes"] = rate[PURE] / rate[peers.DOMINOES]
                round_ratios["compiled / dominoes"] = rate[COMPILED] / rate[peers.DOMINOES]
            if peers.OPEN_SPIEL_CRAZY_EIGHTS in rate:
                crazy_eights = moves[peers.OPEN_SPIEL_CRAZY_EIGHTS][-1]
                round_ratios["compiled / crazy_eights, all moves"] = moves[COMPILED][-1] / crazy_eights
            for name, value in round_ratios.items():
                ratios.setdefault(name, []).append(value)
            shown = ", ".join(f"{engine} {rate[engine]:,.0f}" for engine in engines)
            print(f"round {number + 1}/{options.rounds}: placements/CPU s: {shown}", flush=True)
    print()
    print(f"{'engine':34} {'placements/CPU s':>17} {'moves/CPU s':>12}")
    for engine in engines:
        print(f"{engine:34} {statistics.median(rates[engine]):17,.0f} {statistics.median(moves[engine]):12,.0f}")
    print()
    for name, values in ratios.items():
        print(f"{name}: {statistics.median(values):.2f}x (rounds {min(values):.2f}-{max(values):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
