"""Incremental unroller (bounded model checking) on PySAT: the step(k) scheme of the LLUMC
paper, §2.0.1. Finds the shortest path to the goal; proves nothing (no path → unknown).

step(0): add I(0), U(0), (a_0 ∨ G(0)); solve under ¬a_0
step(k): add T(k−1,k), U(k), (a_k ∨ G(k)); solve under ¬a_k

Copy k of variable j is k·S + j with S = n + 3 per step: the three extra variables of a
step are its goal activation literal a_k, its guard r_k ("step k is part of the path", only
used by the gap schedules) and the selector of a gap ending at k.
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
        self.calls = 0
        # The wrapped solver's own add_clause: two Python call layers fewer per clause, which
        # is a third of the time of unrolling a big U (freecell: 119k clauses per step).
        self.add: Callable[[Clause], object] = self.sat.solver.add_clause

    def solve(self, assumptions: list[int]) -> bool:
        """SAT under assumptions; raises _Deadline when the deadline passes, Interrupted on ^C."""
        self.calls += 1
        try:
            if self.deadline is None:
                return bool(self.sat.solve(assumptions=assumptions))
            while True:
                if time.monotonic() + self._last_slice >= self.deadline:
                    raise _Deadline()
                try:
                    self.sat.conf_budget(self._budget)
                    started = time.monotonic()
                    answer = self.sat.solve_limited(assumptions=assumptions)
                except NotImplementedError:  # Lingeling: no budgets, one unbounded call
                    return bool(self.sat.solve(assumptions=assumptions))
                spent = time.monotonic() - started
                self._last_slice = spent
                if answer is not None:
                    return answer
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
    (Unrolling, not solving, dominates BMC on big files: freecell adds 119 k clauses a step.)"""

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

    def add_to(self, add: Callable[[Clause], object], offset: int, extra: list[int]) -> None:
        if offset:
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
) -> SolveResult:
    """Shortest path from I to G (sat, with the trace), or unknown (max_steps, timeout, ^C).

    `schedule`: "linear" solves at every depth (the paper's scheme); "every:S" and "exp" (IncPlan
    style) solve only at depths S, 2S, … or 1, 2, 4, …, each time asking for a goal anywhere in
    the gap since the last call, and on success search that gap for the shortest path.
    `free_goals`: after a refuted depth, permanently add a_k so the solver can drop G(k).
    `min_steps`: lengths below it are known to have no path (IC3's frames say so when it
    shortens its path): they are unrolled but not solved.
    """
    validate_schedule(schedule)
    started = time.monotonic()
    deadline = None if timeout is None else started + timeout
    n = ts.n
    stride = n + 3
    gaps = schedule != "linear"
    points = _schedule_points(schedule, max_steps)
    sat = LimitedSolver(solver, deadline)
    refuted = -1  # every depth ≤ refuted is proven to have no path

    def var(step: int, j: int) -> int:
        return step * stride + j

    def act(step: int) -> int:
        return step * stride + n + 1

    def guard(step: int) -> int:
        return step * stride + n + 2

    def gap_selector(step: int) -> int:
        return step * stride + n + 3

    init, universal, goal = ClauseShifter(ts.init), ClauseShifter(ts.universal), ClauseShifter(ts.goal)
    # Upper-half literal n+j of T becomes step·S + j = (n+j) + (S−n) + (step−1)·S.
    trans = ClauseShifter(ts.trans, upper=n, upper_shift=stride - n)

    def add_step(k: int) -> None:
        if k == 0:
            init.add_to(sat.add, 0, [])
            universal.add_to(sat.add, 0, [])
        else:
            extra = [-guard(k)] if gaps else []
            trans.add_to(sat.add, (k - 1) * stride, extra)
            universal.add_to(sat.add, k * stride, extra)
            if gaps:
                sat.add([act(k), guard(k)])  # goal at k ⇒ step k is real
                if k >= 2:
                    sat.add([-guard(k), guard(k - 1)])
        goal.add_to(sat.add, k * stride, [act(k)])

    def trace_of(k: int) -> list[list[int]]:
        model = sat.model()
        value = {abs(lit): lit > 0 for lit in model}
        # A variable absent from the model occurs in no clause: any value satisfies.
        return [
            [j if value.get(var(step, j), False) else -j for j in range(1, n + 1)] for step in range(k + 1)
        ]

    def finish(result: SolveResult) -> SolveResult:
        result.engine = "bmc"
        result.stats.update({"seconds": time.monotonic() - started, "sat_calls": sat.calls, "depth": refuted})
        sat.delete()
        return result

    def unknown(reason: str) -> SolveResult:
        depth = "no depth refuted" if refuted < 0 else f"no path of length ≤ {refuted}"
        return finish(SolveResult("unknown", steps=refuted if refuted >= 0 else None, reason=f"{reason} ({depth})"))

    built = -1
    try:
        for point in points:
            while built < point:
                if deadline is not None and time.monotonic() >= deadline:
                    raise _Deadline()
                if built % 16 == 0 and near_limit():
                    return unknown("memory limit")
                built += 1
                add_step(built)
            if point < min_steps:
                hit = None  # known to have no path: not solved
            elif not gaps:
                found = sat.solve([-act(point)])
                hit = point if found else None
            else:
                window = list(range(refuted + 1, point + 1))
                selector = gap_selector(point)
                sat.add([-selector] + [-act(j) for j in window])
                hit = None
                if sat.solve([selector]):
                    for j in window:  # the shortest path lies in this gap
                        if sat.solve([-act(j)]):
                            hit = j
                            return finish(SolveResult("sat", steps=j, trace=trace_of(j)))
                        refuted = j
                        if free_goals:
                            sat.add([act(j)])
                    if hit is None:
                        raise AssertionError("gap had a path but no depth in it has one")
                sat.add([-selector])
            if hit is not None:
                trace = trace_of(hit)
                return finish(SolveResult("sat", steps=hit, trace=trace))
            for j in range(refuted + 1, point + 1):
                if free_goals:
                    sat.add([act(j)])
            refuted = point
            if progress is not None and point >= min_steps:
                progress({"engine": "bmc", "depth": refuted, "seconds": time.monotonic() - started})
        return unknown(f"max-steps {max_steps} reached")
    except _Deadline:
        return unknown("timeout")
    except (Interrupted, KeyboardInterrupt):
        return unknown("interrupted")
