"""Mutation testing runs its tests in a copy: ``mutants/`` holds the package and what mutmut copies
(``tests/``, ``pyproject.toml``, the ``also_copy`` of ``[tool.mutmut]``), and nothing else of the
repository. Every file of the repository that the selected tests name must be in that copy, or the
mutation run fails before it tests a mutant (specs/mutation.md)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"

# What mutmut 3 copies into mutants/ without being asked (its configuration's also_copy defaults),
# besides source_paths.
MUTMUT_COPIES = ("tests", "test", "setup.cfg", "pyproject.toml", "uv.lock", "poetry.lock", "Pipfile.lock", "pdm.lock")


def _mutmut() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        config: dict[str, Any] = tomllib.load(file)["tool"]["mutmut"]
    return config


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings: prose, not paths."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _joined(node: ast.BinOp) -> str | None:
    """The string literals a chain of ``/`` ends with, as one path: ``root / "specs" / "a.json"`` gives
    ``specs/a.json``."""
    parts: list[str] = []
    current: ast.expr = node
    while isinstance(current, ast.BinOp) and isinstance(current.op, ast.Div):
        if not (isinstance(current.right, ast.Constant) and isinstance(current.right.value, str)):
            break
        parts.insert(0, current.right.value)
        current = current.left
    if isinstance(current, ast.Constant) and isinstance(current.value, str):
        parts.insert(0, current.value)
    return "/".join(parts) if parts else None


def named_paths(source: str) -> set[str]:
    """The paths, relative to the repository's root, of its files and folders that ``source`` names
    in a string literal or a ``/`` chain of them (docstrings aside)."""
    tree = ast.parse(source)
    prose = _docstrings(tree)
    # Only a whole chain names a path: root / "specs" / "a.json" does not name specs/ alone.
    divisions = [node for node in ast.walk(tree) if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)]
    inner = {id(operand) for node in divisions for operand in (node.left, node.right)}
    texts: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose | inner:
            texts.append(node.value)
        elif isinstance(node, ast.BinOp) and id(node) not in inner:
            texts += [text for text in (_joined(node),) if text is not None]
    return {text.removeprefix("./") for text in texts if _in_repository(text)}


def _in_repository(text: str) -> bool:
    """Whether ``text`` is the relative path of a file or folder of the repository."""
    if not text.strip("./") or text.startswith("/"):
        return False
    try:
        return (ROOT / text).exists()
    except (OSError, ValueError):  # a name too long, or holding a NUL: a literal that is no path
        return False


def _local_imports(source: str) -> set[str]:
    """The helper modules of tests/ (support, hostile_documents, ...) that ``source`` imports."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names.add(node.module)
    return {name for name in names if (TESTS / f"{name}.py").is_file()}


def selection_sources() -> dict[str, str]:
    """The selected test modules, conftest.py and every helper module of tests/ they import, by path."""
    pending = [*_mutmut()["pytest_add_cli_args_test_selection"], "tests/conftest.py"]
    sources: dict[str, str] = {}
    while pending:
        path = pending.pop()
        if path not in sources:
            sources[path] = (ROOT / path).read_text(encoding="utf-8")
            pending += [f"tests/{name}.py" for name in _local_imports(sources[path])]
    return sources


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def test_every_file_the_mutation_tests_name_is_copied_into_mutants() -> None:
    """Each repository path a selected test (or a helper it imports) names is under source_paths,
    also_copy or what mutmut copies itself, so it exists in mutants/ when the mutants are tested."""
    config = _mutmut()
    copied = [*config["source_paths"], *config.get("also_copy", []), *MUTMUT_COPIES]
    missing = {
        f"{module}: {path}"
        for module, source in selection_sources().items()
        for path in named_paths(source)
        if not any(_within(path, folder) for folder in copied)
    }
    assert set() == missing


def test_each_also_copy_entry_is_a_folder_or_a_top_level_file() -> None:
    """mutmut copies a listed folder whole but a listed file without making its folders, so a file
    below the top level would fail the run; each entry must also exist."""
    entries = _mutmut().get("also_copy", [])
    assert [] == [entry for entry in entries if not ((ROOT / entry).is_dir() or (ROOT / entry).parent == ROOT)]
    assert [] == [entry for entry in entries if not (ROOT / entry).exists()]


def test_the_selection_is_read_for_the_paths_it_names() -> None:
    """The search finds the path test_rules_12_geometry.py builds with ``/``, a literal path, and no
    docstring's prose, so the check above can fail."""
    assert "specs/vectors/geometry.json" in named_paths(selection_sources()["tests/test_rules_12_geometry.py"])
    source = '"""Reads specs/vectors/geometry.json."""\nA = "specs/rules.md"\nB = Path(x) / "seeds" / "nothing-here"\n'
    assert {"specs/rules.md"} == named_paths(source)
    assert "tests/support.py" in selection_sources()
