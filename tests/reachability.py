"""An independent judge of whether legal play can reach a position, for the tests and the fuzz loop.

Written apart from :mod:`sniff_rules.position.reachability` and ``sniff_rules.position._turn_order``
and in another way: instead of families of turn orders, it walks the turns
of the round one by one — the lead, then each turn a placement or (once the
boneyard is empty) a pass, at most ``players - 1`` passes in a row — and
keeps every distinct way there (placements per seat, points per side,
which seats had a turn to draw in, the passes just made). A position is
explained when some walk ends at it: the seat to move, each hand's size
(dealt, plus drawn, minus placed), the points each side scored against its
score. :func:`unreachable` adds the checks that need no walk, and names
each failure by the category the issue's fuzz run counted.
"""

from __future__ import annotations

from sniff_rules.layout import Layout
from sniff_rules.position.laws import position_violations
from sniff_rules.scoring import play_points, settle_round
from sniff_rules.state import Phase, State
from sniff_rules.tiles import DOUBLE_SIX

MOST_DEDUCTED = 170
"""What one settlement can take from a side: 168 pips in at most two hands, each rounded up by 2 at most."""


def _fits(state: State) -> list[bool]:
    """Per seat, whether some tile it holds fits an open point."""
    layout = state.layout
    values = {point.value for point in layout.open_points}
    if not layout.placements:
        return [bool(mask) for mask in state.hand_masks]
    return [any(tile.low in values or tile.high in values for tile in hand) for hand in state.hands]


def _scored(state: State) -> list[int] | None:
    layout = Layout.EMPTY
    points = []
    for placement in state.layout.placements:
        try:
            layout = layout.place(placement.tile, placement.target)
        except ValueError:
            return None
        points.append(play_points(layout.end_count))
    return points


def _points_allowed(state: State) -> list[tuple[int, int]]:
    """Per side, the least and most this round's placements can have scored for it."""
    rules, record, number = state.rules, state.last_round, state.round_number
    over = state.phase is Phase.ROUND_OVER
    allowed = []
    for side, score in enumerate(state.scores):
        settled = record.settlement.side_deductions[side] if over and record is not None else 0
        if number == 1:
            low_start = high_start = 0
        elif over or record is None:
            low_start, high_start = -MOST_DEDUCTED * (number - 1), rules.target - 5
        else:
            cost = record.settlement.side_deductions[side]
            low_start, high_start = -MOST_DEDUCTED * (number - 2) - cost, rules.target - 5 - cost
        allowed.append((max(0, score + settled - high_start), score + settled - low_start))
    return allowed


def walk_explains(state: State, *, seat: bool = True, counts: bool = True, points: bool = True) -> bool:
    """Whether some walk of the round's turns ends at ``state`` (see the module docstring)."""
    rules = state.rules
    players, sides, size = rules.players, rules.sides, rules.hand_size
    scored = _scored(state)
    if scored is None:
        return False
    placed = len(scored)
    dealt_boneyard = 28 - players * size
    drawn = dealt_boneyard - len(state.boneyard)
    sizes = [len(hand) for hand in state.hands]
    can_place = _fits(state)
    allowed = _points_allowed(state) if points else [(-(10**18), 10**18)] * sides
    waiting = state.drawn >= 0
    empty_boneyard = not state.boneyard
    record = state.last_round
    ending = "to-move"
    if state.phase is not Phase.PLAYING:
        ending = "blocked" if state.phase is Phase.ROUND_OVER and record is not None and record.blocked else "placed"
    t, opener = state.to_move, state.opener

    def explained(seat_counts: tuple[int, ...], gained: tuple[int, ...], may_draw: frozenset[int], drew: int) -> bool:
        """Whether placements per seat and points per side, with draws by ``may_draw`` (``drew`` one at least), fit."""
        if counts:
            draws = [held - size + made for held, made in zip(sizes, seat_counts, strict=True)]
            if sum(draws) != drawn or any(d < 0 or (d > 0 and s not in may_draw) for s, d in enumerate(draws)):
                return False
            if drew >= 0 and draws[drew] < 1:
                return False
        return all(low <= got <= high for got, (low, high) in zip(gained, allowed, strict=True))

    if placed == 0:
        return (
            ending == "to-move"
            and (not seat or t == opener)
            and explained((0,) * players, (0,) * sides, frozenset(), -1)
        )
    start = [0] * players
    start[opener] = 1 if counts else 0
    gain = [0] * sides
    gain[opener % sides] = scored[0] if points else 0
    # A node: placements so far, the turn (as the seat whose turn it is), whether anyone passed,
    # the passes just made, placements per seat, points per side, seats that had a turn to draw in.
    start_node = (tuple(start), tuple(gain), frozenset[int]())
    frontier = {(1, (opener + 1) % players, False, 0, *start_node)}
    seen = set(frontier)
    if ending != "to-move" and placed == 1 and (not seat or t == opener) and explained(*start_node, -1):
        return True

    def ends_here(
        turn_seat: int,
        passed: bool,
        run: int,
        node: tuple[tuple[int, ...], tuple[int, ...]],
        may_draw: frozenset[int],
        drawers: frozenset[int],
    ) -> bool:
        """Whether the walk, at the start of ``turn_seat``'s turn with every placement made, is the position."""
        if seat and turn_seat != t:
            return False
        if ending == "blocked":
            return not passed and empty_boneyard and explained(*node, drawers, turn_seat)
        if ending != "to-move" or (waiting and passed):
            return False
        passers = [(turn_seat - 1 - step) % players for step in range(run)]
        trailing = not any(can_place[s] for s in passers) and (run < players - 1 or can_place[t])
        draws_now = not passed and (waiting or not can_place[turn_seat])
        return (not seat or trailing) and explained(*node, drawers if draws_now else may_draw, t if waiting else -1)

    while frontier:
        grown = set()
        for made, turn_seat, passed, run, seat_counts, gained, may_draw in frontier:
            drawers = may_draw if passed else may_draw | {turn_seat}
            if made == placed and ends_here(turn_seat, passed, run, (seat_counts, gained), may_draw, drawers):
                return True
            if made < placed:
                more = list(seat_counts)
                richer = list(gained)
                if counts:  # a walk that asks nothing of a dimension keeps it at zero, so that walks merge
                    more[turn_seat] += 1
                if points:
                    richer[turn_seat % sides] += scored[made]
                node = (
                    made + 1,
                    (turn_seat + 1) % players,
                    passed,
                    0,
                    tuple(more),
                    tuple(richer),
                    drawers if counts else may_draw,
                )
                last = made + 1 == placed and ending != "to-move" and (not seat or turn_seat == t)
                if last and explained(node[4], node[5], drawers, -1):
                    return True
                within = all(got <= high for got, (_, high) in zip(richer, allowed, strict=True)) and (
                    not counts
                    or (
                        more[turn_seat] <= size - sizes[turn_seat] + drawn
                        and sum(max(0, size - held - got) for held, got in zip(sizes, more, strict=True))
                        <= placed - made - 1
                    )
                )
                if within and node not in seen:
                    seen.add(node)
                    grown.add(node)
            if empty_boneyard and not waiting and run < players - 1 and (made < placed or ending == "to-move"):
                node = (
                    made,
                    (turn_seat + 1) % players,
                    True,
                    run + 1,
                    seat_counts,
                    gained,
                    drawers if counts else may_draw,
                )
                if node not in seen:
                    seen.add(node)
                    grown.add(node)
        frontier = grown
    return False


def _lot_winner(lot: tuple[tuple[tuple[int, int], ...], ...], players: int) -> int | None:
    """The seat a lot chose, or None when it is no lot among all the seats (OPEN-1)."""
    candidates = list(range(players))
    for number, draws in enumerate(lot):
        if [seat for seat, _ in draws] != candidates or not all(1 <= value <= 6 for _, value in draws):
            return None
        best = max(value for _, value in draws)
        candidates = [seat for seat, value in draws if value == best]
        if (len(candidates) == 1) != (number == len(lot) - 1):
            return None
    return candidates[0] if len(candidates) == 1 else None


def unreachable(state: State) -> list[str]:
    """The categories of reasons legal play cannot reach ``state``; empty when none is found."""
    found = []
    if position_violations(state):
        found.append("laws")
    everything = [t for hand in state.hands for t in hand] + list(state.boneyard)
    everything += [placement.tile for placement in state.layout.placements]
    if sorted(everything, key=lambda tile: tile.index) != list(DOUBLE_SIX):
        return [*found, "tiles"]
    scored = _scored(state)
    if scored is None or Layout.from_placements(state.layout.placements) != state.layout:
        return [*found, "layout"]
    rules, phase, record = state.rules, state.phase, state.last_round
    empty = [seat for seat, hand in enumerate(state.hands) if not hand]
    if phase is Phase.PLAYING and empty:
        found.append("empty hands")
    if phase is Phase.MATCH_OVER:
        if [seat for seat in empty if seat != state.to_move]:
            found.append("empty hands")
        winner = state.winner
        if (
            not scored
            or not scored[-1]
            or winner is None
            or rules.side_of(state.to_move) != winner
            or state.scores[winner] - scored[-1] >= rules.target
        ):
            found.append("match end")
    if phase is Phase.ROUND_OVER and (not scored or record is None or record.hands != state.hands):
        found.append("phase")
    if record is not None:
        hands = record.hands
        held = [tile for hand in hands for tile in hand]
        record_empty = [seat for seat, hand in enumerate(hands) if not hand]
        pips = {pip for tile in held for pip in (tile.low, tile.high)}
        if (
            len(hands) != rules.players
            or len(set(held)) != len(held)
            or settle_round(rules, hands) != record.settlement
            or (record.finisher is not None and record_empty != [record.finisher])
            or (record.finisher is None and (record_empty or len(pips) == 7))
        ):
            found.append("previous round")
    follows_finisher = record is not None and record.finisher is not None and phase is not Phase.ROUND_OVER
    if follows_finisher and (state.lot or record is None or state.opener != record.finisher):
        found.append("opener")
    if state.lot and _lot_winner(state.lot, rules.players) != state.opener:
        found.append("opener")
    if state.drawn >= 0 and len(state.boneyard) >= 28 - rules.players * rules.hand_size:
        found.append("drawn tile")
    if len(state.boneyard) > 28 - rules.players * rules.hand_size:
        return [*found, "hand sizes"]
    if not walk_explains(state, counts=False, points=False):
        found.append("seat to move")
    elif not walk_explains(state, points=False):
        found.append("hand sizes")
    elif not walk_explains(state):
        found.append("round-1 scores" if state.round_number == 1 else "scores")
    return found
