"""The normative text of specs/ names no Python module, class or function: an engine in any language reads it alike.

What this library does in Python may be said in the parts marked as not
binding: a section headed "This implementation", a paragraph that starts
with "*In this library*", and ``mutation.md``, which is about this
library's tests as a whole.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT / "specs"
NOT_NORMATIVE_FILES = ("mutation.md",)
"""Pages about this library alone, not about the game."""
NOT_NORMATIVE_HEADINGS = ("This implementation",)
NOT_NORMATIVE_PARAGRAPH = "*In this library*"
SPEC_WORDS = frozenset({"below", "draw", "pass", "low", "high", "format", "kind", "state", "seed", "order", "opener"})
"""Words the spec defines itself, which a Python name may share: SplitMix64's ``below``, move words, JSON keys."""


def python_names() -> frozenset[str]:
    """Every module, public class and public function of the package."""
    names: set[str] = {"sniff_rules"}
    for path in (ROOT / "sniff_rules").rglob("*.py"):
        names.add(path.stem)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not node.name.startswith(
                "_"
            ):
                names.add(node.name)
    return frozenset(names - {"__init__", "__main__"})


def schema_keys() -> frozenset[str]:
    """Every key the schema documents: a JSON key is the spec's word, whatever a Python name shares it."""
    keys: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "properties" and isinstance(item, dict):
                    keys.update(item)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads((SPECS / "vectors" / "schema.json").read_text(encoding="utf-8")))
    return frozenset(keys)


def protocol_words() -> frozenset[str]:
    """The protocol's own words: its keys, the names of its requests and answers, its roles and commands."""
    words: set[str] = {"engine", "bot", "play", "simulate"}

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "properties" and isinstance(item, dict):
                    words.update(item)
                elif key == "const" and isinstance(item, str):
                    words.add(item)
                elif key == "enum" and isinstance(item, list):
                    words.update(entry for entry in item if isinstance(entry, str))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads((SPECS / "protocol.schema.json").read_text(encoding="utf-8")))
    return frozenset(words)


def normative_paragraphs(text: str) -> Iterator[str]:
    """The paragraphs of a page outside its sections and paragraphs marked as not binding."""
    binding = True
    for paragraph in re.split(r"\n\s*\n", text):
        heading = re.match(r"#+ (.*)", paragraph.strip())
        if heading:
            binding = not heading.group(1).startswith(NOT_NORMATIVE_HEADINGS)
            continue
        if binding and not paragraph.strip().startswith(NOT_NORMATIVE_PARAGRAPH):
            yield paragraph


def python_names_in(paragraph: str, names: frozenset[str], allowed: frozenset[str]) -> list[str]:
    """The code spans of ``paragraph`` that name a Python module, class or function of the package."""
    found = []
    if "sniff_rules" in paragraph or re.search(r"\w\.py\b", paragraph):
        found.append("sniff_rules or a .py file")
    for span in re.findall(r"`([^`]+)`", paragraph):
        token = re.sub(r"\(.*\)$", "", span.strip())
        if not re.fullmatch(r"[A-Za-z_][\w.]*", token) or re.search(r"\.(json|jsonl|md|svg)$", token):
            continue
        if any(part in names and part not in allowed for part in token.split(".")):
            found.append(span)
    return found


PAGES = sorted(path.name for path in SPECS.glob("*.md") if path.name not in NOT_NORMATIVE_FILES)
"""The normative pages: every spec page but those about this library's own tests."""


@pytest.mark.parametrize("page", PAGES)
def test_the_normative_text_names_no_python(page: str) -> None:
    """No binding paragraph of a spec page names a Python module, class or function."""
    names, allowed = python_names(), schema_keys() | protocol_words() | SPEC_WORDS
    text = (SPECS / page).read_text(encoding="utf-8")
    found = [name for paragraph in normative_paragraphs(text) for name in python_names_in(paragraph, names, allowed)]
    assert [] == found


def test_the_check_finds_python_names() -> None:
    """A paragraph naming a module or a function fails; one naming JSON keys and spec words passes."""
    names, allowed = python_names(), schema_keys() | protocol_words() | SPEC_WORDS
    assert ["sniff_rules or a .py file", "sniff_rules.position.problems(state)"] == python_names_in(
        "`sniff_rules.position.problems(state)` returns every reason", names, allowed
    )
    assert ["state_from_json"] == python_names_in("read by `state_from_json`", names, allowed)
    assert [] == python_names_in("the keys `to_move` and `hands`, and `below(n)`", names, allowed)


def test_parts_marked_as_not_binding_are_skipped() -> None:
    """A section headed This implementation and a paragraph marked In this library are not normative."""
    text = "Rule.\n\n## This implementation\n\n`state_from_json`\n\n## Next\n\n*In this library*: `apply`\n\nEnd."
    assert ["Rule.", "End."] == list(normative_paragraphs(text))
