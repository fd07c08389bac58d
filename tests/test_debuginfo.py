"""The C view of a block (`DebugInfo.scope_at`): which SSA value holds each C variable at a loop
head, the loop's own location and function. Loop invariants are printed (and go into witnesses)
by these names, so a wrong holder would print a false invariant."""

from __future__ import annotations

from pathlib import Path

from llumc.check.portfolio import check_program
from llumc.frontend.compile import compile_c


def compile_text(tmp_path: Path, text: str, columns: bool = True):
    path = tmp_path / "prog.c"
    path.write_text(text)
    return compile_c(path, m32=True, columns=columns)


def test_a_variable_is_named_where_its_last_value_was_given(tmp_path):
    front = compile_text(tmp_path, """\
int main(void) {
  int g = 0, j = 0;
  while (g < 3) {
    g++;
    for (j = 0; j < 2; j++) {
    }
  }
  return g;
}
""")
    outer, inner = front.debug.scope_at("while.cond"), front.debug.scope_at("for.cond")
    # the outer head's phi is g there; after g++ the incremented value is g at the inner head
    assert outer.holders["g"] != inner.holders["g"]
    assert "j" not in outer.holders  # 0 from the entry, the inner loop's value from the back edge
    assert (outer.line, outer.column, outer.function) == (3, 3, "main")
    assert (inner.line, inner.column, inner.function) == (5, 5, "main")


def test_without_columns_a_location_is_its_line(tmp_path):
    program = """\
int main(void) {
  int g = 0;
  while (g < 3) g++;
  return g;
}
"""
    with_columns = compile_text(tmp_path, program)
    without = compile_text(tmp_path, program, columns=False)
    head = without.debug.scope_at("while.cond")
    assert (head.line, head.column, head.function) == (3, None, "main")
    assert with_columns.debug.scope_at("while.cond").column == 3
    # one location per line: the IR is smaller, the code the same
    assert len(without.ir) < len(with_columns.ir)
    strip = lambda ir: [line.split(", !dbg")[0] for line in ir.splitlines() if line.startswith("  ")]
    assert strip(without.ir) == strip(with_columns.ir)


def test_a_loop_of_an_inlined_function_sees_only_its_own_variables(tmp_path):
    front = compile_text(tmp_path, """\
extern int __VERIFIER_nondet_int(void);
int sum(int n) {
  int s = 0;
  for (int k = 0; k < n; k++) {
    s += k;
  }
  return s;
}
int main(void) {
  int m = __VERIFIER_nondet_int();
  int total = sum(m);
  return total;
}
""")
    [head] = [b for b in ("for.cond.i", "for.cond") if front.debug.scope_at(b) is not None]
    view = front.debug.scope_at(head)
    assert view.function == "sum" and view.line == 4
    assert {"s", "k", "n"} <= set(view.holders) and "m" not in view.holders


def test_a_global_is_named_in_every_function_and_shadowed_by_a_local(tmp_path):
    """Globals used only by main (and its inlined callees) become locals of main: their values
    must keep the global's C name at a loop head of an inlined function, or no fact about them
    is printed (token_ring's state lives in globals)."""
    front = compile_text(tmp_path, """\
extern int __VERIFIER_nondet_int(void);
int token;
int local;
int count;
void step(void) {
  for (int count = 0; count < 2; count++) {
    token++;
  }
}
void run(int n) {
  for (int k = 0; k < n; k++) {
    step();
  }
}
int main(void) {
  token = __VERIFIER_nondet_int();
  local = token;
  run(__VERIFIER_nondet_int());
  return token - local + count;
}
""")
    heads = [b for b in ("for.cond.i", "for.cond.i.i") if front.debug.scope_at(b) is not None]
    assert len(heads) == 2
    run_view, step_view = (front.debug.scope_at(b) for b in heads)
    assert run_view.function == "run" and step_view.function == "step"
    for view in (run_view, step_view):
        assert {"token", "local"} <= set(view.holders) and "n" not in step_view.holders
    # the global count is never written: it is the constant 0, held by no value; step's own
    # `count` shadows it there
    assert "count" not in run_view.holders
    assert step_view.holders["count"] != step_view.holders["token"]


def test_an_inner_declaration_shadows_the_outer_one(tmp_path):
    front = compile_text(tmp_path, """\
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x;
  {
    int x = 5;
    while (y < 10) {
      y += x;
    }
  }
  return y + x;
}
""")
    view = front.debug.scope_at("while.cond")
    # the inner x is the constant 5: no SSA value holds it, and the outer x is hidden
    assert "x" not in view.holders and "y" in view.holders


def test_printed_invariants_name_the_values_at_each_loop_head(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text("""\
extern void __VERIFIER_error(void);
int main(void) {
  int g = 0, j = 0;
  while (g < 3) {
    g++;
    for (j = 0; j < 2; j++) {
    }
  }
  if (g != 3) __VERIFIER_error();
  return 0;
}
""")
    result = check_program(path, timeout=30, m32=True)
    assert result.verdict == "true", result.reason
    inner = next(inv for inv in result.invariants if inv["line"] == 6)
    # g is 1..3 at the inner head (after g++), never 0; and no IR name is shown
    assert "g >= 1" in inner["expression"] and "g >= 0" not in inner["expression"], inner
    assert all("%" not in inv["expression"].replace(" % ", "") for inv in result.invariants)
