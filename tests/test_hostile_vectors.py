"""Hostile vector files and command lines: every file, however broken, ends in a FAIL line with a reason,
never a traceback or a hang (sniff_rules.verify.vectors.files, the conformance runner and the command line)."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from sniff_rules.cli.commands import main
from sniff_rules.errors import NotationError
from sniff_rules.formats.strict_json import JsonValue
from sniff_rules.moves import Move, legal_moves
from sniff_rules.state import State
from sniff_rules.verify.vectors.conformance import VectorResult, check_file, check_paths, vector_paths
from sniff_rules.verify.vectors.files import (
    MAX_PERFT_DEPTH,
    MAX_VECTOR_BYTES,
    printable,
    read_vector_bytes,
    strictly_equal,
)

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "specs" / "vectors"


def failures(path: Path) -> list[VectorResult]:
    """The runner's results for ``path``, which must all be failures, at least one, each with a reason."""
    results = check_file(path)
    assert results, "a file got no verdict"
    assert all(not result.passed and result.failure for result in results), [str(r) for r in results]
    return results


def only_failure(path: Path) -> str:
    """The reason of the one failure the runner gives ``path``."""
    found = failures(path)
    assert 1 == len(found), [str(r) for r in found]
    assert found[0].failure is not None
    return found[0].failure


def written(tmp_path: Path, name: str, data: JsonValue | bytes) -> Path:
    """A file ``name`` in ``tmp_path`` holding ``data`` (JSON, or bytes as they are)."""
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
    return path


def perft_file(tmp_path: Path, **position: JsonValue) -> Path:
    """A perft vector file of one position from a fresh two-player deal, with the given fields."""
    data = json.loads((VECTORS / "perft.json").read_text(encoding="utf-8"))
    first = data["positions"][0]
    first.update(position)
    data["positions"] = [first]
    return written(tmp_path, "perft.json", data)


# ---------------------------------------------------------------- perft bounds, checked before counting


@pytest.mark.parametrize("depth", [0, -3])
def test_a_perft_depth_below_one_fails(tmp_path: Path, depth: int) -> None:
    """FORMAT-2 TURN-1: `"depth": 0` fails with the reason, not a bare ValueError."""
    assert "depth is 1.." in only_failure(perft_file(tmp_path, depth=depth))


class _CountedLegalMoves:
    """legal_moves as the vector runner and the perft counter call it, each call counted: the work done,
    measured the same on any machine however busy (never by the clock)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, state: State) -> tuple[Move, ...]:
        self.calls += 1
        return legal_moves(state)


def _counted(path: Path) -> tuple[str, int]:
    """The one failure of the vector file ``path``, and how many positions were expanded to find it."""
    counted = _CountedLegalMoves()
    with (
        mock.patch("sniff_rules.verify.vectors.files.legal_moves", counted),
        mock.patch("sniff_rules.verify.perft.legal_moves", counted),
    ):
        return only_failure(path), counted.calls


def test_a_perft_depth_of_30_fails_at_once(tmp_path: Path) -> None:
    """FORMAT-2: `"depth": 30` in a small file fails before a single position is expanded, instead of
    counting for hours."""
    reason, expanded = _counted(perft_file(tmp_path, depth=30))
    assert (True, 0) == (f"1..{MAX_PERFT_DEPTH}" in reason, expanded)


def test_a_perft_vector_claiming_few_sequences_fails_once_it_has_more(tmp_path: Path) -> None:
    """TURN-1: a depth of 14 from a deal claiming one sequence a depth fails as soon as a 15th is found:
    after expanding at most 15 positions, where counting to depth 14 would expand millions."""
    reason, expanded = _counted(perft_file(tmp_path, depth=14, counts=[1] * 14, divide={}))
    assert "more than the 14 sequences the vector claims" in reason
    assert 1 <= expanded <= 15, expanded


@pytest.mark.parametrize("counts", [[-1] * 3, [1, 2], [1.0, 2, 3], [True, 2, 3], "many"])
def test_perft_counts_that_are_no_counts_fail_before_counting(tmp_path: Path, counts: JsonValue) -> None:
    """FORMAT-2: counts are one non-negative integer per depth; anything else fails before a move is made."""
    with mock.patch("sniff_rules.verify.vectors.files.legal_moves", side_effect=AssertionError("counted")):
        reason = only_failure(perft_file(tmp_path, depth=3, counts=counts))
    assert "one non-negative integer per depth" in reason


def test_perft_vectors_beyond_the_files_budget_fail(tmp_path: Path) -> None:
    """FORMAT-2: a file whose perft vectors together count more sequences than the runner's budget fails."""
    with mock.patch("sniff_rules.verify.vectors.files.MAX_PERFT_SEQUENCES", 1000):
        reason = only_failure(perft_file(tmp_path, depth=6, counts=[10**6] * 6, divide={}))
    assert "at most 1000 sequences" in reason


def test_the_shipped_perft_vectors_are_within_the_bounds() -> None:
    """TURN-1: every shipped perft vector passes under the runner's bounds."""
    results = check_file(VECTORS / "perft.json")
    assert [] == [str(result) for result in results if not result.passed]


# ---------------------------------------------------------------- what is read, and how much


def test_dev_zero_fails_without_being_read(tmp_path: Path) -> None:
    """FORMAT-2: /dev/zero is a device, not a vector file: it fails at once, with no MemoryError."""
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    assert "not a character device" in only_failure(Path("/dev/zero"))
    link = tmp_path / "zero.jsonl"
    link.symlink_to("/dev/zero")
    results = check_paths([tmp_path])
    assert 1 == len(results)
    assert "character device" in str(results[0].failure)


def test_a_fifo_in_a_folder_fails_without_waiting_for_a_writer(tmp_path: Path) -> None:
    """FORMAT-2: a FIFO named x.jsonl is not read, so nothing waits for a writer that never comes."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "x.jsonl")
    results = check_paths([tmp_path])
    assert ["a FIFO"] == [str(r.failure).rsplit("not ", 1)[1] for r in results]


def test_a_folder_named_like_a_vector_file_fails(tmp_path: Path) -> None:
    """FORMAT-2: a folder given as a file is not read as one."""
    folder = tmp_path / "x.json"
    folder.mkdir()
    assert "regular file, not a folder" in only_failure(folder)


def test_a_file_larger_than_the_bound_fails_before_it_is_read(tmp_path: Path) -> None:
    """FORMAT-2: a file one byte over the bound fails on its size, before a byte is read or parsed."""
    path = tmp_path / "huge.json"
    with path.open("wb") as stream:
        stream.truncate(MAX_VECTOR_BYTES + 1)
    with mock.patch("sniff_rules.verify.vectors.files.os.read", side_effect=AssertionError("read")):
        assert f"at most {MAX_VECTOR_BYTES} bytes" in only_failure(path)


def test_a_file_that_grows_while_read_is_cut_at_the_bound(tmp_path: Path) -> None:
    """FORMAT-2: a file under the bound when its size is checked, which another writer then makes longer,
    is read no further than the bound plus one byte and refused."""
    path = written(tmp_path, "grows.json", b"[" + b" " * 38 + b"]")
    real_fstat, real_read = os.fstat, os.read
    sizes: list[int] = []
    asked: list[int] = []
    given: list[int] = []

    def checked_size(descriptor: int) -> os.stat_result:
        found = real_fstat(descriptor)
        sizes.append(found.st_size)
        return found

    def read_after_growth(descriptor: int, count: int) -> bytes:
        if not asked:
            # The other writer appends between the size check and the first read.
            with path.open("ab") as stream:
                stream.write(b" " * 100)
        asked.append(count)
        chunk = real_read(descriptor, count)
        given.append(len(chunk))
        return chunk

    with (
        mock.patch("sniff_rules.verify.vectors.files.MAX_VECTOR_BYTES", 50),
        mock.patch("sniff_rules.verify.vectors.files.os.fstat", checked_size),
        mock.patch("sniff_rules.verify.vectors.files.os.read", read_after_growth),
        pytest.raises(NotationError) as caught,
    ):
        read_vector_bytes(path)
    assert ([40], [51], [51]) == (sizes, asked, given), "checked at 40 bytes, then read to the bound plus one"
    assert 140 == path.stat().st_size
    assert "FORMAT-2: a vector file has at most 50 bytes; this one has 51" == str(caught.value)


def test_a_file_name_of_300_characters_fails(tmp_path: Path) -> None:
    """FORMAT-2: a name the system refuses fails with its reason, from the runner and the command line."""
    path = tmp_path / ("v" * 300 + ".json")
    assert "too long" in only_failure(path).lower()
    assert 1 == main(["conform", str(path)])


def test_a_folder_holding_a_link_to_itself_is_searched_once(tmp_path: Path) -> None:
    """FORMAT-2: a folder holding a link to itself is searched once; the search ends."""
    (tmp_path / "loop").symlink_to(tmp_path)
    (tmp_path / "ok.json").write_text(json.dumps({"format": 1, "kind": "perft", "positions": []}))
    found = vector_paths([tmp_path])
    assert ["ok.json"] == [path.name for path in found]


# ---------------------------------------------------------------- what is in the file


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("bad.json", b'{"format": 1, "kind": "\xff"}', "UTF-8"),
        ("bad.jsonl", b'{"type": "header"}\n\xfe\xff\n', "line 2"),
        ("list.jsonl", b"[1, 2]\n", "line 1 is a JSON object"),
        ("middle.jsonl", b'{"type": "header"}\n7\n{"type": "summary"}\n', "line 2 is a JSON object"),
        ("empty.json", b"", "not valid JSON"),
        ("empty.jsonl", b"", "header"),
        ("deep.json", b"[" * 40 + b"]" * 40, "deeper than"),
        ("none.json", json.dumps({"format": 1, "kind": "perft", "positions": []}).encode(), "holds no vector"),
        ("none-seed.json", json.dumps({"format": 1, "kind": "layout-examples", "examples": []}).encode(), "no vector"),
        (
            "none.jsonl",
            b'{"type": "header"}\n{"type": "summary", "matches": 0}\n',
            "summary",
        ),
        ("truthy.json", json.dumps({"format": True, "kind": "perft", "positions": []}).encode(), "format True"),
        ("float.json", json.dumps({"format": 1.0, "kind": "perft", "positions": []}).encode(), "format 1.0"),
        ("array.json", b"[1, 2, 3]", "line 1"),
        ("string.json", b'"perft"', "neither a JSON object"),
    ],
    ids=lambda value: value if isinstance(value, str) and value.endswith(("json", "jsonl")) else "",
)
def test_a_file_that_is_no_vector_file_fails_with_its_reason(
    tmp_path: Path, name: str, data: bytes, reason: str
) -> None:
    """FORMAT-2: invalid UTF-8, a line that is not an object, empty or entry-less files, `"format": true`: a FAIL."""
    found = failures(written(tmp_path, name, data))
    assert any(reason in str(result.failure) for result in found), [str(r) for r in found]


@pytest.mark.parametrize(
    ("old", "new"),
    [(b'"end_count": 5', b'"end_count": 5.0'), (b'"points": 0', b'"points": false'), (b'"value": 4', b'"value": 4.0')],
)
def test_numbers_compare_strictly(tmp_path: Path, old: bytes, new: bytes) -> None:
    """FORMAT-2: an expected 5.0 or false does not pass for the integer 5 or 0."""
    original = (VECTORS / "seed_examples.json").read_bytes()
    assert old in original
    path = written(tmp_path, "seed_examples.json", original.replace(old, new, 1))
    assert 1 <= len([result for result in check_file(path) if not result.passed])


def test_strict_equality_tells_integers_fractions_and_booleans_apart() -> None:
    """FORMAT-2: JSON values compare by kind and value: 7 is not 7.0, 0 is not false, [1] is not [true]."""
    pairs = [(7, 7.0), (0, False), (1, True), ([1], [True]), ({"a": 1}, {"a": 1.0}), ("1", 1), (None, 0)]
    assert [False] * len(pairs) == [strictly_equal(a, b) for a, b in pairs]
    assert strictly_equal({"a": [1, (2, "x")]}, {"a": [1, [2, "x"]]})


def test_a_checker_that_chokes_gives_a_fail_not_a_traceback(tmp_path: Path) -> None:
    """FORMAT-2: whatever a vector makes the runner raise becomes that file's FAIL with the reason."""
    with mock.patch("sniff_rules.verify.vectors.conformance._check_perft", side_effect=RecursionError("too deep")):
        assert "RecursionError: too deep" in only_failure(VECTORS / "perft.json")


def test_printing_a_name_with_undecodable_bytes_is_escaped() -> None:
    """A file name that is not UTF-8 prints escaped, so the verdict line itself cannot fail."""
    name = b"\xffbad.json".decode("utf-8", "surrogateescape")
    assert "\\udcffbad.json" == printable(name)
    assert "\\x07" == printable("\x07")


# ---------------------------------------------------------------- the command line


def test_conform_on_a_missing_path_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`conform` on a path that does not exist prints a FAIL with the reason and exits 1."""
    assert 1 == main(["conform", str(tmp_path / "missing.json")])
    out = capsys.readouterr().out
    assert "FAIL" in out
    assert "No such file" in out


def test_conform_on_a_folder_with_nothing_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`conform` on a folder without vector files prints a FAIL for it and exits 1, not "0/0 passed"."""
    (tmp_path / "notes.txt").write_text("nothing here")
    assert 1 == main(["conform", str(tmp_path)])
    out = capsys.readouterr().out
    assert "FAIL" in out
    assert "no vector files" in out


def test_conform_on_an_entry_less_file_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`conform` on a vector file holding no vector exits 1 with a FAIL."""
    path = written(tmp_path, "empty.json", {"format": 1, "kind": "settlement", "hands": [], "scenarios": []})
    assert 1 == main(["conform", str(path)])
    assert "holds no vector" in capsys.readouterr().out


def test_vectors_write_into_a_file_is_refused_with_a_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`vectors --write --dir FILE` says the folder is a file and exits 2, before generating anything."""
    path = written(tmp_path, "file.txt", b"x")
    with mock.patch("sniff_rules.verify.vectors.generate.generated_files", side_effect=AssertionError("generated")):
        assert 2 == main(["vectors", "--write", "--dir", str(path)])
    assert "is not a folder" in capsys.readouterr().out


def test_vectors_into_a_folder_that_cannot_be_written_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`vectors --write` that cannot write a file says which and why, and exits 2."""
    (tmp_path / "recorded").write_text("a file where a folder goes")
    files = {"recorded/players-2.jsonl": "{}\n"}
    with mock.patch("sniff_rules.verify.vectors.generate.generated_files", return_value=(files, _tally())):
        assert 2 == main(["vectors", "--write", "--dir", str(tmp_path)])
    assert "cannot write" in capsys.readouterr().out


def _tally() -> object:
    from sniff_rules.verify.vectors.recorded_play import RecordedTally

    return RecordedTally()


def test_a_broken_pipe_ends_the_command_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    """`conform | head -1`: a reader that goes away ends the command with status 141, not a traceback."""

    def gone(*_args: object, **_kwargs: object) -> int:
        raise BrokenPipeError

    monkeypatch.setattr("sniff_rules.cli.commands.conform", gone)
    with mock.patch("sniff_rules.cli.commands.os.dup2"):
        assert 141 == main(["conform"])


# ---------------------------------------------------------------- any bytes at all


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from(["seed_examples.json", "settlement.json"]),
    st.lists(st.tuples(st.integers(0, 10**6), st.binary(max_size=4)), min_size=1, max_size=4),
    st.booleans(),
)
def test_a_mutated_vector_file_gets_a_verdict(
    tmp_path: Path, name: str, edits: list[tuple[int, bytes]], as_lines: bool
) -> None:
    """FORMAT-1 FORMAT-2: bytes of a real vector file overwritten anywhere give results, each PASS or FAIL with a
    reason, and never an exception; as a .jsonl the same bytes do too."""
    data = bytearray((VECTORS / name).read_bytes())
    for where, replacement in edits:
        at = where % len(data)
        data[at : at + len(replacement)] = replacement
    path = written(tmp_path, name + ("l" if as_lines else ""), bytes(data))
    results = check_file(path)
    assert results
    assert all(result.passed or result.failure for result in results)


def test_every_check_raises_nothing_for_odd_kinds_of_paths(tmp_path: Path) -> None:
    """FORMAT-2: a socket, a link to nowhere and a file without permission each get a FAIL."""
    import socket

    cases: list[Callable[[], Path]] = []
    dangling = tmp_path / "gone.json"
    dangling.symlink_to(tmp_path / "nowhere")
    cases.append(lambda: dangling)
    if hasattr(socket, "AF_UNIX") and len(str(tmp_path)) < 90:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(tmp_path / "s.json"))
        cases.append(lambda: tmp_path / "s.json")
    locked = written(tmp_path, "locked.json", b"{}")
    locked.chmod(0)
    if os.geteuid() != 0:
        cases.append(lambda: locked)
    for case in cases:
        failures(case())
    locked.chmod(stat.S_IRUSR | stat.S_IWUSR)
