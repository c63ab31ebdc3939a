"""The geometry vectors: ``specs/vectors/geometry.json`` (``kind: geometry``), generated and replayed (GEOM-1..6).

Each case is a layout in its text form, optional bounds, and the picture
:func:`sniff_rules.draw.geometry.geometry` draws of it as JSON (``$defs/geometry``
of the schema), or the rule that refuses the bounds. :func:`geometry_document`
builds the file from :data:`CASES`; it is one of the generated files of
:mod:`sniff_rules.verify.vectors.generate` (``python3 -m sniff_rules vectors`` shows the
difference, ``--write`` rewrites it). :func:`check_geometry_file` replays it
for the conformance runner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from sniff_rules.draw.geometry import Bounds, geometry
from sniff_rules.errors import SniffError
from sniff_rules.formats.geometry_json import geometry_to_data
from sniff_rules.formats.strict_json import (
    JsonObject,
    JsonValue,
    json_field,
    json_int,
    json_object,
    json_str,
    json_strs,
)
from sniff_rules.layout import Layout
from sniff_rules.verify.vectors.files import Mismatch, VectorResult, check_named_cases, dump_vector_json

GEOMETRY_FILE: Final = "geometry.json"
REWRITE_COMMAND: Final = "python3 -m sniff_rules vectors --write"

_SEED_CHAIN: Final = (
    "[1|4] [1|1]>[1|4].low [4|4]>[1|4].high [3|4]>[4|4].chain-b [1|2]>[1|1].chain-b"
    " [1|5]>[1|1].arm-a [5|5]>[1|5].high [0|5]>[5|5].chain-b [1|3]>[1|1].arm-b"
)
_LONG_LINE: Final = (
    "[0|1] [1|2]>[0|1].high [2|3]>[1|2].high [3|4]>[2|3].high [4|5]>[3|4].high [5|6]>[4|5].high"
    " [0|6]>[5|6].high [0|2]>[0|6].low [2|4]>[0|2].high [4|6]>[2|4].high [1|6]>[4|6].high"
    " [1|3]>[1|6].low [3|5]>[1|3].high"
)

CASES: Final[tuple[tuple[str, tuple[str, ...], str, tuple[int | None, int | None] | None, str | None], ...]] = (
    ("a non-double lead", ("GEOM-1", "GEOM-2", "GEOM-4"), "[1|4]", None, None),
    ("a double lead is the Sniff", ("GEOM-2", "GEOM-4"), "[2|2]", None, None),
    ("the Sniff on the lead's lower end", ("GEOM-2", "GEOM-3"), "[1|4] [1|1]>[1|4].low", None, None),
    ("the Sniff on the lead's higher end", ("GEOM-2", "GEOM-3"), "[1|4] [4|4]>[1|4].high", None, None),
    ("a line before the Sniff", ("GEOM-3",), "[1|4] [4|6]>[1|4].high [0|1]>[1|4].low", None, None),
    (
        "the seed's chain, both arms covered",
        ("GEOM-2", "GEOM-3", "GEOM-4"),
        _SEED_CHAIN,
        None,
        None,
    ),
    (
        "the [5|5] Sniff led, one arm covered",
        ("GEOM-3", "GEOM-4"),
        "[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b [4|5]>[5|5].arm-a",
        None,
        None,
    ),
    ("a long line runs straight without bounds", ("GEOM-5",), _LONG_LINE, None, None),
    ("a long line folds in rows", ("GEOM-5", "GEOM-6"), _LONG_LINE, (12, None), None),
    ("a long line folds within bounds both ways", ("GEOM-5", "GEOM-6"), _LONG_LINE, (30, 30), None),
    ("a long line in the narrowest bounds", ("GEOM-5", "GEOM-6"), _LONG_LINE, (9, None), None),
    ("the seed's chain in the narrowest bounds", ("GEOM-5", "GEOM-6"), _SEED_CHAIN, (None, 9), None),
    ("bounds narrower than 9 units", ("GEOM-6",), "[1|4]", (8, None), "GEOM-6"),
)
"""(name, cites, layout, (half_width, half_height) or None, the rule refusing the bounds or None)."""


_BACK_ROW: Final = "[0|0] [0|4]>[0|0].chain-a [4|4]>[0|4].high [3|4]>[4|4].chain-b [3|5]>[3|4].low"
_NO_BACK_ROW: Final = "[0|1] [0|2]>[0|1].low [2|3]>[0|2].high [3|6]>[2|3].high"
_ROW_TO_DOUBLE: Final = "[0|0] [0|1]>[0|0].chain-b [1|1]>[0|1].high"

LIMIT_CASES: Final[tuple[tuple[str, str, str, str, JsonValue, str | None], ...]] = (
    (
        "a row that just has room",
        "GEOM-5: e + 7 <= U",
        "inside",
        "[0|0] [0|1]>[0|0].chain-a",
        {"half_width": 12, "half_height": None},
        None,
    ),
    (
        "a row one unit short of room",
        "GEOM-5: e + 7 <= U",
        "outside",
        "[0|0] [0|1]>[0|0].chain-a",
        {"half_width": 11, "half_height": None},
        None,
    ),
    (
        "a turn back that just has room",
        "GEOM-5: e - 7 >= 2",
        "inside",
        _BACK_ROW,
        {"half_width": 12, "half_height": None},
        None,
    ),
    (
        "a turn back one unit short of room",
        "GEOM-5: e - 7 >= 2",
        "outside",
        _NO_BACK_ROW,
        {"half_width": 13, "half_height": None},
        None,
    ),
    (
        "the room for a turn back counted from f - 1",
        "GEOM-5: f ± 1",
        "inside",
        _BACK_ROW,
        {"half_width": 12, "half_height": None},
        None,
    ),
    (
        "no room for a turn back counted from f - 1",
        "GEOM-5: f ± 1",
        "outside",
        _NO_BACK_ROW,
        {"half_width": 13, "half_height": None},
        None,
    ),
    (
        "a double where a row would turn",
        "GEOM-5: never turns at a double",
        "inside",
        _ROW_TO_DOUBLE,
        {"half_width": 12, "half_height": None},
        None,
    ),
    (
        "a non-double where the double was",
        "GEOM-5: never turns at a double",
        "outside",
        "[0|0] [0|1]>[0|0].chain-b [1|2]>[0|1].high",
        {"half_width": 12, "half_height": None},
        None,
    ),
    (
        "the Sniff two tiles out on the lead's lower end",
        "GEOM-2: the lower end's side",
        "inside",
        "[0|1] [0|3]>[0|1].low [3|3]>[0|3].high",
        None,
        None,
    ),
    (
        "the Sniff two tiles out on the lead's higher end",
        "GEOM-2: the lower end's side",
        "outside",
        "[0|1] [1|3]>[0|1].high [3|3]>[1|3].high",
        None,
        None,
    ),
    ("a half-width of 9", "GEOM-6: half-width 9", "inside", _LONG_LINE, {"half_width": 9, "half_height": None}, None),
    (
        "a half-width of 8",
        "GEOM-6: half-width 9",
        "outside",
        _LONG_LINE,
        {"half_width": 8, "half_height": None},
        "GEOM-6",
    ),
    (
        "a half-height of 9",
        "GEOM-6: half-height 9",
        "inside",
        _SEED_CHAIN,
        {"half_width": None, "half_height": 9},
        None,
    ),
    (
        "a half-height of 8",
        "GEOM-6: half-height 9",
        "outside",
        _SEED_CHAIN,
        {"half_width": None, "half_height": 8},
        "GEOM-6",
    ),
    (
        "a half-width of 10,000",
        "GEOM-6: at most 10,000",
        "inside",
        "[1|4]",
        {"half_width": 10_000, "half_height": None},
        None,
    ),
    (
        "a half-width of 10,001",
        "GEOM-6: at most 10,000",
        "outside",
        "[1|4]",
        {"half_width": 10_001, "half_height": None},
        "GEOM-6",
    ),
    (
        "bounds of 30 both ways",
        "GEOM-6: both ways 30",
        "inside",
        _LONG_LINE,
        {"half_width": 30, "half_height": 30},
        None,
    ),
    (
        "bounds of 29 by 30",
        "GEOM-6: both ways 30",
        "outside",
        _LONG_LINE,
        {"half_width": 29, "half_height": 30},
        "GEOM-6",
    ),
    (
        "bounds of 30 by 29",
        "GEOM-6: both ways 30",
        "outside",
        _LONG_LINE,
        {"half_width": 30, "half_height": 29},
        "GEOM-6",
    ),
    (
        "bounds of 20 both ways",
        "GEOM-6: both ways 30",
        "outside",
        _LONG_LINE,
        {"half_width": 20, "half_height": 20},
        "GEOM-6",
    ),
    (
        "bounds written as two nulls",
        "FORMAT-2: bounds both null",
        "inside",
        _LONG_LINE,
        {"half_width": None, "half_height": None},
        None,
    ),
    ("bounds lacking a key", "FORMAT-2: bounds both null", "outside", _LONG_LINE, {"half_width": None}, "FORMAT-2"),
)
"""(name, limit, side, layout, bounds as JSON, the rule refusing them or None): each limit of
GEOM-2, GEOM-5 and GEOM-6 from both sides, one unit either way (``limits.json`` holds the others)."""


def _bounds_data(bounds: tuple[int | None, int | None] | None) -> JsonValue:
    return None if bounds is None else {"half_width": bounds[0], "half_height": bounds[1]}


def geometry_document() -> JsonObject:
    """The geometry vector file, built from :data:`CASES` by this library."""
    cases: list[JsonValue] = []
    for name, cites, layout, bounds, refused in CASES:
        case: JsonObject = {
            "name": name,
            "cites": list(cites),
            "layout": layout,
            "bounds": _bounds_data(bounds),
        }
        if refused is not None:
            case["refused"] = [refused]
        else:
            box = None if bounds is None else Bounds(*bounds)
            case["geometry"] = geometry_to_data(geometry(Layout.parse(layout), bounds=box))
        cases.append(case)
    for name, limit, side, layout, raw, refused in LIMIT_CASES:
        case = {"name": name, "cites": [limit.split(":")[0]], "limit": limit, "side": side, "layout": layout}
        case["bounds"] = raw
        if refused is not None:
            case["refused"] = [refused]
        else:
            case["geometry"] = geometry_to_data(geometry(Layout.parse(layout), bounds=_read_bounds(raw)))
        cases.append(case)
    return {
        "kind": "geometry",
        "format": 1,
        "description": (
            "Where each tile of a layout is drawn and where each open point is (GEOM-1..6 of specs/rules.md)."
            " layout is the placements in the order played; bounds a half-width and a half-height in units"
            " (null: none) or null. geometry lists each tile, in the order played, with its centre x, y"
            " (x east, y south, whole units; a tile is 4 by 2), its orientation and its ends (the pips of"
            " its west then east half, or north then south half); and each open point, in point-id order,"
            " with its anchor x, y and the direction a tile attached there goes. limit and side, where given, name"
            " the limit of the rules a case lies just inside or just outside. Generated by " + REWRITE_COMMAND + "."
        ),
        "cases": cases,
    }


def geometry_vector_text() -> str:
    """The file's text, laid out as the other vector files are."""
    return dump_vector_json(geometry_document())


def _read_bounds(value: JsonValue) -> Bounds | None:
    if value is None:
        return None
    data = json_object(value, "bounds", ("half_width", "half_height"))
    extents = [
        None if data[key] is None else json_int(data[key], f"bounds.{key}") for key in ("half_width", "half_height")
    ]
    return Bounds(*extents)


def _check_case(case: Mapping[str, JsonValue]) -> None:
    layout = Layout.parse(json_str(json_field(case, "layout", "case"), "layout"))
    if "refused" in case:
        rule = json_strs(case["refused"], "refused")
        try:
            _read_bounds(case.get("bounds"))
        except SniffError as err:
            if [err.rule] != rule:
                raise Mismatch(f"refused citing {err.rule}, expected {rule}") from None
            return
        raise Mismatch(f"bounds accepted, but {rule} refuses them")
    expected = json_field(case, "geometry", "case")
    actual = geometry_to_data(geometry(layout, bounds=_read_bounds(case.get("bounds"))))
    if expected != actual:
        raise Mismatch(f"geometry: expected {expected!r:.300}, got {actual!r:.300}")


def check_geometry_file(path: str, data: Mapping[str, JsonValue]) -> list[VectorResult]:
    """One result per case of a ``kind: geometry`` file."""
    return check_named_cases(path, data, _check_case)
