"""A small clause invariant from a set of reachable states: IC3's blocking with an exact oracle.

Why: an explicit-state engine knows the reachable states R (as cubes over the state bits), but
checking R itself by SAT (`check.state_set_gap`) makes the solver go through every cube's step
— a minute on RERS-size transition relations. A few clauses that exclude no state of R and
are inductive are checked in three SAT calls. They are found as IC3 finds its clauses, with R
answering "is this cube reachable?" exactly: a state t outside R that the clauses so far do
not exclude and that leads out of them (or is a goal state) is blocked by the shortest
sub-cube of t that still meets no cube of R (greedy literal dropping, no SAT call). Every
clause keeps all of R, so the clauses only ever approach R from above, and the loop stops when
they are inductive. A counterexample to induction that starts inside R means R is not closed:
its model is handed back (the explorer missed a state).

The result is not trusted either: the caller checks it by fresh solvers (`check.check_invariant`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pysat.solvers import Solver

from solvers.transys import Clause, TransitionSystem


@dataclass
class SetInvariant:
    """status: "invariant" (`clauses`), "missing" (`model`: a step from a state of R to a state
    outside it, signed literals over 1..2n), or "unknown" (`reason`)."""

    status: str
    clauses: list[Clause] = field(default_factory=list)
    model: list[int] = field(default_factory=list)
    reason: str = ""
    sat_calls: int = 0


class _States:
    """R as (mask, value) pairs of bit sets over variable numbers."""

    def __init__(self, cubes: list[Clause]):
        self.cubes: list[tuple[int, int]] = []
        for cube in cubes:
            mask = value = 0
            for lit in cube:
                mask |= 1 << abs(lit)
                if lit > 0:
                    value |= 1 << lit
            self.cubes.append((mask, value))
        self.support = 0
        for mask, _value in self.cubes:
            self.support |= mask

    def keeps(self, clause: Clause) -> bool:
        """Whether every state of R satisfies `clause` (no cube of R meets its negation)."""
        mask = value = 0
        for lit in clause:
            mask |= 1 << abs(lit)
            if lit < 0:
                value |= 1 << -lit
        return all((value ^ v) & m & mask for m, v in self.cubes)

    def contains(self, value: int) -> bool:
        return any((value ^ v) & m == 0 for m, v in self.cubes)

    def block(self, value: int, groups: list[list[int]] | None = None) -> Clause:
        """The negation of the smallest sub-cube of the state `value` (found greedily) that
        meets no cube of R; the state must be outside R. `groups` (the bits of one word each)
        are tried first as a whole: a clause over few words blocks more than one over the
        same number of scattered bits."""
        c_mask = self.support
        conflicts = [c_mask & m & (value ^ v) for m, v in self.cubes]
        for group in groups or []:
            bits = 0
            for var in group:
                bits |= 1 << var
            if c_mask & bits and all(c & ~bits for c in conflicts):
                c_mask &= ~bits
                conflicts = [c & ~bits for c in conflicts]
        for var in range(1, c_mask.bit_length()):
            bit = 1 << var
            if c_mask & bit and all(c & ~bit for c in conflicts):
                c_mask &= ~bit
                conflicts = [c & ~bit for c in conflicts]
        return [-var if value >> var & 1 else var for var in range(1, c_mask.bit_length()) if c_mask >> var & 1]


def _value(model: list[int], n: int, offset: int = 0) -> int:
    value = 0
    for lit in model:
        var = abs(lit) - offset
        if lit > 0 and 1 <= var <= n:
            value |= 1 << var
    return value


def invariant_from_states(ts: TransitionSystem, cubes: list[Clause], *, deadline: float | None = None,
                          solver: str = "cadical195", max_clauses: int = 500,
                          groups: list[list[int]] | None = None, seeds: list[Clause] | None = None,
                          stop: Callable[[], bool] | None = None) -> SetInvariant:
    """Clauses over 1..n that every state of `cubes` satisfies, inductive under U∧T∧U′ and
    excluding G; see the module docstring. `seeds`: clauses to start from (those that some
    state of the set breaks are left out), e.g. bits constant over the states at one block:
    one SAT call would find each of them otherwise. `stop`: asked before each SAT call; True
    ends the search like the deadline (another engine has answered)."""
    n = ts.n
    states = _States(cubes)
    shifted_u = [[lit + n if lit > 0 else lit - n for lit in c] for c in ts.universal]
    step = Solver(name=solver, bootstrap_with=ts.trans + ts.universal + shifted_u)
    goal = Solver(name=solver, bootstrap_with=ts.universal + ts.goal)
    result = SetInvariant("unknown")
    fresh = 2 * n + 1
    violated: list[int] = []  # per clause: a variable that implies the clause is false next

    def out_of_time() -> bool:
        return (deadline is not None and time.monotonic() >= deadline) or (stop is not None and stop())

    try:
        def add(clause: Clause) -> None:
            nonlocal fresh
            step.add_clause(clause)
            goal.add_clause(clause)
            d = fresh
            fresh += 1
            for lit in clause:
                step.add_clause([-d, -(lit + n) if lit > 0 else -(lit - n)])
            violated.append(d)
            result.clauses.append(clause)

        for clause in seeds or []:
            if states.keeps(clause):
                add(clause)
        seeded = len(result.clauses)
        while True:  # goal states first: the clauses must exclude them
            if out_of_time():
                result.reason = "timeout"
                return result
            result.sat_calls += 1
            if not goal.solve():
                break
            t = _value(goal.get_model(), n)
            if states.contains(t):
                result.reason = "a goal state is in the set"
                return result
            add(states.block(t, groups))
        while True:  # then counterexamples to induction
            if out_of_time():
                result.reason = "timeout"
                return result
            if len(result.clauses) - seeded > max_clauses:
                result.reason = f"more than {max_clauses} clauses beside the seeds"
                return result
            active = fresh
            fresh += 1
            step.add_clause([-active, *violated])
            result.sat_calls += 1
            found = step.solve(assumptions=[active])
            model = step.get_model() if found else []  # (CaDiCaL: before any new clause)
            step.add_clause([-active])
            if not found:
                result.status = "invariant"
                return result
            t = _value(model, n)
            if states.contains(t):
                result.status, result.model = "missing", model
                return result
            add(states.block(t, groups))
    finally:
        step.delete()
        goal.delete()
