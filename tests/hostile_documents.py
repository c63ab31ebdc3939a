"""Mutated real state documents, and the verdict every one must get: refused by type, or wholly sound.

Shared by the Hypothesis properties (``tests/test_hostile_positions.py``)
and the seeded fuzz loop (``tests/fuzz_positions.py``). A mutation is
driven by a :class:`Chooser` — ``random.Random`` for the loop, Hypothesis'
``data.draw`` for the properties, so that a failure shrinks — and changes
a document the way a corrupt file or a cheating client would: keys and
list items deleted, duplicated and swapped; a tile moved between hands,
boneyard and layout; numbers off by one, huge, negative, fractional,
boolean, null or text; seats, phase, winner and drawn tile changed; deep
nesting; huge documents; and bytes of the text itself changed.

:func:`judge` reads the result. A refusal must be a typed
:class:`~sniff_rules.SniffError`; a state accepted must have no
:func:`~sniff_rules.position.problems`, break no position law, read back equal from
its JSON, be reachable by the independent judge of ``tests/reachability.py``,
and play on through legal moves — every position, step and deal lawful —
to the match end.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Protocol, TypeAlias

import attrs

from reachability import unreachable
from sniff_rules.errors import SniffError
from sniff_rules.formats.state_json import state_from_data, state_from_json, state_to_data, state_to_json
from sniff_rules.formats.strict_json import JsonValue
from sniff_rules.moves import apply, legal_moves
from sniff_rules.position.laws import deal_violations, position_violations, step_violations
from sniff_rules.rules import Rules
from sniff_rules.state import Phase, State, new_match, next_round as deal_next
from sniff_rules.tiles import DOUBLE_SIX


def _problems_of(state: State) -> tuple[object, ...]:
    """:func:`sniff_rules.position.problems`, or none in a checkout before it (the fuzz loop's "before" figure)."""
    try:
        from sniff_rules.position.reachability import problems
    except ImportError:  # only when measuring an older checkout
        return ()
    return problems(state)


class Chooser(Protocol):
    """Where a mutation's choices come from."""

    def below(self, bound: int) -> int:
        """A choice in ``0..bound-1``."""


@attrs.frozen
class RandomChooser:
    """Choices from a seeded ``random.Random``: the fuzz loop's."""

    rng: random.Random

    def below(self, bound: int) -> int:
        """A choice in ``0..bound-1``."""
        return self.rng.randrange(bound)


MOVES_PER_MATCH = 1500
"""How far each base match is played: random play may drift below zero and never reach the target."""


@cache
def base_states() -> tuple[State, ...]:
    """Every state of whole matches, all phases: 2, 3 and 4 players, standard and house rules."""
    found: list[State] = []
    tables = [Rules.standard(2), Rules.standard(3), Rules.standard(4), Rules(3, 4, 60), Rules(4, 3, 100)]
    for number, rules in enumerate(tables):
        for seed in range(2):
            state = new_match(rules, seed=seed * 7 + number)
            policy = random.Random(seed)
            for _ in range(MOVES_PER_MATCH):
                found.append(state)
                if state.phase is Phase.MATCH_OVER:
                    break
                if state.phase is Phase.ROUND_OVER:
                    state = deal_next(state)
                    continue
                state = apply(state, policy.choice(legal_moves(state)))
    return tuple(found)


Document: TypeAlias = "JsonValue | str | bytes"
"""A mutated document: JSON data, or JSON text when the mutation was of the text itself."""

Path: TypeAlias = tuple[str | int, ...]


def json_paths(value: JsonValue, prefix: Path = ()) -> list[Path]:
    """Every path into ``value``, itself first: keys of objects, indices of arrays."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += json_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += json_paths(item, (*prefix, index))
    return found


def _at(document: JsonValue, path: Path) -> JsonValue:
    for step in path:
        if isinstance(document, dict) and isinstance(step, str):
            document = document.get(step)
        elif isinstance(document, list) and isinstance(step, int) and step < len(document):
            document = document[step]
        else:
            return None  # an earlier change took the path away
    return document


def _set(document: JsonValue, path: Path, value: JsonValue) -> JsonValue:
    if not path:
        return value
    parent, last = _at(document, path[:-1]), path[-1]
    if isinstance(parent, dict) and isinstance(last, str):
        parent[last] = value
    if isinstance(parent, list) and isinstance(last, int):
        parent[last] = value
    return document


def _pick(choose: Chooser, items: list[Path]) -> Path | None:
    return items[choose.below(len(items))] if items else None


def _containers(document: JsonValue, kind: type) -> list[Path]:
    return [path for path in json_paths(document) if isinstance(_at(document, path), kind)]


def _strange_number(choose: Chooser, value: JsonValue) -> JsonValue:
    number = value if type(value) is int else 0
    options: list[JsonValue] = [
        number + 1,
        number - 1,
        number + 5,
        number - 5,
        -number,
        2**53,
        -(2**53),
        10**30,
        number * 1000,
        float(number),
        number + 0.5,
        True,
        False,
        None,
        str(number),
        [number],
    ]
    return options[choose.below(len(options))]


def _any_value(choose: Chooser, depth: int = 0) -> JsonValue:
    kind = choose.below(9 if depth < 2 else 7)
    if kind == 0:
        return None
    if kind == 1:
        return bool(choose.below(2))
    if kind == 2:
        return choose.below(600) - 300
    if kind == 3:
        return choose.below(1000) / 7
    if kind == 4:
        return ["[1|4]", "[6|6]", "[1|1].arm-a", "playing", "round-over", "match-over", "0:draw", "", "[4|1]"][
            choose.below(9)
        ]
    if kind == 5:
        return "".join(chr(32 + choose.below(95)) for _ in range(choose.below(6)))
    if kind == 6:
        return int(2 ** choose.below(70))
    if kind == 7:
        return [_any_value(choose, depth + 1) for _ in range(choose.below(4))]
    return {str(choose.below(5)): _any_value(choose, depth + 1) for _ in range(choose.below(3))}


def _tile_homes(document: JsonValue) -> list[Path]:
    homes: list[Path] = [("boneyard",)]
    hands = _at(document, ("hands",))
    if isinstance(hands, list):
        homes += [("hands", seat) for seat in range(len(hands))]
    return [home for home in homes if isinstance(_at(document, home), list)]


def _move_tile(choose: Chooser, document: JsonValue, state: State) -> JsonValue:
    """A tile from one hand, the boneyard or the layout to another of them."""
    homes = _tile_homes(document)
    layout = _at(document, ("layout",))
    sources = [home for home in homes if _at(document, home)]
    if isinstance(layout, list) and layout:
        sources.append(("layout",))
    source = _pick(choose, sources)
    if source is None:
        return document
    items = _at(document, source)
    assert isinstance(items, list)
    if source == ("layout",):
        text = items.pop()  # only the last placement can leave the table and leave a layout behind
        tile: JsonValue = text.split(">")[0] if isinstance(text, str) else text
    else:
        tile = items.pop(choose.below(len(items)))
    targets = [home for home in homes if home != source]
    open_points = [str(point) for point in state.layout.open_points]
    if isinstance(layout, list) and source != ("layout",) and (open_points or not layout):
        targets.append(("layout",))
    target = _pick(choose, targets)
    if target is None:
        return document
    into = _at(document, target)
    assert isinstance(into, list)
    if target == ("layout",):
        into.append(tile if not open_points else f"{tile}>{open_points[choose.below(len(open_points))]}")
    else:
        into.insert(choose.below(len(into) + 1), tile)
    return document


def _structural(choose: Chooser, document: JsonValue, state: State) -> JsonValue:
    """One change to the document's data."""
    # Weighted toward changes that keep the document well formed: those test the position check.
    kind = (0, 1, 2, 3, 4, 5, 5, 5, 6, 6, 7, 7, 8, 8, 8, 8, 9, 10, 11)[choose.below(19)]
    if kind == 0:  # delete a key
        path = _pick(choose, [(*p, k) for p in _containers(document, dict) for k in _at_keys(document, p)])
        if path is not None:
            parent = _at(document, path[:-1])
            assert isinstance(parent, dict)
            parent.pop(str(path[-1]))
    elif kind == 1:  # swap two keys' values in one object
        path = _pick(choose, _containers(document, dict))
        if path is not None:
            parent = _at(document, path)
            assert isinstance(parent, dict)
            keys = list(parent)
            if len(keys) > 1:
                first, second = keys[choose.below(len(keys))], keys[choose.below(len(keys))]
                parent[first], parent[second] = parent[second], parent[first]
    elif kind in (2, 3, 4):  # delete, duplicate or swap list items
        path = _pick(choose, [p for p in _containers(document, list) if _at(document, p)])
        if path is not None:
            items = _at(document, path)
            assert isinstance(items, list)
            index = choose.below(len(items))
            if kind == 2:
                items.pop(index)
            elif kind == 3:
                items.insert(choose.below(len(items) + 1), copy.deepcopy(items[index]))
            else:
                other = choose.below(len(items))
                items[index], items[other] = items[other], items[index]
    elif kind in (5, 6):
        document = _move_tile(choose, document, state)
    elif kind == 7:  # a number made strange
        numbers = [p for p in json_paths(document) if type(_at(document, p)) is int]
        path = _pick(choose, numbers)
        if path is not None:
            document = _set(document, path, _strange_number(choose, _at(document, path)))
    elif kind == 8:  # a fact of the position changed to another plausible value
        document = _plausible(choose, document, state)
    elif kind == 9:  # any part replaced by any value
        path = _pick(choose, json_paths(document))
        if path is not None:
            document = _set(document, path, _any_value(choose))
    elif kind == 10:  # deep nesting
        path = _pick(choose, json_paths(document))
        if path is not None:
            nested = _at(document, path)
            for _ in range(8 + choose.below(40)):
                nested = [nested]
            document = _set(document, path, nested)
    else:  # a huge document
        path = _pick(choose, json_paths(document))
        if path is not None:
            huge: JsonValue = ["[1|4]"] * (1000 + choose.below(200_000)) if choose.below(2) else "x" * (1 << 20)
            document = _set(document, path, huge)
    return document


def _at_keys(document: JsonValue, path: Path) -> list[str]:
    found = _at(document, path)
    return list(found) if isinstance(found, dict) else []


def _plausible(choose: Chooser, document: JsonValue, state: State) -> JsonValue:
    if not isinstance(document, dict):
        return document
    players, sides = state.rules.players, state.rules.sides
    tiles = [str(tile) for tile in DOUBLE_SIX]
    options: list[tuple[str, JsonValue]] = [
        ("to_move", choose.below(players)),
        ("opener", choose.below(players)),
        ("phase", ["playing", "round-over", "match-over"][choose.below(3)]),
        ("winner", None if choose.below(3) == 0 else choose.below(sides)),
        ("drawn", None if choose.below(3) == 0 else tiles[choose.below(28)]),
        ("round", max(1, state.round_number + choose.below(3) - 1)),
        ("scores", [5 * (choose.below(120) - 40) for _ in range(sides)]),
        ("scores", [score + 5 * (choose.below(5) - 2) for score in state.scores]),
        ("last_round", None),
        ("lot", []),
    ]
    key, value = options[choose.below(len(options))]
    document[key] = value
    return document


def _textual(choose: Chooser, text: str) -> str | bytes:
    """One change to the JSON text itself."""
    kind = choose.below(8)
    data = text.encode()
    where = choose.below(len(data) + 1)
    if kind == 0:
        return data[:where] + bytes([choose.below(256)]) + data[where + 1 :]
    if kind == 1:
        return data[:where] + data[where + 1 :]
    if kind == 2:
        return data[:where] + b"\xff\xfe" + data[where:]
    if kind == 3:
        return data[:where]
    if kind == 4:
        return "\ufeff" + text
    if kind == 5:
        key = ["format", "phase", "to_move", "scores", "hands", "winner"][choose.below(6)]
        return text.replace(f'"{key}":', f'"{key}":null,"{key}":', 1)
    if kind == 6:
        return text.replace(":", ": " * (1 + choose.below(3)), 1 + choose.below(20))
    return text[:where] + "\\u" + text[where:]


def mutated(choose: Chooser) -> tuple[State, Document]:
    """A real state and a document made from its JSON by one to three changes."""
    states = base_states()
    state = states[choose.below(len(states))]
    document: JsonValue = state_to_data(state)
    for _ in range(1 + choose.below(3)):
        document = _structural(choose, document, state)
    if choose.below(6) == 0:
        return state, _textual(choose, json.dumps(document, separators=(",", ":")))
    return state, document


Outcome: TypeAlias = str
"""``"refused"``, ``"accepted"``, or what went wrong: ``"crash: ..."`` or ``"unreachable: category, ..."``."""


def read(document: Document) -> State:
    """The state a mutated document describes, by the library's JSON reader."""
    if isinstance(document, (str, bytes)):
        return state_from_json(document)
    return state_from_data(document)


def judge(document: Document, seed: int = 0, play: bool = True) -> tuple[Outcome, State | None]:
    """The verdict on one document (see the module docstring) and the state accepted, if any."""
    try:
        state = read(document)
    except SniffError:
        return "refused", None
    except Exception as err:  # a crash is the finding, whatever it is
        return f"crash: {type(err).__name__}: {err!s:.200}", None
    wrong = unreachable(state)
    if _problems_of(state):
        wrong.append("problems")
    if state_from_json(state_to_json(state)) != state:
        wrong.append("round trip")
    if play and not wrong:
        wrong += play_on(state, seed)
    return ("unreachable: " + ", ".join(wrong) if wrong else "accepted"), state


MAX_PLAY_MOVES = 4000
"""How far :func:`play_on` plays: a house target of 10**15 would take millions of rounds to reach."""


def play_on(state: State, seed: int) -> list[str]:
    """Legal random play from ``state`` to the match end, checking every position, step and deal."""
    policy = random.Random(seed)
    for _ in range(MAX_PLAY_MOVES):
        if position_violations(state):
            return ["play: " + str(position_violations(state)[0])]
        if state.phase is Phase.MATCH_OVER:
            return []
        if state.phase is Phase.ROUND_OVER:
            order = list(DOUBLE_SIX)
            policy.shuffle(order)
            record = state.last_round
            opener = (
                None if record is not None and record.finisher is not None else policy.randrange(state.rules.players)
            )
            dealt = deal_next(state, order=tuple(order), opener=opener)
            broken = deal_violations(state, dealt)
            if broken:
                return ["play: " + str(broken[0])]
            state = dealt
            continue
        moves = legal_moves(state)
        if not moves:
            return ["play: no legal move while playing"]
        move = moves[policy.randrange(len(moves))]
        after = apply(state, move)
        broken = step_violations(state, move, after)
        if broken:
            return ["play: " + str(broken[0])]
        state = after
    return []


def categories(outcome: Outcome) -> list[str]:
    """The categories an ``unreachable: ...`` outcome names."""
    return outcome.removeprefix("unreachable: ").split(", ") if outcome.startswith("unreachable") else []
