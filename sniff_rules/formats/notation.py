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
The JSON forms of whole states are in :mod:`sniff_rules.formats.state_json`.

What a person types is read against a position instead, by
:func:`parse_typed_move`: ``14``, ``[4|1]``, ``1-4 high``, ``14 on 46``,
``draw``, without the seat, gives the one legal move meant, or an error
listing the candidates.

>>> parse_move("1:[1|1]>[1|4].low")
Place(1, Tile(1, 1), AttachmentPoint(Tile(1, 4), Port.LOW))
>>> parse_point("[1|4].arm-a")
Traceback (most recent call last):
...
sniff_rules.errors.NotationError: FORMAT-1: a non-double like [1|4] has no arm-a port; it has low and high
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from sniff_rules.errors import IllegalMoveError, InvalidMoveError, NotationError, SniffError, described
from sniff_rules.layout import AttachmentPoint, Placement, Port
from sniff_rules.moves import Draw, Move, Pass, Place, apply, legal_moves
from sniff_rules.rules import MAX_PLAYERS
from sniff_rules.state import Phase, State
from sniff_rules.tiles import Tile

TEXT_RULE: Final = "FORMAT-1"
"""The rule every malformed text form breaks (specs/rules.md)."""

"""Seats a move may name: 0..3 (SETUP-2)."""

_PORT_BY_LABEL: Final = {port.label: port for port in Port}
_SINGLE_PORTS: Final = (Port.LOW, Port.HIGH)
# Anything in brackets is handed to parse_tile, so that a bad tile is refused as a tile.
_TILE_TEXT: Final = r"\[[^\]]*\]"
_POINT_TEXT: Final = re.compile(rf"\s*({_TILE_TEXT})\s*\.\s*([a-z-]+)\s*")
_PLACEMENT_TEXT: Final = re.compile(rf"\s*({_TILE_TEXT})\s*(?:>(.*))?", re.DOTALL)
_MOVE_TEXT: Final = re.compile(r"\s*([0-9]+)\s*:(.*)", re.DOTALL)
_SEAT_TEXTS: Final = frozenset(str(seat) for seat in range(MAX_PLAYERS))


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
        raise _refuse(f"{described(text, 60)} is not an attachment point; write it as [a|b].port, e.g. [1|4].high")
    tile = parse_tile(found.group(1))
    port = _PORT_BY_LABEL.get(found.group(2))
    if port is None:
        raise _refuse(f"{described(found.group(2), 40)} is not a port; ports are " + ", ".join(_PORT_BY_LABEL))
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
        raise _refuse(f"{described(text, 60)} is not a placement; write [a|b] or [a|b]>[c|d].port")
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
        raise _refuse(f"{described(text, 60)} is not a move; a move names its seat first, as in 0:draw")
    if found.group(1) not in _SEAT_TEXTS:
        raise _refuse(f"seats run 0..{MAX_PLAYERS - 1}, got {found.group(1):.10} in {described(text, 60)}")
    seat = int(found.group(1))
    body = found.group(2).strip()
    if body == "draw":
        return Draw(seat)
    if body == "pass":
        return Pass(seat)
    if not body.startswith("["):
        raise _refuse(f"{described(body, 40)} is not a move: a move is a placement, draw or pass")
    placement = parse_placement(body)
    return Place(seat, placement.tile, placement.target)


# ---------------------------------------------------------------- moves as people type them


class AmbiguousMoveError(NotationError):
    """Typed text that names more than one legal move; ``candidates`` holds them (FORMAT-1)."""

    candidates: tuple[Move, ...]

    def __init__(self, rule: str, message: str, candidates: tuple[Move, ...]) -> None:
        super().__init__(rule, message)
        self.candidates = candidates


class UnmatchedMoveError(IllegalMoveError):
    """Typed text that names no legal move; ``candidates`` holds the legal moves nearest to it.

    ``rule`` is the rule that forbids the move meant (PLACE-1, PLACE-3,
    DRAW-1, DRAW-2, PASS-1, TURN-2, END-1, MATCH-2).
    """

    candidates: tuple[Move, ...]

    def __init__(self, rule: str, message: str, candidates: tuple[Move, ...]) -> None:
        super().__init__(rule, message)
        self.candidates = candidates


def _typed_tile(name: str) -> str:
    """A tile as typed: ``[1|4]``, ``[4-1]``, ``1|4``, ``1-4``, ``1/4`` or ``14``."""
    return (
        rf"(?:\[\s*(?P<{name}1>[0-6])\s*[|/-]?\s*(?P<{name}2>[0-6])\s*\]"
        rf"|(?P<{name}3>[0-6])(?:\s*[|/-]\s*)?(?P<{name}4>[0-6]))"
    )


_TYPED_PORT: Final = r"low|high|chain[ -]?[ab]|arm[ -]?[ab]"
_TYPED_PLACEMENT: Final = re.compile(
    _typed_tile("tile")
    + r"(?:\s*(?:>|\s(?:on|at|to)\s)\s*(?:"
    + _typed_tile("onto")
    + rf"|(?P<value>[0-6]))(?:\s*\.?\s*(?P<onto_port>{_TYPED_PORT}))?"
    + rf"|\s+(?P<port>{_TYPED_PORT}))?"
)
_TYPED_SEATED: Final = re.compile(r"[0-9]+\s*:.*", re.DOTALL)
_PORT_OF_TYPED: Final = {port.label.replace("-", ""): port for port in Port}


def _pips(found: re.Match[str], name: str) -> Tile | None:
    halves = [found.group(f"{name}{n}") for n in range(1, 5)]
    given = [int(half) for half in halves if half is not None]
    return Tile.of(given[0], given[1]) if given else None


def _typed_form(move: Move) -> str:
    """How a move is typed: its placement (``[1|1]>[1|4].low``), ``draw`` or ``pass``."""
    if type(move) is Place:
        return str(Placement(move.tile, move.target))
    return "draw" if type(move) is Draw else "pass"


def _forms(moves: Sequence[Move]) -> str:
    return ", ".join(map(_typed_form, moves)) or "none"


def parse_typed_move(text: str, position: State | Sequence[Move]) -> Move:
    """The one legal move that ``text``, as a person types it, names in ``position``.

    ``position`` is a state or its legal moves (a seat's view lists them).
    Typed forms, without the seat, case and spaces free:

    - ``draw``, ``pass``;
    - a tile: ``14``, ``1-4``, ``1|4``, ``1/4``, ``[1|4]``, either half first;
      alone it names its one legal placement (or the lead);
    - a tile and where: ``>`` or ``on``, ``at``, ``to``, then the target
      tile (``14 on 46``, ``[1|4]>[4|6]``) or an open value (``14 on 4``),
      either followed by a port (``[1|4]>[4|6].high``, ``14 on 46 high``);
    - a tile and a port alone: ``1-4 high``, the point of that port;
    - a move as :func:`parse_move` reads it (``0:[1|4]``), seat included.

    Text of no such form raises :class:`~sniff_rules.errors.NotationError`
    (FORMAT-1), as does a port the named tile does not have; text naming
    several legal moves :class:`AmbiguousMoveError` (FORMAT-1); text naming
    none :class:`UnmatchedMoveError`, an :class:`IllegalMoveError` citing
    the rule against the move meant. Both list their candidates. Given a
    state, that rule is the one :func:`~sniff_rules.moves.apply` would
    cite; given only the moves, it is read from them: PLACE-1 for a
    placement, DRAW-1 or DRAW-2 for a draw, PASS-1 for a pass, TURN-2 when
    no move is legal. A number picking from a numbered list is for the
    frontend to read, not this function.

    >>> from sniff_rules import Rules, State
    >>> state = State.create(rules=Rules.standard(2), hands=("[1|4] [4|4]", "[0|3]"), boneyard="[2|6]",
    ...                      layout="[3|4]")
    >>> parse_typed_move("44", state), parse_typed_move("[4|1]", state)
    (Place(0, Tile(4, 4), AttachmentPoint(Tile(3, 4), Port.HIGH)), Place(0, Tile(1, 4), AttachmentPoint(Tile(3, 4), \
Port.HIGH)))
    >>> parse_typed_move("draw", state)
    Traceback (most recent call last):
    ...
    sniff_rules.formats.notation.UnmatchedMoveError: DRAW-1: 'draw': seat 0 can place a tile and must place \
rather than draw; legal: [1|4]>[3|4].high, [4|4]>[3|4].high
    """
    if type(position) is State:
        state: State | None = position
        legal = legal_moves(position)
    elif isinstance(position, (tuple, list)) and all(type(move) in (Place, Draw, Pass) for move in position):
        state, legal = None, tuple(position)
    else:
        raise InvalidMoveError(
            "FORMAT-3", f"a typed move is read against a State or its legal moves, got {described(position, 200)}"
        )
    if not isinstance(text, str):
        raise _refuse(f"a typed move is text, got {type(text).__name__}")
    typed = " ".join(text.lower().split())
    if _TYPED_SEATED.fullmatch(typed):
        move = parse_move(typed)
        if move in legal:
            return move
        raise _unmatched(text, move, legal, state, legal)
    if typed in ("draw", "pass"):
        wanted = Draw if typed == "draw" else Pass
        found = tuple(move for move in legal if type(move) is wanted)
        if found:
            return found[0]
        seat = state.to_move if state is not None else legal[0].seat if legal else 0
        raise _unmatched(text, wanted(seat), legal, state, legal)
    return _typed_placement(text, typed, legal, state)


def _typed_placement(text: str, typed: str, legal: tuple[Move, ...], state: State | None) -> Move:
    found = _TYPED_PLACEMENT.fullmatch(typed)
    if found is None:
        raise _refuse(f"{described(text, 60)} is not a move; type a tile such as 14 or [1|4]>[4|6].high, draw or pass")
    tile = _pips(found, "tile")
    assert tile is not None
    onto = _pips(found, "onto")
    value = None if found.group("value") is None else int(found.group("value"))
    label = found.group("onto_port") or found.group("port")
    port = None if label is None else _PORT_OF_TYPED[label.replace(" ", "").replace("-", "")]
    point = None
    if onto is not None and port is not None:
        point = parse_point(f"{onto}.{port.label}")
    places = [move for move in legal if type(move) is Place and move.tile == tile]
    fits = [
        move
        for move in places
        if (onto is None or (move.target is not None and move.target.tile == onto))
        and (value is None or (move.target is not None and move.target.value == value))
        and (port is None or (move.target is not None and move.target.port == port))
    ]
    if len(fits) == 1:
        return fits[0]
    if fits:
        raise AmbiguousMoveError(
            TEXT_RULE,
            f""
            f"{described(text, 60)} names {len(fits)} legal moves: {_forms(fits)}; "
            f"name the point, as in {_typed_form(fits[0])}",
            tuple(fits),
        )
    seat = state.to_move if state is not None else legal[0].seat if legal else 0
    meant: Move | None = None
    if point is not None:
        meant = Place(seat, tile, point)
    elif onto is None and value is None and port is None and state is not None and state.layout.is_empty:
        meant = Place(seat, tile)
    parts = [
        port.label if port else "",
        "point",
        f"of {onto}" if onto else "",
        "" if value is None else f"of value {value}",
    ]
    where = f"{tile} attaches to no open {' '.join(part for part in parts if part)}"
    raise _unmatched(text, meant, legal, state, tuple(places) or legal, tile, where)


def _unmatched(
    text: str,
    meant: Move | None,
    legal: tuple[Move, ...],
    state: State | None,
    candidates: tuple[Move, ...],
    tile: Tile | None = None,
    where: str = "",
) -> UnmatchedMoveError:
    """The refusal of typed ``text``, meaning ``meant`` (None: a placement of ``tile`` not pinned to a point)."""
    listed = f"; legal: {_forms(legal)}"
    if state is not None:
        rule, reason = _refusal_in(state, meant, tile, where)
    elif not legal:
        rule, reason = "TURN-2", "no move is legal now"
    elif meant is not None and legal[0].seat != meant.seat:
        rule, reason = "TURN-2", f"seat {meant.seat} moved, but the legal moves are seat {legal[0].seat}'s"
    elif type(meant) is Draw:
        rule = "DRAW-1" if any(type(move) is Place for move in legal) else "DRAW-2"
        reason = "a placement is legal, so drawing is not" if rule == "DRAW-1" else "the boneyard is empty"
    elif type(meant) is Pass:
        rule, reason = "PASS-1", "a pass is only for a seat that can neither place nor draw"
    else:
        rule, reason = "PLACE-1", where or f"{meant} is not legal"
    return UnmatchedMoveError(rule, f"{described(text.strip(), 60)}: {reason}{listed}", candidates)


def _refusal_in(state: State, meant: Move | None, tile: Tile | None, where: str) -> tuple[str, str]:
    """The rule, and its reason, against ``meant`` in ``state``, as :func:`apply` gives it where it can."""
    if meant is not None:
        try:
            apply(state, meant)
        except SniffError as err:
            return err.rule, _message(err)
    seat = state.to_move
    if state.phase is not Phase.PLAYING:
        try:
            apply(state, Pass(seat))
        except SniffError as err:
            return err.rule, _message(err)
    if tile is None:
        return "TURN-1", "no legal move matches it"
    layout = state.layout
    # A placement of the tile anywhere: apply cites a tile not held (PLACE-3) or
    # a drawn tile waiting (DRAW-2) before looking at the table, in its own order.
    probe = Place(seat, tile, None if layout.is_empty else layout.open_points[0])
    try:
        apply(state, probe)
    except IllegalMoveError as err:
        if err.rule in ("PLACE-3", "DRAW-2"):
            return err.rule, _message(err)
    if layout.is_empty:
        return "OPEN-3", f"nothing is on the table: {tile} is led, not attached"
    return "PLACE-1", where
