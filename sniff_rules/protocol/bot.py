"""The bot role of the protocol: a fair bot answering ``choose`` from the seat's view alone, as a pure function.

A host sends a bot the seat's view (``sniff-rules/seat-view@1``,
:func:`sniff_rules.formats.view_json.seat_view_to_data`) whose ``options``
list the legal moves as data; the bot answers one option's ``move`` text.
:func:`choose` is how this library's ``random`` and ``greedy`` bots decide
from that data, as :func:`sniff_rules.play.bots.random_bot` and
:func:`~sniff_rules.play.bots.greedy_bot` decide from a
:class:`~sniff_rules.play.view.SeatView`: the same move for the same view
and source. Every other bot of :mod:`sniff_rules.play.registry` (the search
bot, ``search`` or ``search:N``) decides from the whole view, read back by
:func:`~sniff_rules.formats.view_json.seat_view_from_data`: a view no round
could give its seat is answered with an error citing FORMAT-3, never a move.

>>> view = {"options": [{"move": "1:[0|5]", "kind": "place", "tile": "[0|5]", "points": 5},
...                     {"move": "1:[3|6]", "kind": "place", "tile": "[3|6]", "points": 5}]}
>>> choose(view, "greedy", SplitMix64.from_seed(1))[0]
'1:[3|6]'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from sniff_rules.errors import IllegalMoveError, SniffError
from sniff_rules.formats.notation import parse_tile
from sniff_rules.formats.strict_json import JsonObject, JsonValue, json_array, json_int, json_object, json_str
from sniff_rules.formats.view_json import seat_view_from_data
from sniff_rules.play.registry import BOT_GRAMMAR, BOT_NAMES, bot_policy, parse_bot
from sniff_rules.protocol.messages import BOT_REQUESTS, SHAPE, ProtocolError, error_answer, request_id, spoken_protocol
from sniff_rules.randomness import RandomSource, SplitMix64, draw_below

PROTOCOL_BOTS: Final = BOT_NAMES
"""The fair bots served over the protocol: every bot of the registry (``search:N`` besides)."""

OPTION_BOTS: Final = ("random", "greedy")
"""The bots that decide from the options a view lists alone; the others read the whole view."""


def _options(view: JsonValue) -> list[Mapping[str, JsonValue]]:
    data = json_object(view, "view")
    options = [
        json_object(option, f"options[{n}]") for n, option in enumerate(json_array(data.get("options"), "options"))
    ]
    if not options:
        raise IllegalMoveError("TURN-1", "the view lists no option: it is not this seat's turn, or the round is over")
    return options


def _greedy_key(option: Mapping[str, JsonValue]) -> tuple[int, int]:
    if option.get("kind") != "place":
        return (-1, -1)
    return (json_int(option.get("points"), "points"), parse_tile(json_str(option.get("tile"), "tile")).pips)


def choose(view: JsonValue, bot: str, source: RandomSource) -> tuple[str, RandomSource]:
    """The move text ``bot`` answers for ``view``, and the source advanced (``greedy`` leaves it)."""
    try:
        name = parse_bot(bot)
    except SniffError:
        raise ProtocolError(SHAPE, f"the bots served over the protocol are {BOT_GRAMMAR}; not {bot!r:.40}") from None
    if name.kind not in OPTION_BOTS:
        move, source = bot_policy(str(name))(seat_view_from_data(view), source)
        return str(move), source
    options = _options(view)
    if name.kind == "random":
        choice, source = draw_below(source, len(options))
        return json_str(options[choice].get("move"), "move"), source
    # max keeps the first of equal keys, as greedy_bot does over the same list.
    return json_str(max(options, key=_greedy_key).get("move"), "move"), source


def handle_bot(request: JsonObject, bot: str, source: RandomSource) -> tuple[JsonObject, RandomSource]:
    """The answer of ``bot`` to ``request`` (``hello``, ``choose`` or ``quit``), and its source after."""
    number = request_id(request)
    kind = request.get("type")
    if kind == "quit":
        return {"id": number, "bye": True}, source
    if kind == "hello":
        try:
            spoken = spoken_protocol(request)
        except SniffError as refusal:
            return error_answer(number, refusal), source
        return {"id": number, "protocol": spoken, "role": "bot", "bot": bot}, source
    if kind != "choose":
        error = ProtocolError(SHAPE, f"a bot answers {', '.join(BOT_REQUESTS)}; not {kind!r:.40}")
        return error_answer(number, error), source
    try:
        move, source = choose(request.get("view"), bot, source)
    except SniffError as error:
        return error_answer(number, error), source
    return {"id": number, "move": move}, source


def bot_source(seed: int) -> SplitMix64:
    """The seeded source a served bot draws from."""
    return SplitMix64.from_seed(seed)
