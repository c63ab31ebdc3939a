"""The laws of a step (one accepted move) and of a deal.

The implementation behind :mod:`sniff_rules.position.laws`, which documents every
law; import from there.
"""

from __future__ import annotations

from sniff_rules.errors import SniffError
from sniff_rules.layout import Placement
from sniff_rules.moves import Draw, Move, Place, apply, legal_moves
from sniff_rules.position._position_laws import (
    Violation,
    fitting,
    is_int,
    move_kind_problem,
    pips_of,
    play_points,
    rounded,
    shape_violations,
    side_of,
    tile_count,
)
from sniff_rules.rules import Seat
from sniff_rules.state import Phase, State
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT

# Step laws.


def _illegality(state: State, move: Move) -> Violation | None:
    """The move-legal violation of ``move`` in ``state``, judged by the library."""
    try:
        if move in legal_moves(state):
            return None
        try:
            apply(state, move)
        except SniffError as error:
            return Violation("move-legal", error.rule, f"{move!r} is not a legal move here")
        return Violation("move-legal", None, f"{move!r} is not listed by legal_moves, yet apply accepts it")
    except Exception as error:
        # A law reports and never raises, even on a well-formed state whose
        # layout is so inconsistent that the engine cannot read it.
        return Violation("move-legal", None, f"the library cannot judge {move!r} here: {error!r}")


def _movement(before: State, move: Move, after: State) -> list[Violation]:
    """What a placement, a draw or a pass moves from where to where."""
    seat = before.to_move
    others_kept = all(
        a == b for other, (a, b) in enumerate(zip(before.hand_masks, after.hand_masks, strict=False)) if other != seat
    )
    hand_before, hand_after = before.hand_masks[seat], after.hand_masks[seat]
    if isinstance(move, Place):
        placed = (*before.layout.placements, Placement(move.tile, move.target))
        if not (
            hand_after == hand_before & ~(1 << move.tile.index)
            and others_kept
            and after.layout.placements == placed
            and after.boneyard_ids == before.boneyard_ids
        ):
            return [
                Violation(
                    "placement-moves-tile",
                    "PLACE-3",
                    f"{move!r} moves {move.tile} from the hand to the table, nothing else",
                )
            ]
        return []
    if isinstance(move, Draw):
        first = before.boneyard_ids[0]
        violations = []
        if not (
            after.boneyard_ids == before.boneyard_ids[1:]
            and hand_after == hand_before | 1 << first
            and others_kept
            and after.layout == before.layout
        ):
            violations.append(
                Violation(
                    "draw-takes-first-tile",
                    "DRAW-2",
                    f"{move!r} moves {DOUBLE_SIX[first]}, the first boneyard tile, to the hand",
                )
            )
        if after.phase is Phase.PLAYING:
            fits = bool(fitting(after.layout) >> first & 1)
            if (after.drawn == first) != fits:
                how = "fits, so it waits to be placed" if fits else "does not fit, so nothing waits"
                violations.append(
                    Violation(
                        "draw-marks-fitting-tile",
                        "DRAW-2",
                        f"the drawn {DOUBLE_SIX[first]} {how}; drawn is {after.drawn}",
                    )
                )
        return violations
    if (after.hand_masks, after.boneyard_ids, after.layout, after.phase) != (
        before.hand_masks,
        before.boneyard_ids,
        before.layout,
        Phase.PLAYING,
    ):
        return [Violation("pass-changes-only-turn", "PASS-1", f"{move!r} changes nothing but the turn")]
    return []


def _turn_and_facts(before: State, move: Move, after: State) -> list[Violation]:
    violations = []
    seat = before.to_move
    if after.phase is Phase.PLAYING:
        expected = seat if isinstance(move, Draw) else (seat + 1) % before.rules.players
        if after.to_move != expected:
            rule = "DRAW-2" if isinstance(move, Draw) else "TURN-1"
            violations.append(
                Violation("turn-passes", rule, f"after {move!r} seat {expected} is to move, not seat {after.to_move}")
            )
    kept = ("rules", "round_number", "opener", "lot")
    changed = [name for name in kept if getattr(before, name) != getattr(after, name)]
    if changed:
        violations.append(Violation("round-facts-kept", None, f"{move!r} changed the round's {', '.join(changed)}"))
    return violations


def _scores_after(before: State, move: Move, after: State) -> list[Violation]:
    rules, seat = before.rules, before.to_move
    side = side_of(rules, seat)
    credited = list(before.scores)
    if isinstance(move, Place):
        credited[side] += play_points(after.layout.end_count)
    violations = []
    if after.phase is Phase.ROUND_OVER:
        settled = list(credited)
        for hand_seat, mask in enumerate(after.hand_masks):
            settled[side_of(rules, hand_seat)] -= rounded(pips_of(mask))
        if tuple(settled) != after.scores:
            violations.append(
                Violation(
                    "settlement-deducted",
                    "SETTLE-2",
                    f"after {move!r} the scores are {tuple(credited)} less the rounded hands, {tuple(settled)},"
                    f" not {after.scores}",
                )
            )
    elif tuple(credited) != after.scores:
        violations.append(
            Violation(
                "points-credited", "POINTS-1", f"after {move!r} the scores are {tuple(credited)}, not {after.scores}"
            )
        )
    reached = isinstance(move, Place) and credited[side] >= rules.target
    if after.phase is Phase.MATCH_OVER:
        if not reached or after.winner != side or after.last_round != before.last_round:
            violations.append(
                Violation(
                    "won-by-placement",
                    "MATCH-1",
                    f"{move!r} won the match for side {after.winner!r}; only a placement reaching the target wins,"
                    " for the placer's side, unsettled",
                )
            )
    elif reached:
        violations.append(
            Violation(
                "won-by-placement", "MATCH-1", f"{move!r} brings side {side} to {credited[side]}: the match is won"
            )
        )
    return violations


def _round_result(before: State, move: Move, after: State) -> list[Violation]:
    result = after.last_round
    if after.phase is Phase.PLAYING and result != before.last_round:
        return [Violation("round-result-recorded", "END-1", f"{move!r} did not end the round, but recorded {result!r}")]
    if after.phase is not Phase.ROUND_OVER or result is None:
        return []  # a won match keeps its last result (won-by-placement); a missing one is last-round's
    seat = before.to_move
    played_out = isinstance(move, Place) and not after.hand_masks[seat]
    finisher = seat if played_out else None
    if (result.round_number, result.finisher) != (before.round_number, finisher):
        rule = "END-1" if played_out else "BLOCK-1"
        return [
            Violation(
                "round-result-recorded",
                rule,
                f"{move!r} ended round {before.round_number} with finisher {finisher!r},"
                f" not round {result.round_number!r} with finisher {result.finisher!r}",
            )
        ]
    return []


def step_violations(before: State, move: Move, after: State) -> tuple[Violation, ...]:
    """The step laws that accepting ``move`` in ``before`` and reaching ``after`` breaks.

    >>> from sniff_rules import Draw, Rules, apply, legal_moves, new_match
    >>> state = new_match(Rules.standard(2), seed=1)
    >>> for violation in step_violations(state, Draw(0), state):
    ...     print(violation.law, "|", violation)
    move-legal | DRAW-1: Draw(0) is not a legal move here
    """
    broken = shape_violations(before, "before the move: ") + shape_violations(after, "after the move: ")
    problem = move_kind_problem(move)
    if problem is not None:
        broken += (Violation("move-kind", "TURN-1", problem),)
    if broken:
        return broken
    if before.phase is not Phase.PLAYING:
        rule = "MATCH-2" if before.phase is Phase.MATCH_OVER else "END-1"
        return (
            Violation("accepted-while-playing", rule, f"{move!r} was accepted, but the state is {before.phase.value}"),
        )
    illegal = _illegality(before, move)
    if illegal is not None:
        return (illegal,)
    if after.rules != before.rules:
        # The laws below compare seat by seat, which other rules do not allow.
        return (Violation("round-facts-kept", None, f"{move!r} changed the round's rules"),)
    violations = _movement(before, move, after)
    violations += _turn_and_facts(before, move, after)
    violations += _scores_after(before, move, after)
    violations += _round_result(before, move, after)
    return tuple(violations)


# Deal laws.


def _lot_problem(lot: tuple[object, ...], players: int, opener: Seat) -> str | None:
    """What is wrong with a recorded lot that should have chosen ``opener``."""
    candidates = tuple(range(players))
    for number, draws in enumerate(lot):
        if (
            not isinstance(draws, tuple)
            or not all(isinstance(draw, tuple) and len(draw) == 2 for draw in draws)
            or tuple(draw[0] for draw in draws) != candidates
            or not all(is_int(draw[1]) and 1 <= draw[1] <= 6 for draw in draws)
        ):
            return f"round {number + 1} of the lot draws 1..6 for seats {candidates}: {draws!r}"
        best = max(draw[1] for draw in draws)
        candidates = tuple(draw[0] for draw in draws if draw[1] == best)
        if len(candidates) == 1 and number != len(lot) - 1:
            return f"the lot was decided in round {number + 1} but drawn on"
    if len(candidates) != 1:
        return f"the lot ends tied between seats {candidates}"
    if candidates[0] != opener:
        return f"the lot chose seat {candidates[0]}, but seat {opener} opens"
    return None


def _opener_chosen(previous: State | None, dealt: State) -> list[Violation]:
    finisher = None if previous is None or previous.last_round is None else previous.last_round.finisher
    if finisher is not None:
        if (dealt.opener, dealt.lot) != (finisher, ()):
            return [
                Violation(
                    "opener-chosen",
                    "OPEN-2",
                    f"seat {finisher} played out and opens with no lot, not seat {dealt.opener} with lot {dealt.lot!r}",
                )
            ]
        return []
    if not dealt.lot:
        return []  # the frontend named the opener (OPEN-1, OPEN-2)
    problem = _lot_problem(dealt.lot, dealt.rules.players, dealt.opener)
    return [] if problem is None else [Violation("opener-chosen", "OPEN-1", problem)]


def _carried_over(previous: State | None, dealt: State) -> list[Violation]:
    if previous is None:
        round_number, scores, result = 1, (0,) * dealt.rules.sides, None
    else:
        round_number, scores, result = previous.round_number + 1, previous.scores, previous.last_round
    violations = []
    if dealt.round_number != round_number:
        violations.append(
            Violation("round-numbered", None, f"the deal is round {round_number}, not {dealt.round_number}")
        )
    if dealt.scores != scores:
        violations.append(Violation("scores-carried", None, f"the deal starts at scores {scores}, not {dealt.scores}"))
    if dealt.last_round != result:
        violations.append(
            Violation("result-kept", None, f"the deal keeps the last round {result!r}, not {dealt.last_round!r}")
        )
    if previous is not None and dealt.rules != previous.rules:
        violations.append(
            Violation("rules-kept", None, f"the deal keeps the rules {previous.rules!r}, not {dealt.rules!r}")
        )
    return violations


def deal_violations(previous: State | None, dealt: State) -> tuple[Violation, ...]:
    """The deal laws that ``dealt`` breaks as the round after ``previous``
    (None: as the first deal of a match).

    >>> from sniff_rules import Rules, new_match
    >>> deal_violations(None, new_match(Rules.standard(4), seed=5))
    ()
    """
    broken = shape_violations(dealt, "the deal: ")
    if previous is not None:
        broken = shape_violations(previous, "before the deal: ") + broken
    if broken:
        return broken
    if previous is not None and previous.phase is not Phase.ROUND_OVER:
        rule = "MATCH-2" if previous.phase is Phase.MATCH_OVER else "END-1"
        return (
            Violation(
                "dealt-after-round-over", rule, f"a round was dealt, but the state before is {previous.phase.value}"
            ),
        )
    rules = dealt.rules
    violations = []
    sizes = tuple(tile_count(mask) for mask in dealt.hand_masks)
    rest = TILE_COUNT - rules.players * rules.hand_size
    if any(size != rules.hand_size for size in sizes) or len(dealt.boneyard_ids) != rest:
        violations.append(
            Violation(
                "full-hands",
                "SETUP-4",
                f"{rules.hand_size} tiles a hand and {rest} in the boneyard, not {sizes} and {len(dealt.boneyard_ids)}",
            )
        )
    if (dealt.phase, dealt.layout.placements, dealt.drawn, dealt.winner, dealt.to_move) != (
        Phase.PLAYING,
        (),
        -1,
        None,
        dealt.opener,
    ):
        violations.append(
            Violation(
                "opener-leads",
                "OPEN-3",
                f"a round starts in play on an empty table, nothing drawn, seat {dealt.opener} (the opener) to move",
            )
        )
    violations += _opener_chosen(previous, dealt)
    violations += _carried_over(previous, dealt)
    return tuple(violations)
