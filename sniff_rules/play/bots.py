"""Players for demos, tests and benchmarks: fair bots that see a seat's view, and simulators.

The **fair bots** decide from a :class:`~sniff_rules.play.view.SeatView` and a
seeded source alone, never the full state, so they can play against
people: :func:`random_bot` (a uniform legal move), :func:`greedy_bot` (the
most points now, then the heaviest tile) and, in :mod:`sniff_rules.play.search`,
:class:`~sniff_rules.play.search.SearchBot`. Each is a policy of
:func:`sniff_rules.play.driver.play_match` with
``present=sniff_rules.play.view.present_seat_view``.

:func:`random_move` and :func:`greedy_move` take the whole state: they are
for simulation (playouts, tests, the conformance runner), not fair play.

>>> from sniff_rules import Rules, SplitMix64, new_match
>>> from sniff_rules.play.view import present_seat_view
>>> steps = list(play_match(new_match(Rules.standard(2), seed=1), [greedy_bot, random_bot],
...                         SplitMix64.from_seed(1), present=present_seat_view))
>>> steps[-1].state.is_over
True
"""

from __future__ import annotations

from sniff_rules.errors import IllegalMoveError, InvalidStateError, described
from sniff_rules.moves import Move, Place, apply, legal_moves
from sniff_rules.play.driver import play_match
from sniff_rules.play.view import MoveOption, SeatView
from sniff_rules.randomness import RandomSource, check_source, draw_below
from sniff_rules.scoring import play_points
from sniff_rules.state import Phase, State


def _options_of(view: SeatView) -> tuple[MoveOption, ...]:
    if type(view) is not SeatView:
        raise InvalidStateError("FORMAT-3", f"a fair bot decides from a SeatView, got {described(view, 200)}")
    if not view.options:
        raise IllegalMoveError("TURN-1", f"seat {view.seat} has no move: it is not its turn, or the round is over")
    return view.options


def checked_turn(view: SeatView, source: RandomSource) -> tuple[tuple[Move, ...], RandomSource]:
    """The legal moves of ``view`` and ``source``, once both are checked: what every search bot
    opens with. Refuses anything but a SeatView (FORMAT-3), a view whose seat has no move (TURN-1)
    and a value that is no random source (SETUP-5)."""
    _options_of(view)
    return view.legal_moves, check_source(source)


def random_bot(view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
    """A uniformly random legal move of the seat's view, and the advanced source."""
    options = _options_of(view)
    choice, source = draw_below(source, len(options))
    return options[choice].move, source


def greedy_bot(view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
    """The legal move scoring the most points now; ties go to the heaviest tile, then
    to the first listed (shedding pips lowers the settlement). ``source`` is unused."""
    best = max(_options_of(view), key=_greedy_key)
    return best.move, source


def _greedy_key(option: MoveOption) -> tuple[int, int]:
    move = option.move
    return (option.points, move.tile.pips) if type(move) is Place else (-1, -1)


def _moves_of(state: State) -> tuple[Move, ...]:
    moves = legal_moves(state)
    if not moves:
        rule = "MATCH-2" if state.phase is Phase.MATCH_OVER else "END-1"
        raise IllegalMoveError(rule, f"no move is legal: the match is {state.phase.value}")
    return moves


def random_move(state: State, source: RandomSource) -> tuple[Move, RandomSource]:
    """A uniformly random legal move and the advanced source."""
    moves = _moves_of(state)
    choice, source = draw_below(source, len(moves))
    return moves[choice], source


def greedy_move(state: State) -> Move:
    """The legal move scoring the most points now; ties go to the heaviest tile,
    then to the first listed (shedding pips lowers the settlement)."""
    moves = _moves_of(state)
    best = moves[0]
    best_key = (-1, -1)
    for move in moves:
        if type(move) is not Place:
            return move
        after = apply(state, move)
        key = (play_points(after.layout.end_count), move.tile.pips)
        if key > best_key:
            best, best_key = move, key
    return best


def play_out(state: State, source: RandomSource) -> tuple[State, RandomSource]:
    """Play random moves (dealing new rounds as needed) until the match ends.

    The match is driven by :func:`sniff_rules.play.driver.play_match` with
    :func:`random_move` at every seat; returns its last state and source.
    """
    if type(state) is not State:
        raise InvalidStateError("FORMAT-3", f"play_out plays on from a State, got {described(state, 200)}")
    for step in play_match(state, [random_move] * state.rules.players, source):
        state = step.state
        assert step.source is not None
        source = step.source
    return state, source
