"""The seeded fuzz loop: mutate real state documents, read each, and count what is accepted though unreachable.

Run from the repository root::

    python tests/fuzz_positions.py --documents 30000 --seed 1

Each document is a real state's JSON changed one to three times by
``tests/hostile_documents.py``, then read by ``sniff_rules.formats.state_json``. The
report counts the documents refused, those accepted, those accepted
although ``tests/reachability.py`` (a judge written apart from the library)
or the laws show that legal play cannot reach them — as documents and as
distinct states, by category — and every read that raised anything but a
typed ``SniffError``. Against an older checkout (``PYTHONPATH=that/checkout``)
it measures the reader before the position check; ``--no-play`` skips
playing each accepted state on to the match end.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile_documents import RandomChooser, categories, judge, mutated
from sniff_rules.formats.state_json import state_to_json


@attrs.frozen
class Report:
    """What one fuzz run found."""

    documents: int
    refused: int
    accepted: int
    unreachable: int
    distinct_unreachable: int
    by_category: dict[str, int]
    crashes: list[str]
    slowest: float

    def lines(self) -> list[str]:
        """The report as text."""
        found = [
            f"documents {self.documents}: refused {self.refused}, accepted {self.accepted}",
            f"accepted but unreachable: {self.unreachable} documents, {self.distinct_unreachable} distinct states",
        ]
        found += [f"  {category}: {count}" for category, count in sorted(self.by_category.items())]
        found.append(f"crashes (not a typed SniffError): {len(self.crashes)}")
        found += [f"  {crash}" for crash in self.crashes[:10]]
        found.append(f"slowest read and verdict: {self.slowest:.3f} s")
        return found


def run(documents: int, seed: int, play: bool = True) -> Report:
    """Mutate and judge ``documents`` documents from ``seed``."""
    rng = random.Random(seed)
    chooser = RandomChooser(rng)
    refused = accepted = unreachable = 0
    distinct: set[str] = set()
    by_category: Counter[str] = Counter()
    crashes: list[str] = []
    slowest = 0.0
    for number in range(documents):
        _, document = mutated(chooser)
        started = time.perf_counter()
        outcome, state = judge(document, seed=number, play=play)
        slowest = max(slowest, time.perf_counter() - started)
        if outcome == "refused":
            refused += 1
        elif outcome.startswith("crash"):
            crashes.append(outcome)
        else:
            accepted += 1
            found = categories(outcome)
            if found:
                unreachable += 1
                by_category.update(found)
                if state is not None:
                    distinct.add(state_to_json(state))
    return Report(documents, refused, accepted, unreachable, len(distinct), dict(by_category), crashes, slowest)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the loop and print its report; exit 1 when anything unreachable was accepted or a read crashed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-play", action="store_true", help="do not play accepted states on to the match end")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report = run(args.documents, args.seed, play=not args.no_play)
    for line in report.lines():
        print(line)
    print(f"in {time.perf_counter() - started:.1f} s")
    return 1 if report.unreachable or report.crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
