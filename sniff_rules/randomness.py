"""The injected random source: seeded, immutable, specified bit for bit.

Every random choice of a match — each round's shuffle and each opener lot
(SETUP-5, OPEN-1) — is drawn from a :class:`RandomSource` value that the
state carries and replaces, never from the global ``random`` module. The
default :class:`SplitMix64` is tiny and fully specified in
``specs/rules.md``, so an implementation in another language can reproduce
a seeded deal exactly; a frontend may inject its own source instead.
"""

from __future__ import annotations

from typing import Any, Final, Protocol, TypeVar, final, overload

from sniff_rules._fast import constructor, is_native, refuse_unstorable
from sniff_rules._value_class import value_class
from sniff_rules.errors import InvalidStateError, described

_MASK64: Final = (1 << 64) - 1
_GOLDEN_GAMMA: Final = 0x9E3779B97F4A7C15

T = TypeVar("T")


class RandomSource(Protocol):
    """An immutable source of uniform integers.

    ``below(bound)`` returns a value in ``range(bound)`` and the source to use
    next; the receiver is not changed, so equal sources give equal streams.
    """

    def below(self, bound: int) -> tuple[int, RandomSource]:
        """A uniform integer in ``range(bound)`` and the next source."""
        ...


def _check_source_state(source: Any) -> None:
    state = source.state
    if type(state) is not int or not 0 <= state <= _MASK64:
        raise InvalidStateError("SETUP-5", f"a SplitMix64 state is an integer in 0..2**64-1, got {state!r}")


@final
@value_class(frozen=True, auto_attribs=True, slots=False, weakref_slot=False)
class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014) with rejection sampling.

    >>> value, source = SplitMix64.from_seed(7).below(6)
    >>> value, source
    (3, SplitMix64(state=11400714819323198492))
    """

    state: int

    def __new__(cls, state: object) -> SplitMix64:
        """Unchecked, for the engine; runs compiled only (the interpreted build replaces it: _fast.frozen_value)."""
        if type(state) is not int:
            refuse_unstorable(_check_source_state, cls, (state,))
        source = object.__new__(cls)
        object.__setattr__(source, "state", state)
        return source

    def _check_fields(self) -> None:
        """What ``SplitMix64(...)`` checks, and ``SplitMix64.__new__(SplitMix64, ...)`` does not (SETUP-5)."""
        _check_source_state(self)

    @overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
    @classmethod
    def from_seed(cls, seed: int) -> SplitMix64: ...
    @classmethod
    def from_seed(cls, seed: Any) -> SplitMix64:
        """The source for an integer seed (any int; taken modulo 2**64)."""
        if type(seed) is not int:
            raise InvalidStateError("SETUP-5", f"a seed is an int, got {seed!r}")
        return cls(seed & _MASK64)

    def next64(self) -> tuple[int, SplitMix64]:
        """The next 64-bit output and the advanced source."""
        state = (self.state + _GOLDEN_GAMMA) & _MASK64
        return _mix(state), _advanced(state)

    @overload  # type: ignore[misc]  # the typed face; the body takes Any to refuse by rule (_fast: checked calls)
    def below(self, bound: int) -> tuple[int, SplitMix64]: ...
    def below(self, bound: Any) -> tuple[int, SplitMix64]:
        """Uniform in ``range(bound)``: outputs under ``2**64 % bound`` are redrawn.

        ``bound`` is an int from 1 to 2**64; a larger one could never be
        served by 64-bit outputs, and is refused rather than drawn for ever.
        """
        if type(bound) is not int or not 1 <= bound <= _TWO_TO_64:
            raise InvalidStateError("SETUP-5", f"below(n) takes an int n from 1 to 2**64, got {bound!r}")
        threshold = _TWO_TO_64 % bound
        state = self.state
        while True:
            # next64 without a source per redraw: only the last state is kept.
            state = (state + _GOLDEN_GAMMA) & _MASK64
            value = _mix(state)
            if value >= threshold:
                return value % bound, _advanced(state)


def _advanced(state: int) -> SplitMix64:
    """``SplitMix64(state)`` for a state already masked to 64 bits, without the check: every deal
    advances the source several times, and a masked state cannot fail it. Compiled, a direct call
    of the native ``__new__``; interpreted, the name is bound to the generated constructor instead."""
    return SplitMix64.__new__(SplitMix64, state)


if not is_native(SplitMix64):
    globals()["_advanced"] = constructor(SplitMix64)


def _mix(state: int) -> int:
    """SplitMix64's output function of an advanced state."""
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def shuffled(items: tuple[T, ...], source: RandomSource) -> tuple[tuple[T, ...], RandomSource]:
    """Fisher–Yates from the last position down, draws packed (SETUP-5).

    For ``i`` from ``len - 1`` down to 1, position ``i`` is swapped with
    ``j`` uniform in ``range(i + 1)``. Successive bounds ``i + 1, i, ...``
    are grouped while their product stays below ``2**64``; each group takes
    one ``r = source.below(product)`` and its ``j`` values are the
    mixed-radix digits of ``r``: ``r, j = divmod(r, i + 1)``, lowest digit
    first. For 28 tiles that is two draws instead of 27, the same
    distribution at a fraction of the cost.

    >>> shuffled(tuple(range(5)), SplitMix64.from_seed(1))[0]
    (2, 3, 4, 1, 0)
    """
    order = list(items)
    groups = _SHUFFLE_GROUPS.get(len(order))
    if groups is None:
        groups = _SHUFFLE_GROUPS[len(order)] = _shuffle_groups(len(order))
    for product, positions in groups:
        packed, source = draw_below(source, product)
        for i, bound in positions:
            j = packed % bound
            packed //= bound
            order[i], order[j] = order[j], order[i]
    return tuple(order), source


ShuffleGroup = tuple[int, tuple[tuple[int, int], ...]]
"""One packed draw of a shuffle: the product of its bounds, and each
position ``i`` it swaps with its bound ``i + 1``, in swap order."""


def _shuffle_groups(length: int) -> tuple[ShuffleGroup, ...]:
    """How a shuffle of ``length`` items groups its bounds; fixed per length."""
    groups: list[ShuffleGroup] = []
    i = length - 1
    while i > 0:
        product, last = 1, i
        while last > 0 and product * (last + 1) < _TWO_TO_64:
            product *= last + 1
            last -= 1
        groups.append((product, tuple((position, position + 1) for position in range(i, last, -1))))
        i = last
    return tuple(groups)


_SHUFFLE_GROUPS: Final[dict[int, tuple[ShuffleGroup, ...]]] = {}
"""The groups of each length met so far: a deal always shuffles 28."""
_TWO_TO_64: Final = 1 << 64

LOT_FACES: Final = 6
"""A lot draw is a value 1..6 for each candidate; highest wins (OPEN-1)."""
MAX_LOT_ROUNDS: Final = 64
"""A lot that ties this many times in a row is refused (OPEN-1): a uniform
source ties so often with a chance below 6**-64, so only a broken source
gets there, and it must not loop for ever."""

LotRound = tuple[tuple[int, int], ...]
"""One round of a lot: ``(seat, drawn value)`` for each candidate, seat order."""


def draw_lot(candidates: tuple[int, ...], source: RandomSource) -> tuple[int, tuple[LotRound, ...], RandomSource]:
    """The seat chosen by lot, every round drawn, and the next source (OPEN-1).

    Each candidate in seat order draws ``1 + source.below(6)``; the highest
    wins, and a tie is drawn again among the tied seats only.
    """
    rounds: list[LotRound] = []
    while len(rounds) < MAX_LOT_ROUNDS:
        draws = []
        for seat in candidates:
            value, source = draw_below(source, LOT_FACES)
            draws.append((seat, value + 1))
        rounds.append(tuple(draws))
        best = max(value for _, value in draws)
        candidates = tuple(seat for seat, value in draws if value == best)
        if len(candidates) == 1:
            return candidates[0], tuple(rounds), source
    raise InvalidStateError(
        "OPEN-1", f"the lot tied {MAX_LOT_ROUNDS} times in a row: the random source does not draw uniformly"
    )


def check_source(source: object) -> RandomSource:
    """``source`` if it can serve as a :class:`RandomSource` (SETUP-5)."""
    if not callable(getattr(source, "below", None)):
        raise InvalidStateError("SETUP-5", f"a random source has a below(bound) method, got {described(source)}")
    return source  # type: ignore[return-value]  # checked structurally just above


def draw_below(source: RandomSource, bound: int) -> tuple[int, RandomSource]:
    """``source.below(bound)``, refusing an injected source's answer outside the protocol (SETUP-5)."""
    if type(source) is SplitMix64:
        return source.below(bound)
    # Checked here, so a value that is no source is refused (SETUP-5), not an AttributeError.
    # Any: an injected source may answer anything, and the compiled build would refuse a wrong answer
    # by its own TypeError before the checks below could name SETUP-5.
    below: Any = check_source(source).below
    drawn = below(bound)
    if type(drawn) is not tuple or len(drawn) != 2:
        raise InvalidStateError("SETUP-5", f"below({bound}) returns (value, next source), got {drawn!r:.200}")
    value, following = drawn
    if type(value) is not int or not 0 <= value < bound:
        raise InvalidStateError("SETUP-5", f"below({bound}) returned {value!r}, outside 0..{bound - 1}")
    return value, check_source(following)
