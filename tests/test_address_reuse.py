"""Addresses a real allocator hands out again (docs/memory.md, "Allocation model").

After `free(a)` a later `malloc` may return a's address (glibc usually does); a dangling
pointer then compares equal to the new one. llumc's model picks every compared object's
address where it is allocated, apart from the objects alive then, so a dead object's address
may come back; the replay's allocator hands a freed block out again exactly where the
counterexample says so. Each program's verdict is asserted, each FALSE replayed by llumc, and
the programs whose bug needs the reuse are also run natively under the replay's allocator.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.check.replay import ReplayExpectation, replay

HEADER = "#include <stdlib.h>\nextern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n"


def _check(tmp_path: Path, body: str, name: str = "prog", **options):
    path = tmp_path / f"{name}.c"
    path.write_text(HEADER + "int main(void) {\n" + body + "\n  return 0;\n}\n")
    return path, check_program(path, timeout=60.0, **options)


def test_a_freed_block_handed_out_again_reaches_the_error(tmp_path: Path) -> None:
    path, result = _check(tmp_path, """
  long *a = malloc(sizeof(long));
  free(a);
  long *b = malloc(sizeof(long));
  if (a == b) reach_error();
  free(b);""")
    assert result.verdict == "false", result.reason
    assert "replayed" in result.confirmation and result.error.line == 9


def test_the_double_free_after_reuse_is_false_under_valid_memsafety(tmp_path: Path) -> None:
    path, result = _check(tmp_path, """
  int *y = malloc(sizeof(int));
  free(y);
  int *x = malloc(sizeof(int));
  if (x == y) free(x);
  free(x);""", prop="valid-memsafety")
    assert result.verdict == "false", result.reason
    assert result.error.line == 10 and "replayed" in result.confirmation


def test_a_use_after_free_is_false_whatever_the_allocator_did(tmp_path: Path) -> None:
    path, result = _check(tmp_path, """
  int *a = malloc(sizeof(int));
  free(a);
  int *b = malloc(sizeof(int));
  *b = 1;
  if (a == b) b[0] = 2;
  *a = 3;
  free(b);""", prop="valid-memsafety")
    assert result.verdict == "false", result.reason
    assert result.error.line == 11


@pytest.mark.parametrize("prop", ["unreach-call", "valid-memsafety"])
def test_blocks_alive_together_never_share_an_address(tmp_path: Path, prop: str) -> None:
    path, result = _check(tmp_path, """
  long *a = malloc(sizeof(long));
  long *b = malloc(2 * sizeof(long));
  int *c = malloc(sizeof(int));
  free(a);
  int *d = malloc(sizeof(int));
  if (b == (long *)c || b == (long *)d || c == d) reach_error();
  free(b); free(c); free(d);""", prop=prop)
    assert result.verdict == "true", result.reason


def test_only_a_dead_block_comes_back(tmp_path: Path) -> None:
    """Three allocations, the first freed: the third may get its address, never the second's."""
    body = """
  int *a = malloc(sizeof(int));
  int *b = malloc(sizeof(int));
  free(a);
  int *c = malloc(sizeof(int));
  if (c == %s) reach_error();
  free(b); free(c);"""
    _, result = _check(tmp_path, body % "a", "first")
    assert result.verdict == "false", result.reason
    _, result = _check(tmp_path, body % "b", "second")
    assert result.verdict == "true", result.reason


def test_one_past_the_end_may_meet_another_object(tmp_path: Path) -> None:
    """`&a[2] == &b[0]` holds wherever the compiler puts b right after a: never TRUE."""
    _, result = _check(tmp_path, """
  int a[2], b[2];
  a[0] = a[1] = b[0] = b[1] = __VERIFIER_nondet_int();
  int *end = &a[2], *start = &b[0];
  if (end == start) reach_error();""")
    assert result.verdict != "true", result.reason


def test_a_pointer_far_outside_its_object_is_undecided(tmp_path: Path) -> None:
    _, result = _check(tmp_path, """
  int a[4] = {0};
  int *p = a + 8 + (__VERIFIER_nondet_int() & 1);
  if (p < a) reach_error();""")
    assert result.verdict == "unknown"
    assert "comparison of pointers outside their objects" in result.reason, result.reason


def test_the_replay_allocator_follows_the_choices(tmp_path: Path) -> None:
    """Natively: with the choice `1 0` the second malloc gets the first's freed block and
    the error is reached; with every block new it is not."""
    path = tmp_path / "reuse.c"
    path.write_text(HEADER + """int main(void) {
  long *a = malloc(sizeof(long));
  free(a);
  long *b = malloc(sizeof(long));
  if (a == b) reach_error();
  return 0;
}
""")
    expect = ReplayExpectation(kind="error-call", line=8)
    assert replay(path, [], expect, heap_reuse=[(1, 0)]).confirmed
    assert not replay(path, [], expect, heap_reuse=[]).confirmed


def test_a_choice_the_run_cannot_follow_is_no_verdict(tmp_path: Path) -> None:
    """The block of allocation 0 is still alive when allocation 1 asks for it."""
    path = tmp_path / "alive.c"
    path.write_text(HEADER + """int main(void) {
  long *a = malloc(sizeof(long));
  long *b = malloc(sizeof(long));
  if (a == b) reach_error();
  return 0;
}
""")
    result = replay(path, [], ReplayExpectation(kind="error-call", line=7), heap_reuse=[(1, 0)])
    assert not result.confirmed
