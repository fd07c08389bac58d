"""Candidate loop invariants from concrete runs (`llumc.invariants.simulate`, `.candidates`):
real clang, the word-level system, `llumc.encoding.terms.evaluate` as the reference.

Every candidate must evaluate to 1 on every sample it was proposed from, and its C expression
must say the same thing about the named C variables (checked by evaluating both)."""

from __future__ import annotations

import random
import re
import time
from fractions import Fraction
from pathlib import Path

import pytest

from llumc.pipeline import encode_file
from llumc.invariants.candidates import Candidate, Var, _Builder, cut_variables, propose
from llumc.invariants.simulate import Scale, compile_step, reference_step, scaled_constants, simulate
from llumc.encoding.terms import TermBuilder, evaluate, mask, to_signed
from llumc.encoding.transys import StateVar

PROGRAMS = Path(__file__).parent / "programs"
HEADER = ("extern void __VERIFIER_error(void); extern int __VERIFIER_nondet_int(void); "
          "extern void __VERIFIER_assume(int);\n")

SOURCES = {
    "updown": """int main(void) { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n >= 0 && n < 1000000);
  int i = 0, j = n; while (i < n) { i++; j--; }
  if (i + j != n) __VERIFIER_error(); if (i != n) __VERIFIER_error(); return 0; }""",
    "double": """int main(void) { int x = 0, i = 0; while (i < 100) { x += 2; i++; }
  if (x != 200) __VERIFIER_error(); return 0; }""",
    "gauss": """int main(void) { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(n >= 0 && n <= 1000);
  int s = 0, i = 0; while (i < n) { i++; s += i; }
  if (2 * s != n * n + n) __VERIFIER_error(); return 0; }""",
    "uchar": """int main(void) { unsigned char c = 0; int k = 0; while (k < 300) { c++; k++; }
  if (c != 44) __VERIFIER_error(); return 0; }""",
    "reach": """int main(void) { int x = __VERIFIER_nondet_int(); int k = 0;
  while (k < 3) { if (x == 7 && k == 2) __VERIFIER_error(); k++; x = __VERIFIER_nondet_int(); } return 0; }""",
    "straight": """int main(void) { int x = __VERIFIER_nondet_int(); if (x > 5) return 1; return 0; }""",
    "forever": """int main(void) { int x = 0; while (__VERIFIER_nondet_int() != 12345) { x++; } return 0; }""",
    "nested": """int main(void) { int s = 0;
  for (int pass = 0; pass < 50; pass++) for (int j = 0; j + 1 < 50 - pass; j++) s++;
  if (s != 1225) __VERIFIER_error(); return 0; }""",
}


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    root = tmp_path_factory.mktemp("invariants")
    cache = {}

    def get(name: str):
        if name not in cache:
            path = root / f"{name}.c"
            path.write_text(HEADER + SOURCES[name])
            cache[name] = encode_file(path, m32=True)
        return cache[name]

    return get


def _c_values(variables: list[Var], state: dict[int, int]) -> dict[str, int]:
    return {v.name: v.value(state[v.index]) for v in variables}


def _holds(expression: str, values: dict[str, int]) -> bool:
    """The C expression over mathematical integers (our forms: + - * == <= < >= ^ &, `%` only
    as divisibility or on non-negative values, where C and Python agree; an equation over
    `(unsigned)` casts is one modulo 2**32)."""
    if expression.startswith("(") and expression.endswith(")") and " || " in expression:
        guard, fact = expression[1:-1].split(" || ", 1)  # a disjunction `(guard || fact)`
        return _holds(guard, values) or _holds(fact, values)
    expression = expression.replace("(long long)", "")  # exact: as Python computes
    modulus = None
    for cast, bits in (("(unsigned long long)", 64), ("(unsigned)", 32)):
        if cast in expression:
            expression, modulus = expression.replace(cast, ""), 1 << bits
    names = sorted(values, key=len, reverse=True)
    text = expression
    for name in names:
        text = re.sub(rf"(?<![\w%.]){re.escape(name)}(?![\w.])", f"({values[name]})", text)
    assert re.fullmatch(r"[\d\s()+\-*%=!<>^&]+", text), f"unresolved name in {expression!r}: {text!r}"
    if modulus is not None:
        left, right = text.split("==")
        return (eval(left) - eval(right)) % modulus == 0  # noqa: S307 - digits and operators only
    return bool(eval(text))  # noqa: S307 - digits and operators only (checked above)


def _check(encoded, samples, cands: list[Candidate]) -> None:
    """Each candidate's term is 1 and its expression true on every sample of its cut point."""
    variables = {cut: cut_variables(encoded.word, encoded.debug, cut, encoded.fn) for cut in samples.states}
    for cand in cands:
        assert cand.term.width == 1
        for state in samples.states[cand.cut]:
            leaves = {("state", k): v for k, v in state.items()}
            assert evaluate(cand.term, leaves) == 1, (cand.expression, state)
            if "%" not in re.sub(r" % ", "", cand.expression):  # IR names (%k.0) are not C
                assert _holds(cand.expression, _c_values(variables[cand.cut], state)), (cand.expression, state)


def _at(cands: list[Candidate], cut: str, kind: str | None = None) -> list[Candidate]:
    return [c for c in cands if c.cut == cut and (kind is None or c.kind == kind)]


def _variables(expression: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_]\w*", expression))


def test_updown_loop(programs):
    encoded = programs("updown")
    samples = simulate(encoded.word, seed=0, seconds=5, max_samples=800)
    cands = propose(encoded.word, encoded.debug, samples, fn=encoded.fn)
    _check(encoded, samples, cands)
    head = _at(cands, "while.cond")
    linear = [c for c in head if c.kind == "linear" and _variables(c.expression) == {"i", "j", "n"}]
    assert [c.expression for c in linear] == ["i + j == n"]
    # it means i + j == n: true and false where it should be
    assert _holds(linear[0].expression, {"i": 2, "j": 3, "n": 5})
    assert not _holds(linear[0].expression, {"i": 2, "j": 4, "n": 5})
    assert "i <= n" in [c.expression for c in head if c.kind == "order"]
    assert "i >= 0" in [c.expression for c in head if c.kind == "bound"]
    assert not _at(cands, "entry")  # the entry only holds initial (partly random) states
    # %call holds n (and j, initially): n is the name no other variable claims
    names = {v.state.name: v.name for v in cut_variables(encoded.word, encoded.debug, "while.cond")}
    assert names == {"%call": "n", "%i.0": "i", "%j.0": "j"}


def test_a_loop_guard_weakened_by_one_step_is_a_fact_at_its_head(programs):
    """`j + 1 < 50 - pass` stays in the inner loop: `j + pass <= 49` holds at its head (the
    runs see it, but with `pass` 0 in most samples `linear` does not find it)."""
    encoded = programs("nested")
    samples = simulate(encoded.word, seed=0, seconds=5, max_samples=800)
    cands = propose(encoded.word, encoded.debug, samples, fn=encoded.fn)
    _check(encoded, samples, cands)
    inner = [cut for cut in samples.states if cut.startswith("for.cond") and
             any(v.name == "j" for v in cut_variables(encoded.word, encoded.debug, cut, encoded.fn))]
    assert len(inner) == 1
    assert "j + pass <= 49" in [c.expression for c in _at(cands, inner[0], "linear")]
    # and nowhere else: the outer loop's exit (the inner one's too) leaves through its head
    assert all("j + pass" not in c.expression for c in cands if c.cut != inner[0])


def test_double_loop(programs):
    encoded = programs("double")
    samples = simulate(encoded.word, seed=1, seconds=5)
    cands = propose(encoded.word, encoded.debug, samples)
    _check(encoded, samples, cands)
    head = [c.expression for c in _at(cands, "while.cond")]
    assert "x == 2*i" in head
    assert "i <= 100" in head
    assert "x % 2 == 0" not in head  # implied by x == 2*i


def test_gauss_sum_polynomial(programs):
    encoded = programs("gauss")
    samples = simulate(encoded.word, seed=2, seconds=5, max_samples=800)
    cands = propose(encoded.word, encoded.debug, samples)
    _check(encoded, samples, cands)
    poly = _at(cands, "while.cond", "polynomial")
    assert [c.expression for c in poly] == ["2*s == i*i + i"]
    # exact, not modulo 2**32: 2*s == i*i + i with i = 65536, s = 2**31 + 32768 holds modulo 2**32
    # (s wraps to -2**31 + 32768) but not over the integers; the term must say false there
    term = poly[0].term
    names = {v.name: v for v in cut_variables(encoded.word, encoded.debug, "while.cond")}
    state = {k: 0 for k in range(len(encoded.word.state))}
    i, s = 65536, (65536 * 65537 // 2) & mask(32)
    state[names["i"].index], state[names["s"].index] = i, s
    assert (2 * to_signed(s, 32) - i * i - i) % (1 << 32) == 0
    assert evaluate(term, {("state", k): v for k, v in state.items()}) == 0
    state[names["i"].index], state[names["s"].index] = 1000, 500500
    assert evaluate(term, {("state", k): v for k, v in state.items()}) == 1


def test_unsigned_char_wraps(programs):
    """c == k until k = 256, then c == k - 256: no linear relation, nothing false on a sample;
    c is read unsigned (no `c >= 0`, and c's samples reach 255)."""
    encoded = programs("uchar")
    samples = simulate(encoded.word, seed=3, seconds=5)
    cands = propose(encoded.word, encoded.debug, samples)
    _check(encoded, samples, cands)
    assert not [c for c in cands if c.kind == "linear" and {"c", "k"} <= _variables(c.expression)]
    c_var = next(v for v in cut_variables(encoded.word, encoded.debug, "while.cond") if v.name == "c")
    assert not c_var.signed and c_var.width == 8
    assert max(s[c_var.index] for s in samples.states["while.cond"]) == 255
    assert "k <= 300" in [c.expression for c in cands]


def test_simulate_stops_at_ok_and_reports_error(programs):
    straight = programs("straight")
    samples = simulate(straight.word, seed=0, runs=20, seconds=5)
    assert samples.reached_ok == samples.runs and samples.error is None
    assert samples.steps == samples.runs  # entry -> ok, one step each
    encoded = programs("reach")
    samples = simulate(encoded.word, seed=0, runs=400, seconds=5)
    hint = samples.error
    assert hint is not None  # x == 7 is a program constant: the inputs try it
    # replay the hint with the reference semantics: it ends in error
    word = encoded.word
    state = [hint.initial[v.index] for v in word.state]
    for inputs in hint.inputs:
        x = [inputs.get(i.index, 0) for i in word.inputs]
        state = reference_step(word, state, x)
    assert state[0] == word.error_code


def test_simulate_is_deterministic(programs):
    word = programs("updown").word
    a = simulate(word, seed=5, runs=30, seconds=None)
    b = simulate(word, seed=5, runs=30, seconds=None)
    c = simulate(word, seed=6, runs=30, seconds=None)
    assert a.states == b.states and a.steps == b.steps
    assert a.states != c.states


def test_simulate_respects_time_limits(programs):
    """Runs that would take hours stop at the 0.3 s limit (by time, not by a count); the wall
    bound only tells stopping from not stopping (1.06 s were seen under load 10)."""
    word = programs("forever").word
    started = time.monotonic()
    samples = simulate(word, seed=0, runs=10**6, max_steps=10**7, max_samples=10**7, seconds=0.3)
    assert time.monotonic() - started < 5.0 and samples.stopped == "time"  # not a speed test: it stops
    started = time.monotonic()
    samples = simulate(word, seed=0, runs=10**6, max_steps=10**7, max_samples=10**7, seconds=None,
                       deadline=started + 0.3)
    assert time.monotonic() - started < 5.0 and samples.stopped == "time"  # not a speed test: it stops


@pytest.mark.parametrize("program", ["arith.c", "switch_trunc.c", "select_minmax.c", "nested_loops.c"])
def test_compiled_step_is_the_reference_semantics(program):
    """The compiled per-cut-point steps agree with `evaluate` on random states and inputs."""
    encoded = encode_file(PROGRAMS / program, m32=True)
    word = encoded.word
    rng = random.Random(program)
    special = [0, 1, 5, -1, -37, 31, 32, 1 << 31]
    for code in range(len(word.blocks)):
        step = compile_step(word, code)
        for _ in range(60):
            state = [rng.choice([rng.getrandbits(v.width), rng.choice(special) & mask(v.width)])
                     for v in word.state]
            state[0] = code
            x = [rng.choice([rng.getrandbits(i.width), rng.choice(special) & mask(i.width)]) for i in word.inputs]
            assert step.fn(state, x) == reference_step(word, state, x)


def _vars(*specs: tuple[str, int, bool]) -> list[Var]:
    return [Var(StateVar(k, f"%{name}", width, "phi", None, [name]), name, signed, True)
            for k, (name, width, signed) in enumerate(specs)]


@pytest.mark.parametrize("terms", [
    # (coefficient, variable positions); position -1: the constant
    [(1, (0,)), (-2, (1,))],  # a == 2*b
    [(1, (0,)), (1, (1,)), (-1, (2,)), (3, ())],  # a + b + 3 == c
    [(2, (0,)), (-1, (1, 1)), (-1, (1,))],  # 2*a == b*b + b (narrow, one variable)
    [(1, (0,)), (-1, (1, 1, 1))],  # a == b*b*b (narrow)
    [(1, (0,)), (-3, (1, 1)), (-3, (1,)), (-1, ())],  # a == 3*b*b + 3*b + 1 (narrow)
    [(1, (0, 1)), (-1, (2, 2))],  # a*b == c*c (general)
])
def test_equations_are_exact(terms):
    """An equation's term is the fact over the integers: compared with Python's exact
    arithmetic on random, small and extreme values, signed and unsigned, 8 and 32 bits."""
    rng = random.Random(str(terms))
    for widths, signs in (((32, 32, 32), (True, True, True)), ((8, 8, 8), (False, True, False)),
                          ((32, 8, 32), (True, False, False)), ((8, 32, 8), (True, True, False))):
        variables = _vars(*zip("abc", widths, signs))
        build = _Builder(type("W", (), {"terms": TermBuilder()})())
        concrete = [(a, tuple(variables[i] for i in f)) for a, f in terms]
        term = build.equation(concrete)
        assert term is not None and term.width == 1
        for _ in range(300):
            raw = [rng.choice([rng.getrandbits(v.width), rng.getrandbits(4), -rng.getrandbits(4) & mask(v.width),
                               1 << (v.width - 1), mask(v.width)]) for v in variables]
            values = [v.value(r) for v, r in zip(variables, raw)]
            lead = next((a for a, f in terms if f == (0,)), None)
            if rng.random() < 0.5 and lead is None:  # a*b == c*c: make it true with a == b == c
                raw = [rng.getrandbits(3)] * 3
                values = [v.value(r) for v, r in zip(variables, raw)]
            elif lead is not None and rng.random() < 0.5:  # make it true: solve for the first variable
                rest = sum(a * _prod(values, f) for a, f in terms if f != (0,))
                if rest % lead == 0:
                    target = -rest // lead
                    v0 = variables[0]
                    low = -(1 << (v0.width - 1)) if v0.signed else 0
                    if low <= target <= low + mask(v0.width):
                        values[0] = target
                        raw[0] = target & mask(v0.width)
            truth = sum(a * _prod(values, f) for a, f in terms) == 0
            leaves = {("state", v.index): r for v, r in zip(variables, raw)}
            assert evaluate(term, leaves) == int(truth), (values, terms)


def _prod(values: list[int], factors: tuple[int, ...]) -> int:
    out = 1
    for i in factors:
        out *= values[i]
    return out


def test_orders_bounds_congruences_are_exact():
    rng = random.Random(7)
    a, b = _vars(("a", 32, True), ("b", 32, True))
    ua, ub = _vars(("ua", 16, False), ("ub", 16, False))
    build = _Builder(type("W", (), {"terms": TermBuilder()})())
    for _ in range(500):
        ra, rb = rng.choice([rng.getrandbits(32), 1 << 31, (1 << 31) - 1, rng.getrandbits(3)]), rng.getrandbits(32)
        if rng.random() < 0.3:
            rb = (ra + rng.randint(-2, 2)) & mask(32)
        va, vb = to_signed(ra, 32), to_signed(rb, 32)
        leaves = {("state", 0): ra, ("state", 1): rb}
        assert evaluate(build.le(a, b), leaves) == int(va <= vb)
        assert evaluate(build.le(a, b, strict=True), leaves) == int(va < vb)
        assert evaluate(build.le(a, b, 1), leaves) == int(va <= vb + 1)  # no wrap at INT_MAX
        for c in (0, 1, -5, 1000000):
            assert evaluate(build.bound(a, c, True), leaves) == int(va >= c)
            assert evaluate(build.bound(a, c, False), leaves) == int(va <= c)
        for m in (8, 4, 2, 3):
            for r in range(m):
                assert evaluate(build.congruence(a, m, r), leaves) == int(va % m == r)
        u0, u1 = ra & 0xFFFF, rb & 0xFFFF
        uleaves = {("state", 0): u0, ("state", 1): u1}
        assert evaluate(build.le(ua, ub), uleaves) == int(u0 <= u1)
        assert evaluate(build.congruence(ua, 3, u0 % 3), uleaves) == 1
        assert evaluate(build.bound(ua, 40000, False), uleaves) == int(u0 <= 40000)


def test_scaled_runs_keep_the_proportions_of_large_constants() -> None:
    """`Scale` (simulate.py): 100 000 becomes 128 and its neighbours keep their distance, the
    bytes of its int array scale with it, counts at the encoder's widths too; small constants
    and those near a C type's limits stay."""
    scale = Scale(Fraction(100_000, 128))
    assert [scale(c, 32) for c in (100_000, 99_999, 100_001, 400_000, 4_000, 0)] == [128, 127, 129, 512, 4_000, 0]
    assert scale((-100_000) & 0xFFFFFFFF, 32) == (-128) & 0xFFFFFFFF
    assert scale(0x7FFFFFFF, 32) == 0x7FFFFFFF and scale(0x80000000, 32) == 0x80000000
    assert scale(100_000, 17) == 128  # a tracked index of 17 bits: a count, not a negative number
    assert scale(400_000, 64) == 512


def test_scaled_runs_reach_the_loop_after_a_long_one() -> None:
    """The search after a fill of 100 000 cells: the runs of the program itself never reach the
    second loop within their steps; the scaled runs do, and the facts proposed there include the
    disjunction the proof needs, the facts false in the scaled runs left out."""
    encoded = encode_file(PROGRAMS / "arrays" / "search_after_fill_true.c", m32=True, exact_cells=64)
    word = encoded.word
    scale = scaled_constants(word)
    assert scale is not None and scale(100_000, 32) == 128
    scaled = simulate(word, seconds=5.0, scale=scale)
    plain = simulate(word, seconds=5.0, long_runs=False)
    second = [cut for cut, states in scaled.states.items() if states and not plain.states.get(cut)]
    assert len(second) == 1
    plain.scaled, plain.scale = {second[0]: scaled.states[second[0]]}, scale
    facts = {c.expression for c in propose(word, encoded.debug, plain, fn=encoded.fn) if c.cut == second[0]}
    assert "(found == 0 || x < i)" in facts
    assert "(\\forall k: k < 100000 ==> a[k] == k)" in facts
    assert "(\\forall k: k < i ==> a[k] == 0)" not in facts  # false in the scaled runs
