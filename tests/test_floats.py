"""Differential test of the floating-point circuits (llumc/encoding/floats.py) against the
machine: tests/fp_reference.c, compiled with the clang llumc uses (x86-64, SSE arithmetic,
-ffp-contract=off, musl's libm), computes every operation on the same operand bit patterns.
Results must agree bit for bit, except that where the machine gives a NaN ours must be exactly
the canonical NaN (and ours is a NaN only where the machine's is).

The circuits are evaluated on plain integers (`IntBuilder`, fast) for every operand; on a few
operands also as folded constant terms (`TermBuilder`, the path the encoder takes) and through
the bit-blaster and a SAT solver (term -> Boolector -> AIG -> CNF).

The rounding operations are compared in each rounding mode too (the reference calls fesetround
first), on LLUMC_FP_MODE_SAMPLES operands each (default a quarter of LLUMC_FP_SAMPLES).

LLUMC_FP_SAMPLES sets the operands per operation and width (default small, for CI);
LLUMC_FP_SEED the random seed. `python -m tests.test_floats sizes` prints the circuits' sizes.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import struct
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from llumc.bitblast.aig import AIG
from llumc.bitblast.blast import blast
from llumc.bitblast.cnf import CnfBuilder
from llumc.encoding.floats import (
    CANONICAL_NAN, DOUBLE, FCMP_PREDICATES, FORMATS, ROUNDING_MODES, SINGLE, FloatFormat, IntBuilder,
    fp_abs, fp_binary, fp_class_test, fp_compare, fp_copysign, fp_is_nan, fp_min_max, fp_neg, fp_resize,
    fp_round_integral, fp_sqrt, fp_to_int, infinity_bits, int_to_fp, rounding_flags,
)
from llumc.encoding.terms import TermBuilder, mask
from llumc.frontend.compile import clang_command
from tests.test_bitblast import cnf_agrees

SAMPLES = int(os.environ.get("LLUMC_FP_SAMPLES", "1000"))
SEED = int(os.environ.get("LLUMC_FP_SEED", "754"))
MODE_SAMPLES = int(os.environ.get("LLUMC_FP_MODE_SAMPLES", str(SAMPLES // 4)))
MODES = {"nearest": 0, "downward": 0x400, "upward": 0x800, "towardzero": 0xC00}  # x86's FE_* values
REFERENCE_SOURCE = Path(__file__).with_name("fp_reference.c")
INT_WIDTHS = (1, 8, 16, 24, 32, 53, 64, 65, 100, 128)


# --------------------------------------------------------------------------- the machine


def build_reference(directory: Path) -> Path:
    command, is_zig = clang_command(None)
    target = ["-target", "x86_64-linux-musl"] if is_zig else ["-m64"]
    binary = directory / "fp_reference"
    # -frounding-math: the operations after a `mode` request round in that mode, none folded
    argv = [*command, *target, "-O0", "-ffp-contract=off", "-frounding-math", "-msse2", "-mfpmath=sse",
            "-fno-sanitize=all", "-w", "-o", str(binary), str(REFERENCE_SOURCE)]
    # in the binary's directory, as the replay builds: from the checkout zig misses its cache
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600, cwd=directory, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"building the reference failed:\n{proc.stderr}"
    return binary


def run_reference(binary: Path, lines: list[str], mode: int | None = None) -> list[int]:
    """The machine's result of each request line (`op width n a b`, hex operands), in rounding
    mode `mode` (x86's FE_* value) if given."""
    if mode is not None:
        results = run_reference(binary, [line("mode", 0, 0, mode), *lines])
        assert results[0] == 0, f"fesetround({mode:#x}) failed"
        return results[1:]
    requests = binary.with_name("requests.txt")
    requests.write_text("\n".join(lines) + "\n")
    with requests.open() as stdin:
        proc = subprocess.run([str(binary)], stdin=stdin, capture_output=True, text=True, timeout=3600)
    assert proc.returncode == 0, proc.stderr
    results = [int(word, 16) for word in proc.stdout.split()]
    assert len(results) == len(lines)
    return results


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    return build_reference(tmp_path_factory.mktemp("fp"))


# --------------------------------------------------------------------------- operands


def is_nan(fmt: FloatFormat, bits: int) -> bool:
    return bits & mask(fmt.width - 1) > infinity_bits(fmt)


def special_values(fmt: FloatFormat, neighbours: bool = True) -> list[int]:
    """±0, ±min/max subnormal, ±min normal, ±max, ±inf, quiet and signalling NaNs, 1.0 and
    its neighbours, 0.5, 1.5, 2, 3, and (`neighbours`) the bit neighbours of each."""
    f, inf = fmt.fraction, infinity_bits(fmt)
    one = fmt.bias << f
    values = [0, 1, mask(f), 1 << f, inf - 1, inf, CANONICAL_NAN(fmt), inf | 1, inf | 1 << (f - 1) | 5,
              one, one - 1, one + 1, (fmt.bias - 1) << f, one | 1 << (f - 1), (fmt.bias + 1) << f,
              (fmt.bias + 1) << f | 1 << (f - 1)]
    if neighbours:
        values += [v + d for v in values for d in (-1, 1) if 0 <= v + d < inf]
    return sorted(set(values + [v | 1 << (fmt.width - 1) for v in values]))


def special_operands(fmt: FloatFormat, arity: int) -> list[tuple[int, ...]]:
    """Every special value (one operand), or every pair of them without neighbours (two)."""
    if arity == 1:
        return [(v,) for v in special_values(fmt)]
    values = special_values(fmt, neighbours=False)
    return [(a, b) for a in values for b in values]


def random_float(rng: random.Random, fmt: FloatFormat) -> int:
    """Uniform bit patterns, special values, and numbers of moderate and extreme exponents."""
    r = rng.random()
    if r < 0.35:
        return rng.getrandbits(fmt.width)
    if r < 0.5:
        return rng.choice(special_values(fmt))
    if r < 0.8:
        exponent = fmt.bias + rng.randint(-40, 40)
    else:
        exponent = rng.choice([0, 0, 1, 2, 3, mask(fmt.exponent) - 1, mask(fmt.exponent) - 2])
    fraction = rng.getrandbits(fmt.fraction)
    if rng.random() < 0.3:  # few significant bits: exact products and quotients, rounding ties
        fraction &= ~mask(fmt.fraction - rng.randint(0, fmt.fraction // 2))
    return compose(fmt, rng.getrandbits(1), exponent, fraction)


def compose(fmt: FloatFormat, sign: int, exponent_field: int, fraction: int) -> int:
    return sign << (fmt.width - 1) | exponent_field << fmt.fraction | fraction & mask(fmt.fraction)


def random_pair(rng: random.Random, fmt: FloatFormat) -> tuple[int, int]:
    """Independent operands, or operands with close exponents (cancellation, ties, carries)."""
    a = random_float(rng, fmt)
    r = rng.random()
    if r < 0.35:
        field = a >> fmt.fraction & mask(fmt.exponent)
        field = min(max(field + rng.randint(-2, 2), 0), mask(fmt.exponent))
        fraction = a + rng.randint(-3, 3) if rng.random() < 0.5 else rng.getrandbits(fmt.fraction)
        return a, compose(fmt, rng.getrandbits(1), field, fraction)
    if r < 0.45:
        return a, (a ^ 1 << (fmt.width - 1)) + rng.randint(-1, 1) & mask(fmt.width)
    if r < 0.55:
        return tiny_result_pair(rng, fmt)
    return a, random_float(rng, fmt)


def tiny_result_pair(rng: random.Random, fmt: FloatFormat) -> tuple[int, int]:
    """Normal operands whose product (or quotient) lands at the bottom of the normal range or
    among the subnormals, where rounding happens after the shift right (ties included)."""
    # the result's exponent; around emin - p the rounding sees only the bits shifted out
    target = fmt.emin - rng.choice([rng.randint(-2, fmt.precision + 1), fmt.precision - 1, fmt.precision,
                                    fmt.precision + 1])
    if rng.random() < 0.5:  # product: ea + eb = target
        ea = rng.randint(max(fmt.emin, target - fmt.emax), min(fmt.emax, target - fmt.emin))
        eb = target - ea
    else:  # quotient: ea - eb = target
        ea = rng.randint(max(fmt.emin, target + fmt.emin), min(fmt.emax, target + fmt.emax))
        eb = ea - target

    def fraction() -> int:  # a power of two, a few top bits, or any
        bits = rng.getrandbits(fmt.fraction)
        return rng.choice([0, bits & ~mask(fmt.fraction - rng.randint(1, 8)), bits])

    fa, fb = fraction(), fraction()
    if ea + eb == target and rng.random() < 0.5:
        # significands whose product is just above 2^(2p-1): beyond the guard bit only low bits
        # are set, so below the normal range the rounding depends on the bits shifted out
        p = fmt.precision
        sig_a = 1 << (p - 1) | fa
        sig_b = min(-(-(1 << (2 * p - 1)) // sig_a) + rng.randint(0, 1), (1 << p) - 1)
        fb = sig_b - (1 << (p - 1))
    return (compose(fmt, rng.getrandbits(1), ea + fmt.bias, fa), compose(fmt, rng.getrandbits(1), eb + fmt.bias, fb))


def near_integers(rng: random.Random, fmt: FloatFormat, top: int) -> int:
    """Numbers of magnitude up to about 2^top: halfway cases and neighbours of integers."""
    if rng.random() < 0.5:
        value = rng.randint(0, 1 << min(top, 60)) + rng.choice([0, 0.5, 0.25, 0.75])
        bits = float_bits(fmt, value * rng.choice([1, -1]))
        return bits + rng.randint(-1, 1) & mask(fmt.width) if rng.random() < 0.3 else bits
    exponent = fmt.bias + rng.randint(-3, top + 1)
    return compose(fmt, rng.getrandbits(1), min(exponent, mask(fmt.exponent) - 1), rng.getrandbits(fmt.fraction))


def float_bits(fmt: FloatFormat, value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0] if fmt is SINGLE else \
        struct.unpack("<Q", struct.pack("<d", value))[0]


def float_value(fmt: FloatFormat, bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0] if fmt is SINGLE else \
        struct.unpack("<d", struct.pack("<Q", bits))[0]


def integer_operand(rng: random.Random, width: int, precision: int) -> int:
    """Random integers of random bit length, the extremes, and rounding ties (2^p + 1 shifted)."""
    r = rng.random()
    if r < 0.3:
        return rng.getrandbits(width)
    if r < 0.6:
        return rng.getrandbits(rng.randint(1, width))
    if r < 0.8:
        tie = (1 << precision | 1) << rng.randint(0, 3)
        odd = (1 << precision + 1) - 1 - 2 * rng.randint(0, 3)
        return rng.choice([tie, tie + 1, tie - 1, odd, odd << 1, -tie, -odd]) & mask(width)
    return rng.choice([0, 1, mask(width), 1 << (width - 1), mask(width - 1), (1 << (width - 1)) + 1])


# --------------------------------------------------------------------------- cases


@dataclass
class Case:
    """One operation at one format: operands, the request for the machine, our circuit, and
    whether our outputs match the machine's result."""

    name: str
    fmt: FloatFormat
    operands: Callable[[random.Random], tuple[int, ...]]
    request: Callable[[tuple[int, ...]], str]
    circuit: Callable[[object, list], list]  # (builder, operand values) -> outputs
    agrees: Callable[[int, list[int], tuple[int, ...]], bool]  # (machine, our outputs, operands)
    input_widths: tuple[int, ...] = ()
    float_operands: bool = True  # operands are floats of `fmt` (not integers)
    mode: int | None = None  # the rounding mode the machine runs in (x86's FE_* value)

    def __str__(self) -> str:
        return f"{self.name}-{self.fmt.width}"


def float_agrees(fmt: FloatFormat) -> Callable[[int, list[int], tuple[int, ...]], bool]:
    def agrees(machine: int, ours: list[int], operands: tuple[int, ...]) -> bool:
        return ours[0] == (CANONICAL_NAN(fmt) if is_nan(fmt, machine) else machine)
    return agrees


def line(op: str, width: int, n: int, a: int, b: int = 0) -> str:
    return f"{op} {width} {n} {a:x} {b:x}"


def binary_case(op: str, fmt: FloatFormat) -> Case:
    return Case(op, fmt, lambda rng: random_pair(rng, fmt), lambda o: line(op, fmt.width, 0, *o),
                lambda tb, o: [fp_binary(tb, op, fmt, *o)], float_agrees(fmt), (fmt.width, fmt.width))


def remainder_case(fmt: FloatFormat) -> Case:
    """frem (fmod): the binary operands, and a third of pairs built for it (`remainder_pair`)."""
    case = binary_case("frem", fmt)
    case.operands = lambda rng: remainder_pair(rng, fmt) if rng.random() < 0.35 else random_pair(rng, fmt)
    return case


def remainder_pair(rng: random.Random, fmt: FloatFormat) -> tuple[int, int]:
    """Operands where fmod is hard: exponent differences up to the largest (a huge dividend,
    a subnormal divisor), divisors of few significant bits (powers of two: a significand equal
    to 2^(p-1)), dividends just above a multiple of the divisor."""
    top = mask(fmt.exponent) - 1
    ea = rng.choice([top, top - rng.randint(0, 60), rng.randint(1, top)])
    eb = rng.choice([0, 0, 1, rng.randint(1, 60), rng.randint(1, top)])
    fa, fb = rng.getrandbits(fmt.fraction), rng.getrandbits(fmt.fraction)
    if rng.random() < 0.4:
        fb &= ~mask(fmt.fraction - rng.randint(0, 3))  # 0 (a power of two) up to three top bits
    if rng.random() < 0.2:
        fa = rng.choice([0, 1, mask(fmt.fraction), fb, fb + 1])
    return compose(fmt, rng.getrandbits(1), ea, fa), compose(fmt, rng.getrandbits(1), eb, fb)


def unary_case(op: str, fmt: FloatFormat) -> Case:
    if op == "sqrt":
        circuit = lambda tb, o: [fp_sqrt(tb, fmt, o[0])]  # noqa: E731
        operands = lambda rng: (random_float(rng, fmt),)  # noqa: E731
    else:
        circuit = lambda tb, o: [fp_round_integral(tb, fmt, o[0], op)]  # noqa: E731
        operands = lambda rng: (near_integers(rng, fmt, fmt.precision) if rng.random() < 0.6  # noqa: E731
                                else random_float(rng, fmt),)
    return Case(op, fmt, operands, lambda o: line(op, fmt.width, 0, o[0]), circuit, float_agrees(fmt), (fmt.width,))


def min_max_case(kind: str, fmt: FloatFormat) -> Case:
    """Either operand may come back when they compare equal (+0, -0): ours picking a or b."""
    def circuit(tb, o):
        return [fp_min_max(tb, fmt, o[0], o[1], kind), fp_min_max(tb, fmt, o[0], o[1], kind, tb.const(0, 1))]

    def agrees(machine: int, ours: list[int], operands: tuple[int, ...]) -> bool:
        if is_nan(fmt, machine):
            return ours == [CANONICAL_NAN(fmt)] * 2
        tie = not is_nan(fmt, operands[0]) and float_value(fmt, operands[0]) == float_value(fmt, operands[1])
        return machine in ours if tie else ours == [machine, machine]

    return Case(kind, fmt, lambda rng: random_pair(rng, fmt), lambda o: line(kind, fmt.width, 0, *o), circuit,
                agrees, (fmt.width, fmt.width))


def bitwise_case(op: str, fmt: FloatFormat) -> Case:
    functions = {"neg": lambda tb, o: [fp_neg(tb, fmt, o[0])], "abs": lambda tb, o: [fp_abs(tb, fmt, o[0])],
                 "copysign": lambda tb, o: [fp_copysign(tb, fmt, o[0], o[1])]}
    return Case(op, fmt, lambda rng: random_pair(rng, fmt), lambda o: line(op, fmt.width, 0, *o), functions[op],
                lambda machine, ours, o: ours[0] == machine, (fmt.width, fmt.width))


CLASS_MASKS = [1 << k for k in range(10)] + [0x3FF, 0x0, 0x204, 0x198, 0x108]  # 0x108: ±normal


def predicate_cases(fmt: FloatFormat) -> list[Case]:
    fcmp = Case("fcmp", fmt, lambda rng: random_pair(rng, fmt), lambda o: line("fcmp", fmt.width, 0, *o),
                lambda tb, o: [fp_compare(tb, p, fmt, o[0], o[1]) for p in FCMP_PREDICATES],
                lambda machine, ours, o: ours == [machine >> i & 1 for i in range(16)], (fmt.width, fmt.width))
    isnan = Case("isnan", fmt, lambda rng: (random_float(rng, fmt),), lambda o: line("isnan", fmt.width, 0, o[0]),
                 lambda tb, o: [fp_is_nan(tb, fmt, o[0])], lambda machine, ours, o: ours == [machine], (fmt.width,))
    masks = CLASS_MASKS
    classes = Case("class", fmt, lambda rng: (random_float(rng, fmt),), lambda o: line("class", fmt.width, 0, o[0]),
                   lambda tb, o: [fp_class_test(tb, fmt, o[0], m) for m in masks],
                   lambda machine, ours, o: ours == [m >> machine & 1 for m in masks], (fmt.width,))
    return [fcmp, isnan, classes]


def to_int_case(fmt: FloatFormat, width: int, signed: bool) -> Case:
    """In range exactly when the truncated value fits (Python's exact arithmetic); the value
    must then be the machine's."""
    op = "fptosi" if signed else "fptoui"
    low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)

    def operands(rng):
        if rng.random() < 0.4:
            return (random_float(rng, fmt),)
        k = rng.choice([width - 1, width, width + 1, rng.randint(-1, width)])
        bits = compose(fmt, rng.getrandbits(1), min(max(fmt.bias + k, 0), mask(fmt.exponent) - 1),
                       rng.choice([0, 1, mask(fmt.fraction), rng.getrandbits(fmt.fraction)]))
        return (bits + rng.randint(-1, 1) & mask(fmt.width),)

    def agrees(machine: int, ours: list[int], o: tuple[int, ...]) -> bool:
        value = float_value(fmt, o[0])
        in_range = math.isfinite(value) and low <= math.trunc(value) <= high
        return ours[1] == in_range and (not in_range or ours[0] == machine)

    return Case(f"{op}{width}", fmt, operands, lambda o: line(op, fmt.width, width, o[0]),
                lambda tb, o: list(fp_to_int(tb, fmt, o[0], width, signed)), agrees, (fmt.width,))


def from_int_case(fmt: FloatFormat, width: int, signed: bool) -> Case:
    op = "sitofp" if signed else "uitofp"
    return Case(f"{op}{width}", fmt, lambda rng: (integer_operand(rng, width, fmt.precision),),
                lambda o: line(op, fmt.width, width, o[0]), lambda tb, o: [int_to_fp(tb, fmt, o[0], signed)],
                float_agrees(fmt), (width,), float_operands=False)


def resize_cases() -> list[Case]:
    ext = Case("fpext", SINGLE, lambda rng: (random_float(rng, SINGLE),), lambda o: line("fpext", 32, 0, o[0]),
               lambda tb, o: [fp_resize(tb, SINGLE, DOUBLE, o[0])], float_agrees(DOUBLE), (32,))

    def narrow_operand(rng):
        if rng.random() < 0.5:  # around binary32's range and precision
            exponent = DOUBLE.bias + rng.choice([rng.randint(-155, -120), rng.randint(120, 130), rng.randint(-5, 5)])
            fraction = rng.getrandbits(52) & ~mask(rng.randint(0, 29))  # ties: few low bits set
            return (compose(DOUBLE, rng.getrandbits(1), exponent, fraction | rng.choice([0, 1 << 28, 0])),)
        return (random_float(rng, DOUBLE),)

    trunc = Case("fptrunc", DOUBLE, narrow_operand, lambda o: line("fptrunc", 64, 0, o[0]),
                 lambda tb, o: [fp_resize(tb, DOUBLE, SINGLE, o[0])], float_agrees(SINGLE), (64,))
    return [ext, trunc]


def all_cases() -> list[Case]:
    cases = []
    for fmt in (SINGLE, DOUBLE):
        cases += [binary_case(op, fmt) for op in ("fadd", "fsub", "fmul", "fdiv")]
        cases += [unary_case(op, fmt) for op in ("sqrt", *ROUNDING_MODES)]
        cases += [min_max_case(kind, fmt) for kind in ("minnum", "maxnum")]
        cases += [bitwise_case(op, fmt) for op in ("neg", "abs", "copysign")]
        cases += predicate_cases(fmt)
        cases += [to_int_case(fmt, w, s) for w in INT_WIDTHS for s in (True, False)]
        cases += [from_int_case(fmt, w, s) for w in INT_WIDTHS for s in (True, False)]
    cases += [remainder_case(fmt) for fmt in (SINGLE, DOUBLE)]
    return cases + resize_cases()


CASES = all_cases()


def mode_cases() -> list[Case]:
    """Every operation that rounds, in each rounding mode: the circuit given that mode's
    `Rounding` (constant flags), the machine after fesetround. rint is C's rint (the current
    mode); integers only up to 64 bits (wider ones convert in compiler-rt, which rounds to
    nearest whatever the mode)."""
    cases = []
    for name, mode in MODES.items():
        for case in cases_in_mode(mode):
            case.mode, case.name = mode, f"{case.name}-{name}"
            cases.append(case)
    return cases


def cases_in_mode(mode: int) -> list[Case]:
    def rounding(tb):
        return rounding_flags(tb, tb.const(int(mode == 0x400), 1), tb.const(int(mode == 0x800), 1),
                              tb.const(int(mode == 0xC00), 1))

    cases = []
    for fmt in (SINGLE, DOUBLE):
        for op in ("fadd", "fsub", "fmul", "fdiv"):
            case = binary_case(op, fmt)
            case.circuit = lambda tb, o, op=op, fmt=fmt: [fp_binary(tb, op, fmt, *o, rounding(tb))]
            cases.append(case)
        sqrt = unary_case("sqrt", fmt)
        sqrt.circuit = lambda tb, o, fmt=fmt: [fp_sqrt(tb, fmt, o[0], rounding(tb))]
        rint = unary_case("floor", fmt)  # (its operands: near integers)
        rint.name, rint.request = "rint", lambda o, fmt=fmt: line("rint", fmt.width, 0, o[0])
        rint.circuit = lambda tb, o, fmt=fmt: [fp_round_integral(tb, fmt, o[0], "rint", rounding(tb))]
        cases += [sqrt, rint]
        for width in (32, 64):
            for signed in (True, False):
                case = from_int_case(fmt, width, signed)
                case.circuit = lambda tb, o, fmt=fmt, s=signed: [int_to_fp(tb, fmt, o[0], s, rounding(tb))]
                cases.append(case)
    trunc = resize_cases()[1]
    trunc.circuit = lambda tb, o: [fp_resize(tb, DOUBLE, SINGLE, o[0], rounding(tb))]
    return cases + [trunc]


MODE_CASES = mode_cases()


def operands_of(case: Case, count: int, specials: bool = False) -> list[tuple[int, ...]]:
    """`count` random operands, after every special value or pair of them with `specials`."""
    rng = random.Random(f"{SEED}-{case}")
    fixed = special_operands(case.fmt, len(case.input_widths)) if specials and case.float_operands else []
    return fixed + [case.operands(rng) for _ in range(count)]


def evaluate(case: Case, tb, operands: tuple[int, ...]) -> list[int]:
    outputs = case.circuit(tb, [tb.const(v, w) for v, w in zip(operands, case.input_widths)])
    if isinstance(tb, IntBuilder):
        return [out.value for out in outputs]
    assert all(out.op == "const" for out in outputs), f"{case}: circuit on constants not folded"
    return [out.param for out in outputs]


# --------------------------------------------------------------------------- tests


def differences(case: Case, binary: Path, count: int) -> list[str]:
    operands = operands_of(case, count, specials=True)
    machine = run_reference(binary, [case.request(o) for o in operands], case.mode)
    builder = IntBuilder()
    found = []
    for o, expected in zip(operands, machine):
        ours = evaluate(case, builder, o)
        if not case.agrees(expected, ours, o):
            found.append(f"{case} {[hex(v) for v in o]}: machine {expected:#x}, ours {[hex(v) for v in ours]}")
    return found


# the 64-bit remainder and division: their 32-bit twins run in `make test`, these (13-28 s each
# beside the suite) in `make test-all`
SLOW_CASES = {"frem-64", "fdiv-64"}


def _tiered(cases: list[Case]) -> list:
    return [pytest.param(c, marks=pytest.mark.slow) if str(c) in SLOW_CASES else c for c in cases]


@pytest.mark.parametrize("case", _tiered(CASES), ids=str)
def test_against_the_machine(case: Case, reference: Path):
    found = differences(case, reference, SAMPLES)
    assert not found, f"{len(found)} operands differ:\n" + "\n".join(found[:10])


@pytest.mark.parametrize("case", MODE_CASES, ids=str)
def test_rounding_modes_against_the_machine(case: Case, reference: Path):
    found = differences(case, reference, MODE_SAMPLES)
    assert not found, f"{len(found)} operands differ:\n" + "\n".join(found[:10])


@pytest.mark.parametrize("case", CASES, ids=str)
def test_folded_terms_compute_the_same(case: Case):
    """The encoder's path: built on constant terms, the circuit folds to our integers' result."""
    for o in operands_of(case, 3):
        assert evaluate(case, TermBuilder(), o) == evaluate(case, IntBuilder(), o), (str(case), o)


def test_frem_reaches_the_largest_exponent_difference():
    """fmod(DBL_MAX, the smallest subnormal) and its neighbours, against Python's exact fmod."""
    builder = IntBuilder()
    for a, b in [(0x7FEFFFFFFFFFFFFF, 1), (0x7FEFFFFFFFFFFFFF, 3), (0x7FE0000000000000, 1), (0x7FE0000000000001, 7),
                 (0x7FEFFFFFFFFFFFFF, 0x000FFFFFFFFFFFFF), (0x7FEFFFFFFFFFFFFE, 0x0010000000000000)]:
        ours = fp_binary(builder, "frem", DOUBLE, builder.const(a, 64), builder.const(b, 64)).value
        assert ours == float_bits(DOUBLE, math.fmod(float_value(DOUBLE, a), float_value(DOUBLE, b))), (hex(a), hex(b))


def test_canonical_nans():
    assert CANONICAL_NAN(SINGLE) == 0x7FC00000 and CANONICAL_NAN(DOUBLE) == 0x7FF8000000000000
    assert FORMATS[32].width == 32 and FORMATS[64].width == 64


def symbolic_circuit(case: Case, tb: TermBuilder):
    """The case's outputs (concatenated) over fresh inputs 0, 1, ...: the circuit the encoder makes."""
    outputs = case.circuit(tb, [tb.input(i, w) for i, w in enumerate(case.input_widths)])
    result = outputs[0]
    for out in outputs[1:]:
        result = tb.op("concat", result, out)
    return result


SAT_CASES = [c for c in CASES if not c.name[-2:].isdigit() or c.name.endswith(("32", "64"))]


@pytest.mark.parametrize("case", _tiered(SAT_CASES), ids=str)
def test_through_the_bit_blaster(case: Case, reference: Path):
    """Term -> Boolector -> AIG -> CNF: with the operands fixed, the clauses admit our
    integers' result and nothing else, and that result is the machine's."""
    tb = TermBuilder()
    term = symbolic_circuit(case, tb)
    inputs = dict(enumerate(case.input_widths))
    operands = operands_of(case, 2)
    machine = run_reference(reference, [case.request(o) for o in operands])
    for o, expected in zip(operands, machine):
        ours = evaluate(case, IntBuilder(), o)
        assert case.agrees(expected, ours, o), (str(case), o)
        packed = 0
        for value, out in zip(ours, case.circuit(IntBuilder(), [IntBuilder().const(v, w) for v, w in
                                                                  zip(o, case.input_widths)])):
            packed = packed << out.width | value
        assert cnf_agrees(term, inputs, dict(enumerate(o)), packed, tb), (str(case), o)


def test_rounding_mode_input_through_the_bit_blaster(reference: Path):
    """The encoder's form of a rounded operation: the mode an input of the term (x86's FE_*
    value, `floatsem.rounding_of_mode`), fixed with the operands; the clauses admit the
    machine's result in that mode and nothing else."""
    from llumc.encoding.floatsem import rounding_of_mode

    tb = TermBuilder()
    term = fp_binary(tb, "fadd", SINGLE, tb.input(0, 32), tb.input(1, 32), rounding_of_mode(tb, tb.input(2, 32)))
    for case in (c for c in MODE_CASES if c.name.startswith("fadd-") and c.fmt is SINGLE):
        operands = [o for o in operands_of(case, 6) if not is_nan(SINGLE, o[0]) and not is_nan(SINGLE, o[1])][:2]
        machine = run_reference(reference, [case.request(o) for o in operands], case.mode)
        for o, expected in zip(operands, machine):
            assert cnf_agrees(term, {0: 32, 1: 32, 2: 32}, {0: o[0], 1: o[1], 2: case.mode}, expected, tb), \
                (str(case), o)


def circuit_size(case: Case, output: int | None = None) -> tuple[int, int]:
    """(AND nodes, clauses) of `out = circuit(inputs)` bit-blasted as the encoder does
    (Boolector with auxiliary-variable division, our AIG, Plaisted-Greenbaum clauses); the
    case's outputs concatenated, or only output number `output`."""
    tb = TermBuilder()
    if output is None:
        term = symbolic_circuit(case, tb)
    else:
        term = case.circuit(tb, [tb.input(i, w) for i, w in enumerate(case.input_widths)])[output]
    out = tb.input(len(case.input_widths), term.width)
    aig = AIG()
    root = blast([tb.eq(term, out)], aig)
    counter = itertools.count(1)
    names: dict[str, int] = {}
    builder = CnfBuilder(aig, lambda name: names.setdefault(name, next(counter)), lambda: next(counter))
    builder.add_root(root)
    return sum(1 for node in aig.nodes if node[0] == "and"), len(builder.clauses)


def print_sizes() -> None:
    """One row per operation and format (fcmp: olt; is.fpclass: ±normal; minnum/maxnum: one
    choice on ties; fptosi/fptoui: value and in-range flag together)."""
    print("| operation | width | AND nodes | clauses |\n|---|---|---|---|")
    chosen = {"fcmp": FCMP_PREDICATES.index("olt"), "class": CLASS_MASKS.index(0x108), "minnum": 0, "maxnum": 0}
    for case in CASES:
        if case.name[-2:].isdigit() and not case.name.endswith(("32", "64")):
            continue
        nodes, clauses = circuit_size(case, chosen.get(case.name))
        label = {"fcmp": "fcmp olt", "class": "is.fpclass normal"}.get(case.name, case.name)
        print(f"| {label} | {case.fmt.width} | {nodes} | {clauses} |", flush=True)


if __name__ == "__main__" and sys.argv[1:] == ["sizes"]:
    print_sizes()
