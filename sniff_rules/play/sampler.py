"""Deals consistent with what one seat has seen, drawn uniformly: a sampler of hidden information.

A seat's view (:class:`~sniff_rules.play.view.SeatView`) hides the other hands
and the boneyard's order. :class:`DealSampler` draws, for that view, a
whole deal of its round — every seat's dealt hand and the boneyard in draw
order — that replays the round's public moves to the same view, and
:meth:`DealSampler.sample_state` the state those moves reach from it.

**Which deals are consistent.** Every tile the seat has not seen sits in a
*slot*: another seat's dealt hand (as many tiles as a hand), one of its
draws that did not fit (DRAW-2: one that fits is placed at once, so its
tile is public), a drawn tile waiting to be placed, or the boneyard still
to be drawn. The public log allows a tile in a slot or not, each tile on
its own: a tile placed by a seat was that seat's, dealt to it or drawn
before the placement; a tile the seat held when it drew or passed showed
none of the values then open (DRAW-1, PASS-1), and a kept draw showed none
of the values open at it; a tile still held at a revealed end is in the
hand revealed; a waiting drawn tile fits. One constraint is not tile by
tile: when the last tile of the boneyard was drawn, kept and nothing has
been placed since, the round goes on only because some hand holds a tile
that fits (BLOCK-1); it applies when the seat's own hand holds none.

**The distribution** is uniform over the consistent deals, a deal being
each seat's dealt hand as a set and the boneyard as a sequence. Boneyard
positions whose tiles the log allows alike (the rest of the boneyard; the
draws kept in one turn) are one group, filled as a set. The tiles are
assigned to a hand or a group one at a time: the next tile goes to ``g``
with probability ``N(rest after g) / N(rest)``, where ``N`` counts the
consistent ways to place the remaining tiles into the remaining room
(memoised exact counts; for the non-local constraint, the count of all ways
less the count of those with no fitting tile held). The probabilities of
an assignment's choices telescope to ``1 / N(all)``; each group's tiles are
then put in a uniform order (Fisher–Yates, :func:`~sniff_rules.randomness.shuffled`),
every order as consistent as any other, so each deal has probability
``1 / (N(all) * prod(k!))``, the ``k`` the groups' sizes: the same for all.
Nothing is rejected and nothing
retried, so tight constraints cost no more than loose ones.

>>> from sniff_rules import Rules, SplitMix64, new_match
>>> from sniff_rules.play.events import Dealt
>>> from sniff_rules.play.view import seat_view
>>> state = new_match(Rules.standard(2), seed=20)
>>> sampler = DealSampler(seat_view(state, 0, [Dealt.of(state)]))
>>> from math import comb, factorial
>>> sampler.count == comb(21, 7) * factorial(14)  # the other hand, then the boneyard's order
True
>>> sampled, _ = sampler.sample_state(SplitMix64.from_seed(1))
>>> sampled.hand(0) == state.hand(0), sampled.hand(1) == state.hand(1)
(True, False)
"""

from __future__ import annotations

from math import factorial
from typing import Final

import attrs

from sniff_rules._fast import is_tuple, is_tuple_of_tuples, sealed
from sniff_rules.errors import InvalidStateError, SniffError, described
from sniff_rules.moves import Draw, Move, Pass, Place, apply
from sniff_rules.play.events import Dealt, Drew, Event, Passed, Placed, RoundEnded, apply_with_events
from sniff_rules.play.view import SeatView
from sniff_rules.randomness import RandomSource, SplitMix64, check_source, draw_below, shuffled
from sniff_rules.rules import Seat
from sniff_rules.state import Phase, State
from sniff_rules.tiles import DOUBLE_SIX, PIP_MASK, Pip, Tile, mask_of_tiles

_NEVER: Final = 1 << 30


@sealed()
@attrs.frozen
class SampledDeal:
    """A deal of a round: each seat's dealt hand and the boneyard in draw order."""

    hands: tuple[tuple[Tile, ...], ...] = attrs.field(validator=is_tuple_of_tuples)
    boneyard: tuple[Tile, ...] = attrs.field(validator=is_tuple)


def _shows(tile: Tile, values: tuple[Pip, ...]) -> bool:
    return tile.low in values or tile.high in values


def _showing(values: tuple[Pip, ...]) -> int:
    """The tiles with a half of one of ``values``, as a mask."""
    mask = 0
    for value in values:
        mask |= PIP_MASK[value]
    return mask


@attrs.frozen
class _Slot:
    """Room for ``room`` hidden tiles: a seat's dealt hand, one draw, or the boneyard left."""

    kind: str  # "hand", "kept", "waiting", "boneyard"
    seat: Seat
    at: int
    room: int
    values: tuple[Pip, ...] = ()
    position: int = -1


@attrs.frozen
class _Group:
    """Room the sampler fills: a seat's dealt hand (no positions), or boneyard positions
    whose tiles the log allows alike; ``held`` when a seat holds what is put there."""

    held: bool
    seat: Seat
    room: int
    positions: tuple[int, ...]
    tiles: int
    """The tiles the log allows here, as a mask."""


def _moves_of(events: tuple[Event, ...]) -> tuple[Move, ...]:
    moves: list[Move] = []
    for event in events:
        if type(event) is Placed:
            moves.append(Place(event.seat, event.tile, event.placement.target))
        elif type(event) is Drew:
            moves.append(Draw(event.seat))
        elif type(event) is Passed:
            moves.append(Pass(event.seat))
    return tuple(moves)


class DealConstraints:
    """What the public log of ``view`` says of the tiles the seat has not seen (see the module's
    docstring): the rooms they fill, each the tiles it allows, and the one constraint that is not
    tile by tile. Both samplers start from it, the counting :class:`DealSampler` and the
    bit-mask :class:`~sniff_rules.play.deal_masks.MaskSampler`, so they sample one set of deals."""

    def __init__(self, view: SeatView) -> None:
        if type(view) is not SeatView:
            raise InvalidStateError("FORMAT-3", f"a sampler is built from a SeatView, got {described(view, 200)}")
        log = view.history
        events = log.events
        seat = view.seat
        deal = log.deal
        own = deal.hands[seat]
        assert own is not None
        fixed: dict[int, Tile] = {}  # boneyard position -> a tile the seat knows was drawn there
        slots: list[_Slot] = [_Slot("hand", other, -1, deal.hand_size) for other in range(log.players) if other != seat]
        waits: dict[Seat, list[tuple[int, tuple[Pip, ...]]]] = {other: [] for other in range(log.players)}
        placed: list[tuple[Seat, int, int]] = []  # who placed a tile, at which event, the tile's bit
        drawers: list[Seat] = []
        position = 0
        for index, event in enumerate(events):
            if type(event) is Drew:
                waits[event.seat].append((index, event.open_values))
                drawers.append(event.seat)
                if event.tile is not None:
                    fixed[position] = event.tile
                elif event.must_place and index + 1 < len(events):
                    following = events[index + 1]
                    assert type(following) is Placed
                    fixed[position] = following.tile
                else:
                    kind = "waiting" if event.must_place else "kept"
                    slots.append(_Slot(kind, event.seat, index, 1, event.open_values, position))
                position += 1
            elif type(event) is Passed:
                waits[event.seat].append((index, event.open_values))
            elif type(event) is Placed:
                placed.append((event.seat, index, 1 << event.tile.index))
        known = set(own) | set(fixed.values())
        end = log.end
        revealed = tuple(mask_of_tiles(hand) for hand in end.hands) if end else None
        hidden = tuple(tile for tile in DOUBLE_SIX if tile not in known)
        slots.append(_Slot("boneyard", -1, _NEVER, deal.boneyard_size - position))
        hidden_mask = mask_of_tiles(hidden)
        columns = [_allowed(slot, hidden_mask, placed, waits, revealed) for slot in slots]
        # Positions whose tiles the log allows alike (draws kept in one turn, the boneyard
        # left) form one group: counted once, their order drawn uniformly at the end.
        groups: dict[tuple[str, int, int], _Group] = {}
        for slot, column in zip(slots, columns, strict=True):
            if slot.kind == "hand":
                groups["hand", slot.seat, column] = _Group(True, slot.seat, slot.room, (), column)
                continue
            positions = tuple(range(position, deal.boneyard_size)) if slot.kind == "boneyard" else (slot.position,)
            key = ("boneyard" if slot.kind == "boneyard" else "held", -1, column)
            before = groups.get(key)
            joined = positions if before is None else (*before.positions, *positions)
            groups[key] = _Group(slot.kind != "boneyard", -1, len(joined), joined, column)
        self.fixed: Final = fixed
        """Boneyard position to the tile the seat knows was drawn there."""
        self.drawers: Final = tuple(drawers)
        """The seat that drew each boneyard position drawn so far."""
        self.hidden: Final = hidden
        """The tiles the seat has not seen, in index order."""
        self.groups: Final = tuple(group for group in groups.values() if group.room)
        """The rooms the hidden tiles fill, none empty."""
        self.fitting: Final = _fitting(view)
        """The tiles one of which some seat must hold (BLOCK-1), as a mask, or None when nothing must be held."""


def _fitting(view: SeatView) -> int | None:
    """The tiles whose holding keeps the round from blocking; None when nothing needs holding."""
    log = view.history
    if view.phase is not Phase.PLAYING or view.boneyard_size or not log.draws:
        return None
    last = max(index for index, event in enumerate(log.events) if type(event) is Drew)
    drew = log.events[last]
    assert type(drew) is Drew
    if drew.must_place or any(type(event) is Placed for event in log.events[last:]):
        return None
    if any(_shows(tile, drew.open_values) for tile in view.hand):
        return None
    return _showing(drew.open_values) & ~view.layout.placed_mask


class DealSampler:
    """Uniform sampler of the deals consistent with ``view`` (see the module's docstring).

    Built once per view; :attr:`count` is the number of consistent deals,
    :meth:`sample` draws one, :meth:`sample_state` the state it replays to.
    """

    def __init__(self, view: SeatView) -> None:
        constraints = DealConstraints(view)
        self.view: Final = view
        self._moves: Final = _moves_of(view.history.events)
        self._fixed: Final = constraints.fixed
        self._groups: Final = constraints.groups
        self._boneyard_size: Final = view.history.deal.boneyard_size
        hidden = constraints.hidden
        allowed = [tuple(n for n, group in enumerate(self._groups) if group.tiles >> tile.index & 1) for tile in hidden]
        # Tiles with the fewest options first keep the counted room small.
        order = sorted(range(len(hidden)), key=lambda i: len(allowed[i]))
        self._tiles: Final = tuple(hidden[i] for i in order)
        self._allowed: Final = tuple(allowed[i] for i in order)
        fitting = constraints.fitting
        self._fits_held: Final = (
            None if fitting is None else tuple(bool(fitting >> tile.index & 1) for tile in self._tiles)
        )
        # The rooms left in every group as one mixed-radix number: a group's room is a digit, one
        # tile put there is its weight taken off. Counting and sampling then key their memos by
        # ints and build no tuple a step.
        weights: list[int] = []
        codes = 1
        for group in self._groups:
            weights.append(codes)
            codes *= group.room + 1
        self._weights: Final = tuple(weights)
        self._bases: Final = tuple(group.room + 1 for group in self._groups)
        self._codes: Final = codes
        self._start: Final = sum(group.room * weight for group, weight in zip(self._groups, weights, strict=True))
        self._held_groups: Final = tuple(group.held for group in self._groups)
        self._all_memo: Final[dict[int, int]] = {}
        self._none_memo: Final[dict[int, int]] = {}
        ways = self._ways(0, self._start, self._fits_held is None)
        if ways == 0:
            raise InvalidStateError("FORMAT-3", "no deal of the round is consistent with the view's log")
        orders = 1
        for group in self._groups:
            orders *= factorial(len(group.positions))
        self.count: Final = ways * orders
        """How many deals are consistent with the view (hands as sets, the boneyard in order)."""

    def _ways(self, index: int, rooms: int, satisfied: bool) -> int:
        if satisfied:
            return self._count_all(index, rooms)
        return self._count_all(index, rooms) - self._count_none(index, rooms)

    def _count_all(self, index: int, rooms: int) -> int:
        """Ways to put tiles ``index`` on into the ``rooms`` left (memoised)."""
        key = index * self._codes + rooms
        found = self._all_memo.get(key)
        if found is None:
            if index == len(self._tiles):
                found = 1
            else:
                found = 0
                weights, bases = self._weights, self._bases
                for number in self._allowed[index]:
                    weight = weights[number]
                    if rooms // weight % bases[number]:
                        found += self._count_all(index + 1, rooms - weight)
            self._all_memo[key] = found
        return found

    def _count_none(self, index: int, rooms: int) -> int:
        """Ways with no tile that fits held by another seat (only when that matters)."""
        key = index * self._codes + rooms
        found = self._none_memo.get(key)
        if found is None:
            if index == len(self._tiles):
                found = 1
            else:
                assert self._fits_held is not None
                fits = self._fits_held[index]
                found = 0
                weights, bases, held = self._weights, self._bases, self._held_groups
                for number in self._allowed[index]:
                    weight = weights[number]
                    if rooms // weight % bases[number] and not (fits and held[number]):
                        found += self._count_none(index + 1, rooms - weight)
            self._none_memo[key] = found
        return found

    def sample(self, source: RandomSource) -> tuple[SampledDeal, RandomSource]:
        """One consistent deal, uniformly over :attr:`count` of them, and the advanced source."""
        source = check_source(source)
        rooms = self._start
        satisfied = self._fits_held is None
        chosen: list[list[Tile]] = [[] for _ in self._groups]
        weights, bases, held = self._weights, self._bases, self._held_groups
        codes, every, none = self._codes, self._all_memo, self._none_memo
        fits_held = self._fits_held
        for index, tile in enumerate(self._tiles):
            ways = self._ways(index, rooms, satisfied)
            pick, source = draw_below(source, ways)
            for number in self._allowed[index]:
                weight = weights[number]
                if not rooms // weight % bases[number]:
                    continue
                after = rooms - weight
                now = satisfied or (fits_held is not None and fits_held[index] and held[number])
                # The counting that built the sampler met every step a sample takes: read its memos.
                key = (index + 1) * codes + after
                share = every[key] if now else every[key] - none[key]
                if pick < share:
                    chosen[number].append(tile)
                    rooms, satisfied = after, now
                    break
                pick -= share
        return self._deal_of(chosen, source)

    def _deal_of(self, chosen: list[list[Tile]], source: RandomSource) -> tuple[SampledDeal, RandomSource]:
        view = self.view
        own = view.history.deal.hands[view.seat]
        assert own is not None
        hands: list[tuple[Tile, ...]] = [own] * view.rules.players
        boneyard: list[Tile | None] = [None] * self._boneyard_size
        for position, tile in self._fixed.items():
            boneyard[position] = tile
        for group, tiles in zip(self._groups, chosen, strict=True):
            if not group.positions:
                hands[group.seat] = tuple(sorted(tiles, key=lambda tile: tile.index))
                continue
            order, source = shuffled(tuple(tiles), source)
            for position, tile in zip(group.positions, order, strict=True):
                boneyard[position] = tile
        pile = tuple(tile for tile in boneyard if tile is not None)
        assert len(pile) == self._boneyard_size
        return SampledDeal(tuple(hands), pile), source

    def sample_state(self, source: RandomSource) -> tuple[State, RandomSource]:
        """The state the view's round reaches from a sampled deal, and the advanced source.

        The state's own random source, which deals the rounds after this
        one, is seeded from ``source`` too: it is as hidden as the deal.
        """
        deal, source = self.sample(source)
        seed, source = draw_below(source, 1 << 63)
        state = _dealt(self.view, deal, SplitMix64.from_seed(seed))
        for move in self._moves:
            state = apply(state, move)
        return state, source

    def replay(self, deal: SampledDeal, source: RandomSource | None = None) -> tuple[State, tuple[Event, ...]]:
        """:func:`replay_deal` of this sampler's view: the state and events ``deal`` reaches."""
        return replay_deal(self.view, deal, source)


def replay_deal(
    view: SeatView, deal: SampledDeal, source: RandomSource | None = None
) -> tuple[State, tuple[Event, ...]]:
    """The state and the events ``view``'s round reaches from ``deal``, from its deal on.

    ``source`` becomes the state's random source (for the rounds after).
    A deal the public moves do not fit raises as ``apply`` does.
    """
    if type(deal) is not SampledDeal:
        raise InvalidStateError("FORMAT-3", f"a sampler replays a SampledDeal, got {described(deal)}")
    state = _dealt(view, deal, source)
    events: list[Event] = [Dealt.of(state)]
    for number, move in enumerate(_moves_of(view.history.events)):
        try:
            state, happened = apply_with_events(state, move)
        except SniffError as err:
            # apply's refusal may list a hand of the deal; the public move and the rule are enough.
            raise type(err)(err.rule, f"the deal does not fit public move {number} ({move})") from None
        events += happened
    return state, tuple(events)


def _dealt(view: SeatView, deal: SampledDeal, source: RandomSource | None) -> State:
    dealt = view.history.deal
    return State.create(
        rules=view.rules,
        hands=deal.hands,
        boneyard=deal.boneyard,
        scores=dealt.scores,
        round_number=dealt.round_number,
        opener=dealt.opener,
        lot=dealt.lot,
        source=source,
        # A settled round's view names that round last; the one before is not needed.
        last_round=None if type(view.round_end) is RoundEnded else view.last_round,
    )


def _allowed(
    slot: _Slot,
    hidden: int,
    placed: list[tuple[Seat, int, int]],
    waits: dict[Seat, list[tuple[int, tuple[Pip, ...]]]],
    revealed: tuple[int, ...] | None,
) -> int:
    """The hidden tiles the public log allows in ``slot``, as a mask (see the module's docstring)."""
    placed_mask = 0
    for _seat, _at, bit in placed:
        placed_mask |= bit
    unplaced = hidden & ~placed_mask
    if slot.kind == "boneyard":
        return unplaced & ~_union(revealed)
    if slot.kind == "waiting":
        return unplaced & _showing(slot.values)
    if revealed is not None:
        unplaced &= revealed[slot.seat]
    # A tile placed by this seat after the slot's draw (or the deal) may have been there.
    allowed = unplaced
    for seat, at, bit in placed:
        if seat == slot.seat and at > slot.at:
            allowed |= bit
    if slot.kind == "kept":
        allowed &= ~_showing(slot.values)
    for waited, values in waits[slot.seat]:
        if waited > slot.at:
            # Held at that draw or pass: none showing its values, unless placed before it.
            before = 0
            for _seat, at, bit in placed:
                if at < waited:
                    before |= bit
            allowed &= ~(_showing(values) & ~before)
    return allowed & hidden


def _union(masks: tuple[int, ...] | None) -> int:
    union = 0
    for mask in masks or ():
        union |= mask
    return union
