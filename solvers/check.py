"""Results are checked, not trusted: replay a path clause by clause, and prove an invariant
inductive with fresh SAT calls. A failed check is an internal error, never a verdict."""

from __future__ import annotations

from pysat.solvers import Solver

from solvers.transys import Clause, TransitionSystem


class CheckFailed(RuntimeError):
    """An engine produced a path or an invariant that does not hold: a bug in that engine."""


def _satisfied(clause: Clause, value: dict[int, bool]) -> bool:
    for lit in clause:
        v = value.get(abs(lit))
        if v is None:
            raise CheckFailed(f"trace assigns no value to variable {abs(lit)}")
        if v == (lit > 0):
            return True
    return False


def _first_violated(clauses: list[Clause], value: dict[int, bool]) -> Clause | None:
    for clause in clauses:
        if not _satisfied(clause, value):
            return clause
    return None


def check_trace(ts: TransitionSystem, trace: list[list[int]]) -> None:
    """Replay `trace` (k+1 full assignments of 1..n) against I, U, T, G; raise on any violation."""
    if not trace:
        raise CheckFailed("empty trace")
    states: list[dict[int, bool]] = []
    for step, assignment in enumerate(trace):
        value = {abs(lit): lit > 0 for lit in assignment}
        missing = [v for v in range(1, ts.n + 1) if v not in value]
        if missing:
            raise CheckFailed(f"step {step} assigns no value to variable {missing[0]}")
        states.append(value)

    def fail(what: str, step: int, clause: Clause) -> None:
        raise CheckFailed(f"trace violates {what} at step {step}: clause {clause}")

    if (c := _first_violated(ts.init, states[0])) is not None:
        fail("I", 0, c)
    for step, value in enumerate(states):
        if (c := _first_violated(ts.universal, value)) is not None:
            fail("U", step, c)
    for step in range(len(states) - 1):
        pair = dict(states[step])
        pair.update({v + ts.n: b for v, b in states[step + 1].items()})
        if (c := _first_violated(ts.trans, pair)) is not None:
            fail("T", step, c)
    if (c := _first_violated(ts.goal, states[-1])) is not None:
        fail("G", len(states) - 1, c)


def _shift(clauses: list[Clause], offset: int) -> list[Clause]:
    return [[lit + offset if lit > 0 else lit - offset for lit in c] for c in clauses]


def _negation(clauses: list[Clause], first_free: int) -> tuple[list[Clause], int]:
    """CNF of ¬(∧ clauses) with one fresh selector per clause: some clause has all literals false."""
    out: list[Clause] = []
    selectors = []
    var = first_free
    for clause in clauses:
        d = var
        var += 1
        selectors.append(d)
        out.extend([-d, -lit] for lit in clause)
    out.append(selectors)  # empty invariant (true): the empty clause, ¬true is unsatisfiable
    return out, var


def _unsat(clauses: list[Clause], solver_name: str) -> bool:
    with Solver(name=solver_name, bootstrap_with=clauses) as s:
        return not s.solve()


def check_invariant(ts: TransitionSystem, invariant: list[Clause], solver: str = "cadical195") -> None:
    """Check Inv over 1..n: I∧U ⇒ Inv, Inv∧U∧T∧U' ⇒ Inv', Inv∧U ⇒ ¬G; raise if one fails."""
    n = ts.n
    neg_inv, _ = _negation(invariant, 2 * n + 1)
    if not _unsat(ts.init + ts.universal + neg_inv, solver):
        raise CheckFailed("invariant does not contain the initial states (I ∧ U ∧ ¬Inv is satisfiable)")
    neg_inv_next, _ = _negation(_shift(invariant, n), 2 * n + 1)
    step = invariant + ts.universal + ts.trans + _shift(ts.universal, n) + neg_inv_next
    if not _unsat(step, solver):
        raise CheckFailed("invariant is not inductive (Inv ∧ U ∧ T ∧ U' ∧ ¬Inv' is satisfiable)")
    if not _unsat(invariant + ts.universal + ts.goal, solver):
        raise CheckFailed("invariant meets the goal (Inv ∧ U ∧ G is satisfiable)")
