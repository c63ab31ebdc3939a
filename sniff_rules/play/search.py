"""A fair search bot: determinized playouts over the deals a seat's view allows.

:class:`SearchBot` is perfect-information Monte Carlo (determinization,
as surveyed by Cowling, Powley and Whitehouse, 2012): on a turn with more
than one legal move it draws ``deals`` deals from
:class:`~sniff_rules.play.deal_masks.MaskSampler` — uniform over the deals
consistent with the seat's view, the distribution of
:class:`~sniff_rules.play.sampler.DealSampler`, each drawn from the injected
source in a few draws and handed over as the position it reaches, as bit
masks — and in each plays every legal move, then plays the round out with
:func:`~sniff_rules.play.bots.greedy_move`'s rule at every seat (on bit
masks, :class:`~sniff_rules.play.playout.Playout`: the same rounds as
:func:`playout_value` plays through ``apply``, without a State a move or a
replay of the round a deal). A playout is worth the bot's side's score less the best other
side's at the round's end (after the settlement), or, when the match is
won in it, ten times the target for a win and less that for a loss,
however it was won; the move of the highest total is played, ties to the
one scoring more now, then to the first listed. It sees the view and the source only, so
it plays fairly against people.

**Its speed, as counted** (``python3 -m benchmarks.search_speed``, figures in
``benchmarks/README.md``): a decision is a turn with more than one legal
move (a forced move is answered without a search); its playouts are
``deals`` times its legal moves, each one candidate move played and the
round played out; the rate is the playouts of every real decision of
seeded 4-player matches over those decisions' CPU time
(:func:`time.process_time`), in one process on one core, the deals' sampling
and each decision's setup included. ``python3 -m benchmarks.search_speed
--compare 5`` on this project's 2-core machine, load average 1.0 to 1.6:
47,963 to 52,749 playouts a CPU-second in the five rounds, median 50,407
(the State-by-State reference 9,747). A figure load does not move:
``python3 -m benchmarks.search_speed --instructions`` counts 187,305 machine
instructions a playout under valgrind, sampling and setup included.

>>> from sniff_rules import Rules, SplitMix64, new_match
>>> from sniff_rules.play.events import Dealt
>>> from sniff_rules.play.view import seat_view
>>> state = new_match(Rules.standard(3), seed=2)
>>> move, _ = SearchBot(deals=4)(seat_view(state, state.to_move, [Dealt.of(state)]), SplitMix64.from_seed(2))
>>> move in seat_view(state, state.to_move, [Dealt.of(state)]).legal_moves
True
"""

from __future__ import annotations

import attrs

from sniff_rules._fast import sealed
from sniff_rules.errors import InvalidStateError, described
from sniff_rules.moves import Move, apply
from sniff_rules.play.bots import checked_turn, greedy_move
from sniff_rules.play.deal_masks import MaskSampler
from sniff_rules.play.playout import WIN_FACTOR, Playout, move_key
from sniff_rules.play.view import SeatView
from sniff_rules.randomness import RandomSource
from sniff_rules.rules import Side
from sniff_rules.state import Phase, State


def _check_deals(_instance: object, _attribute: object, deals: int) -> None:
    if type(deals) is not int or deals < 1:
        raise InvalidStateError("FORMAT-3", f"a search bot samples at least one deal, got {described(deals)}")


def playout_value(state: State, side: Side) -> int:
    """What the round ahead of ``state`` is worth to ``side``, every seat playing greedily.

    The side's score less the best other side's once the round ends; when
    the match is won in it, :data:`WIN_FACTOR` times the target to the
    winner and less that to the others: a win is a win, whatever the score.
    """
    while state.phase is Phase.PLAYING:
        state = apply(state, greedy_move(state))
    if state.winner is not None:
        won = WIN_FACTOR * state.rules.target
        return won if state.winner == side else -won
    scores = state.scores
    return scores[side] - max(score for other, score in enumerate(scores) if other != side)


@sealed()
@attrs.frozen
class SearchBot:
    """Determinized search with ``deals`` sampled deals a decision (``deals`` times the
    legal moves playouts in all, counted so in its speed); a policy of a seat's view and a source."""

    deals: int = attrs.field(default=32, validator=_check_deals)

    def __call__(self, view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
        """The move of the best total over the sampled deals, and the advanced source."""
        moves, source = checked_turn(view, source)
        if len(moves) == 1:
            return moves[0], source
        sampler = MaskSampler(view)
        side = view.rules.side_of(view.seat)
        totals = [0] * len(moves)
        keys = [move_key(move) for move in moves]
        last = len(keys) - 1
        try:
            for _ in range(self.deals):
                hands, boneyard, source = sampler.sample_masks(source)
                start = Playout.of_sample(view, hands, boneyard)
                for index, key in enumerate(keys):
                    # The last candidate plays on the deal's own position: nothing needs it after.
                    playout = start if index == last else start.copy()
                    totals[index] += playout.value_after(key, side)
        except (AttributeError, KeyError, TypeError, ValueError, IndexError):
            # The playout trusts the view's parts; only a forged view whose parts do not fit
            # its log lands here, and is refused as any malformed view is.
            raise InvalidStateError("FORMAT-3", "a SeatView whose parts do not fit its log") from None
        points = [option.points for option in view.options]
        best = max(range(len(moves)), key=lambda index: (totals[index], points[index]))
        return moves[best], source
