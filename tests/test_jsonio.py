"""The hardened JSON reader and its typed accessors (sniff_rules.formats.strict_json, FORMAT-2)."""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, strategies as st

from sniff_rules.errors import NotationError
from sniff_rules.formats import record_json, state_json, table_json
from sniff_rules.formats.strict_json import (
    MAX_JSON_CHARS,
    MAX_JSON_DEPTH,
    MAX_SAFE_INT,
    JsonValue,
    json_array,
    json_field,
    json_int,
    json_ints,
    json_object,
    json_str,
    json_strs,
    load_json,
)
from sniff_rules.moves import apply, legal_moves
from sniff_rules.play.record import MatchRecord
from sniff_rules.play.table import Table
from sniff_rules.rules import Rules
from sniff_rules.state import new_match

HOSTILE_TEXT = [
    ("[" * 100_000 + "]" * 100_000, "nesting far too deep"),
    ('{"a": ' * (MAX_JSON_DEPTH + 1) + "1" + "}" * (MAX_JSON_DEPTH + 1), "nesting one level too deep"),
    ("1" * 5000, "a 5000-digit integer"),
    ("[9007199254740992]", "an integer one past 2**53 - 1"),
    ("[-9007199254740992]", "an integer one below -(2**53 - 1)"),
    ("[1e400]", "a number that overflows a double"),
    ("[-1e400]", "a negative number that overflows a double"),
    ('{"a": 1E999}', "an exponent that overflows"),
    ("NaN", "NaN"),
    ('{"a": Infinity}', "Infinity"),
    ("[-Infinity]", "-Infinity"),
    ('{"a": 1, "a": 2}', "a duplicate key"),
    ('[{"b": {"a": 1, "a": 1}}]', "a duplicate key deep down"),
    ("{", "truncated"),
    ("", "empty"),
    ("[1,]", "a trailing comma"),
    ("{'a': 1}", "single quotes"),
    ('["\x01"]', "a control character in a string"),
    ("\ufeff[]", "a byte-order mark"),
    (" " * MAX_JSON_CHARS + "{}", "over a megabyte"),
    ("[1|4]", "not JSON"),
]


@pytest.mark.parametrize(("text", "what"), HOSTILE_TEXT, ids=[case[1] for case in HOSTILE_TEXT])
def test_hostile_json_text_is_refused_citing_format_2(text: str, what: str) -> None:
    """FORMAT-2: too deep, too long, duplicate keys, non-finite or unsafe numbers, not JSON: NotationError, no crash."""
    with pytest.raises(NotationError) as caught:
        load_json(text)
    assert "FORMAT-2" == caught.value.rule, what


def test_a_number_beyond_a_double_is_not_read_as_infinity() -> None:
    """FORMAT-2: load_json("[1e400]") is refused (it was once read as [inf], against the docstring)."""
    assert [1e300] == load_json("[1e300]")
    with pytest.raises(NotationError, match="1e400 is not a finite number") as caught:
        load_json("[1e400]")
    assert "FORMAT-2" == caught.value.rule


def test_the_safe_integers_are_read_exactly_to_their_bounds() -> None:
    """FORMAT-2: ±(2**53 - 1) are read, exactly; one further is refused."""
    assert [MAX_SAFE_INT, -MAX_SAFE_INT, 0] == load_json(f"[{MAX_SAFE_INT}, {-MAX_SAFE_INT}, -0]")


def test_bytes_must_be_utf_8() -> None:
    """FORMAT-2: JSON bytes are decoded as UTF-8; other bytes are refused."""
    assert {"format": "é"} == load_json('{"format": "é"}'.encode())
    with pytest.raises(NotationError) as caught:
        load_json(b'{"format": "\xff"}')
    assert "FORMAT-2" == caught.value.rule


@pytest.mark.parametrize("value", [None, 7, ["{}"], {"a": 1}])
def test_only_text_or_bytes_is_parsed(value: object) -> None:
    """FORMAT-2: load_json of something that is not text raises NotationError, never TypeError."""
    with pytest.raises(NotationError) as caught:
        load_json(value)  # type: ignore[arg-type]
    assert "FORMAT-2" == caught.value.rule


def test_depth_limit_ignores_brackets_inside_strings() -> None:
    """FORMAT-2: brackets in strings, escaped quotes included, do not count as nesting."""
    text = '["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"[[[[[[[[[[[[[[[[[[["]'
    assert [json.loads(text)[0]] == load_json(text)


def test_the_bounds_can_be_raised_for_bigger_documents() -> None:
    """FORMAT-2: max_chars and max_depth are the caller's; a vector file reads with bigger ones."""
    deep = "[" * 20 + "]" * 20
    with pytest.raises(NotationError):
        load_json(deep)
    assert isinstance(load_json(deep, max_depth=32), list)


json_texts = st.recursive(
    st.none() | st.booleans() | st.integers(-MAX_SAFE_INT, MAX_SAFE_INT) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)


@given(json_texts)
def test_documented_json_reads_as_json_loads_reads_it(value: JsonValue) -> None:
    """FORMAT-2: any JSON within the documented bounds reads exactly as the standard library reads it."""
    text = json.dumps(value)
    assert json.loads(text) == load_json(text)


# ---------------------------------------------------------------- accessors


ACCESSORS: list[tuple[str, Callable[[], object]]] = [
    ("an object that is an array", lambda: json_object([], "rules")),
    ("a missing key", lambda: json_object({"a": 1}, "rules", ("a", "b"))),
    ("an unknown key", lambda: json_object({"a": 1, "c": 2}, "rules", ("a",))),
    ("a lacking field", lambda: json_field({"a": 1}, "b", "rules")),
    ("an array that is text", lambda: json_array("[1]", "hands")),
    ("an array too long", lambda: json_array([0] * 5, "scores", 4)),
    ("a boolean for an integer", lambda: json_int(True, "seat")),
    ("a fraction for an integer", lambda: json_int(1.0, "seat")),
    ("text for an integer", lambda: json_int("1", "seat")),
    ("null for an integer", lambda: json_int(None, "seat")),
    ("an integer past 2**53", lambda: json_int(2**53, "score")),
    ("an integer below -2**53", lambda: json_int(-(2**60), "score")),
    ("a fraction among integers", lambda: json_ints([1, 2.5], "scores")),
    ("an integer for a string", lambda: json_str(1, "phase")),
    ("an integer among strings", lambda: json_strs(["[1|4]", 5], "hand")),
]


@pytest.mark.parametrize(("what", "read"), ACCESSORS, ids=[case[0] for case in ACCESSORS])
def test_an_accessor_refuses_the_wrong_kind_citing_format_2(what: str, read: Callable[[], object]) -> None:
    """FORMAT-2: each typed accessor refuses a value of the wrong kind, length or range, or the wrong keys."""
    with pytest.raises(NotationError) as caught:
        read()
    assert "FORMAT-2" == caught.value.rule, what


def test_accessors_return_what_they_were_given() -> None:
    """FORMAT-2: a value of the right kind passes through unchanged."""
    assert {"a": 1} == json_object({"a": 1}, "rules", ("a",))
    assert 1 == json_field({"a": 1}, "a", "rules")
    assert [1, -MAX_SAFE_INT] == json_ints([1, -MAX_SAFE_INT], "scores", 2)
    assert ["[1|4]"] == json_strs(["[1|4]"], "hand")
    assert "playing" == json_str("playing", "phase")


# --- keys JSON cannot write, in data handed in from Python (FORMAT-2) ---


def _readers() -> list[Callable[[JsonValue], object]]:
    """Every public ``*_from_data`` reader of sniff_rules.formats, its other arguments filled in."""
    readers: list[Callable[[JsonValue], object]] = []
    for module in (state_json, record_json, table_json):
        for name, function in vars(module).items():
            if not name.endswith("_from_data") or name.startswith("_") or function.__module__ != module.__name__:
                continue
            extra = {
                parameter: {"rules": Rules.standard(2), "what": "a value"}[parameter]
                for parameter, spec in inspect.signature(function).parameters.items()
                if spec.default is inspect.Parameter.empty and parameter not in ("value",)
            }
            readers.append(functools.partial(function, **extra))
    return readers


READERS = _readers()


def test_every_reader_is_found() -> None:
    """The readers tried below are the ones the formats ring has, so a new one cannot skip the check."""
    names = sorted(reader.func.__name__ for reader in READERS)  # type: ignore[attr-defined]
    assert [
        "lot_from_data",
        "order_from_data",
        "record_from_data",
        "round_result_from_data",
        "rules_from_data",
        "settlement_from_data",
        "state_from_data",
        "table_from_data",
        "tiles_from_data",
    ] == names


@pytest.mark.parametrize("keys", [{1: 0, "x": 0}, {None: 0}, {("a",): 0, "b": 1}, {1.5: 0}])
@pytest.mark.parametrize("reader", READERS, ids=lambda reader: reader.func.__name__)
def test_every_reader_refuses_a_key_that_is_not_a_string(reader: Callable[[JsonValue], object], keys: object) -> None:
    """A non-string key, mixed with string keys or alone, is FORMAT-2, never a bare TypeError from sorting."""
    with pytest.raises(NotationError) as caught:
        reader(keys)  # type: ignore[arg-type]
    assert "FORMAT-2" == caught.value.rule


def _objects(value: JsonValue, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """The path of every object in ``value``, itself first."""
    found: list[tuple[str | int, ...]] = []
    if isinstance(value, dict):
        found.append(path)
        for key, item in value.items():
            found += _objects(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _objects(item, (*path, index))
    return found


def _with_int_key(document: JsonValue, path: tuple[str | int, ...]) -> JsonValue:
    copied: JsonValue = json.loads(json.dumps(document))
    target: Any = copied
    for step in path:
        target = target[step]
    target[7] = 0
    return copied


def _documents() -> list[tuple[str, Callable[[JsonValue], object], JsonValue]]:
    state = new_match(Rules.standard(4), seed=2)
    state = apply(state, legal_moves(state)[0])
    record = MatchRecord.seeded(Rules.standard(2), 3).with_moves(legal_moves(new_match(Rules.standard(2), 3))[0])
    table = Table.new(Rules.standard(2), ("person", "random"), ("a-token-for-seat-0",), seed=1, bot_seed=2)
    return [
        ("state", state_json.state_from_data, state_json.state_to_data(state)),
        ("record", record_json.record_from_data, record_json.record_to_data(record)),
        ("table", table_json.table_from_data, table_json.table_to_data(table)),
    ]


@pytest.mark.parametrize(("kind", "reader", "document"), _documents(), ids=lambda item: str(item)[:8])
def test_a_key_that_is_not_a_string_is_refused_at_every_depth(
    kind: str, reader: Callable[[JsonValue], object], document: JsonValue
) -> None:
    """A good document with an int key added to any one of its objects, however deep, is FORMAT-2."""
    reader(document)
    paths = _objects(document)
    assert len(paths) > 1, kind
    rules = []
    for path in paths:
        with pytest.raises(NotationError) as caught:
            reader(_with_int_key(document, path))
        rules.append(caught.value.rule)
    assert ["FORMAT-2"] * len(paths) == rules
