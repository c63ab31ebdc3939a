"""The position and move-list laws (sniff_rules.position.laws): each caught where broken, none on real matches."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, strategies as st

import sniff_rules.position.laws
from law_samples import (
    BLOCKED,
    DEALT,
    DRAW_FITS,
    OPENING,
    PASSED,
    PLACED,
    PLAYED_OUT,
    WON,
    Step,
    evolved,
    steps_of,
    with_context,
)
from sniff_rules.layout import Layout
from sniff_rules.moves import Draw, Pass, Place, apply, legal_moves
from sniff_rules.position.laws import (
    DEAL_LAWS,
    MOVE_LIST_LAWS,
    POSITION_LAWS,
    STEP_LAWS,
    Violation,
    deal_violations,
    move_list_violations,
    position_violations,
    step_violations,
)
from sniff_rules.state import Phase, RoundContext, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX
from sniff_rules.verify.strategies import NextRound, Playthrough, playthroughs

ROOT = Path(__file__).resolve().parent.parent


def test_importing_the_laws_leaves_hypothesis_out() -> None:
    """The laws are usable without Hypothesis: importing sniff_rules.position.laws does not import it."""
    probe = (
        "import sys\n"
        "import sniff_rules.position.laws\n"
        "assert 'hypothesis' not in sys.modules, sorted(m for m in sys.modules if 'hypothesis' in m)\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, env=environment)
    assert 0 == result.returncode, result.stderr


def test_every_law_is_documented_once() -> None:
    """Each law name is listed in the module docstring, and every documented name is a law."""
    doc = sniff_rules.position.laws.__doc__ or ""
    documented = [line.split("``")[1] for line in doc.splitlines() if line.startswith("- ``")]
    names = {*POSITION_LAWS, *MOVE_LIST_LAWS, *STEP_LAWS, *DEAL_LAWS}
    assert sorted(names) == sorted(documented)


def test_a_violation_reads_as_its_rule_and_message() -> None:
    """A violation prints as ``RULE: message``, or the message alone when no rule id applies."""
    assert "TURN-1: seats run 0..1" == str(Violation("seat-to-move", "TURN-1", "seats run 0..1"))
    assert "a move is listed twice" == str(Violation("moves-distinct", None, "a move is listed twice"))


# Real matches break no law.


def test_every_step_of_sample_matches_keeps_every_law() -> None:
    """SETUP-1, TURN-1, COUNT-1, SETTLE-1, MATCH-1: no position, list, step or deal of real matches breaks a law."""
    for players in (2, 3, 4):
        first = steps_of(players)[0][0]
        assert () == deal_violations(None, first)
        for before, move, after in steps_of(players):
            assert () == position_violations(after) + move_list_violations(after, legal_moves(after))
            if move is None:
                assert () == deal_violations(before, after)
            else:
                assert () == step_violations(before, move, after)


@given(playthroughs(max_moves=120))
def test_playthroughs_keep_every_law(played: Playthrough) -> None:
    """SETUP-4, DRAW-2, POINTS-1, OPEN-2: matches under any house rules keep every law at every step."""
    state = new_match(played.rules, played.seed)
    assert () == deal_violations(None, state)
    for step in played.steps:
        after = next_round(state) if isinstance(step, NextRound) else apply(state, step)
        found = deal_violations(state, after) if isinstance(step, NextRound) else step_violations(state, step, after)
        assert () == found + position_violations(after) + move_list_violations(after, legal_moves(after))
        state = after


# Position laws.


def test_well_formed_refuses_what_is_not_a_state() -> None:
    """A log entry that is not a State, or has no RoundContext of Rules, is reported, not raised."""
    not_a_state: Any = "[1|4]"
    assert (Violation("well-formed", None, "a position is a State, not str"),) == position_violations(not_a_state)
    message = "a state's context is a RoundContext holding Rules"
    assert (Violation("well-formed", None, message),) == position_violations(evolved(OPENING, context=None))


MASKS = OPENING.hand_masks
LOT = OPENING.lot


@pytest.mark.parametrize(
    ("changes", "context", "message"),
    [
        ({"phase": "playing"}, {}, "the phase is a Phase, not 'playing'"),
        ({}, {"round_number": 0}, "rounds are numbered from 1, not 0"),
        ({}, {"opener": 2}, "the opener is a seat 0..1, not 2"),
        ({}, {"lot": list(LOT)}, f"the lot is a tuple of lot rounds, not {list(LOT)!r}"),
        ({}, {"last_round": "won"}, "the last round is a RoundResult with a Settlement, or None, not 'won'"),
        ({"hand_masks": MASKS[:1]}, {}, f"2 hands, each a bit mask of the 28 tiles, not {MASKS[:1]!r}"),
        (
            {"hand_masks": (MASKS[0] | 1 << 28, MASKS[1])},
            {},
            f"2 hands, each a bit mask of the 28 tiles, not {(MASKS[0] | 1 << 28, MASKS[1])!r}",
        ),
        ({"boneyard_ids": (28,)}, {}, "the boneyard is a tuple of tile indices 0..27, not (28,)"),
        ({"layout": None}, {}, "the layout is NoneType, not a Layout"),
        (
            {"layout": lambda: evolved(Layout.EMPTY, placements=("[1|4]",))},
            {},
            "the layout's placements are a tuple of Placement values of tiles and points",
        ),
        (
            {"layout": lambda: evolved(Layout.EMPTY, open_point_ids=(1,))},
            {},
            "the open points are a tuple of attachment point ids, not (1,)",
        ),
        ({"layout": lambda: evolved(Layout.EMPTY, end_count=2.5)}, {}, "the end count is an int, not 2.5"),
        ({"drawn": 28}, {}, "the drawn tile is an index 0..27 or -1, not 28"),
        ({"winner": 2}, {}, "the winner is a side 0..1 or None, not 2"),
    ],
)
def test_well_formed_names_the_field_out_of_its_type_or_range(
    changes: dict[str, Any], context: dict[str, Any], message: str
) -> None:
    """A field of the wrong type or range is reported under well-formed, and nothing else is checked."""
    # A broken layout is built here, not at collection: the compiled build cannot hold one, and skips.
    built = {name: value() if callable(value) else value for name, value in changes.items()}
    state = with_context(evolved(OPENING, **built), **context)
    assert (Violation("well-formed", None, message),) == position_violations(state)


@pytest.mark.parametrize("seat", [2, -1, True, "0"])
def test_seat_to_move_is_a_seat(seat: object) -> None:
    """TURN-1: the seat to move is an int 0..players-1."""
    expected = Violation("seat-to-move", "TURN-1", f"seats run 0..1, not {seat!r}")
    assert (expected,) == position_violations(evolved(OPENING, to_move=seat))


@pytest.mark.parametrize("scores", [(0, 0, 0), (0,), (0, 5.0), [0, 0]])
def test_score_per_side(scores: object) -> None:
    """SETUP-2: one integer score per side."""
    expected = Violation("score-per-side", "SETUP-2", f"2 integer scores, not {scores!r}")
    assert (expected,) == position_violations(evolved(OPENING, scores=scores))


def test_tiles_once() -> None:
    """SETUP-1: a tile missing, or in two places, is named."""
    first, *rest = OPENING.boneyard_ids
    missing = evolved(OPENING, boneyard_ids=tuple(rest))
    message = f"each tile once; missing {DOUBLE_SIX[first]}, more than once none"
    assert (Violation("tiles-once", "SETUP-1", message),) == position_violations(missing)
    held = OPENING.hand(0)[0]
    twice = evolved(OPENING, boneyard_ids=(held.index, *OPENING.boneyard_ids))
    message = f"each tile once; missing none, more than once {held}"
    assert (Violation("tiles-once", "SETUP-1", message),) == position_violations(twice)


def test_end_count_equals_the_recount() -> None:
    """COUNT-1..4: an end count that the placements do not give is reported with the recount."""
    _, _, after = PLACED
    count = after.layout.end_count
    wrong = evolved(after, layout=evolved(after.layout, end_count=count + 1))
    message = f"the end count is {count + 1}, recounted from the placements {count}"
    assert (Violation("end-count", "COUNT-1..4", message),) == position_violations(wrong)


def test_scores_multiple_of_five() -> None:
    """SETTLE-4: every score is a multiple of 5."""
    expected = Violation("scores-multiple-of-five", "SETTLE-4", "every score is a multiple of 5, not (3, 0)")
    assert (expected,) == position_violations(evolved(OPENING, scores=(3, 0)))


def test_below_target_while_the_match_goes_on() -> None:
    """MATCH-1: a score at the target ends the match; a state in play with one breaks the law."""
    expected = Violation("below-target", "MATCH-1", "(0, 250) reaches the target 250, but the match goes on")
    assert (expected,) == position_violations(evolved(OPENING, scores=(0, 250)))


def test_winner_only_when_won_and_at_the_target() -> None:
    """MATCH-1: a winner exactly when the match is won, the one side at the target."""
    in_play = Violation("winner", "MATCH-1", "the state is playing, but side 1 won")
    assert (in_play,) == position_violations(evolved(OPENING, winner=1))
    _, _, won = WON
    assert won.winner is not None
    unnamed = Violation("winner", "MATCH-1", f"won with scores {won.scores} and winner None")
    assert (unnamed,) == position_violations(evolved(won, winner=None))
    both = tuple(max(score, 250) for score in won.scores)
    two = Violation("winner", "MATCH-1", f"side {won.winner} won, but another side reached 250: {both}")
    assert (two,) == position_violations(evolved(won, scores=both))


def test_last_round_is_the_one_before() -> None:
    """SETTLE-1: the last round on record is the one before, or this one once over; none in round 1."""
    _, _, settled = PLAYED_OUT
    number = settled.round_number
    early = with_context(OPENING, last_round=settled.last_round)
    message = f"round 1 is playing: the last round on record is none, not {number}"
    assert (Violation("last-round", None, message),) == position_violations(early)
    forgotten = with_context(settled, last_round=None)
    message = f"round {number} is round-over: the last round on record is round {number}, not none"
    assert (Violation("last-round", None, message),) == position_violations(forgotten)


def test_hands_revealed() -> None:
    """SETTLE-1: a settled round records the hands it settled."""
    _, _, settled = PLAYED_OUT
    assert settled.last_round is not None
    hands = tuple(reversed(settled.hands))
    wrong = with_context(settled, last_round=evolved(settled.last_round, hands=hands))
    expected = Violation("hands-revealed", "SETTLE-1", f"the settled round records the hands {hands!r}")
    assert (expected,) == position_violations(wrong)


def test_settlement_rounds_each_hand_and_sums_per_side() -> None:
    """SETTLE-1, SETTLE-2: the recorded settlement is each hand's pips rounded on its own, summed per side."""
    _, _, settled = PLAYED_OUT
    result = settled.last_round
    assert result is not None
    real = result.settlement
    pips = real.hand_pips
    dearer = tuple(deduction + 5 for deduction in real.deductions)
    overcharged = with_context(settled, last_round=evolved(result, settlement=evolved(real, deductions=dearer)))
    message = f"hands of {pips} pips cost {real.deductions}, not {pips} and {dearer}"
    assert (Violation("settlement", "SETTLE-1", message),) == position_violations(overcharged)
    sides = tuple(deduction + 5 for deduction in real.side_deductions)
    summed = with_context(settled, last_round=evolved(result, settlement=evolved(real, side_deductions=sides)))
    message = f"per side {real.deductions} cost {real.side_deductions}, not {sides}"
    assert (Violation("settlement", "SETTLE-2", message),) == position_violations(summed)


def test_round_ended_by_playing_out_or_a_block() -> None:
    """END-1, BLOCK-1: the finisher's hand alone is empty; a round with no finisher is blocked."""
    before, _, settled = PLAYED_OUT
    result = settled.last_round
    assert result is not None
    other = (before.to_move + 1) % 4
    wrong = with_context(settled, last_round=evolved(result, finisher=other))
    message = f"seat {other} played out, but the empty hands are [{before.to_move}]"
    assert (Violation("round-ended", "END-1", message),) == position_violations(wrong)
    unfinished = with_context(settled, last_round=evolved(result, finisher=None))
    message = "a round with no finisher is blocked: an empty boneyard and every hand holding tiles, none fitting"
    assert (Violation("round-ended", "BLOCK-1", message),) == position_violations(unfinished)


def test_hands_held_while_playing() -> None:
    """END-1: a seat with no tile ends the round; a state in play with an empty hand breaks the law."""
    emptied = evolved(
        OPENING,
        hand_masks=(MASKS[0], 0),
        boneyard_ids=(*OPENING.boneyard_ids, *(tile.index for tile in OPENING.hand(1))),
    )
    expected = Violation("hands-held", "END-1", "the round is played, but seats [1] hold no tile")
    assert (expected,) == position_violations(emptied)


def test_not_blocked_while_playing() -> None:
    """BLOCK-1: an empty boneyard with no held tile fitting ends the round; in play it breaks the law."""
    before, _, after = BLOCKED
    in_play = evolved(after, phase=Phase.PLAYING, context=before.context, scores=before.scores)
    message = "the boneyard is empty and no held tile fits, yet the round goes on"
    assert (Violation("not-blocked", "BLOCK-1", message),) == position_violations(in_play)


def test_drawn_tile_waits_only_in_play_in_the_hand_and_fitting() -> None:
    """DRAW-2: a drawn tile waiting to be placed is the mover's, fits, and only while a round is played."""
    pile = OPENING.boneyard_ids[0]
    not_held = evolved(OPENING, drawn=pile)
    message = f"{DOUBLE_SIX[pile]} waits to be placed, but seat {OPENING.to_move} does not hold it or it fits nowhere"
    assert (Violation("drawn-tile", "DRAW-2", message),) == position_violations(not_held)
    _, _, settled = PLAYED_OUT
    tile = next(hand[0] for hand in settled.hands if hand)
    late = evolved(settled, drawn=tile.index)
    message = f"{tile} waits to be placed, but the state is round-over"
    assert (Violation("drawn-tile", "DRAW-2", message),) == position_violations(late)


# Move-list laws.


def test_move_kind() -> None:
    """TURN-1: a move is a Place, Draw or Pass, and nothing else."""
    offered: Any = ("0:[1|4]",)
    expected = Violation("move-kind", "TURN-1", "a move is a Place, Draw or Pass, not '0:[1|4]'")
    assert (expected,) == move_list_violations(OPENING, offered)


def test_moves_exactly_while_playing() -> None:
    """TURN-1, END-1, MATCH-2: some move is listed exactly while a round is played."""
    none = Violation("moves-while-playing", "TURN-1", "the round is played, but no move is listed")
    assert (none,) == move_list_violations(OPENING, ())
    _, _, settled = PLAYED_OUT
    move = Place(settled.to_move, DOUBLE_SIX[0])
    listed = Violation("moves-while-playing", "END-1", f"the round-over state lists moves {(move,)!r}")
    assert (listed,) == move_list_violations(settled, (move,))
    _, _, won = WON
    move = Place(won.to_move, DOUBLE_SIX[0])
    listed = Violation("moves-while-playing", "MATCH-2", f"the match-over state lists moves {(move,)!r}")
    assert (listed,) == move_list_violations(won, (move,))


def test_moves_distinct() -> None:
    """No move is listed twice."""
    moves = legal_moves(OPENING)
    twice = (*moves, moves[0])
    expected = Violation("moves-distinct", None, f"a move is listed twice: {twice!r}")
    assert (expected,) == move_list_violations(OPENING, twice)


def test_draw_or_pass_alone() -> None:
    """DRAW-1, DRAW-2, PASS-1: a draw or a pass is the one move listed, a draw with a boneyard, a pass without."""
    seat = OPENING.to_move
    both = (legal_moves(OPENING)[0], Draw(seat))
    beside = Violation("draw-or-pass-alone", "DRAW-1", f"a draw or a pass is listed alone: {both!r}")
    assert (beside,) == move_list_violations(OPENING, both)
    early = Violation("draw-or-pass-alone", "PASS-1", "a pass is listed, but the boneyard has tiles")
    assert (early,) == move_list_violations(OPENING, (Pass(seat),))
    before, _, _ = PASSED
    empty = Violation("draw-or-pass-alone", "DRAW-2", "a draw is listed, but the boneyard is empty")
    assert (empty,) == move_list_violations(before, (Draw(before.to_move),))


def test_moves_by_the_seat_to_move() -> None:
    """TURN-2: every listed move is the seat to move's."""
    seat, other = OPENING.to_move, 1 - OPENING.to_move
    expected = Violation("moves-by-seat-to-move", "TURN-2", f"seat {seat} is to move, but the list is (Draw({other}),)")
    assert (expected,) == move_list_violations(OPENING, (Draw(other),))


# The laws report, never raise.

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 2**30), st.text(max_size=3), st.tuples(st.integers(-1, 30)))
FIELDS = [
    *(("state", field.name) for field in attrs.fields(State)),
    *(("context", field.name) for field in attrs.fields(RoundContext)),
    *(("layout", field.name) for field in attrs.fields(Layout)),
]


def _spoilt(state: State, data: st.DataObject) -> State:
    """``state`` with one field, its own, its round context's or its layout's, set to a value of any type."""
    where, name = data.draw(st.sampled_from(FIELDS), label="field")
    junk = data.draw(JUNK, label=name)
    if where == "context":
        return with_context(state, **{name: junk})
    if where == "layout":
        return evolved(state, layout=evolved(state.layout, **{name: junk}))
    return evolved(state, **{name: junk})


def _sample_steps() -> Iterator[Step]:
    yield PLACED
    yield DRAW_FITS
    yield PASSED
    yield PLAYED_OUT
    yield WON
    yield DEALT


@given(st.data())
def test_the_laws_report_a_spoilt_state_and_never_raise(data: st.DataObject) -> None:
    """Any field of any type in a state, before or after a step, gives violations, never an exception."""
    before, move, after = data.draw(st.sampled_from(list(_sample_steps())), label="step")
    bad_before, bad_after = _spoilt(before, data), _spoilt(after, data)
    assert isinstance(position_violations(bad_after), tuple)
    assert isinstance(move_list_violations(bad_after, legal_moves(after)), tuple)
    if move is None:
        assert isinstance(deal_violations(bad_before, bad_after), tuple)
    else:
        assert isinstance(step_violations(bad_before, move, bad_after), tuple)
