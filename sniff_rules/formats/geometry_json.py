"""A layout's geometry as JSON (``$defs/geometry`` of ``specs/vectors/schema.json``), GEOM-1..6."""

from __future__ import annotations

import json

from sniff_rules.draw.geometry import LayoutGeometry
from sniff_rules.formats.strict_json import JsonObject, JsonValue


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


def geometry_to_json(picture: LayoutGeometry) -> str:
    """``picture`` as compact JSON text (see :func:`geometry_to_data`)."""
    return json.dumps(geometry_to_data(picture), separators=(",", ":"))
