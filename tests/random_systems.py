"""Random tiny transition systems and an explicit-state oracle, shared by the BMC, IC3 and
cross-engine property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from solvers.transys import TransitionSystem


def clause_lists(width: int, max_clauses: int) -> st.SearchStrategy[list[list[int]]]:
    """Up to `max_clauses` clauses of 1–3 literals over variables 1..width."""
    literal = st.integers(1, width).flatmap(lambda v: st.sampled_from([v, -v]))
    return st.lists(st.lists(literal, min_size=1, max_size=3), max_size=max_clauses)


@st.composite
def transition_systems(draw, max_n: int, init: int, universal: int, goal: int, trans: int) -> TransitionSystem:
    """n ≤ max_n variables; the other arguments bound the clauses of each section."""
    n = draw(st.integers(1, max_n))
    return TransitionSystem(
        n=n,
        init=draw(clause_lists(n, init)),
        universal=draw(clause_lists(n, universal)),
        goal=draw(clause_lists(n, goal)),
        trans=draw(clause_lists(2 * n, trans)),
    )


def brute_force_depth(ts: TransitionSystem, limit: int) -> int | None:
    """Shortest depth by explicit breadth-first search over all 2^n states (None: no path of
    length ≤ limit; with limit ≥ 2^n, none at all)."""
    n = ts.n
    states = [tuple(bool(s >> i & 1) for i in range(n)) for s in range(2**n)]

    def holds(clauses, value) -> bool:
        return all(any(value[abs(l) - 1] == (l > 0) for l in c) for c in clauses)

    frontier = {s for s in states if holds(ts.init, s) and holds(ts.universal, s)}
    seen = set(frontier)
    for depth in range(limit + 1):
        if any(holds(ts.goal, s) for s in frontier):
            return depth
        nxt = {
            t for s in frontier for t in states if holds(ts.universal, t) and holds(ts.trans, s + t)
        } - seen
        seen |= nxt
        frontier = nxt
        if not frontier:
            return None
    return None


@st.composite
def gated_goal_systems(draw, max_state: int, init: int, universal: int, trans: int) -> TransitionSystem:
    """State variables 1..s (s ≤ max_state) with random I, U, T over them, and a goal written as
    AIGER-style Tseitin gates: variables s+1..n (1–3 of them) each defined as the AND or OR of
    earlier variables, G asserting the last one (sometimes with an extra clause over the state;
    sometimes with a definition clause dropped, so that the gate is no function). The gates
    occur in G only: k-induction must negate G through their definitions."""
    s = draw(st.integers(1, max_state))
    gates = draw(st.integers(1, 3))
    n = s + gates
    goal: list[list[int]] = []
    for out in range(s + 1, n + 1):
        ins = draw(st.lists(st.integers(1, out - 1), min_size=1, max_size=3, unique=True))
        lits = [v if draw(st.booleans()) else -v for v in ins]
        if draw(st.booleans()):  # out ↔ AND(lits)
            goal += [[-out, lit] for lit in lits] + [[out] + [-lit for lit in lits]]
        else:  # out ↔ OR(lits)
            goal += [[out, -lit] for lit in lits] + [[-out] + lits]
    goal.append([n if draw(st.booleans()) else -n])
    goal += draw(clause_lists(s, 1))
    if draw(st.integers(0, 4)) == 0:
        goal.pop(draw(st.integers(0, len(goal) - 1)))

    def widen(clause: list[int]) -> list[int]:  # next-state literal s+v becomes n+v
        return [lit if abs(lit) <= s else (abs(lit) - s + n) * (1 if lit > 0 else -1) for lit in clause]

    return TransitionSystem(
        n=n,
        init=draw(clause_lists(s, init)),
        universal=draw(clause_lists(s, universal)),
        goal=goal,
        trans=[widen(c) for c in draw(clause_lists(2 * s, trans))],
        aux=frozenset(range(s + 1, n + 1)) if draw(st.booleans()) else None,
    )
