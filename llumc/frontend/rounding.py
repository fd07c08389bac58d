"""C's dynamic rounding mode (<fenv.h>'s `fesetround`, `fegetround`) as a value of the program.

Why a rewrite of clang's IR: a program that changes the mode is compiled with
`-frounding-math` (`compile._source_ir_and_calls`), so clang neither folds constants across a
mode change nor assumes round-to-nearest; its floating-point operations are then
`llvm.experimental.constrained.*` intrinsics whose rounding is `round.dynamic`: whatever the
mode is when they run. The model keeps that mode in an ordinary global, `@__llumc_rounding_mode`
(x86's values: FE_TONEAREST 0, FE_DOWNWARD 0x400, FE_UPWARD 0x800, FE_TOWARDZERO 0xc00), which
the front end then promotes like any global main alone uses:

- `fesetround(m)` stores m when it is one of the four modes and returns 0; otherwise it
  changes nothing and returns some nonzero value (glibc returns 1, musl -1: the model allows
  every nonzero value, a fresh `__llumc_libret_` input);
- `fegetround()` loads it;
- each rounding operation (fadd, fsub, fmul, fdiv, sqrt, rint/nearbyint, sitofp, uitofp,
  fptrunc, and the library's sqrt/rint/nearbyint) becomes a call of `__llumc_rounded.OP.TYPES`
  with the mode as last argument (`llumc.frontend.floatcalls`, circuits in
  `llumc.encoding.floats`); a static rounding (`round.tonearest`, from
  `#pragma STDC FENV_ROUND`) gives the plain instruction or the mode as a constant;
- the constrained operations that do not round (fpext, fptosi, fptoui, fcmp, fcmps, frem,
  floor, ceil, trunc, round, roundeven, minnum, maxnum) become the plain instructions and
  intrinsics (exception flags are not modelled: `fetestexcept` & co. stay unknown functions);
- `strictfp` goes: no constrained intrinsic is left, and the inliner refuses strictfp callees.

Anything else (other constrained intrinsics, `fesetenv`, `feholdexcept`, `lrint`, ...) is left as
it is: an unknown function, a named UNKNOWN. The native replay compiles the program itself with
`-frounding-math` and runs the C library's `fesetround`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from llumc.frontend.cfg import split_top
from llumc.frontend.libcalls import LIBRET_PREFIX

MODE_GLOBAL = "__llumc_rounding_mode"
ROUNDED_PREFIX = "__llumc_rounded."
FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO = 0, 0x400, 0x800, 0xC00
_INVALID_RESULT = f"{LIBRET_PREFIX}fesetround"
_DECLARATION_ATTRIBUTES = 9997  # the group of our declarations (libcalls uses 9998 and 9999)

_MODE_CALL = re.compile(r"call i32 @fe[sg]etround\(")
_SOURCE_MODE_CALL = re.compile(r"\bfe[sg]etround\b")
_CALL = re.compile(r"^  (?:(%[-\w.$\"]+) = )?(?:tail )?call (?:[a-z_]+ )*(\w+) @([\w.$]+)\((.*)\)"
                   r"((?: #\d+)?(?:, !.*)?)$")
_STATIC_MODES = {"round.dynamic": None, "round.tonearest": FE_TONEAREST, "round.downward": FE_DOWNWARD,
                 "round.upward": FE_UPWARD, "round.towardzero": FE_TOWARDZERO}
_ROUNDED_ARITHMETIC = ("fadd", "fsub", "fmul", "fdiv")
_PLAIN_INTRINSICS = ("floor", "ceil", "trunc", "round", "roundeven", "minnum", "maxnum")
_LIBRARY_ROUNDED = {"sqrt": ("sqrt", "f64"), "sqrtf": ("sqrt", "f32"), "rint": ("rint", "f64"),
                    "rintf": ("rint", "f32"), "nearbyint": ("rint", "f64"), "nearbyintf": ("rint", "f32")}


def uses_rounding_modes(ir_text: str) -> bool:
    """Whether clang's IR calls `fesetround` or `fegetround`: then the program is compiled
    with -frounding-math and rewritten here."""
    return _MODE_CALL.search(ir_text) is not None


def source_uses_rounding_modes(c_text: str) -> bool:
    """Whether the C text names `fesetround` or `fegetround` (the replay's cheap test: building
    with -frounding-math a program that never changes the mode changes none of its results)."""
    return _SOURCE_MODE_CALL.search(c_text) is not None


def rounding_mode_as_variable(text: str) -> str:
    """The module text with the mode a global and every constrained intrinsic replaced (see
    the module docstring)."""
    defined = set(re.findall(r"^define [^@\n]*@([\w.$]+)\(", text, re.M))
    rewriter = _Rewriter(defined)
    lines = [rewriter.line(line) for line in text.split("\n")]
    rewritten = "\n".join(lines) + rewriter.declarations(text)
    # the global before the functions, where the front end looks for globals to localise
    first = re.search(r"^define ", rewritten, re.M)
    at = first.start() if first else len(rewritten)
    return f"{rewritten[:at]}@{MODE_GLOBAL} = internal global i32 {FE_TONEAREST}, align 4\n\n{rewritten[at:]}"


class _Rewriter:
    """Rewrites one line at a time, numbering the values it adds and remembering the
    declarations they need."""

    def __init__(self, defined: set[str]) -> None:
        self.defined = defined
        self.count = 0
        self.needed: dict[str, str] = {}  # function name -> its declaration

    def line(self, line: str) -> str:
        if line.startswith("attributes #"):
            # (a group left empty is a parse error: C functions and calls do not unwind)
            return re.sub(r" strictfp\b", "", line).replace("{ }", "{ nounwind }")
        if not line.startswith("  ") or "call" not in line:
            return line
        match = _CALL.match(line)
        if match is None:
            return line
        result, ty, callee, args_text, tail = match.groups()
        if callee in self.defined:
            return line
        if result is None and ty != "void":  # (clang names every value; an unnamed one is numbered)
            return line
        debug = re.search(r", !dbg !\d+", tail)
        call = _Call(result, ty, callee, split_top(args_text), debug.group(0) if debug else "")
        rewritten = self._rewrite(call)
        return line if rewritten is None else "\n".join(rewritten)

    def _rewrite(self, call: "_Call") -> list[str] | None:
        if call.callee == "fesetround" and len(call.args) == 1:
            return self._set_mode(call)
        if call.callee == "fegetround" and not call.args:
            return [f"  {call.result_prefix}load i32, ptr @{MODE_GLOBAL}, align 4{call.debug}"]
        if call.callee in _LIBRARY_ROUNDED and len(call.args) == 1:
            operation, suffix = _LIBRARY_ROUNDED[call.callee]
            return self._rounded(call, operation, suffix, call.args, None)
        prefix = "llvm.experimental.constrained."
        if not call.callee.startswith(prefix):
            return None
        name = call.callee[len(prefix):]
        operation, _, suffix = name.partition(".")
        metadata = [_metadata(arg) for arg in call.args if arg.startswith("metadata ")]
        operands = [arg for arg in call.args if not arg.startswith("metadata ")]
        return self._constrained(call, operation, suffix, operands, metadata)

    def _constrained(self, call: "_Call", operation: str, suffix: str, operands: list[str],
                     metadata: list[str]) -> list[str] | None:
        if operation in _ROUNDED_ARITHMETIC or operation in ("sqrt", "rint", "nearbyint", "sitofp", "uitofp",
                                                              "fptrunc"):
            if len(metadata) != 2 or metadata[0] not in _STATIC_MODES:
                return None
            static = _STATIC_MODES[metadata[0]]
            if static == FE_TONEAREST and operation in _ROUNDED_ARITHMETIC:
                return [f"  {call.result_prefix}{operation} {_binary_operands(operands)}{call.debug}"]
            operation = "rint" if operation == "nearbyint" else operation
            return self._rounded(call, operation, suffix, operands, static)
        if operation == "frem":
            return [f"  {call.result_prefix}frem {_binary_operands(operands)}{call.debug}"]
        if operation in ("fpext", "fptosi", "fptoui") and len(operands) == 1:
            return [f"  {call.result_prefix}{operation} {_without_attributes(operands[0])} to {call.ty}{call.debug}"]
        if operation in ("fcmp", "fcmps") and len(operands) == 2 and metadata:
            return [f"  {call.result_prefix}fcmp {metadata[0]} {_binary_operands(operands)}{call.debug}"]
        if operation in _PLAIN_INTRINSICS:
            callee = f"llvm.{operation}.{suffix}"
            types = ", ".join(arg.split(" ", 1)[0] for arg in operands)
            self.needed[callee] = f"declare {call.ty} @{callee}({types})"
            return [f"  {call.result_prefix}call {call.ty} @{callee}({', '.join(operands)}){call.debug}"]
        return None

    def _rounded(self, call: "_Call", operation: str, suffix: str, operands: list[str],
                 static: int | None) -> list[str]:
        """A call of `__llumc_rounded.OPERATION.SUFFIX` with the mode (loaded, or `static`) last."""
        lines = []
        if static is None:
            mode = self._name("mode")
            lines.append(f"  {mode} = load i32, ptr @{MODE_GLOBAL}, align 4{call.debug}")
        else:
            mode = str(static)
        callee = f"{ROUNDED_PREFIX}{operation}.{suffix}"
        types = ", ".join([*(arg.split(" ", 1)[0] for arg in operands), "i32"])
        self.needed[callee] = f"declare {call.ty} @{callee}({types}) #{_DECLARATION_ATTRIBUTES}"
        plain = [_without_attributes(arg) for arg in operands]
        lines.append(f"  {call.result_prefix}call {call.ty} @{callee}({', '.join(plain)}, i32 {mode}){call.debug}")
        return lines

    def _set_mode(self, call: "_Call") -> list[str]:
        """fesetround(m): m stored when valid (m & ~0xc00 == 0), 0 returned; else the mode kept
        and any nonzero value returned."""
        value = _without_attributes(call.args[0]).split(" ", 1)[1]
        old, valid, new = self._name("old"), self._name("valid"), self._name("new")
        low, error, zero, failed = self._name("low"), self._name("error"), self._name("zero"), self._name("failed")
        self.needed[_INVALID_RESULT] = f"declare i32 @{_INVALID_RESULT}() #{_DECLARATION_ATTRIBUTES}"
        d = call.debug
        lines = [f"  {old} = load i32, ptr @{MODE_GLOBAL}, align 4{d}",
                 f"  {low} = and i32 {value}, {~FE_TOWARDZERO}{d}",
                 f"  {valid} = icmp eq i32 {low}, 0{d}",
                 f"  {new} = select i1 {valid}, i32 {value}, i32 {old}{d}",
                 f"  store i32 {new}, ptr @{MODE_GLOBAL}, align 4{d}",
                 f"  {error} = call i32 @{_INVALID_RESULT}(){d}",
                 f"  {zero} = icmp eq i32 {error}, 0{d}",
                 f"  {failed} = select i1 {zero}, i32 1, i32 {error}{d}"]
        lines.append(f"  {call.result} = select i1 {valid}, i32 0, i32 {failed}{d}")
        return lines

    def _name(self, what: str) -> str:
        self.count += 1
        return f"%__llumc_fe.{self.count}.{what}"

    def declarations(self, text: str) -> str:
        extra = [declaration for name, declaration in sorted(self.needed.items())
                  if not re.search(rf"^declare [^@\n]*@{re.escape(name)}\(", text, re.M)]
        if any(f"#{_DECLARATION_ATTRIBUTES}" in line for line in extra):
            extra.append(f"attributes #{_DECLARATION_ATTRIBUTES} = {{ nounwind willreturn memory(none) }}")
        return "\n" + "\n".join(extra) + "\n"


@dataclass(frozen=True)
class _Call:
    """One call line taken apart: `debug` is its `, !dbg !N` (or empty), kept on what replaces it."""

    result: str | None
    ty: str
    callee: str
    args: list[str]
    debug: str

    @property
    def result_prefix(self) -> str:
        return f"{self.result} = " if self.result else ""


def _metadata(arg: str) -> str:
    """`metadata !"round.dynamic"` -> round.dynamic."""
    return arg.split("!", 1)[1].strip('"')


def _without_attributes(arg: str) -> str:
    """`i32 noundef 2048` -> `i32 2048`: the type and the value."""
    words = arg.split()
    return f"{words[0]} {words[-1]}"


def _binary_operands(operands: list[str]) -> str:
    """`float %a`, `float %b` -> `float %a, %b`, the operands of a binary instruction."""
    first, second = _without_attributes(operands[0]), _without_attributes(operands[1])
    return f"{first}, {second.split(' ', 1)[1]}"
