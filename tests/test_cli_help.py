"""sniff-rules --help and every command's --help are plain text: no reST markup from the docstrings."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

from sniff_rules.cli.commands import build_parser, main

ROOT: Final = Path(__file__).resolve().parent.parent

MARKUP: Final = re.compile(r"``|:[a-z]+:`|`[^`\s][^`]*`_?")
"""reST in a help text: double backquotes, a role (``:func:`...```), a single-backquoted name."""


def _commands() -> list[str]:
    """Every command of the command line, as its parser lists them."""
    parser = build_parser()
    return [
        name for action in parser._actions if isinstance(action, argparse._SubParsersAction) for name in action.choices
    ]


def test_the_commands_are_all_found() -> None:
    """The list below walks every command the parser has, the browser game's too."""
    expected = ["play", "simulate", "replay", "demo", "conform", "vectors", "serve", "engine", "bot", "check-engine"]
    assert expected == _commands()


def test_the_markup_check_finds_rest() -> None:
    """The check is shown to fail on a docstring's markup and to pass plain words."""
    found = [bool(MARKUP.search(text)) for text in ("the ``sniff-rules`` command", "see :func:`run`", "`x`", "plain")]
    assert [True, True, True, False] == found


@pytest.mark.parametrize("command", [[], *([name] for name in _commands())])
def test_every_help_is_plain_text(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Each --help exits 0 and shows no reST markup; a command's help opens with what it does."""
    with pytest.raises(SystemExit) as left:
        main([*command, "--help"])
    shown = capsys.readouterr().out
    assert (0, []) == (left.value.code, MARKUP.findall(shown))
    assert 3 <= len(shown.split("\n\n")), shown


def test_the_installed_command_shows_the_same_plain_help() -> None:
    """python -m sniff_rules --help, as a person runs it, is the plain description."""
    shown = subprocess.run(
        [sys.executable, "-m", "sniff_rules", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,  # a hang guard: a busy machine may be slow, only a hang is this slow
        check=True,
    ).stdout
    assert [] == MARKUP.findall(shown)
    assert "American Sniff from the command line" in " ".join(shown.split())
