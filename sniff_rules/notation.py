"""Text and JSON forms of the library's values, for files and other languages.

Every form round-trips: ``parse_x(str(x)) == x`` and
``state_from_json(state_to_json(s)) == s``.

========================  =====================================
value                     text
========================  =====================================
tile                      ``[1|4]`` (low half first)
attachment point          ``[1|4].high``, ``[1|1].arm-a`` (:attr:`Port.label`)
placement in a layout     ``[1|4]`` (the lead), ``[1|1]>[1|4].low``
move                      ``0:[1|4]`` (lead), ``1:[1|1]>[1|4].low``,
                          ``2:draw``, ``3:pass`` (as ``str(move)``)
========================  =====================================

A state is a JSON object whose fields are described in
``specs/vectors/schema.json`` (``$defs/state``). Reading one is hardened
against corrupt or hostile input: the text is bounded in size and nesting,
duplicate keys, non-finite numbers, floats, booleans posing as numbers and
integers beyond ±(2**53 - 1) are refused, and the position itself is checked
(28 tiles conserved, seats, phase, scores, the layout's geometry) before a
:class:`~sniff_rules.state.State` is built. Every refusal is a
:class:`~sniff_rules.errors.NotationError` (the shape is wrong) or an
:class:`~sniff_rules.errors.InvalidStateError` (well formed, but no legal
match reaches it), naming the rule broken; nothing half checked is returned.

>>> from sniff_rules import Rules, new_match
>>> state = new_match(Rules.standard(3), seed=42)
>>> state_from_json(state_to_json(state)) == state
True
>>> parse_move("1:[1|1]>[1|4].low")
Place(1, Tile(1, 1), AttachmentPoint(Tile(1, 4), Port.LOW))
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Final, TypeAlias

from sniff_rules.errors import InvalidStateError, NotationError, SniffError
from sniff_rules.layout import AttachmentPoint, Layout, Placement, Port
from sniff_rules.moves import Draw, Move, Pass, Place, legal_moves
from sniff_rules.randomness import LOT_FACES, LotRound, SplitMix64
from sniff_rules.rules import STANDARD_HAND_SIZE, Rules
from sniff_rules.scoring import Settlement, settle_round
from sniff_rules.state import Phase, RoundResult, State
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT, Tile

JsonValue: TypeAlias = "None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]"
"""What :func:`json.loads` returns and :func:`json.dumps` accepts."""

JsonObject: TypeAlias = "dict[str, JsonValue]"
"""A JSON object, as :func:`json.loads` returns it."""

STATE_FORMAT: Final = "sniff-rules/state@1"
"""The ``format`` tag of a state document; a new layout of fields gets a new tag."""

MAX_JSON_CHARS: Final = 1 << 20
"""Longest JSON text read. A state is under 2 kB; the bound stops hostile input early."""

MAX_JSON_DEPTH: Final = 16
"""Deepest nesting of arrays and objects read; a state nests 4 deep."""

MAX_SAFE_INT: Final = (1 << 53) - 1
"""The largest integer every JSON reader holds exactly (an IEEE double's mantissa)."""

MAX_SEATS: Final = max(STANDARD_HAND_SIZE)
"""Seats a move may name: 0..3 (SETUP-2)."""

# No rule in specs/rules.md is about notation itself. A document that is not
# a state at all cites the rule every state must keep: the 28 tiles, once each.
DOCUMENT_RULE: Final = "SETUP-1"

_PORT_BY_LABEL: Final = {port.label: port for port in Port}
# Anything in brackets is handed to Tile.parse, so a bad tile is refused as a tile (SETUP-1).
_TILE_TEXT: Final = r"\[[^\]]*\]"
_POINT_TEXT: Final = re.compile(rf"\s*({_TILE_TEXT})\s*\.\s*([a-z-]+)\s*")
_PLACEMENT_TEXT: Final = re.compile(rf"\s*({_TILE_TEXT})\s*(?:>(.*))?", re.DOTALL)
_MOVE_TEXT: Final = re.compile(r"\s*([0-9]{1,3})\s*:(.*)", re.DOTALL)
_HEX64: Final = re.compile(r"[0-9a-f]{16}")


# ---------------------------------------------------------------- text forms


def parse_tile(text: str) -> Tile:
    """Read a tile, ``[a|b]`` (SETUP-1); the inverse of ``str(tile)``.

    >>> parse_tile("[1|4]")
    Tile(1, 4)
    """
    if not isinstance(text, str):
        raise NotationError("SETUP-1", f"a tile is written as text [a|b], got {text!r}")
    return Tile.parse(text)


def parse_point(text: str) -> AttachmentPoint:
    """Read an attachment point, ``[1|4].high`` or ``[1|1].arm-a`` (PLACE-1, PLACE-2).

    >>> parse_point("[1|1].arm-a")
    AttachmentPoint(Tile(1, 1), Port.ARM_A)
    >>> parse_point("[1|4].arm-a")
    Traceback (most recent call last):
    ...
    sniff_rules.errors.NotationError: PLACE-2: a non-double like [1|4] has no arm-a port
    """
    if not isinstance(text, str):
        raise NotationError("PLACE-1", f"an attachment point is written as text, got {text!r}")
    found = _POINT_TEXT.fullmatch(text)
    if found is None:
        raise NotationError(
            "PLACE-1", f"{text!r} is not an attachment point; write it as [a|b].port, e.g. [1|4].high"
        )
    tile = Tile.parse(found.group(1))
    port = _PORT_BY_LABEL.get(found.group(2))
    if port is None:
        raise NotationError(
            "PLACE-1", f"{found.group(2)!r} is not a port; ports are " + ", ".join(_PORT_BY_LABEL)
        )
    try:
        return AttachmentPoint(tile, port)
    except SniffError as err:
        raise NotationError(err.rule, _message(err)) from None


def parse_placement(text: str) -> Placement:
    """Read a placement of a layout, ``[1|4]`` (the lead) or ``[1|1]>[1|4].low`` (PLACE-1).

    The inverse of ``str(placement)``.

    >>> parse_placement("[1|1]>[1|4].low")
    Placement(Tile(1, 1), AttachmentPoint(Tile(1, 4), Port.LOW))
    """
    if not isinstance(text, str):
        raise NotationError("PLACE-1", f"a placement is written as text, got {text!r}")
    found = _PLACEMENT_TEXT.fullmatch(text)
    if found is None:
        raise NotationError("PLACE-1", f"{text!r} is not a placement; write [a|b] or [a|b]>[c|d].port")
    tile = Tile.parse(found.group(1))
    target = None if found.group(2) is None else parse_point(found.group(2))
    return Placement(tile, target)


def parse_move(text: str) -> Move:
    """Read a move as ``str(move)`` prints it (TURN-1, TURN-2).

    ``0:[1|4]`` (a lead), ``1:[1|1]>[1|4].low`` (a placement), ``2:draw``,
    ``3:pass``; the number is the seat making the move.

    >>> parse_move("2:draw"), parse_move("3:pass"), parse_move("0:[1|4]")
    (Draw(2), Pass(3), Place(0, Tile(1, 4)))
    >>> parse_move("0:fold")
    Traceback (most recent call last):
    ...
    sniff_rules.errors.NotationError: TURN-1: 'fold' is not a move: a move is a placement, draw or pass
    """
    if not isinstance(text, str):
        raise NotationError("TURN-1", f"a move is written as text, got {text!r}")
    found = _MOVE_TEXT.fullmatch(text)
    if found is None:
        raise NotationError("TURN-2", f"{text!r} is not a move; a move names its seat first, as in 0:draw")
    seat = int(found.group(1))
    if seat >= MAX_SEATS:
        raise NotationError("TURN-2", f"seats run 0..{MAX_SEATS - 1}, got {seat} in {text!r}")
    body = found.group(2).strip()
    if body == "draw":
        return Draw(seat)
    if body == "pass":
        return Pass(seat)
    if not body.startswith("["):
        raise NotationError("TURN-1", f"{body!r} is not a move: a move is a placement, draw or pass")
    placement = parse_placement(body)
    return Place(seat, placement.tile, placement.target)


def _message(err: SniffError) -> str:
    """An error's text without its ``RULE: `` prefix, to re-raise it as another kind."""
    text = str(err)
    prefix = f"{err.rule}: "
    return text[len(prefix) :] if text.startswith(prefix) else text


# ---------------------------------------------------------------- hardened JSON


def _reject_duplicates(pairs: list[tuple[str, JsonValue]]) -> JsonObject:
    found: JsonObject = {}
    for key, value in pairs:
        if key in found:
            # json.loads would keep the last silently; two readers may keep different ones.
            raise NotationError(DOCUMENT_RULE, f"the key {key!r} appears twice in one object")
        found[key] = value
    return found


def _reject_constant(name: str) -> JsonValue:
    raise NotationError(DOCUMENT_RULE, f"{name} is not a JSON number")


def _nesting_depth(text: str, limit: int) -> int:
    """How deep arrays and objects nest, scanning outside strings; stops past ``limit``."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def load_json(text: str | bytes, *, max_chars: int = MAX_JSON_CHARS, max_depth: int = MAX_JSON_DEPTH) -> JsonValue:
    """Parse JSON text, refusing what a careful reader in any language would.

    Too long or too deeply nested text, duplicate keys, ``NaN`` and
    ``Infinity`` and numbers too long to convert raise :class:`NotationError`
    instead of exhausting memory or the stack.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            raise NotationError(DOCUMENT_RULE, f"JSON text must be UTF-8: {err}") from None
    if not isinstance(text, str):
        raise NotationError(DOCUMENT_RULE, f"JSON text is a str or bytes, got {type(text).__name__}")
    if len(text) > max_chars:
        raise NotationError(DOCUMENT_RULE, f"JSON text of {len(text)} characters exceeds {max_chars}")
    if _nesting_depth(text, max_depth) > max_depth:
        raise NotationError(DOCUMENT_RULE, f"JSON nests deeper than {max_depth} levels")
    try:
        value: JsonValue = json.loads(
            text, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant
        )
    except NotationError:
        raise
    except (ValueError, RecursionError) as err:
        # ValueError covers malformed JSON and integers over Python's digit limit.
        raise NotationError(DOCUMENT_RULE, f"not valid JSON: {err}") from None
    return value


# ---------------------------------------------------------------- state -> JSON


def _settlement_to_data(settlement: Settlement) -> JsonObject:
    return {
        "hand_pips": list(settlement.hand_pips),
        "deductions": list(settlement.deductions),
        "side_deductions": list(settlement.side_deductions),
    }


def _tiles_to_data(tiles: Sequence[Tile]) -> list[JsonValue]:
    return [str(tile) for tile in tiles]


def state_to_data(state: State) -> JsonObject:
    """The JSON object (``$defs/state`` of the schema) for ``state``.

    Only a :class:`~sniff_rules.randomness.SplitMix64` source (or none) can
    be written: another source has no language-neutral form (SETUP-5).
    """
    source = state.source
    if source is None:
        source_data: JsonValue = None
    elif isinstance(source, SplitMix64):
        # A string: 64-bit integers do not survive a JavaScript JSON reader.
        source_data = {"splitmix64": f"{source.state:016x}"}
    else:
        raise NotationError("SETUP-5", f"only a SplitMix64 source has a JSON form, not {type(source).__name__}")
    result = state.last_round
    if result is None:
        last_round: JsonValue = None
    else:
        last_round = {
            "round": result.round_number,
            "finisher": result.finisher,
            "hands": [_tiles_to_data(hand) for hand in result.hands],
            "settlement": _settlement_to_data(result.settlement),
        }
    drawn = state.drawn_tile
    rules = state.rules
    return {
        "format": STATE_FORMAT,
        "rules": {"players": rules.players, "hand_size": rules.hand_size, "target": rules.target},
        "phase": state.phase.value,
        "round": state.round_number,
        "opener": state.opener,
        "to_move": state.to_move,
        "hands": [_tiles_to_data(hand) for hand in state.hands],
        "boneyard": _tiles_to_data(state.boneyard),
        "layout": [str(placement) for placement in state.layout.placements],
        "scores": list(state.scores),
        "drawn": None if drawn is None else str(drawn),
        "source": source_data,
        "lot": [[[seat, value] for seat, value in lot_round] for lot_round in state.lot],
        "last_round": last_round,
        "winner": state.winner,
    }


def state_to_json(state: State) -> str:
    """``state`` as compact JSON text, keys in a fixed order (see :func:`state_to_data`)."""
    return json.dumps(state_to_data(state), separators=(",", ":"))


# ---------------------------------------------------------------- JSON -> state

_STATE_KEYS: Final = (
    "format",
    "rules",
    "phase",
    "round",
    "opener",
    "to_move",
    "hands",
    "boneyard",
    "layout",
    "scores",
    "drawn",
    "source",
    "lot",
    "last_round",
    "winner",
)
_RULES_KEYS: Final = ("players", "hand_size", "target")
_LAST_ROUND_KEYS: Final = ("round", "finisher", "hands", "settlement")
_SETTLEMENT_KEYS: Final = ("hand_pips", "deductions", "side_deductions")


def _object(value: JsonValue, keys: tuple[str, ...], what: str, rule: str) -> Mapping[str, JsonValue]:
    if not isinstance(value, dict):
        raise NotationError(rule, f"{what} is a JSON object, got {_kind(value)}")
    missing = [key for key in keys if key not in value]
    unknown = sorted(key for key in value if key not in keys)
    if missing or unknown:
        raise NotationError(
            rule,
            f"{what} has the keys {', '.join(keys)}"
            + (f"; missing {', '.join(missing)}" if missing else "")
            + (f"; unknown {', '.join(map(repr, unknown))}" if unknown else ""),
        )
    return value


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _int(value: JsonValue, what: str, rule: str) -> int:
    # bool is an int in Python but not in JSON: true is not 1.
    if type(value) is not int:
        raise NotationError(rule, f"{what} is an integer, got {_kind(value)} {value!r:.40}")
    if not -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
        raise NotationError(rule, f"{what} is out of range: |{what}| is at most 2**53 - 1")
    return value


def _seat(value: JsonValue, rules: Rules, what: str, rule: str) -> int:
    seat = _int(value, what, rule)
    if not 0 <= seat < rules.players:
        raise InvalidStateError(rule, f"{what} is a seat 0..{rules.players - 1}, got {seat}")
    return seat


def _list(value: JsonValue, what: str, rule: str, most: int) -> list[JsonValue]:
    if not isinstance(value, list):
        raise NotationError(rule, f"{what} is a JSON array, got {_kind(value)}")
    if len(value) > most:
        raise NotationError(rule, f"{what} has at most {most} entries, got {len(value)}")
    return value


def _tiles(value: JsonValue, what: str, rule: str) -> tuple[Tile, ...]:
    tiles = tuple(parse_tile(_text(item, what, "SETUP-1")) for item in _list(value, what, rule, TILE_COUNT))
    if len(set(tiles)) != len(tiles):
        twice = sorted({str(t) for t in tiles if tiles.count(t) > 1})
        raise InvalidStateError("SETUP-1", f"{what} holds a tile twice: {', '.join(twice)}")
    return tiles


def _text(value: JsonValue, what: str, rule: str) -> str:
    if not isinstance(value, str):
        raise NotationError(rule, f"{what} holds text, got {_kind(value)}")
    return value


def _hands(value: JsonValue, rules: Rules, what: str) -> tuple[tuple[Tile, ...], ...]:
    hands = _list(value, what, "SETUP-4", MAX_SEATS)
    if len(hands) != rules.players:
        raise InvalidStateError("SETUP-2", f"{what} holds one hand per seat: {rules.players}, got {len(hands)}")
    return tuple(
        tuple(sorted(_tiles(hand, f"{what}[{seat}]", "SETUP-4"))) for seat, hand in enumerate(hands)
    )


def _rules(value: JsonValue) -> Rules:
    data = _object(value, _RULES_KEYS, "rules", "SETUP-2")
    players = _int(data["players"], "rules.players", "SETUP-2")
    hand_size = _int(data["hand_size"], "rules.hand_size", "SETUP-4")
    target = _int(data["target"], "rules.target", "SETUP-3")
    try:
        return Rules(players, hand_size, target)
    except SniffError as err:
        raise InvalidStateError(err.rule, _message(err)) from None


def _phase(value: JsonValue) -> Phase:
    text = _text(value, "phase", "END-1")
    for phase in Phase:
        if phase.value == text:
            return phase
    raise NotationError("END-1", f"phase is one of {', '.join(p.value for p in Phase)}; got {text!r:.40}")


def _layout(value: JsonValue) -> Layout:
    layout = Layout.EMPTY
    for number, item in enumerate(_list(value, "layout", "PLACE-1", TILE_COUNT), 1):
        placement = parse_placement(_text(item, f"layout[{number - 1}]", "PLACE-1"))
        try:
            layout = layout.place(placement.tile, placement.target)
        except SniffError as err:
            raise InvalidStateError(err.rule, f"layout placement {number} ({placement}): {_message(err)}") from None
    return layout


def _scores(value: JsonValue, rules: Rules, what: str, rule: str) -> tuple[int, ...]:
    items = _list(value, what, rule, MAX_SEATS)
    if len(items) != rules.sides:
        raise InvalidStateError("SETUP-2", f"{what} has one entry per side: {rules.sides}, got {len(items)}")
    numbers = tuple(_int(item, f"{what}[{i}]", rule) for i, item in enumerate(items))
    return numbers


def _source(value: JsonValue) -> SplitMix64 | None:
    if value is None:
        return None
    data = _object(value, ("splitmix64",), "source", "SETUP-5")
    text = _text(data["splitmix64"], "source.splitmix64", "SETUP-5")
    if not _HEX64.fullmatch(text):
        raise NotationError("SETUP-5", f"source.splitmix64 is 16 lower-case hex digits, got {text!r:.40}")
    return SplitMix64(int(text, 16))


def _lot(value: JsonValue, rules: Rules) -> tuple[LotRound, ...]:
    rounds: list[LotRound] = []
    # Ties may repeat without end in principle; 64 rounds (odds below 10**-30) keeps hostile input cheap.
    for number, item in enumerate(_list(value, "lot", "OPEN-1", 64)):
        draws: list[tuple[int, int]] = []
        for pair in _list(item, f"lot[{number}]", "OPEN-1", MAX_SEATS):
            entry = _list(pair, f"lot[{number}] entry", "OPEN-1", 2)
            if len(entry) != 2:
                raise NotationError("OPEN-1", f"lot[{number}] holds [seat, value] pairs")
            seat = _seat(entry[0], rules, f"lot[{number}] seat", "OPEN-1")
            drawn = _int(entry[1], f"lot[{number}] value", "OPEN-1")
            if not 1 <= drawn <= LOT_FACES:
                raise InvalidStateError("OPEN-1", f"a lot draws values 1..{LOT_FACES}, got {drawn}")
            draws.append((seat, drawn))
        rounds.append(tuple(draws))
    candidates = tuple(range(rules.players))
    for number, lot_round in enumerate(rounds):
        seats = tuple(seat for seat, _ in lot_round)
        if seats != candidates:
            raise InvalidStateError(
                "OPEN-1",
                f"lot round {number} draws for seats {list(candidates)} in seat order, got {list(seats)}",
            )
        best = max(value for _, value in lot_round)
        candidates = tuple(seat for seat, value in lot_round if value == best)
        if len(candidates) == 1 and number != len(rounds) - 1:
            raise InvalidStateError("OPEN-1", f"lot round {number} has a single winner, yet the lot goes on")
    if rounds and len(candidates) != 1:
        raise InvalidStateError("OPEN-1", "the lot ends in a tie; a tie is drawn again among the tied seats")
    return tuple(rounds)


def _last_round(value: JsonValue, rules: Rules) -> RoundResult | None:
    if value is None:
        return None
    data = _object(value, _LAST_ROUND_KEYS, "last_round", "SETTLE-1")
    number = _int(data["round"], "last_round.round", "END-1")
    finisher_data = data["finisher"]
    finisher = None if finisher_data is None else _seat(finisher_data, rules, "last_round.finisher", "END-1")
    hands = _hands(data["hands"], rules, "last_round.hands")
    everything = [tile for hand in hands for tile in hand]
    if len(set(everything)) != len(everything):
        raise InvalidStateError("SETUP-1", "last_round.hands hold a tile twice")
    if finisher is not None and hands[finisher]:
        raise InvalidStateError("END-1", f"seat {finisher} finished round {number}, so its hand is empty")
    settlement = settle_round(rules, hands)
    given = _object(data["settlement"], _SETTLEMENT_KEYS, "last_round.settlement", "SETTLE-1")
    for key, expected in zip(
        _SETTLEMENT_KEYS, (settlement.hand_pips, settlement.deductions, settlement.side_deductions)
    ):
        found = _list(given[key], f"last_round.settlement.{key}", "SETTLE-1", MAX_SEATS)
        if found != list(expected):
            raise InvalidStateError(
                "SETTLE-1" if key != "side_deductions" else "SETTLE-2",
                f"last_round.settlement.{key} is {list(expected)} for those hands, got {found!r:.80}",
            )
    return RoundResult(number, finisher, hands, settlement)


def _fits(tile: Tile, layout: Layout) -> bool:
    if layout.is_empty:
        return True
    return any(point.value in (tile.low, tile.high) for point in layout.open_points)


def state_from_data(value: JsonValue) -> State:
    """The state a JSON object describes, after checking it could arise in a match.

    Raises :class:`NotationError` when a field has the wrong shape or type
    and :class:`InvalidStateError` when the fields are well formed but
    contradict the rules; each names the rule. Checked: the rules
    (SETUP-2..4), one hand per seat and the 28 tiles each exactly once across
    hands, boneyard and layout (SETUP-1), the layout's geometry replayed
    placement by placement (PLACE-1, PLACE-2, SNIFF-1..3, OPEN-3), scores per
    side and multiples of 5 (SETTLE-4), the drawn tile (DRAW-2), the lot
    (OPEN-1), the previous round's settlement (SETTLE-1..3), and that the
    phase agrees with the rest (END-1, BLOCK-1, MATCH-1, OPEN-2).
    """
    data = _object(value, _STATE_KEYS, "a state", DOCUMENT_RULE)
    if data["format"] != STATE_FORMAT:
        raise NotationError(DOCUMENT_RULE, f"format is {STATE_FORMAT!r}, got {data['format']!r:.40}")
    rules = _rules(data["rules"])
    phase = _phase(data["phase"])
    round_number = _int(data["round"], "round", "END-1")
    if round_number < 1:
        raise InvalidStateError("END-1", f"rounds are numbered from 1, got {round_number}")
    opener = _seat(data["opener"], rules, "opener", "OPEN-1")
    to_move = _seat(data["to_move"], rules, "to_move", "TURN-1")
    hands = _hands(data["hands"], rules, "hands")
    boneyard = _tiles(data["boneyard"], "boneyard", "SETUP-5")
    layout = _layout(data["layout"])
    on_table = tuple(placement.tile for placement in layout.placements)
    _check_conservation(hands, boneyard, on_table)
    scores = _scores(data["scores"], rules, "scores", "SETTLE-4")
    for side, score in enumerate(scores):
        if score % 5:
            raise InvalidStateError("SETTLE-4", f"every score is a multiple of 5; side {side} has {score}")
    drawn_data = data["drawn"]
    drawn = None if drawn_data is None else parse_tile(_text(drawn_data, "drawn", "DRAW-2"))
    source = _source(data["source"])
    lot = _lot(data["lot"], rules)
    last_round = _last_round(data["last_round"], rules)
    winner_data = data["winner"]
    winner = None if winner_data is None else _int(winner_data, "winner", "MATCH-1")
    if winner is not None and not 0 <= winner < rules.sides:
        raise InvalidStateError("MATCH-1", f"winner is a side 0..{rules.sides - 1}, got {winner}")

    _check_lot_and_opener(round_number, opener, lot, last_round, phase)
    _check_phase(rules, phase, round_number, to_move, hands, boneyard, layout, scores, drawn, last_round, winner)
    if layout.is_empty and phase is Phase.PLAYING and to_move != opener:
        raise InvalidStateError("OPEN-3", f"nothing is played yet, so the opener (seat {opener}) is to move")
    if drawn is not None:
        _check_drawn(to_move, hands, layout, drawn)

    state = State.create(
        rules=rules,
        phase=phase,
        round_number=round_number,
        opener=opener,
        to_move=to_move,
        hands=hands,
        boneyard=boneyard,
        layout=layout,
        scores=scores,
        drawn=drawn,
        source=source,
        lot=lot,
        last_round=last_round,
        winner=winner,
    )
    if phase is Phase.PLAYING and not legal_moves(state):
        raise InvalidStateError("TURN-1", "the round is under way, yet the seat to move has no move")
    return state


def _check_conservation(
    hands: tuple[tuple[Tile, ...], ...], boneyard: tuple[Tile, ...], on_table: tuple[Tile, ...]
) -> None:
    seen: dict[Tile, list[str]] = {}
    for seat, hand in enumerate(hands):
        for tile in hand:
            seen.setdefault(tile, []).append(f"hand {seat}")
    for tile in boneyard:
        seen.setdefault(tile, []).append("boneyard")
    for tile in on_table:
        seen.setdefault(tile, []).append("layout")
    twice = [f"{tile} ({' and '.join(places)})" for tile, places in sorted(seen.items()) if len(places) > 1]
    missing = [str(tile) for tile in DOUBLE_SIX if tile not in seen]
    if twice or missing:
        raise InvalidStateError(
            "SETUP-1",
            "hands, boneyard and layout hold each of the 28 tiles exactly once"
            + (f"; twice: {', '.join(twice)}" if twice else "")
            + (f"; missing: {', '.join(missing)}" if missing else ""),
        )


def _check_lot_and_opener(
    round_number: int,
    opener: int,
    lot: tuple[LotRound, ...],
    last_round: RoundResult | None,
    phase: Phase,
) -> None:
    if lot:
        chosen = max(lot[-1], key=lambda draw: draw[1])[0]
        if chosen != opener:
            raise InvalidStateError("OPEN-1", f"the lot chose seat {chosen}, but the opener is seat {opener}")
    # A settled round is recorded until the next one is dealt; a won match is never settled.
    recorded = round_number if phase is Phase.ROUND_OVER else round_number - 1
    if recorded == 0:
        if last_round is not None:
            raise InvalidStateError("END-1", "round 1 has no earlier round to record as last_round")
        return
    if last_round is None or last_round.round_number != recorded:
        found = "none" if last_round is None else f"round {last_round.round_number}"
        raise InvalidStateError(
            "END-1", f"in round {round_number} ({phase.value}) last_round is round {recorded}, got {found}"
        )
    if phase is not Phase.ROUND_OVER and last_round.finisher is not None:
        if opener != last_round.finisher:
            raise InvalidStateError(
                "OPEN-2",
                f"seat {last_round.finisher} played out round {recorded} and opens round {round_number},"
                f" not seat {opener}",
            )
        if lot:
            raise InvalidStateError("OPEN-2", "the finisher opens without a lot, yet a lot is recorded")


def _check_phase(
    rules: Rules,
    phase: Phase,
    round_number: int,
    to_move: int,
    hands: tuple[tuple[Tile, ...], ...],
    boneyard: tuple[Tile, ...],
    layout: Layout,
    scores: tuple[int, ...],
    drawn: Tile | None,
    last_round: RoundResult | None,
    winner: int | None,
) -> None:
    reached = [side for side, score in enumerate(scores) if score >= rules.target]
    if phase is Phase.MATCH_OVER:
        if winner is None or winner not in reached:
            raise InvalidStateError("MATCH-1", f"the match is over, so the winner's score reaches {rules.target}")
        if len(reached) > 1:
            raise InvalidStateError("MATCH-1", "the match ends the instant one side reaches the target; two have")
        if layout.is_empty:
            raise InvalidStateError("MATCH-1", "only a placement wins a match, yet nothing is on the table")
        if rules.side_of(to_move) != winner:
            raise InvalidStateError("MATCH-1", f"seat {to_move} placed last, so side {winner} cannot have won")
    else:
        if winner is not None:
            raise InvalidStateError("MATCH-1", f"side {winner} won, yet the match is {phase.value}")
        if reached:
            raise InvalidStateError(
                "MATCH-1", f"side {reached[0]} reached the target {rules.target}; the match would be over"
            )
    if drawn is not None and phase is not Phase.PLAYING:
        raise InvalidStateError("DRAW-2", f"a drawn tile is placed during play; the match is {phase.value}")
    held = [tile for hand in hands for tile in hand]
    blocked = not boneyard and not any(_fits(tile, layout) for tile in held)
    if phase is Phase.PLAYING:
        empty = [seat for seat, hand in enumerate(hands) if not hand]
        if empty:
            raise InvalidStateError("END-1", f"seat {empty[0]} has played out, so the round is over")
        if blocked:
            raise InvalidStateError("BLOCK-1", "the boneyard is empty and nobody can place: the round is blocked")
    elif phase is Phase.ROUND_OVER:
        if last_round is None or last_round.round_number != round_number or last_round.hands != hands:
            raise InvalidStateError("END-1", "a finished round records its own hands as last_round")
        if last_round.finisher is None and not blocked:
            raise InvalidStateError("BLOCK-1", "the round is recorded as blocked, yet a tile can still be placed")
        if last_round.finisher is not None and last_round.finisher != to_move:
            raise InvalidStateError(
                "END-1", f"seat {last_round.finisher} played out, so it moved last, not seat {to_move}"
            )


def _check_drawn(
    to_move: int,
    hands: tuple[tuple[Tile, ...], ...],
    layout: Layout,
    drawn: Tile,
) -> None:
    hand = hands[to_move]
    if drawn not in hand:
        raise InvalidStateError("DRAW-2", f"the drawn tile {drawn} is in the hand of seat {to_move}, who drew it")
    if not _fits(drawn, layout) or layout.is_empty:
        raise InvalidStateError("DRAW-2", f"a drawn tile is kept to be placed only when it fits; {drawn} does not")
    others = [str(tile) for tile in hand if tile != drawn and _fits(tile, layout)]
    if others:
        raise InvalidStateError(
            "DRAW-1", f"seat {to_move} drew although it could place {', '.join(others)}"
        )


def state_from_json(text: str | bytes) -> State:
    """The state in JSON text; see :func:`load_json` and :func:`state_from_data`."""
    return state_from_data(load_json(text))
