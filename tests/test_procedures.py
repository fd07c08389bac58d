"""Recursion and calls through function pointers (llumc.frontend.procedures), checked end to
end: every FALSE replayed natively, every TRUE proven, the rest a named UNKNOWN."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.frontend.cfg import split_top
from llumc.frontend.compile import Checks, compile_c
from llumc.frontend.procedures import (BOUND_PREFIX, FUNCTION_TAG_PREFIX, INVALID_CALL, dispatch_indirect_calls,
                                       recursive_functions, unroll_recursion)

PROGRAMS = Path(__file__).parent / "programs" / "procedures"
TIMEOUT = 60


@pytest.mark.parametrize("program, verdict, line", [
    ("sum_24_deep_false.c", "false", 8),
    ("deep_error_in_callee_false.c", "false", 5),
    ("fib_34_false.c", "false", 7),
    ("fib_bounded_true.c", "true", None),
    ("even_odd_true.c", "true", None),
    ("mccarthy_true.c", "true", None),
    ("hanoi_true.c", "true", None),
    ("tree_builder_false.c", "false", 18),
    ("tree_builder_true.c", "true", None),
    ("dispatch_table_false.c", "false", 15),
    ("dispatch_table_true.c", "true", None),
    ("callback_true.c", "true", None),
    ("table_side_effect_true.c", "true", None),
    ("loop_in_recursion_true.c", "true", None),
    ("global_struct_of_pointers_true.c", "true", None),
])
def test_verdicts(program: str, verdict: str, line: int | None) -> None:
    result = check_program(PROGRAMS / program, timeout=TIMEOUT)
    assert result.verdict == verdict, result.reason
    if verdict == "false":
        assert result.confirmation.startswith("replayed:"), result.confirmation
        assert result.error.line == line
    else:
        assert result.confirmation, "a TRUE names its checked proof"


def test_recursive_program_records_its_bound() -> None:
    """A TRUE of a recursive program rests on a depth bound it never reaches."""
    result = check_program(PROGRAMS / "even_odd_true.c", timeout=TIMEOUT)
    assert result.verdict == "true" and result.recursion_depth is not None and result.recursion_depth >= 11


def test_recursion_without_a_bound_and_summary_is_unknown() -> None:
    """A recursion on every int that counts its calls in a global: the bound is always reached
    and a summary of parameters and result cannot say what it does: UNKNOWN naming the
    recursion, never TRUE."""
    result = check_program(PROGRAMS / "impure_unbounded.c", timeout=6)
    assert result.verdict == "unknown"
    assert "recursion deeper than" in result.reason and "down" in result.reason, result.reason


@pytest.mark.parametrize("program, function, fact", [
    ("mccarthy_all_inputs.c", "f91", "!(n > 100) || \\result == n - 10"),
    ("parity_unbounded_true.c", "is_odd", "\\result <= 1"),
])
def test_unbounded_recursion_proven_by_summaries(program: str, function: str, fact: str) -> None:
    """No depth bound covers these (McCarthy's 91 recurses about 400 million calls deep on the
    smallest ints): TRUE by procedure summaries, which the answer names in C. (6 s alone; at
    60 s beside the suite on a slow host its encoding rounds ran out of time: 120 s.)"""
    result = check_program(PROGRAMS / program, timeout=2 * TIMEOUT)
    assert result.verdict == "true", result.reason
    assert "procedure summaries" in result.confirmation
    assert {"function": function, "expression": fact} in result.summaries, result.summaries


def test_fact_true_on_every_sample_but_false_is_dropped() -> None:
    """`f(n) == 0` holds on every input the concrete runs try; the body check finds n = 5001,
    the fact is dropped, and the real bug is found and replayed."""
    result = check_program(PROGRAMS / "rare_value_false.c", timeout=TIMEOUT)
    assert result.verdict == "false", result.reason
    assert result.confirmation.startswith("replayed:")


def test_call_through_null_is_undefined_behaviour_then_a_memory_fault() -> None:
    reach = check_program(PROGRAMS / "null_call.c", timeout=TIMEOUT)
    assert reach.verdict == "unknown" and reach.reason.startswith("undefined behaviour: call through a function "
                                                                  "pointer"), reach.reason
    memory = check_program(PROGRAMS / "null_call.c", timeout=TIMEOUT, prop="valid-memsafety")
    assert memory.verdict == "false", memory.reason
    assert memory.error.line == 8 and "null_call.c:8" in memory.confirmation
    assert [i.value for step in memory.trace for i in step.inputs] == [7]


def test_call_of_another_type_is_invalid_not_dispatched() -> None:
    """`add` has two parameters; a call of type int(int) cannot reach it (CBMC's type rule)."""
    result = check_program(PROGRAMS / "wrong_type_call.c", timeout=TIMEOUT)
    assert result.verdict == "unknown" and "undefined behaviour" in result.reason, result.reason


# --------------------------------------------------------------------------- the IR rewrites

MODULE = """define i32 @inc(i32 %x) {
entry:
  %r = add i32 %x, 1
  ret i32 %r
}

define i64 @wide(i64 %x) {
entry:
  ret i64 %x
}

define i32 @main() {
entry:
  %p = select i1 true, ptr @inc, ptr @wide
  %v = call i32 %p(i32 noundef 4)
  ret i32 %v
}

declare void @reach_error()
"""


def test_dispatch_compares_with_the_functions_of_the_calls_type() -> None:
    text = dispatch_indirect_calls(MODULE)
    dispatcher = text[text.index("define internal i32 @llumc.dispatch.0"):]
    dispatcher = dispatcher[:dispatcher.index("\n}\n")]
    assert f"icmp eq ptr %target, @{FUNCTION_TAG_PREFIX}inc" in dispatcher
    assert "wide" not in dispatcher  # another type: not a target, so the invalid call
    assert f"call void @{INVALID_CALL}(ptr %target)" in dispatcher
    assert f"select i1 true, ptr @{FUNCTION_TAG_PREFIX}inc, ptr @{FUNCTION_TAG_PREFIX}wide" in text
    assert "call i32 @llumc.dispatch.0(ptr %p, i32 noundef 4)" in text


RECURSIVE = """define i32 @even(i32 %n) {
entry:
  %r = call i32 @odd(i32 %n)
  ret i32 %r
}

define i32 @odd(i32 %n) {
entry:
  %r = call i32 @even(i32 %n)
  ret i32 %r
}

define i32 @main() {
entry:
  %r = call i32 @even(i32 3)
  ret i32 %r
}
"""


def test_unrolling_clones_each_level_and_ends_in_the_bound() -> None:
    assert recursive_functions(RECURSIVE) == [{"even", "odd"}]
    text, depth = unroll_recursion(RECURSIVE, 3)
    assert depth == 3
    defined = re.findall(r"^define i32 @([\w.]+)\(", text, re.M)
    assert sorted(defined) == sorted(["main", "even", "even.depth1", "even.depth2", "odd", "odd.depth1",
                                      "odd.depth2"])
    assert "call i32 @odd.depth1(" in text and "call i32 @even.depth2(" in text
    assert f"call i32 @{BOUND_PREFIX}odd(i32 %n)" in text  # from even.depth2
    assert recursive_functions(text) == []


def test_split_top_level_keeps_nested_commas() -> None:
    assert split_top("i32 1, { i32, i8 } %s, ptr byval(%struct.S) align 8 %p") == [
        "i32 1", "{ i32, i8 } %s", "ptr byval(%struct.S) align 8 %p"]


def test_unrolled_clones_keep_their_lines() -> None:
    """Each clone has its own copy of the debug metadata (LLVM would strip all of it if two
    functions shared one subprogram): the error inside the recursion keeps its C line."""
    result = compile_c(PROGRAMS / "deep_error_in_callee_false.c", recursion_depth=24)
    assert result.recursion_depth is not None
    error_lines = {result.debug.line_of(line) for line in result.ir.splitlines() if "@reach_error()" in line
                   and line.strip().startswith("call")}
    assert error_lines == {5}


def test_clones_debug_information_is_valid(capfd) -> None:
    """LLVM drops all debug information of a module it finds invalid, with a warning: the
    copies (two recursive calls per level here) must be valid and keep their C lines."""
    result = compile_c(PROGRAMS / "fib_34_false.c", recursion_depth=5, checks=Checks(overflow=True), wrapv=False)
    assert "invalid debug info" not in capfd.readouterr().err
    assert result.debug.line_of(next(line for line in result.ir.splitlines() if "@reach_error()" in line)) == 7


def test_loops_in_clones_keep_valid_debug_information(capfd) -> None:
    """A loop's `!llvm.loop` names the locations of its start and end: each clone of a
    recursive function needs its own copy of them, or LLVM drops the module's debug information."""
    result = compile_c(PROGRAMS / "loop_in_recursion_true.c", recursion_depth=3)
    assert "invalid debug info" not in capfd.readouterr().err
    assert result.recursion_depth is not None
    loop_lines = {result.debug.line_of(line) for line in result.ir.splitlines() if "!llvm.loop" in line}
    assert loop_lines == {7}


def test_address_taken_without_indirect_calls() -> None:
    """No call goes through a pointer, but f's address is stored and compared: f is tagged
    anyway (found when it is left after inlining), so the program is checked."""
    result = check_program(PROGRAMS / "address_taken_never_called_true.c", timeout=TIMEOUT)
    assert result.verdict == "true", result.reason


def test_one_loop_inlined_twice_has_one_invariant_that_holds_natively(tmp_path) -> None:
    """Each inlined copy of `sum`'s loop gets facts of its own (n <= 3 at the first, n >= 5 at
    the second): the loop's printed invariant is their disjunction, true in every native run."""
    from test_loop_programs import invariant_violations
    source = PROGRAMS / "loop_inlined_twice_true.c"
    result = check_program(source, timeout=TIMEOUT)
    assert result.verdict == "true", result.reason
    at_loop = [invariant for invariant in result.invariants if invariant["line"] == 7]
    assert len(at_loop) <= 1, at_loop
    violations, _ = invariant_violations(source, result.invariants, [[k] for k in range(0, 4)], tmp_path, m32=False)
    assert not violations, (violations, result.invariants)


def test_counterexample_names_the_functions_called_through_pointers() -> None:
    """Each step of the dispatch table's counterexample calls the table entry its input chose."""
    result = check_program(PROGRAMS / "dispatch_table_false.c", timeout=TIMEOUT)
    assert result.verdict == "false", result.reason
    table = ["inc", "dec", "twice"]
    chosen = [(step.inputs[0].value, step.indirect_calls) for step in result.trace if step.inputs]
    assert len(chosen) == 4 and all(calls == [table[op]] for op, calls in chosen), chosen
    # the first step fills the table; a trace shows what changed, and an engine's initial
    # state (the table's cells before main sets them: any value) may hold an entry already
    first = result.trace[0].changes
    entries = {f"table[{k}]": f"&{name}" for k, name in enumerate(table)}
    assert any(name in first for name in entries), first
    assert all(first.get(name, value) == value for name, value in entries.items()), first


# --------------------------------------------------------------------------- summaries' parts


def _source(program: str) -> str:
    from llumc.frontend.compile import source_ir

    return source_ir(PROGRAMS / program, m32=False, clang=None, checks=Checks(), wrapv=True)


def test_interpreter_runs_recursion_as_the_machine_does() -> None:
    from llumc.frontend.compile import classify_call
    from llumc.frontend.summaries import Interpreter

    def f91(n: int) -> int:
        return n - 10 if n > 100 else f91(f91(n + 11))

    def fib(n: int) -> int:
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    mccarthy = Interpreter(_source("mccarthy_all_inputs.c"), classify_call)
    assert [mccarthy.call("f91", [n]) for n in (-50, 0, 99, 100, 101, 150)] == \
        [f91(n) for n in (-50, 0, 99, 100, 101, 150)]
    assert Interpreter(_source("fib_34_false.c"), classify_call).call("fib", [9]) == fib(9) == 34


def test_candidate_facts_do_not_depend_on_the_clock(monkeypatch) -> None:
    """The concrete runs are bounded by interpreted steps, not seconds: with a clock that jumps
    a minute at every reading (a loaded machine, seen from the runs) McCarthy's 91 keeps the
    facts its proof needs. With a one-second bound it once got no complete run beside the
    suite, hence no candidate, and the check ran out of time unrolling."""
    import time

    from llumc.frontend.compile import classify_call
    from llumc.frontend.summaries import candidate_facts, pure_cycles

    text = _source("mccarthy_all_inputs.c")
    cycles = pure_cycles(text, classify_call)
    calm, _ = candidate_facts(text, cycles, classify_call)
    readings = iter(range(0, 10**9, 60))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(readings)))
    loaded, functions = candidate_facts(text, cycles, classify_call)
    assert loaded == calm
    names = [p.lstrip("%") for p, _ in functions["f91"].parameters]
    assert "!(n > 100) || \\result == n - 10" in [f.c_text(names) for f in loaded]


def test_impure_recursion_gets_no_summary_and_c_text_reads_signed() -> None:
    from llumc.frontend.compile import classify_call
    from llumc.frontend.summaries import Fact, pure_cycles, unsigned_positions

    assert pure_cycles(_source("impure_unbounded.c"), classify_call) is None  # it writes a global
    assert pure_cycles(_source("parity_unbounded_true.c"), classify_call) == [{"is_even", "is_odd"}]
    assert unsigned_positions(_source("parity_unbounded_true.c"), "is_even") == {0}
    fact = Fact("is_even", "==", None, 1, (0, "<=", 0))
    assert fact.c_text(["n"], {0}) == "!((int)n <= 0) || \\result == 1"


def test_recursion_depth_option(tmp_path: Path) -> None:
    """`encode --recursion-depth N` unrolls N calls deep (a deeper call is a bad state); a
    bound that is not positive is one line and exit 2."""
    import subprocess
    import sys

    def encode(depth: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "llumc", "encode", str(PROGRAMS / "sum_24_deep_false.c"),
                               "--recursion-depth", depth, "-o", str(tmp_path / f"d{depth}.cnf")],
                              capture_output=True, text=True, timeout=120)

    shallow, deep = encode("2"), encode("30")
    assert shallow.returncode == deep.returncode == 0, shallow.stderr + deep.stderr
    assert (tmp_path / "d30.cnf").stat().st_size > 5 * (tmp_path / "d2.cnf").stat().st_size
    bad = encode("0")
    assert bad.returncode == 2 and bad.stderr.strip() == "llumc: error: --recursion-depth must be positive"


def test_summaries_hold_under_valid_memsafety_too() -> None:
    """A harness's failing fact is an error under every property (under valid-memsafety a
    reach_error is not one): `f(n) == 0` is dropped, and the summaries prove nothing false."""
    import time

    from llumc.check.portfolio import CheckOptions, CheckSchedule
    from llumc.check.summaries import prove_with_summaries

    path = PROGRAMS / "rare_value_memsafety.c"
    options = CheckOptions(prop="valid-memsafety", memtrack=False, timeout=40)
    result = prove_with_summaries(path, options, lambda o: CheckSchedule(path, o, None).run(), None,
                                  time.monotonic() + 40)
    assert result is None or result.verdict == "false", (result.verdict, result.summaries)
