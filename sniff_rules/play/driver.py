"""The one driver of whole matches: policies choose the moves, the driver deals and reports.

A **policy** chooses a move for the seat to move: it is called with what
it may see and a random source, and returns its move and the source to
use next (:data:`Policy`). By default it sees the state, as
:func:`sniff_rules.play.bots.random_move` does; a fair player is handed a
seat's view instead: pass ``present``, a function of the state and the
events so far that builds what the policy sees (a seat's view, the events
shown to that seat). :func:`play_match` deals each round (from the state's
random source, or by a given ``deal`` function), asks the policies in turn
and yields a :class:`Step` per deal and per move, with the events of
:mod:`sniff_rules.play.events`.

>>> from sniff_rules import Rules, SplitMix64, new_match
>>> from sniff_rules.play.bots import random_move
>>> steps = list(play_match(new_match(Rules.standard(3), seed=4), [random_move] * 3, SplitMix64.from_seed(4)))
>>> steps[0].move, type(steps[0].events[0]).__name__, type(steps[-1].events[-1]).__name__
(None, 'Dealt', 'MatchWon')
>>> steps[-1].state.is_over
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, TypeAlias, TypeVar, overload

import attrs

from sniff_rules._fast import is_tuple, sealed
from sniff_rules.errors import InvalidMoveError, InvalidStateError, described
from sniff_rules.moves import Draw, Move, Pass, Place
from sniff_rules.play.events import Dealt, Event, apply_with_events
from sniff_rules.randomness import RandomSource, check_source
from sniff_rules.state import Phase, State, next_round

V = TypeVar("V")

Policy: TypeAlias = Callable[[V, RandomSource], tuple[Move, RandomSource]]
"""Chooses a move from what it sees (a state, or what ``present`` builds) and a
random source; returns the move and the source to use next."""

Dealer: TypeAlias = Callable[[State], State]
"""Deals the next round after a settled one, e.g. ``lambda state: next_round(state, order=...)``."""

Presenter: TypeAlias = Callable[[State, tuple[Event, ...]], V]
"""Builds what a policy sees from the state and every event of the match so far,
for the seat to move, ``state.to_move``."""

_MOVE_TYPES: Final = (Place, Draw, Pass)


@sealed()
@attrs.frozen
class Step:
    """One step of a match: a deal (``move`` None) or a move, its events, the state after.

    ``source`` is the policies' random source after the step; None where no
    policy chooses (a match record's replay).
    """

    move: Move | None
    events: tuple[Event, ...] = attrs.field(validator=is_tuple)
    state: State
    source: RandomSource | None = None


@overload
def play_match(
    state: State, policies: Sequence[Policy[State]], source: RandomSource, *, deal: Dealer | None = None
) -> Iterator[Step]: ...


@overload
def play_match(
    state: State,
    policies: Sequence[Policy[V]],
    source: RandomSource,
    *,
    deal: Dealer | None = None,
    present: Presenter[V],
) -> Iterator[Step]: ...


def play_match(
    state: State,
    policies: Sequence[Policy[Any]],
    source: RandomSource,
    *,
    deal: Dealer | None = None,
    present: Presenter[Any] | None = None,
) -> Iterator[Step]:
    """Play the match on from ``state`` to its end, one policy per seat, yielding each step.

    A state freshly dealt (nothing led yet) is reported first as a
    :class:`~sniff_rules.play.events.Dealt` step; a settled round is followed by
    the next deal, made by ``deal`` (default :func:`~sniff_rules.state.next_round`,
    from the state's source); the match ends after its
    :class:`~sniff_rules.play.events.MatchWon`. Each turn, ``policies[state.to_move]``
    is called with the state, or with ``present(state, events)`` when
    ``present`` is given (``events``: every event of this run so far, none
    hidden: ``present`` shows the seat what it may see), and with the
    source; ``source`` is threaded through every call. A move the rules
    refuse raises as :func:`~sniff_rules.moves.apply` does. Started
    mid-round, the events begin at that state, without the round's deal.

    The arguments are checked at once: a non-State (FORMAT-3), a policy
    count other than the seats (SETUP-2), a source without ``below``
    (SETUP-5), a policy that is not callable (FORMAT-3).
    """
    if type(state) is not State:
        raise InvalidStateError("FORMAT-3", f"play_match plays on from a State, got {described(state, 200)}")
    players = state.rules.players
    if not isinstance(policies, Sequence) or len(policies) != players:
        raise InvalidStateError("SETUP-2", f"{players} seats need {players} policies, got {described(policies, 200)}")
    for function, what in [*((policy, "a policy") for policy in policies), (deal, "deal"), (present, "present")]:
        if not callable(function) and (function is not None or what == "a policy"):
            raise InvalidStateError("FORMAT-3", f"{what} is a callable, got {described(function, 200)}")
    return _drive(state, tuple(policies), check_source(source), deal, present)


def _drive(
    state: State,
    policies: tuple[Policy[Any], ...],
    source: RandomSource,
    deal: Dealer | None,
    present: Presenter[Any] | None,
) -> Iterator[Step]:
    history: list[Event] = []
    if state.phase is Phase.PLAYING and state.layout.is_empty:
        dealt = Dealt.of(state)
        history.append(dealt)
        yield Step(None, (dealt,), state, source)
    while True:
        phase = state.phase
        if phase is Phase.MATCH_OVER:
            return
        if phase is Phase.ROUND_OVER:
            state = next_round(state) if deal is None else _dealt_after(state, deal(state))
            dealt = Dealt.of(state)
            history.append(dealt)
            yield Step(None, (dealt,), state, source)
            continue
        seen = state if present is None else present(state, tuple(history))
        move, source = _chosen(policies[state.to_move](seen, source))
        state, events = apply_with_events(state, move)
        history += events
        yield Step(move, events, state, source)


def _dealt_after(settled: State, dealt: object) -> State:
    """The ``deal`` function's answer, if it is the next round's fresh deal."""
    if type(dealt) is not State or dealt.round_number != settled.round_number + 1:
        raise InvalidStateError(
            "FORMAT-3", f"deal returns round {settled.round_number + 1} as a State, got {described(dealt, 200)}"
        )
    return dealt


def _chosen(answer: object) -> tuple[Move, RandomSource]:
    """A policy's answer, if it is a move and a random source."""
    if type(answer) is not tuple or len(answer) != 2 or not isinstance(answer[0], _MOVE_TYPES):
        raise InvalidMoveError("TURN-1", f"a policy returns (move, source), got {described(answer, 200)}")
    move: Move = answer[0]
    return move, check_source(answer[1])
