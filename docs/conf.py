"""Sphinx configuration of the sniff-rules documentation (build: python3 -m sphinx -W -n docs docs/_build/html)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "sniff-rules"
author = "the sniff-rules authors"
copyright = "the sniff-rules authors"  # noqa: A001 - Sphinx reads this name
release = version = "0.1.0"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sniff_docs",
    "sniff_rule_ids",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = "sniff-rules"
html_static_path = ["_static"]
html_css_files = ["sniff.css"]

# MyST: ``{include}`` of specs/*.md and benchmarks/README.md, anchors for their headings so that
# a link to a section of another page resolves, and colon fences for directives with options.
myst_enable_extensions = ["colon_fence", "attrs_inline"]
myst_heading_anchors = 4

# The API reference: every signature as written, no value of a long constant, members in source order.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
autodoc_class_signature = "mixed"
python_use_unqualified_type_names = True

# -n: every cross-reference must resolve. Names outside this library (builtins, the standard library,
# attrs, numpy, OpenSpiel, PettingZoo, Gymnasium, Starlette, Hypothesis) are not documented here:
# the sniff_docs extension lets a reference to one of those pass (warn-missing-reference) and
# nothing else, so a misspelt or vanished name of this library fails the build.
nitpicky = True
