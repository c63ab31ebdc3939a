"""Every exported value class keeps its sequence fields tuples: a list is refused (FORMAT-3) or made a tuple.

A list in a frozen value's field makes the value unhashable and lets a
caller change it in place; each exported attrs class is tried with a list
in every sequence field, at each level of a tuple of tuples.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any, Final

import attrs
import pytest

import sniff_rules
from sniff_rules.adapters.openspiel.core import GameShape
from sniff_rules.adapters.openspiel.observer import Visibility
from sniff_rules.cli.simulate import BotRow, MatchOutcome, Simulation, Summary, play_one, summarize
from sniff_rules.cli.terminal_game import GameSettings
from sniff_rules.draw.narration import Palette, Seating
from sniff_rules.errors import SniffError
from sniff_rules.moves import apply, legal_moves
from sniff_rules.play.driver import Step
from sniff_rules.play.ismcts import ISMCTSBot
from sniff_rules.play.registry import BotChoice, BotName, BotOffer, OfferedBot, parse_offer
from sniff_rules.play.sampler import SampledDeal
from sniff_rules.play.table import Table, TableSeat
from sniff_rules.position.laws import Violation
from sniff_rules.rules import Rules
from sniff_rules.tiles import DOUBLE_SIX
from sniff_rules.verify.adapter_checks import Failure
from sniff_rules.verify.engine_check import Verdict
from sniff_rules.verify.strategies import NextRound, Playthrough
from sniff_rules.verify.vectors.files import VectorResult
from sniff_rules.verify.vectors.recorded_play import RecordedTally
from sniff_rules.web.store import StoredTable
from test_immutability import _DEALT, _ROUND_OVER, EXAMPLES

# Values of results that carry JSON objects (dicts) by design: compared by value, never hashed.
_NOT_HASHED: Final = {"MachineOutcome"}


def _playthrough() -> Playthrough:
    lead = legal_moves(_DEALT)[0]
    return Playthrough(Rules.standard(2), 20, (lead, NextRound()), apply(_DEALT, lead))


def _simulation() -> Simulation:
    return Simulation(Rules(2, 7, 60), ("greedy", "random"), seed=4, matches=2)


def _summary() -> Summary:
    return summarize(_simulation(), [play_one(_simulation(), index) for index in range(2)])


MORE_EXAMPLES: dict[type, Callable[[], Any]] = {
    Table: lambda: Table.new(Rules.standard(2), ("person", "random"), ("token-for-seat-zero",), seed=1, bot_seed=2),
    TableSeat: lambda: TableSeat("random"),
    BotChoice: lambda: BotChoice("random", "Random bot"),
    BotName: lambda: BotName("search", 8),
    Violation: lambda: Violation("move-legal", "DRAW-1", "Draw(0) is not a legal move here"),
    Playthrough: _playthrough,
    NextRound: NextRound,
    Failure: lambda: Failure("match-over", "apply raised", _ROUND_OVER),
    VectorResult: lambda: VectorResult("specs/vectors/perft.json", "first"),
    RecordedTally: RecordedTally,
    Verdict: lambda: Verdict("legal moves", True),
    GameShape: lambda: GameShape(Rules.standard(2), "match", 4),
    Visibility: lambda: Visibility(public=True, own=True, everyone=False, recall=True),
    Simulation: _simulation,
    MatchOutcome: lambda: _summary().outcomes[0],
    BotRow: lambda: _summary().rows[0],
    Summary: _summary,
    Palette: lambda: Palette(enabled=False),
    Seating: lambda: Seating.of(Rules.standard(2), {1: "greedy"}, you=0),
    GameSettings: lambda: GameSettings(Rules.standard(2), 0, ("greedy",)),
    ISMCTSBot: lambda: ISMCTSBot(8),
    OfferedBot: lambda: parse_offer("strong=./my-bot --level 3"),
    BotOffer: lambda: BotOffer.of(["strong=./my-bot --level 3"]),
    StoredTable: lambda: StoredTable("table-id-of-the-example", "{}", 1, "127.0.0.1", 0.0),
}
ALL_EXAMPLES: dict[type, Callable[[], Any]] = {**EXAMPLES, **MORE_EXAMPLES}


def exported_value_classes() -> set[type]:
    """Every attrs class with a public name defined in a public module of the package, every ring included."""
    found: set[type] = set()
    for info in pkgutil.walk_packages(sniff_rules.__path__, "sniff_rules."):
        if any(part.startswith("_") for part in info.name.split(".")[1:]) or info.name.endswith("simulate_ray"):
            continue
        module = importlib.import_module(info.name)
        found.update(
            value
            for name, value in vars(module).items()
            if isinstance(value, type) and attrs.has(value) and value.__module__ == info.name and name[0] != "_"
        )
    return {cls for cls in found if cls.__name__ not in _NOT_HASHED}


def _cases() -> list[tuple[type, str, int | None]]:
    """(class, field, inner index or None) for each tuple in an init field of each example, at each level."""
    cases: list[tuple[type, str, int | None]] = []
    for cls, make in ALL_EXAMPLES.items():
        value = make()
        for field in attrs.fields(cls):
            held = getattr(value, field.name)
            if not field.init or not isinstance(held, tuple):
                continue
            cases.append((cls, field.name, None))
            inner = next((index for index, item in enumerate(held) if type(item) is tuple), None)
            if inner is not None:
                cases.append((cls, field.name, inner))
    return cases


def _listed(held: tuple[Any, ...], inner: int | None) -> Any:
    if inner is None:
        return list(held)
    return (*held[:inner], list(held[inner]), *held[inner + 1 :])


def test_every_exported_value_class_has_an_example() -> None:
    """The examples cover every exported attrs class, so a new value cannot skip the list check."""
    assert set() == exported_value_classes() - set(ALL_EXAMPLES)


def test_every_example_is_hashable() -> None:
    """Each example value hashes, as a frozen value of tuples must."""
    unhashable = []
    for cls, make in ALL_EXAMPLES.items():
        try:
            hash(make())
        except TypeError:
            unhashable.append(cls.__name__)
    assert [] == unhashable


@pytest.mark.parametrize(
    ("cls", "name", "inner"),
    _cases(),
    ids=lambda item: getattr(item, "__name__", str(item)),
)
def test_a_list_in_a_sequence_field_is_refused_or_made_a_tuple(cls: type, name: str, inner: int | None) -> None:
    """A list in the field (or in one of its inner tuples) is refused with a typed error, or the value
    built holds a tuple there and hashes; never a value holding the list."""
    value = ALL_EXAMPLES[cls]()
    listed = _listed(getattr(value, name), inner)
    rule: str | None = None
    try:
        built = attrs.evolve(value, **{name: listed})
    except SniffError as refused:
        rule = refused.rule
    if rule is not None:
        # A refusal names the rule for malformed values, or the seat-count rule a wrong-length hand breaks.
        assert rule in {"FORMAT-3", "SETUP-2"}
        return
    held = getattr(built, name)
    kept = held if inner is None else held[inner]
    assert (tuple, tuple(listed if inner is None else listed[inner])) == (type(kept), kept)
    hash(built)


def test_the_refusal_names_the_class_and_the_field() -> None:
    """The message says which field of which class took a list, and what it was given."""
    with pytest.raises(SniffError) as caught:
        Step(None, [], _DEALT)  # type: ignore[arg-type]
    assert "FORMAT-3: Step.events is a tuple, got list []" == str(caught.value)
    with pytest.raises(SniffError) as caught:
        SampledDeal(((), [DOUBLE_SIX[0]]), ())  # type: ignore[arg-type]
    assert "FORMAT-3: SampledDeal.hands is a tuple of tuples, got tuple ((), [Tile(0, 0)])" == str(caught.value)
