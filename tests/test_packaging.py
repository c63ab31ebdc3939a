"""The package as installed: a built wheel and an editable install each run their own conformance check.

Each test copies what the build reads (pyproject.toml, README.md,
sniff_rules/, specs/) to a temporary folder, builds or installs from there
with pip into a fresh virtual environment, and runs ``sniff-rules conform``
from an empty folder. attrs, the one run-time dependency, is copied from the
environment running the tests, so nothing is installed from the network
except the build backend when pip must fetch it; only when no build backend
can be had at all are the tests skipped.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import re
import shutil
import subprocess
import sys
from pathlib import Path

import attr
import attrs
import pytest

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "specs" / "vectors"
BUILD_INPUTS = ("pyproject.toml", "README.md", "sniff_rules", "specs")
# What a missing build backend looks like in pip's output, offline or with no index.
_NO_BACKEND = re.compile(r"No matching distribution found for setuptools|Could not find a version that satisfies")


def run(command: list[str], cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """``command`` run to its end, its output captured as text."""
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)


def _backend_at_hand() -> bool:
    """Whether the setuptools that pyproject.toml asks for is at hand, so that a build needs no isolation."""
    try:
        major = int(importlib.metadata.version("setuptools").split(".")[0])
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return False
    return major >= 69


def pip(*arguments: str, cwd: Path, build: bool = False) -> subprocess.CompletedProcess[str]:
    """This environment's pip with ``arguments``; a build skips isolation when the backend is at hand."""
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *arguments]
    if build and _backend_at_hand():
        command.append("--no-build-isolation")
    done = run(command, cwd)
    if done.returncode and build and _NO_BACKEND.search(done.stdout + done.stderr):
        pytest.skip(f"no setuptools build backend can be had here to build the package:\n{done.stderr[-800:]}")
    assert 0 == done.returncode, done.stdout[-2000:] + done.stderr[-2000:]
    return done


def copy_of_source(folder: Path) -> Path:
    """What the build reads, copied to ``folder``, so that no build leaves files in the checkout."""
    ignored = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    folder.mkdir(parents=True)
    for name in BUILD_INPUTS:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, folder / name, ignore=ignored)
        else:
            shutil.copy2(source, folder / name)
    return folder


def fresh_environment(folder: Path) -> Path:
    """A new virtual environment in ``folder`` with attrs, and nothing else; its Python."""
    made = run([sys.executable, "-m", "venv", "--without-pip", str(folder)], folder.parent)
    assert 0 == made.returncode, made.stderr
    python = folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    site = Path(
        run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], folder).stdout.strip()
    )
    for package in (attr, attrs):
        assert package.__file__ is not None
        shutil.copytree(
            Path(package.__file__).parent, site / package.__name__, ignore=shutil.ignore_patterns("__pycache__")
        )
    return python


def digests(folder: Path) -> dict[str, str]:
    """The SHA-256 of every vector file under ``folder``, by its path there."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*.json*"))
    }


def conform_in(python: Path, folder: Path) -> tuple[Path, list[str]]:
    """``sniff-rules conform -q`` run by the console script of ``python``'s environment from the empty ``folder``:
    the vector folder it reports and its output lines, after asserting it passed."""
    script = python.parent / ("sniff-rules.exe" if sys.platform == "win32" else "sniff-rules")
    done = run([str(script), "conform", "-q"], folder)
    lines = done.stdout.splitlines()
    assert 0 == done.returncode, done.stdout[-3000:] + done.stderr[-3000:]
    assert "all passed" in lines[-1], lines[-1]
    found = re.fullmatch(r"vectors shipped with sniff_rules: (.+)", lines[0])
    assert found is not None, lines[0]
    return Path(found.group(1)), lines


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of this checkout."""
    folder = tmp_path_factory.mktemp("build")
    wheels = folder / "wheels"
    pip(
        "wheel", "--no-deps", "--wheel-dir", str(wheels), str(copy_of_source(folder / "source")), cwd=folder, build=True
    )
    (built,) = wheels.glob("sniff_rules-*.whl")
    return built


def test_an_installed_wheel_passes_its_own_conformance_check(wheel: Path, tmp_path: Path) -> None:
    """Installed from the wheel, `sniff-rules conform` in an empty folder replays the package's own vectors."""
    python = fresh_environment(tmp_path / "venv")
    pip("--python", str(python), "install", "--no-deps", "--no-index", str(wheel), cwd=tmp_path)
    site = Path(
        run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], tmp_path).stdout.strip()
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shipped, lines = conform_in(python, elsewhere)
    assert site / "sniff_rules" / "vectors" == shipped
    # Every file replayed is the installed copy, and the copy is specs/vectors byte for byte.
    assert all(str(shipped) in line for line in lines[1:-1])
    assert digests(VECTORS) == digests(shipped)


def test_an_editable_install_reads_the_vectors_of_its_checkout(tmp_path: Path) -> None:
    """An editable install reads specs/vectors of its checkout, the one source, from any folder, and passes."""
    source = copy_of_source(tmp_path / "source")
    python = fresh_environment(tmp_path / "venv")
    pip("--python", str(python), "install", "--no-deps", "--editable", str(source), cwd=tmp_path, build=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shipped, _ = conform_in(python, elsewhere)
    assert (source / "specs" / "vectors").resolve() == shipped.resolve()
