"""The checker of ``limits.json`` (``kind: limits``, written by hand): each limit of the rules from both sides.

Every numeric limit and every alternative written form that
``specs/rules.md`` states has a case just inside it and a case just
outside it, each naming the ``limit`` (the rule id, a colon and what is
limited) and its ``side``. A case tries one thing: house rules (``rules``,
any JSON value read as the rules object of a document, or ``rules_text``,
JSON text the strict reader reads first), a move's text (``move``), a
paper tally (``score``) or one draw of ``below`` (``below``:
a seed and a bound written in decimal). An accepted case gives what this
library writes back (``written``: the rules object, the move in its
canonical text, the tally's counts of 50-point symbols and strokes,
``below``'s value in decimal); a refused one the one rule cited
(``refused``). The geometry's limits are cases of
``geometry.json``, which carry ``limit`` and ``side`` the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import partial
from typing import Final

from sniff_rules.draw.tally import paper_tally
from sniff_rules.errors import NotationError, SniffError
from sniff_rules.formats.notation import parse_move
from sniff_rules.formats.state_json import rules_from_data, rules_to_data
from sniff_rules.formats.strict_json import (
    JSON_RULE,
    JsonValue,
    json_field,
    json_int,
    json_object,
    json_str,
    json_strs,
    load_json,
)
from sniff_rules.randomness import SplitMix64
from sniff_rules.verify.vectors.files import Mismatch, VectorResult, check_named_cases

LIMITS_FILE: Final = "limits.json"
SIDES: Final = ("inside", "outside")
"""A case lies just inside a limit (accepted, or on the limit's near side) or just outside it."""

_ATTEMPTS: Final = ("rules", "rules_text", "move", "score", "below")
_DIGITS: Final = re.compile(r"[0-9]{1,21}")


def _below(value: JsonValue) -> str:
    """``below(bound)`` from a fresh source seeded with ``seed``, its value in decimal (SETUP-5)."""
    data = json_object(value, "below", ("seed", "bound"))
    seed = json_int(data["seed"], "below.seed")
    text = json_str(data["bound"], "below.bound")
    # Up to 21 digits, so that a bound just past 2**64 reaches below's own check (SETUP-5).
    if not _DIGITS.fullmatch(text):
        raise NotationError(JSON_RULE, f"below.bound is a decimal string, got {text!r:.40}")
    drawn, _source = SplitMix64.from_seed(seed).below(int(text))
    return str(drawn)


def _tally(value: JsonValue) -> JsonValue:
    """The tally's counts: its text is pinned by ``tally.json``, and 20,000 symbols are no case to read (TALLY-1)."""
    tally = paper_tally(json_int(value, "score"))
    return {"fifty_symbols": tally.fifty_symbols, "strokes": tally.strokes}


def _attempt(case: Mapping[str, JsonValue]) -> Callable[[], JsonValue]:
    """What the case tries, as a call returning what this library writes back."""
    tried = [key for key in _ATTEMPTS if key in case]
    if len(tried) != 1:
        raise NotationError(JSON_RULE, f"a limit case tries one of {', '.join(_ATTEMPTS)}; this one {tried}")
    key = tried[0]
    if key == "rules":
        return lambda: rules_to_data(rules_from_data(case["rules"]))
    if key == "rules_text":
        # JSON text, for what a vector file's own reading would refuse first: an integer past 2**53 - 1.
        return lambda: rules_to_data(rules_from_data(load_json(json_str(case["rules_text"], "rules_text"))))
    if key == "move":
        return lambda: str(parse_move(json_str(case["move"], "move")))
    if key == "score":
        return partial(_tally, case["score"])
    return partial(_below, case["below"])


def check_limit_case(case: Mapping[str, JsonValue]) -> None:
    """One case: refused citing exactly the rule in ``refused``, or accepted and written back as ``written``."""
    side = json_str(json_field(case, "side", "case"), "side")
    if side not in SIDES:
        raise NotationError(JSON_RULE, f"side is inside or outside, got {side!r:.40}")
    json_str(json_field(case, "limit", "case"), "limit")
    attempt = _attempt(case)
    if "refused" in case:
        rules = json_strs(case["refused"], "refused")
        if len(rules) != 1:
            raise Mismatch(f"a refusal names exactly one rule (CONV-3), this one {rules}")
        try:
            result = attempt()
        except SniffError as err:
            if err.rule != rules[0]:
                raise Mismatch(f"refused citing {err.rule}, expected {rules[0]} ({err})") from None
            return
        raise Mismatch(f"accepted ({result!r:.120}), but {rules[0]} refuses it")
    expected = json_field(case, "written", "case")
    actual = attempt()
    if expected != actual:
        raise Mismatch(f"written: expected {expected!r:.200}, got {actual!r:.200}")


def check_limits_file(path: str, data: Mapping[str, JsonValue]) -> list[VectorResult]:
    """One result per case of a ``kind: limits`` file; an empty file fails."""
    return check_named_cases(path, data, check_limit_case)
