"""Float and double results of calls on i386 (`--32`) pass through the x87 register stack.

The i386 System V ABI returns `float` and `double` in `st(0)`: the callee loads the value with
`fld`, which turns a signalling NaN into the quiet NaN with the same payload (the quiet bit
set), and the caller stores it back. So on `--32` a function that returns a signalling NaN
unchanged gives its caller a quiet one, while llumc inlines every call and would pass the
signalling NaN on. A program that then looks at the bits (through a union or `memcpy`) would
see a difference between the model and the compiled program.

The front end therefore quietens each `ret float`/`ret double` of a defined function other
than `main` on `--32`, with LLVM's `llvm.canonicalize` (which quietens a signalling NaN and
changes nothing else in IEEE mode), before inlining. Functions the C source marks
`always_inline` are inlined by clang even at -O0, where no return through `st(0)` happens,
and are left alone. Arguments are passed in memory, not through `st(0)`: nothing to do there.
"""

from __future__ import annotations

import re

__all__ = ["quiet_x87_returns"]

_FLOAT_FUNCTION = re.compile(r"^define [^@]*\b(?:float|double) @", re.M)
_DEFINE = re.compile(r"^define [^@]*?\b(float|double) @(\"[^\"]+\"|[\w.$-]+)\(.*\) (#\d+) ")
_RET = re.compile(r"^  ret (float|double) ([^,]+)(.*)$")
_ALWAYS_INLINE_GROUP = re.compile(r"^attributes (#\d+) = \{[^}]*\balwaysinline\b", re.M)
_INTRINSIC = {"float": "llvm.canonicalize.f32", "double": "llvm.canonicalize.f64"}


def quiet_x87_returns(text: str) -> str:
    """clang's IR text (before `noinline` becomes `alwaysinline`) with the float returns of
    its functions quietened as the i386 ABI does (module docstring)."""
    if not _FLOAT_FUNCTION.search(text):
        return text
    always_inline = set(_ALWAYS_INLINE_GROUP.findall(text))
    lines = text.split("\n")
    out: list[str] = []
    inside = False
    used: set[str] = set()
    count = 0
    for line in lines:
        if line.startswith("define "):
            match = _DEFINE.match(line)
            inside = bool(match) and match.group(2) != "main" and match.group(3) not in always_inline
        elif line.startswith("}"):
            inside = False
        ret = _RET.match(line) if inside else None
        if ret is None:
            out.append(line)
            continue
        kind, value, rest = ret.groups()
        name = f"%llumc.x87.{count}"
        count += 1
        out.append(f"  {name} = call {kind} @{_INTRINSIC[kind]}({kind} {value}){rest}")
        out.append(f"  ret {kind} {name}{rest}")
        used.add(kind)
    for kind in sorted(used):
        if f"@{_INTRINSIC[kind]}(" not in text:
            out.append(f"declare {kind} @{_INTRINSIC[kind]}({kind})")
    return "\n".join(out)
