"""Whether legal play reaches a position: :func:`problems` lists every reason it cannot.

The analogue of python-chess's ``Board.status()``. A :class:`State` built by
:meth:`State.create` (or read by anyone) has the right shape, but nothing
says a match reaches it; :func:`problems` checks the position against the
rules, as far as a position alone can tell, and returns a
:class:`Problem` for each reason it cannot arise from its round's deal by
legal play — a rule id, the field at fault and what was found. The JSON
reader (:func:`sniff_rules.formats.state_json.state_from_json`) refuses a document on
its first problem. ``specs/positions.md`` lists every check, and what a
position cannot prove (after round 1 the scores are only bounded).

>>> from sniff_rules import Rules, State, new_match
>>> problems(new_match(Rules.standard(2), seed=1))
()
>>> lone = State.create(rules=Rules.standard(2), hands=("[1|4]", "[0|3] [2|2]"),
...                     boneyard="[0|0] [0|1] [0|2] [0|4] [0|5] [0|6] [1|1] [1|2] [1|3] [1|5] [1|6] [2|3]"
...                              " [2|4] [2|5] [2|6] [3|3] [3|4] [3|5] [3|6] [4|4] [4|5] [4|6] [5|5] [5|6] [6|6]")
>>> for problem in problems(lone):
...     print(problem.field, "|", problem)
boneyard | DRAW-2: the boneyard holds 25 tiles, more than the 14 the deal leaves

The checks, in the order reported: the 28 tiles each once (SETUP-1); the
layout replayed placement by placement (PLACE-1, PLACE-2, SNIFF-1..3,
OPEN-3, COUNT-1..4); scores in multiples of 5 (SETTLE-4); the lot (OPEN-1);
the last round's record — its number (END-1), who opens after it (OPEN-2),
its hands and settlement (SETUP-1, SETTLE-1, SETTLE-2, END-1, BLOCK-1,
DRAW-2); the phase, winner and hands (MATCH-1, END-1, BLOCK-1); the lead
(OPEN-3, DRAW-1); a tile drawn and waiting (DRAW-1, DRAW-2); and the order
of turns (``sniff_rules.position._turn_order``): the seat to move (TURN-1), the hand
sizes against the draws (DRAW-2), and the points each side scored this
round against its score (POINTS-2). Last, a state with none of these
problems is checked against :func:`sniff_rules.position.laws.position_violations`,
so that no law of a position goes unreported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs

from sniff_rules._fast import sealed
from sniff_rules.errors import InvalidStateError, SniffError
from sniff_rules.layout import Layout
from sniff_rules.moves import legal_moves
from sniff_rules.position._position_laws import fitting, shape_violations
from sniff_rules.position._turn_problems import MAX_SIDE_DEDUCTION, turn_problems
from sniff_rules.position.laws import position_violations
from sniff_rules.randomness import LOT_FACES, MAX_LOT_ROUNDS, LotRound
from sniff_rules.rules import Rules
from sniff_rules.scoring import Settlement, play_points, settle_round
from sniff_rules.state import Phase, RoundResult, State
from sniff_rules.tiles import DOUBLE_SIX, FULL_SET_MASK, HIGHEST_PIP, TILE_COUNT, Tile

__all__ = ["MAX_SIDE_DEDUCTION", "Problem", "lot_problems", "problems", "round_result_problems"]


@sealed()
@attrs.frozen
class Problem:
    """One reason a state cannot arise in a legal match.

    ``rule`` is the rule id of ``specs/rules.md`` it breaks, ``field`` the
    part of the state at fault, as its JSON key names it (``"to_move"``,
    ``"hands"``, ``"last_round.settlement"`` ...), and ``message`` what was
    found.

    >>> print(Problem("TURN-1", "to_move", "to_move is seat 1, but seat 0 is to move"))
    TURN-1: to_move is seat 1, but seat 0 is to move
    """

    rule: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


def _index(tile: Tile) -> int:
    return tile.index


def _message(err: SniffError) -> str:
    return str(err).removeprefix(f"{err.rule}: ")


# ---------------------------------------------------------------- the parts: tiles, layout, lot, record


def _tile_problems(state: State) -> list[Problem]:
    seen_bits = twice_bits = 0
    for bit in (*state.hand_masks, *(1 << i for i in state.boneyard_ids), state.layout.placed_mask):
        twice_bits |= seen_bits & bit
        seen_bits |= bit
    if (
        seen_bits == FULL_SET_MASK
        and not twice_bits
        and len(state.layout.placements) == state.layout.placed_mask.bit_count()
    ):
        return []
    seen: dict[Tile, list[str]] = {}
    for seat, hand in enumerate(state.hands):
        for tile in hand:
            seen.setdefault(tile, []).append(f"hand {seat}")
    for tile in state.boneyard:
        seen.setdefault(tile, []).append("boneyard")
    for placement in state.layout.placements:
        seen.setdefault(placement.tile, []).append("layout")
    twice = [
        f"{tile} ({' and '.join(places)})"
        for tile, places in sorted(seen.items(), key=lambda item: item[0].index)
        if len(places) > 1
    ]
    missing = [str(tile) for tile in DOUBLE_SIX if tile not in seen]
    if not twice and not missing:
        return []
    return [
        Problem(
            "SETUP-1",
            "hands",
            "hands, boneyard and layout hold each of the 28 tiles exactly once"
            + (f"; twice: {', '.join(twice)}" if twice else "")
            + (f"; missing: {', '.join(missing)}" if missing else ""),
        )
    ]


def _replayed_points(layout: Layout) -> tuple[list[Problem], tuple[int, ...] | None]:
    """The problems of the layout replayed placement by placement, and what each placement scored."""
    built = Layout.EMPTY
    counts: list[int] = []
    for number, placement in enumerate(layout.placements, 1):
        try:
            built = built.place(placement.tile, placement.target)
        except SniffError as err:
            return [Problem(err.rule, "layout", f"layout placement {number} ({placement}): {_message(err)}")], None
        counts.append(built.end_count)
    if built != layout:
        rule = "COUNT-1" if built.end_count != layout.end_count else "PLACE-1"
        return [
            Problem(rule, "layout", f"the layout's open points, end count or Sniff are not what {built!r} builds")
        ], None
    return [], tuple(play_points(count) for count in counts)


def lot_problems(lot: Sequence[LotRound], rules: Rules, field: str = "lot") -> list[Problem]:
    """What is wrong with ``lot`` as a lot among all the seats of ``rules`` (OPEN-1).

    Every candidate draws in seat order, a value 1..6; only the tied draw
    again; the lot ends with one winner, after at most 64 rounds.
    """
    if len(lot) > MAX_LOT_ROUNDS:
        return [Problem("OPEN-1", field, f"a lot ends within {MAX_LOT_ROUNDS} rounds, this one has {len(lot)}")]
    candidates = tuple(range(rules.players))
    for number, lot_round in enumerate(lot):
        if not isinstance(lot_round, tuple) or not all(
            isinstance(draw, tuple) and len(draw) == 2 and all(type(part) is int for part in draw) for draw in lot_round
        ):
            return [
                Problem("FORMAT-3", field, f"lot round {number} is a tuple of (seat, value) pairs: {lot_round!r:.80}")
            ]
        seats = tuple(seat for seat, _ in lot_round)
        if seats != candidates:
            return [
                Problem(
                    "OPEN-1",
                    field,
                    f"lot round {number} draws for seats {list(candidates)} in seat order, got {list(seats)}",
                )
            ]
        values = [value for _, value in lot_round]
        if not all(1 <= value <= LOT_FACES for value in values):
            return [Problem("OPEN-1", field, f"a lot draws values 1..{LOT_FACES}, got {values}")]
        best = max(values)
        candidates = tuple(seat for seat, value in lot_round if value == best)
        if len(candidates) == 1 and number != len(lot) - 1:
            return [Problem("OPEN-1", field, f"lot round {number} has a single winner, yet the lot goes on")]
    if lot and len(candidates) != 1:
        return [Problem("OPEN-1", field, "the lot ends in a tie; a tie is drawn again among the tied seats")]
    return []


def _settlement_shape(settlement: Settlement, rules: Rules) -> bool:
    lengths = (rules.players, rules.players, rules.sides)
    return all(
        isinstance(part, tuple) and len(part) == length and all(type(n) is int for n in part)
        for part, length in zip(
            (settlement.hand_pips, settlement.deductions, settlement.side_deductions), lengths, strict=True
        )
    )


def round_result_problems(result: RoundResult, rules: Rules, field: str = "last_round") -> list[Problem]:
    """What is wrong with ``result`` as the record of a settled round under ``rules``.

    Its hands, one per seat in tile order, no tile twice (SETUP-1), at
    least the lead left on the table, the draws they imply within the
    boneyard (DRAW-2); a played-out round has the finisher's hand, and only
    it, empty (END-1); a blocked one no empty hand and some pip that no hand
    shows, since the open points show it and nobody could place (BLOCK-1);
    and the settlement is those hands' own (SETTLE-1, SETTLE-2).
    """
    hands, finisher, number = result.hands, result.finisher, result.round_number
    if len(hands) != rules.players:
        return [
            Problem(
                "SETUP-2", f"{field}.hands", f"{field}.hands holds one hand per seat: {rules.players}, got {len(hands)}"
            )
        ]
    if finisher is not None and not 0 <= finisher < rules.players:
        return [
            Problem("END-1", f"{field}.finisher", f"{field}.finisher is a seat 0..{rules.players - 1}, got {finisher}")
        ]
    if not _settlement_shape(result.settlement, rules):
        return [Problem("FORMAT-3", f"{field}.settlement", f"{field}.settlement has integers per seat and side")]
    held = [tile for hand in hands for tile in hand]
    if len(set(held)) != len(held):
        return [Problem("SETUP-1", f"{field}.hands", f"{field}.hands hold a tile twice")]
    found: list[Problem] = []
    if any(list(hand) != sorted(hand, key=_index) for hand in hands):
        found.append(Problem("FORMAT-3", f"{field}.hands", f"{field}.hands are each in tile order"))
    if len(held) >= TILE_COUNT:
        found.append(Problem("END-1", f"{field}.hands", f"round {number} ended with all 28 tiles in hand, none led"))
    spare = TILE_COUNT - rules.players * rules.hand_size
    drawn = sum(max(0, len(hand) - rules.hand_size) for hand in hands)
    if drawn > spare:
        found.append(
            Problem(
                "DRAW-2",
                f"{field}.hands",
                f"{field}.hands hold {drawn} tiles beyond the {rules.hand_size} dealt each;"
                f" the boneyard had only {spare} to draw",
            )
        )
    empty = [seat for seat, hand in enumerate(hands) if not hand]
    if finisher is not None and empty != [finisher]:
        found.append(
            Problem(
                "END-1",
                f"{field}.hands",
                f"seat {finisher} played out round {number}: its hand alone is empty, but the empty hands are {empty}",
            )
        )
    if finisher is None:
        shown = 0
        for tile in held:
            shown |= 1 << tile.low | 1 << tile.high
        if empty:
            found.append(
                Problem("BLOCK-1", f"{field}.hands", f"round {number} was blocked, yet seats {empty} hold no tile")
            )
        elif shown == (1 << HIGHEST_PIP + 1) - 1:
            found.append(
                Problem(
                    "BLOCK-1",
                    f"{field}.hands",
                    f"round {number} was blocked, so some pip shown by the open points was in no hand;"
                    " the hands show every pip",
                )
            )
    settlement = settle_round(rules, hands)
    for key in ("hand_pips", "deductions", "side_deductions"):
        expected, given = getattr(settlement, key), getattr(result.settlement, key)
        if given != expected:
            found.append(
                Problem(
                    "SETTLE-2" if key == "side_deductions" else "SETTLE-1",
                    f"{field}.settlement",
                    f"{field}.settlement.{key} is {list(expected)} for those hands, got {list(given)}",
                )
            )
            break
    return found


def _record_problems(state: State) -> tuple[list[Problem], bool]:
    """The lot's winner, the last round's number and record, and who opens after it; and whether the record is sound."""
    found: list[Problem] = []
    number, opener, phase, lot, record = state.round_number, state.opener, state.phase, state.lot, state.last_round
    lot_found = lot_problems(lot, state.rules)
    found += lot_found
    if lot and not lot_found:
        chosen = max(lot[-1], key=lambda draw: draw[1])[0]
        if chosen != opener:
            found.append(Problem("OPEN-1", "opener", f"the lot chose seat {chosen}, but the opener is seat {opener}"))
    # A settled round is recorded until the next one is dealt; a won match is never settled.
    recorded = number if phase is Phase.ROUND_OVER else number - 1
    if recorded == 0:
        if record is not None:
            found.append(Problem("END-1", "last_round", "round 1 has no earlier round to record as last_round"))
        return found, record is None
    if record is None or record.round_number != recorded:
        given = "none" if record is None else f"round {record.round_number}"
        found.append(
            Problem(
                "END-1", "last_round", f"in round {number} ({phase.value}) last_round is round {recorded}, got {given}"
            )
        )
        return found, False
    if phase is not Phase.ROUND_OVER and record.finisher is not None:
        if opener != record.finisher:
            found.append(
                Problem(
                    "OPEN-2",
                    "opener",
                    f"seat {record.finisher} played out round {recorded} and opens round {number}, not seat {opener}",
                )
            )
        if lot:
            found.append(Problem("OPEN-2", "lot", "the finisher opens without a lot, yet a lot is recorded"))
    record_found = round_result_problems(record, state.rules)
    return found + record_found, not record_found


# ---------------------------------------------------------------- the phase, the lead, the drawn tile


def _blocked(state: State) -> bool:
    return not state.boneyard_ids and not any(mask & fitting(state.layout) for mask in state.hand_masks)


def _phase_problems(state: State, points: tuple[int, ...] | None) -> list[Problem]:
    rules, phase, layout, winner, record = state.rules, state.phase, state.layout, state.winner, state.last_round
    scores, target, to_move = state.scores, rules.target, state.to_move
    reached = [side for side, score in enumerate(scores) if score >= target]
    empty = [seat for seat, mask in enumerate(state.hand_masks) if not mask]
    found: list[Problem] = []
    if phase is Phase.MATCH_OVER:
        if winner is None or winner not in reached:
            found.append(Problem("MATCH-1", "winner", f"the match is over, so the winner's score reaches {target}"))
        elif len(reached) > 1:
            found.append(
                Problem("MATCH-1", "scores", "the match ends the instant one side reaches the target; two have")
            )
        if layout.is_empty:
            found.append(Problem("MATCH-1", "layout", "only a placement wins a match, yet nothing is on the table"))
        elif rules.side_of(to_move) != winner:
            found.append(Problem("MATCH-1", "to_move", f"seat {to_move} placed last, so side {winner} cannot have won"))
        elif points is not None and winner is not None:
            last = layout.placements[-1]
            if not points[-1]:
                found.append(
                    Problem(
                        "MATCH-1", "layout", f"only a scoring placement wins, and the last one, {last}, scored nothing"
                    )
                )
            elif scores[winner] - points[-1] >= target:
                found.append(
                    Problem(
                        "MATCH-1",
                        "scores",
                        f"side {winner} had {scores[winner] - points[-1]} before {last} scored {points[-1]}:"
                        f" the target {target} already, so the match was over before it",
                    )
                )
        if [seat for seat in empty if seat != to_move]:
            found.append(Problem("END-1", "hands", f"seats {empty} hold no tile, but only seat {to_move} placed last"))
    elif winner is not None:
        found.append(Problem("MATCH-1", "winner", f"side {winner} won, yet the match is {phase.value}"))
    elif reached:
        found.append(Problem("MATCH-1", "scores", f"side {reached[0]} reached the target {target}; the match is over"))
    if state.drawn >= 0 and phase is not Phase.PLAYING:
        found.append(Problem("DRAW-2", "drawn", f"a drawn tile is placed during play; the match is {phase.value}"))
    if phase is Phase.PLAYING:
        if empty:
            found.append(Problem("END-1", "hands", f"seat {empty[0]} has played out, so the round is over"))
        if _blocked(state):
            found.append(
                Problem("BLOCK-1", "phase", "the boneyard is empty and nobody can place: the round is blocked")
            )
    elif phase is Phase.ROUND_OVER:
        if layout.is_empty:
            found.append(
                Problem("END-1", "layout", "a round ends on a placement or a draw, yet nothing is on the table")
            )
        if record is None or record.round_number != state.round_number:
            return found  # _record_problems reports it
        if record.hands != state.hands:
            found.append(Problem("END-1", "last_round.hands", "a finished round records its own hands as last_round"))
        elif record.blocked and not _blocked(state):
            found.append(
                Problem("BLOCK-1", "phase", "the round is recorded as blocked, yet a tile can still be placed")
            )
        if record.finisher is not None and record.finisher != to_move:
            found.append(
                Problem("END-1", "to_move", f"seat {record.finisher} played out, so it moved last, not seat {to_move}")
            )
        deductions = record.settlement.side_deductions
        if len(deductions) == len(scores):
            before = [score + cost for score, cost in zip(scores, deductions, strict=True)]
            if any(score >= target for score in before):
                found.append(
                    Problem(
                        "MATCH-1",
                        "scores",
                        f"before the settlement took {list(deductions)} the scores were {before}, reaching the"
                        f" target {target}: the match would have ended",
                    )
                )
    return found


def _lead_problems(state: State, dealt_boneyard: int) -> list[Problem]:
    if not state.layout.is_empty or state.phase is not Phase.PLAYING:
        return []
    found = []
    if state.to_move != state.opener:
        found.append(
            Problem("OPEN-3", "to_move", f"nothing is played yet, so the opener (seat {state.opener}) is to move")
        )
    drew = dealt_boneyard - len(state.boneyard_ids)
    if drew > 0:
        found.append(
            Problem(
                "DRAW-1",
                "boneyard",
                f"nothing is on the table, yet {drew} tiles were drawn: every tile may lead, so nobody draws",
            )
        )
    return found


def _drawn_problems(state: State) -> list[Problem]:
    drawn = state.drawn_tile
    if drawn is None or state.phase is not Phase.PLAYING:
        return []
    seat, hand, fits = state.to_move, state.hand_masks[state.to_move], fitting(state.layout)
    if not hand >> drawn.index & 1:
        return [Problem("DRAW-2", "drawn", f"the drawn tile {drawn} is in the hand of seat {seat}, who drew it")]
    if state.layout.is_empty or not fits >> drawn.index & 1:
        return [Problem("DRAW-2", "drawn", f"a drawn tile is kept to be placed only when it fits; {drawn} does not")]
    others = [str(DOUBLE_SIX[i]) for i in range(TILE_COUNT) if i != drawn.index and (hand & fits) >> i & 1]
    if others:
        return [Problem("DRAW-1", "drawn", f"seat {seat} drew although it could place {', '.join(others)}")]
    dealt = TILE_COUNT - state.rules.players * state.rules.hand_size
    if len(state.boneyard_ids) >= dealt:
        return [
            Problem(
                "DRAW-2",
                "drawn",
                f"{drawn} waits as a drawn tile, yet nothing was drawn: the boneyard holds the {dealt} tiles"
                " the deal left",
            )
        ]
    return []


# ---------------------------------------------------------------- all of it


_LAW_RULE: Final = {"well-formed": "FORMAT-3", "last-round": "END-1", "end-count": "COUNT-1"}


def problems(state: State) -> tuple[Problem, ...]:
    """Every reason legal play cannot reach ``state`` from its round's deal; empty when none is found.

    Each :class:`Problem` names its rule, its field and what was found, in
    the order of the checks listed in the module's docstring. A value that
    is not a :class:`State` raises :class:`InvalidStateError` (FORMAT-3).
    """
    if type(state) is not State:
        raise InvalidStateError("FORMAT-3", f"problems takes a State, got {type(state).__name__}: {state!r:.200}")
    shape = shape_violations(state)
    if shape:
        return tuple(Problem(violation.rule or "FORMAT-3", "state", violation.message) for violation in shape)
    found = _tile_problems(state)
    tiles_known = not found
    replayed, points = _replayed_points(state.layout)
    found += replayed
    for side, score in enumerate(state.scores):
        if score % 5:
            found.append(Problem("SETTLE-4", "scores", f"every score is a multiple of 5; side {side} has {score}"))
    record, record_known = _record_problems(state)
    found += record
    before = len(found)
    found += _phase_problems(state, points)
    scores_known = record_known and len(found) == before and not any(p.rule == "SETTLE-4" for p in found)
    dealt = TILE_COUNT - state.rules.players * state.rules.hand_size
    found += _lead_problems(state, dealt)
    found += _drawn_problems(state)
    if tiles_known and points is not None:
        found += [Problem(*finding) for finding in turn_problems(state, points, scores_known)]
    if not found and state.phase is Phase.PLAYING and not legal_moves(state):
        found.append(Problem("TURN-1", "phase", "the round is under way, yet the seat to move has no move"))
    if not found:
        found = [
            Problem(_LAW_RULE.get(violation.law, violation.rule or "FORMAT-3"), violation.law, violation.message)
            for violation in position_violations(state)
        ]
    return tuple(found)
