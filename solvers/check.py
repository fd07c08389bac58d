"""Results are checked, not trusted: replay a path clause by clause, and prove an invariant
inductive with fresh SAT calls. A failed check is an internal error, never a verdict."""

from __future__ import annotations

import time

from pysat.solvers import Solver

from solvers.transys import Clause, TransitionSystem


class CheckFailed(RuntimeError):
    """An engine produced a path or an invariant that does not hold: a bug in that engine."""


class CheckTimeout(Exception):
    """The deadline passed before the check could decide (not a failure: nothing was shown)."""


def solve_until(s: Solver, assumptions: list[int], deadline: float | None) -> bool:
    """`s.solve(assumptions)`, in conflict-budget slices when a deadline is given (CaDiCaL
    holds the GIL, so no timer could interrupt it); CheckTimeout once the deadline passes."""
    if deadline is None:
        return s.solve(assumptions=assumptions)
    while True:
        if time.monotonic() >= deadline:
            raise CheckTimeout()
        s.conf_budget(1000)
        answer = s.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer


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


# ---------------------------------------------------------------------------------------------
# Proofs by a set of states: an explicit-state engine's reachable states, each a cube.


def _cube_set(cubes: list[Clause], first_free: int) -> tuple[list[Clause], list[Clause], int]:
    """CNF of S = ∨ cubes and of ¬S over 1..n, with fresh selectors from `first_free`.
    Literals that every cube has (bits constant over the set) are stated once, as units."""
    common = set(cubes[0]) if cubes else set()
    for cube in cubes[1:]:
        common.intersection_update(cube)
    rests = [[lit for lit in cube if lit not in common] for cube in cubes]
    var = first_free
    positive: list[Clause] = [[lit] for lit in sorted(common, key=abs)]
    some_rest_free = any(not rest for rest in rests)
    if not cubes:
        positive.append([])  # the empty set
    elif not some_rest_free:
        selectors = list(range(var, var + len(rests)))
        var += len(rests)
        for d, rest in zip(selectors, rests):
            positive.extend([-d, lit] for lit in rest)
        positive.append(selectors)
    # ¬S = ¬common ∨ (every cube's rest is false)
    e_common, e_rests = var, var + 1
    var += 2
    negative: list[Clause] = [[e_common, e_rests]]
    negative.append([-e_common, *(-lit for lit in common)])
    if some_rest_free:
        negative.append([-e_rests])
    else:
        negative.extend([-e_rests, *(-lit for lit in rest)] for rest in rests)
    return positive, negative, var


def state_set_gap(ts: TransitionSystem, cubes: list[Clause], solver: str = "cadical195"
                  ) -> tuple[str, list[int]] | None:
    """Whether the states of `cubes` (conjunctions of literals over 1..n) form an inductive
    invariant that excludes G: None if they do, else what fails ("initial": an initial state
    outside the set; "inductive": a step from inside to outside; "goal": a goal state inside)
    with the model that shows it (signed literals; the step's over 1..2n and beyond).
    Fresh solvers, one per condition."""
    n = ts.n
    inside, outside, free = _cube_set(cubes, 2 * n + 1)
    _, outside_next, _ = _cube_set(_shift(cubes, n), free)
    checks = (
        ("initial", ts.init + ts.universal + outside),
        ("inductive", inside + ts.universal + ts.trans + _shift(ts.universal, n) + outside_next),
        ("goal", inside + ts.universal + ts.goal),
    )
    for name, clauses in checks:
        with Solver(name=solver, bootstrap_with=clauses) as s:
            if s.solve():
                return name, s.get_model()
    return None


def check_state_set(ts: TransitionSystem, cubes: list[Clause], solver: str = "cadical195") -> None:
    """Check that the union of `cubes` is an inductive invariant excluding G; raise if not."""
    gap = state_set_gap(ts, cubes, solver)
    if gap is not None:
        what = {"initial": "does not contain every initial state", "inductive": "is not closed under T",
                "goal": "meets the goal"}[gap[0]]
        raise CheckFailed(f"the state set {what}")


# ---------------------------------------------------------------------------------------------
# Proofs by path lengths: the forward condition and k-induction (Eén & Sörensson, "Temporal
# induction by incremental SAT solving", 2003). Both rest on simple paths.

# All pairs of copies are made different from the start when this costs at most this many
# fresh variables (pairs × compared variables); beyond it, pairs are added as models show two
# equal copies (see `_unsat_over_different_states`).
EAGER_DISTINCT_LIMIT = 200_000


def distinct_vars(ts: TransitionSystem) -> list[int]:
    """The variables on which the states of a simple path differ pairwise: those of T's
    next-state half and those I mentions.

    Why a shortest path to G is simple on them: if states i < j of a path agree here, replace
    states i..j by state j alone. T(i−1, ·) reads only the next-state variables of its second
    state and I only its own variables, so both hold of state j as they held of state i; U,
    T(j, j+1) and (when j is last) G hold of state j as before. The result is a shorter path to
    G. Auxiliary variables (fresh per step) and variables only U or G mention link no step to
    another, so they take no part."""
    n = ts.n
    linked = {abs(lit) - n for clause in ts.trans for lit in clause if abs(lit) > n}
    linked.update(abs(lit) for clause in ts.init for lit in clause)
    return sorted(linked)


def _unrolled(ts: TransitionSystem, copies: int) -> list[Clause]:
    """U in copies 0..copies−1 and T between neighbours; copy j of variable v is j·n + v."""
    n = ts.n
    clauses: list[Clause] = []
    for j in range(copies):
        clauses += _shift(ts.universal, j * n)
        if j + 1 < copies:
            clauses += _shift(ts.trans, j * n)  # next-state literal n+v of copy j is copy j+1's v
    return clauses


def _different(a: int, b: int, n: int, compare: list[int], first_free: int) -> tuple[list[Clause], int]:
    """Copies a and b differ on some variable of `compare`: e_v → (x_a,v ≠ x_b,v), ∨ e_v."""
    clauses: list[Clause] = []
    some = []
    var = first_free
    for v in compare:
        x, y = a * n + v, b * n + v
        clauses += [[-var, x, y], [-var, -x, -y]]
        some.append(var)
        var += 1
    if not some:  # no variable to differ on: the two copies are equal, the clause is false
        clauses += [[var], [-var]]
        var += 1
    else:
        clauses.append(some)
    return clauses, var


def _unsat_over_different_states(clauses: list[Clause], copies: int, n: int, compare: list[int],
                                 first_free: int, solver_name: str, deadline: float | None = None) -> bool:
    """Whether `clauses` (copies 0..copies−1 of 1..n) have no model in which the copies differ
    pairwise on `compare` (`_no_model_over_different_states` in a fresh solver)."""
    with Solver(name=solver_name, bootstrap_with=clauses) as s:
        return _no_model_over_different_states(s, copies, n, compare, first_free, deadline)


def _no_model_over_different_states(s: Solver, copies: int, n: int, compare: list[int], first_free: int,
                                    deadline: float | None = None) -> bool:
    """Whether the clauses of `s` (copies 0..copies−1 of 1..n; variables from `first_free` on
    unused) have no model in which the copies differ pairwise on `compare`.

    All pairs are constrained at once when that is small (`EAGER_DISTINCT_LIMIT`); otherwise a
    pair is constrained when a model shows it equal, and the call repeated. Either way an unsat
    answer is one of a formula whose every clause belongs to the all-pairs formula, so that one
    is unsat as well; a model with pairwise different copies answers False."""
    free = first_free
    done: set[tuple[int, int]] = set()

    def constrain(pairs: list[tuple[int, int]]) -> None:
        nonlocal free
        for a, b in pairs:
            more, free = _different(a, b, n, compare, free)
            for clause in more:
                s.add_clause(clause)
            done.add((a, b))

    all_pairs = copies * (copies - 1) // 2
    if all_pairs * max(1, len(compare)) <= EAGER_DISTINCT_LIMIT:
        constrain([(a, b) for b in range(copies) for a in range(b)])
    while solve_until(s, [], deadline):
        value = set(s.get_model() or [])
        last: dict[tuple[bool, ...], int] = {}
        equal: list[tuple[int, int]] = []
        for j in range(copies):
            key = tuple(j * n + v in value for v in compare)
            if key in last:
                equal.append((last[key], j))
            last[key] = j
        fresh = [pair for pair in equal if pair not in done]
        if not fresh:
            if equal:
                raise CheckFailed(f"the solver ignored a distinctness constraint ({equal[0]})")
            return False
        constrain(fresh)
    return True


def _check_no_goal_below(ts: TransitionSystem, k: int, solver: str, deadline: float | None = None) -> None:
    """No path from I reaches G within 0..k−1 steps, in a fresh solver (`_no_goal_below`)."""
    with Solver(name=solver, bootstrap_with=ts.init) as s:
        _no_goal_below(s, ts, k, k * ts.n + 1, deadline)  # the literals beyond every copy


def _no_goal_below(s: Solver, ts: TransitionSystem, k: int, first_free: int, deadline: float | None) -> int:
    """No path from I (in `s` already) reaches G within 0..k−1 steps: `s` extended a step at a
    time (U of copies 0..k−1, T between them), asked at each depth j for G in copy j under a
    literal of its own (from `first_free` on; then switched off for good); CheckFailed where
    it does. Returns the next free variable. One call over all k copies with G in some of them
    was slower: c.aig of the shared circuits, k = 256, took 49 s against 13.7 s this way."""
    n = ts.n
    for j in range(k):
        for clause in _shift(ts.universal, j * n):
            s.add_clause(clause)
        if j > 0:
            for clause in _shift(ts.trans, (j - 1) * n):
                s.add_clause(clause)
        goal_at = first_free + j
        for clause in _shift(ts.goal, j * n):
            s.add_clause(clause + [-goal_at])
        if solve_until(s, [goal_at], deadline):
            raise CheckFailed(f"base case fails: a path from I reaches G in {j} steps (k = {k})")
        s.add_clause([-goal_at])
    return first_free + k


def check_forward(ts: TransitionSystem, k: int, solver: str = "cadical195", deadline: float | None = None) -> None:
    """The forward condition at k: no path from I reaches G within 0..k−1 steps, and no path
    from I has k steps over pairwise different states (`distinct_vars`). Then G is unreachable:
    a shortest path to G is simple, so its first k steps would be such a path. `deadline`
    (time.monotonic()): CheckTimeout once it passes."""
    if not isinstance(k, int) or k < 0:
        raise CheckFailed(f"forward condition without a valid k ({k!r})")
    n = ts.n
    with Solver(name=solver, bootstrap_with=ts.init) as s:
        # one solver for both parts: what it learnt refuting G below k serves the second
        # (a bubble sort of 6 cells, k = 43: 8.4 s in two solvers)
        free = _no_goal_below(s, ts, k, (k + 1) * n + 1, deadline)
        for clause in _shift(ts.universal, k * n) + (_shift(ts.trans, (k - 1) * n) if k > 0 else []):
            s.add_clause(clause)
        different = _no_model_over_different_states(s, k + 1, n, distinct_vars(ts), free, deadline)
    if not different:
        raise CheckFailed(f"forward condition fails: a path from I has {k} steps over pairwise different states")


def check_ends(ts: TransitionSystem, k: int, sink: list[int], solver: str = "cadical195",
               deadline: float | None = None) -> None:
    """Every run ends within k steps in `sink` (a cube over 1..n: a program's state past main)
    and never reaches G: no path from I reaches G within 0..k steps, every path of k steps
    from I ends in `sink`, `sink` is closed under T (U on both sides) and no state of `sink`
    is in G. Then G is unreachable: a path's state at step k lies in `sink`, and so does every
    later one. Unlike the forward condition (`check_forward`: pairwise different states, up to
    k² comparisons, added as models need them) this is one unrolling of k steps, linear in k.
    `deadline`: CheckTimeout once it passes."""
    if not isinstance(k, int) or k < 0:
        raise CheckFailed(f"a proof that every run ends without a valid k ({k!r})")
    n = ts.n
    if not sink or any(not 1 <= abs(lit) <= n for lit in sink):
        raise CheckFailed(f"a proof that every run ends with a set of end states that is no cube over 1..{n}")
    outside_sink = [-lit for lit in sink]
    with Solver(name=solver, bootstrap_with=ts.universal + [[lit] for lit in sink]) as s:
        for clause in ts.goal:
            s.add_clause(clause)
        if solve_until(s, [], deadline):
            raise CheckFailed("an end state is in G")
    with Solver(name=solver, bootstrap_with=ts.universal + ts.trans + _shift(ts.universal, n)) as s:
        for clause in [[lit] for lit in sink] + [_shift([outside_sink], n)[0]]:
            s.add_clause(clause)
        if solve_until(s, [], deadline):
            raise CheckFailed("a step leaves the end states")
    with Solver(name=solver, bootstrap_with=ts.init) as s:
        _no_goal_below(s, ts, k + 1, (k + 1) * n + 1, deadline)
        s.add_clause(_shift([outside_sink], k * n)[0])
        if solve_until(s, [], deadline):
            raise CheckFailed(f"a path from I has not ended after {k} steps")


def mentioned_outside_goal(ts: TransitionSystem) -> set[int]:
    """Variables of 1..n that I, U or T (either half) mention."""
    n = ts.n
    out = {abs(lit) for clauses in (ts.init, ts.universal) for c in clauses for lit in c}
    out.update(abs(lit) - n if abs(lit) > n else abs(lit) for c in ts.trans for lit in c)
    return out


def step_goal(ts: TransitionSystem, definitions: list[tuple[int, list[Clause]]],
              solver: str = "cadical195") -> tuple[list[Clause], list[Clause]]:
    """What a state that is not last in the step case satisfies: (defs, rest) with defs in force
    and some clause of rest false. CheckFailed if `definitions` are not what they claim.

    rest is G without the definitions, without the clauses U contains and without T's clauses
    over current variables only (those hold anyway in a state with a successor). Why this is
    sound: a state s_t (t < m) of a shortest path s_0..s_m to G is no G-state, else the path
    would end there. Its definition outputs occur in no clause of I, U or T, so giving them the
    values the definitions compute (they exist: each definition is total, checked below, in
    dependency order) keeps the path a path; then s_t has defs true, G still false, hence some
    clause of rest false. The outputs are not compared by the simple-path constraints (they are
    neither in T nor in I), so the path stays simple."""
    n = ts.n
    goal_set = {frozenset(c) for c in ts.goal}
    mentioned = mentioned_outside_goal(ts)
    outputs = [o for o, _ in definitions]
    if len(set(outputs)) != len(outputs):
        raise CheckFailed("a goal variable is defined twice")
    all_outputs = set(outputs)
    earlier: set[int] = set()
    defs: list[Clause] = []
    # Totality of every definition, each by one call under its own switch in one solver: for
    # every value of its inputs, o true or o false satisfies all its clauses.
    totality: list[Clause] = []
    switches: list[tuple[int, int]] = []
    free = n + 1
    for output, clauses in definitions:
        if not 1 <= output <= n or output in mentioned:
            raise CheckFailed(f"goal definition of variable {output}: not a variable G alone mentions")
        for c in clauses:
            if frozenset(c) not in goal_set:
                raise CheckFailed(f"goal definition of variable {output}: clause {c} is not in G")
            for lit in c:
                v = abs(lit)
                if v != output and v in all_outputs and v not in earlier:
                    raise CheckFailed(f"goal definition of variable {output} uses {v}, defined later")
        when_true = [[x for x in c if x != -output] for c in clauses if output not in c]
        when_false = [[x for x in c if x != output] for c in clauses if -output not in c]
        switch = free
        neg_true, free = _negation(when_true, free + 1)
        neg_false, free = _negation(when_false, free)
        totality += [c + [-switch] for c in neg_true + neg_false]
        switches.append((output, switch))
        earlier.add(output)
        defs += [list(c) for c in clauses]
    if switches:
        with Solver(name=solver, bootstrap_with=totality) as s:
            for output, switch in switches:
                if s.solve(assumptions=[switch]):
                    raise CheckFailed(f"goal definition of variable {output} is not total")
    def_set = {frozenset(c) for c in defs}
    always = {frozenset(c) for c in ts.universal}
    always.update(frozenset(c) for c in ts.trans if all(abs(lit) <= n for lit in c))
    rest = [list(c) for c in ts.goal if frozenset(c) not in def_set and frozenset(c) not in always]
    return defs, rest


def check_k_induction(ts: TransitionSystem, k: int, definitions: list[tuple[int, list[Clause]]] | None = None,
                      solver: str = "cadical195") -> None:
    """k-induction: no path from I reaches G within 0..k−1 steps (base case), and no k+1 states
    s_0..s_k, pairwise different on `distinct_vars`, with U in all, T between neighbours, G in
    s_k and not in s_0..s_{k−1} (`step_goal`) — the last k steps of a shortest path to G of
    length ≥ k would be such states."""
    if not isinstance(k, int) or k < 0:
        raise CheckFailed(f"k-induction without a valid k ({k!r})")
    _check_no_goal_below(ts, k, solver)
    n = ts.n
    defs, rest = step_goal(ts, definitions or [], solver)
    clauses = _unrolled(ts, k + 1) + _shift(ts.goal, k * n)
    free = (k + 1) * n + 1
    for j in range(k):
        clauses += _shift(defs, j * n)
        negated, free = _negation(_shift(rest, j * n), free)
        clauses += negated
    if not _unsat_over_different_states(clauses, k + 1, n, distinct_vars(ts), free, solver):
        raise CheckFailed(f"step case fails: {k + 1} pairwise different states reach G only in the last")
