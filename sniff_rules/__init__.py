"""sniff_rules: the reference rules of American Sniff, a Fives-family domino game.

Immutable values and pure functions for a whole match: deal and opener
lot, placement with the Sniff geometry, the end count and play points,
drawing, passing, blocking, settlement and the match end. Rule ids in
docstrings and errors refer to ``specs/rules.md``.

>>> from sniff_rules import Rules, new_match, legal_moves, apply
>>> state = new_match(Rules.standard(3), seed=42)
>>> state = apply(state, legal_moves(state)[0])
>>> state.layout.end_count >= 0
True
"""

from sniff_rules.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidRulesError,
    InvalidStateError,
    InvalidTileError,
    NotationError,
    SniffError,
)
from sniff_rules.layout import (
    AttachmentPoint,
    Connection,
    Contribution,
    Layout,
    Placement,
    PointId,
    Port,
    recount_end,
)
from sniff_rules.moves import Draw, Move, Pass, Place, apply, legal_moves
from sniff_rules.position import Problem, problems
from sniff_rules.randomness import RandomSource, SplitMix64, draw_lot, shuffled
from sniff_rules.rules import Rules, Seat, Side
from sniff_rules.scoring import PlayScore, Settlement, play_points, round_to_five, score_play, settle_round
from sniff_rules.state import (
    Phase,
    PositionKey,
    RoundContext,
    RoundResult,
    State,
    new_match,
    next_round,
    position_key,
)
from sniff_rules.tiles import DOUBLE_SIX, HandMask, Pip, Tile, TileIndex, parse_tiles, tiles_text
from sniff_rules.view import (
    MoveOption,
    Observation,
    SeatView,
    observe,
    present_seat_view,
    seat_view,
    seat_view_to_data,
    seat_view_to_json,
)

__version__ = "0.1.0"

__all__ = [
    "DOUBLE_SIX",
    "AttachmentPoint",
    "Connection",
    "Contribution",
    "Draw",
    "HandMask",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidRulesError",
    "InvalidStateError",
    "InvalidTileError",
    "Layout",
    "Move",
    "MoveOption",
    "NotationError",
    "Observation",
    "Pass",
    "Phase",
    "Pip",
    "Place",
    "Placement",
    "PlayScore",
    "PointId",
    "Port",
    "PositionKey",
    "Problem",
    "RandomSource",
    "RoundContext",
    "RoundResult",
    "Rules",
    "Seat",
    "SeatView",
    "Settlement",
    "Side",
    "SniffError",
    "SplitMix64",
    "State",
    "Tile",
    "TileIndex",
    "apply",
    "draw_lot",
    "legal_moves",
    "new_match",
    "next_round",
    "observe",
    "parse_tiles",
    "play_points",
    "position_key",
    "present_seat_view",
    "problems",
    "recount_end",
    "round_to_five",
    "score_play",
    "seat_view",
    "seat_view_to_data",
    "seat_view_to_json",
    "settle_round",
    "shuffled",
    "tiles_text",
]
