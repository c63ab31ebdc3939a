"""Every public value is immutable for real: no route the library can close changes one in place.

attrs refuses assignment and deletion; the library also refuses
``__setstate__`` and rebuilds copies and pickles through the constructor,
so the values every match shares (the 28 tiles, the attachment points, the
cached moves of ``legal_moves``) cannot be corrupted by one caller.
"""

from __future__ import annotations

import copy
import inspect
import linecache
import pickle
import traceback
from collections.abc import Callable
from typing import Any, cast

import attrs
import pytest

import sniff_rules
from sniff_rules._fast import constructor, fast_frozen, is_native, sealed, unchecked_constructor
from sniff_rules.draw.geometry import Bounds, LayoutGeometry, PointGeometry, TileGeometry, geometry
from sniff_rules.draw.tally import PaperTally, paper_tally
from sniff_rules.layout import AttachmentPoint, Connection, Contribution, Layout, Placement, Port
from sniff_rules.moves import Draw, Pass, Place, apply, legal_moves
from sniff_rules.play.bots import random_move
from sniff_rules.play.driver import Step, play_match
from sniff_rules.play.events import Dealt, Drew, MatchWon, Passed, Placed, RoundEnded
from sniff_rules.play.history import Lacked, RoundLog, round_logs
from sniff_rules.play.record import Deal, MatchRecord
from sniff_rules.play.sampler import DealSampler, SampledDeal
from sniff_rules.play.search import SearchBot
from sniff_rules.play.view import MoveOption, Observation, SeatView, observe, seat_view
from sniff_rules.position.reachability import Problem
from sniff_rules.randomness import SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.scoring import PlayScore, Settlement
from sniff_rules.state import Phase, RoundContext, RoundResult, State, new_match
from sniff_rules.tiles import DOUBLE_SIX, Tile


def _finished_round() -> State:
    state = new_match(Rules.standard(2), seed=3)
    while state.phase is Phase.PLAYING:
        state = apply(state, legal_moves(state)[0])
    return state


_ROUND_OVER = _finished_round()
_DEALT = new_match(Rules.standard(2), seed=20)
_LAYOUT = Layout.parse("[5|5] [2|5]>[5|5].chain-a [3|5]>[5|5].chain-b")

# One whole match, every step kept: the source of an example of each event.
_STEPS = tuple(play_match(new_match(Rules.standard(4), seed=1), [random_move] * 4, SplitMix64.from_seed(1)))
_EVENTS = tuple(event for step in _STEPS for event in step.events)


def _first_event(cls: type[Any]) -> Any:
    return next(event for event in _EVENTS if type(event) is cls)


EXAMPLES: dict[type, Callable[[], Any]] = {
    Tile: lambda: DOUBLE_SIX[9],
    Rules: lambda: Rules.standard(4),
    SplitMix64: lambda: SplitMix64.from_seed(5),
    AttachmentPoint: lambda: AttachmentPoint(Tile(1, 4), Port.HIGH),
    Placement: lambda: _LAYOUT.placements[1],
    Contribution: lambda: _LAYOUT.contributions[0],
    Connection: lambda: _LAYOUT.connections[0],
    Layout: lambda: _LAYOUT,
    PlayScore: lambda: PlayScore(15, 15),
    Settlement: lambda: Settlement((3, 0), (5, 0), (5, 0)),
    RoundResult: lambda: _ROUND_OVER.last_round,
    RoundContext: lambda: _ROUND_OVER.context,
    State: lambda: _ROUND_OVER,
    Place: lambda: legal_moves(new_match(Rules.standard(3), seed=1))[0],
    Draw: lambda: Draw(1),
    Pass: lambda: Pass(2),
    Observation: lambda: observe(_ROUND_OVER, 0),
    SeatView: lambda: seat_view(_DEALT, 0, [Dealt.of(_DEALT)]),
    MoveOption: lambda: seat_view(_DEALT, _DEALT.to_move, [Dealt.of(_DEALT)]).options[0],
    PaperTally: lambda: paper_tally(135),
    Problem: lambda: Problem("TURN-1", "to_move", "to_move is seat 0, but it is seat 1's turn"),
    Step: lambda: _STEPS[1],
    Dealt: lambda: _first_event(Dealt),
    Placed: lambda: _first_event(Placed),
    Drew: lambda: _first_event(Drew),
    Passed: lambda: _first_event(Passed),
    RoundEnded: lambda: _first_event(RoundEnded),
    MatchWon: lambda: _first_event(MatchWon),
    RoundLog: lambda: round_logs(_EVENTS, seat=0)[0],
    Lacked: lambda: next(log.lacks[0] for log in round_logs(_EVENTS, seat=0) if log.lacks),
    Deal: lambda: Deal(tuple(DOUBLE_SIX), 1),
    MatchRecord: lambda: MatchRecord.seeded(Rules.standard(4), 1).with_moves(*(s.move for s in _STEPS[1:4] if s.move)),
    SampledDeal: lambda: DealSampler(seat_view(_DEALT, 0, [Dealt.of(_DEALT)])).sample(SplitMix64.from_seed(1))[0],
    SearchBot: lambda: SearchBot(deals=4),
    Bounds: lambda: Bounds(20, None),
    LayoutGeometry: lambda: geometry(_LAYOUT),
    TileGeometry: lambda: geometry(_LAYOUT).tiles[1],
    PointGeometry: lambda: geometry(_LAYOUT).points[0],
}


def test_every_public_value_class_has_an_example() -> None:
    """The examples cover every attrs class the package exports, so a new value cannot skip these tests."""
    exported = {value for value in vars(sniff_rules).values() if isinstance(value, type) and attrs.has(value)}
    assert set() == exported - set(EXAMPLES)


@pytest.mark.parametrize("cls", list(EXAMPLES), ids=lambda cls: cls.__name__)
def test_setstate_is_refused_and_changes_nothing(cls: type) -> None:
    """No value accepts __setstate__, the route that bypassed every check."""
    value = EXAMPLES[cls]()
    fields = attrs.astuple(value, recurse=False)
    first = attrs.fields(cls)[0].name
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        value.__setstate__({first: None})
    assert fields == attrs.astuple(value, recurse=False)


@pytest.mark.parametrize("cls", list(EXAMPLES), ids=lambda cls: cls.__name__)
def test_fields_and_class_cannot_be_assigned_or_deleted(cls: type) -> None:
    """Assignment and deletion of every field, and a swap of __class__, are refused on every value; nothing changes."""
    value = EXAMPLES[cls]()
    before = attrs.astuple(value, recurse=False)
    for field in attrs.fields(cls):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(value, field.name, None)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            delattr(value, field.name)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        value.__class__ = object
    assert (cls, before) == (type(value), attrs.astuple(value, recurse=False))


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("cls", list(EXAMPLES), ids=lambda cls: cls.__name__)
def test_copies_and_pickles_are_equal_values(cls: type, protocol: int) -> None:
    """copy, deepcopy and pickle (every protocol) rebuild an equal value of the same class through the constructor."""
    value = EXAMPLES[cls]()
    for rebuilt in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value, protocol))):
        assert (cls, value) == (type(rebuilt), rebuilt)


def test_shared_tiles_and_points_stay_shared_through_copies() -> None:
    """A copied or unpickled tile or point is the one the engine's tables hold."""
    tile = DOUBLE_SIX[12]
    point = AttachmentPoint.from_id(12 * 6 + 1)
    copies: list[Callable[[object], object]] = [
        copy.copy,
        copy.deepcopy,
        lambda value: pickle.loads(pickle.dumps(value)),
    ]
    assert [tile] * 3 == [rebuild(tile) for rebuild in copies]
    assert all(rebuild(tile) is tile and rebuild(point) is point for rebuild in copies)


def test_a_corrupting_setstate_on_a_cached_move_leaves_later_matches_alone() -> None:
    """The reproducer: legal_moves(s)[0].__setstate__({'seat': 3}) once corrupted every later match."""
    state = new_match(Rules.standard(2), seed=1)
    cached: Any = legal_moves(state)[0]
    first_tile: Any = DOUBLE_SIX[0]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        cached.__setstate__({"seat": 3})
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        first_tile.__setstate__({"low": 0, "high": 6})
    assert state.to_move == legal_moves(new_match(Rules.standard(2), seed=1))[0].seat
    assert (0, 0) == (DOUBLE_SIX[0].low, DOUBLE_SIX[0].high)


def test_an_unpickled_state_is_checked_like_a_new_one() -> None:
    """A pickle rebuilds through the public constructor, so a doctored pickle is refused, not loaded."""
    state = new_match(Rules.standard(2), seed=1)
    build, fields = cast(tuple[Callable[..., State], tuple[object, ...]], state.__reduce__())
    doctored = (fields[0], fields[1], 7, *fields[3:])
    with pytest.raises(sniff_rules.InvalidStateError) as caught:
        build(*doctored)
    assert "TURN-1" == caught.value.rule


def test_the_fast_path_refuses_what_it_would_skip() -> None:
    """fast_frozen refuses, when the class is made, a validator, a converter or an init hook."""

    def positive(_instance: object, _attribute: object, value: int) -> None:
        assert value > 0

    with pytest.raises(TypeError, match=r"Validated\.size: the fast __new__ would skip its validator"):

        @fast_frozen()
        @attrs.frozen(weakref_slot=False)
        class Validated:
            size: int = attrs.field(validator=positive)

    with pytest.raises(TypeError, match=r"Converted\.size: the fast __new__ would skip its validator or converter"):

        @fast_frozen()
        @attrs.frozen(weakref_slot=False)
        class Converted:
            size: int = attrs.field(converter=int)

    with pytest.raises(TypeError, match="Hooked: the fast __new__ would skip its init hooks"):

        @fast_frozen()
        @attrs.frozen(weakref_slot=False)
        class Hooked:
            size: int

            def __attrs_post_init__(self) -> None:
                pass

    with pytest.raises(TypeError, match="Weak: a __weakref__ slot"):

        @fast_frozen()
        @attrs.frozen
        class Weak:
            size: int


def test_the_unchecked_constructor_builds_the_checked_value_without_its_checks() -> None:
    """unchecked_constructor builds the value cls(...) builds, equal and frozen, without running its
    validators (the library's own events are built so); a class with a __weakref__ slot is refused."""

    def positive(_instance: object, _attribute: object, value: int) -> None:
        if value <= 0:
            raise ValueError("not positive")

    @attrs.frozen(weakref_slot=False)
    class Sized:
        size: int = attrs.field(validator=positive)
        label: str = "x"

    build = unchecked_constructor(Sized)
    assert (Sized, Sized(3)) == (type(build(3)), build(3))
    assert hash(Sized(3, "y")) == hash(build(3, "y"))
    assert -1 == build(-1).size  # the validator, which Sized(-1) runs, is skipped
    with pytest.raises(ValueError, match="not positive"):
        Sized(-1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        build(3).size = 4  # type: ignore[misc]

    @attrs.frozen
    class Weak:
        size: int

    with pytest.raises(TypeError, match="__weakref__"):
        unchecked_constructor(Weak)


def test_a_fast_class_is_built_from_its_fields_and_is_final() -> None:
    """A fast class takes fields by position and keyword, with defaults, checks public calls, refuses subclasses."""
    checked: list[object] = []

    @fast_frozen(check=checked.append)
    @attrs.frozen(weakref_slot=False)
    class Pair:
        first: int
        second: int = 2

    built = [Pair(1, 2), Pair(first=1), Pair(1, second=3)]
    assert [Pair(1, 2), Pair(1, 2), Pair(1, 3)] == built
    assert len(built) + 3 == len(checked), "each public call is checked once"
    assert Pair(5, 6) == Pair.__new__(Pair, 5, 6)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="Pair is final: its fast __new__ builds exactly Pair"):

        class Child(Pair):
            pass


def test_sealed_rebuilds_through_a_given_factory() -> None:
    """sealed(factory) pickles through the factory, so a value can come back as a shared instance."""
    shared: dict[int, object] = {}

    def one_of(size: int) -> Sized:
        return shared.setdefault(size, Sized(size))  # type: ignore[return-value]

    @sealed(one_of)
    @attrs.frozen
    class Sized:
        size: int

    first = one_of(4)
    assert first is copy.copy(Sized(4))
    assert first is copy.deepcopy(first)


def test_a_fast_class_without_a_check_takes_any_fields_and_refuses_setstate() -> None:
    """Without a check, a public call builds the value as given; the value is sealed like every other."""

    @fast_frozen()
    @attrs.frozen(weakref_slot=False)
    class Loose:
        first: object
        second: int = 2

    assert "__init__" not in vars(Loose), "object's __init__ takes the call's arguments and does nothing"
    value = Loose("not checked")
    assert ("not checked", 2) == (value.first, value.second)
    assert (Loose, value) == (type(copy.copy(value)), copy.copy(value))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        value.__setstate__({"first": 1})  # type: ignore[attr-defined]
    build = constructor(Loose)
    assert ("_construct", Loose(1, 3)) == (build.__name__, build(1, second=3))


def test_a_check_sees_the_value_a_public_call_builds() -> None:
    """fast_frozen(check=...) is handed the very value a public call built, and the hot path's constructor skips it."""
    seen: list[object] = []

    @fast_frozen(check=seen.append)
    @attrs.frozen(weakref_slot=False)
    class Checked:
        size: int

    value = Checked(4)
    assert [value] == seen
    assert seen[0] is value
    constructor(Checked)(5)
    assert [value] == seen


def test_the_fast_path_refuses_a_class_it_cannot_copy() -> None:
    """fast_frozen refuses a class without slots and a field set by a hook rather than an argument."""
    with pytest.raises(TypeError, match="Unslotted: only a slotted class"):

        @fast_frozen()
        @attrs.frozen(slots=False)
        class Unslotted:
            size: int

    with pytest.raises(TypeError, match=r"Derived\.double: the fast __new__ sets every field from an argument"):

        @fast_frozen()
        @attrs.frozen(weakref_slot=False)
        class Derived:
            size: int
            double: int = attrs.field(init=False, default=0)

    with pytest.raises(TypeError, match="PreHooked: the fast __new__ would skip its init hooks"):

        @fast_frozen()
        @attrs.frozen(weakref_slot=False)
        class PreHooked:
            size: int

            def __attrs_pre_init__(self) -> None:
                pass


def test_sealed_by_default_rebuilds_through_the_class() -> None:
    """sealed() with no factory copies through the class itself and refuses __setstate__."""

    @sealed()
    @attrs.frozen
    class Plain:
        size: int

    value = Plain(3)
    assert (Plain, value) == (type(copy.copy(value)), copy.copy(value))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        value.__setstate__({"size": 4})  # type: ignore[attr-defined]
    assert 3 == value.size


def test_a_copied_placement_keeps_its_target() -> None:
    """A Place with a target is rebuilt whole by copy and pickle: seat, tile and target."""
    state = new_match(Rules.standard(2), seed=1)
    state = apply(state, legal_moves(state)[0])
    move = legal_moves(state)[0]
    assert isinstance(move, Place)
    assert move.target is not None
    for rebuilt in (copy.copy(move), pickle.loads(pickle.dumps(move))):
        assert (move.seat, move.tile, move.target) == (rebuilt.seat, rebuilt.tile, rebuilt.target)


# --- the generated functions read as the class's own methods ---

# Every function _fast generates for the library's classes: the core's fast classes (their __new__ and
# the hot path's constructor) and the events' unchecked constructors.
_GENERATED: list[tuple[type[Any], Any]] = [
    *(
        (cls, function)
        for cls in (State, RoundContext, RoundResult, Layout, SplitMix64)
        # The compiled build's State, RoundContext and Layout are native: nothing of theirs is generated.
        if not is_native(cls)
        for function in (cls.__new__, constructor(cls))
    ),
    *((cls, unchecked_constructor(cls)) for cls in (Dealt, Placed, Drew, Passed, RoundEnded, MatchWon)),
]


def _twin_swap_body(cls: type[Any]) -> list[str]:
    names = [field.name for field in attrs.fields(cls)]
    return [
        "    value = _new_object(_Twin)",
        *(f"    value.{name} = {name}" for name in names),
        "    value.__class__ = _cls",
        "    return value",
    ]


def _where(cls: type[Any], name: str) -> tuple[str, str, str]:
    """What a generated function ``name`` of ``cls`` should say of itself: module, qualname, file name."""
    qualname = f"{cls.__qualname__}.{name}"
    return cls.__module__, qualname, f"<sniff_rules generated {name} {cls.__module__}.{cls.__qualname__}>"


def _said(function: Any) -> tuple[str, str, str]:
    return function.__module__, function.__qualname__, function.__code__.co_filename


@pytest.mark.parametrize(("cls", "function"), _GENERATED, ids=lambda item: getattr(item, "__qualname__", ""))
def test_each_generated_function_of_the_library_shows_its_source_under_its_class(cls: type[Any], function: Any) -> None:
    """Each generated __new__ and constructor names the class's module, the class's qualname and a file
    name of its own, and inspect.getsource gives its lines, even after linecache checks its cache."""
    linecache.checkcache()
    name = function.__name__
    assert _where(cls, name) == _said(function)
    lines = inspect.getsource(function).splitlines()
    head = "def __new__(cls, " if name == "__new__" else "def _construct("
    assert (head, _twin_swap_body(cls)) == (lines[0][: len(head)], lines[1:])


def test_a_class_made_in_a_test_gets_generated_functions_named_for_it() -> None:
    """A fast class made here: its __new__ and constructor, and an unchecked constructor, are named for it."""

    @fast_frozen()
    @attrs.frozen(weakref_slot=False)
    class Pair:
        first: int
        second: int = 2

    @attrs.frozen(weakref_slot=False)
    class Single:
        only: int

    local = "test_a_class_made_in_a_test_gets_generated_functions_named_for_it.<locals>"
    generated: list[tuple[type[Any], Any]] = [
        (Pair, Pair.__new__),
        (Pair, constructor(Pair)),
        (Single, unchecked_constructor(Single)),
    ]
    assert [_where(cls, function.__name__) for cls, function in generated] == [
        _said(function) for _, function in generated
    ]
    assert (__name__, f"{local}.Pair.__new__") == (Pair.__new__.__module__, Pair.__new__.__qualname__)
    assert [
        "def _construct(first, second=_default_second):",
        "    value = _new_object(_Twin)",
        "    value.first = first",
        "    value.second = second",
        "    value.__class__ = _cls",
        "    return value",
    ] == inspect.getsource(constructor(Pair)).splitlines()
    assert "def __new__(cls, first, second=_default_second):" == inspect.getsource(Pair.__new__).splitlines()[0]
    assert "def _construct(only):" == inspect.getsource(unchecked_constructor(Single)).splitlines()[0]
    # The twin that a debugger may show mid-construction is named for the class too.
    assert ["_MutablePair", "_MutableSingle"] == [
        function.__globals__["_Twin"].__name__ for _, function in generated[1:]
    ]


def _remade(*names: str) -> Any:
    """The constructor of a class named Made, made again each call, with the given fields."""
    made = attrs.make_class("Made", list(names), slots=True, frozen=True, weakref_slot=False)
    return unchecked_constructor(made)


def test_a_class_made_again_with_other_fields_keeps_its_own_source() -> None:
    """Classes of one module and qualname but other fields get file names of their own, each showing its
    own lines; a class made again with the same fields shares the first one's entry."""
    first, second, third, again = _remade("a"), _remade("b"), _remade("c"), _remade("a")
    filenames = [build.__code__.co_filename for build in (first, second, third, again)]
    base = f"<sniff_rules generated _construct {__name__}.Made"
    assert [f"{base}>", f"{base}-1>", f"{base}-2>", f"{base}>"] == filenames
    assert ["def _construct(a):", "def _construct(b):", "def _construct(c):", "def _construct(a):"] == [
        inspect.getsource(build).splitlines()[0] for build in (first, second, third, again)
    ]
    text = inspect.getsource(second)
    # The form linecache keeps for source with no file: its size, no modification time, its lines.
    assert (len(text), None, text.splitlines(True), filenames[1]) == linecache.cache[filenames[1]]


def _refuse(_cls: type) -> object:
    raise RuntimeError("no memory for the twin")


def test_a_traceback_through_a_generated_function_shows_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error raised inside a generated constructor is reported at its file name and line, with the line's
    text, for the core's State and for a class made here."""

    @fast_frozen()
    @attrs.frozen(weakref_slot=False)
    class Pair:
        first: int

    for cls in (Pair,) if is_native(State) else (State, Pair):
        build: Any = constructor(cls)
        monkeypatch.setitem(build.__globals__, "_new_object", _refuse)
        with pytest.raises(RuntimeError) as caught:
            build(*range(len(attrs.fields(cls))))
        frame = f'  File "{_where(cls, "_construct")[2]}", line 2, in _construct\n    value = _new_object(_Twin)\n'
        assert frame in "".join(traceback.format_exception(caught.value))


def test_the_search_for_a_free_file_name_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the bound on classes of one name, making another is refused instead of searching on."""
    import sniff_rules._fast

    def bounded(*names: str) -> Any:
        return unchecked_constructor(
            attrs.make_class("Bounded", list(names), slots=True, frozen=True, weakref_slot=False)
        )

    bounded("first")
    monkeypatch.setattr(sniff_rules._fast, "_MAX_GENERATED_COPIES", 1)
    assert "def _construct(first):" == inspect.getsource(bounded("first")).splitlines()[0]
    with pytest.raises(TypeError, match="1 classes of this name were made already"):
        bounded("second")
