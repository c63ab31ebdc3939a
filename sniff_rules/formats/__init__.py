"""Every text and JSON form the library reads or writes, in one place.

==============================================  ==========================================================
:mod:`~sniff_rules.formats.notation`            text forms of tiles, points, placements and moves (FORMAT-1)
:mod:`~sniff_rules.formats.strict_json`         the one hardened JSON reader and its typed accessors (FORMAT-2)
:mod:`~sniff_rules.formats.state_json`          states, rules, settlements, lots and round results
:mod:`~sniff_rules.formats.event_json`          events
:mod:`~sniff_rules.formats.view_json`           a seat's view: what a server sends a seat, and a bot reads
:mod:`~sniff_rules.formats.record_json`         match records
:mod:`~sniff_rules.formats.geometry_json`       a layout's geometry
==============================================  ==========================================================

Every document with a layout of its own carries a ``format`` tag, and
every one is described by ``specs/vectors/schema.json``.
"""

from sniff_rules.formats.event_json import event_document, event_to_data, event_to_json
from sniff_rules.formats.geometry_json import geometry_document, geometry_to_data, geometry_to_json
from sniff_rules.formats.notation import parse_move, parse_placement, parse_point, parse_tile, parse_typed_move
from sniff_rules.formats.record_json import record_from_json, record_to_json
from sniff_rules.formats.state_json import state_from_json, state_to_json
from sniff_rules.formats.table_json import table_from_json, table_to_json
from sniff_rules.formats.view_json import seat_view_from_json, seat_view_to_data, seat_view_to_json

__all__ = [
    "event_document",
    "event_to_data",
    "event_to_json",
    "geometry_document",
    "geometry_to_data",
    "geometry_to_json",
    "parse_move",
    "parse_placement",
    "parse_point",
    "parse_tile",
    "parse_typed_move",
    "record_from_json",
    "record_to_json",
    "seat_view_from_json",
    "seat_view_to_data",
    "seat_view_to_json",
    "state_from_json",
    "state_to_json",
    "table_from_json",
    "table_to_json",
]
