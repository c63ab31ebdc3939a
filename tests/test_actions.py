"""The fixed action space (sniff_rules.adapters.actions): one id per move, legal actions sorted (CONV-2)."""

from __future__ import annotations

import pytest

from sniff_rules.adapters.actions import (
    ACTION_COUNT,
    DRAW_ACTION,
    PASS_ACTION,
    PLACE_BASE,
    action_of,
    action_text,
    actions_of_moves,
    legal_actions,
    move_of,
)
from sniff_rules.errors import InvalidMoveError
from sniff_rules.layout import AttachmentPoint, Port
from sniff_rules.moves import Draw, Pass, Place, legal_moves
from sniff_rules.play.bots import random_move
from sniff_rules.play.driver import play_match
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import new_match
from sniff_rules.tiles import Tile


def test_the_space_numbers_leads_placements_draw_and_pass() -> None:
    """28 leads, 70 points times the 6 other tiles showing their value, a draw and a pass: 450 ids."""
    expected = (28, 28 + 420, 449, 450)
    assert expected == (PLACE_BASE, DRAW_ACTION, PASS_ACTION, ACTION_COUNT)


@pytest.mark.parametrize("seat", range(4))
def test_every_action_is_one_move_and_back(seat: int) -> None:
    """move_of and action_of are inverse over the whole space, and the seat is the one given."""
    moves = [move_of(action, seat) for action in range(ACTION_COUNT)]
    assert list(range(ACTION_COUNT)) == [action_of(move) for move in moves]
    assert {seat} == {move.seat for move in moves}
    assert ACTION_COUNT == len(set(moves))


def test_texts_name_the_move() -> None:
    """A lead is its tile, a placement tile>point, and the draw and the pass by name."""
    lead = action_of(Place(0, Tile(2, 5)))
    placed = action_of(Place(1, Tile(3, 5), AttachmentPoint(Tile(2, 5), Port.HIGH)))
    expected = ("[2|5]", "[3|5]>[2|5].high", "draw", "pass")
    assert expected == (action_text(lead), action_text(placed), action_text(DRAW_ACTION), action_text(PASS_ACTION))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_are_the_legal_moves_sorted(players: int) -> None:
    """At every state of whole random matches, legal_actions is legal_moves' ids, strictly ascending (CONV-2)."""
    checked = 0
    for seed in range(3):
        state = new_match(Rules.standard(players), seed=seed)
        for step in play_match(state, [random_move] * players, SplitMix64.from_seed(seed)):
            actions = legal_actions(step.state)
            assert actions_of_moves(legal_moves(step.state)) == actions
            assert sorted(set(actions)) == list(actions)
            assert [move_of(action, step.state.to_move) for action in actions] == list(legal_moves(step.state))
            checked += 1
    assert checked > 100


def test_over_states_have_no_actions() -> None:
    """A state whose round is over has no legal action (END-1)."""
    state = new_match(Rules.standard(2), seed=5)
    last = state
    for step in play_match(state, [random_move] * 2, SplitMix64.from_seed(5)):
        last = step.state
    assert () == legal_actions(last)


@pytest.mark.parametrize("action", [-1, ACTION_COUNT, True, 2.0, "1"])
def test_an_action_outside_the_space_is_refused(action: object) -> None:
    """Ids outside 0..449, bools and non-ints are refused citing TURN-1."""
    with pytest.raises(InvalidMoveError) as refused:
        move_of(action, 0)  # type: ignore[arg-type]
    assert "TURN-1" == refused.value.rule


def test_an_unnumbered_placement_is_refused() -> None:
    """A tile on a point whose value it does not show is no move of any state (PLACE-1)."""
    with pytest.raises(InvalidMoveError) as refused:
        action_of(Place(0, Tile(3, 4), AttachmentPoint(Tile(1, 2), Port.HIGH)))
    assert "PLACE-1" == refused.value.rule


def test_a_bad_seat_is_refused() -> None:
    """A seat outside 0..3 is refused citing TURN-2."""
    with pytest.raises(InvalidMoveError) as refused:
        move_of(0, 4)
    assert "TURN-2" == refused.value.rule


def test_draw_and_pass_map_to_their_ids() -> None:
    """Any seat's draw and pass are the two last ids."""
    assert (DRAW_ACTION, PASS_ACTION) == (action_of(Draw(3)), action_of(Pass(2)))
