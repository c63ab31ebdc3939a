"""Imported first by a browser test module: skips that module, saying why, where the browser tests cannot run
(no ``web`` extra, no Playwright, no Chromium at /usr/bin/chromium)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
pytest.importorskip("uvicorn", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
pytest.importorskip("playwright.sync_api", reason="the browser test needs playwright (the test extra)")
if not Path("/usr/bin/chromium").exists():
    pytest.skip("no Chromium at /usr/bin/chromium: install it with `apt-get install chromium`", allow_module_level=True)
