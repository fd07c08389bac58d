"""Incremental unroller: shortest depths on real DimSpec files, schedules, solver names, limits."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.api import solve
from solvers.bmc import SolverNameError, bmc, solver_names, validate_solver_name
from solvers.check import check_trace
from solvers.dimspec import read_dimspec
from solvers.transys import TransitionSystem
import shared_data
from random_systems import brute_force_depth, transition_systems

SHARED = shared_data.SHARED / "dimspec"
DATA = Path(__file__).parent / "data"


@pytest.mark.skipif(not SHARED.exists(), reason="shared DimSpec files not present")
@pytest.mark.parametrize("schedule", ["linear", "every:2", "exp"])
@pytest.mark.parametrize("name, depth", shared_data.DIMSPEC_DEPTHS)
def test_shared_files_shortest_depth(name, depth, schedule):
    ts = read_dimspec(SHARED / name, warn=None)
    result = bmc(ts, schedule=schedule, max_steps=20)
    assert (result.status, result.steps) == ("sat", depth)
    assert len(result.trace) == depth + 1
    assert all(sorted(map(abs, state)) == list(range(1, ts.n + 1)) for state in result.trace)
    check_trace(ts, result.trace)


def test_trace_of_test4_is_the_two_bit_counter():
    # test4: T is "x1 toggles, x2 becomes x1 xor ... " — the only 3-step path visits 00 10 01 11.
    ts = read_dimspec(SHARED / "minireachic3/test4.spec", warn=None)
    result = bmc(ts, max_steps=20)
    assert result.trace == [[-1, -2], [1, -2], [-1, 2], [1, 2]]


def counter(bits: int) -> TransitionSystem:
    """A binary counter from 0 with goal "all ones": shortest path 2^bits - 1."""
    n = bits
    trans: list[list[int]] = []
    # next bit i = bit i xor (all lower bits set); carry_i = AND of bits < i, written out directly
    for i in range(1, bits + 1):
        lower = list(range(1, i))
        nxt = n + i
        # nxt ↔ (x_i xor c) where c = ∧lower: clauses over x_i, lower, nxt
        # c true: nxt = ¬x_i ; c false (some lower bit 0): nxt = x_i
        trans.append([-nxt, -i] + [-b for b in lower])
        trans.append([nxt, i] + [-b for b in lower])
        for b in lower:
            trans.append([-nxt, i, b])
            trans.append([nxt, -i, b])
    return TransitionSystem(
        n=n, init=[[-i] for i in range(1, n + 1)], goal=[[i] for i in range(1, n + 1)], trans=trans
    )


@pytest.mark.parametrize("schedule", ["linear", "every:3", "every:1", "exp"])
def test_counter_depth_is_found_by_every_schedule(schedule):
    ts = counter(4)
    result = bmc(ts, schedule=schedule, max_steps=40)
    assert (result.status, result.steps) == ("sat", 15)
    check_trace(ts, result.trace)


@pytest.mark.parametrize("name", ["glucose4", "minisat22", "cd19", "lingeling"])
def test_other_solvers_by_name_find_the_same_depth(name):
    result = bmc(counter(3), solver=name, max_steps=20)
    assert (result.status, result.steps) == ("sat", 7)


def test_solver_names_are_validated_with_the_list_of_valid_ones():
    assert validate_solver_name("cd19") == "cadical195"
    assert "cadical195" in solver_names() and "glucose4" in solver_names()
    with pytest.raises(SolverNameError) as info:
        bmc(counter(2), solver="nosuchsolver")
    assert "valid: " in str(info.value) and "cadical195" in str(info.value) and "\n" not in str(info.value)
    # Kissat in PySAT ignores assumptions: refused rather than trusted.
    with pytest.raises(SolverNameError):
        validate_solver_name("kissat404")


def test_unknown_schedule_is_refused():
    with pytest.raises(ValueError, match="unknown schedule"):
        bmc(counter(2), schedule="every:0")


def test_max_steps_gives_unknown_with_the_depth_reached():
    ts = read_dimspec(DATA / "unreachable.dimspec", warn=None)
    result = bmc(ts, max_steps=6)
    assert (result.status, result.steps) == ("unknown", 6)
    assert "max-steps 6" in result.reason and "no path of length ≤ 6" in result.reason
    short = bmc(counter(3), max_steps=6, schedule="exp")
    assert (short.status, short.steps) == ("unknown", 6)
    assert bmc(counter(3), max_steps=7, schedule="exp").steps == 7


def test_timeout_gives_unknown_with_the_depth_reached():
    ts = read_dimspec(DATA / "unreachable.dimspec", warn=None)
    result = bmc(ts, timeout=0.3)
    assert result.status == "unknown" and result.reason.startswith("timeout")
    assert result.steps is not None and result.steps > 0
    assert f"no path of length ≤ {result.steps}" in result.reason


def test_progress_reports_every_refuted_depth():
    seen: list[int] = []
    bmc(counter(3), max_steps=20, progress=lambda info: seen.append(info["depth"]))
    assert seen == list(range(7))


def test_goal_true_at_step_zero_and_empty_goal_clause():
    assert bmc(TransitionSystem(n=1), max_steps=2).steps == 0  # no constraint at all: the first state is a goal
    never = TransitionSystem(n=1, goal=[[]])  # an empty goal clause: false
    assert bmc(never, max_steps=3).status == "unknown"


def test_multi_clause_goal_must_hold_as_a_whole_in_one_state():
    # 2-bit counter: x1 alone holds at depth 1, x2 alone at 2, both only at 3.
    ts = counter(2)
    result = bmc(ts, max_steps=10)
    check_trace(ts, result.trace)
    assert result.steps == 3 and result.trace[-1] == [1, 2]


@settings(max_examples=120, deadline=None)
@given(transition_systems(max_n=3, init=2, universal=1, goal=2, trans=5), st.sampled_from(["linear", "every:2", "exp"]), st.booleans())
def test_bmc_depth_equals_explicit_search(ts, schedule, free_goals):
    expected = brute_force_depth(ts, 2**ts.n)
    # solve() checks the trace, and runs BMC with its forward condition (checked too): with
    # max_steps = 2^n it must prove every unreachable goal, as no simple path has 2^n steps.
    result = solve(ts, "bmc", max_steps=2**ts.n, schedule=schedule, free_goals=free_goals)
    if expected is None:
        assert (result.status, result.proof) == ("unsat", "forward")
        assert result.k <= 2**ts.n
    else:
        assert (result.status, result.steps) == ("sat", expected)
