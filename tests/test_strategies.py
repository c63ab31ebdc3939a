"""sniff_rules.verify.strategies: each strategy produces what it claims, and hypothesis stays optional."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase as HypothesisPhase, find, given, settings, strategies as st
from hypothesis.errors import InvalidArgument

import sniff_rules
import sniff_rules.verify.strategies as strategies
from sniff_rules.errors import SniffError
from sniff_rules.layout import Port
from sniff_rules.moves import Move, apply, legal_moves
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, Tile
from sniff_rules.verify.strategies import (
    NextRound,
    Playthrough,
    illegal_moves_of,
    legal_moves_of,
    playthroughs,
    register_strategies,
    rules,
    seeds,
    states,
    tiles,
)
from support import layout_of, library_namespace, make_state, pt

ROOT = Path(__file__).resolve().parent.parent

# Names a repr may use; the library's own, as a frontend gets them with a star import.
NAMESPACE: dict[str, Any] = library_namespace()
NAMESPACE.update({name: getattr(strategies, name) for name in strategies.__all__})

SEARCH = settings(max_examples=1000, database=None, phases=[HypothesisPhase.generate, HypothesisPhase.shrink])


def refusal(state: State, move: Move) -> str:
    """The rule id ``apply`` cites when it refuses ``move``; fails if it accepts it."""
    try:
        apply(state, move)
    except SniffError as error:
        return error.rule
    raise AssertionError(f"{move!r} was accepted in {state!r}")


FIVE = Tile(5, 5)
SNIFF_HALF_OPEN = make_state(
    2,
    [[Tile(4, 5), Tile(0, 1)], [Tile(6, 6)]],
    layout=layout_of((FIVE, None), (Tile(2, 5), pt(FIVE, Port.CHAIN_A))),
    boneyard=[Tile(1, 2)],
)
"""Seat 0 holds [4|5] while the Sniff [5|5] has one long side free."""

JUST_DREW = make_state(
    2,
    [[Tile(0, 1), Tile(1, 2), Tile(3, 4)], [Tile(6, 6)]],
    layout=layout_of((Tile(3, 5), None)),
    boneyard=[Tile(0, 2)],
    drawn=Tile(3, 4),
)
"""Seat 0 drew [3|4], which fits the open 3; [0|1] and [1|2] could never go."""

STUCK = make_state(
    2,
    [[Tile(0, 1)], [Tile(3, 6), Tile(2, 2)]],
    layout=layout_of((Tile(3, 5), None)),
)
"""Seat 0 cannot place and the boneyard is empty: only a pass is legal."""


def _after_the_lead(rules: Rules, seed: int) -> State:
    state = new_match(rules, seed)
    return apply(state, legal_moves(state)[0])


ROUND_OVER = _after_the_lead(Rules(2, 1, 5), 0)
"""One tile a hand: the lead [3|4] plays out and ends the round, scoring nothing."""
MATCH_OVER = _after_the_lead(Rules(2, 1, 5), 8)
"""One tile a hand, target 5: the lead [5|5] scores 10 and wins."""
OPENING = new_match(Rules.standard(4), seed=3)


def test_import_sniff_rules_leaves_hypothesis_out() -> None:
    """Importing sniff_rules (and its core modules) does not import hypothesis; the strategies do."""
    probe = (
        "import sys\n"
        "import sniff_rules, sniff_rules.play.bots, sniff_rules.play.view, sniff_rules.draw.tally\n"
        "assert 'hypothesis' not in sys.modules, sorted(m for m in sys.modules if 'hypothesis' in m)\n"
        "import sniff_rules.verify.strategies\n"
        "assert 'hypothesis' in sys.modules\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, env=environment)
    assert 0 == result.returncode, result.stderr


@given(tiles())
def test_tiles_are_the_double_six_set(tile: Tile) -> None:
    """SETUP-1: tiles() draws one of the 28 canonical tiles."""
    assert tile in DOUBLE_SIX
    assert tile == Tile(tile.low, tile.high)


def test_tiles_reach_the_whole_set() -> None:
    """SETUP-1: tiles() can draw the last tile of the set, and shrinks to the first."""
    assert Tile(6, 6) == find(tiles(), lambda tile: tile.is_double and tile.low == 6, settings=SEARCH)
    assert Tile(0, 0) == find(tiles(), lambda tile: True, settings=SEARCH)


@given(rules())
def test_rules_are_valid_house_rules(house: Rules) -> None:
    """SETUP-2, SETUP-3, SETUP-4: every drawn rule set passes the Rules validators and leaves a boneyard."""
    assert house == Rules(house.players, house.hand_size, house.target)
    assert house.players in (2, 3, 4)
    assert 1 <= house.hand_size
    assert house.players * house.hand_size < 28
    assert house.target > 0
    assert house.target % 5 == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rules_give_standard_and_custom_tables(players: int) -> None:
    """SETUP-2, SETUP-3, SETUP-4: rules() gives the standard rules and custom ones; custom=False only standard."""
    assert Rules.standard(players) == find(
        rules(players), lambda house: house == Rules.standard(players), settings=SEARCH
    )
    smallest = find(rules(players), lambda house: house != Rules.standard(players), settings=SEARCH)
    assert Rules(players, 1, 5) == smallest
    largest_hand = find(rules(players), lambda house: (house.players * (house.hand_size + 1)) >= 28, settings=SEARCH)
    assert 27 // players == largest_hand.hand_size

    @given(rules(players, custom=False))
    def only_standard(house: Rules) -> None:
        assert Rules.standard(players) == house

    only_standard()


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: rules(5), "players"),
        (lambda: rules([]), "players"),
        (lambda: rules(max_target=4), "max_target"),
        (lambda: states(max_moves=-1), "max_moves"),
        (lambda: legal_moves_of(MATCH_OVER), "no legal move"),
    ],
)
def test_bad_arguments_are_refused(call: Callable[[], object], argument: str) -> None:
    """SETUP-2, MATCH-2: a strategy asked for something impossible says so at once."""
    with pytest.raises(InvalidArgument, match=argument):
        call()


@given(seeds())
def test_seeds_deal_matches(seed: int) -> None:
    """SETUP-5: every seed is a valid SplitMix64 start and deals the same match twice."""
    assert 0 <= seed < 2**64
    assert new_match(Rules.standard(3), seed) == new_match(Rules.standard(3), seed)


@given(playthroughs(max_moves=150))
def test_playthroughs_are_legal_play_and_replay(played: Playthrough) -> None:
    """TURN-1, END-1, OPEN-2, MATCH-2: each step was legal where made, and replaying the steps gives the state."""
    state = new_match(played.rules, played.seed)
    for step in played.steps:
        assert state.phase is not Phase.MATCH_OVER
        if isinstance(step, NextRound):
            assert state.phase is Phase.ROUND_OVER
            state = next_round(state)
        else:
            assert step in legal_moves(state)
            state = apply(state, step)
    assert played.state == state
    assert played.replay() == state


@given(states(max_moves=150))
def test_state_reprs_paste_back(state: State) -> None:
    """SETUP-1: a reached state's repr is code that rebuilds an equal state, so failure output replays."""
    assert state == eval(repr(state), NAMESPACE)


@given(playthroughs(players=2, max_moves=60))
def test_playthrough_reprs_and_scripts_replay(played: Playthrough) -> None:
    """SETUP-5: a playthrough's repr pastes back, and its script rebuilds its state."""
    assert played == eval(repr(played), NAMESPACE)
    scope: dict[str, Any] = {}
    exec(played.script(), scope)
    assert played.state == scope["state"]


@pytest.mark.parametrize("phase", list(Phase))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_states_reach_every_phase(players: int, phase: Phase) -> None:
    """END-1, MATCH-1, SETUP-2: states() reaches playing, settled and won states for each table size."""
    found = find(states(players), lambda state: state.phase is phase, settings=SEARCH)
    assert players == found.rules.players
    assert phase is found.phase


def test_states_reach_later_rounds_and_drawn_tiles() -> None:
    """OPEN-2, DRAW-2: states() goes past a settled round and reaches a drawn tile that must be placed."""
    later = find(states(), lambda state: state.round_number > 1, settings=SEARCH)
    assert later.last_round is not None
    drawn = find(states(), lambda state: state.drawn_tile is not None, settings=SEARCH)
    assert drawn.drawn_tile in drawn.hand(drawn.to_move)


@given(states(max_moves=100), st.data())
def test_legal_moves_of_are_legal(state: State, data: st.DataObject) -> None:
    """TURN-1, TURN-2: legal_moves_of draws a listed move by the seat to move, which applies."""
    if state.phase is not Phase.PLAYING:
        with pytest.raises(InvalidArgument):
            legal_moves_of(state)
        return
    move = data.draw(legal_moves_of(state))
    assert move in legal_moves(state)
    assert state.to_move == move.seat
    apply(state, move)


@given(states(max_moves=100), st.data())
def test_illegal_moves_of_are_refused_and_change_nothing(state: State, data: st.DataObject) -> None:
    """TURN-2, PLACE-1, PLACE-3, END-1, MATCH-2: an illegal move is not listed, raises SniffError, leaves the state."""
    before = repr(state)
    move = data.draw(illegal_moves_of(state))
    assert move not in legal_moves(state)
    assert isinstance(move, (sniff_rules.Place, sniff_rules.Draw, sniff_rules.Pass))
    refusal(state, move)
    assert before == repr(state)


@pytest.mark.parametrize(
    ("name", "state", "rule"),
    [
        ("opening", OPENING, "TURN-2"),
        ("opening", OPENING, "PLACE-3"),
        ("opening", OPENING, "OPEN-3"),
        ("opening", OPENING, "DRAW-1"),
        ("opening", OPENING, "PASS-1"),
        ("sniff", SNIFF_HALF_OPEN, "PLACE-1"),
        ("sniff", SNIFF_HALF_OPEN, "OPEN-3"),
        ("sniff", SNIFF_HALF_OPEN, "SNIFF-2"),
        ("drew", JUST_DREW, "DRAW-2"),
        ("drew", JUST_DREW, "PASS-1"),
        ("stuck", STUCK, "DRAW-2"),
        ("settled", ROUND_OVER, "END-1"),
        ("won", MATCH_OVER, "MATCH-2"),
    ],
)
def test_illegal_moves_of_break_each_rule(name: str, state: State, rule: str) -> None:
    """TURN-2, PLACE-1, PLACE-3, OPEN-3, SNIFF-2, DRAW-1, DRAW-2, PASS-1, END-1, MATCH-2: each kind is drawn."""
    assert (ROUND_OVER.phase, MATCH_OVER.phase) == (Phase.ROUND_OVER, Phase.MATCH_OVER)
    found = find(illegal_moves_of(state), lambda move: refusal(state, move) == rule, settings=SEARCH)
    assert rule == refusal(state, found), (name, found)


def test_registered_types_draw_from_the_strategies() -> None:
    """SETUP-1, SETUP-2: after register_strategies, st.from_type gives tiles and valid rules."""
    register_strategies()
    register_strategies()  # a second call only replaces the same registration

    @given(st.from_type(Tile), st.from_type(Rules))
    def drawn(tile: Tile, house: Rules) -> None:
        assert tile in DOUBLE_SIX
        assert house.players * house.hand_size < 28

    drawn()


def test_hypothesis_entry_point_names_the_registration() -> None:
    """pyproject.toml's hypothesis entry point names a hook that registers the strategies for Tile and Rules."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    hooks = project["project"]["entry-points"]["hypothesis"]
    module, _, attribute = hooks["sniff_rules"].partition(":")
    hook = getattr(importlib.import_module(module), attribute)
    hook()

    @given(st.from_type(Tile), st.from_type(Rules))
    def drawn(tile: Tile, house: Rules) -> None:
        assert tile in DOUBLE_SIX
        assert house.players * house.hand_size < 28

    drawn()


def test_entry_point_hook_survives_strategies_imported_first() -> None:
    """SETUP-1: importing the strategies first, with the hook installed, neither fails nor half-registers."""
    program = (
        "import sniff_rules.verify.strategies\n"
        "from hypothesis import given, strategies as st\n"
        "from sniff_rules import Tile\n"
        "from sniff_rules.verify.hypothesis_plugin import register_on_import\n"
        "register_on_import()\n"
        "seen = []\n"
        "@given(st.from_type(Tile))\n"
        "def check(tile): seen.append(tile)\n"
        "check()\n"
        "assert seen and all(isinstance(t, Tile) for t in seen)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, check=False)
    assert 0 == done.returncode, done.stderr
