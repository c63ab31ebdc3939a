"""sniff-rules play: a person at the keyboard plays whole matches against the fair bots, driven as a user would."""

from __future__ import annotations

import io
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sniff_rules.cli.terminal_game import HELP, GameSettings, Session, bots_for_seats
from sniff_rules.draw.narration import Seating
from sniff_rules.moves import Move
from sniff_rules.play.bots import greedy_bot
from sniff_rules.play.driver import play_match
from sniff_rules.play.view import SeatView, present_seat_view
from sniff_rules.randomness import RandomSource, SplitMix64
from sniff_rules.rules import Rules
from sniff_rules.state import State, new_match
from sniff_rules.verify.vectors.recorded_play import POLICY_SEED_OFFSET

ROOT = Path(__file__).resolve().parent.parent
TARGET = 60
HANG_GUARD = 300.0
"""Seconds a command or a prompt may take: a guard against a hang, far beyond what a busy machine needs."""
"""A short match: a few rounds, so a whole match runs in a fraction of a second."""


def _env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    return {**env, "PYTHONPATH": str(ROOT), **extra}


def _play(players: int, seed: int, typed: str, *options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "sniff_rules", "play", "--players", str(players), "--seed", str(seed)]
    return subprocess.run(
        [*command, "--target", str(TARGET), *options],
        input=typed,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(),
        timeout=HANG_GUARD,
        check=False,
    )


def _first_option(view: SeatView, source: RandomSource) -> tuple[Move, RandomSource]:
    return view.options[0].move, source


def _expected_end(players: int, seed: int) -> State:
    """The match a person typing 1 at seat 0 plays against greedy bots, played by the driver directly."""
    rules = Rules(players, Rules.standard(players).hand_size, TARGET)
    policies = [_first_option, *[greedy_bot] * (players - 1)]
    state = new_match(rules, seed=seed)
    source = SplitMix64.from_seed(seed + POLICY_SEED_OFFSET)
    for step in play_match(state, policies, source, present=present_seat_view):
        state = step.state
    return state


def _final_scores_line(stdout: str) -> str:
    return next(line for line in reversed(stdout.splitlines()) if line.startswith("Final scores:"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_person_typing_1_plays_a_whole_match_to_the_drivers_end(players: int) -> None:
    """A whole match at 2, 3 and 4 players from piped input ends where the driver ends it, with the winner named."""
    done = _play(players, 11, "1\n" * 2000)
    end = _expected_end(players, 11)
    assert (0, "") == (done.returncode, done.stderr)
    seating = Seating.of(end.rules, dict.fromkeys(range(1, players), "greedy"), 0)
    assert end.winner is not None
    won = next(line for line in done.stdout.splitlines() if "won the match" in line)
    assert f"{seating.side_name(end.winner)} won the match" == won.split(" with ")[0]
    assert f"Final scores: {seating.scores(end.scores)}" == _final_scores_line(done.stdout)


def test_partners_are_shown_at_four_players() -> None:
    """At four players seat 2 is named as the person's partner and the scores are the partnerships'."""
    done = _play(4, 3, "1\n" * 2000)
    assert "seat 2 (your partner, greedy)" in done.stdout
    assert _final_scores_line(done.stdout).startswith("Final scores: you and seat 2: ")


def test_each_turn_shows_the_table_count_open_points_hand_and_numbered_moves() -> None:
    """The person's turn draws the table, lists the count, the open points, the hand and each move with its points."""
    done = _play(2, 11, "1\n" * 2000)
    turn = done.stdout.split("your turn.")[2].split("Your move", 1)[0]
    for heading in ("Boneyard", "Scores:", "\u2502", "end count", "Counted:", "open:", "Your hand:", "\n  1. "):
        assert heading in turn


def test_bad_input_gets_a_message_and_the_prompt_again() -> None:
    """A word, a number off the list and an illegal draw are refused with a message; the match goes on as before."""
    done = _play(2, 11, "fold\n99\ndraw\n" + "1\n" * 2000)
    plain = _play(2, 11, "1\n" * 2000)
    assert 0 == done.returncode
    assert "Traceback" not in done.stderr
    assert "Not a move here (FORMAT-1)" in done.stdout
    assert "There is no move 99" in done.stdout
    assert "Not a move here (DRAW-1)" in done.stdout
    assert _final_scores_line(plain.stdout) == _final_scores_line(done.stdout)


def test_two_pips_beyond_the_list_are_a_tile_and_odd_digits_are_refused() -> None:
    """A person leading types a tile as two pips (14 for [1|4]) and it is led; digits that are no move and no
    tile (a superscript, a huge number) are refused with a message, never a traceback."""
    seed = next(
        seed
        for seed in range(1000)
        if (state := new_match(Rules(2, 7, TARGET), seed=seed)).to_move == 0
        and any(tile.low > 0 for tile in state.hand(0))
    )
    tile = next(tile for tile in new_match(Rules(2, 7, TARGET), seed=seed).hand(0) if tile.low > 0)
    done = _play(2, seed, f"\u00b2\n{'9' * 5000}\n{tile.low}{tile.high}\nquit\n")
    assert 0 == done.returncode, done.stderr
    assert "Traceback" not in done.stderr
    assert f"you lead {tile}" in done.stdout
    assert 1 == done.stdout.count("There is no move 999999999999")
    assert "Not a move here (FORMAT-1)" in done.stdout


def test_an_output_that_cannot_show_unicode_gets_ascii_not_a_traceback() -> None:
    """An ASCII-only output (a C locale) is drawn in ASCII and the match is played, never a UnicodeEncodeError."""
    done = subprocess.run(
        [sys.executable, "-m", "sniff_rules", "play", "--seed", "3", "--target", str(TARGET)],
        input="1\n" * 2000,
        capture_output=True,
        text=True,
        encoding="ascii",
        errors="strict",
        cwd=ROOT,
        env=_env(PYTHONIOENCODING="ascii"),
        timeout=HANG_GUARD,
        check=False,
    )
    assert (0, "") == (done.returncode, done.stderr)
    assert "Final scores" in done.stdout


def test_a_target_the_rules_refuse_is_a_message_not_a_traceback() -> None:
    """SETUP-3: play --target 7 names the rule broken and exits 2."""
    done = _play(2, 1, "", "--target", "7")
    assert 2 == done.returncode
    assert "SETUP-3" in done.stderr
    assert "Traceback" not in done.stderr


def test_undo_takes_back_the_last_move_and_the_bots_replies() -> None:
    """undo returns to the person's previous turn; playing the same again reaches the same end."""
    done = _play(2, 11, "1\n1\nundo\n" + "1\n" * 2000)
    plain = _play(2, 11, "1\n" * 2000)
    assert 1 == done.stdout.count("Taken back")
    turns = done.stdout.split("your turn.")
    # Typed at the third turn, undo shows the second again, as it was.
    assert turns[2].split("Your move")[0] == turns[4].split("Your move")[0]
    assert _final_scores_line(plain.stdout) == _final_scores_line(done.stdout)


def test_undo_before_any_move_is_refused_politely() -> None:
    """undo at the first turn has nothing to take back and says so."""
    done = _play(2, 11, "undo\nquit\n")
    assert "Nothing to take back yet" in done.stdout


def test_help_prints_the_help() -> None:
    """help prints what may be typed, then prompts again."""
    done = _play(2, 11, "help\nquit\n")
    assert HELP in done.stdout


def test_end_of_input_says_goodbye_in_one_line() -> None:
    """When the input ends, the session ends cleanly with one goodbye line and status 0."""
    done = _play(3, 5, "1\n")
    assert (0, "", "Goodbye. (end of input)") == (done.returncode, done.stderr, done.stdout.splitlines()[-1])


def test_quit_leaves_with_a_goodbye() -> None:
    """quit ends the session with status 0 and the goodbye line."""
    done = _play(2, 5, "quit\n")
    assert (0, "Goodbye.") == (done.returncode, done.stdout.splitlines()[-1])


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_at_the_prompt_ends_cleanly() -> None:
    """SIGINT while the session waits at a prompt ends it with a goodbye, status 130 and no traceback."""
    command = [sys.executable, "-m", "sniff_rules", "play", "--seed", "5"]
    with subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=_env(),
        # A suite started in the background (`pytest &` in a script) ignores SIGINT, and a child would
        # inherit that, Python then leaving it ignored: the child starts with the default, as a terminal's.
        preexec_fn=_default_sigint,
    ) as process:
        assert process.stdout is not None
        seen = _read_until(process.stdout.fileno(), b"Your move")
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=HANG_GUARD)
    assert b"Your move" in seen
    assert (130, b"") == (process.returncode, err)
    assert b"Goodbye. (interrupted)" in out


def _read_until(descriptor: int, wanted: bytes, seconds: float = HANG_GUARD) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([descriptor], [], [], 0.5)
        if ready:
            chunk = os.read(descriptor, 4096)
            if not chunk:
                break
            seen += chunk
    return seen


def _on_a_terminal(**extra: str) -> bytes:
    """The session's output on a pseudo-terminal, typing quit at the first prompt."""
    controller, terminal = pty.openpty()
    command = [sys.executable, "-m", "sniff_rules", "play", "--seed", "5"]
    with subprocess.Popen(
        command, stdin=terminal, stdout=terminal, stderr=terminal, cwd=ROOT, env=_env(**extra)
    ) as process:
        os.close(terminal)
        seen = _read_until(controller, b"Your move")
        os.write(controller, b"quit\n")
        seen += _read_until(controller, b"Goodbye")
        process.wait(timeout=HANG_GUARD)
    os.close(controller)
    return seen


def test_colour_appears_on_a_terminal_only() -> None:
    """On a pseudo-terminal the session is coloured; piped, it has no escape codes."""
    assert b"\x1b[" in _on_a_terminal()
    assert "\x1b[" not in _play(2, 5, "quit\n").stdout


def test_no_color_turns_colour_off_on_a_terminal() -> None:
    """NO_COLOR set (to anything) turns colour off even on a terminal."""
    seen = _on_a_terminal(NO_COLOR="1")
    assert b"Goodbye" in seen
    assert b"\x1b[" not in seen


def test_a_bot_for_each_other_seat() -> None:
    """--bots names one bot for all other seats or one each; other counts and unknown names are refused."""
    assert ("you", "random", "search:4") == bots_for_seats(3, 0, ["random", "search:4"])
    assert ("greedy", "you", "greedy") == bots_for_seats(3, 1, ["greedy"])
    with pytest.raises(ValueError, match="one per other seat"):
        bots_for_seats(4, 0, ["greedy", "random"])
    refused = _play(2, 5, "quit\n", "--bots", "cheater")
    assert (2, "") == (refused.returncode, refused.stdout)
    assert "cheater" in refused.stderr


def test_the_person_sees_no_other_hand_before_the_round_ends() -> None:
    """The session shows the person's own hand only: no other seat's tile appears before the first round ends."""
    settings = GameSettings(Rules(2, 7, TARGET), 0, bots_for_seats(2, 0, ["greedy"]), seed=11)
    out = io.StringIO()
    Session(settings, io.StringIO("1\n"), out).run()
    dealt = new_match(Rules(2, 7, TARGET), seed=11)
    shown = out.getvalue()
    assert "seat 1 (greedy): [" not in shown
    assert f"you: {' '.join(map(str, dealt.hand(0)))}" in shown


@pytest.mark.parametrize("typed", ["1\n" * 2000, "1\n1\n1\nquit\n"])
def test_play_save_writes_a_record_that_replay_plays(tmp_path: Path, typed: str) -> None:
    """FORMAT-2: ``play --save FILE`` writes the match record, whole or as far as played; ``replay FILE`` plays it
    to the state the session reached."""
    from sniff_rules.formats.record_json import record_from_json

    saved = tmp_path / "match.json"
    done = _play(2, 11, typed, "--save", str(saved))
    assert 0 == done.returncode, done.stderr
    assert f"Match record written. To replay it:\n  sniff-rules replay {saved}\n" in done.stdout
    record = record_from_json(saved.read_text(encoding="utf-8"))
    if typed.endswith("quit\n"):
        assert 0 < len(record.moves) < 20
    else:
        assert _expected_end(2, 11) == record.final_state()
    replayed = subprocess.run(
        [sys.executable, "-m", "sniff_rules", "replay", str(saved)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(),
        timeout=HANG_GUARD,
        check=False,
    )
    assert (0, "") == (replayed.returncode, replayed.stderr)
    assert str(record.moves[-1].seat) in replayed.stdout
