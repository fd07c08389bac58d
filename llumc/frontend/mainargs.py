"""`int main(int argc, char **argv)`: the program's main renamed, and a `main` without
parameters that makes up its arguments and calls it.

Why a wrapper: every later stage (inlining, the encoder, the engines) knows one `main` without
parameters whose inputs are calls. The wrapper reads `argc` from `ARGC_FUNCTION` (a nondet
input, assumed >= 1: C and every real `execve` give at least the program's name) and `argv`
from `ARGV_FUNCTION`, whose result the memory model (llumc/encoding/memory.py) makes an object
of `MODELLED_ARGUMENTS + 1` pointers to strings of `MODELLED_BYTES` bytes each, with exact
bounds and nondeterministic lengths and contents; an access the model does not hold (an
argument past the first `MODELLED_ARGUMENTS`, a byte past the first `MODELLED_BYTES` of one)
ends the run undecided, so the answer there is UNKNOWN, never TRUE (docs/frontend.md, "Parameters
of main"). A third parameter (`envp`) gets `ENVP_FUNCTION`, which the front end rejects if any
use of it survives the optimiser.

The native replay compiles the program without this rewrite and passes real arguments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from llumc.errors import UnsupportedError

__all__ = ["ARGC_FUNCTION", "ARGV_FUNCTION", "ENVP_FUNCTION", "ASSUME_FUNCTION", "MODELLED_ARGUMENTS",
           "MODELLED_BYTES", "MAX_ARGUMENT_BYTES", "USER_MAIN", "MainParameters", "wrap_main"]

ARGC_FUNCTION = "__llumc_argc"
ARGV_FUNCTION = "__llumc_argv"
ENVP_FUNCTION = "__llumc_envp"
ASSUME_FUNCTION = "__llumc_assume"  # an assumption of the wrapper (classify_call: "assume")
USER_MAIN = "__llumc_main"
# argv[0 .. MODELLED_ARGUMENTS-1] are strings the model holds, MODELLED_BYTES bytes of each
MODELLED_ARGUMENTS = 4
MODELLED_BYTES = 16
# Linux's MAX_ARG_STRLEN: execve refuses a longer argument (its NUL included), so no run of the
# program sees one; the model's strings are at most this long
MAX_ARGUMENT_BYTES = 32 * 4096

_HEADER = re.compile(r"define (?P<before>[^@]*?)(?P<ret>\S+) @main\((?P<params>[^)]*)\)(?P<after>[^{]*)\{")
_PARAMETER = re.compile(r"(?P<type>\S+)(?: [a-z_]+(?:\([^)]*\))?)* (?P<name>%[-\w.$]+|%\"[^\"]+\")$")


@dataclass(frozen=True)
class MainParameters:
    """What `main` declares: argc's type, and whether argv and envp follow."""

    argc_type: str
    argv: bool
    envp: bool


def main_parameters(header: str, where: str) -> MainParameters | None:
    """The parameters of main from its `define` line; None without any. A list C does not
    allow for main (`main(long n)`, `main(int *p)`) is a named UNKNOWN."""
    match = _HEADER.match(header)
    if match is None or not match.group("params").strip():
        return None
    raw = [part.strip() for part in match.group("params").split(",")]
    types = [(_PARAMETER.match(part) or re.match(r"(?P<type>\S+)", part)).group("type") for part in raw]
    if len(types) > 3 or not re.fullmatch(r"i\d+", types[0]) or any(t != "ptr" for t in types[1:]):
        raise _unsupported(f"main with parameters ({', '.join(types)})", where)
    return MainParameters(types[0], len(types) > 1, len(types) > 2)


def wrap_main(text: str, header_start: int, where: str) -> str:
    """`text` with main (its `define` line at `header_start`) renamed `USER_MAIN` and a new
    parameterless main that calls it with made-up arguments; `text` itself where main has no
    parameters. `where` names the file for the one-line error of an unsupported list."""
    header_end = text.index("\n", header_start)
    header = text[header_start:header_end]
    parameters = main_parameters(header, where)
    if parameters is None:
        return text
    match = _HEADER.match(header)
    debug = re.search(r" !dbg (![0-9]+)", match.group("after"))
    attributes = re.search(r" (#[0-9]+)", match.group("after"))
    renamed = header.replace(" @main(", f" @{USER_MAIN}(", 1)
    if debug is not None:
        # the subprogram moves to the wrapper: after inlining, the program's instructions are
        # main's, in the subprogram their debug locations name
        renamed = renamed.replace(f" !dbg {debug.group(1)}", "", 1)
    wrapper = _wrapper(match.group("ret"), parameters, attributes.group(1) if attributes else "",
                       debug.group(1) if debug else None)
    return text[:header_start] + renamed + text[header_end:] + "\n" + wrapper


def _wrapper(ret: str, parameters: MainParameters, attributes: str, debug: str | None) -> str:
    argc = "%argc"
    lines = [f"define {ret} @main() {attributes}{' !dbg ' + debug if debug else ''} {{",
             "entry:",
             f"  %argc = call i32 @{ARGC_FUNCTION}()",
             "  %argc.positive = icmp sgt i32 %argc, 0",
             f"  call void @{ASSUME_FUNCTION}(i1 %argc.positive)"]
    width = int(parameters.argc_type[1:])
    if width != 32:
        argc = "%argc.as.parameter"
        cast = "trunc" if width < 32 else "sext"
        lines.append(f"  {argc} = {cast} i32 %argc to {parameters.argc_type}")
    arguments = [f"{parameters.argc_type} {argc}"]
    if parameters.argv:
        lines.append(f"  %argv = call ptr @{ARGV_FUNCTION}(i32 %argc)")
        arguments.append("ptr %argv")
    if parameters.envp:
        lines.append(f"  %envp = call ptr @{ENVP_FUNCTION}()")
        arguments.append("ptr %envp")
    call = f"call {ret} @{USER_MAIN}({', '.join(arguments)})"
    lines += [f"  %status = {call}", f"  ret {ret} %status"] if ret != "void" else [f"  {call}", "  ret void"]
    lines += ["}", "",
              f"declare i32 @{ARGC_FUNCTION}()",
              f"declare void @{ASSUME_FUNCTION}(i1)",
              # no memory access, no side effect: unused (argv never read), the call is deleted
              f"declare ptr @{ARGV_FUNCTION}(i32) nounwind willreturn memory(none)",
              f"declare ptr @{ENVP_FUNCTION}() nounwind willreturn memory(none)", ""]
    return "\n".join(lines)


def _unsupported(construct: str, where: str) -> UnsupportedError:
    err = UnsupportedError(f"unsupported: {construct} at {where}")
    err.category = "main-parameters"
    err.construct = construct
    return err
