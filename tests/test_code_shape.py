"""Every function of llumc/ and solvers/ is short enough to read at once: at most 150 lines
from its `def` to its last line, nested functions and classes counted in the function that
holds them (they are read with it)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("llumc", "solvers")
MAX_LINES = 150

def long_functions() -> dict[str, int]:
    """'path: qualified name' -> lines, of every outermost function over MAX_LINES lines
    (methods are named Class.method)."""
    found: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            relative = path.relative_to(ROOT).as_posix()
            _collect(tree, relative, "", found)
    return found


def _collect(node: ast.AST, path: str, prefix: str, found: dict[str, int]) -> None:
    """Measure each function that is not inside another function; look into classes for
    their methods."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = child.end_lineno - child.lineno + 1
            if lines > MAX_LINES:
                found[f"{path}: {prefix}{child.name}"] = lines
        elif isinstance(child, ast.ClassDef):
            _collect(child, path, f"{prefix}{child.name}.", found)
        else:
            _collect(child, path, prefix, found)  # functions under if/try at module level


def test_the_checker_finds_a_long_function(tmp_path, monkeypatch):
    """The measure itself: a 151-line function with a nested def is found, by its outer name."""
    package = tmp_path / "llumc"
    package.mkdir()
    (tmp_path / "solvers").mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(147))
    (package / "long.py").write_text(
        f"class Box:\n    def short(self):\n        return 1\n\n\ndef outer():\n    def inner():\n"
        f"        return 0\n{body}\n    return inner\n"
    )
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    assert long_functions() == {"llumc/long.py: outer": 150 + 1}


def test_no_function_over_150_lines():
    long = long_functions()
    assert not long, f"functions over {MAX_LINES} lines (split them into named steps):\n  " + "\n  ".join(
        f"{name}: {lines} lines" for name, lines in sorted(long.items())
    )
