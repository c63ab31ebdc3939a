"""The OpenSpiel adapter's tensors: perfect recall of the information state, and the incremental tensors' numbers."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the [openspiel] extra")
np = pytest.importorskip("numpy", reason="the OpenSpiel adapter needs the [openspiel] extra")

import sniff_rules.adapters.openspiel  # noqa: E402  (registers the game, after the skip)
from sniff_rules.adapters.openspiel.observer import AmericanSniffObserver  # noqa: E402
from sniff_rules.layout import PORTS  # noqa: E402
from sniff_rules.tiles import TILE_COUNT  # noqa: E402

SHAPES = [(2, "round"), (3, "round"), (4, "round"), (2, "match"), (3, "match")]
"""Every table size in round scope, and matches long enough to have earlier rounds."""
POINT_COLUMNS = TILE_COUNT + PORTS
"""The columns of a history row that say where a placement went."""


def _load(players: int, scope: str) -> Any:
    return pyspiel.load_game(
        sniff_rules.adapters.openspiel.GAME_NAME, {"players": players, "scope": scope, "max_rounds": 3}
    )


def play(game: Any, deal_seed: int, choices: Sequence[int], *, stop: bool = False) -> Iterator[Any]:
    """Every state of one history: the lot and the deal from ``deal_seed``, then each later choice (a seat's
    move or a draw's tile) the next of ``choices`` modulo the options; once they run out, the history ends
    (``stop``) or goes on with the first option."""
    dealer = random.Random(deal_seed)
    picks = iter(choices)
    left = len(choices)
    state = game.new_initial_state()
    while True:
        yield state.clone()
        if state.is_terminal():
            return
        options = state.legal_actions()
        if state.is_chance_node() and state.core.phase != sniff_rules.adapters.openspiel.core.DRAW:
            state.apply_action(options[dealer.randrange(len(options))])
        elif stop and not left:
            return
        else:
            state.apply_action(options[next(picks, 0) % len(options)])
            left -= 1


def information_states(game: Any, states: Sequence[Any]) -> dict[tuple[int, bytes], set[str]]:
    """Each (seat, information-state tensor) seen in ``states``, with the information-state strings it came with."""
    seen: dict[tuple[int, bytes], set[str]] = {}
    for state in states:
        for player in range(game.num_players()):
            key = (player, state.information_state_tensor(player).tobytes())
            seen.setdefault(key, set()).add(state.information_state_string(player))
    return seen


def without_points(game: Any, tensor: Any) -> bytes:
    """The tensor with the placements' points taken out of its history rows: the tensor before perfect recall."""
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    start = observer.offsets["history"]
    rows = tensor[start : start + observer.dict["history"].size].reshape(-1, observer.row)
    return bytes(np.concatenate([tensor[:start], rows[:, :-POINT_COLUMNS].ravel(), tensor[start + rows.size :]]))


def assert_recall(game: Any, states: Sequence[Any]) -> None:
    """Equal tensors for a seat only where its strings are equal, and equal strings only where its tensors are."""
    seen = information_states(game, states)
    assert [] == [strings for strings in seen.values() if len(strings) > 1]
    strings = [string for found in seen.values() for string in found]
    assert len(set(strings)) == len(strings)


@pytest.mark.parametrize(("players", "scope"), SHAPES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal_seed=st.integers(0, 2**32), prefix=st.lists(st.integers(0, 5), max_size=120))
def test_the_tensor_tells_apart_every_two_histories_the_string_does(
    players: int, scope: str, deal_seed: int, prefix: list[int]
) -> None:
    """Perfect recall: a random history from a random deal, then every way of going on from its end for three
    moves (each seat's move and each draw's tile): over every pair of those histories, a seat's information-state
    tensor is equal at two nodes exactly where its information-state string is."""
    game = _load(players, scope)
    states = list(play(game, deal_seed, prefix, stop=True))
    assert_recall(game, [*states, *_tree(states[-1], 3)])


def _tree(state: Any, depth: int) -> list[Any]:
    """Every node below ``state`` down to ``depth`` seats' moves, each draw's every tile included."""
    frontier, nodes = [state], []
    for _ in range(depth):
        frontier = [child for node in frontier for child in _every_child(node)]
        nodes += frontier
    return nodes


def _every_child(state: Any) -> list[Any]:
    """The states after each action of the seat to move, through every outcome of the draws that follow."""
    if state.is_terminal() or state.is_chance_node():
        return []
    children = []
    for action in state.legal_actions():
        pending = [state.child(action)]
        while pending:
            child = pending.pop()
            if child.is_chance_node() and child.core.phase == sniff_rules.adapters.openspiel.core.DRAW:
                pending += [child.child(outcome) for outcome in child.legal_actions()]
            elif not child.is_chance_node():
                children.append(child)
    return children


def test_placements_on_swapped_points_are_told_apart() -> None:
    """Every history of four moves from one deal: where two placements swap their points the old rows (seat,
    kind, tile) were equal while the strings differed; the points in each row tell every such pair apart."""
    game = _load(2, "round")
    start = next(state for state in play(game, 0, []) if state.is_player_node())
    frontier, states = [start], [start]
    for _ in range(4):
        frontier = [child for state in frontier for child in _children(state)]
        states += frontier
    assert_recall(game, states)
    old: dict[tuple[int, bytes], set[str]] = {}
    for state in states:
        for player in range(2):
            key = (player, without_points(game, state.information_state_tensor(player)))
            old.setdefault(key, set()).add(state.information_state_string(player))
    assert [] != [strings for strings in old.values() if len(strings) > 1]


def _children(state: Any) -> list[Any]:
    children = []
    for action in state.legal_actions():
        child = state.child(action)
        while child.is_chance_node():
            child.apply_action(child.legal_actions()[0])
        children.append(child)
    return children


def test_earlier_rounds_of_a_match_are_in_the_tensor() -> None:
    """In match scope, second-round states of matches played apart: a seat's tensors are equal exactly where its
    strings are, earlier rounds included."""
    game = _load(2, "match")
    rounds = []
    for choice in range(6):
        state = next(s for s in play(game, 5, [choice] * 400) if s.core.round_number == 2 and s.is_player_node())
        rounds.append(state)
    assert_recall(game, rounds)
    assert len({state.information_state_string(0) for state in rounds}) > 1


@pytest.mark.parametrize(("players", "scope"), SHAPES)
def test_the_kept_tensors_are_those_built_afresh_and_those_pyspiel_gives(players: int, scope: str) -> None:
    """The tensors kept from call to call equal a new observer's and pyspiel's own (C++) at every node, for
    every seat, as are the masks: nothing stale survives a step, a branch or a new round."""
    game = _load(players, scope)
    states = [*play(game, players, list(range(7)) * 60), *play(game, players + 1, [1, 2] * 200)]
    random.Random(players).shuffle(states)  # the kept tensors jump between histories, as a search would
    for state in states:
        for player in range(players):
            for recall in (False, True):
                kind = pyspiel.IIGObservationType(perfect_recall=recall)
                fresh = game.make_py_observer(kind)
                fresh.set_from(state, player)
                given = state.information_state_tensor(player) if recall else state.observation_tensor(player)
                native = (pyspiel.State.information_state_tensor if recall else pyspiel.State.observation_tensor)(
                    state, player
                )
                assert fresh.tensor.tolist() == given.tolist() == native
        if state.is_player_node():
            assert (
                pyspiel.State.legal_actions_mask(state, state.current_player()) == state.legal_actions_mask().tolist()
            )


def test_a_tensor_handed_out_is_the_callers_own() -> None:
    """Changing a tensor the state handed out changes no later tensor: each call gives a new array."""
    game = _load(2, "round")
    state = next(s for s in play(game, 3, []) if s.is_player_node())
    first = state.information_state_tensor(0)
    expected = first.tolist()
    first[:] = 7
    assert expected == state.information_state_tensor(0).tolist()


def test_the_observer_reports_the_rows_it_writes() -> None:
    """A history row is the seat, four kinds, the tile, the point's tile and its port: players + 66 columns."""
    game = _load(3, "round")
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert isinstance(observer, AmericanSniffObserver)
    assert (3 + 66, game.shape.round_actions * (3 + 66)) == (observer.row, observer.dict["history"].size)
