"""LLVM-IR `main` -> a word-level transition system (small-block encoding, LLUMC §3).

Every basic block is a control state, plus the absorbing blocks `ok` and `error`. The state
is `curr` (binary block code, ⌈log2(|B|+2)⌉ bits), for the paper scheme also `pred`, and the
set V of SSA values that must survive a block boundary (Definition 3: values used in another
block than their own, or read before written in their own loop block).

The system is kept in *functional* form: every state variable has exactly one next-state
term, a multiplexer over the blocks that write it, defaulting to "unchanged". That reads
Definition 7 as a specification: `same()` per block would cost blocks × state bits clauses,
the multiplexer costs only what is written.

Within a block the instructions are visited in order (SSA order is topological), each term
built once from constants, state variables and inputs (hash-consed, so shared sub-terms are
shared). Checks are taken in instruction order: the first failing assume leads to `ok`, the
first failing assert / reached error call / sanitizer trap to `error`, exit/abort/ret/
unreachable to `ok`; otherwise the terminator decides. Under `no-overflow`, error calls and
failed asserts behave like abort (go to `ok`): only traps are errors.

Schemes (the default, "lbe", large blocks, is in `llumc/encoding/lbe.py`; measured faster for BMC and
IC3, see docs/benchmarks.md; `llumc.pipeline.build_transition_system` chooses; the types of the
system and the instruction semantics both encoders share are in `llumc/encoding/wordsys.py`):
- "edge": a phi is a state variable written on the edge entering its block: when the
  current block b jumps to the phi's block, p' = incoming value for b (evaluated in b, i.e. on
  the old state: the parallel semantics of phis). No `pred` needed.
- "paper": the LLUMC scheme: `pred` holds the previous block and a phi reads
  ite(pred = b1, v1, ite(pred = b2, v2, ...)) in its own block.

Semantics of LLVM's undefined cases (documented choice, SMT-LIB's): x udiv 0 = all ones,
x urem 0 = x, sdiv/srem by 0 as bvsdiv/bvsrem, shifts by >= width give 0 (shl, lshr) or the
sign fill (ashr). Turn on the division/shift checks to report those cases instead. `undef`/
`poison` operands are nondeterministic inputs.
"""

from __future__ import annotations

import math

from llumc.frontend.cfg import Block, Const, Function, Instr, Operand, Ref, Undef
from llumc.errors import UnsupportedError
from llumc.encoding.terms import Term
from llumc.encoding.wordsys import (  # re-exported: the system's types are read from here by many modules
    IGNORED_INTRINSIC_PREFIXES, PROPERTIES, SCHEMES, BlockCode, InputVar, StateVar, StepEncoder,
    WordTransitionSystem,
)

__all__ = ["PROPERTIES", "SCHEMES", "BlockCode", "InputVar", "StateVar", "WordTransitionSystem",
           "build_small_block_system"]


class _Encoder(StepEncoder):
    """The small-block encoder: one step per block (plus the blocks fused into it)."""

    def __init__(self, fn: Function, prop: str, scheme: str, classify, debug=None, fuse: bool = True):
        if scheme == "lbe":
            raise ValueError("the lbe scheme is built by llumc.encoding.lbe.LargeBlockEncoder")
        super().__init__(fn, prop, scheme, classify, debug)
        # P -> S: block S is executed in the same step as P (see _plan_fusion)
        self.next_in_step: dict[str, str] = self._plan_fusion() if fuse else {}
        absorbed = set(self.next_in_step.values())
        self.heads = [b for b in fn.blocks if b.name not in absorbed]
        self.head: dict[str, str] = {}
        for h in self.heads:
            name = h.name
            while name is not None and name not in self.head:
                self.head[name] = h.name
                name = self.next_in_step.get(name)
        self.codes = {b.name: i for i, b in enumerate(self.heads)}
        self.ok = len(self.heads)
        self.error = len(self.heads) + 1
        self.curr_width = max(1, math.ceil(math.log2(len(self.heads) + 2)))


    def _trap_only(self, name: str) -> bool:
        """A block that only reports a failed sanitizer check (`llvm.ubsantrap`; unreachable)."""
        instrs = [i for i in self.fn.block(name).instrs
                  if not (i.opcode == "call" and (i.callee or "").startswith(IGNORED_INTRINSIC_PREFIXES))]
        return (len(instrs) == 2 and instrs[0].opcode == "call" and self.classify(instrs[0].callee or "") == "trap"
                and instrs[1].opcode == "unreachable")

    def _plan_fusion(self) -> dict[str, str]:
        """Which blocks run in the same step as their predecessor: S joins P's step when P is
        S's only predecessor and P ends in `br label %S` or in a sanitizer check `br i1 c,
        %S, %trap` whose other side only traps (that side becomes an edge to `error`). Fewer
        blocks, fewer state variables (values no longer cross a block boundary), shorter paths;
        reachability of `error` is unchanged."""
        preds: dict[str, list[str]] = {}
        for b in self.fn.blocks:
            term = b.instrs[-1]
            for target in term.targets + [dest for _, dest in term.cases]:
                preds.setdefault(target, []).append(b.name)
        entry = self.fn.blocks[0].name
        plan: dict[str, str] = {}
        for b in self.fn.blocks:
            term = b.instrs[-1]
            if term.opcode != "br":
                continue
            if len(term.targets) == 1:
                succ = term.targets[0]
            else:
                then, other = term.targets
                if self._trap_only(other) and not self._trap_only(then):
                    succ = then
                elif self._trap_only(then) and not self._trap_only(other):
                    succ = other
                else:
                    continue
            if succ != entry and succ != b.name and preds.get(succ) == [b.name]:
                plan[b.name] = succ
        return plan

    def choose_state_space(self) -> None:
        self.curr = self.new_state("curr", self.curr_width, "block", self.codes[self.fn.blocks[0].name])
        self.pred = None
        if self.scheme == "paper":
            self.pred = self.new_state("pred", self.curr_width, "pred", self.codes[self.fn.blocks[0].name])
        needed: set[int] = set()
        head = self.head
        for b in self.fn.blocks:
            if b.name not in head:
                continue  # unreachable: never encoded
            for ins in b.instrs:
                if ins.opcode == "phi":
                    absorbed = head[b.name] != b.name
                    if self.scheme == "edge" and not absorbed:
                        needed.add(ins.key)
                    for value, pred in ins.incoming:
                        if isinstance(value, Ref):
                            def_head = head.get(self.defs[value.key][0].name)
                            use_head = head.get(pred) if self.scheme == "edge" or absorbed else head[b.name]
                            # paper scheme: a phi reads its incoming values at block entry, so a
                            # value of the same step is read before it is written (rule 2)
                            if def_head != use_head or (self.scheme == "paper" and not absorbed and def_head == head[b.name]):
                                needed.add(value.key)
                    continue
                for value in ins.operands:
                    if isinstance(value, Ref) and head.get(self.defs[value.key][0].name) != head[b.name]:
                        needed.add(value.key)
        for b in self.fn.blocks:
            for ins in b.instrs:
                if ins.key in needed:
                    c_names = self.debug.names_of(ins.name[1:]) if self.debug is not None and ins.name else []
                    kind = "phi" if ins.opcode == "phi" else "value"
                    self.state_of[ins.key] = self.new_state(ins.name, ins.width, kind, None, c_names)

    def operand(self, op: Operand, local: dict[int, Term], ins: Instr, block: Block, pos: int) -> Term:
        if isinstance(op, Const):
            return self.tb.const(op.value, op.width)
        if isinstance(op, Undef):
            return self.new_input(op.width, "undef", ins, block, pos)
        if op.key in local:
            return local[op.key]
        var = self.state_of.get(op.key)
        if var is None:
            def_block, def_ins = self.defs[op.key]
            raise UnsupportedError(
                f"{self.fn.source}: value {op.name} ({def_ins.where()}) read in block {block.name} "
                "before it is defined"
            )
        return self.cur(var)

    def encode_block(self, block: Block):
        """Encode one step starting in head block `block` (and the blocks fused into it).
        Returns (edges, local, phi_edges, chain): edges are (condition, target code) in order,
        the conditions pairwise exclusive and together exhaustive; local maps instruction keys
        to their terms; phi_edges maps successor name -> raw branch condition of the last block
        of the chain (the blocks executed in this step, in order)."""
        tb = self.tb
        local: dict[int, Term] = {}
        edges: list[tuple[Term, int]] = []
        guard = tb.true()
        phi_edges: dict[str, Term] = {}

        def stop(target: int) -> None:
            edges.append((guard, target))

        chain = [block]
        prev: Block | None = None
        self.reached[chain[0].name] = reached = []
        while True:
            reached.append((block.name, guard))  # the condition under which the step runs `block`
            fused_to: str | None = None
            for ins in block.instrs:
                op = ins.opcode

                def arg(i: int) -> Term:
                    return self.operand(ins.operands[i], local, ins, block, i)

                pure = self.pure_value(ins, arg)
                if pure is not None:
                    local[ins.key] = pure
                elif op == "phi":
                    if prev is not None:  # fused block: its only predecessor is prev
                        pos, value = next((k, v) for k, (v, p) in enumerate(ins.incoming) if p == prev.name)
                        local[ins.key] = self.operand(value, local, ins, block, pos)
                    elif self.scheme == "edge":
                        local[ins.key] = self.cur(self.state_of[ins.key])
                    else:
                        term = None
                        for pos, (value, pred) in enumerate(reversed(ins.incoming)):
                            if isinstance(value, Ref) and self.head.get(self.defs[value.key][0].name) == block.name:
                                v = self.cur(self.state_of[value.key])  # old value (read before write)
                            else:
                                v = self.operand(value, local, ins, block, pos)
                            if term is None:
                                term = v
                            else:
                                at_pred = tb.eq(self.cur(self.pred), self.code(self.codes[self.head.get(pred, pred)]))
                                term = tb.ite(at_pred, v, term)
                        local[ins.key] = term
                elif op == "call":
                    effect, term, dest = self.call_effect(ins, block, arg)
                    if effect == "value":
                        local[ins.key] = term
                    elif effect == "check":
                        edges.append((tb.and_(guard, tb.not_(term)), dest))
                        guard = tb.and_(guard, term)
                    elif effect == "stop":
                        stop(dest)
                        return edges, local, phi_edges, chain
                elif op == "br" and block.name in self.next_in_step:
                    fused_to = self.next_in_step[block.name]
                    if len(ins.targets) == 2:  # sanitizer check: the other side only traps
                        c = arg(0)
                        trap_when = tb.not_(c) if ins.targets[0] == fused_to else c
                        edges.append((tb.and_(guard, trap_when), self.error))
                        guard = tb.and_(guard, tb.not_(trap_when))
                    break
                elif op == "br":
                    if len(ins.targets) == 1:
                        stop(self.codes[ins.targets[0]])
                        phi_edges[ins.targets[0]] = tb.true()
                    else:
                        c = arg(0)
                        then, other = ins.targets
                        edges.append((tb.and_(guard, c), self.codes[then]))
                        stop(self.codes[other])
                        phi_edges[then] = tb.or_(phi_edges.get(then, tb.false()), c)
                        phi_edges[other] = tb.or_(phi_edges.get(other, tb.false()), tb.not_(c))
                    return edges, local, phi_edges, chain
                elif op == "switch":
                    value = arg(0)
                    matched = tb.false()
                    for case_value, dest in ins.cases:
                        hit = tb.eq(value, tb.const(case_value, value.width))
                        edges.append((tb.and_(guard, hit), self.codes[dest]))
                        phi_edges[dest] = tb.or_(phi_edges.get(dest, tb.false()), hit)
                        matched = tb.or_(matched, hit)
                    default = ins.targets[0]
                    stop(self.codes[default])
                    phi_edges[default] = tb.or_(phi_edges.get(default, tb.false()), tb.not_(matched))
                    return edges, local, phi_edges, chain
                elif op in ("ret", "unreachable"):
                    stop(self.ok)
                    return edges, local, phi_edges, chain
                else:
                    where = f"{self.fn.source}:{ins.line}" if ins.line else self.fn.source
                    raise UnsupportedError(f"{where}: unsupported instruction `{ins.text}`")
            if fused_to is None:
                raise UnsupportedError(f"{self.fn.source}: block {block.name} has no terminator")
            prev, block = block, self.fn.block(fused_to)
            chain.append(block)

    # ----------------------------------------------------------------- whole system
    def build(self) -> WordTransitionSystem:
        tb = self.tb
        self.choose_state_space()
        writes: dict[int, list[tuple[Term, Term]]] = {v.index: [] for v in self.state}
        for block in self.heads:
            edges, local, phi_edges, chain = self.encode_block(block)
            here = self.at(block.name)
            last = chain[-1]
            # successor of this block: the first edge whose condition holds
            successor = self.code(edges[-1][1])
            for cond, target in reversed(edges[:-1]):
                successor = tb.ite(cond, self.code(target), successor)
            writes[self.curr.index].append((here, successor))
            for ins in (i for b in chain for i in b.instrs):
                var = self.state_of.get(ins.key)
                if var is not None and ins.key in local and (var.kind == "value" or self.scheme == "paper"):
                    writes[var.index].append((here, local[ins.key]))
            if self.scheme == "edge":
                for target, cond in phi_edges.items():
                    for ins in self.fn.block(target).instrs:
                        if ins.opcode != "phi":
                            continue
                        for pos, (value, pred) in enumerate(ins.incoming):
                            if pred == last.name:
                                v = self.operand(value, local, ins, last, pos)
                                writes[self.state_of[ins.key].index].append((tb.and_(here, cond), v))
                                break
        nexts: dict[int, Term] = {}
        for var in self.state:
            current = self.cur(var)
            if var is self.pred:
                nexts[var.index] = self.cur(self.curr)  # pred' = the block being left
                continue
            term = current  # default: unchanged (so ok and error are absorbing)
            for cond, value in reversed(writes[var.index]):
                term = tb.ite(cond, value, term)
            nexts[var.index] = term
        init = [tb.eq(self.cur(v), tb.const(v.init, v.width)) for v in self.state if v.init is not None]
        universal = []
        max_code = self.error
        if max_code + 1 < (1 << self.curr_width):
            for v in (self.curr, self.pred):
                if v is not None:
                    universal.append(tb.not_(tb.op("ult", self.code(max_code), self.cur(v))))
        goal = [tb.eq(self.cur(self.curr), self.code(self.error))]
        blocks = [BlockCode(self.codes[b.name], b.name, b.line) for b in self.heads]
        blocks += [BlockCode(self.ok, "ok"), BlockCode(self.error, "error")]
        return WordTransitionSystem(
            tb, self.state, self.inputs, init, universal, goal, nexts, blocks, self.prop, self.scheme,
            self.fn.source, {name: h for name, h in self.head.items() if name != h}, self.reached,
        )


def build_small_block_system(fn: Function, *, prop: str = "unreach-call", scheme: str = "edge",
                             classify=None, debug=None, fuse: bool | None = None) -> WordTransitionSystem:
    """The small-block system of `main` ("edge" or "paper"). `fuse` (default: on for the edge
    scheme, off for the paper's) runs single-predecessor successors and passed sanitizer checks
    in the same step as their predecessor."""
    if classify is None:
        from llumc.frontend.compile import classify_call as classify
    if fuse is None:
        fuse = scheme == "edge"
    from llumc.encoding.memory import uses_memory

    if uses_memory(fn):
        raise UnsupportedError(f"unsupported: memory (arrays, pointers) with --scheme {scheme}: "
                               f"only the lbe scheme encodes it")
    return _Encoder(fn, prop, scheme, classify, debug, fuse).build()
