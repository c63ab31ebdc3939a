"""JSON forms of states, rules, settlements, lots and round results, each written once.

A state is a JSON object whose fields ``specs/vectors/schema.json``
describes (``$defs/state``); its parts — rules, a settlement, a round
result, a lot — have their own ``*_to_data`` and ``*_from_data`` here, used
by the state codec, the conformance runner and the vector generator alike.

Reading is hardened against corrupt or hostile input. The text goes
through :func:`~sniff_rules.formats.strict_json.load_json` and every field through its
typed accessors (FORMAT-2), every tile, placement and move string through
:mod:`sniff_rules.formats.notation` (FORMAT-1): either refusal is a
:class:`~sniff_rules.errors.NotationError`. The state a well-formed document
builds is then checked by :func:`sniff_rules.position.reachability.problems`, and one
that legal play cannot reach raises
:class:`~sniff_rules.errors.InvalidStateError` citing the rule it breaks.
Nothing half checked is returned. Writing refuses what reading would: a
random source other than SplitMix64, an integer beyond ±(2**53 - 1).

>>> from sniff_rules import Rules, new_match
>>> state = new_match(Rules.standard(3), seed=42)
>>> state_from_json(state_to_json(state)) == state
True
>>> rules_to_data(state.rules)
{'players': 3, 'hand_size': 6, 'target': 200}
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from sniff_rules.errors import InvalidStateError, NotationError, SniffError, described
from sniff_rules.formats.notation import parse_placement, parse_tile
from sniff_rules.formats.strict_json import (
    JSON_RULE,
    MAX_SAFE_INT,
    JsonObject,
    JsonValue,
    json_array,
    json_int,
    json_ints,
    json_object,
    json_str,
    load_json,
)
from sniff_rules.layout import Contribution, Layout, Placement
from sniff_rules.position.reachability import Problem, lot_problems, problems, round_result_problems
from sniff_rules.randomness import LotRound, SplitMix64
from sniff_rules.rules import MAX_PLAYERS, Rules
from sniff_rules.scoring import Settlement
from sniff_rules.state import Phase, RoundContext, RoundResult, State
from sniff_rules.tiles import NO_TILE, TILE_COUNT, Tile, mask_of_tiles

STATE_FORMAT: Final = "sniff-rules/state@1"
"""The ``format`` tag of a state document; a new layout of fields gets a new tag."""

MAX_LOT_ROUNDS: Final = 64
"""Longest lot read. Ties may repeat without end in principle; 64 rounds (odds below
10**-30) keeps hostile input cheap."""

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
_ROUND_RESULT_KEYS: Final = ("round", "finisher", "hands", "settlement")
_SETTLEMENT_KEYS: Final = ("hand_pips", "deductions", "side_deductions")
_HEX64: Final = re.compile(r"[0-9a-f]{16}")


def _message(err: SniffError) -> str:
    """An error's text without its ``RULE: `` prefix, to re-raise it as another kind."""
    return str(err).removeprefix(f"{err.rule}: ")


# ---------------------------------------------------------------- parts, both ways


def tiles_to_data(tiles: Sequence[Tile]) -> list[JsonValue]:
    """Tiles as an array of their text forms, in the order given."""
    return [str(tile) for tile in tiles]


def order_from_data(value: JsonValue, what: str) -> tuple[Tile, ...]:
    """A supplied deal order: an array of at most 28 entries (FORMAT-2), each a tile (FORMAT-1).

    Whether it holds the 28 tiles once each is for the deal to say (SETUP-5), as CONV-3 orders a deal's
    refusals: every field's form before any rule.
    """
    items = json_array(value, what, TILE_COUNT)
    return tuple(parse_tile(json_str(item, f"{what}[{index}]")) for index, item in enumerate(items))


def tiles_from_data(value: JsonValue, what: str) -> tuple[Tile, ...]:
    """An array of at most 28 distinct tiles (FORMAT-2, FORMAT-1; SETUP-1 for a tile twice)."""
    tiles = order_from_data(value, what)
    if len(set(tiles)) != len(tiles):
        # Entries, not tiles: a hand's or the boneyard's tiles are secrets a refusal must not show.
        first = next(index for index, tile in enumerate(tiles) if tiles.index(tile) != index)
        raise InvalidStateError(
            "SETUP-1", f"{what} holds a tile twice: entries {tiles.index(tiles[first])} and {first} are one tile"
        )
    return tiles


def format_checked(data: Mapping[str, JsonValue], tag: str) -> None:
    """Refuse a document whose ``format`` is not ``tag`` (FORMAT-2), quoting only what ``described`` shows."""
    if data["format"] != tag:
        raise NotationError(JSON_RULE, f"format is {tag!r}, got {described(data['format'], 40)}")


def read_phase(value: JsonValue) -> Phase:
    """A phase by its value (``"playing"``, ...), else FORMAT-2 listing the phases."""
    text = json_str(value, "phase")
    for phase in Phase:
        if phase.value == text:
            return phase
    raise NotationError(JSON_RULE, f"phase is one of {', '.join(p.value for p in Phase)}; got {described(text, 40)}")


def read_seat(value: JsonValue, rules: Rules, what: str, rule: str) -> int:
    """A seat of the table ``rules`` describe; one out of range is refused citing ``rule``."""
    seat = json_int(value, what)
    if not 0 <= seat < rules.players:
        raise InvalidStateError(rule, f"{what} is a seat 0..{rules.players - 1}, got {seat}")
    return seat


def read_hands(
    value: JsonValue, players: int, what: str, *, hidden: bool = False
) -> tuple[tuple[Tile, ...] | None, ...]:
    """One hand per seat (SETUP-2), each read by :func:`tiles_from_data` in the order written; with
    ``hidden``, a hand may be ``null`` (a hand the reader may not see)."""
    hands = json_array(value, what, MAX_PLAYERS)
    if len(hands) != players:
        raise InvalidStateError("SETUP-2", f"{what} holds one hand per seat: {players}, got {len(hands)}")
    return tuple(
        None if hand is None and hidden else tiles_from_data(hand, f"{what}[{seat}]") for seat, hand in enumerate(hands)
    )


def read_placements(value: JsonValue, what: str, refusal: Callable[[int, Placement, SniffError], SniffError]) -> Layout:
    """The layout an array of at most 28 placements builds, placed in order (FORMAT-2, FORMAT-1); a placement
    the layout refuses raises ``refusal(number, placement, error)``, numbered from 1."""
    layout = Layout.EMPTY
    for number, item in enumerate(json_array(value, what, TILE_COUNT), 1):
        placement = parse_placement(json_str(item, f"{what}[{number - 1}]"))
        try:
            layout = layout.place(placement.tile, placement.target)
        except SniffError as err:
            raise refusal(number, placement, err) from None
    return layout


def contributions_to_data(contributions: Sequence[Contribution]) -> list[JsonValue]:
    """What each end contributes to an end count, as ``{"tile", "value"}`` objects."""
    return [{"tile": str(item.tile), "value": item.value} for item in contributions]


def rules_to_data(rules: Rules) -> JsonObject:
    """House rules as ``{"players", "hand_size", "target"}``."""
    return {"players": rules.players, "hand_size": rules.hand_size, "target": rules.target}


def rules_from_data(value: JsonValue, what: str = "rules") -> Rules:
    """House rules from ``{"players", "hand_size", "target"}``.

    A malformed object raises :class:`NotationError` (FORMAT-2); integers
    that describe no game raise :class:`~sniff_rules.errors.InvalidRulesError`
    (SETUP-2..4).
    """
    data = json_object(value, what, _RULES_KEYS)
    return Rules(
        json_int(data["players"], f"{what}.players"),
        json_int(data["hand_size"], f"{what}.hand_size"),
        json_int(data["target"], f"{what}.target"),
    )


def settlement_to_data(settlement: Settlement) -> JsonObject:
    """A settlement as ``{"hand_pips", "deductions", "side_deductions"}``."""
    return {
        "hand_pips": list(settlement.hand_pips),
        "deductions": list(settlement.deductions),
        "side_deductions": list(settlement.side_deductions),
    }


def settlement_from_data(value: JsonValue, what: str = "settlement") -> Settlement:
    """A settlement's three integer arrays, read as written (FORMAT-2); see :func:`round_result_from_data`."""
    data = json_object(value, what, _SETTLEMENT_KEYS)
    hand_pips, deductions, side_deductions = (
        tuple(json_ints(data[key], f"{what}.{key}", MAX_PLAYERS)) for key in _SETTLEMENT_KEYS
    )
    return Settlement(hand_pips, deductions, side_deductions)


def round_result_to_data(result: RoundResult) -> JsonObject:
    """A settled round as ``{"round", "finisher", "hands", "settlement"}``."""
    return {
        "round": result.round_number,
        "finisher": result.finisher,
        "hands": [tiles_to_data(hand) for hand in result.hands],
        "settlement": settlement_to_data(result.settlement),
    }


def round_result_from_data(value: JsonValue, rules: Rules, what: str = "last_round") -> RoundResult:
    """A settled round under ``rules``, refused on the first of its
    :func:`~sniff_rules.position.reachability.round_result_problems`: a tile twice
    (SETUP-1), a finisher whose hand is not the only empty one (END-1), a
    blocked round no block explains (BLOCK-1), a settlement that is not its
    hands' own (SETTLE-1, SETTLE-2).
    """
    data = json_object(value, what, _ROUND_RESULT_KEYS)
    number = json_int(data["round"], f"{what}.round")
    if number < 1:
        raise InvalidStateError("END-1", f"{what}.round counts from 1, got {number}")
    finisher_data = data["finisher"]
    finisher = None if finisher_data is None else read_seat(finisher_data, rules, f"{what}.finisher", "END-1")
    hands = _hands(data["hands"], rules, f"{what}.hands")
    result = RoundResult(number, finisher, hands, settlement_from_data(data["settlement"], f"{what}.settlement"))
    _refuse_first(round_result_problems(result, rules, what))
    return result


def lot_to_data(lot: Sequence[LotRound]) -> list[JsonValue]:
    """A lot as one array per round of ``[seat, value]`` draws."""
    return [[[seat, value] for seat, value in lot_round] for lot_round in lot]


def lot_from_data(value: JsonValue, rules: Rules, what: str = "lot") -> tuple[LotRound, ...]:
    """A lot under ``rules``: every candidate in seat order, values 1..6, ties drawn again (OPEN-1)."""
    rounds: list[LotRound] = []
    for number, item in enumerate(json_array(value, what, MAX_LOT_ROUNDS)):
        draws: list[tuple[int, int]] = []
        for pair in json_array(item, f"{what}[{number}]", MAX_PLAYERS):
            entry = json_array(pair, f"{what}[{number}] entry", 2)
            if len(entry) != 2:
                raise NotationError(JSON_RULE, f"{what}[{number}] holds [seat, value] pairs")
            draws.append((json_int(entry[0], f"{what}[{number}] seat"), json_int(entry[1], f"{what}[{number}] value")))
        rounds.append(tuple(draws))
    lot = tuple(rounds)
    _refuse_first(lot_problems(lot, rules, what))
    return lot


def _refuse_first(found: Sequence[Problem]) -> None:
    """Raise the first problem as an :class:`InvalidStateError` citing its rule and naming its field."""
    if found:
        first = found[0]
        named = first.message if first.message.startswith(first.field) else f"{first.field}: {first.message}"
        raise InvalidStateError(first.rule, named)


def _tile_index(tile: Tile) -> int:
    return tile.index


def _hands(value: JsonValue, rules: Rules, what: str) -> tuple[tuple[Tile, ...], ...]:
    return tuple(
        tuple(sorted(hand, key=_tile_index)) for hand in read_hands(value, rules.players, what) if hand is not None
    )


# ---------------------------------------------------------------- state -> JSON


def state_to_data(state: State) -> JsonObject:
    """The JSON object (``$defs/state`` of the schema) for ``state``: every fact of the position.

    Only a :class:`~sniff_rules.randomness.SplitMix64` source (or none) can
    be written: another source has no language-neutral form (FORMAT-2).
    """
    source = state.source
    if source is None:
        source_data: JsonValue = None
    elif isinstance(source, SplitMix64):
        # A string: 64-bit integers do not survive a JavaScript JSON reader.
        source_data = {"splitmix64": f"{source.state:016x}"}
    else:
        raise NotationError(JSON_RULE, f"only a SplitMix64 source has a JSON form, not {type(source).__name__}")
    for what, number in (("round", state.round_number), *(("scores", score) for score in state.scores)):
        if not -MAX_SAFE_INT <= number <= MAX_SAFE_INT:
            raise NotationError(JSON_RULE, f"{what} {number} is beyond ±(2**53 - 1): no JSON reader holds it exactly")
    result = state.last_round
    drawn = state.drawn_tile
    return {
        "format": STATE_FORMAT,
        "rules": rules_to_data(state.rules),
        "phase": state.phase.value,
        "round": state.round_number,
        "opener": state.opener,
        "to_move": state.to_move,
        "hands": [tiles_to_data(hand) for hand in state.hands],
        "boneyard": tiles_to_data(state.boneyard),
        "layout": [str(placement) for placement in state.layout.placements],
        "scores": list(state.scores),
        "drawn": None if drawn is None else str(drawn),
        "source": source_data,
        "lot": lot_to_data(state.lot),
        "last_round": None if result is None else round_result_to_data(result),
        "winner": state.winner,
    }


def state_to_json(state: State) -> str:
    """``state`` as compact JSON text, keys in a fixed order (see :func:`state_to_data`).

    The text holds every secret of the match: all the hands, the boneyard
    in draw order and the random source that deals every later round and
    lot. It is for saving, replaying and testing a match, never for showing
    a seat; a seat's fair view is :func:`sniff_rules.play.view.observe`.
    """
    return json.dumps(state_to_data(state), separators=(",", ":"))


# ---------------------------------------------------------------- JSON -> state


def _rules(value: JsonValue) -> Rules:
    try:
        return rules_from_data(value)
    except NotationError:
        raise
    except SniffError as err:
        raise InvalidStateError(err.rule, _message(err)) from None


def _placement_refused(number: int, placement: Placement, err: SniffError) -> SniffError:
    return InvalidStateError(err.rule, f"layout placement {number} ({placement}): {_message(err)}")


def _scores(value: JsonValue, rules: Rules) -> tuple[int, ...]:
    scores = tuple(json_ints(value, "scores", MAX_PLAYERS))
    if len(scores) != rules.sides:
        raise InvalidStateError("SETUP-2", f"scores has one entry per side: {rules.sides}, got {len(scores)}")
    return scores


def _length_of(text: str) -> str:
    """A malformed source's text by its length alone: its digits would be the source's state."""
    return f"{len(text)} characters"


def _source(value: JsonValue) -> SplitMix64 | None:
    if value is None:
        return None
    data = json_object(value, "source", ("splitmix64",))
    text = json_str(data["splitmix64"], "source.splitmix64")
    if not _HEX64.fullmatch(text):
        raise NotationError(JSON_RULE, f"source.splitmix64 is 16 lower-case hex digits, got {_length_of(text)}")
    return SplitMix64(int(text, 16))


def state_from_data(value: JsonValue) -> State:
    """The state a JSON object describes, refused unless legal play can reach it.

    Parse the shape, build, refuse on the first problem: a field of the
    wrong shape or type raises :class:`NotationError` (FORMAT-2), a string
    that is no tile or placement too (FORMAT-1); what a :class:`State`
    cannot hold at all raises :class:`InvalidStateError` as it is read
    (rules that describe no game, SETUP-2..4; a seat out of range, TURN-1 or
    OPEN-1; a hand per seat, SETUP-2; a tile twice in one list, SETUP-1; a
    layout its placements do not build, by the rule of play the placement
    breaks). The state built is then checked by
    :func:`sniff_rules.position.reachability.problems`, and the first problem found is
    raised as an :class:`InvalidStateError` citing its rule and naming its
    field: ``specs/positions.md`` lists every check.
    """
    data = json_object(value, "a state", _STATE_KEYS)
    format_checked(data, STATE_FORMAT)
    rules = _rules(data["rules"])
    phase = read_phase(data["phase"])
    round_number = json_int(data["round"], "round")
    if round_number < 1:
        raise InvalidStateError("END-1", f"rounds are numbered from 1, got {round_number}")
    opener = read_seat(data["opener"], rules, "opener", "OPEN-1")
    to_move = read_seat(data["to_move"], rules, "to_move", "TURN-1")
    hands = _hands(data["hands"], rules, "hands")
    boneyard = tiles_from_data(data["boneyard"], "boneyard")
    layout = read_placements(data["layout"], "layout", _placement_refused)
    scores = _scores(data["scores"], rules)
    drawn_data = data["drawn"]
    drawn = None if drawn_data is None else parse_tile(json_str(drawn_data, "drawn"))
    source = _source(data["source"])
    lot = lot_from_data(data["lot"], rules)
    last_round = None if data["last_round"] is None else round_result_from_data(data["last_round"], rules)
    winner_data = data["winner"]
    winner = None if winner_data is None else json_int(winner_data, "winner")
    if winner is not None and not 0 <= winner < rules.sides:
        raise InvalidStateError("MATCH-1", f"winner is a side 0..{rules.sides - 1}, got {winner}")
    state = State(
        context=RoundContext(
            rules=rules, round_number=round_number, opener=opener, source=source, lot=lot, last_round=last_round
        ),
        phase=phase,
        to_move=to_move,
        hand_masks=tuple(mask_of_tiles(hand) for hand in hands),
        boneyard_ids=tuple(tile.index for tile in boneyard),
        layout=layout,
        scores=scores,
        drawn=NO_TILE if drawn is None else drawn.index,
        winner=winner,
    )
    # Built before it is checked, so that the position check reads a state; none of it is returned unchecked.
    _refuse_first(problems(state))
    return state


def state_from_json(text: str | bytes) -> State:
    """The state in JSON text; see :func:`~sniff_rules.formats.strict_json.load_json` and :func:`state_from_data`."""
    return state_from_data(load_json(text))
