"""BMC and IC3 agree on random small transition systems (both answers checked by `solve`).

BMC proves nothing by itself, but for n variables a shortest path never repeats a full
assignment, so "no path of length ≤ 2^n" means unreachable: on tiny systems BMC with
max_steps = 2^n is a complete oracle for IC3.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solvers.ic3
from solvers.api import ic3_available, load, solve
from solvers.transys import TransitionSystem
import shared_data
from random_systems import brute_force_depth, gated_goal_systems, transition_systems

pytestmark = pytest.mark.skipif(not ic3_available(), reason="solvers/ic3.py not present")

SHARED = shared_data.SHARED / "dimspec"
SAMPLES = Path(__file__).resolve().parent.parent / "dimspec_samples"


@st.composite
def small_systems(draw) -> TransitionSystem:
    ts = draw(transition_systems(max_n=4, init=3, universal=2, goal=3, trans=7))
    n = ts.n
    # Sometimes declare auxiliaries as llumc does (`c aux`, Tseitin variables in disjoint ranges
    # per section): each occurs in one of I, U, G or T's lower half only.
    if draw(st.booleans()):
        home = draw(st.dictionaries(st.integers(1, n), st.sampled_from(["init", "universal", "goal", "trans"])))

        def keep(section: str, clauses: list[list[int]]) -> list[list[int]]:
            def foreign(lit: int) -> bool:
                var = abs(lit) if abs(lit) <= n else abs(lit) - n
                return var in home and (home[var] != section or abs(lit) > n)

            return [kept for clause in clauses if (kept := [lit for lit in clause if not foreign(lit)])]

        for section in ("init", "universal", "goal", "trans"):
            setattr(ts, section, keep(section, getattr(ts, section)))
        ts.aux = frozenset(home)
    return ts


def agree(ts: TransitionSystem, direction: str = "auto") -> None:
    bounded = solve(ts, "bmc", max_steps=2**ts.n)  # with the forward condition, as solve runs it
    proved = solve(ts, "ic3", timeout=60, direction=direction)
    assert proved.status != "unknown", proved.reason
    if bounded.status == "sat":
        assert proved.status == "sat"
        # IC3's path is shortened to the shortest; on systems this small that always finishes.
        assert proved.stats["shortest"] == 1
        assert proved.stats["excluded_below"] <= bounded.steps  # what IC3's frames rule out
        assert proved.steps == len(proved.trace) - 1 == bounded.steps
    else:
        # BMC's forward condition proves it by depth 2^n (no simple path is that long); with 4
        # variables telling 17 states apart can be a pigeonhole count the solver gives up on.
        assert (bounded.status, bounded.proof) == ("unsat", "forward") or (ts.n == 4 and bounded.status == "unknown")
        assert proved.status == "unsat"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_systems(), st.sampled_from(["auto", "forward", "backward", "both"]), st.sampled_from([0.0, 0.5]))
def test_bmc_and_ic3_agree_on_random_systems(ts, direction, slice_seconds):
    # Turns of no time make the two directions of "both" interleave at every obligation.
    with mock.patch.object(solvers.ic3, "SLICE_SECONDS", slice_seconds):
        agree(ts, direction)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(transition_systems(max_n=3, init=3, universal=2, goal=3, trans=7),
                 gated_goal_systems(max_state=3, init=3, universal=2, trans=7)))
def test_kind_and_complete_bmc_agree_with_explicit_search(ts):
    """k-induction and BMC with its forward condition against breadth-first search over all
    states: unreachable ⇔ unsat (each proof checked by fresh solvers in solve), else the same
    shortest depth. At most 3 state variables: with max_steps = 2^n the forward condition at the
    last depth always answers (9 states of 3 bits are a pigeonhole count the solver does at once)."""
    expected = brute_force_depth(ts, 2**ts.n)
    for engine in ("kind", "bmc"):
        result = solve(ts, engine, max_steps=2**ts.n)
        if expected is None:
            assert result.status == "unsat", (engine, result.reason)
            assert result.proof in (("forward", "k-induction") if engine == "kind" else ("forward",))
        else:
            assert (result.status, result.steps) == ("sat", expected), engine


@pytest.mark.skipif(not SHARED.exists(), reason="shared DimSpec files not present")
@pytest.mark.parametrize("name", [name for name, _ in shared_data.DIMSPEC_DEPTHS])
def test_ic3_finds_the_shared_files_reachable(name):
    ts = load(SHARED / name, warn=lambda message: None)
    result = solve(ts, "ic3", timeout=60)
    assert result.status == "sat"


SAMPLE_FILES = sorted(SAMPLES.glob("*.dimspec")) if SAMPLES.exists() else []


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=[p.name for p in SAMPLE_FILES])
def test_bmc_and_ic3_agree_on_the_project_samples(path):
    """Every DimSpec file llumc generates into dimspec_samples/: a definite IC3 answer that BMC
    confirms (sat: BMC finds a path no longer than IC3's; unsat: BMC finds none up to a bound)."""
    ts = load(path, warn=lambda message: None)
    proved = solve(ts, "ic3", timeout=60)
    assert proved.status in ("sat", "unsat"), proved.reason
    bound = len(proved.trace) - 1 if proved.status == "sat" else 30
    bounded = solve(ts, "bmc", max_steps=bound, timeout=60)
    if proved.status == "sat":
        assert bounded.status == "sat" and bounded.steps <= bound
    else:
        assert (bounded.status, bounded.proof) == ("unsat", "forward") or "max-steps" in bounded.reason
    if bound <= 30:  # k-induction too (the appendix's paths of 53 and 106 steps take it seconds)
        inductive = solve(ts, "kind", max_steps=bound, timeout=60)
        if proved.status == "sat":
            assert (inductive.status, inductive.steps) == ("sat", bounded.steps)
        else:
            # safe_loop's loop runs for ever (x += 2 while a nondeterministic condition holds):
            # no forward condition, but the step case holds (checked inside solve).
            assert inductive.status == "unsat"
