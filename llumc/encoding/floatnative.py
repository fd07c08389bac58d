"""The floating-point operations of `llumc.encoding.floatsem` computed on the machine's floats,
for concrete runs: the simulator and the explicit-state search evaluate a step's terms many
thousands of times, and a binary64 division is some ten thousand terms as a circuit but one
Python operation here.

Same function as the circuits, bit for bit (tests/test_float_native.py compares them): every
result that is not NaN is IEEE 754's exact answer, and both compute exactly that. binary32
operations are done in binary64 and rounded once to binary32: for +, -, *, / and sqrt that
double rounding never changes the result (binary64 has more than 2p + 2 bits for p = 24), and
struct's conversion rounds to nearest even. Integers are converted to binary32 by hand
(through binary64 a 64-bit integer would be rounded twice). NaN results are the step's
`float-choice` input made a quiet NaN, as `floatsem._any_nan` does.

The operations in a rounding mode (`fesetround`'s value an operand: "rounded_*" keys) compute
the exact result as a `Fraction` and round it in that mode (`_round_exact`); Python's floats
only round to nearest.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

_PACK = {32: "<f", 64: "<d"}
_QUIET_NAN = {32: 0x7FC00000, 64: 0x7FF8000000000000}


def evaluate(key: tuple, *args: int) -> int:
    """The value of the term registered under `key` (see floatsem's `_native`) for argument
    values `args` (unsigned bit patterns, the choice inputs last)."""
    return _OPERATIONS[key[0]](*key[1:], *args)


def _float(bits: int, width: int) -> float:
    return struct.unpack(_PACK[width], bits.to_bytes(width // 8, "little"))[0]


def _bits(value: float, width: int) -> int:
    """`value` rounded to nearest even in the format of `width` bits (±∞ beyond its range)."""
    try:
        packed = struct.pack(_PACK[width], value)
    except OverflowError:  # rounds beyond binary32's largest finite value
        packed = struct.pack("<f", math.copysign(math.inf, value))
    return int.from_bytes(packed, "little")


def _nan(width: int, choice: int) -> int:
    return choice | _QUIET_NAN[width]


def _result(value: float, width: int, choice: int) -> int:
    return _nan(width, choice) if math.isnan(value) else _bits(value, width)


def _arithmetic(op: str, width: int, a: int, b: int, choice: int) -> int:
    x, y = _float(a, width), _float(b, width)
    if op == "fadd":
        value = x + y
    elif op == "fsub":
        value = x - y
    elif op == "fmul":
        value = x * y
    elif op == "fdiv":
        value = _divide(x, y)
    elif op == "frem":
        value = math.nan if math.isinf(x) or y == 0 or math.isnan(x) or math.isnan(y) else math.fmod(x, y)
    else:
        raise ValueError(op)
    return _result(value, width, choice)


def _divide(x: float, y: float) -> float:
    if y != 0 or math.isnan(y):
        return x / y if not math.isnan(y) else math.nan
    if x == 0 or math.isnan(x):
        return math.nan
    negative = (math.copysign(1.0, x) < 0) != (math.copysign(1.0, y) < 0)
    return -math.inf if negative else math.inf


def _sqrt(width: int, a: int, choice: int) -> int:
    x = _float(a, width)
    value = math.nan if math.isnan(x) or x < 0 else math.sqrt(x)
    return _result(value, width, choice)


def _compare(predicate: str, width: int, a: int, b: int) -> int:
    x, y = _float(a, width), _float(b, width)
    unordered = math.isnan(x) or math.isnan(y)
    if predicate in ("false", "true"):
        return int(predicate == "true")
    if predicate in ("ord", "uno"):
        return int(unordered == (predicate == "uno"))
    relation = predicate[1:]
    holds = {"eq": x == y, "ne": x != y, "gt": x > y, "ge": x >= y, "lt": x < y, "le": x <= y}[relation]
    if predicate[0] == "o":
        return int(not unordered and holds)
    return int(unordered or holds)


def _to_int(signed: bool, fwidth: int, iwidth: int, a: int, fresh: int) -> int:
    """fptosi/fptoui: the truncated value where it fits, else the poison's input `fresh`."""
    x = _float(a, fwidth)
    if math.isnan(x) or math.isinf(x):
        return fresh
    value = math.trunc(x)
    low, high = (-(1 << (iwidth - 1)), 1 << (iwidth - 1)) if signed else (0, 1 << iwidth)
    return value & ((1 << iwidth) - 1) if low <= value < high else fresh


def _from_int(signed: bool, iwidth: int, fwidth: int, a: int) -> int:
    value = a - (1 << iwidth) if signed and a >> (iwidth - 1) & 1 else a
    if fwidth == 64:
        return _bits(float(value), 64)  # Python rounds an int to binary64 correctly (to even)
    magnitude = abs(value)
    extra = magnitude.bit_length() - 24
    if extra > 0:  # round to 24 significant bits, ties to even
        kept, rest = magnitude >> extra, magnitude & ((1 << extra) - 1)
        half = 1 << (extra - 1)
        if rest > half or (rest == half and kept & 1):
            kept += 1
        magnitude = kept << extra
    return _bits(math.copysign(float(magnitude), value) if value else 0.0, 32)


def _resize(source: int, target: int, a: int, choice: int) -> int:
    return _result(_float(a, source), target, choice)


def _round(mode: str, width: int, a: int, choice: int) -> int:
    x = _float(a, width)
    if math.isnan(x):
        return _nan(width, choice)
    if math.isinf(x) or x == 0 or abs(x) >= 2.0 ** (23 if width == 32 else 52):
        return a  # already integral
    if mode == "floor":
        value = math.floor(x)
    elif mode == "ceil":
        value = math.ceil(x)
    elif mode == "trunc":
        value = math.trunc(x)
    elif mode == "roundeven":
        value = round(x)  # Python's round of a float: exact, halfway cases to even
    elif mode == "round":  # halfway away from zero; |x| - floor(|x|) is exact
        whole = math.floor(abs(x))
        value = int(math.copysign(whole + (abs(x) - whole >= 0.5), x))
    else:
        raise ValueError(mode)
    return _bits(math.copysign(float(value), x) if value == 0 else float(value), width)


def _min_max(kind: str, width: int, a: int, b: int, pick_first: int, choice: int) -> int:
    x, y = _float(a, width), _float(b, width)
    if math.isnan(x) and math.isnan(y):
        return _nan(width, choice)
    if math.isnan(x):
        return b
    if math.isnan(y):
        return a
    if x == y:
        return a if pick_first else b
    first = x < y if kind == "minnum" else x > y
    return a if first else b


def _class(mask_bits: int, width: int, a: int) -> int:
    x = _float(a, width)
    negative = a >> (width - 1) & 1
    if math.isnan(x):
        quiet = a >> (22 if width == 32 else 51) & 1
        return int(bool(mask_bits & (2 if quiet else 1)))
    if math.isinf(x):
        bit = 2 if negative else 9
    elif x == 0:
        bit = 5 if negative else 6
    elif abs(x) < (2.0 ** -126 if width == 32 else 2.0 ** -1022):
        bit = 4 if negative else 7
    else:
        bit = 3 if negative else 8
    return mask_bits >> bit & 1


FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO = 0x400, 0x800, 0xC00  # x86's values of C's modes
_FORMATS = {32: (24, -126, 127), 64: (53, -1022, 1023)}  # precision, emin, emax


def _round_exact(value: Fraction, width: int, mode: int, negative_zero: bool = False) -> int:
    """The bits of `value` (exact) rounded to the format of `width` bits in rounding mode
    `mode` (C's x86 value; anything else: to nearest, ties to even); 0 as -0 when
    `negative_zero`. Beyond the largest finite number: infinity, or that number when the mode
    rounds toward zero or toward the other sign."""
    precision, emin, emax = _FORMATS[width]
    negative = value < 0 or (value == 0 and negative_zero)
    magnitude = abs(value)
    sign = int(negative) << (width - 1)
    if magnitude == 0:
        return sign
    exponent = max(_floor_log2(magnitude), emin)
    scaled = magnitude / Fraction(2) ** (exponent - precision + 1)
    kept = math.floor(scaled)
    rest = scaled - kept
    if mode in (FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO):
        away = mode == (FE_DOWNWARD if negative else FE_UPWARD)
        kept += int(away and rest > 0)
    else:
        kept += int(rest > Fraction(1, 2) or (rest == Fraction(1, 2) and kept & 1))
    if kept == 1 << precision:
        kept, exponent = kept >> 1, exponent + 1
    infinity = ((1 << (width - 1 - precision + 1)) - 1) << (precision - 1)
    if exponent > emax:
        toward_zero = mode == FE_TOWARDZERO or mode == (FE_UPWARD if negative else FE_DOWNWARD)
        return sign | (infinity - 1 if toward_zero else infinity)
    if kept < 1 << (precision - 1):  # subnormal (or zero): biased exponent 0
        return sign | kept
    return sign | (exponent - emin + 1) << (precision - 1) | (kept - (1 << (precision - 1)))


def _floor_log2(value: Fraction) -> int:
    """floor(log2(value)) of a positive rational, exactly."""
    guess = value.numerator.bit_length() - value.denominator.bit_length()
    return guess if Fraction(2) ** guess <= value else guess - 1


def _rounded_arithmetic(op: str, width: int, a: int, b: int, mode: int, choice: int) -> int:
    """fadd, fsub, fmul, fdiv in rounding mode `mode`: NaN, infinite operands and division by
    zero as in any mode; finite results exactly, then rounded. An exact zero sum of operands
    of opposite signs is -0 downward, +0 otherwise."""
    x, y = _float(a, width), _float(b, width)
    if not (math.isfinite(x) and math.isfinite(y)) or (op == "fdiv" and y == 0):
        return _arithmetic(op, width, a, b, choice)
    fx, fy = Fraction(x), Fraction(y)
    value = {"fadd": lambda: fx + fy, "fsub": lambda: fx - fy, "fmul": lambda: fx * fy,
             "fdiv": lambda: fx / fy}[op]()
    negative_x = math.copysign(1.0, x) < 0
    negative_y = (math.copysign(1.0, y) < 0) != (op == "fsub")
    if op in ("fadd", "fsub"):
        negative_zero = negative_x and negative_y or (negative_x != negative_y and mode == FE_DOWNWARD)
    else:
        negative_zero = negative_x != negative_y
    return _round_exact(value, width, mode, negative_zero)


def _rounded_sqrt(width: int, a: int, mode: int, choice: int) -> int:
    """sqrt in rounding mode `mode`: the nearest root (correct), moved one place where the
    mode rounds the other way (its square compared with `a` exactly)."""
    nearest = _sqrt(width, a, choice)
    x = _float(a, width)
    if math.isnan(x) or x <= 0 or math.isinf(x) or mode not in (FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO):
        return nearest
    square = Fraction(_float(nearest, width)) ** 2
    if mode == FE_UPWARD and square < Fraction(x):
        return nearest + 1  # positive: the next float up
    if mode != FE_UPWARD and square > Fraction(x):
        return nearest - 1
    return nearest


def _rounded_from_int(signed: bool, iwidth: int, fwidth: int, a: int, mode: int) -> int:
    value = a - (1 << iwidth) if signed and a >> (iwidth - 1) & 1 else a
    return _round_exact(Fraction(value), fwidth, mode)


def _rounded_resize(source: int, target: int, a: int, mode: int, choice: int) -> int:
    """fptrunc in rounding mode `mode` (fpext is exact in every mode)."""
    x = _float(a, source)
    if math.isnan(x) or math.isinf(x) or x == 0:
        return _resize(source, target, a, choice)
    return _round_exact(Fraction(x), target, mode)


def _rint(width: int, a: int, mode: int, choice: int) -> int:
    """rint/nearbyint: to an integral value in rounding mode `mode`."""
    directed = {FE_DOWNWARD: "floor", FE_UPWARD: "ceil", FE_TOWARDZERO: "trunc"}
    return _round(directed.get(mode, "roundeven"), width, a, choice)


_OPERATIONS = {
    "rounded_arith": _rounded_arithmetic, "rounded_sqrt": _rounded_sqrt, "rounded_from_int": _rounded_from_int,
    "rounded_resize": _rounded_resize, "rint": _rint,
    "arith": _arithmetic, "sqrt": _sqrt, "cmp": _compare, "to_int": _to_int, "from_int": _from_int,
    "resize": _resize, "round": _round, "minmax": _min_max, "class": _class,
}
