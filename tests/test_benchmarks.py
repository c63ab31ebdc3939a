"""The benchmark scripts count what they claim: moves, shared memory, replays across processes."""

from __future__ import annotations

import io
import random
import statistics
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from benchmarks import instructions, peers, playouts, revisions
from benchmarks.loop import play_matches
from benchmarks.playouts import _interned, bytes_added, profile, recorded, scaling
from sniff_rules.layout import Layout, Port
from sniff_rules.moves import Draw, Pass, Place, apply, legal_moves
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, new_match, next_round
from sniff_rules.tiles import Tile
from support import interpreted_only, pt


def _moves_played(players: int, seeds: Iterable[int]) -> tuple[int, int, int]:
    """Placements, draws and passes of matches replayed move by move here, one per seed,
    each seed dealing its match and seeding its picks, as the benchmarks' loop does."""
    counts = {Place: 0, Draw: 0, Pass: 0}
    for seed in seeds:
        state = new_match(Rules.standard(players), seed=seed)
        uniform = random.Random(seed).random
        while state.phase is not Phase.MATCH_OVER:
            if state.phase is Phase.ROUND_OVER:
                state = next_round(state)
                continue
            moves = legal_moves(state)
            move = moves[int(uniform() * len(moves))]
            counts[type(move)] += 1
            state = apply(state, move)
    return counts[Place], counts[Draw], counts[Pass]


def _peer_seeds(seed: int, games: int) -> list[int]:
    """The matches of ``peers.run_sniff_rules``: one generator draws every match's seed."""
    rng = random.Random(seed)
    return [rng.getrandbits(64) for _ in range(games)]


def test_playouts_count_each_kind_of_move_and_replay_by_seed() -> None:
    """The figures divide these counts: a miscount would be a wrong rate."""
    first = play_matches(3, range(4))
    again = play_matches(3, range(4))
    replayed = _moves_played(3, range(4))
    assert (first.placements, first.draws, first.passes) == replayed
    assert (first.outcome, first.placements) == (again.outcome, again.placements)
    assert 4 == first.matches == len(first.outcome)


def test_the_peer_runner_for_sniff_rules_counts_placements_apart() -> None:
    """--compare divides by placements only; draws and passes go to the other column."""
    result = peers.run_sniff_rules(3, seed=5)
    placements, draws, passes = _moves_played(4, _peer_seeds(5, 3))
    assert (placements, draws + passes) == (result.placements, result.other_moves)
    assert (peers.SNIFF_RULES, 3) == (result.name, result.games)


def test_the_crazy_eights_runner_counts_cards_played_as_placements() -> None:
    """The C++ ceiling's placements are the actions OpenSpiel itself calls playing a card, replayed here by
    their names; draws, passes and suits named are its other moves."""
    pyspiel = pytest.importorskip("pyspiel")
    result = peers.run_open_spiel_crazy_eights(3, seed=4)
    game = pyspiel.load_game("crazy_eights(players=4)")
    uniform = random.Random(4).random
    kinds: dict[str, int] = {}
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(uniform() * len(outcomes))][0])
                continue
            actions = state.legal_actions()
            action = actions[int(uniform() * len(actions))]
            kind = state.action_to_string(state.current_player(), action).split()[0]
            kinds[kind] = kinds.get(kind, 0) + 1
            state.apply_action(action)
    played = kinds.pop("Play")
    assert {"Draw", "Nominate"} <= set(kinds) <= {"Draw", "Pass", "Nominate"}
    assert (played, sum(kinds.values())) == (result.placements, result.other_moves)


def test_the_instruction_count_divides_the_placements_of_the_peer_runner(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks.instructions: its measured process plays and prints the placements of the one loop."""
    instructions._child(peers.SNIFF_RULES, 2)
    printed = int(capsys.readouterr().out.split()[-1])
    assert _moves_played(4, _peer_seeds(instructions.SEED, 2))[0] == printed


def test_the_split_calls_each_part_on_the_recorded_moves(capsys: pytest.CaptureFixture[str]) -> None:
    """--split: every part's measured process records the same moves and prints their placements."""
    expected = sum(1 for _, move in recorded(4, 1) if type(move) is Place)
    for part in ("none", "legal_moves", "apply"):
        instructions._split_child(part, 1)
        assert expected == int(capsys.readouterr().out.split()[-1])


def test_the_split_counts_allocation_by_function_name() -> None:
    """Only the allocator's, deallocators' and collector's own counts are summed, commas and all."""
    annotated = (
        "12,594,101 ( 2.57%)  Objects/obmalloc.c:_PyObject_Free [/lib/libpython3.11.so]\n"
        "35,456,200 ( 7.25%)  Python/ceval.c:_PyEval_EvalFrameDefault'2 [/lib/libpython3.11.so]\n"
        " 6,733,224 ( 1.38%)  Modules/gcmodule.c:gc_collect_main [/lib/libpython3.11.so]\n"
        "   900 ( 0.00%)  Objects/tupleobject.c:tupledealloc [/lib/libpython3.11.so]\n"
    )
    assert 12_594_101 + 6_733_224 + 900 == instructions.allocation_in(annotated)


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


def test_recorded_pairs_are_the_moves_of_the_playouts() -> None:
    """The per-call timings replay the loop's own positions: every move of the same matches,
    each legal where it was recorded."""
    pairs = recorded(2, 2)
    played = play_matches(2, range(2))
    assert played.placements + played.draws + played.passes == len(pairs)
    assert sum(type(move) is Place for _, move in pairs) == played.placements
    assert all(move in legal_moves(state) for state, move in pairs)


@interpreted_only("cProfile sees the calls of interpreted functions, not of compiled ones")
def test_the_profile_times_the_playouts_it_names() -> None:
    """--profile: the engine's calls are counted once per move of the same matches."""
    matches = play_matches(4, range(2))
    functions = profile(4, 2).get_stats_profile().func_profiles
    moves = matches.placements + matches.draws + matches.passes
    assert (str(moves), str(moves)) == (functions["legal_moves"].ncalls, functions["apply"].ncalls)


def test_against_a_revision_alternates_the_two_checkouts() -> None:
    """--against: the sides take turns, the first swapping each round; each run imports its own
    side's copy of sniff_rules and plays the matches asked for; the ratio is the rounds' median."""
    out = io.StringIO()
    comparison = revisions.compare("HEAD", rounds=3, matches=2, out=out, warm_up=1)
    checkout, revision = revisions.CHECKOUT, revisions.REVISION
    assert [checkout, revision, checkout] == [round_.first for round_ in comparison.rounds]
    trees = {(Path(r.checkout.library).parents[1], Path(r.revision.library).parents[1]) for r in comparison.rounds}
    assert 1 == len(trees)
    ((checkout_tree, revision_tree),) = trees
    assert (checkout, revision) == (checkout_tree.name, revision_tree.name)
    assert not checkout_tree.is_relative_to(revisions.ROOT)
    expected = play_matches(4, range(2)).placements
    assert [expected] * 3 == [round_.checkout.placements for round_ in comparison.rounds]
    ratios = [
        round_.checkout.placements_per_second / round_.revision.placements_per_second for round_ in comparison.rounds
    ]
    assert statistics.median(ratios) == pytest.approx(comparison.ratio)
    revisions.report(comparison, out)
    lines = out.getvalue().splitlines()
    assert 3 == sum(line.startswith("round ") for line in lines)
    assert f"this checkout / {comparison.revision}, the median of the rounds' ratios: {comparison.ratio:.3f}x" in lines


def test_against_an_unknown_revision_exits_with_git_s_message(capsys: pytest.CaptureFixture[str]) -> None:
    """--against: a revision git cannot resolve stops the run with exit status 2 and git's reason."""
    assert 2 == playouts.main(["--against", "no-such-revision-anywhere"])
    assert "no-such-revision-anywhere" in capsys.readouterr().err


def test_the_protocol_benchmark_counts_its_requests() -> None:
    """SETUP-5: a match through the protocol: a new_match, a legal_moves and an apply a move, a next_round a round."""
    from benchmarks.protocol import ENGINE, play_through
    from sniff_rules.protocol.process import Peer
    from sniff_rules.protocol.remote import RemoteEngine
    from sniff_rules.randomness import RandomSource, SplitMix64, draw_below

    state = new_match(Rules.standard(2), seed=4)
    source: RandomSource = SplitMix64.from_seed(4)
    expected = 1
    while state.phase is not Phase.MATCH_OVER:
        if state.phase is Phase.ROUND_OVER:
            state, expected = next_round(state), expected + 1
            continue
        moves = legal_moves(state)
        choice, source = draw_below(source, len(moves))
        state, expected = apply(state, moves[choice]), expected + 2
    with Peer(ENGINE, timeout=120) as peer:
        assert expected == play_through(RemoteEngine(peer), 1, seed=4)


def test_the_tables_benchmark_plays_over_http_and_websocket_and_counts_its_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """benchmarks/tables.py, at a tiny size: a 4-person table played over HTTP and WebSocket with nothing
    refused, and a figure of tables within 1 GiB."""
    pytest.importorskip("websockets", reason="the tables benchmark needs the web extra")
    from benchmarks import tables

    tables.main(["--matches", "1", "--parallel", "1", "--until", "12", "--stores", "memory", "--capacity", "20"])
    out = capsys.readouterr().out
    assert "0 refused" in out
    assert "tables within 1 GiB" in out
