"""Loop programs whose verdict is known by construction (tests/programs/loops, the verdict is in
the file name, the reason in each file's first line), checked twice:

* natively, with llumc out of the loop: each program is compiled with the project's clang and
  `tests/nondet_driver.c` (which supplies the nondet values and catches the error and assume
  calls) and run on every input of a set (all inputs where the domain is small); each run must
  end as a small Python model of the program says: error exactly on the inputs the comment
  names, assume-failed exactly outside the assumed range, normal exit otherwise;
* by `llumc check --32`: a FALSE program must be FALSE, replayed by llumc and, again, by the
  native driver on the trace's inputs; a TRUE program must be TRUE, and the loop invariants the
  result names (`invariants`) must hold, read as C, at their loop heads in every native run of
  the input set (the program is rebuilt with each one evaluated beside its loop condition).
  TRUE programs llumc cannot prove yet (NEEDS_LOOP_PROOFS) are expected failures,
  but only while the verdict is UNKNOWN: a wrong verdict fails the test even for them.

Timeouts: LLUMC_LOOP_TIMEOUT (TRUE programs, default 90 s: an unknown one costs all of it) and
LLUMC_LOOP_FALSE_TIMEOUT (FALSE programs, default 60 s; they end when the path is found).
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Callable

import pytest

from llumc.check.portfolio import check_program
from llumc.frontend.compile import clang_command

LOOPS = Path(__file__).parent / "programs" / "loops"
DRIVER = Path(__file__).with_name("nondet_driver.c")
# gauss: 16 s alone (2026-12-03, a host about twice as slow as usual). Under the suite's load
# its round of products outlasted the search's budget; it now runs again beside the engines
# (docs/invariants.md, step 4). In four runs of the suite the same day it took 58.8, 20.7,
# 23.0 and 50.2 s (IC3 with the invariants sharing two cores with the other worker's checks):
# the limit leaves room for that. A passing program does not wait for it.
TRUE_TIMEOUT = float(os.environ.get("LLUMC_LOOP_TIMEOUT", "90"))
FALSE_TIMEOUT = float(os.environ.get("LLUMC_LOOP_FALSE_TIMEOUT", "60"))
UNPROVED_TIMEOUT = 6.0  # the TRUE programs of NEEDS_LOOP_PROOFS  # gauss_bound_false: 100 steps deep, 25-35 s loaded

# TRUE programs llumc still leaves UNKNOWN at the timeout. Every other TRUE loop here must be
# proven (forward condition, k-induction, word-level invariants: 0.2-4 s each, measured).
NEEDS_LOOP_PROOFS = {
    "cohencu_true.c",  # cubic invariants (n**3): not among the candidates
}


# ----------------------------------------------------------------------------- native runs


def build_native(source: Path, binary: Path, *, m32: bool = True) -> None:
    """Compile `source` with its main renamed and link it with the nondet driver: a static musl
    binary of the target llumc checks (`m32`: ILP32, as `llumc check --32`). Signed arithmetic
    wraps (-fwrapv), as llumc assumes for unreach-call; no sanitizers (zig adds UBSan in debug)."""
    command, is_zig = clang_command(None)
    if is_zig:
        target = ["-target", "x86-linux-musl" if m32 else "x86_64-linux-musl"]
    else:
        target = ["-m32" if m32 else "-m64"]
    argv = [*command, *target, "-O0", "-fwrapv", "-fno-sanitize=all", "-fno-stack-protector", "-w",
            "-Dmain=llumc_program_main", "-o", str(binary), "-x", "c", str(source), str(DRIVER)]
    # in the binary's directory, as the replay builds (llumc/check/replay.py): from the checkout, which
    # holds zig's installation (.venv), zig misses its cache and builds musl again every time
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
                          cwd=binary.parent)
    assert proc.returncode == 0, f"native build of {source.name} failed:\n{proc.stderr}"


def run_native(binary: Path, vectors: list[list[int]], timeout: float = 120) -> list[tuple[str, int]]:
    """(outcome, values read) per input vector: outcome is ok | error | assume | diverged."""
    return [(outcome, used) for outcome, used, _ in run_native_probes(binary, vectors, timeout)]


def run_native_probes(binary: Path, vectors: list[list[int]], timeout: float = 120
                      ) -> list[tuple[str, int, list[tuple[int, int]]]]:
    """(outcome, values read, [(probe id, value) in call order]) per input vector."""
    stdin = "".join(" ".join(str(v) for v in vector) + "\n" for vector in vectors)
    proc = subprocess.run([str(binary)], input=stdin, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{binary.name} exited {proc.returncode}: {proc.stderr}"
    results, probes = [], []
    for line in proc.stdout.splitlines():
        words = line.split()
        if words[0] == "probe":
            probes.append((int(words[1]), int(words[2])))
        else:
            results.append((words[0], int(words[1]), probes))
            probes = []
    assert len(results) == len(vectors), f"{binary.name}: {len(results)} results for {len(vectors)} vectors"
    return results


_BINARIES: dict[str, Path] = {}
_BUILD_DIR = tempfile.TemporaryDirectory(prefix="llumc-loops-")


def native_binary(name: str) -> Path:
    if name not in _BINARIES:
        binary = Path(_BUILD_DIR.name) / (Path(name).stem + ".bin")
        build_native(LOOPS / name, binary)
        _BINARIES[name] = binary
    return _BINARIES[name]


# ----------------------------------------------------------------------------- invariants

_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_C_INVARIANT = re.compile(r"[\w\s()+\-*%<>=!&|~^.]*")  # (a dot only in numbers: 10.0f)
# C number literals (10, 4294967295u, 10.0f, 1e+300): their letters are not identifiers
_C_NUMBER = re.compile(r"(?<![\w.])(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?[fFuUlL]*(?![\w.])")
# words of C itself an invariant may use besides the program's identifiers (modular facts cast)
_C_TYPE_WORDS = {"unsigned", "long"}


def conjuncts(expression: str) -> list[str]:
    """The top-level `&&` operands of an expression (itself, if it has a top-level `||` or `?`)."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(expression):
        char = expression[i]
        depth += char == "("
        depth -= char == ")"
        if depth == 0 and expression.startswith("||", i) or depth == 0 and char == "?":
            return [expression.strip()]
        if depth == 0 and expression.startswith("&&", i):
            parts.append(expression[start:i].strip())
            start = i + 2
            i += 1
        i += 1
    return parts + [expression[start:].strip()]


def instrument_invariants(text: str, invariants: list[dict]) -> tuple[str, list[str]]:
    """The program with each claimed loop invariant evaluated where its loop tests the
    condition (`while (llumc_invariant(LINE, INV), COND)`, `for (init; llumc_invariant(LINE,
    INV), COND; step)`), and what was left out, with the reason. Only loops whose head line
    starts a `while` or `for` are instrumented (a do-while's head is its body), and only the
    conjuncts that are C expressions over the program's own identifiers (not IR names such as
    %x.1): each conjunct of an invariant is an invariant."""
    lines = text.splitlines()
    words = set(_IDENTIFIER.findall(text))
    per_line: dict[int, list[str]] = {}
    skipped = []
    for invariant in invariants:
        expression, line = invariant.get("expression") or "", invariant.get("line")
        if not line or not (1 <= line <= len(lines)):
            skipped.append(f"{line}: no source line: {expression}")
            continue
        head = lines[line - 1].lstrip()
        if not head.startswith(("while (", "for (")):
            skipped.append(f"{line}: not the line of a while or for head: {head}")
            continue
        for part in conjuncts(expression):
            if (not _C_INVARIANT.fullmatch(part) or re.search(r"%[\w.\"]|[A-Za-z_]\w*\.", part)
                    or not set(_IDENTIFIER.findall(_C_NUMBER.sub(" ", part))) <= words | _C_TYPE_WORDS):
                skipped.append(f"{line}: not a C expression over the program's variables: {part}")
            else:
                per_line.setdefault(line, []).append(f"({part})")
    declaration = "void llumc_invariant(int, int);"
    for line, expressions in sorted(per_line.items()):
        check = f"llumc_invariant({line}, {' && '.join(expressions)}), "
        text_line = lines[line - 1]
        if text_line.lstrip().startswith("while ("):
            lines[line - 1] = text_line.replace("while (", "while (" + check, 1)
        else:
            before, after = text_line.split(";", 1)
            lines[line - 1] = f"{before}; {check}{after.lstrip()}"
    return declaration + "\n" + "\n".join(lines) + "\n", skipped


def invariant_violations(source: Path, invariants: list[dict], inputs: list[list[int]], work: Path,
                         *, m32: bool = True) -> tuple[list[tuple[list[int], int]], list[str]]:
    """Runs of the instrumented program on `inputs` in which a claimed invariant was false at its
    loop head: (input vector, line of the loop) for each; and the invariants not checked."""
    text, skipped = instrument_invariants(source.read_text(), invariants)
    instrumented = work / f"{source.stem}_invariants.c"
    instrumented.write_text(text)
    binary = work / f"{source.stem}_invariants.bin"
    build_native(instrumented, binary, m32=m32)
    violations = []
    for vector, (_, _, probes) in zip(inputs, run_native_probes(binary, inputs)):
        violations += [(vector, line) for line, _ in probes[:1]]
    return violations, skipped


# ----------------------------------------------------------------------------- ground truth


@dataclass
class Spec:
    """Inputs to run and what each run must do: `valid(v)` is False exactly when an assume
    fails, `bug(v)` (for valid v) exactly when the error is reached. Every valid run must read
    the whole vector (so the vectors mean what the model thinks)."""

    inputs: list[list[int]]
    bug: Callable[[list[int]], bool] = lambda v: False
    valid: Callable[[list[int]], bool] = lambda v: True


def ints(lo: int, hi: int, *extra: int) -> list[list[int]]:
    return [[n] for n in range(lo, hi + 1)] + [[n] for n in extra]


def counter_runs(lo: int, hi: int) -> list[list[int]]:
    """n, then one 0/1 choice per iteration (max(n, 0) of them), every combination."""
    runs = []
    for n in range(lo, hi + 1):
        runs += [[n, *choices] for choices in product((0, 1), repeat=max(n, 0))]
    return runs


def chain(v: list[int], choice: bool) -> bool | None:
    """Python model of kinduction_chain_*.c: True if s == 5 at the end (the error), None if the
    run does not read exactly the values of v."""
    values = iter(v)
    used = 0

    def read() -> int | None:
        nonlocal used
        used += 1
        return next(values, None)

    s = 0
    while True:
        go = read()
        if go is None:
            return None
        if not go:
            break
        if s == 0:
            s = 1
        elif s == 1:
            s = 2
        elif s == 2:
            if choice:
                pick = read()
                if pick is None:
                    return None
                s = 3 if pick else 0
            else:
                s = 0
        elif s == 3:
            s = 4
        elif s == 4:
            s = 5
    return s == 5 if used == len(v) else None


def chain_runs(choice: bool, longest: int) -> list[list[int]]:
    """Every complete run of a kinduction_chain program with at most `longest` 0/1 reads."""
    return [list(v) for k in range(1, longest + 1) for v in product((0, 1), repeat=k)
            if chain(list(v), choice) is not None]


def in_range(lo: int, hi: int) -> Callable[[list[int]], bool]:
    return lambda v: lo <= v[0] <= hi


ALL_UCHAR_PAIRS = [[a, b] for a in range(256) for b in range(256)]
BIG = (10**6, 10**7)

SPECS: dict[str, Spec] = {
    "break_continue_true.c": Spec([[]]),
    "break_continue_false.c": Spec([[]], bug=lambda v: True),
    "nested_10x10_true.c": Spec([[]]),
    "nested_10x10_false.c": Spec([[]], bug=lambda v: True),
    "dowhile_once_true.c": Spec([[]]),
    "dowhile_once_false.c": Spec([[]], bug=lambda v: True),
    "gcd_uchar_true.c": Spec(ALL_UCHAR_PAIRS, valid=lambda v: v[0] > 0 and v[1] > 0),
    "gcd_uchar_false.c": Spec(ALL_UCHAR_PAIRS, valid=lambda v: v[0] > 0 and v[1] > 0,
                              bug=lambda v: v[0] != v[1] and math.gcd(v[0], v[1]) == 1),
    "parity_uchar_true.c": Spec(ints(0, 255)),
    "parity_uchar_false.c": Spec(ints(0, 255), bug=lambda v: (v[0] % 2 == 0) != (v[0] & 2 == 0)),
    "count300_true.c": Spec([[]]),
    "count300_false.c": Spec([[]], bug=lambda v: True),
    "for_i_eq_n_true.c": Spec(ints(-5, 1000, *BIG, -(2**31)), valid=lambda v: v[0] >= 0),
    "for_step2_false.c": Spec(ints(-5, 1005), valid=in_range(0, 1000), bug=lambda v: v[0] % 2 == 1),
    "scaled_bound_true.c": Spec(ints(-105, 1000, 99999, 100000, *BIG), valid=lambda v: -100 < v[0] < 100000),
    "scaled_bound_false.c": Spec(ints(-105, 1000, 99999, 100000), valid=lambda v: -100 < v[0] < 100000,
                                 bug=lambda v: -1 <= v[0] <= 2),
    "updown_true.c": Spec(ints(-5, 1000, *BIG, -(2**31)), valid=lambda v: v[0] >= 0),
    "updown_false.c": Spec(ints(-5, 1005), valid=in_range(0, 1000), bug=lambda v: True),
    "double_true.c": Spec(ints(-5, 1000, *BIG, -(2**31))),
    "double_glitch50_false.c": Spec(ints(-5, 1005, -(2**31)), valid=lambda v: v[0] <= 1000,
                                    bug=lambda v: v[0] >= 50),
    "counter_true.c": Spec(counter_runs(-2, 9), valid=lambda v: v[0] >= 0),
    "counter_false.c": Spec(counter_runs(-2, 9) + [[1001]], valid=in_range(0, 1000),
                            bug=lambda v: 2 * sum(v[1:]) > v[0] + 1),
    "gauss_true.c": Spec(ints(-5, 1005), valid=in_range(0, 1000)),
    "gauss_bound_false.c": Spec(ints(-5, 1005), valid=in_range(0, 1000), bug=lambda v: v[0] >= 100),
    "cohencu_true.c": Spec(ints(-5, 1005), valid=in_range(0, 1000)),
    "cohencu_false.c": Spec(ints(-5, 1005), valid=in_range(0, 1000), bug=lambda v: True),
    "dowhile_sum_true.c": Spec(ints(-5, 1000, *BIG, -(2**31)), valid=lambda v: v[0] > 0),
    "dowhile_sum_false.c": Spec(ints(-5, 1005), valid=in_range(0, 1000), bug=lambda v: v[0] == 0),
    "kinduction_chain_true.c": Spec([[1] * k + [0] for k in range(40)]),
    "kinduction_chain_false.c": Spec(chain_runs(True, 12), bug=lambda v: bool(chain(v, True))),
    "uchar_wrap_true.c": Spec(ints(-5, 1005), valid=in_range(0, 1000)),
    "uchar_wrap_false.c": Spec(ints(-5, 1005), valid=in_range(0, 1000), bug=lambda v: v[0] >= 256),
    "int_double_true.c": Spec(ints(-5, 40, 2**31 - 1), valid=in_range(0, 30)),
    "int_double_false.c": Spec(ints(-5, 40, 2**31 - 1), valid=in_range(0, 31), bug=lambda v: v[0] == 31),
    "two_loops_one_counter_true.c": Spec(ints(-3, 5), valid=in_range(1, 1)),
    # the C variable g is %inc at the inner head, %g.0 at the outer one (naming per loop head)
    "inner_after_increment_true.c": Spec([[]]),
    # v holds different values on the paths into the for head and is dead after it: no v there
    "dead_after_loop_true.c": Spec(ints(-3, 12), valid=in_range(1, 8)),
}

NAMES = sorted(SPECS)


def expected_verdict(name: str) -> str:
    return "true" if name.endswith("_true.c") else "false"


def test_every_program_has_a_spec_and_a_reason():
    on_disk = sorted(path.name for path in LOOPS.glob("*.c"))
    assert on_disk == NAMES
    for name in NAMES:
        first = (LOOPS / name).read_text().splitlines()[0]
        assert first.startswith(f"/* {expected_verdict(name).upper()}: "), name
        assert name.endswith(("_true.c", "_false.c"))
    assert NEEDS_LOOP_PROOFS <= {name for name in NAMES if expected_verdict(name) == "true"}


# ----------------------------------------------------------------------------- native truth


@pytest.mark.parametrize("name", NAMES)
def test_native_runs_match_the_construction(name):
    spec = SPECS[name]
    results = run_native(native_binary(name), spec.inputs)
    failing = 0
    for vector, (outcome, used) in zip(spec.inputs, results):
        if not spec.valid(vector):
            assert outcome == "assume", (name, vector, outcome)
            continue
        expected = "error" if spec.bug(vector) else "ok"
        assert (outcome, used) == (expected, len(vector)), (name, vector, outcome, used)
        failing += expected == "error"
    if expected_verdict(name) == "false":
        assert failing > 0, f"{name}: no input of the set reaches the error"
    else:
        assert failing == 0 and any(outcome == "ok" for outcome, _ in results)


# ----------------------------------------------------------------------------- llumc


class Unproved(Exception):
    """A TRUE program left UNKNOWN: the only failure NEEDS_LOOP_PROOFS tolerates."""


def _marks(name: str):
    if name in NEEDS_LOOP_PROOFS:
        return [pytest.mark.xfail(strict=False, raises=Unproved, reason="needs a loop invariant llumc does not find")]
    return []


def error_call_lines(source: Path) -> set[int]:
    return {number for number, text in enumerate(source.read_text().splitlines(), 1)
            if "__VERIFIER_error()" in text or "reach_error();" in text}


@pytest.mark.parametrize("name", [pytest.param(name, marks=_marks(name)) for name in NAMES])
def test_llumc_verdict(name):
    source = LOOPS / name
    expected = expected_verdict(name)
    timeout = TRUE_TIMEOUT if expected == "true" else FALSE_TIMEOUT
    if name in NEEDS_LOOP_PROOFS:
        timeout = UNPROVED_TIMEOUT  # known to end UNKNOWN: the test asks only that it is never wrong
    result = check_program(source, timeout=timeout, m32=True)
    print(f"{name}: {result.verdict} ({result.engine}, {result.seconds:.1f} s) "
          f"{result.confirmation or result.reason}")
    # A wrong verdict is never an expected failure (Unproved is the only one).
    assert result.internal_error is None, result.internal_error
    if result.verdict != "unknown":
        assert result.verdict == expected, f"WRONG VERDICT on {name}: {result.verdict}"
    if expected == "false":
        assert result.verdict == "false", result.reason
        assert result.confirmation and result.confirmation.startswith("replayed"), result.confirmation
        assert result.error is not None and result.error.line in error_call_lines(source), result.error
        # the counterexample's inputs reach the error in the independent native driver too
        inputs = [value.value for step in result.trace for value in step.inputs]
        [(outcome, used)] = run_native(native_binary(name), [inputs])
        assert (outcome, used) == ("error", len(inputs)), (inputs, outcome, used)
        return
    if result.verdict == "unknown":
        raise Unproved(result.reason)
    invariants = getattr(result, "invariants", None)
    if invariants:
        lines = len(source.read_text().splitlines())
        for invariant in invariants:
            assert set(invariant) >= {"line", "column", "function", "expression"}, invariant
            assert invariant["function"] and invariant["expression"], invariant
            assert invariant["line"] is None or 1 <= invariant["line"] <= lines, invariant
            print(f"  invariant at {name}:{invariant['line']}:{invariant['column']} "
                  f"({invariant['function']}): {invariant['expression']}")
        # each claimed invariant must hold, read as C, at its loop head in every native run
        violations, skipped = invariant_violations(source, invariants, SPECS[name].inputs,
                                                   Path(_BUILD_DIR.name))
        for reason in skipped:
            print(f"  not checked natively: {reason}")
        assert not violations, f"claimed loop invariant false at runtime (input, loop line): {violations[:5]}"
