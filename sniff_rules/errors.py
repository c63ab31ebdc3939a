"""One error hierarchy: every refusal names the rule it enforces.

Each error carries ``rule``, a stable id from ``specs/rules.md``, so a
frontend can map a refusal to the rule text and a test can assert on it.
All errors are ``ValueError`` subclasses, as in python-chess.
"""

from __future__ import annotations


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
