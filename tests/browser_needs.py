"""What a browser test needs before anything else is imported: the web extra, Playwright and the distribution's
Chromium. A test module imports :data:`sync_api` from here first; without one of them the whole module is
skipped, saying which and how to install it."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
pytest.importorskip("uvicorn", reason="the browser game needs the web extra: pip install 'sniff-rules[web]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser test needs playwright (the test extra)")
"""Playwright's synchronous API."""
if not Path("/usr/bin/chromium").exists():
    pytest.skip("no Chromium at /usr/bin/chromium: install it with `apt-get install chromium`", allow_module_level=True)
