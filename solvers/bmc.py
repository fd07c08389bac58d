"""Incremental unroller (bounded model checking) on PySAT: the step(k) scheme of the LLUMC
paper, §2.0.1. Finds the shortest path to the goal; with `completeness` it also proves G
unreachable once no path from I of some length k runs over pairwise different states (the
forward condition of Eén & Sörensson, 2003), else no path → unknown.

step(0): add I(0), U(0), (a_0 ∨ G(0)); solve under ¬a_0
step(k): add T(k−1,k), U(k), (a_k ∨ G(k)); solve under ¬a_k

Copy k of variable j is bases[k] + j, with a block of S = n + 3 variables per step (`Unroller`):
the three extra variables of a step are its goal activation literal a_k, its guard r_k ("step
k is part of the path", only used by the gap schedules) and the selector of a gap ending at k.
"""

from __future__ import annotations

import itertools
import operator
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pysat.solvers import Solver, SolverNames

from solvers.memory import near_limit
from solvers.result import SolveResult
from solvers.transys import Clause, TransitionSystem

Progress = Callable[[dict], None]

DEFAULT_SOLVER = "cadical195"
# Kissat in PySAT ignores assumptions (measured: it answers SAT under contradicting
# assumptions), which would make every incremental answer wrong; CryptoMiniSat needs a
# package we do not ship.
_UNUSABLE = {"kissat404", "cryptosat"}


class SolverNameError(ValueError):
    """Unknown or unusable PySAT solver name; the message lists the valid ones."""


def _aliases() -> dict[str, str]:
    """Every PySAT alias of a usable solver → its canonical name (e.g. 'cd19' → 'cadical195')."""
    out: dict[str, str] = {}
    for attr, names in vars(SolverNames).items():
        if attr.startswith("_") or attr in _UNUSABLE or not isinstance(names, tuple):
            continue
        canonical = attr if attr in names else names[0]
        for alias in names:
            out[alias] = canonical
    return out


def solver_names() -> list[str]:
    """Canonical names of the PySAT solvers usable here (incremental, with assumptions)."""
    return sorted(set(_aliases().values()))


def validate_solver_name(name: str) -> str:
    """The canonical PySAT name for `name` (aliases allowed), or SolverNameError."""
    canonical = _aliases().get(name.lower())
    if canonical is None:
        raise SolverNameError(f"unknown SAT solver {name!r}; valid: {', '.join(solver_names())}")
    return canonical


class Interrupted(Exception):
    """Ctrl-C during a SAT call (PySAT turns SIGINT into its own error type)."""


class _Deadline(Exception):
    """The time limit passed during a SAT call."""


class OutOfBudget(Exception):
    """A SAT call given a budget of its own (`LimitedSolver.solve(…, budget=)`) used it up."""


@dataclass
class Allowance:
    """How much time an optional kind of query (the forward condition, k-induction's step case)
    may take: `base` seconds plus `share` × the time the engine spent on everything else. A query
    gets what is left as its budget (`LimitedSolver.solve(…, budget=)`) and is given up when it
    runs out — losing nothing but time: a forward condition or step case that holds at k holds at
    every larger k too, and is asked again there. So a hard query (two states of a pigeonhole
    count cannot be told apart for long) never stops the search for paths."""

    share: float
    base: float
    spent: float = 0.0
    given_up: int = 0
    skipped: int = 0

    def left(self, elapsed: float) -> float:
        """Seconds left now that the engine has run `elapsed` seconds in all."""
        return self.base + self.share * (elapsed - self.spent) - self.spent

    def ask(self, query: Callable[[float], bool | None], last: bool, started: float) -> bool | None:
        """`query(budget)` within what is left (`last_chance` when `last`), its time counted as
        spent; None when skipped (nothing left) or given up (the query answered None)."""
        now = time.monotonic()
        left = last_chance(self, now - started) if last else self.left(now - started)
        if left <= 0:
            self.skipped += 1
            return None
        try:
            answer = query(left)
        finally:
            self.spent += time.monotonic() - now
        if answer is None:
            self.given_up += 1
        return answer


@dataclass
class LimitedSolver:
    """A PySAT solver whose solve() honours a deadline.

    Why conflict-budget slices rather than `interrupt()` from a `threading.Timer`: PySAT's
    CaDiCaL bindings hold the GIL during `solve_limited`, so a timer thread never runs until
    the call returns (measured on pigeonhole 11: the timer fired only after 60+ s). A slice
    of a few thousand conflicts returns within milliseconds, and CaDiCaL keeps its learnt
    clauses between slices.
    """

    name: str
    deadline: float | None = None

    def __post_init__(self) -> None:
        self.sat = Solver(name=validate_solver_name(self.name))
        self._budget = 2000
        # Seconds the last slice took: a slice is not started when it would likely end past the
        # deadline. Even 2000 conflicts can take seconds on a deep unrolling (safe_loop at depth
        # ~2400: 3–4 s per slice, measured), which made `--timeout 60` end after 65 s.
        self._last_slice = 0.0
        # Conflicts per second, from the last slice that used up its conflicts: a call with a
        # budget of its own runs slices of the conflicts that fit in what is left of it, and
        # gives up before a slice when the last such slice took longer than what is left (on a
        # step case of f.aig, 50 conflicts took seconds: ~20 conflicts/s, inprocessing between).
        self._rate: float | None = None
        self._last_budget_slice = 0.0
        self.calls = 0
        # The wrapped solver's own add_clause: two Python call layers fewer per clause, which
        # is a third of the time of unrolling a big U (freecell: 119k clauses per step).
        self.add: Callable[[Clause], object] = self.sat.solver.add_clause

    def solve(self, assumptions: list[int], budget: float | None = None) -> bool:
        """SAT under assumptions; raises _Deadline when the deadline passes, OutOfBudget when the
        call took `budget` seconds (checked between slices), Interrupted on ^C."""
        self.calls += 1
        own_end = None if budget is None else time.monotonic() + budget
        try:
            if self.deadline is None and own_end is None:
                return bool(self.sat.solve(assumptions=assumptions))
            while True:
                now = time.monotonic()
                if self.deadline is not None and now + self._last_slice >= self.deadline:
                    raise _Deadline()
                if own_end is not None and now + self._last_budget_slice >= own_end:
                    raise OutOfBudget()
                conflicts = self._budget
                if own_end is not None:  # the conflicts that fit in the call's own budget
                    fit = 200 if self._rate is None else int(self._rate * (own_end - now))
                    conflicts = max(50, min(conflicts, fit))
                try:
                    self.sat.conf_budget(conflicts)
                    started = time.monotonic()
                    answer = self.sat.solve_limited(assumptions=assumptions)
                except NotImplementedError:  # Lingeling: no budgets, one unbounded call
                    return bool(self.sat.solve(assumptions=assumptions))
                spent = time.monotonic() - started
                if conflicts == self._budget:
                    self._last_slice = spent
                else:  # a slice cut short for a budget: it predicts full ones from below only
                    self._last_slice = max(self._last_slice, spent)
                    self._last_budget_slice = spent
                if answer is not None:
                    return answer
                self._rate = conflicts / max(spent, 1e-3)
                if conflicts < self._budget:
                    continue
                # Aim at slices of ~0.1 s: responsive to the deadline, cheap in restarts.
                if spent < 0.05:
                    self._budget = min(self._budget * 2, 1_000_000)
                elif spent > 0.3:
                    self._budget = max(self._budget // 2, 100)
        except Exception as err:
            if "keyboard interrupt" in str(err).lower():
                raise Interrupted() from None
            raise

    def model(self) -> list[int]:
        return self.sat.get_model() or []

    def delete(self) -> None:
        self.sat.delete()


class ClauseShifter:
    """A clause set stored flat, so that the copy for a time step is built by C-level `map`
    rather than a Python loop per literal: literal l of step 0 becomes l + sign(l)·offset.
    (Unrolling, not solving, dominates BMC on big files: freecell adds 119 k clauses a step.)

    With `upper`, literals beyond it (T's next-state half) are stored moved by `upper_shift`, and
    `add_to(…, upper_extra=d)` moves them by d more than the others (two copies whose variable
    blocks are not a fixed distance apart)."""

    def __init__(self, clauses: list[Clause], upper: int | None = None, upper_shift: int = 0) -> None:
        flat: list[int] = []
        bounds: list[tuple[int, int]] = []
        for clause in clauses:
            start = len(flat)
            if upper is None:
                flat.extend(clause)
            else:
                flat.extend(lit + upper_shift if lit > upper else lit - upper_shift if -lit > upper else lit
                            for lit in clause)
            bounds.append((start, len(flat)))
        self.flat = flat
        self.signs = [1 if lit > 0 else -1 for lit in flat]
        self.bounds = bounds
        # sign(l) for the literals of the upper half, 0 for the others
        self.upper_signs = None if upper is None else [
            (1 if lit > 0 else -1) if abs(lit) > upper else 0 for clause in clauses for lit in clause]

    def add_to(self, add: Callable[[Clause], object], offset: int, extra: list[int], upper_extra: int = 0) -> None:
        if upper_extra:
            if self.upper_signs is None:
                raise ValueError("upper_extra needs a ClauseShifter built with `upper`")
            lits = list(map(operator.add,
                            map(operator.add, self.flat, map(operator.mul, self.signs, itertools.repeat(offset))),
                            map(operator.mul, self.upper_signs, itertools.repeat(upper_extra))))
        elif offset:
            lits = list(map(operator.add, self.flat, map(operator.mul, self.signs, itertools.repeat(offset))))
        else:
            lits = self.flat
        if extra:
            for start, end in self.bounds:
                add(lits[start:end] + extra)
        else:
            for start, end in self.bounds:
                add(lits[start:end])


def _schedule_points(schedule: str, max_steps: int | None) -> Iterator[int]:
    """Depths at which to call the solver: 0 and then per schedule; the last is max_steps."""
    kind, _, arg = schedule.partition(":")
    if kind == "linear" and not arg:
        step = lambda d: d + 1  # noqa: E731
    elif kind == "every" and arg.isdigit() and int(arg) >= 1:
        every = int(arg)
        step = lambda d: d + every  # noqa: E731
    elif kind == "exp" and not arg:
        step = lambda d: max(1, 2 * d)  # noqa: E731
    else:
        raise ValueError(f"unknown schedule {schedule!r}; valid: linear, every:S (S ≥ 1), exp")
    depth = 0
    while True:
        if max_steps is not None and depth >= max_steps:
            yield max_steps
            return
        yield depth
        depth = step(depth)


def validate_schedule(schedule: str) -> None:
    next(_schedule_points(schedule, None))


def _runs(variables: list[int]) -> list[tuple[int, int]]:
    """Sorted variables as maximal ranges (first, last + 1)."""
    runs: list[tuple[int, int]] = []
    for v in variables:
        if runs and runs[-1][1] == v:
            runs[-1] = (runs[-1][0], v + 1)
        else:
            runs.append((v, v + 1))
    return runs


def equal_pairs(model: list[int], bases: list[int], compare: list[int]) -> list[tuple[int, int]]:
    """Pairs (i, j), i < j, of copies (copy i of variable v is bases[i] + v) that agree on every
    variable of `compare` (sorted) in `model` (PySAT's: model[v−1] is v or −v; missing variables
    false). Within a group of equal copies only neighbours are paired: constraining those makes
    the solver move on, and a group of m copies costs m−1 pairs instead of m(m−1)/2."""
    top = max(bases, default=0) + max(compare, default=0)
    if len(model) < top:
        model = model + [-v for v in range(len(model) + 1, top + 1)]
    runs = _runs(compare)
    last: dict[bytes, int] = {}
    pairs: list[tuple[int, int]] = []
    positive = (0).__lt__
    for i, base in enumerate(bases):
        # The values as bytes, built by C-level map over slices (llumc's state bits are one or
        # a few ranges): this runs once per state per forward query.
        key = b"".join(bytes(map(positive, model[base + lo - 1:base + hi - 1])) for lo, hi in runs)
        if key in last:
            pairs.append((last[key], i))
        last[key] = i
    return pairs


def add_different(add: Callable[[Clause], object], fresh: Callable[[], int], base_a: int, base_b: int,
                  compare: list[int], switch: int | None = None) -> None:
    """Clauses saying that two copies (variable v at base_a + v and at base_b + v) differ on
    some variable of `compare`: e_v → (a_v ≠ b_v) for a fresh e_v each, and ∨ e_v; with a
    `switch`, every clause has ¬switch in it. (Only in the big one was not enough: a goal query,
    switch false, could still decide e_v true, and then had to keep a_v ≠ b_v: on safe_loop the
    goal queries took ~20 % longer by depth 600.)"""
    off = [] if switch is None else [-switch]
    some = []
    for v in compare:
        e = fresh()
        a, b = base_a + v, base_b + v
        add(off + [-e, a, b])
        add(off + [-e, -a, -b])
        some.append(e)
    add(off + some)


class Unroller:
    """The unrolling I(0), U(0..k), T(j−1, j), (a_j ∨ G(j)) in one incremental solver (the step(k)
    scheme), and on it the forward condition: is there a path of k steps from I over pairwise
    different states at all?

    Variables: step k owns the block bases[k] + 1 … bases[k] + S, S = n + 3 (copy of variable
    j: bases[k] + j; then a_k, the guard r_k and the gap selector). Blocks are numbered in the
    order steps are added, and the fresh variables of the distinctness constraints come from
    the same counter between them; without any, bases[k] = k·S.

    The distinctness constraints (two states differ on `distinct_vars`) are added lazily, as in
    Eén & Sörensson (2003): solve, look for two equal states in the model, constrain them,
    solve again. They are switched by one literal, assumed only in forward queries and negated in
    all others, so the goal queries' answers are unaffected."""

    def __init__(self, ts: TransitionSystem, sat: LimitedSolver, gaps: bool = False) -> None:
        from solvers.check import distinct_vars

        n = ts.n
        self.ts, self.sat, self.n, self.gaps = ts, sat, n, gaps
        self.stride = n + 3
        self.bases: list[int] = []
        self.top = 0  # highest variable number handed out
        self.init, self.universal, self.goal = (ClauseShifter(ts.init), ClauseShifter(ts.universal),
                                                ClauseShifter(ts.goal))
        # Upper-half literal n+j of T becomes bases[k] + j = (n+j) + (S−n) + bases[k−1] when the
        # blocks are adjacent; `upper_extra` adds the variables handed out in between.
        self.trans = ClauseShifter(ts.trans, upper=n, upper_shift=self.stride - n)
        self.compare = distinct_vars(ts)
        self.switch: int | None = None  # the distinctness constraints' literal, once there are any
        self.different: set[tuple[int, int]] = set()
        self.stats = {"forward_calls": 0, "forward_seconds": 0.0, "distinct_pairs": 0}

    @property
    def built(self) -> int:
        return len(self.bases) - 1

    def var(self, step: int, j: int) -> int:
        return self.bases[step] + j

    def act(self, step: int) -> int:
        return self.bases[step] + self.n + 1

    def guard(self, step: int) -> int:
        return self.bases[step] + self.n + 2

    def gap_selector(self, step: int) -> int:
        return self.bases[step] + self.n + 3

    def fresh(self) -> int:
        self.top += 1
        return self.top

    def add_step(self) -> None:
        """Add step k = built + 1: T(k−1, k) and U(k) (guarded by r_k for the gap schedules),
        and (a_k ∨ G(k))."""
        k = len(self.bases)
        self.bases.append(self.top)
        self.top += self.stride
        add, base = self.sat.add, self.bases[k]
        if k == 0:
            self.init.add_to(add, 0, [])
            self.universal.add_to(add, 0, [])
        else:
            extra = [-self.guard(k)] if self.gaps else []
            previous = self.bases[k - 1]
            self.trans.add_to(add, previous, extra, upper_extra=base - previous - self.stride)
            self.universal.add_to(add, base, extra)
            if self.gaps:
                add([self.act(k), self.guard(k)])  # goal at k ⇒ step k is real
                if k >= 2:
                    add([-self.guard(k), self.guard(k - 1)])
        self.goal.add_to(add, base, [self.act(k)])

    def solve(self, assumptions: list[int]) -> bool:
        """A goal query: the distinctness constraints switched off."""
        if self.switch is not None:
            assumptions = assumptions + [-self.switch]
        return self.sat.solve(assumptions)

    def trace(self, k: int) -> list[list[int]]:
        model = self.sat.model()
        value = {abs(lit): lit > 0 for lit in model}
        # A variable absent from the model occurs in no clause: any value satisfies.
        n = self.n
        return [
            [j if value.get(self.var(step, j), False) else -j for j in range(1, n + 1)] for step in range(k + 1)
        ]

    def simple_path(self, k: int, budget: float | None = None) -> bool | None:
        """Whether some path of k steps from I (U in every state, T between neighbours; G need not
        hold anywhere) has pairwise different states; None when `budget` seconds did not
        suffice to tell. Needs steps 0..k built. False with no goal within 0..k−1 steps proves G
        unreachable (`solvers.check.check_forward`)."""
        started = time.monotonic()
        try:
            if self.switch is None:
                self.switch = self.fresh()
            assumptions = [self.switch]
            if self.gaps and k >= 1:
                assumptions.append(self.guard(k))  # steps 1..k are real
            while True:
                self.stats["forward_calls"] += 1
                left = None if budget is None else budget - (time.monotonic() - started)
                if left is not None and left <= 0:
                    return None
                try:
                    if not self.sat.solve(assumptions, budget=left):
                        return False
                except OutOfBudget:
                    return None
                equal = equal_pairs(self.sat.model(), self.bases[:k + 1], self.compare)
                fresh = [pair for pair in equal if pair not in self.different]
                if not fresh:
                    if equal:
                        raise AssertionError(f"two states constrained to differ are equal: {equal[0]}")
                    return True
                for i, j in fresh:
                    add_different(self.sat.add, self.fresh, self.bases[i], self.bases[j], self.compare, self.switch)
                    self.different.add((i, j))
                self.stats["distinct_pairs"] = len(self.different)
        finally:
            self.stats["forward_seconds"] += time.monotonic() - started


# The forward condition's share of BMC's time (`Allowance`). Measured on safe_loop of
# dimspec_samples (a loop that runs for ever: the condition never holds; each query finds a
# whole path, ~20 ms at depth 400): asked at every depth, BMC reached depth 430 in 30 s instead
# of 1353; with these values, 762–797 in 10 s instead of 866–919. The half second up front:
# with 0.05 s, a forward query given up early (break/continue loop of 12 iterations: unsat at
# depth 15) used up the allowance of the next ~150 depths, since tiny systems' goal queries
# take milliseconds; it costs a path-finding run at most that much (a.aig: 0.6 → 1.05 s CPU).
FORWARD_SHARE = 0.1
FORWARD_BASE = 0.5


def last_chance(allowance: Allowance, elapsed: float) -> float:
    """The budget at the last depth (`max_steps`): what the allowance leaves, but at least as
    long as the search took so far plus a second (tiny systems always get their answer)."""
    return max(allowance.left(elapsed), elapsed + 1.0)


def ask_forward(allowance: Allowance, unroller: Unroller, k: int, last: bool, started: float) -> bool | None:
    """`unroller.simple_path(k)` within what `allowance` leaves (`last_chance` when `last`);
    None when skipped or given up."""
    return allowance.ask(lambda budget: unroller.simple_path(k, budget=budget), last, started)


def bmc(
    ts: TransitionSystem,
    *,
    solver: str = DEFAULT_SOLVER,
    max_steps: int | None = None,
    timeout: float | None = None,
    progress: Progress | None = None,
    schedule: str = "linear",
    free_goals: bool = True,
    min_steps: int = 0,
    completeness: bool = False,
) -> SolveResult:
    """Shortest path from I to G (sat, with the trace), unsat by the forward condition (with
    `completeness`), or unknown (max_steps, timeout, ^C).

    `schedule`: "linear" solves at every depth (the paper's scheme); "every:S" and "exp" (IncPlan
    style) solve only at depths S, 2S, … or 1, 2, 4, …, each time asking for a goal anywhere in
    the gap since the last call, and on success search that gap for the shortest path.
    `free_goals`: after a refuted depth, permanently add a_k so the solver can drop G(k).
    `min_steps`: lengths below it are known to have no path (IC3's frames say so when it
    shortens its path): they are unrolled but not solved.
    `completeness`: after a refuted depth k, also ask whether a path of k steps from I over
    pairwise different states exists at all (`Unroller.simple_path`); if none does, every
    execution ends before reaching G: unsat with proof "forward" and k. These queries may take
    a tenth of the time of the others plus 0.5 s (`Allowance`: asked at a depth when some is
    left, given up when it runs out); at the last depth (`max_steps`) a query gets at least as
    long as the search took (`last_chance`).
    """
    validate_schedule(schedule)
    started = time.monotonic()
    deadline = None if timeout is None else started + timeout
    gaps = schedule != "linear"
    points = _schedule_points(schedule, max_steps)
    sat = LimitedSolver(solver, deadline)
    unroller = Unroller(ts, sat, gaps)
    forward = Allowance(FORWARD_SHARE, FORWARD_BASE)
    refuted = -1  # every depth ≤ refuted is proven to have no path

    def finish(result: SolveResult) -> SolveResult:
        result.engine = "bmc"
        result.stats.update({"seconds": time.monotonic() - started, "sat_calls": sat.calls, "depth": refuted})
        if completeness:
            result.stats.update(unroller.stats)
            result.stats.update({"forward_given_up": forward.given_up, "forward_skipped": forward.skipped})
        sat.delete()
        return result

    def unknown(reason: str) -> SolveResult:
        depth = "no depth refuted" if refuted < 0 else f"no path of length ≤ {refuted}"
        return finish(SolveResult("unknown", steps=refuted if refuted >= 0 else None, reason=f"{reason} ({depth})"))

    try:
        for point in points:
            while unroller.built < point:
                if deadline is not None and time.monotonic() >= deadline:
                    raise _Deadline()
                if unroller.built % 16 == 0 and near_limit():
                    return unknown("memory limit")
                unroller.add_step()
            act = unroller.act
            if point < min_steps:
                hit = None  # known to have no path: not solved
            elif not gaps:
                found = unroller.solve([-act(point)])
                hit = point if found else None
            else:
                window = list(range(refuted + 1, point + 1))
                selector = unroller.gap_selector(point)
                sat.add([-selector] + [-act(j) for j in window])
                hit = None
                if unroller.solve([selector]):
                    for j in window:  # the shortest path lies in this gap
                        if unroller.solve([-act(j)]):
                            hit = j
                            return finish(SolveResult("sat", steps=j, trace=unroller.trace(j)))
                        refuted = j
                        if free_goals:
                            sat.add([act(j)])
                    if hit is None:
                        raise AssertionError("gap had a path but no depth in it has one")
                sat.add([-selector])
            if hit is not None:
                return finish(SolveResult("sat", steps=hit, trace=unroller.trace(hit)))
            for j in range(refuted + 1, point + 1):
                if free_goals:
                    sat.add([act(j)])
            refuted = point
            if completeness and point >= min_steps and ask_forward(forward, unroller, point, point == max_steps,
                                                                    started) is False:
                return finish(SolveResult("unsat", steps=point, proof="forward", k=point))
            if progress is not None and point >= min_steps:
                progress({"engine": "bmc", "depth": refuted, "seconds": time.monotonic() - started})
        return unknown(f"max-steps {max_steps} reached")
    except _Deadline:
        return unknown("timeout")
    except (Interrupted, KeyboardInterrupt):
        return unknown("interrupted")
