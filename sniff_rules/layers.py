"""Which modules of sniff_rules form the rules core: the one place the list is written.

The core holds the rules and nothing else; every other module of the
package (notation, JSON, conformance, views, bots, the command line, the
test tools) is built around it, importing the core and never imported by
it. ``tests/test_layering.py`` fails when a core module imports an outer
one; mutation testing mutates exactly these modules (pyproject's
``[tool.mutmut] only_mutate``, checked against this list by
``tests/test_traceability.py``).

>>> "moves" in CORE_MODULES, "notation" in CORE_MODULES
(True, False)
>>> core_path("tiles")
'sniff_rules/tiles.py'
"""

from __future__ import annotations

from typing import Final

PACKAGE: Final = "sniff_rules"

CORE_MODULES: Final[tuple[str, ...]] = (
    "errors",
    "_fast",
    "tiles",
    "rules",
    "randomness",
    "layout",
    "scoring",
    "state",
    "moves",
)
"""The rules core, innermost first: each module imports only modules before it."""


def core_path(module: str) -> str:
    """The path of core ``module`` from the repository root, as pyproject writes it."""
    return f"{PACKAGE}/{module}.py"
