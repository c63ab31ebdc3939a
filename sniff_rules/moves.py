"""Moves, the legal moves of a state, and applying a move (TURN-1..2).

``legal_moves`` lists every move the seat to move may make, in a fixed
order (by open point, then tile); ``apply`` returns the next state or
raises :class:`~sniff_rules.errors.IllegalMoveError` naming the rule, and
never changes the state it was given.
"""

from __future__ import annotations

from typing import Final, TypeAlias

import attrs

from sniff_rules.errors import IllegalMoveError
from sniff_rules.layout import (
    POINT_VALUE,
    POINTS,
    AttachmentPoint,
    Layout,
    place_lead,
    placement_refusal,
    place_on,
)
from sniff_rules.rules import Seat
from sniff_rules.scoring import settle_masks
from sniff_rules.state import Phase, RoundContext, RoundResult, State
from sniff_rules.tiles import (
    DOUBLE_SIX,
    FULL_SET_MASK,
    PIP_MASK,
    Tile,
    indices_of_mask,
    tiles_of_mask,
)


def _check_seat_type(_instance: object, _attribute: object, seat: int) -> None:
    if type(seat) is not int:
        raise IllegalMoveError("TURN-2", f"a move names its seat as an int, got {seat!r}")


@attrs.frozen(repr=False)
class Place:
    """Put ``tile`` on ``target``; the lead has no target (PLACE-1, OPEN-3)."""

    seat: Seat = attrs.field(validator=_check_seat_type)
    tile: Tile = attrs.field(validator=attrs.validators.instance_of(Tile))
    target: AttachmentPoint | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.instance_of(AttachmentPoint))
    )

    def __repr__(self) -> str:
        if self.target is None:
            return f"Place({self.seat}, {self.tile!r})"
        return f"Place({self.seat}, {self.tile!r}, {self.target!r})"

    def __str__(self) -> str:
        return f"{self.seat}:{self.tile}" + ("" if self.target is None else f">{self.target}")


@attrs.frozen(repr=False)
class Draw:
    """Take the next boneyard tile: only with no placement (DRAW-1, DRAW-2)."""

    seat: Seat = attrs.field(validator=_check_seat_type)

    def __repr__(self) -> str:
        return f"Draw({self.seat})"

    def __str__(self) -> str:
        return f"{self.seat}:draw"


@attrs.frozen(repr=False)
class Pass:
    """End the turn without placing: only with no placement and no boneyard (PASS-1)."""

    seat: Seat = attrs.field(validator=_check_seat_type)

    def __repr__(self) -> str:
        return f"Pass({self.seat})"

    def __str__(self) -> str:
        return f"{self.seat}:pass"


Move: TypeAlias = Place | Draw | Pass

_build_state: Final = State.__new__
"""Called as ``_build_state(State, ...)`` on the hot path: it skips
type.__call__, which packs the arguments into a tuple for __new__."""
_PLAYING: Final = Phase.PLAYING
"""Read on every call; a module constant costs a tenth of the enum attribute."""

MAX_SEATS: Final = 4
_DRAWS: Final = tuple(Draw(seat) for seat in range(MAX_SEATS))
_PASSES: Final = tuple(Pass(seat) for seat in range(MAX_SEATS))
_LEADS: Final = tuple(tuple(Place(seat, tile) for tile in DOUBLE_SIX) for seat in range(MAX_SEATS))

# Places onto one point by one seat, keyed by (hand & tiles showing the point's
# value): at most 128 keys per point, filled as they are first met. Only the
# speed of legal_moves depends on it.
_PLACES_ON: Final[tuple[tuple[dict[int, tuple[Place, ...]], ...], ...]] = tuple(
    tuple({} for _ in POINT_VALUE) for _ in range(MAX_SEATS)
)
_POINT_NEEDS: Final = tuple(PIP_MASK[value] for value in POINT_VALUE)
"""For each point id, the tiles that could attach there."""


_PLACE_OF: Final[dict[tuple[Seat, int, int], Place]] = {}
"""Each (seat, point id, tile index) placement made so far, so that the
tuples above share their moves and a new key costs no new Place."""


def _fill_places(seat: Seat, open_ids: tuple[int, ...], hand: int) -> tuple[Place, ...]:
    """The placements of ``hand`` on ``open_ids``, adding what the tables lack."""
    moves: list[Place] = []
    for point_id in open_ids:
        candidates = hand & _POINT_NEEDS[point_id]
        if not candidates:
            continue
        found = _PLACES_ON[seat][point_id].get(candidates)
        if found is None:
            places = []
            for index in indices_of_mask(candidates):
                place = _PLACE_OF.get((seat, point_id, index))
                if place is None:
                    place = _PLACE_OF[seat, point_id, index] = Place(seat, DOUBLE_SIX[index], POINTS[point_id])
                places.append(place)
            found = _PLACES_ON[seat][point_id][candidates] = tuple(places)
        moves += found
    return tuple(moves)


def _fitting(layout: Layout) -> int:
    """The tiles that fit some open point of ``layout``: all of them on an empty table."""
    open_ids = layout.open_point_ids
    if not open_ids:
        return FULL_SET_MASK  # OPEN-3
    fits = 0
    for point_id in open_ids:
        fits |= _POINT_NEEDS[point_id]
    return fits


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every move the seat to move may make; empty once the round or match is over.

    >>> from sniff_rules.rules import Rules
    >>> from sniff_rules.state import new_match
    >>> state = new_match(Rules.standard(4), seed=3)
    >>> legal_moves(state)[:2]
    (Place(3, Tile(0, 1)), Place(3, Tile(2, 5)))
    """
    if state.phase is not _PLAYING:
        return ()
    seat = state.to_move
    layout = state.layout
    hand = state.hand_masks[seat] if state.drawn < 0 else 1 << state.drawn  # DRAW-2
    open_ids = layout.open_point_ids
    if not open_ids:
        leads = _LEADS[seat]  # OPEN-3: an empty table; any tile may lead
        return tuple([leads[index] for index in indices_of_mask(hand)])
    moves: tuple[Move, ...] = ()
    cache = _PLACES_ON[seat]
    try:
        for point_id in open_ids:
            candidates = hand & _POINT_NEEDS[point_id]
            if candidates:
                # Concatenating the cached tuples beats a list: most states have one or two.
                moves += cache[point_id][candidates]
    except KeyError:
        moves = _fill_places(seat, open_ids, hand)
    if moves:
        return moves  # DRAW-1: a player who can place must place
    if state.boneyard_ids:
        return (_DRAWS[seat],)  # DRAW-2
    return (_PASSES[seat],)  # PASS-1


def apply(state: State, move: Move) -> State:
    """The state after ``move``; raises :class:`IllegalMoveError` if it is not legal.

    >>> from sniff_rules import Port, Rules, new_match
    >>> state = new_match(Rules.standard(4), seed=3)
    >>> after = apply(state, Place(3, Tile(2, 5)))
    >>> after.to_move, str(after.layout.placements[0]), after.layout.end_count, after.scores
    (0, '[2|5]', 7, (0, 0))
    >>> apply(after, Place(3, Tile(3, 5), AttachmentPoint(Tile(2, 5), Port.HIGH)))
    Traceback (most recent call last):
    ...
    sniff_rules.errors.IllegalMoveError: TURN-2: seat 3 moved, but it is seat 0's turn
    """
    phase = state.phase
    if phase is not _PLAYING:
        if phase is Phase.MATCH_OVER:
            raise IllegalMoveError("MATCH-2", f"the match is over; side {state.winner} won; {move} is refused")
        raise IllegalMoveError("END-1", f"round {state.round_number} is over; deal the next round before {move}")
    seat = state.to_move
    # Exact types, not isinstance: the classes are final in effect, and this
    # is the cheapest test on the hot path. Each branch returns only for the
    # seat to move; every other seat falls through to the one TURN-2 refusal.
    if type(move) is Place:
        if move.seat == seat:
            return _apply_place(state, seat, move)
    elif type(move) is Draw:
        if move.seat == seat:
            return _apply_draw(state, seat)
    elif type(move) is Pass:
        if move.seat == seat:
            return _apply_pass(state, seat)
    else:
        raise IllegalMoveError("TURN-1", f"a move is a Place, Draw or Pass, got {move!r}")
    raise IllegalMoveError("TURN-2", f"seat {move.seat} moved, but it is seat {seat}'s turn")


def _apply_place(state: State, seat: Seat, move: Place) -> State:
    tile = move.tile
    index = tile.index
    hands = state.hand_masks
    hand = hands[seat]
    if not hand >> index & 1:
        raise IllegalMoveError(
            "PLACE-3", f"seat {seat} does not hold {tile}; it holds " + " ".join(map(str, tiles_of_mask(hand)))
        )
    drawn = state.drawn
    if drawn >= 0 and index != drawn:
        raise IllegalMoveError("DRAW-2", f"seat {seat} drew {DOUBLE_SIX[drawn]} and must place it, not {tile}")
    layout = state.layout
    target = move.target
    if target is None:
        if layout.placements:
            raise IllegalMoveError("OPEN-3", f"only the first tile is a lead; attach {tile} to an open point")
        layout = place_lead(index)
    else:
        point_id = target.id
        try:
            layout = place_on(layout, index, point_id)
        except (KeyError, ValueError):
            # place_on refuses a tile that does not match or a point that is
            # not open; the caller sees only the rule, not the look-up that failed.
            raise placement_refusal(layout, index, point_id) from None
    hand ^= 1 << index
    changed = list(hands)  # cheaper than slicing around the seat
    changed[seat] = hand
    hands = tuple(changed)
    rules = state.context.rules
    players = rules.players
    scores = state.scores
    count = layout.end_count
    if not count % 5 and count:  # POINTS-1, as play_points: inlined on the hot path
        side = seat & 1 if players == 4 else seat  # POINTS-2, SETUP-2
        score = scores[side] + count
        raised = list(scores)
        raised[side] = score
        scores = tuple(raised)
        if score >= rules.target:
            # MATCH-1: the match ends at once, mid-round included, with no settlement.
            return _replace(state, phase=Phase.MATCH_OVER, hand_masks=hands, layout=layout, scores=scores, winner=side)
    if not hand:
        return _end_round(state, hands, layout, scores, finisher=seat)  # END-1
    boneyard = state.boneyard_ids
    if not boneyard and not _held(hands) & _fitting(layout):
        return _end_round(state, hands, layout, scores, finisher=None)  # BLOCK-1: no seat can place
    return _build_state(
        State,
        state.context,
        _PLAYING,
        (seat + 1) % players,  # TURN-1
        hands,
        boneyard,
        layout,
        scores,
    )


def _apply_draw(state: State, seat: Seat) -> State:
    if state.drawn >= 0:
        raise IllegalMoveError(
            "DRAW-2", f"seat {seat} drew {DOUBLE_SIX[state.drawn]}, which fits, and must place it now"
        )
    hands = state.hand_masks
    layout = state.layout
    fits = _fitting(layout)
    if hands[seat] & fits:
        raise IllegalMoveError("DRAW-1", f"seat {seat} can place a tile and must place rather than draw")
    boneyard = state.boneyard_ids
    if not boneyard:
        raise IllegalMoveError("DRAW-2", "the boneyard is empty; nothing can be drawn")
    index = boneyard[0]
    boneyard = boneyard[1:]
    changed = list(hands)
    changed[seat] |= 1 << index
    hands = tuple(changed)
    drawn = index if fits >> index & 1 else -1
    if drawn < 0 and not boneyard and not _held(hands) & fits:
        return _end_round(state, hands, layout, state.scores, finisher=None, boneyard=boneyard)  # BLOCK-1
    return _build_state(State, state.context, _PLAYING, seat, hands, boneyard, layout, state.scores, drawn)


def _apply_pass(state: State, seat: Seat) -> State:
    if state.drawn >= 0:
        raise IllegalMoveError(
            "PASS-1", f"seat {seat} drew {DOUBLE_SIX[state.drawn]}, which fits, and must place it"
        )
    if state.hand_masks[seat] & _fitting(state.layout):
        raise IllegalMoveError("PASS-1", f"seat {seat} can place a tile; a pass is only for a player who cannot")
    if state.boneyard_ids:
        raise IllegalMoveError("PASS-1", f"the boneyard has {len(state.boneyard_ids)} tiles; draw before passing")
    return _replace(state, to_move=(seat + 1) % state.rules.players)


def _replace(
    state: State,
    *,
    phase: Phase = Phase.PLAYING,
    to_move: Seat | None = None,
    hand_masks: tuple[int, ...] | None = None,
    layout: Layout | None = None,
    scores: tuple[int, ...] | None = None,
    winner: int | None = None,
) -> State:
    """``state`` with the fields a pass or a won match changes; a plain
    constructor call, since ``attrs.evolve`` costs several times more."""
    return _build_state(
        State,
        state.context,
        phase,
        state.to_move if to_move is None else to_move,
        state.hand_masks if hand_masks is None else hand_masks,
        state.boneyard_ids,
        state.layout if layout is None else layout,
        state.scores if scores is None else scores,
        winner=winner,
    )


def _held(hands: tuple[int, ...]) -> int:
    """Every tile in some hand."""
    held = 0
    for hand in hands:
        held |= hand
    return held


def _end_round(
    state: State,
    hands: tuple[int, ...],
    layout: Layout,
    scores: tuple[int, ...],
    finisher: Seat | None,
    boneyard: tuple[int, ...] | None = None,
) -> State:
    context = state.context
    rules = context.rules
    settlement = settle_masks(rules, hands)  # SETTLE-1..3
    # SETTLE-4: no floor; a score may go below zero.
    scores = tuple([score - deduction for score, deduction in zip(scores, settlement.side_deductions)])
    result = RoundResult(context.round_number, finisher, tuple([tiles_of_mask(h) for h in hands]), settlement)
    return State(
        RoundContext(rules, context.round_number, context.opener, context.source, context.lot, result),
        Phase.ROUND_OVER,
        state.to_move,
        hands,
        state.boneyard_ids if boneyard is None else boneyard,
        layout,
        scores,
    )



