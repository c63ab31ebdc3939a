"""4-player placements/s of this checkout against another git revision, measured in one run.

Run from the repository root, through ``benchmarks.playouts``::

    python3 -m benchmarks.playouts --against 8248792
    python3 -m benchmarks.playouts --against main --rounds 20 --matches 300

Only the ``sniff_rules`` package differs between the two sides: the
revision's is exported with ``git archive``, this checkout's (uncommitted
changes included) copied, each into a folder of the same length under one
temporary folder, and the loop that plays and times the matches is this
checkout's :func:`benchmarks.loop.play_matches` on both sides. Running the
checkout's package from where it lies would make the sides differ in more
than the library: in the path of every module, so in the strings the
interpreter allocates at import, and so in where every later object lands
in memory, the same way in every run of that side.

Every measurement is a fresh process that imports one side's package, warms
it up, and times the same 4-player matches in CPU time, which other work on
a shared machine inflates far less than wall-clock time. The two sides take
turns, the first of each round swapping (checkout, revision; revision,
checkout; ...), so that a machine growing busier or quieter slows both
alike; both runs of a round hash with the same ``PYTHONHASHSEED``, a
different one each round, so that no side keeps one lucky or unlucky dict
layout. Each side's median rate is reported, and the ratio, this checkout's
rate over the revision's: the median of the rounds' ratios, since the two
runs of a round compare like with like; above 1 when this checkout is
faster.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Final, TextIO

import attrs

import sniff_rules
from benchmarks.loop import play_matches

ROOT: Final = Path(__file__).resolve().parent.parent
"""The checkout these benchmarks run from, whose ``sniff_rules`` is "this checkout"."""

CHECKOUT: Final = "checkout"
REVISION: Final = "revision"
PLAYERS: Final = 4
WARM_UP: Final = range(10_000, 10_020)
"""Seeds played before timing, so that the move tables are filled on both sides."""


class RevisionError(RuntimeError):
    """The revision cannot be exported, or a measuring process failed."""


@attrs.frozen
class Run:
    """One measuring process: which side, the package it imported, and what it played."""

    side: str
    library: str
    """``sniff_rules.__file__`` in that process, checked to lie in the side's tree."""
    placements: int
    cpu_seconds: float
    """The timed loop's CPU time (:attr:`benchmarks.loop.Playouts.cpu_seconds`)."""

    @property
    def placements_per_second(self) -> float:
        """Placements per CPU second of the timed loop."""
        return self.placements / self.cpu_seconds


@attrs.frozen
class Round:
    """The two runs of one round, one after the other, hashing with the same seed."""

    first: str
    """The side that ran first."""
    checkout: Run
    revision: Run

    @property
    def ratio(self) -> float:
        """This checkout's rate over the revision's, in this round."""
        return self.checkout.placements_per_second / self.revision.placements_per_second


@attrs.frozen
class Comparison:
    """Every round, in the order they ran."""

    revision: str
    """The other revision's abbreviated commit hash."""
    rounds: tuple[Round, ...]

    def median(self, side: str) -> float:
        """The median placements/s of one side's runs."""
        runs = (round_.checkout if side == CHECKOUT else round_.revision for round_ in self.rounds)
        return statistics.median(run.placements_per_second for run in runs)

    @property
    def ratio(self) -> float:
        """The median of the rounds' ratios: each round's two runs share a hash seed and a
        moment of the machine's load, so a round's ratio compares like with like."""
        return statistics.median(round_.ratio for round_ in self.rounds)


def _git(*arguments: str) -> str:
    done = subprocess.run(["git", "-C", str(ROOT), *arguments], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RevisionError(f"git {' '.join(arguments)}: {done.stderr.strip()}")
    return done.stdout.strip()


def export_revision(revision: str, into: Path) -> str:
    """Write the revision's ``sniff_rules`` package into ``into``; return its abbreviated hash."""
    commit = _git("rev-parse", "--verify", "--short", f"{revision}^{{commit}}")
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "sniff_rules"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        raise RevisionError(f"git archive {commit} sniff_rules: {archive.stderr.decode(errors='replace').strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return commit


def copy_checkout(into: Path) -> None:
    """Copy this checkout's ``sniff_rules`` package, as it is on disk, into ``into``."""
    shutil.copytree(ROOT / "sniff_rules", into / "sniff_rules", ignore=shutil.ignore_patterns("__pycache__"))


def measure(side: str, tree: Path, matches: int, warm_up: int = len(WARM_UP), hash_seed: int = 0) -> Run:
    """Time ``matches`` 4-player matches in a fresh process whose ``sniff_rules`` is ``tree``'s.

    The process starts in ``tree``, which Python puts first on the path, and
    finds the benchmarks through ``PYTHONPATH``.
    """
    path = os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))
    environment = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": str(hash_seed)}
    command = [sys.executable, "-m", "benchmarks.revisions", str(matches), str(warm_up)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tree, env=environment, check=False)
    if done.returncode != 0:
        raise RevisionError(f"{side}: the measuring process failed ({done.returncode}): {done.stderr[-800:]}")
    figures = json.loads(done.stdout.splitlines()[-1])
    library = str(figures["library"])
    if not Path(library).resolve().is_relative_to(tree.resolve()):
        raise RevisionError(f"{side}: imported {library}, not the sniff_rules of {tree}")
    return Run(side, library, int(figures["placements"]), float(figures["cpu_seconds"]))


def compare(revision: str, rounds: int, matches: int, out: TextIO, warm_up: int = len(WARM_UP)) -> Comparison:
    """Alternate this checkout and ``revision`` for ``rounds`` rounds, printing each run."""
    with tempfile.TemporaryDirectory(prefix="sniff-rules-against-") as folder:
        # "checkout" and "revision" have eight letters each: the two trees' paths are as long as each other.
        trees = {side: Path(folder, side) for side in (CHECKOUT, REVISION)}
        copy_checkout(trees[CHECKOUT])
        commit = export_revision(revision, trees[REVISION])
        done: list[Round] = []
        for number in range(rounds):
            order = (CHECKOUT, REVISION) if number % 2 == 0 else (REVISION, CHECKOUT)
            runs = {side: measure(side, trees[side], matches, warm_up, hash_seed=number) for side in order}
            round_ = Round(order[0], runs[CHECKOUT], runs[REVISION])
            done.append(round_)
            print(
                f"round {number + 1}/{rounds}: this checkout {round_.checkout.placements_per_second:9,.0f},"
                f" {commit} {round_.revision.placements_per_second:9,.0f} placements/CPU s; ratio {round_.ratio:.3f}",
                file=out,
                flush=True,
            )
    return Comparison(commit, tuple(done))


def report(comparison: Comparison, out: TextIO) -> None:
    """Each side's median, what this checkout is, and the ratio."""
    head = _git("rev-parse", "--short", "HEAD")
    changed = " with uncommitted changes to sniff_rules" if _git("status", "--porcelain", "--", "sniff_rules") else ""
    placements = {run.placements for round_ in comparison.rounds for run in (round_.checkout, round_.revision)}
    played = (
        f"every run played the same {placements.pop():,} placements"
        if len(placements) == 1
        else "the two sides played DIFFERENT matches (the rules or the deal changed)"
    )
    print(f"this checkout (HEAD {head}{changed}): median {comparison.median(CHECKOUT):,.0f} placements/CPU s", file=out)
    print(f"{comparison.revision}: median {comparison.median(REVISION):,.0f} placements/CPU s", file=out)
    print(f"this checkout / {comparison.revision}, the median of the rounds' ratios: {comparison.ratio:.3f}x", file=out)
    print(played, file=out)


def _child(argv: Sequence[str]) -> None:
    """Warm up, time the matches, print the figures as one JSON line (run by :func:`measure`)."""
    matches, warm_up = (int(text) for text in argv)
    play_matches(PLAYERS, WARM_UP[:warm_up])
    result = play_matches(PLAYERS, range(matches))
    figures = {"library": sniff_rules.__file__, "placements": result.placements, "cpu_seconds": result.cpu_seconds}
    print(json.dumps(figures))


if __name__ == "__main__":
    _child(sys.argv[1:])
