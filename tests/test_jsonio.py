"""The hardened JSON reader and its typed accessors (sniff_rules.formats.strict_json, FORMAT-2)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given, strategies as st

from sniff_rules.errors import NotationError
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
