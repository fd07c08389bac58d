"""Large-block encoding (`--scheme lbe`): real clang, real Boolector, real SAT solvers.

A step runs from a cut point (entry, loop heads) through the loop-free region to the next cut
point, so depths count loop iterations, not blocks. Depths are exact (see `depth`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.check.counterexample import confirm_counterexample
from llumc.check.portfolio import check_program
from llumc.encoding.terms import state_leaves
from llumc.pipeline import encode_file, executed_blocks, read_symbol_map
from solvers.api import solve
from test_encode import depth, encode, reachable

PROGRAMS = Path(__file__).parent / "programs"


def test_appendix_depth_under_lbe():
    """entry -> while.cond (1 step); x = 4294967194 + 2k wraps to 0 after 51 iterations, one
    step each (51); while.cond -> while.end -> failed assertion -> error (1): 53 steps, half the
    small-block depth of 106."""
    result = encode("appendix.c", scheme="lbe")
    assert depth(result.ts, 60) == 53
    # curr has 4 values (entry, while.cond, ok, error): 2 bits; x.0 is the only other variable
    assert (result.stats.blocks, result.stats.state_vars, result.stats.state_bits) == (2, 2, 34)
    symbols = read_symbol_map(result.ts.comments)
    assert symbols.scheme == "lbe"
    assert [name for name, _ in symbols.blocks.values()] == ["entry", "while.cond", "ok", "error"]
    assert set(symbols.members["while.cond"]) >= {"while.body", "while.end"}


def test_nested_loops():
    """Cut points entry, outer head, inner head. count == 9 needs n = m = 3 and every inner
    increment: entry 1; per outer iteration: enter the inner loop 1, three inner iterations 3,
    leave it (with i++) 1, i.e. 5 x 3 = 15; outer exit and the error call 1: 17 steps."""
    result = encode("nested_loops.c", scheme="lbe")
    assert len(read_symbol_map(result.ts.comments).blocks) == 3 + 2
    assert depth(result.ts, 30) == 17
    # the small-block encoding agrees, one block per step (its depth follows the front end's CFG)
    small = depth(encode("nested_loops.c", scheme="edge").ts, 60)
    assert small is not None and small > 17


def test_nested_loops_unreachable_variant(tmp_path):
    program = tmp_path / "nested10.c"
    program.write_text((PROGRAMS / "nested_loops.c").read_text().replace("count == 9", "count == 10"))
    assert depth(encode_file(program, scheme="lbe").ts, 25) is None


def test_loop_with_continue_and_break():
    """sum == 300 with i == 4: three values of 100, then a break in the 4th iteration:
    entry 1, three iterations 3, the breaking iteration with the error call 1."""
    assert depth(encode("break_continue.c", scheme="lbe").ts, 12) == 5
    small = depth(encode("break_continue.c", scheme="edge").ts, 40)
    assert small is not None and small > 5


def test_loop_with_continue_and_break_unreachable_variant(tmp_path):
    program = tmp_path / "bc400.c"
    program.write_text((PROGRAMS / "break_continue.c").read_text().replace("sum == 300", "sum == 400"))
    assert depth(encode_file(program, scheme="lbe").ts, 12) is None


def _signed32(value: int) -> int:
    return value - (1 << 32) if value >> 31 else value


@pytest.mark.parametrize("scheme", ["lbe", "edge", "paper"])
def test_trace_decoding_reads_both_branches_in_order(scheme):
    """Each iteration reads c, then a value in the branch c > 0 selects (line 8 or 10). The
    decoded inputs must be exactly the values the program reads, in order: the native replay
    confirms the error only then."""
    source = PROGRAMS / "check" / "branch_reads.c"
    encoded = encode_file(source, scheme=scheme)
    answer = solve(encoded.ts, engine="bmc")
    assert answer.status == "sat"
    result = confirm_counterexample(encoded, answer.trace, source)
    assert result.verdict == "false", result.reason
    assert result.error.line == 14
    reads = [(i.line, i.value) for step in result.trace for i in step.inputs]
    assert len(reads) == 6
    for (c_line, c), (v_line, _v) in zip(reads[::2], reads[1::2]):
        assert c_line == 6
        assert v_line == (8 if _signed32(c) > 0 else 10)
    assert sum(v for line, v in reads if line == 8) % 2**32 == 5
    assert sum(v for line, v in reads if line == 10) % 2**32 == 9
    if scheme == "lbe":  # one step per iteration: the blocks it ran follow the branch taken
        loop_steps = [step for step in result.trace if step.block == "for.cond"][:3]
        for step, (_line, c) in zip(loop_steps, reads[::2]):
            assert step.blocks[:2] == ["for.cond", "for.body"]
            assert step.blocks[2] == ("if.then" if _signed32(c) > 0 else "if.else")


def test_executed_blocks_of_ok_and_error_are_empty():
    encoded = encode_file(PROGRAMS / "check" / "branch_reads.c", scheme="lbe")
    answer = solve(encoded.ts, engine="bmc")
    assert executed_blocks(encoded, answer.trace[-1]) == []  # the error state
    assert executed_blocks(encoded, answer.trace[0]) == ["entry"]


IRREDUCIBLE = """
declare void @__VERIFIER_error()
declare i32 @__VERIFIER_nondet_int()
define i32 @main() {
entry:
  %c = call i32 @__VERIFIER_nondet_int()
  %z = icmp eq i32 %c, 0
  br i1 %z, label %a, label %b
a:
  %i = phi i32 [ 0, %entry ], [ %j, %b ]
  %k = add i32 %i, 1
  %hit = icmp eq i32 %k, TARGET
  br i1 %hit, label %err, label %b
b:
  %j = phi i32 [ 10, %entry ], [ %k, %a ]
  %small = icmp ult i32 %j, 20
  br i1 %small, label %a, label %exit
err:
  call void @__VERIFIER_error()
  unreachable
exit:
  ret i32 0
}
"""


@pytest.mark.parametrize("target, steps", [(5, 6), (15, 6), (25, None)])
def test_irreducible_loop_shares_a_block_between_regions(target, steps):
    """A loop with two entries (a, b): the DFS makes `a` the only loop cut point, so block b
    belongs to the entry's region (entering through b, j = 10) and to a's (j = k). Entering at
    a (c = 0): entry 1, a->b->a for i = 0..3 (4), i = 4 hits 5 (1): 6 steps. Entering at b:
    entry->b->a 1, i = 10..13 (4), i = 14 hits 15 (1): 6 steps. k never reaches 25 (j < 20)."""
    from llumc.frontend.cfg import read_main
    from llumc.pipeline import bitblast_system
    from llumc.frontend.compile import classify_call
    from llumc.encoding.lbe import cut_points
    from llumc.pipeline import build_transition_system
    import llvmlite.binding as llvm

    fn = read_main(llvm.parse_assembly(IRREDUCIBLE.replace("TARGET", str(target))), None, "irreducible.ll")
    assert cut_points(fn) == ["entry", "a"]
    word = build_transition_system(fn, classify=classify_call, scheme="lbe")
    assert [name for name, _ in word.step_blocks["entry"]] == ["entry", "b", "exit"]
    assert [name for name, _ in word.step_blocks["a"]][0] == "a" and "b" in dict(word.step_blocks["a"])
    ts, _stats = bitblast_system(word)
    assert depth(ts, 12) == steps
    edge, _ = bitblast_system(build_transition_system(fn, classify=classify_call, scheme="edge"))
    assert reachable(edge, 24) == (steps is not None)


def test_check_program_per_scheme():
    """`llumc check --scheme`: the same confirmed FALSE, in fewer steps with large blocks
    (nondet_bug: entry, 3 loop iterations, exit + error call = 5; small blocks: 10)."""
    from llumc.check.portfolio import check_program

    source = PROGRAMS / "check" / "nondet_bug.c"
    lbe = check_program(source, engine="bmc", timeout=60)
    edge = check_program(source, engine="bmc", timeout=60, scheme="edge")
    assert lbe.verdict == edge.verdict == "false", (lbe.reason, edge.reason)
    assert (lbe.steps, edge.steps) == (5, 10)
    assert lbe.error.line == edge.error.line == 11


def test_a_block_reached_only_after_error_calls_is_encoded():
    """Its phi has no entering edge taken in any step (each predecessor ends the step at the
    error call): large blocks crashed on it (max() of nothing) until 8769b40."""
    source = Path(__file__).parent / "programs" / "error_then_return.c"
    result = check_program(source, m32=True, timeout=60)
    assert result.verdict == "false" and result.internal_error is None


def _state_leaves(word, term) -> set[str]:
    """The state variables (IR names) a next-state term reads."""
    return {word.state[index].name for index in state_leaves(term)}


def test_a_loop_counter_does_not_depend_on_what_only_a_check_reads():
    """`j++` runs whether or not the swap does: its next value must not read the array. The
    writes are guarded without the checks (`LargeBlockEncoder._follow_branches`): only runs
    that end in `error` or `ok` see the difference, and there no value is read. Exact
    conditions made `j`'s next value read every cell (the swap's writes are checked), which
    CNF cannot see through without a case split on the swap."""
    encoded = encode_file(PROGRAMS / "check" / "swap_loop_true.c", scheme="lbe", m32=True)
    word = encoded.word
    by_c_name = {name: var for var in word.state for name in var.c_names}
    cells = {var.name for var in word.state if var.kind == "memory"}
    assert cells, "the array is encoded cell by cell"
    j = by_c_name["j"]
    assert not _state_leaves(word, word.next[j.index]) & cells
    filling_i = next(v for v in word.state if "i" in v.c_names)
    assert not _state_leaves(word, word.next[filling_i.index]) & cells
    # the block variable still reads them: the checking loop's error edge does
    assert _state_leaves(word, word.next[word.curr.index]) & cells


def test_the_step_into_error_shows_no_value_it_did_not_set(tmp_path):
    """The step that reaches the error call would, were the check to hold, add `x` to `sum`
    and increment `i`; its writes are guarded without the check, so the model's last state
    holds those values. The C-level trace must not show them: they were never set."""
    result = check_program(PROGRAMS / "check" / "writes_after_error.c", m32=True, timeout=30.0)
    assert result.verdict == "false", result.reason
    last = result.trace[-1]
    assert last.line == 9 or "if.then" in last.blocks, last
    assert not last.changes, last.changes
    assert [i.value for i in last.inputs] == [7]
