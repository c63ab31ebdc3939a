"""The checks of an adapter itself, beside the laws of the game: what it must refuse, and what it must not change.

:class:`~sniff_rules.verify.machine.SniffMachine` checks the laws of
:mod:`sniff_rules.position.laws` on every state an adapter gives it; these
are the checks no law covers, since they are about the adapter's calls
rather than the positions: a move not listed, or ``next_round`` out of
turn, is refused with a :class:`~sniff_rules.errors.SniffError` citing the
rule this library cites (``illegal-move``, ``match-over``, ``reference``,
``refusal-rule``), and no call, refused or not, changes the state it was
given (``caller-state``). Each check returns a :class:`Failure`, or None,
and leaves the reporting to the machine.
"""

from __future__ import annotations

import copy
import operator
import pickle
from collections.abc import Callable, Sequence
from typing import Final, TypeAlias

import attrs

import sniff_rules
from sniff_rules.errors import SniffError
from sniff_rules.moves import Draw, Move, Pass, Place
from sniff_rules.state import State

__all__ = [
    "FIELD_NAMES",
    "Call",
    "Failure",
    "call_text",
    "changed_fields",
    "deep_copy",
    "every_meant_move",
    "fields_of",
    "library_refusal",
    "refusal_failure",
    "refusal_rule_failure",
]


@attrs.frozen
class Failure:
    """A check the adapter failed: the check's name (one of ``SniffMachine.CHECKS``), what went wrong, and
    the state to show with it."""

    check: str
    message: str
    state: State


Call: TypeAlias = tuple[Callable[[], object], "Move | None"]
"""A call of the adapter on one state, and the move it makes (None: ``next_round``)."""

FIELD_NAMES: Final = tuple(field.name for field in attrs.fields(State))
"""The fields of a :class:`~sniff_rules.state.State`, in order."""

_FIELDS_OF: Final = operator.attrgetter(*FIELD_NAMES)


def fields_of(state: State) -> tuple[object, ...]:
    """The objects ``state``'s fields hold, in :data:`FIELD_NAMES` order, to compare by identity after a call."""
    fields: tuple[object, ...] = _FIELDS_OF(state)
    return fields


def changed_fields(first: State, second: State) -> list[str]:
    """The names of the fields whose values differ between two states."""
    return [name for name in FIELD_NAMES if getattr(first, name) != getattr(second, name)]


def deep_copy(state: State) -> State:
    """A copy sharing no object with ``state``; a pickle round trip costs
    about half of ``copy.deepcopy`` on these values."""
    try:
        copied = pickle.loads(pickle.dumps(state))
    except (pickle.PickleError, TypeError, AttributeError):
        return copy.deepcopy(state)
    assert isinstance(copied, State)
    return copied


def library_refusal(state: State, move: Move | None) -> str | None:
    """The rule id :mod:`sniff_rules` refuses ``move`` (None: ``next_round``) with, or None if it accepts."""
    try:
        if move is None:
            sniff_rules.next_round(state)
        else:
            sniff_rules.apply(state, move)
    except SniffError as error:
        return error.rule
    return None


def every_meant_move(state: State) -> list[Move]:
    """Every move a seat could mean: each draw and pass, each of its tiles
    led or put on each open point it fits."""
    attempts: list[Move] = []
    for seat, hand in enumerate(state.hands):
        attempts += [Draw(seat), Pass(seat)]
        for tile in hand:
            attempts.append(Place(seat, tile))
            attempts += [
                Place(seat, tile, point) for point in state.layout.open_points if point.value in (tile.low, tile.high)
            ]
    return attempts


def call_text(move: Move | None) -> str:
    """The call that makes ``move`` (None: ``next_round``), as a failure message writes it."""
    return "next_round(state)" if move is None else f"apply(state, {move!r})"


def refusal_rule_failure(state: State, move: Move | None, error: SniffError) -> Failure | None:
    """How the adapter's refusal ``error`` of ``move`` differs from the library's for ``state``: the library
    accepts the move (``reference``), or cites another rule id (``refusal-rule``); None when they agree."""
    expected = library_refusal(state, move)
    if expected is None:
        return Failure("reference", f"the library accepts {call_text(move)}, which the adapter refuses: {error}", state)
    if error.rule != expected:
        return Failure(
            "refusal-rule",
            f"{expected}: {call_text(move)} is refused citing {error.rule!r}, where the library cites {expected}",
            state,
        )
    return None


def refusal_failure(state: State, calls: Sequence[Call], *, check: str, compare_with_reference: bool) -> Failure | None:
    """The first way the adapter fails to refuse each of ``calls`` on ``state``; None if it refuses them all.

    A call that returns, or raises anything but a ``SniffError``, fails
    ``check``; with ``compare_with_reference``, a refusal must cite the
    library's rule (:func:`refusal_rule_failure`); and the refusals together
    must leave ``state`` equal to a deep copy taken before, field by field,
    and every field the same object (``caller-state``).
    """
    snapshot = deep_copy(state)
    fields = fields_of(state)
    for call, move in calls:
        try:
            result = call()
        except SniffError as error:
            failure = refusal_rule_failure(snapshot, move, error) if compare_with_reference else None
            if failure is not None:
                return failure
            continue
        except Exception as error:
            return Failure(check, f"{call_text(move)} raised {error!r}, not a SniffError", state)
        return Failure(check, f"{call_text(move)} must be refused with a SniffError, but gave {result!r}", state)
    moved = [name for name, a, b in zip(FIELD_NAMES, fields, fields_of(state), strict=True) if a is not b]
    changed = changed_fields(snapshot, state)
    if moved or changed or state != snapshot:
        refused = ", ".join(call_text(move) for _, move in calls)
        return Failure("caller-state", f"refusing {refused} changed {sorted({*moved, *changed})}", snapshot)
    return None
