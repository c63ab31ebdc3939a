"""The search bots' determinization: consistent deals drawn uniformly, a few draws a deal, as bit masks.

:class:`MaskSampler` samples the distribution
:class:`~sniff_rules.play.sampler.DealSampler` does — uniform over the deals
consistent with a seat's view, a deal being each seat's dealt hand as a set
and the boneyard as a sequence — from the same constraints
(:class:`~sniff_rules.play.sampler.DealConstraints`: the values a seat
lacked when it drew or passed, the hands' sizes, the boneyard, the tiles
placed and revealed, and the one constraint that is not tile by tile,
BLOCK-1's fitting tile held). It draws differently, and at a fraction of the
cost: ``DealSampler`` assigns the hidden tiles one at a time, a draw each;
this one sorts them into **kinds**, the tiles the log allows in the same
rooms (and, when BLOCK-1 binds, that fit alike). Tiles of one kind are
interchangeable for counting, so a deal is counted by how many of each kind
go to each room: kind ``k``'s ``n`` tiles split as ``(c_1 .. c_r)`` in
``n! / (c_1! .. c_r!)`` ways. Counts of the rest are memoised once per view;
a sample then takes one draw per kind with more than one split to choose
from, with probability ``ways(split) * N(rest after) / N(rest)``, which
telescopes to the same probability for every split matrix weighted by its
ways, then a uniform order of each kind's tiles (Fisher–Yates,
:func:`~sniff_rules.randomness.shuffled`) cut into the chosen split, which
makes every assignment of tiles under a split alike, then a uniform order
of each group of boneyard positions (skipped where a group's tiles are one
run cut from one kind's uniform order, already uniform). Every consistent deal so has
probability ``1 / N``, as in ``DealSampler``; ``tests/test_deal_masks.py``
holds the two to the same distribution at a fixed seed.

:meth:`MaskSampler.sample_masks` gives the position the round has reached
from the sampled deal — every seat's hand now as a bit mask, the boneyard
still to draw as tile indices — with no replay and no :class:`~sniff_rules.tiles.Tile`
built; :meth:`MaskSampler.sample` gives the deal itself. It sees the view
alone, so what it draws never depends on a hidden tile.

>>> from sniff_rules import Rules, SplitMix64, new_match
>>> from sniff_rules.play.events import Dealt
>>> from sniff_rules.play.sampler import DealSampler
>>> from sniff_rules.play.view import seat_view
>>> state = new_match(Rules.standard(4), seed=20)
>>> view = seat_view(state, 0, [Dealt.of(state)])
>>> sampler = MaskSampler(view)
>>> sampler.count == DealSampler(view).count
True
>>> hands, boneyard, _ = sampler.sample_masks(SplitMix64.from_seed(1))
>>> [bin(hand).count("1") for hand in hands], len(boneyard), hands[0] == state.hand_masks[0]
([5, 5, 5, 5], 8, True)
"""

from __future__ import annotations

from bisect import bisect_right
from math import factorial
from typing import Final

from sniff_rules.errors import InvalidStateError
from sniff_rules.play.sampler import DealConstraints, SampledDeal
from sniff_rules.play.view import SeatView
from sniff_rules.randomness import RandomSource, check_source, draw_below, shuffled
from sniff_rules.tiles import DOUBLE_SIX

_BIT: Final = tuple(1 << tile.index for tile in DOUBLE_SIX)

_Node = tuple[int, tuple[int, ...], bool]
"""A point of the count: the next kind, the rooms left in every group, whether BLOCK-1 is met."""

_Split = tuple[tuple[tuple[int, int], ...], _Node]
"""How many of a kind go to which groups (group number, tiles), as pairs, and the node after."""


class _Choices:
    """A node's splits as sampling reads them: their running totals of ways, each split, and the
    choices after each (None after the last kind)."""

    __slots__ = ("after", "splits", "totals")

    def __init__(self, totals: list[int], splits: list[tuple[tuple[int, int], ...]]) -> None:
        self.totals = totals
        self.splits = splits
        self.after: list[_Choices | None] = []


class MaskSampler:
    """Uniform sampler of the deals consistent with ``view``, drawn kind by kind (see the module's docstring).

    Built once per view; :attr:`count` is the number of consistent deals,
    :meth:`sample_masks` draws one as the position it reaches,
    :meth:`sample` as a :class:`~sniff_rules.play.sampler.SampledDeal`.
    """

    def __init__(self, view: SeatView) -> None:
        constraints = DealConstraints(view)
        self.view: Final = view
        groups = constraints.groups
        fitting = constraints.fitting
        kinds: dict[tuple[tuple[int, ...], bool], list[int]] = {}
        for tile in constraints.hidden:
            bit = 1 << tile.index
            rooms = tuple(number for number, group in enumerate(groups) if group.tiles & bit)
            kinds.setdefault((rooms, bool(fitting is not None and fitting & bit)), []).append(tile.index)
        # Kinds allowed in the fewest rooms first: their splits are few and narrow the rest.
        order = sorted(kinds, key=lambda kind: (len(kind[0]), kind))
        self._kinds: Final = tuple((rooms, fits, tuple(kinds[rooms, fits])) for rooms, fits in order)
        self._held: Final = tuple(group.held for group in groups)
        self._counts: Final[dict[_Node, int]] = {}
        self._splits: Final[dict[_Node, tuple[list[int], list[_Split]]]] = {}
        self._start: Final[_Node] = (0, tuple(group.room for group in groups), fitting is None)
        ways = self._count(self._start)
        if ways == 0:
            raise InvalidStateError("FORMAT-3", "no deal of the round is consistent with the view's log")
        orders = 1
        for group in groups:
            orders *= factorial(len(group.positions))
        self.count: Final = ways * orders
        """How many deals are consistent with the view (hands as sets, the boneyard in order)."""
        # Each node's choices linked to the next ones', so that a sample follows references, not keys.
        linked = {
            node: _Choices(totals, [split for split, _after in splits])
            for node, (totals, splits) in self._splits.items()
        }
        for node, (_totals, splits) in self._splits.items():
            linked[node].after = [linked.get(after) for _split, after in splits]
        self._root: Final = linked[self._start]
        self._tiles: Final = tuple(tiles for _rooms, _fits, tiles in self._kinds)
        deal = view.history.deal
        own = deal.hands[view.seat]
        assert own is not None
        # What the seat knows of each hand now: its own dealt tiles and every draw it saw,
        # less every tile placed; the sampled tiles are added to these.
        known = [0] * view.rules.players
        for tile in own:
            known[view.seat] |= 1 << tile.index
        drawers = constraints.drawers
        for position, tile in constraints.fixed.items():
            known[drawers[position]] |= 1 << tile.index
        self._known: Final = tuple(known)
        self._unplaced: Final = ~view.layout.placed_mask
        self._groups: Final = groups
        self._fixed: Final = tuple((position, int(tile.index)) for position, tile in constraints.fixed.items())
        self._boneyard_size: Final = deal.boneyard_size
        # Who receives each group's tiles: a seat's dealt hand (the seat), the boneyard left (one
        # group, its positions in draw order from the first undrawn: None) or draws made (each
        # position's drawer).
        self._receivers: Final = tuple(
            (group.seat, None)
            if not group.positions
            else (-1, None if group.positions[0] >= len(drawers) else tuple(drawers[at] for at in group.positions))
            for group in groups
        )

    def _count(self, node: _Node) -> int:
        """The consistent ways to put the kinds from ``node``'s on into its rooms (memoised), its
        splits kept with their running totals for sampling."""
        found = self._counts.get(node)
        if found is not None:
            return found
        kind, rooms, satisfied = node
        if kind == len(self._kinds):
            found = 1 if satisfied else 0
            self._counts[node] = found
            return found
        allowed, fits, tiles = self._kinds[kind]
        totals: list[int] = []
        splits: list[_Split] = []
        found = 0
        whole = factorial(len(tiles))
        for split in _splits(len(tiles), allowed, rooms):
            left = list(rooms)
            ways = whole
            for number, taken in split:
                left[number] -= taken
                ways //= factorial(taken)
            now = satisfied or (fits and any(self._held[number] for number, _taken in split))
            after: _Node = (kind + 1, tuple(left), now)
            rest = self._count(after)
            if rest:
                found += ways * rest
                totals.append(found)
                splits.append((split, after))
        self._counts[node] = found
        self._splits[node] = (totals, splits)
        return found

    def _fill(self, source: RandomSource) -> tuple[list[list[int]], RandomSource]:
        """The tile indices each group receives, boneyard positions in draw order, and the advanced source."""
        source = check_source(source)
        filled: list[list[int]] = [[] for _ in self._groups]
        # Per group, how many kinds put tiles there, and whether the one that did came in a uniform order.
        kinds = [0] * len(self._groups)
        in_order = [False] * len(self._groups)
        choices: _Choices | None = self._root
        for tiles in self._tiles:
            assert choices is not None  # one level of choices a kind
            if len(choices.splits) == 1:
                chosen = 0
            else:
                pick, source = draw_below(source, choices.totals[-1])
                chosen = bisect_right(choices.totals, pick)
            split, choices = choices.splits[chosen], choices.after[chosen]
            if len(split) == 1:
                number = split[0][0]
                filled[number] += tiles
                kinds[number] += 1
                continue
            order, source = shuffled(tiles, source)
            start = 0
            for number, taken in split:
                filled[number] += order[start : start + taken]
                kinds[number] += 1
                in_order[number] = True
                start += taken
        for number, group in enumerate(self._groups):
            # A run cut from one uniform order is in a uniform order itself; tiles of several
            # kinds, or of one kind in index order, are shuffled here.
            if len(group.positions) > 1 and not (kinds[number] == 1 and in_order[number]):
                ordered, source = shuffled(tuple(filled[number]), source)
                filled[number] = list(ordered)
        return filled, source

    def sample_masks(self, source: RandomSource) -> tuple[list[int], list[int], RandomSource]:
        """One consistent deal, uniformly, as the position it reaches: every seat's hand now as a
        bit mask, the boneyard still to draw as tile indices in draw order; and the advanced source."""
        filled, source = self._fill(source)
        hands = list(self._known)
        boneyard: list[int] = []
        bit = _BIT.__getitem__
        for (seat, drawers), indices in zip(self._receivers, filled, strict=True):
            if seat >= 0:
                # Distinct tiles: their bits' sum is their union, summed in C.
                hands[seat] |= sum(map(bit, indices))
            elif drawers is None:
                boneyard += indices
            else:
                for drawer, index in zip(drawers, indices, strict=True):
                    hands[drawer] |= 1 << index
        unplaced = self._unplaced
        return [hand & unplaced for hand in hands], boneyard, source

    def sample(self, source: RandomSource) -> tuple[SampledDeal, RandomSource]:
        """One consistent deal, uniformly over :attr:`count` of them, and the advanced source: the
        deal :meth:`sample_masks` would reach the same position from, given the same source."""
        filled, source = self._fill(source)
        view = self.view
        own = view.history.deal.hands[view.seat]
        assert own is not None
        hands = [own] * view.rules.players
        pile = [-1] * self._boneyard_size
        for position, fixed in self._fixed:
            pile[position] = fixed
        for group, indices in zip(self._groups, filled, strict=True):
            if not group.positions:
                hands[group.seat] = tuple(DOUBLE_SIX[index] for index in sorted(indices))
                continue
            for position, index in zip(group.positions, indices, strict=True):
                pile[position] = index
        return SampledDeal(tuple(hands), tuple(DOUBLE_SIX[index] for index in pile)), source


def _splits(tiles: int, allowed: tuple[int, ...], rooms: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
    """Every way to put ``tiles`` interchangeable tiles into the ``allowed`` groups within their
    ``rooms``, as (group number, tiles) pairs of the groups that get any, in group order."""
    found: list[tuple[tuple[int, int], ...]] = []
    room_after = [0] * (len(allowed) + 1)
    for place in range(len(allowed) - 1, -1, -1):
        room_after[place] = room_after[place + 1] + rooms[allowed[place]]
    if room_after[0] == tiles:
        # Every room they may take is needed (always so for the last kind): one split.
        return [tuple((number, rooms[number]) for number in allowed if rooms[number])]

    def extend(place: int, left: int, chosen: tuple[tuple[int, int], ...]) -> None:
        if place == len(allowed):
            if not left:
                found.append(chosen)
            return
        number = allowed[place]
        # At least what the later groups cannot take, at most what this one can.
        for taken in range(max(0, left - room_after[place + 1]), min(left, rooms[number]) + 1):
            extend(place + 1, left - taken, (*chosen, (number, taken)) if taken else chosen)

    extend(0, tiles, ())
    return found
