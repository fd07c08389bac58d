"""A second tracked cell for an array two cells of which one comparison reads (docs/memory.md,
cell morphing): `a[k] > a[k + 1]` is exact at both cells, so such a check is proven on the
abstraction, and a violation is still found. Real clang, real Boolector, real SAT solvers."""

from __future__ import annotations

from pathlib import Path

from llumc.pipeline import encode_file
from solvers.api import solve

PAIR_CHECK = """\
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[1000];
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 999) return 0;
  a[k] = FIRST;
  a[k + 1] = 2;
  if (a[k] > a[k + 1]) reach_error();
  return 0;
}
"""


def _encoded(tmp_path: Path, first: int):
    path = tmp_path / f"pair_{first}.c"
    path.write_text(PAIR_CHECK.replace("FIRST", str(first)))
    return encode_file(path, m32=True, exact_cells=8)


def test_an_array_compared_with_itself_gets_two_tracked_cells(tmp_path: Path) -> None:
    encoded = _encoded(tmp_path, 1)
    (array,) = encoded.word.memory_objects
    assert array.abstract
    assert array.tracked_index is not None and array.pair_index is not None
    assert array.pair_index is not array.tracked_index
    assert [value.c_names for _index, _offset, value in array.tracked_cells()] == [["a[#]"], ["a[#2]"]]


def test_two_cells_compared_are_exact_on_the_abstraction(tmp_path: Path) -> None:
    """With one tracked cell the second read is any value and the check fails on the
    abstraction; with two it holds (IC3 proves the one-step system), and with a[k] = 3 the
    violation is found."""
    assert solve(_encoded(tmp_path, 1).ts, engine="ic3", timeout=30).status == "unsat"
    assert solve(_encoded(tmp_path, 3).ts, engine="bmc", timeout=30).status == "sat"
