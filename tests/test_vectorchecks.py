"""The vector kinds that pin the conventions (verify.vectors.checks): randomness, refusals, tally, perft seeds.

Each shipped file validates against the schema and replays; each kind fails when a vector is made wrong,
when a section is empty and when an entry asserts nothing; the randomness vectors also agree with the
independent reading of SETUP-5 and OPEN-1 in tests/support.py.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from sniff_rules.errors import SniffError
from sniff_rules.randomness import SplitMix64
from sniff_rules.tiles import DOUBLE_SIX
from sniff_rules.verify.vectors.checks import (
    CHECKERS,
    VECTOR_GROUPS,
    below_draw,
    decimal,
    hex64,
    read_deal,
    shuffle_groups,
)
from sniff_rules.verify.vectors.conformance import VectorResult, check_file
from sniff_rules.verify.vectors.generate import GENERATED_FILES, HAND_WRITTEN_FILES
from support import ref_below, ref_lot, ref_next64, ref_shuffle, shuffle_groups as ref_shuffle_groups

VECTORS = Path(__file__).resolve().parent.parent / "specs" / "vectors"
NEW_FILES = ("randomness.json", "refusals.json", "tally.json")
ALL_TILES = [str(tile) for tile in DOUBLE_SIX]


@cache
def loaded(name: str) -> dict[str, Any]:
    """A shipped vector file as JSON."""
    data: dict[str, Any] = json.loads((VECTORS / name).read_text(encoding="utf-8"))
    return data


def replayed(tmp_path: Path, name: str, edit: Callable[[dict[str, Any]], object]) -> list[VectorResult]:
    """The runner's results for a copy of a shipped file changed by ``edit``."""
    data = copy.deepcopy(loaded(name))
    edit(data)
    copy_path = tmp_path / name
    copy_path.write_text(json.dumps(data), encoding="utf-8")
    return check_file(copy_path)


def failures(results: list[VectorResult]) -> list[str]:
    """The failing results, as the runner prints them."""
    return [str(result) for result in results if not result.passed]


# ---------------------------------------------------------------- the shipped files


def test_the_new_kinds_are_registered_and_their_files_shipped() -> None:
    """Each new kind has a checker, named groups, and one shipped file, generated or written by hand."""
    kinds = {loaded(name)["kind"] for name in NEW_FILES}
    assert {"randomness", "refusals", "tally"} == kinds == set(CHECKERS)
    assert kinds <= set(VECTOR_GROUPS)
    assert "randomness.json" in GENERATED_FILES
    assert {"refusals.json", "tally.json"} <= set(HAND_WRITTEN_FILES)
    assert not set(GENERATED_FILES) & set(HAND_WRITTEN_FILES)


@pytest.mark.parametrize("name", NEW_FILES)
def test_a_new_vector_file_matches_the_schema(name: str) -> None:
    """FORMAT-2: randomness.json, refusals.json and tally.json validate against specs/vectors/schema.json."""
    schema = json.loads((VECTORS / "schema.json").read_text(encoding="utf-8"))
    errors = [
        f"{list(e.absolute_path)}: {e.message}"
        for e in jsonschema.Draft202012Validator(schema).iter_errors(loaded(name))
    ]
    assert [] == errors[:5]


@pytest.mark.parametrize("name", NEW_FILES)
def test_a_new_vector_file_replays(name: str) -> None:
    """SETUP-5 OPEN-1 TALLY-1 CONV-1..4: every vector of the file passes, one result per named entry."""
    results = check_file(VECTORS / name)
    names = [entry["name"] for group in VECTOR_GROUPS[loaded(name)["kind"]] for entry in loaded(name)[group]]
    assert [] == failures(results)
    assert names == [result.name for result in results]
    assert len(set(names)) == len(names)


def schema_validator(definition: str) -> Any:
    """A validator for one definition of the schema."""
    schema = json.loads((VECTORS / "schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"})


def test_the_schema_bounds_the_hand_size_by_the_player_count() -> None:
    """SETUP-4: the schema allows 13 tiles each for two players, 9 for three, 6 for four, and no more."""
    rules = schema_validator("rules")
    allowed = [(2, 13), (3, 9), (4, 6)]
    refused = [(2, 14), (3, 10), (4, 7)]
    assert all(rules.is_valid({"players": p, "hand_size": h, "target": 200}) for p, h in allowed)
    assert not any(rules.is_valid({"players": p, "hand_size": h, "target": 200}) for p, h in refused)


def test_the_schema_allows_exactly_one_refused_rule() -> None:
    """CONV-3: a refused list names exactly one rule; the old "SNIFF-1 or PLACE-1" form is refused."""
    refused = schema_validator("refused")
    assert refused.is_valid(["PLACE-1"])
    assert not refused.is_valid(["SNIFF-1", "PLACE-1"])
    assert not refused.is_valid([])


# ---------------------------------------------------------------- randomness, against tests/support.py


def test_splitmix64_streams_agree_with_the_reference() -> None:
    """SETUP-5: every SplitMix64 output and state of randomness.json is the reference reading's, seed 0 included."""
    streams = loaded("randomness.json")["splitmix64"]
    assert 0 in [stream["seed"] for stream in streams]
    assert -1 in [stream["seed"] for stream in streams]
    for stream in streams:
        state = stream["seed"] % (1 << 64)
        for step in stream["steps"]:
            output, state = ref_next64(state)
            assert (f"{state:016x}", f"{output:016x}") == (step["state"], step["output"])


def test_below_sequences_reject_and_agree_with_the_reference() -> None:
    """SETUP-5: each below sequence rejects at least two outputs, and its values are the reference's."""
    for sequence in loaded("randomness.json")["below"]:
        state = sequence["seed"] % (1 << 64)
        rejected = 0
        for draw in sequence["draws"]:
            bound = int(draw["bound"])
            value, state = ref_below(state, bound)
            assert (str(value), str((1 << 64) % bound)) == (draw["value"], draw["threshold"])
            rejected += len(draw["outputs"]) - 1
        assert rejected >= 2, sequence["name"]
        assert f"{state:016x}" == sequence["state"]


def test_shuffles_agree_with_the_reference_and_include_rejected_draws() -> None:
    """SETUP-5: each shuffle's order is the reference's; some first packed draw rejects once, another twice."""
    shuffles = loaded("randomness.json")["shuffles"]
    for shuffle in shuffles:
        order, state = ref_shuffle(shuffle["seed"] % (1 << 64))
        assert (order, f"{state:016x}") == (shuffle["indices"], shuffle["state"])
        bounds = [[group[0], group[-1]] for group in ref_shuffle_groups()]
        assert bounds == [group["bounds"] for group in shuffle["groups"]]
    first_rejections = {len(shuffle["groups"][0]["draw"]["outputs"]) - 1 for shuffle in shuffles}
    assert {0, 1, 2} <= first_rejections


def test_lots_agree_with_the_reference_and_cover_ties() -> None:
    """OPEN-1: each winner and final state is the reference's; each player count has lots of 1, 2 and 3 rounds."""
    lots = loaded("randomness.json")["lots"]
    for lot in lots:
        opener, state = ref_lot(lot["seed"] % (1 << 64), tuple(range(lot["players"])))
        assert (opener, f"{state:016x}") == (lot["opener"], lot["state"])
        for before, after in zip(lot["lot"], lot["lot"][1:], strict=False):
            best = max(value for _, value in before)
            assert [seat for seat, value in before if value == best] == [seat for seat, _ in after]
    covered = {(lot["players"], len(lot["lot"])) for lot in lots}
    assert {(players, rounds) for players in (2, 3, 4) for rounds in (1, 2, 3)} <= covered


def test_deals_write_a_source_that_is_not_null() -> None:
    """FORMAT-2: the seeded deals and next rounds are states whose random source is written out."""
    data = loaded("randomness.json")
    states = [deal["state"] for deal in data["deals"]] + [entry["state"] for entry in data["next_rounds"]]
    assert all(state["source"] is not None for state in states)
    assert all(len(deal["state"]["lot"]) > 1 for deal in data["deals"])


def test_shuffle_groups_agree_with_the_reference() -> None:
    """SETUP-5: the checker's grouping of the shuffle's bounds is the reference reading's for every length."""
    for length in range(1, 40):
        assert [list(group) for group in ref_shuffle_groups(length)] == shuffle_groups(length)


def test_below_draw_lists_every_output_and_agrees_with_below() -> None:
    """SETUP-5: below_draw writes each output drawn, the rejected ones first, and ends where below ends."""
    _, after = SplitMix64.from_seed(0).next64()
    # From seed 0 the second and third outputs are under 2**63 - 1: below(2**63 + 1) rejects both.
    draw, following = below_draw(after, (1 << 63) + 1)
    value, expected_following = after.below((1 << 63) + 1)
    outputs = draw["outputs"]
    assert isinstance(outputs, list)
    assert ["6e789e6aa1b965f4", "06c45d188009454f", "f88bb8a8724c81ec"] == outputs
    assert (str(value), expected_following) == (draw["value"], following)


def rule_of(call: Callable[[], object]) -> str:
    """The rule ``call()`` cites in its refusal."""
    with pytest.raises(SniffError) as caught:
        call()
    return caught.value.rule


@pytest.mark.parametrize(
    ("read", "text"),
    [(hex64, "ABCDEF0123456789"), (hex64, "123"), (decimal, "01"), (decimal, str((1 << 64) + 1)), (decimal, "-1")],
)
def test_malformed_64_bit_numbers_are_refused(read: Callable[[Any, str], int], text: str) -> None:
    """FORMAT-2: a 64-bit number not written as the vectors write it is refused, naming FORMAT-2."""
    with pytest.raises(ValueError, match="FORMAT-2"):
        read(text, "x")


# ---------------------------------------------------------------- reading a deal


def test_conv_3_a_deal_is_read_then_its_rules_opener_and_order_checked() -> None:
    """CONV-3: a deal's malformed order (FORMAT-1) first, then rules (SETUP-4), opener (SETUP-2), order (SETUP-5)."""
    order: list[Any] = list(ALL_TILES)
    bad_rules: Any = {"players": 4, "hand_size": 7, "target": 200}
    good_rules: Any = {"players": 2, "hand_size": 7, "target": 250}
    assert "FORMAT-1" == rule_of(lambda: read_deal({"rules": bad_rules, "order": [*order[:27], "[9|9]"], "opener": 0}))
    assert "SETUP-4" == rule_of(lambda: read_deal({"rules": bad_rules, "order": order[:27], "opener": 9}))
    assert "SETUP-2" == rule_of(lambda: read_deal({"rules": good_rules, "order": order[:27], "opener": 2}))
    assert "SETUP-5" == rule_of(lambda: read_deal({"rules": good_rules, "order": [*order[:27], order[0]], "opener": 1}))
    assert "FORMAT-2" == rule_of(lambda: read_deal({"rules": good_rules, "order": [*order, order[0]], "opener": 1}))
    assert 1 == read_deal({"rules": good_rules, "order": order, "opener": 1}).opener


# ---------------------------------------------------------------- a wrong or empty vector fails


def set_path(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    """An edit that sets the value at ``path`` in a vector file."""

    def edit(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


RANDOMNESS_EDITS = [
    ("a SplitMix64 output", ["splitmix64", 0, "steps", 2, "output"], "0000000000000000", "output"),
    ("a state after a step", ["splitmix64", 1, "steps", 0, "state"], "9e3779b97f4a7c15", "state"),
    ("a below value", ["below", 0, "draws", 0, "value"], "2", "value"),
    ("a rejected output left out", ["below", 0, "draws", 5, "outputs"], ["c584133ac916ab3c"], "outputs"),
    ("a threshold", ["below", 1, "draws", 1, "threshold"], "15", "threshold"),
    ("a shuffle digit", ["shuffles", 0, "groups", 0, "j"], [0] * 14, "j for i"),
    ("a shuffled order", ["shuffles", 1, "indices"], list(range(28)), "indices"),
    ("a lot value", ["lots", 1, "lot", 0, 0, 1], 6, "lot"),
    ("a lot's opener", ["lots", 0, "opener"], 1, "opener"),
    ("a deal's written source", ["deals", 0, "state", "source"], {"splitmix64": "0123456789abcdef"}, "state"),
    ("a next round's order", ["next_rounds", 0, "state", "boneyard"], [], "next round"),
    ("a seed", ["shuffles", 2, "seed"], 11, "draw"),
]


@pytest.mark.parametrize(("what", "path", "value", "message"), RANDOMNESS_EDITS, ids=[e[0] for e in RANDOMNESS_EDITS])
def test_a_wrong_randomness_vector_fails(tmp_path: Path, what: str, path: list[Any], value: Any, message: str) -> None:
    """SETUP-5 OPEN-1: a randomness vector made wrong fails, alone, naming what differs."""
    found = failures(replayed(tmp_path, "randomness.json", set_path(path, value)))
    assert 1 == len(found), (what, found)
    assert message in found[0], found[0]


@pytest.mark.parametrize("group", VECTOR_GROUPS["randomness"])
def test_an_empty_randomness_section_fails(tmp_path: Path, group: str) -> None:
    """SETUP-5: a randomness file with a section emptied fails: it cannot pass by holding nothing."""
    found = failures(replayed(tmp_path, "randomness.json", set_path([group], [])))
    assert [
        f"FAIL  {tmp_path / 'randomness.json'} :: {group}\n      {group} is empty: a vector file must assert something"
    ] == found


@pytest.mark.parametrize(("group", "key"), [("splitmix64", "steps"), ("below", "draws")])
def test_a_randomness_entry_that_asserts_nothing_fails(tmp_path: Path, group: str, key: str) -> None:
    """SETUP-5: a stream with no steps or a below sequence with no draws fails."""
    found = failures(replayed(tmp_path, "randomness.json", set_path([group, 0, key], [])))
    assert 1 == len(found)
    assert "asserts nothing" in found[0]


def case_index(name: str) -> int:
    """The position of the refusal case called ``name``."""
    return [case["name"] for case in loaded("refusals.json")["cases"]].index(name)


REFUSAL_EDITS = [
    (
        "another rule",
        "a draw while a placement exists",
        "refused",
        ["DRAW-2"],
        "refused citing DRAW-1, expected DRAW-2",
    ),
    ("two rules", "a covered point", "refused", ["PLACE-1", "SNIFF-1"], "exactly one rule"),
    ("an accepted move", "a covered point", "move", "0:[2|6]>[6|6].chain-b", "accepted"),
    (
        "the legal moves out of order",
        "a side arm of a later double",
        "legal",
        ["0:[2|6]>[6|6].chain-b"],
        "canonical order",
    ),
    (
        "a precedence reversed",
        "a tile not held while a drawn tile waits: the drawn tile first",
        "refused",
        ["PLACE-3"],
        "DRAW-2",
    ),
    ("accepted rules", "one player", "rules", {"players": 2, "hand_size": 7, "target": 250}, "accepted"),
    (
        "an accepted deal",
        "a negative opener",
        "deal",
        {"rules": {"players": 2, "hand_size": 7, "target": 250}, "order": [], "opener": 0},
        "SETUP-5",
    ),
    (
        "an accepted next round",
        "an opener other than the finisher",
        "next_round",
        {"opener": 0, "order": ALL_TILES},
        "accepted",
    ),
    ("rules that are no object", "one player", "rules", None, "FORMAT-2"),
]


@pytest.mark.parametrize(("what", "name", "key", "value", "message"), REFUSAL_EDITS, ids=[e[0] for e in REFUSAL_EDITS])
def test_a_wrong_refusal_vector_fails(tmp_path: Path, what: str, name: str, key: str, value: Any, message: str) -> None:
    """CONV-3: a refusal case made wrong fails, alone: another rule, two rules, an accepted move, a wrong order."""
    found = failures(replayed(tmp_path, "refusals.json", set_path(["cases", case_index(name), key], value)))
    assert 1 == len(found), (what, found)
    assert message in found[0], found[0]


def test_an_empty_refusal_file_fails(tmp_path: Path) -> None:
    """CONV-3: a refusal file with no case fails."""
    assert 1 == len(failures(replayed(tmp_path, "refusals.json", set_path(["cases"], []))))


def test_a_refusal_case_trying_two_things_fails(tmp_path: Path) -> None:
    """CONV-3: a case tries one thing: a move and house rules at once is a malformed vector."""
    edit = set_path(["cases", case_index("a covered point"), "rules"], {"players": 5, "hand_size": 5, "target": 200})
    found = failures(replayed(tmp_path, "refusals.json", edit))
    assert 1 == len(found)
    assert "tries one of" in found[0]


TALLY_EDITS = [
    ("a wrong text", 7, "text", "X X ||||||", "text"),
    ("a wrong symbol count", 7, "fifty_symbols", 1, "50-point symbols"),
    ("a wrong stroke count", 11, "strokes", 2, "single strokes"),
    ("a refused score made drawable", 12, "score", 10, "accepted"),
]


@pytest.mark.parametrize(("what", "index", "key", "value", "message"), TALLY_EDITS, ids=[e[0] for e in TALLY_EDITS])
def test_a_wrong_tally_vector_fails(tmp_path: Path, what: str, index: int, key: str, value: Any, message: str) -> None:
    """TALLY-1: a tally made wrong fails, alone, naming what differs."""
    found = failures(replayed(tmp_path, "tally.json", set_path(["scores", index, key], value)))
    assert 1 == len(found), (what, found)
    assert message in found[0], found[0]


def test_an_empty_tally_file_fails(tmp_path: Path) -> None:
    """TALLY-1: a tally file with no score fails."""
    assert 1 == len(failures(replayed(tmp_path, "tally.json", set_path(["scores"], []))))


# ---------------------------------------------------------------- perft seeds


def position_index(name: str) -> int:
    """The position of the perft position called ``name``."""
    return [position["name"] for position in loaded("perft.json")["positions"]].index(name)


PERFT_EDITS = [
    ("another seed", "2p-deal-201", "seed", 202, "order"),
    ("another policy seed", "3p-late-round", "policy_seed", 1, "policy's choice"),
    ("a policy seed without a seed", "2p-late-round-near-target", "policy_seed", 7, "policy_seed is given"),
]


@pytest.mark.parametrize(("what", "name", "key", "value", "message"), PERFT_EDITS, ids=[e[0] for e in PERFT_EDITS])
def test_a_wrong_perft_seed_fails(tmp_path: Path, what: str, name: str, key: str, value: Any, message: str) -> None:
    """SETUP-5 OPEN-1: a perft position naming the wrong seed or policy seed fails, alone."""
    found = failures(replayed(tmp_path, "perft.json", set_path(["positions", position_index(name), key], value)))
    assert 1 == len(found), (what, found)
    assert message in found[0], found[0]


def test_every_dealt_perft_position_names_its_seed() -> None:
    """FORMAT-2: each perft position that starts from a deal names the seed it was dealt from."""
    positions = loaded("perft.json")["positions"]
    dealt = [position for position in positions if "deal" in position["start"]]
    assert dealt
    assert all("seed" in position for position in dealt)
    assert all("policy_seed" in position for position in dealt if position["start"]["moves"])
