"""`int main(int argc, char **argv)`: argc and argv modelled (llumc.frontend.mainargs and the
argument objects of llumc/encoding/memory.py), counterexamples replayed with real arguments.
Real clang, real SAT solvers, real native runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.check.replay import ReplayExpectation, replay
from llumc.errors import UnsupportedError
from llumc.frontend.compile import compile_c
from llumc.frontend.mainargs import MODELLED_ARGUMENTS, MODELLED_BYTES

PROGRAMS = Path(__file__).parent / "programs" / "main_parameters"


def run_check(name: str, **options):
    return check_program(PROGRAMS / name, timeout=120, **options)


def llumc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "llumc", *args], capture_output=True, text=True, timeout=300)


def test_argc_is_at_least_one():
    completed = llumc("check", str(PROGRAMS / "argc_positive_true.c"), "--timeout", "120")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout.startswith("TRUE")


def test_argc_three_found_and_replayed_with_three_arguments():
    completed = llumc("check", str(PROGRAMS / "argc_three_false.c"), "--timeout", "120")
    assert completed.returncode == 10, completed.stdout + completed.stderr
    assert "arguments: argc = 3" in completed.stdout
    assert "confirmed: replayed: reach_error called at argc_three_false.c:3" in completed.stdout


@pytest.mark.parametrize("engine", ["portfolio", "bmc"])
def test_a_character_of_an_argument_leads_to_the_error(engine):
    result = run_check("argv_first_char_false.c", engine=engine)
    assert result.verdict == "false", result.reason
    assert result.error.line == 4
    assert 1 < result.argc < 1 << 16
    assert result.arguments[1].startswith('"x'), result.arguments
    assert "reach_error called at argv_first_char_false.c:4" in result.confirmation


def test_the_program_may_change_argv_and_its_strings():
    result = run_check("argv_modified_false.c")
    assert result.verdict == "false", result.reason
    assert result.argc == 2 and result.arguments[0].startswith('"q'), result.arguments


def test_argv_argc_is_null_and_the_arguments_before_it_are_not():
    result = run_check("argv_terminator_true.c")
    assert result.verdict == "true", result.reason


@pytest.mark.parametrize("m32", [pytest.param(False, marks=pytest.mark.slow), True])  # LP64: 11 s
def test_more_arguments_than_the_model_holds_is_unknown_never_true(m32):
    """True of every real run, but it reads argv[4], argv[5], … as far as argc goes."""
    result = run_check("argv_all_arguments_unknown.c", m32=m32)
    assert result.verdict == "unknown"
    assert result.reason.startswith(f"not modelled: read of {4 if m32 else 8} bytes of argv[{MODELLED_ARGUMENTS}] "
                                    "or a later argument"), result.reason
    assert result.reason.endswith("argv_all_arguments_unknown.c:6")


def test_more_bytes_of_an_argument_than_the_model_holds_is_unknown_never_true():
    # (BMC alone: the run that reads past the 16 bytes is 17 steps deep; the portfolio took 13-23 s)
    result = run_check("argv_long_string_unknown.c", engine="bmc")
    assert result.verdict == "unknown"
    assert f"read of 1 bytes of argv[0] past its first {MODELLED_BYTES} bytes" in result.reason, result.reason


def test_more_arguments_than_a_replay_passes_is_unknown():
    result = run_check("argc_huge_unknown.c")
    assert result.verdict == "unknown"
    assert "more arguments than a replay passes" in result.reason, result.reason


def test_a_used_envp_is_a_named_unknown():
    with pytest.raises(UnsupportedError) as caught:
        compile_c(PROGRAMS / "envp_unknown.c")
    assert caught.value.category == "main-parameters"
    assert str(caught.value) == "unsupported: use of the third parameter of main (envp) at envp_unknown.c:3"


def test_an_unused_argv_leaves_no_memory():
    ir = compile_c(PROGRAMS / "argc_three_false.c").ir
    assert "__llumc_argc" in ir and "__llumc_argv" not in ir and "alloca" not in ir


def test_the_replay_passes_its_arguments_to_the_program(tmp_path):
    program = tmp_path / "second.c"
    program.write_text("extern void reach_error(void);\n"
                       "int main(int argc, char **argv) {\n"
                       "  if (argc == 3 && argv[2][1] == 'q' && argv[0][0] == 0) reach_error();\n"
                       "  return 0;\n"
                       "}\n")
    expect = ReplayExpectation(kind="error-call", line=3)
    assert replay(program, [], expect, arguments=[b"", b"a", b"zq"]).confirmed
    missed = replay(program, [], expect, arguments=[b"", b"a", b"zz"])
    assert not missed.confirmed and missed.observed == "exit 0"
