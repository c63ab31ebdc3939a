"""The compiled build: ``SNIFF_RULES_COMPILE=1 pip install .`` compiles the rules core with mypyc.

Everything else about the package is in ``pyproject.toml``. Without the switch
this file adds nothing and ``pip install .`` stays pure Python, with no compiler.
With it, the core's modules (every module at the top of ``sniff_rules/`` but
``_fast`` and ``_value_class``, which build its value classes at import) become
C extensions from the same source. mypyc is part of mypy: setuptools asks the
installer for it and attrs (``setup_requires``) before it builds, so the switch is the
only step; a C compiler and the Python headers must be on the machine.

``benchmarks/README.md`` ("The compiled build") has what it changes, and
``.ci/run`` runs the whole test suite against it.
"""

from __future__ import annotations

import os

from setuptools import setup

SWITCH = "SNIFF_RULES_COMPILE"
BUILD_REQUIRES = ("mypy==2.4.1", "attrs>=23.1")
"""mypyc, pinned, since a new release may compile the same source differently; and attrs, whose
types mypyc reads while it compiles."""

COMPILED_MODULES = (
    "errors",
    "tiles",
    "rules",
    "randomness",
    "points",
    "layout",
    "scoring",
    "round_facts",
    "state",
    "moves",
)
"""The core's modules that mypyc compiles; tests/test_compiled_build.py keeps the list whole."""


def _compiling() -> bool:
    value = os.environ.get(SWITCH, "")
    if value not in ("", "0", "1"):
        raise SystemExit(f"{SWITCH} is 1 (compile the core with mypyc) or 0 or unset (pure Python), got {value!r}")
    return value == "1"


def main() -> None:
    if not _compiling():
        setup()
        return
    try:
        from mypyc.build import mypycify
    except ImportError:
        # setuptools' build backend reads setup_requires as this build's own requirements:
        # the installer installs mypyc, then runs this file again to build.
        setup(setup_requires=list(BUILD_REQUIRES))
        return
    # The modules share one library, named into the package so that a copy of sniff_rules/ carries it.
    modules = [f"sniff_rules/{name}.py" for name in COMPILED_MODULES]
    setup(ext_modules=mypycify(modules, opt_level="3", group_name="sniff_rules._compiled"))


main()
