"""The input file's text as the compiler reports lines of it: a preprocessed file's `#` line
markers name the original `.c` file's lines, which debug information, replays and native runs
report; witnesses and counterexamples need the file's own lines and text."""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["SourceText"]


class SourceText:
    """The input file's text, and the map from the lines the compiler reports (those of the
    original file, through `#` line markers) to the file's own lines."""

    _MARKER = re.compile(r'^#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"')

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.lines = self.path.read_text(errors="replace").split("\n")
        self.physical: dict[int, int] | None = None
        presumed_file: str | None = None
        presumed_line = 0
        primary: str | None = None
        table: dict[int, int] = {}
        for number, text in enumerate(self.lines, 1):
            marker = self._MARKER.match(text)
            if marker:
                presumed_line, presumed_file = int(marker.group(1)), marker.group(2)
                primary = primary or presumed_file
                continue
            if presumed_file is not None and presumed_file == primary:
                table.setdefault(presumed_line, number)
            presumed_line += 1
        if primary is not None:
            self.physical = table

    def line(self, reported: int | None) -> int | None:
        """The input file's line for a line the compiler reported (None if not in the file)."""
        if reported is None:
            return None
        if self.physical is None:
            return reported if 1 <= reported <= len(self.lines) else None
        return self.physical.get(reported)

    def text(self, line: int) -> str:
        return self.lines[line - 1] if 1 <= line <= len(self.lines) else ""

    def closing_parenthesis(self, line: int, column: int | None, name: str) -> tuple[int, int] | None:
        """(line, column) of the `)` that closes the call of `name` starting at `column` (or the
        first call of `name` on the line), 1-based; the call may span lines."""
        text = self.text(line)
        start = column - 1 if column else text.find(name)
        if start < 0 or not text[start:].startswith(name):
            start = text.find(name)
            if start < 0:
                return None
        depth, row, index = 0, line, start + len(name)
        while row <= len(self.lines):
            chars = self.text(row)
            while index < len(chars):
                char = chars[index]
                if char == "(":
                    depth += 1
                elif char == ")":
                    depth -= 1
                    if depth == 0:
                        return row, index + 1
                index += 1
            row, index = row + 1, 0
        return None

    def invariant_place(self, line: int, column: int | None) -> tuple[str, int | None]:
        """Where a loop head's invariant goes: a loop_invariant at the loop keyword the debug
        location names (or, without a column, the first one on the line); else, when the head's
        location is a statement inside the loop (the front end found no loop metadata, e.g.
        some `while(1)` bodies), a location_invariant at the line's first token, where the
        head's state is the state before that statement."""
        text = self.text(line)
        if column and re.match(r"(while|for|do)\b", text[column - 1:]):
            return "loop_invariant", column
        if not column and self.loop_keyword(line):
            return "loop_invariant", self.loop_keyword(line)
        first = len(text) - len(text.lstrip()) + 1
        return "location_invariant", first if text.strip() else None

    def loop_keyword(self, line: int) -> int | None:
        """Column (1-based) of the first `while`, `for` or `do` on a line, if any."""
        match = re.search(r"\b(while|for|do)\b", self.text(line))
        return match.start() + 1 if match else None

    def main_body(self) -> tuple[int, int] | None:
        """(line, column) of the first character after main's opening brace: where `1` holds."""
        joined = "\n".join(self.lines)
        match = re.search(r"\bmain\s*\([^)]*\)\s*\{\s*", joined)
        if not match:
            return None
        before = joined[:match.end()]
        line = before.count("\n") + 1
        return line, match.end() - (before.rfind("\n") + 1) + 1
