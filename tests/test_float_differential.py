"""Differential test of `llumc check` against native execution on random small C programs that
mix float, double and int (tests/test_differential.py does the same for integer programs, and
this test runs through its helpers).

Hypothesis writes SV-COMP-style programs: int inputs confined by `__VERIFIER_assume` to small
ranges, float/double inputs (`__VERIFIER_nondet_float/double`) confined to a few values
(`x == 0.5f || x == -2.75f || ...`); float and double variables initialised from small ints,
from scaled inputs (`k0 * 0.25f`, `(float)k0 / 3`, `k0 * 0.1`), from the float inputs or from
constants (overflowing ones among them: `1e20f * 1e20f` is infinite); + - * / between them,
unary minus, conversions int -> float -> double and back, comparisons (ordered ones and the
`!(a < b)` forms, which hold on NaN), fabs/fmin/fmax/sqrt/floor/ceil from <math.h>, short
`for` loops accumulating a sum, if/else, and one or two `__VERIFIER_assert`s.

What the programs avoid, because llumc models it as nondeterministic (LLVM's semantics) while a
native run has one answer: a float -> int conversion always goes through a clamp, `(int)fmaxf(
fminf(e, 1000.0f), -1000.0f)`, so it is in range (NaN included: fmin/fmax return the other
operand) and never poison; nothing reads the sign or payload of a NaN (no signbit, copysign,
bit casts); integer arithmetic never divides and stays far from overflow. fmin/fmax on +0 and
-0 may occur: llumc may choose either, so it cannot claim TRUE where one choice fails, and a
FALSE resting on the other choice would not replay.

Ground truth is exact: the program is compiled natively with tests/nondet_driver.c (float and
double nondets read as bit patterns) and run on every input combination, each input's accepted
values plus values its assume must reject (one beyond each end of an int range; a NaN and a
value outside the set for a float input; -0 next to +0, which `x == 0.0f` accepts too). The
assertion constants come from a probe build in which each assertion reports the double value
of its left side; NaN values are counted but never chosen as constants.

llumc must never contradict the truth; UNKNOWN is allowed and counted; FALSE must replay in the
native driver; the loop invariants of a TRUE must hold natively. LLUMC_FLOAT_DIFF_EXAMPLES sets
the number of programs (default 7: about half a minute), LLUMC_FLOAT_DIFF_TIMEOUT
the time per check (default 6 s), LLUMC_FLOAT_DIFF_KEEP a directory that receives every program
with its verdicts, LLUMC_FLOAT_DIFF_ENGINE the engine (default the portfolio, whose
explicit-state search answers most of these programs from concrete runs; bmc, kind or ic3 put
the float circuits through a SAT solver).
"""

from __future__ import annotations

import math
import os
import struct
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import strategies as st

from test_differential import Input, Program, run_differential

# llumc raises the recursion limit while hypothesis runs the test; hypothesis warns about it
pytestmark = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")

EXAMPLES = int(os.environ.get("LLUMC_FLOAT_DIFF_EXAMPLES", "7"))
TIMEOUT = float(os.environ.get("LLUMC_FLOAT_DIFF_TIMEOUT", "6"))
KEEP = os.environ.get("LLUMC_FLOAT_DIFF_KEEP")
ENGINE = os.environ.get("LLUMC_FLOAT_DIFF_ENGINE", "portfolio")  # bmc, kind, ic3: the circuits through SAT

MAX_COMBINATIONS = 300
FLOAT_TYPES = ("float", "double")
# a float twice as often as a double: binary64 division and square root make big circuits, and
# a check has a few seconds
FLOAT_WEIGHTED = ["float", "float", "double"]
ARITHMETIC = ["+", "-", "*", "+", "-", "*", "/"]
# values a float input may be confined to (exact in binary32 where they are written with f)
INPUT_CHOICES = ["0.5", "-1.25", "3.0", "0.1", "-2.75", "100.0", "0.001", "7.0", "0.0", "1e30", "2.5", "-0.5"]
FLOAT_CONSTANTS = ["0.5f", "0.25f", "0.1f", "1.0f", "2.0f", "3.0f", "-1.5f", "10.0f", "0.0f", "1e-3f",
                   "1e20f", "0.5", "0.1", "3.0", "-2.0", "1e-8", "1e300", "1.0"]
INT_CONSTANTS = ["0", "1", "2", "3", "-1", "7", "100", "16777217", "2147483647"]
FUNCTIONS = ["fabs", "sqrt", "floor", "ceil", "fmin", "fmax"]
# target of a conversion -> its clamp bounds (in range, after truncation, for every value)
CONVERSIONS = {"int": ("-1000.0", "1000.0"), "short": ("-30000.0", "30000.0"),
               "unsigned char": ("-0.75", "255.0")}
COMPARISONS = ["<", "<=", ">", ">=", "==", "!="]


# ----------------------------------------------------------------------------- values


def bits_of(value: float, type_: str) -> int:
    """The IEEE bit pattern of `value` as a float (binary32) or double (binary64)."""
    if type_ == "float":
        return int.from_bytes(struct.pack("<f", value), "little")
    return int.from_bytes(struct.pack("<d", value), "little")


def value_of(bits: int, type_: str) -> float:
    if type_ == "float":
        return struct.unpack("<f", (bits & 0xFFFFFFFF).to_bytes(4, "little"))[0]
    return struct.unpack("<d", (bits & (2**64 - 1)).to_bytes(8, "little"))[0]


def c_double(value: float) -> str:
    """A double as a C constant that reads back to the same double."""
    if math.isinf(value):
        return "INFINITY" if value > 0 else "-INFINITY"
    return repr(value)  # the shortest digits that read back: 2.5, -0.0, 1e-05, 1e+300


# ----------------------------------------------------------------------------- programs


@dataclass
class FloatInput:
    """A float or double nondet confined to the values `choices` (C literals)."""

    name: str
    type: str
    choices: list[str]

    def literal(self, choice: str) -> str:
        return choice + "f" if self.type == "float" else choice

    def accepted(self) -> list[float]:
        """The values the assume lets through: the choices, and the other zero beside a zero."""
        values = [value_of(bits_of(float(choice), self.type), self.type) for choice in self.choices]
        if 0.0 in values:
            values += [0.0, -0.0]
        return values

    def values(self) -> list[int]:
        """Bit patterns: the accepted values, a quiet NaN and a value outside the set."""
        accepted = {bits_of(value, self.type) for value in self.accepted()}
        rejected = {bits_of(math.nan, self.type), bits_of(42.0, self.type)}
        return sorted(accepted) + sorted(rejected - accepted)

    def accepts(self, value: int) -> bool:
        return value in {bits_of(v, self.type) for v in self.accepted()}

    def declaration(self) -> list[str]:
        confined = " || ".join(f"{self.name} == {self.literal(choice)}" for choice in self.choices)
        return [f"  {self.type} {self.name} = __VERIFIER_nondet_{self.type}();",
                f"  __VERIFIER_assume({confined});"]


FLOAT_MODES = ["le-max", "lt-max", "ge-min", "gt-min", "not-gt-max", "not-lt-min", "not-ge-max",
               "ne-absent", "ne-rare", "eq-common", "le-middle"]


def float_condition(left: str, mode: str, seen: Counter) -> str:
    """An assertion over `left`, whose (non-NaN) values in the probe build were `seen`: the
    modes aim at assertions that hold tightly or fail on few runs; the `!(...)` ones hold where
    `left` is NaN, the ordered ones fail there."""
    if not seen:
        return f"({left}) != 0.0" if mode.startswith("not") else f"({left}) == 0.0"
    low, high = min(seen), max(seen)
    if mode == "ne-absent":
        absent = high + 1 if high + 1 != high else math.nextafter(high, math.inf)
        return f"({left}) != {c_double(absent)}"
    if mode == "ne-rare":
        return f"({left}) != {c_double(min(seen, key=lambda v: (seen[v], v)))}"
    if mode == "eq-common":
        return f"({left}) == {c_double(max(seen, key=lambda v: (seen[v], v)))}"
    if mode == "le-middle":
        return f"({left}) <= {c_double(sorted(seen)[len(seen) // 2])}"
    op, constant = {"le-max": ("<=", high), "lt-max": ("<", high), "ge-min": (">=", low), "gt-min": (">", low),
                    "not-gt-max": ("!>", high), "not-lt-min": ("!<", low), "not-ge-max": ("!>=", high)}[mode]
    if op.startswith("!"):
        return f"!(({left}) {op[1:]} {c_double(constant)})"
    return f"({left}) {op} {c_double(constant)}"


@dataclass
class FloatProgram(Program):
    """A program of `float_programs()`: its assertions' left sides are probed as doubles (their
    bit patterns), and `conditions` are the assertions chosen from them."""

    conditions: list[str] | None = None

    def declarations(self, probe: bool) -> list[str]:
        lines = ["#include <math.h>", "extern float __VERIFIER_nondet_float(void);",
                 "extern double __VERIFIER_nondet_double(void);", *super().declarations(probe)]
        if probe:
            lines.append("void llumc_probe_double(int, double);")
        return lines

    def fill(self, line: str, probe: bool) -> str:
        for j, (left, _) in enumerate(self.asserts):
            tag = f"@ASSERT{j}@"
            if tag in line:
                text = (f"llumc_probe_double({j}, (double)({left}));" if probe
                        else f"__VERIFIER_assert({self.conditions[j]});")
                line = line.replace(tag, text)
        return line

    def choose_constants(self, seen: list[Counter], data) -> None:
        self.modes = [data.draw(st.sampled_from(FLOAT_MODES)) for _ in self.asserts]
        self.conditions = []
        for (left, _), mode, bit_counts in zip(self.asserts, self.modes, seen):
            values: Counter = Counter()
            for bits, count in bit_counts.items():
                value = value_of(bits, "double")
                if not math.isnan(value):
                    values[value] += count
            self.conditions.append(float_condition(left, mode, values))


@dataclass
class Typed:
    """An expression's C text and its type: int, float or double."""

    text: str
    type: str


def _joined(a: str, b: str) -> str:
    """The type of `a op b` under C's usual arithmetic conversions (int, float, double)."""
    return "double" if "double" in (a, b) else "float" if "float" in (a, b) else "int"


class FloatBuilder:
    """Statements and expressions over the program's variables (all declared at the top)."""

    def __init__(self, draw, int_inputs: list[Input], float_inputs: list[FloatInput]):
        self.draw = draw
        self.int_inputs = int_inputs
        self.float_inputs = float_inputs
        self.floats: list[tuple[str, str, str]] = []  # name, type, initial expression
        self.ints: list[tuple[str, str, str]] = []
        self.counters: list[str] = []
        self.asserts: list[tuple[str, str]] = []
        self.loops = 0

    def pick(self, options: list):
        return self.draw(st.sampled_from(options))

    def float_variables(self) -> list[Typed]:
        return ([Typed(inp.name, inp.type) for inp in self.float_inputs]
                + [Typed(name, type_) for name, type_, _ in self.floats])

    def int_variables(self) -> list[Typed]:
        return ([Typed(inp.name, "int") for inp in self.int_inputs]
                + [Typed(name, "int") for name, _, _ in self.ints])

    def atom(self) -> Typed:
        kind = self.pick(["var", "var", "var", "int", "constant", "int constant"])
        if kind == "var" and self.float_variables():
            return self.pick(self.float_variables())
        if kind == "int" and self.int_variables():
            return self.pick(self.int_variables())
        if kind == "int constant":
            return Typed(self.pick(INT_CONSTANTS), "int")
        constant = self.pick(FLOAT_CONSTANTS)
        return Typed(constant, "float" if constant.endswith("f") else "double")

    def expr(self, depth: int = 2) -> Typed:
        """A float, double or int expression; integer arithmetic only on converted operands."""
        if depth <= 0 or self.draw(st.integers(0, 2)) == 0:
            return self.atom()
        kind = self.pick(["arith", "arith", "arith", "call", "call", "cast", "neg"])
        a = self.expr(depth - 1)
        if kind == "arith":
            b = self.expr(depth - 1)
            if a.type == b.type == "int":  # no integer division, no integer overflow
                type_ = self.pick(FLOAT_WEIGHTED)
                a = Typed(f"(({type_}){a.text})", type_)
            type_ = _joined(a.type, b.type)
            return Typed(f"({a.text} {self.pick(ARITHMETIC)} {b.text})", type_)
        if kind == "call":
            return self.call(self.pick(FUNCTIONS), a, depth)
        if kind == "cast":
            type_ = self.pick(FLOAT_WEIGHTED)
            return Typed(f"(({type_})({a.text}))", type_)
        return Typed(f"(-({a.text}))", a.type)

    def call(self, function: str, a: Typed, depth: int) -> Typed:
        """`function` of <math.h> on `a`: the float version (fabsf) on a float, else the double."""
        args = [a]
        if function in ("fmin", "fmax"):
            b = self.expr(depth - 1)
            args.append(b)
            type_ = "float" if a.type == b.type == "float" else "double"
        else:
            type_ = "float" if a.type == "float" else "double"
        name = function + "f" if type_ == "float" else function
        return Typed(f"{name}({', '.join(arg.text for arg in args)})", type_)

    def conversion(self, e: Typed) -> str:
        """`e` converted to an integer type, clamped first so that the conversion is in range
        (a NaN too: fmin/fmax return their other operand)."""
        target = self.pick(list(CONVERSIONS))
        low, high = CONVERSIONS[target]
        if e.type == "float":
            return f"(({target})fmaxf(fminf({e.text}, {high}f), {low}f))"
        return f"(({target})fmax(fmin({e.text}, {high}), {low}))"

    def int_expr(self) -> str:
        kind = self.pick(["convert", "convert", "compare", "var"])
        if kind == "convert" or kind == "var" and not self.int_variables():
            return self.conversion(self.expr(1))
        if kind == "compare":
            return f"({self.condition()})"
        other = self.pick(self.int_variables())
        return f"({other.text} + {self.pick(self.int_variables()).text})"

    def condition(self) -> str:
        """A comparison, or the negation of one (true where an operand is NaN, for the ordered
        comparisons)."""
        text = f"{self.expr(1).text} {self.pick(COMPARISONS)} {self.expr(1).text}"
        return f"!({text})" if self.draw(st.booleans()) else text

    def assertion(self) -> str:
        j = len(self.asserts)
        shape = self.pick(["var", "var", "expr", "convert", "sum"])
        variables = self.float_variables() + self.int_variables()
        var = self.pick(variables)  # a variable in it: a constant checks nothing
        if shape == "var":
            left = var.text
        elif shape == "expr":
            left = f"({var.text} {self.pick(['+', '-', '*', '/'])} {self.expr(1).text})"
        elif shape == "convert":
            left = self.conversion(var)
        else:
            left = f"({var.text} + {self.expr(2).text})"
        self.asserts.append((left, ""))
        return f"@ASSERT{j}@"

    def block(self, indent: int, depth: int, in_loop: bool) -> list[str]:
        pad = "  " * indent
        lines: list[str] = []
        for _ in range(self.draw(st.integers(1, 3))):
            kinds = ["assign", "assign", "update", "update", "if"]
            if depth == 0 and self.loops < 2:
                kinds += ["for", "for"]
            if self.ints:
                kinds += ["int"]
            if len(self.asserts) < 2:
                kinds += ["assert"]
            lines += self.statement(self.pick(kinds), pad, indent, depth, in_loop)
        return lines

    def statement(self, kind: str, pad: str, indent: int, depth: int, in_loop: bool) -> list[str]:
        if kind == "assign":
            return [f"{pad}{self.pick(self.floats)[0]} = {self.expr().text};"]
        if kind == "update":
            return [f"{pad}{self.pick(self.floats)[0]} {self.pick(['+=', '-=', '*=', '/='])} {self.expr(1).text};"]
        if kind == "int":
            return [f"{pad}{self.pick(self.ints)[0]} = {self.int_expr()};"]
        if kind == "if":
            lines = [f"{pad}if ({self.condition()}) {{", *self.block(indent + 1, depth + 1, in_loop)]
            if self.draw(st.booleans()):
                lines += [f"{pad}}} else {{", *self.block(indent + 1, depth + 1, in_loop)]
            return lines + [f"{pad}}}"]
        if kind == "for":
            counter = f"i{len(self.counters)}"
            self.counters.append(counter)
            self.loops += 1
            small = [inp.name for inp in self.int_inputs if inp.hi <= 8]
            bound = self.pick([str(self.draw(st.integers(1, 6))), *small])
            total = self.pick(self.floats)[0]
            addend = self.pick([self.expr(1).text, f"{counter} * {self.pick(FLOAT_CONSTANTS)}"])
            return [f"{pad}for ({counter} = 0; {counter} < {bound}; {counter}++) {{",
                    f"{pad}  {total} += {addend};", *self.block(indent + 1, depth + 1, True), f"{pad}}}"]
        return [f"{pad}{self.assertion()}"]


def initial_value(builder: FloatBuilder, type_: str) -> str:
    """A float variable's initial expression: a small int, a scaled input, a constant, a float
    input or an expression over the variables before it."""
    suffix = "f" if type_ == "float" else ""
    kind = builder.pick(["int", "scaled", "scaled", "constant", "input", "expr"])
    ints = [inp.name for inp in builder.int_inputs]
    if kind == "int":
        return str(builder.draw(st.integers(-5, 10)))
    if kind == "scaled" and ints:
        k = builder.pick(ints)
        return builder.pick([f"{k} * 0.25{suffix}", f"({type_}){k} / 3", f"{k} * 0.1{suffix}",
                             f"{k} - 0.5{suffix}", f"({type_}){k} / 7"])
    if kind == "input" and builder.float_inputs:
        return builder.pick(builder.float_inputs).name
    if kind == "expr":
        return builder.expr(1).text
    return builder.pick(FLOAT_CONSTANTS)


@st.composite
def float_programs(draw) -> FloatProgram:
    int_inputs: list[Input] = []
    float_inputs: list[FloatInput] = []
    combinations = 1
    for k in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            choices = draw(st.lists(st.sampled_from(INPUT_CHOICES), min_size=1, max_size=3, unique=True))
            candidate = FloatInput(f"x{k}", draw(st.sampled_from(FLOAT_WEIGHTED)), choices)
        else:
            lo = draw(st.integers(-4, 6))
            candidate = Input(f"k{k}", "int", lo, lo + draw(st.integers(0, 4)))
        if combinations * len(candidate.values()) > MAX_COMBINATIONS:
            break
        combinations *= len(candidate.values())
        (float_inputs if isinstance(candidate, FloatInput) else int_inputs).append(candidate)
    builder = FloatBuilder(draw, int_inputs, float_inputs)
    for k in range(draw(st.integers(1, 3))):
        type_ = draw(st.sampled_from(FLOAT_WEIGHTED))
        builder.floats.append((f"{type_[0]}{k}", type_, initial_value(builder, type_)))
    if draw(st.booleans()):
        builder.ints.append(("n0", "int", builder.int_expr()))
    body = builder.block(1, 0, False)
    if not builder.asserts or draw(st.booleans()) and len(builder.asserts) < 2:
        body.append(f"  {builder.assertion()}")
    return FloatProgram([*int_inputs, *float_inputs], builder.floats + builder.ints, builder.counters, body,
                        builder.asserts, draw(st.sampled_from(["__VERIFIER_error", "reach_error"])),
                        draw(st.booleans()))


# ----------------------------------------------------------------------------- the test


def test_float_input_values_are_the_assumed_set_and_two_outside():
    x = FloatInput("x0", "float", ["0.1", "0.0"])
    values = x.values()
    assert [x.accepts(bits) for bits in values].count(True) == 3  # 0.1f, +0 and -0
    assert x.accepts(bits_of(0.1, "float")) and not x.accepts(bits_of(0.1, "double") & 0xFFFFFFFF)
    assert not x.accepts(bits_of(math.nan, "float")) and bits_of(math.nan, "float") in values
    assert float_condition("e", "not-gt-max", Counter({1.5: 2, -0.25: 1})) == "!((e) > 1.5)"
    assert float_condition("e", "ne-absent", Counter({1e300: 1})) == "(e) != 1.0000000000000002e+300"


def test_llumc_never_contradicts_native_execution_on_floats(tmp_path):
    run_differential(float_programs(), EXAMPLES, tmp_path, Path(KEEP) if KEEP else None,
                     f"float differential ({ENGINE})", timeout=TIMEOUT, engine=ENGINE)
