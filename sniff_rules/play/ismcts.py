"""A fair information-set Monte Carlo tree search bot (SO-ISMCTS).

:class:`ISMCTSBot` is single-observer information-set MCTS (Cowling,
Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE
TCIAIG 4(2), 2012). One tree is grown from the bot's information set, its
nodes keyed by the moves made from it, every seat's moves included. Each
of ``iterations`` iterations:

1. **determinizes**: draws a deal uniformly among those consistent with the
   seat's view (:class:`~sniff_rules.play.deal_masks.MaskSampler`, as the
   search bot does) and starts the round there (:class:`~sniff_rules.play.playout.Playout`);
2. **selects**: while every move legal in this deal has a child, goes to the
   child of the highest UCB1 score, ``mean + exploration * sqrt(ln(available)
   / visits)``, where *available* counts the iterations in which that move
   was legal (the paper's availability count, which keeps moves that exist
   in few deals from being under-explored);
3. **expands** one move legal here without a child, chosen uniformly by the
   seeded source;
4. **simulates** the round to its end, every seat greedy, as the search bot
   does (:func:`~sniff_rules.play.bots.greedy_move`'s rule);
5. **backpropagates** each node's reward to the side that made its move: the
   playout's value for that side (score less the best other side's, a match
   won or lost worth :data:`~sniff_rules.play.playout.WIN_FACTOR` times the
   target) divided by :data:`REWARD_SCALE` and clipped to [-1, 1].

The move played is the root's most visited child (ties to the one scoring
more now, then to the first listed). The budget is the iteration count, not a
clock, so a decision is the same on every machine; at the default 200 every
real decision of a 300-match run at 4 players stayed under 0.1 s of CPU time
while it beat the search bot (``python3 -m benchmarks.ismcts_match``, figures
in ``benchmarks/README.md``). It sees the view and the
source only, so it plays fairly against people.

>>> from sniff_rules import Rules, SplitMix64, new_match
>>> from sniff_rules.play.events import Dealt
>>> from sniff_rules.play.view import seat_view
>>> state = new_match(Rules.standard(4), seed=2)
>>> view = seat_view(state, state.to_move, [Dealt.of(state)])
>>> move, _ = ISMCTSBot(iterations=50)(view, SplitMix64.from_seed(2))
>>> move in view.legal_moves
True
"""

from __future__ import annotations

from math import log, sqrt
from typing import Final

import attrs

from sniff_rules._fast import sealed
from sniff_rules.errors import InvalidStateError, described
from sniff_rules.moves import Move
from sniff_rules.play.bots import checked_turn
from sniff_rules.play.deal_masks import MaskSampler
from sniff_rules.play.playout import Playout, move_key
from sniff_rules.play.view import SeatView
from sniff_rules.randomness import RandomSource, draw_below

REWARD_SCALE: Final = 60
"""Points of lead that count as a whole reward: a round's margin is worth its share of it."""

MAX_ITERATIONS: Final = 1_000_000
"""The most iterations a bot may be given: a bound, so that a decision always ends."""


def _check_iterations(_instance: object, _attribute: object, iterations: int) -> None:
    if type(iterations) is not int or not 1 <= iterations <= MAX_ITERATIONS:
        raise InvalidStateError(
            "FORMAT-3", f"an ISMCTS bot runs 1..{MAX_ITERATIONS} iterations, got {described(iterations)}"
        )


def _check_exploration(_instance: object, _attribute: object, exploration: float) -> None:
    if type(exploration) not in (int, float) or not 0 <= exploration <= 10:
        raise InvalidStateError("FORMAT-3", f"the exploration constant is 0..10, got {described(exploration)}")


class _Node:
    """A tree node: the move into it was made by ``side``; its reward sum, visits and availability."""

    __slots__ = ("available", "children", "reward", "side", "visits")

    def __init__(self, side: int) -> None:
        self.side = side
        self.children: dict[int, _Node] = {}
        self.reward = 0.0
        self.visits = 0
        self.available = 1


@sealed()
@attrs.frozen
class ISMCTSBot:
    """SO-ISMCTS with ``iterations`` determinized iterations a decision and UCB1's
    ``exploration`` constant; a policy of a seat's view and a source."""

    iterations: int = attrs.field(default=200, validator=_check_iterations)
    exploration: float = attrs.field(default=0.7, validator=_check_exploration)

    def __call__(self, view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
        """The root's most visited move after the iterations, and the advanced source."""
        moves, source = checked_turn(view, source)
        if len(moves) == 1:
            return moves[0], source
        sampler = MaskSampler(view)
        rules = view.rules
        sides = rules.seat_sides
        root = _Node(-1)
        exploration = self.exploration
        for _ in range(self.iterations):
            hands, boneyard, source = sampler.sample_masks(source)
            playout = Playout.of_sample(view, hands, boneyard)
            node, path = root, []
            while not playout.over:
                keys = playout.keys()
                children = node.children
                untried = [key for key in keys if key not in children]
                for key in keys:
                    child = children.get(key)
                    if child is not None:
                        child.available += 1
                if untried:
                    pick, source = draw_below(source, len(untried))
                    key = untried[pick]
                    node = children[key] = _Node(sides[playout.seat])
                    path.append(node)
                    playout.play_key(key)
                    break
                key, node = _select(children, keys, exploration)
                path.append(node)
                playout.play_key(key)
            values = playout.values()
            for visited in path:
                visited.visits += 1
                visited.reward += max(-1.0, min(1.0, values[visited.side] / REWARD_SCALE))
        points = [option.points for option in view.options]
        visits = [_visits(root, move_key(move)) for move in moves]
        best = max(range(len(moves)), key=lambda index: (visits[index], points[index]))
        return moves[best], source


def _select(children: dict[int, _Node], keys: list[int], exploration: float) -> tuple[int, _Node]:
    """The move among ``keys`` whose child has the highest UCB1 score with availability counts
    (the first on ties), and that child."""
    best_key, best_score = keys[0], -1e300
    for key in keys:
        child = children[key]
        score = child.reward / child.visits + exploration * sqrt(log(child.available) / child.visits)
        if score > best_score:
            best_key, best_score = key, score
    return best_key, children[best_key]


def _visits(root: _Node, key: int) -> int:
    child = root.children.get(key)
    return 0 if child is None else child.visits
