"""JSON forms of states, rules, settlements, lots and round results, each written once.

A state is a JSON object whose fields ``specs/vectors/schema.json``
describes (``$defs/state``); its parts — rules, a settlement, a round
result, a lot — have their own ``*_to_data`` and ``*_from_data`` here, used
by the state codec, the conformance runner and the vector generator alike.

Reading is hardened against corrupt or hostile input. The text goes
through :func:`~sniff_rules.jsonio.load_json` and every field through its
typed accessors (FORMAT-2), every tile, placement and move string through
:mod:`sniff_rules.notation` (FORMAT-1): either refusal is a
:class:`~sniff_rules.errors.NotationError`. A well-formed document is then
checked as a position — the 28 tiles conserved, seats, phase, scores, the
lot, the layout's geometry replayed — and one that no legal match reaches
raises :class:`~sniff_rules.errors.InvalidStateError` naming the game rule
it breaks. Nothing half checked is returned.

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
from collections.abc import Sequence
from typing import Final

from sniff_rules.errors import InvalidStateError, NotationError, SniffError
from sniff_rules.jsonio import (
    JSON_RULE,
    JsonObject,
    JsonValue,
    json_array,
    json_int,
    json_ints,
    json_object,
    json_str,
    load_json,
)
from sniff_rules.layout import Layout
from sniff_rules.moves import legal_moves
from sniff_rules.notation import MAX_SEATS, parse_placement, parse_tile
from sniff_rules.randomness import LOT_FACES, LotRound, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.scoring import Settlement, settle_round
from sniff_rules.state import Phase, RoundContext, RoundResult, State
from sniff_rules.tiles import DOUBLE_SIX, NO_TILE, TILE_COUNT, Tile, mask_of_tiles

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


def tiles_from_data(value: JsonValue, what: str) -> tuple[Tile, ...]:
    """An array of at most 28 distinct tiles (FORMAT-2, FORMAT-1; SETUP-1 for a tile twice)."""
    items = json_array(value, what, TILE_COUNT)
    tiles = tuple(parse_tile(json_str(item, f"{what}[{index}]")) for index, item in enumerate(items))
    if len(set(tiles)) != len(tiles):
        twice = sorted({str(t) for t in tiles if tiles.count(t) > 1})
        raise InvalidStateError("SETUP-1", f"{what} holds a tile twice: {', '.join(twice)}")
    return tiles


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
        tuple(json_ints(data[key], f"{what}.{key}", MAX_SEATS)) for key in _SETTLEMENT_KEYS
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
    """A settled round under ``rules``, its settlement checked against its hands (SETTLE-1, SETTLE-2).

    Also checked: no tile twice (SETUP-1), and the finisher's hand empty (END-1).
    """
    data = json_object(value, what, _ROUND_RESULT_KEYS)
    number = json_int(data["round"], f"{what}.round")
    finisher_data = data["finisher"]
    finisher = None if finisher_data is None else _seat(finisher_data, rules, f"{what}.finisher", "END-1")
    hands = _hands(data["hands"], rules, f"{what}.hands")
    everything = [tile for hand in hands for tile in hand]
    if len(set(everything)) != len(everything):
        raise InvalidStateError("SETUP-1", f"{what}.hands hold a tile twice")
    if finisher is not None and hands[finisher]:
        raise InvalidStateError("END-1", f"seat {finisher} finished round {number}, so its hand is empty")
    given = settlement_from_data(data["settlement"], f"{what}.settlement")
    settlement = settle_round(rules, hands)
    for key in _SETTLEMENT_KEYS:
        expected, found = getattr(settlement, key), getattr(given, key)
        if found != expected:
            raise InvalidStateError(
                "SETTLE-2" if key == "side_deductions" else "SETTLE-1",
                f"{what}.settlement.{key} is {list(expected)} for those hands, got {list(found)}",
            )
    return RoundResult(number, finisher, hands, settlement)


def lot_to_data(lot: Sequence[LotRound]) -> list[JsonValue]:
    """A lot as one array per round of ``[seat, value]`` draws."""
    return [[[seat, value] for seat, value in lot_round] for lot_round in lot]


def lot_from_data(value: JsonValue, rules: Rules, what: str = "lot") -> tuple[LotRound, ...]:
    """A lot under ``rules``: every candidate in seat order, values 1..6, ties drawn again (OPEN-1)."""
    rounds: list[LotRound] = []
    for number, item in enumerate(json_array(value, what, MAX_LOT_ROUNDS)):
        draws: list[tuple[int, int]] = []
        for pair in json_array(item, f"{what}[{number}]", MAX_SEATS):
            entry = json_array(pair, f"{what}[{number}] entry", 2)
            if len(entry) != 2:
                raise NotationError(JSON_RULE, f"{what}[{number}] holds [seat, value] pairs")
            seat = _seat(entry[0], rules, f"{what}[{number}] seat", "OPEN-1")
            drawn = json_int(entry[1], f"{what}[{number}] value")
            if not 1 <= drawn <= LOT_FACES:
                raise InvalidStateError("OPEN-1", f"a lot draws values 1..{LOT_FACES}, got {drawn}")
            draws.append((seat, drawn))
        rounds.append(tuple(draws))
    candidates = tuple(range(rules.players))
    for number, lot_round in enumerate(rounds):
        seats = tuple(seat for seat, _ in lot_round)
        if seats != candidates:
            raise InvalidStateError(
                "OPEN-1", f"lot round {number} draws for seats {list(candidates)} in seat order, got {list(seats)}"
            )
        best = max(value for _, value in lot_round)
        candidates = tuple(seat for seat, value in lot_round if value == best)
        if len(candidates) == 1 and number != len(rounds) - 1:
            raise InvalidStateError("OPEN-1", f"lot round {number} has a single winner, yet the lot goes on")
    if rounds and len(candidates) != 1:
        raise InvalidStateError("OPEN-1", "the lot ends in a tie; a tie is drawn again among the tied seats")
    return tuple(rounds)


def _seat(value: JsonValue, rules: Rules, what: str, rule: str) -> int:
    seat = json_int(value, what)
    if not 0 <= seat < rules.players:
        raise InvalidStateError(rule, f"{what} is a seat 0..{rules.players - 1}, got {seat}")
    return seat


def _hands(value: JsonValue, rules: Rules, what: str) -> tuple[tuple[Tile, ...], ...]:
    hands = json_array(value, what, MAX_SEATS)
    if len(hands) != rules.players:
        raise InvalidStateError("SETUP-2", f"{what} holds one hand per seat: {rules.players}, got {len(hands)}")
    return tuple(tuple(sorted(tiles_from_data(hand, f"{what}[{seat}]"))) for seat, hand in enumerate(hands))


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
    a seat; a seat's fair view is :func:`sniff_rules.view.observe`.
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


def _phase(value: JsonValue) -> Phase:
    text = json_str(value, "phase")
    for phase in Phase:
        if phase.value == text:
            return phase
    raise NotationError(JSON_RULE, f"phase is one of {', '.join(p.value for p in Phase)}; got {text!r:.40}")


def _layout(value: JsonValue) -> Layout:
    layout = Layout.EMPTY
    for number, item in enumerate(json_array(value, "layout", TILE_COUNT), 1):
        placement = parse_placement(json_str(item, f"layout[{number - 1}]"))
        try:
            layout = layout.place(placement.tile, placement.target)
        except SniffError as err:
            raise InvalidStateError(err.rule, f"layout placement {number} ({placement}): {_message(err)}") from None
    return layout


def _scores(value: JsonValue, rules: Rules) -> tuple[int, ...]:
    scores = tuple(json_ints(value, "scores", MAX_SEATS))
    if len(scores) != rules.sides:
        raise InvalidStateError("SETUP-2", f"scores has one entry per side: {rules.sides}, got {len(scores)}")
    for side, score in enumerate(scores):
        if score % 5:
            raise InvalidStateError("SETTLE-4", f"every score is a multiple of 5; side {side} has {score}")
    return scores


def _source(value: JsonValue) -> SplitMix64 | None:
    if value is None:
        return None
    data = json_object(value, "source", ("splitmix64",))
    text = json_str(data["splitmix64"], "source.splitmix64")
    if not _HEX64.fullmatch(text):
        raise NotationError(JSON_RULE, f"source.splitmix64 is 16 lower-case hex digits, got {text!r:.40}")
    return SplitMix64(int(text, 16))


def state_from_data(value: JsonValue) -> State:
    """The state a JSON object describes, after checking it could arise in a match.

    Raises :class:`NotationError` when a field has the wrong shape or type
    (FORMAT-2) or a string is no tile or placement (FORMAT-1), and
    :class:`InvalidStateError` when the fields are well formed but
    contradict the rules; each names the rule. Checked: the rules
    (SETUP-2..4), one hand per seat and the 28 tiles each exactly once across
    hands, boneyard and layout (SETUP-1), the layout's geometry replayed
    placement by placement (PLACE-1, PLACE-2, SNIFF-1..3, OPEN-3), scores per
    side and multiples of 5 (SETTLE-4), the drawn tile (DRAW-2), the lot
    (OPEN-1), the previous round's settlement (SETTLE-1..3), and that the
    phase agrees with the rest (END-1, BLOCK-1, MATCH-1, OPEN-2).
    """
    data = json_object(value, "a state", _STATE_KEYS)
    if data["format"] != STATE_FORMAT:
        raise NotationError(JSON_RULE, f"format is {STATE_FORMAT!r}, got {data['format']!r:.40}")
    rules = _rules(data["rules"])
    phase = _phase(data["phase"])
    round_number = json_int(data["round"], "round")
    if round_number < 1:
        raise InvalidStateError("END-1", f"rounds are numbered from 1, got {round_number}")
    opener = _seat(data["opener"], rules, "opener", "OPEN-1")
    to_move = _seat(data["to_move"], rules, "to_move", "TURN-1")
    hands = _hands(data["hands"], rules, "hands")
    boneyard = tiles_from_data(data["boneyard"], "boneyard")
    layout = _layout(data["layout"])
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
    # Built before it is checked, so that every check reads the state; none of it is returned unchecked.
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
    _check_conservation(hands, boneyard, layout)
    _check_lot_and_opener(state)
    _check_phase(state)
    if layout.is_empty and phase is Phase.PLAYING and to_move != opener:
        raise InvalidStateError("OPEN-3", f"nothing is played yet, so the opener (seat {opener}) is to move")
    if drawn is not None:
        _check_drawn(state, drawn)
    if phase is Phase.PLAYING and not legal_moves(state):
        raise InvalidStateError("TURN-1", "the round is under way, yet the seat to move has no move")
    return state


def state_from_json(text: str | bytes) -> State:
    """The state in JSON text; see :func:`~sniff_rules.jsonio.load_json` and :func:`state_from_data`."""
    return state_from_data(load_json(text))


# ---------------------------------------------------------------- the position's checks


def _fits(tile: Tile, layout: Layout) -> bool:
    if layout.is_empty:
        return True
    return any(point.value in (tile.low, tile.high) for point in layout.open_points)


def _check_conservation(hands: tuple[tuple[Tile, ...], ...], boneyard: tuple[Tile, ...], layout: Layout) -> None:
    seen: dict[Tile, list[str]] = {}
    for seat, hand in enumerate(hands):
        for tile in hand:
            seen.setdefault(tile, []).append(f"hand {seat}")
    for tile in boneyard:
        seen.setdefault(tile, []).append("boneyard")
    for placement in layout.placements:
        seen.setdefault(placement.tile, []).append("layout")
    twice = [f"{tile} ({' and '.join(places)})" for tile, places in sorted(seen.items()) if len(places) > 1]
    missing = [str(tile) for tile in DOUBLE_SIX if tile not in seen]
    if twice or missing:
        raise InvalidStateError(
            "SETUP-1",
            "hands, boneyard and layout hold each of the 28 tiles exactly once"
            + (f"; twice: {', '.join(twice)}" if twice else "")
            + (f"; missing: {', '.join(missing)}" if missing else ""),
        )


def _check_lot_and_opener(state: State) -> None:
    round_number, opener, phase = state.round_number, state.opener, state.phase
    lot, last_round = state.lot, state.last_round
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


def _check_phase(state: State) -> None:
    rules, phase, layout, winner, last_round = state.rules, state.phase, state.layout, state.winner, state.last_round
    reached = [side for side, score in enumerate(state.scores) if score >= rules.target]
    if phase is Phase.MATCH_OVER:
        if winner is None or winner not in reached:
            raise InvalidStateError("MATCH-1", f"the match is over, so the winner's score reaches {rules.target}")
        if len(reached) > 1:
            raise InvalidStateError("MATCH-1", "the match ends the instant one side reaches the target; two have")
        if layout.is_empty:
            raise InvalidStateError("MATCH-1", "only a placement wins a match, yet nothing is on the table")
        if rules.side_of(state.to_move) != winner:
            raise InvalidStateError("MATCH-1", f"seat {state.to_move} placed last, so side {winner} cannot have won")
    elif winner is not None:
        raise InvalidStateError("MATCH-1", f"side {winner} won, yet the match is {phase.value}")
    elif reached:
        raise InvalidStateError("MATCH-1", f"side {reached[0]} reached the target {rules.target}; the match is over")
    if state.drawn_tile is not None and phase is not Phase.PLAYING:
        raise InvalidStateError("DRAW-2", f"a drawn tile is placed during play; the match is {phase.value}")
    hands = state.hands
    blocked = not state.boneyard_ids and not any(_fits(tile, layout) for hand in hands for tile in hand)
    if phase is Phase.PLAYING:
        empty = [seat for seat, hand in enumerate(hands) if not hand]
        if empty:
            raise InvalidStateError("END-1", f"seat {empty[0]} has played out, so the round is over")
        if blocked:
            raise InvalidStateError("BLOCK-1", "the boneyard is empty and nobody can place: the round is blocked")
    elif phase is Phase.ROUND_OVER:
        if last_round is None or last_round.round_number != state.round_number or last_round.hands != hands:
            raise InvalidStateError("END-1", "a finished round records its own hands as last_round")
        if last_round.blocked and not blocked:
            raise InvalidStateError("BLOCK-1", "the round is recorded as blocked, yet a tile can still be placed")
        if last_round.finisher is not None and last_round.finisher != state.to_move:
            raise InvalidStateError(
                "END-1", f"seat {last_round.finisher} played out, so it moved last, not seat {state.to_move}"
            )


def _check_drawn(state: State, drawn: Tile) -> None:
    hand, layout, to_move = state.hand(state.to_move), state.layout, state.to_move
    if drawn not in hand:
        raise InvalidStateError("DRAW-2", f"the drawn tile {drawn} is in the hand of seat {to_move}, who drew it")
    if not _fits(drawn, layout) or layout.is_empty:
        raise InvalidStateError("DRAW-2", f"a drawn tile is kept to be placed only when it fits; {drawn} does not")
    others = [str(tile) for tile in hand if tile != drawn and _fits(tile, layout)]
    if others:
        raise InvalidStateError("DRAW-1", f"seat {to_move} drew although it could place {', '.join(others)}")
