"""The step and deal laws of sniff_rules.position.laws: each caught on a step or deal that breaks it."""

from __future__ import annotations

from typing import Any

import pytest

from law_samples import (
    DEALT,
    DEALT_AFTER_BLOCK,
    DRAW_FITS,
    DRAW_MISSES,
    OPENING,
    PASSED,
    PLACED,
    PLAYED_OUT,
    WON,
    evolved,
    with_context,
)
from sniff_rules.moves import Draw, Place, apply, legal_moves
from sniff_rules.position.laws import (
    Violation,
    deal_violations,
    step_violations,
)
from sniff_rules.rules import Rules
from sniff_rules.state import new_match
from sniff_rules.tiles import DOUBLE_SIX

# Step laws.


def test_a_step_between_malformed_states_reports_the_position_laws() -> None:
    """A step from or to something that is not a state, or by something that is not a move, is reported."""
    before, move, after = PLACED
    junk: Any = None
    assert (Violation("well-formed", None, "after the move: a position is a State, not NoneType"),) == (
        step_violations(before, move, junk)
    )
    expected = Violation("move-kind", "TURN-1", "a move is a Place, Draw or Pass, not None")
    assert (expected,) == step_violations(before, junk, after)


def test_accepted_while_playing() -> None:
    """END-1, MATCH-2: no move is accepted once the round or the match is over."""
    _, _, settled = PLAYED_OUT
    move = Draw(settled.to_move)
    over = Violation("accepted-while-playing", "END-1", f"{move!r} was accepted, but the state is round-over")
    assert (over,) == step_violations(settled, move, settled)
    _, _, won = WON
    move = Draw(won.to_move)
    won_over = Violation("accepted-while-playing", "MATCH-2", f"{move!r} was accepted, but the state is match-over")
    assert (won_over,) == step_violations(won, move, won)


def test_move_legal_cites_the_rule_the_library_refuses_with() -> None:
    """DRAW-1, TURN-2: an accepted move the rules forbid is reported with the library's rule id."""
    seat = OPENING.to_move
    drawn = Violation("move-legal", "DRAW-1", f"Draw({seat}) is not a legal move here")
    assert (drawn,) == step_violations(OPENING, Draw(seat), OPENING)
    lead = Place(1 - seat, OPENING.hand(1 - seat)[0])
    out_of_turn = Violation("move-legal", "TURN-2", f"{lead!r} is not a legal move here")
    assert (out_of_turn,) == step_violations(OPENING, lead, apply(OPENING, legal_moves(OPENING)[0]))


def test_placement_moves_its_tile_from_the_hand_to_the_table() -> None:
    """PLACE-3: a placement that leaves its tile in the hand breaks the law."""
    before, move, after = PLACED
    assert isinstance(move, Place)
    kept = evolved(after, hand_masks=before.hand_masks)
    message = f"{move!r} moves {move.tile} from the hand to the table, nothing else"
    assert (Violation("placement-moves-tile", "PLACE-3", message),) == step_violations(before, move, kept)


def test_draw_takes_the_first_boneyard_tile() -> None:
    """DRAW-2: a draw that leaves the boneyard as it was breaks the law."""
    before, move, after = DRAW_MISSES
    kept = evolved(after, boneyard_ids=before.boneyard_ids)
    message = f"{move!r} moves {DOUBLE_SIX[before.boneyard_ids[0]]}, the first boneyard tile, to the hand"
    assert (Violation("draw-takes-first-tile", "DRAW-2", message),) == step_violations(before, move, kept)


def test_draw_marks_a_fitting_tile_to_place() -> None:
    """DRAW-2: a drawn tile waits to be placed exactly when it fits."""
    before, move, after = DRAW_FITS
    tile = DOUBLE_SIX[before.boneyard_ids[0]]
    forgotten = evolved(after, drawn=-1)
    message = f"the drawn {tile} fits, so it waits to be placed; drawn is -1"
    assert (Violation("draw-marks-fitting-tile", "DRAW-2", message),) == step_violations(before, move, forgotten)
    before, move, after = DRAW_MISSES
    first = before.boneyard_ids[0]
    marked = evolved(after, drawn=first)
    message = f"the drawn {DOUBLE_SIX[first]} does not fit, so nothing waits; drawn is {first}"
    assert (Violation("draw-marks-fitting-tile", "DRAW-2", message),) == step_violations(before, move, marked)


def test_pass_changes_only_the_turn() -> None:
    """PASS-1: a pass that changes a hand breaks the law."""
    before, move, after = PASSED
    masks = after.hand_masks
    swapped = evolved(after, hand_masks=(masks[1], masks[0], *masks[2:]))
    expected = Violation("pass-changes-only-turn", "PASS-1", f"{move!r} changes nothing but the turn")
    assert (expected,) == step_violations(before, move, swapped)


def test_turn_passes_after_a_placement_and_stays_after_a_draw() -> None:
    """TURN-1, DRAW-2: the next seat moves after a placement, the same seat after a draw."""
    before, move, after = PLACED
    seat = before.to_move
    kept = Violation("turn-passes", "TURN-1", f"after {move!r} seat {1 - seat} is to move, not seat {seat}")
    assert (kept,) == step_violations(before, move, evolved(after, to_move=seat))
    before, move, after = DRAW_FITS
    seat = before.to_move
    passed = Violation("turn-passes", "DRAW-2", f"after {move!r} seat {seat} is to move, not seat {1 - seat}")
    assert (passed,) == step_violations(before, move, evolved(after, to_move=1 - seat))


def test_round_facts_kept() -> None:
    """A move keeps the rules, the round number, the opener and the lot."""
    before, move, after = PLACED
    reopened = with_context(after, opener=1 - after.opener)
    expected = Violation("round-facts-kept", None, f"{move!r} changed the round's opener")
    assert (expected,) == step_violations(before, move, reopened)
    other_rules = with_context(after, rules=Rules(2, 7, 300))
    expected = Violation("round-facts-kept", None, f"{move!r} changed the round's rules")
    assert (expected,) == step_violations(before, move, other_rules)


def test_points_credited_to_the_placer() -> None:
    """POINTS-1, POINTS-2: a placement adds the points of the new end count to the placer's side."""
    before, move, after = PLACED
    unscored = evolved(after, scores=before.scores)
    message = f"after {move!r} the scores are {after.scores}, not {before.scores}"
    assert (Violation("points-credited", "POINTS-1", message),) == step_violations(before, move, unscored)


def test_settlement_deducted_when_the_round_ends() -> None:
    """SETTLE-2: a round that ends takes each hand, rounded, off its side."""
    before, move, after = PLAYED_OUT
    result = after.last_round
    assert result is not None
    deductions = result.settlement.side_deductions
    credited = tuple(score + deduction for score, deduction in zip(after.scores, deductions, strict=True))
    assert credited != after.scores, "the sample round costs some pips"
    unsettled = evolved(after, scores=credited)
    message = f"after {move!r} the scores are {credited} less the rounded hands, {after.scores}, not {credited}"
    assert (Violation("settlement-deducted", "SETTLE-2", message),) == step_violations(before, move, unsettled)


def test_won_by_placement() -> None:
    """MATCH-1: a placement reaching the target wins at once for its side; nothing else wins."""
    before, move, after = WON
    assert after.winner is not None
    other = 1 - after.winner
    message = (
        f"{move!r} won the match for side {other}; only a placement reaching the target wins, for the placer's side,"
        " unsettled"
    )
    assert (Violation("won-by-placement", "MATCH-1", message),) == step_violations(
        before, move, evolved(after, winner=other)
    )
    before, move, after = PLACED
    side = before.to_move
    gained = after.scores[side] - before.scores[side]
    near = tuple(245 if seat == side else score for seat, score in enumerate(before.scores))
    reached = tuple(245 + gained if seat == side else score for seat, score in enumerate(before.scores))
    message = f"{move!r} brings side {side} to {245 + gained}: the match is won"
    found = step_violations(evolved(before, scores=near), move, evolved(after, scores=reached))
    assert (Violation("won-by-placement", "MATCH-1", message),) == found


def test_round_result_recorded() -> None:
    """END-1, BLOCK-1: the move that ends a round records it, with the placer as finisher if it played out."""
    before, move, after = PLAYED_OUT
    result = after.last_round
    assert result is not None
    unfinished = with_context(after, last_round=evolved(result, finisher=None))
    message = (
        f"{move!r} ended round {before.round_number} with finisher {before.to_move},"
        f" not round {result.round_number} with finisher None"
    )
    assert (Violation("round-result-recorded", "END-1", message),) == step_violations(before, move, unfinished)
    before, move, after = PLACED
    recorded = with_context(after, last_round=result)
    message = f"{move!r} did not end the round, but recorded {result!r}"
    assert (Violation("round-result-recorded", "END-1", message),) == step_violations(before, move, recorded)


# Deal laws.


def test_dealt_only_after_a_settled_round() -> None:
    """END-1, MATCH-2: a round is dealt only after a settled round, never after a won match."""
    _, _, dealt = DEALT
    in_play = Violation("dealt-after-round-over", "END-1", "a round was dealt, but the state before is playing")
    assert (in_play,) == deal_violations(OPENING, dealt)
    _, _, won = WON
    after_win = Violation("dealt-after-round-over", "MATCH-2", "a round was dealt, but the state before is match-over")
    assert (after_win,) == deal_violations(won, dealt)


def test_full_hands() -> None:
    """SETUP-4: every hand of a deal holds the hand size, the boneyard the rest."""
    tile = OPENING.hand(0)[0]
    short = evolved(
        OPENING,
        hand_masks=(OPENING.hand_masks[0] & ~(1 << tile.index), OPENING.hand_masks[1]),
        boneyard_ids=(*OPENING.boneyard_ids, tile.index),
    )
    message = "7 tiles a hand and 14 in the boneyard, not (6, 7) and 15"
    assert (Violation("full-hands", "SETUP-4", message),) == deal_violations(None, short)


def test_opener_leads() -> None:
    """OPEN-3: a deal starts in play on an empty table, nothing drawn, the opener to move."""
    message = f"a round starts in play on an empty table, nothing drawn, seat {OPENING.opener} (the opener) to move"
    expected = (Violation("opener-leads", "OPEN-3", message),)
    assert expected == deal_violations(None, evolved(OPENING, to_move=1 - OPENING.opener))
    assert expected == deal_violations(None, evolved(OPENING, drawn=OPENING.hand_masks[0].bit_length() - 1))


def test_opener_chosen_by_the_finisher_or_the_lot() -> None:
    """OPEN-1, OPEN-2: the finisher opens after playing out; otherwise a recorded lot picks the opener."""
    previous, _, dealt = DEALT
    assert previous.last_round is not None
    finisher = previous.last_round.finisher
    other = 1 - dealt.opener
    usurped = evolved(with_context(dealt, opener=other), to_move=other)
    message = f"seat {finisher} played out and opens with no lot, not seat {other} with lot ()"
    assert (Violation("opener-chosen", "OPEN-2", message),) == deal_violations(previous, usurped)
    previous, _, dealt = DEALT_AFTER_BLOCK
    assert dealt.lot
    other = 1 - dealt.opener
    overruled = evolved(with_context(dealt, opener=other), to_move=other)
    message = f"the lot chose seat {dealt.opener}, but seat {other} opens"
    assert (Violation("opener-chosen", "OPEN-1", message),) == deal_violations(previous, overruled)


@pytest.mark.parametrize(
    ("lot", "message"),
    [
        ((((0, 3), (1, 3)),), "the lot ends tied between seats (0, 1)"),
        ((((0, 5), (1, 3)), ((0, 2), (1, 4))), "the lot was decided in round 1 but drawn on"),
        ((((0, 3), (1, 3)), ((1, 4),)), "round 2 of the lot draws 1..6 for seats (0, 1): ((1, 4),)"),
        ((((0, 7), (1, 3)),), "round 1 of the lot draws 1..6 for seats (0, 1): ((0, 7), (1, 3))"),
        ((((1, 5), (0, 3)),), "round 1 of the lot draws 1..6 for seats (0, 1): ((1, 5), (0, 3))"),
        ((((0, 2), (1, 5)),), "the lot chose seat 1, but seat 0 opens"),
    ],
)
def test_opener_chosen_by_a_lot_drawn_by_the_rules(lot: tuple[tuple[tuple[int, int], ...], ...], message: str) -> None:
    """OPEN-1: a lot starts among all seats, draws 1..6, redraws only the tied, and its winner opens."""
    dealt = evolved(with_context(OPENING, opener=0, lot=lot), to_move=0)
    assert (Violation("opener-chosen", "OPEN-1", message),) == deal_violations(None, dealt)


def test_a_named_opener_needs_no_lot() -> None:
    """OPEN-1: a frontend may name the opener of a match; an empty lot is lawful."""
    named = new_match(Rules.standard(3), order=tuple(DOUBLE_SIX), opener=2)
    assert () == deal_violations(None, named)


def test_round_numbered() -> None:
    """The first deal is round 1, each next one more."""
    previous, _, dealt = DEALT
    skipped = with_context(dealt, round_number=dealt.round_number + 1)
    message = f"the deal is round {dealt.round_number}, not {dealt.round_number + 1}"
    assert (Violation("round-numbered", None, message),) == deal_violations(previous, skipped)


def test_scores_carried() -> None:
    """A match starts at 0 each; a new round keeps the scores."""
    previous, _, dealt = DEALT
    shifted = tuple(score + 5 for score in previous.scores)
    reset = evolved(dealt, scores=shifted)
    message = f"the deal starts at scores {previous.scores}, not {shifted}"
    assert (Violation("scores-carried", None, message),) == deal_violations(previous, reset)
    started = evolved(OPENING, scores=(5, 0))
    assert (Violation("scores-carried", None, "the deal starts at scores (0, 0), not (5, 0)"),) == (
        deal_violations(None, started)
    )


def test_result_kept() -> None:
    """A new round keeps the result of the round before; a new match has none."""
    previous, _, dealt = DEALT
    result = previous.last_round
    forgotten = with_context(dealt, last_round=None)
    message = f"the deal keeps the last round {result!r}, not None"
    assert (Violation("result-kept", None, message),) == deal_violations(previous, forgotten)
    remembered = with_context(OPENING, last_round=result)
    message = f"the deal keeps the last round None, not {result!r}"
    assert (Violation("result-kept", None, message),) == deal_violations(None, remembered)


def test_rules_kept() -> None:
    """A new round keeps the house rules."""
    previous, _, dealt = DEALT
    other = Rules(2, 7, 300)
    message = f"the deal keeps the rules {previous.rules!r}, not {other!r}"
    assert (Violation("rules-kept", None, message),) == deal_violations(previous, with_context(dealt, rules=other))
