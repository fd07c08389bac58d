"""Allocations of nondeterministic size as SV-COMP's rules read them (docs/memory.md,
"Allocations of nondeterministic size"): under unreach-call and no-overflow a VLA or a
`malloc(sizeof(int) * n)` succeeds with the size asked, computed without wrap-around; a VLA of
length <= 0 gets no bytes, so only an access to it is a fault; valid-memsafety keeps its faults
at the allocation. Programs in tests/programs/memory/allocation, TRUE or FALSE by construction
(reason in their first line), each checked by llumc and natively (tests/nondet_driver.c).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from tests.test_loop_programs import build_native, run_native

PROGRAMS = Path(__file__).parent / "programs" / "memory" / "allocation"
TIMEOUT = 60.0
# small inputs, negative and zero lengths among them: natively the TRUE programs never reach
# the error on any of them (a VLA of length <= 0 that is never accessed is harmless natively)
SMALL = [-1, 0, 1, 2, 3, 7, 8, 1000, 1001]
VECTORS = [[a, b] + [0] * 4 for a in SMALL for b in SMALL]


def _native(path: Path, vectors: list[list[int]], tmp_path: Path, m32: bool) -> list[str]:
    binary = tmp_path / (path.stem + (".32" if m32 else ".64"))
    build_native(path, binary, m32=m32)
    return [outcome for outcome, _ in run_native(binary, vectors)]


@pytest.mark.parametrize("m32", [True, False], ids=["ilp32", "lp64"])
@pytest.mark.parametrize("name", ["vla_checked_after_true", "malloc_bounded_true"])
def test_nondeterministic_sizes_checked_after_allocation_are_true(name: str, m32: bool, tmp_path: Path) -> None:
    """Declared (or allocated) before the check, or as large as INT_MAX / 4 ints: TRUE, where
    the allocation fault made it UNKNOWN before; natively no small input reaches the error."""
    path = PROGRAMS / f"{name}.c"
    result = check_program(path, m32=m32, timeout=TIMEOUT)
    assert result.verdict == "true", result.reason
    outcomes = _native(path, VECTORS, tmp_path, m32)
    assert "error" not in outcomes and "diverged" not in outcomes, outcomes


def test_no_overflow_reads_allocations_as_unreach_call_does() -> None:
    result = check_program(PROGRAMS / "vla_checked_after_true.c", m32=True, timeout=TIMEOUT, prop="no-overflow")
    assert result.verdict == "true", result.reason


@pytest.mark.parametrize("m32", [True, False], ids=["ilp32", "lp64"])
def test_a_bug_behind_a_vla_checked_after_is_false_and_replayed(m32: bool, tmp_path: Path) -> None:
    path = PROGRAMS / "vla_checked_after_false.c"
    result = check_program(path, m32=m32, timeout=TIMEOUT)
    assert result.verdict == "false", result.reason
    assert result.confirmation.startswith("replayed:"), result.confirmation
    inputs = [i.value for step in result.trace for i in step.inputs]
    assert _native(path, [inputs + [0] * 4], tmp_path, m32) == ["error"]


@pytest.mark.parametrize("name, line", [("vla_accessed_before_check", 7), ("malloc_past_end", 9)])
def test_accesses_outside_such_objects_are_faults(name: str, line: int) -> None:
    """A write to a VLA of length <= 0, a write one past a malloc'd buffer: undefined behaviour
    under unreach-call (UNKNOWN with the line, never TRUE)."""
    result = check_program(PROGRAMS / f"{name}.c", m32=True, timeout=TIMEOUT)
    assert result.verdict == "unknown", result.reason
    assert "invalid memory access" in result.reason and f"{name}.c:{line}" in result.reason, result.reason


def test_past_the_end_of_a_malloc_of_nondeterministic_size_is_false_under_valid_memsafety() -> None:
    result = check_program(PROGRAMS / "malloc_past_end.c", m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict == "false", result.reason
    assert result.error.kind == "memory" and result.error.line == 9, result.error
    assert result.confirmation.startswith("replayed:"), result.confirmation


def test_valid_memsafety_keeps_the_fault_at_the_allocation(tmp_path: Path) -> None:
    """valid-memsafety's stricter reading is unchanged: a VLA whose length is checked only after
    its declaration may be negative or over 2 GiB there, a fault at the declaration (line 6):
    never TRUE; a FALSE or UNKNOWN names that allocation."""
    result = check_program(PROGRAMS / "vla_checked_after_true.c", m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict in ("false", "unknown"), result.reason
    assert result.error is not None and result.error.line == 6, (result.reason, result.error)
    assert "allocation of nondeterministic size" in result.error.description, result.error


def test_a_counterexample_through_a_huge_vla_is_not_replayed() -> None:
    """The error needs a VLA of over 400 MB: the model reaches it (allocation never fails), but
    natively such a VLA overruns the stack (under ILP32 its size may even wrap), so the replay
    could not be trusted: UNKNOWN, never FALSE, never TRUE."""
    result = check_program(PROGRAMS / "vla_huge.c", m32=False, timeout=TIMEOUT)
    assert result.verdict == "unknown", result.reason
    assert "not confirmed" in result.reason and "native run does not reproduce" in result.reason, result.reason


def test_an_object_too_large_for_the_address_space_compared_by_address(tmp_path: Path) -> None:
    """A VLA declared before its check whose address a comparison needs: under ILP32 its size
    (4 * n bytes for n up to INT_MAX) may exceed the address space, where no address can be
    chosen: UNKNOWN (not modelled), never TRUE by cutting those runs. Under LP64 it fits: TRUE."""
    program = tmp_path / "vla_compare.c"
    program.write_text("extern int __VERIFIER_nondet_int(void);\n"
                       "extern void reach_error(void);\n"
                       "int main(void) {\n"
                       "  int n = __VERIFIER_nondet_int();\n"
                       "  int a[n];\n"
                       "  int b[3];\n"
                       "  int *p = __VERIFIER_nondet_int() ? a : b;\n"
                       "  if (n <= 0 || n > 10) return 0;\n"
                       "  if (p == b && p == a) reach_error();\n"
                       "  return 0;\n"
                       "}\n")
    narrow = check_program(program, m32=True, timeout=TIMEOUT)
    assert narrow.verdict == "unknown" and "not modelled" in narrow.reason and "address space" in narrow.reason, \
        narrow.reason
    wide = check_program(program, m32=False, timeout=TIMEOUT)
    assert wide.verdict == "true", wide.reason
