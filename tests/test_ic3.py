"""IC3 on hand-made transition systems, the shared DimSpec files and a small AIGER circuit.

Every definite answer goes through `solve`, which replays traces and proves invariants with
fresh SAT calls; the tests also assert the verdict, and for paths a length no shorter than
BMC's shortest one. Tiny systems are cross-checked against explicit-state reachability.
"""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings

from solvers.api import load, solve
from solvers.check import CheckFailed, check_invariant, check_trace
import solvers.ic3 as ic3_module
from solvers.bmc import bmc
from solvers.ic3 import _shorten, ic3
from solvers.result import SolveResult
from solvers.transys import TransitionSystem
import shared_data
from random_systems import brute_force_depth, transition_systems

SHARED = shared_data.SHARED


def shortest(ts: TransitionSystem, limit: int = 64) -> int | None:
    result = solve(ts, engine="bmc", max_steps=limit)
    return result.steps if result.status == "sat" else None


def counter(bits: int, wrap_at: int | None, goal_value: int) -> TransitionSystem:
    """A `bits`-bit counter x from 0, +1 per step (back to 0 after `wrap_at`); G: x = goal_value.
    Variables 1..bits are the bits (1 = least significant), then aux: carries, the wrap flag."""
    n = 2 * bits
    x = list(range(1, bits + 1))
    carry = [0] + list(range(bits + 1, 2 * bits))  # carry[i]: into bit i (i ≥ 1)
    wrap = 2 * bits  # aux: x = wrap_at
    nxt = [v + n for v in x]
    trans: list[list[int]] = []
    if bits > 1:
        trans += [[-carry[1], x[0]], [carry[1], -x[0]]]
    for i in range(1, bits - 1):
        c, b, out = carry[i], x[i], carry[i + 1]
        trans += [[-out, c], [-out, b], [out, -c, -b]]
    # next x1 = ¬x1, next x_i = x_i ⊕ carry[i]
    updates = [[-nxt[0], -x[0]], [nxt[0], x[0]]]
    for i in range(1, bits):
        b, c, o = x[i], carry[i], nxt[i]
        updates += [[-o, b, c], [-o, -b, -c], [o, -b, c], [o, b, -c]]
    if wrap_at is None:
        trans += [[-wrap]]
    else:
        eq = [v if (wrap_at >> i) & 1 else -v for i, v in enumerate(x)]
        trans += [[-wrap, e] for e in eq] + [[wrap] + [-e for e in eq]]
        updates = [c + [wrap] for c in updates] + [[-wrap, -o] for o in nxt]
    init = [[-v] for v in x]
    goal = [[v] if (goal_value >> i) & 1 else [-v] for i, v in enumerate(x)]
    aux = frozenset(range(bits + 1, 2 * bits + 1))
    return TransitionSystem(n=n, init=init, goal=goal, trans=trans + updates, aux=aux)


def test_safe_counter_yields_a_checked_invariant():
    ts = counter(3, wrap_at=5, goal_value=6)
    result = solve(ts, engine="ic3")
    assert result.status == "unsat"
    assert result.invariant is not None
    state = set(ts.state_vars())
    assert all(abs(lit) in state for clause in result.invariant for lit in clause)


def test_unsafe_counter_yields_the_shortest_path():
    ts = counter(3, wrap_at=None, goal_value=6)
    result = solve(ts, engine="ic3")
    assert result.status == "sat"
    assert result.steps == shortest(ts) == 6 and result.stats["shortest"] == 1
    # What the frames rule out (found at frame 4 here: lengths 0..3) is never a real path.
    assert 2 <= result.stats["excluded_below"] <= 6
    assert len(result.trace) == result.steps + 1
    assert all(len(step) == ts.n for step in result.trace)


@pytest.mark.parametrize("solver", ["minisat22", "glucose4", "cadical195"])
def test_solvers_by_name(solver):
    assert solve(counter(3, wrap_at=5, goal_value=7), engine="ic3", solver=solver).status == "unsat"
    assert solve(counter(3, wrap_at=5, goal_value=5), engine="ic3", solver=solver).status == "sat"


def test_state_constraint_in_u_keeps_a_circuit_functional():
    """llumc's U excludes the codes of `curr` that name no block, through an aux variable that
    is no definition: IC3 still treats the system as a circuit (lifting by inputs, no U')."""
    a = counter(3, wrap_at=None, goal_value=0).n + 1  # a half-defined aux variable: x3 -> a -> (not x2 and not x1), as llumc writes it
    constraint = [[a, -3], [-a, -2], [-a, -1]]

    def with_u(goal_value: int) -> TransitionSystem:
        ts = counter(3, wrap_at=None, goal_value=goal_value)
        trans = [[lit + 1 if lit > ts.n else (lit - 1 if lit < -ts.n else lit) for lit in c] for c in ts.trans]
        return TransitionSystem(n=ts.n + 1, init=ts.init, goal=ts.goal, trans=trans, universal=constraint,
                                aux=ts.aux | {a})

    reachable = with_u(3)  # 0..4 meet U; 5 does not, so the counter stops at 4
    result = solve(reachable, engine="ic3")
    assert (result.status, result.steps) == ("sat", 3)
    assert result.stats["definitional"] == 1
    blocked = with_u(6)
    result = solve(blocked, engine="ic3")
    assert result.status == "unsat" and result.stats["definitional"] == 1
    assert shortest(blocked) is None


def test_unit_on_a_defined_variable_in_u_is_a_constraint():
    """A system strengthened by invariants (solvers.strengthen) has U = definitions of the
    invariant's gates plus a unit clause on its output: still a circuit for IC3."""
    ts = counter(3, wrap_at=None, goal_value=4)
    g = ts.n + 1  # g <-> not x3, and g asserted: the counter stops at 3
    trans = [[lit + 1 if lit > ts.n else (lit - 1 if lit < -ts.n else lit) for lit in c] for c in ts.trans]
    strengthened = TransitionSystem(n=ts.n + 1, init=ts.init, goal=ts.goal, trans=trans,
                                    universal=[[g, 3], [-g, -3], [g]], aux=ts.aux | {g})
    result = solve(strengthened, engine="ic3")
    assert result.status == "unsat" and result.stats["definitional"] == 1
    strengthened.goal = [[1], [2], [-3]]
    result = solve(strengthened, engine="ic3")
    assert (result.status, result.steps, result.stats["definitional"]) == ("sat", 3, 1)


# x (1) latches an input a (2): x' = x ∨ a. Without constraint G = x is reachable in one step.
LATCH = dict(n=2, init=[[-1]], goal=[[1]], trans=[[-3, 1, 2], [3, -1], [3, -2]], aux=frozenset({2}))


def test_input_in_the_transition():
    result = solve(TransitionSystem(**LATCH), engine="ic3")
    assert (result.status, result.steps) == ("sat", 1)
    assert result.trace[0][1] == 2  # the input was set in step 0


def test_universal_constraint_on_the_input_makes_it_safe():
    ts = TransitionSystem(**LATCH, universal=[[-2]])
    result = solve(ts, engine="ic3")
    assert result.status == "unsat"


def test_goal_with_its_own_tseitin_variable():
    # Two state bits x1, x2 that both switch on at step 1 and 2 respectively; G: t ∧ (t ↔ x1 ∧ x2)
    # with t = variable 3, an aux variable only G mentions.
    ts = TransitionSystem(
        n=3,
        init=[[-1], [-2]],
        goal=[[3], [-3, 1], [-3, 2], [3, -1, -2]],
        trans=[[4], [-5, 1], [5, -1]],  # x1' = 1, x2' = x1
        aux=frozenset({3}),
    )
    result = solve(ts, engine="ic3")
    assert (result.status, result.steps) == ("sat", 2)
    assert result.trace[2][2] == 3


def test_relational_transition_reachable_and_unreachable():
    # A planning-style T: actions a (4), b (5) are aux; a needs p (1) and makes q (2); b needs q
    # and makes r (3); frame axioms keep what no action changes; at most one action per step.
    n = 5
    p, q, r, a, b = 1, 2, 3, 4, 5
    pn, qn, rn = p + n, q + n, r + n
    trans = [
        [-a, p], [-a, qn], [-b, q], [-b, rn], [-a, -b],
        [-p, pn], [p, -pn],  # p never changes
        [-q, qn], [q, -qn, a],  # q only becomes true by a
        [-r, rn], [r, -rn, b],  # r only becomes true by b
    ]
    reachable = TransitionSystem(n=n, init=[[p], [-q], [-r]], goal=[[r]], trans=trans, aux=frozenset({a, b}))
    result = solve(reachable, engine="ic3")
    assert result.status == "sat" and result.steps >= shortest(reachable) == 2
    unreachable = TransitionSystem(n=n, init=[[-p], [-q], [-r]], goal=[[r]], trans=trans, aux=frozenset({a, b}))
    assert solve(unreachable, engine="ic3").status == "unsat"
    # q' = q ∨ a and r' = r ∨ b are definitions, the preconditions (a → p, b → q, not both)
    # constraints on the step: lifting with the action fixed keeps p, since a cube state
    # without it would break a constraint, so no chain of cubes lacks a concrete path.
    stats = ic3(unreachable).stats
    assert stats["definitional"] == 1 and stats["lift_fallbacks"] == 0


def test_missing_init_means_every_state_is_initial():
    ts = TransitionSystem(n=2, goal=[[1], [2]], trans=[[-3], [-4]])
    result = solve(ts, engine="ic3")
    assert (result.status, result.steps) == ("sat", 0)


def test_missing_transition_means_every_state_follows():
    ts = TransitionSystem(n=2, init=[[-1], [-2]], goal=[[1], [2]])
    result = solve(ts, engine="ic3")
    assert (result.status, result.steps) == ("sat", 1)
    unsafe_nowhere = TransitionSystem(n=2, init=[[-1], [-2]], universal=[[-1, -2]], goal=[[1], [2]])
    assert solve(unsafe_nowhere, engine="ic3").status == "unsat"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transition_systems(max_n=4, init=3, universal=2, goal=2, trans=8))
def test_agrees_with_explicit_state_search(ts):
    result = solve(ts, engine="ic3")  # checked inside
    assert result.status == ("sat" if brute_force_depth(ts, 2**ts.n) is not None else "unsat")


@pytest.mark.parametrize("name, depth", shared_data.DIMSPEC_DEPTHS)
def test_shared_dimspec_files(name, depth):
    ts = load(SHARED / "dimspec" / name, warn=lambda _msg: None)
    result = solve(ts, engine="ic3")
    assert (result.status, result.steps, result.stats["shortest"]) == ("sat", depth, 1)


@pytest.mark.slow  # 18 s: backward IC3 on small systems is checked below
def test_freecell_plan_is_found_backward_and_is_the_shortest():
    """The planning problem forward IC3 does not solve in 300 s: IC3 from the goal finds a
    plan in about 11 s (measured), the unroller then proves 7 steps the shortest."""
    ts = load(SHARED / "dimspec/minireachic3/freecell.spec", warn=lambda _msg: None)
    result = solve(ts, engine="ic3", timeout=300)  # auto: T is relational, both directions
    assert (result.status, result.steps, result.direction) == ("sat", 7, "backward")
    assert result.stats["shortest"] == 1


def stutter_counter() -> TransitionSystem:
    """A 2-bit counter from 0 that adds 1 when input x3 is set and else stays; G: x = 3.
    Paths to G have every length ≥ 3."""
    inc, x1, x2, n1, n2 = 3, 1, 2, 4, 5
    trans = [[-inc, n1, x1], [-inc, -n1, -x1],
             [-inc, -n2, x2, x1], [-inc, -n2, -x2, -x1], [-inc, n2, -x2, x1], [-inc, n2, x2, -x1],
             [inc, -n1, x1], [inc, n1, -x1], [inc, -n2, x2], [inc, n2, -x2]]
    return TransitionSystem(n=3, init=[[-x1], [-x2]], goal=[[x1], [x2]], trans=trans, aux=frozenset({inc}))


def test_a_long_path_is_shortened_by_the_unroller():
    ts = stutter_counter()
    long = bmc(ts, min_steps=5, max_steps=5)  # lengths below 5 are not even tried
    assert (long.status, long.steps) == ("sat", 5)
    result = SolveResult("sat", steps=5, trace=long.trace, engine="ic3")
    _shorten(ts, result, excluded_below=0, budget=30.0)
    assert (result.steps, result.stats["shortened_from"], result.stats["shortest"]) == (3, 5, 1)
    check_trace(ts, result.trace)
    kept = SolveResult("sat", steps=5, trace=long.trace, engine="ic3")
    _shorten(ts, kept, excluded_below=5, budget=30.0)  # the frames already exclude 0..4
    assert (kept.steps, kept.stats["shortest"]) == (5, 1)
    no_time = SolveResult("sat", steps=5, trace=long.trace, engine="ic3")
    _shorten(ts, no_time, excluded_below=0, budget=0.0)
    assert (no_time.steps, no_time.stats["shortest"]) == (5, 0)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transition_systems(max_n=4, init=3, universal=2, goal=2, trans=8))
def test_reversed_system_has_the_same_shortest_path(ts):
    back = ts.reversed()
    assert back.reversed() == ts
    assert (back.init, back.goal) == (ts.goal, ts.init)
    assert brute_force_depth(back, 2**ts.n) == brute_force_depth(ts, 2**ts.n)


def test_backward_search_proves_with_an_invariant_of_the_reversed_system():
    ts = counter(3, wrap_at=5, goal_value=6)
    result = solve(ts, engine="ic3", direction="backward")  # checked inside, against ts.reversed()
    assert (result.status, result.direction) == ("unsat", "backward")
    check_invariant(ts.reversed(), result.invariant)
    unsafe = counter(3, wrap_at=None, goal_value=6)
    path = solve(unsafe, engine="ic3", direction="backward")
    assert (path.status, path.steps, path.direction) == ("sat", 6, "backward")
    check_trace(unsafe, path.trace)  # given forwards, from I to G


def test_both_directions_take_turns(monkeypatch):
    monkeypatch.setattr(ic3_module, "SLICE_SECONDS", 0.0)  # a turn per obligation
    monkeypatch.setattr(ic3_module, "PROGRESS_INTERVAL", 0.0)  # a report per obligation
    ts = counter(4, wrap_at=11, goal_value=13)
    progress: list[dict] = []
    result = ic3(ts, direction="both", progress=progress.append)
    assert result.status == "unsat"
    assert {info.get("direction", "forward") for info in progress} == {"forward", "backward"}
    with pytest.raises(ValueError, match="unknown direction"):
        ic3(ts, direction="sideways")


def test_small_aiger_circuit_is_safe():
    ts = load(SHARED / "aiger/minireachic3/c.aig")
    result = solve(ts, engine="ic3")
    assert result.status == "unsat"


def test_timeout_gives_unknown_with_the_frame_reached():
    ts = load(SHARED / "aiger/minireachic3/d.aig")  # takes IC3 many seconds
    progress: list[dict] = []
    result = ic3(ts, timeout=0.5, progress=progress.append)
    assert result.status == "unknown" and result.reason == "timeout"
    assert result.steps is not None and result.steps >= 1
    assert progress and {"frame", "lemmas", "obligations"} <= progress[-1].keys()


def test_broken_results_are_refused():
    ts = counter(3, wrap_at=5, goal_value=6)
    result = ic3(ts)
    check_invariant(ts, result.invariant)
    with pytest.raises(CheckFailed):
        check_invariant(ts, result.invariant[:0] + [[1, -1]])  # true: meets the goal
    unsafe = counter(3, wrap_at=None, goal_value=6)
    path = ic3(unsafe).trace
    check_trace(unsafe, path)
    broken = [list(step) for step in path]
    broken[-1][0] = -broken[-1][0]
    with pytest.raises(CheckFailed):
        check_trace(unsafe, broken)
