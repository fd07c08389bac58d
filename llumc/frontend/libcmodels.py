"""Bodies in C for <string.h> functions the program calls without defining them.

The memory model encodes memset/memcpy/memmove of constant length as one wide read and one
wide write (llumc.encoding.memory). Of nondeterministic length, and for `strlen`, `strcpy` and
the other string functions, it has nothing: they were named UNKNOWNs. `libc_models.c` gives
them bodies (byte loops); the front end links them into the program's module after its passes
(llumc.frontend.compile, `_with_library_models`), inlines them into main and promotes their
locals, so every engine sees ordinary loops and the memory model checks each byte access.

Only programs that need a model change: one whose main, after the passes, calls a modelled
function that has no body, or a memory intrinsic whose length is not a constant. Every other
program keeps exactly the IR it had. A program's own definition of `strlen` was inlined
before this step runs, so the model never replaces a body the program has.

The intrinsics are renamed to `__llumc_memset`, `__llumc_memcpy`, `__llumc_memmove` (the
program's `memcpy(d, s, n)` is always the intrinsic in clang's IR); the string functions keep
their C names, which linking resolves. The call keeps its `!dbg` location; the model is
compiled without debug information, so LLVM's inliner gives each inlined instruction the
call's location: a fault inside a model names the line of the call in the program.
"""

from __future__ import annotations

import re
from pathlib import Path

from llumc.frontend.cfg import split_top

__all__ = ["MODELS_SOURCE", "MODELLED_FUNCTIONS", "INTRINSIC_MODELS", "needs_models", "call_models"]

MODELS_SOURCE = Path(__file__).with_name("libc_models.c")

# C functions libc_models.c defines under their own names
MODELLED_FUNCTIONS = frozenset({"memcmp", "memchr", "strlen", "strnlen", "strcpy", "strncpy", "strcmp",
                                "strncmp", "strchr", "strrchr", "strcat"})
# memory intrinsic -> the model that replaces it where its length is not a constant
INTRINSIC_MODELS = {"memset": "__llumc_memset", "memcpy": "__llumc_memcpy", "memmove": "__llumc_memmove"}

# `call void @llvm.memcpy.p0.p0.i64(ptr align 4 %d, ptr align 4 %s, i64 %n, i1 false), !dbg !7`
_INTRINSIC_CALL = re.compile(
    r"^(  )(?:tail |notail )?call void @llvm\.(memset|memcpy|memmove)\.[\w.]+\((.*), (i\d+) (%[\w.$\"-]+), "
    r"i1 (?:false|true)\)(.*)$", re.M)
_MODELLED_CALL = re.compile(r"\bcall [^\n]*@(" + "|".join(sorted(MODELLED_FUNCTIONS)) + r")\(")
_DECLARED = re.compile(r"^declare [^@\n]*@([\w.$]+)\(", re.M)
_DEFINED = re.compile(r"^define [^@\n]*@([\w.$]+)\(", re.M)
# parameter attributes of the intrinsic that need not hold for the model's parameters
_PARAMETER_ATTRIBUTES = re.compile(r"\b(?:align \d+|noundef|nonnull|writeonly|readonly) ")


def needs_models(text: str) -> bool:
    """Whether the module calls a modelled function it does not define, or a memory intrinsic
    whose length is an SSA value (not a constant). (str.find first: the multiline regexes over
    a RERS-size module cost a good part of a second, and almost no program needs a model.)"""
    if any(_INTRINSIC_CALL.match(line) for line in _lines_containing(text, "@llvm.mem")):
        return True
    called, defined = set(), set()
    for line in _lines_containing(text, "@str") + _lines_containing(text, "@memc"):
        if line.startswith("define "):
            defined.update(_DEFINED.findall(line))
        elif match := _MODELLED_CALL.search(line):
            called.add(match.group(1))
    return bool(called - defined)


def _lines_containing(text: str, word: str) -> list[str]:
    """The lines of `text` that contain `word` (str.find, line by line only where it occurs)."""
    lines, position = [], text.find(word)
    while position >= 0:
        start = text.rfind("\n", 0, position) + 1
        end = text.find("\n", position)
        end = len(text) if end < 0 else end
        lines.append(text[start:end])
        position = text.find(word, end)
    return lines


def call_models(text: str) -> str:
    """The module text with each memory intrinsic of non-constant length a call of its model
    (same arguments, same debug location; memset's byte widened to the model's `int`)."""
    counter = 0
    used: set[tuple[str, str]] = set()

    def replace(match: re.Match) -> str:
        nonlocal counter
        indent, what, pointers, length_type, length, rest = match.groups()
        arguments = [_PARAMETER_ATTRIBUTES.sub("", argument) for argument in split_top(pointers)]
        lines = []
        if what == "memset":
            counter += 1
            byte = arguments[1].split(" ", 1)[1]
            widened = f"%__llumc_memset_byte.{counter}"
            location = re.search(r", !dbg !\d+", rest)
            lines.append(f"{indent}{widened} = zext i8 {byte} to i32" + (location.group(0) if location else ""))
            arguments[1] = f"i32 {widened}"
        used.add((what, length_type))
        call = (f"{indent}call ptr @{INTRINSIC_MODELS[what]}({', '.join(arguments)}, {length_type} {length})"
                f"{rest}")
        return "\n".join([*lines, call])

    text = _INTRINSIC_CALL.sub(replace, text)
    declared = set(_DECLARED.findall(text))
    for what, length_type in sorted(used):
        name = INTRINSIC_MODELS[what]
        if name not in declared:
            second = "i32" if what == "memset" else "ptr"
            text += f"\ndeclare ptr @{name}(ptr, {second}, {length_type})\n"
            declared.add(name)
    return text
