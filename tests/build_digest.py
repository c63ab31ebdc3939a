"""A digest of what the engine does, to compare the pure and the compiled builds byte for byte.

``python3 tests/build_digest.py --matches 2000 > digest.txt`` prints one line per part:
the generated vector files (perft, randomness, the recorded matches), the verdict of
every shipped conformance vector, and every state and move of ``--matches`` random
matches of 2, 3 and 4 players, each state written as its JSON. ``.ci/run`` prints it
under both builds and fails when the two differ in any byte. Everything is seeded:
a build prints the same lines every time.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from sniff_rules.formats.state_json import state_to_json
from sniff_rules.moves import apply, legal_moves
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, new_match, next_round
from sniff_rules.verify.vectors.conformance import check_paths, shipped_vectors
from sniff_rules.verify.vectors.generate import generated_files


def _line(part: str, count: int, digest: hashlib._Hash) -> str:
    return f"{part}: {count} {digest.hexdigest()}"


def generated_part() -> str:
    files, _ = generated_files()
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(f"{name}\n{files[name]}\n".encode())
    return _line("generated vector files", len(files), digest)


def verdicts_part() -> str:
    folder = shipped_vectors()
    results = check_paths([folder])
    digest = hashlib.sha256()
    for result in results:
        # Paths within the vectors' folder: the two builds are tested in two checkouts (.ci/run).
        path = Path(result.path).relative_to(str(folder)).as_posix()
        failure = str(result.failure).replace(str(folder), "<vectors>")
        digest.update(f"{path} {result.name} {failure}\n".encode())
    return _line("conformance verdicts", len(results), digest)


def matches_part(matches: int) -> str:
    """Every state and move of ``matches`` random matches; a refused move would end the run with its error."""
    digest = hashlib.sha256()
    states = 0
    for seed in range(matches):
        rules = Rules.standard(2 + seed % 3)
        choose = random.Random(seed).random
        state = new_match(rules, seed=seed)
        while True:
            digest.update(state_to_json(state).encode())
            states += 1
            if state.phase is Phase.MATCH_OVER:
                break
            if state.phase is Phase.ROUND_OVER:
                state = next_round(state)
                continue
            moves = legal_moves(state)
            move = moves[int(choose() * len(moves))]
            digest.update(f"{move}\n".encode())
            state = apply(state, move)
    return _line(f"states of {matches} random matches", states, digest)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--matches", type=int, default=500, help="random matches to digest (default 500)")
    options = parser.parse_args(argv)
    for line in (generated_part(), verdicts_part(), matches_part(options.matches)):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
