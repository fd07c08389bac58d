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
    """
    warner = _Warner(name, warn)
    if not text.strip():
        raise DimSpecError(name, 1, "empty file (no DimSpec sections)")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise DimSpecError(name, line, "binary file (contains NUL bytes), not DimSpec text")

    comments: list[str] = []
    aux: set[int] | None = None
    aux_line = 0
    sections: dict[str, list[Clause]] = {}
    header_line: dict[str, int] = {}
    declared: dict[str, int] = {}  # clause count each header promises
    n: int | None = None
    n_line = 0
    current: list[Clause] | None = None
    current_kind = ""
    width = 0  # largest variable allowed in the current section
    pending: list[int] = []  # literals of a clause not yet closed by 0
    pending_line = 0
    order: list[str] = []

    def close_section(lineno: int) -> None:
        if pending:
            raise DimSpecError(
                name, pending_line, f"unterminated clause in section '{current_kind}' (missing final 0)"
            )
        if current is not None and len(current) != declared[current_kind]:
            warner(
                "count",
                header_line[current_kind],
                f"section '{current_kind}' declares {declared[current_kind]} clauses but has "
                f"{len(current)} (counts are ignored, as IncPlan does)",
            )

    lines = text.splitlines()
    clause_start = _CLAUSE_START
    for index, raw in enumerate(lines):
        # Fast path for the bulk of a file: a whole clause on one line, closed by its only 0.
        if current is not None and not pending and raw[:1] in clause_start:
            try:
                ints = list(map(int, raw.split()))
            except ValueError:
                pass  # the general path below reports the bad token
            else:
                if ints[-1] == 0 and max(ints) <= width and -min(ints) <= width and ints.count(0) == 1:
                    ints.pop()
                    current.append(ints)
                    continue
        line = raw.strip()
        if not line:
            continue
        first = line[0]
        if first == "c":
            if current is None and not sections:
                body = line[1:]
                if body.startswith(" "):
                    body = body[1:]
                words = body.split()
                if words and words[0] == "aux":
                    ranges = _parse_ranges(words[1:])
                    if ranges is None:
                        warner("aux", index + 1, f"cannot read 'c aux' declaration {body!r}; kept as a comment")
                        comments.append(body)
                    else:
                        aux = (aux or set()) | ranges
                        aux_line = index + 1
                    continue
                comments.append(body)
            else:
                warner("comment", index + 1, "comment after the first section header")
            continue
        if first == "%":  # SATLIB end marker some DIMACS writers emit
            warner("percent", index + 1, "'%' line ignored")
            continue
        if first.isalpha():
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
            if kind in sections:
                raise DimSpecError(
                    name, index + 1, f"duplicate section '{kind}' (first at line {header_line[kind]})"
                )
            close_section(index + 1)
            variables, count = int(tokens[2]), int(tokens[3])
            if kind == "t":
                if variables % 2:
                    known = f" = {2 * n} (n = {n} at line {n_line})" if n is not None else ""
                    raise DimSpecError(name, index + 1, f"'t' declares {variables} variables, not 2n{known}")
                this_n = variables // 2
            else:
                this_n = variables
            if n is None:
                n, n_line = this_n, index + 1
            elif this_n != n:
                if kind == "t":
                    cause = f"'t' declares {variables} variables, not 2n = {2 * n} (n = {n} at line {n_line})"
                elif "t" in sections:
                    cause = f"section '{kind}' declares {this_n} variables, but 't' (line {n_line}) has width {2 * n} = 2n for n = {n}"
                else:
                    cause = f"section '{kind}' declares {this_n} variables, but line {n_line} declared {n}"
                raise DimSpecError(name, index + 1, cause)
            current = sections[kind] = []
            current_kind = kind
            header_line[kind] = index + 1
            declared[kind] = count
            order.append(kind)
            width = variables
            continue
        if current is None:
            raise DimSpecError(name, index + 1, "clause before the first section header")
        try:
            ints = list(map(int, line.split()))
        except ValueError:
            bad = next(t for t in line.split() if not _is_int(t))
            raise DimSpecError(name, index + 1, f"not an integer: {bad[:30]!r}") from None
        if ints and (max(ints) > width or -min(ints) > width):
            lit = next(x for x in ints if abs(x) > width)
            raise DimSpecError(
                name,
                index + 1,
                f"literal {lit} beyond the {width} variables declared for section '{current_kind}'",
            )
        # Fast path: the usual one clause per line, closed by its 0.
        if not pending and ints and ints[-1] == 0 and 0 not in ints[:-1]:
            ints.pop()
            current.append(ints)
            continue
        if not pending:
            pending_line = index + 1
        for lit in ints:
            if lit == 0:
                current.append(pending)
                pending = []
                pending_line = index + 1
            else:
                if not pending:
                    pending_line = index + 1
                pending.append(lit)
    if n is None:
        raise DimSpecError(name, 1, "no section header (expected lines like 'i cnf <vars> <clauses>')")
    close_section(len(lines))

    missing = [k for k in SECTIONS if k not in sections]
    if missing:
        explained = ", ".join(
            f"'{k}'" + (" (every state may follow every state)" if k == "t" else "") for k in missing
        )
        warner("missing", None, f"no section {explained}: taken as empty (true)")
    if order != [k for k in SECTIONS if k in sections]:
        warner("order", None, f"sections in order {' '.join(order)} instead of i u g t")
    if aux is not None and aux and max(aux) > n:
        raise DimSpecError(name, aux_line, f"'c aux' declares variable {max(aux)} beyond n = {n}")
    return TransitionSystem(
        n=n,
        init=sections.get("i", []),
        universal=sections.get("u", []),
        goal=sections.get("g", []),
        trans=sections.get("t", []),
        aux=frozenset(aux) if aux is not None else None,
        comments=comments,
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
