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
