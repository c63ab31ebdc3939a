"""The hook Hypothesis runs at its own import, through the ``hypothesis``
entry point of an installed ``sniff-rules``.

It lives apart from :mod:`sniff_rules.verify.strategies` because that module
imports Hypothesis: when a program imports the strategies first, Hypothesis
runs this hook while the strategies module is still half-built. So the hook
registers functions that look the strategies up only when a test first asks
``st.from_type(Tile)`` or ``st.from_type(Rules)``.
"""

from __future__ import annotations

import importlib
from typing import Any

from sniff_rules.rules import Rules
from sniff_rules.tiles import Tile


def _strategy_named(name: str, _type: type) -> Any:
    return getattr(importlib.import_module("sniff_rules.verify.strategies"), name)()


def _tiles_for(tile_type: type[Tile]) -> Any:
    return _strategy_named("tiles", tile_type)


def _rules_for(rules_type: type[Rules]) -> Any:
    return _strategy_named("rules", rules_type)


def register_on_import() -> None:
    """Register the strategies for :class:`Tile` and :class:`Rules`, lazily."""
    from hypothesis import strategies as st

    st.register_type_strategy(Tile, _tiles_for)
    st.register_type_strategy(Rules, _rules_for)
