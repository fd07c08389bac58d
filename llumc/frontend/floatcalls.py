"""The floating-point functions llumc knows: LLVM's intrinsics and the C library's <math.h>
functions that compute exactly (IEEE 754 requires them correctly rounded, or they round to an
integer, pick, or test), each as an operation of `llumc.encoding.floats` on binary32 or binary64.

Why the library names too: with `math_errno` on (C's default) clang keeps `sqrt(x)` a call to
the library; the others (`floor`, `fabs`, `fmin`, ...) it turns into intrinsics, but programs
preprocessed against glibc's headers call glibc's classification functions (`__isnan`,
`__fpclassify`, ...) by name. errno itself is not modelled: a program that reads it calls
`__errno_location`, which is an unknown function (UNKNOWN).

Functions that are not correctly rounded in C libraries (sin, exp, log, pow, ...) are not
here: a call to one stays an unknown function, a named UNKNOWN.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class FloatCall:
    """`operation` applied to arguments of `width` bits (32 binary32, 64 binary64).

    operation: "fabs", "sqrt", "copysign", "fmod" (C's fmod: LLVM's frem), "minnum"/"maxnum"
    (C's fmin/fmax), a rounding to an integral value ("floor", "ceil", "trunc", "round",
    "roundeven"; rint and nearbyint are roundeven in the default rounding mode), "is.fpclass"
    (the intrinsic: a class mask as second argument), "canonicalize" (a signalling NaN made
    quiet: llumc.frontend.x87returns), or glibc's "isnan", "isinf" (-1, 0 or
    1), "finite", "signbit", "fpclassify" (FP_NAN 0, FP_INFINITE 1, FP_ZERO 2, FP_SUBNORMAL 3,
    FP_NORMAL 4), which return an int; or "rounded.OP" (OP one of fadd, fsub, fmul, fdiv, sqrt,
    rint, sitofp, uitofp, fptrunc): OP in the rounding mode its last argument gives (an i32,
    x86's FE_* value), the calls `llumc.frontend.rounding` makes; `width` is the result's."""

    operation: str
    width: int


_INTRINSIC = re.compile(r"llvm\.(fabs|sqrt|copysign|minnum|maxnum|floor|ceil|trunc|round|roundeven|rint|"
                        r"nearbyint|is\.fpclass|canonicalize)\.f(32|64)$")
_LIBRARY = {
    "fabs": "fabs", "sqrt": "sqrt", "copysign": "copysign", "fmod": "fmod", "fmin": "minnum",
    "fmax": "maxnum", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "round": "round",
    "rint": "roundeven", "nearbyint": "roundeven", "roundeven": "roundeven",
    "__isnan": "isnan", "__isinf": "isinf", "__finite": "finite", "__signbit": "signbit",
    "__fpclassify": "fpclassify",
}
_RENAMED = {"rint": "roundeven", "nearbyint": "roundeven"}
_ROUNDED = re.compile(r"__llumc_rounded\.(fadd|fsub|fmul|fdiv|sqrt|rint|sitofp|uitofp|fptrunc)\.f(32|64)"
                      r"(?:\.(?:i\d+|f64))?$")


def float_call(name: str) -> FloatCall | None:
    """The operation of a call to `name`, or None if it is not a floating-point function we know.
    `sqrtf` is binary32, `sqrt` binary64 (`long double`'s `sqrtl` is not supported)."""
    match = _ROUNDED.match(name)
    if match:
        return FloatCall(f"rounded.{match.group(1)}", int(match.group(2)))
    match = _INTRINSIC.match(name)
    if match:
        operation = match.group(1)
        return FloatCall(_RENAMED.get(operation, operation), int(match.group(2)))
    if name in _LIBRARY:
        return FloatCall(_LIBRARY[name], 64)
    if name.endswith("f") and name[:-1] in _LIBRARY:
        return FloatCall(_LIBRARY[name[:-1]], 32)
    return None

