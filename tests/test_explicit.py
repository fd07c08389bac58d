"""The explicit-state engine (llumc/explicit/explore.py): TRUE only with its state set checked by fresh
SAT calls, FALSE only replayed; the native step computes what the Python step computes."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from llumc.bench.runner import answered_by
from llumc.check.portfolio import check_program
from llumc.pipeline import encode_file
from llumc.explicit.explore import _GiveUp, explore, input_representatives, merge_cubes
from llumc.invariants.simulate import compile_step
from llumc.explicit.native_step import NativeStep
from solvers.check import check_invariant, state_set_gap
from solvers.setinv import invariant_from_states
from solvers.transys import TransitionSystem

PROGRAMS = Path(__file__).parent / "programs"
ECA = (PROGRAMS / "eca_small.c").read_text()


def eca(tmp_path: Path, condition: str) -> Path:
    path = tmp_path / "eca.c"
    path.write_text(ECA.replace("ERROR_CONDITION", condition))
    return path


def test_eca_system_true_by_its_checked_state_set(tmp_path):
    # `out` is free data (any input is stored in it): the state set is finite only because
    # nothing that matters reads `out` (the explorer sets it to 0), as in RERS programs.
    # input == 5 never holds: main returns on inputs outside 1..3
    path = eca(tmp_path, "input == 5")
    found = explore(encode_file(path, m32=True), deadline=time.monotonic() + 30)
    assert found.status == "true" and found.states > 3
    result = check_program(path, m32=True, engine="explicit", timeout=60)
    assert result.verdict == "true" and result.engine == "explicit"
    assert "checked" in result.confirmation and "reachable states" in result.confirmation
    # proven on the encoded system: the bench never credits loop invariants a search kept beside it
    assert result.strengthened is False
    assert answered_by({**result.to_json(), "invariant_search": {"kept": 3}}) == "explicit"


def test_eca_system_false_by_a_replayed_path(tmp_path):
    path = eca(tmp_path, "input == 1")
    result = check_program(path, m32=True, engine="explicit", timeout=60)
    assert result.verdict == "false" and result.engine == "explicit"
    assert result.confirmation.startswith("replayed")
    # the shortest path: inputs 1, 2, 3, then 1 at the error
    read = [i.value for step in result.trace for i in step.inputs]
    assert read == [1, 2, 3, 1]


STORE_BITS = """extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main(void) {
  unsigned mode = 0;
  while (__VERIFIER_nondet_int()) {
    unsigned char c = __VERIFIER_nondet_uchar();
    if (mode == 0) mode = (c & 3) + 1;
    else if (mode == 4) mode = 9;
  }
  if (mode > 9) __VERIFIER_error();
  if (mode == 5) __VERIFIER_error();
  return 0;
}
"""


def test_data_inputs_are_learned_from_the_checks_counterexamples(tmp_path):
    # c flows into arithmetic: its representatives start as {0, 1}, which never gives mode 3,
    # 4 or 9; the SAT check's counterexamples bring in the other values until the set closes
    path = tmp_path / "bits.c"
    path.write_text(STORE_BITS)
    encoded = encode_file(path, m32=True)
    c = next(i for i in encoded.word.inputs if i.site == "__VERIFIER_nondet_uchar")
    assert input_representatives(encoded.word)[c.index] == ([0, 1], False)
    found = explore(encoded, deadline=time.monotonic() + 30)
    assert found.status == "true" and found.refinements >= 1


def test_false_found_only_through_a_learned_value(tmp_path):
    path = tmp_path / "bits_false.c"
    path.write_text(STORE_BITS.replace("mode == 5", "mode == 3"))
    result = check_program(path, m32=True, engine="explicit", timeout=60)
    assert result.verdict == "false" and result.engine == "explicit"


def test_a_counter_exceeds_the_state_limit_and_answers_nothing(tmp_path):
    path = tmp_path / "count.c"
    path.write_text("""extern void __VERIFIER_error(void);
int main(void) { unsigned i = 0; while (i < 100000) i++; if (i != 100000) __VERIFIER_error(); return 0; }
""")
    found = explore(encode_file(path, m32=True), deadline=time.monotonic() + 30, max_states=1000)
    assert found.status == "unknown" and "more than 1000 states" in found.reason


def _counter_system(modulus_bits: int = 2) -> TransitionSystem:
    """A 2-bit counter x1 x2 (x1 low) from 0, +1 every step; G: the counter is 3."""
    n = modulus_bits
    trans = [[-(n + 1), -1], [n + 1, 1],  # x1' = ¬x1
             # x2' = x2 xor x1
             [-(n + 2), 2, 1], [-(n + 2), -2, -1], [n + 2, -2, 1], [n + 2, 2, -1]]
    return TransitionSystem(n=n, init=[[-1], [-2]], goal=[[1], [2]], trans=trans)


def test_a_state_set_is_checked_never_trusted():
    ts = _counter_system()
    zero, one, two, three = [-1, -2], [1, -2], [-1, 2], [1, 2]
    assert state_set_gap(ts, [zero, one, two])[0] == "inductive"  # 2 -> 3 leaves the set
    assert state_set_gap(ts, [one, two, three])[0] == "initial"
    assert state_set_gap(ts, [zero, one, two, three])[0] == "goal"
    ts.goal = [[1], [2], [-1]]  # unreachable goal: the full cycle is a certificate
    assert state_set_gap(ts, [zero, one, two, three]) is None
    assert state_set_gap(ts, [[1, -1]])[0] == "initial"  # the empty set


@pytest.mark.parametrize("name", ["break_continue.c", "nested_loops.c", "select_minmax.c", "switch_trunc.c",
                                  "overflow_check_idiom.c", "arith.c"])
def test_native_step_agrees_with_the_python_step(name):
    word = encode_file(PROGRAMS / name, m32=True).word
    rng = random.Random(name)
    curr = next(v.index for v in word.state if v.kind == "block")
    for code in range(len(word.blocks) - 1):
        python, native = compile_step(word, code), NativeStep(word, code)
        for _ in range(200):
            s = [rng.choice([0, 1, 2, rng.getrandbits(v.width)]) & ((1 << v.width) - 1) for v in word.state]
            s[curr] = code
            x = [rng.choice([0, 1, rng.getrandbits(i.width)]) & ((1 << i.width) - 1) for i in word.inputs]
            assert native(s, x) == python.fn(list(s), x)


def test_merged_cubes_cover_exactly_the_same_states():
    rng = random.Random(7)
    bits = range(1, 7)

    def covered(cubes):
        return {a for a in range(64) if any(all((a >> (abs(l) - 1) & 1) == (l > 0) for l in c) for c in cubes)}

    for _ in range(50):
        states = {rng.getrandbits(6) for _ in range(rng.randint(1, 40))}
        cubes = [[v if s >> (v - 1) & 1 else -v for v in bits] for s in states]
        merged = merge_cubes(cubes)
        assert covered(merged) == states
        assert len(merged) <= len(cubes)
    full = [[v if s >> (v - 1) & 1 else -v for v in bits] for s in range(64)]
    assert merge_cubes(full) == [[]]  # every state: the empty cube
    # past its time the merging gives up (16 000 states of 450 bits took minutes)
    with pytest.raises(_GiveUp, match="timeout"):
        merge_cubes(full, stop_at=time.monotonic() - 1)


def test_clauses_from_a_state_set_keep_every_state_and_are_checked():
    # x1 toggles, x2 keeps its initial 0; the goal x2 = 1 is unreachable
    ts = TransitionSystem(n=2, init=[[-1], [-2]], goal=[[2]],
                          trans=[[-3, -1], [3, 1], [-4, 2], [4, -2]])
    found = invariant_from_states(ts, [[-1, -2], [1, -2]])
    assert found.status == "invariant"
    check_invariant(ts, found.clauses)
    assert all(any(lit in state for lit in c) for c in found.clauses for state in ([-1, -2], [1, -2]))
    # a cycle 00 -> 10 -> 01 -> 00 and the goal 11: the set {00} misses reachable states, and
    # the clauses that keep only it run into the step from 00 out of it, which is handed back
    cycle = TransitionSystem(n=2, init=[[-1], [-2]], goal=[[1], [2]],
                             trans=[[-3, -1], [-3, -2], [3, 1, 2], [-4, 1], [4, -1]])
    missing = invariant_from_states(cycle, [[-1, -2]])
    assert missing.status == "missing"
    assert {lit for lit in missing.model if abs(lit) <= 4} == {-1, -2, 3, -4}
    whole = invariant_from_states(cycle, [[-1, -2], [1, -2], [-1, 2]])
    assert whole.status == "invariant"
    check_invariant(cycle, whole.clauses)
    # a set with a goal state in it yields nothing
    assert invariant_from_states(ts, [[-1, -2], [1, 2]]).status == "unknown"


def test_inputs_under_unary_operators_are_data(tmp_path):
    # (unsigned char)x is an extract of x: one argument, no constant to compare with
    path = tmp_path / "neg.c"
    path.write_text("""extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main(void) { unsigned char s = 0; while (s < 3) { int x = __VERIFIER_nondet_int(); s = (unsigned char)x; if (s == 2) __VERIFIER_error(); } return 0; }
""")
    encoded = encode_file(path, m32=True)
    reps = input_representatives(encoded.word)
    assert [exact for _values, exact in reps.values()] == [False]
    assert check_program(path, m32=True, engine="explicit", timeout=60).verdict == "false"


def test_clauses_over_whole_words_first():
    # two 2-bit words a = (x1, x2), b = (x3, x4), both constant 0 from the start; goal: a = 3
    ts = TransitionSystem(n=4, init=[[-1], [-2], [-3], [-4]], goal=[[1], [2]],
                          trans=[[-5, 1], [5, -1], [-6, 2], [6, -2], [-7, 3], [7, -3], [-8, 4], [8, -4]])
    found = invariant_from_states(ts, [[-1, -2, -3, -4]], groups=[[1, 2], [3, 4]])
    assert found.status == "invariant"
    check_invariant(ts, found.clauses)
    assert all(abs(lit) in (1, 2) for c in found.clauses for lit in c)  # b's word dropped whole


WIDE = """extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main(void) {
  unsigned long long x = 0;
  long long q = 0;
  while (__VERIFIER_nondet_int()) {
    unsigned long long y = __VERIFIER_nondet_ulonglong();
    x = (x ^ y) / (y | 0x8000000000000000ULL);
    q = (long long)y / ((long long)x - 1) % 7;
    if (x > 0xFFFFFFFFFFFFFFF0ULL) __VERIFIER_error();
  }
  return 0;
}
"""


def test_native_step_agrees_on_64_bit_values(tmp_path):
    path = tmp_path / "wide.c"
    path.write_text(WIDE)
    word = encode_file(path, m32=True).word
    rng = random.Random(64)
    curr = next(v.index for v in word.state if v.kind == "block")
    for code in range(len(word.blocks) - 1):
        python, native = compile_step(word, code), NativeStep(word, code)
        for _ in range(300):
            s = [rng.choice([0, 1, (1 << v.width) - 1, 1 << (v.width - 1), rng.getrandbits(v.width)])
                 for v in word.state]
            s[curr] = code
            x = [rng.choice([0, 1, (1 << i.width) - 1, 1 << (i.width - 1), rng.getrandbits(i.width)])
                 for i in word.inputs]
            assert native(s, x) == python.fn(list(s), x)


def test_seed_clauses_that_a_state_breaks_are_left_out():
    ts = TransitionSystem(n=2, init=[[-1], [-2]], goal=[[2]],
                          trans=[[-3, -1], [3, 1], [-4, 2], [4, -2]])
    found = invariant_from_states(ts, [[-1, -2], [1, -2]], seeds=[[-1], [-2]])
    assert found.status == "invariant"
    assert [-1] not in found.clauses and [-2] in found.clauses  # x1 = 1 is a state of the set
    check_invariant(ts, found.clauses)
