"""Checkers of the vector kinds that pin the conventions: randomness, refusals, tally.

``randomness.json`` (``kind: randomness``, generated)
    SplitMix64 outputs from seeds, ``below(n)`` draw by draw with the
    outputs it rejects, shuffles with their packed draws and digits, lots
    with their ties, seeded deals as whole state documents (a random source
    written out) and next rounds dealt from a state's source (SETUP-5,
    OPEN-1, FORMAT-2).
``refusals.json`` (``kind: refusals``, written by hand)
    One case per refusal: a move, a next round, house rules or a deal, each
    refused citing exactly one rule (CONV-3), with the legal moves before a
    refused move in their canonical order (CONV-1, CONV-2).
``tally.json`` (``kind: tally``, written by hand)
    Scores and their paper tallies as text (TALLY-1).

:data:`CHECKERS` maps each kind to its checker for
:func:`sniff_rules.verify.vectors.conformance.check_file`; :func:`check_perft_seeds`
checks the seeds a perft position names. A section that is empty, or an
entry that asserts nothing, fails: a vector file cannot pass by holding
nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Final, TypeAlias

from sniff_rules.draw.tally import paper_tally
from sniff_rules.errors import NotationError, SniffError
from sniff_rules.formats.notation import parse_move
from sniff_rules.formats.state_json import (
    lot_to_data,
    order_from_data,
    rules_from_data,
    state_from_data,
    state_to_data,
    tiles_to_data,
)
from sniff_rules.formats.strict_json import (
    JSON_RULE,
    JsonObject,
    JsonValue,
    json_array,
    json_field,
    json_int,
    json_object,
    json_str,
    json_strs,
)
from sniff_rules.moves import apply, legal_moves
from sniff_rules.randomness import RandomSource, SplitMix64, draw_lot, shuffled
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round
from sniff_rules.tiles import DOUBLE_SIX, TILE_COUNT
from sniff_rules.verify.vectors.files import Mismatch, VectorResult, start_state
from sniff_rules.verify.vectors.recorded_play import expected_deal, is_deal_of, move_texts

Checker: TypeAlias = Callable[[str, Mapping[str, JsonValue]], list[VectorResult]]

TWO_TO_64: Final = 1 << 64
"""SplitMix64's modulus, and the largest bound ``below`` serves (SETUP-5)."""

_HEX64: Final = re.compile(r"[0-9a-f]{16}")
_DECIMAL: Final = re.compile(r"0|[1-9][0-9]{0,19}")

VECTOR_GROUPS: Final[Mapping[str, tuple[str, ...]]] = {
    "layout-examples": ("examples",),
    "settlement": ("hands", "scenarios"),
    "perft": ("positions",),
    "randomness": ("splitmix64", "below", "shuffles", "lots", "deals", "next_rounds"),
    "refusals": ("cases",),
    "tally": ("scores",),
    "geometry": ("cases",),
    "limits": ("cases",),
}
"""For each kind of vector file, the arrays that hold its named vectors, in the order replayed."""


# ---------------------------------------------------------------- shared pieces


def _expect_equal(what: str, expected: object, actual: object) -> None:
    if expected != actual:
        raise Mismatch(f"{what}: expected {expected!r}, got {actual!r}")


def _objects(value: JsonValue, what: str) -> list[Mapping[str, JsonValue]]:
    return [json_object(item, f"{what}[{index}]") for index, item in enumerate(json_array(value, what))]


def _run(path: str, name: str, check: Callable[[], object]) -> VectorResult:
    try:
        check()
    except (Mismatch, SniffError) as err:
        return VectorResult(path, name, str(err))
    return VectorResult(path, name)


def _replay_groups(
    path: str, data: Mapping[str, JsonValue], checks: Mapping[str, Callable[[Mapping[str, JsonValue]], None]]
) -> list[VectorResult]:
    """One result per named entry of each group; an empty or missing group is one failure."""
    results: list[VectorResult] = []
    for group, check in checks.items():
        entries = _objects(json_field(data, group, path), group)
        if not entries:
            results.append(VectorResult(path, group, f"{group} is empty: a vector file must assert something"))
        for entry in entries:
            name = json_str(json_field(entry, "name", group), f"{group} name")
            results.append(_run(path, name, partial(check, entry)))
    return results


def _nonempty(items: list[JsonValue], what: str) -> list[JsonValue]:
    if not items:
        raise Mismatch(f"{what} is empty: the vector asserts nothing")
    return items


def hex64(value: JsonValue, what: str) -> int:
    """A 64-bit number written as 16 lower-case hex digits (FORMAT-2)."""
    text = json_str(value, what)
    if not _HEX64.fullmatch(text):
        raise NotationError(JSON_RULE, f"{what} is 16 lower-case hex digits, got {len(text)} characters")
    return int(text, 16)


def decimal(value: JsonValue, what: str) -> int:
    """A number from 0 to 2**64 written in decimal, as a string (FORMAT-2)."""
    text = json_str(value, what)
    if not _DECIMAL.fullmatch(text) or int(text) > TWO_TO_64:
        raise NotationError(JSON_RULE, f"{what} is a decimal string from 0 to 2**64, got {text!r:.40}")
    return int(text)


def hex_text(value: int) -> str:
    """A 64-bit number as the vectors write it: 16 lower-case hex digits."""
    return f"{value:016x}"


def below_draw(source: SplitMix64, bound: int) -> tuple[JsonObject, SplitMix64]:
    """One ``below(bound)`` written out: the rejection threshold, every output drawn, the value.

    Computed from the outputs themselves and checked against
    :meth:`SplitMix64.below`, which must agree.
    """
    threshold = TWO_TO_64 % bound
    outputs: list[JsonValue] = []
    output, advanced = source.next64()
    outputs.append(hex_text(output))
    while output < threshold:
        output, advanced = advanced.next64()
        outputs.append(hex_text(output))
    value, following = source.below(bound)
    if value != output % bound or following != advanced:
        raise Mismatch(f"below({bound}) gives {value}, but its outputs give {output % bound}")
    draw: JsonObject = {"bound": str(bound), "threshold": str(threshold), "outputs": outputs, "value": str(value)}
    return draw, following


# ---------------------------------------------------------------- randomness


def shuffle_groups(length: int) -> list[list[int]]:
    """The bounds of each packed draw of a shuffle of ``length`` items, as SETUP-5 groups them.

    Successive bounds ``length``, ``length - 1``, ... join a group while
    the group's product stays below 2**64. Written from the rule, apart
    from the engine's own grouping, so that the two check each other.

    >>> [(group[0], group[-1]) for group in shuffle_groups(28)]
    [(28, 15), (14, 2)]
    """
    groups: list[list[int]] = []
    bound = length
    while bound > 1:
        group, product = [bound], bound
        bound -= 1
        while bound > 1 and product * bound < TWO_TO_64:
            group.append(bound)
            product *= bound
            bound -= 1
        groups.append(group)
    return groups


def _source_of(entry: Mapping[str, JsonValue], what: str) -> SplitMix64:
    return SplitMix64.from_seed(json_int(json_field(entry, "seed", what), f"{what}.seed"))


def _check_stream(entry: Mapping[str, JsonValue]) -> None:
    source = _source_of(entry, "splitmix64")
    steps = _nonempty(json_array(json_field(entry, "steps", "splitmix64"), "steps"), "steps")
    for number, step in enumerate(_objects(steps, "steps")):
        output, source = source.next64()
        _expect_equal(f"step {number}: state", hex64(json_field(step, "state", "step"), "state"), source.state)
        _expect_equal(f"step {number}: output", hex64(json_field(step, "output", "step"), "output"), output)


def _check_draw(source: SplitMix64, draw: Mapping[str, JsonValue], where: str) -> tuple[int, SplitMix64]:
    bound = decimal(json_field(draw, "bound", where), f"{where}.bound")
    if bound < 1:
        raise Mismatch(f"{where}: below(n) takes n from 1 to 2**64, not {bound}")
    expected, source = below_draw(source, bound)
    for key in ("threshold", "outputs", "value"):
        _expect_equal(f"{where}: {key}", json_field(draw, key, where), expected[key])
    return int(str(expected["value"])), source


def _check_below(entry: Mapping[str, JsonValue]) -> None:
    source = _source_of(entry, "below")
    draws = _nonempty(json_array(json_field(entry, "draws", "below"), "draws"), "draws")
    for number, draw in enumerate(_objects(draws, "draws")):
        _, source = _check_draw(source, draw, f"draw {number}")
    _expect_equal("state after the draws", hex64(json_field(entry, "state", "below"), "state"), source.state)


def _check_shuffle(entry: Mapping[str, JsonValue]) -> None:
    start = _source_of(entry, "shuffle")
    source = start
    positions = list(range(TILE_COUNT))
    groups = _objects(json_field(entry, "groups", "shuffle"), "groups")
    expected_groups = shuffle_groups(TILE_COUNT)
    _expect_equal("number of packed draws", len(expected_groups), len(groups))
    for number, (group, bounds) in enumerate(zip(groups, expected_groups, strict=True)):
        where = f"group {number}"
        product = math.prod(bounds)
        _expect_equal(f"{where}: bounds, first and last", [bounds[0], bounds[-1]], json_field(group, "bounds", where))
        _expect_equal(f"{where}: product", str(product), json_field(group, "product", where))
        draw = json_object(json_field(group, "draw", where), f"{where}.draw")
        _expect_equal(f"{where}: the draw's bound", str(product), json_field(draw, "bound", where))
        packed, source = _check_draw(source, draw, f"{where} draw")
        digits = []
        for bound in bounds:
            packed, j = divmod(packed, bound)
            digits.append(j)
            positions[bound - 1], positions[j] = positions[j], positions[bound - 1]
        _expect_equal(
            f"{where}: j for i = {bounds[0] - 1} down to {bounds[-1] - 1}", json_field(group, "j", where), digits
        )
    indices, after = shuffled(tuple(range(TILE_COUNT)), start)
    _expect_equal("the shuffle's digits give the engine's order", list(indices), positions)
    _expect_equal("indices", json_field(entry, "indices", "shuffle"), list(indices))
    _expect_equal("order", json_field(entry, "order", "shuffle"), tiles_to_data([DOUBLE_SIX[i] for i in indices]))
    assert isinstance(after, SplitMix64)
    _expect_equal("state after the shuffle", hex64(json_field(entry, "state", "shuffle"), "state"), after.state)


def _check_lot(entry: Mapping[str, JsonValue]) -> None:
    players = Rules.standard(json_int(json_field(entry, "players", "lot"), "players")).players
    opener, lot, after = draw_lot(tuple(range(players)), _source_of(entry, "lot"))
    _expect_equal("lot, one array per round of draws (OPEN-1)", json_field(entry, "lot", "lot"), lot_to_data(lot))
    _expect_equal("opener", json_field(entry, "opener", "lot"), opener)
    assert isinstance(after, SplitMix64)
    _expect_equal("state after the lot", hex64(json_field(entry, "state", "lot"), "state"), after.state)


def _check_deal_from_seed(entry: Mapping[str, JsonValue]) -> None:
    rules = rules_from_data(json_field(entry, "rules", "deal"), "deal.rules")
    state = new_match(rules, seed=json_int(json_field(entry, "seed", "deal"), "deal.seed"))
    expected = json_field(entry, "state", "deal")
    _expect_equal("the state after new_match from the seed", expected, state_to_data(state))
    _expect_equal("the state document read back", state, state_from_data(expected))


def _check_next_round(entry: Mapping[str, JsonValue]) -> None:
    before = start_state(json_field(entry, "start", "next round"))
    if before.source is None:
        raise Mismatch("the start state has no random source to deal the next round from")
    opener = json_int(entry["opener"], "next round opener") if "opener" in entry else None
    after = next_round(before, opener=opener)
    _expect_equal("the next round's state", json_field(entry, "state", "next round"), state_to_data(after))


def _check_randomness(path: str, data: Mapping[str, JsonValue]) -> list[VectorResult]:
    return _replay_groups(
        path,
        data,
        {
            "splitmix64": _check_stream,
            "below": _check_below,
            "shuffles": _check_shuffle,
            "lots": _check_lot,
            "deals": _check_deal_from_seed,
            "next_rounds": _check_next_round,
        },
    )


# ---------------------------------------------------------------- refusals


def read_deal(value: JsonValue) -> State:
    """A new match dealt from ``{"rules", "order", "opener"}``, checked as CONV-3 orders it.

    Every field's form first (FORMAT-1, FORMAT-2), then the house rules
    (SETUP-2..4), the opener (OPEN-1) and the order (SETUP-5).
    """
    data = json_object(value, "deal", ("rules", "order", "opener"))
    order = order_from_data(data["order"], "deal.order")
    opener = json_int(data["opener"], "deal.opener")
    rules = rules_from_data(data["rules"], "deal.rules")
    return new_match(rules, order=order, opener=opener)


def _next_round_call(state: State, request: Mapping[str, JsonValue]) -> Callable[[], object]:
    known = [key for key in request if key not in ("order", "opener")]
    if known:
        raise NotationError(JSON_RULE, f"next_round takes order and opener, not {known[0]!r:.40}")
    order = order_from_data(request["order"], "next_round.order") if "order" in request else None
    opener = json_int(request["opener"], "next_round.opener") if "opener" in request else None
    return partial(next_round, state, order=order, opener=opener)


_ATTEMPTS: Final = ("move", "next_round", "rules", "deal")


def _attempt(case: Mapping[str, JsonValue]) -> Callable[[], object]:
    """What the case tries, as a call: reading its input is part of it (FORMAT-1, FORMAT-2)."""
    tried = [key for key in _ATTEMPTS if key in case]
    if len(tried) != 1:
        raise NotationError(JSON_RULE, f"a refusal case tries one of {', '.join(_ATTEMPTS)}; this one {tried}")
    key = tried[0]
    if key == "rules":
        return partial(rules_from_data, case["rules"])
    if key == "deal":
        return partial(read_deal, case["deal"])
    state = start_state(json_field(case, "start", "case"))
    if "legal" in case:
        _expect_equal(
            "legal moves before it, in canonical order (CONV-2)",
            json_strs(case["legal"], "legal"),
            move_texts(legal_moves(state)),
        )
    if key == "next_round":
        request = json_object(case["next_round"], "next_round")
        return lambda: _next_round_call(state, request)()
    text = json_str(case["move"], "move")
    return lambda: apply(state, parse_move(text))


def _expect_refusal(refused: JsonValue, attempt: Callable[[], object]) -> None:
    """``attempt`` must be refused citing the one rule ``refused`` names (CONV-3)."""
    rules = json_strs(refused, "refused")
    if len(rules) != 1:
        raise Mismatch(f"a refusal names exactly one rule (CONV-3), this one {rules}")
    rule = rules[0]
    try:
        result = attempt()
    except SniffError as err:
        if err.rule != rule:
            raise Mismatch(f"refused citing {err.rule}, expected {rule} ({err})") from None
        return
    raise Mismatch(f"accepted ({result!r:.120}), but {rule} refuses it")


def _check_refusal(case: Mapping[str, JsonValue]) -> None:
    refused = json_field(case, "refused", "case")
    _expect_refusal(refused, _attempt(case))


def _check_refusals(path: str, data: Mapping[str, JsonValue]) -> list[VectorResult]:
    return _replay_groups(path, data, {"cases": _check_refusal})


# ---------------------------------------------------------------- tally


def _check_tally(entry: Mapping[str, JsonValue]) -> None:
    score = json_int(json_field(entry, "score", "tally"), "score")
    if "refused" in entry:
        _expect_refusal(entry["refused"], partial(paper_tally, score))
        return
    tally = paper_tally(score)
    _expect_equal("text (TALLY-1)", json_field(entry, "text", "tally"), str(tally))
    _expect_equal("50-point symbols", json_field(entry, "fifty_symbols", "tally"), tally.fifty_symbols)
    _expect_equal("single strokes", json_field(entry, "strokes", "tally"), tally.strokes)


def _check_tallies(path: str, data: Mapping[str, JsonValue]) -> list[VectorResult]:
    return _replay_groups(path, data, {"scores": _check_tally})


CHECKERS: Final[Mapping[str, Checker]] = {
    "randomness": _check_randomness,
    "refusals": _check_refusals,
    "tally": _check_tallies,
}
"""The checker of each vector kind this module adds, by the ``kind`` of the file."""


# ---------------------------------------------------------------- perft seeds


def check_perft_seeds(position: Mapping[str, JsonValue], state: State) -> None:
    """A perft position's ``seed`` deals its start, and its ``policy_seed`` chose its moves (FORMAT-2).

    Without either field there is nothing to check.
    """
    if "seed" not in position:
        if "policy_seed" in position:
            raise Mismatch("policy_seed is given, but not the seed of the deal its moves start from")
        return
    start = json_object(json_field(position, "start", "position"), "start")
    deal = json_object(json_field(start, "deal", "start"), "start.deal")
    rules = rules_from_data(json_field(deal, "rules", "start.deal"), "start.deal.rules")
    seed = json_int(position["seed"], "seed")
    _lot, opener, order, _source = expected_deal(rules, SplitMix64.from_seed(seed), True)
    _expect_equal("the deal's opener, drawn by lot from the seed", opener, json_field(deal, "opener", "start.deal"))
    _expect_equal(
        "the deal's order, shuffled from the seed", tiles_to_data(order), json_field(deal, "order", "start.deal")
    )
    if not is_deal_of(new_match(rules, seed=seed), order):
        raise Mismatch("the match started from the seed is not dealt from its order")
    moves = json_strs(start.get("moves", []), "start.moves")
    if "policy_seed" not in position:
        if moves:
            raise Mismatch("moves follow the deal, but no policy_seed says how they were chosen")
        return
    # The start deals from the order, with no source: replayed from that deal, the moves reach the start state.
    from_order = new_match(rules, order=order, opener=opener)
    _check_policy_moves(from_order, moves, json_int(position["policy_seed"], "policy_seed"), state)


def _check_policy_moves(dealt: State, moves: Sequence[str], policy_seed: int, reached: State) -> None:
    """Each move is ``L[below(len(L))]`` of the legal moves ``L``, from one source seeded with ``policy_seed``."""
    policy: RandomSource = SplitMix64.from_seed(policy_seed)
    state = dealt
    for number, text in enumerate(moves):
        options = legal_moves(state)
        if state.phase is not Phase.PLAYING or not options:
            raise Mismatch(f"move {number} ({text}) follows the end of the round")
        index, policy = policy.below(len(options))
        _expect_equal(f"move {number}: the policy's choice", str(options[index]), text)
        state = apply(state, options[index])
    _expect_equal("the position the policy's moves reach", state_to_data(reached), state_to_data(state))
