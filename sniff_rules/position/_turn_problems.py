"""The problems of a state that the order of turns shows: the draws, the seat to move, the hand sizes, the points.

The state-facing half of the turn-order check: it reads a :class:`State`
into the facts :func:`sniff_rules.position._turn_order.explains` searches, bounds
each side's points this round, and words what fails. The implementation
behind :func:`sniff_rules.position.reachability.problems`, which documents the checks.
"""

from __future__ import annotations

from typing import Final, TypeAlias

import attrs

from sniff_rules.position._position_laws import fitting
from sniff_rules.position._turn_order import Ending, Turns, explains
from sniff_rules.state import Phase, State
from sniff_rules.tiles import TILE_COUNT

MAX_SIDE_DEDUCTION: Final = 170
"""The most one settlement can take from one side: the 168 pips of the set
in at most two hands, each rounded up by at most 2 (SETTLE-1, SETTLE-2)."""

Finding: TypeAlias = tuple[str, str, str]
"""A problem found: its rule id, field and message (:class:`sniff_rules.position.reachability.Problem`)."""


def _ending(state: State) -> Ending:
    if state.phase is Phase.PLAYING:
        return Ending.TO_MOVE
    record = state.last_round
    if state.phase is Phase.ROUND_OVER and record is not None and record.finisher is None:
        return Ending.PLACED_OR_DREW
    return Ending.PLACED


def _credit_bounds(state: State) -> tuple[tuple[int, int], ...]:
    """Per side, the least and most points its placements can have scored this round, given its score.

    Round 1 starts at 0, so its points are the score itself (plus the
    settlement, once the round is over). A later round starts below the
    target less the last settlement, and above what the rounds before can
    have taken, ``MAX_SIDE_DEDUCTION`` each.
    """
    rules, number, record = state.rules, state.round_number, state.last_round
    sides, target = rules.sides, rules.target
    settled = state.phase is Phase.ROUND_OVER and record is not None
    now = record.settlement.side_deductions if settled and record is not None else (0,) * sides
    if number == 1:
        start = [(0, 0)] * sides
    elif settled or record is None:
        start = [(-MAX_SIDE_DEDUCTION * (number - 1), target - 5)] * sides
    else:
        before = record.settlement.side_deductions
        start = [(-MAX_SIDE_DEDUCTION * (number - 2) - cost, target - 5 - cost) for cost in before]
    return tuple(
        (max(0, score + cost - most), score + cost - least)
        for score, cost, (least, most) in zip(state.scores, now, start, strict=True)
    )


def turn_problems(state: State, points: tuple[int, ...], scores_known: bool) -> list[Finding]:
    """What the order of turns cannot explain in ``state``, whose placements scored ``points``.

    The draws the boneyard shows (DRAW-2), the seat to move (TURN-1), the
    hand sizes (DRAW-2) and, when ``scores_known``, the points each side
    scored this round (POINTS-2). For a state whose tiles are each once and
    whose layout replays.
    """
    rules, opener, to_move = state.rules, state.opener, state.to_move
    players, size = rules.players, rules.hand_size
    dealt = TILE_COUNT - players * size
    held = len(state.boneyard_ids)
    if held > dealt:
        return [("DRAW-2", "boneyard", f"the boneyard holds {held} tiles, more than the {dealt} the deal leaves")]
    turns = Turns(
        rules=rules,
        opener=opener,
        to_move=to_move,
        hand_sizes=tuple(mask.bit_count() for mask in state.hand_masks),
        drawn_so_far=dealt - held,
        boneyard_empty=not held,
        points=points,
        ending=_ending(state),
        drawn_waiting=state.drawn >= 0,
        can_place=tuple(bool(mask & fitting(state.layout)) for mask in state.hand_masks),
    )
    found: list[Finding] = []
    if not points:
        # The lead's own checks (OPEN-3, DRAW-1) cover the seat and the draws of an empty table.
        if not explains(turns, check_to_move=False):
            found.append(("DRAW-2", "hands", _hands_message(state, turns)))
        if scores_known:
            bounded = attrs.evolve(turns, credit_bounds=_credit_bounds(state))
            if not explains(bounded, check_to_move=False, check_counts=False):
                found.append(("POINTS-2", "scores", _scores_message(state, bounded)))
        return found
    bounded = attrs.evolve(turns, credit_bounds=_credit_bounds(state)) if scores_known else turns
    if explains(bounded):
        return found  # the usual case, settled by one search; the others below only say what fails
    seat_order = explains(turns, check_counts=False)
    if not seat_order:
        found.append(("TURN-1", "to_move", _seat_message(state, turns)))
    if not explains(turns, check_to_move=seat_order):
        found.append(("DRAW-2", "hands", _hands_message(state, turns)))
        return found
    if scores_known and not found:
        found.append(("POINTS-2", "scores", _scores_message(state, bounded)))
    return found


def _passes_possible(state: State) -> bool:
    return not state.boneyard_ids and state.drawn < 0


def _seat_message(state: State, turns: Turns) -> str:
    placed, players, opener, t = len(turns.points), state.rules.players, state.opener, state.to_move
    if state.boneyard_ids or state.drawn >= 0:
        why = "tiles are left in the boneyard" if state.boneyard_ids else "a drawn tile waits"
        if turns.ending is Ending.TO_MOVE:
            return (
                f"to_move is seat {t}, but {why}, so nobody has passed: after {placed} placements from the"
                f" opener, seat {opener}, it is seat {(opener + placed) % players}'s turn"
            )
        return (
            f"to_move is seat {t}, who moved last, but tiles are left in the boneyard, so nobody has passed:"
            f" placement {placed} of the round, led by seat {opener}, was seat {(opener + placed - 1) % players}'s"
        )
    if turns.ending is not Ending.TO_MOVE:
        return f"to_move is seat {t}, who moved last, but only the lead is on the table, and seat {opener} led it"
    return (
        f"to_move is seat {t}, but the seats that passed since the last placement hold tiles that fit,"
        f" or all {players - 1} others passed and seat {t} cannot place: a seat passes only when it cannot"
        " place and another can"
    )


def _hands_message(state: State, turns: Turns) -> str:
    sizes = list(turns.hand_sizes)
    drew = turns.drawn_so_far
    if not turns.points:
        return f"nothing is played yet, so each hand holds the {state.rules.hand_size} tiles dealt, not {sizes}"
    if _passes_possible(state) and len(turns.points) > 1:
        return (
            f"no order of turns from the deal ({state.rules.hand_size} tiles each, {drew} drawn since,"
            f" {len(turns.points)} placed) leaves hands of {sizes} tiles"
        )
    counts = [
        (len(turns.points) - (seat - state.opener) % len(sizes) + len(sizes) - 1) // len(sizes)
        for seat in range(len(sizes))
    ]
    implied = [size - state.rules.hand_size + count for size, count in zip(sizes, counts, strict=True)]
    return (
        f"hands of {sizes} tiles, after {counts} placements per seat in turn from seat {state.opener}"
        f" and {state.rules.hand_size} dealt each, mean draws of {implied}; {drew} tiles were drawn in all,"
        " none before a seat's first turn after the lead, and none negative"
    )


def _scores_message(state: State, turns: Turns) -> str:
    scored = [points for points in turns.points if points]
    if state.round_number == 1:
        settled = " less the settlement" if state.phase is Phase.ROUND_OVER else ""
        return (
            f"scores {list(state.scores)} in round 1: each side's score is what its placements scored this round"
            f"{settled}, and no order of turns gives that from the scoring placements' points {scored}"
        )
    ranges = ", ".join(
        f"side {side}: {least}..{most}" if least <= most else f"side {side}: none"
        for side, (least, most) in enumerate(turns.credit_bounds or ())
    )
    return (
        f"scores {list(state.scores)} in round {state.round_number}: each side scored this round what its score"
        " allows, given the target, the last round's settlement and the rounds before"
        f" ({ranges}), and no order of turns gives that from the scoring placements' points {scored}"
    )
