"""Recursion on a call stack (llumc.frontend.callstack): the body encoded once, frames in
arrays indexed by the stack pointer. Checked end to end (every FALSE replayed natively, every
TRUE proven) and against unrolling, and the shapes the stack leaves to unrolling."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.frontend.callstack import STACK_PREFIX, NotStackable, plan_heads
from llumc.frontend.compile import compile_c
from llumc.frontend.procedures import BOUND_PREFIX, recursive_functions

PROCEDURES = Path(__file__).parent / "programs" / "procedures"
PROGRAMS = Path(__file__).parent / "callstack_programs"  # (outside programs/: not among the encoding digests)


def _calls_of(ir: str, function: str) -> int:
    return sum(f"@{function}(" in line for line in ir.splitlines() if " call " in f" {line.strip()} ")


def test_body_encoded_once_whatever_the_depth() -> None:
    """Unrolled, a tree recursion has 2^D copies of its body; on the stack one, and deeper
    bounds only widen the frame arrays."""
    shallow = compile_c(PROGRAMS / "tree_walk_false.c", recursion_depth=8, call_stack=True)
    deep = compile_c(PROGRAMS / "tree_walk_false.c", recursion_depth=64, call_stack=True)
    assert shallow.call_stack and deep.call_stack and deep.recursion_depth == 64
    assert recursive_functions(deep.ir) == []
    for result in (shallow, deep):
        assert _calls_of(result.ir, f"{BOUND_PREFIX}walk") == 2  # one per call site, not per level
        assert _calls_of(result.ir, "reach_error") == 1
    assert len(deep.ir.splitlines()) == len(shallow.ir.splitlines())
    assert f"alloca [64 x i32]" in deep.ir and f"%{STACK_PREFIX}frame.n" in deep.ir


def test_mutual_recursion_is_inlined_into_one_head() -> None:
    result = compile_c(PROCEDURES / "even_odd_true.c", recursion_depth=16, call_stack=True)
    assert result.call_stack and recursive_functions(result.ir) == []
    assert plan_heads({"main": ["a"], "a": ["b"], "b": ["a", "c"], "c": ["b"]}).heads in (["a"], ["b"])
    with pytest.raises(NotStackable):  # no one member leaves the others acyclic
        plan_heads({"main": ["a"], "a": ["b", "c"], "b": ["a", "c"], "c": ["a", "b"]})


@pytest.mark.parametrize("program", [
    PROGRAMS / "local_array_true.c",  # an array per activation
    PROCEDURES / "tree_builder_true.c",  # malloc in the recursion
])
def test_what_the_stack_does_not_take_is_unrolled(program: Path) -> None:
    result = compile_c(program, recursion_depth=4, call_stack=True)
    assert not result.call_stack and result.recursion_depth == 4


def test_auto_unrolls_what_fits_and_stacks_the_rest() -> None:
    assert not compile_c(PROGRAMS / "tree_walk_false.c", recursion_depth=6).call_stack
    beyond = compile_c(PROGRAMS / "tree_walk_false.c", recursion_depth=19)
    assert beyond.call_stack and beyond.recursion_depth >= 19


# (sum_24_deep_false.c's FALSE on the stack, 48 steps deep, took BMC 20 s of the suite: it is in
# docs/benchmarks.md, "Recursion on a call stack"; deep_error_in_callee_false is the FALSE here)
@pytest.mark.parametrize("program, depth, verdict, line", [
    (PROCEDURES / "even_odd_true.c", 16, "true", None),
    (PROCEDURES / "deep_error_in_callee_false.c", 32, "false", 5),
    (PROGRAMS / "local_array_true.c", 8, "true", None),
])
def test_verdicts_on_the_stack(program: Path, depth: int, verdict: str, line: int | None) -> None:
    # (a FALSE by BMC alone: its trace is a step per call and per return, twice the depth)
    result = check_program(program, timeout=90, recursion_depth=depth, call_stack=True,
                           engine="bmc" if verdict == "false" else "portfolio")
    assert result.verdict == verdict, result.reason
    if verdict == "false":
        assert result.confirmation.startswith("replayed:"), result.confirmation
        assert result.error.line == line
    else:
        assert result.confirmation


def test_bound_reached_on_the_stack_is_its_own_outcome() -> None:
    """A run deeper than the stack is the recursion bound, never TRUE and never FALSE."""
    from llumc.check.portfolio import CheckOptions, CheckSchedule

    options = CheckOptions(engine="bmc", timeout=60, recursion_depth=8, call_stack=True)
    result = CheckSchedule(PROCEDURES / "sum_24_deep_false.c", options, None).run()
    assert result.verdict == "unknown" and result.call_stack and result.recursion_depth == 8
    assert result.error.kind == "recursion-bound"
    assert result.reason.startswith("recursion deeper than 8 calls ('sum' at sum_24_deep_false.c:3)"), result.reason


def test_recursion_option_is_checked() -> None:
    run = subprocess.run([sys.executable, "-m", "llumc", "encode", str(PROCEDURES / "even_odd_true.c"),
                          "--recursion", "sideways"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.strip() == "llumc: error: --recursion must be one of auto | unroll | stack, not 'sideways'"
