"""Random-playout throughput of sniff_rules, and against the peers with --compare.

Run from the repository root (``benchmarks/README.md`` has the figures)::

    python3 -m benchmarks.playouts                 # sniff_rules alone
    python3 -m benchmarks.playouts --compare       # and every installed peer, same run
    python3 -m benchmarks.playouts --workers 2     # the process-pool speed-up
    python3 -m benchmarks.playouts --profile 15    # where the time goes (cProfile)
    python3 -m benchmarks.playouts --against REV   # this checkout against a git revision

Peers come with ``pip install -e '.[bench]'``. Every figure is a rate
measured in this run; ratios compare engines measured in the same run,
alternating, so a busy machine slows them alike. Every sniff_rules rate is
of matches played by :func:`benchmarks.loop.play_matches`; the per-call
timings replay positions of the same matches. What is reported:

- complete random matches for 2, 3 and 4 players: matches/s, placements/s,
  draws and passes apart;
- ``legal_moves`` and ``apply`` alone, in microseconds a call, over states
  recorded from the first of those matches;
- the bytes a state adds to the one before it (the rest is shared);
- with ``--workers N``: the same seeds played over N processes, checked to
  give results identical to one process, and the speed-up;
- with ``--profile N``, instead of the figures: cProfile's N functions of
  most own time over 4-player matches. cProfile adds a fixed cost to every
  call, so it overstates small functions; it shows where the time goes,
  and ``benchmarks.instructions`` measures whether a change pays;
- with ``--against REV``, instead of the figures: 4-player placements per
  CPU second of this checkout's and of the revision's ``sniff_rules``, in
  alternating processes (``benchmarks.revisions``), each side's median and
  the ratio.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Final

import attrs

from benchmarks import peers, revisions
from benchmarks.loop import Playouts, play_matches
from sniff_rules import layout, tiles
from sniff_rules.layout import Port
from sniff_rules.moves import Move, apply, legal_moves
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round


def recorded(players: int, matches: int) -> list[tuple[State, Move]]:
    """(state, move) pairs of the matches ``play_matches(players, range(matches))``
    plays, picked the same way, to time ``legal_moves`` and ``apply`` alone."""
    rules = Rules.standard(players)
    pairs: list[tuple[State, Move]] = []
    for seed in range(matches):
        state = new_match(rules, seed=seed)
        uniform = random.Random(seed).random
        while state.phase is not Phase.MATCH_OVER:
            if state.phase is Phase.ROUND_OVER:
                state = next_round(state)
                continue
            moves = legal_moves(state)
            move = moves[int(uniform() * len(moves))]
            pairs.append((state, move))
            state = apply(state, move)
    return pairs


def microseconds_per_call(pairs: list[tuple[State, Move]], repeat: int = 5) -> tuple[float, float]:
    """Best-of-``repeat`` cost of ``legal_moves`` and of ``apply``, in µs a call."""
    best_legal = best_apply = float("inf")
    gc.disable()  # the recorded states are all alive; collections would time the list, not the calls
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            for state, _move in pairs:
                legal_moves(state)
            best_legal = min(best_legal, time.perf_counter() - start)
            start = time.perf_counter()
            for state, move in pairs:
                apply(state, move)
            best_apply = min(best_apply, time.perf_counter() - start)
    finally:
        gc.enable()
    return best_legal / len(pairs) * 1e6, best_apply / len(pairs) * 1e6


def _identity(item: object) -> object:
    """What tells two reachable objects apart: an int by its value, since the compiled build's native
    values box an int field anew on every read; any other object by its id."""
    return ("int", item) if type(item) is int else id(item)


def _reachable(root: object) -> dict[object, object]:
    """Every object reachable from ``root`` through attrs fields, tuples and dict values."""
    seen: dict[object, object] = {}
    todo = [root]
    while todo:
        item = todo.pop()
        key = _identity(item)
        if key in seen or item is None or isinstance(item, (bool, str, float)):
            continue
        seen[key] = item
        if isinstance(item, tuple):
            todo.extend(item)
        elif isinstance(item, dict):
            todo.extend(item.values())  # the library's tables; states hold none
        elif attrs.has(type(item)):
            todo.extend(getattr(item, name) for name in attrs.fields_dict(type(item)))  # type: ignore[arg-type]
    return seen


def _interned() -> frozenset[object]:
    """ids of the values every state shares process-wide: the library's tiles,
    attachment points, placements, ports and phases, built once at import.

    Found through whatever tuples and dicts ``sniff_rules.tiles`` and
    ``sniff_rules.layout`` hold at module level, not by the tables' names, so
    that an older version of the package, put first on the path, is measured
    the same way (the README's before-and-after figures).
    """
    tables: list[object] = [tuple(Port), tuple(Phase)]
    for module in (tiles, layout):
        tables += [value for value in vars(module).values() if isinstance(value, (tuple, dict))]
    return frozenset(_reachable(tuple(tables)))


_SMALL_INTS: Final = range(-5, 257)
"""CPython keeps one object for each of these ints."""


def _is_interned(item: object, interned: frozenset[object]) -> bool:
    return _identity(item) in interned or (type(item) is int and item in _SMALL_INTS)


def bytes_added(before: State, after: State, interned: frozenset[object] | None = None) -> int:
    """Bytes of the objects ``after`` holds that ``before`` does not share.

    Small ints and the library's interned tiles, points and placements are
    shared process-wide and so are never counted.
    """
    shared = _interned() if interned is None else interned
    old = _reachable(before)
    return sum(
        sys.getsizeof(item)
        for key, item in _reachable(after).items()
        if key not in old and not _is_interned(item, shared)
    )


def memory_report(pairs: list[tuple[State, Move]]) -> tuple[float, int, int]:
    """Mean and largest bytes added per move, and the size of a mid-round state
    (both without the interned values every state shares)."""
    interned = _interned()
    added = [bytes_added(state, apply(state, move), interned) for state, move in pairs[:2000]]
    middle = pairs[len(pairs) // 2][0]
    whole = sum(sys.getsizeof(item) for item in _reachable(middle).values() if not _is_interned(item, interned))
    return statistics.fmean(added), max(added), whole


def _chunks(seeds: Sequence[int], parts: int) -> list[list[int]]:
    return [list(seeds[i::parts]) for i in range(parts)]


def _play_chunk(job: tuple[int, list[int]]) -> Playouts:
    return play_matches(job[0], job[1])


def scaling(players: int, matches: int, workers: int) -> tuple[float, float, bool]:
    """Seconds on one process, on ``workers`` processes, and whether they agree."""
    seeds = list(range(matches))
    start = time.perf_counter()
    single = play_matches(players, seeds)
    one = time.perf_counter() - start
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_play_chunk, [(players, [s]) for s in range(workers)]))  # start the workers first
        start = time.perf_counter()
        parts = list(pool.map(_play_chunk, [(players, chunk) for chunk in _chunks(seeds, workers)]))
        many = time.perf_counter() - start
    by_seed: dict[int, tuple[int, ...]] = {}
    for chunk, part in zip(_chunks(seeds, workers), parts, strict=True):
        by_seed.update(zip(chunk, part.outcome, strict=True))
    agree = tuple(by_seed[s] for s in seeds) == single.outcome
    return one, many, agree


ROUNDS: Final = 3


def compare(seconds: float) -> list[tuple[peers.PeerResult, str]]:
    """Every available engine, run ``ROUNDS`` times in turn; the median rate of each."""
    names = (peers.SNIFF_RULES, *peers.available_peers())
    runs: dict[str, list[peers.PeerResult]] = {name: [] for name in names}
    for _ in range(ROUNDS):
        for name in names:
            runs[name].append(peers.run_for(peers.RUNNERS[name], seconds / ROUNDS, seed=1))
    results = []
    for name in names:
        ordered = sorted(runs[name], key=lambda r: r.placements_per_second)
        results.append((ordered[len(ordered) // 2], peers.version_of(name)))
    return results


def profile(players: int, matches: int) -> pstats.Stats:
    """cProfile's figures for ``matches`` random matches, costliest own time first."""
    profiler = cProfile.Profile()
    profiler.runcall(play_matches, players, range(matches))
    return pstats.Stats(profiler, stream=sys.stdout).strip_dirs().sort_stats(pstats.SortKey.TIME)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the playout figures; with --compare the peers' too."""
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.playouts", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--matches", type=int, help="matches per player count (default 200), or per run with --against (default 600)"
    )
    parser.add_argument("--compare", action="store_true", help="also run the installed peers, alternating")
    parser.add_argument("--seconds", type=float, default=6.0, help="play time per engine with --compare")
    parser.add_argument("--workers", type=int, default=0, help="also measure N worker processes")
    parser.add_argument(
        "--profile", type=int, default=0, metavar="N", help="print cProfile's N costliest functions, and nothing else"
    )
    parser.add_argument(
        "--against",
        metavar="REV",
        help="compare 4-player placements/s with a git revision's sniff_rules, and nothing else",
    )
    parser.add_argument("--rounds", type=int, default=10, help="runs of each side with --against (default 10)")
    args = parser.parse_args(argv)
    if args.against:
        matches = 600 if args.matches is None else args.matches
        try:
            revisions.report(revisions.compare(args.against, args.rounds, matches, sys.stdout), sys.stdout)
        except revisions.RevisionError as error:
            print(error, file=sys.stderr)
            return 2
        return 0
    matches = 200 if args.matches is None else args.matches
    play_matches(4, range(10_000, 10_020))  # fill the move tables before timing
    if args.profile:
        profile(4, matches).print_stats(args.profile)
        return 0
    print(f"{'players':>7} {'matches/s':>10} {'placements/s':>13} {'draws/s':>9} {'passes/s':>9}")
    for players in (2, 3, 4):
        result = play_matches(players, range(matches))
        rate = 1 / result.seconds
        print(
            f"{players:7d} {result.matches * rate:10.1f} {result.placements * rate:13.0f}"
            f" {result.draws * rate:9.0f} {result.passes * rate:9.0f}"
        )
    pairs = recorded(4, 40)
    legal_us, apply_us = microseconds_per_call(pairs)
    print(f"4 players, {len(pairs)} recorded moves: legal_moves {legal_us:.2f} us, apply {apply_us:.2f} us a call")
    mean_added, most_added, whole = memory_report(pairs)
    print(
        f"memory: a move adds {mean_added:.0f} bytes on average (at most {most_added}); a whole state is {whole} bytes"
    )
    if args.workers:
        one, many, agree = scaling(4, matches, args.workers)
        print(
            f"{args.workers} workers: {one:.2f} s -> {many:.2f} s, speed-up {one / many:.2f}x,"
            f" results {'identical' if agree else 'DIFFERENT'} to one process"
        )
        if not agree:
            return 1
    if args.compare:
        print()
        peers._report(compare(args.seconds), sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
