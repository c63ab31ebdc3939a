"""Reading vector files that may be hostile, and the verdict on each: a FAIL with a reason, never a traceback or a hang.

The file-reading layer of the conformance runner (:mod:`sniff_rules.verify.vectors.conformance`).
Whatever a file holds or is, :func:`file_verdict` returns results, and a
file that passes holds at least one vector:

- only regular files are read (a link to one is followed); a folder, a
  FIFO, a device, a socket, a link to any of them, or a name the system
  refuses (too long, a loop of links) fails with the reason, before any
  byte is read, and a FIFO is opened without waiting for a writer;
- at most :data:`MAX_VECTOR_BYTES` bytes are read, checked against the
  file's size before reading and again while reading (a file that grows);
- the text must be UTF-8 JSON within the bounds of
  :func:`~sniff_rules.formats.strict_json.load_json`; a ``.jsonl`` file is read line by
  line, each line within the default bounds;
- perft vectors run only to depth :data:`MAX_PERFT_DEPTH`, and the move
  sequences they count are walked first within a budget
  (:func:`check_perft_budget`), so that ``"depth": 30`` fails in a moment
  instead of running for hours;
- values are compared strictly (:func:`strictly_equal`): an integer is not
  a fraction or a boolean, so ``7.0`` and ``false`` do not pass for 7;
- a folder is searched at most :data:`MAX_FOLDER_DEPTH` deep, each folder
  once however links loop, and at most :data:`MAX_FOLDER_ENTRIES` entries.

>>> strictly_equal([1, {"a": True}], [1, {"a": True}]), strictly_equal(7.0, 7), strictly_equal(False, 0)
(True, False, False)
"""

from __future__ import annotations

import contextvars
import json
import os
import stat
from collections.abc import Callable, Mapping, Sequence
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

import attrs

from sniff_rules.errors import NotationError, SniffError
from sniff_rules.formats.notation import parse_move
from sniff_rules.formats.state_json import rules_from_data, state_from_data, tiles_from_data
from sniff_rules.formats.strict_json import (
    JSON_RULE,
    JsonValue,
    json_array,
    json_field,
    json_int,
    json_object,
    json_str,
    json_strs,
    load_json,
)
from sniff_rules.moves import apply, legal_moves
from sniff_rules.state import State, new_match

MAX_VECTOR_BYTES: Final = 1 << 26
"""Largest vector file read, in bytes (FORMAT-2); the shipped ones are under 2 MiB."""

MAX_VECTOR_DEPTH: Final = 32
"""Deepest nesting of a vector document: a state inside a perft position inside the file."""

MAX_PERFT_DEPTH: Final = 16
"""Deepest perft vector run; the generated ones go to 14 at most."""

MAX_PERFT_SEQUENCES: Final = 4_000_000
"""Most legal move sequences (of every length) the perft vectors of one file may count; the shipped file
counts under 800,000."""

MAX_FOLDER_DEPTH: Final = 32
"""How deep a folder of vectors is searched."""

MAX_FOLDER_ENTRIES: Final = 100_000
"""How many entries a search of folders looks at before it stops, reporting that it did."""


@attrs.frozen
class VectorResult:
    """The outcome of one vector: ``failure`` is None when the library agrees."""

    path: str
    name: str
    failure: str | None = None

    @property
    def passed(self) -> bool:
        """Whether the library reproduced the vector exactly."""
        return self.failure is None

    def __str__(self) -> str:
        verdict = "PASS" if self.failure is None else "FAIL"
        text = printable(f"{verdict}  {self.path} :: {self.name}")
        return text if self.failure is None else f"{text}\n      {printable(self.failure)}"


class Mismatch(Exception):
    """The library disagrees with a vector; the message says where and how."""


def printable(text: str) -> str:
    """``text`` with what a terminal cannot show escaped: a file name's undecodable bytes, controls."""
    escaped = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join(char if char.isprintable() or char == "\n" else repr(char)[1:-1] for char in escaped)


def strictly_equal(expected: object, actual: object) -> bool:
    """Equal as JSON values are: an integer is not a fraction or a boolean, ``true`` is not 1.

    Arrays (lists or tuples) are equal item by item, objects key by key.
    """
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        return len(expected) == len(actual) and all(map(strictly_equal, expected, actual))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(strictly_equal(expected[key], actual[key]) for key in expected)
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return type(expected) is type(actual) and expected == actual
    return type(expected) is type(actual) and expected == actual


# ---------------------------------------------------------------- finding files


def _is_vector_file(name: str) -> bool:
    return name.endswith((".json", ".jsonl")) and name != "schema.json"


def _is_folder(path: Traversable) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False  # a name the system refuses; reading it says why


def _identity(path: Traversable) -> tuple[int, int] | None:
    if not isinstance(path, Path):
        return None
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino


def vector_paths(paths: Sequence[Traversable]) -> list[Traversable]:
    """The vector files named by ``paths``: files as given, folders searched for
    ``*.json`` (not ``schema.json``) and ``*.jsonl``, each folder's in sorted order.

    A folder that cannot be listed, or a search cut short by the bounds of
    the module's docstring, is given back as the folder itself, so that
    reading it fails with the reason.
    """
    found: list[Traversable] = []
    entries = 0
    for path in paths:
        if not _is_folder(path):
            found.append(path)
            continue
        below: list[tuple[str, Traversable]] = []
        seen = {_identity(path)}
        folders: list[tuple[str, Traversable, int]] = [("", path, 0)]
        while folders:
            prefix, folder, depth = folders.pop()
            try:
                listed = sorted(folder.iterdir(), key=lambda entry: entry.name)
            except OSError:
                below.append((prefix, folder))
                continue
            for entry in listed:
                entries += 1
                if entries > MAX_FOLDER_ENTRIES:
                    below.append((prefix, folder))
                    folders.clear()
                    break
                name = prefix + entry.name
                if _is_folder(entry):
                    identity = _identity(entry)
                    if depth < MAX_FOLDER_DEPTH and (identity is None or identity not in seen):
                        seen.add(identity)
                        folders.append((name + "/", entry, depth + 1))
                elif _is_vector_file(entry.name):
                    below.append((name, entry))
        found += [entry for _, entry in sorted(below, key=lambda item: item[0])]
    return found


# ---------------------------------------------------------------- reading a file


def _kind_of(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def _refuse_size(size: int) -> NotationError:
    return NotationError(JSON_RULE, f"a vector file has at most {MAX_VECTOR_BYTES} bytes; this one has {size}")


def read_vector_bytes(path: Traversable) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_VECTOR_BYTES` bytes (FORMAT-2); OSError if unreadable."""
    if not isinstance(path, Path):
        with path.open("rb") as stream:
            data = stream.read(MAX_VECTOR_BYTES + 1)
        if len(data) > MAX_VECTOR_BYTES:
            raise _refuse_size(len(data))
        return data
    # Opened without blocking, so that a FIFO waits for nobody; what it is, the open file itself says.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    descriptor = os.open(path, flags)
    try:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode):
            raise NotationError(JSON_RULE, f"a vector file is a regular file, not {_kind_of(found.st_mode)}")
        if found.st_size > MAX_VECTOR_BYTES:
            raise _refuse_size(found.st_size)
        chunks: list[bytes] = []
        total = 0
        while total <= MAX_VECTOR_BYTES:
            chunk = os.read(descriptor, min(1 << 20, MAX_VECTOR_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > MAX_VECTOR_BYTES:
            raise _refuse_size(total)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def read_vector_file(path: Traversable) -> JsonValue:
    """A vector file's content: the object of a ``.json``, the list of lines of a ``.jsonl`` (FORMAT-2).

    Raises :class:`~sniff_rules.errors.NotationError` for what is not a
    vector file's JSON, and ``OSError`` when the file cannot be read.
    """
    data = read_vector_bytes(path)
    if path.name.endswith(".jsonl"):
        lines: list[JsonValue] = []
        for number, line in enumerate(data.split(b"\n"), 1):
            if line.strip():
                try:
                    lines.append(load_json(line))
                except NotationError as err:
                    raise NotationError(
                        JSON_RULE, f"line {number}: {str(err).removeprefix(f'{JSON_RULE}: ')}"
                    ) from None
        return lines
    return load_json(data, max_chars=MAX_VECTOR_BYTES, max_depth=MAX_VECTOR_DEPTH)


# ---------------------------------------------------------------- the verdict


_perft_budget: Final = contextvars.ContextVar("perft_budget", default=MAX_PERFT_SEQUENCES)


def check_perft_budget(state: State, depth: int, counts: JsonValue) -> None:
    """Refuse, before counting, a perft vector beyond the runner's bounds or claiming fewer sequences than it has.

    ``depth`` must be 1 to :data:`MAX_PERFT_DEPTH` and ``counts`` one
    non-negative integer per depth (FORMAT-2); the sequences to that depth
    are walked, stopping as soon as they outnumber what ``counts`` claims
    (a :class:`Mismatch`) or what is left of the file's
    :data:`MAX_PERFT_SEQUENCES` (FORMAT-2).
    """
    if not 1 <= depth <= MAX_PERFT_DEPTH:
        raise NotationError(JSON_RULE, f"a perft vector's depth is 1..{MAX_PERFT_DEPTH} for this runner, got {depth}")
    claims = [count for count in counts if type(count) is int and count >= 0] if isinstance(counts, list) else []
    if not isinstance(counts, list) or len(claims) != len(counts) or len(claims) != depth:
        raise NotationError(JSON_RULE, f"a perft vector's counts are one non-negative integer per depth 1..{depth}")
    budget = _perft_budget.get()
    claimed = sum(claims)
    limit = min(budget, claimed)
    walked = 0
    pending: list[tuple[State, int]] = [(state, depth)]
    while pending:
        node, left = pending.pop()
        moves = legal_moves(node)
        walked += len(moves)
        if walked > limit:
            if claimed < budget:
                raise Mismatch(f"counts: more than the {claimed} sequences the vector claims to depth {depth}")
            raise NotationError(
                JSON_RULE, f"the perft vectors of a file count at most {MAX_PERFT_SEQUENCES} sequences for this runner"
            )
        if left > 1:
            pending += [(apply(node, move), left - 1) for move in moves]
    _perft_budget.set(budget - walked)


def file_verdict(
    path: Traversable, label: str | None, check: Callable[[str, JsonValue], list[VectorResult]]
) -> list[VectorResult]:
    """Every result ``check`` gives the content of the vector file ``path``, or one FAIL saying why there is none.

    A file that cannot be read, is not a vector file's JSON, makes
    ``check`` raise anything, or holds no vector at all, fails as
    ``label :: file`` with the reason.
    """
    name = label if label is not None else str(path)
    try:
        data = read_vector_file(path)
    except (OSError, NotationError) as err:
        return [VectorResult(name, "file", f"cannot read: {err}")]
    token = _perft_budget.set(MAX_PERFT_SEQUENCES)
    try:
        results = check(name, data)
    except (Mismatch, NotationError) as err:
        return [VectorResult(name, "file", str(err))]
    except Exception as err:  # a vector this runner chokes on fails; it must not take the run down
        return [VectorResult(name, "file", f"the runner could not check this file: {type(err).__name__}: {err}")]
    finally:
        _perft_budget.reset(token)
    if not any(result.name not in _FILE_LEVEL for result in results):
        failures = [result for result in results if not result.passed]
        if failures:
            return failures
        return [VectorResult(name, "file", "the file holds no vector")]
    return results


_FILE_LEVEL: Final = frozenset({"file", "header", "summary"})
"""Result names that speak of a file as a whole, not of a vector in it."""


# ---------------------------------------------------------------- a vector's start and a file's layout


def start_state(spec: JsonValue) -> State:
    """The position a vector starts from: ``{"state": ...}``, or a deal and moves.

    A deal is ``{"rules", "order", "opener"}``: seat 0 gets the first
    ``hand_size`` tiles of ``order`` and so on, the rest is the boneyard
    (SETUP-5); the optional ``moves`` are then applied in turn.
    """
    data = json_object(spec, "start")
    if "state" in data:
        return state_from_data(data["state"])
    deal = json_object(json_field(data, "deal", "start"), "start.deal")
    state = new_match(
        rules_from_data(json_field(deal, "rules", "start.deal"), "start.deal.rules"),
        order=tiles_from_data(json_field(deal, "order", "start.deal"), "start.deal.order"),
        opener=json_int(json_field(deal, "opener", "start.deal"), "start.deal.opener"),
    )
    for number, text in enumerate(json_strs(data.get("moves", []), "start.moves")):
        try:
            state = apply(state, parse_move(text))
        except SniffError as err:
            raise Mismatch(f"start move {number} ({text}) refused: {err}") from None
    return state


def dump_vector_json(value: JsonValue) -> str:
    """JSON laid out for reading and diffing: objects one key a line, short arrays inline."""
    return _dump(value, 0) + "\n"


def _dump(value: JsonValue, indent: int) -> str:
    inline = json.dumps(value, separators=(", ", ": "))
    if len(inline) + indent <= 100 or not isinstance(value, (dict, list)):
        return inline
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(key)}: {_dump(item, indent + 2)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if all(not isinstance(item, (dict, list)) for item in value):
        return _wrap([json.dumps(item) for item in value], indent)
    return "[\n" + ",\n".join(pad + _dump(item, indent + 2) for item in value) + "\n" + " " * indent + "]"


def _wrap(words: list[str], indent: int) -> str:
    pad = " " * (indent + 2)
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(pad) + len(current) + len(word) + 2 > 100:
            lines.append(current + ",")
            current = word
        else:
            current = f"{current}, {word}" if current else word
    lines.append(current)
    return "[\n" + "\n".join(pad + line for line in lines) + "\n" + " " * indent + "]"


def check_named_cases(
    path: str, data: Mapping[str, JsonValue], check_case: Callable[[Mapping[str, JsonValue]], None]
) -> list[VectorResult]:
    """One result per named case of a file's ``cases``, each checked by ``check_case``; an empty file fails."""
    results = []
    for index, item in enumerate(json_array(json_field(data, "cases", path), "cases")):
        case = json_object(item, f"cases[{index}]")
        name = json_str(json_field(case, "name", "case"), "name")
        try:
            check_case(case)
        except (Mismatch, SniffError) as err:
            results.append(VectorResult(path, name, str(err)))
        else:
            results.append(VectorResult(path, name))
    if not results:
        results.append(VectorResult(path, "cases", "cases is empty: a vector file must assert something"))
    return results
