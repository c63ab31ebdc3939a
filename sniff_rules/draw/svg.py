"""Pictures for pages and notebooks: a layout, a state or a seat's view as SVG (GEOM-1..6, TALLY-1).

In the spirit of ``chess.svg.board``: :func:`svg` draws from
:func:`sniff_rules.draw.geometry.geometry` with real pips, doubles crosswise,
the Sniff outlined, and the seed's markers: a **filled number** is a
counted contribution (a free end, an uncovered arm of the Sniff, or a
double with a free long side, whose number sits on it), an **empty
point** a place to attach that is not counted on its own. The last
placement is highlighted and, given ``targets_of``, the points where that
tile may go are ringed. A state draws every hand face up; a seat's view
its own hand face up and the others face down (SETUP-6). The text is
self-contained XML: no script, no external font or image.

So that a page can make the picture clickable without reading it again,
each open point's marker is ``class="sniff-point" data-point="[1|4].high"``,
each tile on the table ``class="sniff-tile" data-tile="[1|4]"``, and each
face-up tile of a hand ``class="sniff-hand-tile" data-tile="[1|4]"``
(with ``data-seat``).

>>> picture = svg(Layout.parse("[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b"))
>>> picture.count('class="sniff-point'), picture.count('data-tile="[5|5]"')
(4, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from sniff_rules.draw.geometry import Bounds, Direction, LayoutGeometry, TileGeometry, geometry
from sniff_rules.draw.tally import paper_tally
from sniff_rules.errors import InvalidStateError, described
from sniff_rules.layout import Layout, Placement, Port
from sniff_rules.play.view import SeatView
from sniff_rules.state import Phase, State
from sniff_rules.tiles import Tile

DEFAULT_COLORS: Final[Mapping[str, str]] = {
    "background": "#1f5e3a",
    "tile": "#fbf7ea",
    "edge": "#2b2b2b",
    "pip": "#1b1b1b",
    "sniff": "#f28c28",
    "counted": "#1565c0",
    "counted_text": "#ffffff",
    "point": "#e3f2fd",
    "last": "#ffd54f",
    "target": "#00e676",
    "back": "#5d4037",
    "text": "#ffffff",
}
"""The colour of each part; ``svg(colors=...)`` overrides any of them by name."""

DEFAULT_BOUNDS: Final = Bounds.fitting()
"""The bounds lines fold within in a picture (GEOM-5): about five tiles each way from the centre."""

SCALE: Final = 10
"""Drawing units per grid unit (GEOM-1)."""


class _LastPlacement:
    """The default of ``last``: the layout's last placement."""

    def __repr__(self) -> str:
        return "LAST_PLACEMENT"


LAST_PLACEMENT: Final = _LastPlacement()

# Pip centres in a half 2 units square, in tenths of a unit from its centre; a horizontal half turns them.
_PIPS: Final[tuple[tuple[tuple[int, int], ...], ...]] = (
    (),
    ((0, 0),),
    ((-5, -5), (5, 5)),
    ((-5, -5), (0, 0), (5, 5)),
    ((-5, -5), (5, -5), (-5, 5), (5, 5)),
    ((-5, -5), (5, -5), (0, 0), (-5, 5), (5, 5)),
    ((-5, -5), (5, -5), (-5, 0), (5, 0), (-5, 5), (5, 5)),
)
_PIP_RADIUS: Final = 1.7


def _check_colors(colors: Mapping[str, str] | None) -> Mapping[str, str]:
    if colors is None:
        return DEFAULT_COLORS
    if not isinstance(colors, Mapping):
        raise InvalidStateError(
            "FORMAT-3", f"colors is a mapping of part names to colours, got {described(colors, 100)}"
        )
    unknown = sorted(set(colors) - set(DEFAULT_COLORS))
    if unknown:
        raise InvalidStateError(
            "FORMAT-3", f"no part is named {described(unknown[0], 40)}; parts: {', '.join(DEFAULT_COLORS)}"
        )
    for name, value in colors.items():
        if not isinstance(value, str) or not value or any(char in value for char in "<>&\"'"):
            raise InvalidStateError(
                "FORMAT-3", f"the colour of {name} is a CSS colour text, got {described(value, 40)}"
            )
    return {**DEFAULT_COLORS, **colors}


def _tile_svg(
    out: list[str], tile: TileGeometry, colors: Mapping[str, str], classes: str, extra: str, origin: tuple[int, int]
) -> None:
    """One tile drawn with its top-left corner offset by ``origin`` units."""
    left, top, right, bottom = tile.box
    ox, oy = origin
    x, y = (left - ox) * SCALE, (top - oy) * SCALE
    w, h = (right - left) * SCALE, (bottom - top) * SCALE
    out.append(f'<g class="{classes}" data-tile="{tile.tile}"{extra}>')
    out.append(
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="2.5" fill="{colors["tile"]}" '
        f'stroke="{colors["edge"]}" stroke-width="1"/>'
    )
    if tile.horizontal:
        out.append(
            f'<line x1="{x + w // 2}" y1="{y + 3}" x2="{x + w // 2}" y2="{y + h - 3}" stroke="{colors["edge"]}"/>'
        )
    else:
        out.append(
            f'<line x1="{x + 3}" y1="{y + h // 2}" x2="{x + w - 3}" y2="{y + h // 2}" stroke="{colors["edge"]}"/>'
        )
    for hx, hy, pips in tile.halves:
        cx, cy = (hx - ox) * SCALE, (hy - oy) * SCALE
        for px, py in _PIPS[pips]:
            if tile.horizontal:
                px, py = py, -px
            out.append(
                f'<circle cx="{cx + px * 0.9:g}" cy="{cy + py * 0.9:g}" r="{_PIP_RADIUS}" fill="{colors["pip"]}"/>'
            )
    out.append("</g>")


def _badge(out: list[str], x: float, y: float, value: int, colors: Mapping[str, str]) -> None:
    # Two digits (a double's 10 or 12) get a smaller type, so that they stay inside the badge.
    size = 10 if value < 10 else 8
    out.append(f'<circle cx="{x:g}" cy="{y:g}" r="6" fill="{colors["counted"]}" stroke="{colors["counted_text"]}"/>')
    out.append(
        f'<text x="{x:g}" y="{y + size * 0.35:g}" font-family="sans-serif" font-size="{size}" font-weight="bold" '
        f'text-anchor="middle" fill="{colors["counted_text"]}">{value}</text>'
    )


_DOUBLE_BADGE_ACROSS: Final = 0.7
"""The counted double's badge across the line between its halves, in units: the pips of a half
keep 0.38 units clear of that line (``_PIPS``, ``_PIP_RADIUS``), so the badge covers none."""


def _double_badge(
    out: list[str], x: float, y: float, halves_side_by_side: bool, value: int, colors: Mapping[str, str]
) -> None:
    # COUNT-2's number sits on the double, along the line between its halves, so that no pip is hidden.
    across, along = _DOUBLE_BADGE_ACROSS * SCALE, 1.6 * SCALE
    w, h = (across, along) if halves_side_by_side else (along, across)
    size = 6 if value >= 10 else 7
    out.append(
        f'<rect x="{x - w / 2:g}" y="{y - h / 2:g}" width="{w:g}" height="{h:g}" rx="{across / 2:g}" '
        f'fill="{colors["counted"]}" stroke="{colors["counted_text"]}" stroke-width="0.6"/>'
    )
    out.append(
        f'<text x="{x:g}" y="{y + size * 0.35:g}" font-family="sans-serif" font-size="{size}" font-weight="bold" '
        f'text-anchor="middle" fill="{colors["counted_text"]}">{value}</text>'
    )


def _layout_svg(
    out: list[str],
    layout: Layout,
    picture: LayoutGeometry,
    colors: Mapping[str, str],
    origin: tuple[int, int],
    last: Tile | None,
    targets_of: Tile | None,
) -> None:
    ox, oy = origin
    sniff = layout.sniff_tile
    start = len(out)
    for tile in picture.tiles:
        classes = "sniff-tile"
        if tile.tile == sniff:
            classes += " sniff-sniff"
        if tile.tile == last:
            classes += " sniff-last"
            left, top, right, bottom = tile.box
            # Drawn first, under every tile, so that it never covers the Sniff's outline.
            out.insert(
                start,
                f'<rect x="{(left - ox) * SCALE - 3}" y="{(top - oy) * SCALE - 3}" '
                f'width="{(right - left) * SCALE + 6}" height="{(bottom - top) * SCALE + 6}" rx="4" '
                f'fill="{colors["last"]}" class="sniff-last-mark"/>',
            )
        _tile_svg(out, tile, colors, classes, "", origin)
        if tile.tile == sniff:
            left, top, right, bottom = tile.box
            out.append(
                f'<rect x="{(left - ox) * SCALE - 1.5}" y="{(top - oy) * SCALE - 1.5}" '
                f'width="{(right - left) * SCALE + 3}" height="{(bottom - top) * SCALE + 3}" rx="3.5" fill="none" '
                f'stroke="{colors["sniff"]}" stroke-width="3" class="sniff-sniff-outline"/>'
            )
    open_sides = {point.tile for point in layout.open_points if point.port in (Port.CHAIN_A, Port.CHAIN_B)}
    for tile in picture.tiles:
        if tile.tile in open_sides:
            # COUNT-2: a double with a free long side counts both halves, once: its number sits on it.
            x, y = (tile.x - ox) * SCALE, (tile.y - oy) * SCALE
            out.append('<g class="sniff-counted-double" data-tile="' + str(tile.tile) + '">')
            _double_badge(out, x, y, tile.horizontal, 2 * tile.tile.low, colors)
            out.append("</g>")
    for point in picture.points:
        sx, sy = point.spot
        x, y = (sx - ox) * SCALE, (sy - oy) * SCALE
        counted = point.point.port in (Port.LOW, Port.HIGH, Port.ARM_A, Port.ARM_B)
        fits = targets_of is not None and point.point.value in (targets_of.low, targets_of.high)
        classes = "sniff-point" + (" sniff-counted" if counted else "") + (" sniff-target" if fits else "")
        out.append(f'<g class="{classes}" data-point="{point.point}">')
        if fits:
            out.append(f'<circle cx="{x}" cy="{y}" r="9" fill="none" stroke="{colors["target"]}" stroke-width="2.5"/>')
        if counted:
            _badge(out, x, y, point.point.value, colors)
        else:
            out.append(
                f'<circle cx="{x}" cy="{y}" r="6" fill="none" stroke="{colors["point"]}" stroke-width="1.5" '
                'stroke-dasharray="3 2"/>'
            )
        out.append("</g>")


def _tally_parts(out: list[str], score: int, x: float, y: float, color: str) -> float:
    """The tally of ``score`` drawn from ``(x, y)``, 20 units high; its width."""
    tally = paper_tally(score)
    start = x
    stroke = f'stroke="{color}" stroke-width="1.6" stroke-linecap="round"'
    small = f'stroke="{color}" stroke-width="1.1" stroke-linecap="round"'
    if tally.negative:
        out.append(f'<line x1="{x:g}" y1="{y + 10:g}" x2="{x + 6:g}" y2="{y + 10:g}" {stroke}/>')
        x += 10
    for _ in range(tally.fifty_symbols):
        # TALLY-1: a large X, and a small x in each of its four fields.
        out.append(f'<line x1="{x:g}" y1="{y:g}" x2="{x + 24:g}" y2="{y + 20:g}" {stroke}/>')
        out.append(f'<line x1="{x + 24:g}" y1="{y:g}" x2="{x:g}" y2="{y + 20:g}" {stroke}/>')
        for fx, fy in ((12, 2.6), (21.4, 10), (12, 17.4), (2.6, 10)):
            cx, cy = x + fx, y + fy
            out.append(f'<line x1="{cx - 1.6:g}" y1="{cy - 1.6:g}" x2="{cx + 1.6:g}" y2="{cy + 1.6:g}" {small}/>')
            out.append(f'<line x1="{cx + 1.6:g}" y1="{cy - 1.6:g}" x2="{cx - 1.6:g}" y2="{cy + 1.6:g}" {small}/>')
        x += 30
    for _ in range(tally.strokes):
        out.append(f'<line x1="{x + 1:g}" y1="{y + 2:g}" x2="{x + 1:g}" y2="{y + 18:g}" {stroke}/>')
        x += 5
    return x - start


def tally_svg(score: int, *, color: str = "#1b1b1b") -> str:
    """``score`` as a paper tally (TALLY-1), as a self-contained SVG picture.

    >>> picture = tally_svg(135)
    >>> picture.count("<line"), picture.startswith("<svg")
    (27, True)
    """
    _check_colors({"text": color})
    parts: list[str] = []
    width = _tally_parts(parts, score, 4, 4, color)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="sniff-tally" width="{width + 8:g}" height="28" '
        f'viewBox="0 0 {width + 8:g} 28"><title>{score} points</title>' + "".join(parts) + "</svg>"
    )


def _hand_row(
    out: list[str],
    tiles: Sequence[Tile] | int,
    seat: int,
    y: int,
    colors: Mapping[str, str],
) -> None:
    """A hand on one row from unit x = 0: face up when given as tiles, else that many backs (SETUP-6)."""
    if isinstance(tiles, int):
        for number in range(tiles):
            x = (number * 5) * SCALE
            out.append(
                f'<rect class="sniff-hidden-tile" data-seat="{seat}" x="{x}" y="{y * SCALE}" width="{4 * SCALE}" '
                f'height="{2 * SCALE}" rx="2.5" fill="{colors["back"]}" stroke="{colors["edge"]}"/>'
            )
        return
    for number, tile in enumerate(tiles):
        placed = TileGeometry(tile, number * 5 + 2, y + 1, "horizontal", (tile.low, tile.high), _EAST)
        _tile_svg(out, placed, colors, "sniff-hand-tile", f' data-seat="{seat}"', (0, 0))


def _text(
    out: list[str], x: float, y: float, words: str, colors: Mapping[str, str], size: int = 11, anchor: str = "start"
) -> None:
    out.append(
        f'<text x="{x:g}" y="{y:g}" font-family="sans-serif" font-size="{size}" text-anchor="{anchor}" '
        f'fill="{colors["text"]}">{words}</text>'
    )


_EAST: Final = Direction.EAST


def svg(
    subject: Layout | State | SeatView,
    *,
    size: int = 480,
    colors: Mapping[str, str] | None = None,
    last: Placement | _LastPlacement | None = LAST_PLACEMENT,
    targets_of: Tile | None = None,
    bounds: Bounds | None = DEFAULT_BOUNDS,
) -> str:
    """``subject`` drawn as SVG ``size`` pixels wide.

    ``last`` is the placement highlighted: by default the layout's last,
    None for none. ``targets_of`` rings the open points whose value that
    tile shows, where it would attach; whether the tile may be played now
    (held, its seat's turn) is the caller's to say, from the legal moves.
    ``bounds`` are those the lines fold within (GEOM-5).
    """
    if type(size) is not int or not 16 <= size <= 10_000:
        raise InvalidStateError("FORMAT-3", f"size is an int of 16..10000 pixels, got {described(size, 40)}")
    palette = _check_colors(colors)
    if targets_of is not None and not isinstance(targets_of, Tile):
        raise InvalidStateError("FORMAT-3", f"targets_of is a Tile or None, got {described(targets_of, 100)}")
    if type(subject) is Layout:
        layout = subject
    elif type(subject) in (State, SeatView):
        layout = subject.layout
    else:
        raise InvalidStateError("FORMAT-3", f"svg draws a Layout, State or SeatView, got {described(subject, 200)}")
    if last is LAST_PLACEMENT:
        last_tile = layout.placements[-1].tile if layout.placements else None
    elif last is None or isinstance(last, Placement):
        last_tile = None if last is None else last.tile
    else:
        raise InvalidStateError("FORMAT-3", f"last is a Placement or None, got {described(last, 100)}")
    picture = geometry(layout, bounds=bounds)
    left, top, right, bottom = picture.extent
    if layout.is_empty:
        left, top, right, bottom = -8, -3, 8, 3
    left, top, right, bottom = left - 1, top - 1, right + 1, bottom + 1
    body: list[str] = []
    _layout_svg(body, layout, picture, palette, (left, top), last_tile, targets_of)
    if layout.is_empty:
        # Two centred lines, so that the sentence fits the empty table's picture at any size.
        middle = (right - left) * SCALE / 2
        _text(body, middle, 3.6 * SCALE, "the table is empty:", palette, anchor="middle")
        _text(body, middle, 5.4 * SCALE, "the next tile is the lead", palette, anchor="middle")
    width, height = (right - left) * SCALE, (bottom - top) * SCALE
    if type(subject) is not Layout:
        height, width = _hands_and_scores(body, subject, height, width, palette)
    pixels_high = max(1, round(size * height / width))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="sniff-board" width="{size}" height="{pixels_high}" '
        f'viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" fill="{palette["background"]}"/>'
        + "".join(body)
        + "</svg>"
    )


def _hands_and_scores(
    body: list[str], subject: State | SeatView, height: int, width: int, colors: Mapping[str, str]
) -> tuple[int, int]:
    rules = subject.rules
    y = height // SCALE + 1
    for seat in range(rules.players):
        if type(subject) is State:
            hand: Sequence[Tile] | int = subject.hand(seat)
            label = f"seat {seat}"
        else:
            view: SeatView = subject
            revealed = view.revealed_hands
            hand = revealed[seat] if revealed is not None else view.hand if seat == view.seat else view.hand_sizes[seat]
            label = f"seat {seat}" + (" (you)" if seat == view.seat else "")
        if seat == subject.to_move and subject.phase is Phase.PLAYING:
            label += " \u25b8 to move"
        _text(body, SCALE, (y + 1) * SCALE, label, colors)
        body.append(f'<g class="sniff-hand" data-seat="{seat}" transform="translate({SCALE} {(y + 1.5) * SCALE:g})">')
        _hand_row(body, hand, seat, 0, colors)
        body.append("</g>")
        count = hand if isinstance(hand, int) else len(hand)
        width = max(width, (count * 5 + 2) * SCALE)
        y += 5
    boneyard = len(subject.boneyard_ids) if type(subject) is State else subject.boneyard_size
    _text(body, SCALE, (y + 1) * SCALE, f"boneyard: {boneyard} tiles", colors)
    y += 2
    for side, score in enumerate(subject.scores):
        name = f"seats {side} and {side + 2}" if rules.players == 4 else f"seat {side}"
        _text(body, SCALE, (y + 1.4) * SCALE, f"{name}: {score}", colors)
        if -1000 <= score <= 1000 and score % 5 == 0:
            body.append(f'<g class="sniff-score-tally" data-side="{side}">')
            drawn = _tally_parts(body, score, 13 * SCALE, y * SCALE - 2, colors["text"])
            body.append("</g>")
            width = max(width, int(13 * SCALE + drawn) + SCALE)
        y += 3
    return y * SCALE, width


SPEC_PICTURES: Final = {
    "seed-chain.svg": (
        "[1|4] [1|1]>[1|4].low [4|4]>[1|4].high [3|4]>[4|4].chain-b [1|2]>[1|1].chain-b"
        " [1|5]>[1|1].arm-a [5|5]>[1|5].high [0|5]>[5|5].chain-b [1|3]>[1|1].arm-b"
    ),
    "sniff-fifteen.svg": "[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b",
    "sniff-fourteen.svg": "[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b [4|5]>[5|5].arm-a",
}
"""The seed's worked examples drawn under ``specs/pictures``, by file name: its chain with
the [1|1] Sniff's arms covered, and the [5|5] Sniff counting 15, then 14."""


def spec_pictures() -> dict[str, str]:
    """The text of each file of ``specs/pictures`` (:data:`SPEC_PICTURES`), as this module draws it now."""
    return {name: svg(Layout.parse(layout), size=360) + "\n" for name, layout in SPEC_PICTURES.items()}
