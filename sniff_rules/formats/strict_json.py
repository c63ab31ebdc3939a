"""The one hardened JSON reader, and the typed accessors every JSON document is read with (FORMAT-2).

:func:`load_json` parses text as a careful reader in any language would:
UTF-8 only, bounded in size and nesting, no duplicate keys, no ``NaN`` or
``Infinity``, no number a double cannot hold (``1e400`` is not infinity,
``2**53`` is not exact). The accessors then read the parsed value into
the types a document promises — an object with exactly its keys, an
array of bounded length, an integer that is no boolean or fraction, a
string — so that the state codec (:mod:`sniff_rules.formats.state_json`) and the
conformance runner (:mod:`sniff_rules.verify.vectors.conformance`) refuse malformed
input alike. Every refusal is a :class:`~sniff_rules.errors.NotationError`
citing FORMAT-2 and saying where and what.

>>> load_json('{"players": 2, "seats": [0, 1]}')
{'players': 2, 'seats': [0, 1]}
>>> load_json("[1e400]")
Traceback (most recent call last):
...
sniff_rules.errors.NotationError: FORMAT-2: 1e400 is not a finite number
>>> json_int(True, "rules.players")
Traceback (most recent call last):
...
sniff_rules.errors.NotationError: FORMAT-2: rules.players is an integer, got a boolean True
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from itertools import accumulate
from typing import Final, TypeAlias

from sniff_rules.errors import NotationError, described

JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
"""What :func:`json.loads` returns and :func:`json.dumps` accepts."""

JsonObject: TypeAlias = "dict[str, JsonValue]"
"""A JSON object, as :func:`json.loads` returns it."""

JSON_RULE: Final = "FORMAT-2"
"""The rule every malformed JSON document breaks (specs/rules.md)."""

MAX_JSON_CHARS: Final = 1 << 20
"""Longest JSON text read by default. A state is under 2 kB; the bound stops hostile input early."""

MAX_JSON_DEPTH: Final = 16
"""Deepest nesting of arrays and objects read by default; a state nests 4 deep."""

MAX_SAFE_INT: Final = (1 << 53) - 1
"""The largest integer every JSON reader holds exactly (an IEEE double's mantissa)."""

_MAX_SAFE_DIGITS: Final = len(str(MAX_SAFE_INT))


# ---------------------------------------------------------------- reading text


def _reject_duplicates(pairs: list[tuple[str, JsonValue]]) -> JsonObject:
    found: JsonObject = {}
    for key, value in pairs:
        if key in found:
            # json.loads would keep the last silently; two readers may keep different ones.
            raise NotationError(JSON_RULE, f"the key {described(key, 40)} appears twice in one object")
        found[key] = value
    return found


def _reject_constant(name: str) -> JsonValue:
    raise NotationError(JSON_RULE, f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    # float() rounds what a double cannot hold to infinity; JSON has no infinity.
    value = float(text)
    if not math.isfinite(value):
        raise NotationError(JSON_RULE, f"{text:.40} is not a finite number")
    return value


def _safe_int(text: str) -> int:
    digits = text.lstrip("-")
    # Counted before converting, so that a 4000-digit number costs nothing to refuse.
    if len(digits) > _MAX_SAFE_DIGITS or int(digits) > MAX_SAFE_INT:
        raise NotationError(JSON_RULE, f"the integer {text:.40} is beyond ±(2**53 - 1)")
    return int(text)


_BRACKET_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")


def _nesting_depth(text: str, limit: int) -> int:
    """How deep arrays and objects nest, brackets inside strings left out; ``limit`` is not needed to stop.

    Linear, at C speed: escaped backslashes and quotes are dropped first,
    so that every quote left opens or closes a string, and the brackets
    outside strings are summed with :func:`itertools.accumulate`. On text
    that is not JSON the figure may be anything; the parser refuses it.
    """
    del limit
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    outside = "".join(unescaped.split('"')[::2])
    return max(accumulate(map(_BRACKET_STEP.__getitem__, _NOT_BRACKET.sub("", outside))), default=0)


def load_json(
    text: str | bytes | bytearray, *, max_chars: int = MAX_JSON_CHARS, max_depth: int = MAX_JSON_DEPTH
) -> JsonValue:
    """Parse JSON text, refusing what a careful reader in any language would (FORMAT-2).

    Bytes must be UTF-8. Text longer than ``max_chars`` or nesting deeper
    than ``max_depth``, duplicate keys, ``NaN`` and ``Infinity``, numbers
    that overflow a double (``1e400``) and integers beyond ±(2**53 - 1)
    raise :class:`NotationError` instead of exhausting memory or the stack
    or being read as something else.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            raise NotationError(JSON_RULE, f"JSON text must be UTF-8: {err}") from None
    if not isinstance(text, str):
        raise NotationError(JSON_RULE, f"JSON text is a str or bytes, got {type(text).__name__}")
    if len(text) > max_chars:
        raise NotationError(JSON_RULE, f"JSON text of {len(text)} characters exceeds {max_chars}")
    if _nesting_depth(text, max_depth) > max_depth:
        raise NotationError(JSON_RULE, f"JSON nests deeper than {max_depth} levels")
    try:
        value: JsonValue = json.loads(
            text,
            object_pairs_hook=_reject_duplicates,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
            parse_int=_safe_int,
        )
    except NotationError:
        raise
    except (ValueError, RecursionError) as err:
        raise NotationError(JSON_RULE, f"not valid JSON: {err}") from None
    return value


# ---------------------------------------------------------------- typed accessors


def kind_of(value: object) -> str:
    """The JSON kind of ``value`` as an error message names it: ``"a boolean"``, ``"an array"``, ...

    >>> kind_of(True), kind_of(1), kind_of(1.5), kind_of(None), kind_of({})
    ('a boolean', 'an integer', 'a fraction', 'null', 'an object')
    """
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


def json_object(value: JsonValue, what: str, keys: Sequence[str] | None = None) -> Mapping[str, JsonValue]:
    """``value`` as an object; with ``keys``, holding exactly those keys, none missing, none unknown.

    >>> json_object({"a": 1}, "rules", ("a", "b"))
    Traceback (most recent call last):
    ...
    sniff_rules.errors.NotationError: FORMAT-2: rules has the keys a, b; missing b
    """
    if not isinstance(value, dict):
        raise NotationError(JSON_RULE, f"{what} is a JSON object, got {kind_of(value)}")
    # Data handed in from Python, not parsed from text, can hold keys JSON cannot write; checked before
    # the keys are compared or sorted, which a key of another type would make fail untyped.
    odd = [key for key in value if type(key) is not str]
    if odd:
        raise NotationError(JSON_RULE, f"{what} has only string keys, as JSON objects do; got the key {odd[0]!r:.40}")
    if keys is not None:
        missing = [key for key in keys if key not in value]
        unknown = sorted(key for key in value if key not in keys)
        if missing or unknown:
            raise NotationError(
                JSON_RULE,
                f"{what} has the keys {', '.join(keys)}"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; unknown {', '.join(repr(key)[:40] for key in unknown[:5])}" if unknown else ""),
            )
    return value


def json_field(data: Mapping[str, JsonValue], key: str, what: str) -> JsonValue:
    """The value of ``key`` in the object ``what``, which must have it."""
    if key not in data:
        raise NotationError(JSON_RULE, f"{what} lacks the key {key!r}")
    return data[key]


def json_array(value: JsonValue, what: str, most: int | None = None) -> list[JsonValue]:
    """``value`` as an array, of at most ``most`` entries when given."""
    if not isinstance(value, list):
        raise NotationError(JSON_RULE, f"{what} is a JSON array, got {kind_of(value)}")
    if most is not None and len(value) > most:
        raise NotationError(JSON_RULE, f"{what} has at most {most} entries, got {len(value)}")
    return value


def json_int(value: JsonValue, what: str) -> int:
    """``value`` as an integer within ±(2**53 - 1): not a boolean, not a fraction such as ``1.0``."""
    # bool is an int in Python but not in JSON: true is not 1.
    if type(value) is not int:
        raise NotationError(JSON_RULE, f"{what} is an integer, got {kind_of(value)} {described(value, 40)}")
    if not -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
        raise NotationError(JSON_RULE, f"{what} is out of range: |{what}| is at most 2**53 - 1")
    return value


def json_ints(value: JsonValue, what: str, most: int | None = None) -> list[int]:
    """``value`` as an array of integers (see :func:`json_int`)."""
    return [json_int(item, f"{what}[{index}]") for index, item in enumerate(json_array(value, what, most))]


def json_str(value: JsonValue, what: str) -> str:
    """``value`` as a string."""
    if not isinstance(value, str):
        raise NotationError(JSON_RULE, f"{what} is a string, got {kind_of(value)}")
    return value


def json_strs(value: JsonValue, what: str, most: int | None = None) -> list[str]:
    """``value`` as an array of strings."""
    return [json_str(item, f"{what}[{index}]") for index, item in enumerate(json_array(value, what, most))]
