"""`llumc check` end to end: real clang, real SAT solvers, real replays of counterexamples."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from llumc.check.counterexample import confirm_counterexample
from llumc.check.portfolio import check_program
from llumc.pipeline import encode_file
from solvers.api import solve
from solvers.check import CheckFailed, check_trace

PROGRAMS = Path(__file__).parent / "programs" / "check"


def run_check(name: str, **options):
    return check_program(PROGRAMS / name, timeout=60, **options)


@pytest.mark.parametrize("engine", ["portfolio", "bmc", "ic3"])
def test_false_with_nondet_inputs_every_engine(engine):
    result = run_check("nondet_bug.c", engine=engine)
    assert result.verdict == "false", result.reason
    assert result.error is not None and result.error.line == 11
    assert "__VERIFIER_error" in result.confirmation


def test_false_trace_line_by_line():
    """The counterexample names the inputs in the order read, the loop iterations and the error."""
    result = run_check("nondet_bug.c", engine="bmc")
    assert result.verdict == "false"
    inputs = [(i.function, i.value, i.line) for step in result.trace for i in step.inputs]
    assert inputs == [("__VERIFIER_nondet_int", 42, 4), ("__VERIFIER_nondet_int", 45, 5)]
    shown = [(step.line, step.changes) for step in result.trace if step.changes]
    assert shown == [
        (4, {"x": 42, "y": 45, "steps": 0}),
        (8, {"steps": 1}),
        (8, {"steps": 2}),
        (8, {"steps": 3}),
    ]
    assert result.error.description == "__VERIFIER_error() reached"


def test_true_with_checked_invariant():
    result = run_check("clamp_safe.c", engine="ic3")
    assert result.verdict == "true", result.reason
    assert result.engine == "ic3"
    assert result.invariant_clauses is not None


@pytest.mark.parametrize("engine", ["portfolio", "kind", "bmc"])
def test_true_of_a_loop_free_program_by_the_forward_condition(engine):
    """No execution of a loop-free program is longer than its few steps: BMC's forward condition
    proves it without an invariant (k-induction's step case may be first, at k = 1)."""
    result = run_check("clamp_safe.c", engine=engine)
    assert result.verdict == "true", result.reason
    if engine == "bmc":
        assert result.engine == "bmc" and "no execution is longer than 2 steps" in result.confirmation
    elif result.engine == "kind":
        assert "no execution is longer than" in result.confirmation or "1-induction" in result.confirmation



def test_a_true_says_whether_it_rests_on_the_loop_invariants():
    """`strengthened`: k-induction alone runs on the strengthened system, IC3 with
    --no-invariants on the encoded one, and a loop-free program has no search at all."""
    loop = Path(__file__).parent / "programs" / "loops" / "updown_true.c"
    kind = check_program(loop, engine="kind", m32=True, timeout=60)
    assert (kind.verdict, kind.strengthened) == ("true", True) and kind.invariants
    # (IC3 alone needs more than a minute for i + j == n: whatever it answers in 5 s, no search ran)
    plain = check_program(loop, engine="ic3", m32=True, timeout=5, invariants=False)
    assert plain.strengthened is None and not plain.invariants
    both = check_program(loop, m32=True, timeout=60)
    assert both.verdict == "true" and both.strengthened in (True, False)
    # whichever system the proof is on, the invariants printed were checked
    assert both.invariants and both.invariant_search["kept"]

@pytest.mark.parametrize("direction", ["backward", "both"])
def test_ic3_from_the_error_gives_the_same_checked_verdicts(direction):
    """Backward IC3's invariant is checked against the reversed system, and its path is turned
    around and replayed natively like any other."""
    true = run_check("clamp_safe.c", engine="ic3", ic3_direction=direction)
    assert true.verdict == "true", true.reason
    false = run_check("nondet_bug.c", engine="ic3", ic3_direction=direction)
    assert false.verdict == "false", false.reason
    assert false.error is not None and false.error.line == 11


def test_bmc_alone_does_not_prove_a_loop_that_may_run_for_ever():
    """BMC's only proof is the forward condition: a loop under a nondet condition has simple
    paths of every length (x grows), so it stays UNKNOWN."""
    result = check_program(PROGRAMS.parent / "safe_loop.c", engine="bmc", timeout=3)
    assert result.verdict == "unknown"
    assert "timeout" in result.reason


def test_overflow_false_is_replayed_at_its_line():
    result = run_check("overflow_bug.c", prop="no-overflow")
    assert result.verdict == "false", result.reason
    assert result.error.kind == "overflow" and result.error.line == 6
    assert 2147483647 - 1000 < result.trace[0].inputs[0].value <= 2147483647  # x + 1000 overflows
    assert "overflow" in result.confirmation


def test_overflow_wraps_under_unreach_call():
    """The same program has no reachable error call: signed arithmetic wraps for unreach-call."""
    assert run_check("overflow_bug.c", prop="unreach-call").verdict == "true"


def test_no_overflow_true():
    result = run_check("overflow_safe.c", prop="no-overflow")
    assert result.verdict == "true", result.reason


def test_unsupported_construct_is_unknown_with_reason():
    result = run_check("float_unsupported.c")
    assert result.verdict == "unknown"
    assert "floating point" in result.reason and "float_unsupported.c:4" in result.reason


def test_corrupted_trace_is_refused():
    """A trace whose nondet inputs were changed fails the model check and does not replay."""
    encoded = encode_file(PROGRAMS / "nondet_bug.c")
    answer = solve(encoded.ts, engine="bmc")
    assert answer.status == "sat"
    genuine = confirm_counterexample(encoded, answer.trace, PROGRAMS / "nondet_bug.c")
    assert genuine.verdict == "false"

    corrupted = [list(step) for step in answer.trace]
    from llumc.pipeline import read_symbol_map

    symbols = read_symbol_map(encoded.ts.comments)
    first = symbols.inputs[0]
    for var in range(first.lo, first.hi + 1):  # x := ~x in the first step
        corrupted[0][var - 1] = -corrupted[0][var - 1]
    with pytest.raises(CheckFailed):
        check_trace(encoded.ts, corrupted)
    refused = confirm_counterexample(encoded, corrupted, PROGRAMS / "nondet_bug.c")
    assert refused.verdict == "unknown"
    assert "not confirmed" in refused.reason


def llumc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "llumc", *args], capture_output=True, text=True, timeout=120)


def test_cli_json_and_exit_codes():
    false = llumc("check", str(PROGRAMS / "nondet_bug.c"), "--json", "--engine", "bmc")
    assert false.returncode == 10, false.stderr
    data = json.loads(false.stdout)
    assert data["verdict"] == "false" and data["property"] == "unreach-call" and data["engine"] == "bmc"
    assert set(data) >= {"verdict", "property", "engine", "steps", "seconds", "reason", "trace"}

    true = llumc("check", str(PROGRAMS / "clamp_safe.c"), "--engine", "ic3")
    assert true.returncode == 0, true.stderr
    assert true.stdout.splitlines()[0] == "TRUE"

    unknown = llumc("check", str(PROGRAMS / "float_unsupported.c"))
    assert unknown.returncode == 3
    assert unknown.stdout.startswith("UNKNOWN (unsupported: long double (x87 80-bit floating point)")


def test_cli_bad_input_is_one_line_exit_2(tmp_path):
    missing = llumc("check", str(tmp_path / "nope.c"))
    assert missing.returncode == 2
    assert missing.stderr.count("\n") == 1 and "nope.c" in missing.stderr
    assert "Traceback" not in missing.stderr
    bad_property = llumc("check", str(PROGRAMS / "clamp_safe.c"), "--property", "memsafety")
    assert bad_property.returncode == 2 and "--property" in bad_property.stderr
    bad_direction = llumc("check", str(PROGRAMS / "clamp_safe.c"), "--ic3-direction", "sideways")
    assert bad_direction.returncode == 2 and "--ic3-direction" in bad_direction.stderr
    for args in (["check", str(PROGRAMS / "clamp_safe.c"), "--bogus"], ["check"], ["nosuchcommand"]):
        usage = llumc(*args)
        assert usage.returncode == 2 and usage.stderr.count("\n") == 1, usage.stderr


@pytest.mark.parametrize("m32", [False, True])
def test_false_needing_values_of_uninitialised_locals_is_confirmed(m32):
    """The model picks u, and t in each inlined copy of pick(); the replay build starts those
    locals from the model's values (by front-end site, in order), not from stack garbage."""
    result = check_program(PROGRAMS / "uninit_bug.c", engine="bmc", timeout=60, m32=m32)
    assert result.verdict == "false", result.reason
    assert result.error.line == 17
    assert "__VERIFIER_error called at uninit_bug.c:17" in result.confirmation


def test_trace_values_follow_the_c_types():
    """Signed C variables and nondet results print signed, unsigned ones unsigned."""
    result = run_check("signedness.c", engine="bmc")
    assert result.verdict == "false", result.reason
    inputs = [(i.function, i.value) for step in result.trace for i in step.inputs]
    assert inputs == [("__VERIFIER_nondet_int", -3), ("__VERIFIER_nondet_uint", 3999999998)]
    final = {}
    for step in result.trace:
        final.update(step.changes)
    assert final["x"] == -5 and final["u"] == 4000000000


@pytest.mark.parametrize("m32", [False, True])
@pytest.mark.parametrize("name, verdict", [("nondet_bug.c", "false"), ("clamp_safe.c", "true")])
def test_preprocessed_input_gives_the_verdict_of_its_source(tmp_path, name, verdict, m32):
    """A `.i` file (made here by the real clang's -E, line markers included) goes through the
    same front end and replay as its `.c`: zig cc used to hand a `.i` to clang with zig's own
    target name, which failed under --32 ("unknown target triple 'x86-unknown-linux-gnu'")."""
    from llumc.frontend.compile import clang_command

    command, _ = clang_command(None)
    preprocessed = tmp_path / (Path(name).stem + ".i")
    subprocess.run([*command, "-E", "-o", str(preprocessed), str(PROGRAMS / name)], check=True,
                   capture_output=True)
    assert preprocessed.read_text().startswith("# 1 ")
    result = check_program(preprocessed, timeout=60, m32=m32)
    assert result.verdict == verdict, result.reason
    if verdict == "false":
        assert result.error.line == 11 and "__VERIFIER_error" in result.confirmation


def test_a_program_reached_through_a_symlink_is_replayed_with_its_own_includes(tmp_path):
    """`#include "assert.h"` in a file reached through a symlink: clang looks beside the link,
    not beside its target (here: no assert.h beside the link, so the C library's). The replay
    must compile what the front end compiled; it once resolved the link, took the target's
    assert.h (defining __VERIFIER_assert), stopped at another line and left the FALSE UNKNOWN."""
    target_dir, link_dir = tmp_path / "target", tmp_path / "links"
    target_dir.mkdir()
    link_dir.mkdir()
    (target_dir / "assert.h").write_text(
        "extern void __VERIFIER_error(void);\n"
        "void __VERIFIER_assert(int cond) {\n  if (!(cond)) {\n    ERROR: __VERIFIER_error();\n  }\n}\n")
    source = target_dir / "prog.c"
    source.write_text('#include "assert.h"\nextern int __VERIFIER_nondet_int(void);\n'
                      "void __VERIFIER_assert(int cond);\nint main(void) {\n"
                      "  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();\n"
                      "  __VERIFIER_assert(a >= a);\n  __VERIFIER_assert(b != 7 || a != 3);\n"
                      "  __VERIFIER_assert(b == b);\n  return 0;\n}\n")
    link = link_dir / "prog.c"
    link.symlink_to(source)
    for path in (source, link):
        result = check_program(path, timeout=60, m32=True)
        assert result.verdict == "false", (path, result.reason)
        assert result.error.line in (4, 7), (path, result.error)


def test_phases_of_a_false_answer_in_order():
    """`phases` (the JSON's): the seconds of each phase the check went through, replay last."""
    result = run_check("nondet_bug.c", engine="bmc")
    assert result.verdict == "false"
    assert list(result.phases) == ["encoding", "engines", "replay"]
    assert all(seconds >= 0 for seconds in result.phases.values())
    assert result.to_json()["phases"] == result.phases


def test_json_of_a_false_answer_is_its_dataclasses_as_dicts():
    """`to_json` converts the trace by hand (fast on 100 000 steps): the same data as
    `dataclasses.asdict`, and nothing shared with the result that a caller could change."""
    from dataclasses import asdict

    result = run_check("nondet_bug.c", engine="bmc")
    assert result.verdict == "false" and result.trace and any(step.inputs for step in result.trace)
    data = result.to_json()
    assert data == {**asdict(result), "seconds": round(result.seconds, 3)}
    data["trace"][0]["changes"]["x"] = "changed"
    data["trace"][-1]["inputs"].clear()
    assert result.to_json() == {**asdict(result), "seconds": round(result.seconds, 3)}
