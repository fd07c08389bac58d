"""Random tests: the program run natively on chosen nondet values, beside the model's engines.

Why: a bug behind a loop over 100 000 cells is 200 000 steps deep. The word-level BMC unrolls
that in about a minute, every other engine never; the program itself runs it in milliseconds.
A FALSE needs no more than one run that reaches the error, and the native replay (the last
word before any FALSE, `llumc.check.replay`) is such a run. So, beside the engines, a child
process builds the program as the replay does and runs it on value sequences chosen to hit the
usual bugs: all zeros, increasing and decreasing sequences (sorts, running extremes), and
mixtures of the program's own integer constants and their neighbours (`x == N - 1`), small
values, sign and width boundaries and uniform random words. Each run is seeded: the same
program gets the same runs.

The runs are a child process of the check (`RandomTests`), started `START_DELAY` into the
check (most checks have their answer by then), or when the check would end UNKNOWN (`go`); the
front end's rewrite, clang's build and the runs go on there beside the engines.

Soundness: a run is a real execution. For unreach-call it is built with every memory access
checked and signed arithmetic wrapping, as the encoding reads it (the replay's valid-memsafety
build: a run that makes an invalid access traps before it could reach the error by corrupted
memory, and is dropped); for no-overflow with the overflow checks, whose trap is the violation;
for valid-memsafety with the same memory checks, whose trap is the violation: valid-free where
the harness's free trapped, valid-deref otherwise (a segfault says nothing: it may be the
stack's end, which C's abstract machine does not have). (Leaks, valid-memtrack, are
left to the model's check: a run that leaks says nothing here.)
Uninitialised locals start from 0, one of the values they may hold. A run that reaches the
error is the counterexample: its nondet values, each with the line of the call that returned
it (the harness records the calls' return addresses, mapped through the binary's line table).
Random tests never say TRUE, and a run that ends otherwise says nothing.

How its answer is used (`llumc.check.portfolio`): the model's engines answer first, with a
trace of the model; the tests' counterexample is taken when the engines have had
`MODEL_FIRST_SHARE` of the time without an answer, or when the check would otherwise end
UNKNOWN (a construct the front end refuses, a timeout, refinement exhausted).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from llumc import child_environment
from llumc.check.replay import (ReplayExpectation, build_program, judge_run, LineTable, parse_event,
                                run_program, trap_subproperty)
from llumc.check.result import CheckResult, ErrorSite, InputValue, TraceStep
from llumc.encoding.floatsem import float_text
from llumc.frontend.libcalls import NONDET_TYPES
from llumc.frontend.sourcetext import SourceText
from solvers.supervise import die_with_parent

PROPERTIES = ("unreach-call", "no-overflow", "valid-memsafety")
# what a run must show to violate each property (`llumc.check.replay.ReplayExpectation.kind`)
EXPECTED_EVENT = {"unreach-call": "error-call", "no-overflow": "overflow", "valid-memsafety": "memory"}
START_DELAY = 4.0  # the tests start this long into the check (at most a fifth of its time limit)
# the tests' budget: a share of the time limit, at most this long, and at most so many runs
TEST_SHARE = 0.15
MAX_TEST_SECONDS = 4.0
MAX_RUNS = 40
# CPU seconds one run may take (RLIMIT_CPU: whole seconds); its wall time may be this many
# times more, within the tests' budget (a loaded machine: two checks beside each other)
RUN_CPU_SECONDS = 1
RUN_WALL_FACTOR = 4
LEAST_SECONDS = 0.5  # tests not yet started are not started with less time left than this
# values offered to the first run of a sequence; after a run that used them all, the same
# sequence again with MAX_VALUES at once (the shorter run is a prefix of that one, for every
# sequence but the decreasing one: runs at counts in between would repeat it)
FIRST_VALUES = 1024
# values offered to one run at most: the harness keeps 8 bytes per value of call sites, within
# the replay's 1 MiB limit per file
MAX_VALUES = (1 << 17) - 1024
# the engines' share of the time limit before the tests' counterexample is taken, and the
# least seconds they get
MODEL_FIRST_SHARE = 0.25
MODEL_FIRST_SECONDS = 5.0
MAX_CONSTANTS = 256  # the program's integer constants taken into the mixtures
_C_TYPE_BITS = {"_Bool": 1, "char": 8, "signed char": 8, "unsigned char": 8, "short": 16, "unsigned short": 16,
                "int": 32, "unsigned int": 32, "long long": 64, "unsigned long long": 64, "loff_t": 64,
                "float": 32, "double": 64}
_WORD_TYPES = {"long", "unsigned long", "size_t", "ssize_t", "char *", "void *", "const char *"}
_NONDET_CALL = re.compile(r"\b__VERIFIER_nondet_(\w+)\s*\(")
_INTEGER = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b")


@dataclass
class FailingRun:
    """What the run that reached the error used: its values and their calls' return addresses."""

    number: int
    values: list[int]
    sites: list[int]
    event_name: str  # the error function called, "assert", "trap", or (valid-memsafety) "memory"
    observed: str  # the replay's words for what happened
    line: int | None
    chain: list[int]
    # return address -> (C line, nondet function called, the call's column or None)
    calls: dict[int, tuple[int | None, str, int | None]]
    subproperty: str | None = None  # valid-memsafety: valid-free (an invalid free) or valid-deref
    column: int | None = None  # of the error's call or operation (the line table's): for witnesses


def applies(prop: str, engine: str) -> bool:
    """Random tests run beside the portfolio for the properties a native run can show."""
    return prop in PROPERTIES and engine == "portfolio"


def start_delay(timeout: float | None) -> float:
    """Seconds into the check before the tests start: most programs are answered by the engines
    sooner, and a build and its runs beside them would only slow them down."""
    return START_DELAY if timeout is None else min(START_DELAY, 0.2 * timeout)


def tests_budget(timeout: float | None) -> float:
    return MAX_TEST_SECONDS if timeout is None else max(0.5, min(MAX_TEST_SECONDS, TEST_SHARE * timeout))


def model_first(timeout: float | None) -> float | None:
    """Seconds from the check's start before the tests' counterexample preempts the engines
    (None: without a time limit, only where the check would end UNKNOWN)."""
    return None if timeout is None else max(MODEL_FIRST_SECONDS, MODEL_FIRST_SHARE * timeout)


def source_constants(text: str) -> list[int]:
    """The integer literals of the program in the order they appear, then their neighbours,
    then the negations: `x == N - 1` and `k < N` are hit by a value from here, rarely by a
    uniform one."""
    literals: list[int] = []
    for match in _INTEGER.finditer(text):
        literal = match.group(1)
        value = int(literal, 16) if literal[:2] in ("0x", "0X") else int(literal)
        if value not in literals:
            literals.append(value)
            if len(literals) >= MAX_CONSTANTS:
                break
    ordered = dict.fromkeys(literals)
    ordered.update(dict.fromkeys(v + d for v in literals for d in (-1, 1)))
    ordered.update(dict.fromkeys(-v for v in list(ordered)))
    return list(ordered)


class ValueSource:
    """The value sequence of run `number`: all zeros, increasing, decreasing; then, in turn, one
    program constant for every value (in the constants' order) and a seeded mixture."""

    BOUNDARIES = [0, 1, -1, 2, -2, 127, 128, 255, 256, -128, 32767, 32768, 65535, 65536, -32768,
                  (1 << 31) - 1, 1 << 31, (1 << 32) - 1, -(1 << 31), (1 << 63) - 1, 1 << 63, (1 << 64) - 1]

    def __init__(self, constants: list[int]) -> None:
        self.constants = constants or [0, 1]

    def values(self, number: int, count: int) -> list[int]:
        if number == 0:
            return [0] * count
        if number == 1:
            return list(range(count))
        if number == 2:
            return list(range(count, 0, -1))
        turn, kind = divmod(number - 3, 2)
        if kind == 0 and turn < len(self.constants):
            return [self.constants[turn]] * count
        rng = random.Random(number)
        if turn % 3 == 2:  # small values only: flags, choices, short indices
            return rng.choices(range(-2, 9), k=count)
        constants = self.constants[:64]
        pool = (constants * max(1, 128 // len(constants))
                + [rng.randint(-8, 16) for _ in range(32)]
                + self.BOUNDARIES
                + [rng.getrandbits(32) for _ in range(48)] + [rng.getrandbits(64) for _ in range(8)])
        return rng.choices(pool, k=count)


class RandomTests:
    """The tests of one program, run by a child process (`python -m llumc.check.testing`) until
    a run reaches the error, the budget is spent or `stop` is called. The check asks
    `start_if_due` at its polling points (the child starts `delay` seconds after the check:
    most checks are answered sooner), `go` where it would end UNKNOWN; `found` is the run that
    reached the error, once the child has written it.

    Why a process of its own, started with exec: a fork of the checking process would share its
    pages copy-on-write, and the encoder writing hundreds of megabytes beside it paid for every
    one of them (the test suite ran a fifth slower). Started from the main thread only: the
    child's death signal (`die_with_parent`) is tied to the thread that started it."""

    def __init__(self, source: Path, prop: str, *, m32: bool, clang: str | None, seconds: float,
                 delay: float = 0.0, columns: bool = False) -> None:
        self.source, self.prop, self.m32, self.clang = Path(source), prop, m32, clang
        self.seconds = seconds
        self.columns = columns  # the witness's columns, from the run's line table (`build_program`)
        self.due = time.monotonic() + delay
        self.runs = 0
        self.reason = "not run"
        self._found: FailingRun | None = None
        self._told = False
        self._stopped = False
        self._process: subprocess.Popen | None = None
        self._directory: tempfile.TemporaryDirectory | None = None

    def start_if_due(self) -> None:
        if not self._stopped and self._process is None and time.monotonic() >= self.due:
            self.go()

    def go(self) -> None:
        """Start the child now (once)."""
        if self._stopped or self._process is not None:
            return
        self._directory = tempfile.TemporaryDirectory(prefix="llumc-tests-")
        arguments = {"source": str(self.source.absolute()), "prop": self.prop, "m32": self.m32, "clang": self.clang,
                     "seconds": self.seconds, "columns": self.columns, "parent": os.getpid(),
                     "result": str(Path(self._directory.name) / "result.json")}
        self._process = subprocess.Popen([sys.executable, "-m", "llumc.check.testing", json.dumps(arguments)],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, cwd=self._directory.name,
                                         env=child_environment())

    def stop(self) -> None:
        """The check has its answer: the child ends (SIGTERM: it kills its build or run)."""
        self._stopped = True
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
        self._told = True

    def wait(self, timeout: float | None = None) -> None:
        """Until the child has written its outcome (at most `timeout` seconds)."""
        if self._process is None or self._told:
            return
        try:
            self._process.wait(timeout)
        except subprocess.TimeoutExpired:
            return
        self._collect()

    @property
    def found(self) -> FailingRun | None:
        if not self._told and self._process is not None and self._process.poll() is not None:
            self._collect()
        return self._found

    def _collect(self) -> None:
        self._told = True
        result = Path(self._directory.name) / "result.json"
        try:
            data = json.loads(result.read_text())
        except (OSError, ValueError):
            self.reason = f"the tests' process ended without an outcome (exit {self._process.returncode})"
            return
        self.runs, self.reason = data["runs"], data["reason"]
        found = data["found"]
        if found is not None:
            found["calls"] = {int(site): tuple(call) for site, call in found["calls"].items()}
            self._found = FailingRun(**found)
        self._directory.cleanup()

    # -- in the child

    def run_all(self, stopped: Callable[[], bool]) -> None:
        try:
            self._run_in_directory(stopped)
        except Exception as err:  # the tests only add answers: a failure here costs none
            self.reason = f"internal error: {type(err).__name__}: {err}"

    def _run_in_directory(self, stopped: Callable[[], bool]) -> None:
        deadline = time.monotonic() + self.seconds
        with tempfile.TemporaryDirectory(prefix="llumc-tests-") as tmp_name:
            tmp = Path(tmp_name)
            binary = tmp / "tests.bin"
            # unreach-call: every access checked (see the module's docstring)
            failure = build_program(self.source, binary, "overflow" if self.prop == "no-overflow" else "memory",
                                    self.m32, self.clang, through_frontend=True, columns=self.columns)
            if failure:
                self.reason = f"build failed: {failure}"
                return
            try:
                text = self.source.read_text(errors="replace")
            except OSError as err:
                self.reason = f"cannot read the program: {err}"
                return
            source = ValueSource(source_constants(text))
            count, sequence = FIRST_VALUES, 0
            while not stopped() and self.runs < MAX_RUNS and time.monotonic() < deadline:
                values = source.values(sequence, count)
                outcome = self._one_run(binary, tmp, values, deadline)
                self.runs += 1
                if outcome == "found":
                    self.reason = f"a run reached the error ({self.runs} runs)"
                    return
                if outcome == "more values" and count < MAX_VALUES:
                    count = MAX_VALUES  # the same sequence, longer
                    continue
                if outcome == "deterministic":
                    break
                sequence += 1
            self.reason = f"no run reached the error ({self.runs} runs)"

    def _one_run(self, binary: Path, tmp: Path, values: list[int], deadline: float) -> str:
        """'found', 'more values' (it asked for more than it had), 'deterministic' (it asked
        for none: every run is this one) or 'nothing'."""
        for name in ("report", "count", "sites"):
            (tmp / name).unlink(missing_ok=True)
        values_file = tmp / "values"
        values_file.write_text("".join(f"{v}\n" for v in values))
        wall = max(RUN_CPU_SECONDS, min(RUN_WALL_FACTOR * RUN_CPU_SECONDS, deadline - time.monotonic()))
        run = run_program(binary, values_file, tmp, wall, sites_file=tmp / "sites", cpu_seconds=RUN_CPU_SECONDS)
        event = parse_event(run.report)
        if event is not None and event.what == "diverged":
            return "more values"
        kind = EXPECTED_EVENT[self.prop]
        judged = judge_run(run, binary, self.source, ReplayExpectation(kind, None), len(values))
        if kind == "memory" and event is not None and event.what != "trap":
            # a segfault may be the stack's end (a deep recursion), which C's abstract machine
            # does not have; the checks' traps are invalid accesses and nothing else
            return "nothing"
        if not judged.confirmed:
            return "deterministic" if run.consumed == 0 else "nothing"
        raw = (tmp / "sites").read_bytes() if (tmp / "sites").exists() else b""
        consumed = judged.nondet_consumed
        sites = [int.from_bytes(raw[8 * i:8 * i + 8], "little") for i in range(min(consumed, len(raw) // 8))]
        subproperty = None
        if kind == "memory":  # a trap of the harness's (an access, a free) or a sanitizer's
            name = "memory"
            subproperty = trap_subproperty(event.trap_kind)
        else:
            name = event.name if event.what == "error-call" else "assert" if event.what == "assert" else "trap"
        observed = judged.observed.split("; ")[0]  # (without the values offered and not read)
        self._found = FailingRun(self.runs + 1, values[:consumed], sites, name, observed, judged.line,
                                 judged.chain, _SiteLines(binary, self.source, sites).calls, subproperty,
                                 judged.column)
        return "found"

    # -- the answer

    def result(self) -> CheckResult | None:
        """FALSE with the run that reached the error as its counterexample, or None."""
        run = self.found
        if run is None:
            return None
        steps: list[TraceStep] = []
        for number, (value, site) in enumerate(zip(run.values, run.sites)):
            line, function, column = run.calls.get(site, (None, "__VERIFIER_nondet_int", None))
            steps.append(TraceStep(number, "", line, [_input_value(function, value, line, self.m32, column)]))
        subproperty = None
        if run.event_name == "memory":
            description, kind = ("invalid free" if run.subproperty == "valid-free" else
                                 "invalid dereference"), "memory"
            subproperty = run.subproperty
        elif run.event_name == "trap":
            description, kind = "signed integer overflow", "overflow"
        elif run.event_name == "assert":
            description, kind = "assert() failed", "assert"
        elif "assert" in run.event_name:
            description, kind = "assertion failed", "error-call"
        else:
            description, kind = f"{run.event_name}() reached", "error-call"
        return CheckResult("false", self.prop, "random tests", steps=len(steps), trace=steps,
                           error=ErrorSite(kind, run.line, description, run.column, subproperty=subproperty),
                           confirmation=f"native run {run.number} of the random tests: {run.observed}")


def _child(arguments: dict) -> None:
    """`python -m llumc.check.testing ARGUMENTS`: the runs, then their outcome as JSON in the
    file the parent named (written whole, then renamed: the parent never reads half of it)."""
    die_with_parent(arguments["parent"])
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(143))  # the check has its answer
    tests = RandomTests(Path(arguments["source"]), arguments["prop"], m32=arguments["m32"],
                        clang=arguments["clang"], seconds=arguments["seconds"], columns=arguments["columns"])
    tests.run_all(lambda: False)
    found = dataclasses.asdict(tests._found) if tests._found is not None else None
    result = Path(arguments["result"])
    partial = result.with_suffix(".partial")
    partial.write_text(json.dumps({"found": found, "runs": tests.runs, "reason": tests.reason}))
    partial.rename(result)


class _SiteLines:
    """Return address of a nondet call -> (its C line, the nondet function called there, the
    call's column where the line table has one)."""

    def __init__(self, binary: Path, source: Path, sites: list[int]) -> None:
        table = LineTable(binary, source)
        text = SourceText(source)
        self.calls: dict[int, tuple[int | None, str, int | None]] = {}
        by_line: dict[int, list[int]] = {}
        for site in sorted(set(sites)):
            located = table.locate(site - 1)  # a return address follows its call
            ours = located is not None and located.file == source.name
            line, column = (located.line, located.column) if ours else (None, None)
            self.calls[site] = (line, "__VERIFIER_nondet_int", column)
            if line is not None:
                by_line.setdefault(line, []).append(site)
        for line, line_sites in by_line.items():
            physical = text.line(line)
            at_column = {m.start() + 1: f"__VERIFIER_nondet_{m.group(1)}"
                         for m in _NONDET_CALL.finditer(text.text(physical or 0))}
            names = list(at_column.values())
            if not names:
                continue
            # several calls on one line: the one at the call's column, else in the order of
            # their code (-O0 keeps the source's)
            paired = names if len(names) == len(line_sites) else [names[0]] * len(line_sites)
            for site, name in zip(line_sites, paired):
                column = self.calls[site][2]
                self.calls[site] = (line, at_column.get(column, name), column)


def _input_value(function: str, raw: int, line: int | None, m32: bool, column: int | None = None) -> InputValue:
    """The value as the call's C type reads it (the harness converts the 64-bit word)."""
    c_type, signed = NONDET_TYPES.get(function.removeprefix("__VERIFIER_nondet_"), ("int", True))
    width = (32 if m32 else 64) if c_type in _WORD_TYPES else _C_TYPE_BITS.get(c_type, 64)
    bits = raw & ((1 << 64) - 1)
    if width == 1:
        return InputValue(function, int(bits != 0), 1, line, column=column)
    bits &= (1 << width) - 1
    if c_type in ("float", "double"):
        return InputValue(function, bits, width, line, column=column, text=float_text(bits, width))
    value = bits - (1 << width) if signed and bits >> (width - 1) else bits
    return InputValue(function, value, width, line, column=column)


if __name__ == "__main__":
    _child(json.loads(sys.argv[1]))
