"""The control-flow graph of `main` as plain dataclasses, read once from llvmlite.

Why a wrapper: llvmlite's ValueRef is awkward for an encoder. There is no icmp-predicate
accessor (we parse the text), a conditional `br` lists its operands as [cond, false_dest,
true_dest], unnamed values have the empty name (we key values by their LLVM address and name
them by position, `%<n>`), and constants are best read exactly from their text (`i64
-9223372036854775808`, `i1 true`). Everything unexpected raises `UnsupportedError` naming the
instruction and its C line.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field

from llumc.errors import UnsupportedError

ICMP_PREDICATES = ("eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle")


@dataclass(frozen=True)
class Const:
    value: int  # unsigned, masked to width
    width: int


@dataclass(frozen=True)
class Ref:
    key: int  # address of the defining instruction
    name: str


@dataclass(frozen=True)
class Undef:
    width: int


Operand = Const | Ref | Undef


@dataclass
class Instr:
    opcode: str
    key: int
    name: str  # "%x.0", or "%<position>" for unnamed values, "" for void
    width: int  # bits of the result; {iN, i1} counts N+1; 0 for void
    operands: list[Operand] = field(default_factory=list)
    predicate: str | None = None  # icmp
    incoming: list[tuple[Operand, str]] = field(default_factory=list)  # phi: (value, block)
    targets: list[str] = field(default_factory=list)  # br: [true, false] or [dest]; switch: [default]
    cases: list[tuple[int, str]] = field(default_factory=list)  # switch: (value, block)
    callee: str | None = None
    index: int | None = None  # extractvalue
    line: int | None = None
    text: str = ""

    def where(self) -> str:
        return f"line {self.line}" if self.line else "unknown line"


@dataclass
class Block:
    name: str
    instrs: list[Instr]
    line: int | None = None


@dataclass
class Function:
    blocks: list[Block]
    source: str = ""

    def block(self, name: str) -> Block:
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(name)


def _address(value) -> int:
    return ctypes.cast(value._ptr, ctypes.c_void_p).value


def type_width(type_text: str) -> int | None:
    """`i32` -> 32, `{ i32, i1 }` -> 33, `void` -> 0, anything else -> None."""
    t = type_text.strip()
    if t == "void":
        return 0
    m = re.fullmatch(r"i(\d+)", t)
    if m:
        return int(m.group(1))
    m = re.fullmatch(r"\{\s*i(\d+),\s*i1\s*\}", t)
    if m:
        return int(m.group(1)) + 1
    return None


def parse_constant(text: str, width: int) -> int:
    """Exact value of an integer constant operand from its text, unsigned."""
    token = text.strip().split()[-1]
    if token == "true":
        return 1
    if token == "false":
        return 0
    return int(token) & ((1 << width) - 1)


def _first_line(instr) -> str:
    return str(instr).strip().split("\n")[0]


def read_main(module, debug=None, source: str = "") -> Function:
    """Wrap `main` of an llvmlite module (already through the front end)."""
    try:
        fn = module.get_function("main")
    except NameError as err:
        raise UnsupportedError(f"{source}: no function main") from err
    names: dict[int, str] = {}
    position = 0
    raw_blocks = list(fn.blocks)
    block_names: dict[int, str] = {}
    for bi, block in enumerate(raw_blocks):
        block_names[_address(block)] = block.name or f"bb{bi}"
        for instr in block.instructions:
            if instr.name:
                names[_address(instr)] = f"%{instr.name}"
            elif str(instr.type) != "void":
                names[_address(instr)] = f"%{position}"
                position += 1

    def line_of(text: str) -> int | None:
        return debug.line_of(text) if debug is not None else None

    blocks: list[Block] = []
    for bi, block in enumerate(raw_blocks):
        instrs: list[Instr] = []
        for instr in block.instructions:
            text = _first_line(instr)
            line = line_of(str(instr))
            where = f"{source}:{line}" if line else source or "main"
            opcode = instr.opcode
            width = type_width(str(instr.type))
            if width is None:
                raise UnsupportedError(f"{where}: unsupported type {instr.type} in `{text}`")

            def operand(value, instr_text=text) -> Operand:
                kind = value.value_kind.name
                w = type_width(str(value.type))
                if kind == "constant_int":
                    return Const(parse_constant(str(value), w), w)
                if kind in ("undef_value", "poison_value"):
                    return Undef(w or 0)
                if kind == "instruction":
                    if w is None:
                        raise UnsupportedError(f"{where}: unsupported operand type {value.type} in `{instr_text}`")
                    return Ref(_address(value), names[_address(value)])
                if kind == "argument":
                    raise UnsupportedError(f"{where}: main's arguments are not supported (`{instr_text}`)")
                raise UnsupportedError(f"{where}: unsupported operand `{str(value).strip()[:60]}` in `{instr_text}`")

            ops = list(instr.operands)
            item = Instr(opcode, _address(instr), names.get(_address(instr), ""), width, line=line, text=text)
            if opcode == "br":
                if len(ops) == 1:
                    item.targets = [block_names[_address(ops[0])]]
                else:
                    item.operands = [operand(ops[0])]
                    item.targets = [block_names[_address(ops[2])], block_names[_address(ops[1])]]
            elif opcode == "switch":
                item.operands = [operand(ops[0])]
                item.targets = [block_names[_address(ops[1])]]
                # LLVM 22 keeps case values out of the operand list: operands are [cond,
                # default, dest...]; the values come from the text, in the same order.
                cond_width = type_width(str(ops[0].type)) or 0
                values = re.findall(r"\bi\d+ (-?\d+|true|false), label ", str(instr))
                dests = [o for o in ops[2:] if o.value_kind.name == "basic_block"]
                if len(ops) > 2 and ops[2].value_kind.name != "basic_block":  # older LLVM: value, dest pairs
                    dests = ops[3::2]
                if len(values) != len(dests):
                    raise UnsupportedError(f"{where}: cannot read switch cases in `{text}`")
                for value, dest in zip(values, dests):
                    item.cases.append((parse_constant(value, cond_width), block_names[_address(dest)]))
            elif opcode == "phi":
                item.incoming = [
                    (operand(v), block_names[_address(b)]) for v, b in zip(ops, instr.incoming_blocks)
                ]
            elif opcode == "call":
                callee = ops[-1]
                if callee.value_kind.name != "function":
                    raise UnsupportedError(f"{where}: indirect call `{text}`")
                item.callee = callee.name
                item.operands = [operand(v) for v in ops[:-1]]
            elif opcode == "extractvalue":
                item.operands = [operand(ops[0])]
                m = re.search(r",\s*(\d+)\s*(?:,|$)", text)
                if not m:
                    raise UnsupportedError(f"{where}: cannot read extractvalue index in `{text}`")
                item.index = int(m.group(1))
            else:
                item.operands = [operand(v) for v in ops]
                if opcode == "icmp":
                    m = re.search(r"= icmp (\w+) ", text)
                    if not m or m.group(1) not in ICMP_PREDICATES:
                        raise UnsupportedError(f"{where}: cannot read icmp predicate in `{text}`")
                    item.predicate = m.group(1)
            instrs.append(item)
        name = block_names[_address(block)]
        block_line = debug.block_line.get(name) if debug is not None else None
        blocks.append(Block(name, instrs, block_line))
    return Function(blocks, source)
