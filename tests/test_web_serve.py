"""`sniff-rules serve`: a free port of 127.0.0.1 by default, the URL printed; without the web extra, the
extra named; the library and its command line import no web framework."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
    )


def test_the_library_and_its_command_line_import_no_web_framework() -> None:
    """The library needs attrs alone: its command line, the game's seats, host and stores load no web package."""
    done = _python(
        "import sys, sniff_rules, sniff_rules.cli.commands, sniff_rules.cli.serve\n"
        "import sniff_rules.web.seats, sniff_rules.web.host, sniff_rules.web.store\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'anyio', 'websockets')))"
    )
    assert (0, "[]") == (done.returncode, done.stdout.strip()), done.stderr


@pytest.mark.parametrize("missing", ["starlette", "uvicorn"])
def test_serve_without_the_web_extra_names_the_extra(missing: str) -> None:
    """Without Starlette or uvicorn, `serve` says which extra to install and exits 2, with no traceback."""
    done = _python(
        f"import sys; sys.modules[{missing!r}] = None\n"
        "from sniff_rules.cli.commands import main\nraise SystemExit(main(['serve']))"
    )
    assert 2 == done.returncode, done.stderr
    assert "pip install 'sniff-rules[web]'" in done.stdout
    assert "Traceback" not in done.stderr


def test_serve_listens_on_a_free_port_of_this_machine_and_prints_the_url() -> None:
    """By default `serve` binds 127.0.0.1 on a free port and prints the URL; the page is served there."""
    pytest.importorskip("starlette", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
    server = subprocess.Popen(
        [sys.executable, "-m", "sniff_rules", "serve", "--port", "0", "--memory"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found is not None, line
        assert 0 < int(found.group(1)) < 65536
        page = b""
        # Retried until a deadline only a hung server reaches, however busy the machine.
        deadline = time.monotonic() + 120
        while not page and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(found.group(0), timeout=60) as answer:
                    page = answer.read()
            except OSError:
                time.sleep(0.1)
        assert b"<title>American Sniff</title>" in page
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_serve_refuses_a_port_out_of_range() -> None:
    """--port outside 0..65535 is refused with a message and exit 2."""
    pytest.importorskip("starlette", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
    from sniff_rules.cli.serve import serve_main

    out = io.StringIO()
    assert 2 == serve_main(["--port", "70000"], out)
    assert "--port is 0..65535" in out.getvalue()


def test_the_wheel_ships_the_page(tmp_path: Path) -> None:
    """The page's files are package data: a wheel built from this checkout holds them."""
    from test_packaging import copy_of_source, pip

    wheels = tmp_path / "wheels"
    pip(
        "wheel",
        "--no-deps",
        "--wheel-dir",
        str(wheels),
        str(copy_of_source(tmp_path / "source")),
        cwd=tmp_path,
        build=True,
    )
    (built,) = wheels.glob("sniff_rules-*.whl")
    with zipfile.ZipFile(built) as wheel:
        names = set(wheel.namelist())
    expected = {
        f"sniff_rules/web/static/{name}" for name in ("index.html", "app.js", "keyboard.js", "motion.js", "style.css")
    }
    assert expected == expected & names
    assert {
        "sniff_rules/web/app.py",
        "sniff_rules/web/seats.py",
        "sniff_rules/web/host.py",
        "sniff_rules/web/store.py",
        "sniff_rules/cli/serve.py",
    } <= names
