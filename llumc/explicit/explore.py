"""Explicit-state reachability over the word-level transition system: every reachable state,
one at a time, each step's nondet inputs drawn from finitely many representatives.

Why: the state machines of SystemC and RERS origin (`token_ring.*`, `kundu`, `Problem07_*`)
have a few hundred to a few thousand reachable states but transition relations so large that
each of IC3's SAT calls is slow and its invariants need thousands of them. Enumerating the
states with the compiled step functions of `llumc.invariants.simulate` (or machine code,
`llumc.explicit.native_step`) costs microseconds per step; SAT calls then only check the result.

Inputs. A nondet input that the step only compares with constants (through extensions) is
exact with one representative per class: for `==`/`!=` only, the constants and one other value;
with orderings, every constant, its neighbours and the signed/unsigned boundaries. Any other
input (it flows into arithmetic or into the state) starts with {0, 1} and learns the values the
check's counterexamples use. Only the inputs a step actually reads are enumerated: inputs are
taken in the order of the blocks that read them, and an input whose block does not run under
the values chosen so far is fixed to one value instead of branched over.

Soundness does not rest on any of that:
- TRUE: from the states found, `solvers.setinv` derives clauses that keep every one of them
  and are inductive, and `solvers.check.check_invariant` checks them by fresh SAT calls against
  the encoded DimSpec system; failing that, on small systems, the set itself is checked so
  (`solvers.check.state_set_gap`: it contains every initial state, no step of U ∧ T ∧ U'
  leaves it, it meets no goal state). A step from the set to a state outside it found on the
  way is a reachable state the representatives missed (or an initial state): it joins the set,
  the input values it used join the representatives, and exploration goes on.
- FALSE: a path to `error` becomes a trace like any engine's and is replayed natively
  (`llumc.check.counterexample.confirm_counterexample`).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from llumc.pipeline import EncodeResult, TraceBits
from llumc.invariants.simulate import compile_step, compile_terms
from llumc.encoding.terms import Term, mask, postorder
from llumc.encoding.transys import WordTransitionSystem
from llumc.encoding.wordsys import FLOAT_CHOICE_SITE

State = tuple[int, ...]
MAX_STATES = 200_000  # beyond this the set is no certificate anyone would want to check
MAX_PATHS = 4096  # input combinations one state may branch into
MAX_REFINEMENTS = 30  # failed checks whose counterexample is added before giving up
# Systems with more terms than this step in machine code (llumc/explicit/native_step.py): compiling
# costs more than Python's for small steps, running them far less for large ones.
NATIVE_FROM = 20_000
CLAUSE_SECONDS = 10.0  # at least this long for clauses from the states (solvers/setinv.py)
# The set itself is checked by SAT (cubes x clauses of T) only below this size: the
# consecution query goes through the cubes one by one (RERS: 2 061 cubes x 325 686 clauses, 63 s)
MAX_SET_CHECK = 50_000_000


class _GiveUp(Exception):
    pass


@dataclass
class ExplicitResult:
    """status: "true" (states checked: an inductive invariant excluding the goal), "error" (a
    path to `error`, to be replayed: `trace`), or "unknown" (`reason`)."""

    status: str
    reason: str = ""
    states: int = 0
    steps: int = 0  # step functions evaluated
    refinements: int = 0
    sat_calls: int = 0
    seconds: float = 0.0
    invariant: list[list[int]] | None = None  # TRUE by clauses (else by the state set itself)
    trace: list[list[int]] = field(default_factory=list)  # signed literals per time step (DimSpec)


# ---------------------------------------------------------------------------------- inputs
def input_representatives(word: WordTransitionSystem) -> dict[int, tuple[list[int], bool]]:
    """input index -> (values to try, exact): exact when the values cover every class of
    inputs the step can tell apart (the input is only compared with constants)."""
    carried: dict[int, int] = {}  # term -> the input it is (or extends)
    constants: dict[int, set[int]] = {}
    ordered: set[int] = set()
    data: set[int] = set()
    widths: dict[int, int] = {}
    done: set[int] = set()
    for root in [*word.next.values(), *word.universal]:
        for t in postorder(root, done):
            done.add(t.uid)
            if t.op == "input":
                carried[t.uid] = t.param  # type: ignore[assignment]
                widths[t.param] = t.width  # type: ignore[index]
                constants.setdefault(t.param, set())  # type: ignore[arg-type]
                continue
            for a in t.args:
                index = carried.get(a.uid)
                if index is None:
                    continue
                if t.op in ("zext", "sext"):
                    carried[t.uid] = index
                    continue
                other = (t.args[1] if t.args[0] is a else t.args[0]) if len(t.args) == 2 else None
                if t.op in ("eq", "ult", "slt") and other is not None and other.op == "const":
                    ordered.update((index,) if t.op != "eq" else ())
                    constants[index].add(other.param & mask(widths[index]))  # type: ignore[operator]
                else:
                    data.add(index)
    out: dict[int, tuple[list[int], bool]] = {}
    for index, w in widths.items():
        if w == 1:
            out[index] = ([0, 1], True)
            continue
        if index in data:
            out[index] = ([0, 1], False)
        elif index not in ordered:
            other_value = next(v for v in range(len(constants[index]) + 1) if v not in constants[index])
            out[index] = (sorted(constants[index] | {other_value}), True)
        else:
            points = constants[index] | {0, mask(w), (1 << (w - 1)) - 1, 1 << (w - 1)}
            out[index] = (sorted({(c + d) & mask(w) for c in points for d in (-1, 0, 1)}), True)
    for inp in word.inputs:
        if inp.site == FLOAT_CHOICE_SITE and inp.index in out:
            # what LLVM leaves open in floating point (a NaN's bits, ...): one value to start
            # with, others learned like any inexact input's (eight float operations in a step
            # would otherwise branch into 2^8 combinations of {0, 1} for nothing)
            out[inp.index] = ([0], False)
        out.setdefault(inp.index, ([0], True))  # read by nothing that matters
    return out


# ---------------------------------------------------------------------------------- steps
@dataclass
class _Plan:
    """How to expand a state at one cut point: the compiled step, the inputs it reads in
    execution order, and (for inputs whose block runs only sometimes) the compiled conditions."""

    step: Callable
    reads: tuple[set[int], list[set[int]]]  # state variables U and each next value read
    order: list[int]
    gate: list[int | None]  # per input of `order`: index into `runs(s, x)`, None = always read
    runs: Callable | None


def _plan(word: WordTransitionSystem, code: int) -> _Plan:
    step_fn: Callable | None = None
    if len(word.terms.table) > NATIVE_FROM:
        from llumc.explicit.native_step import NativeStep, NativeUnsupported

        try:
            native = NativeStep(word, code)
            step_fn, inputs, reads = native, native.inputs, native.reads
        except NativeUnsupported:
            pass
    if step_fn is None:
        step = compile_step(word, code)
        step_fn, inputs, reads = step.fn, step.inputs, step.reads
    head = word.blocks[code].name
    blocks = word.step_blocks.get(head, [])
    position = {name: k for k, (name, _cond) in enumerate(blocks)}
    by_index = {inp.index: inp for inp in word.inputs}
    read = sorted(inputs, key=lambda i: (position.get(by_index[i].block, -1), i))
    conditions: list[Term] = []
    gate: list[int | None] = []
    for i in read:
        k = position.get(by_index[i].block)
        if k is None or blocks[k][1].op == "const":
            gate.append(None)
        else:
            gate.append(len(conditions))
            conditions.append(blocks[k][1])
    runs = compile_terms(word, code, conditions) if conditions else None
    return _Plan(step_fn, reads, read, gate, runs)


class Explorer:
    """Breadth-first search from the initial state; `parent` keeps a shortest path to each."""

    def __init__(self, word: WordTransitionSystem):
        self.word = word
        self.curr = word.curr.index
        self.representatives = input_representatives(word)
        self.parent: dict[State, tuple[State, tuple[tuple[int, int], ...]] | None] = {}
        self.queue: deque[State] = deque()
        self.steps = 0
        self.error: State | None = None
        # every block's step compiled up front: which variables matter where needs them all
        self.plans = {code: _plan(word, code) for code in range(len(word.blocks) - 1)}
        self.relevant = _relevant_variables(word, {code: plan.reads for code, plan in self.plans.items()})
        # `ok` only ever steps to itself and never to `error`: nothing but `curr` matters there
        # (the fixpoint keeps every variable its self-copy reads; ok states that differ in the
        # values a program left behind, e.g. after a failed assume, would each count)
        self.relevant[word.ok_code] = {self.curr}
        self.initial = self.canonical(tuple(v.init if v.init is not None else 0 for v in word.state))
        self.add(self.initial, None)

    def canonical(self, state: State) -> State:
        """`state` with the variables no later step reads at its block set to 0: states that
        differ only there behave alike (and would otherwise multiply the set by stale values)."""
        keep = self.relevant.get(state[self.curr])
        if keep is None:
            return state
        return tuple(v if i in keep else 0 for i, v in enumerate(state))

    def add(self, state: State, via: tuple[State, tuple[tuple[int, int], ...]] | None) -> None:
        state = self.canonical(state)
        if state in self.parent:
            return
        self.parent[state] = via
        if state[self.curr] == self.word.error_code:
            self.error = self.error or state
        else:
            self.queue.append(state)

    def successors(self, state: State) -> list[tuple[State, tuple[tuple[int, int], ...]]]:
        code = state[self.curr]
        plan = self.plans.get(code)
        if plan is None:
            plan = self.plans[code] = _plan(self.word, code)
        x = [0] * len(self.word.inputs)
        s = list(state)
        out: list[tuple[State, tuple[tuple[int, int], ...]]] = []
        order, gate, reps = plan.order, plan.gate, self.representatives

        def branch(k: int) -> None:
            if k == len(order):
                self.steps += 1
                nxt = plan.step(s, x)
                if nxt is not None:
                    out.append((tuple(nxt), tuple((i, x[i]) for i in order)))
                if len(out) > MAX_PATHS:
                    raise _GiveUp(f"more than {MAX_PATHS} input combinations in one step")
                return
            i = order[k]
            values = reps[i][0]
            g = gate[k]
            if g is not None and not plan.runs(s, x)[g]:  # type: ignore[misc]
                x[i] = values[0]
                branch(k + 1)
                return
            for v in values:
                x[i] = v
                branch(k + 1)

        branch(0)
        return out

    def run(self, stop_at: float, max_states: int, cancelled: Callable[[], bool] | None = None) -> str:
        """Expand until the queue is empty ("done"), an error state is found ("error"), or a
        limit is reached or `cancelled()` says so (raises _GiveUp)."""
        expanded = 0
        while self.queue:
            if self.error is not None:
                return "error"
            state = self.queue.popleft()
            expanded += 1
            for nxt, inputs in self.successors(state):
                self.add(nxt, (state, inputs))
            if len(self.parent) > max_states:
                raise _GiveUp(f"more than {max_states} states")
            if expanded & 63 == 0:
                if time.monotonic() >= stop_at:
                    raise _GiveUp("timeout")
                if cancelled is not None and cancelled():
                    raise _GiveUp("cancelled")
        return "error" if self.error is not None else "done"

    def path(self, state: State) -> list[tuple[State, dict[int, int]]]:
        """(state, inputs of the step taken from it) from the initial state to `state`, the
        states recomputed in full from the path's first state and inputs (the set keeps them
        canonical)."""
        steps: list[tuple[State, dict[int, int]]] = []
        via = self.parent[state]
        while via is not None:
            prev, inputs = via
            steps.append((prev, dict(inputs)))
            via = self.parent[prev]
        steps.reverse()
        first = steps[0][0] if steps else state
        current = tuple(first[v.index] if v.init is None else v.init for v in self.word.state)
        out: list[tuple[State, dict[int, int]]] = []
        for _prev, inputs in steps:
            out.append((current, inputs))
            x = [0] * len(self.word.inputs)
            for i, value in inputs.items():
                x[i] = value
            code = current[self.curr]
            plan = self.plans.get(code) or self.plans.setdefault(code, _plan(self.word, code))
            nxt = plan.step(list(current), x)
            if nxt is None:
                raise _GiveUp("a path of the search does not replay on the step functions")
            current = tuple(nxt)
        if self.canonical(current) != state:
            raise _GiveUp("a path of the search ends elsewhere on the step functions")
        out.append((current, {}))
        return out


def _relevant_variables(word: WordTransitionSystem, reads: dict[int, tuple[set[int], list[set[int]]]]
                        ) -> dict[int, set[int]]:
    """block code -> the state variables whose value at that block can matter: those U reads
    there, `curr`'s next value reads, or the next value of any variable that matters at some
    block reads (a least fixpoint; "some block" over-approximates the block the step ends in)."""
    curr = word.curr.index
    live = {curr}
    while True:
        relevant = {}
        for code, (u_needs, next_needs) in reads.items():
            needs = {curr} | u_needs | next_needs[curr]
            for w in live:
                needs |= next_needs[w]
            relevant[code] = needs
        grown = live.union(*relevant.values())
        if grown == live:
            return relevant
        live = grown


def _constant_bits(explorer: Explorer, bits: TraceBits) -> list[list[int]]:
    """Clauses `curr == c -> bit` for each bit that all explored states at block c agree on:
    seeds for the clauses from the states (most of a word's bits are fixed by its few values)."""
    by_code: dict[int, set[int] | None] = {}
    for state in explorer.parent:
        code = state[explorer.curr]
        lits = set(bits.cube(state, explorer.relevant.get(code)))
        by_code[code] = lits if code not in by_code else by_code[code] & lits  # type: ignore[operator]
    lo, hi = bits.state[explorer.curr]
    seeds = []
    for code, lits in by_code.items():
        at_code = [v if code >> (v - lo) & 1 else -v for v in range(lo, hi + 1)]
        guard = [-lit for lit in at_code]
        seeds.extend(guard + [lit] for lit in sorted(lits or (), key=abs) if abs(lit) not in range(lo, hi + 1))
    return seeds


def merge_cubes(cubes: list[list[int]], stop_at: float | None = None,
                cancelled: Callable[[], bool] | None = None) -> list[list[int]]:
    """The same set of states in fewer cubes: two cubes that differ only in the sign of one
    variable become one without it, variable by variable, until nothing merges (the merging
    step of Quine-McCluskey). The SAT check of a set goes through its cubes one by one: fewer
    cubes, fewer cases. Quadratic in the cubes' length times their number (16 000 states of
    450 bits took minutes): past `stop_at` (time.monotonic()) or once `cancelled()`, raises
    _GiveUp."""
    current = {frozenset(c) for c in cubes}
    variables = sorted({abs(lit) for c in current for lit in c})
    changed = True
    while changed:
        changed = False
        for v in variables:
            merged: set[frozenset[int]] = set()
            for k, cube in enumerate(current):
                if k & 1023 == 0:
                    if stop_at is not None and time.monotonic() >= stop_at:
                        raise _GiveUp("timeout")
                    if cancelled is not None and cancelled():
                        raise _GiveUp("cancelled")
                if v in cube and (cube - {v}) | {-v} in current:
                    merged.add(cube - {v})
            if merged:
                changed = True
                current = {c for c in current if not ((v in c or -v in c) and c - {v, -v} in merged)} | merged
    return [sorted(c, key=abs) for c in current]


def explore(encoded: EncodeResult, *, deadline: float, max_states: int = MAX_STATES,
            solver: str = "cadical195", progress: Callable[[str], None] | None = None,
            compile_free: bool = False, latest: float | None = None,
            cancelled: Callable[[], bool] | None = None) -> ExplicitResult:
    """Explore `encoded`'s word-level system until `deadline` (time.monotonic(); moved back by
    the time compiling the steps took when `compile_free`, but not past `latest`) or until
    `cancelled()` (asked every few dozen states and before each SAT call: in the portfolio,
    another engine has answered); see the module docstring for what each answer means and how
    it is checked."""
    from solvers.check import CheckFailed, check_invariant, state_set_gap
    from solvers.setinv import invariant_from_states

    started = time.monotonic()
    word = encoded.word
    say = progress or (lambda _msg: None)
    result = ExplicitResult("unknown")
    try:
        explorer = Explorer(word)
    except RecursionError:
        return ExplicitResult("unknown", reason="step too large to compile")
    if compile_free:
        # compiling the steps does not count: on RERS-size systems it takes as long as the search
        deadline += time.monotonic() - started
        if latest is not None:
            deadline = min(deadline, latest)
    bits = TraceBits(encoded)
    initialised = {v.index for v in word.state if v.init is not None}
    try:
        while True:
            outcome = explorer.run(deadline, max_states, cancelled)
            result.states, result.steps = len(explorer.parent), explorer.steps
            if outcome == "error":
                path = explorer.path(explorer.error)  # type: ignore[arg-type]
                result.status = "error"
                result.trace = [bits.assignment(state, inputs) for state, inputs in path]
                break
            if time.monotonic() >= deadline:
                raise _GiveUp("timeout")
            # the initial state with its uninitialised variables left open, then the rest
            relevant = explorer.relevant
            entry = explorer.initial[explorer.curr]
            cubes = [bits.cube(explorer.initial, initialised & relevant[entry])]
            cubes += [bits.cube(s, relevant.get(s[explorer.curr])) for s in explorer.parent if s != explorer.initial]
            clause_deadline = max(deadline, time.monotonic() + CLAUSE_SECONDS)
            if latest is not None:
                clause_deadline = min(clause_deadline, latest)
            cubes = merge_cubes(cubes, clause_deadline, cancelled)
            say(f"explicit: {len(explorer.parent)} states in {len(cubes)} cubes, clauses from them")
            found = invariant_from_states(encoded.ts, cubes, solver=solver, deadline=clause_deadline,
                                          groups=[list(range(lo, hi + 1)) for lo, hi in bits.state],
                                          seeds=_constant_bits(explorer, bits), stop=cancelled)
            result.sat_calls += found.sat_calls
            gap = None
            if found.status == "invariant":
                try:
                    check_invariant(encoded.ts, found.clauses, solver)
                    result.status, result.invariant = "true", found.clauses
                    break
                except CheckFailed:
                    pass  # (an initial state outside the set) the set's own check says which
            if cancelled is not None and cancelled():
                raise _GiveUp("cancelled")  # (not "no clause invariant": the phase was cut short)
            if found.status == "missing":
                gap = ("inductive", found.model)
            elif len(cubes) * max(1, len(encoded.ts.trans)) > MAX_SET_CHECK:
                raise _GiveUp(f"no clause invariant from the {len(explorer.parent)} states ({found.reason}), "
                              f"and the set is too large to check as it is")
            elif latest is not None and time.monotonic() >= latest:
                raise _GiveUp("timeout")
            else:
                say(f"explicit: checking the {len(cubes)} cubes by SAT")
                gap = state_set_gap(encoded.ts, cubes, solver)
                if gap is None:
                    result.status = "true"
                    break
            kind, model = gap
            if kind == "goal" or result.refinements >= MAX_REFINEMENTS:
                raise _GiveUp(f"state set not inductive after {result.refinements} refinements")
            result.refinements += 1
            if kind == "initial":
                explorer.add(bits.state_of(model), None)  # an initial state
                continue
            source = explorer.canonical(bits.state_of(model))
            target = bits.state_of(model, offset=encoded.ts.n)
            inputs = bits.inputs_of(model)
            learned = False
            for index, value in inputs.items():
                values, _exact = explorer.representatives[index]
                if value not in values:
                    values.append(value)
                    learned = True
            if source not in explorer.parent:
                # inside the set but not one of its full states: an initial state that differs
                # from the explored one in uninitialised variables only
                if any(source[i] != explorer.initial[i] for i in initialised):
                    raise _GiveUp("a check's counterexample starts outside the explored states")
                explorer.add(source, None)
            explorer.add(target, (source, tuple(inputs.items())))
            if learned:  # every state may have new successors through the new values
                explorer.queue.extend(s for s in explorer.parent if s[explorer.curr] != word.error_code)
    except _GiveUp as stop:
        result.status, result.reason = "unknown", str(stop)
    except RecursionError:
        result.status, result.reason = "unknown", "step too large to compile"
    result.states, result.steps = len(explorer.parent), explorer.steps
    result.seconds = time.monotonic() - started
    return result
