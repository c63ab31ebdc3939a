"""Playing a match: events, the driver, round logs, records, seat views, the sampler and the fair bots.

Everything here is pure and built on the core: :func:`apply_with_events`
says what a move did as typed events, redacted per seat by
:func:`seen_by`; :func:`play_match` plays a match from policies;
:class:`RoundLog` is a round's public log and what it implies;
:class:`MatchRecord` replays to every state and event; :func:`seat_view`
is all one seat may know; :class:`DealSampler` re-deals what a seat cannot
see; :func:`random_bot`, :func:`greedy_bot` and :class:`SearchBot` decide
from a seat's view alone, and :func:`bot_policy` builds them by the names
people type (:func:`parse_bot`, :data:`BOT_CHOICES`).
"""

from sniff_rules.play.bots import greedy_bot, random_bot
from sniff_rules.play.driver import Policy, Step, play_match
from sniff_rules.play.events import (
    Dealt,
    Drew,
    Event,
    MatchWon,
    Passed,
    Placed,
    RoundEnded,
    apply_with_events,
    seen_by,
)
from sniff_rules.play.history import Lacked, RoundLog, round_logs
from sniff_rules.play.record import Deal, MatchRecord
from sniff_rules.play.registry import (
    BOT_CHOICES,
    BOT_NAMES,
    BotChoice,
    BotName,
    BotNameError,
    bot_label,
    bot_policy,
    parse_bot,
)
from sniff_rules.play.sampler import DealSampler, SampledDeal
from sniff_rules.play.search import SearchBot
from sniff_rules.play.table import SeatTokenError, StaleVersionError, Table, TableSeat
from sniff_rules.play.view import MoveOption, Observation, SeatView, observe, present_seat_view, seat_view

__all__ = [
    "BOT_CHOICES",
    "BOT_NAMES",
    "BotChoice",
    "BotName",
    "BotNameError",
    "Deal",
    "DealSampler",
    "Dealt",
    "Drew",
    "Event",
    "Lacked",
    "MatchRecord",
    "MatchWon",
    "MoveOption",
    "Observation",
    "Passed",
    "Placed",
    "Policy",
    "RoundEnded",
    "RoundLog",
    "SampledDeal",
    "SearchBot",
    "SeatTokenError",
    "SeatView",
    "StaleVersionError",
    "Step",
    "Table",
    "TableSeat",
    "apply_with_events",
    "bot_label",
    "bot_policy",
    "greedy_bot",
    "observe",
    "parse_bot",
    "play_match",
    "present_seat_view",
    "random_bot",
    "round_logs",
    "seat_view",
    "seen_by",
]
