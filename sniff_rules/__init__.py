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

from sniff_rules.bots import greedy_bot, random_bot
from sniff_rules.driver import Step, play_match
from sniff_rules.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidRulesError,
    InvalidStateError,
    InvalidTileError,
    NotationError,
    SniffError,
)
from sniff_rules.events import (
    Dealt,
    Drew,
    Event,
    MatchWon,
    Passed,
    Placed,
    RoundEnded,
    apply_with_events,
    event_to_data,
    seen_by,
)
from sniff_rules.geometry import Bounds, LayoutGeometry, PointGeometry, TileGeometry, geometry
from sniff_rules.history import Lacked, RoundLog, round_logs
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
from sniff_rules.record import Deal, MatchRecord, record_from_json, record_to_json
from sniff_rules.rules import Rules, Seat, Side
from sniff_rules.sampler import DealSampler, SampledDeal
from sniff_rules.scoring import PlayScore, Settlement, play_points, round_to_five, score_play, settle_round
from sniff_rules.search import SearchBot
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
from sniff_rules.svg import svg, tally_svg
from sniff_rules.text import layout_text, tally_text, text
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
    "Bounds",
    "Connection",
    "Contribution",
    "Deal",
    "DealSampler",
    "Dealt",
    "Draw",
    "Drew",
    "Event",
    "HandMask",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidRulesError",
    "InvalidStateError",
    "InvalidTileError",
    "Lacked",
    "Layout",
    "LayoutGeometry",
    "MatchRecord",
    "MatchWon",
    "Move",
    "MoveOption",
    "NotationError",
    "Observation",
    "Pass",
    "Passed",
    "Phase",
    "Pip",
    "Place",
    "Placed",
    "Placement",
    "PlayScore",
    "PointGeometry",
    "PointId",
    "Port",
    "PositionKey",
    "Problem",
    "RandomSource",
    "RoundContext",
    "RoundEnded",
    "RoundLog",
    "RoundResult",
    "Rules",
    "SampledDeal",
    "SearchBot",
    "Seat",
    "SeatView",
    "Settlement",
    "Side",
    "SniffError",
    "SplitMix64",
    "State",
    "Step",
    "Tile",
    "TileGeometry",
    "TileIndex",
    "apply",
    "apply_with_events",
    "draw_lot",
    "event_to_data",
    "geometry",
    "greedy_bot",
    "layout_text",
    "legal_moves",
    "new_match",
    "next_round",
    "observe",
    "parse_tiles",
    "play_match",
    "play_points",
    "position_key",
    "present_seat_view",
    "problems",
    "random_bot",
    "record_from_json",
    "record_to_json",
    "recount_end",
    "round_logs",
    "round_to_five",
    "score_play",
    "seat_view",
    "seat_view_to_data",
    "seat_view_to_json",
    "seen_by",
    "settle_round",
    "shuffled",
    "svg",
    "tally_svg",
    "tally_text",
    "text",
    "tiles_text",
]
