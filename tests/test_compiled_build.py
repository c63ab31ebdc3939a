"""The compiled build (``SNIFF_RULES_COMPILE=1``, ``setup.py``) is what it says, and the same library.

The whole suite runs under both builds (``.ci/run``); these tests say which build is
running, so that the compiled pass cannot quietly test the pure source instead.
"""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path

import attrs
import pytest

import sniff_rules
from sniff_rules._fast import is_native
from sniff_rules.layout import Layout
from sniff_rules.round_facts import RoundContext
from sniff_rules.state import State

ROOT = Path(__file__).resolve().parent.parent
COMPILING = os.environ.get("SNIFF_RULES_COMPILE") == "1"
"""The run is the compiled pass: .ci/run sets the switch for the install and the tests alike."""


def _compiled_modules() -> tuple[str, ...]:
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "COMPILED_MODULES" for target in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return tuple(str(name) for name in value)
    raise AssertionError("setup.py names no COMPILED_MODULES")


def test_the_compiled_modules_are_the_whole_core_but_the_value_builders() -> None:
    """Every module at the top of sniff_rules/ compiles, but the two that build the value classes at import."""
    core = {path.stem for path in (ROOT / "sniff_rules").glob("*.py")} - {"__init__", "__main__"}
    assert core - {"_fast", "_value_class"} == set(_compiled_modules())


@pytest.mark.parametrize("name", _compiled_modules())
def test_each_core_module_is_of_the_build_under_test(name: str) -> None:
    """Compiled pass: each core module is a C extension. Pure pass: each is its .py file."""
    module = importlib.import_module(f"sniff_rules.{name}")
    path = str(module.__file__)
    assert (COMPILING, name) == (not path.endswith(".py"), name), path


def test_the_hot_values_are_native_exactly_when_compiled() -> None:
    """State, Layout and RoundContext are mypyc's native classes in the compiled build, attrs classes otherwise."""
    assert [COMPILING] * 3 == [is_native(cls) for cls in (State, Layout, RoundContext)]
    assert not is_native(sniff_rules.Tile)


@pytest.mark.parametrize("cls", [State, Layout, RoundContext])
def test_a_hot_value_offers_attrs_its_fields_in_either_build(cls: type) -> None:
    """attrs.fields, attrs.has and attrs.evolve see the same fields in both builds, in their order."""
    names = {
        State: (
            "context",
            "phase",
            "to_move",
            "hand_masks",
            "boneyard_ids",
            "layout",
            "scores",
            "drawn",
            "winner",
        ),
        Layout: ("placements", "open_point_ids", "end_count", "sniff", "placed_mask"),
        RoundContext: ("rules", "round_number", "opener", "source", "lot", "last_round"),
    }[cls]
    assert attrs.has(cls)
    assert names == tuple(field.name for field in attrs.fields(cls))
    assert names == cls.__match_args__  # type: ignore[attr-defined]


def test_the_unchecked_constructor_refuses_in_the_compiled_build_only_what_it_cannot_hold() -> None:
    """A native __new__ stores any value of the declared types unchecked, as the generated one does;
    a value of another type is refused by the public check's own rule, in both builds alike through State(...)."""
    layout = Layout.__new__(Layout, (), (), 7, -1, 0)
    assert (7, Layout) == (layout.end_count, type(layout))
    with pytest.raises(sniff_rules.InvalidStateError, match=r"^FORMAT-3: end_count is an int, got 'seven'$"):
        Layout((), (), "seven")  # type: ignore[arg-type]


def test_the_builds_benchmark_times_each_build_from_its_own_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmarks.builds copies the pure and the compiled core apart and checks which one each process ran;
    without a compiled core it says how to make one."""
    from benchmarks import builds

    if not COMPILING:
        with pytest.raises(builds.BuildsError, match="SNIFF_RULES_COMPILE=1 pip install -e"):
            builds.make_trees(tmp_path)
        return
    trees = builds.make_trees(tmp_path)
    assert not list((trees[builds.PURE] / "sniff_rules").glob("*.so"))
    assert list((trees[builds.COMPILED] / "sniff_rules").glob("*.so"))
    for engine in (builds.PURE, builds.COMPILED):
        figures = builds.measure(engine, trees[engine], 0.05, hash_seed=0)
        assert 0 < figures["placements"] <= figures["moves"]
    assert 0 == builds.main(["--rounds", "1", "--seconds", "0.05"])
    assert "compiled / pure: " in capsys.readouterr().out
