"""A layout's geometry as JSON (``$defs/geometry`` of ``specs/vectors/schema.json``), GEOM-1..6."""

from __future__ import annotations

import json
from typing import Final

from sniff_rules.draw.geometry import LayoutGeometry
from sniff_rules.formats.strict_json import JsonObject, JsonValue

GEOMETRY_FORMAT: Final = "sniff-rules/geometry@1"
"""The ``format`` tag of a geometry document (:func:`geometry_document`); a vector file's geometries carry none."""


def geometry_to_data(picture: LayoutGeometry) -> JsonObject:
    """The JSON object (``$defs/geometry`` of ``specs/vectors/schema.json``) for ``picture``.

    >>> from sniff_rules import Layout
    >>> from sniff_rules.draw.geometry import geometry
    >>> geometry_to_data(geometry(Layout.parse("[1|4]")))["tiles"]
    [{'tile': '[1|4]', 'x': 0, 'y': 0, 'orientation': 'horizontal', 'ends': [1, 4]}]
    """
    tiles: list[JsonValue] = [
        {"tile": str(t.tile), "x": t.x, "y": t.y, "orientation": t.orientation, "ends": list(t.ends)}
        for t in picture.tiles
    ]
    points: list[JsonValue] = [
        {"point": str(p.point), "x": p.x, "y": p.y, "direction": p.direction.value} for p in picture.points
    ]
    return {"tiles": tiles, "points": points}


def geometry_document(picture: LayoutGeometry) -> JsonObject:
    """``picture`` as a document of its own (``$defs/geometryDocument``): its format tag, then its data."""
    return {"format": GEOMETRY_FORMAT, **geometry_to_data(picture)}


def geometry_to_json(picture: LayoutGeometry) -> str:
    """``picture`` as compact JSON text, its format tag first (see :func:`geometry_document`)."""
    return json.dumps(geometry_document(picture), separators=(",", ":"))
