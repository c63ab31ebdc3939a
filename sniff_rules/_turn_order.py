"""What the order of turns proves about a position: who is to move, how many tiles each seat drew, who scored.

The implementation behind the turn-order checks of :mod:`sniff_rules.position`,
which states what they prove; import from there.

A position keeps no record of its draws and passes, only their traces: the
boneyard's length, the hands' sizes, the seat to move. What the rules still
force (TURN-1, DRAW-2, PASS-1, BLOCK-1):

- turn ``j`` of a round (``j = 0`` is the lead) is seat ``(opener + j) mod
  players``'s, and ends with one placement or one pass;
- a pass needs an empty boneyard, which never fills again; so every turn
  before the first pass is a placement, and placements ``0 .. m-1`` were made
  by the seats in order, where ``m`` is the number of placements before the
  first pass (all of them if nobody has passed);
- after the first pass the placers are any seats: between two placements
  up to ``players - 1`` seats may pass, so any seat may place next;
- every draw comes before the first pass and within a turn of the drawer's
  other than the lead, and a seat draws only until a tile fits, which it then
  places at once (a tile drawn and waiting means the drawer is in its turn
  and nobody has passed yet);
- seat ``s`` holds what it was dealt, plus what it drew, minus what it
  placed: ``hand = hand_size + drawn - placed``, ``drawn >= 0``, and the
  draws of all seats add up to the tiles gone from the boneyard;
- a placement's points go to its placer's side (POINTS-2).

:func:`explains` searches those orders — the rotation up to some ``m``, then
any placers — for one that gives every seat's hand size and, when asked,
points per side within given bounds. The search keeps, for each way of
giving the scoring placements after the first pass to seats, the placements
each seat made and the points each side scored; the other placements only
add to a seat's count, so they are spread at the end.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final, TypeAlias

import attrs

from sniff_rules._position_laws import fitting
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State
from sniff_rules.tiles import TILE_COUNT


class Ending(enum.Enum):
    """What the last move of the position was, as far as the phase tells."""

    TO_MOVE = "to-move"
    """The round is played; the seat to move is in its turn (after passes, perhaps)."""
    PLACED = "placed"
    """The seat to move made the last move, a placement (a match won, a round played out or blocked by it)."""
    PLACED_OR_DREW = "placed-or-drew"
    """The round is blocked: by the seat to move's placement, or by its draw of the last boneyard tile."""


@attrs.frozen
class Turns:
    """The facts of a position that the order of turns must explain.

    ``points`` is what each placement scored, in the order played;
    ``credit_bounds``, when given, the least and most points each side may
    have scored this round (None: not checked).
    """

    rules: Rules
    opener: int
    to_move: int
    hand_sizes: tuple[int, ...]
    drawn_so_far: int
    boneyard_empty: bool
    points: tuple[int, ...]
    ending: Ending
    drawn_waiting: bool = False
    can_place: tuple[bool, ...] = ()
    """Per seat, whether it holds a tile that fits an open point now."""
    credit_bounds: tuple[tuple[int, int], ...] | None = None


MAX_SIDE_DEDUCTION: Final = 170
"""The most one settlement can take from one side: the 168 pips of the set
in at most two hands, each rounded up by at most 2 (SETTLE-1, SETTLE-2)."""

Finding: TypeAlias = tuple[str, str, str]
"""A problem found: its rule id, field and message (:class:`sniff_rules.position.Problem`)."""

MAX_PARTIAL_ASSIGNMENTS: Final = 20_000
"""How many ways of giving scoring placements to seats the search keeps for
one ``m``; beyond it, points are only bounded side by side (see
:func:`explains`). No position a match reaches comes near it; only crafted
ones could, and the bound keeps them cheap."""


@attrs.frozen
class _Order:
    """One family of turn orders: placements ``0..m-1`` in rotation, then any placers."""

    rotation: int
    """``m``: the placements made in seat order from the opener."""
    window: int
    """Draws were made in turns ``1..window``."""
    current_turn_drawer: int | None
    """A seat that may have drawn in the turn now under way (beyond the window)."""
    last_placer: int | None
    """The seat that made the last placement, when the ending fixes it outside the rotation."""
    must_have_drawn: int | None
    """A seat that drew at least once (a tile waiting, or a block by a draw)."""


def _rotation_seat(turns: Turns, turn: int) -> int:
    return (turns.opener + turn) % turns.rules.players


def _orders(turns: Turns, check_to_move: bool) -> list[_Order]:
    """Every family of turn orders the ending allows; with ``check_to_move``, those ending at the seat to move."""
    placed = len(turns.points)
    t = turns.to_move
    orders: list[_Order] = []
    if turns.ending is Ending.TO_MOVE:
        if not check_to_move or t == _rotation_seat(turns, placed):
            may_draw_now = turns.drawn_waiting or not turns.can_place[t]
            orders.append(
                _Order(placed, placed - 1, t if may_draw_now else None, None, t if turns.drawn_waiting else None)
            )
        if turns.boneyard_empty and not turns.drawn_waiting and placed:
            # The first pass came after m placements, 1 <= m <= placed.
            if not check_to_move:
                return orders + [_Order(m, m, None, None, None) for m in range(1, placed + 1)]
            # After the placements in seat order, passes up to the seat to move.
            if t != _rotation_seat(turns, placed) and _trailing_passes_fit(turns, _rotation_seat(turns, placed - 1)):
                orders.append(_Order(placed, placed, None, None, None))
            # Or the last placement came after the first pass, by a seat the passes since lead from.
            placers = [seat for seat in range(turns.rules.players) if _trailing_passes_fit(turns, seat)]
            orders += [_Order(m, m, None, seat, None) for m in range(1, placed) for seat in placers]
        return orders
    if placed == 0:
        return []
    if not check_to_move or t == _rotation_seat(turns, placed - 1):
        orders.append(_Order(placed, placed - 1, None, None, None))
    if turns.boneyard_empty:
        # The last placement came after the first pass: it is the seat to move's.
        orders += [_Order(m, m, None, t, None) for m in range(1, placed)]
    # A block by a draw in the turn after the last placement: nobody had passed.
    if (
        turns.ending is Ending.PLACED_OR_DREW
        and turns.boneyard_empty
        and (not check_to_move or t == _rotation_seat(turns, placed))
    ):
        orders.append(_Order(placed, placed, None, None, t))
    return orders


def _trailing_passes_fit(turns: Turns, last_placer: int) -> bool:
    """Whether the seats between ``last_placer`` and the seat to move can have passed since its placement.

    A seat that passed held no tile that fits, and the layout has not
    changed since, so it holds none now (PASS-1); after ``players - 1``
    passes in a row the seat to move is the one left that can place.
    """
    players, t = turns.rules.players, turns.to_move
    passes = (t - last_placer - 1) % players
    passers = [(last_placer + 1 + step) % players for step in range(passes)]
    if any(turns.can_place[seat] for seat in passers):
        return False
    return passes < players - 1 or turns.can_place[t]


def _drew_possible(turns: Turns, order: _Order) -> list[bool]:
    players = turns.rules.players
    seats = {_rotation_seat(turns, turn) for turn in range(1, min(order.window, players) + 1)}
    if order.current_turn_drawer is not None:
        seats.add(order.current_turn_drawer)
    return [seat in seats for seat in range(players)]


def _count_bounds(turns: Turns, order: _Order) -> tuple[list[int], list[int]] | None:
    """Per seat, the least and most placements its hand size allows under ``order``; None when none does."""
    size = turns.rules.hand_size
    low: list[int] = []
    high: list[int] = []
    for seat, (held, drew) in enumerate(zip(turns.hand_sizes, _drew_possible(turns, order), strict=True)):
        # placed = hand_size - held + drawn, with 0 <= drawn <= drawn_so_far (0 if the seat had no turn to draw in).
        least_drawn = 1 if seat == order.must_have_drawn else 0
        most_drawn = turns.drawn_so_far if drew else 0
        if least_drawn > most_drawn:
            return None
        low.append(max(0, size - held + least_drawn))
        high.append(size - held + most_drawn)
        if high[-1] < low[-1]:
            return None
    return low, high


def _rotation_counts(turns: Turns, placements: int) -> list[int]:
    players = turns.rules.players
    return [(placements - (seat - turns.opener) % players + players - 1) // players for seat in range(players)]


Assignment: TypeAlias = tuple[tuple[int, ...], tuple[int, ...]]
"""Placements per seat and points per side of the scoring placements given out so far."""


def _spread_fits(base: Sequence[int], low: Sequence[int], high: Sequence[int], spare: int) -> bool:
    """Whether ``spare`` more placements, to any seats, bring every count within its bounds."""
    if any(count > most for count, most in zip(base, high, strict=True)):
        return False
    needed = sum(max(0, least - count) for count, least in zip(base, low, strict=True))
    room = sum(most - count for count, most in zip(base, high, strict=True))
    return needed <= spare <= room


def _credits_fit(credited: Sequence[int], bounds: Sequence[tuple[int, int]] | None) -> bool:
    return bounds is None or all(
        least <= credit <= most for credit, (least, most) in zip(credited, bounds, strict=True)
    )


def explains(turns: Turns, *, check_to_move: bool = True, check_counts: bool = True) -> bool:
    """Whether some order of turns from the deal ends at ``turns``: the seat to move, the hand sizes, the points.

    With ``check_to_move`` False the ending's seat is not asked for; with
    ``check_counts`` False the hand sizes are not. Points are asked for
    when ``turns.credit_bounds`` is given. When more than
    :data:`MAX_PARTIAL_ASSIGNMENTS` ways of giving points out arise, each
    side's points are checked on their own range, a weaker test that never
    refuses a position the exact one would accept.
    """
    rules = turns.rules
    players, sides = rules.players, rules.sides
    points = turns.points
    placed = len(points)
    bounds = turns.credit_bounds
    prefix_credit = [[0] * sides]
    for turn, scored in enumerate(points):
        row = list(prefix_credit[-1])
        row[_rotation_seat(turns, turn) % sides] += scored
        prefix_credit.append(row)
    for order in _orders(turns, check_to_move):
        if check_counts:
            limits = _count_bounds(turns, order)
            if limits is None:
                continue
            low, high = limits
        else:
            low, high = [0] * players, [placed] * players
        base = _rotation_counts(turns, order.rotation)
        credited = list(prefix_credit[order.rotation])
        free_end = placed
        if order.last_placer is not None:
            base[order.last_placer] += 1
            credited[order.last_placer % sides] += points[-1]
            free_end = placed - 1
        free = points[order.rotation : free_end]
        if _free_placements_fit(rules, base, credited, free, low, high, bounds):
            return True
    return False


def _free_placements_fit(
    rules: Rules,
    base: list[int],
    credited: list[int],
    free: Sequence[int],
    low: Sequence[int],
    high: Sequence[int],
    bounds: Sequence[tuple[int, int]] | None,
) -> bool:
    """Whether the placements after the first pass, scoring ``free``, can go to seats within every bound."""
    players, sides = rules.players, rules.sides
    scoring = [scored for scored in free if scored]
    spare = len(free) - len(scoring)
    states: set[Assignment] = {(tuple(base), tuple(credited))}
    for given, scored in enumerate(scoring):
        if len(states) > MAX_PARTIAL_ASSIGNMENTS:
            return _ranges_fit(states, scoring[given:], low, high, spare, bounds)
        grown: set[Assignment] = set()
        for counts, gained in states:
            for seat in range(players):
                side = seat % sides
                if counts[seat] >= high[seat] or (bounds is not None and gained[side] + scored > bounds[side][1]):
                    continue
                more = list(counts)
                more[seat] += 1
                richer = list(gained)
                richer[side] += scored
                grown.add((tuple(more), tuple(richer)))
        if not grown:
            return False
        states = grown
    return any(_spread_fits(counts, low, high, spare) and _credits_fit(gained, bounds) for counts, gained in states)


def _ranges_fit(
    states: set[Assignment],
    rest: Sequence[int],
    low: Sequence[int],
    high: Sequence[int],
    spare: int,
    bounds: Sequence[tuple[int, int]] | None,
) -> bool:
    """The weaker test once the search is too wide: the ``rest`` of the scoring placements go to any seat,
    and each side may have any points from what it has to that plus all of ``rest``."""
    total = sum(rest)
    return any(
        _spread_fits(counts, low, high, spare + len(rest))
        and (
            bounds is None
            or all(
                credit <= most and credit + total >= least for credit, (least, most) in zip(gained, bounds, strict=True)
            )
        )
        for counts, gained in states
    )


# ---------------------------------------------------------------- the order of turns


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
    have taken, :data:`MAX_SIDE_DEDUCTION` each.
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
