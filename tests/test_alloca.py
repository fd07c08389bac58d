"""`alloca` called as a declared function (llumc.frontend.compile.alloca_as_instruction): the
stack allocation of `__builtin_alloca`, which clang makes of it only where the declaration has
<alloca.h>'s type. Before, such a program was `UNKNOWN (unsupported: heap ('alloca'))`.
The replay links the harness's `alloca` (no C library defines one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.frontend.compile import alloca_as_instruction

PROGRAM = """extern void *alloca(unsigned long);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100) return 0;
  int *a = alloca(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  if (CONDITION) reach_error();
  return 0;
}
"""


def _program(tmp_path: Path, name: str, condition: str) -> Path:
    path = tmp_path / f"{name}.c"
    path.write_text(PROGRAM.replace("CONDITION", condition))
    return path


# (ILP32: there the declaration's `unsigned long` is not size_t, and clang leaves a call)
def test_a_declared_alloca_is_a_stack_allocation(tmp_path: Path) -> None:
    path = _program(tmp_path, "alloca_true", "a[n - 1] != n - 1")
    result = check_program(path, m32=True, timeout=60.0)
    assert result.verdict == "true", result.reason


def test_a_bug_in_a_declared_alloca_is_replayed(tmp_path: Path) -> None:
    path = _program(tmp_path, "alloca_false", "n == 7 && a[n - 1] == 6")
    result = check_program(path, m32=True, timeout=60.0)
    assert result.verdict == "false", result.reason
    assert result.confirmation.startswith("replayed: reach_error called"), result.confirmation


def test_only_calls_of_a_declared_alloca_are_rewritten() -> None:
    call = "  %call = call ptr @alloca(i32 noundef %mul), !dbg !31\n"
    text = "define i32 @main() {\n" + call + "  ret i32 0\n}\ndeclare ptr @alloca(i32 noundef)\n"
    assert "  %call = alloca i8, i32 %mul, align 16, !dbg !31\n" in alloca_as_instruction(text)
    own = text.replace("declare ptr @alloca(i32 noundef)", "define ptr @alloca(i32 %n) {\n  ret ptr null\n}")
    assert alloca_as_instruction(own) == own
