"""IC3 / PDR (Bradley, "SAT-based model checking without unrolling", 2011) on DimSpec.

The names follow the paper and IC3ref (Bradley's reference implementation): frames F_0..F_k,
proof obligations, relative induction (consecution), inductive generalisation (`mic`) with
counterexamples to generalisation (`ctg_down`, Hassan–Bradley–Somenzi 2013), clause
propagation, termination when two adjacent frames agree.

DimSpec semantics (see transys.py): a state is an assignment of the *state* variables; the
auxiliary variables (inputs, Tseitin variables) are chosen afresh in every step, so every cube,
lemma and the invariant mention state variables only. U holds in every state of a path, T links
step j (variables 1..n) to step j+1 (n+1..2n), G is checked in the last state.

One incremental SAT solver per frame, as in IC3ref, ABC's pdr and rIC3: the solver of F_i holds
U, T ∧ U' (switched by `act_trans` unless T is functional), I unguarded for F_0, and the lemmas
of levels ≥ i unguarded (a lemma of level L belongs to F_1..F_L). A query thus carries only its
cube and at most one switch; with one shared solver and a switch per level, a SAT call on d.aig
took about a quarter longer (236 µs against 190 µs, measured during development). G lives in a
solver of its own for F_k ∧ G, a further one lifts predecessors. Every solver numbers its
variables densely (`_CompactSolver`).

Generalisation of a functional system follows rIC3's dynamic scheme (`_ctg_budget`): lemmas
from plain literal dropping while obligations are new, counterexamples to generalisation (CTGs)
for obligations that keep coming back. Relational systems keep IC3ref's fixed limits.

IC3 searches forward from I, backward from G (the same search on `TransitionSystem.reversed`),
or both in turns (`ic3(direction=…)`): planning problems, with one initial state and a goal
that leaves most of the state open, are solved from the goal (freecell.spec: ~11 s backward,
no answer in 300 s forward). A path longer than the frame it was found at is shortened by the
unroller over the lengths the frames leave open (`_shorten`).

Lifting a predecessor s (with aux values a) of cube t to a cube by an unsat core of
s ∧ a ∧ U ∧ T ∧ ¬t' is exact only when the aux values we fix are free inputs and T, U define
everything else as functions (AIGER, llumc's encoder). `_analyse_definitions` recognises that
case syntactically (every clause of U and T belongs to an AND/OR/equivalence definition, acyclic)
and then fixes only the inputs. For other files (planning: relational T) lifting may be too
general; the counterexample is always rebuilt by one concrete SAT call over the unrolling, and
if that fails, lifting is switched off (full state cubes are exact) and the search goes on — the
lemmas learnt so far stay valid because each was proved by relative induction.
"""

from __future__ import annotations

import gc
import heapq
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from pysat.solvers import Solver

from solvers.bmc import ClauseShifter, bmc
from solvers.gates import acyclic as _acyclic, find_definitions
from solvers.memory import near_limit
from solvers.result import SolveResult
from solvers.transys import Clause, TransitionSystem

Cube = list[int]
Progress = Callable[[dict], None]

# Inductive generalisation. Functional systems (AIGER circuits, llumc encodings whose T is all
# definitions): a CTG budget per obligation (rIC3's dynamic generalisation): none until the
# obligations around it came back CTG_THRESHOLD times, then more with their activity, up to
# CTG_MAX_COUNT. Relational systems (planning files, llumc's other encodings): IC3ref's fixed
# limits, which suit them better (measured: large_const of LLUMC's set 0.3 s with them, frame
# 821 after 60 s with the dynamic budget; gcd_4 19 s against > 60 s). CTGs are blocked without
# further CTGs in both (IC3ref's maxDepth 1).
IC3REF_ATTEMPTS = 3  # micAttempts: failed drops in a row before `mic` gives up
IC3REF_CTGS = 3  # maxCTGs
CTG_THRESHOLD = 4.0
CTG_MAX_COUNT = 5
CTG_MAX_DEPTH = 1
# A cube this large makes every dropping attempt a SAT call on a large solver: stronger
# lemmas (one CTG) pay there from the start (b.aig: 24 s with, > 200 s without).
BIG_CUBE = 256
# Literal order for dropping, functional systems: recent lemmas count more (ABC ages its
# priorities); relational systems keep IC3ref's plain counts.
ACTIVITY_DECAY = 0.9
PUSH_DECAY = 0.6  # an obligation's activity, per level it is pushed up (rIC3)
REBUILD_MIN = 2000
PROGRESS_INTERVAL = 1.0  # seconds between progress reports
# Running both directions: each search runs this long, then hands over to the other. Seconds, not
# SAT calls: a call may cost several times more in one direction (gcd_4 of LLUMC's set: turns of
# 1000 calls left the forward search, 20 s alone, unfinished after 60 s).
SLICE_SECONDS = 0.5
MEMORY_CHECK_EVERY = 256  # SAT calls between two looks at the memory used (`solvers.memory`)


class _Stop(Exception):
    """Deadline reached or the SAT call was interrupted."""


@dataclass
class _Obligation:
    """A cube that must be shown unreachable within `level` steps; `succ` leads towards G."""

    cube: Cube
    level: int
    depth: int
    succ: _Obligation | None = None
    act: float = 0.0  # how often it was handled (it comes back while its predecessors are blocked)


@dataclass
class _Numbered:
    """Clauses in a solver's dense numbering, and that numbering (`_CompactSolver.number`)."""

    var: dict[int, int]
    top: int
    clauses: list[Clause]


class _CompactSolver:
    """A SAT solver that numbers variables densely, in order of first use.

    PySAT's solvers create every variable up to the highest one they are given and decide each
    of them in every satisfiable call. A frame solver of an AIGER circuit needs the cones of the
    latches its queries mention, not the whole circuit: on b.aig (15k variables) the same
    queries cost 4× as much with the DimSpec numbering (measured, minisat22)."""

    def __init__(self, name: str, base: _Numbered) -> None:
        self.solver = Solver(name=name)
        self.var: dict[int, int] = dict(base.var)  # IC3 variable -> solver variable
        self.top = base.top
        self.dead = 0  # selectors of past queries (each adds a little to every later call)
        self.loaded: set[int] = set()  # T definitions added (lazy cones)
        self.loaded_state: set[int] = set()  # latches whose cones are added
        self.solver.append_formula(base.clauses)

    @staticmethod
    def number(clauses: list[Clause]) -> _Numbered:
        """Clauses every solver of a kind starts with, numbered once: a planning file's U
        (freecell: 119k clauses) is then not renumbered for each new frame solver."""
        var: dict[int, int] = {}
        mapped = []
        for clause in clauses:
            mapped.append([(var.setdefault(abs(x), len(var) + 1)) * (1 if x > 0 else -1) for x in clause])
        return _Numbered(var, len(var), mapped)

    def lit(self, lit: int) -> int:
        v = abs(lit)
        s = self.var.get(v)
        if s is None:
            self.top += 1
            s = self.var[v] = self.top
        return s if lit > 0 else -s

    def lits(self, lits: Cube) -> Cube:
        """`lit` over a list, fast when every variable is known already (the usual case)."""
        var = self.var
        try:
            return [var[x] if x > 0 else -var[-x] for x in lits]
        except KeyError:
            return [self.lit(x) for x in lits]

    def fresh(self) -> int:
        """A variable of this solver only (a query's selector)."""
        self.top += 1
        return self.top

    def add(self, clause: Clause, selector: int | None = None) -> None:
        mapped = self.lits(clause)
        if selector is not None:
            mapped.append(selector)
        self.solver.add_clause(mapped)

    def values(self, model: list[int], variables: list[int]) -> Cube:
        """The model's literals of `variables`; a variable the solver never saw is unconstrained
        by everything it holds and reads as false."""
        get = self.var.get
        return [v if (s := get(v)) is not None and model[s - 1] > 0 else -v for v in variables]


@dataclass
class _Point:
    """A state read from a model, and the aux values (free inputs) lifting fixes with it."""

    state: Cube
    inputs: list[int]


@dataclass
class _Definitions:
    """What `_analyse_definitions` found out about U and T."""

    functional: bool  # U and T are acyclic definitions plus constraints (below)
    u_total: bool  # U only defines aux variables: every state extends to U, so U' is redundant
    inputs: list[int] = field(default_factory=list)  # aux variables no definition fixes
    # G split into definitions of aux variables (consistent with those of U and T) and the rest:
    # lifting a G-state negates only the rest.
    goal_defs: list[Clause] = field(default_factory=list)
    goal_rest: list[Clause] = field(default_factory=list)
    # Functional systems: the definitions of T (output -> input variables, and its clauses), so
    # that solvers load only the cones of the latches a query mentions.
    t_defs: dict[int, list[int]] = field(default_factory=dict)
    t_clauses: dict[int, list[Clause]] = field(default_factory=dict)
    # Clauses of U and of T that define nothing: constraints on a state (llumc: the range of
    # `curr`) and on a step (an assumption inside a loop, with its Plaisted–Greenbaum
    # half-definitions, whose outputs count as inputs).
    u_constraints: list[Clause] = field(default_factory=list)
    t_constraints: list[Clause] = field(default_factory=list)


def _analyse_definitions(ts: TransitionSystem, state: set[int]) -> _Definitions:
    """Recognise Tseitin definitions o ↔ AND(l_1..l_m) (OR and equivalence are the same shape
    with other signs): clauses (¬o ∨ l_i) and (o ∨ ¬l_1 ∨ … ∨ ¬l_m), and multiplexers
    (`solvers.gates`). Outputs must be auxiliary variables of the current step or next-state
    variables, inputs current variables.

    Written by hand: this is a syntactic gate detection on the CNF of a DimSpec file, which no
    library offers; it only decides how IC3 lifts, never a verdict (those are checked).
    """
    n = ts.n
    aux = set(range(1, n + 1)) - state

    # U and T may hold, besides definitions, constraints: on a state in U (llumc: `curr`
    # names a block, so 3 of its 8 codes are excluded), on a step in T (an assumption in a
    # loop). Definitions stay functions of the state and the inputs; constraints only cut
    # states and steps out, which every solver keeps and lifting respects (`_build_solvers`).
    u_ok, u_defs, u_clauses = find_definitions(ts.universal, aux, n, strict=False)
    u_definitional = {frozenset(c) for cs in u_clauses.values() for c in cs}
    constraints = [c for c in ts.universal if frozenset(c) not in u_definitional]
    t_ok, t_defs, t_clauses = find_definitions(ts.trans, aux | {v + n for v in state}, n, strict=False)
    t_definitional = {frozenset(c) for cs in t_clauses.values() for c in cs}
    t_constraints = [c for c in ts.trans if frozenset(c) not in t_definitional]
    # A circuit defines every next state it mentions; a constraint on an undefined one makes T a
    # relation (planning files' frame axioms), which lifting by inputs cannot handle.
    if any(abs(lit) > n and abs(lit) not in t_defs for c in t_constraints for lit in c):
        t_ok = False
    # One aux variable defined in both U and T the same way is fine (a copy); differently: not.
    for v, ins in t_defs.items():
        if v in u_defs and sorted(u_defs[v]) != sorted(ins):
            t_ok = False
    defs = dict(u_defs)
    defs.update(t_defs)
    acyclic = _acyclic(defs)
    functional = u_ok and t_ok and acyclic
    u_total = u_ok and not constraints and _acyclic(u_defs)
    goal_defs: list[Clause] = []
    goal_rest: list[Clause] = list(ts.goal)
    if functional:
        # The clauses of G that define aux variables the same way U and T do, or new ones.
        _, g_defs, g_clauses = find_definitions([c for c in ts.goal if len(c) > 1], aux, n, strict=False)
        g_defs = {v: ins for v, ins in g_defs.items() if v not in defs or sorted(defs[v]) == sorted(ins)}
        merged = dict(defs)
        merged.update(g_defs)
        if _acyclic(merged):
            definitional = {frozenset(c) for v in g_defs for c in g_clauses[v]}
            goal_defs = [c for c in ts.goal if len(c) > 1 and frozenset(c) in definitional]
            goal_rest = [c for c in ts.goal if not (len(c) > 1 and frozenset(c) in definitional)]
            defs = merged
    inputs = sorted(v for v in aux if v not in defs)
    return _Definitions(functional=functional, u_total=u_total, inputs=inputs,
                        goal_defs=goal_defs, goal_rest=goal_rest,
                        t_defs=t_defs if functional else {}, t_clauses=t_clauses if functional else {},
                        u_constraints=constraints if functional else [],
                        t_constraints=t_constraints if functional else [])


def _shift(clause: Clause, offset: int) -> Clause:
    return [lit + offset if lit > 0 else lit - offset for lit in clause]


class IC3:
    """One IC3 run on one transition system; `run()` returns the SolveResult."""

    def __init__(
        self,
        ts: TransitionSystem,
        solver: str,
        timeout: float | None,
        progress: Progress | None,
        lifting: bool = True,
        direction: str = "forward",
    ) -> None:
        self.ts = ts
        # "backward" when `ts` is a reversed system (`TransitionSystem.reversed`): only named in
        # progress reports and results; the search itself is the same.
        self.direction = direction
        self.pause_at: float | None = None  # `search` yields at the first obligation after this time
        self.n = n = ts.n
        self.solver_name = solver
        self.deadline = time.monotonic() + timeout if timeout is not None else None
        self.progress = progress
        # A variable whose next copy T mentions carries information across steps: state, even if
        # a producer declared it auxiliary.
        state = set(ts.state_vars())
        for clause in ts.trans:
            state.update(abs(lit) - n for lit in clause if abs(lit) > n)
        self.state_vars = sorted(state)
        self.stats = {"sat_calls": 0, "lemmas": 0, "ctgs": 0, "obligations": 0, "lift_fallbacks": 0, "pushes_skipped": 0}
        # Many small lists and tuples, no cycles: the cyclic GC would only rescan them.
        gc_was_on = gc.isenabled()
        gc.disable()
        try:
            self.defs = _analyse_definitions(ts, state)
        finally:
            if gc_was_on:
                gc.enable()
        self.functional = self.defs.functional
        self.lifting = lifting
        # Aux values fixed while lifting: only free inputs when everything else is a function of
        # them; otherwise all aux values (may over-generalise; see module docstring).
        if self.functional:
            self.lift_aux = self.defs.inputs
        else:
            self.lift_aux = sorted(set(range(1, n + 1)) - state)
        # I as a cube over state variables (the usual case): initiation is then syntactic.
        self.init_units: set[int] | None = None
        self.init_negated: set[int] | None = None  # the units' negations: a cube excludes I iff it has one
        if all(len(c) == 1 and abs(c[0]) in state for c in ts.init):
            self.init_units = {c[0] for c in ts.init}
            self.init_negated = {-lit for lit in self.init_units}
        self.frames: list[set[tuple[int, ...]]] = [set(), set()]  # lemmas (as cubes) by level
        self.level_of: dict[tuple[int, ...], int] = {}
        self.occurs: dict[int, set[tuple[int, ...]]] = {}  # literal -> lemmas containing it
        # lemma -> (level, counterexample state of its last failed push)
        self.push_failures: dict[tuple[int, ...], tuple[int, Cube]] = {}
        self.k = 1
        self.activity: dict[int, float] = {}
        self.activity_inc = 1.0
        self.last_progress = time.monotonic()
        self.timer: threading.Timer | None = None
        self._build_solvers()

    # ----------------------------------------------------------------- solvers
    def _build_solvers(self) -> None:
        ts, n = self.ts, self.n
        # U' is redundant when U only defines aux variables, and left out in functional mode:
        # without it the paths are the same (every state of a path but the last is the current
        # state of a step, and the last meets U in the goal solver), and T's cones are loaded
        # as queries need them, so U' would only constrain next-state bits left free.
        skip_next = self.defs.u_total or self.functional
        universal_next = [] if skip_next else [_shift(c, n) for c in ts.universal]
        # DimSpec's numbering (1..n now, n+1..2n next) and 2n+1… for switches: every solver
        # renumbers densely (`_CompactSolver`), so unused next-state variables cost nothing.
        w = 2 * n
        # A relational T ∧ U' sits under a switch in every frame solver (off: the query is about
        # one state). A functional T (definitions of the next state and of gates) holds for every
        # state and input, so it needs no switch, as in IC3ref; it is loaded cone by cone, as
        # queries mention latches (`_load_cones`). A switched clause is visited by every query
        # that assumes the switch: on d.aig's T a SAT call took 41 µs switched, 22 µs not.
        self.act_trans = w + 1
        neg_t = -self.act_trans
        base = [list(c) for c in ts.universal]
        self.trans_on = [] if self.functional else [self.act_trans]
        self.trans_guard = [-x for x in self.trans_on]
        if not self.functional:
            base += [c + [neg_t] for c in ts.trans]
        else:
            base += [list(c) for c in self.defs.t_constraints]
        # The definitions the constraints of T use are loaded into every solver that has them.
        self.constraint_outputs = sorted({abs(lit) for c in self.defs.t_constraints for lit in c
                                          if abs(lit) in self.defs.t_clauses})
        base += [c + [neg_t] for c in universal_next]
        self.frame_base = _CompactSolver.number(base)
        # Rebuilding a solver costs about its base; a dead selector costs every later query a
        # little. Tolerate more of them where the base is large.
        self.rebuild_limit = max(REBUILD_MIN, ts.n // 4, len(base) // 10)
        self.frame_solvers: list[_CompactSolver] = []
        # G (with its cone of gates) lives in one solver of its own for F_k ∧ G: in the frame
        # solvers it would only add variables to decide.
        self.goal_solver: _CompactSolver | None = None
        self.goal_level = 0
        # The lifting solver: U ∧ T (∧ U'); ¬t' per query under a fresh literal, ¬G under one
        # literal (some clause of G has all literals false, one selector per clause).
        # Functional mode: the constraints are not clauses of the lifter but part of what a
        # lifted cube must not escape: a state of the cube that breaks a constraint of U (or,
        # with the fixed inputs, one of T) is a way out, like missing the successor. So every
        # state of a lifted cube meets U and, with the inputs, makes a step into the successor.
        if self.functional:
            constraint_set = {frozenset(c) for c in self.defs.u_constraints}
            lift_base = [list(c) for c in ts.universal if frozenset(c) not in constraint_set]
        else:
            lift_base = [list(c) for c in ts.universal] + [list(c) for c in ts.trans]
        lift_base += universal_next
        lift_base += [list(c) for c in self.defs.goal_defs]
        top = w + 1
        self.lift_not_goal = top
        self.lift_escape_u = top + 1  # some constraint of U is false
        self.lift_escape_t = top + 2  # some constraint of T is false
        top += 3
        for escape, constraints in ((self.lift_escape_u, self.defs.u_constraints),
                                    (self.lift_escape_t, self.defs.t_constraints)):
            broken = []
            for c in constraints:
                broken.append(top)
                lift_base += [[-top, -lit] for lit in c]
                top += 1
            lift_base.append(broken + [-escape])
        selectors = []
        for c in self.defs.goal_rest:
            selectors.append(top)
            lift_base += [[-top, -lit] for lit in c]
            top += 1
        lift_base.append(selectors + [self.lift_escape_u, -self.lift_not_goal])
        self.lift_base = _CompactSolver.number(lift_base)
        self.goal_base = _CompactSolver.number([list(c) for c in ts.universal] + [list(c) for c in ts.goal])
        self.lifter = self._new_lifter(set(), set())
        self.init_solver: Solver | None = None
        if self.init_units is None:
            self.init_solver = Solver(name=self.solver_name, bootstrap_with=ts.init + ts.universal)

    def _frame(self, level: int) -> _CompactSolver:
        """The solver of F_level, created on first use."""
        while len(self.frame_solvers) <= level:
            self.frame_solvers.append(self._new_frame_solver(len(self.frame_solvers), set(), set()))
        return self.frame_solvers[level]

    def _new_frame_solver(self, level: int, loaded: set[int], loaded_state: set[int]) -> _CompactSolver:
        """A solver for F_level: the base, I (level 0) or the live lemmas of levels ≥ level, and
        the T cones loaded so far. Rebuilding one now and then drops the dead selectors of past
        queries and the clauses of subsumed lemmas."""
        if near_limit():
            raise _Stop("memory limit")
        frame = _CompactSolver(self.solver_name, base=self.frame_base)
        if level == 0:
            for c in self.ts.init:
                frame.add(c)
        else:
            for lv in range(level, len(self.frames)):
                for key in self.frames[lv]:
                    frame.add([-lit for lit in key])
        guard = self.trans_guard
        for output in loaded:
            for c in self.defs.t_clauses[output]:
                frame.add(c + guard)
        frame.loaded, frame.loaded_state = loaded, loaded_state
        self._load_outputs(frame, self.constraint_outputs, guard)
        self.stats["rebuilds"] = self.stats.get("rebuilds", 0) + 1
        return frame

    def _goal(self) -> _CompactSolver:
        """The solver of F_k ∧ U ∧ G, rebuilt for each new k from the lemmas of levels ≥ k."""
        if self.goal_solver is None or self.goal_level != self.k:
            if self.goal_solver is not None:
                self.goal_solver.solver.delete()
            goal = _CompactSolver(self.solver_name, base=self.goal_base)
            for lv in range(self.k, len(self.frames)):
                for key in self.frames[lv]:
                    goal.add([-lit for lit in key])
            self.goal_solver, self.goal_level = goal, self.k
        return self.goal_solver

    def _retire_selector(self, level: int, selector: int) -> None:
        frame = self.frame_solvers[level]
        frame.solver.add_clause([-selector])
        frame.dead += 1
        if frame.dead > self.rebuild_limit:
            frame.solver.delete()
            self.frame_solvers[level] = self._new_frame_solver(level, frame.loaded, frame.loaded_state)

    def _new_lifter(self, loaded: set[int], loaded_state: set[int]) -> _CompactSolver:
        lifter = _CompactSolver(self.solver_name, base=self.lift_base)
        for output in loaded:
            for c in self.defs.t_clauses[output]:
                lifter.add(c)
        lifter.loaded, lifter.loaded_state = loaded, loaded_state
        self._load_outputs(lifter, self.constraint_outputs, [])
        return lifter

    def _load_cones(self, target: _CompactSolver, cube: Cube, guard: list[int]) -> None:
        """Add the definitions of the next-state functions of the cube's variables, and of the
        gates they use, unless loaded already. Sound for functional T: definitions left out can
        always be satisfied, whatever the current state and inputs."""
        n = self.n
        loaded, loaded_state = target.loaded, target.loaded_state
        stack = []
        for lit in cube:
            v = abs(lit)
            if v not in loaded_state:
                loaded_state.add(v)
                stack.append(v + n)
        self._load_outputs(target, stack, guard)

    def _load_outputs(self, target: _CompactSolver, stack: list[int], guard: list[int]) -> None:
        """Add the definitions of `stack`'s variables and of the gates they use, unless loaded."""
        loaded = target.loaded
        defs, clauses = self.defs.t_defs, self.defs.t_clauses
        stack = list(stack)
        while stack:
            output = stack.pop()
            if output in loaded or output not in clauses:
                continue
            loaded.add(output)
            for c in clauses[output]:
                target.add(c + guard)
            stack.extend(defs[output])

    def _solve(self, solver: Solver, assumptions: list[int]) -> bool:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _Stop("timeout")
        self.stats["sat_calls"] += 1
        # One solver per frame: memory grows with the frames (the solvers abort when it runs out).
        if self.stats["sat_calls"] % MEMORY_CHECK_EVERY == 0 and near_limit():
            raise _Stop("memory limit")
        if self.deadline is None:
            return solver.solve(assumptions=assumptions)
        answer = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        if answer is None:
            raise _Stop("timeout")
        return answer

    def _read_state(self, target: _CompactSolver, with_inputs: bool) -> _Point:
        """The state (and, if asked, the aux values lifting fixes) of the last model."""
        model = target.solver.get_model()
        inputs = target.values(model, self.lift_aux) if with_inputs else []
        return _Point(target.values(model, self.state_vars), inputs)

    # -------------------------------------------------------------- initiation
    def _excludes_init(self, cube: Cube) -> bool:
        if self.init_negated is not None:
            return not self.init_negated.isdisjoint(cube)  # a set operation: cubes have ~1000 literals
        assert self.init_solver is not None
        return not self._solve(self.init_solver, cube)

    def _restore_initiation(self, core: Cube, cube: Cube) -> Cube:
        """`core` ⊆ `cube`, `cube` excludes I ∧ U; add literals of `cube` back until `core` does too."""
        if self._excludes_init(core):
            return core
        if self.init_units is not None:
            units = self.init_units
            extra = next(lit for lit in cube if -lit in units)
            kept = set(core)  # once, not per literal: cubes of llumc's encodings have ~1000
            return [lit for lit in cube if lit in kept or lit == extra]
        assert self.init_solver is not None
        self._solve(self.init_solver, cube)
        needed = set(self.init_solver.get_core() or []) | set(core)
        return [lit for lit in cube if lit in needed]

    # ---------------------------------------------------- relative induction
    def _consecution(self, level: int, cube: Cube, want_model: bool = False, with_inputs: bool = False) -> tuple[bool, Cube | None, _Point | None]:
        """Is ¬cube inductive relative to F_level (F_level ∧ ¬cube ∧ U ∧ T ∧ U' ⇒ ¬cube')?
        UNSAT: (True, reduced cube from the core, None). SAT: (False, None, the predecessor
        state if wanted)."""
        frame = self._frame(level)
        if self.functional:
            self._load_cones(frame, cube, self.trans_guard)
        tmp = frame.fresh()
        frame.add([-lit for lit in cube], -tmp)
        primed = frame.lits(_shift(cube, self.n))
        assumptions = frame.lits(self.trans_on) + [tmp] + primed
        try:
            if self._solve(frame.solver, assumptions):
                return False, None, self._read_state(frame, with_inputs) if want_model else None
            core = set(frame.solver.get_core() or [])
            reduced = [x for x, p in zip(cube, primed) if p in core]
            return True, self._restore_initiation(reduced, cube), None
        finally:
            self._retire_selector(level, tmp)

    # ----------------------------------------------------------------- lifting
    def _lift(self, point: _Point, successor: Cube | None) -> Cube:
        """A cube of states around the point's state that all reach `successor` (None: G)."""
        state_cube = point.state
        if not self.lifting:
            return state_cube
        lifter = self.lifter
        if successor is None:
            target = lifter.lit(self.lift_not_goal)
        else:
            if self.functional:
                self._load_cones(lifter, successor, [])
            target = lifter.fresh()
            escapes = [self.lift_escape_u, self.lift_escape_t]
            lifter.add([-x for x in _shift(successor, self.n)] + escapes, -target)
        lit = lifter.lit
        try:
            if self._solve(lifter.solver, [target] + lifter.lits(point.inputs) + lifter.lits(state_cube)):
                return state_cube  # T not functional here: the full state is still exact
            core = set(lifter.solver.get_core() or [])
            return [x for x in state_cube if lit(x) in core]
        finally:
            if successor is not None:
                lifter.solver.add_clause([-target])
                lifter.dead += 1
                if lifter.dead > self.rebuild_limit:
                    lifter.solver.delete()
                    self.lifter = self._new_lifter(lifter.loaded, lifter.loaded_state)

    # --------------------------------------------------------- generalisation
    def _mic(self, level: int, cube: Cube, depth: int, ctg_budget: int) -> Cube:
        """Drop literals while ¬cube stays inductive relative to F_level (IC3ref's `mic`), each
        literal once, the least active first; a literal that cannot go is kept. Relational
        systems stop after IC3REF_ATTEMPTS failures in a row, as IC3ref does."""
        activity = self.activity
        cube = sorted(cube, key=lambda lit: activity.get(abs(lit), 0.0))
        attempts = None if self.functional else IC3REF_ATTEMPTS
        left = attempts
        i = 0
        while i < len(cube):
            candidate = cube[:i] + cube[i + 1 :]
            reduced = self._ctg_down(level, candidate, i, depth, ctg_budget)
            if reduced is not None:
                cube = reduced
                left = attempts
            else:
                if left is not None:
                    left -= 1
                    if left == 0:
                        break
                i += 1
        return cube

    def _ctg_down(self, level: int, cube: Cube, keep_to: int, depth: int, ctg_budget: int) -> Cube | None:
        """Make `cube` inductive relative to F_level by blocking up to `ctg_budget` counterexamples
        to generalisation (CTGs) in a row, joining with the others; None if that would drop a
        kept literal. Without a budget, one check and no join (ABC's default: skip `down`)."""
        ctgs = 0
        while True:
            if not self._excludes_init(cube):
                return None
            if depth > CTG_MAX_DEPTH or ctg_budget == 0:
                ok, core, _ = self._consecution(level, cube)
                return core if ok else None
            ok, core, point = self._consecution(level, cube, want_model=True)
            if ok:
                return core
            assert point is not None
            ctg = point.state
            if ctgs < ctg_budget and level > 0 and self._excludes_init(ctg):
                ok, ctg_core, _ = self._consecution(level - 1, ctg)
                if ok:
                    assert ctg_core is not None
                    ctgs += 1
                    self.stats["ctgs"] += 1
                    j = level
                    while j <= self.k:
                        ok, smaller, _ = self._consecution(j, ctg_core)
                        if not ok:
                            break
                        assert smaller is not None
                        ctg_core = smaller
                        j += 1
                    ctg_core = self._mic(j - 1, ctg_core, depth + 1, ctg_budget)
                    self._add_lemma(ctg_core, j)
                    continue
            ctgs = 0
            ctg_lits = set(ctg)
            joined = []
            for i, lit in enumerate(cube):
                if lit in ctg_lits:
                    joined.append(lit)
                elif i < keep_to:
                    return None
            cube = joined

    # ------------------------------------------------------------------ frames
    def _add_lemma(self, cube: Cube, level: int) -> None:
        """¬cube holds in F_1..F_level; drop the lemmas of levels ≤ level it subsumes."""
        key = tuple(sorted(cube))
        lits = set(key)
        # A pushed lemma is in the solvers up to its old level already.
        first_solver = self.level_of.get(key, 0) + 1
        occurs = self.occurs
        if key:
            candidates = min((occurs.get(lit, ()) for lit in key), key=len)
        else:
            candidates = self.level_of.keys()
        for other in [o for o in candidates if self.level_of[o] <= level and lits.issubset(o)]:
            self.frames[self.level_of.pop(other)].discard(other)
            for lit in other:
                occurs[lit].discard(other)
        while len(self.frames) <= level:
            self.frames.append(set())
        self.frames[level].add(key)
        self.level_of[key] = level
        for lit in key:
            occurs.setdefault(lit, set()).add(key)
        clause = [-lit for lit in key]
        for frame in self.frame_solvers[first_solver : level + 1]:
            frame.add(clause)
        if self.goal_solver is not None and level >= self.goal_level and first_solver <= self.goal_level:
            self.goal_solver.add(clause)
        self.stats["lemmas"] += 1
        activity = self.activity
        # Decay by growing the increment (as VSIDS does); rescale before floats overflow.
        if self.functional:
            self.activity_inc /= ACTIVITY_DECAY
        if self.activity_inc > 1e100:
            for v in activity:
                activity[v] *= 1e-100
            self.activity_inc *= 1e-100
        inc = self.activity_inc
        for lit in key:
            activity[abs(lit)] = activity.get(abs(lit), 0.0) + inc

    def _blocked(self, cube: Cube, level: int) -> bool:
        """Does F_level already exclude the cube (F_level ∧ cube unsat)?"""
        frame = self._frame(level)
        return not self._solve(frame.solver, frame.lits(self.trans_guard) + frame.lits(cube))

    def _bad_state(self) -> _Point | None:
        """A model of F_k ∧ U ∧ G, or None."""
        goal = self._goal()
        if self._solve(goal.solver, []):
            return self._read_state(goal, with_inputs=True)
        return None

    def _ctg_budget(self, ob: _Obligation) -> int:
        """How many CTGs in a row generalising `ob`'s lemma may block (rIC3's dynamic
        generalisation, with `ob`'s own activity counted too). Cheap lemmas while obligations
        are new; CTGs where the same region keeps coming back. On d.aig IC3ref's fixed 3 CTGs
        took 218k SAT calls, no CTGs about 100k; on b.aig no CTGs did not finish in 200 s.
        Relational systems get IC3ref's fixed budget (see IC3REF_CTGS)."""
        if not self.functional:
            return IC3REF_CTGS
        act = 0.0
        node: _Obligation | None = ob
        for _ in range(4):  # the obligation and three successors
            if node is None:
                break
            act = max(act, node.act)
            node = node.succ
        if act >= CTG_THRESHOLD:
            return min(CTG_MAX_COUNT, int(act - CTG_THRESHOLD) // 10 + 2)
        return 1 if len(ob.cube) >= BIG_CUBE else 0

    # ---------------------------------------------------------- the main loop
    def _strengthen(self) -> Generator[None, None, _Obligation | None]:
        """Block every G-state in F_k; return the level-0 obligation of a path if one exists.
        Yields (pauses) between obligations once the clock passes `pause_at`."""
        while (model := self._bad_state()) is not None:
            queue: list[tuple[int, int, int, _Obligation]] = []
            counter = 0
            cube = self._lift(model, None)
            first = _Obligation(cube, self.k if self._excludes_init(cube) else 0, 0)
            heapq.heappush(queue, (first.level, first.depth, counter, first))
            while queue:
                self._report()
                if self.pause_at is not None and time.monotonic() >= self.pause_at:
                    yield
                _, _, _, ob = queue[0]
                self.stats["obligations"] += 1
                if ob.level == 0:
                    return ob
                if ob.depth > 0 and self._blocked(ob.cube, ob.level):
                    heapq.heappop(queue)
                    continue
                ob.act += 1.0
                ok, core, pred = self._consecution(ob.level - 1, ob.cube, want_model=True, with_inputs=True)
                if ok:
                    heapq.heappop(queue)
                    assert core is not None
                    cube = self._mic(ob.level - 1, core, 1, self._ctg_budget(ob))
                    level = ob.level
                    while level <= self.k:
                        ok, smaller, _ = self._consecution(level, cube)
                        if not ok:
                            break
                        assert smaller is not None
                        cube = smaller
                        level += 1
                    self._add_lemma(cube, level)
                    if level < self.k:
                        # Look for longer paths through this cube (IC3ref re-enqueues).
                        counter += 1
                        act = ob.act * PUSH_DECAY ** (level + 1 - ob.level)
                        again = _Obligation(ob.cube, level + 1, ob.depth, ob.succ, act)
                        heapq.heappush(queue, (again.level, again.depth, counter, again))
                else:
                    assert pred is not None
                    counter += 1
                    pred_cube = self._lift(pred, ob.cube)
                    # A predecessor that may be initial ends the path (level 0): a lemma must
                    # never exclude an initial state.
                    level = ob.level - 1 if self._excludes_init(pred_cube) else 0
                    pred = _Obligation(pred_cube, level, ob.depth + 1, ob)
                    heapq.heappush(queue, (pred.level, pred.depth, counter, pred))
        return None

    def _propagate(self) -> int | None:
        """Push lemmas forward; return i if F_i = F_{i+1} (the proof), else None.

        A failed push leaves a counterexample state; while F_i still contains that state, the
        same push would fail again, so it is skipped. Whether it does is one unit propagation of
        the state's literals in F_i's solver (a lemma that excludes the state has every literal
        false), not a search."""
        for i in range(1, self.k):
            frame = self.frames[i]
            for key in sorted(frame, key=len):
                if key not in frame:
                    continue  # subsumed meanwhile
                cached = self.push_failures.get(key)
                if cached is not None and cached[0] == i:
                    target = self._frame(i)
                    no_conflict, _ = target.solver.propagate(assumptions=target.lits(cached[1]))
                    if no_conflict:
                        self.stats["pushes_skipped"] += 1
                        continue
                ok, core, point = self._consecution(i, list(key), want_model=True)
                if ok:
                    assert core is not None
                    self.push_failures.pop(key, None)
                    self._add_lemma(core, i + 1)  # removes `key`: core ⊆ key
                else:
                    assert point is not None
                    self.push_failures[key] = (i, point.state)
            if not frame:
                return i
        return None

    def _report(self, force: bool = False) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if force or now - self.last_progress >= PROGRESS_INTERVAL:
            self.last_progress = now
            lemmas = sum(len(f) for f in self.frames)
            info = {"frame": self.k, "lemmas": lemmas, "obligations": self.stats["obligations"]}
            if self.direction != "forward" or self.pause_at is not None:  # backward, or taking turns
                info["direction"] = self.direction
            self.progress(info)

    def run(self) -> SolveResult:
        """The whole search at once."""
        search = self.search()
        while True:
            try:
                next(search)
            except StopIteration as done:
                return done.value

    def search(self) -> Generator[None, None, SolveResult]:
        """The search as a generator that pauses once the clock passes `pause_at` (None: never) and
        returns the result, so that two searches can take turns (`_take_turns`). Closing it
        early releases the solvers."""
        start = time.monotonic()
        if self.deadline is not None:
            self.timer = threading.Timer(max(0.0, self.deadline - time.monotonic()), self._interrupt)
            self.timer.daemon = True
            self.timer.start()
        try:
            return (yield from self._run())
        except _Stop as stop:
            return self._result("unknown", steps=self.k, reason=str(stop))
        except KeyboardInterrupt:
            return self._result("unknown", steps=self.k, reason="interrupted")
        finally:
            self.stats["time"] = round(time.monotonic() - start, 3)
            self.release()

    def release(self) -> None:
        """Stop the timer and delete the SAT solvers (idempotent)."""
        if self.timer is not None:
            self.timer.cancel()
        for target in self.frame_solvers + [self.lifter, self.goal_solver]:
            if target is not None:
                target.solver.delete()
        if self.init_solver is not None:
            self.init_solver.delete()
        self.frame_solvers, self.lifter, self.goal_solver, self.init_solver = [], None, None, None

    def _interrupt(self) -> None:
        """Timer thread at the deadline: stop the running SAT call (a solver being rebuilt at
        that moment is caught by the deadline check before its next call)."""
        compact = self.frame_solvers + [self.lifter, self.goal_solver]
        for s in [c.solver for c in compact if c is not None] + [self.init_solver]:
            try:
                if s is not None:
                    s.interrupt()
            except Exception:  # deleted meanwhile
                pass

    def _result(self, status: str, **kw) -> SolveResult:
        stats = dict(self.stats)
        stats["frames"] = self.k
        stats["definitional"] = int(self.functional)
        return SolveResult(status, engine="ic3", stats=stats, direction=self.direction, **kw)

    def _run(self) -> Generator[None, None, SolveResult]:
        # No separate checks of paths of length 0 and 1 (IC3ref makes them): a G-state of F_1
        # that may be initial becomes a level-0 obligation, and the first frame's blocking
        # queries (F_0 = I) find the one-step paths.
        while True:
            ob = yield from self._strengthen()
            if ob is not None:
                chain = []
                node: _Obligation | None = ob
                while node is not None:
                    chain.append(node.cube)
                    node = node.succ
                trace = self._concrete_trace(len(chain) - 1, chain)
                if trace is not None:
                    return self._result("sat", steps=len(chain) - 1, trace=trace)
                if not self.lifting:
                    # Full state cubes always chain up, except where I's own auxiliaries clash
                    # with T's in the first step: say so rather than guess.
                    return self._result("unknown", steps=self.k, reason="no concrete path for a chain of states")
                # Lifting over-generalised (relational T): go on with exact state cubes.
                self.lifting = False
                self.stats["lift_fallbacks"] += 1
                continue
            self.k += 1
            self.frames.append(set())
            self._report(force=True)
            closed = self._propagate()
            if closed is not None:
                invariant = [
                    [-lit for lit in key] for level in range(closed + 1, len(self.frames)) for key in self.frames[level]
                ]
                return self._result("unsat", steps=closed, invariant=invariant)

    # ------------------------------------------------------- counterexamples
    def _concrete_trace(self, k: int, cubes: list[Cube] | None) -> list[list[int]] | None:
        """One SAT call over the k-step unrolling I(0), U(0..k), T, G(k), with the state cubes as
        assumptions: the full assignment of every variable at every step, or None."""
        ts, n = self.ts, self.n
        with Solver(name=self.solver_name) as s:
            # Copy j of variable v is v + j·n, so T's next copy n+v of step j is v + (j+1)·n.
            add = s.solver.add_clause  # one Python layer less per clause (freecell: 119k a step)
            ClauseShifter(ts.init).add_to(add, 0, [])
            universal, trans = ClauseShifter(ts.universal), ClauseShifter(ts.trans)
            for j in range(k + 1):
                universal.add_to(add, j * n, [])
            for j in range(k):
                trans.add_to(add, j * n, [])
            ClauseShifter(ts.goal).add_to(add, k * n, [])
            assumptions = []
            if cubes is not None:
                for j, cube in enumerate(cubes):
                    assumptions.extend(_shift([lit], j * n)[0] for lit in cube)
            if not self._solve(s, assumptions):
                return None
            model = s.get_model() or []
        value = set(model)
        return [[v if v + j * n in value else -v for v in range(1, n + 1)] for j in range(k + 1)]


DIRECTIONS = ("auto", "forward", "backward", "both")


def ic3(
    ts: TransitionSystem,
    *,
    solver: str = "minisat22",
    timeout: float | None = None,
    progress: Progress | None = None,
    lifting: bool = True,
    direction: str = "auto",
    shorten: bool = True,
) -> SolveResult:
    """Decide whether G is reachable: sat with a full trace, unsat with an inductive invariant
    over state variables, or unknown (timeout, Ctrl-C) with the frame reached. Results are not
    checked here; `solvers.api.solve` checks them.

    `direction`: "forward" searches from I; "backward" runs IC3 on the reversed system (from
    G: its invariant is then one of the reversed system, `result.direction` says so);
    "both" lets the two take turns, SLICE_SECONDS each, until one answers; "auto" is
    "forward" for a functional T (circuits, llumc's definitional encodings: their reversal is
    relational) and "both" otherwise (planning files: IC3 from G finds freecell's plan in
    about 11 s, from I it is at frame 4 after 300 s).

    `shorten`: a path longer than the frame it was found at (re-enqueued obligations make
    longer paths) is shortened by the unroller over the lengths no frame has excluded, for at
    most as long as IC3 took (`_shorten`); `stats["shortest"]` says whether the length is
    proven the shortest.
    """
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r}; valid: {', '.join(DIRECTIONS)}")
    started = time.monotonic()
    searches: list[IC3] = []
    try:
        if direction != "backward":
            searches.append(IC3(ts, solver, timeout, progress, lifting))
        if direction == "auto":
            direction = "forward" if searches[0].functional else "both"
        if direction in ("backward", "both"):
            remaining = None if timeout is None else max(0.0, timeout - (time.monotonic() - started))
            searches.append(IC3(ts.reversed(), solver, remaining, progress, lifting, direction="backward"))
        result = searches[0].run() if len(searches) == 1 else _take_turns(searches)
    finally:
        for search in searches:
            search.release()
    if result.status == "sat" and result.direction == "backward" and result.trace is not None:
        result.trace = result.trace[::-1]
    if result.status == "sat" and shorten and result.trace is not None:
        # Every frame k ≥ 2 reached by either search excludes paths of length < k.
        excluded_below = max((s.k for s in searches if s.k >= 2), default=0)
        result.stats["excluded_below"] = excluded_below
        spent = time.monotonic() - started
        budget = max(1.0, spent)
        if timeout is not None:
            budget = min(budget, timeout - spent)
        _shorten(ts, result, excluded_below, budget, progress)
    return result


def _take_turns(searches: list[IC3]) -> SolveResult:
    """Run the searches in turns of SLICE_SECONDS each; the first definite answer (or
    an interrupt) ends all of them. Unknown only when every search ended unknown."""
    running = [(search, search.search()) for search in searches]
    ended: list[SolveResult] = []
    try:
        while running:
            for entry in list(running):
                search, steps = entry
                search.pause_at = time.monotonic() + SLICE_SECONDS
                try:
                    next(steps)
                except StopIteration as done:
                    result: SolveResult = done.value
                    if result.status != "unknown" or result.reason == "interrupted":
                        return result
                    running.remove(entry)
                    ended.append(result)
    finally:
        for _, steps in running:
            steps.close()
    # Both ended unknown (timeout, memory): the deeper frame, and each search's own reason.
    deepest = max(ended, key=lambda r: r.steps or 0)
    reasons = "; ".join(f"{r.direction}: {r.reason} at frame {r.steps}" for r in ended)
    return SolveResult("unknown", steps=deepest.steps, reason=reasons, engine="ic3",
                       stats=deepest.stats, direction="both")


def _shorten(ts: TransitionSystem, result: SolveResult, excluded_below: int, budget: float,
             progress: Progress | None = None) -> None:
    """Replace `result`'s path by a shortest one if the unroller finds one within `budget`
    seconds among the lengths excluded_below .. steps−1 (IC3's frames rule out shorter ones).
    The unroller reports its depths to `progress` as BMC does."""
    assert result.trace is not None
    steps = len(result.trace) - 1
    if steps <= excluded_below:
        result.stats["shortest"] = 1
        return
    if budget <= 0:
        result.stats["shortest"] = 0
        return
    shorter = bmc(ts, min_steps=excluded_below, max_steps=steps - 1, timeout=budget, progress=progress)
    if shorter.status == "sat":
        result.stats["shortened_from"] = steps
        result.steps, result.trace = shorter.steps, shorter.trace
        result.stats["shortest"] = 1
    else:
        result.stats["shortest"] = int(bool(shorter.reason and shorter.reason.startswith("max-steps")))
