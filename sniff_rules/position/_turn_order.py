"""What the order of turns proves about a position: who is to move, how many tiles each seat drew, who scored.

The implementation behind the turn-order checks of :mod:`sniff_rules.position.reachability`,
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
- the seats that passed since the last placement hold no tile that fits
  (nothing has changed since they could not place), and after
  ``players - 1`` passes in a row the seat to move can place;
- a placement's points go to its placer's side (POINTS-2).

:func:`explains` searches those orders — the rotation up to some ``m``, then
any placers — for one that gives every seat's hand size and, when asked,
points per side within given bounds. The orders whose placers are all
known are checked directly; the others in one pass over the placements,
which keeps each way of giving the scoring placements after the first pass
to seats (the placements per seat, the points per side); a placement that
scored nothing only adds to some seat's count, so it is spread at the end.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final, TypeAlias

import attrs

from sniff_rules.rules import Rules


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


MAX_PARTIAL_ASSIGNMENTS: Final = 2_000
"""How many ways of giving scoring placements to seats the search keeps;
beyond it each side's points become a range, and beyond as many ranges
each seat's placements do too (see :func:`explains`). The positions of
whole random matches keep at most about 1,400; only crafted ones go
further, and the bound keeps them cheap."""


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
    """The turn orders with every placer known (no placement after a pass, but the last one's passes);
    with ``check_to_move``, those ending at the seat to move."""
    placed = len(turns.points)
    t = turns.to_move
    orders: list[_Order] = []
    if turns.ending is Ending.TO_MOVE:
        if not check_to_move or t == _rotation_seat(turns, placed):
            may_draw_now = turns.drawn_waiting or not turns.can_place[t]
            orders.append(
                _Order(placed, placed - 1, t if may_draw_now else None, None, t if turns.drawn_waiting else None)
            )
        # Every placement in seat order, then the first pass, and passes up to the seat to move.
        if (
            turns.boneyard_empty
            and not turns.drawn_waiting
            and placed
            and (
                not check_to_move
                or (
                    t != _rotation_seat(turns, placed)
                    and _trailing_passes_fit(turns, _rotation_seat(turns, placed - 1))
                )
            )
        ):
            orders.append(_Order(placed, placed, None, None, None))
        return orders
    if placed == 0:
        return []
    if not check_to_move or t == _rotation_seat(turns, placed - 1):
        orders.append(_Order(placed, placed - 1, None, None, None))
    # A block by a draw in the turn after the last placement: nobody had passed.
    if (
        turns.ending is Ending.PLACED_OR_DREW
        and turns.boneyard_empty
        and (not check_to_move or t == _rotation_seat(turns, placed))
    ):
        orders.append(_Order(placed, placed, None, None, t))
    return orders


def _last_placers_after_a_pass(turns: Turns, check_to_move: bool) -> tuple[int, ...]:
    """Who can have made the last placement when it came after the first pass; none when no pass can have come."""
    if not turns.boneyard_empty or turns.drawn_waiting or len(turns.points) < 2:
        return ()
    if turns.ending is not Ending.TO_MOVE:
        return (turns.to_move,)  # it moved last
    seats = range(turns.rules.players)
    return tuple(seat for seat in seats if not check_to_move or _trailing_passes_fit(turns, seat))


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
    :data:`MAX_PARTIAL_ASSIGNMENTS` ways of giving points out arise, the
    search coarsens (see :class:`_Search`): a weaker test that never
    refuses a position the exact one would accept.
    """
    rules = turns.rules
    players, sides = rules.players, rules.sides
    points = turns.points
    placed = len(points)
    bounds = turns.credit_bounds
    for order in _orders(turns, check_to_move):
        limits = _count_bounds(turns, order) if check_counts else ([0] * players, [placed] * players)
        if limits is None:
            continue
        counts = _rotation_counts(turns, placed)
        credited = [0] * sides
        for turn, scored in enumerate(points):
            credited[_rotation_seat(turns, turn) % sides] += scored
        if _spread_fits(counts, *limits, 0) and _credits_fit(credited, bounds):
            return True
    placers = _last_placers_after_a_pass(turns, check_to_move)
    return bool(placers) and _after_a_pass_fits(turns, placers, check_counts)


def _binding(bounds: tuple[tuple[int, int], ...] | None, points: Sequence[int]) -> tuple[tuple[int, int], ...] | None:
    """``bounds`` with each side whose points no order can take outside them (between 0 and all the points
    scored) left unbounded, so that the search does not tell its ways of scoring apart; None if no side is bounded."""
    if bounds is None:
        return None
    total = sum(points)
    found = tuple((low, high) if low > 0 or high < total else _FREE for low, high in bounds)
    return None if all(bound is _FREE for bound in found) else found


_FREE: Final = (-(1 << 62), 1 << 62)
"""The bounds of a side whose points are not asked for."""


def _window_limits(turns: Turns, check_counts: bool) -> list[tuple[list[int], list[int]] | None]:
    """For a first pass after ``m`` placements, ``m`` = 1 .. players (and more), the count bounds its draws allow."""
    players, placed = turns.rules.players, len(turns.points)
    if not check_counts:
        return [([0] * players, [placed] * players)] * (players + 1)
    return [_count_bounds(turns, _Order(window, window, None, None, None)) for window in range(players + 1)]


Partial: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], int]
"""Placements per seat (those in seat order and the scoring ones since), points per side, and ``min(m, players)``."""


def _after_a_pass_fits(turns: Turns, placers: tuple[int, ...], check_counts: bool) -> bool:
    """Whether some order with a first pass after ``m`` placements, 1 <= m < placed, and the last placement by one
    of ``placers`` explains ``turns``.

    One pass over the placements, from the lead to the one before the last,
    keeps every partial assignment: placements ``0..m-1`` in seat order,
    and each scoring placement since to any seat. A placement that scored
    nothing only adds to some seat's count, so it is not given out: it is
    spread at the end, within each seat's bounds. Past
    :data:`MAX_PARTIAL_ASSIGNMENTS` assignments the points per side become
    ranges; past as many again the placements per seat do too.
    """
    rules = turns.rules
    players, sides = rules.players, rules.sides
    points = turns.points
    placed = len(points)
    bounds = _binding(turns.credit_bounds, points)
    limits = _window_limits(turns, check_counts)
    top = [
        max((high[seat] for low_high in limits if low_high is not None for high in [low_high[1]]), default=-1)
        for seat in range(players)
    ]
    most = [most for _, most in bounds] if bounds is not None else None
    # Points of an unbounded side are not kept, so that ways differing only in them are one.
    kept = [bounds is not None and bounds[side] is not _FREE for side in range(sides)]
    search = _Search(players, sides, top, most, kept)
    counts = [0] * players
    credited = [0] * sides
    for turn in range(placed - 1):
        if turn:  # the first pass comes after ``turn`` placements in seat order
            search.start(tuple(counts), tuple(credited), min(turn, players))
        if points[turn]:
            search.give_out(points[turn])
        seat = _rotation_seat(turns, turn)
        counts[seat] += 1
        if kept[seat % sides]:
            credited[seat % sides] += points[turn]
    search.start(tuple(counts), tuple(credited), min(placed - 1, players))
    last = points[-1]
    for least_seats, most_seats, least, greatest, window in search.candidates():
        low_high = limits[window]
        if low_high is None:
            continue
        for placer in placers:
            side = placer % sides if kept[placer % sides] else -1
            if not search.counts_fit(least_seats, most_seats, placer, *low_high, placed - 1):
                continue
            if bounds is None or all(
                lo + (last if s == side else 0) <= hi_bound and hi + (last if s == side else 0) >= lo_bound
                for s, (lo, hi, (lo_bound, hi_bound)) in enumerate(zip(least, greatest, bounds, strict=True))
            ):
                return True
    return False


Range: TypeAlias = tuple[list[int], list[int], list[int], list[int]]
"""Least and most placements per seat, least and most points per side."""


class _Search:
    """The partial assignments after the first pass: exact, then with points as ranges, then boxes.

    Each coarser form holds every assignment the finer one did, so a test
    on it accepts whatever the exact one would, and may accept more.
    """

    def __init__(self, players: int, sides: int, top: list[int], most: list[int] | None, kept: list[bool]) -> None:
        self.players, self.sides, self.top, self.most, self.kept = players, sides, top, most, kept
        self.exact: set[Partial] | None = set()
        self.table: dict[tuple[tuple[int, ...], int], Range] = {}
        """Ranges by placements per seat and window; once boxed, by window alone (no placements in the key)."""
        self.boxed = False

    def start(self, seats: tuple[int, ...], gained: tuple[int, ...], window: int) -> None:
        """Add the assignment of a first pass after the placements ``seats`` counts."""
        if self.exact is not None:
            self.exact.add((seats, gained, window))
        else:
            self._merge(seats, window, (list(seats), list(seats), list(gained), list(gained)))

    def _merge(self, seats: tuple[int, ...], window: int, found: Range) -> None:
        key = ((), window) if self.boxed else (seats, window)
        old = self.table.get(key)
        if old is None:
            self.table[key] = found
            return
        for index in range(4):
            pick = min if index % 2 == 0 else max
            old[index][:] = [pick(mine, theirs) for mine, theirs in zip(old[index], found[index], strict=True)]

    def give_out(self, scored: int) -> None:
        """Give a scoring placement to each seat in turn, in every assignment."""
        players, sides, top, kept = self.players, self.sides, self.top, self.kept
        if self.exact is not None:
            grown: set[Partial] = set()
            most = self.most
            for seats, gained, window in self.exact:
                for seat in range(players):
                    side = seat % sides
                    if seats[seat] >= top[seat] or (most is not None and gained[side] + scored > most[side]):
                        continue
                    more = list(seats)
                    more[seat] += 1
                    richer = list(gained)
                    if kept[side]:
                        richer[side] += scored
                    grown.add((tuple(more), tuple(richer), window))
            self.exact = grown
            if len(grown) > MAX_PARTIAL_ASSIGNMENTS:
                self.exact = None
                for seats, gained, window in grown:
                    self._merge(seats, window, (list(seats), list(seats), list(gained), list(gained)))
            return
        if not self.boxed:
            old = self.table
            self.table = {}
            for (seats, window), (_, _, low, high) in old.items():
                for seat in range(players):
                    if seats[seat] >= top[seat]:
                        continue
                    more = list(seats)
                    more[seat] += 1
                    side = seat % sides if kept[seat % sides] else -1
                    richer = [value + scored if s == side else value for s, value in enumerate(high)]
                    poorer = [value + scored if s == side else value for s, value in enumerate(low)]
                    self._merge(tuple(more), window, (more, list(more), poorer, richer))
            if len(self.table) > MAX_PARTIAL_ASSIGNMENTS:
                ranged, self.table, self.boxed = self.table, {}, True
                for (seats, window), found in ranged.items():
                    self._merge(seats, window, found)
            return
        for _, most_seats, _, high in self.table.values():
            # Any seat may have it: each seat's most placements grow, and each kept side's most points.
            for seat in range(players):
                most_seats[seat] = min(most_seats[seat] + 1, max(top[seat], most_seats[seat]))
            for side in range(sides):
                high[side] += scored if kept[side] else 0

    def candidates(self) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int]]:
        """Every assignment kept: least and most placements per seat, least and most points per side, window."""
        if self.exact is not None:
            return [(seats, seats, gained, gained, window) for seats, gained, window in self.exact]
        return [
            (tuple(low_seats), tuple(high_seats), tuple(low), tuple(high), window)
            for (_, window), (low_seats, high_seats, low, high) in self.table.items()
        ]

    def counts_fit(
        self,
        least_seats: tuple[int, ...],
        most_seats: tuple[int, ...],
        placer: int,
        low: Sequence[int],
        high: Sequence[int],
        given: int,
    ) -> bool:
        """Whether placements per seat within ``least_seats``..``most_seats``, the last one ``placer``'s and the
        rest of the ``given`` spread at will, can fall within ``low``..``high``."""
        if least_seats == most_seats:
            base = list(least_seats)
            base[placer] += 1
            return _spread_fits(base, low, high, given - sum(least_seats))
        # Boxed: only what every assignment in the box meets. None is taken back from a seat, and all the
        # placements, the last included, number given + 1.
        within = all(
            least + (seat == placer) <= most for seat, (least, most) in enumerate(zip(least_seats, high, strict=True))
        )
        return within and sum(low) <= given + 1 <= sum(high)
