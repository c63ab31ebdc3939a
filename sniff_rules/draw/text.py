"""Pictures for a terminal: the layout, hands and scores as text (GEOM-1..6, TALLY-1).

Drawn from :func:`sniff_rules.draw.geometry.geometry`, two columns and one row
per unit, so tiles meet where their borders meet. Box-drawing characters
by default, plain ASCII with ``ascii=True``; the Sniff is drawn in heavy
lines (``#`` in ASCII). Each open point shows where a tile attached there
goes: ``(4)`` when the point is itself a counted contribution (the free
end of a non-double, an uncovered arm of the Sniff), ``( )`` when it is
not (a long side of a double, which counts as the whole double). Every
line fits ``width`` columns.

>>> print(layout_text(Layout.parse("[1|4] [1|1]>[1|4].low")))
    ┏━━━┓
    ┃ 1 ┣───────┐
 ( )┃╍╍╍┃ 1 ╎ 4 │(4)
    ┃ 1 ┣───────┘
    ┗━━━┛
end count 2 + 4 = 6, no points; Sniff [1|1]
open: [1|1].chain-b (1), [1|4].high (4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from sniff_rules.draw.geometry import Bounds, LayoutGeometry, geometry
from sniff_rules.draw.tally import paper_tally
from sniff_rules.errors import InvalidStateError, described
from sniff_rules.layout import Layout, Port
from sniff_rules.moves import Draw, Move, Place
from sniff_rules.play.view import MoveOption, SeatView
from sniff_rules.scoring import play_points
from sniff_rules.state import Phase, State
from sniff_rules.tiles import Tile

MIN_PICTURE_WIDTH: Final = 37
"""The narrowest width a layout is drawn in; narrower, its placements are listed instead."""

_N, _E, _S, _W = 1, 2, 4, 8
_LIGHT: Final = {
    _E | _W: "─", _N | _S: "│", _S | _E: "┌", _S | _W: "┐", _N | _E: "└", _N | _W: "┘",
    _N | _S | _E: "├", _N | _S | _W: "┤", _E | _W | _S: "┬", _E | _W | _N: "┴", 15: "┼",
    _E: "─", _W: "─", _N: "│", _S: "│",
}  # fmt: skip
_HEAVY: Final = {
    _E | _W: "━", _N | _S: "┃", _S | _E: "┏", _S | _W: "┓", _N | _E: "┗", _N | _W: "┛",
    _N | _S | _E: "┣", _N | _S | _W: "┫", _E | _W | _S: "┳", _E | _W | _N: "┻", 15: "╋",
    _E: "━", _W: "━", _N: "┃", _S: "┃",
}  # fmt: skip


def _ascii_char(mask: int, heavy: bool) -> str:
    if heavy:
        return "#"
    if mask in (_E | _W, _E, _W):
        return "-"
    if mask in (_N | _S, _N, _S):
        return "|"
    return "+"


def _check_width(width: object) -> int:
    if type(width) is not int or not 1 <= width <= 10_000:
        raise InvalidStateError("FORMAT-3", f"width is an int of 1..10000 columns, got {described(width, 40)}")
    return width


def _wrap(words: Sequence[str], width: int, indent: str = "  ") -> list[str]:
    """Words joined by spaces into lines of at most ``width`` columns, later lines indented."""
    lines: list[str] = []
    line = ""
    for word in words:
        candidate = word if not line else f"{line} {word}"
        if len(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = indent + word
    if line:
        lines.append(line)
    return [text[:width] for text in lines]


def _bounds_for(width: int) -> Bounds:
    # Two columns a unit; two more units each side for the open points' markers.
    return Bounds(max((width - 9) // 4, 9), None)


def _canvas(picture: LayoutGeometry, width: int, plain: bool) -> list[str]:
    tiles_box = (
        min(t.box[0] for t in picture.tiles),
        min(t.box[1] for t in picture.tiles),
        max(t.box[2] for t in picture.tiles),
        max(t.box[3] for t in picture.tiles),
    )
    left, top, right, bottom = picture.extent
    if 2 * (right - left) + 1 > width:
        left, top, right, bottom = tiles_box
    cols, rows = 2 * (right - left) + 1, bottom - top + 1
    lines = [0] * (cols * rows)
    heavy = [False] * (cols * rows)
    text: dict[int, str] = {}

    def mark(col: int, row: int, bits: int, thick: bool) -> None:
        lines[row * cols + col] |= bits
        heavy[row * cols + col] |= thick

    def edge(x0: int, y0: int, x1: int, y1: int, thick: bool) -> None:
        if y0 == y1:
            for col in range(2 * (x0 - left), 2 * (x1 - left)):
                mark(col, y0 - top, _E, thick)
                mark(col + 1, y0 - top, _W, thick)
        else:
            for row in range(y0 - top, y1 - top):
                mark(2 * (x0 - left), row, _S, thick)
                mark(2 * (x0 - left), row + 1, _N, thick)

    sniff = None
    for tile in picture.tiles:
        if tile.tile.is_double and sniff is None:
            sniff = tile.tile
    for tile in picture.tiles:
        x0, y0, x1, y1 = tile.box
        thick = tile.tile == sniff
        edge(x0, y0, x1, y0, thick)
        edge(x0, y1, x1, y1, thick)
        edge(x0, y0, x0, y1, thick)
        edge(x1, y0, x1, y1, thick)
        # The line between a tile's halves is dashed and joins no border, so that
        # where one tile ends and the next begins stays plain in a straight line.
        if tile.horizontal:
            text[(tile.y - top) * cols + 2 * (tile.x - left)] = ":" if plain else "╏" if thick else "╎"
        else:
            for col in range(2 * (x0 - left) + 1, 2 * (x1 - left)):
                text[(tile.y - top) * cols + col] = "." if plain else "╍" if thick else "╌"
        for hx, hy, pips in tile.halves:
            text[(hy - top) * cols + 2 * (hx - left)] = str(pips)
    for point in picture.points:
        sx, sy = point.spot
        col, row = 2 * (sx - left), sy - top
        if not (1 <= col < cols - 1 and 0 <= row < rows):
            continue
        counted = point.point.port in (Port.LOW, Port.HIGH, Port.ARM_A, Port.ARM_B)
        label = f"({point.point.value})" if counted else "( )"
        for offset, char in enumerate(label, start=-1):
            text[row * cols + col + offset] = char
    out = []
    for row in range(rows):
        chars = []
        for col in range(cols):
            index = row * cols + col
            if index in text:
                chars.append(text[index])
            elif lines[index]:
                table = _HEAVY if heavy[index] else _LIGHT
                chars.append(_ascii_char(lines[index], heavy[index]) if plain else table[lines[index]])
            else:
                chars.append(" ")
        out.append("".join(chars).rstrip())
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return out


def _count_line(layout: Layout) -> str:
    terms = [str(term.value) for term in layout.contributions]
    points = play_points(layout.end_count)
    scored = f"{points} points" if points else "no points"
    line = f"end count {' + '.join(terms)} = {layout.end_count}, {scored}"
    sniff = layout.sniff_tile
    return line + ("" if sniff is None else f"; Sniff {sniff}")


def layout_text(layout: Layout, *, width: int = 80, ascii: bool = False) -> str:  # noqa: A002 - the name of the option everywhere
    """``layout`` drawn for a terminal of ``width`` columns, with its end count and open points.

    >>> print(layout_text(Layout.EMPTY))
    the table is empty: the next tile is the lead
    """
    if type(layout) is not Layout:
        raise InvalidStateError("FORMAT-3", f"layout_text draws a Layout, got {described(layout, 200)}")
    return "\n".join(_layout_lines(layout, _check_width(width), ascii))


def _layout_lines(layout: Layout, width: int, plain: bool) -> list[str]:
    if layout.is_empty:
        return _wrap(["the table is empty: the next tile is the lead"], width)
    if width < MIN_PICTURE_WIDTH:
        picture = _wrap([str(placement) for placement in layout.placements], width)
    else:
        picture = _canvas(geometry(layout, bounds=_bounds_for(width)), width, plain)
    opened = [f"{point} ({point.value})," for point in layout.open_points]
    if opened:
        opened[-1] = opened[-1].rstrip(",")
    return [*picture, *_wrap(_count_line(layout).split(" "), width), *_wrap(["open:", *opened], width)]


_SYMBOL: Final = ("\u2572x\u2571", "x\u2573x", "\u2571x\u2572")
"""The 50-point symbol in box-drawing diagonals, row by row."""
_ASCII_SYMBOL: Final = ("\\x/", "xXx", "/x\\")


def tally_text(score: int, *, ascii: bool = False) -> str:  # noqa: A002 - the name of the option everywhere
    """``score`` as a paper tally drawn in three lines (TALLY-1): each 50-point
    symbol a large X with a small x in each of its four fields, then one
    stroke per 5 points; a negative score after a minus sign. 0 draws nothing.

    >>> print(tally_text(65, ascii=True))
    \\x/ |||
    xXx |||
    /x\\ |||
    """
    tally = paper_tally(score)
    symbol = _ASCII_SYMBOL if ascii else _SYMBOL
    rows = []
    for row in range(3):
        parts = [symbol[row]] * tally.fifty_symbols + (["|" * tally.strokes] if tally.strokes else [])
        sign = ("-" if row == 1 else " ") if tally.negative else ""
        rows.append((sign + " ".join(parts)).rstrip())
    return "\n".join(rows) if any(rows) else ""


def _tiles(tiles: Sequence[Tile]) -> list[str]:
    return [str(tile) for tile in tiles] or ["(none)"]


def _side_name(players: int, side: int) -> str:
    return f"seats {side} and {side + 2}" if players == 4 else f"seat {side}"


def _score_lines(scores: Sequence[int], players: int, width: int, plain: bool) -> list[str]:
    lines = []
    for side, score in enumerate(scores):
        lines += _wrap([f"{_side_name(players, side)}: {score} points"], width)
        drawn = tally_text(score, ascii=plain) if -1000 <= score <= 1000 else ""
        lines += [row[:width] for row in drawn.splitlines() if row]
    return lines


def text(subject: Layout | State | SeatView, *, width: int = 80, ascii: bool = False) -> str:  # noqa: A002 - the name of the option everywhere
    """A layout, a state or a seat's view drawn for a terminal of ``width`` columns.

    A state shows every hand; a seat's view its own hand and the others
    face down (SETUP-6). Scores come with their paper tallies (TALLY-1).

    >>> from sniff_rules import Rules, new_match
    >>> print(text(new_match(Rules.standard(2), seed=20), ascii=True))
    the table is empty: the next tile is the lead
    seat 0: [0|0] [0|2] [1|4] [2|6] [3|3] [3|6] [6|6]
    seat 1 (to move): [0|5] [0|6] [1|2] [1|5] [1|6] [2|4] [5|6]
    boneyard: 14 tiles
    seat 0: 0 points
    seat 1: 0 points
    """
    width = _check_width(width)
    if type(subject) is Layout:
        return layout_text(subject, width=width, ascii=ascii)
    if type(subject) is State:
        layout, rules, to_move, phase = subject.layout, subject.rules, subject.to_move, subject.phase
        hands: list[list[str]] = [_tiles(hand) for hand in subject.hands]
        boneyard, scores = len(subject.boneyard_ids), subject.scores
    elif type(subject) is SeatView:
        layout, rules, to_move, phase = subject.layout, subject.rules, subject.to_move, subject.phase
        back = "#" if ascii else "▮"
        revealed = subject.revealed_hands
        hands = [
            _tiles(revealed[seat])
            if revealed is not None
            else _tiles(subject.hand)
            if seat == subject.seat
            else [f"{subject.hand_sizes[seat]} face down", back * subject.hand_sizes[seat]]
            for seat in range(rules.players)
        ]
        boneyard, scores = subject.boneyard_size, subject.scores
    else:
        raise InvalidStateError("FORMAT-3", f"text draws a Layout, State or SeatView, got {described(subject, 200)}")
    lines = _layout_lines(layout, width, ascii)
    for seat, hand in enumerate(hands):
        mine = type(subject) is SeatView and seat == subject.seat
        label = (
            f"seat {seat}"
            + (" (you)" if mine else "")
            + (" (to move)" if seat == to_move and phase is Phase.PLAYING else "")
            + ":"
        )
        lines += _wrap([label, *hand], width)
    lines += _wrap([f"boneyard: {boneyard} tiles"], width)
    lines += _score_lines(scores, rules.players, width, ascii)
    return "\n".join(lines)


def move_text(move: Move) -> str:
    """``move`` as a person types it: ``[1|4]`` (a lead), ``[1|4] on [4|6].high``, ``draw``, ``pass``.

    >>> from sniff_rules import Rules, new_match, legal_moves
    >>> move_text(legal_moves(new_match(Rules.standard(2), seed=20))[0])
    '[0|5]'
    """
    if type(move) is Place:
        return str(move.tile) if move.target is None else f"{move.tile} on {move.target}"
    if type(move) is Draw:
        return "draw"
    return "pass"


def _option_columns(number: int, option: MoveOption, digits: int) -> tuple[str, str]:
    label = f"{number:>{digits}}. {move_text(option.move)}"
    if type(option.move) is not Place:
        return label, ""
    return label, f"count {option.end_count:>2}  +{option.points}"


def options_text(view: SeatView, *, width: int = 80) -> str:
    """The seat's legal moves (``view.options``), numbered from 1, each placement with
    the end count after it and the points it scores (COUNT-1..4, POINTS-1), in
    ``width`` columns: what a terminal frontend lists on the seat's turn. Empty
    when the seat is not to move.

    >>> from sniff_rules import Rules, new_match
    >>> from sniff_rules.play.events import Dealt
    >>> from sniff_rules.play.view import seat_view
    >>> state = new_match(Rules.standard(2), seed=20)
    >>> print(options_text(seat_view(state, 1, [Dealt.of(state)])))
    1. [0|5]  count  5  +5
    2. [0|6]  count  6  +0
    3. [1|2]  count  3  +0
    4. [1|5]  count  6  +0
    5. [1|6]  count  7  +0
    6. [2|4]  count  6  +0
    7. [5|6]  count 11  +0
    """
    width = _check_width(width)
    digits = len(str(len(view.options)))
    rows = [_option_columns(number, option, digits) for number, option in enumerate(view.options, 1)]
    if not rows:
        return ""
    column = max(len(label) for label, _ in rows) + 2
    lines = []
    for label, figures in rows:
        line = f"{label:<{column}}{figures}".rstrip()
        if len(line) > width:
            line = f"{label}: {figures}" if figures else label
        lines += _wrap(line.split(" "), width, " " * (digits + 2))
    return "\n".join(lines)
