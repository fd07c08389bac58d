"""A step of the word-level transition system as machine code, through LLVM's JIT.

Why: `llumc.invariants.simulate.compile_step` turns a step into one straight-line Python
function, a few microseconds per term. The RERS programs (`Problem07_*`) have steps of about
200 000 terms, so one Python step takes tens of milliseconds and exploring their few thousand
states with a dozen inputs each takes minutes. The same straight-line code as LLVM IR, compiled
without optimisation by the JIT that llvmlite already brings, runs a step in well under a
millisecond.

Same semantics as `llumc.encoding.terms.evaluate_op` (SMT-LIB's): every operation that LLVM leaves
undefined or poison where SMT-LIB defines a value (division by zero, INT_MIN / -1, shifts by
the width or more) is guarded by a `select`. The tests compare the two step functions on
random states. `curr` is folded in and constants are propagated exactly as in the Python
compiler (`_Compiler`, whose walk this reuses), so both see the same partially evaluated step.
"""

from __future__ import annotations

import ctypes

from llumc.invariants.simulate import Scale, _Compiler, _partial_step, reads_of
from llumc.encoding.terms import Term
from llumc.encoding.transys import WordTransitionSystem

MAX_WIDTH = 64  # state and input values travel as 64-bit words


class NativeUnsupported(Exception):
    """The step cannot be compiled natively (a value wider than 64 bits); use Python."""


class _IRCompiler(_Compiler):
    """`_Compiler`'s partial evaluation, emitting LLVM IR lines instead of Python ones."""

    def __init__(self, known: dict[tuple[str, int], int], native: dict | None = None,
                 constants: "Scale | None" = None):
        # floating-point operations stay their circuits here (`native` unused): as machine code
        # their bit operations are fast, and one over 64 bits wide sends the step to Python
        super().__init__(known, constants=constants)
        self.intrinsics: set[str] = set()
        self.fresh = 0

    def _tmp(self) -> str:
        self.fresh += 1
        return f"%v{self.fresh}"

    def _line(self, expr: str) -> str:
        name = self._tmp()
        self.lines.append(f"  {name} = {expr}")
        return name

    @staticmethod
    def operand(value: int | str, width: int = 1) -> str:
        """An operand: a name, or a constant written signed (LLVM reads `i64 2^64 - 1` as out
        of range, `i64 -1` always)."""
        if isinstance(value, str):
            return f"%{value}"
        return str(value - (1 << width) if width > 1 and value >> (width - 1) else value)

    def _combine(self, t: Term) -> None:
        args = [self.value[a.uid] for a in t.args]
        if self._decided(t, args):
            return
        op, w = t.op, t.width
        if w > MAX_WIDTH * 2 or t.args[0].width > MAX_WIDTH * 2:  # LLVM would cope; ctypes words not
            raise NativeUnsupported(f"a {max(w, t.args[0].width)}-bit value")
        o = [self.operand(a, arg.width) for a, arg in zip(args, t.args)]
        aw = t.args[0].width if t.args else w
        ty, aty = f"i{w}", f"i{aw}"
        line = self._line
        if op == "ite":
            result = line(f"select i1 {o[0]}, {ty} {o[1]}, {ty} {o[2]}")
        elif op in ("add", "sub", "mul", "and", "or", "xor"):
            result = line(f"{op} {ty} {o[0]}, {o[1]}")
        elif op in ("eq", "ult", "slt"):
            result = line(f"icmp {op} {aty} {o[0]}, {o[1]}")
        elif op == "not":
            result = line(f"xor {ty} {o[0]}, -1")
        elif op == "neg":
            result = line(f"sub {ty} 0, {o[0]}")
        elif op in ("udiv", "urem"):
            zero = line(f"icmp eq {ty} {o[1]}, 0")
            safe = line(f"select i1 {zero}, {ty} 1, {ty} {o[1]}")
            q = line(f"{op} {ty} {o[0]}, {safe}")
            on_zero = "-1" if op == "udiv" else o[0]
            result = line(f"select i1 {zero}, {ty} {on_zero}, {ty} {q}")
        elif op in ("sdiv", "srem"):
            zero = line(f"icmp eq {ty} {o[1]}, 0")
            int_min = self.operand(1 << (w - 1), w)
            a_min = line(f"icmp eq {ty} {o[0]}, {int_min}")
            b_m1 = line(f"icmp eq {ty} {o[1]}, -1")
            wraps = line(f"and i1 {a_min}, {b_m1}")
            special = line(f"or i1 {zero}, {wraps}")
            safe = line(f"select i1 {special}, {ty} 1, {ty} {o[1]}")
            q = line(f"{op} {ty} {o[0]}, {safe}")
            if op == "sdiv":  # a/0: 1 if a < 0 else all ones; INT_MIN / -1 = INT_MIN
                negative = line(f"icmp slt {ty} {o[0]}, 0")
                by_zero = line(f"select i1 {negative}, {ty} 1, {ty} -1")
                wrapped = line(f"select i1 {wraps}, {ty} {int_min}, {ty} {q}")
            else:  # a % 0 = a; INT_MIN % -1 = 0
                by_zero = o[0]
                wrapped = line(f"select i1 {wraps}, {ty} 0, {ty} {q}")
            result = line(f"select i1 {zero}, {ty} {by_zero}, {ty} {wrapped}")
        elif op in ("shl", "lshr", "ashr"):
            big = line(f"icmp uge {ty} {o[1]}, {aw}")
            safe = line(f"select i1 {big}, {ty} {aw - 1 if op == 'ashr' else 0}, {ty} {o[1]}")
            shifted = line(f"{op} {ty} {o[0]}, {safe}")
            result = shifted if op == "ashr" else line(f"select i1 {big}, {ty} 0, {ty} {shifted}")
        elif op in ("zext", "sext"):
            if w == aw:
                self.value[t.uid] = args[0]
                return
            result = line(f"{op} {aty} {o[0]} to {ty}")
        elif op == "extract":
            hi, lo = t.param  # type: ignore[misc]
            value = o[0] if lo == 0 else line(f"lshr {aty} {o[0]}, {lo}")
            result = value if w == aw else line(f"trunc {aty} {value} to {ty}")
        elif op == "concat":
            bw = t.args[1].width
            high = line(f"zext {aty} {o[0]} to {ty}")
            moved = line(f"shl {ty} {high}, {bw}")
            low = line(f"zext i{bw} {o[1]} to {ty}")
            result = line(f"or {ty} {moved}, {low}")
        elif op in ("saddo", "ssubo", "smulo", "uaddo", "usubo", "umulo"):
            name = f"llvm.{op[0]}{op[1:4]}.with.overflow.{aty}"
            self.intrinsics.add(f"declare {{{aty}, i1}} @{name}({aty}, {aty})")
            pair = line(f"call {{{aty}, i1}} @{name}({aty} {o[0]}, {aty} {o[1]})")
            result = line(f"extractvalue {{{aty}, i1}} {pair}, 1")
        else:
            raise NativeUnsupported(f"operator {op}")
        self.value[t.uid] = result[1:]  # operand() adds the %


_initialised = False


def _llvm():
    global _initialised
    import llvmlite.binding as llvm

    if not _initialised:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        _initialised = True
    return llvm


# Straight-line code is cut into basic blocks of this many instructions: LLVM's instruction
# selection works per block and is far worse than linear in a block's size (one block of
# 215 000 instructions, Problem07's step: 42 s to compile; in blocks of 2 000: 2.7 s).
BLOCK_SIZE = 2000


def step_ir(word: WordTransitionSystem, code: int) -> tuple[str, list[int], tuple[set[int], list[set[int]]]]:
    """LLVM IR of `i32 @step(ptr s, ptr x, ptr out)` for the block with code `code` (1 when U
    holds, then `out` has the next state), the inputs it reads and the state variables it
    reads (`llumc.invariants.simulate.reads_of`)."""
    comp, universal, nexts = _partial_step(word, code, _IRCompiler)
    widths = {v.index: v.width for v in word.state}
    in_widths = {i.index: i.width for i in word.inputs}
    if max([*widths.values(), *in_widths.values()], default=1) > MAX_WIDTH:
        raise NativeUnsupported("a state variable or input wider than 64 bits")
    holds: int | str = 1  # U: the conjunction of its terms
    for u in universal:
        if u == 0 or holds == 0:
            holds = 0
        elif u != 1:
            holds = u if holds == 1 else comp._line(f"and i1 %{holds}, %{u}")[1:]
    body = ["entry:"]
    for kind, leaves, width_of in (("s", comp.state_leaves, widths), ("x", comp.input_leaves, in_widths)):
        for i in sorted(leaves):
            w = width_of[i]
            body.append(f"  %{kind}{i}.p = getelementptr i64, ptr %{kind}, i64 {i}")
            word_name = f"%{kind}{i}" if w == 64 else f"%{kind}{i}.w"
            body.append(f"  {word_name} = load i64, ptr %{kind}{i}.p")
            if w < 64:
                body.append(f"  %{kind}{i} = trunc i64 {word_name} to i{w}")
    for start in range(0, len(comp.lines), BLOCK_SIZE):
        if start:
            body += [f"  br label %b{start}", f"b{start}:"]
        body += comp.lines[start:start + BLOCK_SIZE]
    for v, value in zip(word.state, nexts):
        ptr = f"%o{v.index}.p"
        body.append(f"  {ptr} = getelementptr i64, ptr %out, i64 {v.index}")
        if isinstance(value, int):
            body.append(f"  store i64 {_IRCompiler.operand(value, 64)}, ptr {ptr}")
        elif v.width == 64:
            body.append(f"  store i64 %{value}, ptr {ptr}")
        else:
            body.append(f"  %o{v.index} = zext i{v.width} %{value} to i64")
            body.append(f"  store i64 %o{v.index}, ptr {ptr}")
    if isinstance(holds, int):
        result = str(holds)
    else:
        body.append(f"  %ret = zext i1 %{holds} to i32")
        result = "%ret"
    body.append(f"  ret i32 {result}")
    text = "\n".join(sorted(comp.intrinsics)) + "\ndefine i32 @step(ptr %s, ptr %x, ptr %out) {\n" + "\n".join(body) + "\n}\n"
    return text, sorted(comp.input_leaves), reads_of(comp, universal, nexts)


class NativeStep:
    """fn(s, x) -> next state (list) or None when U fails, like `compile_step(...).fn`."""

    def __init__(self, word: WordTransitionSystem, code: int):
        llvm = _llvm()
        text, self.inputs, self.reads = step_ir(word, code)
        module = llvm.parse_assembly(text)
        module.triple = llvm.get_process_triple()
        module.verify()
        machine = llvm.Target.from_triple(module.triple).create_target_machine(opt=0)
        self._engine = llvm.create_mcjit_compiler(module, machine)
        self._engine.finalize_object()
        address = self._engine.get_function_address("step")
        words = ctypes.POINTER(ctypes.c_uint64)
        self._fn = ctypes.CFUNCTYPE(ctypes.c_int32, words, words, words)(address)
        self._n = len(word.state)
        self._m = max(1, len(word.inputs))
        self._out = (ctypes.c_uint64 * self._n)()

    def __call__(self, s: list[int], x: list[int]) -> list[int] | None:
        state = (ctypes.c_uint64 * self._n)(*s)
        inputs = (ctypes.c_uint64 * self._m)(*x) if x else (ctypes.c_uint64 * self._m)()
        if not self._fn(state, inputs, self._out):
            return None
        return list(self._out)

