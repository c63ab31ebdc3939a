"""Deals and rounds (SETUP-2, SETUP-5, OPEN-1, OPEN-2, END-1, MATCH-2): refusals and what a new round keeps."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import pytest

from sniff_rules import (
    DOUBLE_SIX,
    InvalidStateError,
    Phase,
    Place,
    Port,
    RoundResult,
    Rules,
    Settlement,
    SplitMix64,
    State,
    Tile,
    apply,
    new_match,
    next_round,
)
from support import layout_of, make_state, pt, tiles


def refusal(make: Callable[[], object], rule: str) -> str:
    """The text of the :class:`InvalidStateError` citing ``rule`` that ``make()`` raises."""
    with pytest.raises(InvalidStateError) as caught:
        make()
    assert rule == caught.value.rule
    return str(caught.value)


def _blocked() -> State:
    """Two players, [0|5] led, empty boneyard: seat 0 places [5|6] and nobody holds a 0 or a 6."""
    state = make_state(
        2,
        [tiles("[1|2] [5|6]"), tiles("[1|3] [2|3]")],
        layout=layout_of((Tile(0, 5), None)),
        scores=(20, 30),
    )
    ended = apply(state, Place(0, Tile(5, 6), pt(Tile(0, 5), Port.HIGH)))
    assert Phase.ROUND_OVER == ended.phase
    return ended


def _played_out() -> State:
    """Two players: seat 1 plays out its last tile, [1|4] on the 1 of [0|1]."""
    state = make_state(2, [tiles("[2|2]"), tiles("[1|4]")], layout=layout_of((Tile(0, 1), None)), to_move=1)
    ended = apply(state, Place(1, Tile(1, 4), pt(Tile(0, 1), Port.HIGH)))
    assert ended.last_round is not None and 1 == ended.last_round.finisher
    return ended


def test_a_frontend_may_name_the_opener_after_a_block() -> None:
    """OPEN-2: after a blocked round the named seat 1 opens; no lot is drawn (the state has no source)."""
    ended = _blocked()
    assert ended.source is None
    after = next_round(ended, opener=1, order=DOUBLE_SIX)
    assert (2, 1, 1, ()) == (after.round_number, after.opener, after.to_move, after.lot)


def test_the_next_round_keeps_the_result_of_the_last() -> None:
    """OPEN-2, SETUP-6: the hands revealed and settled at the end of round 1 stay readable in round 2."""
    ended = _blocked()
    assert ended.last_round is not None
    after = next_round(ended, opener=0, order=DOUBLE_SIX)
    assert ended.last_round == after.last_round
    assert (tiles("[1|2]"), tiles("[1|3] [2|3]")) == after.last_round.hands


def test_no_new_round_while_a_later_round_is_being_played() -> None:
    """END-1: round 2 is under way (round 1's result is kept); dealing another round now is refused."""
    playing = next_round(_blocked(), opener=0, order=DOUBLE_SIX)
    assert playing.last_round is not None
    expected = "END-1: a new round is dealt only after a round ends; the match is playing"
    assert expected == refusal(lambda: next_round(playing, opener=0, order=DOUBLE_SIX), "END-1")


def test_no_new_round_after_a_match_won_in_a_later_round() -> None:
    """MATCH-2: seat 0 at 245 wins in round 2 with [5|5] on [0|5] (count 10); no round 3 is dealt."""
    last = _blocked().last_round
    state = make_state(
        2,
        [tiles("[5|5] [1|2]"), tiles("[3|4]")],
        layout=layout_of((Tile(0, 5), None)),
        scores=(245, 0),
        round_number=2,
        last_round=last,
    )
    won = apply(state, Place(0, Tile(5, 5), pt(Tile(0, 5), Port.HIGH)))
    assert (Phase.MATCH_OVER, 0, (255, 0)) == (won.phase, won.winner, won.scores)
    assert last is won.last_round
    expected = "MATCH-2: a new round is dealt only after a round ends; the match is match-over"
    assert expected == refusal(lambda: next_round(won, opener=0, order=DOUBLE_SIX), "MATCH-2")


def test_naming_another_opener_after_a_played_out_round_names_both_seats() -> None:
    """OPEN-2: seat 1 played out and opens; naming seat 0 is refused with both seats named."""
    expected = "OPEN-2: seat 1 played out and opens the next round, not seat 0"
    assert expected == refusal(lambda: next_round(_played_out(), opener=0, order=DOUBLE_SIX), "OPEN-2")


def test_a_named_opener_outside_the_seats_is_named() -> None:
    """OPEN-1: with four players the seats run 0..3; a named opener 4 is refused."""
    expected = "OPEN-1: seats run 0..3, got 4"
    assert expected == refusal(lambda: new_match(Rules.standard(4), order=DOUBLE_SIX, opener=4), "OPEN-1")


def test_without_a_source_the_lot_and_the_shuffle_say_what_to_give() -> None:
    """OPEN-1, SETUP-5: with no seed and no source the opener cannot be drawn by lot, and with
    a named opener but no order the tiles cannot be shuffled; each message says what to give."""
    expected_lot = "OPEN-1: the opener is drawn by lot: give a seed or source, or name the opener"
    assert expected_lot == refusal(lambda: new_match(Rules.standard(4), order=DOUBLE_SIX), "OPEN-1")
    expected_shuffle = "SETUP-5: the tiles are shuffled by the random source: give one, or an order"
    assert expected_shuffle == refusal(lambda: new_match(Rules.standard(4), opener=0), "SETUP-5")


def test_rules_must_be_a_rules_value() -> None:
    """SETUP-2: new_match needs the table's Rules; a bare player count is refused and named."""
    expected = "SETUP-2: rules must be a Rules value, got 4"
    assert expected == refusal(lambda: new_match(cast(Rules, 4), seed=1), "SETUP-2")


def test_a_deal_order_must_be_a_tuple_of_28() -> None:
    """SETUP-5: a list of the 28 tiles is refused; the error names the type and the length."""
    order = cast(tuple[Tile, ...], list(DOUBLE_SIX))
    expected = "SETUP-5: a deal order is a tuple of the 28 tiles, got list of 28"
    assert expected == refusal(lambda: new_match(Rules.standard(2), order=order, opener=0), "SETUP-5")


def test_a_deal_order_must_hold_tiles() -> None:
    """SETUP-5: an order with the number 5 in place of a tile is refused; the error names the 5."""
    order = cast(tuple[Tile, ...], DOUBLE_SIX[:27] + (5,))
    expected = "SETUP-5: a deal order holds tiles, got 5"
    assert expected == refusal(lambda: new_match(Rules.standard(2), order=order, opener=0), "SETUP-5")


def test_a_deal_order_names_each_repeated_tile_once() -> None:
    """SETUP-5: [0|0] twice and [1|1] three times replace [0|1], [5|6] and [6|6]; both are named, sorted."""
    order = tuple(tile for tile in DOUBLE_SIX if tile not in tiles("[0|1] [5|6] [6|6]"))
    order += tiles("[1|1] [1|1] [0|0]")
    assert 28 == len(order)
    expected = "SETUP-5: a deal order holds each of the 28 tiles once; repeated: [0|0], [1|1]"
    assert expected == refusal(lambda: new_match(Rules.standard(3), order=order, opener=0), "SETUP-5")



def test_create_keeps_every_fact_it_is_given() -> None:
    """MATCH-1, OPEN-1: State.create stores each named fact, the round's fixed ones in the context."""
    rules = Rules.standard(2)
    last = RoundResult(1, None, ((), ()), Settlement((0, 0), (0, 0), (0, 0)))
    lot = (((0, 3), (1, 3)), ((0, 6), (1, 2)))
    source = SplitMix64.from_seed(9)
    state = State.create(
        rules=rules,
        phase=Phase.MATCH_OVER,
        round_number=2,
        opener=0,
        to_move=1,
        hand_masks=(0, 0),
        boneyard_ids=(),
        layout=layout_of((Tile(1, 4), None)),
        scores=(250, 35),
        drawn=-1,
        source=source,
        lot=lot,
        last_round=last,
        winner=0,
    )
    assert (rules, 2, 0, source, lot, last) == (
        state.rules,
        state.round_number,
        state.opener,
        state.source,
        state.lot,
        state.last_round,
    )
    assert (Phase.MATCH_OVER, 1, (250, 35), -1, 0) == (state.phase, state.to_move, state.scores, state.drawn, state.winner)
