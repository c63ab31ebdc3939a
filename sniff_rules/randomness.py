"""The injected random source: seeded, immutable, specified bit for bit.

Every random choice of a match — each round's shuffle and each opener lot
(SETUP-5, OPEN-1) — is drawn from a :class:`RandomSource` value that the
state carries and replaces, never from the global ``random`` module. The
default :class:`SplitMix64` is tiny and fully specified in
``specs/rules.md``, so an implementation in another language can reproduce
a seeded deal exactly; a frontend may inject its own source instead.
"""

from __future__ import annotations

from typing import Final, Protocol, TypeVar

import attrs

from sniff_rules.errors import InvalidStateError

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


@attrs.frozen
class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014) with rejection sampling.

    >>> value, source = SplitMix64.from_seed(7).below(6)
    >>> value, source
    (3, SplitMix64(state=11400714819323198492))
    """

    state: int = attrs.field()

    @state.validator
    def _check_state(self, _attribute: object, state: object) -> None:
        if type(state) is not int or not 0 <= state <= _MASK64:
            raise InvalidStateError("SETUP-5", "a SplitMix64 state is an integer in 0..2**64-1")

    @classmethod
    def from_seed(cls, seed: int) -> SplitMix64:
        """The source for an integer seed (any int; taken modulo 2**64)."""
        if type(seed) is not int:
            raise InvalidStateError("SETUP-5", f"a seed is an int, got {seed!r}")
        return cls(seed & _MASK64)

    def next64(self) -> tuple[int, SplitMix64]:
        """The next 64-bit output and the advanced source."""
        state = (self.state + _GOLDEN_GAMMA) & _MASK64
        return _mix(state), _advanced(state)

    def below(self, bound: int) -> tuple[int, SplitMix64]:
        """Uniform in ``range(bound)``: outputs under ``2**64 % bound`` are redrawn."""
        if bound < 1:
            raise InvalidStateError("SETUP-5", f"cannot draw below {bound}")
        threshold = _TWO_TO_64 % bound
        state = self.state
        while True:
            # next64 without a source per redraw: only the last state is kept.
            state = (state + _GOLDEN_GAMMA) & _MASK64
            value = _mix(state)
            if value >= threshold:
                return value % bound, _advanced(state)


_new_object: Final = object.__new__
_set_field: Final = object.__setattr__


def _advanced(state: int) -> SplitMix64:
    """``SplitMix64(state)`` for a state already masked to 64 bits.

    Skips the validator and attrs' __init__: every deal advances the source
    several times, and the masked state cannot fail the check.
    """
    source = _new_object(SplitMix64)
    _set_field(source, "state", state)
    return source


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
        packed, source = source.below(product)
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

LotRound = tuple[tuple[int, int], ...]
"""One round of a lot: ``(seat, drawn value)`` for each candidate, seat order."""


def draw_lot(
    candidates: tuple[int, ...], source: RandomSource
) -> tuple[int, tuple[LotRound, ...], RandomSource]:
    """The seat chosen by lot, every round drawn, and the next source (OPEN-1).

    Each candidate in seat order draws ``1 + source.below(6)``; the highest
    wins, and a tie is drawn again among the tied seats only.
    """
    rounds: list[LotRound] = []
    while True:
        draws = []
        for seat in candidates:
            value, source = source.below(LOT_FACES)
            draws.append((seat, value + 1))
        rounds.append(tuple(draws))
        best = max(value for _, value in draws)
        candidates = tuple(seat for seat, value in draws if value == best)
        if len(candidates) == 1:
            return candidates[0], tuple(rounds), source
