"""Differential test of `llumc check` against native execution on random small C programs with
helper functions, recursion and calls through function pointers (llumc.frontend.procedures).

The programs are those of tests/test_differential.py (same inputs, statements, assertions, and
the same check: exact native truth on every input, FALSE replayed, a TRUE's loop invariants true
natively), with helper functions before main and statements in main that call them:

- recursive functions `int NAME(int n, int a)` that end at `n <= 0` and call themselves with
  n - 1 or n - 2 (linear), twice (tree), or each other (mutual); some also end at `n > LIMIT`,
  which bounds them whatever their argument, the others are only called with a bounded depth
  (a constant, a small input, a loop counter, `E & 7`; `E & 3` for a tree);
- a table of two or three functions of one type (`ops`, a global or main's own array), called
  as `ops[i]` with i a selector input confined to the table or `E & 1`; a pointer `p` that
  takes the table's entries; a pointer `q` that may be NULL and is only called under a test;
- a helper `apply(f, x, c)` that calls the pointer it is given c times, and a recursive
  `walk(n, a, f)` that calls it once per level.

No undefined behaviour: no NULL call, no unbounded recursion, and the rules of the base test
(wrap-around as with -fwrapv, no division, no shift). Helpers may count their calls in a global
`calls` that main reads; a statement of main makes at most one call, and only its arguments,
evaluated before it, read `calls`. Main sets `calls` to 0 first: the native driver runs all
inputs in one process, so a global would otherwise start where the previous run left it. LLUMC_DIFF_PROCEDURE_EXAMPLES sets the number of programs
(default 10: about 15 s); LLUMC_DIFF_TIMEOUT and LLUMC_DIFF_KEEP are those of the base test.

The same programs again with every recursion the call stack takes on it
(llumc.frontend.callstack; LLUMC_DIFF_STACK_EXAMPLES, default 7).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import strategies as st

from test_differential import KEEP, Builder, Input, Program, inputs, run_differential

pytestmark = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")

EXAMPLES = int(os.environ.get("LLUMC_DIFF_PROCEDURE_EXAMPLES", "10"))
STACK_EXAMPLES = int(os.environ.get("LLUMC_DIFF_STACK_EXAMPLES", "7"))
# (result, parameter types) of the functions in the table
SIGNATURES = [("int", ("int", "int")), ("int", ("int",)), ("unsigned", ("unsigned", "int")),
              ("short", ("char", "int"))]
PARAMETER_NAMES = "abc"
POINTER_TYPE = "fn_t"


@dataclass
class Callable:
    """A function main may call directly, with the kind of each argument: `depth` (a bounded
    recursion depth), `tree` (a smaller one), `value` (any expression), `pointer` (a function
    of the table's type)."""

    name: str
    arguments: list[str]


@dataclass
class Helpers:
    prelude: list[str] = field(default_factory=list)
    callables: list[Callable] = field(default_factory=list)
    table: list[str] = field(default_factory=list)  # the functions in `ops`
    table_in_main: bool = False
    signature: tuple[str, tuple[str, ...]] = SIGNATURES[0]
    selector: str | None = None  # an input confined to the table's indices


def function_scope(draw, asserts: list, parameters: list[tuple[str, str]]) -> Builder:
    """A Builder over a function's parameters, adding its assertions to the program's list."""
    scope = Builder(draw, [])
    scope.locals = [(name, type_, "") for name, type_ in parameters]
    scope.asserts = asserts
    scope.loops = 2  # one loop at most
    return scope


def define(header: str, scope: Builder, body: list[str]) -> list[str]:
    return [f"{header} {{", *(f"  int {counter} = 0;" for counter in scope.counters), *body, "}"]


def count_call(draw) -> list[str]:
    return ["  calls++;"] if draw(st.booleans()) else []


def table_function(draw, name: str, signature: tuple[str, tuple[str, ...]], asserts: list) -> list[str]:
    result, types = signature
    parameters = list(zip(PARAMETER_NAMES, types))
    scope = function_scope(draw, asserts, parameters)
    body = count_call(draw) + (scope.block(1, 1, False) if draw(st.booleans()) else [])
    header = f"{result} {name}({', '.join(f'{type_} {pname}' for pname, type_ in parameters)})"
    return define(header, scope, [*body, f"  return {scope.expr(2)};"])


def recursive_function(draw, name: str, callee: str, tree: bool, limit: int | None, asserts: list) -> list[str]:
    """`int name(int n, int a)`: ends at n <= 0 (or n > limit), else calls `callee` with n - 1
    (or n - 2), twice for a tree, and combines the results."""
    base = function_scope(draw, asserts, [("n", "int"), ("a", "int")])
    guard = "n <= 0" if limit is None else f"n <= 0 || n > {limit}"
    lines = ["  int t = 0;", "  int u = 0;", *count_call(draw), f"  if ({guard}) return {base.expr(1)};"]
    step = 1 if tree else draw(st.sampled_from([1, 1, 2]))
    lines.append(f"  t = {callee}(n - {step}, {base.expr(1)});")
    if tree:
        lines.append(f"  u = {callee}(n - 2, {base.expr(1)});")
    scope = function_scope(draw, asserts, [("n", "int"), ("a", "int"), ("t", "int"), ("u", "int")])
    if draw(st.booleans()):
        lines += scope.block(1, 1, False)
    results = draw(st.sampled_from(["t", "(t + u)", "(t - u)", "(t ^ u)"] if tree else ["t"]))
    combined = f"({results} {draw(st.sampled_from(['+', '-', '*', '^']))} {scope.expr(1)})"
    lines.append(f"  return {draw(st.sampled_from([combined, combined, scope.expr(2)]))};")
    return define(f"int {name}(int n, int a)", scope, lines)


def pointer_helpers(draw, signature: tuple[str, tuple[str, ...]], asserts: list) -> tuple[list[str], list[Callable]]:
    """`apply(f, x, c)`, calling f c times, and/or the recursive `walk(n, a, f)`, calling f once a level."""
    lines: list[str] = []
    callables: list[Callable] = []
    _, types = signature
    if draw(st.booleans()):
        looping = draw(st.booleans())
        scope = function_scope(draw, asserts, [("x", "int"), ("c", "int")] + [("k", "int")] * looping)
        rest = "".join(f", {scope.expr(1)}" for _ in types[1:])
        if looping:
            body = ["  int k;", "  for (k = 0; k < c; k++) {", f"    x = f(x{rest});", "  }", "  return x;"]
        else:
            body = [f"  return f(x{rest}) {draw(st.sampled_from(['+', '-', '^']))} {scope.expr(1)};"]
        lines += define(f"int apply({POINTER_TYPE} f, int x, int c)", scope, body)
        callables.append(Callable("apply", ["pointer", "value", "depth"]))
    if draw(st.booleans()):
        scope = function_scope(draw, asserts, [("n", "int"), ("a", "int"), ("t", "int")])
        rest = "".join(f", {scope.expr(1)}" for _ in types[1:])
        body = ["  int t = 0;", *count_call(draw), "  if (n <= 0) return a;",
                f"  t = walk(n - 1, {scope.expr(1)}, f);", f"  return f(t{rest});"]
        lines += define(f"int walk(int n, int a, {POINTER_TYPE} f)", scope, body)
        callables.append(Callable("walk", ["depth", "value", "pointer"]))
    return lines, callables


@st.composite
def helpers(draw, asserts: list) -> Helpers:
    """The functions before main: a table of functions of one type, recursive functions (linear,
    tree or mutual, some with a limit of their own), and helpers taking a function pointer."""
    result = Helpers(signature=draw(st.sampled_from(SIGNATURES)))
    return_type, types = result.signature
    result.prelude = ["int calls = 0;",
                      f"typedef {return_type} (*{POINTER_TYPE})({', '.join(types)});"]
    recursion = draw(st.lists(st.sampled_from(["linear", "tree", "mutual"]), max_size=2, unique=True))
    for k, kind in enumerate(recursion):
        limit = draw(st.one_of(st.none(), st.integers(1, 4 if kind == "tree" else 8)))
        depth = "value" if limit is not None else "tree" if kind == "tree" else "depth"
        if kind == "mutual":
            even, odd = f"even{k}", f"odd{k}"
            result.prelude.append(f"int {odd}(int n, int a);")
            result.prelude += recursive_function(draw, even, odd, False, limit, asserts)
            result.prelude += recursive_function(draw, odd, even, False, limit, asserts)
            result.callables += [Callable(even, [depth, "value"]), Callable(odd, [depth, "value"])]
        else:
            name = f"r{k}"
            result.prelude += recursive_function(draw, name, name, kind == "tree", limit, asserts)
            result.callables.append(Callable(name, [depth, "value"]))
    size = draw(st.integers(2, 3))
    result.table = [f"f{k}" for k in range(size)]
    for name in result.table:
        result.prelude += table_function(draw, name, result.signature, asserts)
    # a recursive function with a limit of its own may be in the table when its type fits
    fitting = [c.name for c in result.callables if c.arguments == ["value", "value"]]
    if result.signature == ("int", ("int", "int")) and fitting and draw(st.booleans()):
        result.table[-1] = draw(st.sampled_from(fitting))
    result.table_in_main = draw(st.booleans())
    if not result.table_in_main:
        const = draw(st.sampled_from(["", "const "]))
        result.prelude.append(f"static {POINTER_TYPE} {const}ops[{size}] = {{{', '.join(result.table)}}};")
    more, callables = pointer_helpers(draw, result.signature, asserts)
    result.prelude += more
    result.callables += callables
    return result


class ProcedureBuilder(Builder):
    """Main's statements, with calls of the helpers, through the table and through pointers."""

    def __init__(self, draw, program_inputs: list[Input], found: Helpers):
        super().__init__(draw, program_inputs)
        self.helpers = found
        self.made = 0  # statements of the added kinds
        self.calls_readable = False  # not before main has reset it

    def readable(self) -> list[str]:
        return super().readable() + ["calls"] * self.calls_readable

    def extra_kinds(self, depth: int, in_loop: bool) -> list[str]:
        kinds = ["table", "table", "pointer", "point", "null-set", "null-call"]
        if self.helpers.callables:
            kinds += ["call", "call", "call"]
        return kinds

    def depth(self, tree: bool) -> str:
        """A recursion depth in 0..8 (0..4 for a tree), whatever the variables hold."""
        d = self.draw
        mask = 3 if tree else 7
        choices = [str(d(st.integers(0, 4 if tree else 8))), f"(({self.expr(1)}) & {mask})"]
        bounded = self.small + self.counters
        if bounded:
            name = d(st.sampled_from(bounded))
            choices.append(f"({name} & {mask})" if tree else name)
        return d(st.sampled_from(choices))

    def index(self) -> str:
        """An index into the table: the selector input, or one of its first two entries by `& 1`."""
        d = self.draw
        choices = [f"(({self.expr(1)}) & 1)"]
        if self.helpers.selector:
            choices.append(self.helpers.selector)
        return d(st.sampled_from(choices))

    def function(self) -> str:
        """A function of the table's type, as a pointer value."""
        d = self.draw
        return d(st.sampled_from([f"ops[{self.index()}]", d(st.sampled_from(self.helpers.table)), "p"]))

    def argument(self, kind: str) -> str:
        if kind in ("depth", "tree"):
            return self.depth(kind == "tree")
        return self.function() if kind == "pointer" else self.expr(1)

    def values(self) -> str:
        return ", ".join(self.expr(1) for _ in self.helpers.signature[1])

    def assign_call(self, pad: str, call: str) -> str:
        """`v = call` or `v op= call`: nothing else in the statement reads `calls`."""
        d = self.draw
        target = d(st.sampled_from([name for name, _, _ in self.locals]))
        op = d(st.sampled_from(["=", "=", "+=", "^="]))
        return f"{pad}{target} {op} {call};"

    def extra_statement(self, kind: str, pad: str) -> list[str]:
        d = self.draw
        self.made += 1
        if kind == "call":
            callee = d(st.sampled_from(self.helpers.callables))
            arguments = ", ".join(self.argument(argument) for argument in callee.arguments)
            return [self.assign_call(pad, f"{callee.name}({arguments})")]
        if kind == "table":
            return [self.assign_call(pad, f"ops[{self.index()}]({self.values()})")]
        if kind == "pointer":
            return [self.assign_call(pad, f"p({self.values()})")]
        if kind == "point":
            first, second = d(st.sampled_from(self.helpers.table)), d(st.sampled_from(self.helpers.table))
            value = d(st.sampled_from([f"ops[{self.index()}]", f"({self.condition()}) ? {first} : {second}"]))
            return [f"{pad}p = {value};"]
        if kind == "null-set":
            function = d(st.sampled_from(self.helpers.table))
            return [f"{pad}q = ({self.condition()}) ? {function} : 0;"]
        guard = d(st.sampled_from(["q", "q != 0", "0 != q"]))
        lines = [f"{pad}if ({guard}) {{", self.assign_call(pad + "  ", f"q({self.values()})")]
        if d(st.booleans()):
            name = d(st.sampled_from([name for name, _, _ in self.locals]))
            lines += [f"{pad}}} else {{", f"{pad}  {name} = {self.expr(1)};"]
        return lines + [f"{pad}}}"]


@st.composite
def procedure_programs(draw) -> Program:
    program_inputs = draw(inputs())
    asserts: list = []
    found = draw(helpers(asserts))
    if draw(st.booleans()):
        size = len(found.table)
        selector = Input(f"in{len(program_inputs)}", draw(st.sampled_from(["int", "unsigned char"])), 0, size - 1)
        program_inputs.append(selector)
        found.selector = selector.name
    builder = ProcedureBuilder(draw, program_inputs, found)
    builder.asserts = asserts
    for k in range(draw(st.integers(1, 3))):
        builder.locals.append((f"v{k}", draw(st.sampled_from(["int", "unsigned", "short", "char"])), builder.expr(1)))
    # the pointers: declared where main's statements begin (the Builder declares only numbers);
    # then `calls` starts again: the native driver runs every input in one process, one call
    # of main after the other, so the global keeps what the last run left in it
    table = found.table
    start = [f"  {POINTER_TYPE} p = {draw(st.sampled_from(table))};",
             f"  {POINTER_TYPE} q = {draw(st.sampled_from(['0', *table]))};", "  calls = 0;"]
    if found.table_in_main:
        start.insert(0, f"  {POINTER_TYPE} ops[{len(table)}] = {{{', '.join(table)}}};")
    builder.calls_readable = True
    body = builder.block(1, 0, False)
    # at least one call in main, after the statements that may have set its arguments
    kinds = ["table", "pointer"] + ["call", "call"] * bool(found.callables)
    for _ in range(draw(st.integers(1 if builder.made == 0 else 0, 2))):
        body += builder.extra_statement(draw(st.sampled_from(kinds)), "  ")
    if len(asserts) < 3 and not any("@ASSERT" in line for line in body):
        body.append(f"  {builder.assertion()}")
    return Program(program_inputs, builder.locals, builder.counters, start + body, asserts,
                   draw(st.sampled_from(["__VERIFIER_error", "reach_error"])), draw(st.booleans()),
                   prelude=found.prelude)


def test_llumc_never_contradicts_native_execution_with_procedures(tmp_path):
    keep = Path(KEEP) / "procedures" if KEEP else None
    run_differential(procedure_programs(), EXAMPLES, tmp_path, keep, "differential with procedures")


def test_llumc_never_contradicts_native_execution_on_the_call_stack(tmp_path):
    keep = Path(KEEP) / "callstack" if KEEP else None
    run_differential(procedure_programs(), STACK_EXAMPLES, tmp_path, keep, "differential on the call stack",
                     call_stack=True)
