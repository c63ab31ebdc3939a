"""``sniff-rules engine``, ``bot`` and ``check-engine``: the library and its bots as processes, and the checker.

``engine`` serves :mod:`sniff_rules.protocol.engine` on stdin and stdout;
``bot NAME`` serves a fair bot; ``check-engine -- CMD [ARGS...]`` checks
the engine that command runs (:mod:`sniff_rules.verify.engine_check`) and
exits 0 when it agrees with this library, 1 on a disagreement (written to
a replay file, with the command that replays it), 2 on a usage or
protocol error. ``--junit FILE`` writes the verdicts as JUnit XML.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO
from xml.sax.saxutils import escape, quoteattr

from sniff_rules.errors import SniffError

if TYPE_CHECKING:
    from sniff_rules.protocol.remote import RemoteEngine
    from sniff_rules.verify.engine_check import Verdict


def add_protocol_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``engine``, ``bot`` and ``check-engine`` to the command line."""
    says = "serve this library over the engine protocol on stdin and stdout (specs/protocol.md)"
    commands.add_parser("engine", help=says, description=says)
    says = "serve a fair bot over the bot protocol on stdin and stdout (specs/protocol.md)"
    bot = commands.add_parser("bot", help=says, description=says)
    bot.add_argument("name", metavar="NAME", help="random, greedy, search or search:N (N deals sampled a decision)")
    bot.add_argument("--seed", type=int, default=0, help="the seed of the bot's random choices (default 0)")
    check = commands.add_parser(
        "check-engine",
        help="check an engine process against this library: vectors, then a stateful differential",
        description="check an engine process against this library; exit 0 agree, 1 disagreement, 2 usage or"
        " protocol error. Put the engine's command after --: sniff-rules check-engine -- ./my-engine --flag",
    )
    check.add_argument("--examples", type=int, default=50, help="examples of the differential (default 50)")
    check.add_argument("--seed", type=int, default=0, help="the differential's seed (default 0)")
    check.add_argument("--budget", type=float, default=None, help="stop starting examples after this many seconds")
    check.add_argument(
        "--timeout", type=float, default=10.0, help="seconds the engine has for one request (default 10)"
    )
    check.add_argument("--no-vectors", action="store_true", help="skip the conformance vectors")
    check.add_argument("--out", type=Path, default=Path("sniff-engine-failure.jsonl"), help="the replay file written")
    check.add_argument("--replay", type=Path, default=None, help="replay a replay file against the engine instead")
    check.add_argument("--junit", type=Path, default=None, help="write the verdicts as JUnit XML to this file")
    check.add_argument("engine_command", nargs=argparse.REMAINDER, metavar="-- CMD [ARGS...]")


def run_protocol_command(args: argparse.Namespace) -> int:
    """Run ``engine``, ``bot`` or ``check-engine``; the exit status."""
    if args.command == "engine":
        from sniff_rules.protocol.serve import serve_engine

        return serve_engine(sys.stdin.buffer, sys.stdout.buffer)
    if args.command == "bot":
        from sniff_rules.play.registry import parse_bot
        from sniff_rules.protocol.serve import serve_bot

        try:
            parse_bot(args.name)
        except SniffError as refusal:
            print(f"sniff-rules bot: {refusal}", file=sys.stderr)
            return 2
        return serve_bot(args.name, args.seed, sys.stdin.buffer, sys.stdout.buffer)
    return check_engine(args, sys.stdout)


def _junit(path: Path, verdicts: Sequence[object]) -> None:
    cases = []
    failures = 0
    for verdict in verdicts:
        name, passed, message, seconds = (getattr(verdict, key) for key in ("name", "passed", "message", "seconds"))
        body = (
            ""
            if passed
            else f"<failure message={quoteattr(message.split(chr(10))[0][:500])}>{escape(message)}</failure>"
        )
        failures += not passed
        cases.append(
            f'  <testcase classname="sniff-rules.check-engine" name={quoteattr(name)} time="{seconds:.3f}">'
            f"{body}</testcase>"
        )
    head = f'<testsuite name="sniff-rules check-engine" tests="{len(cases)}" failures="{failures}">'
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + "\n".join([head, *cases, "</testsuite>"]) + "\n")


def check_engine(args: argparse.Namespace, out: TextIO) -> int:
    """``sniff-rules check-engine``: print a verdict per check; 0 agree, 1 disagreement, 2 usage or protocol error."""
    from sniff_rules.protocol.process import Peer, PeerFailure
    from sniff_rules.protocol.remote import RemoteEngine
    from sniff_rules.verify.engine_check import Verdict, check_vectors, replay
    from sniff_rules.verify.engine_vectors import check_vector_kinds

    command = list(args.engine_command)
    if command[:1] == ["--"]:
        command = command[1:]
    if not command or args.examples < 1 or args.timeout <= 0:
        print(
            "sniff-rules check-engine: name the engine's command after --, examples from 1, a timeout above 0", file=out
        )
        return 2
    verdicts: list[Verdict] = []
    status = 0
    try:
        with Peer(command, timeout=args.timeout) as peer:
            engine = RemoteEngine(peer)
            engine.hello()
            if args.replay is not None:
                verdicts.append(replay(args.replay, peer))
            else:
                if not args.no_vectors:
                    started = time.perf_counter()
                    found = check_vectors(engine)
                    verdicts += [Verdict(v.name, v.passed, v.message, time.perf_counter() - started) for v in found]
                    for name, failure, seconds in check_vector_kinds(engine):
                        verdicts.append(Verdict(name, failure is None, failure or "", seconds))
                verdicts.append(_differential(engine, args, command))
    except PeerFailure as failure:
        verdicts.append(Verdict("protocol", False, str(failure)))
        status = 2
    except (OSError, SniffError) as failure:
        verdicts.append(Verdict("protocol", False, str(failure)))
        status = 2
    for verdict in verdicts:
        print(
            f"{'PASS' if verdict.passed else 'FAIL'} {verdict.name}"
            + (f": {verdict.message}" if verdict.message else ""),
            file=out,
        )
    if args.junit is not None:
        _junit(args.junit, verdicts)
    if status == 0 and not all(verdict.passed for verdict in verdicts):
        status = 1
    return status


def _differential(engine: RemoteEngine, args: argparse.Namespace, command: list[str]) -> Verdict:
    """Run the differential in batches of seeds until ``--examples`` pass, ``--budget`` is spent or one fails."""
    from sniff_rules.verify.engine_check import Verdict, check_machine as run, write_replay as write

    started = time.perf_counter()
    done = 0
    batch = 0
    while done < args.examples:
        if args.budget is not None and time.perf_counter() - started > args.budget:
            break
        count = min(25, args.examples - done)
        outcome = run(engine, count, args.seed + batch)
        seconds = time.perf_counter() - started
        if not outcome.verdict.passed:
            write(args.out, outcome.requests)
            again = shlex.join(["sniff-rules", "check-engine", "--replay", str(args.out), "--", *command])
            message = (
                f"{outcome.verdict.message}\n{len(outcome.requests)} requests written to {args.out}; replay: {again}"
            )
            return Verdict("stateful differential", False, message, seconds)
        done += count
        batch += 1
    return Verdict("stateful differential", True, f"{done} examples agree", time.perf_counter() - started)
