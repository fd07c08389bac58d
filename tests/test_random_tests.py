"""Random tests (llumc.check.testing): native runs of the program on chosen values, whose
counterexample answers where the model's engines do not. Every program here is compiled and
run for real; each test asserts the verdict, the values of the run or why there is none."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from llumc.check.portfolio import check_program
from llumc.check.testing import RandomTests, ValueSource, _input_value, source_constants
from llumc.svcomp.witness import WitnessTask, default_specification, dump_witness, witness_for

PRELUDE = """extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "prog.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);
extern void *malloc(unsigned long);
extern void *realloc(void *, unsigned long);
"""
PRELUDE_LINES = PRELUDE.count("\n")


def _program(tmp_path: Path, body: str, name: str = "prog.c") -> Path:
    path = tmp_path / name
    path.write_text(PRELUDE + body)
    return path


def _tests(path: Path, prop: str = "unreach-call", seconds: float = 10.0, columns: bool = False) -> RandomTests:
    tests = RandomTests(path, prop, m32=False, clang=None, seconds=seconds, columns=columns)
    tests.go()
    tests.wait(seconds + 60.0)  # the first build of a machine builds zig's C library
    return tests


# a bug behind 20 000 iterations, hit by the value N - 1 (a program constant's neighbour)
SEARCH = """int a[20000];
int main(void) {
  int x = __VERIFIER_nondet_int(), found = 0;
  for (int i = 0; i < 20000; i++) a[i] = i;
  for (int i = 0; i < 20000; i++) if (a[i] == x) found = 1;
  if (found && x == 20000 - 1) reach_error();   /* line PRELUDE + 6 */
  return 0;
}
"""


def test_run_reaches_a_deep_error_with_a_constants_neighbour(tmp_path):
    tests = _tests(_program(tmp_path, SEARCH), columns=True)
    result = tests.result()
    assert result is not None, tests.reason
    assert result.verdict == "false" and result.engine == "random tests"
    assert [step.inputs[0].value for step in result.trace] == [19999]
    assert result.trace[0].line == PRELUDE_LINES + 3  # the nondet call's line
    assert result.trace[0].inputs[0].function == "__VERIFIER_nondet_int"
    assert result.error.kind == "error-call" and result.error.line == PRELUDE_LINES + 6  # the call of reach_error
    # the columns from the binary's line table, 1-based, as the witnesses take them
    lines = SEARCH.splitlines()
    assert result.error.column == lines[5].index("reach_error") + 1
    assert result.trace[0].inputs[0].column == lines[2].index("__VERIFIER_nondet_int") + 1


def test_no_run_reaches_an_unreachable_error(tmp_path):
    body = SEARCH.replace("x == 20000 - 1", "(x < 0 || x >= 20000)")
    tests = _tests(_program(tmp_path, body), seconds=3.0)
    assert tests.found is None and tests.result() is None
    assert tests.reason.startswith("no run reached the error"), tests.reason
    assert tests.runs > 3


def test_deterministic_program_runs_once(tmp_path):
    body = """int main(void) { int s = 0; for (int i = 0; i < 10; i++) s += i; if (s != 45) reach_error(); return 0; }\n"""
    tests = _tests(_program(tmp_path, body))
    assert tests.result() is None and tests.runs == 1, tests.reason


def test_invalid_access_before_the_error_is_no_evidence(tmp_path):
    # natively the write past the end may clobber anything; the tests' build traps there and
    # drops the run, though the error is reached right after it
    body = """int a[4];
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 8) return 0;
  a[i] = 7;
  if (i >= 4) reach_error();
  return 0;
}
"""
    tests = _tests(_program(tmp_path, body), seconds=3.0)
    assert tests.result() is None, tests.result() and tests.result().confirmation


def test_realloc_program_found_natively(tmp_path):
    # the model refuses realloc: the check would say UNKNOWN, the tests' run answers
    body = """int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 64) return 0;
  int *a = malloc(sizeof(int));
  if (!a) return 0;
  for (int i = 1; i < n; i++) { int *b = realloc(a, (i + 1) * sizeof(int)); if (!b) return 0; a = b; }
  for (int i = 0; i < n; i++) a[i] = i;
  if (a[n - 1] == 63) reach_error();
  return 0;
}
"""
    result = check_program(_program(tmp_path, body), timeout=30, random_tests=True)
    assert result.verdict == "false", result.reason
    assert result.engine == "random tests"
    assert [step.inputs[0].value for step in result.trace] == [64]


def test_overflow_found_by_its_trap(tmp_path):
    body = """int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 1000) x = x * 3000000;
  return x;
}
"""
    tests = _tests(_program(tmp_path, body), prop="no-overflow")
    result = tests.result()
    assert result is not None, tests.reason
    assert result.error.kind == "overflow" and result.error.line == PRELUDE_LINES + 3
    assert result.trace[0].inputs[0].value > 1000


# a buffer freed twice where n says so (line PRELUDE + 5), and one read after its free where n is
# odd (line PRELUDE + 7); a reach_error, no memory error, under valid-memsafety is no violation
MEMORY_BUGS = """extern void free(void *);
int main(void) {
  int n = __VERIFIER_nondet_int(), *a = malloc(4 * sizeof(int));
  free(a);
  if (n == 12345) free(a);
  if (n == 7) reach_error();
  if (n > 0 && n % 2 == 1 && n != 7) return a[1];
  return 0;
}
"""


# blocks of 5 bytes: each lies in one 16-byte granule of the harness's arena, then a gap
ODD_BLOCKS = """int main(void) {
  int n = __VERIFIER_nondet_int();
  char *a = malloc(5), *b = malloc(5);
  a[4] = 1; b[0] = 2; b[4] = 3;
  if (n == 77) return a[OFFSET];
  return a[4] + b[0] + b[4];
}
"""


@pytest.mark.parametrize("offset", [5, 16])
def test_an_access_past_a_block_traps_inside_its_granule_and_in_the_gap(tmp_path, offset):
    """The harness finds an access's block through the arena's 16-byte granules: a byte past
    the block's end but inside its granule (a[5]) and a byte in the gap after it (a[16]) are
    invalid dereferences; the accesses inside both blocks are not."""
    path = _program(tmp_path, ODD_BLOCKS.replace("OFFSET", str(offset)))
    result = _tests(path, prop="valid-memsafety").result()
    assert result is not None and [step.inputs[0].value for step in result.trace] == [77]
    assert (result.error.subproperty, result.error.line - PRELUDE_LINES) == ("valid-deref", 5)
    clean = _program(tmp_path, ODD_BLOCKS.replace("return a[OFFSET]", "return b[4]"), "clean.c")
    tests = _tests(clean, prop="valid-memsafety", seconds=3.0)
    assert tests.result() is None, tests.result() and tests.result().confirmation


def test_valid_memsafety_runs_name_the_subproperty(tmp_path):
    """The harness's free traps with a kind of its own (valid-free); an access to a freed
    block traps as an invalid dereference (valid-deref). Which one a run shows depends on its
    values: the double free needs the program's constant, the read any odd value but 7."""
    result = _tests(_program(tmp_path, MEMORY_BUGS), prop="valid-memsafety").result()
    assert result is not None and result.verdict == "false" and result.property == "valid-memsafety"
    (value,) = [step.inputs[0].value for step in result.trace]
    expected = ("valid-free", "invalid free", 5) if value == 12345 else ("valid-deref", "invalid dereference", 7)
    assert (result.error.subproperty, result.error.description, result.error.line - PRELUDE_LINES) == expected
    assert value == 12345 or (value > 0 and value % 2 == 1 and value != 7), value
    double_free = MEMORY_BUGS.replace("n > 0 && n % 2 == 1 && n != 7", "0")
    result = _tests(_program(tmp_path, double_free, "free.c"), prop="valid-memsafety").result()
    assert result is not None and [step.inputs[0].value for step in result.trace] == [12345]
    assert (result.error.subproperty, result.error.line - PRELUDE_LINES) == ("valid-free", 5)
    assert result.confirmation.startswith("native run") and "invalid free at free.c" in result.confirmation
    no_memory_bug = double_free.replace("if (n == 12345) free(a);", "")
    tests = _tests(_program(tmp_path, no_memory_bug, "clean.c"), prop="valid-memsafety", seconds=3.0)
    assert tests.result() is None, tests.result() and tests.result().confirmation


def test_values_read_as_the_calls_c_type():
    assert _input_value("__VERIFIER_nondet_char", 0x1FF, 5, False).value == -1
    assert _input_value("__VERIFIER_nondet_uint", -1, 5, False).value == 4294967295
    assert _input_value("__VERIFIER_nondet_int", (1 << 63) + 5, 5, False).value == 5
    assert _input_value("__VERIFIER_nondet_bool", 2, 5, False).value == 1
    assert _input_value("__VERIFIER_nondet_long", -2, 5, True).width == 32
    assert _input_value("__VERIFIER_nondet_float", 0x3F800000, 5, False).text == "1.0f"


def test_value_sequences():
    constants = source_constants("int a[1000]; if (x == 0x10) return 7;")
    assert constants[:4] == [1000, 16, 7, 999]
    assert -1000 in constants and 1001 in constants
    source = ValueSource(constants)
    assert source.values(0, 3) == [0, 0, 0]
    assert source.values(1, 3) == [0, 1, 2]
    assert source.values(2, 3) == [3, 2, 1]
    assert source.values(3, 2) == [1000, 1000]  # the first constant, for every value
    assert source.values(4, 50) == source.values(4, 50)  # seeded
    assert source.values(5, 2) == [16, 16]


# realloc: refused by the model (UNKNOWN at once), so the answer is always the tests'
FILL = """int main(void) {
  int *a = realloc(0, 3000 * sizeof(int));
  if (!a) return 0;
  for (int i = 0; i < 3000; i++) a[i] = __VERIFIER_nondet_char();
  if (a[2999] == 5 && a[0] == 5) reach_error();
  return 0;
}
"""


def test_long_counterexample_witness_and_output(tmp_path):
    path = _program(tmp_path, FILL)
    tests = _tests(path, columns=True)
    result = tests.result()
    assert result is not None, tests.reason
    assert len(result.trace) == 3000 and {step.inputs[0].value for step in result.trace} == {5}
    task = WitnessTask(path, default_specification("unreach-call", path), "LP64")
    witness = tmp_path / "witness.yml"
    dump_witness(witness_for(result, task), witness)
    entries = yaml.safe_load(witness.read_text())
    segments = entries[0]["content"]
    assert len(segments) == 3001  # one per value, then the target
    first = segments[0]["segment"][0]["waypoint"]
    assert first["type"] == "function_return" and first["constraint"]["value"] == "\\result == 5"
    assert first["location"]["line"] == PRELUDE_LINES + 4
    target = segments[-1]["segment"][0]["waypoint"]
    assert target["type"] == "target"
    assert target["location"]["column"] == FILL.splitlines()[4].index("reach_error") + 1
    assert first["location"]["column"] == FILL.splitlines()[3].index("__VERIFIER_nondet_char") + len(
        "__VERIFIER_nondet_char()")  # the call's closing parenthesis


def test_cli_shows_a_long_counterexample_by_its_ends(tmp_path):
    path = _program(tmp_path, FILL)
    proc = subprocess.run([sys.executable, "-m", "llumc", "check", str(path), "--timeout", "30", "--random-tests"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 10, proc.stdout + proc.stderr
    assert proc.stdout.startswith("FALSE")
    assert "a native run reading 3000 nondet values, found by random tests" in proc.stdout
    assert "2950 more lines (--json has them all)" in proc.stdout
    assert proc.stdout.count("__VERIFIER_nondet_char() = 5") == 50
    proc = subprocess.run([sys.executable, "-m", "llumc", "check", str(path), "--timeout", "30", "--json"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "LLUMC_RANDOM_TESTS": "1"})
    data = json.loads(proc.stdout)
    assert data["verdict"] == "false" and data["engine"] == "random tests"
    assert len(data["trace"]) == 3000


def test_not_run_beside_a_chosen_engine(tmp_path):
    # `--engine X` is that engine alone: its answer, not the tests'
    body = SEARCH.replace("20000", "20")
    result = check_program(_program(tmp_path, body), engine="bmc", timeout=30)
    assert result.verdict == "false" and result.engine == "bmc"


def test_off_by_option_and_environment(tmp_path):
    # realloc: the model refuses it, so the answer is the tests' or UNKNOWN
    path = _program(tmp_path, FILL)
    assert check_program(path, timeout=30, random_tests=False).verdict == "unknown"
    proc = subprocess.run([sys.executable, "-m", "llumc", "check", str(path), "--timeout", "30"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "LLUMC_RANDOM_TESTS": "0"})
    assert proc.stdout.startswith("UNKNOWN (unsupported: heap ('realloc')"), proc.stdout
