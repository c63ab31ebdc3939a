"""Every conformance vector the protocol can express, replayed through an engine process.

:func:`check_vector_kinds` runs the vector files beside the recorded
matches (which :func:`sniff_rules.verify.engine_check.check_vectors`
replays) through a :class:`~sniff_rules.protocol.remote.RemoteEngine`, one
verdict per named vector; each answer must be this library's (the oracle,
which passes every vector) and the vector's own:

======================  =====================================================================
file (kind)             through the protocol
======================  =====================================================================
``perft.json``          each position dealt by ``new_match`` and its moves by ``apply``, then
                        the move sequences counted by ``legal_moves`` and ``apply`` to every
                        depth whose tree stays within :data:`PERFT_NODES` requests
``refusals.json``       each move by ``apply``, each next round by ``next_round`` (with its
                        supplied order and opener as written), house rules and deals by
                        ``new_match``: refused citing the one rule
``settlement.json``     hands by ``settle``; scenarios move by move by ``apply`` and
                        ``legal_moves``
``seed_examples.json``  each layout by ``score``: its end count, points and open points,
                        or the refusal of its last placement
``randomness.json``     seeded deals by ``new_match`` and next rounds by ``next_round``, a
                        named opener's too
``limits.json``         house rules at their limits by ``new_match``, move texts by ``apply``
======================  =====================================================================

What the protocol does not carry is out of its scope and not run (see
``specs/protocol.md``): the geometry and the paper tally (``geometry.json``,
``tally.json``: pictures of the rules, no request draws them); SplitMix64,
``below``, shuffles and lots alone (``randomness.json``: an engine exposes
no random source, and every seeded deal replays them end to end); rules
written as JSON text no host encoder writes (a key twice, an integer past
2**53 - 1: ``limits.json``'s ``rules_text``, which PROTO-1 and the engine's
own reader cover); a tally's and ``below``'s limits.
:func:`out_of_scope` counts them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import Final

import sniff_rules
from sniff_rules.errors import IllegalMoveError, SniffError
from sniff_rules.formats.notation import parse_move, parse_placement
from sniff_rules.formats.state_json import rules_from_data, rules_to_data, state_from_data, tiles_from_data
from sniff_rules.formats.strict_json import (
    JsonObject,
    JsonValue,
    json_array,
    json_field,
    json_int,
    json_object,
    json_str,
)
from sniff_rules.layout import Layout
from sniff_rules.protocol.process import PeerFailure
from sniff_rules.protocol.remote import RemoteEngine
from sniff_rules.rules import Rules
from sniff_rules.scoring import play_points
from sniff_rules.state import State
from sniff_rules.verify.vectors.conformance import shipped_vectors
from sniff_rules.verify.vectors.files import Mismatch, read_vector_file, start_state, vector_paths
from sniff_rules.verify.vectors.recorded_play import move_texts

PERFT_NODES: Final = 400
"""The most requests one perft position may cost through the protocol: depths past it are left to
``sniff-rules conform``, whose counts run to the tens of thousands."""

OUT_OF_SCOPE_FILES: Final = ("geometry.json", "tally.json")
"""Vector files no request of the protocol expresses: the geometry and the paper tally are pictures."""

Check = Callable[[RemoteEngine], None]


def _equal(what: str, expected: object, actual: object) -> None:
    if expected != actual:
        raise Mismatch(f"{what}: the library gives {expected!r:.300}, the engine {actual!r:.300}")


def _one_rule(value: JsonValue) -> str:
    rules = json_array(value, "refused")
    if len(rules) != 1:
        raise Mismatch(f"a refusal names exactly one rule (CONV-3), this one {rules}")
    return json_str(rules[0], "refused[0]")


def _refused_rule(action: Callable[[], object]) -> str | None:
    try:
        action()
    except PeerFailure:
        raise
    except IllegalMoveError as refusal:
        return refusal.rule
    return None


def _answer_rule(engine: RemoteEngine, message: JsonObject) -> tuple[str | None, JsonObject]:
    """The rule an answer cites (``refused`` or ``error``), None when it cites none; and the answer."""
    answer = engine.peer.request(message)
    engine.transcript.append(message)
    for key in ("refused", "error"):
        if key in answer:
            cited = json_object(answer[key], key).get("rule")
            return (cited if isinstance(cited, str) else repr(cited)), answer
    return None, answer


def _start(engine: RemoteEngine, spec: JsonValue) -> State:
    """The vector's start through the engine (its deal by ``new_match``, its moves by ``apply``), checked."""
    expected = start_state(spec)
    data = json_object(spec, "start")
    if "state" in data:
        return expected
    deal = json_object(data["deal"], "start.deal")
    state = engine.new_match(
        rules_from_data(deal["rules"]),
        order=tiles_from_data(deal["order"], "order"),
        opener=json_int(deal["opener"], "opener"),
    )
    for text in json_array(data.get("moves", []), "start.moves"):
        state = engine.apply_text(state, json_str(text, "move"))
    _equal("the start", expected, state)
    return state


# ---------------------------------------------------------------- the kinds


def _perft(entry: Mapping[str, JsonValue], engine: RemoteEngine) -> None:
    counts = [json_int(count, "count") for count in json_array(json_field(entry, "counts", "position"), "counts")]
    state = _start(engine, json_field(entry, "start", "position"))
    frontier = [state]
    spent = 0
    for depth, expected in enumerate(counts, 1):
        if spent + len(frontier) * 2 > PERFT_NODES:
            break
        lists = [engine.legal_moves(node) for node in frontier]
        spent += len(frontier)
        _equal(f"sequences of {depth} moves", expected, sum(map(len, lists)))
        if spent + expected > PERFT_NODES:
            break
        spent += expected
        frontier = [engine.apply(node, move) for node, moves in zip(frontier, lists, strict=True) for move in moves]


def _refusal(case: Mapping[str, JsonValue], engine: RemoteEngine) -> None:
    rule = _one_rule(json_field(case, "refused", "case"))
    if "rules" in case:
        cited, answer = _answer_rule(engine, {"type": "new_match", "rules": case["rules"], "seed": "1"})
    elif "deal" in case:
        deal = json_object(case["deal"], "deal")
        cited, answer = _answer_rule(engine, {"type": "new_match", **deal})
    else:
        state = _start(engine, json_field(case, "start", "case"))
        if "legal" in case:
            _equal("the legal moves, in canonical order (CONV-2)", case["legal"], move_texts(engine.legal_moves(state)))
        if "next_round" in case:
            fields = dict(json_object(case["next_round"], "next_round"))
            cited = _refused_rule(partial(engine.next_round_with, state, fields))
        else:
            cited = _refused_rule(partial(engine.apply_text, state, json_str(case["move"], "move")))
        answer = {}
    if cited != rule:
        raise Mismatch(f"refused citing {rule} in the vector; the engine cites {cited} {str(answer)[:200]}")


def _hands(case: Mapping[str, JsonValue], engine: RemoteEngine) -> None:
    rules = Rules.standard(json_int(json_field(case, "players", "hand case"), "players"))
    message: JsonObject = {"type": "settle", "rules": rules_to_data(rules), "hands": case["hands"]}
    answer = engine.peer.request(message)
    engine.transcript.append(message)
    expected = dict(json_object(json_field(case, "expect", "hand case"), "expect"))
    _equal("the settlement", expected, answer.get("settlement"))


def _scenario(case: Mapping[str, JsonValue], engine: RemoteEngine) -> None:
    state = _start(engine, json_field(case, "start", "scenario"))
    for number, item in enumerate(json_array(json_field(case, "steps", "scenario"), "steps")):
        step = json_object(item, f"steps[{number}]")
        if "legal" in step:
            _equal(f"step {number}: the legal moves", step["legal"], move_texts(engine.legal_moves(state)))
        text = json_str(json_field(step, "move", "step"), "move")
        if "refused" in step:
            rule = _one_rule(step["refused"])
            cited = _refused_rule(partial(engine.apply_text, state, text))
            _equal(f"step {number} ({text}): the rule", rule, cited)
            continue
        after = engine.apply_text(state, text)
        _equal(f"step {number} ({text}): the state", sniff_rules.apply(state, parse_move(text)), after)
        state = after


def _layout_example(case: Mapping[str, JsonValue], engine: RemoteEngine) -> None:
    placed: list[JsonValue] = []
    layout = Layout.EMPTY
    for number, item in enumerate(json_array(json_field(case, "steps", "example"), "steps")):
        step = json_object(item, f"steps[{number}]")
        text = json_str(json_field(step, "place", "step"), "place")
        cited, answer = _answer_rule(engine, {"type": "score", "layout": [*placed, text]})
        if "refused" in step:
            _equal(f"step {number} ({text}): the rule", _one_rule(step["refused"]), cited)
            continue
        placement = parse_placement(text)
        layout = layout.place(placement.tile, placement.target)
        placed.append(text)
        expected = (layout.end_count, play_points(layout.end_count), sorted(map(str, layout.open_points)))
        listed = answer.get("open")
        shown = sorted(map(str, listed)) if isinstance(listed, list) else listed
        _equal(
            f"step {number} ({text}): end count, points, open points",
            expected,
            (answer.get("end_count"), answer.get("points"), shown),
        )


def _deal(entry: Mapping[str, JsonValue], engine: RemoteEngine) -> None:
    rules = rules_from_data(json_field(entry, "rules", "deal"))
    expected = state_from_data(json_field(entry, "state", "deal"))
    _equal("the deal", expected, engine.new_match(rules, json_int(json_field(entry, "seed", "deal"), "seed")))


def _next_deal(entry: Mapping[str, JsonValue], engine: RemoteEngine) -> None:
    state = _start(engine, json_field(entry, "start", "next round"))
    expected = state_from_data(json_field(entry, "state", "next round"))
    opener = json_int(entry["opener"], "opener") if "opener" in entry else None
    _equal("the next deal", expected, engine.next_round(state, opener=opener))


_MOVE_STATE: Final = sniff_rules.new_match(Rules.standard(2), 1)


def _limit(case: Mapping[str, JsonValue], engine: RemoteEngine) -> None:
    refused = _one_rule(case["refused"]) if "refused" in case else None
    if "rules" in case:
        cited, answer = _answer_rule(engine, {"type": "new_match", "rules": case["rules"], "seed": "1"})
        if refused is None:
            state = json_object(answer.get("state"), "state")
            _equal("the rules", case.get("written"), state.get("rules"))
        _equal("the rule", refused, cited)
        return
    text = json_str(case["move"], "move")
    # A move's form is read before any rule of play (FORMAT-1); a well-formed one gets the library's answer.
    expected = _refused_rule(partial(sniff_rules.apply, _MOVE_STATE, parse_move(text))) if refused is None else refused
    cited = _refused_rule(partial(engine.apply_text, _MOVE_STATE, text))
    _equal(f"the move {text!r}", expected, cited)


# ---------------------------------------------------------------- the files


def _named(data: Mapping[str, JsonValue], group: str) -> Iterator[Mapping[str, JsonValue]]:
    for item in json_array(data.get(group, []), group):
        yield json_object(item, group)


def _checks(name: str, data: Mapping[str, JsonValue]) -> Iterator[tuple[str, Check]]:
    """Each vector of the file ``name`` that the protocol expresses, named, with its check."""
    kind = data.get("kind")
    groups: list[tuple[str, Callable[[Mapping[str, JsonValue], RemoteEngine], None]]] = []
    if kind == "perft":
        groups = [("positions", _perft)]
    elif kind == "refusals":
        groups = [("cases", _refusal)]
    elif kind == "settlement":
        groups = [("hands", _hands), ("scenarios", _scenario)]
    elif kind == "layout-examples":
        groups = [("examples", _layout_example)]
    elif kind == "randomness":
        groups = [("deals", _deal), ("next_rounds", _next_deal)]
    elif kind == "limits":
        groups = [("cases", _limit)]
    for group, check in groups:
        for entry in _named(data, group):
            if _expressed(kind, entry):
                yield f"vectors/{name}: {group}: {entry.get('name')}", partial(check, entry)


def _expressed(kind: object, entry: Mapping[str, JsonValue]) -> bool:
    if kind == "limits":
        return "rules" in entry or "move" in entry
    return True


def check_vector_kinds(engine: RemoteEngine) -> list[tuple[str, str | None, float]]:
    """Each expressible vector's name, its failure (None when the engine agrees) and the seconds it took;
    an engine that breaks the protocol raises its :class:`~sniff_rules.protocol.process.PeerFailure`."""
    results: list[tuple[str, str | None, float]] = []
    for path in vector_paths([shipped_vectors()]):
        if path.name.endswith(".jsonl") or path.name in OUT_OF_SCOPE_FILES or path.name == "schema.json":
            continue
        data = read_vector_file(path)
        if not isinstance(data, dict):
            continue
        for name, check in _checks(path.name, data):
            started = time.perf_counter()
            try:
                check(engine)
            except PeerFailure:
                raise
            except (Mismatch, SniffError, AssertionError) as failure:
                results.append((name, str(failure), time.perf_counter() - started))
            else:
                results.append((name, None, time.perf_counter() - started))
    return results


def out_of_scope() -> dict[str, int]:
    """How many vectors of each shipped file the protocol does not express (see the module's docstring)."""
    counts: dict[str, int] = {}
    for path in vector_paths([shipped_vectors()]):
        if path.name.endswith(".jsonl") or path.name == "schema.json":
            continue
        data = read_vector_file(path)
        if not isinstance(data, dict):
            continue
        total = sum(len(value) for key, value in data.items() if isinstance(value, list) and key not in ("cites",))
        expressed = sum(1 for _ in _checks(path.name, data)) if path.name not in OUT_OF_SCOPE_FILES else 0
        if total - expressed:
            counts[path.name] = total - expressed
    return counts
