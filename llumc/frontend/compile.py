"""C front end: a C file becomes one LLVM-IR function `main` with every scalar in SSA form.

Pipeline (each step says why it exists):

1. clang (the one bundled in the `ziglang` wheel, or `--clang`/`LLUMC_CLANG`) compiles at -O0
   with `-g` so every instruction keeps its C line, with an explicit target so zig picks neither
   the native CPU nor its debug-mode sanitizers, and with SV-COMP's old-C errors turned back
   into (silenced) warnings.
2. The IR text is prepared: `noinline`/`optnone` become `alwaysinline`, bodies of verifier
   primitives the program happens to define (`reach_error`, `__VERIFIER_error`,
   `__VERIFIER_nondet_*`, `__VERIFIER_assume`) are dropped so they stay recognisable calls, and
   every local (scalar, struct or array) starts from a fresh nondeterministic value, at
   function entry and again at its declaration (see `_initialise_locals`). Recursion,
   function pointers, varargs and inline assembly are rejected here (`_check_before_inlining`).
3. Pass pipeline 1 (llvmlite's new pass manager): SROA per function, a check that no `undef`
   is left (`_check_no_undef`), simplifycfg per function (from 8 MB of IR text in two
   processes, each on half of the functions: `_simplified_in_two_processes`), always-inline
   everything into `main`, delete the other functions. Functions chosen for sharing stay
   called and are merged into main once each (`_share_procedures`, llumc.frontend.sharing).
4. Globals used only by `main`'s loads, stores and GEPs become allocas of `main` initialised
   with the global's initial value (`_localise_globals`): main runs once and is not
   recursive, so a local has the same semantics, and SROA can then promote it.
5. Pass pipeline 2: SROA, the `undef` check again, simplifycfg (up to 8 MB of IR text:
   `SIMPLIFY_AFTER_INLINING_UP_TO_BYTES`), dead-code elimination, names for unnamed values.
   No instcombine/GVN: they exploit undefined behaviour to delete code.
6. Whatever the encoder cannot handle is reported as one `UnsupportedError` line naming the
   construct and the C line (`_check_supported`).
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shlex
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Container, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import llvmlite.binding as llvm

from llumc.frontend.cfg import FLOAT_WIDTHS
from llumc.frontend.floatcalls import float_call
from llumc.frontend.x87returns import quiet_x87_returns
from llumc.frontend.rounding import rounding_mode_as_variable, uses_rounding_modes
from llumc.frontend.debuginfo import DebugInfo, metadata_start
from llumc.errors import LlumcError, UnsupportedError
from llumc.gcpause import cyclic_gc_paused
from llumc.frontend.libcalls import LIBRET_PREFIX, OUTPUT_FUNCTIONS, drop_output_calls
from llumc.frontend.libcmodels import MODELS_SOURCE, call_models, needs_models
from llumc.frontend.callstack import (FIRST_STACK_DEPTH, MAX_STACK_DEPTH, NotStackable, plan_heads, stack_recursion,
                                      with_inline_attribute)
from llumc.frontend.sharing import (NotShareable, merge_shared, plan_sharing, read_call_graph, split_at_shared_calls,
                                    worth_sharing)
from llumc.frontend.procedures import (BOUND_PREFIX, DEFAULT_RECURSION_DEPTH, INVALID_CALL, RecursionTooLarge,
                                       call_cycles, call_graph, dispatch_indirect_calls, recursive_functions,
                                       unroll_recursion)
SUMMARY_CHECK_PREFIX = "__llumc_summary_fails."
from llumc.frontend.mainargs import ARGC_FUNCTION, ARGV_FUNCTION, ASSUME_FUNCTION, ENVP_FUNCTION, wrap_main
from llumc.frontend.lifetimes import (LIFETIME_FUNCTIONS, LIFETIME_START, address_escapes, escapes,
                             mark_compound_literals, mark_escaping_allocations, mark_escaping_parameters,
                             protect_escaping_locals,
                             protected_locals, release_contained_locals)
from solvers.supervise import die_with_parent, prepare

__all__ = [
    "Checks",
    "FrontendResult",
    "compile_c",
    "classify_call",
    "nondet_width",
    "PRIMITIVES",
    "TRAP_KINDS",
    "UNINIT_PREFIX",
]


@dataclass(frozen=True)
class Checks:
    """What to instrument before any optimisation (clang's sanitizers in trap mode)."""

    overflow: bool = False  # signed add/sub/mul/neg overflow, sdiv/srem INT_MIN/-1, signed shl
    div_by_zero: bool = False
    shift: bool = False  # shift amount >= width (or negative)
    bounds: bool = False  # indexing an array of known bound, NULL dereference (replay of valid-memsafety)


@dataclass
class FrontendResult:
    source: Path
    ir: str  # text of the final module
    module: "llvm.ModuleRef"  # parsed + verified; only @main defined
    m32: bool
    checks: Checks
    debug: DebugInfo = field(repr=False, default=None)  # C lines and variable names
    # the program recurses: unrolled this many calls deep (llumc.frontend.procedures), or run on
    # a call stack of this many frames (llumc.frontend.callstack); None if it does not recurse
    recursion_depth: int | None = None
    call_stack: bool = False  # the recursion runs on a call stack (else it is unrolled)
    # functions whose body is in main once, entered from all their call sites (llumc.frontend.sharing)
    shared: tuple[str, ...] = ()


# `call void @llvm.ubsantrap(i8 K)`: K is clang's SanitizerHandler number. Measured with the
# bundled clang 22 (tests/test_frontend.py::test_trap_kinds recompiles one program per kind).
# Division overflow and division by zero share one handler, as do both shift checks.
TRAP_KINDS: dict[int, str] = {
    0: "signed addition overflow",
    21: "signed subtraction overflow",
    12: "signed multiplication overflow",
    13: "signed negation overflow",
    3: "division overflow (INT_MIN / -1) or division by zero",
    20: "shift out of bounds (signed left shift overflow or shift amount >= width)",
}

# Calls the encoder interprets; everything else left after inlining is unsupported.
PRIMITIVES: dict[str, str] = {
    "__VERIFIER_assume": "assume",
    "__llumc_assume": "assume",  # an i1 assumption of llumc's own (llumc.frontend.summaries)
    ASSUME_FUNCTION: "assume",  # argc >= 1 (llumc.frontend.mainargs)
    "__VERIFIER_assert": "assert",  # only when the program does not define it
    "__VERIFIER_error": "error",
    "reach_error": "error",
    "__assert_fail": "error",  # glibc's assert()
    "__assert": "error",
    "__assert_rtn": "error",
    "abort": "abort",
    "exit": "exit",
    "_exit": "exit",
    "llvm.ubsantrap": "trap",  # failed overflow/division/shift check, K in TRAP_KINDS
    "llvm.trap": "trap",
}
NONDET_PREFIX = "__VERIFIER_nondet_"
# Fresh value of an uninitialised local (declared by the front end, `memory(none)`).
UNINIT_PREFIX = "__llumc_uninit_"
# Intrinsics that are plain arithmetic for the encoder.
_ARITH_INTRINSIC = re.compile(r"llvm\.[su](add|sub|mul)\.with\.overflow\.i\d+$")
# Primitives whose body (if the program defines one) is dropped so the call stays a primitive.
_DROP_BODY_KINDS = {"nondet", "assume", "error"}


def classify_call(name: str) -> str | None:
    """Kind of a called function for the encoder: "nondet" | "assume" | "assert" | "error" |
    "abort" | "exit" | "trap" (llvm.ubsantrap: a failed instrumented check) |
    "recursion-bound" (a recursion deeper than the unrolled depth) | "invalid-call" (through a
    function pointer that is no function of its type) | "summary-check" (a summary harness's
    fact fails) | None (not a primitive). The width of a nondet value is that of the call's return type (`nondet_width`).
    `__llumc_uninit_iN` (the value of an uninitialised local) is "nondet" too."""
    if name.startswith(NONDET_PREFIX) or name.startswith(UNINIT_PREFIX) or name.startswith(LIBRET_PREFIX) \
            or name == ARGC_FUNCTION:
        return "nondet"
    if name.startswith(BOUND_PREFIX):
        return "recursion-bound"
    if name.startswith(SUMMARY_CHECK_PREFIX):
        # a summary fact that does not hold (llumc.frontend.summaries' harness): an error under
        # every property, as reach_error is under unreach-call only
        return "summary-check"
    if name == INVALID_CALL:
        return "invalid-call"
    return PRIMITIVES.get(name)


def nondet_width(return_type: str) -> int | None:
    """Bit width of a nondet call from its return type text (`i32` → 32, `double` → 64);
    None if neither an integer nor a float or double."""
    if return_type.strip() in FLOAT_WIDTHS:
        return FLOAT_WIDTHS[return_type.strip()]
    match = re.fullmatch(r"i(\d+)", return_type.strip())
    return int(match.group(1)) if match else None


# --------------------------------------------------------------------------- clang

# Errors clang 16+ makes of what SV-COMP's pre-C99 programs do all the time.
OLD_C_ERRORS_AS_WARNINGS = [
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=implicit-int",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-pointer-types",
    "-Wno-error=incompatible-function-pointer-types",
    "-Wno-error=return-type",
    "-Wno-error=return-mismatch",
    "-Wno-error=deprecated-non-prototype",
]


def clang_command(clang: str | None) -> tuple[list[str], bool]:
    """The clang to run and whether it is zig's (whose target names differ)."""
    clang = clang or os.environ.get("LLUMC_CLANG") or None
    if clang:
        return shlex.split(clang), False
    return [*_zig_executable(), "cc"], True


@functools.cache
def _zig_executable() -> list[str]:
    """The `zig` binary of the ziglang wheel, run directly: `python -m ziglang` only execs it,
    after starting an interpreter (about 0.1 s on each of a check's two or three compiles).
    The interpreter's way where the binary is not beside the package."""
    import importlib.util

    spec = importlib.util.find_spec("ziglang")
    if spec is not None and spec.origin is not None:
        binary = Path(spec.origin).with_name("zig.exe" if os.name == "nt" else "zig")
        if os.access(binary, os.X_OK):
            return [str(binary)]
    return [sys.executable, "-m", "ziglang"]


def zig_cache_env(cache: Path, *, libraries_too: bool) -> dict[str, str]:
    """The environment for a zig cc run whose outputs zig keeps in `cache` (a directory removed
    with the run) instead of ~/.cache/zig, where it keeps a copy of every output for good.
    `libraries_too`: the C libraries it builds once per target (about a minute each) go there
    as well, for runs that link none."""
    env = {**os.environ, "ZIG_LOCAL_CACHE_DIR": str(cache)}
    if libraries_too:
        env["ZIG_GLOBAL_CACHE_DIR"] = str(cache)
    return env


def _clang_flags(m32: bool, is_zig: bool, checks: Checks, wrapv: bool, lifetimes: bool = False,
                 columns: bool = False, value_names: bool = True, rounding_math: bool = False) -> list[str]:
    if is_zig:
        target = "x86-linux-gnu" if m32 else "x86_64-linux-gnu"
    else:
        target = "i386-linux-gnu" if m32 else "x86_64-linux-gnu"
    flags = [
        "-target", target,  # explicit target: zig would otherwise tune for the native CPU
        "-g",
        # Without columns each source line has one debug location instead of one per
        # expression: on the 74k-line RERS programs 73 000 locations instead of 473 000, half
        # the IR text, and every parse, pass and print of the front end faster (27 -> 22 s CPU
        # clang to DimSpec). Only witnesses need columns (SV-COMP's validators match them).
        *([] if columns else ["-gno-column-info"]),
        # -O0 gives the most literal IR; -disable-O0-optnone keeps our passes effective and the
        # remaining `noinline` is rewritten to `alwaysinline` (-O1 with -disable-llvm-passes
        # would also work but adds lifetime markers and TBAA we would only have to strip).
        "-O0", "-Xclang", "-disable-O0-optnone",
        # allocas named after C variables, blocks after C statements: readable IR, phis,
        # traces and symbol maps (see `keeps_value_names` for when they are dropped)
        "-fno-discard-value-names" if value_names else "-fdiscard-value-names",
        "-fno-sanitize=all",  # zig enables UBSan in its debug mode: it changes the program
        "-fno-stack-protector",
        # `a * b + c` as two roundings (no llvm.fmuladd): the replay builds with the same flag
        "-ffp-contract=off",
        # no warnings but one: two unsequenced modifications of an object (`i++ + i++`) are
        # undefined behaviour that the IR hides (clang picked one order): UNKNOWN, see
        # `_unsequenced`; -Wno-everything silences the rest exactly as -w does
        "-Wno-everything", "-Wunsequenced", *OLD_C_ERRORS_AS_WARNINGS,
        "-S", "-emit-llvm",
    ]
    if lifetimes:
        # lifetime markers at -O0 (clang emits them at -O0 only for ASan's use-after-scope
        # checks; this cc1 option asks for the markers without ASan): where each local's scope
        # ends, so a use through a pointer afterwards is seen (llumc.frontend.lifetimes)
        flags += ["-Xclang", "-fsanitize-address-use-after-scope"]
    sanitizers = []
    if checks.overflow:
        sanitizers += ["signed-integer-overflow", "shift-base"]
    if checks.div_by_zero:
        sanitizers.append("integer-divide-by-zero")
    if checks.shift:
        sanitizers.append("shift-exponent")
    if checks.bounds:
        sanitizers += ["array-bounds", "null"]
    if sanitizers:
        joined = ",".join(sanitizers)
        # trap mode: a branch to `llvm.ubsantrap(K)` per check, no runtime handler calls;
        # no merging, so each trap keeps its own C line.
        flags += [f"-fsanitize={joined}", f"-fsanitize-trap={joined}", "-fno-sanitize-merge"]
    # Signed arithmetic wraps (CBMC/CPAchecker semantics for unreach-call), unless overflow is
    # the property: with -fwrapv clang would not instrument it.
    if wrapv and not checks.overflow:
        flags.append("-fwrapv")
    if rounding_math:
        # the program changes the rounding mode: no folding across a change, every rounding
        # operation a constrained intrinsic in the dynamic mode (llumc.frontend.rounding)
        flags.append("-frounding-math")
    return flags


#: clang's outputs while a check runs (`clang_outputs_kept`; None otherwise) by what decides
#: them (`_clang_key`), the latest last: a check encodes one program again and again (procedure
#: summaries' rounds, deeper recursion, refinement), and clang took 65 of the 100 ms of each
#: such encoding
_CLANG_OUTPUTS: dict[tuple, tuple[str, str]] | None = None
_CLANG_OUTPUTS_KEPT = 8


@contextmanager
def clang_outputs_kept() -> Iterator[None]:
    """Keep clang's outputs for the same command and source while the block runs (one check).
    Only there: a header the source includes is not part of the key, and it may change between
    two checks that one process runs."""
    global _CLANG_OUTPUTS
    outer = _CLANG_OUTPUTS
    if outer is None:
        _CLANG_OUTPUTS = {}
    try:
        yield
    finally:
        _CLANG_OUTPUTS = outer


def _clang_key(argv: list[str], path: Path) -> tuple | None:
    """What clang's output depends on, headers aside: the command, the working directory (the
    debug information names it) and the source's bytes. None where the source cannot be read
    (clang then says why)."""
    try:
        source = path.read_bytes()
    except OSError:
        return None
    return tuple(argv), os.getcwd(), hashlib.sha256(source).digest()


def _run_clang(path: Path, m32: bool, clang: str | None, checks: Checks, wrapv: bool,
               lifetimes: bool = False, columns: bool = False, value_names: bool = True,
               rounding_math: bool = False, debug: bool = True) -> str:
    """clang's IR text for `path`, made once per check for the same command and source
    (`clang_outputs_kept`). `debug` False: without debug information and with -fno-builtin (the
    library models, llumc.frontend.libcmodels, which define C library names)."""
    command, is_zig = clang_command(clang)
    # `-x c`: zig cc passes a `.i` file (preprocessed C, SV-COMP's usual form) to clang
    # without translating its own target name ("unknown target triple 'x86-unknown-linux-gnu'"
    # under --32); as plain C, line markers and all, it goes the same way as a `.c` file.
    flags = _clang_flags(m32, is_zig, checks, wrapv, lifetimes, columns, value_names, rounding_math)
    if not debug:
        flags = [flag for flag in flags if flag not in ("-g", "-gno-column-info")] + ["-g0", "-fno-builtin"]
    kept = _CLANG_OUTPUTS
    key = None if kept is None else _clang_key([*command, *flags, "-x", "c", str(path)], path)
    made = None if key is None else kept.pop(key, None)
    if made is None:
        made = _clang_output(command, flags, path, is_zig)
    if key is not None:
        kept[key] = made  # (now the latest)
        while len(kept) > _CLANG_OUTPUTS_KEPT:
            kept.pop(next(iter(kept)), None)  # the oldest
    text, stderr = made
    _unsequenced(stderr)
    return text


def _clang_output(command: list[str], flags: list[str], path: Path, is_zig: bool) -> tuple[str, str]:
    """clang's IR text and its warnings (stderr) for `path`; LlumcError where it fails."""
    with tempfile.TemporaryDirectory(prefix="llumc-") as tmp:
        out = Path(tmp) / "out.ll"  # zig cc writes nothing with `-o -`
        argv = [*command, *flags, "-o", str(out), "-x", "c", str(path)]
        # zig's outputs go with `tmp` (each RERS program left 47 MB in ~/.cache/zig otherwise);
        # IR needs no C library
        env = zig_cache_env(Path(tmp) / "zig-cache", libraries_too=True) if is_zig else None
        try:
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env)
        except FileNotFoundError:
            raise LlumcError(f"clang not found: {command[0]}") from None
        except subprocess.TimeoutExpired:
            raise LlumcError(f"clang timed out on {path}") from None
        if proc.returncode != 0 or not out.exists():
            raise LlumcError(_first_diagnostic(proc.stderr) or f"clang failed on {path}")
        return out.read_text(), proc.stderr


_UNSEQUENCED = re.compile(r"^(.*?):(\d+):\d+: warning: (.*?) \[-Wunsequenced\]$", re.M)


def _unsequenced(stderr: str) -> None:
    """Two modifications of one object, or a modification and a read, without a sequence
    point between them: C leaves the result undefined, and clang's IR holds just the order it
    chose, so no verdict is sound (docs/memory.md, "Where the model is narrower than C")."""
    match = _UNSEQUENCED.search(stderr)
    if match:
        where = f"{Path(match.group(1)).name}:{match.group(2)}"
        err = UnsupportedError(f"undefined behaviour: {match.group(3)} at {where}")
        err.category, err.construct = "undefined-behaviour", match.group(3)
        raise err


def _first_diagnostic(stderr: str) -> str:
    """clang's first error line (file:line:col kept), else its first line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if "error:" in line:
            return line
    return lines[0] if lines else ""


# --------------------------------------------------------------------------- IR text helpers

_DEFINE = re.compile(r"^define [^@]*@(\"[^\"]+\"|[\w.$]+)\(", re.M)
# a `declare` line's function name (matched at line starts: see `_line_starts`)
_DECLARED = re.compile(r"declare [^@\n]*@(\"[^\"]+\"|[\w.$]+)\(")


# While `compile_c` runs: the spans of the last texts asked for, by the text's identity (the
# entry keeps its text alive, so no other text can take its id). Several passes read the same
# text: on RERS (40 MB) three times clang's, twice the one before `_globals_as_arguments`, at
# 0.03-0.1 s each.
_SPANS_CACHE: dict[int, tuple[str, dict[str, tuple[int, int]]]] | None = None
_SPANS_CACHE_SIZE = 2  # (the texts it holds are alive anyway where they are asked for again)


@contextmanager
def _function_spans_remembered():
    global _SPANS_CACHE
    _SPANS_CACHE = {}
    try:
        yield
    finally:
        _SPANS_CACHE = None


def _function_spans(text: str) -> dict[str, tuple[int, int]]:
    """name → (start, end) character span of each `define ... { ... }` in the module text
    (not to be changed: it may be shared by the callers of the same text)."""
    cache = _SPANS_CACHE
    if cache is not None:
        known = cache.get(id(text))
        if known is not None and known[0] is text:
            return known[1]
    spans = _read_function_spans(text)
    if cache is not None:
        if len(cache) >= _SPANS_CACHE_SIZE:
            del cache[next(iter(cache))]  # the oldest
        cache[id(text)] = (text, spans)
    return spans


def _read_function_spans(text: str) -> dict[str, tuple[int, int]]:
    spans = {}
    # str.find for the line starts, the regex only there: a multiline regex scan of the 74 MB
    # texts of RERS programs took 0.4 s per call
    position = 0 if text.startswith("define ") else text.find("\ndefine ")
    while position >= 0:
        start = position + 1 if text[position] == "\n" else position
        match = _DEFINE.match(text, start)
        if match is None:
            position = text.find("\ndefine ", start)
            continue
        end = text.index("\n}\n", start) + 3
        spans[match.group(1).strip('"')] = (start, end)
        position = text.find("\ndefine ", end - 1)
    return spans


def _drop_bodies(text: str, names: set[str]) -> str:
    """Turn the definitions of `names` into declarations (their calls stay primitives)."""
    for name, (start, end) in sorted(_function_spans(text).items(), key=lambda kv: -kv[1][0]):
        if name not in names:
            continue
        text = text[:start] + _declaration(text, start) + text[end:]
    return text


def _declaration(text: str, start: int) -> str:
    """The declaration line of the function defined at text[start:]."""
    header = text[start:text.index("{", start)]
    header = re.sub(r"\s*!dbg !\d+", "", header)  # a declaration may not own a subprogram
    header = re.sub(r"^define\s+((dso_local|internal|hidden|weak|linkonce_odr)\s+)*",
                    "declare ", header)
    return header.rstrip() + "\n"


def _line_starts(text: str, prefix: str, start: int = 0, end: int | None = None) -> list[int]:
    """Offsets of the lines in text[start:end] that begin with `prefix` (`start` a line start).
    str.find over the text, not a multiline `^` regex: those try every position of the 74 MB
    texts of RERS programs (0.2-0.4 s per scan)."""
    end = len(text) if end is None else end
    found = [start] if text.startswith(prefix, start, end) else []
    position = text.find("\n" + prefix, start, end)
    while position >= 0:
        found.append(position + 1)
        position = text.find("\n" + prefix, position + 1, end)
    return found


def _line_at(text: str, position: int) -> tuple[int, int]:
    """(start, end) of the line that contains `position` (end: its newline or the text's end)."""
    end = text.find("\n", position)
    return text.rfind("\n", 0, position) + 1, len(text) if end < 0 else end


_ATTRIBUTE_GROUP = re.compile(r"^(attributes #\d+ = \{ )(.*)( \})$")


def _rewrite_attributes(text: str) -> str:
    """-O0's `noinline` → `alwaysinline` so the always-inliner puts everything into main."""
    def fix(match: re.Match) -> str:
        body = match.group(2)
        body = re.sub(r"\boptnone\b\s*", "", body)
        body = re.sub(r"\bnoinline\b", "alwaysinline", body)
        return match.group(1) + body + match.group(3)
    # only the `attributes #N = { ... }` lines, found by str.find (a multiline regex over the
    # functions and metadata of a RERS module took 0.3-0.5 s)
    pieces: list[str] = []
    done = 0
    for start in _line_starts(text, "attributes #"):
        start, end = _line_at(text, start)
        pieces += [text[done:start], _ATTRIBUTE_GROUP.sub(fix, text[start:end])]
        done = end
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


_ALLOCA = re.compile(r"^  (%[\w.$\"-]+) = alloca (i\d+|float|double|%[\w.$\"-]+|\[[^\]]*\]), align \d+")
_POINTER_ALLOCA = re.compile(r"^  (%[\w.$\"-]+) = alloca ptr, align \d+")
_AGGREGATE_ALLOCA = re.compile(r"^  %[\w.$\"-]+ = alloca (%[\w.$\"-]+|\[[^\]]*\]), align")
# larger aggregates stay memory anyway (and are reported); llumc.encoding.memory tracks no cell of a
# larger local: it has no point where its lifetime starts (docs/memory.md, cell morphing)
MAX_UNINIT_BITS = 1 << 16


def _aggregate_sizes(text: str, size_of: Callable[[str], int | None]) -> dict[str, int]:
    """Byte size of each struct/array type allocated in the module (from its data layout):
    an uninitialised aggregate gets one nondet integer of that size, which SROA splits."""
    types = {match.group(1) for match in map(_AGGREGATE_ALLOCA.match, _lines_containing(text, " = alloca "))
             if match}
    return {ty: size for ty in types if (size := size_of(ty))}


def _type_sizes_of(text: str) -> Callable[[str], int | None]:
    """Byte size of a type of the module `text`, asked by its text (`%struct.S`, `[4 x i32]`);
    the module is parsed on the first question only, in an LLVM context of its own (in one that
    holds `%struct.S` already this module's would be `%struct.S.0`, and the name would find the
    other module's type)."""
    parsed: list = []

    def size_of(ty: str) -> int | None:
        if not parsed:
            _init_llvm()
            module = llvm.parse_assembly(text, llvm.create_context())
            pointer_bytes = 4 if re.search(r"-p:32|^target triple = \"i\d86", text, flags=re.M) else 8
            parsed.append((module, llvm.create_target_data(module.data_layout), pointer_bytes))
        module, target_data, pointer_bytes = parsed[0]
        return _type_size(ty, module, target_data, pointer_bytes)

    return size_of


def _type_size(ty: str, module, target_data, pointer_bytes: int) -> int | None:
    ty = ty.strip()
    array = re.fullmatch(r"\[(\d+) x (.+)\]", ty)
    if array:
        element = _type_size(array.group(2), module, target_data, pointer_bytes)
        return int(array.group(1)) * element if element else None
    integer = re.fullmatch(r"i(\d+)", ty)
    if integer:
        bits = int(integer.group(1))
        return 8 if bits == 64 else max(1, (bits + 7) // 8)
    if ty == "ptr":
        return pointer_bytes
    if ty in FLOAT_WIDTHS:
        return FLOAT_WIDTHS[ty] // 8
    if ty.startswith("%"):
        try:
            return target_data.get_abi_size(module.get_struct_type(ty[1:].strip('"')))
        except (NameError, RuntimeError, ValueError):
            return None
    return None


_DBG_DECLARE = re.compile(r"^\s+#dbg_declare\(ptr (%[\w.$\"-]+), !(\d+),")
_PARAMETER_VARIABLE = re.compile(r"^!(\d+) = !DILocalVariable\([^\n]*\barg: ")


def _lines_containing(text: str, word: str, start: int = 0, end: int | None = None) -> list[str]:
    """The lines of text[start:end] that contain `word`, each once, in order (str.find)."""
    end = len(text) if end is None else end
    lines: list[str] = []
    position = text.find(word, start, end)
    while position >= 0:
        line_start, line_end = _line_at(text, position)
        lines.append(text[line_start:line_end])
        position = text.find(word, line_end, end)
    return lines


def _initialise_locals(text: str, size_of: Callable[[str], int | None]) -> str:
    """Every scalar local starts from `call iN @__llumc_uninit_iN()` (a fresh nondet value).

    Why: SROA turns a read of a never-written alloca into `undef`, and simplifycfg may then
    pick a branch direction on it, silently deleting behaviours (a wrong TRUE). The uninit
    functions are `memory(none) nounwind willreturn`, so dead ones vanish with the store.
    Two places: after the allocas of the entry block (each inlined call gets fresh values;
    covers compiler temporaries such as `retval`), and again at the variable's declaration,
    where -O0 puts its `#dbg_declare`, so a variable declared inside a loop body is fresh in
    every iteration as C says (not the value of the previous iteration). Parameters (`arg:`
    in their DILocalVariable) are skipped: their declare follows the store of the argument.

    Only each function's entry block is read line by line; the `#dbg_declare` records are
    found by str.find (a split of the whole text took a second on RERS programs)."""
    parameters = {match.group(1) for match in map(_PARAMETER_VARIABLE.match, _lines_containing(
        text, " = !DILocalVariable(", metadata_start(text))) if match}
    aggregate_bytes = _aggregate_sizes(text, size_of)
    widths: set[int] = set()
    fresh = 0
    in_memory = False
    pointers = 0  # pointer locals given `__llumc_uninit_ptr()` (see below)

    def initialise(var: str, ty: str) -> list[str]:
        nonlocal fresh, pointers
        if ty == "ptr":  # numbered apart: the integer sites keep their numbers (the replay's)
            pointers += 1
            return [f"  %__uninit_ptr.{pointers} = call ptr @{UNINIT_PREFIX}ptr()",
                    f"  store ptr %__uninit_ptr.{pointers}, ptr {var}"]
        fresh += 1
        widths.add(int(ty[1:]))
        tmp = f"%__uninit.{fresh}"
        return [f"  {tmp} = call {ty} @{UNINIT_PREFIX}{ty}()", f"  store {ty} {tmp}, ptr {var}"]

    pieces: list[str] = []
    done = 0  # text[:done] is in `pieces`
    defines = _line_starts(text, "define ")
    for index, define in enumerate(defines):
        stop = defines[index + 1] if index + 1 < len(defines) else len(text)
        pending: list[str] = []
        scalars: dict[str, str] = {}
        # a local whose lifetime the encoder follows (llumc.frontend.lifetimes) is dead before its
        # start marker: it gets its fresh value right after each start marker instead
        followed = protected_locals(text[define:stop]) if text.find(LIFETIME_START, define, stop) >= 0 else set()
        # the entry block's allocas (and its label, blank lines, comments), up to its first
        # other line: the initialisations go before that line
        first_other = None
        position = text.find("\n", define, stop) + 1
        while 0 < position < stop:
            line_end = text.find("\n", position)
            line_end = len(text) if line_end < 0 else line_end
            line = text[position:line_end]
            match = _ALLOCA.match(line)
            ty = ""
            pointer = _POINTER_ALLOCA.match(line)
            if pointer and not escapes(text[define:stop], pointer.group(1)):
                # a pointer SROA will promote: a read of it before any write would be `undef`,
                # which the optimiser may fold into the other value of a phi (`p = &x` on one
                # path: then `&x` on every path, a wrong TRUE). `__llumc_uninit_ptr()` is
                # opaque; one that survives the passes (a read before any write) is refused
                # by `_check_supported`, and dead ones vanish with their store
                match, ty = pointer, "ptr"
            elif match and match.group(2) in FLOAT_WIDTHS:
                # a float or double: a fresh integer of its width, stored over it (its bits)
                ty = f"i{FLOAT_WIDTHS[match.group(2)]}"
            elif match and not match.group(2).startswith("i"):
                # a struct or array: one nondet integer over all its bytes
                size = aggregate_bytes.get(match.group(2))
                if size and 8 * size > MAX_UNINIT_BITS:
                    # too large for one fresh value: kept in memory, where it is abstract
                    # (llumc.encoding.memory: every read outside a tracked cell any value), not
                    # promoted by SROA to values that would keep the last iteration's contents
                    pending.append(f"  call void @{IN_MEMORY_FUNCTION}(ptr {match.group(1)})")
                    in_memory = True
                match = match if size and 8 * size <= MAX_UNINIT_BITS else None
                ty = f"i{8 * size}" if match else ""
            if match:
                var = match.group(1)
                ty = ty or match.group(2)
                scalars[var] = ty
                if var not in followed:
                    pending.extend(initialise(var, ty))
            elif not ((line.startswith("  %") and " = alloca " in line) or line.endswith(":")
                      or line == "" or line.lstrip().startswith(";")):
                first_other = position
                break
            position = line_end + 1
        if first_other is None:
            continue
        pieces.append(text[done:first_other])
        if pending:
            pieces.append("\n".join(pending) + "\n")
        done = first_other
        # each scalar's declaration (from the entry block's first other line on), and each
        # start marker of a followed local
        points: list[tuple[int, str]] = []
        position = text.find("#dbg_declare(ptr ", first_other, stop)
        while position >= 0:
            line_start, line_end = _line_at(text, position)
            declare = _DBG_DECLARE.match(text[line_start:line_end])
            if declare and declare.group(1) in scalars and declare.group(1) not in followed \
                    and declare.group(2) not in parameters:
                points.append((line_end, declare.group(1)))
            position = text.find("#dbg_declare(ptr ", line_end, stop)
        if followed:
            marker = f"@{LIFETIME_START}(ptr "
            position = text.find(marker, first_other, stop)
            while position >= 0:
                line_start, line_end = _line_at(text, position)
                var = text[position + len(marker):text.find(")", position)]
                if var in scalars:
                    points.append((line_end, var))
                position = text.find(marker, line_end, stop)
            points.sort()
        for line_end, var in points:
            pieces += [text[done:line_end], "\n" + "\n".join(initialise(var, scalars[var]))]
            done = line_end
    pieces.append(text[done:])
    text = "".join(pieces)
    if widths:
        text += "".join(f"\ndeclare i{w} @{UNINIT_PREFIX}i{w}() #{_UNINIT_ATTR}\n"
                        for w in sorted(widths))
    if pointers:
        text += f"\ndeclare ptr @{UNINIT_PREFIX}ptr() #{_UNINIT_ATTR}\n"
    if widths or pointers:
        text += f"attributes #{_UNINIT_ATTR} = {{ nounwind willreturn memory(none) }}\n"
    if in_memory:
        text += f"\ndeclare void @{IN_MEMORY_FUNCTION}(ptr)\n"
    return text


_UNINIT_ATTR = 9999
# A call of it keeps a local in memory: SROA does not promote what escapes into an unknown
# function (`_initialise_locals`); the encoder ignores it (llumc.encoding.wordsys).
IN_MEMORY_FUNCTION = "__llumc_in_memory"


def _metadata_max(text: str) -> int:
    ids = [int(m) for m in re.findall(r"^!(\d+) = ", text, flags=re.M)]
    return max(ids, default=0)


_GLOBAL_REF = re.compile(r"@(\"[^\"]+\"|[\w.$]+)(?![\w.$])")


_MAX_LOCALISED_BYTES = 1024
_GLOBAL_DEFINITION = re.compile(r"^@(\"[^\"]+\"|[\w.$]+) = [^\n]*$", re.M)
_LOCAL_SUFFIX = ".global"  # a localised global @g becomes %g.global (more `_` on a clash)


def _is_name_character(character: str) -> bool:
    """In `[\\w.$-]`, the characters of an unquoted LLVM name (`\\w` as Python's re has it)."""
    return character.isalnum() or character in "_.$-"


def _names_containing(text: str, word: str) -> set[str]:
    """`{n for n in re.findall(r"%([\\w.$-]+)", text) if word in n}` for a `word` of name
    characters, by str.find: the findall built a list of a million names on RERS programs."""
    names: set[str] = set()
    position = text.find(word)
    while position >= 0:
        begin, end = position, position + len(word)
        while begin > 0 and _is_name_character(text[begin - 1]):
            begin -= 1
        while end < len(text) and _is_name_character(text[end]):
            end += 1
        if begin > 0 and text[begin - 1] == "%":
            names.add(text[begin:end])
        position = text.find(word, end)
    return names


def _replace_global_refs(main_text: str, body_start: int,
                         replaced: dict[str, tuple[list[int], str]]) -> str:
    """main_text[body_start:] with the `@name` references at the given positions (those
    `_GLOBAL_REF` found for `name`) replaced by the new local's reference: slices between
    known positions instead of a regex substitution with a Python callback per reference."""
    edits = sorted((position, name, ref) for name, (positions, ref) in replaced.items()
                   for position in positions)
    pieces: list[str] = []
    done = body_start
    for position, name, ref in edits:
        pieces += [main_text[done:position], ref]
        quoted = main_text.startswith('@"', position)
        done = position + 1 + len(name) + (2 if quoted else 0)
    pieces.append(main_text[done:])
    return "".join(pieces)


def _global_facts(module: "llvm.ModuleRef") -> list[tuple[str, int, str]]:
    """(name, ABI size in bytes, value type text) of each global variable the module defines
    (not `llvm.*`): what `_localise_globals` needs of the module, read before it is freed."""
    target_data = llvm.create_target_data(module.data_layout)
    return [(gv.name, target_data.get_abi_size(gv.global_value_type), str(gv.global_value_type))
            for gv in module.global_variables
            if not gv.is_declaration and gv.name and not gv.name.startswith("llvm.")]


def _fresh_local(name: str, taken: set[str]) -> str:
    """The reference of the local that replaces global `name`: `%name.global`, with more `_`
    while that name is taken (then taken too)."""
    local = f"{name}{_LOCAL_SUFFIX}"
    while local in taken:
        local += "_"
    taken.add(local)
    return f"%{local}" if re.fullmatch(r"[\w.$-]+", local) else f'%"{local}"'


def _declare_local(ref: str, value_type: str, init: str, align: str | None, definition: str,
                   global_vars: dict[int, tuple[str, int, int, int]], subprogram: str | None,
                   next_md: int, allocas: list[str], inits: list[str], new_md: list[str]) -> int:
    """Append the alloca of a localised global, the store of its initial value and, when the
    global has debug information and main a subprogram, a `#dbg_declare` with a local variable
    of the global's name (marked artificial) and its metadata. Returns the next free metadata id."""
    allocas.append(f"  {ref} = alloca {value_type}" + (f", align {align}" if align else ""))
    inits.append(f"  store {value_type} {init}, ptr {ref}")
    dbg = re.search(r"!dbg !(\d+)", definition)
    var = global_vars.get(int(dbg.group(1))) if dbg and subprogram else None
    if var is None:
        return next_md
    var_name, file_md, line, type_md = var
    new_md.append(f'!{next_md} = !DILocalVariable(name: "{var_name}", scope: !{subprogram}, '
                  f"file: !{file_md}, line: {line}, type: !{type_md}, flags: DIFlagArtificial)")
    new_md.append(f"!{next_md + 1} = !DILocation(line: {line}, scope: !{subprogram})")
    inits.append(f"    #dbg_declare(ptr {ref}, !{next_md}, !DIExpression(), !{next_md + 1})")
    return next_md + 2


def _localise_globals(text: str, global_facts: list[tuple[str, int, str]]) -> tuple[str, bool]:
    """Globals used only by main's load/store/getelementptr instructions become allocas of main.
    Also says whether SROA of the result can read no `undef` (then `_check_no_undef` after it
    is not needed, as `_promotion_reads_no_undef` says for the first module, here from what
    this function examines anyway): main is the only function, reads no undef, has no alloca
    but the new ones, and each new one is a scalar stored (its initial value) at the top of
    the entry block and only loaded and stored with its own type.

    Why a text rewrite: globalopt localises a global only when its initial value is dead on
    entry, which is not the case for the state machines that read their initialised globals.
    main runs once and is not recursive here (recursion was rejected), so an alloca holding the
    initial value has the same semantics as the global; SROA then promotes it. A dbg_declare
    with a local variable named after the global keeps its C name visible to debug info.
    One regex pass collects every `@name` reference (the largest programs are 70 MB of IR)."""
    spans = _function_spans(text)
    if "main" not in spans:
        return text, False
    start, end = spans["main"]
    main_text = text[start:end]
    promotable = len(spans) == 1 and " = alloca " not in main_text and not any(
        _undef_read(line) is not None for line in _lines_with_undef(main_text))
    header_end = main_text.index("{\n") + 2
    sp_match = re.search(r"!dbg !(\d+)", main_text[:header_end])
    main_text = main_text[:header_end] + _explode_constant_geps(main_text[header_end:])
    outside_uses: Counter = Counter()
    for chunk in (text[:start], text[end:]):
        outside_uses.update(m.group(1).strip('"') for m in _GLOBAL_REF.finditer(chunk))
    inside: dict[str, list[int]] = {}
    for raw, position in [(m.group(1), m.start()) for m in _GLOBAL_REF.finditer(main_text, header_end)]:
        inside.setdefault(raw.strip('"'), []).append(position)
    # the printer puts every global's definition before the functions
    definitions = {m.group(1).strip('"'): m for m in _GLOBAL_DEFINITION.finditer(text, 0, start)}
    taken = _names_containing(main_text, _LOCAL_SUFFIX)  # the only names a new local may clash with
    metadata = text[end:]  # the printer puts all metadata after the functions
    next_md = _metadata_max(metadata) + 1
    global_vars = _global_debug_variables(metadata)
    allocas: list[str] = []
    inits: list[str] = []
    new_md: list[str] = []
    replacement: dict[str, str] = {}
    removed: set[int] = set()
    for name, abi_size, value_type in global_facts:
        if name not in definitions:
            continue
        if abi_size > _MAX_LOCALISED_BYTES and \
                any(_computed_index_use(main_text, pos) for pos in inside.get(name, [])):
            # memory anyway, and SROA would split its initial value into one store per element
            # (100 000 of them for `int a[100000]`): llumc/encoding/memory.py reads the initializer itself
            continue
        if outside_uses[name] != 1 or name not in inside:  # 1: the definition itself
            continue
        uses = [_plain_memory_use(main_text, pos) for pos in inside[name]]
        if not all(uses):
            continue
        definition = definitions[name].group(0)
        kind = re.search(r"\b(global|constant) ", definition)
        if not kind or not definition[kind.end():].startswith(value_type + " "):
            continue
        init = definition[kind.end() + len(value_type) + 1:]
        init = re.sub(r"(, align \d+)?(, !dbg !\d+)*$", "", init)
        promotable = promotable and _INT_TYPE_TEXT.fullmatch(value_type) is not None and \
            _SCALAR_CONSTANT.fullmatch(init) is not None and \
            all(_scalar_access(use, value_type) for use in uses)
        align = re.search(r", align (\d+)", definition)
        local_ref = replacement[name] = _fresh_local(name, taken)
        next_md = _declare_local(local_ref, value_type, init, align.group(1) if align else None,
                                 definition, global_vars, sp_match.group(1) if sp_match else None,
                                 next_md, allocas, inits, new_md)
        removed.add(definitions[name].start())
    if not allocas:
        return text, promotable
    body = _replace_global_refs(main_text, header_end, {name: (inside[name], ref) for name, ref in replacement.items()})
    header = main_text[:header_end]
    label = re.match(r"([\w.$-]+:.*\n)", body)
    if label:
        header += label.group(1)
        body = body[label.end():]
    main_text = header + "\n".join(allocas + inits) + "\n" + body
    # The printer puts global definitions before functions: drop the localised ones.
    kept, offset = [], 0
    for line in text[:start].splitlines(keepends=True):
        if offset not in removed:
            kept.append(line)
        offset += len(line)
    before = "".join(kept)
    return before + main_text + text[end:] + "\n" + "\n".join(new_md) + "\n", promotable


def _globals_as_arguments(text: str) -> str | None:
    """Before inlining, on clang's text: each integer global that the functions only load and
    store becomes an alloca of main holding its initial value, which every defined function
    receives (and passes on) as a pointer parameter of the same name. Once all is inlined,
    main's accesses go to the alloca itself and SROA promotes it: what `_localise_globals`
    gives, without its LLVM round trip after inlining (print, rewrite, parse and verify).

    None when the outcome could differ from `_localise_globals`, which the caller then runs
    after inlining: a global it would localise and this cannot (not a scalar integer with a
    constant initial value, loaded and stored with its own type), a global used in a way SROA
    or inlining may still turn into a plain access (a stored address, an argument of a
    defined function), a defined function used other than by a direct call, lifetime markers
    (llumc.frontend.lifetimes reads the inlined text), quoted names."""
    if f"@{LIFETIME_START}(" in text or '@"' in text:
        return None
    spans = _function_spans(text)
    if "main" not in spans:
        return None
    first = min(start for start, _ in spans.values())
    last = max(end for _, end in spans.values())
    definitions = {m.group(1): m for m in _GLOBAL_DEFINITION.finditer(text, 0, first)}

    # `@name` references counted by name (the definitions' own included), in the whole text
    # and in the functions: C-speed findalls over RERS's 47 MB (positions only where needed)
    in_functions = Counter(_GLOBAL_REF.findall(text, first, last))
    everywhere = in_functions + Counter(_GLOBAL_REF.findall(text, 0, first)) + \
        Counter(_GLOBAL_REF.findall(text, last))

    openings: list[int] = []  # the `(` of each call of a defined function and of its header
    callees = [name for name in spans if name != "main"]
    for match in _name_references(callees, text, 0, len(text)):
        name, position = match.group(1), match.start()
        line_start, _ = _line_at(text, position)
        prefix = text[line_start:position]
        opening = position + 1 + len(name)
        direct = first <= position < last and text.startswith("(", opening) and "(" not in prefix
        if not (direct and (" call " in prefix or prefix.startswith("define "))):
            return None  # the function's address: its signature must stay
        openings.append(opening)

    # loads and stores of an integer global with a type: each is `_plain_memory_use` and
    # `_scalar_access` of that type; a global with only such references needs no more reading
    scalar_uses = Counter(_SCALAR_LOAD.findall(text, first, last))
    scalar_uses.update(_SCALAR_STORE.findall(text, first, last))
    localised: list[tuple[str, str, str, str | None]] = []  # name, type, initial value, align
    for name, definition in definitions.items():
        inside = in_functions[name]
        if not inside or inside != everywhere[name] - 1:  # 1: the definition's own `@name`
            continue  # unused, or named outside the functions: it stays a global
        scalar = _SCALAR_GLOBAL.search(definition.group(0))
        if not (scalar and scalar_uses[(scalar.group(1), name)] == inside):
            # not all its references are such loads and stores: read each one
            positions = [match.start() for match in _name_references([name], text, first, last)]
            uses = [_plain_memory_use(text, position) for position in positions]
            if not all(uses):
                if not all(use or _argument_of_declared(text, position, spans)
                           for position, use in zip(positions, uses)):
                    return None
                continue  # an argument of a declared function: it stays a global
            if not scalar or not all(_scalar_access(use, scalar.group(1)) for use in uses):
                return None  # `_localise_globals` would localise it (and SROA split it)
        localised.append((name, scalar.group(1), scalar.group(2), scalar.group(3)))
    if not localised:
        return text

    taken = _names_containing(text[first:last], _LOCAL_SUFFIX)
    local_ref = {name: _fresh_local(name, taken) for name, *_ in localised}
    edits: list[tuple[int, int, str]] = []  # (position, characters replaced, new text)
    for name, *_ in localised:  # (the references: below, by one regex)
        edits.append((definitions[name].start(), len(definitions[name].group(0)) + 1, ""))
    parameters = ", ".join(f"ptr noundef nonnull align {align or 1} "
                           f"dereferenceable({(int(ty[1:]) + 7) // 8}) {local_ref[name]}"
                           for name, ty, _, align in localised)
    arguments = ", ".join(f"ptr {local_ref[name]}" for name, *_ in localised)
    for opening in openings:
        closing = _closing_parenthesis(text, opening)
        is_header = text.startswith("define ", _line_at(text, opening)[0])
        added = parameters if is_header else arguments
        edits.append((closing, 0, added if text[opening + 1] == ")" else ", " + added))

    # main: the allocas first in the entry block, their initial values after its allocas
    start, end = spans["main"]
    header_end = text.index("{\n", start) + 2
    label = _LABEL_LINE_AT.match(text, header_end, end)
    entry = label.end() if label else header_end
    after_allocas = entry
    while text.startswith("  %", after_allocas) and \
            " = alloca " in text[after_allocas:text.index("\n", after_allocas)]:
        after_allocas = text.index("\n", after_allocas) + 1
    metadata_from = last
    next_md = _metadata_max(text[metadata_from:]) + 1
    global_vars = _global_debug_variables(text[metadata_from:])
    subprogram = re.search(r"!dbg !(\d+)", text[start:header_end])
    allocas: list[str] = []
    inits: list[str] = []
    new_md: list[str] = []
    for name, ty, init, align in localised:
        next_md = _declare_local(local_ref[name], ty, init, align, definitions[name].group(0), global_vars,
                                 subprogram.group(1) if subprogram else None, next_md, allocas, inits, new_md)
    allocas_text, inits_text = "".join(f"{line}\n" for line in allocas), "".join(f"{line}\n" for line in inits)
    if entry == after_allocas:
        edits.append((entry, 0, allocas_text + inits_text))
    else:
        edits += [(entry, 0, allocas_text), (after_allocas, 0, inits_text)]
    # the references to the localised globals, all in the functions, replaced chunk by chunk
    # between the edits (none of which is inside a name)
    reference = _name_references_pattern(list(local_ref))

    def replacement(match: re.Match) -> str:  # (faster than a template `%\1.global` in 3.11)
        return local_ref[match.group(1)]
    pieces, done = [], 0
    for position, length, new in sorted(edits) + [(len(text), 0, "")]:  # no two at one position
        chunk = text[done:position]
        pieces += [reference.sub(replacement, chunk) if done < last and position > first else chunk, new]
        done = position + length
    return "".join(pieces) + "\n" + "\n".join(new_md) + "\n"


def _name_references_pattern(names: list[str]) -> re.Pattern:
    """`@name` for these (unquoted) names, as `_GLOBAL_REF` reads a reference (a whole name:
    `@a1` is not in `@a14`); the name is group 1."""
    alternatives = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    return re.compile(r"@(" + alternatives + r")(?![\w.$])")


def _name_references(names: list[str], text: str, start: int, end: int) -> Iterator[re.Match]:
    """The `_GLOBAL_REF` matches in text[start:end] that name one of `names`."""
    return _name_references_pattern(names).finditer(text, start, end) if names else iter(())


_LABEL_LINE_AT = re.compile(r"[\w.$-]+:.*\n")
# a load or store of an integer type through a global, as the line's pointer operand:
# (type, global name)
_SCALAR_LOAD = re.compile(r"\n  %[\w.$\"-]+ = load (i\d+), ptr @([\w.$]+)(?![\w.$])")
_SCALAR_STORE = re.compile(r"\n  store (i\d+) [^,(\n]*, ptr @([\w.$]+)(?![\w.$])")
_SCALAR_GLOBAL = re.compile(r"\b(?:global|constant) (i\d+) (-?\d+|true|false)(?:, align (\d+))?(?:, !dbg !\d+)*$")


def _closing_parenthesis(text: str, opening: int) -> int:
    """Position of the `)` that closes the `(` at `opening`."""
    depth, position = 0, opening
    while True:
        character = text[position]
        if character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
            if depth == 0:
                return position
        position += 1


def _argument_of_declared(text: str, position: int, spans: dict[str, tuple[int, int]]) -> bool:
    """Is the global at `position` an argument of a call to a function without a body (which
    inlining does not remove, so `_localise_globals` would not see a plain use there)?"""
    line_start, _ = _line_at(text, position)
    callee = _CALLEE.search(text, line_start, position)
    return callee is not None and " call " in text[line_start:callee.start()] \
        and callee.group(1).strip('"') not in spans


_CONSTANT_GEP = re.compile(
    r"getelementptr ((?:inbounds |nuw |nusw |inrange\(\S+\) )*)\(([^()]*?ptr @[^()]*)\)")


def _explode_constant_geps(body: str, prefix: str = "__cgep") -> str:
    """`load i32, ptr getelementptr inbounds ([3 x i32], ptr @t, i64 0, i64 1)` → a GEP
    instruction before the load, so that the global can be replaced by a local (a constant
    expression cannot refer to an instruction). Phis are left alone (nothing may precede them)."""
    if "getelementptr" not in body or "ptr @" not in body:
        return body  # no line to change (one scan each instead of a split into lines)
    counter = 0
    out: list[str] = []
    for line in body.split("\n"):
        if "getelementptr" in line and "ptr @" in line and " = phi " not in line:
            extra: list[str] = []

            def lift(match: re.Match) -> str:
                nonlocal counter
                before = match.string[:match.start()]
                if not _instruction_operand_position(before):
                    # inside another constant expression (`ptrtoint (ptr getelementptr …)`, a
                    # debug record's): an instruction cannot stand there; left to the reader
                    return match.group(0)
                counter += 1
                name = f"%{prefix}.{counter}"
                extra.append(f"  {name} = getelementptr {match.group(1)}{match.group(2)}")
                return name
            line = _CONSTANT_GEP.sub(lift, line)
            out.extend(extra)
        out.append(line)
    return "\n".join(out)


def _instruction_operand_position(before: str) -> bool:
    """Does an operand that follows `before` (the start of its line) belong to the instruction
    itself — outside all parentheses, or directly in a call's argument list — rather than to a
    constant expression or a debug record?"""
    depth = before.count("(") - before.count(")")
    if depth == 0:
        return True
    if depth != 1:
        return False
    opening = before.rfind("(")
    return " call " in before[:opening] and re.search(r'@[\w.$"-]+$', before[:opening]) is not None


def _explode_main_constant_geps(text: str) -> str | None:
    """The passes fold a GEP with constant operands back into a constant expression (`store i32
    4, ptr getelementptr inbounds ([100000 x i32], ptr @a, i64 0, i64 77777)` for a global that
    stays in memory), which the CFG reader does not read: make them instructions again. None
    when main has none (the usual case: no second parse)."""
    if "ptr getelementptr" not in text:  # one C-level scan instead of the spans and the regex
        return None
    spans = _function_spans(text)
    if "main" not in spans:
        return None
    start, end = spans["main"]
    body_start = text.index("{\n", start) + 2
    body = text[body_start:end]
    if not _CONSTANT_GEP.search(body):
        return None
    return text[:body_start] + _explode_constant_geps(body, prefix="__cgep.main") + text[end:]


def _computed_index_use(function_text: str, position: int) -> bool:
    """Is the global at `position` the base of a GEP with a non-constant index?"""
    line_end = function_text.find("\n", position)
    line_start = function_text.rfind("\n", 0, position) + 1
    line = function_text[line_start:line_end if line_end >= 0 else None]
    return " = getelementptr " in line and "%" in line[position - line_start:].split(", !", 1)[0]


def _plain_memory_use(function_text: str, position: int) -> re.Match | None:
    """Is the global at `position` the pointer operand of a load, store or instruction GEP
    (not inside a constant expression, not a call argument, not a stored value)? The match
    of `_PLAIN_MEMORY_USE` on the line up to it if so (`_scalar_access` reads it)."""
    line_start = function_text.rfind("\n", 0, position) + 1
    prefix = function_text[line_start:position]
    if "(" in prefix:
        return None
    return _PLAIN_MEMORY_USE.match(prefix)


_PLAIN_MEMORY_USE = re.compile(  # the pointer operand of a load, a store or an instruction GEP
    r"\s+%[\w.$\"-]+ = load (volatile )?([^,]+), ptr $"
    r"|\s+store (volatile )?([^,]+), ptr $"
    r"|\s+%[\w.$\"-]+ = getelementptr [^,]+, ptr $")
_INT_TYPE_TEXT = re.compile(r"i\d+")
_SCALAR_CONSTANT = re.compile(r"-?\d+|true|false")


def _scalar_access(use: re.Match, value_type: str) -> bool:
    """Is this `_PLAIN_MEMORY_USE` match a non-volatile load or store of `value_type`?"""
    load_type, stored = use.group(2), use.group(4)
    if load_type is not None:
        return use.group(1) is None and load_type == value_type
    return stored is not None and use.group(3) is None and stored.startswith(value_type + " ")


_GLOBAL_EXPRESSION = re.compile(r"^!(\d+) = !DIGlobalVariableExpression\(var: !(\d+)")
_GLOBAL_VARIABLE = re.compile(r"^!(\d+) = distinct !DIGlobalVariable\(([^\n]*)\)$")


def _global_debug_variables(text: str) -> dict[int, tuple[str, int, int, int]]:
    """`!dbg` id of a global (its DIGlobalVariableExpression) → (name, file id, line, type id)
    of the DIGlobalVariable behind it; one pass over the metadata."""
    expressions = dict(match.groups() for match in map(_GLOBAL_EXPRESSION.match, _lines_containing(
        text, " = !DIGlobalVariableExpression(")) if match)
    variables = {}
    for var_id, fields in (match.groups() for match in map(_GLOBAL_VARIABLE.match, _lines_containing(
            text, " = distinct !DIGlobalVariable(")) if match):
        name = re.search(r'name: "([^"]*)"', fields)
        file_md = re.search(r"file: !(\d+)", fields)
        line = re.search(r"line: (\d+)", fields)
        type_md = re.search(r"type: !(\d+)", fields)
        if name and file_md and line and type_md:
            variables[var_id] = (name.group(1), int(file_md.group(1)), int(line.group(1)),
                                 int(type_md.group(1)))
    return {int(expr): variables[var] for expr, var in expressions.items() if var in variables}


# --------------------------------------------------------------------------- llvmlite

_llvm_ready = False


def _init_llvm() -> None:
    global _llvm_ready
    if not _llvm_ready:
        # llvmlite 0.50: llvm.initialize() raises; these two are what parsing and passes need.
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        # parse_assembly of a module with debug info ("Debug Info Version" 3, clang's -g) runs
        # LLVM's whole verifier inside the parser (UpgradeDebugInfo); `_parse` verifies each
        # module itself right after, so that was the same check twice: 0.4-0.5 s per parse of
        # Problem07's modules. Only when `_parse`'s verify fails does it parse again the old
        # way (`_parse_upgrading_debug_info`), which behaves exactly as before.
        llvm.set_option("", "-disable-auto-upgrade-debug-info=1")
        _llvm_ready = True


# The LLVM context of the compile under way (`_own_llvm_context`): LLVM renames a named struct
# type that its context already holds (`%struct.S` becomes `%struct.S.0` in the next module that
# defines one), so in the global context a program's IR, and its encoding's symbol map, depended
# on which programs the process had compiled before.
_CONTEXT: "llvm.ContextRef | None" = None


@contextmanager
def _own_llvm_context():
    global _CONTEXT
    _init_llvm()
    outer, _CONTEXT = _CONTEXT, llvm.create_context()
    try:
        yield
    finally:
        _CONTEXT = outer  # (each module holds its context: it is disposed with the last one)


def _parse_in_context(text: str) -> "llvm.ModuleRef":
    return llvm.parse_assembly(text, _CONTEXT if _CONTEXT is not None else llvm.create_context())


def _parse(text: str, source: Path) -> "llvm.ModuleRef":
    try:
        module = _parse_in_context(text)
        try:
            module.verify()
        except RuntimeError:
            module = _parse_upgrading_debug_info(text)
            module.verify()
    except RuntimeError as err:  # a front-end bug, but still one line for the user
        first = str(err).strip().splitlines()[0] if str(err).strip() else "invalid module"
        raise LlumcError(f"internal front-end error on {source}: {first}") from None
    return module


def _parse_upgrading_debug_info(text: str) -> "llvm.ModuleRef":
    """parse_assembly with LLVM's own check in the parser (see `_init_llvm`), for a module that
    failed verification: invalid debug info is dropped with a warning ("ignoring invalid debug
    info") and the module is usable without C lines; any other defect aborts the process
    ("LLVM ERROR: Broken module found"). That is what every parse did before the check was
    turned off, so nothing is accepted or rejected differently."""
    llvm.set_option("", "-disable-auto-upgrade-debug-info=0")
    try:
        return _parse_in_context(text)
    finally:
        llvm.set_option("", "-disable-auto-upgrade-debug-info=1")


def _run_passes(module: "llvm.ModuleRef", add_passes) -> "llvm.ModuleRef":
    # A target machine from the module's own triple: an i386 module under an x86-64 machine
    # aborts the process.
    target = llvm.Target.from_triple(module.triple)
    machine = target.create_target_machine()
    options = llvm.create_pipeline_tuning_options(speed_level=0)
    builder = llvm.create_pass_builder(machine, options)
    manager = llvm.create_new_module_pass_manager()
    add_passes(manager)
    manager.run(module, builder)
    return module


def _promote(pm) -> None:
    pm.add_sroa_pass()


def _simplify(pm) -> None:
    # SROA (run just before) and simplifycfg on each function before inlining: the same work
    # after inlining, on one giant main, took 4x longer on the 74k-line RERS programs
    # (simplifycfg iterates over the whole function).
    pm.add_simplify_cfg_pass()


def _inline_everything(pm) -> None:
    pm.add_always_inliner_pass()
    pm.add_global_dead_code_eliminate_pass()


def _clean(pm) -> None:
    pm.add_simplify_cfg_pass()
    _tidy(pm)


def _tidy(pm) -> None:
    pm.add_dead_code_elimination_pass()
    pm.add_global_dead_code_eliminate_pass()
    pm.add_strip_dead_prototype_pass()
    pm.add_instruction_namer_pass()


# --------------------------------------------------------------------------- checks


def _located(source: Path, debug: DebugInfo, instr_text: str | None) -> str:
    line = debug.line_of(instr_text) if instr_text else None
    return f"{source.name}:{line}" if line else source.name


def _unsupported(category: str, construct: str, where: str) -> UnsupportedError:
    err = UnsupportedError(f"unsupported: {construct} at {where}")
    err.category = category
    err.construct = construct
    return err


_CALL = re.compile(r"^  (?:%[^=\n]+= )?(?:tail |musttail |notail )?(call|invoke|callbr) ([^\n]*)$", re.M)
_CALLEE = re.compile(r"@(\"[^\"]+\"|[\w.$]+)\(")


def _call_lines(text: str, start: int, end: int) -> list[re.Match]:
    """The matches of `_CALL.finditer(text, start, end)`, trying only the lines that contain
    `call` or `invoke` (str.find; the multiline regex tried every position of the functions)."""
    line_starts: set[int] = set()
    for word in ("call", "invoke"):
        position = text.find(word, start, end)
        while position >= 0:
            line_start, line_end = _line_at(text, position)
            line_starts.add(line_start)
            position = text.find(word, line_end, end)
    return [match for match in (_CALL.match(text, line_start, end) for line_start in sorted(line_starts))
            if match]


# Calls whose meaning inlining cannot give: named, so the UNKNOWN says what is missing.
_UNSUPPORTED_CALLS = {
    **{name: ("concurrency", f"concurrency ({name}) is not supported")
       for name in ("pthread_create", "thrd_create", "fork", "__VERIFIER_atomic_begin")},
    **{name: ("setjmp", f"non-local jump ({name}) is not supported")
       for name in ("setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp", "longjmp", "_longjmp", "siglongjmp")},
}


def _check_before_inlining(text: str, source: Path) -> "CallFacts":
    """Things the inliner cannot remove: varargs, inline asm, threads, non-local jumps.
    Calls through function pointers and recursion are told (`CallFacts`): `compile_c` makes
    them inlinable (llumc.frontend.procedures).

    Works on the module text (one regex pass): iterating half a million instructions through
    llvmlite takes half a minute on the largest benchmark programs."""
    spans = _function_spans(text)
    if "main" not in spans:
        raise _unsupported("no-main", "no main function", source.name)

    def where(instr_text: str) -> str:
        return _located(source, DebugInfo.from_module_text(text), instr_text)

    calls: dict[str, list[str]] = {}
    indirect = False
    for name, (start, end) in spans.items():
        header = text[start:text.index("\n", start)]
        if name != "main" and re.search(r"\.\.\.\)", header.split(")", 1)[0] + ")"):
            raise _unsupported("varargs", f"variadic function '{name}'", source.name)
        edges = []
        for match in _call_lines(text, start, end):
            rest = match.group(2)
            if re.search(r"\basm\b", rest.split("(", 1)[0]) or " asm sideeffect" in rest:
                raise _unsupported("inline-asm", "inline assembly", where(match.group(0)))
            callee = _CALLEE.search(rest)
            if not callee or "%" in rest[:callee.start()].replace("(...)", ""):
                indirect = True
                continue
            callee_name = callee.group(1).strip('"')
            named = _UNSUPPORTED_CALLS.get(callee_name)
            if named:
                raise _unsupported(named[0], named[1], where(match.group(0)))
            if callee_name in spans:
                edges.append(callee_name)
        calls[name] = edges
    return CallFacts(indirect=indirect, recursive=bool(call_cycles(calls, "main")))


@dataclass(frozen=True)
class CallFacts:
    """What `_check_before_inlining` saw of the calls: any through a function pointer, any
    call cycle reachable from main (then llumc.frontend.procedures has work to do)."""

    indirect: bool
    recursive: bool


_FLOAT_TYPE = re.compile(r"\b(half|bfloat|float|double|x86_fp80|fp128|ppc_fp128)\b")
# the floating-point types llumc.encoding.floats does not implement, and what C calls them
_UNSUPPORTED_FLOAT_TYPE = re.compile(r"\b(half|bfloat|x86_fp80|fp128|ppc_fp128)\b")
_UNSUPPORTED_FLOAT_NAMES = {
    "half": "half-precision floating point (_Float16)", "bfloat": "bfloat16 floating point",
    "x86_fp80": "long double (x87 80-bit floating point)", "fp128": "128-bit floating point",
    "ppc_fp128": "128-bit floating point",
}
_MEMORY_OPS = {"alloca", "load", "store", "getelementptr", "atomicrmw", "cmpxchg", "fence",
               "va_arg", "ptrtoint", "inttoptr"}
# Encoded by llumc/encoding/memory.py; what it cannot encode it reports itself.
_ENCODED_MEMORY_OPS = {"alloca", "load", "store", "getelementptr"}
_HEAP_FUNCTIONS = {"malloc", "calloc", "realloc", "free", "alloca"}


def _strip_metadata(instr_text: str) -> str:
    return instr_text.split(", !", 1)[0]


def _memory_construct(instr_text: str, allocas: dict[str, str], global_types: dict[str, str]) -> str:
    """A readable name for the memory left after promotion (array, struct, pointer, global)."""
    for ref in re.findall(r"(%[\w.$\"-]+|@[\w.$\"-]+)", instr_text):
        ty = allocas.get(ref) if ref.startswith("%") else global_types.get(ref[1:])
        if ty is None:
            continue
        scope = "global " if ref.startswith("@") else ""
        if ty.startswith("["):
            return f"{scope}array (memory access)"
        if ty.startswith("%") or ty.startswith("{"):
            return f"{scope}struct (memory access)"
        return f"{scope}variable whose address is used (memory access)"
    return "pointer (memory access)"


_INSTRUCTION = re.compile(r"^  (?:(%[^ ]+) = )?(?:tail |musttail |notail )?([a-z_]+)\b(.*)$")
_CALL_TARGET = re.compile(r"^ (?:[\w()]+ )*?(\S+?|\{[^}]*\}) (?:\([^)]*\) )?(@[^(]+|%[^(]+)\(")


_UNDEF = re.compile(r"\b(undef|poison)\b")


def _lines_with_undef(function: str) -> list[str]:
    """The lines of a function's text, other than `#dbg` records, that contain `undef` or
    `poison` (str.find, not a per-line or a `\\b` regex scan: on RERS-size modules those took
    seconds; `_undef_read` makes the exact test)."""
    found: dict[int, str] = {}
    for word in ("undef", "poison"):
        position = function.find(word)
        while position >= 0:
            begin = function.rfind("\n", 0, position) + 1
            end = function.find("\n", position)
            end = len(function) if end < 0 else end
            line = function[begin:end]
            if not line.lstrip().startswith("#dbg"):
                found[begin] = line
            position = function.find(word, end)
    return list(found.values())


def _undef_read(line: str) -> list[str] | None:
    """None if this line reads no `undef`/`poison`; else the predecessor blocks through which a
    phi receives one (empty for other instructions: they read it wherever they run)."""
    if not line.startswith("  ") or line.lstrip().startswith("#dbg"):
        return None
    code = _strip_metadata(line)
    if not _UNDEF.search(code):
        return None
    if " = phi " in code:
        sources = re.findall(r"\[ (undef|poison), %([\w.$-]+|\"[^\"]+\") \]", code)
        return [pred.strip('"') for _, pred in sources] or None
    if not _UNDEF.search(re.sub(r"%[\w.$-]+|%\"[^\"]*\"|@[\w.$-]+", "", code)):
        return None
    return []


_UNDEF_MASK = re.compile(r"^  (%[\w.$-]+) = and (i\d+) (?:undef|poison), (-?\d+)(?:, !dbg !\d+)?$")
_OR_LINE = re.compile(r"^  (%[\w.$-]+) = or (?:disjoint )?i\d+ (%[\w.$-]+), (%[\w.$-]+)(?:, !dbg !\d+)?$")


def _masked_away(function: str, line: str) -> bool:
    """Whether `line` is SROA's insertion into an integer slice whose other bits it took as
    undefined, every one of which later masks clear: `%m = and i32 undef, C` whose uses, through
    `or`s with other values and `and`s with constants, all reach a point where no bit that came
    from the undef is left (`_undef_bits_cleared`). A byte written into an int through a
    `char *`, then the rest of it (`and i32 %o, D` with C & D == 0); a union written whole as
    an `unsigned`, then read as bytes and halves (a chain of such insertions, each mask
    clearing the slice the next one fills): no bit of a result depends on the undef, so
    nothing is read before a write."""
    mask = _UNDEF_MASK.match(line)
    if not mask:
        return False
    name, width, kept = mask.group(1), int(mask.group(2)[1:]), int(mask.group(3))
    return _undef_bits_cleared(function, name, line, kept & ((1 << width) - 1))


_AND_CONSTANT_LINE = re.compile(r"^  (%[\w.$-]+) = and i\d+ (%[\w.$-]+), (-?\d+)(?:, !dbg !\d+)?$")


def _undef_bits_cleared(function: str, name: str, definition: str, alive: int, depth: int = 0) -> bool:
    """Whether every use of `name` (defined by `definition`; `alive`: the bits that may still
    come from an undef) clears those bits before anything else reads them: an `and` with a
    constant keeps `alive & C`, an `or` with another value keeps `alive`; any other use, or
    none, while bits are alive, is a read (False). At most 64 links: SROA's chains are one
    per slice of the integer."""
    if alive == 0:
        return True
    uses = [use for use in _lines_using(function, name) if use != definition]
    if not uses or depth >= 64:
        return False
    for use in uses:
        masked, merge = _AND_CONSTANT_LINE.match(use), _OR_LINE.match(use)
        if masked and masked.group(2) == name:
            result, still = masked.group(1), alive & int(masked.group(3))
        elif merge and name in (merge.group(2), merge.group(3)):
            result, still = merge.group(1), alive
        else:
            return False
        if not _undef_bits_cleared(function, result, use, still, depth + 1):
            return False
    return True


def _lines_using(function: str, name: str) -> list[str]:
    """The lines of `function` where the value `name` occurs whole (its definition too)."""
    found: dict[int, str] = {}
    for match in re.finditer(re.escape(name) + r"(?![\w.$-])", function):
        begin = function.rfind("\n", 0, match.start()) + 1
        end = function.find("\n", match.start())
        found.setdefault(begin, function[begin:end if end >= 0 else len(function)])
    return list(found.values())


def _check_no_undef(text: str, source: Path) -> None:
    """Right after SROA, before simplifycfg can choose a branch direction on it: an `undef`
    operand is memory read before any write that the nondet initialisation did not cover
    (pointers, huge aggregates). Folding it would silently lose behaviours, so reject.
    Undef flowing only from blocks unreachable from the entry (code after a noreturn call,
    labels reached by no goto) is harmless: mem2reg puts it on such edges."""
    if "undef" not in text and "poison" not in text:
        return
    for name, (start, end) in _function_spans(text).items():
        function = text[start:end]
        if all(_undef_read(line) is None or _masked_away(function, line) for line in _lines_with_undef(function)):
            continue  # the block walk below is only needed to excuse unreachable reads
        blocks: dict[str, list[str]] = {}
        order: list[str] = []
        current = None
        for line in function.split("\n")[1:-2]:
            label = re.match(r"^([\w.$-]+|\"[^\"]+\"):", line)
            if label or current is None:
                current = label.group(1).strip('"') if label else "<entry>"
                order.append(current)
                blocks[current] = []
                if label:
                    continue
            blocks[current].append(line)
        reachable = {order[0]} if order else set()
        stack = list(reachable)
        while stack:
            block = stack.pop()
            for line in blocks[block]:
                for target in re.findall(r"label %([\w.$-]+|\"[^\"]+\")", line):
                    target = target.strip('"')
                    if target in blocks and target not in reachable:
                        reachable.add(target)
                        stack.append(target)
        for block in order:
            if block not in reachable:
                continue
            for line in blocks[block]:
                sources = _undef_read(line)
                if sources is None or (sources and not any(pred in reachable for pred in sources)) \
                        or _masked_away(function, line):
                    continue
                debug = DebugInfo.from_module_text(text)
                raise _unsupported("undef", "value read before any write (uninitialised memory)",
                                   _located(source, debug, line))


_SCALAR_ALLOCA_LINE = re.compile(r"  (%[\w.$-]+) = alloca (i\d+), align \d+")
_UNINIT_CALL_LINE = re.compile(r"  %__uninit\.\d+ = call (i\d+) @__llumc_uninit_i\d+\(\)")
_DEFINING_STORE_LINE = re.compile(  # a constant or a fresh nondet value into an alloca
    r"  store (i\d+) (-?\d+|true|false|%__uninit\.\d+), ptr (%[\w.$-]+)(, align \d+)?(, !dbg !\d+)?")
_LOAD_PREFIX = re.compile(r"  %[\w.$-]+ = load (i\d+), ptr ")
_STORE_PREFIX = re.compile(r"  store (i\d+) [^,]+, ptr ")


def _first_located_use(function: str, line: str) -> str | None:
    """The first line with a source location that uses the value `line` defines, through phis
    and selects (which have none): where a fresh uninitialised value is read."""
    defined = re.match(r"^\s*(%[\w.$-]+) = ", line)
    names = [defined.group(1)] if defined else []
    seen: set[str] = set()
    while names:
        name = names.pop(0)
        if name in seen:
            continue
        seen.add(name)
        for use in re.finditer(r"^  [^#\n]*" + re.escape(name) + r"(?![\w.$-]).*$", function, re.M):
            found = use.group(0)
            if found.lstrip().startswith(name + " ="):
                continue
            if "!dbg" in found:
                return found
            merged = re.match(r"^\s*(%[\w.$-]+) = (?:phi|select|freeze)\b", found)
            if merged:
                names.append(merged.group(1))
    return None


def _promotion_reads_no_undef(text: str, functions: Container[str] | None = None) -> bool:
    """True when SROA cannot leave a read of `undef`/`poison` in code reachable from an entry
    block, so that `_check_no_undef` on the promoted module's text would pass: it is then not
    printed (1.1 s for the first module of a RERS program, 0.8 s for the second). False means
    "print and check" (the usual case for programs with pointers, arrays or structs).

    Sufficient, by the text of every function: no line reads `undef`/`poison`; every alloca is
    a scalar `iN` among the entry block's leading allocas; each is written with its own type,
    a constant or a `__llumc_uninit_iN` value, in the run of such stores (and uninit calls and
    debug records) that follows them; and every other mention of it is the pointer operand of
    a non-volatile load or store of its own type, or its `#dbg_declare`. Then SROA promotes
    each with mem2reg, and every load reachable from the entry is dominated by that store
    (nothing is read out of bounds, no slice is dead, no phi operand from a reachable
    predecessor is undefined); what mem2reg puts into unreachable blocks the check excuses.
    `LLUMC_FRONTEND_SELFCHECK=1` prints and checks anyway and fails if this was wrong.
    `functions`: of those functions only (each is judged by its own text)."""
    for name, (start, end) in _function_spans(text).items():
        if functions is not None and name not in functions:
            continue
        function = text[start:end]
        if any(_undef_read(line) is not None for line in _lines_with_undef(function)):
            return False
        allocas: dict[str, str] = {}  # name -> type
        defined: set[str] = set()
        alloca_lines: set[int] = set()
        position = function.find("\n") + 1
        in_allocas = True
        while 0 < position < len(function):
            line_end = function.find("\n", position)
            line_end = len(function) if line_end < 0 else line_end
            line = function[position:line_end]
            alloca = _SCALAR_ALLOCA_LINE.fullmatch(line) if in_allocas else None
            if alloca:
                allocas[alloca.group(1)] = alloca.group(2)
                alloca_lines.add(position)
            elif line == "" or line.endswith(":") and not allocas or line.startswith("  ;"):
                pass
            elif line.lstrip().startswith(("#dbg_declare(", "#dbg_value(")) or _UNINIT_CALL_LINE.fullmatch(line):
                in_allocas = False
            else:
                store = _DEFINING_STORE_LINE.fullmatch(line)
                if store is None or allocas.get(store.group(3)) != store.group(1):
                    break
                in_allocas = False
                defined.add(store.group(3))
            position = line_end + 1
        if len(defined) != len(allocas) or function.count(" = alloca ") != len(allocas):
            return False
        for name, ty in allocas.items():
            position = function.find(name)
            while position >= 0:
                after = position + len(name)
                if after < len(function) and _is_name_character(function[after]):
                    position = function.find(name, after)
                    continue
                line_start = function.rfind("\n", 0, position) + 1
                prefix = function[line_start:position]
                if line_start in alloca_lines and prefix == "  ":
                    pass
                elif prefix.lstrip() == "#dbg_declare(ptr " and prefix.startswith("  "):
                    pass
                else:
                    access = _LOAD_PREFIX.fullmatch(prefix) or _STORE_PREFIX.fullmatch(prefix)
                    if access is None or access.group(1) != ty:
                        return False
                position = function.find(name, after)
    return True


def _check_promoted(module: "llvm.ModuleRef", source: Path, reads_no_undef: bool) -> None:
    """`_check_no_undef` on the module after SROA, unless the text before it showed that it
    would pass (`reads_no_undef`: `_promotion_reads_no_undef`, `_localise_globals`)."""
    if not reads_no_undef:
        _check_no_undef(str(module), source)
    elif os.environ.get("LLUMC_FRONTEND_SELFCHECK"):
        try:
            _check_no_undef(str(module), source)
        except UnsupportedError as err:
            raise LlumcError(f"internal front-end error on {source}: the undef check was "
                             f"skipped but fails: {err}") from None


def _check_supported(text: str, source: Path, debug: DebugInfo) -> None:
    """Reject, with one line, everything the encoder will not handle.

    Reads main's text line by line: going through llvmlite's ValueRefs and `str(instr)` for
    each of the 200 000 instructions of the largest benchmark programs takes minutes."""
    spans = _function_spans(text)
    for name in spans:
        if name != "main":
            raise _unsupported("unknown-call", f"function '{name}' could not be inlined",
                               source.name)
    start, end = spans["main"]  # (without parameters: `wrap_main` gave it its own)
    # every `_FLOAT_TYPE` match contains one of these words: without them in main, no line's
    # search can match (311 000 regex searches were half of this function on RERS programs)
    float_words = any(text.find(word, start, end) >= 0
                      for word in ("half", "float", "double", "x86_fp80", "fp128"))
    if not float_words:
        # Then an instruction with a `_PLAIN_OPCODES` opcode and without `undef` and
        # `poison` in its text passes every test below: only the other lines are read, in
        # the order of the text (so the first error is still the first). RERS's main:
        # 280 000 instructions, 113 such lines; 0.5 -> 0.3 s.
        lines = _lines_to_check(text, text.index("\n", start) + 1, end)
    else:
        lines = text[start:end].split("\n")[1:-2]
    for line in lines:
        match = _INSTRUCTION.match(line)
        if not match:
            continue  # labels, blank lines, #dbg records, comments
        opcode, rest = match.group(2), match.group(3)
        code = line.split(", !", 1)[0]  # _strip_metadata
        if float_words and (other_float := _UNSUPPORTED_FLOAT_TYPE.search(code)):
            raise _unsupported("float", _UNSUPPORTED_FLOAT_NAMES[other_float.group(1)],
                               _located(source, debug, line))
        if opcode in ("call", "invoke", "callbr"):
            target = _CALL_TARGET.match(rest)
            where = _located(source, debug, line)
            if not target or not target.group(2).startswith("@"):
                if re.search(r"\basm\b", rest):
                    raise _unsupported("inline-asm", "inline assembly", where)
                raise _unsupported("function-pointer", "call through a function pointer", where)
            name = target.group(2)[1:].strip('"')
            kind = classify_call(name)
            if name == f"{UNINIT_PREFIX}ptr":  # `_initialise_locals`: a pointer read before any write
                raise _unsupported("undef", "value read before any write (uninitialised memory)",
                                   _located(source, debug, _first_located_use(text[start:end], line)))
            if kind == "nondet":
                ret = target.group(1)
                if nondet_width(ret) is None:
                    category = "float" if _FLOAT_TYPE.search(ret) else "memory"
                    raise _unsupported(category, f"nondeterministic {ret} ('{name}')", where)
                continue
            if kind is not None or _ARITH_INTRINSIC.match(name) or float_call(name) is not None \
                    or name in LIFETIME_FUNCTIONS \
                    or name.startswith("llvm.lifetime.") or name == IN_MEMORY_FUNCTION \
                    or name == "llvm.experimental.noalias.scope.decl":
                # lifetimes: llumc.encoding.memory follows ours, llvm's are ignored; the
                # inliner's noalias scopes (a callee's `restrict` or sret parameter) only
                # inform alias analysis (llumc.frontend.cfg leaves them out)
                continue
            if name.startswith(("llvm.memset.", "llvm.memcpy.", "llvm.memmove.", "llvm.stacksave",
                                "llvm.stackrestore")):
                continue  # llumc/encoding/memory.py (constant lengths; a VLA's alloca is reported there)
            if name.startswith("llvm.mem"):
                raise _unsupported("memory", _memory_construct(code, *_memory_types(text, start, end)),
                                   where)
            if name == "llvm.assume":
                # SROA turns `*(c ? &x : NULL) = v` into a store to x and assume(c): the NULL
                # path is gone, so the memory fault would be lost; never encode that silently
                raise _unsupported("memory", "access through a pointer that may be NULL (assumed "
                                   "away by the optimiser)", where)
            if name in ("malloc", "calloc", "free", ARGV_FUNCTION):
                continue  # llumc/encoding/memory.py (constant sizes, call sites outside loops)
            if name == ENVP_FUNCTION:  # (the wrapper's call has no line: its first use has)
                use = re.search(r"^  [^#\n]*%envp\b.*$", text[text.index(line, start) + len(line):end], re.M)
                raise _unsupported("main-parameters", "use of the third parameter of main (envp)",
                                   _located(source, debug, use.group(0) if use else None))
            if name in _HEAP_FUNCTIONS:
                raise _unsupported("memory", f"heap ('{name}')", where)
            raise _unsupported("unknown-call", f"call to unknown function '{name}'", where)
        if opcode in _ENCODED_MEMORY_OPS:
            continue  # llumc/encoding/memory.py
        if opcode in ("ptrtoint", "inttoptr"):
            raise _unsupported("memory", "cast between pointer and integer", _located(source, debug, line))
        if opcode in _MEMORY_OPS:
            raise _unsupported("memory", f"{opcode} (memory access)", _located(source, debug, line))
        if opcode == "freeze" or (("undef" in code or "poison" in code)
                                  and re.search(r"\b(undef|poison)\b", re.sub(r"%\S+", "", code))
                                  and not _masked_away(text[start:end], line)):  # (an input: its bits unused)
            raise _unsupported("undef", "undefined value (uninitialised memory)",
                               _located(source, debug, line))


# Opcodes `_check_supported` accepts whatever their operands (but `undef`, `poison` and
# floating-point types, which it looks for apart)
_PLAIN_OPCODES = ("icmp", "select", "xor", "and", "or", "br", "phi", "add", "sub", "mul", "zext",
                  "sext", "trunc", "switch", "ret", "shl", "lshr", "ashr", "udiv", "sdiv", "urem",
                  "srem", "unreachable")
# (a leading newline, not `^` with re.M: the scan then jumps from line to line)
_UNPLAIN_INSTRUCTION_LINE = re.compile(
    r"\n(  (?:%[^ \n]+ = )?(?:tail |musttail |notail )?(?!(?:" + "|".join(_PLAIN_OPCODES) +
    r")\b)[a-z_]+\b[^\n]*)")


def _lines_to_check(text: str, start: int, end: int) -> list[str]:
    """The lines of text[start:end] (`start` at a line's beginning) that are instructions
    with an opcode not in `_PLAIN_OPCODES`, and every line containing `undef` or `poison`
    (even inside a name: the caller's own test decides), in their order."""
    found = {m.start(1): m.group(1) for m in _UNPLAIN_INSTRUCTION_LINE.finditer(text, start - 1, end)}
    for word in ("undef", "poison"):
        position = text.find(word, start, end)
        while position >= 0:
            line_start, line_end = _line_at(text, position)
            found[line_start] = text[line_start:min(line_end, end)]
            position = text.find(word, line_end, end)
    return [found[position] for position in sorted(found)]


def _memory_types(text: str, start: int, end: int) -> tuple[dict[str, str], dict[str, str]]:
    """The allocated type of each alloca of main (text[start:end]) and the type of each
    global: what `_memory_construct` names."""
    allocas: dict[str, str] = {}
    for line in text[start:end].split("\n"):
        match = re.match(r"\s*(%\S+) = alloca (.*?)(, align \d+)?(, !.*)?$", line) \
            if " = alloca " in line else None
        if match:
            allocas[match.group(1)] = match.group(2)
    global_types = {m.group(1): m.group(2) for m in re.finditer(
        r"^@([\w.$]+) = (?:[a-z_]+ )*(?:global|constant) (\[[^\]]*\]|%[\w.]+|\{[^}]*\}|\S+)",
        text[:start], flags=re.M)}
    return allocas, global_types


# --------------------------------------------------------------------------- entry point

# `drop_output_calls` changes nothing unless some `@name(` of an output function occurs; one
# regex scan says so (its own test, one str scan per function name, took 0.5 s on RERS texts)
_OUTPUT_CALL = re.compile("@(?:" + "|".join(map(re.escape, OUTPUT_FUNCTIONS)) + r")\(")


# C sources up to this size keep the IR's value names; see `keeps_value_names`.
VALUE_NAMES_UP_TO_BYTES = 1_000_000


def keeps_value_names(source: Path) -> bool:
    """Whether clang keeps the names of the IR's values for this C file: the C variables'
    allocas (whose phis are then `%x.0`) and the blocks after their statements (`while.cond`),
    which make `llumc ir`, IR traces and DimSpec symbol maps readable. Sources over
    `VALUE_NAMES_UP_TO_BYTES` (the 2.7 MB RERS programs; the other 262 programs of LLUMC's set
    are under 90 kB) do without: their names are `land.lhs.true16.i` by the thousand, and
    clang, every parse, pass and print after it are faster without them (0.7–2.7 s of ≈ 18 on
    RERS; values and blocks are then `%i7`, `bb12`). The encoding is the same either way, and
    C variable names and lines come from the debug information, which stays."""
    try:
        return source.stat().st_size <= VALUE_NAMES_UP_TO_BYTES
    except OSError:
        return True  # (clang reports the file)


def source_ir(source: Path, *, m32: bool, clang: str | None, checks: Checks, wrapv: bool,
              native_library_calls: bool = False, columns: bool = False,
              value_names: bool | None = None) -> str:
    """clang's IR with the primitives' bodies dropped, constructs checked that inlining would
    hide, every scalar local initialised from its own `__llumc_uninit_iN` site, and output
    calls (printf, puts, ...) dropped, a used result nondet (llumc.frontend.libcalls), unless
    `native_library_calls` (the replay runs the real ones).

    Shared with the replay, which must number the uninitialised-local sites exactly as the
    model does. `columns`: debug locations with columns (see `_clang_flags`); `value_names`:
    see `keeps_value_names` (None: as it says for this source)."""
    return _source_ir_and_calls(source, m32=m32, clang=clang, checks=checks, wrapv=wrapv,
                                native_library_calls=native_library_calls, columns=columns,
                                value_names=value_names)[0]


# `alloca(n)` called as a declared function: clang makes it the stack allocation of
# `__builtin_alloca` only where the program's declaration has the type of <alloca.h>'s
# (`size_t`: under ILP32 `extern void *alloca(unsigned long)` is a call)
_ALLOCA_CALL = re.compile(r"^(  %[^ =]+ = )(?:tail |notail )?call (?:noalias |nonnull |noundef )*ptr @alloca\("
                          r"(i\d+)(?: noundef| zeroext)* ([^,()]+)\)(?: #\d+)?((?:, ![^\n]*)?)$", re.M)


def alloca_as_instruction(text: str) -> str:
    """Calls of a declared `alloca` as the allocation `__builtin_alloca` makes (`alloca i8,
    iN n`): the same object on the caller's stack, freed where the caller returns (C libraries
    have no function `alloca`; <alloca.h> names the builtin). A program's own `alloca` body is
    kept."""
    if "@alloca(" not in text or re.search(r"^define [^\n]*@alloca\(", text, re.M):
        return text
    return _ALLOCA_CALL.sub(lambda m: f"{m.group(1)}alloca i8, {m.group(2)} {m.group(3)}, align 16{m.group(4)}", text)


def _source_ir_and_calls(source: Path, *, m32: bool, clang: str | None, checks: Checks, wrapv: bool,
                         native_library_calls: bool = False, columns: bool = False,
                         value_names: bool | None = None) -> tuple[str, CallFacts]:
    """`source_ir` and what `_check_before_inlining` saw of its calls."""
    if value_names is None:
        value_names = keeps_value_names(source)
    text = _run_clang(source, m32, clang, checks, wrapv, columns=columns, value_names=value_names)
    rounding_math = uses_rounding_modes(text)
    if rounding_math:
        # the program calls fesetround/fegetround: again in the dynamic rounding mode
        text = _run_clang(source, m32, clang, checks, wrapv, columns=columns, value_names=value_names,
                          rounding_math=True)
    if address_escapes(text):
        # a pointer may outlive a local: again with lifetime markers (llumc.frontend.lifetimes)
        text = _run_clang(source, m32, clang, checks, wrapv, lifetimes=True, columns=columns,
                          value_names=value_names, rounding_math=rounding_math)
    if rounding_math and not native_library_calls:
        text = rounding_mode_as_variable(text)
    primitives_defined = {
        name for name in _function_spans(text) if classify_call(name) in _DROP_BODY_KINDS
    }
    text = _drop_bodies(text, primitives_defined)
    text = alloca_as_instruction(text)
    calls = _check_before_inlining(text, source)
    if m32:
        text = quiet_x87_returns(text)
    text = _rewrite_attributes(text)
    text = protect_escaping_locals(text)
    text = mark_escaping_allocations(text)
    # (one parse for the sizes: the markings add no type)
    size_of = _type_sizes_of(text)
    text = mark_escaping_parameters(text, size_of)
    text = mark_compound_literals(text)
    text = _initialise_locals(text, size_of)
    if native_library_calls or not _OUTPUT_CALL.search(text):
        return text, calls
    return drop_output_calls(text), calls


def compile_c(
    path,
    *,
    m32: bool = False,
    clang: str | None = None,
    checks: Checks = Checks(),
    wrapv: bool = True,
    columns: bool = False,
    value_names: bool | None = None,
    recursion_depth: int = DEFAULT_RECURSION_DEPTH,
    ir_transform=None,
    call_stack: bool | None = None,
) -> FrontendResult:
    """Compile a C file to the module the encoder reads: only `main`, scalars in SSA.
    `recursion_depth`: how many calls deep a recursion is unrolled (llumc.frontend.procedures)
    or how many frames its call stack holds (llumc.frontend.callstack); a run that would go
    deeper ends in the recursion bound's own outcome. `call_stack`: True runs recursion on a
    call stack wherever the stack takes it, False unrolls it always, None (default) unrolls
    where that fits the size limits and uses the stack beyond. `ir_transform`: a
    function of the prepared IR text (before procedures are made inlinable) that rewrites it —
    the procedure summaries' harness and summarised main (llumc.frontend.summaries).
    `columns`: debug locations with source columns, which only witnesses need; without them
    the IR is half the size (each C line one location) and the front end much faster.
    `value_names`: whether the IR keeps clang's value names (None: `keeps_value_names`).

    Raises LlumcError for bad input (missing file, directory, clang diagnostic) and
    UnsupportedError (with `.category`) for constructs the encoder does not handle."""
    with cyclic_gc_paused(), _function_spans_remembered(), _own_llvm_context():
        return _compile_c(path, m32=m32, clang=clang, checks=checks, wrapv=wrapv, columns=columns,
                          value_names=value_names, recursion_depth=recursion_depth, ir_transform=ir_transform,
                          call_stack=call_stack)


def _compile_c(path, *, m32: bool, clang: str | None, checks: Checks, wrapv: bool,
               columns: bool, value_names: bool | None, recursion_depth: int, ir_transform=None,
               call_stack: bool | None = None) -> FrontendResult:
    source = Path(path)
    if not source.exists():
        raise LlumcError(f"no such file: {source}")
    if source.is_dir():
        raise LlumcError(f"is a directory, not a C file: {source}")
    _init_llvm()
    text, calls = _source_ir_and_calls(source, m32=m32, clang=clang, checks=checks, wrapv=wrapv,
                                       columns=columns, value_names=value_names)
    if "main" in _function_spans(text):  # (without: the one-line error of `_check_before_inlining`)
        text = wrap_main(text, _function_spans(text)["main"][0], source.name)
    if ir_transform is not None:
        text = ir_transform(text)
    return _compile_prepared(text, source, calls, m32=m32, checks=checks, recursion_depth=recursion_depth,
                             stack=call_stack, models=LibraryModels(m32, clang, checks, wrapv))


@dataclass(frozen=True)
class LibraryModels:
    """How to compile llumc.frontend.libcmodels' C bodies for this program: the program's own
    target, sanitizers and -fwrapv, so the inlined bodies behave as its own code would."""

    m32: bool
    clang: str | None
    checks: Checks
    wrapv: bool

    def text(self) -> str:
        return _library_models_text(self)


@functools.lru_cache(maxsize=8)
def _library_models_text(models: LibraryModels) -> str:
    """libc_models.c compiled (no debug information: see llumc.frontend.libcmodels), its
    functions made always-inline; compiled once per set of flags."""
    text = _run_clang(MODELS_SOURCE, models.m32, models.clang, models.checks, models.wrapv, debug=False)
    return _rewrite_attributes(text)


def _with_library_models(module: "llvm.ModuleRef", text: str, source: Path, models: LibraryModels,
                         small: bool) -> "llvm.ModuleRef | None":
    """The module with llumc.frontend.libcmodels' bodies linked in, inlined into main and
    promoted, or None where main needs none (its text, hence the encoding, stays as it was)."""
    if not needs_models(text):
        return None
    module.close()
    program = _parse(call_models(text), source)
    program.link_in(_parse(models.text(), MODELS_SOURCE))
    for fn in program.functions:
        if not fn.is_declaration and fn.name != "main":
            fn.linkage = llvm.Linkage.internal
    program = _run_passes(program, _inline_everything)
    program = _run_passes(program, _promote)
    _check_promoted(program, source, False)
    return _run_passes(program, _clean if small else _tidy)


def _compile_prepared(text: str, source: Path, calls: CallFacts, *, m32: bool, checks: Checks,
                      recursion_depth: int, stack: bool | None = None, share: bool = True,
                      models: LibraryModels | None = None) -> FrontendResult:
    """`compile_c` from the prepared IR text on: procedures made inlinable, passes, checks.
    A recursion is unrolled (llumc.frontend.procedures) or runs on a call stack
    (llumc.frontend.callstack): `stack` None chooses (`_procedures_inlinable`), True asks for
    the stack, False for unrolling; where the stack does not take a recursion it is unrolled.
    `share`: functions may be shared rather than inlined at each call site
    (llumc.frontend.sharing); False where the sharing rewrite did not take the program.
    `models`: how to compile the library models a program without the bodies needs."""
    original = text

    def again(**changed) -> FrontendResult:
        """From the prepared text once more, with `changed` options (a rewrite that did not take)."""
        options = dict(calls=calls, stack=stack, share=share) | changed
        return _compile_prepared(original, source, options["calls"], m32=m32, checks=checks,
                                 recursion_depth=recursion_depth, stack=options["stack"],
                                 share=options["share"], models=models)

    text, bound, stacked = _procedures_inlinable(text, source, calls, recursion_depth, stack=stack)
    # the globals localised before inlining when that gives what `_localise_globals` would
    # (saves the LLVM round trip after inlining); else None and that round trip below
    early = _globals_as_arguments(text)
    prepared = text if early is None else early
    simplified = _simplified_in_two_processes(prepared, text, source)
    module, reads_no_undef = simplified or _simplified_functions(prepared, text, source)
    if stacked:
        try:
            module = _on_call_stack(module, bound)
        except NotStackable:
            return again(stack=False)
    shared: set[str] = set()
    if share and (stacked or _may_need_sharing(text)):
        module, shared = _marked_for_sharing(module)
    for fn in module.functions:
        if not fn.is_declaration and fn.name != "main":
            fn.linkage = llvm.Linkage.internal  # so global DCE deletes it once inlined
    module = _run_passes(module, _inline_everything)
    if shared:
        try:
            module = _share_procedures(module, shared)
        except NotShareable:
            return again(share=False)
    if not calls.indirect and any(not fn.is_declaration and fn.name != "main" for fn in module.functions):
        # a function left after inlining: its address is used as a value, though no call goes
        # through a pointer; tagged as dispatching does (found here: a scan of every program's
        # text for address uses would cost seconds on the largest)
        return again(calls=replace(calls, indirect=True))
    if early is not None:
        module = _run_passes(module, _promote)
        _check_promoted(module, source, reads_no_undef)
    else:
        module = _localise_after_inlining(module, source)
    small = len(prepared) <= SIMPLIFY_AFTER_INLINING_UP_TO_BYTES
    module = _run_passes(module, _clean if small else _tidy)
    final_text = str(module)
    with_models = None if models is None else _with_library_models(module, final_text, source, models, small)
    if with_models is not None:
        module, final_text = with_models, str(with_models)
    verified = _in_background(module.verify)
    try:
        exploded = _explode_main_constant_geps(final_text)
        if exploded is not None:
            verified()
            module = _parse(exploded, source)
            final_text = str(module)
        debug = DebugInfo.from_module_text(final_text)
        _check_supported(final_text, source, debug)
    finally:
        verified()  # its error first, as when it ran before the rest
    return FrontendResult(source=source, ir=final_text, module=module, m32=m32, checks=checks,
                          debug=debug, recursion_depth=bound, call_stack=stacked, shared=tuple(sorted(shared)))


def _procedures_inlinable(text: str, source: Path, calls: CallFacts, depth: int,
                          stack: bool | None) -> tuple[str, int | None, bool]:
    """Calls through function pointers dispatched, recursion unrolled `depth` calls deep
    (llumc.frontend.procedures; the model only: the replay runs the program's own calls) or,
    where unrolling that deep exceeds its size limits and `stack` allows (None), or always
    (`stack` True), left for `_on_call_stack`. Returns the text, the depth bound if the program recurses (else None),
    and whether the recursion is left for the call stack.

    Why unrolling first: an unrolled recursion is loop-free code, run in a step or a few, so
    proofs of small bounds and bugs a few calls deep come fastest from it; on a stack each
    call and each return is a step of its own. The stack wins where the copies do not fit
    (a tree recursion doubles them with each level)."""
    if calls.indirect:
        text = dispatch_indirect_calls(text, tag_addresses=True)
    if not (calls.recursive or calls.indirect) or not recursive_functions(text):
        return text, None, False
    if stack:
        return text, min(depth, MAX_STACK_DEPTH), True
    try:
        unrolled, fitted = unroll_recursion(text, depth)
    except RecursionTooLarge as err:
        if stack is None:
            return text, min(max(depth, FIRST_STACK_DEPTH), MAX_STACK_DEPTH), True
        raise _unsupported("recursion", f"recursion ({err})", source.name) from None
    if fitted < depth and stack is None:
        return text, min(max(depth, FIRST_STACK_DEPTH), MAX_STACK_DEPTH), True
    return unrolled, fitted, False


def _on_call_stack(module: "llvm.ModuleRef", depth: int) -> "llvm.ModuleRef":
    """The module (functions promoted and simplified) with each call cycle run on a call stack
    of `depth` frames (llumc.frontend.callstack); NotStackable where it does not take it."""
    text = str(module)
    plan = plan_heads(call_graph(text))
    if plan.inlined:  # the cycles' other members into their heads, which stay (noinline)
        for head in plan.heads:
            text, groups = with_inline_attribute(text, head, "noinline")
            if groups is None:
                raise NotStackable(f"{head} has no attribute group")
        module = _run_passes(_parse_rewritten(text), lambda pm: pm.add_always_inliner_pass())
        text = str(module)
        for head in plan.heads:
            # (LLVM renumbers the groups when it prints: a copy with alwaysinline, not the old one)
            text, _ = with_inline_attribute(text, head, "alwaysinline")
        module = _parse_rewritten(text)
        if any(len(cycle) > 1 for cycle in recursive_functions(text)):
            raise NotStackable("a call cycle is left after inlining into its head")
    module = _run_passes(module, lambda pm: pm.add_instruction_namer_pass())
    types = {head: _value_types(module.get_function(head)) for head in plan.heads}
    text = stack_recursion(str(module), plan.heads, depth, types)
    return _run_passes(_run_passes(_parse_rewritten(text), _promote), _simplify)


def _may_need_sharing(text: str) -> bool:
    """Whether main, everything inlined, could exceed the size where functions are shared:
    estimated on the text before SROA (which only shrinks functions), so that programs far
    below pay one scan of the text and nothing else."""
    return worth_sharing(text)


def _marked_for_sharing(module: "llvm.ModuleRef") -> tuple["llvm.ModuleRef", set[str]]:
    """The module with the functions `plan_sharing` chooses kept `noinline` (each is merged
    into main once after inlining, `_share_procedures`), and their names."""
    text = str(module)
    shared = plan_sharing(read_call_graph(text), text)
    for name in sorted(shared):
        text, groups = with_inline_attribute(text, name, "noinline")
        if groups is None:
            return module, set()
    try:
        return _parse_rewritten(text), shared
    except NotStackable:
        return module, set()


def _share_procedures(module: "llvm.ModuleRef", shared: set[str]) -> "llvm.ModuleRef":
    """The inlined module with each of `shared` (left called from main and from each other)
    merged into main once and entered from all its call sites (llumc.frontend.sharing):
    blocks split at the shared calls, every value used outside its block demoted to memory
    (reg2mem; SROA promotes it again later), then the merge. NotShareable where LLVM rejects
    the result."""
    module = _run_passes(module, lambda pm: pm.add_instruction_namer_pass())
    text = split_at_shared_calls(str(module), shared)
    module = _run_passes(_parse_shared(text), lambda pm: pm.add_register_to_memory_pass())
    return _parse_shared(merge_shared(str(module), shared))


def _parse_shared(text: str) -> "llvm.ModuleRef":
    try:
        return _parse_rewritten(text)
    except NotStackable as err:
        raise NotShareable(str(err)) from None


def _parse_rewritten(text: str) -> "llvm.ModuleRef":
    """A module the call stack's rewrite made; NotStackable where LLVM rejects it (a shape the
    rewrite does not know: the recursion is unrolled instead). Not `_parse`: its second try
    makes LLVM abort the process on a broken module."""
    try:
        module = _parse_in_context(text)
        module.verify()
    except RuntimeError as err:
        raise NotStackable(f"the rewritten module is invalid: {str(err).strip()[:200]}") from None
    return module


def _value_types(function: "llvm.ValueRef") -> dict[str, str]:
    """The type of each named parameter and instruction of `function`."""
    types = {argument.name: str(argument.type) for argument in function.arguments}
    for block in function.blocks:
        for instruction in block.instructions:
            if instruction.name:
                types[instruction.name] = str(instruction.type)
    return types


# Up to this size of IR text, simplifycfg runs again on the inlined main. Beyond, it is left
# out: each function was simplified before inlining, and what is left for it is folding the
# blocks SROA emptied into merge blocks with one phi entry per predecessor, quadratic in their
# fan-in (RERS: 10 243 blocks into return blocks of hundreds of predecessors each, 1.1-1.3 s).
# Without it the encoding is 3.5 % larger (337 314 clauses instead of 325 686) and the CFG
# reader and encoder take 0.2 s longer: about 0.7 s less clang → DimSpec in all.
SIMPLIFY_AFTER_INLINING_UP_TO_BYTES = 8_000_000


def _simplified_functions(prepared: str, original: str, source: Path,
                          functions: Container[str] | None = None) -> tuple["llvm.ModuleRef", bool]:
    """The module of `prepared` (the text of `original` after `_globals_as_arguments`) with
    every function promoted (SROA), checked for undef and simplified (simplifycfg), before
    inlining; and whether the promotions read no undef (`_promotion_reads_no_undef`; of
    `functions` only, the ones `prepared` defines, when it is half of the module)."""
    # llvmlite's calls release the GIL (one at a time: it holds its own lock around each), so
    # LLVM parses, frees and verifies in a helper thread while this one reads texts
    parsed = _in_background(_parse, prepared, source)
    try:
        # of the text before the early rewrite: the allocas it adds to main are passed to
        # calls, so the first SROA leaves them; the second one promotes them, reading no
        # undef under the same conditions (each is a scalar stored at the top of the entry
        # block, and every access anywhere is a load or store of its own type)
        reads_no_undef = _promotion_reads_no_undef(original, functions)
    finally:
        module = parsed()  # no thread outlives this function, whatever is raised
    module = _run_passes(module, _promote)
    _check_promoted(module, source, reads_no_undef)
    return _run_passes(module, _simplify), reads_no_undef


# From this size of IR text on, `_simplified_functions` runs on two halves of the module in
# two processes. On the RERS programs (41 MB) parsing and the passes before inlining take
# 2.5 s in one process, 1.9 s in two (the cut 0.1 s, each half about 1.45 s, 0.3 s to bring
# the second back as bitcode and link it); below a few MB the fork and the round trip cost
# more than they save.
TWO_PROCESSES_FROM_BYTES = 8_000_000


def _simplified_in_two_processes(prepared: str, original: str, source: Path
                                 ) -> tuple["llvm.ModuleRef", bool] | None:
    """`_simplified_functions` of `prepared` with the later half of its functions done by a
    forked child (which sends its module back as bitcode, linked in here); None where that is
    not done (small text, no fork, other threads running, a half that cannot be split off)
    or did not work out, and then the caller does it all in this process, so that every error
    is the one of a single process (its first, its wording)."""
    if len(prepared) < TWO_PROCESSES_FROM_BYTES or not hasattr(os, "fork") \
            or threading.active_count() > 1:  # (a lock held by another thread stays held in a child)
        return None
    halves = _split_module(prepared)
    if halves is None:
        return None
    first, second, later = halves
    prepare()
    parent = os.getpid()
    read_end, write_end = os.pipe()
    try:
        child = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if child == 0:
        die_with_parent(parent)
        _simplify_and_send(second, original, source, later, read_end, write_end)  # never returns
    os.close(write_end)
    try:
        with os.fdopen(read_end, "rb") as pipe:
            try:
                module, reads_no_undef = _simplified_functions(
                    first, original, source, set(_function_spans(original)) - later)
            except (LlumcError, RuntimeError):
                return None
            sent = pipe.read()
        # the child's verdict on the undef reads of its half, then its module
        later_reads_no_undef, bitcode = sent[:1] == b"1", sent[1:]
        _, status = os.waitpid(child, 0)
        child = 0
        if status != 0:
            return None
        try:
            module.link_in(llvm.parse_bitcode(bitcode, module._context))  # (linked: one context)
        except RuntimeError:
            return None
        return module, reads_no_undef and later_reads_no_undef
    finally:
        if child:  # not reaped: this process is leaving with an error or interrupt
            try:
                os.kill(child, 9)
                os.waitpid(child, 0)
            except OSError:
                pass


def _simplify_and_send(text: str, original: str, source: Path, functions: set[str], read_end: int,
                       write_end: int):
    """The forked child of `_simplified_in_two_processes`: its half (`functions`), simplified,
    down the pipe: "1" or "0" (whether the promotions read no undef), then the bitcode; exit
    status 0 only when all of it was sent."""
    status = 1
    try:
        os.close(read_end)
        module, reads_no_undef = _simplified_functions(text, original, source, functions)
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(b"1" if reads_no_undef else b"0")
            pipe.write(module.as_bitcode())
        status = 0
    except BaseException:  # the parent does it all again, in one process, and reports it
        pass
    finally:
        os._exit(status)


def _split_module(text: str) -> tuple[str, str, set[str]] | None:
    """Two modules of the module text: the first with main and the first functions, the
    others declared; the second with the last functions (about half of all functions' text;
    their names are the third item) and the module's declarations, attributes and metadata,
    everything else declared and no global variable. None when a function of the second half
    names a global variable (its one definition stays in the first half: linking two would
    make two), when there are comdats, or when one half would have no function."""
    spans = _function_spans(text)
    if "main" not in spans or "\n$" in text[:min(start for start, _ in spans.values())]:
        return None
    first_start = min(start for start, _ in spans.values())
    last_end = max(end for _, end in spans.values())
    # the second half: the last functions but main, in the order of the text, up to half the
    # size of all functions
    later: set[str] = set()
    size = sum(end - start for start, end in spans.values())
    for name, (start, end) in sorted(spans.items(), key=lambda item: -item[1][0]):
        if name == "main":
            continue
        size -= 2 * (end - start)
        if size < 0:
            break
        later.add(name)
    if not later or len(later) == len(spans) - 1:
        return None
    declared = (_DECLARED.match(text, position) for position in _line_starts(text, "declare "))
    functions = set(spans) | {match.group(1).strip('"') for match in declared if match}
    for name in later:
        start, end = spans[name]
        if not functions.issuperset(ref.strip('"') for ref in _GLOBAL_REF.findall(text, start, end)):
            return None
    first_parts: list[str] = []
    second_parts: list[str] = [_GLOBAL_DEFINITION.sub("", text[:first_start])]
    done = first_start
    for name, (start, end) in sorted(spans.items(), key=lambda item: item[1][0]):
        between = text[done:start]  # declarations, blank lines
        first_parts.append(between)
        second_parts.append(between)
        declaration = _declaration(text, start)
        if name in later:
            first_parts.append(declaration)
            second_parts.append(text[start:end])
        else:
            first_parts.append(text[start:end])
            second_parts.append(declaration)
        done = end
    return (text[:first_start] + "".join(first_parts) + text[last_end:],
            "".join(second_parts) + text[last_end:], later)


def _localise_after_inlining(module: "llvm.ModuleRef", source: Path) -> "llvm.ModuleRef":
    """The globals that only main uses become its allocas (`_localise_globals`) and the
    locals `release_contained_locals` frees lose their lifetime markers, on the inlined
    module's text; parsed again and promoted."""
    text = str(module)
    global_facts = _global_facts(module)
    freed = _in_background(module.close)
    try:
        text, promotable = _localise_globals(text, global_facts)
        # (promotable is False wherever main keeps an alloca, so releasing changes nothing there)
        text = release_contained_locals(text)
    finally:
        freed()
    module = _parse(text, source)
    module = _run_passes(module, _promote)
    _check_promoted(module, source, promotable)
    return module


def _in_background(function, *args):
    """Start `function(*args)` in a thread; returns a function that waits for its result (or
    raises its exception)."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = function(*args)
        except BaseException as err:  # handed to the waiting thread
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def wait():
        thread.join()
        if "error" in outcome:
            raise outcome["error"]
        return outcome.get("value")
    return wait
