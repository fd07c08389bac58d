"""End-to-end tests of the encoder: real clang, real Boolector, real SAT solver.

Each test compiles a tiny C program, encodes it to DimSpec and checks the verdict by
unrolling (I(0) ∧ U(0..k) ∧ T ∧ G) with PySAT: `depth` is the exact shortest path length.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pysat.solvers import Solver

from solvers.dimspec import format_dimspec, parse_dimspec
from llumc.pipeline import encode_file, read_symbol_map
from llumc.errors import UnsupportedError

PROGRAMS = Path(__file__).parent / "programs"
EXAMPLES = Path(__file__).parent.parent / "examples"


def _unrolled(ts, k: int, goals: range) -> bool:
    """Is there a path of length k (k transitions) with G at one of the steps in `goals`?"""
    n = ts.n

    def at(clause, step):
        return [(abs(lit) + step * n) * (1 if lit > 0 else -1) for lit in clause]

    selectors = [2 * n * (k + 2) + step for step in goals]
    with Solver(name="cadical195") as solver:
        for clause in ts.init:
            solver.add_clause(at(clause, 0))
        for step in range(k + 1):
            for clause in ts.universal:
                solver.add_clause(at(clause, step))
            if step < k:
                for clause in ts.trans:
                    solver.add_clause(at(clause, step))
        for sel, step in zip(selectors, goals):
            for clause in ts.goal:
                solver.add_clause(at(clause, step) + [-sel])
        solver.add_clause(selectors)
        return solver.solve()


def depth(ts, max_k: int) -> int | None:
    """Shortest k <= max_k with a path to G, or None (one SAT call per candidate bound,
    checked exactly: unreachable below the answer, reachable at it)."""
    if not _unrolled(ts, max_k, range(max_k + 1)):
        return None
    lo, hi = 0, max_k  # reachable within hi, binary search the first step
    while lo < hi:
        mid = (lo + hi) // 2
        if _unrolled(ts, mid, range(mid + 1)):
            hi = mid
        else:
            lo = mid + 1
    assert _unrolled(ts, lo, range(lo, lo + 1))
    return lo


def reachable(ts, max_k: int) -> bool:
    """Is G reachable within max_k steps (one SAT call)?"""
    return _unrolled(ts, max_k, range(max_k + 1))


def encode(name: str, **kwargs):
    path = EXAMPLES / name if (EXAMPLES / name).exists() else PROGRAMS / name
    return encode_file(path, **kwargs)


# ----------------------------------------------------------------------------- the paper


@pytest.mark.parametrize("scheme", ["edge", "paper"])
def test_appendix_example_error_at_depth_106(scheme):
    """x = 4294967194 stepping by 2 wraps to 0 after 51 iterations (2 blocks each); then the
    assertion block, its error call and the error block: 1 + 2*51 + 1 + 3 = 106 steps."""
    result = encode("appendix.c", scheme=scheme)
    assert depth(result.ts, 106) == 106


def test_appendix_state_space_is_the_paper_minimum():
    edge = encode("appendix.c", scheme="edge").stats
    paper = encode("appendix.c", scheme="paper").stats
    # edge: curr (3 bits, 6 blocks + ok + error) and the phi x.0
    assert (edge.state_vars, edge.state_bits) == (2, 35)
    # paper: curr, pred, x.0 (used outside its block) and add (read by the phi at loop entry)
    assert (paper.state_vars, paper.state_bits) == (4, 70)


# ----------------------------------------------------------------------------- properties


@pytest.mark.parametrize("scheme, steps", [("edge", 14), ("lbe", 7)])
def test_loop_counter_reaches_error_after_five_iterations(scheme, steps):
    # edge: entry 0, while.cond 1,3,..,11 (i = 0..5), while.body 2,..,10, while.end 12
    # (i == 5), if.then 13 (the error call), error 14.
    # lbe: entry -> while.cond 1, one step per iteration (i = 0..4) 6, exit + error call 7
    assert depth(encode("loop_count.c", scheme=scheme).ts, 20) == steps


@pytest.mark.parametrize("scheme", ["edge", "paper", "lbe"])
def test_safe_loop_has_no_error_within_bound(scheme):
    assert depth(encode("safe_loop.c", scheme=scheme).ts, 12) is None


@pytest.mark.parametrize("scheme", ["edge", "paper", "lbe"])
def test_failed_assume_leads_to_ok(scheme):
    assert depth(encode("assume_blocks.c", scheme=scheme).ts, 8) is None


@pytest.mark.parametrize("scheme", ["edge", "lbe"])
def test_overflow_removed_by_optimiser_is_still_found(scheme):
    # the check runs in the entry step (edge: fused; lbe: the trap block is in entry's region)
    assert depth(encode("overflow_dead.c", prop="no-overflow", scheme=scheme).ts, 5) == 1
    # unfused (paper scheme): entry -> trap block -> error
    assert depth(encode("overflow_dead.c", prop="no-overflow", scheme="paper").ts, 5) == 2
    # without the overflow property the program is fine
    assert depth(encode("overflow_dead.c").ts, 5) is None


def test_overflow_check_idiom_per_property():
    # unreach-call (-fwrapv): INT_MAX + 1 < INT_MAX holds, reach_error is reachable
    assert reachable(encode("overflow_check_idiom.c").ts, 6)
    # no-overflow: the overflow itself is the error, and reach_error only leads to ok
    assert depth(encode("overflow_check_idiom.c", prop="no-overflow").ts, 6) == 1
    assert depth(encode("overflow_check_idiom.c", prop="all", scheme="paper").ts, 6) == 2


def test_fusion_keeps_verdicts_and_shrinks_the_system():
    fused = encode("overflow_check_idiom.c", prop="all", scheme="edge")
    unfused = encode("overflow_check_idiom.c", prop="all", scheme="edge", fuse=False)
    assert fused.stats.blocks < unfused.stats.blocks
    assert fused.stats.total_clauses < unfused.stats.total_clauses
    assert reachable(fused.ts, 4) and reachable(unfused.ts, 8)
    assert read_symbol_map(fused.ts.comments).fused  # the merged blocks are listed


@pytest.mark.parametrize("scheme", ["edge", "lbe"])
def test_no_overflow_ignores_error_calls(scheme):
    assert depth(encode("loop_count.c", prop="no-overflow", scheme=scheme).ts, 20) is None


# ----------------------------------------------------------------------------- instructions


@pytest.mark.parametrize("scheme", ["edge", "lbe"])
def test_every_integer_operator_on_concrete_values(scheme):
    """Error reachable iff add/sub/mul/sdiv/srem/udiv/urem/shl/ashr/lshr/and/or/xor, 64-bit
    sext+mul, trunc to i16/i8 all compute exactly what C says."""
    assert reachable(encode("arith.c", scheme=scheme).ts, 6)


@pytest.mark.parametrize("scheme", ["edge", "lbe"])
def test_operator_test_can_fail(tmp_path, scheme):
    """The same program with one wrong expected product: the error is unreachable."""
    wrong = tmp_path / "arith_wrong.c"
    wrong.write_text((PROGRAMS / "arith.c").read_text().replace("a * b == -185", "a * b == -186"))
    assert not reachable(encode_file(wrong, scheme=scheme).ts, 6)


@pytest.mark.parametrize("scheme", ["edge", "paper", "lbe"])
def test_switch_trunc_and_64_bit_constants(scheme):
    result = encode("switch_trunc.c", scheme=scheme)
    assert reachable(result.ts, 6)
    assert any(inp.hi - inp.lo + 1 == 64 for inp in read_symbol_map(result.ts.comments).inputs)


@pytest.mark.parametrize("scheme", ["edge", "paper", "lbe"])
def test_select_and_min_max(scheme):
    assert reachable(encode("select_minmax.c", scheme=scheme).ts, 6)


# ----------------------------------------------------------------------------- DimSpec layout


def test_dimspec_layout_is_strict_and_round_trips():
    result = encode("appendix.c")
    ts = result.ts
    state = ts.n - len(ts.aux)
    assert ts.aux == frozenset(range(state + 1, ts.n + 1))
    for clause in ts.trans:
        for lit in clause:
            assert abs(lit) <= ts.n or abs(lit) - ts.n <= state  # only state bits above n
    for section in (ts.init, ts.universal, ts.goal):
        assert all(abs(lit) <= ts.n for clause in section for lit in clause)
    text = format_dimspec(ts)
    back = parse_dimspec(text, "appendix.dimspec", warn=None)
    assert (back.n, back.init, back.universal, back.goal, back.trans) == (ts.n, ts.init, ts.universal, ts.goal, ts.trans)
    assert back.aux == ts.aux
    symbols = read_symbol_map(back.comments)
    assert symbols.prop == "unreach-call"
    assert [s.ir_name for s in symbols.state] == ["curr", "%x.0"]
    assert symbols.state[1].c_names == ["x"]
    assert symbols.blocks[len(symbols.blocks) - 1][0] == "error"


def test_formula_auxiliaries_are_disjoint():
    symbols = read_symbol_map(encode("select_minmax.c").ts.comments)
    ranges = [symbols.formula_aux[k] for k in "iugt"]
    for (lo1, hi1), (lo2, hi2) in zip(ranges, ranges[1:]):
        assert hi1 < lo2 or hi1 < lo1  # consecutive, non-overlapping


def test_unsupported_construct_is_one_clear_error(tmp_path):
    program = tmp_path / "long_double.c"
    program.write_text("int main(void) { long double d = 1.5L; volatile long double e = d * 2; return (int)e; }\n")
    with pytest.raises(Exception) as info:
        encode_file(program)
    assert isinstance(info.value, UnsupportedError) or "unsupported" in str(info.value).lower()


def test_division_by_zero_check_is_optional(tmp_path):
    program = tmp_path / "div.c"
    program.write_text("extern int __VERIFIER_nondet_int(void);\n"
                       "int main(void) { int y = __VERIFIER_nondet_int(); int x = 10 / y; return x; }\n")
    assert depth(encode_file(program, check_div_by_zero=True).ts, 3) == 1
    assert not reachable(encode_file(program).ts, 3)  # x / 0 has SMT-LIB semantics otherwise


def test_cli_encode_writes_dimspec_and_reports_bad_input(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "a.dimspec"
    run = subprocess.run([sys.executable, "-m", "llumc", "encode", str(EXAMPLES / "appendix.c"), "-o", str(out),
                          "--stats"], capture_output=True, text=True)
    assert run.returncode == 0 and "state bits       34" in run.stdout  # lbe: curr 2 bits + x.0
    assert parse_dimspec(out.read_text(), str(out), warn=None).n > 35
    bad = subprocess.run([sys.executable, "-m", "llumc", "encode", str(tmp_path / "missing.c")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "missing.c" in bad.stderr


_NAMES_PROGRAM = """
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
int total = 0;
static void add(int x) { total += x; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < 3; i++) {
    if (n > i) add(i);
  }
  if (total == 3) __VERIFIER_error();
  return 0;
}
"""


def test_value_names_dropped_for_large_sources_with_the_same_encoding(tmp_path):
    """Over `VALUE_NAMES_UP_TO_BYTES` of C clang drops the IR's value names (faster front end);
    the transition system is the same, only its symbol comments say `bb3` for `for.cond`."""
    from llumc.frontend.compile import VALUE_NAMES_UP_TO_BYTES, compile_c, keeps_value_names

    small = tmp_path / "small.c"
    small.write_text(_NAMES_PROGRAM)
    large = tmp_path / "large.c"
    large.write_text("/*" + " " * VALUE_NAMES_UP_TO_BYTES + "*/" + _NAMES_PROGRAM)
    assert keeps_value_names(small) and not keeps_value_names(large)
    assert "for.cond" in compile_c(small).ir
    assert "for.cond" not in compile_c(large).ir  # the policy by default

    named, unnamed = (encode_file(small, value_names=names) for names in (True, False))
    named_text, unnamed_text = format_dimspec(named.ts), format_dimspec(unnamed.ts)

    def clauses(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith("c ")]
    assert clauses(named_text) == clauses(unnamed_text)
    assert "for.cond" in named_text and "for.cond" not in unnamed_text
    assert _unrolled(named.ts, 5, range(6)) and not _unrolled(named.ts, 4, range(5))  # 0 + 1 + 2 when n > 2
