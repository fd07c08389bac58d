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
"""

from __future__ import annotations

import math
import struct

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


_OPERATIONS = {
    "arith": _arithmetic, "sqrt": _sqrt, "cmp": _compare, "to_int": _to_int, "from_int": _from_int,
    "resize": _resize, "round": _round, "minmax": _min_max, "class": _class,
}
