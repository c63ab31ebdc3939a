"""The ``sniff-rules`` command: watch a match, or replay conformance vectors."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TextIO

from sniff_rules.bots import greedy_move
from sniff_rules.driver import play_match
from sniff_rules.events import Dealt, Drew, MatchWon, Placed, RoundEnded
from sniff_rules.moves import Move
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.serve import add_serve_parser, run_serve
from sniff_rules.state import State, new_match
from sniff_rules.vectorfiles import VectorResult, printable


def _describe_round_end(ended: RoundEnded) -> str:
    how = "blocked" if ended.blocked else f"seat {ended.finisher} played out"
    settlement = ended.settlement
    hands = "; ".join(
        f"seat {seat}: {' '.join(map(str, hand)) or '-'} = {pips} -> -{cost}"
        for seat, (hand, pips, cost) in enumerate(
            zip(ended.hands, settlement.hand_pips, settlement.deductions, strict=True)
        )
    )
    return f"round {ended.round_number} {how}. Settlement: {hands}. Scores {ended.scores_after}"


def _greedy(state: State, source: RandomSource) -> tuple[Move, RandomSource]:
    return greedy_move(state), source


def demo(players: int, seed: int, out: TextIO) -> State:
    """Play a whole match between greedy bots, printing every move."""
    rules = Rules.standard(players)
    state = new_match(rules, seed=seed)
    print(f"American Sniff, {players} players, target {rules.target}, seed {seed}", file=out)
    for step in play_match(state, [_greedy] * players, SplitMix64.from_seed(seed)):
        state = step.state
        line = "" if step.move is None else str(step.move)
        for event in step.events:
            if isinstance(event, Dealt):
                if event.round_number == 1:
                    if event.lot:
                        print(f"lot: {event.lot} -> seat {event.opener} opens", file=out)
                else:
                    opener = f"lot {event.lot}" if event.lot else "the finisher opens"
                    print(f"-- round {event.round_number}: seat {event.opener} opens ({opener})", file=out)
            elif isinstance(event, Placed):
                line += f"  count {event.end_count}" + (f"  +{event.points}" if event.points else "")
            elif isinstance(event, Drew) and event.must_place:
                line += f" {event.tile} (fits: must place it)"
        if step.move is not None:
            print(f"{line}  scores {state.scores}", file=out)
        for event in step.events:
            if isinstance(event, RoundEnded):
                print(_describe_round_end(event), file=out)
            elif isinstance(event, MatchWon):
                seats = ", ".join(map(str, rules.seats_of(event.side)))
                print(f"match over: side {event.side} (seat {seats}) wins with {event.scores}", file=out)
    return state


def _shown(path: Traversable) -> str:
    if not isinstance(path, Path):
        return printable(str(path))
    try:
        return printable(str(path.resolve().relative_to(Path.cwd())))
    except (ValueError, OSError):
        return printable(str(path))


def _files_of(paths: Sequence[Path]) -> tuple[list[Traversable], list[VectorResult]]:
    """The vector files the arguments name, and a FAIL for each folder that holds none."""
    from sniff_rules.conformance import vector_paths

    files: list[Traversable] = []
    empty: list[VectorResult] = []
    for path in paths:
        found = vector_paths([path])
        if not found:
            empty.append(VectorResult(_shown(path), "folder", "no vector files (*.json, *.jsonl) in it"))
        files += found
    return files, empty


def conform(paths: Sequence[Path], out: TextIO, quiet: bool = False) -> int:
    """Replay vector files (or folders of them) and print a verdict per vector.

    With no paths, replays the vectors shipped with the package, in any
    working folder. Every file named or found gets a verdict, a file that
    cannot be read, is malformed or holds no vector a FAIL with the reason
    (:mod:`sniff_rules.vectorfiles`), and so does a folder with no vector
    file. Returns the exit status: 0 when every vector passes, 1 otherwise.
    """
    from sniff_rules.conformance import check_file, shipped_vectors, vector_paths

    started = time.perf_counter()
    if paths:
        files, failed_folders = _files_of(paths)
    else:
        shipped = shipped_vectors()
        print(f"vectors shipped with sniff_rules: {_shown(shipped)}", file=out)
        files, failed_folders = vector_paths([shipped]), []
        if not files:
            failed_folders = [VectorResult(_shown(shipped), "folder", "no vector files (*.json, *.jsonl) in it")]
    for result in failed_folders:
        print(result, file=out)
    passed, failed = 0, len(failed_folders)
    for path in files:
        file_started = time.perf_counter()
        results = check_file(path, _shown(path))
        for result in results:
            if result.passed:
                passed += 1
            else:
                failed += 1
            if not quiet or not result.passed:
                print(result, file=out)
        ok = sum(r.passed for r in results)
        print(f"  {_shown(path)}: {ok}/{len(results)} passed in {time.perf_counter() - file_started:.2f} s", file=out)
    verdict = "all passed" if not failed else f"{failed} FAILED"
    print(
        f"{passed + failed} vectors in {len(files)} files: {verdict} ({time.perf_counter() - started:.2f} s)",
        file=out,
    )
    return 1 if failed or not passed else 0


def vectors(directory: Path | None, write: bool, out: TextIO) -> int:
    """Regenerate the generated vectors; print the diff against the files on disk.

    The files compared are ``directory``, else ``specs/vectors`` of the
    checkout this package runs from, else (to check only) the vectors
    shipped with the package. With ``write`` the files are rewritten and 0
    is returned; otherwise 1 is returned when they differ. Hand-written
    vectors are never touched. A ``directory`` that is no folder, or files
    that cannot be read or written, end the command with a message and
    status 2.
    """
    from sniff_rules import vectorgen
    from sniff_rules.conformance import shipped_vectors

    writable = directory if directory is not None else vectorgen.source_vector_dir()
    if write and writable is None:
        print("no specs/vectors checkout to write to; name a folder with --dir", file=out)
        return 2
    if directory is not None and (directory.exists() or directory.is_symlink()) and not directory.is_dir():
        print(f"--dir {_shown(directory)} is not a folder", file=out)
        return 2
    target: Traversable = writable if writable is not None else shipped_vectors()
    started = time.perf_counter()
    files, tally = vectorgen.generated_files()
    print(
        f"generated in {time.perf_counter() - started:.2f} s: {tally.matches} matches, {tally.rounds} rounds"
        f" ({tally.blocked} blocked), {tally.won_mid_round} matches won mid-round,"
        f" {tally.won_by_last_tile} by the last tile, {tally.moves} moves",
        file=out,
    )
    try:
        diff = list(vectorgen.diff_generated(target, files))
    except (OSError, ValueError) as err:
        print(f"{_shown(target)}: cannot read the vector files there: {printable(str(err))}", file=out)
        return 2
    if not diff:
        print(f"{_shown(target)}: the generated vectors are up to date", file=out)
        return 0
    out.writelines(diff)
    if writable is None or not write:
        print(f"{_shown(target)}: the generated vectors differ (above); rerun with --write to replace them", file=out)
        return 1
    for name, text in files.items():
        path = writable / name
        try:
            if path.is_file() and path.read_text(encoding="utf-8") == text:
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except (OSError, ValueError) as err:
            print(f"cannot write {_shown(path)}: {printable(str(err))}", file=out)
            return 2
        print(f"wrote {_shown(path)} ({len(text.encode())} bytes)", file=out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``sniff-rules`` and ``python -m sniff_rules``."""
    parser = argparse.ArgumentParser(prog="sniff-rules", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    watch = commands.add_parser("demo", help="print a whole match between greedy bots")
    watch.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    watch.add_argument("--seed", type=int, default=1)
    replay = commands.add_parser(
        "conform", help="replay conformance vectors against this library; exit 1 on any failure"
    )
    replay.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="vector files or folders (default: the vectors shipped with the package)",
    )
    replay.add_argument("-q", "--quiet", action="store_true", help="print failures and totals only")
    regenerate = commands.add_parser(
        "vectors", help="regenerate the generated vectors and print how they differ from the files"
    )
    mode = regenerate.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="print the diff; exit 1 when it is not empty (default)")
    mode.add_argument("--write", action="store_true", help="rewrite the generated files")
    regenerate.add_argument(
        "--dir", type=Path, default=None, help="vector folder (default: specs/vectors of this checkout)"
    )
    add_serve_parser(commands)
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            demo(args.players, args.seed, sys.stdout)
        elif args.command == "conform":
            return conform(args.paths, sys.stdout, args.quiet)
        elif args.command == "vectors":
            return vectors(args.dir, args.write, sys.stdout)
        elif args.command == "serve":
            return run_serve(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of the output went away (``| head``): stop quietly, as other tools do, and
        # point stdout at nothing so that the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return 0
