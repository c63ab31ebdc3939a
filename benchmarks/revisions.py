"""4-player placements/s of this checkout against another git revision, measured in one run.

Run from the repository root, through ``benchmarks.playouts``::

    python3 -m benchmarks.playouts --against 8248792
    python3 -m benchmarks.playouts --against main --rounds 10 --matches 300

Only the ``sniff_rules`` package comes from the other revision, exported
with ``git archive`` into a temporary folder; the loop that plays and times
the matches is this checkout's :func:`benchmarks.loop.play_matches` on both
sides, so the library is the only difference. Every measurement is a fresh
process that imports one side's package, warms it up, and times the same
4-player matches; the two sides take turns, the first of each round
swapping (checkout, revision; revision, checkout; ...), so that a machine
growing busier or quieter slows both alike. Each side's median rate is
reported, and their ratio: above 1 when this checkout is faster.
"""

from __future__ import annotations

import io
import json
import os
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
    seconds: float

    @property
    def placements_per_second(self) -> float:
        """Placements over the timed loop's seconds."""
        return self.placements / self.seconds


@attrs.frozen
class Comparison:
    """Every run of both sides, in the order they ran."""

    revision: str
    """The other revision's abbreviated commit hash."""
    runs: tuple[Run, ...]

    def median(self, side: str) -> float:
        """The median placements/s of one side's runs."""
        return statistics.median(run.placements_per_second for run in self.runs if run.side == side)

    @property
    def ratio(self) -> float:
        """This checkout's median rate over the revision's."""
        return self.median(CHECKOUT) / self.median(REVISION)


def _git(*arguments: str) -> str:
    done = subprocess.run(["git", "-C", str(ROOT), *arguments], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RevisionError(f"git {' '.join(arguments)}: {done.stderr.strip()}")
    return done.stdout.strip()


def export_library(revision: str, into: Path) -> str:
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


def measure(side: str, tree: Path, matches: int, warm_up: int = len(WARM_UP)) -> Run:
    """Time ``matches`` 4-player matches in a fresh process whose ``sniff_rules`` is ``tree``'s.

    The process starts in ``tree``, which Python puts first on the path, and
    finds the benchmarks through ``PYTHONPATH``; ``PYTHONHASHSEED`` is fixed
    so that both sides hash alike.
    """
    path = os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))
    environment = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": "0"}
    command = [sys.executable, "-m", "benchmarks.revisions", str(matches), str(warm_up)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tree, env=environment, check=False)
    if done.returncode != 0:
        raise RevisionError(f"{side}: the measuring process failed ({done.returncode}): {done.stderr[-800:]}")
    figures = json.loads(done.stdout.splitlines()[-1])
    library = str(figures["library"])
    if not Path(library).resolve().is_relative_to(tree.resolve()):
        raise RevisionError(f"{side}: imported {library}, not the sniff_rules of {tree}")
    return Run(side, library, int(figures["placements"]), float(figures["seconds"]))


def compare(revision: str, rounds: int, matches: int, out: TextIO, warm_up: int = len(WARM_UP)) -> Comparison:
    """Alternate this checkout and ``revision`` for ``rounds`` rounds, printing each run."""
    with tempfile.TemporaryDirectory(prefix="sniff-rules-revision-") as folder:
        other = Path(folder)
        commit = export_library(revision, other)
        trees = {CHECKOUT: ROOT, REVISION: other}
        runs: list[Run] = []
        for number in range(rounds):
            order = (CHECKOUT, REVISION) if number % 2 == 0 else (REVISION, CHECKOUT)
            for side in order:
                run = measure(side, trees[side], matches, warm_up)
                runs.append(run)
                label = "this checkout" if side == CHECKOUT else commit
                print(
                    f"round {number + 1}/{rounds}: {label:>13} {run.placements_per_second:9,.0f} placements/s",
                    file=out,
                    flush=True,
                )
    return Comparison(commit, tuple(runs))


def report(comparison: Comparison, out: TextIO) -> None:
    """Each side's median, what this checkout is, and the ratio."""
    head = _git("rev-parse", "--short", "HEAD")
    changed = " with uncommitted changes to sniff_rules" if _git("status", "--porcelain", "--", "sniff_rules") else ""
    placements = {run.placements for run in comparison.runs}
    played = (
        f"every run played the same {placements.pop():,} placements"
        if len(placements) == 1
        else "the two sides played DIFFERENT matches (the rules or the deal changed)"
    )
    print(f"this checkout (HEAD {head}{changed}): median {comparison.median(CHECKOUT):,.0f} placements/s", file=out)
    print(f"{comparison.revision}: median {comparison.median(REVISION):,.0f} placements/s", file=out)
    print(f"this checkout / {comparison.revision}: {comparison.ratio:.3f}x; {played}", file=out)


def _child(argv: Sequence[str]) -> None:
    """Warm up, time the matches, print the figures as one JSON line (run by :func:`measure`)."""
    matches, warm_up = (int(text) for text in argv)
    play_matches(PLAYERS, WARM_UP[:warm_up])
    result = play_matches(PLAYERS, range(matches))
    figures = {"library": sniff_rules.__file__, "placements": result.placements, "seconds": result.seconds}
    print(json.dumps(figures))


if __name__ == "__main__":
    _child(sys.argv[1:])
