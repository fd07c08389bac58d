"""AIGER and BTOR2 exports (`llumc encode --format aiger|btor2`) mean what the DimSpec means.

Three independent checks on every program of tests/programs (and loops/):
1. the AIGER circuit, read back by solvers/aiger.py, evaluated on random states and inputs,
   gives the next-state values, U and G that `llumc.encoding.terms.evaluate` gives on the terms;
2. llumc's engines answer the same on the DimSpec and on the AIGER file (BMC: the same
   shortest path length or none up to a bound; k-induction within a short budget: the same
   verdict whenever both answer);
3. the BTOR2 text, parsed back by tests/btor2_reader.py, evaluates like the terms, and
   bit-blasted again from the parsed terms gives BMC the same answer as the DimSpec.
A hand-built system whose I is not a reset value and whose U restricts inputs checks the
initialisation latch and constraints on the last (bad) state, against a brute-force search.
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from btor2_reader import read_btor2
from llumc.pipeline import bitblast_system
from llumc.errors import LlumcError
from llumc.export import word_system
from llumc.export.aiger import build_aiger
from llumc.export.btor2 import write_btor2
from llumc.encoding.terms import TermBuilder, evaluate, mask
from llumc.encoding.transys import InputVar, StateVar, WordTransitionSystem
from solvers.aiger import Aig, aig_to_transition_system, parse_aiger, write_aiger
from solvers.api import solve

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted((ROOT / "tests" / "programs").glob("*.c")) + sorted((ROOT / "tests" / "programs" / "loops").glob("*.c"))
BMC_BOUND = 8
# k-induction's budget on the DimSpec; the AIGER gets four times as much where the DimSpec was
# answered (make bench-export compares every program with 60 s each).
KIND_SECONDS = float(os.environ.get("LLUMC_EXPORT_SECONDS", "1.0"))
SAMPLES = 12


@functools.cache
def system(path: Path) -> WordTransitionSystem | None:
    """The program's word-level system (ILP32), or None when the front end refuses it."""
    try:
        return word_system(path, m32=True)
    except LlumcError:
        return None


def exported(path: Path) -> tuple[WordTransitionSystem, Aig]:
    wts = system(path)
    if wts is None:
        pytest.skip(f"{path.name}: not supported by the front end")
    data = write_aiger(build_aiger(wts).aig)
    return wts, parse_aiger(data, path.name)  # what llumc solve reads: the written bytes


def evaluate_aig(aig: Aig, values: dict[int, bool], lits: list[int]) -> list[bool]:
    """Values of AIGER literals given the values of inputs and latches (by variable)."""
    memo = {0: False, **values}
    for var in sorted(aig.ands):  # binary numbering: gates after their inputs
        a, b = aig.ands[var]
        memo[var] = (memo[a >> 1] ^ bool(a & 1)) and (memo[b >> 1] ^ bool(b & 1))
    return [memo[lit >> 1] ^ bool(lit & 1) for lit in lits]


def random_leaves(wts: WordTransitionSystem, rng: random.Random) -> dict[tuple[str, int], int]:
    """Random values, with the corner values of every width drawn often."""
    leaves = {}
    for kind, items in (("state", wts.state), ("input", wts.inputs)):
        for item in items:
            corner = [0, 1, mask(item.width), mask(item.width) >> 1, 1 << (item.width - 1)]
            value = rng.choice(corner) if rng.random() < 0.3 else rng.getrandbits(item.width)
            leaves[(kind, item.index)] = value & mask(item.width)
    return leaves


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_aiger_functions_equal_the_terms(path: Path) -> None:
    wts, aig = exported(path)
    rng = random.Random(path.name)
    input_bits = [(inp.index, b) for inp in wts.inputs for b in range(inp.width)]
    state_bits = [(v.index, b) for v in wts.state for b in range(v.width)]
    assert len(aig.inputs) == len(input_bits) and len(aig.latches) >= len(state_bits)
    general = len(aig.latches) > len(state_bits)
    for _ in range(SAMPLES):
        leaves = random_leaves(wts, rng)
        values = {lit >> 1: bool(leaves[("input", i)] >> b & 1) for lit, (i, b) in zip(aig.inputs, input_bits)}
        values |= {lit >> 1: bool(leaves[("state", i)] >> b & 1) for (lit, _, _), (i, b) in zip(aig.latches, state_bits)}
        if general:
            values[aig.latches[-1][0] >> 1] = True  # past the first step: I plays no part
        nexts = [nxt for _, nxt, _ in aig.latches[: len(state_bits)]]
        got = evaluate_aig(aig, values, nexts + aig.constraints + aig.bad)
        cache: dict[int, int] = {}
        want = [bool(evaluate(wts.next[i], leaves, cache) >> b & 1) for i, b in state_bits]
        assert got[: len(nexts)] == want, "next-state functions differ"
        assert all(got[len(nexts) : -1]) == all(evaluate(u, leaves, cache) for u in wts.universal)
        assert got[-1] == all(evaluate(g, leaves, cache) for g in wts.goal)
    for (lit, _, reset), (index, b) in zip(aig.latches, state_bits):
        var = next(v for v in wts.state if v.index == index)
        if var.init is not None and not general:
            assert reset == (var.init >> b & 1), f"reset of {var.name}[{b}]"
        elif var.init is None:
            assert reset == lit, f"{var.name}[{b}] is free initially"


def same_answers(first, second, what: str) -> None:
    """BMC to a bound (same shortest path or none), then k-induction where BMC found no path
    (same verdict and path length whenever both answer)."""
    a = solve(first, "bmc", max_steps=BMC_BOUND)
    b = solve(second, "bmc", max_steps=BMC_BOUND)
    assert (a.status, a.steps if a.status == "sat" else None) == (b.status, b.steps if b.status == "sat" else None), what
    if a.status != "unknown":
        return
    a = solve(first, "kind", timeout=KIND_SECONDS)
    if a.status == "unknown":
        return
    b = solve(second, "kind", timeout=4 * KIND_SECONDS)
    if b.status == "unknown":
        return
    assert a.status == b.status, what
    if a.status == "sat":
        assert a.steps == b.steps, what


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_dimspec_and_aiger_verdicts_agree(path: Path) -> None:
    wts, aig = exported(path)
    dimspec, _stats = bitblast_system(wts)
    same_answers(dimspec, aig_to_transition_system(aig, path.name), f"{path.name}: DimSpec and AIGER")


def parsed_system(text: str, original: WordTransitionSystem) -> WordTransitionSystem:
    """The word-level system of a BTOR2 text, as the reader parsed it."""
    model = read_btor2(text)
    tb = model.terms
    state = [StateVar(k, name, width, "value") for k, (_nid, width, name) in enumerate(model.states)]
    inputs = [InputVar(k, width, "btor2", name) for k, (_nid, width, name) in enumerate(model.inputs)]
    init = [tb.eq(tb.state(k, state[k].width), value) for k, value in model.init.items()]
    goal = [tb.any_of(model.bad)]
    return WordTransitionSystem(tb, state, inputs, init, model.constraints, goal, model.next, original.blocks,
                                original.prop, original.scheme)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_btor2_parses_back_to_the_same_system(path: Path) -> None:
    wts = system(path)
    if wts is None:
        pytest.skip(f"{path.name}: not supported by the front end")
    text = write_btor2(wts)
    parsed = parsed_system(text, wts)
    model = read_btor2(text)
    assert [w for _, w, _ in model.states[: len(wts.state)]] == [v.width for v in wts.state]
    assert [w for _, w, _ in model.inputs] == [i.width for i in wts.inputs]
    assert len(model.bad) == 1 and len(model.next) == len(model.states)
    rng = random.Random(path.name)
    for _ in range(SAMPLES):
        leaves = random_leaves(wts, rng)
        mine = {("state", k): leaves[("state", v.index)] for k, v in enumerate(wts.state)}
        mine |= {("input", k): leaves[("input", i.index)] for k, i in enumerate(wts.inputs)}
        mine |= {("state", k): 1 for k in range(len(wts.state), len(model.states))}  # initialised
        cache: dict[int, int] = {}
        for k, v in enumerate(wts.state):
            assert evaluate(parsed.next[k], mine) == evaluate(wts.next[v.index], leaves, cache), v.name
        assert all(evaluate(c, mine) for c in parsed.universal) == all(evaluate(u, leaves, cache) for u in wts.universal)
        assert evaluate(parsed.goal[0], mine) == all(evaluate(g, leaves, cache) for g in wts.goal)
    for k, v in enumerate(wts.state):
        if v.init is not None:
            assert model.init[k].param == v.init
    assert any(line.startswith("llumc-symbols") for line in model.comments)
    dimspec, _ = bitblast_system(wts)
    again, _ = bitblast_system(parsed)
    a, b = solve(dimspec, "bmc", max_steps=BMC_BOUND), solve(again, "bmc", max_steps=BMC_BOUND)
    assert (a.status, a.steps if a.status == "sat" else None) == (b.status, b.steps if b.status == "sat" else None)


def nibble_system(goal: str) -> WordTransitionSystem:
    """x: 4 bits, initially 11, 13 or 15 (I: 10 < x and x odd, no reset value); each step adds
    an input in 0..3 restricted by U to 0..2. The goals: 'x=3' (reachable), 'x=12' (one step),
    'x=12 & in=3' (only through a last state that violates U: unreachable)."""
    tb = TermBuilder()
    x, inp = tb.state(0, 4), tb.input(0, 2)
    goals = {
        "x=3": [tb.eq(x, tb.const(3, 4))],
        "x=12": [tb.eq(x, tb.const(12, 4))],
        "x=12 & in=3": [tb.eq(x, tb.const(12, 4)), tb.eq(inp, tb.const(3, 2))],
    }
    return WordTransitionSystem(
        tb, [StateVar(0, "x", 4, "value")], [InputVar(0, 2, "nondet", "in")],
        init=[tb.op("ult", tb.const(10, 4), x), tb.eq(tb.extract(x, 0, 0), tb.true())],
        universal=[tb.op("ult", inp, tb.const(3, 2))], goal=goals[goal],
        next={0: tb.op("add", x, tb.zext(inp, 4))}, blocks=[], prop="unreach-call", scheme="lbe")


def brute_force(wts: WordTransitionSystem) -> int | None:
    """Shortest path length to G through states and inputs satisfying U (None: unreachable)."""
    def holds(terms, x: int, i: int) -> bool:
        return all(evaluate(t, {("state", 0): x, ("input", 0): i}) for t in terms)

    frontier = {x for x in range(16) if holds(wts.init, x, 0)}
    seen: set[int] = set()
    for depth in range(17):
        if any(holds(wts.universal, x, i) and holds(wts.goal, x, i) for x in frontier for i in range(4)):
            return depth
        seen |= frontier
        frontier = {evaluate(wts.next[0], {("state", 0): x, ("input", 0): i}) for x in frontier for i in range(4)
                    if holds(wts.universal, x, i)} - seen
    return None


@pytest.mark.parametrize("goal", ["x=3", "x=12", "x=12 & in=3"])
def test_initialisation_latch_and_constraints(goal: str, tmp_path: Path) -> None:
    wts = nibble_system(goal)
    expected = brute_force(wts)
    exported_aig = build_aiger(wts)
    assert exported_aig.general_init and len(exported_aig.aig.latches) == 5
    aiger = aig_to_transition_system(parse_aiger(write_aiger(exported_aig.aig)))
    dimspec, _ = bitblast_system(wts)
    btor2_again, _ = bitblast_system(parsed_system(write_btor2(wts), wts))
    for ts in (dimspec, aiger, btor2_again):
        # BMC proves nothing here (x runs forever); IC3 and k-induction do.
        for engine in ("bmc", "ic3", "kind") if expected is not None else ("ic3", "kind"):
            result = solve(ts, engine, timeout=30)
            assert result.status == ("unsat" if expected is None else "sat"), engine
            if result.status == "sat" and engine != "ic3":
                assert result.steps == expected


def run_llumc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "llumc", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_cli_encode_formats_and_solve(tmp_path: Path) -> None:
    program = ROOT / "tests" / "programs" / "loop_count.c"
    answers = {}
    for name in ("m.dimspec", "m.aig", "m.aag"):
        fmt = "dimspec" if name.endswith("dimspec") else "aiger"
        made = run_llumc("encode", str(program), "--format", fmt, "-o", str(tmp_path / name), "--stats")
        assert made.returncode == 0, made.stderr
        solved = run_llumc("solve", str(tmp_path / name), "--bmc", "--json", "--quiet")
        assert solved.returncode == 10, solved.stderr
        answers[name] = json.loads(solved.stdout)["steps"]
    assert answers["m.aig"] == answers["m.aag"] == answers["m.dimspec"]
    assert (tmp_path / "m.aig").read_bytes().startswith(b"aig ")
    assert (tmp_path / "m.aag").read_bytes().startswith(b"aag ")
    btor2 = run_llumc("encode", str(program), "--format", "btor2")
    assert btor2.returncode == 0 and "bad" in btor2.stdout
    read_btor2(btor2.stdout)
    (tmp_path / "m.btor2").write_text(btor2.stdout)
    refused = run_llumc("solve", str(tmp_path / "m.btor2"))
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1 and "BTOR2" in refused.stderr
    bad = run_llumc("encode", str(program), "--format", "smv")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "--format" in bad.stderr
