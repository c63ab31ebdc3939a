"""Random-playout throughput of sniff_rules against peer Python domino engines.

Run from the repository root with the peers installed (the ``bench`` extra:
all-fives-domino, dominoes, open-spiel)::

    python -m benchmarks.peers [--seconds 3] [--seed 1] [--only NAME ...]

Every adapter plays complete games choosing a uniformly random legal action
with a local ``random.Random``, and counts placements (a tile put on the
table) apart from other moves (draws and passes); sniff_rules' adapter is
:func:`benchmarks.loop.play_matches`, the loop of every sniff_rules figure.
The pick is ``options[int(rng.random() * len(options))]``, the same in every
adapter, rather than ``randrange``, whose cost in pure Python is the
benchmark's, not any engine's, and pulled every ratio towards 1
(``benchmarks/README.md`` has the figure). What one "game" is differs
between engines, so compare placements per second, not games:

- ``sniff_rules``: a match, 4 players in partnerships, 5 tiles each, to 200;
  a draw game.
- ``all-fives-domino``: a match, 2 players, 7 tiles each, to 305; a draw game.
- ``dominoes``: a series, 4 players in partnerships, 7 tiles each, to 200;
  a block game (no boneyard).
- ``open_spiel:python_block_dominoes``: one hand, 2 players, 7 tiles each;
  a block game.
- ``open_spiel:python_team_dominoes``: one hand, 4 players in partnerships,
  7 tiles each; a block game.
- ``open_spiel:crazy_eights``: not dominoes but the ceiling a Python loop can
  reach: OpenSpiel's C++ ``crazy_eights(players=4)`` played through pyspiel,
  one game of 5 cards each; a card played is its "placement", a draw, a pass
  and the suit named after an eight its other moves.

A peer that is not installed or does not import is reported as unavailable
(:func:`available_peers`, :class:`PeerUnavailable`) instead of failing the run.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any, Final, TextIO

import attrs

import sniff_rules
from benchmarks.loop import play_matches


@attrs.frozen
class PeerResult:
    """What one adapter run played and how long its play loop took."""

    name: str
    games: int
    placements: int
    other_moves: int
    """Draws and passes, as far as the engine exposes them (see each adapter)."""
    seconds: float

    @property
    def placements_per_second(self) -> float:
        return self.placements / self.seconds if self.seconds > 0 else 0.0

    @property
    def moves_per_second(self) -> float:
        """Placements and other moves: for OpenSpiel's dominoes the seats its rules skip, elsewhere real moves."""
        return (self.placements + self.other_moves) / self.seconds if self.seconds > 0 else 0.0


class PeerUnavailable(RuntimeError):
    """A peer engine is not installed, or fails to import or load here."""


SNIFF_RULES: Final = "sniff_rules"
ALL_FIVES: Final = "all-fives-domino"
DOMINOES: Final = "dominoes"
OPEN_SPIEL_BLOCK: Final = "open_spiel:python_block_dominoes"
OPEN_SPIEL_TEAM: Final = "open_spiel:python_team_dominoes"
OPEN_SPIEL_CRAZY_EIGHTS: Final = "open_spiel:crazy_eights"

# all-fives-domino ships its code as a top-level package named ``src``.
_ALL_FIVES_MODULES: Final = (
    "src.main.game.DominoRound",
    "src.main.game.Game",
    "src.main.game.Player",
    "src.main.game.exceptions.Game",
)
_DOMINOES_MODULES: Final = ("dominoes", "dominoes.game")
# Importing open_spiel.python.games is what registers the Python games.
_OPEN_SPIEL_MODULES: Final = ("pyspiel", "open_spiel.python.games")

_MODULES: Final[dict[str, tuple[str, ...]]] = {
    ALL_FIVES: _ALL_FIVES_MODULES,
    DOMINOES: _DOMINOES_MODULES,
    OPEN_SPIEL_BLOCK: _OPEN_SPIEL_MODULES,
    OPEN_SPIEL_TEAM: _OPEN_SPIEL_MODULES,
    OPEN_SPIEL_CRAZY_EIGHTS: ("pyspiel",),
}

_DISTRIBUTIONS: Final[dict[str, str]] = {
    SNIFF_RULES: "sniff-rules",
    ALL_FIVES: "all-fives-domino",
    DOMINOES: "dominoes",
    OPEN_SPIEL_BLOCK: "open-spiel",
    OPEN_SPIEL_TEAM: "open-spiel",
    OPEN_SPIEL_CRAZY_EIGHTS: "open-spiel",
}

UNITS: Final[dict[str, str]] = {
    SNIFF_RULES: "match: 4 players, partnerships, 5 tiles, to 200, draw game",
    ALL_FIVES: "match: 2 players, 7 tiles, to 305, draw game",
    DOMINOES: "series: 4 players, partnerships, 7 tiles, to 200, block game",
    OPEN_SPIEL_BLOCK: "hand: 2 players, 7 tiles, block game",
    OPEN_SPIEL_TEAM: "hand: 4 players, partnerships, 7 tiles, block game",
    OPEN_SPIEL_CRAZY_EIGHTS: "game of crazy eights in C++: 4 players, 5 cards; a card played counts as a placement",
}

_ALL_FIVES_TILES: Final = 28
_ALL_FIVES_DEALT: Final = 14
# Game.run's own cap, kept so a pathological seed cannot loop for ever.
_ALL_FIVES_MAX_ROUNDS: Final = 1000
_DOMINOES_TARGET: Final = 200


def _import(peer: str, names: Sequence[str]) -> tuple[ModuleType, ...]:
    modules: list[ModuleType] = []
    for name in names:
        try:
            modules.append(importlib.import_module(name))
        # A broken binary wheel fails with more than ImportError (e.g. a
        # symbol or ABI error surfacing as AttributeError or OSError).
        except Exception as error:
            raise PeerUnavailable(f"{peer}: cannot import {name}: {type(error).__name__}: {error}") from error
    return tuple(modules)


def available_peers() -> tuple[str, ...]:
    """The peers that import now, in the order :data:`PEERS` lists them."""
    found: list[str] = []
    for name in PEERS:
        try:
            _import(name, _MODULES[name])
        except PeerUnavailable:
            continue
        found.append(name)
    return tuple(found)


def version_of(name: str) -> str:
    """The installed distribution version behind a runner name, or ``?``."""
    try:
        return importlib.metadata.version(_DISTRIBUTIONS[name])
    except importlib.metadata.PackageNotFoundError:
        # sniff_rules is usually run from a checkout rather than installed.
        return sniff_rules.__version__ if name == SNIFF_RULES else "?"


@contextmanager
def _dealing_from(module: ModuleType, rng: random.Random) -> Iterator[None]:
    """Point a peer module's ``random`` name at ``rng`` for the block.

    all-fives-domino and dominoes shuffle their deals with the global random
    module; routing that name to the local instance makes a seed reproduce
    the whole run and leaves the global generator untouched. Both only call
    ``random.shuffle``, which a ``random.Random`` instance has.
    """
    saved = module.random
    vars(module)["random"] = rng
    try:
        yield
    finally:
        vars(module)["random"] = saved


def run_sniff_rules(games: int, seed: int, players: int = 4) -> PeerResult:
    """``games`` random matches of sniff_rules, for comparison with the peers.

    Played by :func:`benchmarks.loop.play_matches`, the loop of every other
    sniff_rules figure; ``rng`` draws each match's seed, which deals it and
    seeds its move picks. Draws and passes are counted as other moves.
    """
    rng = random.Random(seed)
    result = play_matches(players, [rng.getrandbits(64) for _ in range(games)])
    return PeerResult(SNIFF_RULES, games, result.placements, result.draws + result.passes, result.seconds)


def run_all_fives_domino(games: int, seed: int) -> PeerResult:
    """``games`` random matches of all-fives-domino (2 players, to 305).

    The turn loop mirrors ``DominoRound.run``: ``Game.run`` cannot be used
    because its ``RandomBrain`` picks with the global random module and it
    prints the winner. Placements are the tiles on the board at each round's
    end (the opening double is placed by the round's constructor); draws are
    the tiles taken from the pool beyond the deal, including those drawn
    while looking for an opening double; passes are forfeited turns.
    """
    round_module, game_module, player_module, signal_module = _import(ALL_FIVES, _ALL_FIVES_MODULES)
    domino_round: Any = round_module.DominoRound
    match_class: Any = game_module.Game
    player_class: Any = player_module.Player
    # The library ends a match by raising this from the score setter, in
    # the middle of a play or of the round settlement.
    win_signal: type[BaseException] = signal_module.GameWinSignal
    rng = random.Random(seed)
    uniform = rng.random
    placements = other = 0
    with _dealing_from(round_module, rng):
        start = time.perf_counter()
        for _ in range(games):
            first = player_class(None, "first")
            second = player_class(None, "second")
            match = match_class(first, second)
            over = False
            while not over:
                match.rounds += 1
                try:
                    domino_round(first, second, match)
                    hand = first.round
                    while len(first.hand) > 0 and len(second.hand) > 0:
                        options = hand.valid_options()
                        # The library stops drawing with one tile left in the pool.
                        while not options and len(hand.pool) > 1:
                            hand.current_player.draw()
                            options = hand.valid_options()
                        if not options:
                            hand.swap_current_player()
                            other += 1
                            options = hand.valid_options()
                            if not options:
                                break
                        piece, origin, closed = options[int(uniform() * len(options))]
                        hand.play(piece, origin, closed)
                    match.award_round_score()
                    over = match.rounds >= _ALL_FIVES_MAX_ROUNDS
                except win_signal:
                    over = True
                # The constructor sets first.round before it deals, so this is
                # the round even when its opening play won the match.
                ended = first.round
                placements += len(ended.board.get_pieces())
                other += _ALL_FIVES_TILES - _ALL_FIVES_DEALT - len(ended.pool)
        seconds = time.perf_counter() - start
    return PeerResult(ALL_FIVES, games, placements, other, seconds)


def run_dominoes(games: int, seed: int) -> PeerResult:
    """``games`` random series of dominoes (4 players, partnerships, to 200).

    ``Game.make_move`` passes for blocked players itself and records each
    pass as ``None`` in ``Game.moves``; the series' first game opens with
    [6|6], placed by ``Game.new``. Both are counted from ``Game.moves``.
    """
    dominoes_module, game_module = _import(DOMINOES, _DOMINOES_MODULES)
    series_class: Any = dominoes_module.Series
    rng = random.Random(seed)
    uniform = rng.random
    placements = other = 0
    with _dealing_from(game_module, rng):
        start = time.perf_counter()
        for _ in range(games):
            series = series_class(target_score=_DOMINOES_TARGET)
            while True:
                hand = series.games[-1]
                while hand.result is None:
                    moves = hand.valid_moves
                    domino, left = moves[int(uniform() * len(moves))]
                    hand.make_move(domino, left)
                passes = sum(1 for move in hand.moves if move is None)
                placements += len(hand.moves) - passes
                other += passes
                if series.next_game() is None:
                    break
        seconds = time.perf_counter() - start
    return PeerResult(DOMINOES, games, placements, other, seconds)


def _run_open_spiel(name: str, short_name: str, games: int, seed: int) -> PeerResult:
    """``games`` random hands of an OpenSpiel Python dominoes game.

    Every player action is a placement: these games have no pass action and
    hand the turn on to the next player who can place. The seats skipped
    that way are counted as passes; the deal is chance nodes, counted as
    neither but played (and timed) like any other step.
    """
    pyspiel = _import(name, _OPEN_SPIEL_MODULES)[0]
    try:
        game = pyspiel.load_game(short_name)
    except Exception as error:
        raise PeerUnavailable(f"{name}: cannot load {short_name}: {type(error).__name__}: {error}") from error
    players: int = game.num_players()
    rng = random.Random(seed)
    uniform = rng.random
    placements = other = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                # Every outcome has probability 1/len(deck), so a uniform
                # pick is the exact chance distribution.
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(uniform() * len(outcomes))][0])
                continue
            player = state.current_player()
            actions = state.legal_actions()
            state.apply_action(actions[int(uniform() * len(actions))])
            placements += 1
            if not state.is_terminal():
                other += (state.current_player() - player - 1) % players
    seconds = time.perf_counter() - start
    return PeerResult(name, games, placements, other, seconds)


def run_open_spiel_block(games: int, seed: int) -> PeerResult:
    """``games`` random hands of OpenSpiel's ``python_block_dominoes``."""
    return _run_open_spiel(OPEN_SPIEL_BLOCK, "python_block_dominoes", games, seed)


def run_open_spiel_team(games: int, seed: int) -> PeerResult:
    """``games`` random hands of OpenSpiel's ``python_team_dominoes``."""
    return _run_open_spiel(OPEN_SPIEL_TEAM, "python_team_dominoes", games, seed)


_CRAZY_EIGHTS_CARDS: Final = 52
"""crazy_eights' actions below this play a card; 52 draws, 53 passes, 54 to 57 name a suit."""


def run_open_spiel_crazy_eights(games: int, seed: int) -> PeerResult:
    """``games`` random games of OpenSpiel's C++ ``crazy_eights(players=4)`` through pyspiel.

    The same loop as :func:`_run_open_spiel`, written out again on purpose:
    a shared loop taking the counting as a callback would time the callback
    too. Chance nodes (the deal) are played and timed but counted as neither;
    a card played is a placement, every other player action (draw, pass, a
    suit named) another move.
    """
    pyspiel = _import(OPEN_SPIEL_CRAZY_EIGHTS, ("pyspiel",))[0]
    try:
        game = pyspiel.load_game("crazy_eights(players=4)")
    except Exception as error:
        raise PeerUnavailable(f"{OPEN_SPIEL_CRAZY_EIGHTS}: cannot load it: {type(error).__name__}: {error}") from error
    rng = random.Random(seed)
    uniform = rng.random
    placements = other = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(uniform() * len(outcomes))][0])
                continue
            actions = state.legal_actions()
            action = actions[int(uniform() * len(actions))]
            state.apply_action(action)
            if action < _CRAZY_EIGHTS_CARDS:
                placements += 1
            else:
                other += 1
    seconds = time.perf_counter() - start
    return PeerResult(OPEN_SPIEL_CRAZY_EIGHTS, games, placements, other, seconds)


Runner = Callable[[int, int], PeerResult]

PEERS: Final[dict[str, Runner]] = {
    ALL_FIVES: run_all_fives_domino,
    DOMINOES: run_dominoes,
    OPEN_SPIEL_BLOCK: run_open_spiel_block,
    OPEN_SPIEL_TEAM: run_open_spiel_team,
    OPEN_SPIEL_CRAZY_EIGHTS: run_open_spiel_crazy_eights,
}

RUNNERS: Final[dict[str, Runner]] = {SNIFF_RULES: run_sniff_rules, **PEERS}


def run_for(runner: Runner, seconds: float, seed: int) -> PeerResult:
    """Run about ``seconds`` worth of games: double a probe run until it
    takes a tenth of the budget, then scale its count up to the budget.

    The probe also warms caches (sniff_rules' move tables, imports) so the
    measured run does not pay for them.
    """
    games = 1
    while True:
        probe = runner(games, seed)
        if probe.seconds >= seconds / 10 or games >= 1 << 20:
            break
        games *= 2
    scaled = max(1, math.ceil(games * seconds / max(probe.seconds, 1e-9)))
    return runner(scaled, seed)


def _report(results: Sequence[tuple[PeerResult, str]], out: TextIO) -> None:
    base = next((r.placements_per_second for r, _ in results if r.name == SNIFF_RULES), 0.0)
    print(
        f"{'engine':34} {'version':>8} {'games':>6} {'placements':>10} {'other':>8} {'s':>6}"
        f" {'placements/s':>12} {'vs sniff':>8} {'moves/s':>9}",
        file=out,
    )
    for result, version in results:
        ratio = f"{result.placements_per_second / base:8.2f}" if base else f"{'-':>8}"
        print(
            f"{result.name:34} {version:>8} {result.games:6d} {result.placements:10d} {result.other_moves:8d}"
            f" {result.seconds:6.2f} {result.placements_per_second:12.0f} {ratio} {result.moves_per_second:9.0f}",
            file=out,
        )
    print("", file=out)
    for result, _ in results:
        print(f"{result.name}: one game = {UNITS[result.name]}", file=out)


def main(argv: Sequence[str] | None = None) -> int:
    """Run sniff_rules and every available peer for a while each; print placements/s."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.peers", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="play time per engine (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="+", choices=tuple(RUNNERS), help="engines to run (default all)")
    args = parser.parse_args(argv)
    names: Sequence[str] = args.only or tuple(RUNNERS)
    results: list[tuple[PeerResult, str]] = []
    for name in names:
        try:
            result = run_for(RUNNERS[name], args.seconds, args.seed)
        except PeerUnavailable as error:
            print(f"unavailable: {error}", file=sys.stderr)
            continue
        results.append((result, version_of(name)))
    _report(results, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
