"""The package and the tests type-check under ``mypy --strict``."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean() -> None:
    """mypy --strict over sniff_rules, tests and benchmarks reports no error."""
    paths = [str(ROOT / name) for name in ("sniff_rules", "tests", "benchmarks")]
    stdout, stderr, status = api.run(["--strict", "--no-incremental", "--cache-dir=/dev/null", *paths])
    assert 0 == status, stdout + stderr


def test_public_api_types_are_pinned() -> None:
    """The public functions keep the signatures frontends type against."""
    probe = (
        "from sniff_rules import *\n"
        "reveal_type(legal_moves)\n"
        "reveal_type(apply)\n"
        "reveal_type(new_match)\n"
        "reveal_type(score_play)\n"
        "reveal_type(settle_round)\n"
    )
    stdout, _, _ = api.run(["--strict", "--no-incremental", "--cache-dir=/dev/null", "-c", probe])
    # mypy releases differ in whether they spell builtins out; compare without the prefix. Each is
    # one overload, so that the body below it may take any value and refuse a wrong one by its rule
    # in the compiled build too (sniff_rules/_fast.py, "Checked calls"); mypy shows it as Overload(...).
    revealed = [
        line.split("Revealed type is ", 1)[1].replace("builtins.", "").replace('"Overload(', '"').replace(')"', '"')
        for line in stdout.splitlines()
        if "Revealed type" in line
    ]
    assert 5 == sum('Revealed type is "Overload(def ' in line for line in stdout.splitlines()), stdout
    assert [
        (
            '"def (state: sniff_rules.state.State) -> tuple[sniff_rules.moves.Place | sniff_rules.moves.Draw'
            ' | sniff_rules.moves.Pass, ...]"'
        ),
        (
            '"def (state: sniff_rules.state.State, move: sniff_rules.moves.Place | sniff_rules.moves.Draw'
            ' | sniff_rules.moves.Pass) -> sniff_rules.state.State"'
        ),
        (
            '"def (rules: sniff_rules.rules.Rules, seed: int | None =, *, source: sniff_rules.randomness.'
            "RandomSource | None =, order: tuple[sniff_rules.tiles.Tile, ...] | None =, opener: int"
            ' | None =) -> sniff_rules.state.State"'
        ),
        '"def (layout: sniff_rules.layout.Layout) -> sniff_rules.scoring.PlayScore"',
        (
            '"def (rules: sniff_rules.rules.Rules, hands: tuple[tuple[sniff_rules.tiles.Tile, ...],'
            ' ...]) -> sniff_rules.scoring.Settlement"'
        ),
    ] == revealed
