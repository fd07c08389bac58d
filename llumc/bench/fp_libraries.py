"""Floating point: llumc's own circuits (llumc/encoding/floats.py) beside the lowerings of two
solvers that have a floating-point theory, z3 (its fpa2bv) and Bitwuzla (symfpu), on circuit
size per operation and on SAT time for the bounded queries of the float test programs
(`make bench-fp`, `python -m llumc.bench.fp_libraries`).

z3 and Bitwuzla are not dependencies of llumc: install them into the venv first,
`.venv/bin/python -m pip install z3-solver bitwuzla` (this module imports them only here).

Sizes: the constraint `out = op(inputs)` for a fresh `out`, as docs/benchmarks.md measures ours:
- llumc: Boolector's bit-blasting into our AIG (AND nodes) and our Plaisted-Greenbaum clauses;
- z3: tactics simplify, fpa2bv, simplify, bit-blast, then `aig` (two-input ANDs counted, plus
  the ite and Boolean `=` nodes the tactic leaves, three ANDs each in an AIG) and, separately,
  `tseitin-cnf` (clauses);
- Bitwuzla: its own statistics after `check_sat` with abstraction and variable substitution
  off (`solver::bv::bitblast::aig::num_ands`, `...::cnf::num_clauses`).
Queries: each is written once over a small interface (`Backend`) and solved by llumc's path
(terms -> Boolector -> AIG -> CNF -> CaDiCaL 1.9.5 through PySAT), z3's FP theory and
Bitwuzla's; the time includes building and bit-blasting. Each measurement runs in a child
process under a time limit.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import struct
import time
from dataclasses import dataclass
from typing import Any, Callable

from llumc.encoding import floats
from llumc.encoding.floats import DOUBLE, SINGLE, FloatFormat

INSTALL_HINT = "pip install z3-solver bitwuzla (bench only, not llumc dependencies)"


# --------------------------------------------------------------------------- backends


class Backend:
    """The operations the queries use; floats of binary32 (`SINGLE`) or binary64 (`DOUBLE`),
    round to nearest even, `rem` is C's fmod, `to_int` truncates (queries keep it in range)."""

    name = ""
    detail = ""  # what `solve` has to say besides the answer

    def float_var(self, name: str, fmt: FloatFormat) -> Any: raise NotImplementedError
    def int_var(self, name: str, width: int) -> Any: raise NotImplementedError
    def float_const(self, value: float, fmt: FloatFormat) -> Any: raise NotImplementedError
    def int_const(self, value: int, width: int) -> Any: raise NotImplementedError
    def arith(self, op: str, fmt: FloatFormat, a: Any, b: Any) -> Any: raise NotImplementedError
    def sqrt(self, fmt: FloatFormat, a: Any) -> Any: raise NotImplementedError
    def compare(self, op: str, fmt: FloatFormat, a: Any, b: Any) -> Any: raise NotImplementedError
    def is_nan(self, fmt: FloatFormat, a: Any) -> Any: raise NotImplementedError
    def from_int(self, fmt: FloatFormat, a: Any) -> Any: raise NotImplementedError
    def to_int(self, fmt: FloatFormat, a: Any, width: int) -> Any: raise NotImplementedError
    def resize(self, src: FloatFormat, dst: FloatFormat, a: Any) -> Any: raise NotImplementedError
    def int_compare(self, op: str, a: Any, b: Any) -> Any: raise NotImplementedError
    def and_(self, *xs: Any) -> Any: raise NotImplementedError
    def or_(self, *xs: Any) -> Any: raise NotImplementedError
    def not_(self, a: Any) -> Any: raise NotImplementedError
    def solve(self, constraint: Any) -> str: raise NotImplementedError


def _bits(value: float, fmt: FloatFormat) -> int:
    if fmt is SINGLE:
        return struct.unpack("<I", struct.pack("<f", value))[0]
    return struct.unpack("<Q", struct.pack("<d", value))[0]


class Llumc(Backend):
    """llumc's circuits over `TermBuilder`, blasted and solved as the engines do."""

    name = "llumc"

    def __init__(self) -> None:
        from llumc.encoding.terms import TermBuilder
        self.tb = TermBuilder()
        self.inputs = 0

    def _input(self, width: int):
        self.inputs += 1
        return self.tb.input(self.inputs, width)

    def float_var(self, name, fmt): return self._input(fmt.width)
    def int_var(self, name, width): return self._input(width)
    def float_const(self, value, fmt): return self.tb.const(_bits(value, fmt), fmt.width)
    def int_const(self, value, width): return self.tb.const(value, width)
    def arith(self, op, fmt, a, b): return floats.fp_binary(self.tb, op, fmt, a, b)
    def sqrt(self, fmt, a): return floats.fp_sqrt(self.tb, fmt, a)
    def compare(self, op, fmt, a, b): return floats.fp_compare(self.tb, op, fmt, a, b)
    def is_nan(self, fmt, a): return floats.fp_is_nan(self.tb, fmt, a)
    def from_int(self, fmt, a): return floats.int_to_fp(self.tb, fmt, a, True)
    def resize(self, src, dst, a): return floats.fp_resize(self.tb, src, dst, a)
    def not_(self, a): return self.tb.not_(a)

    def int_compare(self, op, a, b):
        if op in ("eq", "ne"):
            equal = self.tb.eq(a, b)
            return equal if op == "eq" else self.tb.not_(equal)
        return self.tb.op(op, a, b)

    def to_int(self, fmt, a, width):
        return floats.fp_to_int(self.tb, fmt, a, width, True)[0]

    def and_(self, *xs):
        result = xs[0]
        for x in xs[1:]:
            result = self.tb.and_(result, x)
        return result

    def or_(self, *xs):
        return self.not_(self.and_(*[self.not_(x) for x in xs]))

    def solve(self, constraint) -> str:
        from pysat.solvers import Solver
        nodes, _, clauses = _llumc_clauses(self.tb, constraint)
        start = time.perf_counter()
        with Solver(name="cadical195", bootstrap_with=clauses) as solver:
            answer = "sat" if solver.solve() else "unsat"
        self.detail = f"SAT {time.perf_counter() - start:.1f} s, {_number(len(clauses))} clauses"
        return answer


def _llumc_clauses(tb, root) -> tuple[int, int, list[list[int]]]:
    """(AND nodes, clauses, the clauses) of the 1-bit term `root` asserted."""
    from llumc.bitblast.aig import AIG
    from llumc.bitblast.blast import blast
    from llumc.bitblast.cnf import CnfBuilder
    aig = AIG()
    top = blast([root], aig)
    counter = itertools.count(1)
    names: dict[str, int] = {}
    builder = CnfBuilder(aig, lambda name: names.setdefault(name, next(counter)), lambda: next(counter))
    builder.add_root(top)
    return sum(1 for node in aig.nodes if node[0] == "and"), len(builder.clauses), builder.clauses


class Z3(Backend):
    """z3's FP theory (QF_FPBV), default solver."""

    name = "z3"

    def __init__(self) -> None:
        import z3
        self.z3 = z3
        self.rne = z3.RNE()

    def sort(self, fmt): return self.z3.FPSort(fmt.exponent, fmt.precision)
    def float_var(self, name, fmt): return self.z3.FP(name, self.sort(fmt))
    def int_var(self, name, width): return self.z3.BitVec(name, width)
    def float_const(self, value, fmt): return self.z3.FPVal(value, None, self.sort(fmt))
    def int_const(self, value, width): return self.z3.BitVecVal(value, width)
    def sqrt(self, fmt, a): return self.z3.fpSqrt(self.rne, a)
    def is_nan(self, fmt, a): return self.z3.fpIsNaN(a)
    def from_int(self, fmt, a): return self.z3.fpSignedToFP(self.rne, a, self.sort(fmt))
    def to_int(self, fmt, a, width): return self.z3.fpToSBV(self.z3.RTZ(), a, self.z3.BitVecSort(width))
    def resize(self, src, dst, a): return self.z3.fpFPToFP(self.rne, a, self.sort(dst))
    def and_(self, *xs): return self.z3.And(*xs)
    def or_(self, *xs): return self.z3.Or(*xs)
    def not_(self, a): return self.z3.Not(a)

    def arith(self, op, fmt, a, b):
        z3 = self.z3
        if op == "frem":  # fp.rem is IEEE's remainder; fmod adds |b| where its sign differs from a's
            r = z3.fpRem(a, b)
            differs = z3.And(z3.Not(z3.fpIsZero(r)), z3.fpIsNegative(r) != z3.fpIsNegative(a))
            toward = z3.If(z3.fpIsNegative(a), z3.fpNeg(z3.fpAbs(b)), z3.fpAbs(b))
            return z3.If(differs, z3.fpAdd(self.rne, r, toward), r)
        function = {"fadd": z3.fpAdd, "fsub": z3.fpSub, "fmul": z3.fpMul, "fdiv": z3.fpDiv}[op]
        return function(self.rne, a, b)

    def compare(self, op, fmt, a, b):
        z3 = self.z3
        return {"olt": z3.fpLT, "ole": z3.fpLEQ, "ogt": z3.fpGT, "oge": z3.fpGEQ, "oeq": z3.fpEQ,
                "une": lambda x, y: z3.Not(z3.fpEQ(x, y))}[op](a, b)

    def int_compare(self, op, a, b):
        z3 = self.z3
        return {"slt": lambda x, y: x < y, "eq": lambda x, y: x == y, "ne": lambda x, y: x != y,
                "ule": z3.ULE}[op](a, b)

    def solve(self, constraint) -> str:
        solver = self.z3.Solver()
        solver.add(constraint)
        return str(solver.check())


class Bitwuzla(Backend):
    """Bitwuzla's FP theory (symfpu), default options."""

    name = "bitwuzla"

    def __init__(self) -> None:
        import bitwuzla
        self.bw = bitwuzla
        self.tm = bitwuzla.TermManager()
        self.rne = self.tm.mk_rm_value(bitwuzla.RoundingMode.RNE)
        self.rtz = self.tm.mk_rm_value(bitwuzla.RoundingMode.RTZ)

    def _t(self, kind: str, args, indices=()):
        return self.tm.mk_term(getattr(self.bw.Kind, kind), list(args), list(indices))

    def sort(self, fmt): return self.tm.mk_fp_sort(fmt.exponent, fmt.precision)
    def float_var(self, name, fmt): return self.tm.mk_const(self.sort(fmt), name)
    def int_var(self, name, width): return self.tm.mk_const(self.tm.mk_bv_sort(width), name)
    def int_const(self, value, width): return self.tm.mk_bv_value(self.tm.mk_bv_sort(width), value % (1 << width))
    def sqrt(self, fmt, a): return self._t("FP_SQRT", [self.rne, a])
    def is_nan(self, fmt, a): return self._t("FP_IS_NAN", [a])
    def from_int(self, fmt, a): return self._t("FP_TO_FP_FROM_SBV", [self.rne, a], [fmt.exponent, fmt.precision])
    def to_int(self, fmt, a, width): return self._t("FP_TO_SBV", [self.rtz, a], [width])
    def and_(self, *xs): return self._t("AND", xs) if len(xs) > 1 else xs[0]
    def or_(self, *xs): return self._t("OR", xs) if len(xs) > 1 else xs[0]
    def not_(self, a): return self._t("NOT", [a])

    def float_const(self, value, fmt):
        bits = self.tm.mk_bv_value(self.tm.mk_bv_sort(fmt.width), _bits(value, fmt))
        return self._t("FP_TO_FP_FROM_BV", [bits], [fmt.exponent, fmt.precision])

    def resize(self, src, dst, a):
        return self._t("FP_TO_FP_FROM_FP", [self.rne, a], [dst.exponent, dst.precision])

    def arith(self, op, fmt, a, b):
        if op == "frem":  # as for z3: IEEE's remainder corrected to fmod
            r = self._t("FP_REM", [a, b])
            differs = self.and_(self.not_(self._t("FP_IS_ZERO", [r])),
                                self._t("DISTINCT", [self._t("FP_IS_NEG", [r]), self._t("FP_IS_NEG", [a])]))
            magnitude = self._t("FP_ABS", [b])
            toward = self._t("ITE", [self._t("FP_IS_NEG", [a]), self._t("FP_NEG", [magnitude]), magnitude])
            return self._t("ITE", [differs, self._t("FP_ADD", [self.rne, r, toward]), r])
        kind = {"fadd": "FP_ADD", "fsub": "FP_SUB", "fmul": "FP_MUL", "fdiv": "FP_DIV"}[op]
        return self._t(kind, [self.rne, a, b])

    def compare(self, op, fmt, a, b):
        if op == "une":
            return self.not_(self._t("FP_EQUAL", [a, b]))
        kind = {"olt": "FP_LT", "ole": "FP_LEQ", "ogt": "FP_GT", "oge": "FP_GEQ", "oeq": "FP_EQUAL"}[op]
        return self._t(kind, [a, b])

    def int_compare(self, op, a, b):
        kind = {"slt": "BV_SLT", "eq": "EQUAL", "ne": "DISTINCT", "ule": "BV_ULE"}[op]
        return self._t(kind, [a, b])

    def solve(self, constraint) -> str:
        solver = self.bw.Bitwuzla(self.tm, self.bw.Options())
        solver.assert_formula(constraint)
        return str(solver.check_sat())


BACKENDS: dict[str, Callable[[], Backend]] = {"llumc": Llumc, "z3": Z3, "bitwuzla": Bitwuzla}


# --------------------------------------------------------------------------- queries


@dataclass(frozen=True)
class Query:
    """A bounded query of a float program (its property at depth 1, or one inductive step)."""

    name: str
    source: str  # the program or question it stands for
    expected: str  # "sat" or "unsat", known from native runs or the program's verdict
    build: Callable[[Backend], Any]


def _in_range(s: Backend, fmt: FloatFormat, x, low: float, high: float):
    return s.and_(s.compare("oge", fmt, x, s.float_const(low, fmt)), s.compare("ole", fmt, x, s.float_const(high, fmt)))


def _int_in(s: Backend, n, low: int, high: int, width: int = 32):
    return s.and_(s.not_(s.int_compare("slt", n, s.int_const(low, width))),
                  s.not_(s.int_compare("slt", s.int_const(high, width), n)))


def q_associativity(s: Backend):
    a, b, c = (s.float_var(n, DOUBLE) for n in "abc")
    not_nan = s.and_(*[s.not_(s.is_nan(DOUBLE, x)) for x in (a, b, c)])
    left = s.arith("fadd", DOUBLE, s.arith("fadd", DOUBLE, a, b), c)
    right = s.arith("fadd", DOUBLE, a, s.arith("fadd", DOUBLE, b, c))
    return s.and_(not_nan, s.compare("une", DOUBLE, left, right))


def q_nan(s: Backend):
    x = s.float_var("x", SINGLE)
    z = s.arith("fmul", SINGLE, s.float_const(0.0, SINGLE), x)
    return s.compare("une", SINGLE, z, z)


def q_int_float(low: int, high: int) -> Callable[[Backend], Any]:
    def build(s: Backend):
        n = s.int_var("n", 32)
        back = s.to_int(SINGLE, s.from_int(SINGLE, n), 32)
        return s.and_(_int_in(s, n, low, high), s.int_compare("ne", back, n))
    return build


def q_filter_step(s: Backend):
    """One inductive step of filter_bounded_true.c: y in [-10, 10] to y + 0.25 (x - y) outside."""
    x, y = s.float_var("x", SINGLE), s.float_var("y", SINGLE)
    step = s.arith("fadd", SINGLE, y, s.arith("fmul", SINGLE, s.float_const(0.25, SINGLE),
                                              s.arith("fsub", SINGLE, x, y)))
    return s.and_(_in_range(s, SINGLE, x, -10.0, 10.0), _in_range(s, SINGLE, y, -10.0, 10.0),
                  s.not_(_in_range(s, SINGLE, step, -10.0, 10.0)))


def q_square(fmt: FloatFormat) -> Callable[[Backend], Any]:
    def build(s: Backend):
        x = s.float_var("x", fmt)
        return s.compare("oeq", fmt, s.arith("fmul", fmt, x, x), s.float_const(2.0, fmt))
    return build


def q_sqrt_bound(s: Backend):
    x = s.float_var("x", DOUBLE)
    return s.and_(_in_range(s, DOUBLE, x, 0.0, 1e6), s.compare("ogt", DOUBLE, s.sqrt(DOUBLE, x),
                                                               s.float_const(1000.0, DOUBLE)))


def q_divide_back(s: Backend):
    a, b = s.float_var("a", DOUBLE), s.float_var("b", DOUBLE)
    back = s.arith("fmul", DOUBLE, s.arith("fdiv", DOUBLE, a, b), b)
    return s.and_(_in_range(s, DOUBLE, a, 1.0, 2.0), _in_range(s, DOUBLE, b, 1.0, 2.0),
                  s.compare("une", DOUBLE, back, a))


def q_newton_step(s: Backend):
    """One Newton step r' = 0.5 (r + x / r) for x in [1, 2], r in [1, 2]: r' below 1 (impossible
    in the reals, r + x/r >= 2 sqrt(x) >= 2; unsatisfiable in floats too, as all three answer)."""
    x, r = s.float_var("x", SINGLE), s.float_var("r", SINGLE)
    step = s.arith("fmul", SINGLE, s.float_const(0.5, SINGLE),
                   s.arith("fadd", SINGLE, r, s.arith("fdiv", SINGLE, x, r)))
    return s.and_(_in_range(s, SINGLE, x, 1.0, 2.0), _in_range(s, SINGLE, r, 1.0, 2.0),
                  s.compare("olt", SINGLE, step, s.float_const(1.0, SINGLE)))


def q_fmod_tenths(s: Backend):
    n = s.int_var("n", 32)
    x = s.arith("fdiv", DOUBLE, s.from_int(DOUBLE, n), s.float_const(10.0, DOUBLE))
    r = s.arith("frem", DOUBLE, x, s.float_const(0.1, DOUBLE))
    return s.and_(_int_in(s, n, 0, 100), s.compare("ogt", DOUBLE, r, s.float_const(0.05, DOUBLE)))


def q_fmod_bound(fmt: FloatFormat) -> Callable[[Backend], Any]:
    """abs(fmod(x, y)) >= abs(y) for finite x, nonzero y that is no NaN: impossible."""
    def build(s: Backend):
        x, y = s.float_var("x", fmt), s.float_var("y", fmt)
        zero = s.float_const(0.0, fmt)
        r = s.arith("frem", fmt, x, y)
        absolute = lambda v: s.arith("fsub", fmt, zero, v)  # noqa: E731 (|v| as max(v, -v) below)
        abs_r = s_max(s, fmt, r, absolute(r))
        abs_y = s_max(s, fmt, y, absolute(y))
        finite_x = s.compare("olt", fmt, s_max(s, fmt, x, absolute(x)), s.float_const(float("inf"), fmt))
        return s.and_(finite_x, s.not_(s.is_nan(fmt, y)), s.compare("une", fmt, y, zero),
                      s.not_(s.compare("olt", fmt, abs_r, abs_y)))
    return build


def s_max(s: Backend, fmt: FloatFormat, a, b):
    """a or b, whichever is larger (neither NaN where used): by the comparison only, so the
    three backends build the same formula."""
    if isinstance(s, Llumc):
        return s.tb.ite(s.compare("olt", fmt, a, b), b, a)
    if isinstance(s, Z3):
        return s.z3.If(s.compare("olt", fmt, a, b), b, a)
    return s._t("ITE", [s.compare("olt", fmt, a, b), b, a])


QUERIES = [
    Query("associativity", "associativity_false.c: (a+b)+c != a+(b+c), doubles", "sat", q_associativity),
    Query("nan", "nan_false.c: 0*x is NaN, float", "sat", q_nan),
    Query("int-float inexact", "int_float_inexact_false.c: (int)(float)n != n, 0 <= n <= 2^24+1", "sat",
          q_int_float(0, (1 << 24) + 1)),
    Query("int-float exact", "int_float_exact_true.c: abs(n) <= 2^24", "unsat", q_int_float(-(1 << 24), 1 << 24)),
    Query("filter step", "filter_bounded_true.c: one inductive step of [-10, 10]", "unsat", q_filter_step),
    Query("newton step", "newton_sqrt_true.c: r' = (r + x/r)/2 < 1 for x, r in [1, 2]", "unsat", q_newton_step),
    Query("fmod tenths", "fmod_tenths_false.c: fmod(n/10.0, 0.1) > 0.05, 0 <= n <= 100", "sat", q_fmod_tenths),
    Query("x*x == 2 float", "no float squares to 2.0f", "unsat", q_square(SINGLE)),
    Query("x*x == 2 double", "no double squares to 2.0", "unsat", q_square(DOUBLE)),
    Query("sqrt bound", "0 <= x <= 1e6 and sqrt(x) > 1000, double", "unsat", q_sqrt_bound),
    Query("divide back", "(a/b)*b != a for a, b in [1, 2], double", "sat", q_divide_back),
    Query("fmod bound float", "abs(fmod(x, y)) >= abs(y), float", "unsat", q_fmod_bound(SINGLE)),
    Query("fmod bound double", "abs(fmod(x, y)) >= abs(y), double", "unsat", q_fmod_bound(DOUBLE)),
]


def solve_query(query_name: str, backend_name: str) -> tuple[str, float, str]:
    """(answer, seconds from building the formula to the answer, the backend's detail)."""
    query = next(q for q in QUERIES if q.name == query_name)
    start = time.perf_counter()
    backend = BACKENDS[backend_name]()
    answer = backend.solve(query.build(backend))
    return answer, time.perf_counter() - start, backend.detail


# --------------------------------------------------------------------------- circuit sizes

# (operation, format): fcmp is olt; fptosi gives a 32-bit int, sitofp takes one; fpext is from
# binary32 (row 32), fptrunc from binary64 (row 64)
SIZE_OPERATIONS = ["fadd", "fmul", "fdiv", "sqrt", "fcmp olt", "fptosi32", "sitofp32", "fpext/fptrunc", "frem"]


def _operands(operation: str, fmt: FloatFormat) -> list[int]:
    """Widths of the operation's inputs as bit-vectors."""
    if operation in ("sqrt", "fptosi32", "fpext/fptrunc"):
        return [fmt.width]
    if operation == "sitofp32":
        return [32]
    return [fmt.width, fmt.width]


def llumc_size(operation: str, fmt: FloatFormat) -> dict[str, int]:
    from llumc.encoding.terms import TermBuilder
    tb = TermBuilder()
    args = [tb.input(i, w) for i, w in enumerate(_operands(operation, fmt))]
    if operation == "sqrt":
        term = floats.fp_sqrt(tb, fmt, *args)
    elif operation == "fcmp olt":
        term = floats.fp_compare(tb, "olt", fmt, *args)
    elif operation == "fptosi32":
        value, in_range = floats.fp_to_int(tb, fmt, args[0], 32, True)
        term = tb.op("concat", value, in_range)
    elif operation == "sitofp32":
        term = floats.int_to_fp(tb, fmt, args[0], True)
    elif operation == "fpext/fptrunc":
        term = floats.fp_resize(tb, fmt, DOUBLE if fmt is SINGLE else SINGLE, args[0])
    else:
        term = floats.fp_binary(tb, operation, fmt, *args)
    out = tb.input(len(args), term.width)
    nodes, clauses, _ = _llumc_clauses(tb, tb.eq(term, out))
    return {"and": nodes, "clauses": clauses}


def _smt_operation(s: Backend, operation: str, fmt: FloatFormat, args: list) -> Any:
    """The operation in `s`'s FP theory on the float-typed `args` (int for sitofp)."""
    if operation == "sqrt":
        return s.sqrt(fmt, *args)
    if operation == "fcmp olt":
        return s.compare("olt", fmt, *args)
    if operation == "fptosi32":
        return s.to_int(fmt, args[0], 32)
    if operation == "sitofp32":
        return s.from_int(fmt, args[0])
    if operation == "fpext/fptrunc":
        return s.resize(fmt, DOUBLE if fmt is SINGLE else SINGLE, args[0])
    return s.arith(operation, fmt, *args)


def _out_format(operation: str, fmt: FloatFormat) -> FloatFormat | None:
    if operation in ("fcmp olt", "fptosi32"):
        return None
    if operation == "fpext/fptrunc":
        return DOUBLE if fmt is SINGLE else SINGLE
    return fmt


def z3_size(operation: str, fmt: FloatFormat) -> dict[str, int]:
    """`out = op(inputs)` with inputs and out as bit patterns (fpBVToFP), fpa2bv and bit-blast."""
    s = Z3()
    z3 = s.z3
    args = [z3.BitVec(f"a{i}", w) for i, w in enumerate(_operands(operation, fmt))]
    if operation != "sitofp32":
        args = [z3.fpBVToFP(a, s.sort(fmt)) for a in args]
    result = _smt_operation(s, operation, fmt, args)
    out_fmt = _out_format(operation, fmt)
    if out_fmt is not None:
        out = z3.fpBVToFP(z3.BitVec("out", out_fmt.width), s.sort(out_fmt))
    else:
        out = z3.Bool("out") if operation == "fcmp olt" else z3.BitVec("out", 32)
    goal = z3.Goal()
    goal.add(out == result)
    lowering = ["simplify", "fpa2bv", "simplify", "bit-blast"]
    aig = z3.Then(*lowering, "aig")(goal)
    ands, gates = _count_z3_aig(z3, aig)
    cnf = z3.Then(*lowering, "tseitin-cnf")(goal)
    return {"and": ands + 3 * gates, "and2": ands, "ite/iff": gates, "clauses": sum(len(g) for g in cnf)}


def _count_z3_aig(z3, result) -> tuple[int, int]:
    """(two-input ANDs of the n-ary and/or nodes, ite and Boolean `=` nodes) in the goals."""
    seen: set[int] = set()
    ands = gates = 0
    stack = [goal[i] for goal in result for i in range(len(goal))]
    while stack:
        e = stack.pop()
        if e.get_id() in seen or not z3.is_app(e):
            continue
        seen.add(e.get_id())
        kind = e.decl().kind()
        if kind in (z3.Z3_OP_AND, z3.Z3_OP_OR):
            ands += e.num_args() - 1
        elif kind == z3.Z3_OP_ITE:
            gates += 1
        elif kind in (z3.Z3_OP_EQ, z3.Z3_OP_XOR, z3.Z3_OP_IFF):
            gates += e.num_args() - 1
        stack.extend(e.children())
    return ands, gates


def bitwuzla_size(operation: str, fmt: FloatFormat) -> dict[str, int]:
    """`out = op(inputs)` (bit patterns), Bitwuzla's own AIG and CNF counts, abstraction off."""
    s = Bitwuzla()
    bv_sort = s.tm.mk_bv_sort
    args = [s.tm.mk_const(bv_sort(w), f"a{i}") for i, w in enumerate(_operands(operation, fmt))]
    if operation != "sitofp32":
        args = [s._t("FP_TO_FP_FROM_BV", [a], [fmt.exponent, fmt.precision]) for a in args]
    result = _smt_operation(s, operation, fmt, args)
    out_fmt = _out_format(operation, fmt)
    if out_fmt is not None:
        out = s._t("FP_TO_FP_FROM_BV", [s.tm.mk_const(bv_sort(out_fmt.width), "out")],
                   [out_fmt.exponent, out_fmt.precision])
    else:
        out = s.tm.mk_const(s.tm.mk_bool_sort() if operation == "fcmp olt" else bv_sort(32), "out")
    options = s.bw.Options()
    options.set(s.bw.Option.ABSTRACTION, False)  # else multipliers are abstracted, blasted lazily
    options.set(s.bw.Option.PP_VARIABLE_SUBST, False)  # else `out` is substituted away
    solver = s.bw.Bitwuzla(s.tm, options)
    solver.assert_formula(s._t("EQUAL", [out, result]))
    solver.check_sat()
    stats = solver.statistics()
    return {"and": int(stats["solver::bv::bitblast::aig::num_ands"]),
            "clauses": int(stats["solver::bv::bitblast::cnf::num_clauses"])}


SIZERS = {"llumc": llumc_size, "z3": z3_size, "bitwuzla": bitwuzla_size}


def measure_size(tool: str, operation: str, width: int) -> dict[str, int]:
    return SIZERS[tool](operation, floats.FORMATS[width])


# --------------------------------------------------------------------------- running


def _child(queue, function, args) -> None:
    try:
        queue.put(("ok", function(*args)))
    except Exception as err:  # reported in the table, e.g. an operation a library lacks
        queue.put(("error", f"{type(err).__name__}: {err}"))


def limited(function, args: tuple, timeout: float) -> tuple[str, Any, float]:
    """(status, result, seconds) of function(*args) in a child process: "ok", "error" or
    "timeout" after `timeout` seconds (the child killed)."""
    queue = multiprocessing.get_context("fork").Queue()
    process = multiprocessing.get_context("fork").Process(target=_child, args=(queue, function, args))
    start = time.perf_counter()
    process.start()
    process.join(timeout)
    elapsed = time.perf_counter() - start
    if process.is_alive():
        process.kill()
        process.join()
        return "timeout", None, elapsed
    if queue.empty():
        return "error", f"exit code {process.exitcode}", elapsed
    status, result = queue.get()
    return status, result, elapsed


def _number(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def size_table(timeout: float, operations: list[str]) -> None:
    print("| operation | width | llumc AND | llumc clauses | z3 AND (2-input + 3 x ite/iff) | z3 clauses "
          "| Bitwuzla AND | Bitwuzla clauses |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for operation in operations:
        for width in (32, 64):
            cells = []
            for tool in SIZERS:
                status, result, _ = limited(measure_size, (tool, operation, width), timeout)
                if status != "ok":
                    cells += [status if status == "timeout" else f"error ({result})", ""]
                elif tool == "z3":
                    parts = f"{_number(result['and2'])} + 3 x {_number(result['ite/iff'])}"
                    cells += [f"{_number(result['and'])} ({parts})", _number(result["clauses"])]
                else:
                    cells += [_number(result["and"]), _number(result["clauses"])]
            print(f"| {operation} | {width} | " + " | ".join(cells) + " |", flush=True)


def query_table(timeout: float, names: list[str]) -> None:
    print("| query | stands for | expected | llumc + CaDiCaL | z3 | Bitwuzla |")
    print("|---|---|---|---:|---:|---:|")
    for query in QUERIES:
        if names and query.name not in names:
            continue
        cells = []
        for backend in BACKENDS:
            status, result, elapsed = limited(solve_query, (query.name, backend), timeout)
            if status == "ok":
                answer, seconds, detail = result
                mark = "" if answer == query.expected else " **(differs)**"
                cells.append(f"{answer} {seconds:.1f} s" + (f" ({detail})" if detail else "") + mark)
            else:
                cells.append(f"{status} ({elapsed:.0f} s)" if status == "timeout" else f"error ({result})")
        print(f"| {query.name} | {query.source} | {query.expected} | " + " | ".join(cells) + " |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per measurement (default 120)")
    parser.add_argument("--sizes-only", action="store_true")
    parser.add_argument("--queries-only", action="store_true")
    parser.add_argument("--operation", action="append", default=[], help="only these operations (repeatable)")
    parser.add_argument("--query", action="append", default=[], help="only these queries (repeatable)")
    args = parser.parse_args(argv)
    try:
        import bitwuzla  # noqa: F401
        import z3  # noqa: F401
    except ImportError as err:
        print(f"llumc.bench.fp_libraries: {err.name} is not installed: {INSTALL_HINT}")
        return 2
    if not args.queries_only:
        size_table(args.timeout, args.operation or SIZE_OPERATIONS)
        print()
    if not args.sizes_only:
        query_table(args.timeout, args.query)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
