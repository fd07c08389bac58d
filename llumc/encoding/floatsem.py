"""The terms of LLVM's floating-point instructions and of the float functions llumc knows
(`llumc.frontend.floatcalls`), over the circuits of `llumc.encoding.floats`.

What LLVM leaves open is left open here, as a fresh input of the step (`fresh(width, slot)`),
so that the model contains every behaviour a compiled program may have:
- the sign and payload of a NaN result (LangRef: "the sign bit and payload of a NaN result are
  non-deterministic"; x86 returns its default NaN, LLVM's constant folder another one): any
  quiet NaN. A program that only asks `x != x` or `isnan(x)` never sees the difference;
- `fptosi`/`fptoui` of NaN, of ±∞ or of a value whose integer part does not fit: poison, any
  value here;
- which operand `fmin`/`fmax` (llvm.minnum/maxnum) return when the two compare equal (+0, -0).
Everything else is IEEE 754's exact answer in the default environment (round to nearest, ties
to even; no exception flags), or, for the `__llumc_rounded.*` calls of a program that changes
the rounding mode (`llumc.frontend.rounding`), in the mode their last argument holds.
"""

from __future__ import annotations

import math
import struct
from typing import Callable

from llumc.encoding import floats
from llumc.encoding.floats import FloatFormat
from llumc.encoding.terms import Term, TermBuilder
from llumc.errors import UnsupportedError
from llumc.frontend.cfg import Instr
from llumc.frontend.floatcalls import FloatCall, float_call

FLOAT_OPCODES = frozenset(("fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "fcmp", "fptosi", "fptoui",
                           "sitofp", "uitofp", "fpext", "fptrunc", "bitcast"))

# `fresh(width, slot)`: a new nondet input of the instruction being encoded; slots keep the
# instruction's inputs apart (the step encoder keys inputs by instruction and slot)
Fresh = Callable[[int, int], Term]
_NAN_SLOT, _POISON_SLOT, _TIE_SLOT = -30, -31, -32

_ROUNDINGS = ("floor", "ceil", "trunc", "round", "roundeven")


def is_float_call(ins: Instr) -> bool:
    return ins.opcode == "call" and float_call(ins.callee or "") is not None


def float_value(tb: TermBuilder, ins: Instr, arg: Callable[[int], Term], fresh: Fresh, where: str) -> Term:
    """The term of a floating-point instruction (an opcode of FLOAT_OPCODES) or float call;
    `where` (file:line) names it in an UnsupportedError."""
    try:
        return _value(tb, ins, arg, fresh)
    except _Unsupported as err:
        unsupported = UnsupportedError(f"unsupported: {err} at {where}")
        unsupported.category = "float"
        unsupported.construct = str(err)
        raise unsupported from None


class _Unsupported(Exception):
    """What the circuits do not build or the IR gives in a form we do not read."""


def _value(tb: TermBuilder, ins: Instr, arg: Callable[[int], Term], fresh: Fresh) -> Term:
    op = ins.opcode
    if op == "call":
        return _call_value(tb, ins, float_call(ins.callee or ""), arg, fresh)
    if op == "bitcast":  # float <-> integer of the same width: the bits as they are
        return arg(0)
    if op in ("fadd", "fsub", "fmul", "fdiv", "frem"):
        fmt, a, b = _format(ins, ins.width), arg(0), arg(1)
        return _any_nan(tb, fmt, _binary(tb, op, fmt, a, b), fresh, ("arith", op, fmt.width), a, b)
    if op == "fneg":
        return floats.fp_neg(tb, _format(ins, ins.width), arg(0))
    if op == "fcmp":
        a, b = arg(0), arg(1)
        fmt = _format(ins, a.width)
        return _native(tb, floats.fp_compare(tb, ins.predicate, fmt, a, b), ("cmp", ins.predicate, fmt.width), a, b)
    if op in ("fptosi", "fptoui"):
        a = arg(0)
        fmt = _format(ins, a.width)
        value, in_range = floats.fp_to_int(tb, fmt, a, ins.width, op == "fptosi")
        poison = fresh(ins.width, _POISON_SLOT)
        return _native(tb, tb.ite(in_range, value, poison), ("to_int", op == "fptosi", fmt.width, ins.width),
                       a, poison)
    if op in ("sitofp", "uitofp"):
        a = arg(0)
        fmt = _format(ins, ins.width)
        return _native(tb, floats.int_to_fp(tb, fmt, a, op == "sitofp"), ("from_int", op == "sitofp", a.width,
                                                                         fmt.width), a)
    if op in ("fpext", "fptrunc"):
        a = arg(0)
        source, fmt = _format(ins, a.width), _format(ins, ins.width)
        return _any_nan(tb, fmt, floats.fp_resize(tb, source, fmt, a), fresh, ("resize", source.width, fmt.width), a)
    raise _Unsupported(f"`{ins.text.strip()}`")


def _call_value(tb: TermBuilder, ins: Instr, call: FloatCall, arg, fresh: Fresh) -> Term:
    fmt = _format(ins, call.width)
    operation = call.operation
    if operation.startswith("rounded."):
        return _rounded_value(tb, fmt, operation.removeprefix("rounded."), arg, fresh)
    x = arg(0)
    if operation == "fabs":
        return floats.fp_abs(tb, fmt, x)
    if operation == "canonicalize":
        return _quieted(tb, fmt, x)
    if operation == "copysign":
        return floats.fp_copysign(tb, fmt, x, arg(1))
    if operation == "sqrt":
        return _any_nan(tb, fmt, floats.fp_sqrt(tb, fmt, x), fresh, ("sqrt", fmt.width), x)
    if operation == "fmod":
        y = arg(1)
        return _any_nan(tb, fmt, _binary(tb, "frem", fmt, x, y), fresh, ("arith", "frem", fmt.width), x, y)
    if operation in ("minnum", "maxnum"):
        y, pick_first = arg(1), fresh(1, _TIE_SLOT)
        return _any_nan(tb, fmt, floats.fp_min_max(tb, fmt, x, y, operation, pick_first), fresh,
                        ("minmax", operation, fmt.width), x, y, pick_first)
    if operation in _ROUNDINGS:
        return _any_nan(tb, fmt, floats.fp_round_integral(tb, fmt, x, operation), fresh,
                        ("round", operation, fmt.width), x)
    if operation == "is.fpclass":
        mask = arg(1)
        if mask.op != "const":
            raise _Unsupported("llvm.is.fpclass with a variable class mask")
        return _native(tb, floats.fp_class_test(tb, fmt, x, mask.param), ("class", mask.param, fmt.width), x)
    return _classification(tb, fmt, operation, x, ins.width)


def _quieted(tb: TermBuilder, fmt: FloatFormat, x: Term) -> Term:
    """A signalling NaN with its quiet bit set, every other value unchanged (IEEE mode's
    `llvm.canonicalize`; x87's `fld` does the same: llumc.frontend.x87returns)."""
    quiet_bit = tb.const(1 << (fmt.precision - 2), fmt.width)
    signalling = tb.and_(floats.fp_is_nan(tb, fmt, x), tb.not_(tb.extract(x, fmt.precision - 2, fmt.precision - 2)))
    return tb.ite(signalling, tb.op("or", x, quiet_bit), x)


FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO = 0x400, 0x800, 0xC00  # x86's values of C's rounding modes


def rounding_of_mode(tb: TermBuilder, mode: Term) -> floats.Rounding:
    """The circuits' rounding flags of a mode value (only the four modes are ever stored:
    `fesetround` keeps the mode on any other argument)."""
    return floats.rounding_flags(tb, tb.eq(mode, tb.const(FE_DOWNWARD, mode.width)),
                                 tb.eq(mode, tb.const(FE_UPWARD, mode.width)),
                                 tb.eq(mode, tb.const(FE_TOWARDZERO, mode.width)))


def _rounded_value(tb: TermBuilder, fmt: FloatFormat, operation: str, arg, fresh: Fresh) -> Term:
    """An operation of a `__llumc_rounded.*` call: operands first, the mode last."""
    x = arg(0)
    if operation in ("fadd", "fsub", "fmul", "fdiv"):
        y, mode = arg(1), arg(2)
        result = floats.fp_binary(tb, operation, fmt, x, y, rounding_of_mode(tb, mode))
        return _any_nan(tb, fmt, result, fresh, ("rounded_arith", operation, fmt.width), x, y, mode)
    mode = arg(1)
    rounding = rounding_of_mode(tb, mode)
    if operation == "sqrt":
        return _any_nan(tb, fmt, floats.fp_sqrt(tb, fmt, x, rounding), fresh, ("rounded_sqrt", fmt.width), x, mode)
    if operation == "rint":
        return _any_nan(tb, fmt, floats.fp_round_integral(tb, fmt, x, "rint", rounding), fresh,
                        ("rint", fmt.width), x, mode)
    if operation in ("sitofp", "uitofp"):
        if x.width > 64:  # compiler-rt converts these in software, to nearest in every mode
            raise _Unsupported(f"conversion of a {x.width}-bit integer to floating point in a rounding mode")
        signed = operation == "sitofp"
        return _native(tb, floats.int_to_fp(tb, fmt, x, signed, rounding),
                       ("rounded_from_int", signed, x.width, fmt.width), x, mode)
    if operation == "fptrunc":
        source = floats.FORMATS[x.width]
        return _any_nan(tb, fmt, floats.fp_resize(tb, source, fmt, x, rounding), fresh,
                        ("rounded_resize", source.width, fmt.width), x, mode)
    raise _Unsupported(f"floating-point operation {operation} in a rounding mode")


def _classification(tb: TermBuilder, fmt: FloatFormat, operation: str, x: Term, width: int) -> Term:
    """glibc's `__isnan`, `__isinf` (-1 for -∞), `__finite`, `__signbit` (0 or 1, as musl's,
    which the replay links) and `__fpclassify` (FP_NAN 0 ... FP_NORMAL 4), as ints."""
    def number(value: int) -> Term:
        return tb.const(value, width)

    def test(mask: int) -> Term:
        return floats.fp_class_test(tb, fmt, x, mask)

    negative = tb.extract(x, fmt.width - 1, fmt.width - 1)
    if operation == "isnan":
        return tb.zext(test(0b11), width)
    if operation == "isinf":
        return tb.ite(test(0b1000000100), tb.ite(negative, number(-1), number(1)), number(0))
    if operation == "finite":
        return tb.zext(tb.not_(test(0b1000000111)), width)
    if operation == "signbit":
        return tb.zext(negative, width)
    if operation == "fpclassify":
        return tb.ite(test(0b11), number(0), tb.ite(test(0b1000000100), number(1),
                      tb.ite(test(0b0001100000), number(2), tb.ite(test(0b0010010000), number(3), number(4)))))
    raise _Unsupported(f"floating-point function {operation}")


def _binary(tb: TermBuilder, op: str, fmt: FloatFormat, a: Term, b: Term) -> Term:
    try:
        return floats.fp_binary(tb, op, fmt, a, b)
    except NotImplementedError as err:
        raise _Unsupported(str(err)) from None


def _any_nan(tb: TermBuilder, fmt: FloatFormat, result: Term, fresh: Fresh, key: tuple, *operands: Term) -> Term:
    """`result`, or any quiet NaN where it is NaN (the circuits give the canonical one);
    registered for concrete runs under `key` with `operands` and the NaN's input."""
    is_nan = floats.fp_is_nan(tb, fmt, result)
    if is_nan.op == "const" and not is_nan.param:
        return _native(tb, result, key, *operands, tb.const(0, fmt.width))
    choice = fresh(fmt.width, _NAN_SLOT)
    quiet_nan = ((1 << fmt.exponent) - 1) << (fmt.precision - 1) | 1 << (fmt.precision - 2)
    nan = tb.op("or", choice, tb.const(quiet_nan, fmt.width))
    return _native(tb, tb.ite(is_nan, nan, result), key, *operands, choice)


def _native(tb: TermBuilder, term: Term, key: tuple, *operands: Term) -> Term:
    """Note that `term` is `llumc.encoding.floatnative.evaluate(key, *operand values)`: concrete
    runs compute it so instead of through its circuit (`TermBuilder.native`)."""
    native = getattr(tb, "native", None)
    if native is not None and term.op != "const":
        native[term.uid] = (key, operands)
    return term


def _format(ins: Instr, width: int) -> FloatFormat:
    fmt = floats.FORMATS.get(width)
    if fmt is None:
        raise _Unsupported(f"floating-point width {width} in `{ins.text.strip()}`")
    return fmt


def float_text(bits: int, width: int) -> str:
    """A float's (width 32) or double's (64) bit pattern as C: the shortest decimal that reads
    back to the same bits (`0.1f`, `1e+300`), `NAN`/`-NAN` (with the bits, which C cannot
    spell), `INFINITY`/`-INFINITY`."""
    packed = bits.to_bytes(width // 8, "little")
    value = struct.unpack("<f" if width == 32 else "<d", packed)[0]
    sign = "-" if bits >> (width - 1) else ""
    if math.isnan(value):
        return f"{sign}NAN (0x{bits:0{width // 4}x})"
    if math.isinf(value):
        return f"{sign}INFINITY"
    if width == 64:
        return repr(value)
    for digits in range(1, 10):  # 9 significant digits always identify a float
        text = f"{value:.{digits}g}"
        try:
            if struct.pack("<f", float(text)) == packed:
                break
        except OverflowError:  # rounded beyond FLT_MAX: more digits
            continue
    return repr(float(text)) + "f"  # (the shortest digits in Python's spelling: 10.0, 1e-05)
