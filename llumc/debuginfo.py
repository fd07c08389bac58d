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
_UNSIGNED_ENCODINGS = {"DW_ATE_unsigned", "DW_ATE_unsigned_char", "DW_ATE_boolean"}
_FILE = re.compile(r"^!\d+ = !DIFile\(filename: \"([^\"]*)\"", re.M)
_DBG_ATTACHMENT = re.compile(r"!dbg !(\d+)")
# `#dbg_value(i32 %x.0, !16, !DIExpression(), !17)` (also #dbg_declare / #dbg_assign)
_DBG_RECORD = re.compile(
    r"#dbg_(?:value|declare|assign)\((?:[\w\[\]{}* ]+?) (%[\w.$-]+|%\"[^\"]+\"), !(\d+), "
    r"!DIExpression\(([^)]*)\)")
_NAMED_VALUE = r"%[\w.$-]+|%\"[^\"]+\"|\d+"


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
    block_line: dict[str, int] = field(default_factory=dict)
    source_files: list[str] = field(default_factory=list)
    # C variables of an unsigned type (unsigned, unsigned char, _Bool): traces print them unsigned.
    unsigned_variables: set[str] = field(default_factory=set)

    @classmethod
    def from_module_text(cls, text: str) -> "DebugInfo":
        info = cls()
        for match in _LOCATION.finditer(text):
            info.locations[int(match.group(1))] = (int(match.group(2)), int(match.group(3) or 0))
        for match in _VARIABLE.finditer(text):
            info.variables[int(match.group(1))] = match.group(2)
        info.source_files = _FILE.findall(text)
        info._read_variable_types(text)
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
        info._read_block_lines(text)
        return info

    def _read_variable_types(self, text: str) -> None:
        encoding = {int(m.group(1)): m.group(2) for m in _BASIC_TYPE.finditer(text)}
        base = {int(m.group(1)): int(m.group(2)) for m in _DERIVED_TYPE.finditer(text)}
        for match in _VARIABLE_TYPE.finditer(text):
            type_id = int(match.group(3))
            for _ in range(16):  # typedef chains are short; a cycle is not valid metadata
                if type_id not in base:
                    break
                type_id = base[type_id]
            if encoding.get(type_id) in _UNSIGNED_ENCODINGS:
                self.unsigned_variables.add(match.group(2))

    def _read_block_lines(self, text: str) -> None:
        main = re.search(r"^define [^\n]*@main\(.*?^}$", text, flags=re.M | re.S)
        if not main:
            return
        block = None
        for line in main.group(0).split("\n")[1:]:
            label = re.match(r"^([\w.$-]+|\"[^\"]+\"|\d+):", line)
            if label:
                block = label.group(1).strip('"')
                continue
            if block is None:
                block = "entry"  # unnamed first block
            if block in self.block_line or line.lstrip().startswith("#dbg_"):
                continue
            found = self.line_of(line)
            if found:
                self.block_line[block] = found

    def location_of(self, instr_text: str) -> tuple[int, int] | None:
        """(line, column) of an instruction given as text (`str(instr)`), or None."""
        # The attachment of the instruction itself comes last in its text, after any
        # operand metadata; dbg records printed after it (separate lines) are ignored.
        first_line = instr_text.strip().split("\n")[0]
        if first_line.startswith("#dbg_"):
            return None
        attachments = _DBG_ATTACHMENT.findall(first_line)
        if not attachments:
            return None
        location = self.locations.get(int(attachments[-1]))
        return location if location and location[0] > 0 else None

    def line_of(self, instr_text: str) -> int | None:
        """C source line of an instruction given as text (`str(instr)`), or None."""
        location = self.location_of(instr_text)
        return location[0] if location else None

    def names_of(self, value_name: str) -> list[str]:
        """C variables an SSA value holds (`x.0` or `%x.0`), possibly empty."""
        return self.value_names.get(_bare(value_name) if value_name.startswith("%") else value_name, [])
