"""Text forms of tiles, attachment points, placements and moves (FORMAT-1).

Every form round-trips: ``parse_x(str(x)) == x``.

========================  =====================================
value                     text
========================  =====================================
tile                      ``[1|4]`` (low half first)
attachment point          ``[1|4].high``, ``[1|1].arm-a`` (:attr:`Port.label`)
placement in a layout     ``[1|4]`` (the lead), ``[1|1]>[1|4].low``
move                      ``0:[1|4]`` (lead), ``1:[1|1]>[1|4].low``,
                          ``2:draw``, ``3:pass`` (as ``str(move)``)
========================  =====================================

Text that is not one of these forms raises
:class:`~sniff_rules.errors.NotationError` citing FORMAT-1; whether a
well-formed move is legal is for :func:`~sniff_rules.moves.apply` to say.
The JSON forms of whole states are in :mod:`sniff_rules.codec`.

>>> parse_move("1:[1|1]>[1|4].low")
Place(1, Tile(1, 1), AttachmentPoint(Tile(1, 4), Port.LOW))
>>> parse_point("[1|4].arm-a")
Traceback (most recent call last):
...
sniff_rules.errors.NotationError: FORMAT-1: a non-double like [1|4] has no arm-a port; it has low and high
"""

from __future__ import annotations

import re
from typing import Final

from sniff_rules.errors import NotationError, SniffError
from sniff_rules.layout import AttachmentPoint, Placement, Port
from sniff_rules.moves import Draw, Move, Pass, Place
from sniff_rules.rules import STANDARD_HAND_SIZE
from sniff_rules.tiles import Tile

TEXT_RULE: Final = "FORMAT-1"
"""The rule every malformed text form breaks (specs/rules.md)."""

MAX_SEATS: Final = max(STANDARD_HAND_SIZE)
"""Seats a move may name: 0..3 (SETUP-2)."""

_PORT_BY_LABEL: Final = {port.label: port for port in Port}
_SINGLE_PORTS: Final = (Port.LOW, Port.HIGH)
# Anything in brackets is handed to parse_tile, so that a bad tile is refused as a tile.
_TILE_TEXT: Final = r"\[[^\]]*\]"
_POINT_TEXT: Final = re.compile(rf"\s*({_TILE_TEXT})\s*\.\s*([a-z-]+)\s*")
_PLACEMENT_TEXT: Final = re.compile(rf"\s*({_TILE_TEXT})\s*(?:>(.*))?", re.DOTALL)
_MOVE_TEXT: Final = re.compile(r"\s*([0-9]+)\s*:(.*)", re.DOTALL)
_SEAT_TEXTS: Final = frozenset(str(seat) for seat in range(MAX_SEATS))


def _refuse(message: str) -> NotationError:
    return NotationError(TEXT_RULE, message)


def _message(err: SniffError) -> str:
    """An error's text without its ``RULE: `` prefix, to re-raise it under another rule."""
    text = str(err)
    prefix = f"{err.rule}: "
    return text[len(prefix) :] if text.startswith(prefix) else text


def parse_tile(text: str) -> Tile:
    """Read a tile, ``[a|b]`` with pips 0..6 (FORMAT-1); the inverse of ``str(tile)``.

    The halves may come in either order and spaces are allowed around them.

    >>> parse_tile("[1|4]"), parse_tile("[ 6 | 3 ]")
    (Tile(1, 4), Tile(3, 6))
    >>> parse_tile("[1|7]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sniff_rules.errors.NotationError: FORMAT-1: ...
    """
    if not isinstance(text, str):
        raise _refuse(f"a tile is written as text [a|b], got {type(text).__name__}")
    try:
        return Tile.parse(text)
    except SniffError as err:
        raise _refuse(_message(err)) from None


def parse_point(text: str) -> AttachmentPoint:
    """Read an attachment point, ``[1|4].high`` or ``[1|1].arm-a`` (FORMAT-1).

    A non-double has the ports ``low`` and ``high``; a double ``chain-a``,
    ``chain-b``, ``arm-a`` and ``arm-b`` (whether a double is the Sniff, whose
    arms are open, depends on the layout).

    >>> parse_point("[1|1].arm-a")
    AttachmentPoint(Tile(1, 1), Port.ARM_A)
    """
    if not isinstance(text, str):
        raise _refuse(f"an attachment point is written as text, got {type(text).__name__}")
    found = _POINT_TEXT.fullmatch(text)
    if found is None:
        raise _refuse(f"{text!r:.60} is not an attachment point; write it as [a|b].port, e.g. [1|4].high")
    tile = parse_tile(found.group(1))
    port = _PORT_BY_LABEL.get(found.group(2))
    if port is None:
        raise _refuse(f"{found.group(2)!r:.40} is not a port; ports are " + ", ".join(_PORT_BY_LABEL))
    if tile.is_double == (port in _SINGLE_PORTS):
        kind, has = (
            ("double", "chain-a, chain-b, arm-a and arm-b") if tile.is_double else ("non-double", "low and high")
        )
        raise _refuse(f"a {kind} like {tile} has no {port.label} port; it has {has}")
    return AttachmentPoint(tile, port)


def parse_placement(text: str) -> Placement:
    """Read a placement of a layout, ``[1|4]`` (the lead) or ``[1|1]>[1|4].low`` (FORMAT-1).

    The inverse of ``str(placement)``.

    >>> parse_placement("[1|1]>[1|4].low")
    Placement(Tile(1, 1), AttachmentPoint(Tile(1, 4), Port.LOW))
    """
    if not isinstance(text, str):
        raise _refuse(f"a placement is written as text, got {type(text).__name__}")
    found = _PLACEMENT_TEXT.fullmatch(text)
    if found is None:
        raise _refuse(f"{text!r:.60} is not a placement; write [a|b] or [a|b]>[c|d].port")
    tile = parse_tile(found.group(1))
    target = None if found.group(2) is None else parse_point(found.group(2))
    return Placement(tile, target)


def parse_move(text: str) -> Move:
    """Read a move as ``str(move)`` prints it (FORMAT-1).

    ``0:[1|4]`` (a lead), ``1:[1|1]>[1|4].low`` (a placement), ``2:draw``,
    ``3:pass``; the number is the seat making the move, 0..3. Whether the
    move is legal in a position is for :func:`~sniff_rules.moves.apply`.

    >>> parse_move("2:draw"), parse_move("3:pass"), parse_move("0:[1|4]")
    (Draw(2), Pass(3), Place(0, Tile(1, 4)))
    >>> parse_move("0:fold")
    Traceback (most recent call last):
    ...
    sniff_rules.errors.NotationError: FORMAT-1: 'fold' is not a move: a move is a placement, draw or pass
    """
    if not isinstance(text, str):
        raise _refuse(f"a move is written as text, got {type(text).__name__}")
    found = _MOVE_TEXT.fullmatch(text)
    if found is None:
        raise _refuse(f"{text!r:.60} is not a move; a move names its seat first, as in 0:draw")
    if found.group(1) not in _SEAT_TEXTS:
        raise _refuse(f"seats run 0..{MAX_SEATS - 1}, got {found.group(1):.10} in {text!r:.60}")
    seat = int(found.group(1))
    body = found.group(2).strip()
    if body == "draw":
        return Draw(seat)
    if body == "pass":
        return Pass(seat)
    if not body.startswith("["):
        raise _refuse(f"{body!r:.40} is not a move: a move is a placement, draw or pass")
    placement = parse_placement(body)
    return Place(seat, placement.tile, placement.target)
