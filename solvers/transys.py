"""The one transition-system type every DimSpec engine works on.

A DimSpec formula over n Boolean variables x1..xn: I (initial), U (every state), G (goal) are
CNF over 1..n; T is CNF over 1..2n where literal n+j is x_j in the next state. A path of
length k is an assignment to k+1 copies of 1..n with I(0), U(0..k), T(i, i+1), G(k).

Variables of 1..n are either *state* (they carry information from one step to the next) or
*auxiliary* (Tseitin variables, nondeterministic inputs: fresh in every step). Engines that
generalise over states (IC3) must only ever talk about state variables.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

Clause = list[int]


@dataclass
class TransitionSystem:
    n: int
    init: list[Clause] = field(default_factory=list)
    universal: list[Clause] = field(default_factory=list)
    goal: list[Clause] = field(default_factory=list)
    trans: list[Clause] = field(default_factory=list)
    # Auxiliary variables among 1..n. None: not declared by the file (engines infer them,
    # see `infer_auxiliaries`).
    aux: frozenset[int] | None = None
    # Leading comment lines (without the "c " prefix), kept so producers can carry a symbol
    # map (llumc writes one) through the toolkit untouched.
    comments: list[str] = field(default_factory=list)

    def state_vars(self) -> list[int]:
        """Variables of 1..n that are state, in increasing order."""
        aux = self.aux if self.aux is not None else infer_auxiliaries(self)
        return [v for v in range(1, self.n + 1) if v not in aux]

    def reversed(self) -> TransitionSystem:
        """The same system run backwards: I and G swapped, T's two copies swapped. A path
        s_0..s_k of `self` read from s_k to s_0 is a path of the reversed system, and back;
        an invariant of the reversed system (it holds in every state from which G can be
        reached, and in no initial state) proves G unreachable as well.

        Declared auxiliaries stay declared; the engines treat every variable whose next copy
        T mentions as state anyway (in the reversed system, those of T's lower half)."""
        n = self.n

        def swap(lit: int) -> int:
            var = abs(lit)
            other = var + n if var <= n else var - n
            return other if lit > 0 else -other

        return replace(
            self,
            init=[list(c) for c in self.goal],
            goal=[list(c) for c in self.init],
            trans=[[swap(lit) for lit in c] for c in self.trans],
            universal=[list(c) for c in self.universal],
            comments=list(self.comments),
        )


def infer_auxiliaries(ts: TransitionSystem) -> frozenset[int]:
    """Variables of 1..n that nothing ties across steps: they occur in neither I, U, G nor in
    t's upper half (minireachIC3's `-aux` rule). Such a variable only lives within one step."""
    linked: set[int] = set()
    for clauses in (ts.init, ts.universal, ts.goal):
        for clause in clauses:
            linked.update(abs(lit) for lit in clause)
    for clause in ts.trans:
        for lit in clause:
            if abs(lit) > ts.n:
                linked.add(abs(lit) - ts.n)
    return frozenset(v for v in range(1, ts.n + 1) if v not in linked)
