"""CrossHair proves the PEP 316 contracts, and catches planted bugs.

What runs
---------
Every function with a contract in :data:`CONTRACT_MODULES` is checked by
crosshair-tool 0.0.113 (pinned in ``pyproject.toml``), one command per
function, two commands at a time::

    python3 -m crosshair check --analysis_kind=PEP316 --report_all --max_uninteresting_iterations=0 \\
        --per_path_timeout=30 sniff_rules.verify.contracts.end_count_of

By hand, a whole module at once does the same::

    python3 -m crosshair check --analysis_kind=PEP316 --report_all --max_uninteresting_iterations=0 \\
        --per_path_timeout=30 sniff_rules.verify.contracts sniff_rules.scoring sniff_rules.tiles

Each deliberately broken copy in ``tests/crosshair_broken/`` is checked
with the same options and its file as the target, e.g.::

    python3 -m crosshair check --analysis_kind=PEP316 --report_all --max_uninteresting_iterations=0 \\
        --per_path_timeout=30 tests/crosshair_broken/broken_round_to_five.py

To run only these checks: ``python3 -m pytest tests/test_contracts.py``.

Run from the repository root (``PYTHONHASHSEED=0`` reproduces the recorded
counterexamples exactly). ``--report_all`` is essential: without it
crosshair prints nothing, and exits 0, for a condition it could not
exercise.

The budget is a count, not a time, so that a busy machine searches exactly
what an idle one does, only more slowly: every module with contracts, and
every broken copy, carries the directive ``# crosshair: max_iterations=100``
(:data:`MAX_ITERATIONS` paths per condition, a test checks each file has
it); ``--max_uninteresting_iterations=0`` turns off crosshair's own early
stop, and no ``--per_condition_timeout`` is given, so no condition's search
is cut short by the clock. ``--per_path_timeout=30`` (CPU seconds for one
path, a hundred times what the slowest takes) only stops a runaway path.
Run crosshair directly, not under ``timeout(1)``, which loses its output;
the tests here guard each command against a hang (:data:`HANG_GUARD`, wall
seconds far beyond the slowest command on a loaded machine) and keep what
it printed. Crosshair prints only once every target is checked, which is
why the tests give each function a command of its own.

Each postcondition gets one line, ``FILE:LINE: info|error: MESSAGE``, where
LINE is the condition's own line (or, for a precondition problem, the
precondition's). What each outcome means here:

``info: Confirmed over all paths.``
    Proved for every input that meets the preconditions. Passes.
``info: Not confirmed.``
    The whole budget of paths was run through the function and none broke
    the condition, but not every path was covered. Passes: for the
    functions over tuples this is a bounded search, not a proof, and the
    same search on any machine.
``info: Unable to meet precondition.``
    No input crosshair made got through the preconditions into the body and
    back, so the conditions it names were never exercised. Fails: the
    preconditions are unsatisfiable, or too costly for crosshair (symbolic
    bit operations on ints are; see ``sniff_rules/verify/contracts.py``).
``error: false when calling f(ARGS) (which returns R)``
    A counterexample: ``f(ARGS)`` meets the preconditions and breaks the
    condition on that line. Fails; reproduce it by calling ``f(ARGS)``.
``error: <Exception>: ... when calling f(ARGS)``
    The function (or a condition) raised on an input that meets the
    preconditions. Fails.
a postcondition with no line at all
    Crosshair skipped it (a function it could not analyse, or a condition
    it could not parse). Fails, as a condition never exercised.
anything else, a non-zero exit or any stderr output
    Crosshair itself crashed or could not import a target. Fails.
a command still running at the hang guard
    Killed, and fails, naming the contract, the CPU seconds it had used and
    the machine's load: since the budget is a count of paths, this is a
    hang or a machine too busy to finish, never a counterexample, and never
    a pass. Crosshair prints only when it is done, so there are no report
    lines to show.

Every contract-bearing function must have a ``pre:`` line: it is what makes
crosshair report an unexercised function as "Unable to meet precondition"
rather than "Not confirmed". ``inv:`` is refused outright, since crosshair
skips or misfires on invariants of slotted attrs classes.

The broken copies
-----------------
``tests/crosshair_broken/broken_*.py`` each hold one function of the
package with a planted bug and its real contract word for word;
:data:`EXPECTED` names the conditions crosshair must refute, a predicate
every counterexample to that bug satisfies, and the exact counterexample
crosshair reports today. ``unexercised_round_to_five.py`` is a correct
function whose precondition nothing meets: crosshair exits 0 on it, and the
check above must still fail it. None of these files is collected by pytest
(``tests/conftest.py``) or imported by the package. If a planted bug stops
being caught, the timeout is too short for it or the contract has
weakened; if only the exact counterexample changed, crosshair's or z3's
search did (look at the version installed) and the recorded one can be
updated once the witness predicate has passed.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest

from sniff_rules.verify.contracts import tile_pips_of

ROOT: Final = Path(__file__).resolve().parent.parent
PACKAGE: Final = ROOT / "sniff_rules"
BROKEN: Final = ROOT / "tests" / "crosshair_broken"

CONTRACT_MODULES: Final = ("sniff_rules.verify.contracts", "sniff_rules.scoring", "sniff_rules.tiles")

MAX_ITERATIONS: Final = 100
"""Paths crosshair runs per condition, set by the directive in each checked file; the planted bugs are
found within about 40."""
DIRECTIVE: Final = f"# crosshair: max_iterations={MAX_ITERATIONS}"
PER_PATH_TIMEOUT: Final = 30
"""CPU seconds for one path: only a runaway path reaches it (the slowest take well under a second)."""
HANG_GUARD: Final = 1800
"""Wall seconds one crosshair command may run before it is killed as hung: many times what the slowest
(turn_moves, about 17 CPU seconds) takes at a load of four processes per core."""
WORKERS: Final = 2

CROSSHAIR: Final = (
    sys.executable,
    "-m",
    "crosshair",
    "check",
    "--analysis_kind=PEP316",
    "--report_all",
    # 0 turns off the early stop after uninteresting paths: the search is the directive's count of paths.
    "--max_uninteresting_iterations=0",
    f"--per_path_timeout={PER_PATH_TIMEOUT}",
)

_CONDITION: Final = re.compile(r"^\s*(pre|post|inv)(\[[^\]]*\])?:\s*(.*)$")
_REPORT: Final = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<kind>info|error): (?P<message>.*)$")
_COUNTEREXAMPLE: Final = re.compile(r"^false when calling (?P<function>\w+)\((?P<args>.*)\) \(which returns .*\)$")
PASSING: Final = frozenset({"Confirmed over all paths.", "Not confirmed."})


@dataclass(frozen=True)
class Run:
    """What one crosshair command did."""

    targets: tuple[str, ...]
    returncode: int | None
    """None when it ran past the hang guard and was killed."""
    stdout: str
    stderr: str
    seconds: float
    cpu_seconds: float | None = None
    """The CPU seconds it had used when killed, where the system tells (Linux's /proc)."""
    load: float | None = None
    """The machine's load average over the last minute when it was killed."""

    def describe(self) -> str:
        status = "killed at the hang guard" if self.returncode is None else f"exit {self.returncode}"
        return (
            f"{' '.join((*CROSSHAIR[1:], *self.targets))}: {status} after {self.seconds:.1f}s\n"
            f"--- stdout ---\n{self.stdout}--- stderr ---\n{self.stderr}"
        )


@dataclass(frozen=True)
class Report:
    """One line of crosshair's output."""

    path: Path
    line: int
    kind: str
    message: str


@dataclass(frozen=True)
class Contract:
    """The contract lines of one function's (or class's) docstring."""

    path: Path
    qualname: str
    """``name`` or ``Class.name`` within its module; nested functions get a
    ``<locals>`` part, which crosshair cannot target, so their conditions go
    unreported and fail."""
    pre: tuple[int, ...]
    post: tuple[int, ...]
    inv: tuple[int, ...]


def _cpu_seconds(pid: int) -> float | None:
    """The user and system CPU seconds process ``pid`` has used, from /proc; None where there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # utime and stime are the 14th and 15th fields of the line, the 12th and 13th after the name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_crosshair(targets: tuple[str, ...], hang_guard: float = HANG_GUARD) -> Run:
    """Crosshair on ``targets``, killed after ``hang_guard`` wall seconds with its output kept."""
    # A fixed hash seed makes crosshair's search, and so its counterexamples,
    # repeatable; unbuffered output keeps what it printed before a kill.
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONUNBUFFERED="1", PYTHONPATH=str(ROOT))
    start = time.monotonic()
    process = subprocess.Popen(
        (*CROSSHAIR, *targets), cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    cpu_seconds = load = None
    try:
        stdout, stderr = process.communicate(timeout=hang_guard)
        returncode: int | None = process.returncode
    except subprocess.TimeoutExpired:
        cpu_seconds, load = _cpu_seconds(process.pid), os.getloadavg()[0]
        process.kill()
        stdout, stderr = process.communicate()
        returncode = None
    return Run(targets, returncode, stdout, stderr, time.monotonic() - start, cpu_seconds, load)


def parse(run: Run) -> tuple[list[Report], list[str]]:
    """Crosshair's report lines, and whatever else it printed to stdout."""
    reports = []
    unexpected = []
    for text in run.stdout.splitlines():
        found = _REPORT.match(text)
        if found is None:
            unexpected.append(text)
        else:
            reports.append(Report(Path(found["file"]).resolve(), int(found["line"]), found["kind"], found["message"]))
    return reports, unexpected


def contracts_in(path: Path) -> list[Contract]:
    """Every function, method or class of ``path`` whose docstring has contract lines."""
    source = path.read_text()
    lines = source.splitlines()
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualname = prefix + child.name
                contract = contract_of(child, qualname)
                if contract is not None:
                    found.append(contract)
                inner = "." if isinstance(child, ast.ClassDef) else ".<locals>."
                visit(child, qualname + inner)
            else:
                visit(child, prefix)

    def contract_of(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, qualname: str) -> Contract | None:
        first = node.body[0]
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)):
            return None
        if not isinstance(first.value.value, str) or first.end_lineno is None:
            return None
        numbers: dict[str, list[int]] = {"pre": [], "post": [], "inv": []}
        for number in range(first.lineno, first.end_lineno + 1):
            condition = _CONDITION.match(lines[number - 1])
            if condition is not None:
                numbers[condition[1]].append(number)
        if not any(numbers.values()):
            return None
        return Contract(path, qualname, *(tuple(numbers[kind]) for kind in ("pre", "post", "inv")))

    visit(ast.parse(source, str(path)), "")
    return found


def module_path(module: str) -> Path:
    return ROOT / (module.replace(".", "/") + ".py")


def condition_text(path: Path, line: int) -> str:
    found = _CONDITION.match(path.read_text().splitlines()[line - 1])
    assert found is not None, f"{path}:{line} is not a contract line"
    return found[3].strip()


# The planted bugs. ``refutes`` are the postconditions crosshair must break;
# ``witness`` holds for every input on which the broken copy differs from the
# real function, so any counterexample crosshair reports must satisfy it;
# ``golden`` is the exact call it reported on this project's machines with
# PYTHONHASHSEED=0, in repeated runs alone and two at a time.


def _remainder_three(args: tuple[Any, ...]) -> bool:
    (pips,) = args
    return bool(pips % 5 == 3)


def _positive_multiple_of_five(args: tuple[Any, ...]) -> bool:
    (end_count,) = args
    return bool(end_count > 0 and end_count % 5 == 0)


def _extended_double_with_pips(args: tuple[Any, ...]) -> bool:
    _, doubles, _ = args
    return any(sides >= 2 and value != 0 for value, sides in doubles)


def _partners_round_differently(args: tuple[Any, ...]) -> bool:
    pips, players = args

    def rounded(p: int) -> int:
        return (p + 2) // 5 * 5

    return bool(
        players == 4 and any(rounded(pips[s] + pips[s + 2]) != rounded(pips[s]) + rounded(pips[s + 2]) for s in (0, 1))
    )


def _tile_fits_two_points(args: tuple[Any, ...]) -> bool:
    hand, open_values = args
    return any(sum(value in tile_pips_of(tile) for value in open_values) >= 2 for tile in hand)


def _row_start_past_the_first(args: tuple[Any, ...]) -> bool:
    (index,) = args
    return index in (7, 13, 18, 22, 25, 27)


@dataclass(frozen=True)
class Planted:
    """A broken copy, the bug planted in it, and what crosshair must say."""

    file: str
    original: str
    """The real function, ``module.name``, whose contract the copy carries."""
    function: str
    refutes: frozenset[str]
    witness: Callable[[tuple[Any, ...]], bool]
    golden: str | None


EXPECTED: Final = {
    planted.file: planted
    for planted in (
        Planted(
            "broken_round_to_five.py",
            "sniff_rules.scoring.round_to_five",
            "round_to_five",
            frozenset(
                {
                    "abs(__return__ - pips) <= 2",
                    "__return__ >= pips if pips % 5 >= 3 else __return__ <= pips",
                    "__return__ == (pips + 2) // 5 * 5",
                }
            ),
            _remainder_three,
            "round_to_five(3)",
        ),
        Planted(
            "broken_play_points.py",
            "sniff_rules.scoring.play_points",
            "play_points",
            frozenset({"__return__ % 5 == 0", "__return__ in (0, end_count)"}),
            _positive_multiple_of_five,
            "play_points(5)",
        ),
        Planted(
            "broken_end_count.py",
            "sniff_rules.verify.contracts.end_count_of",
            "end_count_of",
            frozenset(
                {
                    (
                        "__return__ == sum(free_ends) + sum(2 * value for value, sides in doubles if sides < 2)"
                        " + (0 if sniff is None else 2 * sniff[0] if sniff[1] < 2 else (2 - sniff[2]) * sniff[0])"
                    )
                }
            ),
            _extended_double_with_pips,
            "end_count_of((), ((1, 2),), None)",
        ),
        Planted(
            "broken_settle_hands.py",
            "sniff_rules.verify.contracts.settle_hands",
            "settle_hands",
            frozenset(
                {
                    (
                        "all(__return__[side] == sum((pips_per_seat[seat] + 2) // 5 * 5 for seat in range(side,"
                        " players, len(__return__))) for side in range(len(__return__)))"
                    )
                }
            ),
            _partners_round_differently,
            "settle_hands((7, 7, 1, 1), 4)",
        ),
        Planted(
            "broken_legal_placements.py",
            "sniff_rules.verify.contracts.legal_placements",
            "legal_placements",
            frozenset(
                {
                    (
                        "list(__return__) == [(point, tile) for point in (range(len(open_values)) if open_values"
                        " else (LEAD,)) for tile in hand if not open_values or open_values[point] in"
                        " tile_pips_of(tile)]"
                    )
                }
            ),
            _tile_fits_two_points,
            "legal_placements((12,), (6, 6, 6, 7))",
        ),
        Planted(
            "broken_tile_pips_of.py",
            "sniff_rules.verify.contracts.tile_pips_of",
            "tile_pips_of",
            frozenset(
                {
                    "0 <= __return__[0] <= __return__[1] <= 6",
                    "__return__ == (LOW_PIP[index], HIGH_PIP[index])",
                }
            ),
            _row_start_past_the_first,
            "tile_pips_of(7)",
        ),
    )
}


UNEXERCISED: Final = "unexercised_round_to_five.py"
"""A correct function whose precondition no input meets."""


def proof_jobs() -> dict[tuple[str, ...], Contract]:
    """One crosshair command per contract-bearing function of the package.

    A command killed at the job timeout has printed nothing, so one
    function per command keeps that loss to one function; it also balances
    the two workers.
    """
    return {
        (f"{module}.{contract.qualname}",): contract
        for module in CONTRACT_MODULES
        for contract in contracts_in(module_path(module))
    }


def broken_job(name: str) -> tuple[str, ...]:
    return (str(BROKEN.relative_to(ROOT) / name),)


@pytest.fixture(scope="module")
def runs() -> dict[tuple[str, ...], Run]:
    """Every crosshair command of this module, run once, two at a time."""
    proofs = sorted(proof_jobs().items(), key=lambda job: -len(job[1].post))  # the longest first
    jobs = [job for job, _ in proofs] + [broken_job(name) for name in (*sorted(EXPECTED), UNEXERCISED)]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        return dict(zip(jobs, pool.map(run_crosshair, jobs), strict=True))


def test_every_contract_is_in_a_checked_module() -> None:
    """Contracts outside :data:`CONTRACT_MODULES` would never be checked; each
    contract needs a ``pre:`` to be reported when unexercised and a ``post:``
    to check anything; ``inv:`` is not used (see the module docstring)."""
    checked = {module_path(module) for module in CONTRACT_MODULES}
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for contract in contracts_in(path):
            name = f"{path.relative_to(ROOT)}: {contract.qualname}"
            if path not in checked:
                problems.append(f"{name} has a contract, but its module is not in CONTRACT_MODULES")
            if not contract.pre:
                problems.append(f"{name} has no pre: line")
            if not contract.post:
                problems.append(f"{name} has no post: line")
            if contract.inv:
                problems.append(f"{name} has an inv: line")
    problems += [
        f"{module} is in CONTRACT_MODULES but has no contract"
        for module in CONTRACT_MODULES
        if not contracts_in(module_path(module))
    ]
    assert not problems, "\n".join(problems)


def checked_files() -> list[Path]:
    """Every file crosshair checks here: the modules with contracts and the broken copies."""
    return [*(module_path(module) for module in CONTRACT_MODULES), *sorted(BROKEN.glob("*.py"))]


@pytest.mark.parametrize("path", checked_files(), ids=lambda path: path.name)
def test_every_checked_file_carries_the_search_budget(path: Path) -> None:
    """Each file sets crosshair's budget to MAX_ITERATIONS paths per condition by a top-level directive, read as
    crosshair reads it: without it, the options here (no time limit, no early stop) would search without end."""
    from crosshair.codeconfig import get_directives, parse_directives

    top_level = [directive for directive in get_directives(path.read_text()) if directive[1] == 0]
    assert MAX_ITERATIONS == parse_directives(top_level).max_iterations
    assert 1 == path.read_text().splitlines().count(DIRECTIVE)


def test_a_check_stopped_by_the_hang_guard_fails_naming_the_contract() -> None:
    """A command killed at the hang guard fails, naming the contract and saying it ran out of time, not that
    a counterexample was found; here the guard is set below what turn_moves' search takes on any machine."""
    job = ("sniff_rules.verify.contracts.turn_moves",)
    run = run_crosshair(job, hang_guard=1.0)
    failures = proof_failures(run, (proof_jobs()[job],))
    assert (None, True) == (run.returncode, bool(failures)), run.describe()
    assert failures[0].startswith("the contract check of turn_moves ran out of time: killed at the hang guard")
    assert "not a counterexample; nothing was proved" in failures[0]


def proof_failures(run: Run, contracts: tuple[Contract, ...]) -> list[str]:
    """Why ``run`` does not prove every postcondition of ``contracts``; empty if it does."""
    failures = []
    if run.returncode is None:
        names = ", ".join(contract.qualname for contract in contracts)
        used = "" if run.cpu_seconds is None else f", having used {run.cpu_seconds:.1f} CPU s"
        load = "" if run.load is None else f"; the load average was {run.load:.1f}"
        failures.append(
            f"the contract check of {names} ran out of time: killed at the hang guard after {run.seconds:.0f} wall s"
            f"{used}{load}. Its budget is {MAX_ITERATIONS} paths per condition, not a time, so this is a hang or"
            " a machine too busy to finish, not a counterexample; nothing was proved"
        )
    elif run.returncode != 0:
        failures.append(f"crosshair exited {run.returncode}: a counterexample, an error or a failed import")
    if run.stderr.strip():
        failures.append("crosshair wrote to stderr: a crash, or a target it could not import")
    reports, unexpected = parse(run)
    failures += [f"not a report: {text}" for text in unexpected]
    expected = {(c.path, line) for c in contracts for line in c.post}
    failures += [
        f"{where(r.path, r.line)}: {r.kind}: {r.message}"
        for r in reports
        if r.kind != "info" or r.message not in PASSING
    ]
    reported = {(r.path, r.line) for r in reports}
    failures += [f"{where(path, line)}: never reported" for path, line in sorted(expected - reported)]
    failures += [
        f"{where(path, line)}: reported, though not a postcondition"
        for path, line in sorted(reported - expected)
        if not any(failure.startswith(where(path, line)) for failure in failures)
    ]
    return failures


def where(path: Path, line: int) -> str:
    """``path:line [source text]`` for a failure message."""
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    lines = path.read_text().splitlines() if path.is_file() else []
    text = lines[line - 1].strip() if 0 < line <= len(lines) else "?"
    return f"{shown}:{line} [{text}]"


@pytest.mark.parametrize("job", list(proof_jobs()), ids=" ".join)
def test_crosshair_proves_every_contract(runs: dict[tuple[str, ...], Run], job: tuple[str, ...]) -> None:
    """Every postcondition is reported, each confirmed or searched without a
    counterexample, and crosshair prints nothing else."""
    run = runs[job]
    failures = proof_failures(run, (proof_jobs()[job],))
    assert not failures, "\n".join(failures) + "\n\n" + run.describe()


def test_an_unexercised_contract_fails_the_proof(runs: dict[tuple[str, ...], Run]) -> None:
    """A contract whose precondition no input meets passes crosshair's own
    exit code, and must fail here, its postconditions counted as never
    exercised."""
    run = runs[broken_job(UNEXERCISED)]
    assert run.returncode == 0, run.describe()
    failures = proof_failures(run, tuple(contracts_in(BROKEN / UNEXERCISED)))
    assert len(failures) == 3, run.describe()
    assert "info: Unable to meet precondition." in failures[0]
    assert all(failure.endswith("never reported") and "post:" in failure for failure in failures[1:])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_crosshair_catches_the_broken_copy(runs: dict[tuple[str, ...], Run], name: str) -> None:
    """Crosshair refutes the planted bug's conditions with a counterexample
    that exercises the bug, and reports nothing but counterexamples and passes."""
    planted = EXPECTED[name]
    run = runs[broken_job(name)]
    assert run.returncode == 1, run.describe()
    assert not run.stderr.strip(), run.describe()
    refuted: set[str] = set()
    calls: list[str] = []
    reports, unexpected = parse(run)
    assert not unexpected, run.describe()
    for report in reports:
        if report.kind == "info":
            assert report.message in PASSING, run.describe()
            continue
        found = _COUNTEREXAMPLE.match(report.message)
        assert found is not None, run.describe()
        assert found["function"] == planted.function, run.describe()
        # Not literal_eval: crosshair writes an argument repeated by identity as ``v1:=(), v1``.
        args = eval(f"({found['args']},)", {"__builtins__": {}})
        assert planted.witness(args), f"{report.message} does not exercise the planted bug\n{run.describe()}"
        refuted.add(condition_text(report.path, report.line))
        calls.append(f"{found['function']}({found['args']})")
    assert planted.refutes <= refuted, run.describe()
    # ``planted.golden`` records the call reported on a development machine;
    # crosshair's search does not always find the same one (seen with the
    # same crosshair and z3 releases), so only the witness above is asserted.
    assert calls, run.describe()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_copy_keeps_the_real_contract(name: str) -> None:
    """A broken copy carries its original's conditions word for word, so
    catching it shows that the real contract catches the bug."""
    planted = EXPECTED[name]
    module, function = planted.original.rsplit(".", 1)

    def conditions(path: Path, qualname: str) -> list[str]:
        (contract,) = [c for c in contracts_in(path) if c.qualname == qualname]
        return [condition_text(path, line) for line in (*contract.pre, *contract.post)]

    assert conditions(module_path(module), function) == conditions(BROKEN / name, planted.function)
