"""A recorded match told turn by turn: ``sniff-rules replay RECORD``.

``RECORD`` is a match record's JSON file (:mod:`sniff_rules.play.record`) or
the name of a match of the recorded vectors shipped with the package
(``2p-01``, ``3p-07``: ``recorded/players-N.jsonl``). Either way the match
is a :class:`~sniff_rules.play.record.MatchRecord`, replayed by the engine:
every position shown follows from the deal and the moves. A record holds
every hand, so the replay shows them all.

>>> record, label = load_record("2p-01")
>>> label, record.seed, len(record.moves) > 10
('recorded match 2p-01', 2001, True)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Final, TextIO

from sniff_rules.draw.narration import PLAIN, Palette, Seating, describe, fit, layout_picture
from sniff_rules.errors import NotationError, SniffError
from sniff_rules.formats.notation import parse_move
from sniff_rules.formats.record_json import MAX_RECORD_CHARS, record_from_json
from sniff_rules.formats.state_json import rules_from_data
from sniff_rules.formats.strict_json import JSON_RULE, json_int
from sniff_rules.moves import Move
from sniff_rules.play.events import Placed
from sniff_rules.play.record import MatchRecord
from sniff_rules.state import State

RECORDED_NAME: Final = re.compile(r"([234])p-[0-9]{1,4}")
"""How the recorded vectors name their matches: the players, then a number."""

ARGUMENT_RULE: Final = "FORMAT-3"
"""The rule an argument outside its range breaks: here a folder the pictures cannot go into."""


class ReplayError(NotationError):
    """A record that cannot be read: no such file or recorded match, or not a record (FORMAT-2)."""


class PictureFolderError(SniffError):
    """An ``--svg`` folder that cannot be made or written into (FORMAT-3: an argument outside its range)."""


def _reason(err: OSError) -> str:
    # strerror alone ("File name too long") says why without repeating a path that may be 300 characters long.
    return err.strerror or type(err).__name__


def _recorded(name: str) -> MatchRecord:
    from sniff_rules.verify.vectors.conformance import shipped_vectors
    from sniff_rules.verify.vectors.files import read_vector_file

    players = RECORDED_NAME.fullmatch(name)
    assert players is not None
    lines = read_vector_file(shipped_vectors() / "recorded" / f"players-{players.group(1)}.jsonl")
    assert isinstance(lines, list)
    record: MatchRecord | None = None
    moves: list[Move] = []
    for line in lines:
        if not isinstance(line, dict):
            continue
        kind = line.get("type")
        if kind == "match":
            if record is not None:
                break
            if line.get("match") == name:
                record = MatchRecord.seeded(rules_from_data(line.get("rules")), json_int(line.get("seed"), "seed"))
        elif kind == "move" and record is not None and isinstance(line.get("move"), str):
            moves.append(parse_move(str(line["move"])))
    if record is None:
        raise ReplayError(JSON_RULE, f"the recorded vectors hold no match named {name}")
    record = record.with_moves(*moves)
    record.final_state()
    return record


def load_record(name: str) -> tuple[MatchRecord, str]:
    """The match ``name`` names, a record's JSON file or a recorded match, and how to call it."""
    path = Path(name)
    try:
        is_file = path.is_file()
    except (OSError, ValueError) as err:
        # A name the system cannot look up (too long, a NUL byte) names no record file.
        reason = _reason(err) if isinstance(err, OSError) else "not a path"
        raise ReplayError(JSON_RULE, f"{name!r:.80} cannot be looked up as a file: {reason}") from None
    if is_file:
        try:
            with path.open("rb") as stream:
                data = stream.read(MAX_RECORD_CHARS + 1)
        except OSError as err:
            raise ReplayError(JSON_RULE, f"cannot read {name!r:.80}: {_reason(err)}") from None
        return record_from_json(data), name
    if RECORDED_NAME.fullmatch(name):
        return _recorded(name), f"recorded match {name}"
    raise ReplayError(
        JSON_RULE, f"{name!r:.80} is neither a record file nor a recorded match's name (2p-01, 3p-02, 4p-03 ...)"
    )


def replay(
    record: MatchRecord,
    label: str,
    out: TextIO,
    palette: Palette = PLAIN,
    width: int = 80,
    picture: Callable[[State, int], None] | None = None,
    *,
    drawn: bool = True,
    ascii_only: bool = False,
) -> State:
    """Print ``record``'s match turn by turn: each deal, each move with the table after it, the ends.

    With ``drawn`` False, a line a move and no table. ``picture`` is called
    with the state after each move and the move's number (from 1):
    ``--svg`` writes a picture there.
    """
    rules = record.rules
    seating = Seating.of(rules, {})
    out.writelines(
        f"{line}\n"
        for line in fit([palette.bold(f"{label}: {rules.players} players, to {rules.target} points")], width)
    )
    state: State | None = None
    number = 0
    for step in record.replay():
        state = step.state
        prefix = None
        if step.move is not None:
            number += 1
            prefix = palette.quiet(f"{number:>4}. ")
        for event in step.events:
            lines = describe(event, seating, palette)
            if prefix is not None and lines:
                lines[0], prefix = prefix + lines[0], None
            out.writelines(line + "\n" for line in fit(lines, width, "      "))
            if type(event) is Placed and drawn:
                out.write(layout_picture(state.layout, width, ascii_only) + "\n\n")
        if step.move is not None and picture is not None:
            picture(state, number)
    assert state is not None
    if not state.is_over:
        out.write(f"The record ends in round {state.round_number}, the match not over.\n")
    return state


def svg_writer(directory: Path) -> Callable[[State, int], None]:
    """A ``picture`` for :func:`replay` writing ``move-0001.svg`` ... into ``directory``.

    The folder is made here, before any move is told, so that a folder
    that cannot be made is refused at once; a picture that cannot be
    written is refused when it comes. Both raise :class:`PictureFolderError`.
    """
    from sniff_rules.draw.svg import svg

    shown = f"{str(directory)!r:.80}"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as err:
        # FileExistsError (a file of that name), NotADirectoryError (under a file),
        # PermissionError, File name too long: each is a folder this run cannot have.
        reason = _reason(err) if isinstance(err, OSError) else "not a path"
        raise PictureFolderError(ARGUMENT_RULE, f"--svg {shown}: cannot make the folder: {reason}") from None

    def write(state: State, number: int) -> None:
        name = f"move-{number:04}.svg"
        try:
            (directory / name).write_text(svg(state), encoding="utf-8")
        except OSError as err:
            raise PictureFolderError(ARGUMENT_RULE, f"--svg {shown}: cannot write {name}: {_reason(err)}") from None

    return write
