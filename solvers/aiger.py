"""AIGER 1.9 input (ASCII `.aag`, binary `.aig`) as a DimSpec transition system.

AIGER variable v becomes DimSpec variable v (n = M). Latches are state; inputs and AND gates
are auxiliary (`ts.aux`), fresh in every step. The formulas:
  I  latch reset values (0 → ¬l, 1 → l, the latch itself → uninitialised, no clause)
  U  invariant constraints, each a unit clause, with the gate definitions of their cones
  G  the bad-state literal (several: any of them) with the gate definitions of its cone;
     with no bad-state property, the single output (HWMCC's older convention)
  T  next latch l' ↔ its function, with the gate definitions of the functions' cones
     (gates in the lower half: they are evaluated in the current step)
Justice and fairness (liveness) properties are refused.

Parsed by hand: the format is a header, lists of literals and a varint-coded gate section; no
maintained Python package reads AIGER 1.9 with bad/constraint sections.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from solvers.errors import InputFileError
from solvers.transys import Clause, TransitionSystem


class AigerError(InputFileError):
    """An AIGER file that cannot be used; `str()` is one line `file:line: cause`."""


@dataclass
class Aig:
    """The parsed circuit, literals as in AIGER (2v, 2v+1 negated, 0/1 constants)."""

    maxvar: int
    inputs: list[int]
    latches: list[tuple[int, int, int]]  # (literal, next, reset literal)
    outputs: list[int]
    bad: list[int]
    constraints: list[int]
    justice: int
    fairness: int
    ands: dict[int, tuple[int, int]]  # gate variable → its two input literals
    # Symbol table ("i0" → name, "l3" → name, …) and comment section, as written.
    symbols: dict[str, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)


class _Lines:
    """Line reader over bytes that remembers line numbers (ASCII part of both formats)."""

    def __init__(self, data: bytes, name: str) -> None:
        self.data = data
        self.pos = 0
        self.line = 0
        self.name = name

    def next_line(self, what: str) -> str:
        if self.pos >= len(self.data):
            raise AigerError(self.name, self.line + 1, f"file ends before {what}")
        end = self.data.find(b"\n", self.pos)
        if end < 0:
            end = len(self.data)
        raw = self.data[self.pos : end]
        self.pos = end + 1
        self.line += 1
        try:
            return raw.decode("ascii").strip()
        except UnicodeDecodeError:
            raise AigerError(self.name, self.line, f"binary data where {what} was expected") from None

    def ints(self, what: str, count: tuple[int, ...]) -> list[int]:
        text = self.next_line(what)
        tokens = text.split()
        if len(tokens) not in count or not all(t.isdigit() for t in tokens):
            expected = " or ".join(str(c) for c in count)
            raise AigerError(self.name, self.line, f"{what}: expected {expected} unsigned integers, got {text[:40]!r}")
        return [int(t) for t in tokens]


def parse_aiger(data: bytes, name: str = "<input>") -> Aig:
    """Parse ASCII or binary AIGER 1.9 bytes."""
    if not data.strip():
        raise AigerError(name, 1, "empty file")
    lines = _Lines(data, name)
    header = lines.next_line("the header").split()
    if not header or header[0] not in ("aag", "aig"):
        raise AigerError(name, 1, "not an AIGER file (header must start with 'aag' or 'aig')")
    binary = header[0] == "aig"
    numbers = header[1:]
    if len(numbers) < 5 or len(numbers) > 9 or not all(t.isdigit() for t in numbers):
        raise AigerError(name, 1, "malformed header (expected 'aag|aig M I L O A [B C J F]')")
    m, i, l, o, a, *rest = (int(t) for t in numbers)
    b, c, j, f = (rest + [0, 0, 0, 0])[:4]
    if m < i + l + a:
        raise AigerError(name, 1, f"header: M = {m} is less than I + L + A = {i + l + a}")

    refs: list[tuple[int, int | None, str]] = []  # (literal used, its line, what uses it)

    def literal(value: int, what: str) -> int:
        if value >> 1 > m:
            raise AigerError(name, lines.line, f"{what} literal {value} beyond M = {m}")
        refs.append((value, lines.line, what))
        return value

    inputs: list[int] = []
    if binary:
        inputs = [2 * (k + 1) for k in range(i)]
    else:
        for _ in range(i):
            (lit,) = lines.ints("input", (1,))
            if lit & 1 or lit < 2:
                raise AigerError(name, lines.line, f"input literal {lit} must be even and ≥ 2")
            inputs.append(literal(lit, "input"))
    latches: list[tuple[int, int, int]] = []
    for k in range(l):
        if binary:
            values = lines.ints("latch", (1, 2))
            lit = 2 * (i + k + 1)
        else:
            values = lines.ints("latch", (2, 3))
            lit = values.pop(0)
            if lit & 1 or lit < 2:
                raise AigerError(name, lines.line, f"latch literal {lit} must be even and ≥ 2")
        nxt = literal(values[0], "next-state")
        reset = values[1] if len(values) > 1 else 0
        if reset not in (0, 1, lit):
            raise AigerError(name, lines.line, f"latch reset {reset} must be 0, 1 or the latch literal {lit}")
        latches.append((literal(lit, "latch"), nxt, reset))
    outputs = [literal(lines.ints("output", (1,))[0], "output") for _ in range(o)]
    bad = [literal(lines.ints("bad-state property", (1,))[0], "bad") for _ in range(b)]
    constraints = [literal(lines.ints("constraint", (1,))[0], "constraint") for _ in range(c)]
    sizes = [lines.ints("justice size", (1,))[0] for _ in range(j)]
    for _ in range(sum(sizes)):
        lines.ints("justice literal", (1,))
    for _ in range(f):
        lines.ints("fairness literal", (1,))

    ands: dict[int, tuple[int, int]] = {}
    gate_line: dict[int, int] = {}
    if binary:
        data_pos = lines.pos
        for k in range(a):
            lhs = 2 * (i + l + k + 1)
            delta0, data_pos = _varint(data, data_pos, name, lines.line)
            delta1, data_pos = _varint(data, data_pos, name, lines.line)
            rhs0 = lhs - delta0
            rhs1 = rhs0 - delta1
            if rhs0 < 0 or rhs1 < 0:
                raise AigerError(name, None, f"AND gate {lhs}: negative input literal (corrupt binary section)")
            ands[lhs >> 1] = (rhs0, rhs1)
        lines.pos = data_pos
    else:
        defined = {lit >> 1 for lit in inputs} | {lit >> 1 for lit, _, _ in latches}
        for _ in range(a):
            lhs, rhs0, rhs1 = lines.ints("AND gate", (3,))
            if lhs & 1 or lhs < 2:
                raise AigerError(name, lines.line, f"AND gate literal {lhs} must be even and ≥ 2")
            literal(lhs, "AND gate")
            if lhs >> 1 in defined or lhs >> 1 in ands:
                raise AigerError(name, lines.line, f"variable {lhs >> 1} defined twice")
            ands[lhs >> 1] = (literal(rhs0, "AND input"), literal(rhs1, "AND input"))
            gate_line[lhs >> 1] = lines.line
    defined = {0} | {lit >> 1 for lit in inputs} | {lit >> 1 for lit, _, _ in latches} | set(ands)
    for value, line, what in refs:
        if value >> 1 not in defined:
            raise AigerError(name, line, f"{what} literal {value}: variable {value >> 1} is never defined")
    cycle = _combinational_cycle(ands)
    if cycle is not None:
        raise AigerError(name, gate_line.get(cycle), f"combinational cycle through AND gate {2 * cycle}")
    symbols, comments = _symbols_and_comments(data[lines.pos :])
    return Aig(m, inputs, latches, outputs, bad, constraints, j, f, ands, symbols, comments)


def _symbols_and_comments(tail: bytes) -> tuple[dict[str, str], list[str]]:
    """The optional symbol table and comment section after the gates; text that is neither
    (or not UTF-8) is ignored, as readers of AIGER do."""
    symbols: dict[str, str] = {}
    text = tail.decode("utf-8", errors="replace").split("\n")
    for k, line in enumerate(text):
        if line == "c":
            comments = text[k + 1 :]
            return symbols, comments[:-1] if comments and not comments[-1] else comments
        match = re.match(r"([ilobcjf])(\d+) (.*)$", line)
        if match:
            symbols[match.group(1) + match.group(2)] = match.group(3)
    return symbols, []


def _combinational_cycle(ands: dict[int, tuple[int, int]]) -> int | None:
    """A gate variable on a cycle of AND gates, or None (iterative DFS: circuits are deep)."""
    state: dict[int, int] = {}  # 1 on the DFS stack, 2 done
    for root in ands:
        if root in state:
            continue
        stack = [(root, iter((ands[root][0] >> 1, ands[root][1] >> 1)))]
        state[root] = 1
        while stack:
            gate, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[gate] = 2
                stack.pop()
            elif child in ands:
                if state.get(child) == 1:
                    return child
                if child not in state:
                    state[child] = 1
                    stack.append((child, iter((ands[child][0] >> 1, ands[child][1] >> 1))))
    return None


def _varint(data: bytes, pos: int, name: str, line: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data):
            raise AigerError(name, None, "file ends inside the binary AND-gate section")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7


def _lit(aiger_literal: int) -> int:
    """AIGER literal of a non-constant → DimSpec literal."""
    v = aiger_literal >> 1
    return -v if aiger_literal & 1 else v


def _cone(aig: Aig, roots: list[int]) -> list[int]:
    """Gate variables the roots depend on (iteratively: deep circuits exceed Python's stack)."""
    seen: set[int] = set()
    stack = [r >> 1 for r in roots]
    while stack:
        v = stack.pop()
        if v in seen or v not in aig.ands:
            continue
        seen.add(v)
        a, b = aig.ands[v]
        stack.extend((a >> 1, b >> 1))
    return sorted(seen)


def _clause(lits: list[int]) -> Clause | None:
    """AIGER literals → a DimSpec clause; None when a constant-true literal satisfies it."""
    out: Clause = []
    for lit in lits:
        if lit == 1:
            return None
        if lit != 0:
            out.append(_lit(lit))
    return out


@dataclass
class _Structure:
    """How the AND gates are written as clauses (`_find_structure`)."""

    # g ↔ (s ? t : e) for g = ¬(s ∧ ¬t) ∧ ¬(¬s ∧ ¬e) whose two inner gates feed g alone: s, t, e.
    select: dict[int, tuple[int, int, int]]
    # Gates whose clauses are left out: the inner gates of multiplexers, and AND gates that feed
    # one AND gate alone, unnegated, which then takes their inputs (an n-input AND).
    absorbed: set[int]
    merged: set[int]


def _find_structure(aig: Aig) -> _Structure:
    """Multiplexers (XOR is one with e = ¬t) and AND trees of the AIG. Written directly they
    need fewer variables and clauses: a MUX 4 clauses over 4 variables instead of 9 over 6. A
    SAT call on d.aig's transition relation took a third less time with the MUXes alone
    (52 µs against 83 µs, measured during development); ABC's pdr gets the same effect from its
    cut-based CNF."""
    fanout: dict[int, int] = {}
    for a, b in aig.ands.values():
        for x in (a, b):
            fanout[x >> 1] = fanout.get(x >> 1, 0) + 1
    roots = [nxt for _, nxt, _ in aig.latches] + aig.outputs + aig.bad + aig.constraints
    for r in roots:
        fanout[r >> 1] = fanout.get(r >> 1, 0) + 2  # a root is never absorbed
    select: dict[int, tuple[int, int, int]] = {}
    absorbed: set[int] = set()
    for g, (a, b) in aig.ands.items():
        if not (a & 1 and b & 1) or g in absorbed:
            continue
        x, y = a >> 1, b >> 1
        if x == y or x not in aig.ands or y not in aig.ands or fanout.get(x) != 1 or fanout.get(y) != 1:
            continue
        if x in absorbed or y in absorbed or x in select or y in select:
            continue
        (x0, x1), (y0, y1) = aig.ands[x], aig.ands[y]
        for s_lit, t in ((x0, x1), (x1, x0)):
            if s_lit < 2 or s_lit ^ 1 not in (y0, y1):
                continue
            e = y1 if y0 == s_lit ^ 1 else y0
            if t < 2 or e < 2 or t >> 1 == s_lit >> 1 or e >> 1 == s_lit >> 1:
                continue
            select[g] = (s_lit, t ^ 1, e ^ 1)
            absorbed.update((x, y))
            break
    merged: set[int] = set()
    for g, (a, b) in aig.ands.items():
        if g in absorbed or g in select:
            continue
        for x in (a, b):
            h = x >> 1
            if not x & 1 and h in aig.ands and fanout.get(h) == 1 and h not in select and h not in absorbed:
                merged.add(h)
    return _Structure(select, absorbed | merged, merged)


def _and_inputs(aig: Aig, g: int, merged: set[int]) -> list[int]:
    """The inputs of AND gate g with the merged gates below it expanded, without repeats."""
    out: list[int] = []
    stack = list(aig.ands[g])
    while stack:
        x = stack.pop()
        if not x & 1 and x >> 1 in merged:
            stack.extend(aig.ands[x >> 1])
        elif x not in out:
            out.append(x)
    return out


def _gate_clauses(aig: Aig, gates: list[int], structure: _Structure) -> list[Clause]:
    """Tseitin clauses in AIGER literals (2g is g, 2g+1 is ¬g), constants simplified away:
    g ↔ a_1 ∧ … ∧ a_m as (¬g ∨ a_i) and (g ∨ ¬a_1 ∨ … ∨ ¬a_m); g ↔ (s ? t : e) as
    (¬s ∨ ¬t ∨ g), (¬s ∨ t ∨ ¬g), (s ∨ ¬e ∨ g), (s ∨ e ∨ ¬g)."""
    out: list[Clause] = []
    for g in gates:
        if g in structure.absorbed:
            continue
        mux = structure.select.get(g)
        if mux is not None:
            sel, then, other = mux
            rows = [[sel ^ 1, then ^ 1, 2 * g], [sel ^ 1, then, 2 * g + 1], [sel, other ^ 1, 2 * g], [sel, other, 2 * g + 1]]
        else:
            inputs = _and_inputs(aig, g, structure.merged)
            rows = [[2 * g + 1, x] for x in inputs] + [[2 * g] + [x ^ 1 for x in inputs]]
        for lits in rows:
            clause = _clause(lits)
            if clause is not None:
                out.append(clause)
    return out


def aig_to_transition_system(aig: Aig, name: str = "<input>") -> TransitionSystem:
    if aig.justice or aig.fairness:
        raise AigerError(
            name, 1, f"liveness properties (justice {aig.justice}, fairness {aig.fairness}) are not supported"
        )
    if aig.bad:
        bad = aig.bad
    elif len(aig.outputs) == 1:
        bad = aig.outputs
    elif not aig.outputs:
        raise AigerError(name, 1, "no property: neither a bad-state literal nor an output")
    else:
        raise AigerError(
            name, 1, f"{len(aig.outputs)} outputs and no bad-state property: which output is the property?"
        )
    n = aig.maxvar
    latch_vars = {lit >> 1 for lit, _, _ in aig.latches}

    init: list[Clause] = []
    for lit, _, reset in aig.latches:
        if reset == 0:
            init.append([-(lit >> 1)])
        elif reset == 1:
            init.append([lit >> 1])

    structure = _find_structure(aig)
    universal = _gate_clauses(aig, _cone(aig, aig.constraints), structure)
    for c in aig.constraints:
        clause = _clause([c])
        if clause is not None:
            universal.append(clause)

    goal = _gate_clauses(aig, _cone(aig, bad), structure)
    clause = _clause(bad)
    if clause is not None:
        goal.append(clause)
    else:
        goal = []  # a constant-true bad literal: every state is bad

    trans = _gate_clauses(aig, _cone(aig, [nxt for _, nxt, _ in aig.latches]), structure)
    for lit, nxt, _ in aig.latches:
        nxt_var = n + (lit >> 1)
        if nxt == 0:
            trans.append([-nxt_var])
        elif nxt == 1:
            trans.append([nxt_var])
        else:
            f = _lit(nxt)
            trans.append([-nxt_var, f])
            trans.append([nxt_var, -f])

    comments = [
        f"from AIGER {Path(name).name}: M {aig.maxvar} I {len(aig.inputs)} L {len(aig.latches)} "
        f"A {len(aig.ands)} B {len(aig.bad)} C {len(aig.constraints)}; latches are state"
    ] + aig.comments  # a producer's notes (llumc's symbol map, in AIGER variables) ride along
    return TransitionSystem(
        n=n,
        init=init,
        universal=universal,
        goal=goal,
        trans=trans,
        aux=frozenset(v for v in range(1, n + 1) if v not in latch_vars),
        comments=comments,
    )


def read_aiger(path: str | Path) -> TransitionSystem:
    """Read an .aag/.aig file as a TransitionSystem; AigerError (one line) if unusable."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise AigerError(name, None, f"cannot read file: {err.strerror or err}") from None
    return aig_to_transition_system(parse_aiger(data, name), name)


@dataclass
class AigerSymbols:
    """The symbol table of an AIGER file: one name per input, latch, bad and constraint literal
    (empty: none), and the comment section's lines."""

    inputs: list[str]
    latches: list[str]
    bad: list[str]
    constraints: list[str]
    comments: list[str]


def write_aiger(aig: Aig, *, binary: bool = True, symbols: AigerSymbols | None = None) -> bytes:
    """AIGER 1.9 bytes of a circuit in the binary format's numbering: inputs are variables
    1..I, latches I+1..I+L, AND gates after them, each gate's inputs below it. Written as is in
    ASCII (`aag`), varint-coded in binary (`aig`). Outputs are written too (after the latches),
    bad-state and constraint literals in the header's B and C sections."""
    i, l = len(aig.inputs), len(aig.latches)
    if aig.inputs != [2 * (k + 1) for k in range(i)]:
        raise ValueError("write_aiger: inputs must be variables 1..I")
    if [lit for lit, _, _ in aig.latches] != [2 * (i + k + 1) for k in range(l)]:
        raise ValueError("write_aiger: latches must be variables I+1..I+L")
    gates = sorted(aig.ands)
    if gates != list(range(i + l + 1, i + l + 1 + len(gates))) or aig.maxvar != i + l + len(gates):
        raise ValueError("write_aiger: AND gates must be variables I+L+1..M")
    header = f"{'aig' if binary else 'aag'} {aig.maxvar} {i} {l} {len(aig.outputs)} {len(gates)}"
    if aig.bad or aig.constraints:
        header += f" {len(aig.bad)} {len(aig.constraints)}"
    lines = [header]
    if not binary:
        lines += [str(lit) for lit in aig.inputs]
    for lit, nxt, reset in aig.latches:
        values = ([] if binary else [str(lit)]) + [str(nxt)] + ([str(reset)] if reset else [])
        lines.append(" ".join(values))
    lines += [str(lit) for lit in aig.outputs + aig.bad + aig.constraints]
    body = bytearray()
    for g in gates:
        a, b = aig.ands[g]
        a, b = max(a, b), min(a, b)
        if a >= 2 * g:
            raise ValueError(f"write_aiger: AND gate {2 * g} has input {a} not below it")
        if binary:
            for delta in (2 * g - a, a - b):
                while delta >= 0x80:
                    body.append(delta & 0x7F | 0x80)
                    delta >>= 7
                body.append(delta)
        else:
            lines.append(f"{2 * g} {a} {b}")
    out = ("\n".join(lines) + "\n").encode("ascii")
    if binary:
        out += bytes(body)
    tail: list[str] = []
    if symbols is not None:
        for tag, names in (("i", symbols.inputs), ("l", symbols.latches), ("b", symbols.bad),
                           ("c", symbols.constraints)):
            tail += [f"{tag}{k} {name}" for k, name in enumerate(names) if name]
        if symbols.comments:
            tail.append("c")
            tail += symbols.comments
    if tail:
        out += ("\n".join(tail) + "\n").encode("utf-8")
    return out

