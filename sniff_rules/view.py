"""What one seat may see: its own hand and the public facts (SETUP-6).

Hands stay secret until the round is settled; a frontend or a fair bot
works from an :class:`Observation`, never from the full state.
"""

from __future__ import annotations

import attrs

from sniff_rules._fast import sealed
from sniff_rules.errors import InvalidStateError
from sniff_rules.layout import Layout
from sniff_rules.moves import Move, legal_moves
from sniff_rules.rules import Rules, Seat, Side, check_seat
from sniff_rules.state import Phase, RoundResult, State
from sniff_rules.tiles import Tile


@sealed()
@attrs.frozen
class Observation:
    """One seat's view of a state: other hands only by their size.

    ``revealed_hands`` holds every hand once the round has ended (SETTLE-1)
    and is None while it is secret.
    """

    seat: Seat
    rules: Rules
    phase: Phase
    round_number: int
    to_move: Seat
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    layout: Layout
    scores: tuple[int, ...]
    drawn_tile: Tile | None
    legal_moves: tuple[Move, ...]
    revealed_hands: tuple[tuple[Tile, ...], ...] | None
    last_round: RoundResult | None
    winner: Side | None


def observe(state: State, seat: Seat) -> Observation:
    """What ``seat`` knows in ``state``.

    >>> from sniff_rules import Rules, new_match
    >>> view = observe(new_match(Rules.standard(3), seed=5), 1)
    >>> len(view.hand), view.hand_sizes, view.boneyard_size, view.revealed_hands
    (6, (6, 6, 6), 10, None)
    """
    if type(state) is not State:
        raise InvalidStateError("FORMAT-3", f"observe takes a State, got {state!r:.200}")
    check_seat(state.rules, seat, "SETUP-2", InvalidStateError)
    own_turn = seat == state.to_move and state.phase is Phase.PLAYING
    return Observation(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        round_number=state.round_number,
        to_move=state.to_move,
        hand=state.hand(seat),
        hand_sizes=tuple(mask.bit_count() for mask in state.hand_masks),
        boneyard_size=len(state.boneyard_ids),
        layout=state.layout,
        scores=state.scores,
        drawn_tile=state.drawn_tile if own_turn else None,
        legal_moves=legal_moves(state) if own_turn else (),
        revealed_hands=None if state.phase is Phase.PLAYING else state.hands,
        last_round=state.last_round,
        winner=state.winner,
    )
