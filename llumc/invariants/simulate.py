"""Concrete runs of a word-level transition system: the states seen at each cut point.

A run starts in the initial state (I: `curr` = the entry's code and every other state variable
with an `init` value; the rest get uniformly random values, so that facts about uninitialised
values do not look true), then takes steps: draw the step's nondet inputs, check U, compute
every state variable's next value, until `curr` is `ok` or `error` or a step limit. The state
at each visit of a cut point (a block of `word.blocks` other than ok/error: `curr` equals its
code) is recorded, as dict state index -> unsigned value, each distinct state once.

Semantics are `llumc.encoding.terms.evaluate`'s (`reference_step` applies it literally: every next-state
term on ("state", i)/("input", i) leaves with one cache per step). The runs use a faster but
equivalent path (the tests compare the two): per cut point, the next-state terms are partially
evaluated with `curr` fixed to that cut point's code, which folds the multiplexer over the
other cut points away (an ite whose condition is known takes one branch only), and the rest is
compiled to one straight-line Python function. Measured (steps per second, compilation
included, against `reference_step`): token_ring.13 (2 095 terms) 15 000 vs 150, mem_slave_tlm.5
(2 540 terms) 13 000 vs 200, s3_srvr_1 15 000 vs 800, gauss_sum 300 000 vs 10 000.

Inputs are drawn from a mix per run: small numbers, 0 and ±1, boundary values of the width,
the program's comparison constants and their neighbours, medium and uniform values. A step
that would end the run in `ok` (typically a failed assume) is retried with fresh inputs a few
times: every recorded state is still reachable, the runs just last longer. A run that reaches
`error` is returned as a hint (its inputs, so that it can be replayed); it is not a verdict.

Deterministic for a given seed as long as the step and sample caps, not the time limit, end
the simulation.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from llumc.encoding.floatnative import evaluate as float_evaluate
from llumc.encoding.terms import Term, evaluate, evaluate_op, mask, to_signed
from llumc.encoding.transys import WordTransitionSystem

# Input categories and, per run profile, their weights:
# small, 0/±1, boundary, program constant (±1), medium, uniform
_PROFILES = (
    (0.55, 0.15, 0.03, 0.12, 0.10, 0.05),
    (0.30, 0.12, 0.08, 0.15, 0.20, 0.15),
    (0.15, 0.10, 0.15, 0.15, 0.15, 0.30),
)
_STALE_RUNS = 16  # stop after this many runs in a row that added no state at a loop head
# Long runs: from this run on, while a cut point has samples of fewer than LONG_RUN_VISITS runs
# and the short runs end at their step cap (inside a loop), every other run in the first half
# of the time may take up to four times the program's largest comparison constant in steps (at
# most LONG_RUN_STEPS; the other runs stay short, for the variety of their inputs): a loop
# after one that fills 1 000 cells is never reached in `max_steps`, and its invariants
# (`found == 0 || x < i` of a search) need its states.
LONG_RUNS_FROM = 4
LONG_RUN_VISITS = 12
LONG_RUNS_FRUITLESS = 3  # ... until this many long runs in a row added none there
LONG_RUN_STEPS = 500_000
LONG_RUN_CONSTANT = 1 << 20  # larger comparison constants are no loop bounds worth running to
# Scaled runs (`scaled_constants`): comparison constants beyond SCALE_FROM in magnitude are
# scaled so that the smallest of them becomes SCALED_TO
SCALE_FROM = 4096
SCALED_TO = 128
_C_WIDTHS = (8, 16, 32, 64, 128)  # widths of C's integer types (others are the encoder's own)
_RETRIES = 8  # fresh inputs for a step that would end in `ok` (a failed assume, mostly)


@dataclass
class ErrorHint:
    """A run that reached `error`: replay it by starting from `initial` and feeding, at step k,
    the input values `inputs[k]` (input index -> value)."""

    run: int
    seed: int
    steps: int
    initial: dict[int, int]
    inputs: list[dict[int, int]]
    blocks: list[str]  # the cut point of each step


@dataclass
class Samples:
    """The states recorded at each cut point (distinct, in the order first seen), state index ->
    unsigned value, `curr` included."""

    states: dict[str, list[dict[int, int]]] = field(default_factory=dict)
    visits: dict[str, int] = field(default_factory=dict)  # visits per cut point, repeats included
    runs: int = 0
    steps: int = 0
    seconds: float = 0.0
    reached_ok: int = 0  # runs that ended in ok
    error: ErrorHint | None = None  # the first run that reached error
    stopped: str = ""  # "runs", "samples", "saturated" (runs stopped finding new states) or "time"
    # states of runs with the large constants scaled down (`scaled_constants`) at cut points
    # these runs never reached: hints from another program; `propose` takes the facts they
    # show there and drops the facts whose scaled reading they refute (Houdini decides)
    scaled: dict[str, list[dict[int, int]]] = field(default_factory=dict)
    scale: "Scale | None" = None  # the scaled runs' constants

    @property
    def count(self) -> int:
        return sum(len(s) for s in self.states.values())


# ---------------------------------------------------------------------------- compilation
_SIMPLE = {
    "add": "({a} + {b}) & {m}",
    "sub": "({a} - {b}) & {m}",
    "mul": "({a} * {b}) & {m}",
    "and": "{a} & {b}",
    "or": "{a} | {b}",
    "xor": "{a} ^ {b}",
    "udiv": "({a} // {b} if {b} else {m})",
    "urem": "({a} % {b} if {b} else {a})",
    "lshr": "{a} >> {b}",
    "shl": "(({a} << {b}) & {m} if {b} < {w} else 0)",
    "ashr": "((({a} ^ {s}) - {s}) >> ({b} if {b} < {w} else {w})) & {m}",
    "eq": "(1 if {a} == {b} else 0)",
    "ult": "(1 if {a} < {b} else 0)",
    "slt": "(1 if ({a} ^ {s}) < ({b} ^ {s}) else 0)",
}


class _Compiler:
    """Partial evaluation of terms with some leaves known, then Python code for the rest.

    Each term becomes either an int (known) or the name of a local variable assigned by one
    line of code; `ite`, `and` and `or` look at their first argument first and skip what a
    known value makes irrelevant. Iterative (the multiplexer chains are deep)."""

    def __init__(self, known: dict[tuple[str, int], int], native: dict | None = None,
                 constants: "Scale | None" = None):
        self.known = known
        # the constants used instead of the terms' own (`Scale`); None: the terms' own
        self.constants = constants
        # floating-point operations computed on the machine's floats instead of through their
        # circuits (`TermBuilder.native`, llumc.encoding.floatnative): stage 6 of `visit`
        self.native = native or {}
        self.value: dict[int, int | str] = {}
        self.lines: list[str] = []
        self.state_leaves: set[int] = set()
        self.input_leaves: set[int] = set()
        # value name -> the state variables it depends on (`reads_of`)
        self.deps: dict[str, frozenset[int]] = {}

    def _emit(self, t: Term, expr: str) -> str:
        name = f"t{t.uid}"
        self.lines.append(f"    {name} = {expr}")
        self.value[t.uid] = name
        return name

    def visit(self, root: Term) -> int | str:
        value = self.value
        stack: list[tuple[Term, int]] = [(root, 0)]
        while stack:
            t, stage = stack.pop()
            if stage == 0 and t.uid in value:
                continue
            op = t.op
            if op == "const":
                value[t.uid] = t.param if self.constants is None else self.constants(t.param, t.width)  # type: ignore[arg-type]
                continue
            if op in ("state", "input"):
                key = (op, t.param)
                if key in self.known:
                    value[t.uid] = self.known[key] & mask(t.width)
                elif op == "state":
                    self.state_leaves.add(t.param)  # type: ignore[arg-type]
                    value[t.uid] = name = f"s{t.param}"
                    self.deps[name] = frozenset((t.param,))
                else:
                    self.input_leaves.add(t.param)  # type: ignore[arg-type]
                    value[t.uid] = f"x{t.param}"
                continue
            if op == "next":
                raise ValueError("a next-state leaf in a next-state term")
            if t.uid in self.native:
                if stage == 0:
                    stack.append((t, 6))
                    stack.extend((a, 0) for a in self.native[t.uid][1] if a.uid not in value)
                else:
                    self._native_operation(t)
                continue
            lazy = op == "ite" or (op in ("and", "or") and t.width == 1)
            if stage == 0:
                stack.append((t, 1))
                first = t.args if not lazy else t.args[:1]
                stack.extend((a, 0) for a in first if a.uid not in value)
                continue
            if lazy and stage == 1:
                c = value[t.args[0].uid]
                if isinstance(c, int):
                    if op == "ite":
                        rest = [t.args[1] if c else t.args[2]]
                    elif (op == "and") != bool(c):  # and with 0, or with 1: decided
                        value[t.uid] = c
                        continue
                    else:
                        rest = [t.args[1]]
                    stack.append((t, 3))
                    stack.extend((a, 0) for a in rest if a.uid not in value)
                else:
                    stack.append((t, 2))
                    stack.extend((a, 0) for a in t.args[1:] if a.uid not in value)
                continue
            if lazy and stage == 3:  # first argument known: the result is the chosen argument
                c = value[t.args[0].uid]
                chosen = (t.args[1] if c else t.args[2]) if op == "ite" else t.args[1]
                value[t.uid] = value[chosen.uid]
                continue
            self._combine(t)
            result = value[t.uid]
            if isinstance(result, str) and result not in self.deps:
                self._note_deps(result, [value.get(a.uid) for a in t.args])
        return value[root.uid]

    def _note_deps(self, name: str, args: list) -> None:
        """`name` depends on the state variables its arguments' values depend on."""
        needs: set[int] = set()
        for arg in args:
            if isinstance(arg, str):
                needs |= self.deps.get(arg, frozenset())
        self.deps[name] = frozenset(needs)

    def _native_operation(self, t: Term) -> None:
        """`t` as one call of `llumc.encoding.floatnative.evaluate` on its operands' values."""
        key, operands = self.native[t.uid]
        args = [self.value[a.uid] for a in operands]
        if all(isinstance(a, int) for a in args):
            self.value[t.uid] = float_evaluate(key, *args)
            return
        self._note_deps(self._emit(t, f"_fp({key!r}, {', '.join(map(str, args))})"), args)

    def _decided(self, t: Term, args: list[int | str]) -> bool:
        """Give `t` its value without code when its known arguments decide it (all constant;
        an `ite` with equal branches; a 1-bit `and`/`or` with a constant second argument, the
        first being unknown). Shared by every code generator built on this walk."""
        op = t.op
        if all(isinstance(a, int) for a in args):
            self.value[t.uid] = evaluate_op(op, t.width, args, [a.width for a in t.args], t.param)  # type: ignore[arg-type]
        elif op == "ite" and args[1] == args[2]:
            self.value[t.uid] = args[1]
        elif op in ("and", "or") and t.width == 1 and isinstance(args[1], int):
            self.value[t.uid] = args[1] if (op == "and") != bool(args[1]) else args[0]
        else:
            return False
        return True

    def _combine(self, t: Term) -> None:
        args = [self.value[a.uid] for a in t.args]
        if self._decided(t, args):
            return
        op, w = t.op, t.width
        m = mask(w)
        if op == "ite":
            c, a, b = args
            self._emit(t, f"({a} if {c} else {b})")
        elif op in ("and", "or") and w == 1:
            a, b = args
            self._emit(t, f"{a} {'&' if op == 'and' else '|'} {b}")
        elif op in _SIMPLE:
            wa = t.args[0].width
            self._emit(t, _SIMPLE[op].format(a=args[0], b=args[1], m=m, w=wa, s=1 << (wa - 1)))
        elif op == "not":
            self._emit(t, f"{args[0]} ^ {m}")
        elif op == "neg":
            self._emit(t, f"-{args[0]} & {m}")
        elif op == "zext":
            self.value[t.uid] = args[0]
        elif op == "sext":
            s = 1 << (t.args[0].width - 1)
            self._emit(t, f"(({args[0]} ^ {s}) - {s}) & {m}")
        elif op == "extract":
            hi, lo = t.param  # type: ignore[misc]
            self._emit(t, f"({args[0]} >> {lo}) & {mask(hi - lo + 1)}")
        elif op == "concat":
            self._emit(t, f"({args[0]} << {t.args[1].width}) | {args[1]}")
        else:  # sdiv, srem, overflow checks: rare, the reference operator
            widths = tuple(a.width for a in t.args)
            self._emit(t, f"_op({op!r}, {w}, [{', '.join(map(str, args))}], {widths}, {t.param!r})")


@dataclass
class _Step:
    """One cut point's compiled step: fn(s, x) -> next state list, or None when U fails."""

    fn: object
    inputs: list[int]  # input indices the step reads
    lines: int
    reads: tuple[set[int], list[set[int]]] = (set(), [])  # as `reads_of`


def compile_step(word: WordTransitionSystem, code: int,
                 constants: "Scale | None" = None) -> _Step:
    """The step from the block with code `code`: next values of every state variable and U,
    with `curr` = code folded in (and `constants` replacing the terms' own, `scaled_constants`)."""
    comp, universal, nexts = _partial_step(word, code, constants=constants)
    body = [f"    s{i} = s[{i}]" for i in sorted(comp.state_leaves)]
    body += [f"    x{i} = x[{i}]" for i in sorted(comp.input_leaves)]
    live = _live_lines(comp.lines, universal + nexts)
    checks = [u for u in universal if u != 1]
    if 0 in checks:
        body.append("    return None")
    else:
        body += live
        if checks:
            body.append(f"    if not ({' and '.join(map(str, checks))}): return None")
        body.append(f"    return [{', '.join(map(str, nexts))}]")
    source = "def step(s, x):\n" + "\n".join(body) + "\n"
    namespace: dict[str, object] = {"_op": evaluate_op, "_fp": float_evaluate}
    exec(compile(source, f"<llumc step {code}>", "exec"), namespace)
    return _Step(namespace["step"], sorted(comp.input_leaves), len(body), reads_of(comp, universal, nexts))


def _partial_step(word: WordTransitionSystem, code: int, compiler: type[_Compiler] = _Compiler,
                  constants: "Scale | None" = None
                  ) -> tuple[_Compiler, list[int | str], list[int | str]]:
    """U and the next-state terms partially evaluated with `curr` = code by `compiler` (this
    module's Python, or llumc.explicit.native_step's LLVM IR): each a constant or a value's name."""
    comp = compiler({("state", word.curr.index): code}, word.terms.native, constants)
    universal = [comp.visit(u) for u in word.universal]
    nexts = [comp.visit(word.next[v.index]) for v in word.state]
    return comp, universal, nexts


def reads_of(comp: _Compiler, universal: list[int | str], nexts: list[int | str]) -> tuple[set[int], list[set[int]]]:
    """The state variables a compiled step reads: those U needs, and for each state variable
    those its next value needs (after folding `curr`, so other blocks' steps do not count)."""

    def of(value: int | str) -> set[int]:
        return set(comp.deps.get(value, ())) if isinstance(value, str) else set()

    u_needs: set[int] = set()
    for u in universal:
        u_needs |= of(u)
    return u_needs, [of(v) for v in nexts]


def compile_terms(word: WordTransitionSystem, code: int, roots: list[Term],
                  constants: "Scale | None" = None
                  ) -> "Callable[[list[int], list[int]], list[int]]":
    """fn(s, x) -> the values of `roots` in a step from the block with code `code` (`curr`
    folded in as in `compile_step`), for callers that need more than the next state (the
    explicit-state explorer reads which blocks a step runs)."""
    comp = _Compiler({("state", word.curr.index): code}, word.terms.native, constants)
    values = [comp.visit(r) for r in roots]
    body = [f"    s{i} = s[{i}]" for i in sorted(comp.state_leaves)]
    body += [f"    x{i} = x[{i}]" for i in sorted(comp.input_leaves)]
    body += _live_lines(comp.lines, values)
    body.append(f"    return [{', '.join(map(str, values))}]")
    namespace: dict[str, object] = {"_op": evaluate_op, "_fp": float_evaluate}
    exec(compile("def values(s, x):\n" + "\n".join(body) + "\n", f"<llumc values {code}>", "exec"), namespace)
    return namespace["values"]  # type: ignore[return-value]


def _live_lines(lines: list[str], roots: list[int | str]) -> list[str]:
    """Only the lines some root needs (a known `and`/`ite` may leave computed values unused)."""
    import re

    needed = {r for r in roots if isinstance(r, str)}
    kept = []
    for line in reversed(lines):
        name, expr = line.strip().split(" = ", 1)
        if name in needed:
            kept.append(line)
            needed.update(re.findall(r"\bt\d+\b", expr))
    return kept[::-1]


def reference_step(word: WordTransitionSystem, state: list[int], inputs: list[int]) -> list[int] | None:
    """The step by `llumc.encoding.terms.evaluate` (every next-state term, one shared cache): the
    semantics the compiled steps implement. None when U does not hold."""
    leaves = {("state", v.index): state[v.index] for v in word.state}
    leaves.update((("input", i.index), inputs[i.index]) for i in word.inputs)
    cache: dict[int, int] = {}
    if not all(evaluate(u, leaves, cache) for u in word.universal):
        return None
    return [evaluate(word.next[v.index], leaves, cache) for v in word.state]


# ---------------------------------------------------------------------------- inputs
def comparison_constants(word: WordTransitionSystem) -> set[tuple[int, int]]:
    """(value, width) of every constant compared with something in the next-state terms or U."""
    found: set[tuple[int, int]] = set()
    seen: set[int] = set()
    stack = [*word.next.values(), *word.universal]
    while stack:
        t = stack.pop()
        if t.uid in seen:
            continue
        seen.add(t.uid)
        if t.op in ("eq", "ult", "slt"):
            found.update((a.param, a.width) for a in t.args if a.op == "const")  # type: ignore[misc]
        stack.extend(a for a in t.args if a.uid not in seen)
    return found


@dataclass(frozen=True)
class Scale:
    """A program's large constants scaled down, for runs that reach the loops after long ones
    (`simulate(scale=...)`), where the invariant search's runs do not get within their time (a
    search over 100 000 cells after a loop that fills them). Every constant c of magnitude
    beyond SCALE_FROM becomes about c / unit, a small distance from a multiple of the unit kept:
    with 100 000 the smallest large comparison constant and SCALED_TO = 128, 99 999 and 100 001
    become 127 and 129, the 400 000 bytes of an `int` array of 100 000 cells 512, the array's
    cells then as many as the loop's iterations. Constants near a width's limits (overflow
    checks, masks) stay. The runs are of another program: their states are hints, never
    evidence (`Samples.scaled`)."""

    unit: Fraction

    def __call__(self, value: int, width: int) -> int:
        c = _magnitude(value, width)
        if c is None:
            return value
        q = round(c / self.unit)
        d = c - q * self.unit
        return (q + (round(d) if abs(d) <= 64 else 0)) & mask(width)


def _magnitude(value: int, width: int) -> int | None:
    """The constant as a number to scale, or None where it stays: at most SCALE_FROM in
    magnitude, or near the limits of a C type's width (read as signed there). At the
    encoder's own widths (a tracked index of 17 bits for 100 000 cells) it is a count."""
    if width not in _C_WIDTHS:
        return value if value > SCALE_FROM else None
    c = to_signed(value, width)
    return c if SCALE_FROM < abs(c) < 1 << (width - 2) else None


def scaled_constants(word: WordTransitionSystem) -> Scale | None:
    """The `Scale` that makes the smallest large comparison constant SCALED_TO; None when the
    program compares with none."""
    big = [abs(c) for c in (_magnitude(value, width) for value, width in comparison_constants(word))
           if c is not None]
    return Scale(Fraction(min(big), SCALED_TO)) if big else None


class _Draw:
    """Nondet values for one run."""

    def __init__(self, rng: random.Random, profile: tuple[float, ...], constants: dict[int, list[int]]):
        self.rng = rng
        self.cum = []
        total = 0.0
        for weight in profile:
            total += weight
            self.cum.append(total)
        self.constants = constants  # width -> values (with neighbours)

    def __call__(self, width: int) -> int:
        rng = self.rng
        if width == 1:
            return rng.getrandbits(1)
        m = mask(width)
        r = rng.random() * self.cum[-1]
        if r < self.cum[0]:  # small: 0..15, the smaller the likelier; a fifth negative
            v = rng.getrandbits(1 + rng.getrandbits(2))
            return (-v & m) if r < 0.2 * self.cum[0] else v
        if r < self.cum[1]:
            return (0, 1, m)[int(rng.random() * 3)]
        if r < self.cum[2]:
            top = 1 << (width - 1)
            return (top, top - 1, top + 1, top - 2, m - 1, 2)[int(rng.random() * 6)]
        if r < self.cum[3]:
            values = self.constants.get(width)
            if values:
                return values[int(rng.random() * len(values))]
            return rng.getrandbits(4)
        if r < self.cum[4]:
            return (rng.getrandbits(11) - 1000) & m
        return rng.getrandbits(width)


# ---------------------------------------------------------------------------- runs
@dataclass
class _ContentPlan:
    """The content reads and writes of one step head, with a function each that gives their
    conditions and offsets (and the writes' values) on a state and inputs."""

    reads: list  # (MemoryObject, ContentRead)
    read_values: Callable[[list[int], list[int]], list[int]] | None  # [cond, offset] per read
    writes: list  # (MemoryObject, ContentWrite)
    write_values: Callable[[list[int], list[int]], list[int]] | None  # [cond, offset(, value)] per write
    # per read: where `read_values` has the condition and offset of each earlier write of its
    # step, and that write's size (computed once: `_Contents.before` runs at every step)
    earlier: list = field(default_factory=list)  # list[list[tuple[int, int]]]


def _earlier_writes(obj, read) -> list:
    """The writes of `read`'s step before it (`ContentRead.step_writes`; none for a fresh read)."""
    if read.fresh or read.step_writes is None:
        return []
    first, last = read.step_writes
    return obj.content_writes[first:last]


class _Contents:
    """The cells of abstract objects a run wrote, so that a read of one returns what was written
    there (the system's havoc value for it is any value; a run of the program reads its memory):
    per step head, the reads (`MemoryObject.content_reads`) and writes (`content_writes`) with
    their offsets and conditions compiled (`compile_terms`). Samples only: a run that differs
    from the program's costs candidates, never a wrong fact (Houdini decides)."""

    def __init__(self, word: WordTransitionSystem, constants: "Scale | None" = None):
        self.word = word
        self.constants = constants
        self.objects = [obj for obj in getattr(word, "memory_objects", [])
                        if getattr(obj, "content_reads", None) or getattr(obj, "content_writes", None)]
        self.plans: dict[int, _ContentPlan | None] = {}
        self.cells: dict[int, dict[int, int]] = {}

    def start_run(self) -> None:
        self.cells = {obj.id: {} for obj in self.objects}

    def _plan(self, code: int, name: str) -> _ContentPlan | None:
        if code in self.plans:
            return self.plans[code]
        reads = [(obj, r) for obj in self.objects for r in obj.content_reads
                 if r.head == name and (r.fresh and len(obj.tracked_fields) == 1 or getattr(obj, "summary", False)
                                        and (r.fresh or r.step_writes is not None))]
        writes = [(obj, w) for obj in self.objects for w in obj.content_writes if w.head == name]
        plan = None
        if reads or writes:
            read_roots = [t for _obj, r in reads for t in (r.condition, r.offset)]
            # then, per read after writes of its step (a summary's), those writes' conditions
            # and offsets, and where they stand among the values: a read whose cell one of
            # them covers keeps its value
            earlier = []
            for obj, r in reads:
                step_writes = _earlier_writes(obj, r)
                earlier.append([(len(read_roots) + 2 * j, w.size) for j, w in enumerate(step_writes)])
                read_roots += [t for w in step_writes for t in (w.condition, w.offset)]
            write_roots = [t for _obj, w in writes for t in (w.condition, w.offset)
                           + ((w.value,) if w.value is not None else ())]
            plan = _ContentPlan(reads, compile_terms(self.word, code, read_roots, self.constants) if reads else None,
                                writes, compile_terms(self.word, code, write_roots, self.constants)
                                if writes else None, earlier)
        self.plans[code] = plan
        return plan

    def _cell(self, obj, index: int) -> int | None:
        value = self.cells[obj.id].get(index)
        if value is None and obj.initial is not None and (index + 1) * obj.cell <= len(obj.initial):
            value = int.from_bytes(obj.initial[index * obj.cell:(index + 1) * obj.cell], "little")
        return value

    def before(self, code: int, name: str, state: list[int], x: list[int]) -> None:
        """Each read of the step that hits a written cell returns its contents. Whether a later
        read runs, and where, may rest on what an earlier one returned (a list's `n->next`,
        read after `n->data` passed a check): the reads are evaluated again until none
        changes (at most once per read)."""
        plan = self._plan(code, name)
        if plan is None or plan.read_values is None:
            return
        for _ in plan.reads:
            values = plan.read_values(state, x)
            changed = False
            for k, ((obj, read), earlier) in enumerate(zip(plan.reads, plan.earlier)):
                offset = values[2 * k + 1]
                if any(values[at] and 0 <= offset - values[at + 1] < size for at, size in earlier):
                    continue  # a write of the step before the read covers its cell
                if values[2 * k] and offset % obj.cell == 0:
                    cell = self._cell(obj, offset // obj.cell)
                    if cell is not None and x[read.value.param] != cell:
                        x[read.value.param] = cell
                        changed = True
            if not changed:
                return

    def after(self, code: int, name: str, state: list[int], x: list[int]) -> None:
        """The step's writes into the cells (a write of another size forgets the object)."""
        plan = self._plan(code, name)
        if plan is None or plan.write_values is None:
            return
        values = plan.write_values(state, x)
        at = 0
        for obj, write in plan.writes:
            runs, offset = values[at], values[at + 1]
            value = values[at + 2] if write.value is not None else None
            at += 2 if write.value is None else 3
            if not runs:
                continue
            if value is None or offset % obj.cell:
                self.cells[obj.id].clear()
            else:
                self.cells[obj.id][offset // obj.cell] = value


def _tracked_index(rng: random.Random, run: int, uniform: int) -> int:
    """The initial tracked index of an abstract object (docs/memory.md, cell morphing): any
    cell, as in the system; in two runs of three one of the first 64, where a run of at most
    `max_steps` steps writes (uniform over 100 000 cells, almost every run would track a cell
    the loops never reach, and the runs would show nothing about the cells they fill)."""
    return uniform if run % 3 == 2 else uniform % (1 + rng.getrandbits(6))


def simulate(word: WordTransitionSystem, *, seed: int = 0, runs: int = 200, max_steps: int = 1000,
             max_samples: int = 2000, seconds: float | None = 2.0,
             deadline: float | None = None, scale: "Scale | None" = None,
             long_runs: bool = True) -> Samples:
    """Up to `runs` runs of at most `max_steps` steps each (some longer: `LONG_RUNS_FROM`). A cut point keeps at most
    `max_samples` distinct states, at most a sixteenth of them from one run (so that one long
    run does not fill it: many runs, many different nondet values). Stops early when a run
    found every cut point it visited (other than the initial one) full, when 16 runs in a row
    added no state (saturated: a bounded loop has shown all it has), when `seconds` have
    passed or when `time.monotonic()` reaches `deadline` (absolute, as the engines take it).
    `scale` (`scaled_constants`) replaces constants of the terms: the runs of another program.
    `long_runs=False`: none (scaled runs have reached the loops they would)."""
    started = time.monotonic()
    stop_at = None if seconds is None else started + seconds
    if deadline is not None:
        stop_at = deadline if stop_at is None else min(stop_at, deadline)
    curr = word.curr
    names = {b.code: b.name for b in word.blocks}
    ok, error = word.ok_code, word.error_code
    steps: dict[int, _Step] = {}
    seen: dict[int, set[tuple[int, ...]]] = {b.code: set() for b in word.blocks[:-2]}
    ordered: dict[int, list[tuple[int, ...]]] = {code: [] for code in seen}
    visits = {code: 0 for code in seen}
    sampled_runs = {code: 0 for code in seen}  # runs that added a sample at the cut point
    fruitless = 0  # long runs in a row that added no sample where samples were missing
    capped = False  # the last short run ended at its step cap
    per_run = max(8, max_samples // 16)
    initial_code = curr.init
    constants: dict[int, list[int]] = {}
    compared = {(c if scale is None else scale(c, w), w) for c, w in comparison_constants(word)}
    for value, width in compared:
        for v in (value - 1, value, value + 1):
            constants.setdefault(width, []).append(v & mask(width))
    for values in constants.values():
        values.sort()
    bounds = [value for value, _width in compared if value <= LONG_RUN_CONSTANT]
    long_steps = min(LONG_RUN_STEPS, max(max_steps, 4 * max(bounds, default=0) + 1000)) if long_runs else max_steps
    tracked_indices = sorted({index.index for obj in getattr(word, "memory_objects", [])
                              for index, _offset, _value in obj.tracked_cells()})
    ordered_pairs = {(obj.tracked_index.index, obj.pair_index.index) for obj in getattr(word, "memory_objects", [])
                     if getattr(obj, "pair_index", None) is not None}
    far_nodes = {obj.tracked_index.index: obj.far_node for obj in getattr(word, "memory_objects", [])
                 if getattr(obj, "summary", False) and getattr(obj, "tracked_index", None) is not None}
    contents = _Contents(word, scale)
    result = Samples()
    n_inputs = len(word.inputs)
    input_width = [i.width for i in word.inputs]
    final_u: dict[int, _Step] = {}
    total_steps = 0
    stale = 0  # runs in a row that found no new state
    result.stopped = "runs"
    for run in range(runs):
        if stop_at is not None and time.monotonic() >= stop_at:
            result.stopped = "time"
            break
        run_seed = seed * 1_000_003 + run
        rng = random.Random(run_seed)
        draw = _Draw(rng, _PROFILES[run % len(_PROFILES)], constants)
        state = [v.init if v.init is not None else rng.getrandbits(v.width) for v in word.state]
        for index in tracked_indices:
            state[index] = _tracked_index(rng, run, state[index])
        for index, far in far_nodes.items():  # U's `index_constraints`: never a summary's far node
            if state[index] == far:
                state[index] = far + 1
        for first, second in ordered_pairs:  # U's `index_constraints`
            if state[first] > state[second]:
                state[first], state[second] = state[second], state[first]
        initial = dict(enumerate(state))
        trace: list[tuple[int, list[int], tuple[int, ...]]] = []  # (code, input indices, values)
        added = {code: 0 for code in seen}
        result.runs += 1
        contents.start_run()
        x = [0] * n_inputs
        undersampled = {code for code in seen if code != initial_code and sampled_runs[code] < LONG_RUN_VISITS}
        long_pending = long_steps > max_steps and fruitless < LONG_RUNS_FRUITLESS and bool(undersampled) \
            and capped \
            and (stop_at is None or time.monotonic() < started + 0.5 * (stop_at - started))
        long_run = long_pending and run >= LONG_RUNS_FROM and run % 2 == 1
        cap = long_steps if long_run else max_steps
        for k in range(cap):
            code = state[curr.index]
            if code not in seen:
                break
            step = steps.get(code)
            if step is None:
                step = steps[code] = compile_step(word, code, scale)
            nxt = None
            for _attempt in range(_RETRIES + 1):
                for i in step.inputs:
                    x[i] = draw(input_width[i])
                if contents.objects:
                    contents.before(code, names[code], state, x)
                nxt = step.fn(state, x)  # type: ignore[operator]
                if nxt is None or nxt[curr.index] != ok or not step.inputs:
                    break
            if nxt is None:  # U fails whatever the inputs: not a state of the system
                break
            if contents.objects:
                contents.after(code, names[code], state, x)
            if added[code] < per_run:
                sample = tuple(state)
                bucket = seen[code]
                if sample not in bucket and len(bucket) < max_samples:
                    bucket.add(sample)
                    ordered[code].append(sample)
                    added[code] += 1
            visits[code] += 1
            trace.append((code, step.inputs, tuple(x[i] for i in step.inputs)))
            state = nxt
            if k & 63 == 63 and stop_at is not None and time.monotonic() >= stop_at:
                break
        total_steps += len(trace)
        if not long_run:  # long runs help only where short ones end at their cap, inside a loop
            capped = len(trace) >= max_steps
        end = state[curr.index]
        if end in (ok, error):
            u = final_u.get(end)
            if u is None:
                u = final_u[end] = compile_step(word, end, scale)
            if u.fn(state, [0] * n_inputs) is not None:  # type: ignore[operator]
                if end == ok:
                    result.reached_ok += 1
                elif result.error is None:
                    result.error = ErrorHint(run, run_seed, len(trace), initial,
                                             [dict(zip(used, values)) for _code, used, values in trace],
                                             [names[code] for code, _used, _values in trace])
        visited = {code for code, _used, _values in trace if code != initial_code}
        for code in seen:
            sampled_runs[code] += added[code] > 0
        if long_run:  # a cut point no run reaches (dead code, a rare input) ends them
            fruitless = 0 if any(added[code] for code in undersampled) else fruitless + 1
        if visited and all(len(seen[code]) >= max_samples for code in visited) and not long_pending:
            result.stopped = "samples"
            break
        # saturation counts once a loop head has samples (or when there is none): a loop that
        # few runs reach must not end the search before it is found
        if any(ordered[code] for code in seen if code != initial_code) or len(seen) == 1:
            stale = 0 if any(added[code] for code in visited) else stale + 1
        if stale >= _STALE_RUNS:
            result.stopped = "saturated"
            break
    result.steps = total_steps
    result.states = {names[code]: [dict(enumerate(s)) for s in samples] for code, samples in ordered.items()}
    result.visits = {names[code]: n for code, n in visits.items()}
    result.seconds = time.monotonic() - started
    if result.stopped == "runs" and stop_at is not None and time.monotonic() >= stop_at:
        result.stopped = "time"
    return result
