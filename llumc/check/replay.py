"""Concrete replay of a counterexample: the last word before llumc prints FALSE.

The program is compiled natively (same clang as the front end, static musl binary, -O0 -g) and
linked with `replay_harness.c`, whose `__VERIFIER_nondet_*` return the recorded values in order.
It runs under a hard time, memory and output limit; the harness writes what happened (error call,
failed assertion, sanitizer trap, signal, divergence) with the faulting PC and the frame-pointer
chain, and the PCs are mapped to C lines through the binary's DWARF line table (pyelftools).
A counterexample is confirmed only if the expected kind of error happens at the expected line;
everything else (wrong line, normal exit, timeout, build failure, running out of values) is
"not confirmed", which the caller turns into UNKNOWN, never into FALSE.
"""

from __future__ import annotations

import bisect
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from llumc.errors import LlumcError
from llumc.frontend.compile import OLD_C_ERRORS_AS_WARNINGS, clang_command, zig_cache_env
from llumc.frontend.rounding import source_uses_rounding_modes
from solvers.supervise import die_with_parent, prepare, signal_name

__all__ = ["ReplayExpectation", "ReplayResult", "replay", "uninit_site", "EXPECTATION_KINDS", "build_program",
           "run_program", "judge_run", "parse_event", "LineTable", "ProgramRun"]

HARNESS = Path(__file__).with_name("replay_harness.c")

# Kinds of the unreach-call property: the harness cannot always tell a failed `assert()` from an
# error call (a program's `__VERIFIER_assert` calls `__VERIFIER_error`), and SV-COMP does not
# either: both are the same violation.
UNREACH_KINDS = {"error-call", "assert"}
# Sanitizers compiled in for each check kind, as the front end instruments them (trap mode).
# Only the expected kind's checks are compiled in, so any trap is a violation of that kind.
SANITIZERS = {
    "overflow": ["signed-integer-overflow", "shift-base"],
    "div-by-zero": ["integer-divide-by-zero"],
    "shift": ["shift-exponent"],
    # valid-memsafety: what the sanitizers see natively (indexing an array of known bound, NULL);
    # other invalid accesses (through pointers, into the heap) are confirmed by a segfault at
    # the line only, else not at all
    "memory": ["array-bounds", "null"],
}
# valid-memtrack: main returns with a heap block no pointer from the globals reaches (the
# harness's leak check; no sanitizer: valid-memsafety's first phase proved the accesses valid)
LEAK_KIND = "leak"
EXPECTATION_KINDS = UNREACH_KINDS | set(SANITIZERS) | {LEAK_KIND}

BUILD_TIMEOUT = 300.0  # zig builds musl once per target on first use (about a minute)
MEMORY_LIMIT = 1 << 30  # address space of the replayed program
OUTPUT_LIMIT = 1 << 20  # bytes per file it writes (stdout, stderr): SIGXFSZ past that
EXIT_EVENT = 86  # the harness's exit code after it reported an event (see replay_harness.c)

# replay_harness.c's own trap kinds (valid-memsafety), each with its name and subproperty: past
# an object's end, or into a freed or dead one; a free of anything but a live heap block's
# start. The sanitizers' traps and a segfault are invalid dereferences too.
# (the other kinds are the sanitizers' compiled into the program)
HARNESS_TRAP_KINDS = {254: ("invalid memory access", "valid-deref"), 253: ("invalid free", "valid-free")}


def trap_subproperty(kind: int) -> str:
    """valid-memsafety's subproperty a trap of `kind` violates (a sanitizer's: valid-deref)."""
    return HARNESS_TRAP_KINDS.get(kind, ("", "valid-deref"))[1]


# clang's SanitizerHandler numbers as `ud1l K(%eax)` encodes them (clang 22), then the
# harness's; only for the message, never for the verdict: the compiled-in sanitizers already
# fix the kind.
_TRAP_NAMES = {
    0: "signed addition overflow",
    21: "signed subtraction overflow",
    12: "signed multiplication overflow",
    13: "signed negation overflow",
    3: "division overflow or division by zero",
    20: "shift out of bounds",
    **{kind: name for kind, (name, _) in HARNESS_TRAP_KINDS.items()},
}


@dataclass
class ReplayExpectation:
    kind: str  # "error-call" | "assert" | "overflow" | "div-by-zero" | "shift"
    line: int | None  # C source line where the error should happen (None: don't check the line)


@dataclass
class ReplayResult:
    confirmed: bool
    observed: str  # what happened, one line: "__VERIFIER_error called at prog.c:17", "exit 0", ...
    line: int | None
    nondet_consumed: int
    # Lines of the program's own file on the error's call chain, innermost first: the error
    # inside an inlined `__VERIFIER_assert` of an included header is at its call in main.
    chain: list[int] = field(default_factory=list)
    column: int | None = None  # of `line`'s call or operation, from the line table: for witnesses


@dataclass
class _Location:
    file: str
    line: int
    column: int | None = field(default=None, compare=False)  # (a line's calls are one location)


@dataclass
class _Event:
    """The harness's report line, decoded."""

    what: str  # error-call | assert | trap | signal | abort | diverged | assume-failed | bad-values
    name: str = ""
    consumed: int = 0
    assert_line: int | None = None
    trap_kind: int = -1
    signal_number: int = 0
    pcs: list[int] = field(default_factory=list)  # faulting PC (trap/signal), then return addresses
    allocation: int = -1  # leak: the run's heap allocation (from 0) whose block is lost
    first_is_pc: bool = False  # pcs[0] is the faulting instruction itself, not a return address


# --------------------------------------------------------------------------- public API


def replay(
    source: Path,
    nondet_values: list[int],
    expect: ReplayExpectation,
    *,
    m32: bool = False,
    clang: str | None = None,
    timeout: float = 10.0,
    uninit_values: list[tuple[int, int]] | None = None,
    heap_reuse: list[tuple[int, int]] | None = None,
    arguments: list[bytes] | None = None,
) -> ReplayResult:
    """Run `source` natively on `nondet_values` and say whether the expected error happens.

    `uninit_values`: (site, value) for the model's uninitialised locals, site being the number
    in the front end's `%__uninit.N` (see `uninit_site`), in the order the model read them.
    When given, the program is compiled through the front end's own IR rewrite so that its
    uninitialised locals start from these values instead of stack garbage.
    `heap_reuse`: the allocator's choices of the counterexample, (k, j) when the k-th heap
    allocation gets the block the j-th one freed (`llumc.check.counterexample.heap_reuse`). When given (even
    empty), malloc, calloc and free are the harness's, which follows them.
    `arguments`: argv of the run (argv[0] included; None: the binary's path alone), for a
    main with parameters (llumc.check.counterexample.program_arguments).
    `timeout` bounds the run (not the build: the first build per target builds musl)."""
    if expect.kind not in EXPECTATION_KINDS:
        raise ValueError(f"unknown replay kind {expect.kind!r}; one of {sorted(EXPECTATION_KINDS)}")
    source = Path(source)
    if not source.is_file():
        raise LlumcError(f"{source}: no such file")
    with tempfile.TemporaryDirectory(prefix="llumc-replay-") as tmp_name:
        tmp = Path(tmp_name)
        binary = tmp / "replay.bin"
        # valid-memsafety goes through the front end's text too: its lifetime markers let the
        # harness see a use of a local after its scope ended (llumc.frontend.lifetimes)
        own_heap = heap_reuse is not None
        failure = build_program(source, binary, expect.kind, m32, clang,
                                through_frontend=uninit_values is not None or expect.kind == "memory" or own_heap,
                                own_heap=own_heap)
        if failure:
            return ReplayResult(False, f"build failed: {failure}", None, 0)
        values_file = tmp / "values"
        values_file.write_text("".join(f"{int(v)}\n" for v in nondet_values))
        uninit_file = None
        if uninit_values is not None:
            # grouped by site, each site's values in the model's order (sorted() is stable)
            uninit_file = tmp / "uninit"
            # a value wider than 64 bits (an uninitialised array or struct: one nondet integer
            # over all its bytes) goes as consecutive 64-bit chunks, lowest first
            lines = []
            for site, value, *width in sorted(uninit_values, key=lambda pair: pair[0]):
                chunks = max(1, -(-width[0] // 64)) if width else 1
                lines += [f"{int(site)} {(int(value) >> (64 * j)) & ((1 << 64) - 1)}\n" for j in range(chunks)]
            uninit_file.write_text("".join(lines))
        reuse_file = None
        if heap_reuse:
            reuse_file = tmp / "reuse"
            reuse_file.write_text("".join(f"{k} {j}\n" for k, j in heap_reuse))
        try:
            run = run_program(binary, values_file, tmp, timeout, uninit_file, reuse_file, arguments,
                              leaks=expect.kind == LEAK_KIND)
        except OSError as err:  # E2BIG: more argument bytes than the system passes
            return ReplayResult(False, f"the program could not be started with the trace's "
                                       f"{len(arguments or [])} arguments: {err.strerror}", None, 0)
        return judge_run(run, binary, source, expect, len(nondet_values))


# --------------------------------------------------------------------------- build


def _target_flags(m32: bool, is_zig: bool) -> list[str]:
    # zig ships musl for both widths: a static 32-bit binary runs without 32-bit system libraries.
    if is_zig:
        return ["-target", "x86-linux-musl" if m32 else "x86_64-linux-musl"]
    return ["-m32" if m32 else "-m64"]


def _wrapped_symbols() -> list[str]:
    """Every `__wrap_X` the harness defines: the linker must redirect all calls of X to it."""
    text = HARNESS.read_text()
    names = set(re.findall(r"\b__wrap_(\w+)\s*\(", text))
    names |= {f"__VERIFIER_nondet_{name}" for name in re.findall(r"^NONDET\([^,]+,\s*(\w+)\)", text, re.M)}
    return sorted(names)


def _source_text(source: Path) -> str:
    try:
        return source.read_text(errors="replace")
    except OSError:
        return ""  # (clang reports the file)


def _program_flags(kind: str, is_zig: bool, rounding_math: bool = False) -> list[str]:
    flags = [
        # the line table is all the replay reads (`LineTable`): without the variables' and
        # types' debug information a RERS program builds in 2.9 s instead of 4.1 s
        "-gline-tables-only", "-O0",
        "-fno-omit-frame-pointer",  # the harness walks the frame-pointer chain
        "-fno-stack-protector",
        "-fno-sanitize=all",  # zig enables UBSan with its own runtime in debug builds
        "-ffp-contract=off",  # as the front end: `a * b + c` rounds twice, never fused
        "-w", *OLD_C_ERRORS_AS_WARNINGS,
    ]
    if kind in SANITIZERS:
        joined = ",".join(SANITIZERS[kind])
        flags += [f"-fsanitize={joined}", f"-fsanitize-trap={joined}", "-fno-sanitize-merge"]
        if is_zig:
            # clang 22 puts traps at line 0 inside an artificial inlined "trap reason" function;
            # without reasons the trap keeps the line of its operation (LineTable also falls back).
            flags.append("-fsanitize-debug-trap-reasons=none")
        if kind != "overflow":
            flags.append("-fwrapv")
    else:
        flags.append("-fwrapv")  # unreach-call: signed arithmetic wraps, as in the encoding
    if rounding_math:
        # as the front end for a program that changes the rounding mode: no constant folded in
        # round-to-nearest across fesetround (llumc.frontend.rounding)
        flags.append("-frounding-math")
    return flags


_UNINIT_CALL = re.compile(r"^  (%__uninit\.(\d+)) = call (i(\d+)) @__llumc_uninit_i\d+\(\)$", re.M)
_UNINIT_NAME = re.compile(r"%?__uninit\.(\d+)(\.i\d*)*")
_UNINIT_POINTER_CALL = re.compile(r"^  (%__uninit_ptr\.\d+) = call ptr @__llumc_uninit_ptr\(\)$", re.M)


def uninit_site(ir_name: str) -> int | None:
    """The site number of a model input read from an uninitialised local: the front end names
    the value `%__uninit.N`; inlining appends `.i` and a uniquing number per copy."""
    match = _UNINIT_NAME.fullmatch(ir_name or "")
    return int(match.group(1)) if match else None


def _program_ir(source: Path, kind: str, m32: bool, clang: str | None, own_heap: bool = False,
                columns: bool = False) -> str:
    """The program's IR after the front end's own first rewrites (same clang flags, same bodies
    dropped, same `_initialise_locals`), so its `%__uninit.N` sites carry the numbers the model's
    inputs were named after; each site then asks the harness for its next value by number.
    Mirrors the start of `frontend.compile_c`: a drift only costs confirmations, never a FALSE
    (any start value of an uninitialised local is a real execution)."""
    from llumc.frontend.compile import Checks, source_ir
    from llumc.frontend.lifetimes import native_replay_text, with_leak_roots

    checks = Checks(overflow=kind == "overflow", div_by_zero=kind == "div-by-zero", shift=kind == "shift",
                    bounds=kind == "memory")
    text = source_ir(source, m32=m32, clang=clang, checks=checks, wrapv=kind != "overflow",
                     native_library_calls=True, columns=columns)

    def ask_harness(match: re.Match) -> str:
        name, site, ty, width = match.group(1), match.group(2), match.group(3), int(match.group(4))
        raw = f"{name}.raw"
        call = f"  {raw} = call i64 @__llumc_replay_uninit(i32 {site})"
        if width == 64:
            return call.replace(raw, name, 1)
        if width < 64:
            return f"{call}\n  {name} = trunc i64 {raw} to {ty}"
        # wider: one call per 64-bit chunk, lowest first (see `replay`)
        lines, acc = [], None
        for j in range(-(-width // 64)):
            lines.append(f"  {raw}.{j} = call i64 @__llumc_replay_uninit(i32 {site})")
            lines.append(f"  {raw}.{j}.x = zext i64 {raw}.{j} to {ty}")
            part = f"{raw}.{j}.x"
            if j:
                lines.append(f"  {raw}.{j}.s = shl {ty} {part}, {64 * j}")
                lines.append(f"  {raw}.{j}.o = or {ty} {acc}, {raw}.{j}.s")
                part = f"{raw}.{j}.o"
            acc = part
        lines.append(f"  {name} = or {ty} {acc}, 0")
        return "\n".join(lines)

    text = native_replay_text(text, check_accesses=kind == "memory", own_heap=own_heap)
    if kind == LEAK_KIND:
        text = with_leak_roots(text)
        if text is None:
            raise LlumcError("the program's global variables could not be read (no roots for the leak check)")
    # an uninitialised pointer local's start value: never read where the model answered (the
    # front end refuses a program that reads one), so any value does
    text = _UNINIT_POINTER_CALL.sub(r"  \1 = getelementptr i8, ptr null, i64 0", text)
    return _UNINIT_CALL.sub(ask_harness, text) + "\ndeclare i64 @__llumc_replay_uninit(i32)\n"


def build_program(source: Path, binary: Path, kind: str, m32: bool, clang: str | None,
                  through_frontend: bool = False, own_heap: bool = False, columns: bool = False) -> str | None:
    """Compile program and harness and link them; None on success, else the first diagnostic.
    `columns`: the front end's IR (`through_frontend`) keeps its column information, for the
    line table of a run whose counterexample goes into a witness."""
    command, is_zig = clang_command(clang)
    target = _target_flags(m32, is_zig)
    program_object = binary.with_name("program.o")
    harness_object = binary.with_name("harness.o")
    rounding_math = source_uses_rounding_modes(_source_text(source))
    compile_program = [*command, *target, *_program_flags(kind, is_zig, rounding_math), "-c", "-o", str(program_object),
                       # `-x c`: a `.i` file too (frontend). The path as given, not resolved:
                       # a symlinked file's `#include "x.h"` is looked up beside the link, as
                       # the front end (clang) does.
                       "-x", "c", str(source.absolute())]
    if through_frontend:
        try:
            ir = _program_ir(source.absolute(), kind, m32, clang, own_heap, columns)
        except LlumcError as err:
            return str(err)
        ir_file = binary.with_name("program.ll")
        ir_file.write_text(ir)
        # the sanitizer checks are in the IR already; -target overrides the front end's triple
        compile_program = [*command, *target, "-g", "-O0", "-fno-omit-frame-pointer", "-w",
                           "-c", "-o", str(program_object), str(ir_file)]
    # The program's object in the build's own cache (in ~/.cache/zig one entry per program
    # replayed, never removed: 20 000 here in six hours of tests and benchmarks); the harness
    # (the same every time) and zig's C library stay in the global one.
    own_cache = zig_cache_env(binary.parent / "zig-cache", libraries_too=False) if is_zig else None
    steps = [
        (compile_program, own_cache),
        ([*command, *target, "-g", "-O0", "-fno-omit-frame-pointer", "-fno-sanitize=all",
          "-fno-stack-protector", "-c", "-o", str(harness_object), str(HARNESS)], None),
        ([*command, *target, "-static", "-no-pie", "-o", str(binary), str(program_object),
          str(harness_object), *[f"-Wl,--wrap={name}" for name in _wrapped_symbols()]], own_cache),
    ]
    for argv, env in steps:
        try:
            # In the build's directory (every path above is absolute): run from a directory that
            # holds zig (the project's, with its .venv), zig names its C library's sources by
            # relative paths, misses its cache and builds the library anew, 30-90 s per replay.
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=BUILD_TIMEOUT,
                                  stdin=subprocess.DEVNULL, env=env, cwd=binary.parent)
        except FileNotFoundError:
            return f"clang not found: {command[0]}"
        except subprocess.TimeoutExpired:
            return "clang timed out"
        if proc.returncode != 0:
            lines = [line for line in proc.stderr.splitlines() if "error" in line.lower()]
            return (lines or proc.stderr.splitlines() or [f"exit {proc.returncode}"])[0].strip()
    return None


def prepare_native_builds(m32_targets: tuple[bool, ...] = (True, False), clang: str | None = None
                          ) -> list[str]:
    """Builds and links a trivial program for each target as a replay does (`build_program`),
    so that zig builds the C library it keeps for that target in ~/.cache/zig (about a minute
    each, once per machine) before any check needs it. Within a check's time limit that build
    would be cut short with the check, and started again by the next one: on a fresh machine
    every bug would then be `UNKNOWN (timeout during replay)`. `make install` and `llumc
    bench` call this first. The failures, one line each (empty: ready)."""
    from concurrent.futures import ThreadPoolExecutor

    with tempfile.TemporaryDirectory(prefix="llumc-prepare-") as tmp:
        def build(m32: bool) -> str | None:  # each target in a directory of its own
            directory = Path(tmp) / ("ilp32" if m32 else "lp64")
            directory.mkdir()
            source = directory / "empty.c"
            source.write_text("int main(void) { return 0; }\n")
            failure = build_program(source, directory / "empty", "error-call", m32, clang)
            return None if failure is None else f"native build for {'ILP32' if m32 else 'LP64'}: {failure}"

        # side by side: each build keeps about one core busy for its minute
        with ThreadPoolExecutor(max_workers=max(1, len(m32_targets))) as pool:
            return [problem for problem in pool.map(build, m32_targets) if problem is not None]


# --------------------------------------------------------------------------- run


@dataclass
class ProgramRun:
    returncode: int | None  # None: killed on timeout
    report: str
    consumed: int
    timeout: float


def _limit_resources(cpu_seconds: int | None = None) -> None:  # runs in the child between fork and exec
    die_with_parent()  # its own session: only the kernel ends it with the check
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT_LIMIT, OUTPUT_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if cpu_seconds is not None:  # SIGXCPU at the soft limit, SIGKILL a second later
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))


def run_program(binary: Path, values_file: Path, tmp: Path, timeout: float, uninit_file: Path | None = None,
                reuse_file: Path | None = None, arguments: list[bytes] | None = None, leaks: bool = False,
                sites_file: Path | None = None, cpu_seconds: int | None = None) -> ProgramRun:
    """One run of the built program on the values of `values_file`, killed with its process
    group after `timeout` seconds of wall time or, if given, `cpu_seconds` of CPU time (the
    random tests: on a loaded machine a run's wall time is several times its CPU time, and the
    same run must reach the same end whatever the load)."""
    report_file, count_file = tmp / "report", tmp / "count"
    env = {
        "PATH": "/usr/bin:/bin",
        "LLUMC_REPLAY_VALUES": str(values_file),
        "LLUMC_REPLAY_REPORT": str(report_file),
        "LLUMC_REPLAY_COUNT": str(count_file),
    }
    if uninit_file is not None:
        env["LLUMC_REPLAY_UNINIT"] = str(uninit_file)
    if reuse_file is not None:
        env["LLUMC_REPLAY_REUSE"] = str(reuse_file)
    if leaks:
        env["LLUMC_REPLAY_LEAKS"] = "1"
    if sites_file is not None:  # the return address of each value's nondet call (llumc.check.testing)
        env["LLUMC_REPLAY_SITES"] = str(sites_file)
    with open(tmp / "stdout", "wb") as out, open(tmp / "stderr", "wb") as err:
        prepare()
        proc = subprocess.Popen(
            arguments or [str(binary)], executable=binary, cwd=tmp, env=env, stdin=subprocess.DEVNULL,
            stdout=out, stderr=err,
            start_new_session=True, preexec_fn=lambda: _limit_resources(cpu_seconds),
        )
        try:
            returncode: int | None = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            returncode = None
        finally:
            # The whole process group: whatever the program forked goes too.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
    report = report_file.read_text(errors="replace")[:4096] if report_file.exists() else ""
    consumed = 0
    if count_file.exists():
        raw = count_file.read_bytes()[:8]
        if len(raw) == 8:
            consumed = int.from_bytes(raw, sys.byteorder, signed=True)
    return ProgramRun(returncode, report, consumed, timeout)


def parse_event(report: str) -> _Event | None:
    """The first report line (the harness stops at its first event)."""
    lines = report.splitlines()
    if not lines:
        return None
    words = lines[0].split()
    try:
        what, rest = words[0], words[1:]
        hexes = lambda items: [int(item, 16) for item in items]  # noqa: E731
        if what == "error-call":
            return _Event(what, name=rest[0], consumed=int(rest[1]), pcs=hexes(rest[2:]))
        if what == "assert":
            return _Event(what, consumed=int(rest[0]), assert_line=int(rest[1]), pcs=hexes(rest[2:]))
        if what == "trap":
            return _Event(what, signal_number=int(rest[0]), trap_kind=int(rest[1]),
                          consumed=int(rest[2]), pcs=hexes(rest[3:]), first_is_pc=True)
        if what == "signal":
            return _Event(what, signal_number=int(rest[0]), consumed=int(rest[1]),
                          pcs=hexes(rest[2:]), first_is_pc=True)
        if what in ("abort", "assume-failed"):
            return _Event(what, consumed=int(rest[0]), pcs=hexes(rest[1:]))
        if what == "leak":
            return _Event(what, allocation=int(rest[0]), consumed=int(rest[1]))
        if what in ("diverged", "bad-values"):
            return _Event(what, consumed=int(rest[0]))
        if what == "no-values":
            return _Event(what)
    except (IndexError, ValueError):
        pass
    return _Event("garbled", name=lines[0][:200])


# --------------------------------------------------------------------------- DWARF lines


class LineTable:
    """PC → C line, only for code compiled from the program's own source (its compile unit)."""

    def __init__(self, binary: Path, source: Path) -> None:
        from elftools.elf.elffile import ELFFile

        self.sequences: list[tuple[int, int, list[int], list[tuple[str, int]]]] = []
        self.position_independent = False
        source_name = source.absolute().name
        with open(binary, "rb") as handle:
            elf = ELFFile(handle)
            self.position_independent = elf["e_type"] != "ET_EXEC"
            if not elf.has_dwarf_info():
                return
            dwarf = elf.get_dwarf_info()
            for unit in dwarf.iter_CUs():
                name_attribute = unit.get_top_DIE().attributes.get("DW_AT_name")
                if not name_attribute:
                    continue
                unit_name = name_attribute.value.decode(errors="replace")
                if Path(unit_name).name != source_name:
                    continue
                program = dwarf.line_program_for_CU(unit)
                if program is not None:
                    self._add_program(program)
        self.sequences.sort(key=lambda sequence: sequence[0])
        self.starts = [sequence[0] for sequence in self.sequences]

    def _add_program(self, program) -> None:
        entries = program["file_entry"]
        base = 0 if program.header["version"] >= 5 else 1  # DWARF 5 numbers files from 0

        def file_name(index: int) -> str:
            position = index - base
            if 0 <= position < len(entries):
                return entries[position].name.decode(errors="replace")
            return "?"

        decoded = line_rows(program)
        if decoded is None:  # a form only pyelftools reads
            decoded = [(entry.state.address, entry.state.file, entry.state.line, entry.state.column,
                        entry.state.end_sequence) for entry in program.get_entries() if entry.state is not None]
        names: dict[int, str] = {}
        addresses: list[int] = []
        rows: list[tuple[str, int, int]] = []
        for address, file, line, column, end_sequence in decoded:
            if end_sequence:
                if addresses:
                    self.sequences.append((addresses[0], address, addresses, rows))
                addresses, rows = [], []
                continue
            addresses.append(address)
            name = names.get(file)
            if name is None:
                name = names[file] = file_name(file)
            rows.append((name, line, column))

    def locate(self, address: int) -> _Location | None:
        index = bisect.bisect_right(self.starts, address) - 1
        if index < 0:
            return None
        start, end, addresses, rows = self.sequences[index]
        if not start <= address < end:
            return None
        row = bisect.bisect_right(addresses, address) - 1
        # Line 0 is compiler-generated code (clang's trap-reason frames): the operation it
        # belongs to is the last real line before it.
        while row > 0 and rows[row][1] == 0:
            row -= 1
        file, line, column = rows[row]
        return _Location(Path(file).name, line, column or None) if line else None


def line_rows(program) -> list[tuple[int, int, int, int, bool]] | None:
    """(address, file, line, column, end_sequence) of each row of a pyelftools `LineProgram`, decoded
    from its bytes the way `LineProgram.get_entries` decodes them; None where the program holds
    an opcode only pyelftools reads (`DW_LNE_define_file`, a vendor's standard opcode).

    Why by hand: pyelftools builds an entry object and a copy of the whole state per row, 6 of
    the 13 s a replay of a RERS program (74 000 lines, one compile unit) took; this loop keeps
    five integers. The state machine is DWARF's (sections 6.2.5.1–6.2.5.3)."""
    try:
        return _decode_line_program(program)
    except (IndexError, ZeroDivisionError):
        return None  # malformed: pyelftools says how (as before this decoder)


def _decode_line_program(program) -> list[tuple[int, int, int, int, bool]] | None:
    header = program.header
    start, end = program.program_start_offset, program.program_end_offset
    program.stream.seek(start)
    data = program.stream.read(end - start)
    order = "little" if program.structs.little_endian else "big"
    opcode_base, line_base, line_range = header["opcode_base"], header["line_base"], header["line_range"]
    step = header["minimum_instruction_length"]
    max_ops = header["maximum_operations_per_instruction"]
    rows: list[tuple[int, int, int, int, bool]] = []
    address, op_index, file, line, column = 0, 0, 1, 1, 0
    pos, size = 0, len(data)

    def uleb(pos: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = data[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value, pos

    while pos < size:
        opcode = data[pos]
        pos += 1
        if opcode >= opcode_base:  # special opcode: advance address and line, add a row
            adjusted = opcode - opcode_base
            advance = adjusted // line_range
            address += step * ((op_index + advance) // max_ops)
            op_index = (op_index + advance) % max_ops
            line += line_base + adjusted % line_range
            rows.append((address, file, line, column, False))
        elif opcode == 0:  # extended: its length (counting its own opcode), opcode, operands
            length, pos = uleb(pos)
            extended = data[pos]
            if extended == 1:  # DW_LNE_end_sequence: a last row, then the initial state
                rows.append((address, file, line, column, True))
                address, op_index, file, line, column = 0, 0, 1, 1, 0
            elif extended == 2:  # DW_LNE_set_address
                address = int.from_bytes(data[pos + 1:pos + length], order)
            elif extended == 3:  # DW_LNE_define_file (DWARF 2-4): adds a file name
                return None
            pos += length  # set_discriminator and unknown ones: skipped
        elif opcode == 1:  # DW_LNS_copy
            rows.append((address, file, line, column, False))
        elif opcode == 2:  # DW_LNS_advance_pc
            operand, pos = uleb(pos)
            address += operand * step
        elif opcode == 3:  # DW_LNS_advance_line (signed LEB128)
            operand, after = uleb(pos)
            if data[after - 1] & 0x40:
                operand -= 1 << (7 * (after - pos))
            pos = after
            line += operand
        elif opcode == 4:  # DW_LNS_set_file
            file, pos = uleb(pos)
        elif opcode == 5:  # DW_LNS_set_column
            column, pos = uleb(pos)
        elif opcode == 12:  # DW_LNS_set_isa
            _, pos = uleb(pos)
        elif opcode in (6, 7, 10, 11):  # negate_stmt, set_basic_block, prologue_end, epilogue_begin
            pass
        elif opcode == 8:  # DW_LNS_const_add_pc
            address += (255 - opcode_base) // line_range * step
        elif opcode == 9:  # DW_LNS_fixed_advance_pc: a 2-byte operand
            address += int.from_bytes(data[pos:pos + 2], order)
            pos += 2
        else:
            return None
    return rows


# --------------------------------------------------------------------------- verdict


def judge_run(run: ProgramRun, binary: Path, source: Path, expect: ReplayExpectation,
              recorded: int) -> ReplayResult:
    event = parse_event(run.report)
    consumed = (event.consumed if event and event.what not in ("garbled", "bad-values", "no-values")
                else run.consumed)
    if event is None:
        if run.returncode is None:
            observed = f"timeout after {run.timeout:g} s"
        elif run.returncode < 0:
            observed = f"killed by {signal_name(-run.returncode)}"
            if -run.returncode == signal.SIGXFSZ:
                observed += " (output limit)"
        else:
            observed = f"exit {run.returncode}"
        return ReplayResult(False, observed, None, consumed)

    if event.what == "diverged":
        return ReplayResult(False, f"replay diverged: the program asked for nondet value "
                                   f"#{event.consumed + 1}, only {recorded} recorded", None, consumed)
    if event.what in ("bad-values", "no-values", "garbled"):
        return ReplayResult(False, f"harness failure: {run.report.splitlines()[0][:200]}", None, consumed)

    if event.what == "leak":  # (no line: it happens where main returns)
        observed = (f"memory leak: the block of heap allocation #{event.allocation + 1} of the run is "
                    f"reached by no pointer when main returns")
        if consumed > recorded:
            observed += f" ({consumed - recorded} nondet values past the trace's, each 0)"
        return ReplayResult(expect.kind == LEAK_KIND, observed, None, consumed)
    table = LineTable(binary, source)
    if table.position_independent:
        return ReplayResult(False, "cannot map addresses to lines: position-independent binary",
                            None, consumed)
    locations: list[_Location] = []
    if event.assert_line is not None:
        locations.append(_Location(source.name, event.assert_line))
    for position, pc in enumerate(event.pcs):
        # A return address points after its call: the call's line is that of the byte before.
        located = table.locate(pc if position == 0 and event.first_is_pc else pc - 1)
        if located is not None:
            locations.append(located)
    line = locations[0].line if locations else None
    column = locations[0].column if locations else None
    where = _describe(locations)

    if event.what == "error-call":
        observed, matches_kind = f"{event.name} called{where}", expect.kind in UNREACH_KINDS
    elif event.what == "assert":
        observed, matches_kind = f"assertion failed{where}", expect.kind in UNREACH_KINDS
    elif event.what == "trap":
        reason = _TRAP_NAMES.get(event.trap_kind, "sanitizer trap")
        compiled = ",".join(SANITIZERS.get(expect.kind, [])) or "none"
        observed = f"{reason}{where}" + ("" if event.trap_kind in HARNESS_TRAP_KINDS else f" (checks compiled in: {compiled})")
        matches_kind = expect.kind in SANITIZERS
    elif event.what == "signal":
        observed = f"{signal_name(event.signal_number)}{where}"
        matches_kind = expect.kind == "memory" and event.signal_number in (signal.SIGSEGV, signal.SIGBUS)
    elif event.what == "abort":
        observed, matches_kind = f"abort called{where}", False
    else:  # assume-failed
        observed, matches_kind = f"__VERIFIER_assume failed{where} (execution stops quietly)", False

    if not matches_kind:
        return ReplayResult(False, observed, line, consumed)
    if expect.line is not None and expect.line not in {location.line for location in locations}:
        return ReplayResult(False, f"{observed}; expected line {expect.line}", line, consumed)
    if consumed < recorded:
        observed += f"; {recorded - consumed} recorded nondet values unused"
    chain = [location.line for location in locations if location.file == source.name]
    return ReplayResult(True, observed, line, consumed, chain, column)


def _describe(locations: list[_Location]) -> str:
    """' at prog.c:17 (called from prog.c:30)' — the innermost location and its callers."""
    if not locations:
        return " at an unknown line"
    distinct = [location for position, location in enumerate(locations)
                if position == 0 or location != locations[position - 1]]
    text = f" at {distinct[0].file}:{distinct[0].line}"
    callers = [f"{location.file}:{location.line}" for location in distinct[1:4]]
    if callers:
        text += f" (called from {', '.join(callers)})"
    return text
