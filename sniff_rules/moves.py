"""Moves, the legal moves of a state, and applying a move (TURN-1..2).

``legal_moves`` lists every move the seat to move may make (CONV-1), in a
fixed order: by open point, then tile (CONV-2); ``apply`` returns the next
state or raises :class:`~sniff_rules.errors.IllegalMoveError` naming the
rule, the rule cited when several apply chosen in a fixed order (CONV-3),
and never changes the state it was given.
"""

from __future__ import annotations

from operator import sub
from typing import Any, Final, NoReturn, TypeAlias, final, overload

import attrs

from sniff_rules._fast import refuse_unstorable, sealed
from sniff_rules._value_class import value_class
from sniff_rules.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, described, unchained
from sniff_rules.layout import (
    POINT_VALUE,
    POINTS,
    AttachmentPoint,
    Layout,
    PointId,
    place_lead,
    place_on,
    placement_refusal,
)
from sniff_rules.rules import MAX_PLAYERS, Seat
from sniff_rules.scoring import settle_masks
from sniff_rules.state import Phase, RoundContext, State, _new_state, construct_result
from sniff_rules.tiles import (
    DOUBLE_SIX,
    FULL_SET_MASK,
    NO_TILE,
    PIP_MASK,
    HandMask,
    Tile,
    TileIndex,
    hand_masks_of,
    indices_of_mask,
    tiles_of_mask,
)


def _check_move_seat(_instance: object, _attribute: object, seat: Any) -> None:
    if type(seat) is not int or not 0 <= seat < MAX_PLAYERS:
        raise InvalidMoveError("TURN-2", f"a move names its seat as an int 0..{MAX_PLAYERS - 1}, got {seat!r}")


def _check_move_tile(_instance: object, _attribute: object, tile: Any) -> None:
    if not isinstance(tile, Tile):
        raise InvalidMoveError("TURN-1", f"a placement places a Tile, got {tile!r}")


def _check_move_target(_instance: object, _attribute: object, target: Any) -> None:
    if target is not None and not isinstance(target, AttachmentPoint):
        raise InvalidMoveError("TURN-1", f"a placement's target is an AttachmentPoint or None, got {target!r}")


def _check_place_fields(place: Any) -> None:
    # The order attrs' validators ran in when Place was an attrs class: seat, tile, target.
    _check_move_seat(place, None, place.seat)
    _check_move_tile(place, None, place.tile)
    _check_move_target(place, None, place.target)


@final
@value_class(frozen=True, auto_attribs=True, slots=False, repr=False, weakref_slot=False)
class Place:
    """Put ``tile`` on ``target``; the lead has no target (PLACE-1, OPEN-3)."""

    seat: Seat
    tile: Tile
    target: AttachmentPoint | None = None

    def __new__(cls, seat: object, tile: object, target: object = None) -> Place:
        """Unchecked, for the engine; runs compiled only (the interpreted build replaces it: _fast.frozen_value)."""
        if (
            type(seat) is not int
            or not isinstance(tile, Tile)
            or (target is not None and not isinstance(target, AttachmentPoint))
        ):
            refuse_unstorable(_check_place_fields, cls, (seat, tile, target))
        place = object.__new__(cls)
        object.__setattr__(place, "seat", seat)
        object.__setattr__(place, "tile", tile)
        object.__setattr__(place, "target", target)
        return place

    def _check_fields(self) -> None:
        """What ``Place(...)`` checks, and ``Place.__new__(Place, ...)`` does not (TURN-1, TURN-2)."""
        _check_place_fields(self)

    def __repr__(self) -> str:
        if self.target is None:
            return f"Place({self.seat}, {self.tile!r})"
        return f"Place({self.seat}, {self.tile!r}, {self.target!r})"

    def __str__(self) -> str:
        return f"{self.seat}:{self.tile}" + ("" if self.target is None else f">{self.target}")


@sealed()
@attrs.frozen(repr=False)
class Draw:
    """Take the next boneyard tile: only with no placement (DRAW-1, DRAW-2)."""

    seat: Seat = attrs.field(validator=_check_move_seat)

    def __repr__(self) -> str:
        return f"Draw({self.seat})"

    def __str__(self) -> str:
        return f"{self.seat}:draw"


@sealed()
@attrs.frozen(repr=False)
class Pass:
    """End the turn without placing: only with no placement and no boneyard (PASS-1)."""

    seat: Seat = attrs.field(validator=_check_move_seat)

    def __repr__(self) -> str:
        return f"Pass({self.seat})"

    def __str__(self) -> str:
        return f"{self.seat}:pass"


Move: TypeAlias = Place | Draw | Pass

_PLAYING: Final = Phase.PLAYING
"""Read on every call: a module constant is cheaper than the enum attribute."""

_DRAWS: Final = tuple(Draw(seat) for seat in range(MAX_PLAYERS))
_PASSES: Final = tuple(Pass(seat) for seat in range(MAX_PLAYERS))
_LEADS: Final = tuple(tuple(Place(seat, tile) for tile in DOUBLE_SIX) for seat in range(MAX_PLAYERS))

# Places onto one point by one seat, keyed by (hand & tiles showing the point's
# value): the 127 non-empty keys of a point all at once, the first time a seat
# may attach there (_fill_point). Only the speed of legal_moves depends on it.
_PLACES_ON: Final[tuple[tuple[dict[int, tuple[Place, ...]], ...], ...]] = tuple(
    tuple({} for _ in POINT_VALUE) for _ in range(MAX_PLAYERS)
)
_POINT_NEEDS: Final = tuple(PIP_MASK[value] for value in POINT_VALUE)
"""For each point id, the tiles that could attach there."""


def _fill_places(seat: Seat, open_ids: tuple[PointId, ...], hand: int) -> tuple[Place, ...]:
    """The placements of ``hand`` on ``open_ids``, filling the tables of the points they lack."""
    moves: list[Place] = []
    for point_id in open_ids:
        candidates = hand & _POINT_NEEDS[point_id]
        if not candidates:
            continue
        cache = _PLACES_ON[seat][point_id]
        if not cache:
            _fill_point(cache, seat, point_id)
        moves += cache[candidates]
    return tuple(moves)


def _fill_point(cache: dict[int, tuple[Place, ...]], seat: Seat, point_id: PointId) -> None:
    """Fill ``cache`` with the places of every set of tiles that could attach at ``point_id``.

    All 127 at once: a hand loses tiles as it plays and gains them as it draws,
    so filling only the sets met would miss again and again; this way each
    seat's point misses once.
    """
    needs = _POINT_NEEDS[point_id]
    target = POINTS[point_id]
    place_of = {index: Place(seat, DOUBLE_SIX[index], target) for index in indices_of_mask(needs)}
    subset = needs
    while subset:
        cache[subset] = tuple([place_of[index] for index in indices_of_mask(subset)])
        subset = (subset - 1) & needs


def _fitting(layout: Layout) -> int:
    """The tiles that fit some open point of ``layout``: all of them on an empty table."""
    open_ids = layout.open_point_ids
    if not open_ids:
        return FULL_SET_MASK  # OPEN-3
    fits = 0
    for point_id in open_ids:
        fits |= _POINT_NEEDS[point_id]
    return fits


def _not_a_state(function: str, state: object) -> InvalidStateError:
    # A scalar is quoted with its type; any other value by its type alone (it may hold a state).
    shown = described(state, 200)
    got = shown if shown.startswith(("a ", "an ")) else f"{type(state).__name__}: {shown}"
    return InvalidStateError("FORMAT-3", f"{function} takes a State, got {got}")


@overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
def legal_moves(state: State) -> tuple[Move, ...]: ...
def legal_moves(state: Any) -> tuple[Move, ...]:
    """Every move the seat to move may make; empty once the round or match is over.

    >>> from sniff_rules.rules import Rules
    >>> from sniff_rules.state import new_match
    >>> state = new_match(Rules.standard(4), seed=3)
    >>> legal_moves(state)[:2]
    (Place(3, Tile(0, 1)), Place(3, Tile(2, 5)))
    """
    if type(state) is not State:
        raise _not_a_state("legal_moves", state)
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


@overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
def apply(state: State, move: Move) -> State: ...
def apply(state: Any, move: Any) -> State:
    """The state after ``move``; raises :class:`IllegalMoveError` if it is not legal.

    A value that is no move at all raises :class:`InvalidMoveError`, and
    something that is not a State :class:`InvalidStateError`. When several
    rules refuse a move, the first of this order is cited (CONV-3): the
    match or round over (MATCH-2, END-1), the move's kind (TURN-1), the
    seat (TURN-2), a drawn tile waiting to be placed (DRAW-2 for a draw or
    another tile, PASS-1 for a pass), then the move itself: a draw where a
    placement exists (DRAW-1) or from an empty boneyard (DRAW-2); a pass
    (PASS-1); a tile not held (PLACE-3), then the table (OPEN-3, SNIFF-2,
    PLACE-1).

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
    if type(state) is not State:
        raise _not_a_state("apply", state)
    phase = state.phase
    seat = state.to_move
    # Exact types, not isinstance: the classes are final in effect, and this
    # is the cheapest test on the hot path. Each branch returns only for the
    # seat to move; every other seat is refused by _refuse_seat.
    if phase is _PLAYING:
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
            raise InvalidMoveError("TURN-1", f"a move is a Place, Draw or Pass, got {described(move, 200)}")
        _refuse_seat(state, move.seat)
    if phase is Phase.MATCH_OVER:
        raise IllegalMoveError("MATCH-2", f"the match is over; side {state.winner} won; {move!s:.200} is refused")
    raise IllegalMoveError("END-1", f"round {state.round_number} is over; deal the next round before {move!s:.200}")


def _refuse_seat(state: State, moved: Seat) -> NoReturn:
    """The refusal of a move by a seat that is not to move."""
    if moved >= state.rules.players:
        # One rule per condition (CONV-3): a seat the table does not have is SETUP-2, for a move as for a deal.
        raise IllegalMoveError("SETUP-2", f"seat {moved} moved, but the table has seats 0..{state.rules.players - 1}")
    raise IllegalMoveError("TURN-2", f"seat {moved} moved, but it is seat {state.to_move}'s turn")


def _apply_place(state: State, seat: Seat, move: Place) -> State:
    tile = move.tile
    index = tile.index
    hands = state.hand_masks
    hand = hands[seat]
    drawn = state.drawn
    # CONV-3: the drawn tile waiting is checked before the hand, as a draw and
    # a pass check it first: while it waits, any other tile cites DRAW-2.
    if drawn >= 0 and index != drawn:
        raise IllegalMoveError("DRAW-2", f"seat {seat} drew {DOUBLE_SIX[drawn]} and must place it, not {tile}")
    if not hand >> index & 1:
        raise IllegalMoveError(
            "PLACE-3", f"seat {seat} does not hold {tile}; it holds " + " ".join(map(str, tiles_of_mask(hand)))
        )
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
            raise unchained(placement_refusal(layout, index, point_id)) from None
    changed: list[int] = list(hands)  # cheaper than slicing around the seat
    changed[seat] = left = hand ^ 1 << index
    hands = hand_masks_of(changed)
    rules = state.context.rules
    scores = state.scores
    count = layout.end_count
    if not count % 5 and count:  # POINTS-1, as play_points: inlined on the hot path
        side = rules.seat_sides[seat]  # POINTS-2
        score = scores[side] + count
        raised = list(scores)
        raised[side] = score
        scores = tuple(raised)
        if score >= rules.target:
            # MATCH-1: the match ends at once, mid-round included, with no settlement.
            return _new_state(
                context=state.context,
                phase=Phase.MATCH_OVER,
                to_move=seat,  # CONV-4: the winning placer
                hand_masks=hands,
                boneyard_ids=state.boneyard_ids,
                layout=layout,
                scores=scores,
                winner=side,
            )
    if not left:
        return _end_round(state, hands, layout, scores, finisher=seat)  # END-1
    boneyard = state.boneyard_ids
    if not boneyard and not _held(hands) & _fitting(layout):
        return _end_round(state, hands, layout, scores, finisher=None)  # BLOCK-1: no seat can place
    # By position, in the fields' order (context, phase, to_move, hand_masks, boneyard_ids, layout, scores):
    # keywords cost a name match each on the one call every placement makes.
    return _new_state(state.context, _PLAYING, rules.next_seats[seat], hands, boneyard, layout, scores)  # TURN-1


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
    changed: list[int] = list(hands)
    changed[seat] |= 1 << index
    hands = hand_masks_of(changed)
    drawn = index if fits >> index & 1 else NO_TILE
    if drawn < 0 and not boneyard and not _held(hands) & fits:
        return _end_round(state, hands, layout, state.scores, finisher=None, boneyard=boneyard)  # BLOCK-1
    # By position, as in _apply_place: (context, phase, to_move, hand_masks, boneyard_ids, layout, scores, drawn).
    return _new_state(state.context, _PLAYING, seat, hands, boneyard, layout, state.scores, drawn)


def _apply_pass(state: State, seat: Seat) -> State:
    if state.drawn >= 0:
        raise IllegalMoveError("PASS-1", f"seat {seat} drew {DOUBLE_SIX[state.drawn]}, which fits, and must place it")
    if state.hand_masks[seat] & _fitting(state.layout):
        raise IllegalMoveError("PASS-1", f"seat {seat} can place a tile; a pass is only for a player who cannot")
    if state.boneyard_ids:
        raise IllegalMoveError("PASS-1", f"the boneyard has {len(state.boneyard_ids)} tiles; draw before passing")
    return _new_state(
        context=state.context,
        phase=_PLAYING,
        to_move=state.context.rules.next_seats[seat],  # TURN-1
        hand_masks=state.hand_masks,
        boneyard_ids=state.boneyard_ids,
        layout=state.layout,
        scores=state.scores,
    )


def _held(hands: tuple[HandMask, ...]) -> int:
    """Every tile in some hand."""
    held = 0
    for hand in hands:
        held |= hand
    return held


def _end_round(
    state: State,
    hands: tuple[HandMask, ...],
    layout: Layout,
    scores: tuple[int, ...],
    finisher: Seat | None,
    boneyard: tuple[TileIndex, ...] | None = None,
) -> State:
    context = state.context
    rules = context.rules
    settlement = settle_masks(rules, hands)  # SETTLE-1..3
    # SETTLE-4: no floor; a score may go below zero.
    scores = tuple(map(sub, scores, settlement.side_deductions))
    result = construct_result(
        round_number=context.round_number,
        finisher=finisher,
        hands=tuple([tiles_of_mask(h) for h in hands]),
        settlement=settlement,
    )
    return _new_state(
        context=RoundContext.__new__(
            RoundContext, rules, context.round_number, context.opener, context.source, context.lot, result
        ),
        phase=Phase.ROUND_OVER,
        to_move=state.to_move,  # CONV-4: the seat that moved last
        hand_masks=hands,
        boneyard_ids=state.boneyard_ids if boneyard is None else boneyard,
        layout=layout,
        scores=scores,
    )
