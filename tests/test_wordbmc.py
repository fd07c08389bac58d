"""The word-level BMC (llumc/wordbmc/bmc.py): deep bugs found and replayed natively, correct
programs never given a path that replays, its term folding checked against evaluation, and
its traces read back like the other engines'."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from llumc.check.counterexample import confirm_counterexample
from llumc.check.portfolio import check_program
from llumc.encoding.terms import TermBuilder, evaluate
from llumc.pipeline import TraceBits, encode_file, read_symbol_map
from llumc.encoding.terms import substitute
from llumc.wordbmc.bmc import implied_facts, word_bmc

HERE = Path(__file__).parent
PROGRAMS = HERE / "wordbmc_programs"


def _run(path: Path, seconds: float = 30.0, heap_pool: int = 4):
    encoded = encode_file(path, m32=True, heap_pool=heap_pool)
    return encoded, word_bmc(encoded, deadline=time.monotonic() + seconds)


def _deep_bugs() -> list:
    """The FALSE programs but the one behind 100 000 cells; the one behind 1 000 (17 s) is slow."""
    names = sorted(p.name for p in PROGRAMS.glob("*_false.c") if "100000" not in p.name)
    return [pytest.param(name, marks=[pytest.mark.slow] if "_1000_" in name else []) for name in names]


@pytest.mark.parametrize("name", _deep_bugs())
def test_deep_bug_found_and_replayed(name: str) -> None:
    """Each bug lies 100-4 000 steps deep (the DimSpec BMC reaches 30-40 in 20 s): found, and
    the native run of the program with the trace's inputs reaches the error. The arrays of more
    cells than the exact bound (2 000) are abstract: their contents are followed exactly by the
    unrolling (llumc/wordbmc/contents.py). The bug behind 100 000 cells (about 200 000 steps,
    40 s of the suite on two cores) is measured in docs/benchmarks.md instead."""
    encoded, found = _run(PROGRAMS / name, seconds=120.0)
    assert found.status == "error", found.reason
    result = confirm_counterexample(encoded, found.trace, PROGRAMS / name, m32=True, timeout=30)
    assert result.verdict == "false", result.reason
    assert "reach_error called" in result.confirmation


@pytest.mark.parametrize("name, depth", [("fill_10_true.c", 23),
                                         pytest.param("fill_1000_true.c", 2003, marks=pytest.mark.slow)])  # 6 s
def test_correct_program_explored_to_its_end(name: str, depth: int) -> None:
    """A correct program whose runs all end: unrolled to the end, every goal unreachable."""
    _encoded, found = _run(PROGRAMS / name)
    assert found.status == "unknown"
    assert found.reason == f"every run ends within {depth} steps"


@pytest.mark.parametrize("path, expected", [
    ("programs/arrays/copy_true.c", "true"), ("programs/arrays/copy_false.c", "false"),
    ("programs/arrays/double_fill_true.c", "true"), ("programs/arrays/double_fill_false.c", "false"),
    ("heap_programs/list_sum_true.c", "true"), ("heap_programs/list_sum_false.c", "false"),
    ("programs/memory/pointer_walk_true.c", "true"), ("programs/memory/pointer_walk_false.c", "false"),
    ("programs/memory/struct_array_true.c", "true"), ("programs/memory/struct_array_false.c", "false"),
])
def test_agrees_with_the_programs_verdicts(path: str, expected: str) -> None:
    """Cross-check on programs written for the other engines: a path on a FALSE program that
    replays; on a TRUE one none that replays (a list's path may end at the heap pools'
    allocation bound, which the replay never confirms)."""
    # the lists have 5 nodes; the correct programs' loops have nondeterministic bounds
    encoded, found = _run(HERE / path, seconds=10.0 if expected == "false" else 3.0, heap_pool=8)
    if expected == "false":
        assert found.status == "error", found.reason
    if found.status == "error":
        result = confirm_counterexample(encoded, found.trace, HERE / path, m32=True, timeout=30)
        assert result.verdict == expected if expected == "false" else result.verdict == "unknown", result.reason


def test_implied_facts_follow_and_or_not() -> None:
    tb = TermBuilder()
    a, b, c = (tb.input(i, 1) for i in range(3))
    both = tb.and_(a, b)
    either = tb.or_(tb.not_(a), c)
    facts = implied_facts([(both, 1), (either, 1)])
    # a ∧ b holds: a = b = 1; then ¬a ∨ c with ¬a = 0 gives c = 1
    assert facts[a.uid] == 1 and facts[b.uid] == 1 and facts[c.uid] == 1
    assert implied_facts([(tb.and_(a, b), 0)]).get(a.uid) is None  # undecided


def test_substitute_folds_to_the_evaluated_value() -> None:
    """Substituting constants for every leaf gives the value `evaluate` computes, and facts
    replace the terms they name."""
    tb = TermBuilder()
    x, y, flag = tb.state(0, 8), tb.input(1, 8), tb.input(2, 1)
    root = tb.ite(tb.op("ult", x, y), tb.op("add", x, y), tb.op("mul", x, tb.const(3, 8)))
    target = TermBuilder()
    for vx, vy in ((3, 200), (250, 7), (0, 0)):
        values = {("state", 0): vx, ("input", 1): vy}
        image = substitute(root, lambda t: target.const(values[(t.op, t.param)], t.width), target, {})
        assert image.op == "const" and image.param == evaluate(root, values)
    guarded = tb.ite(flag, x, y)
    image = substitute(guarded, lambda t: target.state(t.param, t.width) if t.op == "state"
                       else target.input(t.param, t.width), target, {})
    assert image.op == "ite"
    known = {target.input(2, 1).uid: 1}
    image = substitute(guarded, lambda t: target.state(t.param, t.width) if t.op == "state"
                       else target.input(t.param, t.width), target, {}, known)
    assert image is target.state(0, 8)


def test_word_assignment_reads_like_the_literal_list() -> None:
    """The trace's steps as words (`WordAssignment`) give every literal the dense list gives."""
    encoded = encode_file(PROGRAMS / "fill_10_true.c", m32=True)
    bits, symbols = TraceBits(encoded), read_symbol_map(encoded.ts.comments)
    state = tuple((3 * i + 1) & ((1 << v.width) - 1) for i, v in enumerate(encoded.word.state))
    inputs = {inp.index: 5 + inp.index for inp in encoded.word.inputs}
    dense, words = bits.assignment(state, inputs), bits.word_assignment(state, inputs)
    assert len(words) == len(dense) and list(words) == dense and words[-1] == dense[-1]
    for symbol in symbols.state + symbols.inputs:
        assert symbols.value(symbol, words) == symbols.value(symbol, dense)


def test_engine_word_bmc_on_the_command_path() -> None:
    result = check_program(PROGRAMS / "fill_one_wrong_10_false.c", engine="word-bmc", m32=True, timeout=60)
    assert result.verdict == "false" and result.engine == "word-bmc"
    result = check_program(PROGRAMS / "fill_10_true.c", engine="word-bmc", m32=True, timeout=60)
    assert result.verdict == "true" and result.engine == "word-bmc"
    assert result.confirmation == "every execution ends within 24 steps, and none of them fails (checked)"


@pytest.mark.parametrize("name, steps", [("bubble_sort_true.c", 34), ("insertion_sort_true.c", 25)])
def test_every_run_ended_is_a_proof_once_checked_on_the_bit_level(name: str, steps: int) -> None:
    """Sorts of a few cells: every run leaves main within a few dozen steps, none reaching
    error; checked on the DimSpec system (`check_ends`) that makes a TRUE. The insertion
    sort's inner loop ends after a different number of steps on each path: its finished cases
    are dropped only when the frontier is asked again (`Unrolling.feasible`)."""
    result = check_program(HERE / "programs" / "memory" / name, engine="word-bmc", m32=True, timeout=60)
    assert result.verdict == "true" and result.engine == "word-bmc", result.reason
    assert result.confirmation == f"every execution ends within {steps} steps, and none of them fails (checked)"
