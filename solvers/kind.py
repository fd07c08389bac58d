"""k-induction on DimSpec (Eén & Sörensson, "Temporal induction by incremental SAT solving",
2003), in two incremental solvers:

- base case and forward condition: the unroller of `solvers.bmc` (one depth after another, so a
  path found is a shortest one, as BMC gives it; and at each depth k the question whether a
  path of k steps from I over pairwise different states exists at all — if not, every
  execution ends before reaching G: proof "forward");
- the step case, in a solver of its own: k+1 states s_0..s_k, U in all, T between neighbours,
  G in s_k and not in s_0..s_{k−1}, pairwise different. Unsatisfiable after the base case
  refuted the depths 0..k−1: proof "k-induction" at k.

The step solver grows the path backwards from the G-state (its copy 0 is s_k, copy j the state
j steps before it), so that going from k to k+1 only adds clauses: a new first state with U,
T to the old first state and G negated. The distinctness constraints are added lazily, as in
the paper: solve, look for two equal states in the model, constrain them, solve again.

G negated: a state that is not last satisfies the definitions of G's private variables (those
no other section mentions, defined by G's clauses as functions: AIGER gates, Tseitin variables)
and falsifies one of G's other clauses (`solvers.check.step_goal` says why that is sound). When
G has a private variable that no definition fixes, "some clause of G is false" would be
satisfied by that variable alone and the step case could never succeed: it is skipped, and only
the base case and the forward condition answer (the reason and `stats["step_case"]` say so).
llumc's encodings have G over state bits only.

Time: the forward condition and the step case are asked within allowances (`Allowance`) that
grow with the base case's time: the forward queries a tenth of it plus 0.5 s, as in BMC, the
step queries as much as it plus 0.5 s; a query that runs out is given up and asked again at a
later depth (it holds there if it held here), so a hard one never stops the base case, which
gets about half of the time (beyond the first second). With half as much for the step case,
e.aig's proof came at k = 344 after 26.6 s instead of k ≈ 100–128 after 3–8 s. At the last depth
(`max_steps`) both get at least as long as the search took so far (`solvers.bmc.last_chance`).

Every unsat answer is checked by fresh solvers afterwards (`solvers.api.verify`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from solvers.bmc import (DEFAULT_SOLVER, FORWARD_BASE, FORWARD_SHARE, Allowance, ClauseShifter, Interrupted,
                         LimitedSolver, OutOfBudget, Unroller, _Deadline, add_different, ask_forward, equal_pairs)
from solvers.check import CheckFailed, distinct_vars, mentioned_outside_goal, step_goal
from solvers.gates import acyclic, find_definitions
from solvers.memory import near_limit
from solvers.result import SolveResult
from solvers.transys import Clause, TransitionSystem

Progress = Callable[[dict], None]


def goal_definitions(ts: TransitionSystem) -> list[tuple[int, list[Clause]]] | None:
    """Definitions (output, its clauses of G) of every variable only G mentions, in dependency
    order (a definition uses only outputs before it); [] when G has no such variable; None when
    one of them is not defined by G's clauses (gate detection `solvers.gates`, acyclic)."""
    private = {abs(lit) for c in ts.goal for lit in c} - mentioned_outside_goal(ts)
    if not private:
        return []
    # A unit clause is a condition on its variable, not a definition of it.
    ok, defined, clauses_of = find_definitions([c for c in ts.goal if len(c) > 1], private, ts.n, strict=False)
    if not ok or set(defined) != private or not acyclic(defined):
        return None
    order: list[int] = []
    placed: set[int] = set()

    def place(root: int) -> None:  # depth-first, inputs before outputs (acyclic, checked above)
        stack = [(root, iter(defined[root]))]
        while stack:
            node, inputs = stack[-1]
            for v in inputs:
                if v in defined and v not in placed and v != node:
                    stack.append((v, iter(defined[v])))
                    break
            else:
                stack.pop()
                if node not in placed:
                    placed.add(node)
                    order.append(node)

    for output in sorted(defined):
        if output not in placed:
            place(output)
    return [(o, [list(c) for c in clauses_of[o]]) for o in order]


class _StepCase:
    """The step case's incremental solver: copy 0 is the G-state, copy j the state j steps
    before it; copy j of variable v is bases[j] + v, fresh variables between the blocks."""

    def __init__(self, ts: TransitionSystem, sat: LimitedSolver, defs: list[Clause], rest: list[Clause]) -> None:
        n = ts.n
        self.n, self.sat, self.rest = n, sat, rest
        self.bases: list[int] = []
        self.top = 0
        self.universal, self.goal, self.defs = ClauseShifter(ts.universal), ClauseShifter(ts.goal), ClauseShifter(defs)
        self.trans = ClauseShifter(ts.trans, upper=n)
        self.compare = distinct_vars(ts)
        self.different: set[tuple[int, int]] = set()
        self.stats = {"step_calls": 0, "step_seconds": 0.0, "step_pairs": 0}

    def fresh(self) -> int:
        self.top += 1
        return self.top

    def add_copy(self) -> None:
        j = len(self.bases)
        base = self.top
        self.bases.append(base)
        self.top += self.n
        add = self.sat.add
        self.universal.add_to(add, base, [])
        if j == 0:
            self.goal.add_to(add, base, [])
            return
        # T from copy j (current half) to copy j−1 (next half: literal n+v becomes bases[j−1] + v).
        self.trans.add_to(add, base, [], upper_extra=self.bases[j - 1] - base - self.n)
        self.defs.add_to(add, base, [])
        selectors = []
        for clause in self.rest:  # some clause of rest is false
            d = self.fresh()
            selectors.append(d)
            for lit in clause:
                add([-d, -(lit + base) if lit > 0 else -(lit - base)])
        if not selectors:  # rest is empty (true): its negation is false
            f = self.fresh()
            add([f])
            add([-f])
        else:
            add(selectors)

    def holds(self, k: int, budget: float | None = None) -> bool | None:
        """Whether the step case holds at k (k+1 states): unsat, with distinctness added lazily;
        None when `budget` seconds did not suffice to tell."""
        started = time.monotonic()
        try:
            # Copies for the depths skipped since the last query (f.aig: ~40 ms each), within the
            # budget and the deadline; those added stay for the next query.
            while len(self.bases) < k + 1:
                now = time.monotonic()
                if self.sat.deadline is not None and now >= self.sat.deadline:
                    raise _Deadline()
                if budget is not None and now - started >= budget:
                    return None
                self.add_copy()
            while True:
                self.stats["step_calls"] += 1
                left = None if budget is None else budget - (time.monotonic() - started)
                if left is not None and left <= 0:
                    return None
                try:
                    if not self.sat.solve([], budget=left):
                        return True
                except OutOfBudget:
                    return None
                equal = equal_pairs(self.sat.model(), self.bases, self.compare)
                fresh = [pair for pair in equal if pair not in self.different]
                if not fresh:
                    if equal:
                        raise AssertionError(f"two states constrained to differ are equal: {equal[0]}")
                    return False
                for i, j in fresh:
                    add_different(self.sat.add, self.fresh, self.bases[i], self.bases[j], self.compare)
                    self.different.add((i, j))
                self.stats["step_pairs"] = len(self.different)
        finally:
            self.stats["step_seconds"] += time.monotonic() - started


# The step case's share of k-induction's time (`Allowance`).
STEP_SHARE = 1.0
STEP_BASE = 0.5


def ask_step(allowance: Allowance, step: _StepCase, k: int, last: bool, started: float) -> bool:
    """Whether the step case holds at k, asked within what `allowance` leaves (`last_chance` when
    `last`); False also when skipped or given up."""
    return bool(allowance.ask(lambda budget: step.holds(k, budget=budget), last, started))


def kind(
    ts: TransitionSystem,
    *,
    solver: str = DEFAULT_SOLVER,
    timeout: float | None = None,
    progress: Progress | None = None,
    max_steps: int | None = None,
    paths: TransitionSystem | None = None,
) -> SolveResult:
    """Shortest path from I to G (sat, with the trace), unsat with proof "k-induction" or
    "forward" and its k, or unknown (timeout, ^C, max_steps: the base case's depth bound).

    `paths`: the system the base case and the forward condition unroll, when `ts` is it
    strengthened by invariants proven inductive on it (conjoined to U over extra auxiliary
    variables; the state variables are the same). Both have the same paths from I, so the
    base case and the forward condition may ask either; the invariants' clauses only help the
    step case and slow a deep base case down (a bug 100 steps deep: found in 25 s unrolling the
    original system, not within 60 s unrolling the strengthened one). A trace, and a forward
    proof, are then of `paths`; a k-induction proof of `ts`."""
    started = time.monotonic()
    deadline = None if timeout is None else started + timeout
    base_sat = LimitedSolver(solver, deadline)
    if paths is not None and paths.state_vars() != ts.state_vars():
        raise ValueError("kind: the paths' system has other state variables than the strengthened one")
    unroller = Unroller(paths if paths is not None else ts, base_sat)
    definitions = goal_definitions(ts)
    step_sat: LimitedSolver | None = None
    step: _StepCase | None = None
    if definitions is not None:
        try:
            defs, rest = step_goal(ts, definitions)  # what the step case's other states satisfy
        except CheckFailed:  # a definition the gate detection found is not total after all
            definitions = None
        else:
            step_sat = LimitedSolver(solver, deadline)
            step = _StepCase(ts, step_sat, defs, rest)
    skipped = "; step case skipped: G mentions a variable no other section does and no definition fixes"
    forward = Allowance(FORWARD_SHARE, FORWARD_BASE)
    induction = Allowance(STEP_SHARE, STEP_BASE)
    refuted = -1

    def finish(result: SolveResult) -> SolveResult:
        result.engine = "kind"
        result.stats.update({"seconds": time.monotonic() - started, "depth": refuted,
                             "sat_calls": base_sat.calls + (step_sat.calls if step_sat else 0),
                             "step_case": int(step is not None)})
        result.stats.update(unroller.stats)
        result.stats.update({"forward_given_up": forward.given_up, "forward_skipped": forward.skipped})
        if step is not None:
            result.stats.update(step.stats)
            result.stats.update({"step_given_up": induction.given_up, "step_skipped": induction.skipped})
        base_sat.delete()
        if step_sat is not None:
            step_sat.delete()
        return result

    def unknown(reason: str) -> SolveResult:
        depth = "no depth refuted" if refuted < 0 else f"no path of length ≤ {refuted}"
        note = "" if step is not None else skipped
        return finish(SolveResult("unknown", steps=refuted if refuted >= 0 else None,
                                  reason=f"{reason} ({depth}){note}"))

    try:
        k = 0
        while max_steps is None or k <= max_steps:
            if deadline is not None and time.monotonic() >= deadline:
                raise _Deadline()
            if k % 16 == 0 and near_limit():
                return unknown("memory limit")
            unroller.add_step()
            if unroller.solve([-unroller.act(k)]):  # base case: G at depth k
                return finish(SolveResult("sat", steps=k, trace=unroller.trace(k)))
            base_sat.add([unroller.act(k)])  # refuted for good: the solver may drop G(k)
            refuted = k
            last = k == max_steps
            # Each allowance grows with the base case's time only: the other's is left out.
            if ask_forward(forward, unroller, k, last, started + induction.spent) is False:
                return finish(SolveResult("unsat", steps=k, proof="forward", k=k))
            if step is not None and ask_step(induction, step, k + 1, last, started + forward.spent):
                return finish(SolveResult("unsat", steps=k + 1, proof="k-induction", k=k + 1,
                                          goal_definitions=definitions))
            if progress is not None:
                progress({"engine": "kind", "depth": refuted, "seconds": time.monotonic() - started})
            k += 1
        return unknown(f"max-steps {max_steps} reached")
    except _Deadline:
        return unknown("timeout")
    except (Interrupted, KeyboardInterrupt):
        return unknown("interrupted")
