"""The ``sniff-rules`` command: play a match, simulate bots, replay a match, watch one, check conformance vectors.

What ``--help`` shows is plain text (:data:`DESCRIPTION` and each
command's help), never this module's docstrings, whose markup is for the
documentation.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from collections.abc import Sequence
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final, TextIO

from sniff_rules.cli.protocol_commands import add_protocol_parsers, run_protocol_command
from sniff_rules.cli.serve import add_serve_parser, run_serve
from sniff_rules.errors import SniffError
from sniff_rules.moves import Move
from sniff_rules.play.bots import greedy_move
from sniff_rules.play.driver import play_match
from sniff_rules.play.registry import BOT_GRAMMAR
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import State, new_match
from sniff_rules.verify.vectors.files import VectorResult, printable

DESCRIPTION: Final = (
    "American Sniff from the command line: play a match against the fair bots, simulate matches between bots,"
    " replay a recorded match, watch a demo match, check conformance vectors, or play in the browser."
)
"""What ``sniff-rules --help`` says the command is, in plain text."""


def _greedy(state: State, source: RandomSource) -> tuple[Move, RandomSource]:
    return greedy_move(state), source


def demo(players: int, seed: int, out: TextIO) -> State:
    """Play a whole match between greedy bots, every event told as ``play`` and ``replay`` tell it.

    The lines are :func:`sniff_rules.draw.narration.describe`'s; every hand is
    shown, as a replay shows a record's.
    """
    from sniff_rules.draw.narration import COLOUR, PLAIN, Seating, colour_wanted, describe

    rules = Rules.standard(players)
    state = new_match(rules, seed=seed)
    seating = Seating.of(rules, {})
    palette = COLOUR if colour_wanted(out) else PLAIN
    print(
        palette.bold(f"American Sniff, {players} players, to {rules.target} points, seed {seed}: greedy bots"), file=out
    )
    for step in play_match(state, [_greedy] * players, SplitMix64.from_seed(seed)):
        state = step.state
        for event in step.events:
            out.writelines(line + "\n" for line in describe(event, seating, palette))
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
    from sniff_rules.verify.vectors.conformance import vector_paths

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
    (:mod:`sniff_rules.verify.vectors.files`), and so does a folder with no vector
    file. Returns the exit status: 0 when every vector passes, 1 otherwise.
    """
    from sniff_rules.verify.vectors.conformance import check_file, shipped_vectors, vector_paths

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
    import sniff_rules.verify.vectors.generate as vectorgen
    from sniff_rules.verify.vectors.conformance import shipped_vectors

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


def _rules(players: int, target: int | None) -> Rules:
    standard = Rules.standard(players)
    return standard if target is None else Rules(players, standard.hand_size, target)


def _names(text: str) -> list[str]:
    return [name for name in text.split(",") if name.strip()] or [text]


MIN_COLUMNS: Final = 40
"""The narrowest terminal the games are laid out for: every line of ``play`` and ``replay`` fits it."""

_WIDTH_HELP: Final = f"lay the text out in COLUMNS ({MIN_COLUMNS} to 500; default: the terminal's width, or 80)"


def _columns(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not MIN_COLUMNS <= int(text) <= 500:
        raise argparse.ArgumentTypeError(f"a number of columns from {MIN_COLUMNS} to 500, got {text!r:.20}")
    return int(text)


def _terminal_width(out: TextIO, asked: int | None = None) -> int:
    import shutil

    if asked is not None:
        return asked
    return max(MIN_COLUMNS, shutil.get_terminal_size((80, 24)).columns) if out.isatty() else 80


def play_command(args: argparse.Namespace, read: TextIO, out: TextIO) -> int:
    """``sniff-rules play``: a person at ``read``/``out`` against the fair bots."""
    from sniff_rules.cli.terminal_game import GameSettings, Session, bots_for_seats
    from sniff_rules.draw.narration import COLOUR, PLAIN, colour_wanted, unicode_ok

    try:
        rules = _rules(args.players, args.target)
    except SniffError as refusal:
        print(f"sniff-rules play: {refusal}", file=sys.stderr)
        return 2
    if not 0 <= args.seat < rules.players:
        print(f"sniff-rules play: --seat is 0..{rules.players - 1}", file=sys.stderr)
        return 2
    try:
        bots = bots_for_seats(rules.players, args.seat, _names(args.bots))
    except SniffError as refusal:
        print(f"sniff-rules play: --bots: {refusal}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(3), "big")
    ascii_only = args.ascii or not unicode_ok(out)
    settings = GameSettings(
        rules, args.seat, bots, seed, _terminal_width(out, args.width), ascii_only, args.save, args.bot_timeout
    )
    return Session(settings, read, out, COLOUR if colour_wanted(out) else PLAIN).run()


def simulate_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``sniff-rules simulate``: the table (or JSON) on ``out``, progress and timing on ``err``."""
    import json

    import sniff_rules.cli.simulate as simulation
    from sniff_rules.cli.progress import Progress
    from sniff_rules.cli.simulate_ray import RayError

    try:
        rules = _rules(args.players, args.target)
        lineup = simulation.lineup_for(rules, _names(args.bots))
        plan = simulation.Simulation(rules, lineup, args.seed, args.matches)
    except SniffError as refusal:
        print(f"sniff-rules simulate: {refusal}", file=err)
        return 2
    shown = not args.no_progress and err.isatty() and args.matches >= 20
    progress = Progress(args.matches, err) if shown else None
    started = time.perf_counter()
    try:
        summary = simulation.run(plan, args.workers, args.ray, None if progress is None else progress.advance)
    except RayError as failed:
        print(f"sniff-rules {failed}", file=err)
        return 2
    except SniffError as refusal:
        # A cmd: bot that broke the protocol or answered a move it was not offered stops the simulation.
        print(f"sniff-rules simulate: {refusal}", file=err)
        return 2
    finally:
        if progress is not None:
            progress.close()
    seconds = time.perf_counter() - started
    if args.json:
        out.write(json.dumps(simulation.summary_to_data(summary), indent=1) + "\n")
    else:
        out.write(simulation.table(summary))
    where = f"Ray ({args.ray})" if args.ray else f"{args.workers} process{'es' if args.workers > 1 else ''}"
    print(
        f"{args.matches} matches in {seconds:.2f} s over {where}: {args.matches / seconds:.1f} matches a second",
        file=err,
    )
    return 0


def replay_command(args: argparse.Namespace, out: TextIO) -> int:
    """``sniff-rules replay``: a record or a recorded match, turn by turn; ``--svg`` pictures."""
    import sniff_rules.cli.replay as replaying
    from sniff_rules.draw.narration import COLOUR, PLAIN, colour_wanted, unicode_ok

    palette = COLOUR if colour_wanted(out) else PLAIN
    ascii_only = args.ascii or not unicode_ok(out)
    width = _terminal_width(out, args.width)
    try:
        record, label = replaying.load_record(args.record)
        picture = None if args.svg is None else replaying.svg_writer(args.svg)
        replaying.replay(record, label, out, palette, width, picture, drawn=not args.brief, ascii_only=ascii_only)
    except SniffError as refusal:
        print(f"sniff-rules replay: {printable(str(refusal))}", file=sys.stderr)
        return 2
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"a count from 1, got {text}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    # Compared so that nan, which is neither above nor below 0, is refused too.
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"seconds above 0 and at most 3600, got {text}")
    return value


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], name: str, says: str
) -> argparse.ArgumentParser:
    """A command whose --help opens with what the list of commands says it does (argparse's % doubled there)."""
    return commands.add_parser(name, help=says, description=says.replace("%%", "%"))


def _add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    person = _command(commands, "play", "play a match in the terminal against the fair bots")
    person.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    person.add_argument(
        "--seat", type=int, default=0, help="your seat (default 0); at 4 players seat +2 is your partner"
    )
    person.add_argument("--seed", type=int, default=None, help="the deal's seed (default: a fresh one, shown)")
    person.add_argument(
        "--bots",
        default="greedy",
        help=f"the bots, {BOT_GRAMMAR} (N deals a decision) or cmd:COMMAND (a bot process speaking"
        " specs/protocol.md), for every other seat or one each, comma-separated in seat order (default greedy)",
    )
    person.add_argument(
        "--bot-timeout",
        type=_seconds,
        default=10.0,
        help="seconds a cmd: bot has to answer a move (default 10); a later answer stops the match",
    )
    person.add_argument("--target", type=int, default=None, help="points to win (default: the standard target)")
    person.add_argument("--ascii", action="store_true", help="draw the table without box-drawing characters")
    person.add_argument("--width", type=_columns, default=None, metavar="COLUMNS", help=_WIDTH_HELP)
    person.add_argument(
        "--save", type=Path, default=None, metavar="FILE", help="write the match record to FILE at the end, for replay"
    )
    many = _command(commands, "simulate", "play many matches between bots; win rates with 95%% intervals")
    many.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    many.add_argument("--matches", type=_positive, default=100)
    many.add_argument(
        "--bots",
        default="greedy,random",
        help="the bots, comma-separated: one for all, one per side, or at 4 players one per seat with "
        f"partners (seats 0 and 2, 1 and 3) the same bot; each {BOT_GRAMMAR}",
    )
    many.add_argument("--seed", type=int, default=1, help="match i is dealt by seed + i (default 1)")
    many.add_argument("--target", type=int, default=None, help="points to win (default: the standard target)")
    many.add_argument("--workers", type=_positive, default=1, help="local processes to play on (default 1)")
    many.add_argument("--ray", metavar="ADDRESS", default=None, help="play on a Ray cluster: an address, auto or local")
    many.add_argument("--json", action="store_true", help="write the summary and every outcome as JSON")
    many.add_argument("--no-progress", action="store_true", help="no progress bar")
    again = _command(commands, "replay", "print a match record, or a recorded vector's match, turn by turn")
    again.add_argument("record", metavar="RECORD", help="a match record's JSON file, or a recorded match: 2p-01")
    again.add_argument("--svg", type=Path, metavar="DIR", default=None, help="write one SVG picture per move")
    again.add_argument("--brief", action="store_true", help="one line a move, the table not drawn")
    again.add_argument("--ascii", action="store_true", help="draw the table without box-drawing characters")
    again.add_argument("--width", type=_columns, default=None, metavar="COLUMNS", help=_WIDTH_HELP)


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser: every command, its options and its plain-text help."""
    parser = argparse.ArgumentParser(prog="sniff-rules", description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True)
    _add_commands(commands)
    watch = _command(commands, "demo", "print a whole match between greedy bots")
    watch.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    watch.add_argument("--seed", type=int, default=1)
    replay = _command(commands, "conform", "replay conformance vectors against this library; exit 1 on any failure")
    replay.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="vector files or folders (default: the vectors shipped with the package)",
    )
    replay.add_argument("-q", "--quiet", action="store_true", help="print failures and totals only")
    regenerate = _command(
        commands, "vectors", "regenerate the generated vectors and print how they differ from the files"
    )
    mode = regenerate.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="print the diff; exit 1 when it is not empty (default)")
    mode.add_argument("--write", action="store_true", help="rewrite the generated files")
    regenerate.add_argument(
        "--dir", type=Path, default=None, help="vector folder (default: specs/vectors of this checkout)"
    )
    add_serve_parser(commands)
    add_protocol_parsers(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``sniff-rules`` and ``python -m sniff_rules``."""
    args = build_parser().parse_args(argv)
    if isinstance(sys.stdout, io.TextIOWrapper):
        # A terminal or pipe that cannot show a character gets a replacement, never a traceback.
        sys.stdout.reconfigure(errors="replace")
    try:
        if args.command == "play":
            return play_command(args, sys.stdin, sys.stdout)
        if args.command == "simulate":
            return simulate_command(args, sys.stdout, sys.stderr)
        if args.command == "replay":
            return replay_command(args, sys.stdout)
        if args.command == "demo":
            demo(args.players, args.seed, sys.stdout)
        elif args.command == "conform":
            return conform(args.paths, sys.stdout, args.quiet)
        elif args.command == "vectors":
            return vectors(args.dir, args.write, sys.stdout)
        elif args.command == "serve":
            return run_serve(args)
        elif args.command in ("engine", "bot", "check-engine"):
            return run_protocol_command(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of the output went away (``| head``): stop quietly, as other tools do, and
        # point stdout at nothing so that the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return 0
