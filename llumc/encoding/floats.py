"""IEEE 754 binary32/binary64 operations as bit-vector circuits over `terms.TermBuilder`.

Why circuits built here: Boolector (the bit-blaster) has no floating-point theory, and the
solvers that have one (z3, Bitwuzla) are not dependencies; their bit-blasted circuits could not
enter our term DAG anyway, and measured larger (docs/encoding.md, `llumc.bench.fp_libraries`).
Each operation is lowered when the term is made into ordinary bit-vector terms, so everything
downstream (bit-blasting, DimSpec, AIGER, BTOR2, the engines, `terms.evaluate`) works
unchanged. Floats are plain 32/64-bit vectors.

Structure (as symfpu's): unpack into sign, exponent (a signed integer of `ew` bits), significand
with its hidden bit and the special-case flags; do the exact integer work (align and add,
multiply, divide, square root) keeping the bits below the result's precision as a guard bit
and a sticky bit; normalise with a logarithmic shifter; round to nearest, ties to even (or in
the rounding mode a `Rounding` gives: downward, upward, toward zero) in the one shared routine
`_round`, which also makes subnormal results and overflow to infinity; pack.
Every operation whose result is a NaN returns `CANONICAL_NAN` (callers make NaN results
nondeterministic, as LLVM leaves them); the rest is bit-exact, subnormals included.

The code only calls `const`, `op`, `and_`, `or_`, `not_`, `ite`, `eq`, `extract`, `zext`,
`sext` of its builder and `width` of the values: `IntBuilder` evaluates the same circuits on
plain Python integers, many times faster than folding constant terms, for large tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from llumc.encoding.terms import evaluate_op, mask, result_width

Bv = Any  # a `Term` or a `Bits`: whatever the builder makes


@dataclass(frozen=True)
class FloatFormat:
    """An IEEE 754 binary interchange format."""

    exponent: int  # exponent field bits
    precision: int  # significand bits including the hidden bit

    @property
    def width(self) -> int:
        return 1 + self.exponent + self.precision - 1

    @property
    def fraction(self) -> int:  # stored significand bits
        return self.precision - 1

    @property
    def bias(self) -> int:
        return (1 << (self.exponent - 1)) - 1

    @property
    def emin(self) -> int:  # exponent of the smallest normal number
        return 1 - self.bias

    @property
    def emax(self) -> int:
        return self.bias


SINGLE = FloatFormat(8, 24)
DOUBLE = FloatFormat(11, 53)
FORMATS = {32: SINGLE, 64: DOUBLE}


def CANONICAL_NAN(fmt: FloatFormat) -> int:  # noqa: N802 (the name the interface fixes)
    """The quiet NaN with sign 0 and payload 0: exponent all ones, top fraction bit set."""
    return (mask(fmt.exponent) << fmt.fraction) | (1 << (fmt.fraction - 1))


def infinity_bits(fmt: FloatFormat, negative: bool = False) -> int:
    return (int(negative) << (fmt.width - 1)) | (mask(fmt.exponent) << fmt.fraction)


# --------------------------------------------------------------------------- a builder on ints


@dataclass(frozen=True, slots=True)
class Bits:
    """A concrete bit-vector value (unsigned `value` of `width` bits)."""

    value: int
    width: int


class IntBuilder:
    """The part of `TermBuilder`'s interface the circuits use, computing on plain integers with
    the terms' own operator semantics (`evaluate_op`): the same circuit, evaluated directly.
    Why: folding constant terms keeps every intermediate constant in the term table; tests
    evaluating hundreds of thousands of operations need the fast path."""

    def const(self, value: int, width: int) -> Bits:
        return Bits(value & mask(width), width)

    def op(self, name: str, *args: Bits, param: object = None) -> Bits:
        quick = _QUICK.get(name)
        if quick is not None:  # the operators the circuits use most, same semantics as below
            return quick(*args)
        width = result_width(name, args, param)
        return Bits(evaluate_op(name, width, [a.value for a in args], [a.width for a in args], param), width)

    def and_(self, a: Bits, b: Bits) -> Bits:
        return Bits(a.value & b.value, _same_width(a, b))

    def or_(self, a: Bits, b: Bits) -> Bits:
        return Bits(a.value | b.value, _same_width(a, b))

    def not_(self, a: Bits) -> Bits:
        return Bits(~a.value & mask(a.width), a.width)

    def ite(self, c: Bits, a: Bits, b: Bits) -> Bits:
        _same_width(a, b)
        return a if c.value else b

    def eq(self, a: Bits, b: Bits) -> Bits:
        return _flag(a.value == b.value, a, b)

    def extract(self, a: Bits, hi: int, lo: int) -> Bits:
        if not 0 <= lo <= hi < a.width:
            raise ValueError(f"extract [{hi}:{lo}] of {a.width} bits")
        return Bits((a.value >> lo) & mask(hi - lo + 1), hi - lo + 1)

    def zext(self, a: Bits, width: int) -> Bits:
        if width < a.width:
            raise ValueError(f"zext of {a.width} bits to {width}")
        return Bits(a.value, width)

    def sext(self, a: Bits, width: int) -> Bits:
        return self.op("sext", a, param=width)


def _same_width(a: Bits, b: Bits) -> int:
    if a.width != b.width:
        raise ValueError(f"widths {a.width} and {b.width} differ")
    return a.width


def _flag(holds: bool, a: Bits, b: Bits) -> Bits:
    """A 1-bit comparison result of two same-width operands."""
    _same_width(a, b)
    return Bits(int(holds), 1)


def _shift(a: Bits, b: Bits, left: bool) -> Bits:
    width = _same_width(a, b)
    if b.value >= width:
        return Bits(0, width)
    return Bits((a.value << b.value) & mask(width), width) if left else Bits(a.value >> b.value, width)


# Direct versions of `evaluate_op` for the commonest operators (a third of the time per
# operation in tests that evaluate hundreds of thousands); tests compare both paths.
_QUICK = {
    "add": lambda a, b: Bits((a.value + b.value) & mask(_same_width(a, b)), a.width),
    "sub": lambda a, b: Bits((a.value - b.value) & mask(_same_width(a, b)), a.width),
    "xor": lambda a, b: Bits(a.value ^ b.value, _same_width(a, b)),
    "ult": lambda a, b: _flag(a.value < b.value, a, b),
    "shl": lambda a, b: _shift(a, b, True),
    "lshr": lambda a, b: _shift(a, b, False),
    "concat": lambda a, b: Bits(a.value << b.width | b.value, a.width + b.width),
}


# --------------------------------------------------------------------------- small helpers


def _bit(tb, a: Bv, i: int) -> Bv:
    return tb.extract(a, i, i)


def _is_zero(tb, a: Bv) -> Bv:
    return tb.eq(a, tb.const(0, a.width))


def _nonzero(tb, a: Bv) -> Bv:
    return tb.not_(_is_zero(tb, a))


def _resize(tb, a: Bv, width: int) -> Bv:
    """`a` zero-extended or truncated to `width` bits."""
    if width >= a.width:
        return tb.zext(a, width)
    return tb.extract(a, width - 1, 0)


def _slt_const(tb, a: Bv, value: int) -> Bv:
    return tb.op("slt", a, tb.const(value, a.width))


def _clamped_amount(tb, amount: Bv, width: int) -> Bv:
    """min(amount, width) as a `width`-bit shift amount (`amount` unsigned): shifting by it
    gives what shifting by `amount` would, without the high bits wrapping round."""
    if (1 << amount.width) - 1 > width:
        amount = tb.ite(tb.op("ult", amount, tb.const(width, amount.width)), amount, tb.const(width, amount.width))
    return _resize(tb, amount, width)


def _shift_right_sticky(tb, x: Bv, amount: Bv) -> tuple[Bv, Bv]:
    """(x >> amount, whether a 1 was shifted out): the sticky bit by masking the lost bits
    (one shift of all ones and a compare) instead of OR-ing them one shift at a time."""
    amount = _clamped_amount(tb, amount, x.width)
    ones = tb.const(mask(x.width), x.width)
    lost = tb.and_(x, tb.not_(tb.op("shl", ones, amount)))
    return tb.op("lshr", x, amount), _nonzero(tb, lost)


def _normalise(tb, x: Bv) -> tuple[Bv, Bv]:
    """(x shifted left until its top bit is 1, the number of places): a logarithmic shifter
    counting the leading zeros (stages 2^k, ..., 2, 1), log2(width) multiplexers instead of a
    priority encoder. For x = 0 the count is meaningless: callers treat zero apart."""
    stages = (x.width - 1).bit_length()  # 2^(stages-1) < width: each stage's top slice exists
    count = []
    for k in reversed(range(stages)):
        top_zero = _is_zero(tb, tb.extract(x, x.width - 1, x.width - (1 << k)))
        shifted = tb.op("shl", x, tb.const(1 << k, x.width))
        x = tb.ite(top_zero, shifted, x)
        count.append(top_zero)
    amount = count[0]
    for bit in count[1:]:
        amount = tb.op("concat", amount, bit)
    return x, amount


# --------------------------------------------------------------------------- unpack, round, pack


@dataclass(frozen=True)
class Unpacked:
    """A float taken apart. Its value (when finite and nonzero) is sig * 2^(exp - precision + 1):
    `exp` is the exponent of the significand's top bit, a signed `ew`-bit integer."""

    sign: Bv
    exp: Bv
    sig: Bv  # precision bits; top bit set unless an unnormalised subnormal
    nan: Bv
    inf: Bv
    zero: Bv
    subnormal: Bv


def unpack(tb, fmt: FloatFormat, a: Bv, ew: int, normalise: bool) -> Unpacked:
    """Fields and flags of `a`. A subnormal has exponent emin and no hidden bit; with
    `normalise` its significand is shifted to put a 1 on top (and its exponent lowered), as
    multiplication, division and square root want. Addition does without (cheaper)."""
    f = fmt.fraction
    field = tb.extract(a, fmt.width - 2, f)
    frac = tb.extract(a, f - 1, 0)
    field_zero, field_ones = _is_zero(tb, field), tb.eq(field, tb.const(mask(fmt.exponent), fmt.exponent))
    frac_zero = _is_zero(tb, frac)
    biased = tb.ite(field_zero, tb.const(1, fmt.exponent), field)
    exp = tb.op("sub", tb.zext(biased, ew), tb.const(fmt.bias, ew))
    sig = tb.op("concat", tb.not_(field_zero), frac)
    if normalise:
        sig, shift = _normalise(tb, sig)
        exp = tb.op("sub", exp, _resize(tb, shift, ew))
    return Unpacked(sign=_bit(tb, a, fmt.width - 1), exp=exp, sig=sig,
                    nan=tb.and_(field_ones, tb.not_(frac_zero)), inf=tb.and_(field_ones, frac_zero),
                    zero=tb.and_(field_zero, frac_zero), subnormal=tb.and_(field_zero, tb.not_(frac_zero)))


@dataclass(frozen=True)
class Rounding:
    """A rounding-direction attribute as 1-bit terms, exactly one of them 1 (C's `fesetround`
    modes: FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO). Operations given None round to
    nearest, ties to even, through exactly the circuit they had before modes existed, so the
    encodings of programs that never change the mode stay the same."""

    nearest: Bv
    down: Bv
    up: Bv
    toward_zero: Bv


def rounding_flags(tb, down: Bv, up: Bv, toward_zero: Bv) -> Rounding:
    """The `Rounding` whose directed flags are given (at most one set): nearest otherwise."""
    return Rounding(tb.not_(tb.or_(tb.or_(down, up), toward_zero)), down, up, toward_zero)


def _round(tb, fmt: FloatFormat, sign: Bv, exp: Bv, sig: Bv, sticky: Bv, rounding: Rounding | None = None) -> Bv:
    """The packed float nearest (ties to even) to sig * 2^(exp - width(sig) + 1) plus a bit
    more when `sticky`, or that value rounded as `rounding` says. `sig` must have its top bit
    set (callers treat zero apart). Below the normal range the significand is first shifted
    right (a subnormal result), above it the result is infinity (or, rounding toward zero or
    away from the result's sign, the largest finite number): the one rounding routine of
    every operation."""
    p, ew = fmt.precision, exp.width
    if sig.width < p + 2:  # room for a guard bit and a sticky bit
        sig = tb.op("concat", sig, tb.const(0, p + 2 - sig.width))
    tiny = _slt_const(tb, exp, fmt.emin)
    distance = tb.ite(tiny, tb.op("sub", tb.const(fmt.emin, ew), exp), tb.const(0, ew))
    sig, lost = _shift_right_sticky(tb, sig, distance)
    exp = tb.ite(tiny, tb.const(fmt.emin, ew), exp)
    w = sig.width
    kept = tb.extract(sig, w - 1, w - p)
    rest = tb.or_(_nonzero(tb, tb.extract(sig, w - p - 2, 0)), tb.or_(sticky, lost))
    guard = _bit(tb, sig, w - p - 1)
    up = tb.and_(guard, tb.or_(rest, _bit(tb, kept, 0)))
    away = None  # with `rounding`: whether the mode rounds this sign's results away from zero
    if rounding is not None:
        away = tb.ite(sign, rounding.down, rounding.up)
        up = tb.ite(rounding.nearest, up, tb.and_(away, tb.or_(guard, rest)))
    rounded = tb.op("add", tb.zext(kept, p + 1), tb.zext(up, p + 1))
    carry = _bit(tb, rounded, p)  # rounded up to 2^p: 2^(p-1) one exponent higher
    final = tb.ite(carry, tb.const(1 << (p - 1), p), tb.extract(rounded, p - 1, 0))
    exp = tb.op("add", exp, tb.zext(carry, ew))
    biased = tb.extract(tb.op("add", exp, tb.const(fmt.bias, ew)), fmt.exponent - 1, 0)
    biased = tb.ite(_bit(tb, final, p - 1), biased, tb.const(0, fmt.exponent))  # subnormal: 0
    packed = tb.op("concat", tb.op("concat", sign, biased), tb.extract(final, p - 2, 0))
    overflow = tb.op("slt", tb.const(fmt.emax, ew), exp)
    if rounding is None:
        return tb.ite(overflow, _infinity(tb, fmt, sign), packed)
    largest = tb.op("concat", sign, tb.const(infinity_bits(fmt) - 1, fmt.width - 1))
    beyond = tb.ite(tb.or_(rounding.nearest, away), _infinity(tb, fmt, sign), largest)
    return tb.ite(overflow, beyond, packed)


def _infinity(tb, fmt: FloatFormat, sign: Bv) -> Bv:
    return tb.op("concat", sign, tb.const(mask(fmt.exponent) << fmt.fraction, fmt.width - 1))


def _zero(tb, fmt: FloatFormat, sign: Bv) -> Bv:
    return tb.op("concat", sign, tb.const(0, fmt.width - 1))


def _specials(tb, fmt: FloatFormat, result: Bv, *, nan: Bv, inf: Bv | None = None, inf_sign: Bv | None = None,
              zero: Bv | None = None, zero_sign: Bv | None = None) -> Bv:
    """`result` overridden by the special cases, NaN first (canonical), then ±inf, then ±0."""
    if zero is not None:
        result = tb.ite(zero, _zero(tb, fmt, zero_sign), result)
    if inf is not None:
        result = tb.ite(inf, _infinity(tb, fmt, inf_sign), result)
    return tb.ite(nan, tb.const(CANONICAL_NAN(fmt), fmt.width), result)


def _exponent_width(fmt: FloatFormat) -> int:
    """Room for exponent sums and differences of two unpacked operands (down to about
    2 * (emin - precision)) with their sign."""
    return fmt.exponent + 3


# --------------------------------------------------------------------------- bitwise operations


def fp_neg(tb, fmt: FloatFormat, a: Bv) -> Bv:
    """The sign bit flipped (LLVM's fneg is bitwise: NaNs keep their payload)."""
    return tb.op("xor", a, tb.const(1 << (fmt.width - 1), fmt.width))


def fp_abs(tb, fmt: FloatFormat, a: Bv) -> Bv:
    return tb.and_(a, tb.const(mask(fmt.width - 1), fmt.width))


def fp_copysign(tb, fmt: FloatFormat, a: Bv, b: Bv) -> Bv:
    sign = tb.const(1 << (fmt.width - 1), fmt.width)
    return tb.or_(fp_abs(tb, fmt, a), tb.and_(b, sign))


def fp_is_nan(tb, fmt: FloatFormat, a: Bv) -> Bv:
    """Exponent all ones and fraction nonzero: the magnitude bits exceed infinity's."""
    magnitude = tb.extract(a, fmt.width - 2, 0)
    return tb.op("ult", tb.const(infinity_bits(fmt), fmt.width - 1), magnitude)


def fp_class_test(tb, fmt: FloatFormat, a: Bv, mask: int) -> Bv:
    """llvm.is.fpclass: whether `a` is in one of the classes whose bit is set in `mask`
    (0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -subnormal, 5 -0, 6 +0, 7 +subnormal, 8 +normal,
    9 +inf; `mask` shadows `terms.mask` here, the name the interface fixes)."""
    u = unpack(tb, fmt, a, _exponent_width(fmt), normalise=False)
    quiet = _bit(tb, a, fmt.fraction - 1)
    normal = tb.not_(tb.or_(tb.or_(u.nan, u.inf), tb.or_(u.zero, u.subnormal)))
    neg, pos = u.sign, tb.not_(u.sign)
    classes = [tb.and_(u.nan, tb.not_(quiet)), tb.and_(u.nan, quiet),
               tb.and_(neg, u.inf), tb.and_(neg, normal), tb.and_(neg, u.subnormal), tb.and_(neg, u.zero),
               tb.and_(pos, u.zero), tb.and_(pos, u.subnormal), tb.and_(pos, normal), tb.and_(pos, u.inf)]
    return _any(tb, [cls for bit, cls in enumerate(classes) if mask >> bit & 1])


def _any(tb, bits: list[Bv]) -> Bv:
    result = tb.const(0, 1)
    for b in bits:
        result = tb.or_(result, b)
    return result


# --------------------------------------------------------------------------- comparison


def _less(tb, fmt: FloatFormat, a: Bv, b: Bv) -> Bv:
    """a < b for ordered a, b (meaningless with a NaN): -0 and +0 are equal; otherwise the
    sign decides, then the magnitude bits (reversed for negatives), as integers."""
    mag_a, mag_b = tb.extract(a, fmt.width - 2, 0), tb.extract(b, fmt.width - 2, 0)
    sign_a, sign_b = _bit(tb, a, fmt.width - 1), _bit(tb, b, fmt.width - 1)
    both_zero = _is_zero(tb, tb.or_(mag_a, mag_b))
    same_sign = tb.ite(sign_a, tb.op("ult", mag_b, mag_a), tb.op("ult", mag_a, mag_b))
    return tb.and_(tb.not_(both_zero), tb.ite(tb.eq(sign_a, sign_b), same_sign, sign_a))


def _equal(tb, fmt: FloatFormat, a: Bv, b: Bv) -> Bv:
    """a == b for ordered a, b: the same bits, or both zeros."""
    both_zero = _is_zero(tb, tb.extract(tb.or_(a, b), fmt.width - 2, 0))
    return tb.or_(tb.eq(a, b), both_zero)


FCMP_PREDICATES = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                   "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")


def fp_compare(tb, predicate: str, fmt: FloatFormat, a: Bv, b: Bv) -> Bv:
    """LLVM's fcmp: `o` predicates are false when either operand is a NaN, `u` ones true."""
    if predicate not in FCMP_PREDICATES:
        raise ValueError(f"unknown fcmp predicate {predicate!r}")
    if predicate in ("false", "true"):
        return tb.const(int(predicate == "true"), 1)
    unordered = tb.or_(fp_is_nan(tb, fmt, a), fp_is_nan(tb, fmt, b))
    if predicate in ("ord", "uno"):
        return unordered if predicate == "uno" else tb.not_(unordered)
    equal, less, greater = _equal(tb, fmt, a, b), _less(tb, fmt, a, b), _less(tb, fmt, b, a)
    relation = {"eq": equal, "gt": greater, "ge": tb.or_(greater, equal), "lt": less,
                "le": tb.or_(less, equal), "ne": tb.not_(equal)}
    if predicate in ("one", "une"):
        holds = relation["ne"]
    else:
        holds = relation[predicate[1:]]
    if predicate[0] == "u":
        return tb.or_(unordered, holds)
    return tb.and_(tb.not_(unordered), holds)


# --------------------------------------------------------------------------- arithmetic


def fp_binary(tb, op: str, fmt: FloatFormat, a: Bv, b: Bv, rounding: Rounding | None = None) -> Bv:
    """fadd, fsub, fmul, fdiv, frem, rounding to nearest, ties to even, or as `rounding` says
    (frem is exact)."""
    if op == "fadd":
        return _add(tb, fmt, a, b, rounding)
    if op == "fsub":
        return _add(tb, fmt, a, fp_neg(tb, fmt, b), rounding)
    if op == "fmul":
        return _multiply(tb, fmt, a, b, rounding)
    if op == "fdiv":
        return _divide(tb, fmt, a, b, rounding)
    if op == "frem":
        return _remainder(tb, fmt, a, b)
    raise ValueError(f"unknown floating-point operation {op!r}")


def _add(tb, fmt: FloatFormat, a: Bv, b: Bv, rounding: Rounding | None = None) -> Bv:
    """a + b: the operand of larger magnitude first; the other's significand shifted right by
    the exponent difference, what falls off jammed into a sticky bit below the guard and round
    bits (three bits suffice: with a difference of 2 or more, cancellation removes at most
    one leading bit); add or subtract; normalise; round. An exact zero sum is +0 unless both
    operands are negative, or when rounding downward unless both are positive (IEEE 754 6.3)."""
    ew, p = _exponent_width(fmt), fmt.precision
    ua, ub = unpack(tb, fmt, a, ew, False), unpack(tb, fmt, b, ew, False)
    swap = tb.op("ult", tb.extract(a, fmt.width - 2, 0), tb.extract(b, fmt.width - 2, 0))
    big, small = _select(tb, swap, ub, ua), _select(tb, swap, ua, ub)
    width = p + 4  # carry, p significand bits, guard, round, sticky
    big_sig = tb.op("concat", tb.zext(big.sig, p + 1), tb.const(0, 3))
    small_sig = tb.op("concat", tb.zext(small.sig, p + 1), tb.const(0, 3))
    aligned, lost = _shift_right_sticky(tb, small_sig, tb.op("sub", big.exp, small.exp))
    aligned = tb.or_(aligned, tb.zext(lost, width))
    subtract = tb.op("xor", ua.sign, ub.sign)
    total = tb.ite(subtract, tb.op("sub", big_sig, aligned), tb.op("add", big_sig, aligned))
    normalised, shift = _normalise(tb, total)
    exp = tb.op("sub", tb.op("add", big.exp, tb.const(1, ew)), _resize(tb, shift, ew))
    result = _round(tb, fmt, big.sign, exp, normalised, tb.const(0, 1), rounding)
    zero_sign = tb.and_(ua.sign, ub.sign)
    if rounding is not None:
        zero_sign = tb.ite(rounding.down, tb.or_(ua.sign, ub.sign), zero_sign)
    return _specials(tb, fmt, result,
                     nan=tb.or_(tb.or_(ua.nan, ub.nan), tb.and_(tb.and_(ua.inf, ub.inf), subtract)),
                     inf=tb.or_(ua.inf, ub.inf), inf_sign=tb.ite(ua.inf, ua.sign, ub.sign),
                     zero=_is_zero(tb, total), zero_sign=zero_sign)


def _select(tb, choose_first: Bv, first: Unpacked, second: Unpacked) -> Unpacked:
    """Field by field multiplexer of two unpacked floats."""
    return Unpacked(*(tb.ite(choose_first, x, y) for x, y in zip(_fields(first), _fields(second))))


def _fields(u: Unpacked) -> tuple:
    return (u.sign, u.exp, u.sig, u.nan, u.inf, u.zero, u.subnormal)


def _multiply(tb, fmt: FloatFormat, a: Bv, b: Bv, rounding: Rounding | None = None) -> Bv:
    """a * b: the exact 2p-bit product of the normalised significands (one multiplier on
    widened vectors), its top bit at 2p-1 or 2p-2, then rounded."""
    ew, p = _exponent_width(fmt), fmt.precision
    ua, ub = unpack(tb, fmt, a, ew, True), unpack(tb, fmt, b, ew, True)
    product = tb.op("mul", tb.zext(ua.sig, 2 * p), tb.zext(ub.sig, 2 * p))
    top = _bit(tb, product, 2 * p - 1)
    exp = tb.op("add", tb.op("add", ua.exp, ub.exp), tb.zext(top, ew))
    product = tb.ite(top, product, tb.op("shl", product, tb.const(1, 2 * p)))
    sign = tb.op("xor", ua.sign, ub.sign)
    result = _round(tb, fmt, sign, exp, product, tb.const(0, 1), rounding)
    invalid = tb.or_(tb.and_(ua.inf, ub.zero), tb.and_(ua.zero, ub.inf))
    return _specials(tb, fmt, result, nan=tb.or_(tb.or_(ua.nan, ub.nan), invalid),
                     inf=tb.or_(ua.inf, ub.inf), inf_sign=sign, zero=tb.or_(ua.zero, ub.zero), zero_sign=sign)


def _divide(tb, fmt: FloatFormat, a: Bv, b: Bv, rounding: Rounding | None = None) -> Bv:
    """a / b: the quotient of the dividend's significand shifted p+2 places by the divisor's
    (p+2 or p+3 bits: enough for a guard bit), the remainder's being nonzero the sticky bit."""
    ew, p = _exponent_width(fmt), fmt.precision
    ua, ub = unpack(tb, fmt, a, ew, True), unpack(tb, fmt, b, ew, True)
    width = 2 * p + 2
    dividend = tb.op("concat", ua.sig, tb.const(0, p + 2))
    divisor = tb.zext(ub.sig, width)
    quotient = tb.extract(tb.op("udiv", dividend, divisor), p + 2, 0)
    sticky = _nonzero(tb, tb.op("urem", dividend, divisor))
    top = _bit(tb, quotient, p + 2)
    exp = tb.op("sub", tb.op("sub", ua.exp, ub.exp), tb.zext(tb.not_(top), ew))
    quotient = tb.ite(top, quotient, tb.op("shl", quotient, tb.const(1, p + 3)))
    sign = tb.op("xor", ua.sign, ub.sign)
    result = _round(tb, fmt, sign, exp, quotient, sticky, rounding)
    invalid = tb.or_(tb.and_(ua.inf, ub.inf), tb.and_(ua.zero, ub.zero))
    return _specials(tb, fmt, result, nan=tb.or_(tb.or_(ua.nan, ub.nan), invalid),
                     inf=tb.or_(ua.inf, ub.zero), inf_sign=sign, zero=tb.or_(ua.zero, ub.inf), zero_sign=sign)


def fp_sqrt(tb, fmt: FloatFormat, a: Bv, rounding: Rounding | None = None) -> Bv:
    """Square root: the significand shifted to an even exponent and to 2(p+2) bits, its integer
    square root (p+2 bits: guard included) by the digit recurrence, a nonzero remainder the
    sticky bit. sqrt(-0) = -0; negative numbers give NaN."""
    ew, p = _exponent_width(fmt), fmt.precision
    u = unpack(tb, fmt, a, ew, True)
    n = p + 2  # root bits
    # value = sig * 2^(exp - p + 1); radicand = sig << s with s in {p+3, p+4} making
    # exp - p + 1 - s even, so the radicand has 2n-1 or 2n bits
    odd = _bit(tb, u.exp, 0)  # exp - p + 1 - (p + 3) is even iff exp is even (p + p + 2 even)
    radicand = tb.op("concat", tb.zext(u.sig, p + 1), tb.const(0, p + 3))  # sig << (p+3), 2n bits
    radicand = tb.ite(odd, tb.op("shl", radicand, tb.const(1, 2 * n)), radicand)
    root, inexact = _integer_sqrt(tb, radicand, n)
    # root's top bit has exponent (exp - p + 1 - s) / 2 + n - 1
    shift_total = tb.op("add", tb.const(p + 3, ew), tb.zext(odd, ew))
    halved = tb.op("ashr", tb.op("sub", tb.op("sub", u.exp, tb.const(p - 1, ew)), shift_total), tb.const(1, ew))
    exp = tb.op("add", halved, tb.const(n - 1, ew))
    result = _round(tb, fmt, tb.const(0, 1), exp, root, inexact, rounding)
    nan = tb.or_(u.nan, tb.and_(u.sign, tb.not_(u.zero)))
    result = tb.ite(tb.or_(u.zero, u.inf), a, result)  # ±0 and +inf are their own roots
    return tb.ite(nan, tb.const(CANONICAL_NAN(fmt), fmt.width), result)


def _integer_sqrt(tb, radicand: Bv, n: int) -> tuple[Bv, Bv]:
    """(floor(sqrt(radicand)) on n bits, remainder nonzero) for a 2n-bit radicand: the
    digit-by-digit recurrence, two radicand bits per step into an (n+2)-bit remainder, so n
    narrow subtractors instead of a wide divider."""
    remainder, root = tb.const(0, n + 2), tb.const(0, n)
    for i in reversed(range(n)):
        pair = tb.extract(radicand, 2 * i + 1, 2 * i)
        remainder = tb.op("concat", tb.extract(remainder, n - 1, 0), pair)
        trial = tb.op("concat", root, tb.const(1, 2))
        fits = tb.not_(tb.op("ult", remainder, trial))
        remainder = tb.ite(fits, tb.op("sub", remainder, trial), remainder)
        root = tb.op("concat", tb.extract(root, n - 2, 0), fits)
    return root, _nonzero(tb, remainder)


def _remainder(tb, fmt: FloatFormat, a: Bv, b: Bv) -> Bv:
    """frem = C's fmod: a - trunc(a / b) * b, exact, with a's sign. With both significands
    normalised and d = exp_a - exp_b >= 0, the result is (sig_a * 2^d mod sig_b) units of b's
    last place. d reaches emax - emin + p - 1 (276 for binary32, 2 097 for binary64): a long
    division, one bit of d per step, was 91 221 AND nodes for binary32 and would be about 1.5
    million for binary64, so 2^d mod sig_b is computed by square-and-multiply instead
    (`_power_of_two_mod`) and sig_a times it reduced once more: 42 167 and 268 442 AND nodes
    with the number of squarings that measured smallest (binary32 2, 3, 4: 44 539, 42 167,
    46 026; binary64 3, 4, 5, 6: 322 804, 273 304, 268 442, 294 056)."""
    ew, p = _exponent_width(fmt), fmt.precision
    ua, ub = unpack(tb, fmt, a, ew, True), unpack(tb, fmt, b, ew, True)
    difference = tb.op("sub", ua.exp, ub.exp)  # >= 0 wherever the result is used
    modulus = ub.sig
    squarings = 3 if fmt.precision <= SINGLE.precision else 5
    power = _power_of_two_mod(tb, difference, modulus, fmt.emax - fmt.emin + p - 1, squarings)
    rest = tb.zext(_multiply_mod(tb, ua.sig, power, modulus), p + 1)
    # rest * 2^(exp_b - p + 1), exact: its top bit has exponent exp_b + 1 - shift
    normalised, shift = _normalise(tb, rest)
    exp = tb.op("sub", tb.op("add", ub.exp, tb.const(1, ew)), _resize(tb, shift, ew))
    result = _round(tb, fmt, ua.sign, exp, normalised, tb.const(0, 1))
    result = tb.ite(_is_zero(tb, rest), _zero(tb, fmt, ua.sign), result)
    keeps_a = tb.or_(tb.or_(ub.inf, ua.zero), tb.op("slt", ua.exp, ub.exp))  # |a| < |b|
    result = tb.ite(keeps_a, a, result)
    nan = tb.or_(tb.or_(ua.nan, ub.nan), tb.or_(ua.inf, ub.zero))
    return tb.ite(nan, tb.const(CANONICAL_NAN(fmt), fmt.width), result)


def _power_of_two_mod(tb, exponent: Bv, modulus: Bv, largest: int, squarings: int) -> Bv:
    """2^exponent mod modulus (p bits, top bit set) for 0 <= exponent <= largest, by left-to-
    right square-and-multiply over the exponent's low `squarings` bits: each squares (`_square`,
    `_reduce_product`) and, when set, doubles (one conditional subtraction). Before them, 2^t
    for the top bits t = exponent >> squarings comes from a shift (up to 2^(p-2), below the
    modulus) and t - p + 2 doublings (at p = 53 a doubling costs about 1/60 of a squaring)."""
    p = modulus.width
    bits = largest.bit_length()
    exponent = tb.extract(exponent, bits - 1, 0)
    top = tb.op("lshr", exponent, tb.const(squarings, bits))
    shift = tb.ite(tb.op("ult", top, tb.const(p - 2, bits)), top, tb.const(p - 2, bits))
    power = tb.op("shl", tb.const(1, p), _resize(tb, shift, p))
    for doublings in range((largest >> squarings) - (p - 2)):
        more = tb.op("ult", tb.const(p - 2 + doublings, bits), top)
        power = tb.ite(more, _double_mod(tb, power, modulus), power)
    for i in reversed(range(squarings)):
        power = _reduce_product(tb, _square(tb, power), modulus)
        power = tb.ite(_bit(tb, exponent, i), _double_mod(tb, power, modulus), power)
    return power


def _double_mod(tb, value: Bv, modulus: Bv) -> Bv:
    """2 * value mod modulus for value < modulus."""
    p = modulus.width
    doubled = tb.op("concat", value, tb.const(0, 1))
    return tb.extract(_reduce_once(tb, doubled, tb.zext(modulus, p + 1)), p - 1, 0)


def _multiply_mod(tb, x: Bv, y: Bv, modulus: Bv) -> Bv:
    """x * y mod modulus for y below the modulus (p bits, top bit set, x up to p bits)."""
    p = modulus.width
    return _reduce_product(tb, tb.op("mul", tb.zext(x, 2 * p), tb.zext(y, 2 * p)), modulus)


def _reduce_product(tb, product: Bv, modulus: Bv) -> Bv:
    """product mod modulus for a 2p-bit product below modulus * 2^p (p = the modulus's width,
    top bit set): a long division, p conditional subtractions (28 392 AND nodes at p = 53).
    `urem` instead (auxiliary quotient and remainder, a second multiplier) made the binary64
    frem 398 448 AND nodes against 356 042 in an earlier version."""
    p = modulus.width
    divisor = tb.zext(modulus, p + 1)
    rest = tb.zext(tb.extract(product, 2 * p - 1, p), p + 1)  # below the modulus
    for i in reversed(range(p)):
        rest = _reduce_once(tb, tb.op("concat", tb.extract(rest, p - 1, 0), _bit(tb, product, i)), divisor)
    return tb.extract(rest, p - 1, 0)


def _square(tb, x: Bv) -> Bv:
    """x * x on twice x's width, by halves: (h 2^k + l)^2 = h^2 2^2k + l^2 + 2hl 2^k, the two
    squares side by side (they do not overlap), recursively, and one multiplier of the halves:
    at 53 bits 11 725 AND nodes against 20 875 for `mul` of x by itself."""
    n = x.width
    if n < 3:
        return tb.op("mul", tb.zext(x, 2 * n), tb.zext(x, 2 * n))
    k = n // 2
    low, high = tb.extract(x, k - 1, 0), tb.extract(x, n - 1, k)
    squares = tb.op("concat", _square(tb, high), _square(tb, low))
    cross = tb.op("mul", tb.zext(high, n), tb.zext(low, n))  # 2hl 2^k: from bit k + 1 up
    upper = tb.op("add", tb.extract(squares, 2 * n - 1, k + 1), tb.zext(cross, 2 * n - k - 1))
    return tb.op("concat", upper, tb.extract(squares, k, 0))


def _reduce_once(tb, value: Bv, divisor: Bv) -> Bv:
    """value mod divisor for value < 2 * divisor: one subtraction a bit wider, whose borrow
    says whether to keep it (a separate compare would be a second carry chain: frem on
    binary32 as a long division had 115 325 AND nodes with one, 91 221 without)."""
    width = value.width + 1
    difference = tb.op("sub", tb.zext(value, width), tb.zext(divisor, width))
    return tb.ite(_bit(tb, difference, width - 1), value, tb.extract(difference, width - 2, 0))


# --------------------------------------------------------------------------- conversions


def fp_to_int(tb, fmt: FloatFormat, a: Bv, width: int, signed: bool) -> tuple[Bv, Bv]:
    """(a rounded toward zero on `width` bits, in range). The magnitude is the significand
    shifted by the exponent on max(width, p) + 2 bits (room for every exponent that can still
    be in range); out of range: NaN, ±inf, |a| >= 2^(width+1) and whatever the bounds exclude
    (a negative nonzero truncation when unsigned). The value is then just some term."""
    p = fmt.precision
    ew = max(fmt.exponent, (width + 1).bit_length()) + 3
    u = unpack(tb, fmt, a, ew, False)  # subnormals are below 1: they truncate to 0
    wide = max(width, p) + 2
    sig = tb.zext(u.sig, wide)
    up = _resize(tb, tb.op("sub", u.exp, tb.const(p - 1, ew)), wide)  # negative: huge, shifts out
    down = _resize(tb, tb.op("sub", tb.const(p - 1, ew), u.exp), wide)
    magnitude = tb.ite(_slt_const(tb, u.exp, p - 1), tb.op("lshr", sig, down), tb.op("shl", sig, up))
    magnitude = tb.ite(_slt_const(tb, u.exp, 0), tb.const(0, wide), magnitude)
    finite = tb.not_(tb.or_(tb.or_(u.nan, u.inf), tb.not_(_slt_const(tb, u.exp, width + 1))))
    if signed:
        limit = 1 << (width - 1)
        fits = tb.ite(u.sign, tb.not_(tb.op("ult", tb.const(limit, wide), magnitude)),
                      tb.op("ult", magnitude, tb.const(limit, wide)))
    else:
        fits = tb.ite(u.sign, _is_zero(tb, magnitude), tb.op("ult", magnitude, tb.const(1 << width, wide)))
    value = tb.ite(u.sign, tb.op("neg", magnitude), magnitude)
    return tb.extract(value, width - 1, 0), tb.and_(finite, fits)


def int_to_fp(tb, fmt: FloatFormat, a: Bv, signed: bool, rounding: Rounding | None = None) -> Bv:
    """sitofp/uitofp from any width: the magnitude normalised by the leading-zero shifter,
    then rounded (exact up to p bits); 0 is +0 in every mode."""
    n = a.width
    ew = max(fmt.exponent, n.bit_length()) + 3
    sign = _bit(tb, a, n - 1) if signed else tb.const(0, 1)
    magnitude = tb.ite(sign, tb.op("neg", a), a)  # -INT_MIN is INT_MIN: right as unsigned
    if n < fmt.precision + 2:
        magnitude = tb.op("concat", magnitude, tb.const(0, fmt.precision + 2 - n))
    normalised, shift = _normalise(tb, magnitude)
    exp = tb.op("sub", tb.const(n - 1, ew), _resize(tb, shift, ew))
    result = _round(tb, fmt, sign, exp, normalised, tb.const(0, 1), rounding)
    return tb.ite(_is_zero(tb, magnitude), tb.const(0, fmt.width), result)


def fp_resize(tb, src: FloatFormat, dst: FloatFormat, a: Bv, rounding: Rounding | None = None) -> Bv:
    """fpext (exact) and fptrunc (rounded to nearest even or as `rounding` says, to
    subnormals, zero, infinity or the largest finite number): the normalised significand
    rounded into the other format."""
    ew = max(_exponent_width(src), _exponent_width(dst))
    u = unpack(tb, src, a, ew, True)
    result = _round(tb, dst, u.sign, u.exp, u.sig, tb.const(0, 1), rounding)
    return _specials(tb, dst, result, nan=u.nan, inf=u.inf, inf_sign=u.sign, zero=u.zero, zero_sign=u.sign)


ROUNDING_MODES = ("floor", "ceil", "trunc", "round", "roundeven")


def fp_round_integral(tb, fmt: FloatFormat, a: Bv, mode: str, rounding: Rounding | None = None) -> Bv:
    """floor, ceil, trunc, round (halfway away from zero) and roundeven of `a`, keeping its
    sign (floor(-0.5) = -1, ceil(-0.5) = -0); "rint" (C's rint and nearbyint) rounds as
    `rounding` says: roundeven, floor, ceil or trunc. Numbers with exponent >= p-1 are
    integers already; below, the significand's fraction bits (at most p+1 of them: below that
    they only matter as nonzero) decide the increment of its integer part, which is repacked."""
    if mode not in ROUNDING_MODES and not (mode == "rint" and rounding is not None):
        raise ValueError(f"unknown rounding mode {mode!r}")
    ew, p = _exponent_width(fmt), fmt.precision
    u = unpack(tb, fmt, a, ew, False)
    wide = p + 2
    sig = tb.zext(u.sig, wide)
    fraction_bits = tb.op("sub", tb.const(p - 1, ew), u.exp)  # > 0 unless integral already
    amount = _clamped_amount(tb, tb.ite(_slt_const(tb, fraction_bits, 0), tb.const(0, ew), fraction_bits), p + 1)
    amount = _resize(tb, amount, wide)
    integer = tb.op("lshr", sig, amount)
    fraction = tb.and_(sig, tb.not_(tb.op("shl", tb.const(mask(wide), wide), amount)))
    half = tb.op("lshr", tb.op("shl", tb.const(1, wide), amount), tb.const(1, wide))
    if mode == "rint":
        increment = _directed_increment(tb, rounding, u.sign, fraction, half, _bit(tb, integer, 0))
    else:
        increment = _increment(tb, mode, u.sign, fraction, half, _bit(tb, integer, 0))
    integer = tb.op("add", integer, tb.zext(increment, wide))
    normalised, shift = _normalise(tb, integer)
    exp = tb.op("sub", tb.const(wide - 1, ew), _resize(tb, shift, ew))
    result = _round(tb, fmt, u.sign, exp, normalised, tb.const(0, 1))
    result = tb.ite(_is_zero(tb, integer), _zero(tb, fmt, u.sign), result)
    integral = tb.or_(tb.not_(_slt_const(tb, u.exp, p - 1)), u.inf)
    result = tb.ite(integral, a, result)
    return tb.ite(u.nan, tb.const(CANONICAL_NAN(fmt), fmt.width), result)


def _increment(tb, mode: str, sign: Bv, fraction: Bv, half: Bv, odd: Bv) -> Bv:
    """Whether the truncated magnitude goes up by one in `mode`."""
    inexact = _nonzero(tb, fraction)
    if mode == "floor":
        return tb.and_(sign, inexact)
    if mode == "ceil":
        return tb.and_(tb.not_(sign), inexact)
    if mode == "trunc":
        return tb.const(0, 1)
    above, at = tb.op("ult", half, fraction), tb.eq(fraction, half)
    if mode == "round":
        return tb.or_(above, at)
    return tb.or_(above, tb.and_(at, odd))


def _directed_increment(tb, rounding: Rounding, sign: Bv, fraction: Bv, half: Bv, odd: Bv) -> Bv:
    """Whether rint's truncated magnitude goes up by one in the current rounding mode."""
    nearest = _increment(tb, "roundeven", sign, fraction, half, odd)
    away = tb.ite(sign, rounding.down, rounding.up)
    return tb.ite(rounding.nearest, nearest, tb.and_(away, _nonzero(tb, fraction)))


def fp_min_max(tb, fmt: FloatFormat, a: Bv, b: Bv, kind: str, pick_first_on_tie: Bv | None = None) -> Bv:
    """minnum/maxnum (C's fmin/fmax): a NaN operand is ignored, two give NaN; of two equal
    operands (+0 and -0 among them) a when `pick_first_on_tie` is 1 or None, else b."""
    if kind not in ("minnum", "maxnum"):
        raise ValueError(f"unknown min/max kind {kind!r}")
    nan_a, nan_b = fp_is_nan(tb, fmt, a), fp_is_nan(tb, fmt, b)
    a_less, b_less = _less(tb, fmt, a, b), _less(tb, fmt, b, a)
    a_wins, b_wins = (a_less, b_less) if kind == "minnum" else (b_less, a_less)
    tie = tb.const(1, 1) if pick_first_on_tie is None else pick_first_on_tie
    choose_a = tb.or_(a_wins, tb.and_(tb.not_(b_wins), tie))
    choose_a = tb.ite(nan_b, tb.const(1, 1), tb.ite(nan_a, tb.const(0, 1), choose_a))
    both_nan = tb.and_(nan_a, nan_b)
    return tb.ite(both_nan, tb.const(CANONICAL_NAN(fmt), fmt.width), tb.ite(choose_a, a, b))
