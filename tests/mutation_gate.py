"""Fail when the rules core's mutation score is below the bar.

Reads the counts that ``python3 -m mutmut export-cicd-stats`` writes to
``mutants/mutmut-cicd-stats.json`` and computes

    score = killed / (total - skipped)

Timeouts, survivors and mutants without tests all count against the score.
A run that did not check every mutant (interrupted, or counts that do not
add up to the total) fails too, so a partial run cannot pass. Exit status:
0 at or above the bar (95% unless ``--min`` says otherwise), 1 below it or
for an incomplete run, 2 when the file is missing or unreadable.

Usage, from the repository root after a full run (see specs/mutation.md):

    python3 tests/mutation_gate.py [--stats PATH] [--min PERCENT]

Not a test module: pytest does not collect it (no ``test_`` prefix).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

DEFAULT_STATS = Path("mutants/mutmut-cicd-stats.json")
DEFAULT_MIN_PERCENT = 95.0
CHECKED = ("killed", "survived", "no_tests", "skipped", "suspicious", "timeout", "segfault")


def read_counts(path: Path) -> dict[str, int]:
    """The integer counts of the stats file; a missing count is 0."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a JSON object")
    keys = (*CHECKED, "total", "check_was_interrupted_by_user")
    counts = {key: data.get(key, 0) for key in keys}
    for key, value in counts.items():
        if type(value) is not int or value < 0:
            raise ValueError(f"{path}: {key} is {value!r}, not a count")
    return counts


def verdict(counts: dict[str, int], min_percent: float) -> tuple[bool, str]:
    """Whether the counts pass the bar, and the line to print."""
    total, skipped, killed = counts["total"], counts["skipped"], counts["killed"]
    # Not checked, interrupted, or anything else the file does not count as a verdict.
    unchecked = total - sum(counts[key] for key in CHECKED)
    tested = total - skipped
    if tested <= 0:
        return False, f"no mutant was tested (total {total}, skipped {skipped})"
    score = 100.0 * killed / tested
    line = (
        f"mutation score {score:.2f}% = killed {killed} / (total {total} - skipped {skipped});"
        f" survived {counts['survived']}, timeout {counts['timeout']}, no tests {counts['no_tests']},"
        f" suspicious {counts['suspicious']}, segfault {counts['segfault']}; bar {min_percent:g}%"
    )
    if unchecked:
        return False, f"{line}; INCOMPLETE: {unchecked} mutants were not checked"
    return score >= min_percent, line


def main(argv: Sequence[str] | None = None) -> int:
    """Print the score; 0 when it meets the bar, 1 when not, 2 when the stats cannot be read."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--stats", type=Path, default=DEFAULT_STATS, help=f"default: {DEFAULT_STATS}")
    parser.add_argument("--min", type=float, default=DEFAULT_MIN_PERCENT, help="bar in percent (default: 95)")
    args = parser.parse_args(argv)
    try:
        counts = read_counts(args.stats)
    except (OSError, ValueError) as error:
        print(f"cannot read the mutation stats: {error}", file=sys.stderr)
        return 2
    passed, line = verdict(counts, args.min)
    print(("PASS " if passed else "FAIL ") + line)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
