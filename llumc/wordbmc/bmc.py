"""Word-level BMC: the system's steps unrolled as terms, folded where values are known, and the
goal of each depth asked of Boolector (incremental, the unrolling kept between depths).

Why beside the DimSpec BMC (`solvers/bmc.py`): a program that fills an array of 1 000 cells
in a loop and checks it in another has its bug 2 000 steps deep. The CNF unroller copies the
whole transition relation at every depth (every cell's multiplexer, every block's logic) and
reaches a depth of 30-40 in 20 s. Here the unrolling is symbolic execution: the block each
step starts at is usually known, so only that block's next-state terms are taken
(`_Template`), and with the loop counter known too, `a[i] = v` folds to one cell's update. What
stays symbolic is what the program's inputs decide; that goes to the SMT solver, and only
where a goal is not already folded to false.

How a step is unrolled. The unrolling keeps a *frontier*: the block codes paths are at, each with
the condition (over the inputs of the steps so far) under which a path is there, and one list
of state terms, the `ite` of the paths' values. For each block code the template (`_Template`)
splits its step into *outcomes*, one per block it can go to, with the branch literals on the
way and the next-state terms folded under what those literals imply. Each outcome is
instantiated with the state and the step's inputs (`input` leaves with parameter
`(step, index)`), under the facts its literals now imply; outcomes to `error` give the goal of
the next depth, outcomes leaving main are dropped, the others are merged by their conditions
into the next frontier and state, as CBMC merges paths at a join. U of every step is asserted;
the goals are asked of the solver, and a model gives the inputs of a path.

Soundness: the unrolling is the system's own terms, substituted and folded (a fact replaces a
term only under the condition it follows from), so a model is a path of the system. The trace
is not read off the merged terms: the model's inputs drive the system's compiled steps from
the initial state (`replayed_path`), and that run goes through the native replay like every
engine's trace. It answers "error reachable", or that every run ends within k steps without
reaching it (`WordBmcResult.ended`), which the caller checks on the bit-level system before
calling it a proof, or nothing.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Callable

from llumc.bitblast.blast import Translator, incremental_solver
from llumc.encoding.terms import Term, TermBuilder, evaluate_lazily, postorder, substitute
from llumc.encoding.wordsys import WordTransitionSystem
from llumc.gcpause import cyclic_gc_paused
from llumc.invariants.simulate import compile_step
from llumc.wordbmc.contents import ObjectContents, SelectBudget, exact_objects
from llumc.pipeline import EncodeResult, TraceBits


# the unrolling stops beyond this many terms (about 1 GB of Python objects with Boolector's nodes)
MAX_TERMS = 3_000_000


@dataclass
class WordBmcResult:
    """status: "error" (a path to `error`: `trace`, signed DimSpec literals per time step) or
    "unknown" (`reason`). `ended`: every run of the system has left main by depth `steps`
    and none reached `error` on the way — a bounded proof, but of the word-level system and
    unchecked: `solvers.check.check_forward` on the bit-level system makes it one."""

    status: str
    reason: str = ""
    steps: int = 0  # depth of the trace, or the depth reached
    sat_calls: int = 0
    seconds: float = 0.0
    trace: list[list[int]] = field(default_factory=list)
    ended: bool = False


def implied_facts(literals: list[tuple[Term, int]]) -> dict[int, int]:
    """The 1-bit terms whose values follow from `literals` (term, value) through `not`, `and`
    and `or` (both ways: an `and` that is 1 has both arguments 1; one that is 0, with one
    argument known 1, has the other 0), as term uid -> value.

    Why: the next state of a large block is written per variable as `ite`s over the block's
    branch conditions (`i' = ite(in_bounds ∧ a[i] == v, i + 1, i)`), and the block code it
    goes to is another such tree. On the path to one successor block its conditions are known,
    and with them the variable's own `ite`s fold: a loop counter stays a constant instead of
    becoming an `ite` of the paths that left the loop."""
    known: dict[int, int] = {}
    pending = list(literals)

    def value(t: Term, depth: int = 3) -> int | None:
        """`t`'s value from the facts, looking at most `depth` `not`/`and`/`or` levels down
        (a full evaluation would walk shared sub-DAGs once per path: exponential)."""
        if t.op == "const":
            return t.param  # type: ignore[return-value]
        found = known.get(t.uid)
        if found is not None or t.width != 1 or depth == 0:
            return found
        if t.op == "not":
            inner = value(t.args[0], depth - 1)
            return None if inner is None else 1 - inner
        if t.op in ("and", "or"):
            a, b = value(t.args[0], depth - 1), value(t.args[1], depth - 1)
            absorbing = 0 if t.op == "and" else 1
            if absorbing in (a, b):
                return absorbing
            return 1 - absorbing if a is not None and b is not None else None
        return None

    stuck: list[tuple[Term, int]] = []
    rounds = 0
    while pending:
        t, v = pending.pop()
        if t.op == "const" or t.uid in known:
            continue  # (a literal contradicting a fact: the outcome is infeasible, any facts do)
        known[t.uid] = v
        if t.op == "not":
            pending.append((t.args[0], 1 - v))
        elif t.op in ("and", "or") and t.width == 1:
            if v == (1 if t.op == "and" else 0):  # both arguments have this value
                pending.extend((a, v) for a in t.args)
            else:
                stuck.append((t, v))
        if not pending and rounds < FACT_ROUNDS:
            # an `and` at 0 (`or` at 1) decides an argument once the other is known
            rounds += 1
            for t2, v2 in stuck:
                for a, b in (t2.args, t2.args[::-1]):
                    if value(a) == 1 - v2 and value(b) is None:
                        pending.append((b, v2))
    return known


# rounds of deciding `and`s at 0 (`or`s at 1) by their other argument: each walks every such
# fact, and the facts only fold more; what they leave undecided stays a term (still sound)
FACT_ROUNDS = 8


@dataclass
class _StoreGroup:
    """Cells a store may write, each `c' = ite(G ∧ X == k, V, c)` with the same guard G (None:
    none), address X and value V and its own constant k. A step whose X folds to a constant
    changes one cell of the group, found by that constant, instead of evaluating every cell's
    multiplexer (`a[i] = v` over 1 000 cells: one update instead of 1 000)."""

    guard: Term | None
    address: Term
    value: Term
    cells: dict[int, int]  # k -> the state variable's index


def store_groups(nexts: dict[int, Term]) -> tuple[list[_StoreGroup], dict[int, Term]]:
    """`nexts` split into store groups of at least two cells and the other next-state terms."""
    groups: dict[tuple[int, int, int], _StoreGroup] = {}
    rest: dict[int, Term] = {}
    for index, term in nexts.items():
        shape = _store_shape(index, term)
        if shape is None:
            rest[index] = term
            continue
        guard, address, value, k = shape
        key = (0 if guard is None else guard.uid, address.uid, value.uid)
        group = groups.setdefault(key, _StoreGroup(guard, address, value, {}))
        if k in group.cells:
            rest[index] = term
        else:
            group.cells[k] = index
    kept = []
    for group in groups.values():
        if len(group.cells) < 2:
            rest.update((index, nexts[index]) for index in group.cells.values())
        else:
            kept.append(group)
    return kept, rest


def _store_shape(index: int, term: Term) -> tuple[Term | None, Term, Term, int] | None:
    """(G, X, V, k) when `term` is `ite(G ∧ X == k, V, state index)` or `ite(X == k, V, state index)`."""
    if term.op != "ite" or not (term.args[2].op == "state" and term.args[2].param == index):
        return None
    cond, value = term.args[0], term.args[1]
    guard = None
    if cond.op == "and" and cond.width == 1 and cond.args[1].op == "eq":
        guard, cond = cond.args[0], cond.args[1]
    if cond.op != "eq":
        return None
    a, b = cond.args
    if b.op == "const":
        return guard, a, value, b.param  # type: ignore[return-value]
    if a.op == "const":
        return guard, b, value, a.param  # type: ignore[return-value]
    return None


# an `ite` tree over block codes with more root-to-leaf paths than this (a DAG whose shared
# subtrees multiply them) is split by equality with each code instead
MAX_BRANCHES = 256


def _paths(t: Term, memo: dict[int, int]) -> int:
    """Root-to-leaf paths of an `ite` tree (a DAG: counted with `memo`), capped above MAX_BRANCHES."""
    if t.op != "ite":
        return 1
    if t.uid not in memo:
        memo[t.uid] = min(MAX_BRANCHES + 1, _paths(t.args[1], memo) + _paths(t.args[2], memo))
    return memo[t.uid]


@dataclass
class _Outcome:
    """One way a block's step can end: the block code it goes to, the condition (on the
    state and inputs of the step) under which it does, and the next-state terms that are not
    the variable itself, folded under that condition's facts (in the template builder)."""

    code: int
    literals: list[tuple[Term, int]]  # the branch conditions on the way, with their values
    nexts: dict[int, Term]  # those not in a store group
    stores: list[_StoreGroup] = field(default_factory=list)


@dataclass
class _WriteSite:
    """A write into an abstract object whose contents the unrolling follows (`ContentWrite`),
    its terms with `curr` fixed to the step's block code; `value` None: not one whole cell.
    `fill`: the value every cell gets from a write over the whole object (a memset's cell, or
    the undefined contents a lifetime's start writes), else None."""

    memory: ObjectContents
    condition: Term
    offset: Term
    value: Term | None
    fill: Term | None = None


@dataclass
class _ReadSite:
    """A read of such an object (`ContentRead`): it returns the cell at `offset` after the
    object's writes so far and `writes`, those of its own step that precede it."""

    memory: ObjectContents
    condition: Term
    offset: Term
    writes: list[_WriteSite]


@dataclass
class _Template:
    """One block code's step: its outcomes and U, with `curr` fixed to the code; the reads of
    followed objects (by the input index of their havoc value) and their writes, in order."""

    outcomes: list[_Outcome]
    universal: list[Term]
    reads: dict[int, list[_ReadSite]] = field(default_factory=dict)
    writes: list[_WriteSite] = field(default_factory=list)


@dataclass(frozen=True)
class _WriteImage:
    """A write of the step at the block one path is at: `kind` "skipped" (it cannot run there),
    "cell" (`value` into cell `index` where `condition`) or "fill" (every cell `value` where
    `condition`, a whole-object write at offset 0)."""

    kind: str
    condition: Term | None = None
    value: Term | None = None
    index: Term | None = None


_SKIPPED = _WriteImage("skipped")


class Unrolling:
    """The unrolled system: the frontier of the deepest depth (block code -> the condition
    under which a path is there), its state terms, and U asserted in an incremental Boolector.
    Paths that left main leave the frontier; those that reached `error` give the depth's goal."""

    FEASIBILITY_SECONDS = 0.2  # a call asking whether a new case is feasible
    RECHECK_FIRST = 8  # every case asked again at this depth, then a quarter deeper each time
    RECHECK_SECONDS = 1.0  # ... in a call of at most this long

    def __init__(self, word: WordTransitionSystem):
        self.word = word
        self.curr = word.curr.index
        self.spec = TermBuilder()  # the templates
        self.tb = TermBuilder()  # the unrolled terms
        self.templates: dict[int, _Template] = {}
        # a satisfiability call in progress is cut off at this time; a list the terminate
        # callback holds, not `self` (that would make a reference cycle through Boolector)
        self.stop_at = [float("inf")]
        self.asserted: list[Term] = []  # every term asserted so far (U and I)
        self.retired: list = []  # Boolector instances replaced after a cut-off call
        self.solver()
        self.inputs: list[dict[int, Term]] = []  # per step: input index -> its leaf
        self.input_widths = {inp.index: inp.width for inp in word.inputs}
        self.free: dict[int, Term] = {}  # state index -> leaf of its free initial value
        self.sat_calls = 0
        self.depth = 0
        # the contents of abstract objects, followed exactly (llumc.wordbmc.contents)
        budget = SelectBudget()
        self.contents = {obj.id: ObjectContents.of(self.tb, obj, budget) for obj in exact_objects(word)}
        # per step, the havoc inputs of reads given the contents: input index -> the value the
        # read folded to (`fixed`), or the term whose value a model gives it (`deferred`: what
        # a path uses is the term, so the input need not be asserted equal to it)
        self.fixed: list[dict[int, int]] = []
        self.deferred: list[dict[int, Term]] = []
        self.array_reads: dict[int, bool] = {}  # term uid -> a `select` lies under it
        self.chosen: dict[int, int] = {}  # state index -> the initial value the unrolling chose
        self.block_names = {b.code: b.name for b in word.blocks}
        self.state = self.initial(pinned=self.pinned_indices()) if self.contents else None
        if self.state is None:
            self.state = self.initial()
        # with every tracked index pinned, the error edges' restrictions are lifted
        # (`lifted_restrictions`); the trace is then a path of `self.replayed` (`lifted_system`)
        self.lifted = self.lifted_restrictions()
        self.replayed = lifted_system(word, self.lifted) if self.lifted else word
        start = self.state[self.curr]
        self.frontier: dict[int, Term] = {start.param: self.tb.true()}  # type: ignore[dict-item]
        self.goal: Term = self.tb.false()  # reached `error` first at this depth
        self.all_new = True  # the last step started at one known block: every case is new
        # the depth at which every case of the frontier is asked again (`feasible`)
        self.recheck_at = self.RECHECK_FIRST

    # -- terms
    def initial(self, pinned: dict[int, int] | None = None) -> list[Term] | None:
        """The initial state's terms, I asserted. `pinned`: state index -> a value fixed for it
        (None returned where I does not allow them)."""
        pinned = pinned or {}
        state, free, asserted = [], {}, []
        for v in self.word.state:
            if v.init is not None:
                state.append(self.tb.const(v.init, v.width))
            elif v.index in pinned:
                state.append(self.tb.const(pinned[v.index], v.width))
            else:
                free[v.index] = leaf = self.tb.state(v.index, v.width)
                state.append(leaf)
        if state[self.curr].op != "const":
            raise ValueError("the initial block is not known")
        cache: dict[int, Term] = {}
        for constraint in self.word.init:
            asserted.append(substitute(constraint, lambda t: state[t.param], self.tb, cache))
        if pinned:
            asserted.extend(self.pinned_contents(state))
        if any(t.op == "const" and t.param == 0 for t in asserted):
            return None
        self.free, self.chosen = free, dict(pinned)
        for term in asserted:
            self.assert_(term)
        return state

    def pinned_indices(self) -> dict[int, int]:
        """The tracked indices to fix at 0: those shared only by objects whose contents the
        unrolling follows. Their tracked cells are then cells of element 0, exact as every
        other cell is, and the tracked values fold as the loop counters do (a free index would
        make each write to the tracked cell an `ite` on it: 100 000 of them for a fill loop).
        Under valid-memsafety not the index of a summary whose nodes are freed: a free or a use
        of a freed node faults only at the tracked node (`MemoryObject.node_freed`), so the
        search chooses it (under unreach-call such a fault is no FALSE, and pinned is faster:
        a wrong node among 1 000 freed ones was not found in 60 s unpinned)."""
        sharing: dict[int, list] = {}
        for obj in self.word.memory_objects:
            for index in {var.index for var, _offset, _value in obj.tracked_cells()}:
                sharing.setdefault(index, []).append(obj)
        memsafety = self.word.prop in ("valid-memsafety", "all")
        return {index: 0 for index, objects in sharing.items()
                if all(o.id in self.contents and not (memsafety and getattr(o, "node_freed", None) is not None)
                       for o in objects)}

    def lifted_restrictions(self) -> list[tuple[Term, Term]]:
        """The restricted error edges `cond ∧ R` (`WordTransitionSystem.error_restrictions`:
        (that term, `cond`)) the unrolling takes as `cond`, where every tracked index is pinned
        and every abstract object with one is followed. Why: `R` says the edge's read was at
        the tracked cell, and a run whose violation is at another cell reaches `error` in the
        system only with the tracked index chosen there (docs/memory.md, cell morphing); with
        the index pinned at 0 the unrolling would find violations at element 0 alone. Its
        reads hold the exact contents, so `cond` alone is the program's check."""
        tracked = [(obj, var) for obj in self.word.memory_objects for var, _offset, _value in obj.tracked_cells()]
        if not self.chosen or any(var.index not in self.chosen or obj.id not in self.contents
                                  for obj, var in tracked):
            return []
        return list(self.word.error_restrictions)

    def pinned_contents(self, state: list[Term]) -> list[Term]:
        """The tracked cells at element 0 start with what its initializer holds there (where the
        system leaves them free: an initializer of different values)."""
        out = []
        for obj in self.word.memory_objects:
            if obj.id not in self.contents or obj.initial is None:
                continue
            for _index, offset, var in obj.tracked_cells():
                if var.init is None:
                    value = int.from_bytes(obj.initial[offset:offset + obj.cell], "little")
                    out.append(self.tb.eq(state[var.index], self.tb.const(value, var.width)))
        return out

    def template(self, code: int) -> _Template:
        found = self.templates.get(code)
        if found is None:
            spec, curr = self.spec, self.curr

            def leaf(t: Term) -> Term:
                if t.op == "state" and t.param == curr:
                    return spec.const(code, t.width)
                return spec.state(t.param, t.width) if t.op == "state" else spec.input(t.param, t.width)

            cache: dict[int, Term] = {}
            for restricted, unrestricted in self.lifted:
                cache[restricted.uid] = substitute(unrestricted, leaf, spec, cache)
            nexts = {v.index: substitute(self.word.next[v.index], leaf, spec, cache) for v in self.word.state}
            universal = [substitute(u, leaf, spec, cache) for u in self.word.universal]
            reads, writes = self.content_sites(code, lambda t: substitute(t, leaf, spec, cache))
            outcomes = []
            for target, literals in self.branches(nexts.pop(curr)):
                facts = implied_facts(literals)
                known = {uid: spec.const(v, 1) for uid, v in facts.items()}
                folded = {}
                if target not in (self.word.ok_code, self.word.error_code):
                    under = dict(known)  # one cache for the outcome: its terms share their reads
                    for index, term in nexts.items():
                        image = substitute(term, lambda t: t, spec, under)
                        if not (image.op == "state" and image.param == index):
                            folded[index] = image
                stores, rest = store_groups(folded)
                outcomes.append(_Outcome(target, literals, rest, stores))
            found = self.templates[code] = _Template(outcomes, universal, reads, writes)
        return found

    @staticmethod
    def fill_value(memory: ObjectContents, write, spec: Callable[[Term], Term]) -> Term | None:
        """The cell value of a write over the whole object (`_WriteSite.fill`), else None."""
        written = getattr(write, "written", None)
        if write.value is not None or written is None or not memory.size or write.size < memory.size:
            return None
        if write.uniform:
            return spec(written) if written.width == 8 * memory.cell else None
        return spec(written) if written.op == "input" else None

    def content_sites(self, code: int, spec: Callable[[Term], Term]
                      ) -> tuple[dict[int, list[_ReadSite]], list[_WriteSite]]:
        """The reads and writes of followed objects in block `code`'s step (terms made by `spec`)."""
        name = self.block_names.get(code)
        reads: dict[int, list[_ReadSite]] = {}
        writes: list[_WriteSite] = []
        for obj in self.word.memory_objects:
            memory = self.contents.get(obj.id)
            if memory is None:
                continue
            mine: list[tuple[int, _WriteSite]] = []
            for position, w in enumerate(obj.content_writes):
                if w.head == name:
                    site = _WriteSite(memory, spec(w.condition), spec(w.offset), None if w.value is None else spec(w.value),
                                      self.fill_value(memory, w, spec))
                    mine.append((position, site))
                    writes.append(site)
            for r in obj.content_reads:
                if r.head == name:
                    before = [site for position, site in mine if position < r.writes_before]
                    reads.setdefault(r.value.param, []).append(
                        _ReadSite(memory, spec(r.condition), spec(r.offset), before))
        return reads, writes

    def branches(self, target: Term) -> list[tuple[int, list[tuple[Term, int]]]]:
        """The block codes the step goes to, each with the branch literals leading there: the
        leaves of an `ite` tree over constants (any other term, or a tree of more than
        `MAX_BRANCHES` paths: every code, by equality)."""
        if target.op == "const":
            return [(target.param, [])]  # type: ignore[list-item]
        if target.op != "ite" or _paths(target, {}) > MAX_BRANCHES:
            spec = self.spec
            return [(b.code, [(spec.eq(target, spec.const(b.code, target.width)), 1)]) for b in self.word.blocks]
        c, a, b = target.args
        return ([(code, [(c, 1), *lits]) for code, lits in self.branches(a)]
                + [(code, [(c, 0), *lits]) for code, lits in self.branches(b)])

    def step(self) -> None:
        """Depth k+1 from depth k and step k's inputs: U of step k asserted for every path in
        the frontier; the frontier, state and goal of depth k+1."""
        k, tb = self.depth, self.tb
        state = self.state
        inputs: dict[int, Term] = {}
        self.inputs.append(inputs)
        fixed: dict[int, int] = {}
        self.fixed.append(fixed)
        deferred: dict[int, Term] = {}
        self.deferred.append(deferred)
        widths = self.input_widths
        sites: dict[int, list[tuple[Term, _ReadSite]]] = {}  # input index -> (path at its block, read)
        if self.contents:
            for code, guard in self.frontier.items():
                for index, reads in self.template(code).reads.items():
                    sites.setdefault(index, []).extend((guard, read) for read in reads)
        replaced: dict[int, Term] = {}
        cache: dict[int, Term] = {}
        write_images: dict[tuple[int, int], _WriteImage | None] = {}  # (write site, path) -> `write_image`

        def leaf(t: Term) -> Term:
            if t.op == "state":
                return state[t.param]  # type: ignore[index]
            index: int = t.param  # type: ignore[assignment]
            found = replaced.get(index)
            if found is not None:
                return found
            raw = inputs.get(index)
            if raw is None:
                raw = inputs[index] = tb.input((k, index), widths[index])
            if index not in sites:
                return raw
            replaced[index] = raw  # while its value is built (a read's condition may hold it)
            value = raw
            for guard, read in reversed(sites[index]):
                exact = self.exact_read(read, guard, leaf, cache, write_images)
                if exact is not None:
                    value = tb.ite(exact[0], exact[1], value)
            replaced[index] = value
            if value is not raw:
                if value.op == "const":
                    fixed[index] = value.param  # type: ignore[assignment]
                elif self.reads_array(value):
                    self.assert_(tb.eq(raw, value))  # its value in a model: Boolector's
                else:
                    deferred[index] = value
            return value

        moves: list[tuple[Term, int, dict[int, Term]]] = []  # (condition, block code, next-state images)
        goals = []
        for code, guard in self.frontier.items():
            template = self.template(code)
            held = tb.all_of([substitute(u, leaf, tb, cache) for u in template.universal])
            self.assert_(tb.or_(tb.not_(guard), held))
            for outcome in template.outcomes:
                literals = []
                for t, v in outcome.literals:
                    image = substitute(t, leaf, tb, cache)
                    if image.op == "const" and image.param != v:
                        break  # a branch this path does not take: the outcome's other literals unasked
                    literals.append((image, v))
                else:
                    taken = tb.all_of([guard] + [t if v else tb.not_(t) for t, v in literals])
                    if not (taken.op == "const" and taken.param == 0):
                        if outcome.code == self.word.error_code:
                            goals.append(taken)
                        elif outcome.code != self.word.ok_code:
                            moves.append((taken, outcome.code, self.images(outcome, literals, leaf)))
        if self.contents:
            self.apply_writes(leaf, cache, write_images)
        frontier: dict[int, Term] = {}
        for taken, code, _ in moves:
            frontier[code] = tb.or_(frontier[code], taken) if code in frontier else taken
        recheck = k + 1 >= self.recheck_at
        if recheck:
            self.recheck_at = k + 1 + max(self.RECHECK_FIRST, (k + 1) // 4)
        frontier = {code: guard for code, guard in frontier.items()
                    if self.feasible(code, guard, self.all_new, recheck)}
        self.all_new = len(frontier) == 1 and next(iter(frontier.values())).op == "const"
        moves = [move for move in moves if move[1] in frontier]
        successor = list(state)
        for index in sorted({index for _, _, images in moves for index in images}):
            merged = None
            for taken, _, images in reversed(moves):
                value = images.get(index, state[index])
                merged = value if merged is None else tb.ite(taken, value, merged)
            successor[index] = merged
        self.frontier, self.state, self.goal, self.depth = frontier, successor, tb.any_of(goals), k + 1

    def reads_array(self, term: Term) -> bool:
        """Whether a `select` lies in `term`'s DAG (memoised over the unrolling)."""
        memo = self.array_reads
        for t in postorder(term, memo):
            memo[t.uid] = t.op == "select" or any(memo[a.uid] for a in t.args)
        return memo[term.uid]

    def exact_read(self, read: _ReadSite, guard: Term, leaf: Callable[[Term], Term], cache: dict[int, Term],
                   images: dict[tuple[int, int], _WriteImage | None]) -> tuple[Term, Term] | None:
        """(the read runs at a cell boundary, the cell's contents there), for a read at the block
        a path is at under `guard`; None where the contents are not followed."""
        memory, tb = read.memory, self.tb
        if memory.lost:
            return None
        runs = tb.and_(guard, substitute(read.condition, leaf, tb, cache))
        if runs.op == "const" and runs.param == 0:
            return None
        index, aligned = memory.index(substitute(read.offset, leaf, tb, cache))
        runs = tb.and_(runs, aligned)
        if runs.op == "const" and runs.param == 0:
            return None
        earlier = [self.write_image(w, guard, leaf, cache, images) for w in read.writes]
        if any(image is None or (image.kind == "fill" and image.value.op != "const") for image in earlier):
            return None  # a write not followed, or one that leaves any contents
        value = memory.read(index)
        if value is None:
            return None
        for image in earlier:
            if image.kind == "fill":  # with a constant
                value = tb.ite(image.condition, image.value, value)
            elif image.kind == "cell":
                hit = tb.and_(image.condition, tb.eq(image.index, index))
                if not (hit.op == "const" and hit.param == 0):
                    value = tb.ite(hit, image.value, value)
        return runs, value

    def write_image(self, write: _WriteSite, guard: Term, leaf: Callable[[Term], Term], cache: dict[int, Term],
                    images: dict[tuple[int, int], _WriteImage | None]) -> _WriteImage | None:
        """A write in this step at the block a path is at under `guard`: one aligned cell, a
        fill (`_WriteSite.fill`) at offset 0, or `_SKIPPED` where it cannot run; None where it
        may run and is neither (its object's contents are then no longer followed)."""
        key = (id(write), guard.uid)
        if key in images:
            return images[key]
        tb = self.tb
        image: _WriteImage | None = _SKIPPED
        runs = tb.and_(guard, substitute(write.condition, leaf, tb, cache))
        if not (runs.op == "const" and runs.param == 0):
            image = None
            if write.fill is not None:
                offset = substitute(write.offset, leaf, tb, cache)
                if offset.op == "const" and offset.param == 0:
                    image = _WriteImage("fill", runs, substitute(write.fill, leaf, tb, cache))
            elif write.value is not None:
                index, aligned = write.memory.index(substitute(write.offset, leaf, tb, cache))
                misaligned = tb.and_(runs, tb.not_(aligned))
                if misaligned.op == "const" and misaligned.param == 0:
                    image = _WriteImage("cell", runs, substitute(write.value, leaf, tb, cache), index)
        images[key] = image
        return image

    def apply_writes(self, leaf: Callable[[Term], Term], cache: dict[int, Term],
                     images: dict[tuple[int, int], _WriteImage | None]) -> None:
        """The step's writes into the followed objects, in their order, each where it runs; an
        object with a write the model cannot follow is no longer followed."""
        for code, guard in self.frontier.items():
            for write in self.template(code).writes:
                if write.memory.lost:
                    continue
                image = self.write_image(write, guard, leaf, cache, images)
                if image is None:
                    write.memory.lost = True
                elif image.kind == "fill":
                    if not write.memory.fill(image.condition, image.value, name=f"{write.memory.name}@{self.depth}"):
                        write.memory.lost = True
                elif image.kind == "cell":
                    write.memory.write(image.condition, image.index, image.value)

    def images(self, outcome: _Outcome, literals: list[tuple[Term, int]], leaf: Callable[[Term], Term]
               ) -> dict[int, Term]:
        """The next-state terms of one outcome of a step, under the facts its branch literals
        (their images at this step) imply: there the values the unrolling now knows decide
        what the template could not (a loop counter's `ite` once the counter is known)."""
        facts = implied_facts([(t, v) for t, v in literals if t.op != "const"])
        cache: dict[int, Term] = {}
        tb = self.tb
        images = {index: substitute(spec, leaf, tb, cache, facts) for index, spec in outcome.nexts.items()}
        for group in outcome.stores:
            address = substitute(group.address, leaf, tb, cache, facts)
            if address.op != "const":
                for k, index in group.cells.items():
                    hit = tb.eq(address, tb.const(k, address.width))
                    if group.guard is not None:
                        hit = tb.and_(substitute(group.guard, leaf, tb, cache, facts), hit)
                    images[index] = tb.ite(hit, substitute(group.value, leaf, tb, cache, facts), self.state[index])
                continue
            index = group.cells.get(address.param)  # type: ignore[arg-type]
            if index is None:
                continue
            hit = tb.true() if group.guard is None else substitute(group.guard, leaf, tb, cache, facts)
            images[index] = tb.ite(hit, substitute(group.value, leaf, tb, cache, facts), self.state[index])
        return images

    def feasible(self, code: int, guard: Term, all_new: bool, recheck: bool = False) -> bool:
        """May a path be at block `code` under `guard`? Asked of the solver (briefly: an
        unfinished call says yes) only for a code no path was at one step earlier, or for every
        case when the last step started at one known block (`all_new`): a branch whose
        conditions the unrolling could not fold may leave an outcome no path takes (the loop's
        own block after the loop was left), and a path kept there would run the loop again on
        merged values, without end. Every case is asked again now and then (at depths 8, 16,
        24, ..., each a quarter deeper than the last: a few dozen times in 200 000 steps):
        a case whose paths have all left it keeps a condition no input satisfies, and where
        paths of different lengths merge (an insertion sort's inner loop) no step folds it to
        false, so without this the unrolling never ends. Such a call (`recheck`) may take
        `RECHECK_SECONDS`: they are few, and one cut off beside other engines on two cores
        kept an insertion sort's finished loop unrolling to the time limit."""
        if guard.op == "const":
            return True
        if recheck:
            return self.reachable(guard, time.monotonic() + self.RECHECK_SECONDS) is not False
        if code in self.frontier and not all_new:
            return True
        return self.reachable(guard, time.monotonic() + self.FEASIBILITY_SECONDS) is not False

    def ended(self) -> bool:
        """No path is still in main: each has left it or reached `error`."""
        return not self.frontier

    # -- the solver
    def node(self, term: Term):
        nodes = self.translator.nodes
        if term.uid not in nodes:
            cone, stack = {}, [term]
            while stack:
                t = stack.pop()
                if t.uid not in nodes and t.uid not in cone:
                    cone[t.uid] = t
                    stack.extend(t.args)
            for uid in sorted(cone):
                self.translator.translate(cone[uid])
        return nodes[term.uid]

    def solver(self) -> None:
        """A fresh Boolector holding every assertion so far. Why anew: once a call was cut off
        (its terminate callback answered yes), Boolector answers every later call "unknown"
        at once. Made when first needed after a cut-off call; the old one is kept until the
        unrolling is dropped (freeing a large instance takes seconds)."""
        if hasattr(self, "btor"):
            self.retired.append(self.btor)
        self.stale = False
        self.btor = incremental_solver()
        self.btor.Set_term(lambda _: self.cut_off(), None)
        self.translator = Translator(self.btor)
        for term in self.asserted:
            self.btor.Assert(self.node(term))

    def cut_off(self) -> bool:
        """Boolector's terminate callback: the call's time is up. (Boolector does not ask it in
        every phase of `Sat()`: the portfolio runs this engine in a child it can kill.)"""
        return time.monotonic() > self.stop_at[0]

    def assert_(self, term: Term) -> None:
        if not (term.op == "const" and term.param == 1):
            self.asserted.append(term)
            if not self.stale:
                self.btor.Assert(self.node(term))

    def reachable(self, goal: Term, until: float) -> bool | None:
        """Is `goal` satisfiable with every U asserted so far? None when the call was cut off
        at `until` (monotonic time)."""
        if self.stale:
            self.solver()
        self.sat_calls += 1
        self.stop_at[0] = until
        self.btor.Assume(self.node(goal))
        answer = self.btor.Sat()
        if answer == self.btor.SAT:
            return True
        if answer == self.btor.UNSAT:
            return False
        self.stop_at[0] = float("inf")
        self.stale = True
        return None

    def model_inputs(self) -> list[list[int]]:
        """Per step, the value of every input in the last satisfiable call's model (0 for an
        input no asserted term reads)."""
        nodes = self.translator.nodes

        def value(leaf: Term) -> int:
            node = nodes.get(leaf.uid)
            return 0 if node is None else int(node.assignment.replace("x", "0"), 2)

        leaves = _ModelLeaves(self, value)
        cache: dict[int, int] = {}
        out = []
        for inputs, fixed, deferred in zip(self.inputs, self.fixed, self.deferred):
            values = [0] * len(self.word.inputs)
            for index, leaf in inputs.items():
                if index in fixed:
                    values[index] = fixed[index]
                elif index in deferred:
                    values[index] = evaluate_lazily(deferred[index], leaves, cache)
                else:
                    values[index] = value(leaf)
            out.append(values)
        return out

    def model_initial(self) -> list[int]:
        nodes = self.translator.nodes
        values = []
        for v in self.word.state:
            leaf = self.free.get(v.index)
            node = None if leaf is None else nodes.get(leaf.uid)
            if v.index in self.chosen:
                values.append(self.chosen[v.index])
                continue
            values.append(v.init if leaf is None else 0 if node is None else int(node.assignment.replace("x", "0"), 2))
        return values


class _ModelLeaves(dict):
    """The leaves of the unrolled terms, valued by the last model (`evaluate`'s keys: ("input",
    (step, index)), ("state", index)); a leaf outside the solver's terms is 0, as
    `Unrolling.model_inputs` has it."""

    def __init__(self, unrolling: Unrolling, value: Callable[[Term], int]):
        super().__init__()
        self.unrolling, self.value = unrolling, value

    def __missing__(self, key: tuple) -> int:
        op, param = key
        u = self.unrolling
        if op == "input":
            step, index = param
            leaf = u.inputs[step].get(index)
            found = 0 if leaf is None else self.value(leaf)
        else:
            leaf = u.free.get(param)
            found = u.chosen.get(param, 0) if leaf is None else self.value(leaf)
        self[key] = found
        return found


def lifted_system(word: WordTransitionSystem, restrictions: list[tuple[Term, Term]]) -> WordTransitionSystem:
    """`word` with each restricted error edge (restricted, cond) taken as `cond` in its
    next-state terms: the system whose paths the unrolling follows once it lifts them
    (`Unrolling.lifted_restrictions`)."""
    tb = word.terms
    cache: dict[int, Term] = {}
    for restricted, unrestricted in restrictions:
        cache[restricted.uid] = substitute(unrestricted, lambda t: t, tb, cache)
    nexts = {index: substitute(term, lambda t: t, tb, cache) for index, term in word.next.items()}
    return dataclasses.replace(word, next=nexts)


def replayed_path(word: WordTransitionSystem, initial: list[int], inputs: list[list[int]]
                  ) -> list[tuple[tuple[int, ...], dict[int, int]]] | None:
    """The path the system takes from `initial` with these inputs, run by the compiled steps
    of `llumc.invariants.simulate`, up to where it reaches `error`; None if it never does
    (or U fails on the way). Why run it again: the trace is then the system's own, whatever
    the unrolling merged, and a disagreement is caught here rather than passed on."""
    steps: dict[int, object] = {}
    curr, state, path = word.curr.index, list(initial), []
    for values in inputs:
        if state[curr] == word.error_code:
            break
        step = steps.get(state[curr])
        if step is None:
            step = steps[state[curr]] = compile_step(word, state[curr]).fn
        path.append((tuple(state), {i: v for i, v in enumerate(values) if v}))
        following = step(state, values)
        if following is None:
            return None
        state = list(following)
    if state[curr] != word.error_code:
        return None
    path.append((tuple(state), {}))
    return path


def word_bmc(encoded: EncodeResult, *, deadline: float, progress: Callable[[str], None] | None = None,
             max_steps: int = 1_000_000) -> WordBmcResult:
    """`unroll` with Python's cyclic collector paused: the unrolling makes millions of terms
    and no reference cycles, and full collections over them cost seconds."""
    with cyclic_gc_paused():
        return unroll(encoded, deadline=deadline, progress=progress, max_steps=max_steps)


def unroll(encoded: EncodeResult, *, deadline: float, progress: Callable[[str], None] | None = None,
           max_steps: int = 1_000_000) -> WordBmcResult:
    """Unroll `encoded`'s word-level system until its goal is reachable, every run has ended,
    or the deadline passes, or the unrolling exceeds `MAX_TERMS` terms. (Stopped early from
    outside: the portfolio runs it in a child process it kills, `solvers.child`.)

    When to ask the solver. A path that reaches `error` leaves the unrolling there (`step`),
    its goal kept; a call asks whether any goal kept since the last "unreachable" holds (their
    disjunction), and the trace is cut where the model first reaches `error`. Calls that answer
    "unreachable" are the expensive kind (a running maximum's `a[0] <= m` over 100 `ite`s is
    hard for CDCL, while the query that also holds the failing last element is answered at
    once), so calls are spaced: the next waits for twice the depth of the last and for as much
    unrolling time as the last call took, or for four times that time (at least 2 s: a bug
    100 000 steps past the first goal is not left to the depth's doubling, while a short run
    asks as before); a call gets at most as long as the unrolling has
    taken so far (at least a second), and one cut off leaves its goals to the next; the last
    tenth of the time is kept for a call at the deepest depth."""
    started = time.monotonic()
    unrolling = Unrolling(encoded.word)
    final = deadline - max(0.2, 0.1 * (deadline - started))
    last_call, call_cost, last_depth, reported = started, 0.0, 0, started
    cut_late = False
    goals: list[Term] = []  # goals of the depths since the last "unreachable"

    def outcome(status: str, reason: str = "", trace: list[list[int]] | None = None, ended: bool = False):
        return WordBmcResult(status, reason, unrolling.depth, unrolling.sat_calls, time.monotonic() - started,
                             trace or [], ended)

    while True:
        now, k = time.monotonic(), unrolling.depth
        ended, late = unrolling.ended(), now > final or k >= max_steps
        if not (unrolling.goal.op == "const" and unrolling.goal.param == 0):
            goals.append(unrolling.goal)
        waited = now - last_call
        due = ended or late or (k >= 2 * last_depth and waited >= call_cost) or waited >= max(2.0, 4 * call_cost)
        if due and goals and not (late and cut_late):
            budget = deadline if ended or late else min(final, now + max(1.0, now - started))
            found = unrolling.reachable(unrolling.tb.any_of(goals), budget)
            if found:
                path = replayed_path(unrolling.replayed, unrolling.model_initial(), unrolling.model_inputs())
                if path is None:
                    return outcome("unknown", "internal error: the word-level BMC's model does not reach error")
                bits = TraceBits(encoded)
                return outcome("error", trace=[bits.word_assignment(state, inputs) for state, inputs in path])
            if found is False:
                goals.clear()
            cut_late = found is None and time.monotonic() >= final  # no time for another call
            call_cost, last_call, last_depth = time.monotonic() - now, time.monotonic(), k
        if ended and not goals:
            return outcome("unknown", f"every run ends within {k} steps", ended=True)
        if ended:
            return outcome("unknown", "timeout")
        if late:
            return outcome("unknown", "timeout" if k < max_steps else f"depth {max_steps} reached")
        if len(unrolling.tb.table) > MAX_TERMS:
            return outcome("unknown", f"more than {MAX_TERMS} terms")
        if progress is not None and now - reported > 2.0:
            reported = now
            progress(f"word-bmc: depth {k}, {len(unrolling.tb.table)} terms, {unrolling.sat_calls} SAT calls")
        unrolling.step()
