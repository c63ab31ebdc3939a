"""The page's pictures in the README and the browser guide: each made by ``python3 tests/page_pictures.py``,
referenced by both, the size of the screen it shows, and of a screen the browser tests check."""

from __future__ import annotations

import struct
from pathlib import Path

from browser_support import SCREENS, SIZES
from page_pictures import FOLDER, PICTURES

ROOT = Path(__file__).resolve().parent.parent


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    head = path.read_bytes()[:24]
    assert b"\x89PNG\r\n\x1a\n" == head[:8], path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_pictures_are_of_screens_the_browser_tests_check() -> None:
    """Every picture is of a size and a screen that tests/test_web_screens.py plays through and checks."""
    assert [] == [key for key in PICTURES if key[0] not in SIZES or key[1] not in SCREENS]


def test_each_picture_exists_at_the_size_of_its_screen() -> None:
    """Each picture is there, as wide and as high as its screen (the script saves the viewport alone)."""
    expected = {name: SIZES[size][:2] for (size, _), name in PICTURES.items()}
    assert expected == {name: png_size(FOLDER / name) for name in PICTURES.values()}


def test_the_readme_and_the_browser_guide_show_both_pictures() -> None:
    """The README and docs/guides/browser.md reference each picture, and the guide's "To come" box is gone."""
    readme = (ROOT / "README.md").read_text()
    guide = (ROOT / "docs" / "guides" / "browser.md").read_text()
    places = (("README.md", readme, "specs/pictures/"), ("browser.md", guide, "../../specs/pictures/"))
    missing = [
        (where, name) for where, text, prefix in places for name in PICTURES.values() if f"({prefix}{name})" not in text
    ]
    assert [] == missing
    assert "To come: the page at phone size" not in guide
