"""Greedy playouts on bit masks: the search bots' inner loop, the same rounds as ``apply`` plays.

A determinized search plays a round out thousands of times a decision.
:func:`~sniff_rules.play.search.playout_value` does it through
:func:`~sniff_rules.moves.apply`, a new :class:`~sniff_rules.state.State`
(and a trial one per candidate placement) a move. :class:`Playout` keeps
the round as the engine's own parts — hand masks, the boneyard's indices,
the :class:`~sniff_rules.layout.Layout`, the scores — changed in place, and
the layout as its parts (open points, end count, Sniff), and weighs a
candidate placement by the end count it would give without building anything.
No events, no States, no checks: it is handed a position the rules reached
and only ever makes legal moves. The rules it follows are ``apply``'s:
POINTS-1/2 and MATCH-1 on a placement, END-1, BLOCK-1, DRAW-1/2, PASS-1,
SETTLE-1..4; a test holds it to :func:`~sniff_rules.play.search.playout_value`
move for move.

:meth:`Playout.of_deal` starts one from a seat's view and a sampled deal
(:class:`~sniff_rules.play.sampler.SampledDeal`) without replaying the
round: each hand is its dealt tiles, plus its draws, less its placements.

>>> from sniff_rules import Rules, new_match
>>> from sniff_rules.play.search import playout_value
>>> state = new_match(Rules.standard(4), seed=3)
>>> Playout.of_state(state).value(side=0) == playout_value(state, 0)
True
"""

from __future__ import annotations

from bisect import insort
from typing import Any, Final

from sniff_rules.errors import IllegalMoveError
from sniff_rules.layout import _STEPS, POINT_VALUE, PORTS, Layout, _attach_by_chain_or_double, place_lead
from sniff_rules.moves import Draw, Move, Place
from sniff_rules.play.events import Drew, Event, Placed
from sniff_rules.play.sampler import SampledDeal
from sniff_rules.play.view import SeatView
from sniff_rules.rules import Rules, Seat, Side
from sniff_rules.scoring import round_to_five
from sniff_rules.state import Phase, State
from sniff_rules.tiles import DOUBLE_SIX, FULL_SET_MASK, NO_TILE, PIP_MASK, TILE_PIPS, mask_of_tiles, pips_of_mask

WIN_FACTOR: Final = 10
"""A playout's value for a match won, in targets: more than any lead a round can give."""

# The layout's step table and double rule, typed loosely: the loop below works on plain ints
# (tile indices, point ids) and the NewTypes would cost a call each.
_STEP_TABLE: Final[Any] = _STEPS
_ATTACH_DOUBLE: Final[Any] = _attach_by_chain_or_double

_KEY_BASE: Final = 256
"""Point ids are below 255, so a placement's number is its tile's index times this, plus its point id plus one."""

DRAW_KEY: Final = -1
"""The number of a draw (:func:`move_key`)."""

PASS_KEY: Final = -2
"""The number of a pass (:func:`move_key`)."""


def move_key(move: Move) -> int:
    """A move as a number a search tree keys its children by: a placement from its tile and its
    point (a lead from its tile alone), a draw :data:`DRAW_KEY`, a pass :data:`PASS_KEY`.

    >>> from sniff_rules.moves import Pass
    >>> from sniff_rules.tiles import Tile
    >>> move_key(Place(0, Tile(2, 5))), move_key(Draw(1)), move_key(Pass(1))
    (4096, -1, -2)
    """
    if type(move) is Place:
        target = move.target
        return move.tile.index * _KEY_BASE + (0 if target is None else target.id + 1)
    return DRAW_KEY if type(move) is Draw else PASS_KEY


_POINT_NEEDS: Final = tuple(PIP_MASK[value] for value in POINT_VALUE)
"""For each point id, the tiles that could attach there."""


def _variant(index: int, point_id: int, partner_open: bool, sniff_here: bool) -> int:
    """What tile ``index`` on ``point_id`` adds to the end count where that depends on the layout
    (a double, or a double's chain side covered): given whether the other chain side is open and
    whether the point is the Sniff's, all the layout's double rule reads. Asked of that rule itself
    on a layout of the one point that matters, so it cannot drift from ``place_on``."""
    rest = [point_id ^ 1] if partner_open else []
    after: int = _ATTACH_DOUBLE(rest, 0, point_id // PORTS if sniff_here else NO_TILE, index, point_id)[0]
    return after


_Candidate = tuple[int, int, int, int, tuple[int, ...]]

_CANDIDATES: Final[tuple[dict[int, tuple[_Candidate, ...]], ...]] = tuple({} for _ in POINT_VALUE)
"""Per point id, keyed by the tiles of a hand that could attach there, each one's index, step
(the point it opens and the count it adds, as the layout's table has them), pips and, where
the count depends on the layout, what it adds with the other chain side open or not and the
point the Sniff's or not (:func:`_variant`, two bits: ``2 * open + sniff``), in index order:
filled as they are first met, as ``legal_moves`` fills its own. Only speed depends on it."""


def _candidates(point_id: int, mask: int) -> tuple[_Candidate, ...]:
    found = []
    while mask:
        low = mask & -mask
        index = low.bit_length() - 1
        mask ^= low
        step = _STEP_TABLE[index].get(point_id)
        if step is None:
            # Only a forged view holds a tile whose own point is open; apply refuses it alike.
            raise IllegalMoveError("PLACE-1", f"{DOUBLE_SIX[index]} cannot attach to its own point")
        _placement, free_id, delta = step
        variants = (
            () if free_id >= 0 else tuple(_variant(index, point_id, bits >= 2, bits % 2 == 1) for bits in range(4))
        )
        found.append((index, int(free_id), int(delta), TILE_PIPS[index], variants))
    return tuple(found)


def _points(count: int) -> int:
    # POINTS-1, as play_points: a positive multiple of 5 scores itself.
    return count if count and not count % 5 else 0


_POINTS16: Final = tuple(_points(count) * 16 for count in range(sum(TILE_PIPS) + 1))
"""What an end count scores (POINTS-1), times 16, by the count: the greedy key's high part, a look-up.
An end count is at most the pips of the whole set."""

_LEADS: Final = tuple(place_lead(tile.index) for tile in DOUBLE_SIX)
_LEAD_KEY: Final = tuple(_points(lead.end_count) * 16 + TILE_PIPS[index] for index, lead in enumerate(_LEADS))
"""Each lead's greedy key: its points, then its pips (at most 12, so 16 keeps them apart)."""


class Playout:
    """A round in play as mutable bit masks, played out greedily by :meth:`value`.

    Made by :meth:`of_state` or :meth:`of_deal`; :meth:`play` makes one
    given move (the search's candidate), :meth:`value` plays the rest.
    The layout is kept as its parts: the open point ids, the end count and
    the Sniff, changed as ``place_on`` changes them. Used once: it is
    changed in place.
    """

    __slots__ = (
        "boneyard",
        "count",
        "drawn",
        "hands",
        "next_seats",
        "open_ids",
        "over",
        "rules",
        "scores",
        "seat",
        "seat_sides",
        "sniff",
        "target",
        "winner",
    )

    def __init__(
        self,
        rules: Rules,
        hands: list[int],
        boneyard: list[int],
        layout: Layout,
        scores: list[int],
        seat: Seat,
        drawn: int = -1,
    ) -> None:
        self.rules = rules
        self.next_seats = rules.next_seats
        self.seat_sides = rules.seat_sides
        self.target = rules.target
        self.hands = hands
        # Next draw last, so that a draw is a pop.
        self.boneyard = boneyard[::-1]
        self.open_ids: list[int] = list(layout.open_point_ids)
        self.count = layout.end_count
        self.sniff: int = layout.sniff
        self.scores = scores
        self.seat = seat
        self.drawn = drawn
        self.over = False
        self.winner: Side | None = None

    @classmethod
    def of_state(cls, state: State) -> Playout:
        """A playout from ``state``, which must be in play."""
        assert state.phase is Phase.PLAYING
        return cls(
            state.rules,
            list[int](state.hand_masks),
            list[int](state.boneyard_ids),
            state.layout,
            list(state.scores),
            state.to_move,
            state.drawn,
        )

    @classmethod
    def of_deal(cls, view: SeatView, deal: SampledDeal) -> Playout:
        """The position ``view``'s round reaches from ``deal``, its seat to move, without a replay."""
        events: tuple[Event, ...] = view.history.events
        hands: list[int] = [mask_of_tiles(hand) for hand in deal.hands]
        drawn = 0
        for event in events:
            if type(event) is Drew:
                hands[event.seat] |= 1 << deal.boneyard[drawn].index
                drawn += 1
            elif type(event) is Placed:
                hands[event.seat] &= ~(1 << event.tile.index)
        return cls.of_sample(view, hands, [tile.index for tile in deal.boneyard[drawn:]])

    @classmethod
    def of_sample(cls, view: SeatView, hands: list[int], boneyard: list[int]) -> Playout:
        """The position of ``view``'s round with ``hands`` (every seat's hand now, as bit masks) and
        ``boneyard`` (the tiles still to draw, in draw order), its seat to move: a
        :meth:`~sniff_rules.play.deal_masks.MaskSampler.sample_masks` sample, in play."""
        waiting = view.drawn_tile
        return cls(
            view.rules,
            hands,
            boneyard,
            view.layout,
            list(view.scores),
            view.seat,
            -1 if waiting is None else waiting.index,
        )

    def copy(self) -> Playout:
        """Another playout of the same position, to be played apart: one deal, each candidate move."""
        other = Playout.__new__(Playout)
        other.rules, other.next_seats, other.seat_sides, other.target = (
            self.rules,
            self.next_seats,
            self.seat_sides,
            self.target,
        )
        other.hands, other.boneyard, other.open_ids = self.hands.copy(), self.boneyard.copy(), self.open_ids.copy()
        other.count, other.sniff, other.scores, other.seat = self.count, self.sniff, self.scores.copy(), self.seat
        other.drawn, other.over, other.winner = self.drawn, self.over, self.winner
        return other

    def play(self, move: Move) -> None:
        """Make ``move``, which must be legal for the seat to move."""
        self._advance(move_key(move), 1)

    def value(self, side: Side) -> int:
        """Play the round out, every seat greedy, and say what it was worth to ``side``.

        The side's score less the best other side's once the round is
        settled; when the match is won in it, :data:`WIN_FACTOR` times the
        target to the winner and less that to the others.
        """
        if not self.over:
            self._advance(_GREEDY, -1)
        return self._worth(side)

    def value_after(self, key: int, side: Side) -> int:
        """Make the move numbered ``key`` (one of :meth:`keys`), then :meth:`value`: a candidate's playout."""
        self._advance(key, -1)
        return self._worth(side)

    def _worth(self, side: Side) -> int:
        if self.winner is not None:
            won = WIN_FACTOR * self.target
            return won if self.winner == side else -won
        scores = self.scores
        return scores[side] - max(scores[:side] + scores[side + 1 :])

    def keys(self) -> list[int]:
        """The seat to move's legal moves as :func:`move_key` numbers, in ``legal_moves``' order."""
        seat = self.seat
        hand = self.hands[seat] if self.drawn < 0 else 1 << self.drawn  # DRAW-2
        open_ids = self.open_ids
        found: list[int] = []
        if not open_ids:
            mask = hand
            while mask:
                low = mask & -mask
                found.append((low.bit_length() - 1) * _KEY_BASE)  # OPEN-3: a lead
                mask ^= low
            return found
        for point_id in open_ids:
            mask = hand & _POINT_NEEDS[point_id]
            while mask:
                low = mask & -mask
                found.append((low.bit_length() - 1) * _KEY_BASE + point_id + 1)
                mask ^= low
        if found:
            return found
        return [DRAW_KEY if self.boneyard else PASS_KEY]  # DRAW-1, PASS-1

    def play_key(self, key: int) -> None:
        """Make the move numbered ``key`` (one of :meth:`keys`)."""
        self._advance(key, 1)

    def values(self) -> tuple[int, ...]:
        """Play the round out greedily and give :meth:`value` for every side."""
        if not self.over:
            self._advance(_GREEDY, -1)
        return tuple(self._worth(side) for side in range(self.rules.sides))

    def _advance(self, key: int, moves: int) -> None:
        """Make the move numbered ``key`` (:data:`_GREEDY`: the greedy one), then greedy ones, ``moves``
        moves in all (-1: no limit) or until the round ends.

        The greedy move is :func:`~sniff_rules.play.bots.greedy_move`'s: the most points, then the
        heaviest tile, then the first in ``legal_moves``' order (by point, then tile). One loop on
        local names, the position written back once, as a playout spends nearly all its time here.
        """
        hands, boneyard, open_ids, scores = self.hands, self.boneyard, self.open_ids, self.scores
        count, sniff, seat, drawn = self.count, self.sniff, self.seat, self.drawn
        next_seats, needs, tables, steps, points16 = self.next_seats, _POINT_NEEDS, _CANDIDATES, _STEP_TABLE, _POINTS16
        # A run to the round's end finds a block (BLOCK-1) when every seat has passed in turn, not by
        # a check after every placement once the boneyard is empty: the same settlement, found with
        # less work. A run of a few moves checks at once, so that it stops on the settled round.
        stepping, passes, players = moves >= 0, 0, len(hands)
        while moves:
            moves -= 1
            if key == _GREEDY:
                hand = hands[seat] if drawn < 0 else 1 << drawn  # DRAW-2
                index, point_id, best = -1, -1, -1
                if not open_ids:
                    mask = hand
                    while mask:
                        low = mask & -mask
                        at = low.bit_length() - 1
                        if _LEAD_KEY[at] > best:
                            index, best = at, _LEAD_KEY[at]
                        mask ^= low
                else:
                    for point in open_ids:
                        mask = hand & needs[point]
                        if not mask:
                            continue
                        found = tables[point].get(mask)
                        if found is None:
                            found = tables[point][mask] = _candidates(point, mask)
                        for at, free_id, delta, pips, variants in found:
                            if free_id < 0:
                                delta = variants[((point ^ 1) in open_ids) * 2 + (point // PORTS == sniff)]
                            # Points (POINTS-1) then pips, as one int: pips are at most 12.
                            score = points16[count + delta] + pips
                            if score > best:
                                index, point_id, best = at, point, score
                if index < 0:
                    key = DRAW_KEY if boneyard else PASS_KEY  # DRAW-1, PASS-1
            else:
                # A draw's or a pass's number gives index -1: no placement.
                index, point_id = key // _KEY_BASE, key % _KEY_BASE - 1
            made, key = key, _GREEDY
            if index >= 0:
                hands[seat] ^= 1 << index
                drawn = -1
                if point_id < 0:
                    lead = _LEADS[index]  # OPEN-3
                    open_ids, count, sniff = list(lead.open_point_ids), lead.end_count, lead.sniff
                else:
                    # place_on on the layout's parts, from its own step table and double rule, so it
                    # cannot drift from place_on; checks nothing, as place_on.
                    _placement, free_id, delta = steps[index][point_id]
                    open_ids.remove(point_id)
                    if free_id >= 0:
                        insort(open_ids, free_id)
                        count += delta
                    else:
                        count, sniff = _ATTACH_DOUBLE(open_ids, count, sniff, index, point_id)
                        open_ids.sort()
                if points16[count]:  # POINTS-1
                    side = self.seat_sides[seat]  # POINTS-2
                    scores[side] += count
                    if scores[side] >= self.target:
                        self.over, self.winner = True, side  # MATCH-1: at once, no settlement
                        break
                if not hands[seat]:
                    self._settle()  # END-1
                    break
                passes = 0
                if not boneyard and stepping:
                    # BLOCK-1, inline: a placement leaves points open, and any hand that fits one ends the check.
                    fits = 0
                    for point in open_ids:
                        fits |= needs[point]
                    for hand in hands:
                        if hand & fits:
                            break
                    else:
                        self._settle()
                        break
                seat = next_seats[seat]
            elif made == DRAW_KEY:
                fits = _fitting(open_ids)
                while True:
                    index = boneyard.pop()
                    hands[seat] |= 1 << index
                    if fits >> index & 1:
                        drawn = index  # DRAW-2: it must be placed now
                        break
                    if not boneyard:
                        if stepping and not _held(hands) & fits:
                            self._settle()  # BLOCK-1
                        break
                    if not moves:
                        break
                    # A draw that does not fit leaves nothing to place, so the greedy move is the
                    # next draw (DRAW-1): made here, without looking for a placement again.
                    moves -= 1
                if self.over:
                    break
            else:
                passes += 1
                if passes == players:
                    # BLOCK-1, seen late: every seat in turn passed on the same layout, so none fits.
                    self._settle()
                    break
                seat = next_seats[seat]  # PASS-1, TURN-1
        self.open_ids, self.count, self.sniff, self.seat, self.drawn = open_ids, count, sniff, seat, drawn

    def _settle(self) -> None:
        # SETTLE-1..4 as settle_masks settles (each hand rounded on its own, the deductions summed
        # per side, nobody credited), without the Settlement value it builds for every round's end.
        scores, seat_sides = self.scores, self.seat_sides
        for seat, hand in enumerate(self.hands):
            scores[seat_sides[seat]] -= _DEDUCTION[pips_of_mask(hand)]
        self.over = True


_DEDUCTION: Final = tuple(round_to_five(pips) for pips in range(sum(TILE_PIPS) + 1))
"""A hand's deduction by its pips (SETTLE-1), from ``round_to_five`` itself: a look-up per hand."""

_GREEDY: Final = -3
"""The key :meth:`Playout._advance` takes for "the greedy move"."""


def _fitting(open_ids: list[int]) -> int:
    """The tiles that could attach to the layout's open points: any tile for a lead (OPEN-3)."""
    if not open_ids:
        return FULL_SET_MASK
    fits = 0
    for point_id in open_ids:
        fits |= _POINT_NEEDS[point_id]
    return fits


def _held(hands: list[int]) -> int:
    held = 0
    for hand in hands:
        held |= hand
    return held
