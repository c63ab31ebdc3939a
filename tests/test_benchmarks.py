"""The benchmark scripts count what they claim: moves, shared memory, replays across processes."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable, Iterator

from benchmarks import peers
from benchmarks.playouts import _interned, bytes_added, play_matches, profile, recorded, scaling
from sniff_rules import Draw, Layout, Pass, Phase, Place, Port, Rules, Tile, apply, legal_moves, new_match, next_round
from support import pt


def _moves_played(players: int, games: Iterable[tuple[int, Callable[[], float]]]) -> tuple[int, int, int]:
    """Placements, draws and passes of matches replayed move by move here: one per
    (deal seed, uniform picker) pair, picking as the benchmarks do."""
    counts = {Place: 0, Draw: 0, Pass: 0}
    for seed, uniform in games:
        state = new_match(Rules.standard(players), seed=seed)
        while state.phase is not Phase.MATCH_OVER:
            if state.phase is Phase.ROUND_OVER:
                state = next_round(state)
                continue
            moves = legal_moves(state)
            move = moves[int(uniform() * len(moves))]
            counts[type(move)] += 1
            state = apply(state, move)
    return counts[Place], counts[Draw], counts[Pass]


def _peer_games(seed: int, games: int) -> Iterator[tuple[int, Callable[[], float]]]:
    """The games of ``peers.run_sniff_rules``: one generator deals every match and picks every move."""
    rng = random.Random(seed)
    for _ in range(games):
        yield rng.getrandbits(64), rng.random


def test_playouts_count_each_kind_of_move_and_replay_by_seed() -> None:
    """The figures divide these counts: a miscount would be a wrong rate."""
    first = play_matches(3, range(4))
    again = play_matches(3, range(4))
    replayed = _moves_played(3, ((seed, random.Random(seed).random) for seed in range(4)))
    assert (first.placements, first.draws, first.passes) == replayed
    assert (first.outcome, first.placements) == (again.outcome, again.placements)
    assert 4 == first.matches == len(first.outcome)


def test_the_peer_runner_for_sniff_rules_counts_placements_apart() -> None:
    """--compare divides by placements only; draws and passes go to the other column."""
    result = peers.run_sniff_rules(3, seed=5)
    placements, draws, passes = _moves_played(4, _peer_games(5, 3))
    assert (placements, draws + passes) == (result.placements, result.other_moves)
    assert (peers.SNIFF_RULES, 3) == (result.name, result.games)


def test_memory_counts_new_objects_only() -> None:
    """A state adds nothing to itself; a placement adds at least the new State, Layout and
    their changed tuples, and never the interned tiles and placements every state shares."""
    before = new_match(Rules.standard(4), seed=3)
    lead = apply(before, Place(3, Tile(2, 5)))
    after = apply(lead, Place(0, Tile(0, 5), pt(Tile(2, 5), Port.HIGH)))
    assert 0 == bytes_added(after, after)
    new = (after, after.layout, after.hand_masks, after.layout.placements, after.layout.open_point_ids)
    added = bytes_added(lead, after)
    assert added >= sum(sys.getsizeof(item) for item in new)
    interned = _interned()
    assert {id(placement) for placement in after.layout.placements} <= interned
    assert {id(tile) for tile in after.hand(0)} <= interned
    # The same objects, counted again without the interned set, cost more: the filter is at work.
    assert bytes_added(lead, after, interned=frozenset()) > added


def test_the_interned_set_holds_every_placement_a_layout_can_record() -> None:
    """Built from the layout module's tables, not their names: a placement from Layout.place is in it."""
    layout = Layout.EMPTY.place(Tile(5, 5), None).place(Tile(1, 5), pt(Tile(5, 5), Port.CHAIN_A))
    assert {id(placement) for placement in layout.placements} <= _interned()


def test_workers_replay_the_same_matches() -> None:
    """--workers: the same seeds over two processes give the scores of one process."""
    _one, _many, agree = scaling(2, 4, 2)
    assert agree


def test_recorded_pairs_are_legal_moves_of_their_states() -> None:
    """The per-call timings replay real positions: each recorded move is legal where it was recorded."""
    pairs = recorded(2, 2)
    assert pairs and all(move in legal_moves(state) for state, move in pairs)


def test_the_profile_times_the_playouts_it_names() -> None:
    """--profile: the engine's calls are counted once per move of the same matches."""
    matches = play_matches(4, range(2))
    functions = profile(4, 2).get_stats_profile().func_profiles
    moves = matches.placements + matches.draws + matches.passes
    assert (str(moves), str(moves)) == (functions["legal_moves"].ncalls, functions["apply"].ncalls)
