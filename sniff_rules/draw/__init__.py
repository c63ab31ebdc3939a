"""How a match looks to people: one standard geometry (GEOM-1..6), pictures in text and SVG, events in words.

The modules are named for what they draw with, the functions for what
they give, so ``from sniff_rules.draw.svg import svg`` and
``from sniff_rules.draw.text import text`` (a module's name is never
shadowed by a function). The values and the other functions are here too.
"""

from sniff_rules.draw.geometry import Bounds, LayoutGeometry, PointGeometry, TileGeometry
from sniff_rules.draw.svg import tally_svg
from sniff_rules.draw.tally import PaperTally, paper_tally
from sniff_rules.draw.text import layout_text, tally_text

__all__ = [
    "Bounds",
    "LayoutGeometry",
    "PaperTally",
    "PointGeometry",
    "TileGeometry",
    "layout_text",
    "paper_tally",
    "tally_svg",
    "tally_text",
]
