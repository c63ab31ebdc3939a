"""One error hierarchy: every refusal names the rule it enforces.

Each error carries ``rule``, a stable id from ``specs/rules.md``, so a
frontend can map a refusal to the rule text and a test can assert on it.
All errors are ``ValueError`` subclasses, as in python-chess.
"""

from __future__ import annotations

from typing import TypeVar


class SniffError(ValueError):
    """Base of every error this library raises on bad input.

    >>> err = SniffError("PLACE-1", "no open point has value 3")
    >>> err.rule
    'PLACE-1'
    >>> str(err)
    'PLACE-1: no open point has value 3'
    """

    rule: str

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


class IllegalMoveError(SniffError):
    """A well-formed move that the rules do not allow in the given state."""


class InvalidMoveError(SniffError):
    """A move, or a part of one, that is malformed whatever the state:
    a wrong type, a port a tile does not have, a point that does not exist.

    Told apart from :class:`IllegalMoveError`, as python-chess tells an
    invalid move from an illegal one.
    """


class InvalidTileError(SniffError):
    """A tile outside the double-six set, or not in canonical orientation."""


class InvalidRulesError(SniffError):
    """House rules that describe no game of American Sniff."""


class InvalidStateError(SniffError):
    """A state, deal or request that cannot arise in a legal match."""


class NotationError(SniffError):
    """Text or JSON that does not parse into the library's values (FORMAT-1, FORMAT-2)."""


_SHOWN_TYPES = (bool, int, float, str, bytes, type(None))
"""Values a refusal may quote: what a caller typed, never a game's hidden parts."""


def described(value: object, limit: int = 40) -> str:
    """``value`` as a refusal may show it: the repr of a plain scalar (cut to ``limit``
    characters), else only its type, and a sequence's length.

    A refusal is read by whoever sent the bad input, often a seat or a page: quoting a
    State, a deal, a record or a random source would show the hands, the boneyard's
    order or the source's state, so those are named by their type alone.

    >>> described(7), described("cheater"), described((1, 2, 3)), described(object())
    ('7', "'cheater'", 'a tuple of 3', 'an object')
    """
    if type(value) in _SHOWN_TYPES:
        return repr(value)[:limit]  # cut as an f-string's ``!r:.N`` cuts
    name = type(value).__name__
    article = "an" if name[:1].lower() in "aeiou" else "a"
    if isinstance(value, (tuple, list, set, frozenset, dict)):
        return f"{article} {name} of {len(value)}"
    return f"{article} {name}"


ErrorT = TypeVar("ErrorT", bound=BaseException)


def unchained(error: ErrorT) -> ErrorT:
    """``error``, to be raised as ``raise error from None`` raises it: with no cause and no context shown.

    The core raises through it because mypyc, compiling the core, ignores ``from None``.
    """
    error.__cause__ = None
    error.__suppress_context__ = True
    return error
