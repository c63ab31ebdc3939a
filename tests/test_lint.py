"""ruff's lint rules and formatting, configured in pyproject.toml, hold over the code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyproject.toml"
FOLDERS = ("sniff_rules", "tests", "benchmarks")


def _ruff(*arguments: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``python -m ruff`` with the project's configuration; no cache written into the tree."""
    command = [sys.executable, "-m", "ruff", *arguments, "--no-cache", "--config", str(CONFIG)]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, check=False)


@pytest.mark.parametrize("folder", FOLDERS)
def test_ruff_check_is_clean(folder: str) -> None:
    """ruff check reports no violation of the selected lint rules in the folder."""
    done = _ruff("check", "--output-format", "concise", str(ROOT / folder))
    status, report = done.returncode, done.stdout + done.stderr
    assert 0 == status, report


@pytest.mark.parametrize("folder", FOLDERS)
def test_ruff_format_leaves_the_folder_unchanged(folder: str) -> None:
    """ruff format --check finds every file in the folder already formatted."""
    done = _ruff("format", "--check", "--diff", str(ROOT / folder))
    status, report = done.returncode, done.stdout + done.stderr
    assert 0 == status, report


def test_ruff_reports_a_planted_violation(tmp_path: Path) -> None:
    """The configured commands fail on code that breaks a lint rule or the format, naming the rule."""
    planted = tmp_path / "planted.py"
    planted.write_text("import sys\nimport os\nvalue = {'a':1}\n")
    checked = _ruff("check", "--output-format", "concise", str(planted), cwd=tmp_path)
    formatted = _ruff("format", "--check", str(planted), cwd=tmp_path)
    assert (1, 1) == (checked.returncode, formatted.returncode)
    assert {"I001", "F401"} <= {word.rstrip(":") for word in checked.stdout.split()}
