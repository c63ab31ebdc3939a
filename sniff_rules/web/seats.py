"""What the server sends a seat and reads from it, without the web framework or any I/O.

A live table (:class:`sniff_rules.play.table.Table`, the one match loop)
holds every hand; a seat's page receives only :func:`snapshot`, built from
that seat's view (:meth:`~sniff_rules.play.table.Table.view`,
:func:`~sniff_rules.formats.view_json.seat_view_to_data`) and the public
seat list, so it holds no other hand, no boneyard order, no random source
and no token. Moves arrive as people type them and are read against the
seat's legal moves (:func:`read_move`); every refusal is a
:class:`WebError` with an HTTP status, a code and the rule id.

>>> from sniff_rules import Rules
>>> table = Table.new(Rules.standard(2), ("person", "greedy"), ("token-of-seat-0-abcdef",), seed=20, bot_seed=1)
>>> sent = snapshot(table, "token-of-seat-0-abcdef")
>>> sent["seat"], sent["status"], sent["view"]["hand_sizes"], [player["joined"] for player in sent["players"]]
(0, 'bot-turn', [7, 7], [False, True])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

from sniff_rules.errors import SniffError
from sniff_rules.formats.notation import parse_typed_move
from sniff_rules.formats.strict_json import JsonObject, JsonValue
from sniff_rules.formats.view_json import seat_view_to_data
from sniff_rules.moves import Move
from sniff_rules.play.events import Placed
from sniff_rules.play.registry import BOT_CHOICES, BOT_RULE, DEFAULT_BOT, BotNameError, BotOffer, seat_label
from sniff_rules.play.table import PERSON, StaleVersionError, Table
from sniff_rules.play.view import SeatView
from sniff_rules.state import Phase

SNAPSHOT_FORMAT: Final = "sniff-rules/web-snapshot@3"
"""The ``format`` tag of what a seat's page receives (``@2``: a table of several people, who has joined; ``@3``:
why the match was stopped, if it was)."""

MAX_MOVE_CHARS: Final = 200
"""The longest move text read; what people type is far shorter."""

_SEAT_PREFIX: Final = re.compile(r"\s*(\d{1,3})\s*:")

Layouter = Callable[[SeatView], JsonObject]
"""Draws a seat view's layout for the page (SVG or text); sees the view alone."""

OFFERED_BOTS: Final = tuple(choice.name for choice in BOT_CHOICES)
"""The bots a table on this server may seat: those its page offers, each with its own default search."""


def bots_offered(offer: BotOffer | None = None) -> JsonObject:
    """The bots a page offers for a seat: the fair bots of :mod:`sniff_rules.play.registry` and the operator's
    ``offer`` of bot processes, each by name and label, and the default."""
    choices = BOT_CHOICES if offer is None else offer.choices
    bots: list[JsonValue] = [{"name": choice.name, "label": choice.label} for choice in choices]
    return {"bots": bots, "default": DEFAULT_BOT}


class WebError(Exception):
    """A request refused: an HTTP ``status``, a short ``code``, a message, the rule id when one applies."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule

    def to_data(self) -> JsonObject:
        """The JSON body of the refusal."""
        return {"error": self.code, "message": self.message, "rule": self.rule}


def refusal_of(error: SniffError) -> WebError:
    """The HTTP refusal of a table's refusal: a stale version or another's turn 409, a token of no seat 403,
    anything else the rules refuse 422; each with its rule id."""
    if isinstance(error, StaleVersionError):
        return WebError(409, "stale", f"{error}: reload", error.rule)
    if error.rule == "SETUP-6":
        return WebError(403, "not-your-seat", str(error), error.rule)
    if error.rule in ("TURN-2", "END-1", "MATCH-2"):
        return WebError(409, "not-your-turn", str(error), error.rule)
    return WebError(422, "illegal-move", str(error), error.rule)


def plain_layout(view: SeatView) -> JsonObject:
    """The layout as text lines, a placement a line (where no drawing is at hand)."""
    return {"svg": None, "lines": [str(placement) for placement in view.layout.placements]}


def check_kinds(kinds: Sequence[str], offer: BotOffer | None = None) -> tuple[str, ...]:
    """``kinds`` as a tuple, if it seats 2..4 players, at least one a person and every other a bot offered here:
    a fair bot of :data:`OFFERED_BOTS` or a bot process of the operator's ``offer``.

    A kind that names no bot is refused with the registry's
    :class:`~sniff_rules.play.registry.BotNameError` as the cause (FORMAT-1).
    The server seats only the bots its page offers, :data:`OFFERED_BOTS`: a
    ``search:N`` from a visitor could make every decision of the table cost
    up to the registry's largest search.
    """
    if not 2 <= len(kinds) <= 4:
        raise WebError(400, "bad-request", f"a match is for 2, 3 or 4 players, not {len(kinds)}", "SETUP-2")
    if PERSON not in kinds:
        raise WebError(400, "bad-request", f"one seat at least is a person's ({PERSON!r}): the creator takes it")
    for index, kind in enumerate(kinds):
        if kind == PERSON:
            continue
        served = BotOffer() if offer is None else offer
        try:
            served.parse(kind)
        except BotNameError as refusal:
            raise WebError(400, "bad-request", f"seat {index}: {refusal}", refusal.rule) from refusal
        names = (*OFFERED_BOTS, *(bot.name for bot in served.offered))
        if kind not in names:
            offered = ", ".join(names)
            raise WebError(400, "bad-request", f"seat {index}: this server seats the bots {offered}", BOT_RULE)
    return tuple(kinds)


def status_of(table: Table, seat: int) -> str:
    """``your-turn``, ``bot-turn``, ``person-turn`` (another person's), ``round-over``, ``match-over`` or
    ``stopped`` (the server stopped the match: a seat's bot process failed)."""
    phase = table.phase
    if table.stopped is not None:
        return "stopped"
    if phase is Phase.MATCH_OVER:
        return "match-over"
    if phase is Phase.ROUND_OVER:
        return "round-over"
    if table.to_move == seat:
        return "your-turn"
    return "bot-turn" if table.bot_to_move else "person-turn"


def snapshot(table: Table, token: str, layouter: Layouter = plain_layout) -> JsonObject:
    """What the page of the seat of ``token`` receives: the version, the seats (kind, name, side, joined), its
    status, the last placement, the layout drawn, the seat's view and why the match was stopped, if it was.

    Built from the seat's view and the public seat list alone, so two tables
    whose hidden tiles and random sources differ but whose public play is the
    same give the same snapshot; no token is in it, the seat's own neither.
    """
    seat = table.seat_of(token)
    view = table.view(token)
    players: list[JsonValue] = [
        {
            "seat": index,
            "kind": player.kind,
            "name": ("You" if index == seat else f"Player {index}") if player.is_person else seat_label(player.kind),
            "side": table.rules.side_of(index),
            "joined": player.joined or not player.is_person,
        }
        for index, player in enumerate(table.seats)
    ]
    last = next((event for event in reversed(view.history.events) if type(event) is Placed), None)
    return {
        "format": SNAPSHOT_FORMAT,
        "version": table.version,
        "seat": seat,
        "status": status_of(table, seat),
        "players": players,
        "last_placement": None if last is None else str(last.placement),
        "layout": layouter(view),
        "view": seat_view_to_data(view),
        "stopped": table.stopped,
    }


def read_move(table: Table, token: str, text: str) -> Move:
    """The move the seat of ``token`` typed as ``text``, read against its legal moves; refused as a WebError.

    Refused: text too long (400), another seat named (403), no move now
    (409, TURN-2, END-1 or MATCH-2), text naming no legal move (422).
    """
    seat = table.seat_of(token)
    if len(text) > MAX_MOVE_CHARS:
        raise WebError(400, "bad-request", f"a move is at most {MAX_MOVE_CHARS} characters")
    named = _SEAT_PREFIX.match(text)
    if named is not None and int(named.group(1)) != seat:
        raise WebError(403, "not-your-seat", f"this token plays seat {seat}, not seat {named.group(1)}", "TURN-2")
    if table.stopped is not None:
        raise WebError(409, "not-your-turn", f"MATCH-2: no move now: the match was stopped: {table.stopped}", "MATCH-2")
    if table.phase is not Phase.PLAYING:
        over = table.phase is Phase.MATCH_OVER
        rule = "MATCH-2" if over else "END-1"
        why = "the match is over" if over else "the round is over: the next one is dealt first"
        raise WebError(409, "not-your-turn", f"{rule}: no move now, {why}", rule)
    if table.to_move != seat:
        raise WebError(409, "not-your-turn", f"it is seat {table.to_move}'s turn", "TURN-2")
    try:
        return parse_typed_move(text, table.view(token).legal_moves)
    except SniffError as refusal:
        raise WebError(422, "illegal-move", str(refusal), refusal.rule) from None
