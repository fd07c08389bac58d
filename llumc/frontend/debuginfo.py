"""C-level information (source lines, variable names) recovered from an LLVM module's text.

Why parse text: llvmlite's ValueRef has no metadata accessors, but `str(instr)` shows the
`!dbg !N` attachment and the module text holds `!N = !DILocation(line: L, ...)`,
`!DILocalVariable(name: ...)` and the `#dbg_value`/`#dbg_declare` records that tie SSA values to
C variables. Globals that the front end turned into locals carry a `DILocalVariable` with the
global's name, so they are found the same way.

Example:
    info = DebugInfo.from_module_text(str(module))
    info.line_of(str(instr))          # C line of an instruction, or None
    info.block_line["while.body"]     # representative C line of a basic block of main
    info.value_names["x.0"]           # ["x"]: C variables that SSA value %x.0 holds
    info.scope_at("while.cond")       # which SSA value holds each C variable there, the loop's
                                      # (line, column) and function (flow-sensitive, see ScopeAt)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_LOCATION = re.compile(r"^!(\d+) = (?:distinct )?!DILocation\(line: (\d+)(?:, column: (\d+))?",
                       re.M)
_VARIABLE = re.compile(
    r"^!(\d+) = (?:distinct )?!DI(?:Local|Global)Variable\(name: \"([^\"]*)\"", re.M)
_VARIABLE_TYPE = re.compile(
    r"^!(\d+) = (?:distinct )?!DI(?:Local|Global)Variable\(name: \"([^\"]*)\"[^\n]*?\btype: !(\d+)", re.M)
# Basic types carry their signedness; typedefs and qualifiers point at a base type.
_BASIC_TYPE = re.compile(r"^!(\d+) = !DIBasicType\([^\n]*?encoding: (DW_ATE_\w+)", re.M)
_DERIVED_TYPE = re.compile(
    r"^!(\d+) = !DIDerivedType\(tag: DW_TAG_(?:typedef|const_type|volatile_type)[^\n]*?baseType: !(\d+)", re.M)
# An array's element type (`int a[5]`, each dimension of `int t[2][3]` one composite type).
_ARRAY_TYPE = re.compile(r"^!(\d+) = !DICompositeType\(tag: DW_TAG_array_type[^\n]*?baseType: !(\d+)", re.M)
_UNSIGNED_ENCODINGS = {"DW_ATE_unsigned", "DW_ATE_unsigned_char", "DW_ATE_boolean"}
_FILE = re.compile(r"^!\d+ = !DIFile\(filename: \"([^\"]*)\"", re.M)
_DBG_ATTACHMENT = re.compile(r"!dbg !(\d+)")
# `#dbg_value(i32 %x.0, !16, !DIExpression(), !17)` (also #dbg_declare / #dbg_assign)
_DBG_RECORD = re.compile(
    r"#dbg_(?:value|declare|assign)\((?:[\w\[\]{}* ]+?) (%[\w.$-]+|%\"[^\"]+\"), !(\d+), "
    r"!DIExpression\(([^)]*)\)")
_NAMED_VALUE = r"%[\w.$-]+|%\"[^\"]+\"|\d+"
# Any dbg record: (type and value, variable, expression, location).
_ANY_DBG_RECORD = re.compile(
    r"#dbg_(?:value|declare|assign)\((.+?), !(\d+), !DIExpression\(([^)]*)\), !(\d+)")
_LABEL = re.compile(r"([\w.$-]+|\"[^\"]+\"|\d+):")
_LABEL_LINE = re.compile(r"^([\w.$-]+|\"[^\"]+\"|\d+):")
_DEFINE_MAIN = re.compile(r"^define [^\n]*@main\(", re.M)
_PHI = re.compile(r"%[^=]+= phi ")
_LABEL_USE = re.compile(r"label %([\w.$-]+|\"[^\"]+\")")
_LOOP_ATTACHMENT = re.compile(r"!llvm\.loop !(\d+)")
_LOOP_NODE = re.compile(r"^!(\d+) = distinct !\{!\d+, !(\d+)", re.M)
_SCOPE_NODE = re.compile(
    r"^!(\d+) = (?:distinct )?!(DISubprogram|DILexicalBlock|DILexicalBlockFile)\(([^\n]*)\)$", re.M)
_LOCAL_VARIABLE = re.compile(
    r"^!(\d+) = (?:distinct )?!DILocalVariable\(name: \"([^\"]*)\"(?:, arg: \d+)?, scope: !(\d+)"
    r"(?:, file: !\d+, line: (\d+))?", re.M)
_LOCATION_DETAIL = re.compile(
    r"^!(\d+) = (?:distinct )?!DILocation\(([^\n]*)\)$", re.M)


def metadata_start(text: str) -> int:
    """Offset of the first line that begins with `!` (len(text) if none). Every `^!N = ...`
    metadata line is at or after it (clang and LLVM's printer put all metadata after the
    functions), so multiline regexes anchored there scan only the metadata: 5 MB instead of
    the 33 MB of a RERS module."""
    if text.startswith("!"):
        return 0
    position = text.find("\n!")
    return len(text) if position < 0 else position + 1


def main_text(text: str) -> str | None:
    """main's definition, from its `define` line to its closing `}` line (the first line that
    is exactly `}`), as `re.search(r"^define [^\\n]*@main\\(.*?^}$", text, re.M | re.S)` finds
    it; str.find for the end: the lazy regex took 0.25 s over RERS's main."""
    define = _DEFINE_MAIN.search(text)
    if define is None:
        return None
    position = text.find("\n}", define.start())
    while position >= 0:
        after = position + 2
        if after == len(text) or text[after] == "\n":
            return text[define.start():after]
        position = text.find("\n}", position + 1)
    return None


def _bare(value: str) -> str:
    """`%x.0` / `%"a b"` → `x.0` / `a b` (the form llvmlite's ValueRef.name uses)."""
    return value[1:].strip('"') if value.startswith("%") else value


@dataclass
class DebugInfo:
    """Source lines and C variable names of one module.

    - `locations`: DILocation metadata id → (line, column)
    - `variables`: DILocalVariable/DIGlobalVariable metadata id → C name
    - `value_names`: SSA value name (without `%`) → C variables it holds (dbg records with an
      empty DIExpression, i.e. the whole variable; in order of first appearance)
    - `value_fragments`: SSA value name → (C variable, first bit, bit count) for values that hold
      a part of a variable (a field of a struct or an element of an array SROA split)
    - `block_line`: basic block name of `main` → line of its first instruction that has one
    - `source_files`: DIFile file names (the compiled C file first)
    """

    locations: dict[int, tuple[int, int]] = field(default_factory=dict)
    variables: dict[int, str] = field(default_factory=dict)
    value_names: dict[str, list[str]] = field(default_factory=dict)
    value_fragments: dict[str, list[tuple[str, int, int]]] = field(default_factory=dict)
    _block_line: "dict[str, int] | None" = field(default=None, repr=False)
    source_files: list[str] = field(default_factory=list)
    # C variables of an unsigned type (unsigned, unsigned char, _Bool): traces print them unsigned.
    unsigned_variables: set[str] = field(default_factory=set)
    # C arrays whose elements are of an unsigned integer type (`unsigned char a[4]`): the loop
    # invariants over their cells compare them unsigned.
    unsigned_elements: set[str] = field(default_factory=set)
    # C variables of type float or double: traces print their bit patterns as numbers.
    float_variables: set[str] = field(default_factory=set)
    # The module text, kept for `scope_at` (computed on first use: only loop invariants need it).
    _text: str = field(default="", repr=False)
    _scopes: "dict[str, ScopeAt] | None" = field(default=None, repr=False)

    @classmethod
    def from_module_text(cls, text: str) -> "DebugInfo":
        info = cls()
        metadata = metadata_start(text)
        for match in _LOCATION.finditer(text, metadata):
            info.locations[int(match.group(1))] = (int(match.group(2)), int(match.group(3) or 0))
        for match in _VARIABLE.finditer(text, metadata):
            info.variables[int(match.group(1))] = match.group(2)
        info.source_files = _FILE.findall(text, metadata)
        info._read_variable_types(text, metadata)
        for match in _DBG_RECORD.finditer(text):
            expression = match.group(3).strip()
            name = info.variables.get(int(match.group(2)))
            if name is None:
                continue
            fragment = re.fullmatch(r"DW_OP_LLVM_fragment, (\d+), (\d+)", expression)
            if fragment:
                part = (name, int(fragment.group(1)), int(fragment.group(2)))
                parts = info.value_fragments.setdefault(_bare(match.group(1)), [])
                if part not in parts:
                    parts.append(part)
                continue
            if expression:  # an offset or a computation: not the variable itself
                continue
            names = info.value_names.setdefault(_bare(match.group(1)), [])
            if name not in names:
                names.append(name)
        info._text = text
        return info

    @property
    def block_line(self) -> dict[str, int]:
        """Read from main's text on first use: the CFG reader that works on the text finds its
        blocks' lines as it reads them (RERS: a second pass over 380 000 lines saved)."""
        if self._block_line is None:
            self._block_line = {}
            self._read_block_lines(self._text)
        return self._block_line

    def _read_variable_types(self, text: str, metadata: int) -> None:
        encoding = {int(m.group(1)): m.group(2) for m in _BASIC_TYPE.finditer(text, metadata)}
        base = {int(m.group(1)): int(m.group(2)) for m in _DERIVED_TYPE.finditer(text, metadata)}
        arrays = {int(m.group(1)): int(m.group(2)) for m in _ARRAY_TYPE.finditer(text, metadata)}

        def basic(type_id: int, through_arrays: bool) -> int:
            for _ in range(16):  # typedef chains are short; a cycle is not valid metadata
                if type_id in base:
                    type_id = base[type_id]
                elif through_arrays and type_id in arrays:
                    type_id = arrays[type_id]
                else:
                    break
            return type_id

        for match in _VARIABLE_TYPE.finditer(text, metadata):
            type_id = int(match.group(3))
            scalar = basic(type_id, through_arrays=False)
            if encoding.get(scalar) in _UNSIGNED_ENCODINGS:
                self.unsigned_variables.add(match.group(2))
            elif encoding.get(scalar) == "DW_ATE_float":
                self.float_variables.add(match.group(2))
            elif scalar in arrays and encoding.get(basic(scalar, through_arrays=True)) in _UNSIGNED_ENCODINGS:
                self.unsigned_elements.add(match.group(2))

    def _read_block_lines(self, text: str) -> None:
        main = main_text(text)
        if main is None:
            return
        block = None
        for line in main.split("\n")[1:]:
            # a label starts in column 0 (instructions and records are indented)
            label = _LABEL_LINE.match(line) if line[:1] not in (" ", "") else None
            if label:
                block = label.group(1).strip('"')
                continue
            if block is None:
                block = "entry"  # unnamed first block
            if block in self._block_line or line.lstrip().startswith("#dbg_"):
                continue
            found = self.line_of(line)
            if found:
                self._block_line[block] = found

    def location_of(self, instr_text: str) -> tuple[int, int] | None:
        """(line, column) of an instruction given as text (`str(instr)`), or None."""
        # The attachment of the instruction itself comes last in its text, after any
        # operand metadata; dbg records printed after it (separate lines) are ignored.
        first_line = instr_text.strip().partition("\n")[0]
        if first_line.startswith("#dbg_"):
            return None
        # the last `!dbg !N`: the last occurrence of `!dbg !` when digits follow it (str.rfind;
        # the reader asks once per instruction, 280 000 times on RERS programs)
        position = first_line.rfind("!dbg !")
        if position < 0:
            return None
        attachment = first_line[position + 6:]
        if not attachment.isdecimal():  # not at the end of the line: the regex finds it
            attachments = _DBG_ATTACHMENT.findall(first_line)
            if not attachments:
                return None
            attachment = attachments[-1]
        location = self.locations.get(int(attachment))
        return location if location and location[0] > 0 else None

    def line_of(self, instr_text: str) -> int | None:
        """C source line of an instruction given as text (`str(instr)`), or None."""
        location = self.location_of(instr_text)
        return location[0] if location else None

    def scope_at(self, block: str) -> "ScopeAt | None":
        """C variables in scope at the entry of `block` (after its phis) and the SSA values that
        hold them, with the block's C location: see ScopeAt."""
        return scope_at(self, block)

    def names_of(self, value_name: str) -> list[str]:
        """C variables an SSA value holds (`x.0` or `%x.0`), possibly empty."""
        return self.value_names.get(_bare(value_name) if value_name.startswith("%") else value_name, [])


# ---------------------------------------------------------------------------- C view of a block


@dataclass(frozen=True)
class ScopeAt:
    """What the C program sees at the entry of one block of main, after its phis.

    `holders` maps each C variable in scope there to the SSA value (name without `%`) that holds
    it: the value of the variable's last `#dbg_value` on every path to the block. A variable whose
    last record differs between paths (and no phi of the block resolves it), is a constant or a
    computation, or is out of scope (declared in another block or function, or later) has no
    holder: no fact may be stated about it here, by that name. `line`/`column` are the loop's
    own location (the `while`/`for`/`do` keyword, from `!llvm.loop`) when the block is a loop
    head, else the block's first located instruction; `function` is the C function the block
    belongs to (an inlined callee's own name)."""

    holders: dict[str, str]
    line: int | None
    column: int | None
    function: str | None


_CONFLICT = "\0conflict"  # the variable's value differs between the paths that reach a block


def _fields(text: str) -> dict[str, str]:
    return dict(re.findall(r"(\w+): (\"[^\"]*\"|[^,]+)", text))


# A variable instance: (DILocalVariable id, the inlinedAt location of its record or None);
# its holder: the SSA value name (without `%`), None for a constant or a computation.
_Instance = tuple[int, "int | None"]
_Records = list[tuple[_Instance, "str | None"]]


@dataclass
class _ScopeMetadata:
    """What the module's metadata says for `scope_at`."""

    scope_parent: dict[int, int | None]  # lexical scope -> enclosing scope (None: a function)
    subprogram_name: dict[int, str]  # DISubprogram id -> the C function's name
    variables: dict[int, tuple[str, int, int]]  # DILocalVariable id -> (name, scope, declaration line)
    file_scope: set[int]  # the globals the front end promoted to locals of main
    location: dict[int, tuple[int, int, int | None, int | None]]  # DILocation -> line, col, scope, inlinedAt
    loop_start: dict[int, int]  # !llvm.loop node -> the DILocation of the loop's keyword


def _read_scope_metadata(text: str) -> _ScopeMetadata:
    metadata = metadata_start(text)
    scope_parent: dict[int, int | None] = {}
    subprogram_name: dict[int, str] = {}
    for m in _SCOPE_NODE.finditer(text, metadata):
        f = _fields(m.group(3))
        node = int(m.group(1))
        if m.group(2) == "DISubprogram":
            scope_parent[node] = None
            subprogram_name[node] = f.get("name", "").strip('"')
        else:
            scope_parent[node] = int(f["scope"][1:]) if f.get("scope", "").startswith("!") else None
    variables: dict[int, tuple[str, int, int]] = {}
    file_scope: set[int] = set()
    for m in _LOCAL_VARIABLE.finditer(text, metadata):
        variables[int(m.group(1))] = (m.group(2), int(m.group(3)), int(m.group(4) or 0))
        if "DIFlagArtificial" in text[m.end():text.find("\n", m.end())]:
            file_scope.add(int(m.group(1)))
    location: dict[int, tuple[int, int, int | None, int | None]] = {}
    for m in _LOCATION_DETAIL.finditer(text, metadata):
        f = _fields(m.group(2))
        ref = lambda key: int(f[key][1:]) if f.get(key, "").startswith("!") else None  # noqa: E731
        location[int(m.group(1))] = (int(f.get("line", 0)), int(f.get("column", 0)), ref("scope"),
                                     ref("inlinedAt"))
    loop_start = {int(m.group(1)): int(m.group(2)) for m in _LOOP_NODE.finditer(text, metadata)}
    return _ScopeMetadata(scope_parent, subprogram_name, variables, file_scope, location, loop_start)


@dataclass
class _MainBlocks:
    """What `scope_at` needs of each block of main, read from its text in one pass."""

    order: list[str] = field(default_factory=list)  # the blocks as printed, the entry first
    records: dict[str, _Records] = field(default_factory=dict)  # dbg records of whole variables, in order
    head_records: dict[str, int] = field(default_factory=dict)  # how many precede the first non-phi
    succs: dict[str, list[str]] = field(default_factory=dict)
    loop_of_latch: dict[str, int] = field(default_factory=dict)  # the terminator's !llvm.loop
    first_location: dict[str, int] = field(default_factory=dict)  # the first located instruction's


def _read_main_blocks(main: str, meta: _ScopeMetadata) -> _MainBlocks:
    blocks = _MainBlocks()
    records, head_records, succs = blocks.records, blocks.head_records, blocks.succs
    variables, location = meta.variables, meta.location
    block = None
    for raw in main.split("\n")[1:]:
        label = _LABEL.match(raw) if raw[:1] not in (" ", "") else None
        if label or block is None:
            block = label.group(1).strip('"') if label else "entry"
            blocks.order.append(block)
            records[block], succs[block] = [], []
            if label:
                continue
        line = raw.strip()
        if not line or line == "}":
            continue
        if line.startswith("#dbg_"):
            m = _ANY_DBG_RECORD.match(line)
            if m and int(m.group(2)) in variables:
                value = m.group(1).rsplit(" ", 1)[-1]
                expression = m.group(3).strip()
                if expression.startswith("DW_OP_LLVM_fragment"):
                    continue  # a part of the variable: the whole has no single holder
                loc = location.get(int(m.group(4)))
                holder = _bare(value) if value.startswith("%") and not expression else None
                records[block].append(((int(m.group(2)), loc[3] if loc else None), holder))
            continue
        if block not in head_records and not _PHI.match(line):
            head_records[block] = len(records[block])
        if "label %" in line:  # a terminator (or a line of a switch's table)
            succs[block] += [t.strip('"') for t in _LABEL_USE.findall(line)]
            loop = _LOOP_ATTACHMENT.search(line)
            if loop:
                blocks.loop_of_latch[block] = int(loop.group(1))
        if block not in blocks.first_location:
            attachments = _DBG_ATTACHMENT.findall(line)
            if attachments and location.get(int(attachments[-1]), (0,))[0] > 0:
                blocks.first_location[block] = int(attachments[-1])
    return blocks


def _loop_heads_and_order(blocks: _MainBlocks, meta: _ScopeMetadata) -> tuple[dict[str, int], list[str]]:
    """(loop head -> its location, the blocks reachable from the entry in reverse postorder):
    loop heads are the back-edge targets of a depth-first search from the entry, located by
    the `!llvm.loop` of the latch."""
    order, succs = blocks.order, blocks.succs
    loop_location: dict[str, int] = {}
    state = {b: 0 for b in order}  # 0 new, 1 on the stack, 2 done
    stack = [(order[0], iter(succs[order[0]]))] if order else []
    postorder: list[str] = []
    if order:
        state[order[0]] = 1
    while stack:
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            state[node] = 2
            postorder.append(node)
        elif nxt in state and state[nxt] == 0:
            state[nxt] = 1
            stack.append((nxt, iter(succs[nxt])))
        elif state.get(nxt) == 1 and node in blocks.loop_of_latch:
            start = meta.loop_start.get(blocks.loop_of_latch[node])
            if start is not None and start in meta.location:
                loop_location.setdefault(nxt, start)
    return loop_location, postorder[::-1]


def _apply_records(records_of_block: _Records, entry: dict) -> dict:
    """The holders after a block's records; a block without records passes its entry on as
    the same object, so merges of equal states are cheap (RERS programs: 24 000 blocks)."""
    if not records_of_block:
        return entry
    current = dict(entry)
    for key, holder in records_of_block:
        current[key] = holder
    return current


def _holders_at_heads(blocks: _MainBlocks, rpo: list[str]) -> dict[str, dict]:
    """Which value holds each variable instance at each block's entry (after its phis): a
    forward dataflow to a fixpoint, _CONFLICT where the paths that meet disagree."""
    preds: dict[str, list[str]] = {b: [] for b in blocks.order}
    for b in blocks.order:
        for t in blocks.succs[b]:
            if t in preds and b not in preds[t]:
                preds[t].append(b)
    records, head_records = blocks.records, blocks.head_records
    out: dict[str, dict] = {}
    at_head: dict[str, dict] = {}
    for _ in range(len(blocks.order) + 2):
        changed = False
        for b in rpo:
            seen = list({id(s): s for s in (out[p] for p in preds[b] if p in out)}.values())
            if not seen:
                entry: dict = {}
            elif len(seen) == 1:
                entry = seen[0]
            else:
                entry = {}
                for key in set().union(*seen):
                    values = {s.get(key, _CONFLICT) for s in seen}
                    entry[key] = values.pop() if len(values) == 1 else _CONFLICT
            head = _apply_records(records[b][:head_records.get(b, len(records[b]))], entry)
            new_out = _apply_records(records[b][head_records.get(b, len(records[b])):], head)
            at_head[b] = head
            old = out.get(b)
            if old is not new_out and old != new_out:
                out[b] = new_out
                changed = True
        if not changed:
            break
    return at_head


class _ScopeView:
    """block -> ScopeAt | None from the dataflow's holders at each block's head: of the
    variable instances held there, those visible at the block's C location, the innermost
    of each C name."""

    def __init__(self, meta: _ScopeMetadata, blocks: _MainBlocks, loop_location: dict[str, int],
                 at_head: dict[str, dict]) -> None:
        self.meta = meta
        self.first_location = blocks.first_location
        self.loop_location = loop_location
        self.at_head = at_head
        self.chains: dict[int | None, list[int]] = {}

    def chain(self, scope: int | None) -> list[int]:
        """The scope and its enclosing ones, innermost first."""
        if scope not in self.chains:
            seen: list[int] = []
            at = scope
            while at is not None and at not in seen:
                seen.append(at)
                at = self.meta.scope_parent.get(at)
            self.chains[scope] = seen
        return self.chains[scope]

    def __call__(self, b: str) -> ScopeAt | None:
        if b not in self.at_head:
            return None
        meta = self.meta
        where = self.loop_location.get(b, self.first_location.get(b))
        line, column, scope, inlined = meta.location.get(where, (0, 0, None, None)) if where else (0, 0, None, None)
        visible = self.chain(scope)
        depth_of = {sc: len(visible) - i for i, sc in enumerate(visible)}
        best: dict[str, tuple[int, str | None]] = {}  # C name → (scope depth, holder or None)
        for (var, var_inlined), holder in self.at_head[b].items():
            name, var_scope, declared = meta.variables[var]
            if var in meta.file_scope:
                depth = 0  # a global: visible in every function, shadowed by any local
            elif visible:
                if var_inlined != inlined or var_scope not in depth_of or (declared and declared > line):
                    continue
                depth = depth_of[var_scope]
            else:
                depth = 0
            held = holder if holder is not None and holder != _CONFLICT else None
            if name not in best or depth > best[name][0]:
                best[name] = (depth, held)
            elif depth == best[name][0] and best[name][1] != held:
                best[name] = (depth, None)  # two instances, one name, one depth: ambiguous
        function = meta.subprogram_name.get(visible[-1]) if visible else None
        return ScopeAt({n: h for n, (_, h) in best.items() if h is not None},
                       line or None, column or None, function)


def _compute_scopes(info: DebugInfo):
    """The dataflow of `scope_at` over main; returns block → ScopeAt | None (computed per call)."""
    text = info._text
    main = main_text(text)
    if main is None:
        return lambda block: None
    meta = _read_scope_metadata(text)
    blocks = _read_main_blocks(main, meta)
    loop_location, rpo = _loop_heads_and_order(blocks, meta)
    return _ScopeView(meta, blocks, loop_location, _holders_at_heads(blocks, rpo))


def scope_at(info: DebugInfo, block: str) -> ScopeAt | None:
    """The C view of `block` of main (see ScopeAt); None when the module has no such block.
    The dataflow over main runs once, on the first call; each block's view when asked."""
    if info._scopes is None:
        info._scopes = {"": _compute_scopes(info)}
    if block not in info._scopes:
        info._scopes[block] = info._scopes[""](block)
    return info._scopes[block]


@dataclass
class LexicalScopes:
    """The lexical scopes of a module's debug information: which C block each debug location
    lies in, and which block encloses which (llumc.frontend.lifetimes ends compound literals
    where their block ends)."""

    parent: dict[int, int | None]  # scope -> enclosing scope (None: a function)
    scope_of_location: dict[int, int | None]  # DILocation -> its scope

    @classmethod
    def of(cls, text: str) -> "LexicalScopes":
        meta = _read_scope_metadata(text)
        return cls(meta.scope_parent, {node: detail[2] for node, detail in meta.location.items()})

    def location_within(self, location: int, scope: int) -> bool:
        """Whether debug location `location` lies in `scope` or a block nested in it."""
        current = self.scope_of_location.get(location)
        seen = set()
        while current is not None and current not in seen:
            if current == scope:
                return True
            seen.add(current)
            current = self.parent.get(current)
        return False
