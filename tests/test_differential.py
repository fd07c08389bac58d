"""Differential test of `llumc check` against native execution on random small C programs.

Hypothesis writes SV-COMP-style programs: nondet inputs of mixed widths and signedness (char,
unsigned char, short, int, unsigned) confined by `__VERIFIER_assume` to small ranges (a few
hundred input combinations at most), nested `for` loops with constant or input bounds, guarded
`while` loops, break/continue, if/else, assignments with + - * & | ^, comparisons, casts between
widths, and one or two `__VERIFIER_assert`s. No undefined behaviour: every variable starts
initialised, no division, no shift, and signed overflow wraps (-fwrapv natively, as llumc assumes
for unreach-call).

Ground truth is exact: the program is compiled once natively with tests/nondet_driver.c and run
on every input combination (plus one value beyond each end of each range, which the assume must
reject): FALSE iff some run reaches the error. To make the assertions tight, their constants are
chosen first from a probe build in which each assertion only reports the value of its left side
(`E <= max`, `E <= max - 1`, `E != a value E never takes`, `E != its rarest value`, ...); the
verdict itself comes only from the final program's own native runs.

llumc must never contradict the truth: TRUE on a program with a failing run, or FALSE on one
without, fails the test (FALSE must also replay in the native driver, and the loop invariants a
TRUE result names must hold, read as C, at their loop heads in every native run). UNKNOWN is
allowed and counted. LLUMC_DIFF_EXAMPLES sets the number of programs (default 14: under a minute);
LLUMC_DIFF_TIMEOUT the time per check (default 5 s); LLUMC_DIFF_KEEP a directory that receives
every program with its verdicts.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llumc.check.portfolio import check_program
from test_loop_programs import build_native, invariant_violations, run_native_probes

# llumc raises the recursion limit while hypothesis runs the test; hypothesis warns about it
pytestmark = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")

EXAMPLES = int(os.environ.get("LLUMC_DIFF_EXAMPLES", "14"))
TIMEOUT = float(os.environ.get("LLUMC_DIFF_TIMEOUT", "5"))
KEEP = os.environ.get("LLUMC_DIFF_KEEP")

# C type -> (min, max, __VERIFIER_nondet_ suffix)
TYPES = {
    "char": (-128, 127, "char"),
    "unsigned char": (0, 255, "uchar"),
    "short": (-32768, 32767, "short"),
    "int": (-(2**31), 2**31 - 1, "int"),
    "unsigned": (0, 2**32 - 1, "uint"),
}
LOCAL_TYPES = [*TYPES, "unsigned short"]
CASTS = ["char", "unsigned char", "short", "unsigned short", "int", "unsigned"]
CONSTANTS = [0, 1, 2, 3, 5, 7, 10, 100, 127, 128, 255, 256, 1000, 32767, 32768, 65535, 65536,
             2147483647, -1, -2, -3, -7, -128, -129, -32768]
MAX_COMBINATIONS = 300
SMALL = (-3, 8)  # the range of an input that may bound a loop


# ----------------------------------------------------------------------------- programs


@dataclass
class Input:
    name: str
    type: str
    lo: int
    hi: int

    def values(self) -> list[int]:
        """The assumed range and one value beyond each end (when the type has it)."""
        tmin, tmax, _ = TYPES[self.type]
        return list(range(max(tmin, self.lo - 1), min(tmax, self.hi + 1) + 1))

    def accepts(self, value: int) -> bool:
        """Whether the assume lets `value` through."""
        return self.lo <= value <= self.hi

    def declaration(self) -> list[str]:
        """The lines of main that read the input and confine it."""
        return [f"  {self.type} {self.name} = __VERIFIER_nondet_{TYPES[self.type][2]}();",
                f"  __VERIFIER_assume({self.name} >= {self.lo} && {self.name} <= {self.hi});"]


@dataclass
class Program:
    inputs: list[Input]
    locals: list[tuple[str, str, str]]  # name, type, initial expression
    counters: list[str]
    body: list[str]  # lines, with "@ASSERT<j>@" in place of each assertion
    asserts: list[tuple[str, str]]  # left side, comparison
    style: str  # how the assertion fails: __VERIFIER_error or reach_error
    m32: bool
    modes: list[str] = field(default_factory=list)
    constants: list[int] = field(default_factory=list)
    prelude: list[str] = field(default_factory=list)  # globals and functions before main

    def fill(self, line: str, probe: bool) -> str:
        """The line with its assertion tags replaced: probes of the left sides, or the assertions."""
        for j, (left, op) in enumerate(self.asserts):
            tag = f"@ASSERT{j}@"
            if tag in line:
                text = (f"llumc_probe({j}, (long long)({left}));" if probe
                        else f"__VERIFIER_assert(({left}) {op} ({self.constants[j]}));")
                line = line.replace(tag, text)
        return line

    def render(self, probe: bool = False) -> str:
        lines = self.declarations(probe)
        lines += [self.fill(line, probe) for line in self.prelude]
        lines.append("int main(void) {")
        for inp in self.inputs:
            lines += inp.declaration()
        for name, type_, init in self.locals:
            lines.append(f"  {type_} {name} = {init};")
        for counter in self.counters:
            lines.append(f"  int {counter} = 0;")
        lines += [self.fill(line, probe) for line in self.body]
        lines += ["  return 0;", "}"]
        return "\n".join(lines) + "\n"

    def declarations(self, probe: bool) -> list[str]:
        """The lines before main: the nondet functions, the assertion's, the probe's."""
        lines = [
            "extern char __VERIFIER_nondet_char(void);",
            "extern unsigned char __VERIFIER_nondet_uchar(void);",
            "extern short __VERIFIER_nondet_short(void);",
            "extern int __VERIFIER_nondet_int(void);",
            "extern unsigned int __VERIFIER_nondet_uint(void);",
            "extern void __VERIFIER_assume(int);",
        ]
        if self.style == "reach_error":
            lines += [
                "extern void abort(void);",
                "extern void __assert_fail(const char *, const char *, unsigned int, const char *)"
                " __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));",
                'void reach_error() { __assert_fail("0", "diff.c", 3, "reach_error"); }',
                "void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } return; }",
            ]
        else:
            lines += ["extern void __VERIFIER_error(void);",
                      "void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }"]
        if probe:
            lines.append("void llumc_probe(int, long long);")
        return lines

    def vectors(self) -> list[list[int]]:
        return [list(v) for v in product(*(inp.values() for inp in self.inputs))]

    def choose_constants(self, seen: list[Counter], data) -> None:
        """Each assertion's comparison and constant, from the values `seen[j]` its left side
        took in the probe build, in a mode drawn from `data`."""
        self.modes = [data.draw(st.sampled_from(MODES)) for _ in self.asserts]
        chosen = [choose_constant(op, mode, seen[j]) for j, ((_, op), mode)
                  in enumerate(zip(self.asserts, self.modes))]
        self.asserts = [(left, op) for (left, _), (op, _) in zip(self.asserts, chosen)]
        self.constants = [constant for _, constant in chosen]

    def valid(self, vector: list[int]) -> bool:
        return all(inp.accepts(v) for inp, v in zip(self.inputs, vector))


@st.composite
def inputs(draw) -> list[Input]:
    """One to three inputs; at most MAX_COMBINATIONS vectors, the values beyond the ends included."""
    types = draw(st.lists(st.sampled_from(list(TYPES)), min_size=1, max_size=3))
    widths = [draw(st.integers(1, 8)) for _ in types]
    while _combinations(widths) > MAX_COMBINATIONS:
        widths[widths.index(max(widths))] -= 1
    result: list[Input] = []
    for k, (type_, width) in enumerate(zip(types, widths)):
        tmin, tmax, _ = TYPES[type_]
        if draw(st.booleans()):  # small: may bound a loop
            lo = draw(st.integers(max(tmin, SMALL[0]), SMALL[1] - width + 1))
        else:
            anchor = draw(st.sampled_from(["min", "max", "zero", "any"]))
            if anchor == "min":
                lo = tmin
            elif anchor == "max":
                lo = tmax - width + 1
            elif anchor == "zero":
                lo = max(tmin, draw(st.integers(-width, 0)))
            else:
                lo = draw(st.integers(tmin, tmax - width + 1))
        result.append(Input(f"in{k}", type_, lo, lo + width - 1))
    return result


def _combinations(widths: list[int]) -> int:
    total = 1
    for width in widths:
        total *= width + 2
    return total


class Builder:
    """Statements and expressions over the program's variables (all declared at the top)."""

    def __init__(self, draw, program_inputs: list[Input]):
        self.draw = draw
        self.inputs = program_inputs
        self.small = [inp.name for inp in program_inputs if SMALL[0] <= inp.lo and inp.hi <= SMALL[1]]
        self.locals: list[tuple[str, str, str]] = []
        self.counters: list[str] = []
        self.asserts: list[tuple[str, str]] = []
        self.loops = 0

    def readable(self) -> list[str]:
        return [inp.name for inp in self.inputs] + [name for name, _, _ in self.locals] + self.counters

    def atom(self) -> str:
        d = self.draw
        if d(st.integers(0, 3)) == 0:
            return str(d(st.one_of(st.sampled_from(CONSTANTS), st.integers(-10, 300))))
        return d(st.sampled_from(self.readable()))

    def expr(self, depth: int = 2) -> str:
        d = self.draw
        if depth <= 0 or d(st.integers(0, 2)) == 0:
            return self.atom()
        kind = d(st.sampled_from(["arith", "arith", "arith", "compare", "cast", "cast", "bits", "unary", "logic"]))
        if kind == "arith":
            op = d(st.sampled_from(["+", "-", "*"]))
            return f"({self.expr(depth - 1)} {op} {self.expr(depth - 1)})"
        if kind == "compare":
            op = d(st.sampled_from(["<", "<=", "==", "!=", ">", ">="]))
            return f"({self.expr(depth - 1)} {op} {self.expr(depth - 1)})"
        if kind == "cast":
            return f"(({d(st.sampled_from(CASTS))})({self.expr(depth - 1)}))"
        if kind == "bits":
            op = d(st.sampled_from(["&", "|", "^"]))
            return f"({self.expr(depth - 1)} {op} {self.expr(depth - 1)})"
        if kind == "unary":
            return f"({d(st.sampled_from(['-', '~', '!']))}({self.expr(depth - 1)}))"
        op = d(st.sampled_from(["&&", "||"]))
        return f"({self.expr(depth - 1)} {op} {self.expr(depth - 1)})"

    def condition(self) -> str:
        d = self.draw
        op = d(st.sampled_from(["<", "<=", "==", "!=", ">", ">="]))
        return f"{self.expr(1)} {op} {self.expr(1)}"

    def assertion(self) -> str:
        j = len(self.asserts)
        d = self.draw
        left = d(st.sampled_from(self.readable()))  # a variable in it: a constant checks nothing
        shape = d(st.sampled_from(["var", "arith", "cast", "any"]))
        if shape == "arith":
            left = f"({left} {d(st.sampled_from(['+', '-', '*']))} {self.expr(1)})"
        elif shape == "cast":
            left = f"(({d(st.sampled_from(CASTS))})({left}))"
        elif shape == "any":
            left = f"({left} + {self.expr(2)})"
        op = self.draw(st.sampled_from(["<=", ">=", "!=", "=="]))
        self.asserts.append((left, op))
        return f"@ASSERT{j}@"

    def extra_kinds(self, depth: int, in_loop: bool) -> list[str]:
        """Statement kinds a subclass adds (calls, in tests/test_differential_procedures.py)."""
        return []

    def extra_statement(self, kind: str, pad: str) -> list[str]:
        raise NotImplementedError(kind)

    def block(self, indent: int, depth: int, in_loop: bool) -> list[str]:
        d = self.draw
        pad = "  " * indent
        lines: list[str] = []
        for _ in range(d(st.integers(1, 3))):
            kinds = ["assign", "assign", "assign", "update", "if"]
            if depth < 2 and self.loops < 3:
                kinds += ["for", "for", "while"]
            if in_loop:
                kinds += ["jump"]
            if len(self.asserts) < 2:
                kinds += ["assert"]
            extra = self.extra_kinds(depth, in_loop)
            kind = d(st.sampled_from(kinds + extra))
            if kind in extra:
                lines += self.extra_statement(kind, pad)
            elif kind == "assign" and self.locals:
                name = d(st.sampled_from([name for name, _, _ in self.locals]))
                lines.append(f"{pad}{name} = {self.expr()};")
            elif kind == "update" and self.locals:
                name = d(st.sampled_from([name for name, _, _ in self.locals]))
                op = d(st.sampled_from(["+=", "-=", "*=", "++", "--"]))
                lines.append(f"{pad}{name}{op};" if op in ("++", "--") else f"{pad}{name} {op} {self.expr(1)};")
            elif kind == "if":
                lines.append(f"{pad}if ({self.condition()}) {{")
                lines += self.block(indent + 1, depth + 1, in_loop)
                if d(st.booleans()):
                    lines.append(f"{pad}}} else {{")
                    lines += self.block(indent + 1, depth + 1, in_loop)
                lines.append(f"{pad}}}")
            elif kind == "for":
                counter = f"i{len(self.counters)}"
                self.counters.append(counter)
                self.loops += 1
                bound = d(st.one_of(st.integers(0, 6).map(str), st.sampled_from(self.small or ["3"])))
                lines.append(f"{pad}for ({counter} = 0; {counter} < {bound}; {counter}++) {{")
                lines += self.block(indent + 1, depth + 1, True)
                lines.append(f"{pad}}}")
            elif kind == "while":
                guard = f"g{len(self.counters)}"
                self.counters.append(guard)
                self.loops += 1
                limit = d(st.integers(1, 6))
                # the guard counts first, so `continue` cannot skip it
                lines.append(f"{pad}{guard} = 0;")
                lines.append(f"{pad}while ({guard} < {limit} && {self.condition()}) {{")
                lines.append(f"{pad}  {guard}++;")
                lines += self.block(indent + 1, depth + 1, True)
                lines.append(f"{pad}}}")
            elif kind == "jump":
                lines.append(f"{pad}if ({self.condition()}) {d(st.sampled_from(['break', 'continue']))};")
            elif kind == "assert":
                lines.append(f"{pad}{self.assertion()}")
            else:  # assign/update without locals
                lines.append(f"{pad}{self.assertion()}" if len(self.asserts) < 2 else f"{pad};")
        return lines


@st.composite
def programs(draw) -> Program:
    program_inputs = draw(inputs())
    builder = Builder(draw, program_inputs)
    for k in range(draw(st.integers(1, 3))):
        type_ = draw(st.sampled_from(LOCAL_TYPES))
        builder.locals.append((f"v{k}", type_, builder.expr(1)))
    body = builder.block(1, 0, False)
    if not builder.asserts or draw(st.booleans()) and len(builder.asserts) < 2:
        body.append(f"  {builder.assertion()}")
    return Program(program_inputs, builder.locals, builder.counters, body, builder.asserts,
                   draw(st.sampled_from(["__VERIFIER_error", "reach_error"])), draw(st.booleans()))


# ----------------------------------------------------------------------------- constants, truth


MODES = ["le-max", "le-max-1", "ge-min", "ge-min+1", "ne-absent", "ne-rare", "eq"]


def choose_constant(op: str, mode: str, seen: Counter) -> tuple[str, int]:
    """A comparison and constant for an assertion whose left side took the values `seen` (in
    the probe build): the modes aim at assertions that hold tightly or fail on few runs."""
    if not seen:
        return op, 0
    low, high = min(seen), max(seen)
    if mode == "le-max":
        return "<=", high
    if mode == "le-max-1":
        return "<=", high - 1
    if mode == "ge-min":
        return ">=", low
    if mode == "ge-min+1":
        return ">=", low + 1
    if mode == "ne-absent":
        return "!=", high + 1
    if mode == "ne-rare":
        return "!=", min(seen, key=lambda v: (seen[v], v))
    return "==", max(seen, key=lambda v: (seen[v], v))


@dataclass
class Truth:
    verdict: str  # "true" | "false"
    witness: list[int] | None  # an input vector reaching the error
    runs: int  # valid runs


def native_truth(program: Program, binary: Path) -> Truth:
    vectors = program.vectors()
    results = run_native_probes(binary, vectors)
    witness, runs = None, 0
    for vector, (outcome, used, _) in zip(vectors, results):
        if not program.valid(vector):
            assert outcome == "assume", (vector, outcome)
            continue
        runs += 1
        assert outcome in ("ok", "error") and used == len(vector), (vector, outcome, used)
        if outcome == "error" and witness is None:
            witness = vector
    return Truth("false" if witness else "true", witness, runs)


# ----------------------------------------------------------------------------- the test


def check_against_native(program: Program, data, work: Path, counts: Counter, keep: Path | None,
                         **check) -> None:
    """One program: assertion constants from a probe build, the truth from native runs on every
    input, then `llumc check` (with the options `check`), which must not contradict it (FALSE
    replayed, TRUE's invariants true natively). Counts "truth/verdict" pairs in `counts`; `keep`
    receives the program."""
    # probe build: the values each assertion's left side takes, over all valid runs
    probe_source = work / "probe.c"
    probe_source.write_text(program.render(probe=True))
    build_native(probe_source, work / "probe.bin", m32=program.m32)
    seen = [Counter() for _ in program.asserts]
    for vector, (outcome, _, probes) in zip(program.vectors(), run_native_probes(work / "probe.bin",
                                                                               program.vectors())):
        if program.valid(vector):
            assert outcome == "ok", (vector, outcome)
            for j, value in probes:
                seen[j][value] += 1
    program.choose_constants(seen, data)

    # the program itself: truth by native runs on every input, then llumc
    source = work / "diff.c"
    source.write_text(program.render())
    build_native(source, work / "diff.bin", m32=program.m32)
    truth = native_truth(program, work / "diff.bin")
    if truth.witness:  # alone in a process of its own too: no run depends on the ones before it
        [(outcome, _, _)] = run_native_probes(work / "diff.bin", [truth.witness])
        assert outcome == "error", f"native witness {truth.witness} alone: {outcome}\n{source.read_text()}"
    result = check_program(source, m32=program.m32, **{"timeout": TIMEOUT, **check})
    counts[f"{truth.verdict}/{result.verdict}"] += 1
    if keep:
        number = sum(value for key, value in counts.items() if "/" in key)
        (keep / f"p{number:04d}.c").write_text(source.read_text())
        (keep / f"p{number:04d}.json").write_text(json.dumps({
            "truth": truth.verdict, "witness": truth.witness, "runs": truth.runs, "m32": program.m32,
            "llumc": result.verdict, "engine": result.engine, "seconds": round(result.seconds, 2),
            "reason": result.reason, "confirmation": result.confirmation,
            "invariants": getattr(result, "invariants", None)}))
    context = (f"\n--- program (m32={program.m32}, {truth.runs} runs, witness {truth.witness}) ---\n"
               f"{source.read_text()}--- llumc: {result.verdict} ({result.engine}) "
               f"{result.confirmation or result.reason}")
    assert result.internal_error is None, result.internal_error + context
    if result.verdict != "unknown":
        assert result.verdict == truth.verdict, f"WRONG VERDICT: llumc {result.verdict}, native {truth.verdict}" + context
    if result.verdict == "false":
        trace_inputs = [value.value for step in result.trace for value in step.inputs]
        [(outcome, used, _)] = run_native_probes(work / "diff.bin", [trace_inputs])
        assert (outcome, used) == ("error", len(trace_inputs)), (trace_inputs, outcome) + (context,)
    invariants = getattr(result, "invariants", None)
    if result.verdict == "true" and invariants:
        # each loop invariant llumc claims must hold, read as C, in every native run
        violations, skipped = invariant_violations(source, invariants, program.vectors(), work,
                                                   m32=program.m32)
        counts["invariants checked natively"] += len(invariants)
        counts["invariant conjuncts not checkable"] += len(skipped)
        assert not violations, (f"printed loop invariant false at runtime (input, loop line): "
                                f"{violations[:3]} {invariants}" + context)


def run_differential(strategy: st.SearchStrategy[Program], examples: int, tmp_path: Path, keep: Path | None,
                     label: str, **check) -> Counter:
    """`examples` programs of `strategy`, each checked against native execution; prints and
    returns the counts of native truth/llumc verdict pairs. `check`: options of `check_program`."""
    counts: Counter = Counter()
    if keep:
        keep.mkdir(parents=True, exist_ok=True)

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(program=strategy, data=st.data())
    def one(program: Program, data) -> None:
        check_against_native(program, data, Path(tempfile.mkdtemp(dir=tmp_path)), counts, keep, **check)

    one()
    total = sum(value for key, value in counts.items() if "/" in key)
    summary = ", ".join(f"{key} {value}" for key, value in sorted(counts.items()))
    print(f"\n{label}: {total} programs (native truth/llumc verdict): {summary}")
    assert total > 0
    return counts


def test_llumc_never_contradicts_native_execution(tmp_path):
    run_differential(programs(), EXAMPLES, tmp_path, Path(KEEP) if KEEP else None, "differential")
