"""The encoding pipeline: C file -> front end -> CFG -> word-level transition system ->
Boolector bit-blasting -> AIG -> CNF -> DimSpec `TransitionSystem` with a symbol map.

DimSpec layout (strict, read by IncPlan, minireachIC3, NCIP):
- variables 1..S are the state bits, state variable by state variable, LSB first;
- S+1..n are auxiliary: the nondeterministic input bits, then the Tseitin variables of I, U,
  G and T, each formula its own disjoint range (they share one time step's copy);
- in `t`, n+j is the next-state copy of state bit j, and only state bits occur above n.

Symbol map: leading comment lines (`ts.comments`, without the `c ` prefix), one fact each:

    llumc-symbols 1
    source <path>
    property <unreach-call|no-overflow|all>
    scheme <edge|paper>
    block <code> <name> <C line or ->          one per block, ok and error included
    fused <name> <head>                          block <name> runs in the same step as <head>
    member <name> <cut>                          (lbe) block <name> may run in the step of cut
                                                 point <cut> (a block may be in several steps)
    state <lo> <hi> <kind> <IR name> <C names comma-separated or ->
    input <lo> <hi> <callee|undef> <IR name> <block> <C line or ->
    formula <i|u|g|t> aux <lo> <hi>             (hi < lo: none)

`state`/`input` give the DimSpec variables lo..hi holding bits 0..(hi-lo) of the value (LSB
first); kind is block (curr), pred, phi or value. The `c aux` lines the writer adds list every
auxiliary variable (inputs + Tseitin), so IC3 never generalises over them.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from typing import TYPE_CHECKING

from solvers.transys import TransitionSystem

from llumc.bitblast.aig import AIG
from llumc.bitblast.blast import blast, parse_leaf_bit
from llumc.bitblast.blast_ahead import BlastAhead
from llumc.bitblast.cnf import CnfBuilder
from llumc.gcpause import cyclic_gc_paused
from llumc.encoding.lbe import LargeBlockEncoder
from llumc.encoding.memory import DEFAULT_HEAP_POOL, SITE_SUMMARY
from llumc.encoding.transys import build_small_block_system
from llumc.encoding.terms import TermBuilder
from llumc.encoding.wordsys import WordTransitionSystem

if TYPE_CHECKING:
    from llumc.frontend.cfg import Function
    from llumc.frontend.debuginfo import DebugInfo

SYMBOLS_VERSION = "1"
_NEXT_BASE = 1 << 40  # placeholder literals for next-state bits until n is known

# From this size of C source on, a forked child puts the terms into Boolector while the
# large-block encoder makes them (`llumc.bitblast.blast_ahead`): the RERS programs (2.7 MB; LLUMC's
# other 262 programs are under 90 kB). RERS (214 000 terms in T), seven interleaved pairs of
# runs: encoder + bit-blasting 3.84-4.95 s -> 3.39-4.01 s, lower in each pair (the encoder
# 0.2-0.5 s slower beside the working child, bit-blasting 1.9-2.9 -> 1.2-1.7 s). Small
# systems are blasted in milliseconds: no fork for them.
BLAST_AHEAD_FROM_BYTES = 1_000_000


@dataclass
class EncodeStats:
    blocks: int = 0  # basic blocks of main (without ok/error)
    state_vars: int = 0  # bit-vector state variables (the paper's #Variables)
    state_bits: int = 0  # the paper's #Bits
    input_bits: int = 0
    aux_vars: int = 0  # inputs + Tseitin
    clauses: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def total_clauses(self) -> int:
        return sum(self.clauses.values())

    def lines(self) -> list[str]:
        c = self.clauses
        return [
            f"blocks           {self.blocks}",
            f"state variables  {self.state_vars}",
            f"state bits       {self.state_bits}",
            f"auxiliary vars   {self.aux_vars} (input bits {self.input_bits})",
            f"clauses          {self.total_clauses} (i {c.get('i', 0)}, u {c.get('u', 0)}, "
            f"g {c.get('g', 0)}, t {c.get('t', 0)})",
            "seconds          " + ", ".join(f"{k} {v:.2f}" for k, v in self.seconds.items()),
        ]


@dataclass
class StateSymbol:
    lo: int
    hi: int
    kind: str
    ir_name: str
    c_names: list[str]


@dataclass
class InputSymbol:
    lo: int
    hi: int
    site: str
    ir_name: str
    block: str
    line: int | None


@dataclass
class SymbolMap:
    source: str = ""
    prop: str = ""
    scheme: str = ""
    blocks: dict[int, tuple[str, int | None]] = field(default_factory=dict)  # code -> (name, line)
    fused: dict[str, str] = field(default_factory=dict)  # block -> head block of its step
    members: dict[str, list[str]] = field(default_factory=dict)  # lbe: cut point -> its region's blocks
    state: list[StateSymbol] = field(default_factory=list)
    inputs: list[InputSymbol] = field(default_factory=list)
    formula_aux: dict[str, tuple[int, int]] = field(default_factory=dict)

    def value(self, symbol: StateSymbol | InputSymbol, assignment: list[int]) -> int:
        """Value of a symbol in one time step of a trace (list of signed literals by variable)."""
        if isinstance(assignment, WordAssignment):
            return assignment.words.get(symbol.lo, 0)
        return sum(1 << i for i, var in enumerate(range(symbol.lo, symbol.hi + 1)) if assignment[var - 1] > 0)

    def block_of(self, assignment: list[int]) -> str:
        curr = next(s for s in self.state if s.kind == "block")
        name, _line = self.blocks.get(self.value(curr, assignment), ("<invalid>", None))
        return name


def _dash(value) -> str:
    return "-" if value in (None, "", []) else str(value)


# the last comments parsed and their map: `executed_blocks` runs once per step of a trace
# (2 000 parses of a 1 000-cell system's map took 3.7 s)
_last_symbols: tuple[list[str], int, SymbolMap] | None = None


def read_symbol_map(comments: list[str]) -> SymbolMap:
    """Parse the symbol map from DimSpec leading comments (`TransitionSystem.comments`); the
    same list, unchanged in length, gets the map parsed last (not to be modified)."""
    global _last_symbols
    if _last_symbols is not None and _last_symbols[0] is comments and _last_symbols[1] == len(comments):
        return _last_symbols[2]
    sm = _parse_symbol_map(comments)
    _last_symbols = (comments, len(comments), sm)
    return sm


def _parse_symbol_map(comments: list[str]) -> SymbolMap:
    sm = SymbolMap()
    for line in comments:
        parts = line.split()
        if not parts:
            continue
        tag = parts[0]
        if tag == "source":
            sm.source = line.split(" ", 1)[1] if len(parts) > 1 else ""
        elif tag == "property":
            sm.prop = parts[1]
        elif tag == "scheme":
            sm.scheme = parts[1]
        elif tag == "block" and len(parts) == 4:
            sm.blocks[int(parts[1])] = (parts[2], None if parts[3] == "-" else int(parts[3]))
        elif tag == "fused" and len(parts) == 3:
            sm.fused[parts[1]] = parts[2]
        elif tag == "member" and len(parts) == 3:
            sm.members.setdefault(parts[2], []).append(parts[1])
        elif tag == "state" and len(parts) == 6:
            names = [] if parts[5] == "-" else parts[5].split(",")
            sm.state.append(StateSymbol(int(parts[1]), int(parts[2]), parts[3], parts[4], names))
        elif tag == "input" and len(parts) == 7:
            sm.inputs.append(InputSymbol(int(parts[1]), int(parts[2]), parts[3], parts[4], parts[5],
                                         None if parts[6] == "-" else int(parts[6])))
        elif tag == "formula" and len(parts) == 5:
            sm.formula_aux[parts[1]] = (int(parts[3]), int(parts[4]))
    return sm


def bitblast_system(wts: WordTransitionSystem, *, cnf_mode: str = "pg", rewrite_level: int = 3,
                    alias_next: bool = True, division: str = "aux",
                    ahead: BlastAhead | None = None) -> tuple[TransitionSystem, EncodeStats]:
    """Bit-blast the word-level system into a DimSpec `TransitionSystem` with symbol map.
    `ahead`: a child that has been translating `wts.terms` meanwhile (`llumc.bitblast.blast_ahead`),
    which dumps T."""
    stats = EncodeStats(blocks=len(wts.blocks) - 2, state_vars=len(wts.state))
    state_bit: dict[tuple[int, int], int] = {}
    next_var = 1
    comments = [f"llumc-symbols {SYMBOLS_VERSION}", f"source {wts.source}", f"property {wts.prop}",
                f"scheme {wts.scheme}"]
    for b in wts.blocks:
        comments.append(f"block {b.code} {b.name} {_dash(b.line)}")
    for name, head in wts.fused.items():
        comments.append(f"fused {name} {head}")
    if wts.regions:
        for head, members in wts.step_blocks.items():
            comments += [f"member {name} {head}" for name, _cond in members if name != head]
    for var in wts.state:
        for bit in range(var.width):
            state_bit[(var.index, bit)] = next_var
            next_var += 1
        comments.append(f"state {next_var - var.width} {next_var - 1} {var.kind} {var.name} "
                        f"{_dash(','.join(var.c_names))}")
    stats.state_bits = S = next_var - 1
    input_bit: dict[tuple[int, int], int] = {}
    for inp in wts.inputs:
        for bit in range(inp.width):
            input_bit[(inp.index, bit)] = next_var
            next_var += 1
        comments.append(f"input {next_var - inp.width} {next_var - 1} {inp.site} {_dash(inp.ir_name)} "
                        f"{inp.block} {_dash(inp.line)}")
    stats.input_bits = next_var - 1 - S

    division_bit: dict[tuple[int, int], int] = {}  # per formula: its division auxiliaries

    def leaf_literal(name: str) -> int:
        nonlocal next_var
        kind, index, bit = parse_leaf_bit(name)
        if kind == "state":
            return state_bit[(index, bit)]
        if kind == "input":
            return input_bit[(index, bit)]
        if kind == "div":  # quotient/remainder bits: auxiliaries in this formula's own range
            if (index, bit) not in division_bit:
                division_bit[(index, bit)] = next_var
                next_var += 1
            return division_bit[(index, bit)]
        return _NEXT_BASE + state_bit[(index, bit)]

    tb = wts.terms
    sections: dict[str, list[list[int]]] = {}
    formulas = {
        "i": wts.init,
        "u": wts.universal,
        "g": wts.goal,
        "t": [tb.eq(tb.next(v.index, v.width), wts.next[v.index]) for v in wts.state],
    }
    if ahead is not None:
        ahead.request(formulas["t"])  # dumped there while I, U and G are blasted here
    for kind, roots in formulas.items():
        start = time.perf_counter()
        aig = AIG()
        root = blast(roots, aig, rewrite_level=rewrite_level, division=division,
                     dump=ahead.collect if ahead is not None and kind == "t" else None)
        division_bit.clear()
        stats.seconds[f"blast {kind}"] = time.perf_counter() - start
        start = time.perf_counter()
        first = next_var

        def new_var() -> int:
            nonlocal next_var
            next_var += 1
            return next_var - 1

        builder = CnfBuilder(aig, leaf_literal, new_var, mode=cnf_mode,
                             aliasable=(lambda name: name.startswith("n")) if alias_next else (lambda name: False))
        builder.add_root(root)
        sections[kind] = builder.clauses
        comments.append(f"formula {kind} aux {first} {next_var - 1}")
        stats.seconds[f"cnf {kind}"] = time.perf_counter() - start
    n = next_var - 1

    # a next-state placeholder ±(_NEXT_BASE + j) becomes ±(n + j), in the few clauses that have
    # one (RERS: 334 of 325 682), found by C-level max/min instead of a Python test per literal
    offset = n - _NEXT_BASE
    trans = sections["t"]
    for index, clause in enumerate(trans):
        if clause and (max(clause) > _NEXT_BASE or min(clause) < -_NEXT_BASE):
            trans[index] = [lit + offset if lit > _NEXT_BASE else lit - offset if lit < -_NEXT_BASE else lit
                            for lit in clause]
    for kind in "iug":
        for clause in sections[kind]:
            if any(abs(lit) > n for lit in clause):
                raise AssertionError(f"next-state literal in section {kind}")
    stats.aux_vars = n - S
    stats.clauses = {"i": len(sections["i"]), "u": len(sections["u"]), "g": len(sections["g"]), "t": len(trans)}
    ts = TransitionSystem(n=n, init=sections["i"], universal=sections["u"], goal=sections["g"], trans=trans,
                          aux=frozenset(range(S + 1, n + 1)), comments=comments)
    return ts, stats


@dataclass
class EncodeResult:
    ts: TransitionSystem
    word: WordTransitionSystem
    stats: EncodeStats
    fn: "Function | None" = None  # the CFG that was encoded (trace decoding reads its error sites)
    debug: "DebugInfo | None" = None  # C-level names and types (traces print unsigned variables unsigned)
    # the program recurses: its recursion was unrolled this many calls deep, or runs on a call
    # stack of this many frames (`call_stack`); None: it does not recurse
    recursion_depth: int | None = None
    call_stack: bool = False

    @property
    def heap_pool(self) -> int | None:
        """Objects per allocation site in a loop (llumc.encoding.memory.HeapPool), None where no
        site is in a loop."""
        pooled = [obj for obj in getattr(self.word, "memory_objects", []) or [] if obj.pool_index is not None]
        if any(obj.summary for obj in pooled):
            return SITE_SUMMARY  # one summary object per site
        return max(obj.pool_index + 1 for obj in pooled) if pooled else None


def step_values(encoded: EncodeResult, symbols: SymbolMap, assignment: list[int]) -> dict[tuple[str, int], int]:
    """The word-level leaves of one time step of a trace (the state before the step and the
    step's inputs), read from its signed literals, for `llumc.encoding.terms.evaluate`."""
    leaves: dict[tuple[str, int], int] = {}
    for var, symbol in zip(encoded.word.state, symbols.state):
        leaves[("state", var.index)] = symbols.value(symbol, assignment)
    for inp, symbol in zip(encoded.word.inputs, symbols.inputs):
        leaves[("input", inp.index)] = symbols.value(symbol, assignment)
    return leaves


class WordAssignment(Sequence[int]):
    """One time step of a trace given by its words (the value of each state variable and input,
    by the first DimSpec variable of its bits) instead of a literal per variable: a trace of
    2 000 steps over 1 000 `int` cells would be 390 000 literals per step. Indexing gives the
    signed literal as a list would (auxiliary variables false); `SymbolMap.value` reads the
    words directly."""

    def __init__(self, n: int, words: dict[int, int], ranges: list[tuple[int, int]]):
        self.n, self.words = n, words
        self.starts = sorted(lo for lo, _ in ranges)
        self.ends = dict(ranges)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.n))]
        var = index + 1 if index >= 0 else self.n + index + 1
        if not 1 <= var <= self.n:
            raise IndexError(index)
        at = bisect_right(self.starts, var) - 1
        lo = self.starts[at] if at >= 0 else 0
        if at < 0 or var > self.ends[lo]:
            return -var
        return var if self.words.get(lo, 0) >> (var - lo) & 1 else -var


class TraceBits:
    """Word-level states and inputs <-> DimSpec literals, through the symbol map: the traces of
    the engines that run on the word-level system (llumc.explicit, llumc.wordbmc) are made here."""

    def __init__(self, encoded: EncodeResult):
        symbols = read_symbol_map(encoded.ts.comments)
        self.n = encoded.ts.n
        self.state = [(s.lo, s.hi) for s in symbols.state]
        self.inputs = [(i.lo, i.hi) for i in symbols.inputs]
        self.word = encoded.word

    @staticmethod
    def _literals(lo: int, hi: int, value: int) -> list[int]:
        return [v if value >> (v - lo) & 1 else -v for v in range(lo, hi + 1)]

    def cube(self, state: tuple[int, ...], only: set[int] | None = None) -> list[int]:
        lits: list[int] = []
        for index, (lo, hi) in enumerate(self.state):
            if only is None or index in only:
                lits.extend(self._literals(lo, hi, state[index]))
        return lits

    def assignment(self, state: tuple[int, ...], inputs: dict[int, int]) -> list[int]:
        """One time step of a trace: signed literals for 1..n (auxiliaries false)."""
        value = [-v for v in range(1, self.n + 1)]
        for lit in self.cube(state):
            value[abs(lit) - 1] = lit
        for index, x in inputs.items():
            for lit in self._literals(*self.inputs[index], x):
                value[abs(lit) - 1] = lit
        return value

    def word_assignment(self, state: tuple[int, ...], inputs: dict[int, int]) -> WordAssignment:
        """`assignment`, held as words."""
        words = {lo: value for (lo, _hi), value in zip(self.state, state)}
        words.update((self.inputs[index][0], value) for index, value in inputs.items())
        return WordAssignment(self.n, words, self.state + self.inputs)

    def state_of(self, model: list[int], offset: int = 0) -> tuple[int, ...]:
        truth = {abs(lit): lit > 0 for lit in model}
        return tuple(sum(1 << (v - lo) for v in range(lo, hi + 1) if truth.get(v + offset, False))
                     for lo, hi in self.state)

    def inputs_of(self, model: list[int]) -> dict[int, int]:
        truth = {abs(lit): lit > 0 for lit in model}
        return {index: sum(1 << (v - lo) for v in range(lo, hi + 1) if truth.get(v, False))
                for index, (lo, hi) in enumerate(self.inputs)}


def executed_blocks(encoded: EncodeResult, assignment: list[int]) -> list[str]:
    """The blocks a step runs, in execution order, for one time step of a trace (signed literals
    by variable: the state before the step and the step's inputs). Evaluates the step's block
    conditions (`WordTransitionSystem.step_blocks`) on those values, so it is exact for every
    scheme: with large blocks, which blocks run depends on branch conditions inside the step.
    Empty for `ok`, `error` and invalid block codes."""
    from llumc.encoding.terms import evaluate_lazily

    symbols = read_symbol_map(encoded.ts.comments)
    head = symbols.block_of(assignment)
    conditions = encoded.word.step_blocks.get(head)
    if conditions is None:
        return []
    leaves = step_values(encoded, symbols, assignment)
    cache: dict[int, int] = {}
    # lazily: of each block's condition only what its predecessors' reach leaves open
    return [name for name, cond in conditions if evaluate_lazily(cond, leaves, cache)]


def build_transition_system(fn: "Function", *, prop: str = "unreach-call", scheme: str = "lbe",
                            classify=None, debug=None, fuse: bool | None = None,
                            memtrack: bool = True, terms: TermBuilder | None = None,
                            exact_objects: frozenset[str] = frozenset(), heap_pool: int = DEFAULT_HEAP_POOL,
                            pool_cuts: bool = False, exact_cells: int | None = None) -> WordTransitionSystem:
    """The word-level transition system of `main` for a property and scheme: large blocks
    (`llumc/encoding/lbe.py`) or small blocks (`llumc/encoding/transys.py`, "edge"/"paper"; `fuse` as there).
    `memtrack`: valid-memsafety's leak edges too (large blocks; `LargeBlockEncoder`).
    `terms`: the (empty) builder the large-block encoder makes its terms in.
    `exact_objects`: memory objects (IR names) kept exact however large (a refinement:
    llumc.check.refinement; small blocks encode no memory); `exact_cells`: the most cells an
    object may have and be exact (None: `EXACT_CELLS`; the first round of `llumc check` lowers
    it, llumc.check.portfolio.PROOF_EXACT_CELLS). `heap_pool`: objects per allocation
    site in a loop; `pool_cuts`: a run past them ends without error instead of at the
    allocation bound (llumc.encoding.memory.HeapPool; bug finding only, never a proof)."""
    if classify is None:
        from llumc.frontend.compile import classify_call as classify
    if scheme == "lbe":
        return LargeBlockEncoder(fn, prop, classify, debug, memtrack=memtrack, terms=terms,
                                 exact_objects=exact_objects, heap_pool=heap_pool, pool_cuts=pool_cuts,
                                 exact_cells=exact_cells).build()
    return build_small_block_system(fn, prop=prop, scheme=scheme, classify=classify, debug=debug, fuse=fuse)


def encode_file(path: str | Path, *, prop: str = "unreach-call", m32: bool = False, scheme: str = "lbe",
                clang: str | None = None, check_div_by_zero: bool = False, check_shift: bool = False,
                cnf_mode: str = "pg", rewrite_level: int = 3, alias_next: bool = True,
                fuse: bool | None = None, division: str = "aux", memtrack: bool = True,
                columns: bool = False, value_names: bool | None = None,
                recursion_depth: int | None = None, ir_transform=None,
                recursion_cuts: bool = False, call_stack: bool | None = None,
                exact_objects: frozenset[str] = frozenset(), heap_pool: int = DEFAULT_HEAP_POOL,
                pool_cuts: bool = False, exact_cells: int | None = None) -> EncodeResult:
    """C file -> DimSpec transition system for one property (`memtrack`, `exact_objects`,
    `exact_cells`, `heap_pool`, `pool_cuts`: see
    `build_transition_system`; `columns`: source columns in the debug information,
    `value_names`: the IR's value names, `recursion_depth`: how deep a recursion is unrolled
    (None: the default), `ir_transform`: a rewrite of the prepared IR, see `compile_c`;
    `recursion_cuts`: a run deeper than the recursion bound ends without error instead of in
    its own outcome — the system then holds the runs within the bound only, for finding bugs
    that such an outcome would otherwise hide; never a proof; `call_stack`: how recursion is
    encoded, see `compile_c`)."""
    with cyclic_gc_paused():
        return _encode_file(path, prop=prop, m32=m32, scheme=scheme, clang=clang,
                            check_div_by_zero=check_div_by_zero, check_shift=check_shift,
                            cnf_mode=cnf_mode, rewrite_level=rewrite_level, alias_next=alias_next,
                            fuse=fuse, division=division, memtrack=memtrack, columns=columns,
                            value_names=value_names, recursion_depth=recursion_depth,
                            ir_transform=ir_transform, recursion_cuts=recursion_cuts, call_stack=call_stack,
                            exact_objects=exact_objects, heap_pool=heap_pool, pool_cuts=pool_cuts,
                            exact_cells=exact_cells)


def _size(path: str | Path) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0  # (the front end reports it)


def _encode_file(path: str | Path, *, prop: str, m32: bool, scheme: str, clang: str | None,
                 check_div_by_zero: bool, check_shift: bool, cnf_mode: str, rewrite_level: int,
                 alias_next: bool, fuse: bool | None, division: str, memtrack: bool = True,
                 columns: bool = False, value_names: bool | None = None,
                 recursion_depth: int | None = None, ir_transform=None,
                 recursion_cuts: bool = False, call_stack: bool | None = None,
                 exact_objects: frozenset[str] = frozenset(), heap_pool: int = DEFAULT_HEAP_POOL,
                 pool_cuts: bool = False, exact_cells: int | None = None) -> EncodeResult:
    from llumc.frontend.cfg import read_main
    from llumc.frontend.compile import Checks, classify_call, compile_c

    start = time.perf_counter()
    # forked first, while this process is small (see `BlastAhead.start`)
    ahead = BlastAhead.start(rewrite_level=rewrite_level, division=division) \
        if scheme == "lbe" and _size(path) >= BLAST_AHEAD_FROM_BYTES else None
    try:
        checks = Checks(overflow=prop in ("no-overflow", "all"), div_by_zero=check_div_by_zero,
                        shift=check_shift)
        depth = {} if recursion_depth is None else {"recursion_depth": recursion_depth}
        front = compile_c(path, m32=m32, clang=clang, checks=checks, wrapv=not checks.overflow,
                          columns=columns, value_names=value_names, ir_transform=ir_transform,
                          call_stack=call_stack, **depth)
        t_front = time.perf_counter() - start
        start = time.perf_counter()
        fn = read_main(front.module, front.debug, str(path), text=front.ir)
        terms = TermBuilder()
        if ahead is not None:
            ahead.follow(terms)
        classify = classify_call if not recursion_cuts else \
            (lambda name: "abort" if classify_call(name) == "recursion-bound" else classify_call(name))
        word = build_transition_system(fn, prop=prop, scheme=scheme, classify=classify, debug=front.debug,
                                       fuse=fuse, memtrack=memtrack, terms=terms, exact_objects=exact_objects,
                                       heap_pool=heap_pool, pool_cuts=pool_cuts, exact_cells=exact_cells)
        t_word = time.perf_counter() - start
        ts, stats = bitblast_system(word, cnf_mode=cnf_mode, rewrite_level=rewrite_level, alias_next=alias_next,
                                    division=division, ahead=ahead)
    finally:
        if ahead is not None:
            ahead.close()
    stats.seconds = {"frontend": t_front, "transys": t_word, **stats.seconds}
    return EncodeResult(ts, word, stats, fn, front.debug, front.recursion_depth, front.call_stack)
