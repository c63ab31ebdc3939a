"""The mutation test selection passes in a copy laid out as mutmut lays out ``mutants/``.

So the test command fails when the mutation command could not run.

mutmut 3 runs the selected tests (``pytest_add_cli_args_test_selection``
of ``[tool.mutmut]``) first without a mutant, to collect its stats, in a
folder holding only the package, ``tests/``, ``pyproject.toml`` and the
``also_copy`` paths; when any selected test fails there the whole run ends
with "failed to collect stats" and checks no mutant (specs/mutation.md).
This test makes that folder and runs the selection in it, so the test
command fails whenever the mutation command would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from support import interpreted_only

ROOT = Path(__file__).resolve().parent.parent


# mutmut mutates the .py files, which a compiled module in the copy would shadow.
pytestmark = interpreted_only("mutation testing mutates the pure source")


def _mutmut() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        config: dict[str, Any] = tomllib.load(file)["tool"]["mutmut"]
    return config


def mutmut_copy(target: Path) -> Path:
    """``target`` laid out as ``mutants/``: the source paths, ``tests/``, ``pyproject.toml`` and ``also_copy``."""
    config = _mutmut()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "mutants", ".hypothesis")
    for name in [*config["source_paths"], "tests", "pyproject.toml", *config.get("also_copy", [])]:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=ignore)
        elif source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def _run(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # The copy's package, not the installed one: the copy is first on the path, as mutants/ is for mutmut.
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=1800, check=False
    )


def test_the_copy_imports_its_own_package(tmp_path: Path) -> None:
    """In the copy, ``sniff_rules`` is the copy's, so a file the copy lacks is missed as mutmut would miss it."""
    copy = mutmut_copy(tmp_path)
    found = _run(copy, "-c", "import sniff_rules; print(sniff_rules.__file__)")
    assert 0 == found.returncode, found.stderr
    assert str(copy) == str(Path(found.stdout.strip()).parents[1])


def test_the_mutation_selection_passes_in_mutmuts_layout(tmp_path: Path) -> None:
    """Every selected test passes in the copy, as mutmut's stats run needs before it tests a mutant."""
    config = _mutmut()
    copy = mutmut_copy(tmp_path)
    result = _run(
        copy,
        "-m",
        "pytest",
        "-q",
        "-x",
        *config.get("pytest_add_cli_args", []),
        *config["pytest_add_cli_args_test_selection"],
    )
    tail = "\n".join((result.stdout + result.stderr).splitlines()[-15:])
    assert 0 == result.returncode, f"the mutation selection fails in mutmut's layout:\n{tail}"


def test_a_copy_without_also_copy_fails_the_selection(tmp_path: Path) -> None:
    """The check can fail: without ``specs/vectors`` the geometry test that reads it fails in the copy."""
    copy = mutmut_copy(tmp_path)
    shutil.rmtree(copy / "specs")
    result = _run(
        copy, "-m", "pytest", "-q", "-x", "-o", "addopts=", "-p", "no:cacheprovider", "tests/test_rules_12_geometry.py"
    )
    assert 0 != result.returncode
