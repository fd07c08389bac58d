"""Read and write DimSpec: four DIMACS-like CNF sections `i`, `u`, `g`, `t` in one file.

The reader accepts what IncPlan and minireachIC3 accept between them (wrong clause counts,
sections in any order, missing sections, comments anywhere) and warns once per kind of
deviation; it refuses what cannot be read with one `DimSpecError` naming file:line and cause.
The writer is strict: leading comments, `c aux` declarations, then i, u, g, t with exact counts.

Hand-written rather than a DIMACS library: no maintained parser knows DimSpec's four headers,
and the error reporting (line numbers, per-kind warnings) is the point of this module.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO

from solvers.errors import InputFileError
from solvers.transys import Clause, TransitionSystem

SECTIONS = ("i", "u", "g", "t")
_SECTION_NAMES = {"i": "initial", "u": "universal", "g": "goal", "t": "transition"}
# Ranges per `c aux` line the writer emits, so that lines stay readable.
_RANGES_PER_LINE = 32

Warn = Callable[[str], None]
_CLAUSE_START = frozenset("-0123456789")


class DimSpecError(InputFileError):
    """A DimSpec file that cannot be read; `str()` is one line `file:line: cause`."""


def _stderr_warning(message: str) -> None:
    print(message, file=sys.stderr)


class _Warner:
    """Reports each kind of deviation once (the first occurrence), so a big file that breaks
    one rule a thousand times yields one line, not a thousand."""

    def __init__(self, name: str, sink: Warn | None) -> None:
        self.name = name
        self.sink = sink
        self.seen: set[str] = set()

    def __call__(self, kind: str, line: int | None, message: str) -> None:
        if self.sink is None or kind in self.seen:
            return
        self.seen.add(kind)
        where = f"{self.name}:{line}" if line is not None else self.name
        self.sink(f"{where}: warning: {message}")


def _format_ranges(variables: Iterable[int]) -> list[str]:
    """[1, 2, 3, 7] -> ['1-3', '7']."""
    out: list[str] = []
    ordered = sorted(variables)
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        out.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return out


def _parse_ranges(tokens: list[str]) -> set[int] | None:
    """['1-3', '7'] -> {1, 2, 3, 7}; None if a token is not a range of positive integers."""
    out: set[int] = set()
    for token in tokens:
        low, sep, high = token.partition("-")
        if not low.isdigit() or (sep and not high.isdigit()):
            return None
        first = int(low)
        last = int(high) if sep else first
        if first < 1 or last < first:
            return None
        out.update(range(first, last + 1))
    return out


def parse_dimspec(text: str, name: str = "<input>", warn: Warn | None = _stderr_warning) -> TransitionSystem:
    """Parse DimSpec text into a TransitionSystem.

    `warn` receives one line per kind of deviation from the format's letter (default: stderr;
    None: silent). Raises DimSpecError for what cannot be read.

    The bulk of a file, a whole clause on one line closed by its only 0, is read here with
    the current section in local variables; `_SectionReader` reads every other line (comments,
    headers, clauses over several lines, errors) and keeps the state both share.
    """
    if not text.strip():
        raise DimSpecError(name, 1, "empty file (no DimSpec sections)")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise DimSpecError(name, line, "binary file (contains NUL bytes), not DimSpec text")
    reader = _SectionReader(name, _Warner(name, warn))
    lines = text.splitlines()
    clause_start = _CLAUSE_START
    current: list[Clause] | None = None  # reader.current, reader.pending and reader.width, as locals
    pending: list[int] = []
    width = 0
    for index, raw in enumerate(lines):
        if current is not None and not pending and raw[:1] in clause_start:
            try:
                ints = list(map(int, raw.split()))
            except ValueError:
                pass  # the general path reports the bad token
            else:
                if ints[-1] == 0 and max(ints) <= width and -min(ints) <= width and ints.count(0) == 1:
                    ints.pop()
                    current.append(ints)
                    continue
        reader.read_line(index, raw)
        current, pending, width = reader.current, reader.pending, reader.width
    return reader.finish()


class _SectionReader:
    """The state of a DimSpec text being read, line by line: the comments and `c aux`
    declarations before the first header, the sections read so far with their header lines
    and declared counts, the section being read (`current`, its `width`) and a clause not yet
    closed by its 0 (`pending`)."""

    def __init__(self, name: str, warner: _Warner) -> None:
        self.name = name
        self.warner = warner
        self.comments: list[str] = []
        self.aux: set[int] | None = None
        self.aux_line = 0
        self.sections: dict[str, list[Clause]] = {}
        self.header_line: dict[str, int] = {}
        self.declared: dict[str, int] = {}  # clause count each header promises
        self.order: list[str] = []
        self.n: int | None = None
        self.n_line = 0
        self.current: list[Clause] | None = None
        self.current_kind = ""
        self.width = 0  # largest variable allowed in the current section
        self.pending: list[int] = []  # literals of a clause not yet closed by 0
        self.pending_line = 0

    def read_line(self, index: int, raw: str) -> None:
        """Line `index` (from 0) of the text, whatever it holds."""
        line = raw.strip()
        if not line:
            return
        first = line[0]
        if first == "c":
            self._comment(index, line)
        elif first == "%":  # SATLIB end marker some DIMACS writers emit
            self.warner("percent", index + 1, "'%' line ignored")
        elif first.isalpha():
            self._header(index, line)
        elif self.current is None:
            raise DimSpecError(self.name, index + 1, "clause before the first section header")
        else:
            self._clauses(index, line)

    def _comment(self, index: int, line: str) -> None:
        """A comment, or a `c aux` declaration, before the first header; warned after it."""
        if self.current is not None or self.sections:
            self.warner("comment", index + 1, "comment after the first section header")
            return
        body = line[1:]
        if body.startswith(" "):
            body = body[1:]
        words = body.split()
        if words and words[0] == "aux":
            ranges = _parse_ranges(words[1:])
            if ranges is None:
                self.warner("aux", index + 1, f"cannot read 'c aux' declaration {body!r}; kept as a comment")
                self.comments.append(body)
            else:
                self.aux = (self.aux or set()) | ranges
                self.aux_line = index + 1
            return
        self.comments.append(body)

    def _header(self, index: int, line: str) -> None:
        """`<kind> cnf <vars> <clauses>`: checked, the previous section closed, the new one
        opened; every section must agree on n (`t` has 2n variables)."""
        name = self.name
        tokens = line.split()
        kind = tokens[0]
        if len(tokens) < 2 or tokens[1] != "cnf":
            raise DimSpecError(name, index + 1, f"not a section header nor a clause: {line[:40]!r}")
        if kind not in SECTIONS:
            raise DimSpecError(name, index + 1, f"unknown section '{kind}' (expected i, u, g or t)")
        if len(tokens) != 4 or not tokens[2].isdigit() or not tokens[3].isdigit():
            raise DimSpecError(
                name, index + 1, f"malformed header {line[:40]!r} (expected '{kind} cnf <vars> <clauses>')"
            )
        if kind in self.sections:
            raise DimSpecError(
                name, index + 1, f"duplicate section '{kind}' (first at line {self.header_line[kind]})"
            )
        self.close_section()
        variables, count = int(tokens[2]), int(tokens[3])
        self._check_n(index, kind, variables)
        self.current = self.sections[kind] = []
        self.current_kind = kind
        self.header_line[kind] = index + 1
        self.declared[kind] = count
        self.order.append(kind)
        self.width = variables

    def _check_n(self, index: int, kind: str, variables: int) -> None:
        """The header's n (half of `t`'s variables) is the first header's; the first sets it."""
        n, n_line = self.n, self.n_line
        if kind == "t":
            if variables % 2:
                known = f" = {2 * n} (n = {n} at line {n_line})" if n is not None else ""
                raise DimSpecError(self.name, index + 1, f"'t' declares {variables} variables, not 2n{known}")
            this_n = variables // 2
        else:
            this_n = variables
        if n is None:
            self.n, self.n_line = this_n, index + 1
        elif this_n != n:
            if kind == "t":
                cause = f"'t' declares {variables} variables, not 2n = {2 * n} (n = {n} at line {n_line})"
            elif "t" in self.sections:
                cause = f"section '{kind}' declares {this_n} variables, but 't' (line {n_line}) has width {2 * n} = 2n for n = {n}"
            else:
                cause = f"section '{kind}' declares {this_n} variables, but line {n_line} declared {n}"
            raise DimSpecError(self.name, index + 1, cause)

    def _clauses(self, index: int, line: str) -> None:
        """A line of literals in the current section: a clause, the rest of one, or several
        (each 0 closes one)."""
        width, current = self.width, self.current
        try:
            ints = list(map(int, line.split()))
        except ValueError:
            bad = next(t for t in line.split() if not _is_int(t))
            raise DimSpecError(self.name, index + 1, f"not an integer: {bad[:30]!r}") from None
        if ints and (max(ints) > width or -min(ints) > width):
            lit = next(x for x in ints if abs(x) > width)
            raise DimSpecError(
                self.name,
                index + 1,
                f"literal {lit} beyond the {width} variables declared for section '{self.current_kind}'",
            )
        # Fast path: the usual one clause per line, closed by its 0.
        if not self.pending and ints and ints[-1] == 0 and 0 not in ints[:-1]:
            ints.pop()
            current.append(ints)
            return
        if not self.pending:
            self.pending_line = index + 1
        for lit in ints:
            if lit == 0:
                current.append(self.pending)
                self.pending = []
                self.pending_line = index + 1
            else:
                if not self.pending:
                    self.pending_line = index + 1
                self.pending.append(lit)

    def close_section(self) -> None:
        """The section being read ends: no clause may be left open; a count that differs
        from its header's is warned."""
        if self.pending:
            raise DimSpecError(
                self.name, self.pending_line,
                f"unterminated clause in section '{self.current_kind}' (missing final 0)"
            )
        kind = self.current_kind
        if self.current is not None and len(self.current) != self.declared[kind]:
            self.warner(
                "count",
                self.header_line[kind],
                f"section '{kind}' declares {self.declared[kind]} clauses but has "
                f"{len(self.current)} (counts are ignored, as IncPlan does)",
            )

    def finish(self) -> TransitionSystem:
        """The system read: missing sections are empty (warned), as are sections out of
        order; `c aux` may not name a variable beyond n."""
        n = self.n
        if n is None:
            raise DimSpecError(self.name, 1, "no section header (expected lines like 'i cnf <vars> <clauses>')")
        self.close_section()
        sections = self.sections
        missing = [k for k in SECTIONS if k not in sections]
        if missing:
            explained = ", ".join(
                f"'{k}'" + (" (every state may follow every state)" if k == "t" else "") for k in missing
            )
            self.warner("missing", None, f"no section {explained}: taken as empty (true)")
        if self.order != [k for k in SECTIONS if k in sections]:
            self.warner("order", None, f"sections in order {' '.join(self.order)} instead of i u g t")
        aux = self.aux
        if aux is not None and aux and max(aux) > n:
            raise DimSpecError(self.name, self.aux_line, f"'c aux' declares variable {max(aux)} beyond n = {n}")
        return TransitionSystem(
            n=n,
            init=sections.get("i", []),
            universal=sections.get("u", []),
            goal=sections.get("g", []),
            trans=sections.get("t", []),
            aux=frozenset(aux) if aux is not None else None,
            comments=self.comments,
        )


def _is_int(token: str) -> bool:
    try:
        int(token)
    except ValueError:
        return False
    return True


def read_dimspec(path: str | Path, warn: Warn | None = _stderr_warning) -> TransitionSystem:
    """Read a DimSpec file; DimSpecError (file:line: cause) for anything unreadable."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise DimSpecError(name, None, f"cannot read file: {err.strerror or err}") from None
    if not data.strip():
        raise DimSpecError(name, 1, "empty file (no DimSpec sections)")
    if b"\x00" in data[:65536]:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise DimSpecError(name, line, "binary file (contains NUL bytes), not DimSpec text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise DimSpecError(name, line, "binary or non-UTF-8 content, not DimSpec text") from None
    return parse_dimspec(text, name=name, warn=warn)


def _check_clauses(kind: str, clauses: list[Clause], width: int) -> None:
    for clause in clauses:
        for lit in clause:
            if lit == 0 or abs(lit) > width:
                raise ValueError(f"section '{kind}': literal {lit} outside ±1..{width} in clause {clause}")


def format_dimspec(ts: TransitionSystem) -> str:
    """Strict DimSpec text: comments, `c aux` ranges, then i, u, g, t with exact counts."""
    n = ts.n
    out: list[str] = []
    for comment in ts.comments:
        if len(comment.splitlines()) > 1 or comment.rstrip("\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029") != comment:
            raise ValueError(f"comment spans lines: {comment!r}")
        if comment.split()[:1] == ["aux"]:
            raise ValueError(f"comment {comment!r} would read back as an aux declaration")
        out.append(f"c {comment}" if comment else "c")
    if ts.aux is not None:
        if ts.aux and (min(ts.aux) < 1 or max(ts.aux) > n):
            raise ValueError(f"aux variables outside 1..{n}")
        ranges = _format_ranges(ts.aux)
        if not ranges:
            out.append("c aux")
        for start in range(0, len(ranges), _RANGES_PER_LINE):
            out.append("c aux " + " ".join(ranges[start : start + _RANGES_PER_LINE]))
    for kind, clauses, width in (
        ("i", ts.init, n),
        ("u", ts.universal, n),
        ("g", ts.goal, n),
        ("t", ts.trans, 2 * n),
    ):
        _check_clauses(kind, clauses, width)
        out.append(f"{kind} cnf {width} {len(clauses)}")
        out.extend(" ".join(map(str, clause)) + " 0" if clause else "0" for clause in clauses)
    out.append("")
    return "\n".join(out)


def write_dimspec(ts: TransitionSystem, stream: IO[str]) -> None:
    """Write `ts` as strict DimSpec to a text stream."""
    stream.write(format_dimspec(ts))
