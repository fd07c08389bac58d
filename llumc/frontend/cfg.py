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
import functools
import re
import struct
from dataclasses import dataclass, field

from llumc.errors import UnsupportedError

# A pointer in a register (llumc/encoding/memory.py): an 8-bit object id above a 64-bit byte offset.
POINTER_WIDTH = 72

ICMP_PREDICATES = ("eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle")
FCMP_PREDICATES = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                   "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")
# IEEE binary32 and binary64: values travel as their bit patterns (llumc.encoding.floats);
# half, bfloat, x86_fp80 (long double) and fp128 are not supported (`type_width` gives None)
FLOAT_WIDTHS = {"float": 32, "double": 64}

# The classes below are slotted: RERS's main has 280 000 instructions and their operands, and
# slots make each smaller (the back half's peak memory 689 -> 645 MB on Problem07_label00).


@dataclass(frozen=True, slots=True)
class Const:
    value: int  # unsigned, masked to width
    width: int


@dataclass(frozen=True, slots=True)
class Ref:
    key: int  # address of the defining instruction
    name: str


@dataclass(frozen=True, slots=True)
class Undef:
    width: int


@dataclass(frozen=True, slots=True)
class GlobalAddr:
    """`@name` used as a value: the address of a global object (llumc/encoding/memory.py)."""

    name: str
    width: int = POINTER_WIDTH


@dataclass(frozen=True, slots=True)
class Literal:
    """An aggregate constant (`zeroinitializer`, `[i32 1, i32 2]`, `c"ab"`) stored to memory."""

    type_text: str
    text: str
    width: int = 0


Operand = Const | Ref | Undef | GlobalAddr | Literal


@dataclass(slots=True)
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
    mem_type: str | None = None  # alloca: allocated type; load/store: accessed type; GEP: source type
    line: int | None = None
    text: str = ""

    def where(self) -> str:
        return f"line {self.line}" if self.line else "unknown line"


@dataclass(slots=True)
class Block:
    name: str
    instrs: list[Instr]
    line: int | None = None


@dataclass
class Function:
    blocks: list[Block]
    source: str = ""
    module: object = None  # the llvmlite module (llumc/encoding/memory.py reads type layouts from it)
    # name -> block, rebuilt when a name is missing or stale: the encoders look blocks up by
    # name per block and per edge (a linear search was quadratic in the 24 000 blocks of RERS)
    _by_name: dict[str, Block] = field(default_factory=dict, init=False, repr=False, compare=False)

    def block(self, name: str) -> Block:
        found = self._by_name.get(name)
        if found is None or found.name != name:
            self._by_name = {}
            for b in self.blocks:
                self._by_name.setdefault(b.name, b)
            found = self._by_name.get(name)
            if found is None:
                raise KeyError(name)
        return found


def _address(value) -> int:
    return ctypes.cast(value._ptr, ctypes.c_void_p).value


@functools.lru_cache(maxsize=1024)
def type_width(type_text: str) -> int | None:
    """`i32` -> 32, `{ i32, i1 }` -> 33, `void` -> 0, anything else -> None."""
    t = type_text.strip()
    if t == "void":
        return 0
    if t == "ptr":
        return POINTER_WIDTH
    if t in FLOAT_WIDTHS:
        return FLOAT_WIDTHS[t]
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


def float_constant(type_text: str, token: str) -> int | None:
    """The bit pattern of an LLVM floating-point constant of type `float` or `double`, or None
    if `token` is not one. LLVM prints a constant in decimal (`1.500000e+00`) only when that
    text reads back exactly, otherwise as the hex bits of the *double* it equals (`float
    0x3FB99999A0000000` is 0.1f: a float constant is printed as the double of the same value,
    NaN payloads shifted to the double's position)."""
    width = FLOAT_WIDTHS.get(type_text.strip())
    if width is None:
        return None
    if token.startswith("0x"):
        if not re.fullmatch(r"0x[0-9A-Fa-f]{16}", token):
            return None
        bits = int(token[2:], 16)
        if width == 64:
            return bits
        exponent, fraction = bits >> 52 & 0x7FF, bits & ((1 << 52) - 1)
        if exponent == 0x7FF:  # inf or NaN: the float's payload is the double's top 23 bits
            return (bits >> 63) << 31 | 0xFF << 23 | fraction >> 29
        value = struct.unpack("<d", bits.to_bytes(8, "little"))[0]
        return int.from_bytes(struct.pack("<f", value), "little")
    if not re.fullmatch(r"-?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?", token):
        return None
    value = float(token)
    packed = struct.pack("<f", value) if width == 32 else struct.pack("<d", value)
    return int.from_bytes(packed, "little")


def _first_line(instr) -> str:
    return str(instr).strip().split("\n")[0]


# the inliner's declaration of a callee's `restrict` or sret parameter's alias scope: a hint
# for alias analysis with a metadata operand and no effect, left out of the Function
_NOALIAS_SCOPE = "@llvm.experimental.noalias.scope.decl("


def read_main(module, debug=None, source: str = "", text: str | None = None) -> Function:
    """Wrap `main` of an llvmlite module (already through the front end). Read from the
    module's text (`text`, or printed once here) when every instruction of main is of a form
    `_read_main_text` knows; otherwise through llvmlite's values, which is the reference and
    gives the exact error for what is not supported.

    Why the text: llvmlite prints one instruction (`str(instr)`, needed for predicates, case
    values, C lines) with a slot tracker built over the whole function, about 40 ms each in the
    280 000-instruction `main` of the RERS programs (hours in all), and walking the operands
    through its FFI took 47 s there; the text of main is printed once and read in seconds."""
    if text is None:
        try:
            text = str(module.get_function("main"))
        except NameError:
            text = ""
    fn = _read_main_text(text, debug, source) if text else None
    if fn is None:
        fn = _read_main_llvmlite(module, debug, source)
    fn.module = module
    return fn


# --------------------------------------------------------------------------- from the text

class _Unread(Exception):
    """An instruction form the text reader does not know: read through llvmlite instead."""


_NAME = r'%(?:[-\w.$]+|"[^"]*")'
_DEFINE_MAIN = re.compile(r"^define [^\n]*@main\(", re.M)
_LABEL = re.compile(r'^([-\w.$]+|"[^"]*"):(?:\s*;.*)?$')
_ASSIGN = re.compile(r"^(" + _NAME + r") = (.*)$")
_ATTRIBUTE_GROUPS = re.compile(r"(?: #\d+)+$")
_INT_TYPE = re.compile(r"i(\d+)$")
_CALL_TEXT = re.compile(r"^call (?:[\w()]+ )*?(\{[^}]*\}|\S+) (@[\w.$]+|@\"[^\"]+\")\((.*)\)$")
_FLAGS = {"nuw", "nsw", "exact", "disjoint", "samesign", "nneg",
          # fast-math flags (clang sets none unless asked, e.g. -ffast-math); the encoding
          # is IEEE's whatever they allow, which is one of the behaviours they permit
          "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "fast"}
# the common operand forms, read without split_top and typed_width (same results: an integer
# type, then a name or an integer constant; anything else goes the general way)
_TOKEN = r"(%[-\w.$]+|-?[0-9]+|true|false)"
_FAST_BINARY = re.compile(r"(i[0-9]+) " + _TOKEN + ", " + _TOKEN)
_FAST_SELECT = re.compile(r"(i[0-9]+) " + _TOKEN + r", (i[0-9]+) " + _TOKEN + r", (i[0-9]+) " + _TOKEN)
_FAST_BRANCH = re.compile(r"(i[0-9]+) " + _TOKEN + r", label (%[-\w.$]+), label (%[-\w.$]+)")
_PHI_PAIRS = re.compile(r"\[([^\]]*)\]")
_FAST_PHI_PAIR = re.compile(r" " + _TOKEN + r", (%[-\w.$]+) ")  # split_top's answer, if it matches
_BINARY = {"add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor"}


def _bare(name: str) -> str:
    """`%"a b"` -> `a b`, `%x.0` -> `x.0` (the name llvmlite reports)."""
    name = name[1:]
    return name[1:-1] if name.startswith('"') else name


def split_type(text: str) -> tuple[str, str]:
    """`[2 x i32] [i32 1, i32 2]` -> ("[2 x i32]", "[i32 1, i32 2]"); `i32 %x` -> ("i32", "%x")."""
    text = text.strip()
    if text[:1] in "[{<":
        depth = 0
        for i, ch in enumerate(text):
            if ch in "[{<":
                depth += 1
            elif ch in "]}>":
                depth -= 1
                if depth == 0:
                    return text[:i + 1], text[i + 1:].strip()
    ty, _, rest = text.partition(" ")
    return ty, rest


_NESTING = re.compile(r'[(\[{<"]')


def split_top(text: str) -> list[str]:
    """Split at commas outside brackets, braces and string constants (`c"a,b"`)."""
    if not _NESTING.search(text):
        return [p for p in (part.strip() for part in text.split(",")) if p]
    parts, depth, start = [], 0, 0
    in_string = False
    for i, ch in enumerate(text):
        if ch == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _read_main_text(text: str, debug, source: str) -> Function | None:
    """main from its printed text (see `read_main`), or None if some instruction is not of a
    form read here. Instruction keys are positions (unique, as the llvmlite reader's addresses)."""
    match = _DEFINE_MAIN.search(text)
    if match is None:
        return None
    start = match.start()
    end = text.find("\n}\n", start)
    if end < 0:
        end = text.find("\n}", start)
    lines = text[start:end].split("\n")
    if "(" in lines[0][lines[0].index("@main(") + 6:].split(")", 1)[0].strip().replace("...", ""):
        return None  # parameters: the llvmlite reader reports their use
    # one pass: blocks, instruction lines, and the names they define (keys are positions)
    raw_blocks: list[tuple[str, list[str]]] = []
    label_of: dict[str, str] = {}
    names: dict[str, Ref] = {}  # text name -> Ref(key, our name), the operand naming it
    position = 0  # unnamed values: %<position>
    key = 0
    current: list[str] | None = None
    rest = iter(lines)
    next(rest)  # the `define` line
    for line in rest:
        code = line.strip()
        if not code or code.startswith((";", "#dbg_")) or _NOALIAS_SCOPE in code:
            continue
        if line[0] != " ":
            label = _LABEL.match(line)
            if label is None:
                return None
            raw = "%" + label.group(1)
            name = _bare(raw) if not label.group(1).isdigit() else ""
            current = []
            label_of[raw] = name or f"bb{len(raw_blocks)}"
            raw_blocks.append((label_of[raw], current))
            continue
        if current is None:  # unnamed entry block without a label line
            current = []
            raw_blocks.append(("bb0", current))
        if code.startswith("switch ") and code.endswith("["):
            for more in rest:  # its case lines, through the one starting with "]"
                more = more.strip()
                code += "\n" + more
                if more.startswith("]"):
                    break
        current.append(code)
        key += 1
        if code[0] != "%":  # (a switch's code, the only one of several lines, starts with "switch")
            continue
        if code[1:2] != '"':
            # _ASSIGN's match for an unquoted name (no space in it: the first " = " ends it);
            # such a name is its own `%` + _bare(name)
            equals = code.find(" = ")
            if equals >= 0:
                raw = code[:equals]
                if raw[1:].isdigit():
                    names[raw] = Ref(key, f"%{position}")
                    position += 1
                else:
                    names[raw] = Ref(key, raw)
        else:
            assign = _ASSIGN.match(code)
            if assign is not None:
                raw = assign.group(1)
                if raw[1:].isdigit():
                    names[raw] = Ref(key, f"%{position}")
                    position += 1
                else:
                    names[raw] = Ref(key, f"%{_bare(raw)}")
    if not raw_blocks:
        return None
    try:
        return _build_from_text(raw_blocks, label_of, names, debug, source)
    except _Unread:
        return None


class _OperandReader:
    """Reads operand texts of main's instructions into Operands (names through `names`, the
    blocks' labels through `label_of`); raises _Unread for any form it does not know.

    value() and typed_width() are pure functions of their text here, so each distinct operand
    text is read once and kept (RERS's main reads the same few state values 800 000 times).
    Callers read `typed_widths` themselves where a hit saves a call."""

    def __init__(self, names: dict[str, Ref], label_of: dict[str, str]) -> None:
        self.names = names
        self.label_of = label_of
        self.widths: dict[str, int] = {}
        self.values: dict[tuple[str, str], Operand] = {}
        self.typed_widths: dict[str, tuple[Operand, int]] = {}

    def width_of(self, ty: str) -> int:
        w = self.widths.get(ty)
        if w is None:
            w = type_width(ty)
            if w is None:
                raise _Unread(ty)
            self.widths[ty] = w
        return w

    def value(self, ty: str, token: str) -> Operand:
        found = self.values.get((ty, token))
        if found is None:
            found = self.values[(ty, token)] = self._read_value(ty, token)
        return found

    def _read_value(self, ty: str, token: str) -> Operand:
        w = self.width_of(ty)
        if token.startswith("%"):
            if token not in self.names or not _INT_TYPE.match(ty) and not ty.startswith("{") \
                    and ty != "ptr" and ty not in FLOAT_WIDTHS:
                raise _Unread(token)
            return self.names[token]
        if ty in FLOAT_WIDTHS:
            bits = float_constant(ty, token)
            if bits is None:
                raise _Unread(token)
            return Const(bits, w)
        if ty == "ptr":
            if token == "null":
                return Const(0, w)
            if token.startswith("@"):
                return GlobalAddr(token[2:-1] if token.startswith('@"') else token[1:])
            raise _Unread(token)
        if token in ("undef", "poison"):
            return Undef(w)
        if token in ("true", "false") or (token[1:] if token[:1] == "-" else token).isdecimal():
            if not _INT_TYPE.match(ty):
                raise _Unread(token)
            return Const(parse_constant(token, w), w)
        raise _Unread(token)

    def typed_width(self, text: str) -> tuple[Operand, int]:
        """`i32 %x`, `i1 true`, `{ i32, i1 } %s`, with parameter attributes between."""
        found = self.typed_widths.get(text)
        if found is None:
            found = self.typed_widths[text] = self._read_typed_width(text)
        return found

    def _read_typed_width(self, text: str) -> tuple[Operand, int]:
        text = text.strip()
        if text.startswith("{"):
            ty, rest = text[:text.index("}") + 1], text[text.index("}") + 1:]
        else:
            ty, _, rest = text.partition(" ")
        words = rest.split()
        if not words:
            raise _Unread(text)
        return self.value(ty, words[-1]), self.width_of(ty)

    def typed(self, text: str) -> Operand:
        return self.typed_width(text)[0]

    def int_operand(self, ty: str, token: str) -> Operand:
        """`value(ty, token)` for an integer type `ty` (the fast paths' operands), a name's
        Ref straight from `names` (it does not depend on the type)."""
        if token[0] == "%":
            found = self.names.get(token)
            if found is None:
                raise _Unread(token)
            return found
        return self.value(ty, token)

    def label(self, token: str) -> str:
        token = token.strip()
        if not token.startswith("label "):
            raise _Unread(token)
        target = token[6:].strip()
        if target not in self.label_of:
            raise _Unread(target)
        return self.label_of[target]


def _build_from_text(raw_blocks, label_of, names, debug, source) -> Function:
    """The Function of main's blocks as `_read_main_text` collected them. Each instruction's
    head (debug line, assigned name, opcode, flags) is read here, its operands here too for
    the common forms of the opcodes that make up nearly all of RERS's 311 525 instructions
    (icmp, select, the binary operators, br), by `_OTHER_OPCODES` and the `_read_*`
    functions for the rest: no call per instruction beyond the operand reads on the hot
    path."""
    reader = _OperandReader(names, label_of)
    width_of, typed, int_operand = reader.width_of, reader.typed, reader.int_operand
    # an icmp's operand text -> (operands, predicate): RERS's 138 659 icmps have 54 texts
    icmps: dict[str, tuple[tuple[Operand, Operand], str]] = {}
    locations = debug.locations if debug is not None else {}
    blocks: list[Block] = []
    key = 0
    for block_name, codes in raw_blocks:
        instrs: list[Instr] = []
        block_line = None  # the line of its first instruction that has one (as DebugInfo.block_line)
        for full in codes:
            key += 1
            if "\n" in full:  # a switch
                text = full.split("\n", 1)[0]  # as the llvmlite reader: the first line
                code = full.replace("\n", " ").split(", !", 1)[0]
            else:
                text = full
                cut = full.find(", !")
                code = full if cut < 0 else full[:cut]
            # debug.line_of(text), its usual case inline (the last `!dbg !N` ends the line)
            line = None
            if debug is not None:
                at = text.rfind("!dbg !")
                if at >= 0:
                    attachment = text[at + 6:]
                    if attachment.isdecimal():
                        location = locations.get(int(attachment))
                        line = location[0] if location and location[0] > 0 else None
                    else:
                        line = debug.line_of(text)
                if block_line is None:
                    if "\n" in full:  # a switch: its attachment is on its last line
                        block_line = next(filter(None, map(debug.line_of, full.split("\n"))), None)
                    else:
                        block_line = line
            if " #" in code:  # the regex on every instruction cost a second on RERS programs
                code = _ATTRIBUTE_GROUPS.sub("", code)
            if code[:1] != "%":  # no assignment (the regex below needs a leading %)
                raw, name = None, ""
            elif code[1:2] != '"':
                # _ASSIGN's match for an unquoted name (no space in it: the first " = " ends it)
                equals = code.find(" = ")
                if equals >= 0:
                    raw, code = code[:equals], code[equals + 3:]
                    name = names[raw].name
                else:
                    raw, name = None, ""
            else:
                assign = _ASSIGN.match(code)
                if assign:
                    raw, code = assign.group(1), assign.group(2)
                    name = names[raw].name
                else:
                    raw, name = None, ""
            if code.startswith(("tail ", "musttail ", "notail ")):
                for prefix in ("tail ", "musttail ", "notail "):
                    if code.startswith(prefix):
                        code = code[len(prefix):]
            opcode, _, rest = code.partition(" ")
            if rest.split(" ", 1)[0] in _FLAGS:
                words = rest.split(" ")
                while words and words[0] in _FLAGS:
                    words.pop(0)
                rest = " ".join(words)
            item = Instr(opcode, key, name, 0, line=line, text=text)
            if opcode == "icmp":
                found = icmps.get(rest)
                if found is None:
                    predicate, _, operands = rest.partition(" ")
                    if predicate not in ICMP_PREDICATES:
                        raise _Unread(predicate)
                    a, b = split_top(operands)
                    found = icmps[rest] = ((typed(a), typed(a.split(" ", 1)[0] + " " + b)), predicate)
                item.operands = list(found[0])
                item.predicate = found[1]
                item.width = 1
            elif opcode == "select":
                fast = _FAST_SELECT.fullmatch(rest)
                if fast is not None:
                    ty0, v0, ty1, v1, ty2, v2 = fast.groups()
                    item.operands = [int_operand(ty0, v0), int_operand(ty1, v1), int_operand(ty2, v2)]
                    item.width = width_of(ty1)
                else:
                    _read_select(item, rest, code, reader)
            elif opcode in _BINARY:
                fast = _FAST_BINARY.fullmatch(rest)
                if fast is not None:
                    ty, v0, v1 = fast.groups()
                    item.operands = [int_operand(ty, v0), int_operand(ty, v1)]
                    item.width = width_of(ty)
                else:
                    _read_binary(item, rest, code, reader)
            elif opcode == "br" and (fast := _FAST_BRANCH.fullmatch(rest)) is not None:
                ty, v0, then, other = fast.groups()
                if then not in label_of or other not in label_of:
                    raise _Unread(rest)
                item.operands = [int_operand(ty, v0)]
                item.targets = [label_of[then], label_of[other]]
            else:
                read_other = _OTHER_OPCODES.get(opcode)
                if read_other is None:
                    raise _Unread(opcode)
                read_other(item, rest, code, reader)
            if raw is None and item.width and opcode != "call":
                raise _Unread(code)
            if raw is not None and not item.width:
                raise _Unread(code)
            instrs.append(item)
        blocks.append(Block(block_name, instrs, block_line))
    return Function(blocks, source)


# The operands of what `_build_from_text` does not read itself: each reader fills `item`
# from `rest` (the text after the opcode and its flags) or `code` (the whole instruction
# after its assignment), raising _Unread for a form it does not know.

def _read_select(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    """A select that `_FAST_SELECT` does not match (a constant of another form, a pointer)."""
    parts = split_top(rest)
    if len(parts) != 3:
        raise _Unread(rest)
    typed_widths, typed_width = reader.typed_widths, reader.typed_width
    condition = typed_widths.get(parts[0]) or typed_width(parts[0])
    chosen = typed_widths.get(parts[1]) or typed_width(parts[1])
    other = typed_widths.get(parts[2]) or typed_width(parts[2])
    item.operands = [condition[0], chosen[0], other[0]]
    item.width = chosen[1]


def _read_binary(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    """A binary operator that `_FAST_BINARY` does not match; the second operand has the
    first one's type."""
    a, b = split_top(rest)
    first, item.width = reader.typed_widths.get(a) or reader.typed_width(a)
    b = a[:a.index(" ")] + " " + b if " " in a else a + " " + b  # a.split(" ", 1)[0]
    item.operands = [first, (reader.typed_widths.get(b) or reader.typed_width(b))[0]]


def _read_phi(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    """`phi i32 [ %a, %bb1 ], [ 0, %bb2 ]` (RERS: return blocks of 10 000 pairs)."""
    ty, _, pairs = rest.partition(" ")
    item.width = reader.width_of(ty)
    label_of, value = reader.label_of, reader.value
    for pair in _PHI_PAIRS.findall(pairs):
        fast = _FAST_PHI_PAIR.fullmatch(pair)
        v, b = fast.groups() if fast is not None else split_top(pair)
        if b not in label_of:
            raise _Unread(b)
        item.incoming.append((value(ty, v), label_of[b]))


def _read_cast(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    """zext, sext, trunc: `i8 %x to i32`."""
    arg, sep, to = rest.rpartition(" to ")
    if not sep:
        raise _Unread(rest)
    item.operands = [reader.typed(arg)]
    item.width = reader.width_of(to.strip())


def _read_fcmp(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    """`fcmp olt double %x, 1.000000e+00`."""
    predicate, _, operands = rest.partition(" ")
    if predicate not in FCMP_PREDICATES:
        raise _Unread(predicate)
    a, b = split_top(operands)
    ty = a.split(" ", 1)[0]
    item.operands = [reader.typed(a), reader.typed(ty + " " + b)]
    item.predicate = predicate
    item.width = 1


def _read_freeze(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    operand, item.width = reader.typed_width(rest)
    item.operands = [operand]


def _read_extractvalue(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    """Only the value or the overflow bit of an `{ iN, i1 }` (the overflow intrinsics)."""
    parts = split_top(rest)
    if len(parts) != 2 or not parts[1].isdigit():
        raise _Unread(rest)
    struct = re.fullmatch(r"\{\s*i(\d+),\s*i1\s*\}", parts[0][:parts[0].index("}") + 1]) \
        if parts[0].startswith("{") else None
    if struct is None:
        raise _Unread(rest)
    item.operands = [reader.typed(parts[0])]
    item.index = int(parts[1])
    if item.index == 0:
        item.width = int(struct.group(1))
    elif item.index == 1:
        item.width = 1
    else:
        raise _Unread(rest)


def _read_call(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    """A direct call with plain operands (no metadata operands, no inline assembly)."""
    call = _CALL_TEXT.match(code)
    if call is None or "metadata" in call.group(3) or "asm" in code.split("(", 1)[0]:
        raise _Unread(code)
    item.width = reader.width_of(call.group(1))
    callee = call.group(2)[1:]
    item.callee = callee[1:-1] if callee.startswith('"') else callee
    item.operands = [reader.typed(a) for a in split_top(call.group(3))]


def _read_branch(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    """A br that `_FAST_BRANCH` does not match: unconditional, or an unusual condition."""
    parts = split_top(rest)
    if len(parts) == 1:
        item.targets = [reader.label(parts[0])]
    elif len(parts) == 3:
        item.operands = [(reader.typed_widths.get(parts[0]) or reader.typed_width(parts[0]))[0]]
        item.targets = [reader.label(parts[1]), reader.label(parts[2])]
    else:
        raise _Unread(rest)


def _read_switch(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    """`switch i32 %x, label %default [ i32 1, label %a ... ]`, its case lines joined."""
    head, _, body = rest.partition("[")
    cond, default = split_top(head)
    operand, cond_width = reader.typed_width(cond)
    item.operands = [operand]
    item.targets = [reader.label(default)]
    for case in re.findall(r"\bi\d+ (-?\d+|true|false), (label " + _NAME + ")", body.rsplit("]", 1)[0]):
        item.cases.append((parse_constant(case[0], cond_width), reader.label(case[1])))
    if body.count("label") != len(item.cases):
        raise _Unread(rest)


def _read_alloca(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    parts = split_top(rest)
    item.mem_type = parts[0]
    item.width = POINTER_WIDTH
    if len(parts) > 1 and not parts[1].startswith(("align ", "addrspace")):
        item.operands = [reader.typed(parts[1])]


def _read_load(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    parts = split_top(rest.removeprefix("volatile "))
    if len(parts) < 2:
        raise _Unread(rest)
    item.mem_type = parts[0]
    item.width = reader.width_of(parts[0])
    item.operands = [reader.typed(parts[1])]


def _read_store(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    """The stored value's operand, or a Literal for an aggregate constant."""
    parts = split_top(rest.removeprefix("volatile "))
    if len(parts) < 2:
        raise _Unread(rest)
    ty, stored = split_type(parts[0])
    item.mem_type = ty
    if ty.startswith(("[", "%")) or ty.startswith("{") and type_width(ty) is None:
        item.operands = [Literal(ty, stored.strip()), reader.typed(parts[1])]  # an aggregate constant
    else:
        item.operands = [reader.typed(parts[0]), reader.typed(parts[1])]


def _read_getelementptr(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    words = rest.split(" ")
    while words and (words[0] in ("inbounds", "nuw", "nusw") or words[0].startswith("inrange(")):
        words.pop(0)
    parts = split_top(" ".join(words))
    item.mem_type = parts[0]
    item.width = POINTER_WIDTH
    item.operands = [reader.typed(p) for p in parts[1:]]


def _read_ret(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    if rest.strip() != "void":
        item.operands = [reader.typed(rest)]


def _read_nothing(item: Instr, rest: str, code: str, reader: _OperandReader) -> None:
    """unreachable: no operands."""


_OTHER_OPCODES = {
    "zext": _read_cast, "sext": _read_cast, "trunc": _read_cast,
    "freeze": _read_freeze,
    # floating point (llumc.encoding.floats): binary operators read as the integer ones,
    # fneg as freeze (one typed operand), conversions as casts
    "fadd": _read_binary, "fsub": _read_binary, "fmul": _read_binary, "fdiv": _read_binary,
    "frem": _read_binary, "fneg": _read_freeze, "fcmp": _read_fcmp,
    "fptosi": _read_cast, "fptoui": _read_cast, "sitofp": _read_cast, "uitofp": _read_cast,
    "fpext": _read_cast, "fptrunc": _read_cast, "bitcast": _read_cast,
    "extractvalue": _read_extractvalue,
    "phi": _read_phi,
    "call": _read_call,
    "br": _read_branch,
    "switch": _read_switch,
    "alloca": _read_alloca,
    "load": _read_load,
    "store": _read_store,
    "getelementptr": _read_getelementptr,
    "ret": _read_ret,
    "unreachable": _read_nothing,
}


# --------------------------------------------------------------------------- through llvmlite

def _read_main_llvmlite(module, debug=None, source: str = "") -> Function:
    """The reference reader: llvmlite's values (slow on large functions, see `read_main`)."""
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
            if _NOALIAS_SCOPE in text:
                continue
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
                if kind == "constant_fp":
                    ty, _, token = str(value).strip().partition(" ")
                    bits = float_constant(ty, token.strip())
                    if bits is not None:
                        return Const(bits, w)
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
                if opcode in ("icmp", "fcmp"):
                    known = ICMP_PREDICATES if opcode == "icmp" else FCMP_PREDICATES
                    m = re.search(rf"= {opcode} ((?:[a-z]+ )+)", text)  # flags, then the predicate
                    words = [w for w in (m.group(1).split() if m else []) if w in known]
                    if not words:
                        raise UnsupportedError(f"{where}: cannot read {opcode} predicate in `{text}`")
                    item.predicate = words[0]
            instrs.append(item)
        name = block_names[_address(block)]
        block_line = debug.block_line.get(name) if debug is not None else None
        blocks.append(Block(name, instrs, block_line))
    return Function(blocks, source)
