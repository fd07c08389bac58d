"""Strengthening a transition system with candidate invariants (Houdini), on DimSpec.

A candidate fact is one literal over an *extension* of the system's variables: clauses that
define fresh variables n+1..n_ext from 1..n (full Tseitin definitions, so every extended
variable is a function of the state) and one literal per candidate. Houdini (Flanagan and
Leino, 2001) keeps the largest subset of the candidates that is an inductive invariant:

    drop what fails initiation          I ∧ U ⇒ c
    drop what fails consecution         (∧ kept) ∧ U ∧ T ∧ U′ ⇒ c′   relative to the rest
    until nothing changes.

Every reachable state satisfies the surviving conjunction Inv, so conjoining Inv to U removes
no path from I: G is unreachable in the strengthened system exactly when it is unreachable in
the original one. That is why an engine's proof on the strengthened system, together with a
fresh check that Inv is inductive on the *original* I, U, T (`check_lemmas`), proves the
original property. A candidate that is false anywhere reachable is dropped, never trusted.

Both the search and the check run on the same clause construction here; the check uses fresh
solvers and is run again by the caller on the final answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from pysat.solvers import Solver

from solvers.check import CheckFailed, CheckTimeout, solve_until
from solvers.transys import Clause, TransitionSystem

DEFAULT_SOLVER = "cadical195"


@dataclass
class Lemmas:
    """Candidate facts over the variables 1..n of a system, each a literal over 1..n_ext."""

    n: int  # the system's own variable count
    n_ext: int  # variables n+1..n_ext are defined by `definitions`
    definitions: list[Clause] = field(default_factory=list)
    literals: list[int] = field(default_factory=list)
    # per candidate, what consecution assumes of it in the state before the step (None: its
    # literal). It may say more than the literal: for a fact about every cell of an array,
    # the fact and its instances at the step's reads (llumc.invariants.instances). Sound for
    # the caller that knows the more to follow from the facts of all kept candidates holding
    # in a reachable state: then initiation (the literals) and consecution (the pre-literals
    # before, the literals after) prove the literals by induction over the run's length.
    pre_literals: list[int] | None = None

    def pre(self, i: int) -> int:
        return self.literals[i] if self.pre_literals is None else self.pre_literals[i]


def _shift(clauses: list[Clause], offset: int) -> list[Clause]:
    return [[lit + offset if lit > 0 else lit - offset for lit in c] for c in clauses]


def _widen_trans(ts: TransitionSystem, n_ext: int) -> list[Clause]:
    """T over 1..2·n_ext: the next-state copy n+j of variable j becomes n_ext+j."""
    extra = n_ext - ts.n
    if not extra:
        return [list(c) for c in ts.trans]
    return [[lit + extra if lit > ts.n else lit - extra if -lit > ts.n else lit for lit in c] for c in ts.trans]


def extend(ts: TransitionSystem, lemmas: Lemmas, chosen: list[int] | None = None) -> TransitionSystem:
    """`ts` over 1..n_ext with the definitions (and, for `chosen` candidates, their literals as
    unit clauses, the pre-literals where they differ: they imply the literals) added to U. The
    new variables are auxiliary: they live within one step."""
    if lemmas.n != ts.n:
        raise ValueError(f"lemmas are over {lemmas.n} variables, the system has {ts.n}")
    units = [[lemmas.pre(i)] for i in chosen or []]
    aux = ts.aux if ts.aux is not None else None
    if aux is not None:
        aux = aux | frozenset(range(ts.n + 1, lemmas.n_ext + 1))
    return replace(
        ts,
        n=lemmas.n_ext,
        universal=[list(c) for c in ts.universal] + [list(c) for c in lemmas.definitions] + units,
        trans=_widen_trans(ts, lemmas.n_ext),
        init=[list(c) for c in ts.init],
        goal=[list(c) for c in ts.goal],
        aux=aux,
        comments=list(ts.comments),
    )


class _Queries:
    """The two incremental solvers of Houdini: initiation (I ∧ U_ext) and consecution
    (U_ext ∧ T ∧ U_ext′). A query is a clause ¬sel ∨ (some kept candidate false) under the
    assumption sel, retired by the unit ¬sel afterwards."""

    def __init__(self, ts: TransitionSystem, lemmas: Lemmas, solver: str, deadline: float | None) -> None:
        wide = extend(ts, lemmas)
        m = wide.n
        self.m = m
        self.deadline = deadline
        self.init = Solver(name=solver, bootstrap_with=wide.init + wide.universal)
        self.step = Solver(name=solver, bootstrap_with=wide.universal + wide.trans + _shift(wide.universal, m))
        self.next_free = 2 * m + 1
        self.calls = 0

    def _solve(self, solver: Solver, assumptions: list[int]) -> bool:
        """One query within the deadline (`solve_until`: CheckTimeout past it)."""
        self.calls += 1
        return solve_until(solver, assumptions, self.deadline)

    def falsified(self, which: str, kept: list[int], literals: list[int],
                  assumed: list[int] = (), pre_literals: list[int] | None = None) -> list[int] | None:
        """Candidates of `kept` that some state (initiation) or some successor of a state
        satisfying all of `kept` and `assumed` (consecution: their `pre_literals`) makes false;
        None if there is none."""
        before = literals if pre_literals is None else pre_literals
        solver = self.init if which == "init" else self.step
        offset = 0 if which == "init" else self.m
        selector = self.next_free
        self.next_free += 1
        solver.add_clause([-selector] + [-(literals[i] + offset if literals[i] > 0 else literals[i] - offset)
                                         for i in kept])
        assumptions = [selector] if which == "init" else [selector] + [before[i] for i in [*kept, *assumed]]
        try:
            if not self._solve(solver, assumptions):
                return None
            # (PySAT's model lists variable v at position v - 1: read only the literals asked
            # about, not a dictionary of the whole model per query)
            model = solver.get_model() or []
        finally:
            solver.add_clause([-selector])

        def holds(lit: int) -> bool:
            var = abs(lit) + offset
            if var <= len(model) and abs(model[var - 1]) == var:
                value = model[var - 1] > 0
            else:  # (a solver that lists its model otherwise)
                value = var in model
            return value == (lit > 0)

        return [i for i in kept if not holds(literals[i])]

    def delete(self) -> None:
        self.init.delete()
        self.step.delete()


@dataclass
class HoudiniResult:
    kept: list[int] | None  # indexes of the surviving candidates; None: out of time
    # out of time: the candidates not dropped yet, a superset of the fixpoint (each drop was
    # justified), from which a Houdini over the same candidates may start again
    remaining: list[int] | None = None
    dropped_initiation: int = 0
    dropped_consecution: int = 0
    sat_calls: int = 0
    seconds: float = 0.0


def houdini(ts: TransitionSystem, lemmas: Lemmas, *, solver: str = DEFAULT_SOLVER,
            deadline: float | None = None, assumed: list[int] = ()) -> HoudiniResult:
    """The largest inductive subset of the candidates (a fixpoint: unique, whatever the order
    of drops). `kept` is None when the deadline passed first: a partial subset is not
    inductive and must not be used.

    `assumed`: indexes of candidates already known to be inductive together on their own (an
    earlier Houdini's result, for one that adds candidates): they are kept without being asked
    about — a set that is inductive alone stays in every larger fixpoint — and only assumed in
    the consecution queries of the others. That spares the SAT solver proving them again (a
    product such as 2*s == i*i + i takes seconds each time). `Strengthening.check` still checks
    everything kept, by fresh solvers."""
    started = time.monotonic()
    result = HoudiniResult(kept=None)
    if not lemmas.literals:
        result.kept = []
        return result
    queries = _Queries(ts, lemmas, solver, deadline)
    fixed = sorted(set(assumed))
    kept = [i for i in range(len(lemmas.literals)) if i not in set(fixed)]
    try:
        while kept:
            bad = queries.falsified("init", kept, lemmas.literals)
            if bad is None:
                break
            result.dropped_initiation += len(bad)
            kept = [i for i in kept if i not in set(bad)]
        while kept:
            bad = queries.falsified("step", kept, lemmas.literals, fixed, lemmas.pre_literals)
            if bad is None:
                break
            result.dropped_consecution += len(bad)
            kept = [i for i in kept if i not in set(bad)]
        result.kept = sorted(fixed + kept)
    except CheckTimeout:
        result.kept = None
        result.remaining = sorted(fixed + kept)
    finally:
        result.sat_calls = queries.calls
        result.seconds = time.monotonic() - started
        queries.delete()
    return result


def _unsat(clauses: list[Clause], solver: str, deadline: float | None) -> bool:
    with Solver(name=solver, bootstrap_with=clauses) as s:
        return not solve_until(s, [], deadline)


def check_lemmas(ts: TransitionSystem, lemmas: Lemmas, chosen: list[int], *, solver: str = DEFAULT_SOLVER,
                 deadline: float | None = None) -> None:
    """Fresh SAT calls: the conjunction of the `chosen` candidates is an inductive invariant of
    `ts` (I ∧ U ⇒ Inv and Pre ∧ U ∧ T ∧ U′ ⇒ Inv′, Pre the conjunction of their pre-literals:
    `Lemmas.pre_literals`). Raises CheckFailed otherwise, and CheckTimeout when `deadline`
    passes first."""
    wide = extend(ts, lemmas)
    m = wide.n
    literals = [lemmas.literals[i] for i in chosen]
    if not literals:
        return
    some_false = [[-lit for lit in literals]]
    if not _unsat(wide.init + wide.universal + some_false, solver, deadline):
        raise CheckFailed("strengthening invariant does not contain the initial states")
    some_false_next = _shift(some_false, m)
    step = wide.universal + [[lemmas.pre(i)] for i in chosen] + wide.trans + _shift(wide.universal, m) + some_false_next
    if not _unsat(step, solver, deadline):
        raise CheckFailed("strengthening invariant is not inductive")

