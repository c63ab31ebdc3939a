"""Violations, well-formedness, and the laws of a position and of a list of moves.

The implementation behind :mod:`sniff_rules.position.laws`, which documents every
law; import from there.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from sniff_rules.layout import POINT_VALUE, VALID_POINT_IDS, AttachmentPoint, Layout, Placement, recount_end
from sniff_rules.moves import Draw, Move, Pass, Place
from sniff_rules.rules import Rules, Seat, Side
from sniff_rules.scoring import Settlement
from sniff_rules.state import Phase, RoundContext, RoundResult, State
from sniff_rules.tiles import DOUBLE_SIX, FULL_SET_MASK, PIP_MASK, TILE_COUNT, Tile

# The arithmetic of the rules (sides, rounding, points) is written out again
# here rather than taken from the scoring module, so that the laws do not
# trust the code they check.


@attrs.frozen
class Violation:
    """A law of the game that a state, a step or a deal breaks.

    ``law`` is the law's stable name (see :mod:`sniff_rules.position.laws`); ``rule``
    the rule id of ``specs/rules.md`` it breaks, None for a law no single
    rule states; ``message`` what was found.

    >>> print(Violation("seat-to-move", "TURN-1", "seats run 0..1, not 2"))
    TURN-1: seats run 0..1, not 2
    """

    law: str
    rule: str | None
    message: str

    def __str__(self) -> str:
        return self.message if self.rule is None else f"{self.rule}: {self.message}"


def is_int(value: object) -> bool:
    """Exactly an int: not a bool, not a float."""
    return type(value) is int


def _tiles_text(mask: int) -> str:
    return " ".join(str(DOUBLE_SIX[index]) for index in range(TILE_COUNT) if mask >> index & 1) or "none"


def tile_count(mask: int) -> int:
    """How many tiles a bit mask holds."""
    return mask.bit_count()


def pips_of(mask: int) -> int:
    """The pips on the tiles of a bit mask, summed half by half."""
    return sum(DOUBLE_SIX[index].low + DOUBLE_SIX[index].high for index in range(TILE_COUNT) if mask >> index & 1)


def side_of(rules: Rules, seat: Seat) -> Side:
    """The side that ``seat`` scores for (SETUP-2, written out again)."""
    return seat % (2 if rules.players == 4 else rules.players)


def rounded(pips: int) -> int:
    """A hand's deduction, to the nearest 5 (SETTLE-1, written out again)."""
    return 5 * ((pips + 2) // 5)


def play_points(end_count: int) -> int:
    """A placement's points for its end count (POINTS-1, written out again)."""
    return end_count if end_count > 0 and end_count % 5 == 0 else 0


def fitting(layout: Layout) -> int:
    """The tiles that fit some open point: every tile on an empty table."""
    if not layout.placements:
        return FULL_SET_MASK
    fits = 0
    for point_id in layout.open_point_ids:
        fits |= PIP_MASK[POINT_VALUE[point_id]]
    return fits


def held(state: State) -> int:
    """Every tile in some hand, as a bit mask."""
    tiles = 0
    for mask in state.hand_masks:
        tiles |= mask
    return tiles


# Well-formedness: what the other laws read, checked before they read it.


def _layout_problems(layout: object) -> list[str]:
    if not isinstance(layout, Layout):
        return [f"the layout is {type(layout).__name__}, not a Layout"]
    problems = []
    placements = layout.placements
    if not isinstance(placements, tuple) or not all(
        isinstance(placement, Placement)
        and isinstance(placement.tile, Tile)
        and (placement.target is None or isinstance(placement.target, AttachmentPoint))
        for placement in placements
    ):
        problems.append("the layout's placements are a tuple of Placement values of tiles and points")
    open_ids = layout.open_point_ids
    if not isinstance(open_ids, tuple) or not all(is_int(pid) and pid in VALID_POINT_IDS for pid in open_ids):
        problems.append(f"the open points are a tuple of attachment point ids, not {open_ids!r}")
    if not is_int(layout.end_count):
        problems.append(f"the end count is an int, not {layout.end_count!r}")
    return problems


def _field_problems(state: State, rules: Rules) -> list[str]:
    context = state.context
    problems = []
    if not isinstance(state.phase, Phase):
        problems.append(f"the phase is a Phase, not {state.phase!r}")
    if not is_int(context.round_number) or context.round_number < 1:
        problems.append(f"rounds are numbered from 1, not {context.round_number!r}")
    if not is_int(context.opener) or not 0 <= context.opener < rules.players:
        problems.append(f"the opener is a seat 0..{rules.players - 1}, not {context.opener!r}")
    if not isinstance(context.lot, tuple):
        problems.append(f"the lot is a tuple of lot rounds, not {context.lot!r}")
    last = context.last_round
    if last is not None and not (isinstance(last, RoundResult) and isinstance(last.settlement, Settlement)):
        problems.append(f"the last round is a RoundResult with a Settlement, or None, not {last!r}")
    masks = state.hand_masks
    if (
        not isinstance(masks, tuple)
        or len(masks) != rules.players
        or not all(is_int(mask) and 0 <= mask <= FULL_SET_MASK for mask in masks)
    ):
        problems.append(f"{rules.players} hands, each a bit mask of the 28 tiles, not {masks!r}")
    boneyard = state.boneyard_ids
    if not isinstance(boneyard, tuple) or not all(is_int(i) and 0 <= i < TILE_COUNT for i in boneyard):
        problems.append(f"the boneyard is a tuple of tile indices 0..27, not {boneyard!r}")
    problems += _layout_problems(state.layout)
    if not is_int(state.drawn) or not -1 <= state.drawn < TILE_COUNT:
        problems.append(f"the drawn tile is an index 0..27 or -1, not {state.drawn!r}")
    winner = state.winner
    if winner is not None and (not is_int(winner) or not 0 <= winner < rules.sides):
        problems.append(f"the winner is a side 0..{rules.sides - 1} or None, not {winner!r}")
    return problems


def shape_violations(state: object, where: str = "") -> tuple[Violation, ...]:
    """The well-formed, seat-to-move and score-per-side violations of ``state``."""

    def found(law: str, rule: str | None, message: str) -> Violation:
        return Violation(law, rule, where + message)

    if not isinstance(state, State):
        return (found("well-formed", None, f"a position is a State, not {type(state).__name__}"),)
    context = state.context
    if not isinstance(context, RoundContext) or not isinstance(context.rules, Rules):
        return (found("well-formed", None, "a state's context is a RoundContext holding Rules"),)
    rules = context.rules
    violations = [found("well-formed", None, problem) for problem in _field_problems(state, rules)]
    seat = state.to_move
    if not is_int(seat) or not 0 <= seat < rules.players:
        violations.append(found("seat-to-move", "TURN-1", f"seats run 0..{rules.players - 1}, not {seat!r}"))
    scores = state.scores
    if not isinstance(scores, tuple) or len(scores) != rules.sides or not all(map(is_int, scores)):
        violations.append(found("score-per-side", "SETUP-2", f"{rules.sides} integer scores, not {scores!r}"))
    return tuple(violations)


# Position laws.


def _tiles_once(state: State) -> list[Violation]:
    seen = twice = 0
    bits: list[int] = list(state.hand_masks)
    bits += [1 << index for index in state.boneyard_ids]
    bits += [1 << placement.tile.index for placement in state.layout.placements]
    for bit in bits:
        twice |= seen & bit
        seen |= bit
    if seen == FULL_SET_MASK and not twice:
        return []
    missing = _tiles_text(FULL_SET_MASK & ~seen)
    return [
        Violation("tiles-once", "SETUP-1", f"each tile once; missing {missing}, more than once {_tiles_text(twice)}")
    ]


def _scores_and_winner(state: State) -> list[Violation]:
    rules, scores, winner = state.rules, state.scores, state.winner
    violations = []
    if any(score % 5 for score in scores):
        violations.append(
            Violation("scores-multiple-of-five", "SETTLE-4", f"every score is a multiple of 5, not {scores}")
        )
    if state.phase is not Phase.MATCH_OVER:
        if any(score >= rules.target for score in scores):
            violations.append(
                Violation(
                    "below-target", "MATCH-1", f"{scores} reaches the target {rules.target}, but the match goes on"
                )
            )
        if winner is not None:
            violations.append(
                Violation("winner", "MATCH-1", f"the state is {state.phase.value}, but side {winner} won")
            )
    elif winner is None or scores[winner] < rules.target:
        violations.append(Violation("winner", "MATCH-1", f"won with scores {scores} and winner {winner!r}"))
    elif any(score >= rules.target for side, score in enumerate(scores) if side != winner):
        violations.append(
            Violation("winner", "MATCH-1", f"side {winner} won, but another side reached {rules.target}: {scores}")
        )
    return violations


def _last_round(state: State) -> list[Violation]:
    last, number, phase = state.last_round, state.round_number, state.phase
    expected = number if phase is Phase.ROUND_OVER else number - 1
    recorded = None if last is None else last.round_number
    if recorded == (expected or None):
        return []
    wanted = f"round {expected}" if expected else "none"
    message = f"round {number} is {phase.value}: the last round on record is {wanted}, not {recorded or 'none'}"
    return [Violation("last-round", None, message)]


def _settled(state: State) -> list[Violation]:
    """The laws of a settled round: hands revealed, settled, and why it ended."""
    result = state.last_round
    if result is None:
        return []  # last-round reports it
    if result.hands != state.hands:
        return [Violation("hands-revealed", "SETTLE-1", f"the settled round records the hands {result.hands!r}")]
    rules, masks = state.rules, state.hand_masks
    violations = []
    pips = tuple(pips_of(mask) for mask in masks)
    deductions = tuple(rounded(p) for p in pips)
    sides = [0] * rules.sides
    for seat, deduction in enumerate(deductions):
        sides[side_of(rules, seat)] += deduction
    settlement = result.settlement
    if (settlement.hand_pips, settlement.deductions) != (pips, deductions):
        violations.append(
            Violation(
                "settlement",
                "SETTLE-1",
                f"hands of {pips} pips cost {deductions}, not {settlement.hand_pips} and {settlement.deductions}",
            )
        )
    elif settlement.side_deductions != tuple(sides):
        violations.append(
            Violation(
                "settlement", "SETTLE-2", f"per side {deductions} cost {tuple(sides)}, not {settlement.side_deductions}"
            )
        )
    finisher = result.finisher
    empty = [seat for seat, mask in enumerate(masks) if not mask]
    if finisher is not None:
        if empty != [finisher]:
            violations.append(
                Violation("round-ended", "END-1", f"seat {finisher!r} played out, but the empty hands are {empty}")
            )
    elif state.boneyard_ids or empty or held(state) & fitting(state.layout):
        violations.append(
            Violation(
                "round-ended",
                "BLOCK-1",
                "a round with no finisher is blocked: an empty boneyard and every hand holding tiles, none fitting",
            )
        )
    return violations


def _playing(state: State) -> list[Violation]:
    """The laws of a round being played: hands held, not blocked."""
    violations = []
    empty = [seat for seat, mask in enumerate(state.hand_masks) if not mask]
    if empty:
        violations.append(Violation("hands-held", "END-1", f"the round is played, but seats {empty} hold no tile"))
    if not state.boneyard_ids and not held(state) & fitting(state.layout):
        violations.append(
            Violation("not-blocked", "BLOCK-1", "the boneyard is empty and no held tile fits, yet the round goes on")
        )
    return violations


def _drawn_tile(state: State) -> list[Violation]:
    drawn = state.drawn
    if drawn < 0:
        return []
    tile, seat = DOUBLE_SIX[drawn], state.to_move
    if state.phase is not Phase.PLAYING:
        return [Violation("drawn-tile", "DRAW-2", f"{tile} waits to be placed, but the state is {state.phase.value}")]
    if not state.hand_masks[seat] >> drawn & 1 or not fitting(state.layout) >> drawn & 1:
        return [
            Violation(
                "drawn-tile",
                "DRAW-2",
                f"{tile} waits to be placed, but seat {seat} does not hold it or it fits nowhere",
            )
        ]
    return []


def position_violations(state: State) -> tuple[Violation, ...]:
    """The position laws that ``state`` breaks, in the order of :data:`sniff_rules.position.laws.POSITION_LAWS`.

    >>> from sniff_rules import Rules, new_match
    >>> position_violations(new_match(Rules.standard(3), seed=1))
    ()
    """
    broken = shape_violations(state)
    if broken:
        return broken
    violations = _tiles_once(state)
    recounted = recount_end(state.layout.placements)
    if state.layout.end_count != recounted:
        violations.append(
            Violation(
                "end-count",
                "COUNT-1..4",
                f"the end count is {state.layout.end_count}, recounted from the placements {recounted}",
            )
        )
    violations += _scores_and_winner(state)
    violations += _last_round(state)
    if state.phase is Phase.ROUND_OVER:
        violations += _settled(state)
    elif state.phase is Phase.PLAYING:
        violations += _playing(state)
    violations += _drawn_tile(state)
    return tuple(violations)


# Move-list laws.


def move_kind_problem(move: object) -> str | None:
    """What is wrong with ``move`` as a move value, if anything."""
    kind = type(move)
    if kind is not Place and kind is not Draw and kind is not Pass:
        return f"a move is a Place, Draw or Pass, not {move!r}"
    if not is_int(getattr(move, "seat", None)):
        return f"a move names its seat as an int: {move!r}"
    if isinstance(move, Place) and (
        not isinstance(move.tile, Tile) or not (move.target is None or isinstance(move.target, AttachmentPoint))
    ):
        return f"a placement names a tile and an attachment point or None: {move!r}"
    return None


def move_list_violations(state: State, moves: Sequence[Move]) -> tuple[Violation, ...]:
    """The laws that ``moves``, listed as the legal moves of ``state``, break.

    Only what holds of any correct list; whether it is the right list is for
    a comparison with :func:`~sniff_rules.legal_moves`.

    >>> from sniff_rules import Draw, Rules, legal_moves, new_match
    >>> state = new_match(Rules.standard(2), seed=1)
    >>> move_list_violations(state, legal_moves(state))
    ()
    >>> for violation in move_list_violations(state, (Draw(1),)):
    ...     print(violation)
    TURN-2: seat 0 is to move, but the list is (Draw(1),)
    """
    broken = shape_violations(state)
    if broken:
        return broken
    kinds = [
        Violation("move-kind", "TURN-1", problem) for problem in map(move_kind_problem, moves) if problem is not None
    ]
    if kinds:
        return tuple(kinds)
    violations = []
    phase = state.phase
    if phase is Phase.PLAYING and not moves:
        violations.append(Violation("moves-while-playing", "TURN-1", "the round is played, but no move is listed"))
    elif phase is not Phase.PLAYING and moves:
        rule = "MATCH-2" if phase is Phase.MATCH_OVER else "END-1"
        violations.append(
            Violation("moves-while-playing", rule, f"the {phase.value} state lists moves {tuple(moves)!r}")
        )
    if len(set(moves)) != len(moves):
        violations.append(Violation("moves-distinct", None, f"a move is listed twice: {tuple(moves)!r}"))
    alone = [move for move in moves if type(move) is not Place]
    if alone and len(moves) > 1:
        violations.append(
            Violation("draw-or-pass-alone", "DRAW-1", f"a draw or a pass is listed alone: {tuple(moves)!r}")
        )
    elif any(type(move) is Draw for move in alone) and not state.boneyard_ids:
        violations.append(Violation("draw-or-pass-alone", "DRAW-2", "a draw is listed, but the boneyard is empty"))
    elif any(type(move) is Pass for move in alone) and state.boneyard_ids:
        violations.append(Violation("draw-or-pass-alone", "PASS-1", "a pass is listed, but the boneyard has tiles"))
    if any(move.seat != state.to_move for move in moves):
        violations.append(
            Violation(
                "moves-by-seat-to-move", "TURN-2", f"seat {state.to_move} is to move, but the list is {tuple(moves)!r}"
            )
        )
    return tuple(violations)
