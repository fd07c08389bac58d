"""The word-level transition system both step encodings produce, and what they share.

Why a module of its own: the small-block encoder (`llumc/encoding/transys.py`) and the large-block
encoder (`llumc/encoding/lbe.py`) read instructions the same way (arithmetic, comparisons, casts,
verifier calls) and build the same kind of system; both import this module, neither imports
the other, and the choice between them is made where the pipeline is assembled
(`llumc.pipeline.build_transition_system`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llumc.frontend.cfg import Block, Function, Instr
from llumc.errors import UnsupportedError
from llumc.encoding.terms import Term, TermBuilder
from llumc.encoding.floatsem import FLOAT_OPCODES, float_value, is_float_call

# the site of the inputs that stand for what LLVM leaves open in floating point (a NaN's bits,
# a poison conversion, fmin's choice between +0 and -0): no value of the program's inputs
FLOAT_CHOICE_SITE = "float-choice"

PROPERTIES = ("unreach-call", "no-overflow", "all", "valid-memsafety")
SCHEMES = ("edge", "paper", "lbe")
IGNORED_INTRINSIC_PREFIXES = (
    "llvm.dbg.", "llvm.lifetime.", "llvm.experimental.noalias.scope.decl", "llvm.invariant.",
    "llvm.sideeffect", "llvm.donothing", "llvm.pseudoprobe", "llvm.stacksave", "llvm.stackrestore",
    "__llumc_in_memory",  # (llumc.frontend.compile.IN_MEMORY_FUNCTION: only keeps a local in memory)
)


_ARITHMETIC = frozenset(("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or",
                         "xor"))


@dataclass
class StateVar:
    index: int
    name: str  # "curr", "pred", or the IR name ("%x.0")
    width: int
    kind: str  # "block" | "pred" | "value" | "phi" | "pointer" | "memory" (llumc/encoding/memory.py)
    init: int | None = None
    c_names: list[str] = field(default_factory=list)


@dataclass
class InputVar:
    index: int
    width: int
    site: str  # callee name, or "undef"
    ir_name: str
    line: int | None = None
    block: str = ""


@dataclass
class BlockCode:
    code: int
    name: str
    line: int | None = None


@dataclass
class WordTransitionSystem:
    terms: TermBuilder
    state: list[StateVar]
    inputs: list[InputVar]
    init: list[Term]
    universal: list[Term]
    goal: list[Term]
    next: dict[int, Term]  # state index -> next-state term
    blocks: list[BlockCode]
    prop: str
    scheme: str
    source: str = ""
    fused: dict[str, str] = field(default_factory=dict)  # block run in its head's step -> head
    # step head -> the blocks the step may run, in execution order, each with the condition
    # (on the current state and the step's inputs) under which it runs: trace decoding
    # evaluates them (`executed_blocks`)
    step_blocks: dict[str, list[tuple[str, Term]]] = field(default_factory=dict)
    regions: bool = False  # large blocks: a block may belong to several steps (symbol map `region`)
    # accesses that may be invalid (llumc.encoding.memory.MemoryFault): a trace ending in `error` through
    # one is a memory fault, not the property's error
    memory_faults: list = field(default_factory=list)
    memory_objects: list = field(default_factory=list)  # llumc.encoding.memory.MemoryObject
    # allocations a native run does not make as the model does (llumc.encoding.memory.NativeMismatch):
    # a counterexample through one is not replayed
    native_mismatches: list = field(default_factory=list)
    # error edges restricted where they read abstract memory (`cond ∧ R`,
    # llumc.encoding.memory.MemoryEncoder.restrict_error): (the restricted term as the builder
    # made it, `cond`); where a bounded search follows the memory's contents exactly, it may
    # take `cond` for it (llumc.wordbmc). The pair, not R: the builder may fold `cond` under R
    # (a read of the tracked cell becomes the cell itself), so R alone cannot be dropped
    error_restrictions: list = field(default_factory=list)

    @property
    def curr(self) -> StateVar:
        """The state variable holding the code of the block the next step starts at."""
        return next(v for v in self.state if v.kind == "block")

    @property
    def ok_code(self) -> int:
        return len(self.blocks) - 2

    @property
    def error_code(self) -> int:
        return len(self.blocks) - 1


def _with_overflow(name: str) -> tuple[str, str] | None:
    """`llvm.sadd.with.overflow.i32` -> ("add", "saddo")."""
    for sign in "su":
        for op in ("add", "sub", "mul"):
            if name.startswith(f"llvm.{sign}{op}.with.overflow."):
                return op, f"{sign}{op}o"
    return None


class StepEncoder:
    """State, inputs and the instruction semantics of a step encoder; subclasses choose the
    steps (blocks, large blocks) and set `codes`, `ok`, `error`, `curr_width` and `curr`."""

    codes: dict[str, int]
    ok: int
    error: int
    curr_width: int
    curr: StateVar

    def __init__(self, fn: Function, prop: str, scheme: str, classify, debug=None,
                 terms: TermBuilder | None = None):
        if prop not in PROPERTIES:
            raise ValueError(f"unknown property {prop}")
        if scheme not in SCHEMES:
            raise ValueError(f"unknown scheme {scheme}")
        self.fn, self.prop, self.scheme, self.classify, self.debug = fn, prop, scheme, classify, debug
        self.tb = terms if terms is not None else TermBuilder()  # (given: `llumc.bitblast.blast_ahead`)
        self.errors_are_errors = prop in ("unreach-call", "all")
        self.state: list[StateVar] = []
        self.inputs: list[InputVar] = []
        self.defs: dict[int, tuple[Block, Instr]] = {}
        for b in fn.blocks:
            for ins in b.instrs:
                self.defs[ins.key] = (b, ins)
        self.state_of: dict[int, StateVar] = {}  # instruction key -> state var
        self.input_of: dict[tuple[int, int], InputVar] = {}  # (instr key, operand pos) -> input
        # step head -> [(block, condition on state and inputs under which the step runs it)]
        self.reached: dict[str, list[tuple[str, Term]]] = {}

    # ----------------------------------------------------------------- state space
    def new_state(self, name: str, width: int, kind: str, init: int | None = None, c_names=None) -> StateVar:
        var = StateVar(len(self.state), name, width, kind, init, list(c_names or []))
        self.state.append(var)
        return var


    # ----------------------------------------------------------------- terms
    def cur(self, var: StateVar) -> Term:
        return self.tb.state(var.index, var.width)

    def at(self, block_name: str) -> Term:
        return self.tb.eq(self.cur(self.curr), self.tb.const(self.codes[block_name], self.curr_width))

    def code(self, code: int) -> Term:
        return self.tb.const(code, self.curr_width)

    def new_input(self, width: int, site: str, ins: Instr, block: Block, pos: int) -> Term:
        key = (ins.key, pos)
        var = self.input_of.get(key)
        if var is None:
            var = InputVar(len(self.inputs), width, site, ins.name, ins.line, block.name)
            self.inputs.append(var)
            self.input_of[key] = var
        return self.tb.input(var.index, width)


    # ----------------------------------------------------------------- blocks
    def call_effect(self, ins: Instr, block: Block, arg) -> tuple[str, Term | None, int | None]:
        """What a call does to a step, for every scheme: ("value", term, None) for a nondet
        read; ("check", holds, dest) when the step goes on only if `holds` and otherwise ends in
        `dest` (assume → ok, assert → error); ("stop", None, dest) when it always ends there
        (error call, abort/exit, sanitizer trap); ("none", None, None) for ignored intrinsics."""
        tb = self.tb
        callee = ins.callee or ""
        kind = self.classify(callee)
        failing_assert = self.error if self.errors_are_errors else self.ok
        if kind == "nondet":
            return "value", self.new_input(ins.width, callee, ins, block, -1), None
        if kind in ("assume", "assert") or callee == "llvm.assume":
            holds = tb.not_(tb.eq(arg(0), tb.const(0, arg(0).width)))
            return "check", holds, failing_assert if kind == "assert" else self.ok
        if kind == "error":
            return "stop", None, failing_assert
        if kind in ("abort", "exit"):
            return "stop", None, self.ok
        if kind == "trap":
            return "stop", None, self.error
        if kind in ("recursion-bound", "invalid-call", "summary-check"):
            # outcomes of their own: an error state, never confirmed as the property's error
            # (llumc.check.counterexample says what they are); no TRUE while reachable
            return "stop", None, self.error
        if callee.startswith(IGNORED_INTRINSIC_PREFIXES):
            return "none", None, None
        where = f"{self.fn.source}:{ins.line}" if ins.line else self.fn.source
        raise UnsupportedError(f"{where}: unsupported call to {callee} (`{ins.text}`)")

    def pure_value(self, ins: Instr, arg) -> Term | None:
        """The term of a side-effect-free instruction (arithmetic, comparisons, casts, select,
        value intrinsics), or None for anything else. `arg(i)` gives operand i's term; shared by
        every scheme so that all encode instructions identically."""
        tb = self.tb
        op = ins.opcode
        callee = ins.callee or ""
        if op in _ARITHMETIC:
            return tb.op(op, arg(0), arg(1))
        elif op == "icmp":
            a, b = arg(0), arg(1)
            p = ins.predicate
            if p == "eq":
                t = tb.eq(a, b)
            elif p == "ne":
                t = tb.not_(tb.eq(a, b))
            else:
                base = "ult" if p[0] == "u" else "slt"
                rel = p[1:]
                if rel == "lt":
                    t = tb.op(base, a, b)
                elif rel == "gt":
                    t = tb.op(base, b, a)
                elif rel == "le":
                    t = tb.not_(tb.op(base, b, a))
                else:  # ge
                    t = tb.not_(tb.op(base, a, b))
            return t
        elif op == "select":
            return tb.ite(arg(0), arg(1), arg(2))
        elif op == "zext":
            return tb.zext(arg(0), ins.width)
        elif op == "sext":
            return tb.sext(arg(0), ins.width)
        elif op == "trunc":
            return tb.extract(arg(0), ins.width - 1, 0)
        elif op == "freeze":
            return arg(0)
        elif op == "extractvalue":
            struct = arg(0)
            n = struct.width - 1
            if ins.index == 0:
                return tb.extract(struct, n - 1, 0)
            elif ins.index == 1:
                return tb.extract(struct, n, n)
            else:
                raise UnsupportedError(f"{self.fn.source}:{ins.line}: unsupported `{ins.text}`")
        elif op == "call" and _with_overflow(callee):
            arith, check = _with_overflow(callee)  # type: ignore[misc]
            a, b = arg(0), arg(1)
            return tb.op("concat", tb.op(check, a, b), tb.op(arith, a, b))
        elif op == "call" and callee.startswith(("llvm.smax.", "llvm.smin.", "llvm.umax.", "llvm.umin.")):
            a, b = arg(0), arg(1)
            cmp = "slt" if callee[5] == "s" else "ult"
            a_less = tb.op(cmp, a, b)
            return tb.ite(a_less, b, a) if "max" in callee else tb.ite(a_less, a, b)
        elif op == "call" and callee.startswith("llvm.abs."):
            a = arg(0)
            negative = tb.op("slt", a, tb.const(0, a.width))
            return tb.ite(negative, tb.op("neg", a), a)
        elif op in FLOAT_OPCODES or (op == "call" and is_float_call(ins)):
            return float_value(tb, ins, arg, lambda width, slot: self.new_input(
                width, FLOAT_CHOICE_SITE, ins, self.defs[ins.key][0], slot),
                f"{self.fn.source}:{ins.line}" if ins.line else self.fn.source)
        return None

