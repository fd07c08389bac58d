"""Library calls that cannot touch the property, and SV-COMP's nondet functions.

Output functions (`printf`, `puts`, `putchar`, `fprintf`, `fflush`, ...) change nothing the
program can read back, except through their result (characters written, EOF) and through
printf's `%n`, which writes to memory. So the front end's model drops each such call of an
undefined (library) function: its arguments are still evaluated, a used result becomes a fresh
nondeterministic value (`__llumc_libret_iN`, an over-approximation: whatever the library would
return is among its values), and a call whose format is not a constant string without `%n` is
left alone, so it stays a named "call to unknown function" (UNKNOWN), never a silent guess.
The native replay runs the real library functions: a counterexample that needs a result the
real call does not give is not confirmed (UNKNOWN), never FALSE.

`NONDET_TYPES` is SV-COMP's list of `__VERIFIER_nondet_X` (the competition rules' list and the
names its benchmarks use), with the C type the harness returns and whether it is signed: a
value is printed (and written into witnesses as `\\result == V`) the way C reads it.
"""

from __future__ import annotations

import re

__all__ = ["LIBRET_PREFIX", "OUTPUT_FUNCTIONS", "NONDET_TYPES", "nondet_signed", "drop_output_calls"]

LIBRET_PREFIX = "__llumc_libret_"
_LIBRET_ATTR = 9998  # attribute group of the libret declarations (the uninit ones use 9999)

# name -> position of the printf-style format among the arguments (None: no format). Functions
# that write to the program's memory (sprintf, snprintf, scanf, fgets, ...) are not here.
OUTPUT_FUNCTIONS: dict[str, int | None] = {
    "printf": 0, "fprintf": 1, "dprintf": 1, "__printf_chk": 1, "__fprintf_chk": 2,
    "puts": None, "fputs": None, "putchar": None, "putc": None, "fputc": None, "fflush": None,
    "perror": None, "fwrite": None, "putchar_unlocked": None, "putc_unlocked": None,
    "fputc_unlocked": None, "fputs_unlocked": None, "fwrite_unlocked": None, "fflush_unlocked": None,
}

# X of `__VERIFIER_nondet_X` -> (C type, signed). Pointers, floats and 128-bit integers are
# named too: the front end reports them (memory, floating point) or the replay cannot build them.
NONDET_TYPES: dict[str, tuple[str, bool]] = {
    "bool": ("_Bool", False), "_Bool": ("_Bool", False),
    "char": ("char", True), "schar": ("signed char", True), "uchar": ("unsigned char", False),
    "short": ("short", True), "ushort": ("unsigned short", False),
    "int": ("int", True), "uint": ("unsigned int", False), "unsigned": ("unsigned int", False),
    "long": ("long", True), "ulong": ("unsigned long", False),
    "longlong": ("long long", True), "ulonglong": ("unsigned long long", False),
    "size_t": ("size_t", False), "ssize_t": ("ssize_t", True), "loff_t": ("loff_t", True),
    "sector_t": ("unsigned long long", False), "pthread_t": ("unsigned long", False),
    "u8": ("unsigned char", False), "u16": ("unsigned short", False), "u32": ("unsigned int", False),
    "u64": ("unsigned long long", False),
    "s8": ("signed char", True), "s16": ("short", True), "s32": ("int", True), "s64": ("long long", True),
    "int128": ("__int128", True), "uint128": ("unsigned __int128", False),
    "pchar": ("char *", False), "pointer": ("void *", False), "const_char_pointer": ("const char *", False),
    "float": ("float", True), "double": ("double", True),
}


def nondet_signed(function: str) -> bool:
    """Whether `__VERIFIER_nondet_X`'s C type is signed (a name not in the list: by its spelling,
    `u...` unsigned)."""
    kind = function.removeprefix("__VERIFIER_nondet_")
    if kind == function:
        return False
    if kind in NONDET_TYPES:
        return NONDET_TYPES[kind][1]
    return not kind.startswith("u")


_CALL_LINE = re.compile(
    r"^  (?:(%[\w.$\"-]+) = )?(?:tail |notail )?call (?:[a-z_]+ )*(i\d+|void) (?:\([^)]*\) )?@([\w.$]+)\(")
_STRING_GLOBAL = re.compile(r'^@([\w.$]+) = [^\n]*?constant \[\d+ x i8\] c"((?:[^"\\]|\\[0-9A-Fa-f]{2}|\\\\)*)"', re.M)
_DEFINED = re.compile(r"^define [^@\n]*@([\w.$]+)\(", re.M)
# A printf conversion that writes through its argument: %n with any flags, width or length.
_PERCENT_N = re.compile(r"%[-+ #0'*0-9.$]*(?:hh|h|ll|l|j|z|t|L|q)?n")


def _decode(body: str) -> str:
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), body).replace("\\\\", "\\")


def _arguments(line: str, start: int) -> tuple[list[str], int] | None:
    """The call's arguments (top-level commas split) and the index after its `)`."""
    depth, current, args = 0, [], []
    for index in range(start, len(line)):
        char = line[index]
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            if depth == 0:
                args.append("".join(current).strip())
                return ([a for a in args if a], index + 1)
            depth -= 1
        elif char == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    return None


def drop_output_calls(text: str) -> str:
    """The module text with every droppable output call replaced (see the module docstring)."""
    if not any(f"@{name}(" in text for name in OUTPUT_FUNCTIONS):
        return text
    defined = set(_DEFINED.findall(text))
    strings = {name: _decode(body) for name, body in _STRING_GLOBAL.findall(text)}
    widths: set[int] = set()
    out: list[str] = []
    for line in text.split("\n"):
        match = _CALL_LINE.match(line) if line.startswith("  ") and "call" in line else None
        if not match or match.group(3) not in OUTPUT_FUNCTIONS or match.group(3) in defined:
            out.append(line)
            continue
        parsed = _arguments(line, match.end())
        if parsed is None:
            out.append(line)
            continue
        args, after = parsed
        position = OUTPUT_FUNCTIONS[match.group(3)]
        if position is not None:
            fmt = re.fullmatch(r"ptr (?:[a-z_]+ )*@([\w.$]+)", args[position]) if position < len(args) else None
            if fmt is None or fmt.group(1) not in strings or _PERCENT_N.search(strings[fmt.group(1)].replace("%%", "")):
                out.append(line)  # unknown format, or one that writes memory: stays unsupported
                continue
        result, ty = match.group(1), match.group(2)
        if result is None or ty == "void":
            continue  # no effect, result unused: the call goes (its arguments stay computed)
        widths.add(int(ty[1:]))
        debug = re.search(r", !dbg !\d+", line[after:])
        out.append(f"  {result} = call {ty} @{LIBRET_PREFIX}{ty}()" + (debug.group(0) if debug else ""))
    text = "\n".join(out)
    if widths:
        text += "".join(f"\ndeclare i{w} @{LIBRET_PREFIX}i{w}() #{_LIBRET_ATTR}\n" for w in sorted(widths))
        text += f"attributes #{_LIBRET_ATTR} = {{ nounwind willreturn memory(none) }}\n"
    return text
