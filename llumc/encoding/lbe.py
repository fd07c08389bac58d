"""Large-block encoding (`--scheme lbe`): one step runs from a cut point through a loop-free
region of blocks to the next cut point, or to `ok`/`error`.

Why: in the small-block encoding every block of a loop iteration is a step, so paths are
long, and every step's formula carries every block anyway. Summarising the loop-free parts
(rules 1 and 2 of Beyer et al., "Software Model Checking via Large-Block Encoding":
sequences and choices merged, the error location a sink) makes one loop iteration one step.

- Cut points: the entry block and the targets of back edges of a depth-first search; every
  cycle contains a back edge, so every cycle contains a cut point and each region (the blocks
  reachable from a cut point without passing another) is a DAG. `curr` ranges over the cut
  points plus `ok` and `error`.
- A step is encoded functionally: each region block gets a reachability condition (its path
  condition inside the step: the disjunction over incoming region edges of the predecessor's
  end guard and the branch condition); checks inside a block cut the path in instruction order
  as in the small-block encoder (failed assume -> ok, failed assert / error call / trap ->
  error), so the first failing check in execution order wins. A phi of a region block is one
  ite per distinct incoming value, under the disjunction of its entering edges' conditions.
- A state variable whose values all lie in a finite constant set (`llumc/encoding/valuesets.py`) is read
  with the bits the set's members share fixed (`read_state`).
- State variables are only the values that live across cut points: phis of cut points (set on
  the edge entering them, as in the edge scheme) and values read where their definition did not
  necessarily run earlier in the same step (SSA dominance across a cut point). A value whose
  definition ran in the step on some paths but not all is read as ite(defined in this step,
  new value, state variable).
- Nondet calls: one input per call site; a site runs at most once per step (DAG), and only one
  region is active per step, so regions sharing a block share its inputs.
"""

from __future__ import annotations

import math

from llumc.frontend.cfg import POINTER_WIDTH, Block, Const, Function, GlobalAddr, Instr, Operand, Ref, Undef
from llumc.errors import UnsupportedError
from llumc.encoding.liveness import PointerLiveness, successors
from llumc.encoding.memory import DEFAULT_HEAP_POOL, MemoryEncoder, uses_memory
from llumc.encoding.terms import Term, TermBuilder
from llumc.encoding.valuesets import KnownBits, constant_sets
from llumc.encoding.wordsys import BlockCode, StepEncoder, WordTransitionSystem


def cut_points(fn: Function, succ: dict[str, list[str]] | None = None) -> list[str]:
    """Entry block and back-edge targets of an iterative DFS from the entry (reachable blocks only),
    in the order of `fn.blocks`. `succ`: `successors` of every block, if already at hand."""
    entry = fn.blocks[0].name
    if succ is None:
        succ = {b.name: successors(b) for b in fn.blocks}
    cuts = {entry}
    on_stack: set[str] = {entry}
    seen: set[str] = {entry}
    stack: list[tuple[str, int]] = [(entry, 0)]
    while stack:
        name, i = stack[-1]
        if i < len(succ[name]):
            stack[-1] = (name, i + 1)
            s = succ[name][i]
            if s in on_stack:
                cuts.add(s)  # back edge
            elif s not in seen:
                seen.add(s)
                on_stack.add(s)
                stack.append((s, 0))
        else:
            on_stack.discard(name)
            stack.pop()
    return [b.name for b in fn.blocks if b.name in cuts]


# opcodes whose `StepEncoder.pure_value` reads every operand, in operand order, before building
# any term (so the encoder may read them all first, in that order: the same terms, made in the
# same order)
_READS_ALL = frozenset(("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or",
                        "xor", "icmp", "select", "zext", "sext", "trunc", "freeze"))


class Region:
    """The loop-free blocks one step may run from cut point `root`, in topological order, with
    the ancestor and dominator relations *inside the region* (bitsets over `order` positions)."""

    def __init__(self, fn: Function, root: str, cuts: set[str], succ: dict[str, list[str]] | None = None):
        self.root = root
        if succ is None:  # `successors` of every block (the encoder computes them once for all regions)
            succ = {b.name: successors(b) for b in fn.blocks}
        post: list[str] = []
        seen = {root}
        stack: list[tuple[str, int]] = [(root, 0)]
        while stack:  # iterative DFS postorder, not entering cut points
            name, i = stack[-1]
            if i < len(succ[name]):
                stack[-1] = (name, i + 1)
                s = succ[name][i]
                if s not in cuts and s not in seen:
                    seen.add(s)
                    stack.append((s, 0))
            else:
                post.append(name)
                stack.pop()
        self.order = post[::-1]
        self.pos = {name: i for i, name in enumerate(self.order)}
        self.preds: dict[str, list[str]] = {name: [] for name in self.order}
        for name in self.order:
            for s in succ[name]:
                if s in self.pos and s not in cuts:
                    if self.pos[s] <= self.pos[name]:
                        raise AssertionError(f"region of {root} is not a DAG at {name} -> {s}")
                    self.preds[s].append(name)
        self.ancestors: dict[str, int] = {}
        self.dominators: dict[str, int] = {}
        self._read: dict[tuple[str, str], str] = {}  # (def block, use block) -> read()
        for name in self.order:
            bit = 1 << self.pos[name]
            anc, dom = bit, None
            for p in self.preds[name]:
                anc |= self.ancestors[p]
                dom = self.dominators[p] if dom is None else dom & self.dominators[p]
            self.ancestors[name] = anc
            self.dominators[name] = bit | (dom or 0)

    def __contains__(self, name: str) -> bool:
        return name in self.pos

    def read(self, def_block: str, use_block: str) -> str:
        """How a value defined in `def_block` is read at the end of `use_block` (both blocks'
        instructions up to the use): "local" (its definition surely ran earlier in this step),
        "mixed" (on some paths), or "state" (from an earlier step)."""
        if def_block == use_block:
            return "local" if def_block in self.pos else "state"
        found = self._read.get((def_block, use_block))
        if found is None:
            found = self._read[(def_block, use_block)] = self._read_bits(def_block, use_block)
        return found

    def _read_bits(self, def_block: str, use_block: str) -> str:
        # `read` once per pair of blocks: each test builds Python integers as wide as the
        # region (24 000 bits in RERS programs, read 800 000 times)
        if def_block not in self.pos:
            return "state"
        bit = 1 << self.pos[def_block]
        if self.dominators[use_block] & bit:
            return "local"
        if self.ancestors[use_block] & bit:
            return "mixed"
        return "state"


class LargeBlockEncoder(StepEncoder):
    def __init__(self, fn: Function, prop: str, classify, debug=None, narrow: bool = True, memtrack: bool = True,
                 terms: TermBuilder | None = None, exact_objects: frozenset[str] = frozenset(),
                 heap_pool: int = DEFAULT_HEAP_POOL, pool_cuts: bool = False, exact_cells: int | None = None):
        super().__init__(fn, prop, "lbe", classify, debug, terms)
        self.narrow = narrow  # fix the bits a state variable's constant set shares (read_state)
        succ = {b.name: successors(b) for b in fn.blocks}
        cuts = cut_points(fn, succ)
        self.cut_set = set(cuts)
        self.heads = [fn.block(c) for c in cuts]
        self.codes = {c: i for i, c in enumerate(cuts)}
        self.ok = len(cuts)
        self.error = len(cuts) + 1
        self.curr_width = max(1, math.ceil(math.log2(len(cuts) + 2)))
        self.regions = {c: Region(fn, c, self.cut_set, succ) for c in cuts}
        # `_restrict_errors`' edges: (the restricted condition, the condition it restricts)
        self.error_restrictions: list[tuple[Term, Term]] = []
        self._incoming: dict[int, dict[str, tuple[int, Operand]]] = {}
        self._live: dict[str, set[int]] | None = None  # live_pointers, computed once
        self.memtrack = memtrack  # valid-memsafety: the leak edges (valid-memtrack) too
        self._leaks: bool | None = None  # encodes_leaks, decided once
        self.known: dict[int, KnownBits] = {}  # state index -> bits all its values share
        # memory left after SROA (llumc/encoding/memory.py); allocas are constant pointers, never state
        # `exact_objects`: large objects made exact by a refinement; `exact_cells`: the exact
        # bound (None: EXACT_CELLS) (`MemoryEncoder`)
        # `heap_pool`, `pool_cuts`: objects per allocation site in a loop, and whether a run past
        # them ends without error (`MemoryEncoder`)
        self.memory = MemoryEncoder(fn, self.tb, self.new_state, debug, exact_objects=exact_objects,
                                    exact_cells=exact_cells,
                                    strict_allocation=prop == "valid-memsafety", heap_pool=heap_pool,
                                    pool_cuts=pool_cuts) if uses_memory(fn) else None
        self.constants: dict[int, Term] = {}
        if self.memory is not None:
            self.constants = {key: self.memory.constant(key)
                              for key in [*self.memory.object_of_alloca, *self.memory.object_of_call]}

    def read_state(self, var) -> Term:
        """The current value of a state variable, with the bits fixed that every value it can
        hold shares (`llumc/encoding/valuesets.py`). Sound because a state variable is only read after it
        was written (SSA dominance), and every value written is in its set; where it was never
        written (the first step), the value is never read and the fixed bits change nothing
        observable."""
        term = self.cur(var)
        known = self.known.get(var.index)
        return term if known is None else known.apply(self.tb, term)

    # ----------------------------------------------------------------- state space
    def _uses(self, region: Region):
        """(value key, block whose end is the use point) for every read in a region that may
        need a state variable: operands (but those of values defined in the same block, always
        read locally: most of them), incoming values of region phis (read at the end of the
        predecessor) and incoming values of cut-point phis on the region's exit edges."""
        defs = self.defs
        for name in region.order:
            block = self.fn.block(name)
            for ins in block.instrs:
                if ins.opcode == "phi":
                    if name != region.root:
                        for value, pred in ins.incoming:
                            if isinstance(value, Ref) and pred in region:
                                yield value.key, pred
                    continue
                for value in ins.operands:
                    if value.__class__ is Ref and defs[value.key][0] is not block:
                        yield value.key, name
            for target in successors(block):
                if target in self.cut_set:
                    for ins in self.fn.block(target).instrs:
                        if ins.opcode == "phi":
                            for value, pred in ins.incoming:
                                if isinstance(value, Ref) and pred == name:
                                    yield value.key, name

    def choose_state_space(self) -> None:
        self.curr = self.new_state("curr", self.curr_width, "block", self.codes[self.fn.blocks[0].name])
        self.pred = None
        needed: set[int] = set()
        for c in self.codes:
            for ins in self.fn.block(c).instrs:
                if ins.opcode == "phi":
                    needed.add(ins.key)
        constants, defs = self.constants, self.defs
        for region in self.regions.values():
            in_region = region.pos
            for key, use_block in self._uses(region):
                if key in needed or key in constants:
                    continue
                def_block = defs[key][0].name
                if def_block == use_block and def_block in in_region:
                    continue  # region.read's "local", inline: most uses are in their defining block
                if region.read(def_block, use_block) != "local":
                    needed.add(key)
        # the sets of the state variables only: the same sets (`constant_sets`' `wanted`)
        sets = constant_sets(self.fn, wanted=needed, instr_of=lambda key: defs[key][1]) if self.narrow else {}
        for b in self.fn.blocks:
            for ins in b.instrs:
                if ins.key in needed:
                    c_names = self.debug.names_of(ins.name[1:]) if self.debug is not None and ins.name else []
                    kind = "phi" if ins.opcode == "phi" else "value"
                    if ins.width == POINTER_WIDTH:
                        kind = "pointer"  # (object, offset): no arithmetic facts, shown as `&a[3]`
                    var = self.new_state(ins.name, ins.width, kind, None, c_names)
                    self.state_of[ins.key] = var
                    if ins.key in sets:
                        self.known[var.index] = KnownBits.of(sets[ins.key], ins.width)
        if self.memory is not None:
            self.memory.declare_state()

    def incoming_of(self, phi: Instr) -> dict[str, tuple[int, Operand]]:
        """Predecessor -> (position, value) of its first incoming entry in `phi`; cached: a
        phi of RERS's return blocks has thousands of entries, searched once per entering edge."""
        found = self._incoming.get(phi.key)
        if found is None:
            found = {}
            for pos, (value, pred) in enumerate(phi.incoming):
                found.setdefault(pred, (pos, value))
            self._incoming[phi.key] = found
        return found

    # ----------------------------------------------------------------- one step
    def encode_region(self, region: Region, writes: dict[int, list[tuple[Term, Term]]]) -> None:
        """Encode the step from cut point `region.root`: adds its next-state writes (each
        guarded by curr = root) to `writes` and its block conditions to `self.reached`.

        The region's blocks in topological order: each block's reach condition (its entering
        edges'), its instructions in order (a check or a fault cuts the guard, a terminator
        gives its successors' branch conditions), then its edges (`_follow_branches`). `ends`
        collects (condition, target code) of every way the step ends, in execution order;
        `_end_step` makes the next `curr` of them."""
        tb = self.tb
        here = self.at(region.root)
        local: dict[int, Term] = {}
        reach: dict[str, Term] = {region.root: tb.true()}
        incoming: dict[str, list[tuple[str, Term]]] = {name: [] for name in region.order}
        # the reach conditions with no check cut (`_follow_branches`): they guard the writes
        loose: dict[str, Term] = {region.root: tb.true()}
        loose_incoming: dict[str, list[Term]] = {name: [] for name in region.order}
        ends: list[tuple[Term, int]] = []
        # positions in `ends` of failed checks, error calls and invalid accesses (`_restrict_errors`)
        checks: set[int] = set()
        exits: dict[int, int | None] = {}  # positions in `ends` where the program ends -> C line
        self.reached[region.root] = []
        if self.memory is not None:
            self.memory.begin_step(region.root)
        leaks = self.encodes_leaks()
        if leaks:
            ends.append((self._lost_at_step_start(region.root, here), self.error))
        read = self._operand_reader(region, local, reach)
        memory, pure_value, state_of = self.memory, self.pure_value, self.state_of
        for name in region.order:
            block = self.fn.block(name)
            if name != region.root:
                reach[name] = tb.any_of([cond for _, cond in incoming[name]])
                loose[name] = tb.any_of(loose_incoming[name])
            guard = reach[name]
            self.reached[region.root].append((name, guard))
            branches: dict[str, Term] = {}  # successor -> branch condition (without guard)
            for ins in block.instrs:
                op = ins.opcode
                if op in _READS_ALL and (memory is None or not memory.handles(ins)):
                    # `pure_value` reads every operand of these, in order, before it builds
                    # anything: read them here, without a closure per instruction
                    terms = [read(value, name, ins, block, i) for i, value in enumerate(ins.operands)]
                    local[ins.key] = pure_value(ins, terms.__getitem__)
                    continue

                def arg(i: int, ins=ins, block=block) -> Term:
                    return read(ins.operands[i], block.name, ins, block, i)

                if self.memory is not None and self.memory.handles(ins):
                    guard = self._encode_memory_access(ins, block, arg, guard, here, local, ends, checks)
                    continue
                pure = self.pure_value(ins, arg)
                if pure is not None:
                    local[ins.key] = pure
                elif op == "phi":
                    local[ins.key] = self.read_state(self.state_of[ins.key]) if name == region.root \
                        else self._encode_phi(ins, block, incoming[name], read)
                elif op == "call":
                    effect, term, dest = self.call_effect(ins, block, arg)
                    if effect == "value":
                        local[ins.key] = term
                    elif effect == "check":
                        checks.add(len(ends))
                        ends.append((tb.and_(guard, tb.not_(term)), dest))
                        guard = tb.and_(guard, term)
                    elif effect == "stop":
                        checks.add(len(ends))
                        if dest == self.ok:  # exit, abort, an error call under valid-memsafety
                            exits[len(ends)] = ins.line
                        ends.append((guard, dest))
                        break
                elif op == "br":
                    if len(ins.targets) == 1:
                        branches[ins.targets[0]] = tb.true()
                    else:
                        c = arg(0)
                        then, other = ins.targets
                        branches[then] = c
                        branches[other] = tb.or_(branches.get(other, tb.false()), tb.not_(c))
                    break
                elif op == "switch":
                    self._switch_conditions(ins, arg, branches)
                    break
                elif op in ("ret", "unreachable"):
                    exits[len(ends)] = ins.line
                    ends.append((guard, self.ok))
                    break
                else:
                    where = f"{self.fn.source}:{ins.line}" if ins.line else self.fn.source
                    raise UnsupportedError(f"{where}: unsupported instruction `{ins.text}`")
            else:
                raise UnsupportedError(f"{self.fn.source}: block {name} has no terminator")
            self._follow_branches(block, guard, loose[name], branches, here, incoming, loose_incoming, ends,
                                  writes, read)
            # values needed after a cut point: written when the block runs (or would run, were
            # no check to fail: `_follow_branches`)
            for ins in block.instrs:
                var = state_of.get(ins.key)
                if var is not None and ins.key in local and not (ins.opcode == "phi" and name == region.root):
                    writes[var.index].append((tb.and_(here, loose[name]), local[ins.key]))
        self._end_step(here, ends, checks, exits, leaks, writes)

    def _lost_at_step_start(self, root: str, here: Term) -> Term:
        """valid-memtrack, first thing in every step: heap memory no live pointer reaches is
        lost (recorded for the trace); the condition of that error end."""
        live = self.live_pointers()[root]
        lost = self.memory.untracked_heap([self.constants[key] if key in self.constants
                                           else self.read_state(self.state_of[key]) for key in sorted(live)])
        self.memory.record_leak(None, "memory no pointer reaches (valid-memtrack)", self.tb.and_(here, lost))
        return lost

    def _operand_reader(self, region: Region, local: dict[int, Term], reach: dict[str, Term]):
        """read(operand, use block, instruction, its block, operand position) -> Term in this
        step: a constant, a fresh input for undef, a global's address, or a value: its term of
        this step where its definition surely ran earlier in it (`local`), its state variable
        where it did not run in this step, an ite of both where it ran on some paths
        (`Region.read`). One closure per region: it runs for every operand."""
        tb = self.tb
        constants, defs, in_region = self.constants, self.defs, region.pos

        def read(op: Operand, use_block: str, ins: Instr, block: Block, pos: int) -> Term:
            kind = op.__class__  # `is`, not isinstance: the operand classes have no subclasses
            if kind is not Ref:
                if kind is Const:
                    return tb.const(op.value, op.width)
                if kind is Undef:
                    return self.new_input(op.width, "undef", ins, block, pos)
                if kind is GlobalAddr:
                    return self.memory.global_address(op.name)
            key = op.key
            if key in constants:
                return constants[key]
            def_block = defs[key][0].name
            how = "local" if def_block == use_block and def_block in in_region else region.read(def_block, use_block)
            if how == "local":
                # absent only if the defining block ended the step before the definition:
                # then this use is unreachable in the step and any value will do
                found = local.get(key)
                return found if found is not None else tb.const(0, defs[key][1].width)
            state = self.read_state(self.state_of[key])
            if how == "mixed" and key in local:
                return tb.ite(reach[def_block], local[key], state)
            return state

        return read

    def _encode_memory_access(self, ins: Instr, block: Block, arg, guard: Term, here: Term,
                              local: dict[int, Term], ends: list[tuple[Term, int]], checks: set[int]) -> Term:
        """An instruction `MemoryEncoder` handles: its value into `local`; a choice of the
        allocator that no allocator makes (`MemoryEncoder.last_assumption`) ends the path like
        a failed `__VERIFIER_assume`; an invalid access ends the step in error (both added to
        `ends`; the access's edge among `checks`, restricted like them to the tracked cells).
        Returns the guard after it."""
        tb = self.tb
        self.memory.havoc = lambda width, site=-2, ins=ins, block=block: self.new_input(
            width, "__llumc_havoc", ins, block, site)
        value = self.memory.encode(ins, arg, guard, here)
        if value is not None:
            local[ins.key] = value
        assumption = self.memory.last_assumption
        if assumption is not None:
            ends.append((tb.and_(guard, tb.not_(assumption)), self.ok))
            guard = tb.and_(guard, assumption)
        fault = self.memory.last_fault
        if fault is not None:
            if self.memory.last_fault_is_access:
                checks.add(len(ends))
            ends.append((tb.and_(guard, fault), self.error))
            guard = tb.and_(guard, tb.not_(fault))
        return guard

    def _encode_phi(self, ins: Instr, block: Block, entering: list[tuple[str, Term]], read) -> Term:
        """A phi of a region block other than the root, from its entering edges (predecessor,
        condition).

        One ite per distinct incoming value, under the disjunction of its edges' conditions:
        at most one entering edge is taken in a step (one path through a DAG; the conditions
        are exact), so this equals the ite chain over the edges wherever the block runs.
        RERS's return blocks have 10 000 entering edges and a handful of values: a chain over
        the edges cost a multiplexer level per edge and bit."""
        tb = self.tb
        groups: dict[int, tuple[Term, list[Term]]] = {}
        chosen: set[str] = set()
        by_pred = self.incoming_of(ins)
        for pred, cond in reversed(entering):
            pos, value = by_pred[pred]
            if pred in chosen:
                continue
            chosen.add(pred)
            v = read(value, pred, ins, block, pos)
            groups.setdefault(v.uid, (v, []))[1].append(cond)
        values = list(groups.values())
        if not values:
            # no entering edge is ever taken in this step (its predecessors end the step
            # first, e.g. at an error call): the block never runs, any value does
            return tb.const(0, ins.width)
        default = max(values, key=lambda group: len(group[1]))[0]  # no test for the most edges
        term = default
        for v, conds in values:
            if v is not default:
                term = tb.ite(tb.any_of(conds), v, term)
        return term

    def _switch_conditions(self, ins: Instr, arg, branches: dict[str, Term]) -> None:
        """A switch's successors with their branch conditions (without the block's guard)
        into `branches`; a successor reached several ways gets the disjunction."""
        tb = self.tb
        value = arg(0)
        matched = tb.false()
        for case_value, dest in ins.cases:
            hit = tb.eq(value, tb.const(case_value, value.width))
            branches[dest] = tb.or_(branches.get(dest, tb.false()), hit)
            matched = tb.or_(matched, hit)
        default = ins.targets[0]
        branches[default] = tb.or_(branches.get(default, tb.false()), tb.not_(matched))

    def _follow_branches(self, block: Block, guard: Term, loose_guard: Term, branches: dict[str, Term],
                         here: Term, incoming: dict[str, list[tuple[str, Term]]], loose_incoming: dict[str, list[Term]],
                         ends: list[tuple[Term, int]], writes: dict[int, list[tuple[Term, Term]]], read) -> None:
        """The block's edges, taken under its guard and their branch conditions: an edge
        inside the region enters its target's reach condition (`incoming`); an edge to a cut
        point ends the step there (`ends`) and sets the cut point's phis on the way
        (`writes`).

        The writes are guarded by the loose conditions (`loose_guard`, `loose_incoming`): the
        same with every check left out (a failed assertion or assumption, an invalid access,
        an allocator's choice). A failed check ends the step in `ok` or `error`, which are
        absorbing and read no variable: there the values are don't-care, and wherever the
        step ends at a cut point the loose conditions equal the exact ones (every check on
        the way held). The exact ones make the writes depend on what a check reads: bubble
        sort's `j + 1` on the swap's write being valid, which only a case split on the swap
        could see through in CNF (`TermBuilder`'s rule `(a ∧ c) ∨ (a ∧ ¬c) = a` does it on
        the loose ones). Where no check cuts a path the loose conditions are the exact ones,
        hash-consed. (Leaving out the edges into blocks that surely end the run, an error
        call's, too made a checking loop's `i + 1` independent of the array, but doubled the
        path conditions of RERS's `Problem07`: 337 000 clauses became 524 000, and their TRUE
        took 58 s instead of 37 s.) The C-level trace shows no value the step into `error` or
        `ok` wrote outside the blocks it ran (`llumc.check.counterexample.decode_trace`)."""
        tb = self.tb
        name = block.name
        for target, branch in branches.items():
            taken = tb.and_(guard, branch)
            loose_taken = tb.and_(loose_guard, branch)
            if target not in self.cut_set:
                incoming[target].append((name, taken))
                loose_incoming[target].append(loose_taken)
                continue
            ends.append((taken, self.codes[target]))
            for ins in self.fn.block(target).instrs:  # its phis are set on the entering edge
                if ins.opcode != "phi":
                    continue
                pos, value = self.incoming_of(ins)[name]
                writes[self.state_of[ins.key].index].append(
                    (tb.and_(here, loose_taken), read(value, name, ins, block, pos)))

    def _end_step(self, here: Term, ends: list[tuple[Term, int]], checks: set[int], exits: dict[int, int | None],
                  leaks: bool, writes: dict[int, list[tuple[Term, Term]]]) -> None:
        """The step's memory edges and writes (leaks at the program's ends, error edges
        restricted to the tracked cells), then `curr`'s next value: the target of the first
        end whose condition holds, in execution order (the last one needs no test)."""
        tb = self.tb
        if self.memory is not None:
            if leaks and exits:
                ends, checks = self._leaks_at_exits(ends, checks, exits, here)
            if self.memory.step_reads:
                ends = self._restrict_errors(ends, checks)
            self.memory.end_step(here, writes)
        successor = self.code(ends[-1][1])
        for cond, target in reversed(ends[:-1]):
            successor = tb.ite(cond, self.code(target), successor)
        writes[self.curr.index].append((here, successor))

    def encodes_leaks(self) -> bool:
        """valid-memsafety's leak edges (valid-memtrack) in this system; decided once."""
        if self._leaks is None:
            self._leaks = self.memtrack and self.memory is not None and self.prop == "valid-memsafety" \
                and self.memory.tracks_leaks()
        return self._leaks

    def live_pointers(self) -> dict[str, set[int]]:
        """Block -> the pointer values live where it starts (after its phis, which count when
        used): the program's pointers at a cut point, the roots of valid-memtrack. Only live
        ones: a state variable keeps its last value after the value died."""
        if self._live is None:
            self._live = PointerLiveness.of(self.fn).start
        return self._live

    def _leaks_at_exits(self, ends: list[tuple[Term, int]], checks: set[int], exits: dict[int, int | None],
                        here: Term) -> tuple[list[tuple[Term, int]], set[int]]:
        """valid-memtrack where the program ends: heap memory still allocated there counts as
        lost (stricter than memtrack, which lets a global keep it: that costs a TRUE, never
        gives one). Each exit edge becomes error where something is allocated, else ok."""
        tb = self.tb
        allocated = self.memory.allocated_heap()  # the step's end: frees before the exit done
        out: list[tuple[Term, int]] = []
        moved: set[int] = set()
        for position, (cond, target) in enumerate(ends):
            if position in exits:
                leak = tb.and_(cond, allocated)
                self.memory.record_leak(exits[position], "memory not freed at the end of the program "
                                        "(valid-memtrack)", tb.and_(here, leak))
                out.append((leak, self.error))  # never a check: no read restricts it
            if position in checks:
                moved.add(len(out))
            out.append((cond, target))
        return out, moved

    def _restrict_errors(self, ends: list[tuple[Term, int]], checks: set[int]) -> list[tuple[Term, int]]:
        """Error edges (failed checks, error calls, invalid accesses) that read abstract memory
        once (or twice, at one cell of objects sharing the tracked index) become `cond ∧ R` (`MemoryEncoder.restrict_error`, where the soundness argument
        is); where `cond` holds but `R` does not, the step ends in `ok`: the read's value was
        not the tracked cell's, and some other choice of the tracked index covers that run."""
        tb = self.tb
        out: list[tuple[Term, int]] = []
        for position, (cond, target) in enumerate(ends):
            restriction = self.memory.restrict_error(cond) if position in checks and target == self.error else None
            if restriction is None:
                out.append((cond, target))
            else:
                restricted = tb.and_(cond, restriction)
                out += [(restricted, target), (cond, self.ok)]
                self.error_restrictions.append((restricted, cond))
        return out

    # ----------------------------------------------------------------- whole system
    def build(self) -> WordTransitionSystem:
        tb = self.tb
        self.choose_state_space()
        writes: dict[int, list[tuple[Term, Term]]] = {v.index: [] for v in self.state}
        for c in self.codes:
            self.encode_region(self.regions[c], writes)
        nexts: dict[int, Term] = {}
        for var in self.state:
            term = self.read_state(var)  # default: unchanged (so ok and error are absorbing)
            for cond, value in reversed(writes[var.index]):
                term = tb.ite(cond, value, term)
            nexts[var.index] = term
        init = [tb.eq(self.cur(v), tb.const(v.init, v.width)) for v in self.state if v.init is not None]
        universal = []
        if self.error + 1 < (1 << self.curr_width):
            universal.append(tb.not_(tb.op("ult", self.code(self.error), self.cur(self.curr))))
        if self.memory is not None:
            universal += self.memory.index_constraints()
        goal = [tb.eq(self.cur(self.curr), self.code(self.error))]
        blocks = [BlockCode(self.codes[b.name], b.name, b.line) for b in self.heads]
        blocks += [BlockCode(self.ok, "ok"), BlockCode(self.error, "error")]
        return WordTransitionSystem(
            tb, self.state, self.inputs, init, universal, goal, nexts, blocks, self.prop, self.scheme,
            self.fn.source, {}, self.reached, regions=True,
            memory_faults=self.memory.faults if self.memory is not None else [],
            memory_objects=self.memory.objects if self.memory is not None else [],
            native_mismatches=self.memory.native_mismatches if self.memory is not None else [],
            error_restrictions=self.error_restrictions,
        )
