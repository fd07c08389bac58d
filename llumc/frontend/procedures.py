"""Procedures the inliner cannot take as they are: calls through function pointers and
recursion, rewritten in the IR text (before inlining) into what it can.

Function pointers (`dispatch_indirect_calls`): every function whose address the program takes
gets a tag, a zero-sized constant `@llumc.function.NAME` that stands for its address wherever
the address is a value (stored, compared, passed): nothing may be read or written through it.
In the memory encoding it still occupies one byte where addresses are placed, so two
functions never share an address (llumc.encoding.memory, `_extent`). An indirect call becomes
a call of a
dispatcher, one per function type: it compares the pointer with the tag of each address-taken
function of that type and calls the one it equals, directly (so the inliner inlines it as any
other call). A pointer equal to none of them (NULL, a function of another type, anything else)
reaches `__llumc_invalid_call`, an invalid call: undefined behaviour, never silently skipped.
This is the type-based points-to set CBMC's function-pointer removal uses.

Recursion (`unroll_recursion`): each function of a call cycle reachable from `main` is cloned
to depth levels 0..D-1, level k calling level k+1 of its cycle; a call from level D-1 into the
cycle becomes `__llumc_recursion_bound.F`, a call that ends the run as an outcome of its own
(as CBMC's unwinding assertions do). A TRUE then needs that outcome unreachable: the program
never recurses D deep, so every one of its runs is in the model; where it is reachable the
verdict is UNKNOWN and the caller tries a deeper bound (`llumc.check`).

Every clone gets its own copy of the function's debug metadata (its DISubprogram and the
scopes, locations and variables under it): LLVM requires each subprogram to describe one
function, and the copies keep C lines and variable names in counterexamples."""

from __future__ import annotations

import re
from dataclasses import dataclass

from llumc.frontend.cfg import split_top

__all__ = [
    "BOUND_PREFIX",
    "DEFAULT_RECURSION_DEPTH",
    "FUNCTION_TAG_PREFIX",
    "INVALID_CALL",
    "RecursionTooLarge",
    "call_cycles",
    "call_graph",
    "called_through_pointer",
    "dispatch_indirect_calls",
    "function_of_tag",
    "unroll_recursion",
]

FUNCTION_TAG_PREFIX = "llumc.function."
DISPATCH_PREFIX = "llumc.dispatch."
INVALID_CALL = "__llumc_invalid_call"
# The dispatcher's block that calls `f` is `llumc.call.f` (after inlining `llumc.call.f.i`, ...):
# a trace that runs it called `f` through a pointer (`called_through_pointer`).
CALL_LABEL_PREFIX = "llumc.call."
_CALL_LABEL = re.compile(re.escape(CALL_LABEL_PREFIX) + r"(.+?)(?:\.i\d*)*$")
BOUND_PREFIX = "__llumc_recursion_bound."
# The first depth bound tried; `llumc.check` deepens it by half while the bound is reached and time is left.
DEFAULT_RECURSION_DEPTH = 4
# Unrolling stops (RecursionTooLarge) where main would hold more instructions than this after
# inlining: a tree recursion (Fibonacci) doubles its copies with every level.
MAX_UNROLLED_INSTRUCTIONS = 400_000
# ... or more allocation call sites than this (each a heap object of llumc.encoding.memory,
# which takes fewer than 255 objects in all)
MAX_UNROLLED_ALLOCATIONS = 64

_DEFINE_LINE = re.compile(r"^define ([^@\n]*)@(\"[^\"]+\"|[\w.$-]+)\((.*)\)([^(){}\n]*)\{$", re.M)
_DECLARE_LINE = re.compile(r"^declare ([^@\n]*)@(\"[^\"]+\"|[\w.$-]+)\((.*)\)[^(){}\n]*$", re.M)
_NAME = r"(\"[^\"]+\"|[\w.$-]+)"
_GLOBAL_USE = re.compile(r"@" + _NAME)
# `%x = call <ret> %fp(args)`, the callee a local value: an indirect call
_INDIRECT_CALL = re.compile(r"^(  (?:%[\w.$\"-]+ = )?(?:tail |notail )?call )((?:[\w()]+ )*?)(\S+|\{[^}]*\}) "
                            r"(\([^)]*\) )?(%[\w.$\"-]+)\((.*)\)((?:, !\w+ !\d+)*)$", re.M)
_DIRECT_CALL = re.compile(r"\bcall [^@\n]*?@(\"[^\"]+\"|[\w.$-]+)\(")
_METADATA_LINE = re.compile(r"^!(\d+) = (.*)$", re.M)
_METADATA_REF = re.compile(r"!(\d+)\b")
_SCOPE = re.compile(r"\bscope: !(\d+)")
_INLINED_AT = re.compile(r"\binlinedAt: !(\d+)")
_SUBPROGRAM_OF = re.compile(r"!dbg !(\d+)\s*\{$")
_LOOP_ID = re.compile(r"!llvm\.loop !(\d+)")


class RecursionTooLarge(Exception):
    """Unrolling the recursion to the asked depth makes main larger than the front end takes."""


def _strip(name: str) -> str:
    return name.strip('"')


def _quoted(name: str) -> str:
    return name if re.fullmatch(r"[\w.$-]+", name) else f'"{name}"'


def _value_type(argument: str) -> str:
    """The type of one argument or parameter (`i32 noundef %x` → `i32`)."""
    argument = argument.strip()
    if argument[:1] in "{[<":
        closing = {"{": "}", "[": "]", "<": ">"}[argument[0]]
        depth = 0
        for position, char in enumerate(argument):
            depth += char == argument[0]
            depth -= char == closing
            if depth == 0:
                return argument[:position + 1]
    return argument.split()[0]


@dataclass(frozen=True)
class Signature:
    returns: str
    parameters: tuple[str, ...]
    variadic: bool = False


def _signature(prefix: str, parameters: str) -> Signature:
    """From a define/declare line: the words before the name (linkage, return attributes,
    the return type last) and the parameter list."""
    returns = prefix.split()[-1] if prefix.split() else "void"
    parts = split_top(parameters)
    variadic = bool(parts) and parts[-1] == "..."
    return Signature(returns, tuple(_value_type(p) for p in parts if p != "..."), variadic)


def _functions(text: str) -> dict[str, Signature]:
    found = {}
    for pattern in (_DEFINE_LINE, _DECLARE_LINE):
        for match in pattern.finditer(text):
            found[_strip(match.group(2))] = _signature(match.group(1), match.group(3))
    return found


def _function_spans(text: str) -> dict[str, tuple[int, int]]:
    spans = {}
    for match in _DEFINE_LINE.finditer(text):
        end = text.index("\n}\n", match.start()) + 3
        spans[_strip(match.group(2))] = (match.start(), end)
    return spans


# --------------------------------------------------------------------------- function pointers


def function_of_tag(global_name: str) -> str | None:
    """`llumc.function.f` → `f` (the function a tag stands for), else None."""
    name = _strip(global_name.lstrip("@"))
    return name[len(FUNCTION_TAG_PREFIX):] if name.startswith(FUNCTION_TAG_PREFIX) else None


def called_through_pointer(block: str) -> str | None:
    """The function a dispatcher's block calls (`llumc.call.f.i3` → `f`), else None."""
    match = _CALL_LABEL.match(block.strip('"'))
    return match.group(1) if match else None


def _address_taken(text: str, functions: dict[str, Signature]) -> list[str]:
    """Functions whose address is used as a value somewhere: `@f` not followed by `(`."""
    taken = []
    for match in _GLOBAL_USE.finditer(text):
        name = _strip(match.group(1))
        if name in functions and not name.startswith("llvm.") and text[match.end():match.end() + 1] != "(" \
                and name not in taken:
            taken.append(name)
    return taken


def _tag_addresses(text: str, taken: list[str]) -> str:
    """Every address use `@f` of a taken function becomes its tag (calls `@f(` stay)."""
    names = {_quoted(name) for name in taken}
    pattern = re.compile(r"@(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?![\w.$\"(-])")
    return pattern.sub(lambda m: "@" + _quoted(FUNCTION_TAG_PREFIX + _strip(m.group(1))), text)


def dispatch_indirect_calls(text: str, tag_addresses: bool = False) -> str:
    """The module with every call through a function pointer turned into a direct call of a
    dispatcher among the address-taken functions of the call's type (module docstring); the
    addresses tagged too where there is no such call if `tag_addresses`."""
    if not tag_addresses and not _INDIRECT_CALL.search(text):
        return text
    functions = _functions(text)
    taken = _address_taken(text, functions)
    dispatchers: dict[Signature, str] = {}
    definitions: list[str] = []

    def rewrite(match: re.Match) -> str:
        head, attributes, returns, function_type, callee, arguments, metadata = match.groups()
        parts = split_top(arguments)
        if function_type and "..." in function_type:
            signature = Signature(returns, tuple(_value_type(p) for p in parts), True)
        else:
            signature = Signature(returns, tuple(_value_type(p) for p in parts))
        name = dispatchers.get(signature)
        if name is None:
            name = f"{DISPATCH_PREFIX}{len(dispatchers)}"
            dispatchers[signature] = name
            targets = [f for f in taken if functions[f] == signature and not signature.variadic]
            definitions.append(_dispatcher(name, signature, parts, targets))
        dispatched = ", ".join([f"ptr {callee}", *parts])
        return f"{head}{attributes}{returns} @{name}({dispatched}){metadata}"

    text = _INDIRECT_CALL.sub(rewrite, text)
    if taken:
        text = _tag_addresses(text, taken)
        tags = [f"@{_quoted(FUNCTION_TAG_PREFIX + f)} = private constant [0 x i8] zeroinitializer" for f in taken]
    else:
        tags = []
    # the dispatchers call the functions by name: their `@f(` stays untouched by the tagging
    return _append_top_level(text, tags, definitions + [f"declare void @{INVALID_CALL}(ptr)"])


def _dispatcher(name: str, signature: Signature, call_parts: list[str], targets: list[str]) -> str:
    """`define internal RET @name(ptr %target, ARGS) alwaysinline`: compares and calls."""
    parameters, arguments = [], []
    for index, part in enumerate(call_parts):
        value_type = _value_type(part)
        # the call's argument attributes (byval, signext, ...), its value replaced by ours
        attributes = part[len(value_type):].rsplit(None, 1)[0] if len(part.split()) > 2 else ""
        attributes = attributes.strip()
        parameters.append(f"{value_type} {attributes} %a{index}".replace("  ", " "))
        arguments.append(f"{value_type} {attributes} %a{index}".replace("  ", " "))
    lines = [f"define internal {signature.returns} @{name}(ptr %target{''.join(', ' + p for p in parameters)}) "
             f"alwaysinline nounwind {{", "entry:", "  br label %test0"]
    returns_value = signature.returns != "void"
    for index, target in enumerate(targets):
        tag = "@" + _quoted(FUNCTION_TAG_PREFIX + target)
        label = _quoted(CALL_LABEL_PREFIX + target)
        lines += [f"test{index}:", f"  %is{index} = icmp eq ptr %target, {tag}",
                  f"  br i1 %is{index}, label %{label}, label %test{index + 1}",
                  f"{label}:"]
        call = f"call {signature.returns} @{_quoted(target)}({', '.join(arguments)})"
        lines += [f"  %r{index} = {call}", f"  ret {signature.returns} %r{index}"] if returns_value \
            else [f"  {call}", "  ret void"]
    lines += [f"test{len(targets)}:", f"  call void @{INVALID_CALL}(ptr %target)", "  unreachable", "}"]
    return "\n".join(lines)


def _append_top_level(text: str, globals_: list[str], functions: list[str]) -> str:
    """Globals after the module header's globals, functions before the first `declare`/metadata
    (anywhere at top level is valid IR; kept where a reader of the module looks for them)."""
    if globals_:
        first_define = text.find("\ndefine ")
        at = first_define + 1 if first_define >= 0 else len(text)
        text = text[:at] + "\n".join(globals_) + "\n\n" + text[at:]
    if functions:
        attributes = text.find("\nattributes #")
        metadata = text.find("\n!")
        candidates = [p for p in (attributes, metadata) if p >= 0]
        at = min(candidates) + 1 if candidates else len(text)
        text = text[:at] + "\n\n".join(functions) + "\n\n" + text[at:]
    return text


# --------------------------------------------------------------------------- recursion


def _call_graph(text: str, spans: dict[str, tuple[int, int]]) -> dict[str, list[str]]:
    return {name: [_strip(m.group(1)) for m in _DIRECT_CALL.finditer(text, start, end)
                   if _strip(m.group(1)) in spans]
            for name, (start, end) in spans.items()}


def call_cycles(graph: dict[str, list[str]], root: str) -> list[set[str]]:
    """The strongly connected components reachable from `root` that contain a cycle (Tarjan's
    algorithm, iterative: call chains can be long)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    counter = 0
    work = [(root, 0)]
    while work:
        node, child = work.pop()
        if child == 0:
            index[node] = low[node] = counter
            counter += 1
            stack.append(node)
            on_stack.add(node)
        successors = graph.get(node, [])
        if child < len(successors):
            work.append((node, child + 1))
            nxt = successors[child]
            if nxt not in index:
                work.append((nxt, 0))
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
            continue
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, []):
                found.append(component)
        if work:
            parent = work[-1][0]
            low[parent] = min(low[parent], low[node])
    return found


def call_graph(text: str) -> dict[str, list[str]]:
    """Each defined function's direct callees among the defined functions."""
    return _call_graph(text, _function_spans(text))


def recursive_functions(text: str) -> list[set[str]]:
    """The call cycles reachable from main (after `dispatch_indirect_calls`)."""
    spans = _function_spans(text)
    if "main" not in spans:
        return []
    return call_cycles(_call_graph(text, spans), "main")


def _level_name(name: str, level: int) -> str:
    return name if level == 0 else f"{name}.depth{level}"


def _fitting_depth(text: str, spans, cycle_of, depth: int) -> int:
    """`depth`, or the deepest unrolling below it that keeps main within
    MAX_UNROLLED_INSTRUCTIONS and MAX_UNROLLED_ALLOCATIONS (a tree recursion doubles with each
    level); RecursionTooLarge if not even one level fits."""
    def fits(levels: int) -> bool:
        return unrolled_size(text, spans, cycle_of, levels) <= MAX_UNROLLED_INSTRUCTIONS and \
            unrolled_size(text, spans, cycle_of, levels, _allocations, MAX_UNROLLED_ALLOCATIONS + 1) \
            <= MAX_UNROLLED_ALLOCATIONS

    if fits(depth):
        return depth
    low, high = 0, depth  # low fits (0: nothing unrolled), high does not
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    if low == 0:
        raise RecursionTooLarge(f"one level of the recursion exceeds {MAX_UNROLLED_INSTRUCTIONS} instructions")
    return low


def unroll_recursion(text: str, depth: int) -> tuple[str, int]:
    """The module with each call cycle reachable from main unrolled to `depth` levels, or
    fewer where main would grow past MAX_UNROLLED_INSTRUCTIONS (module docstring), and the
    depth unrolled. Raises RecursionTooLarge when not even one level fits."""
    cycles = recursive_functions(text)
    if not cycles:
        return text, 0
    members = set().union(*cycles)
    cycle_of = {name: frozenset(cycle) for cycle in cycles for name in cycle}
    spans = _function_spans(text)
    depth = _fitting_depth(text, spans, cycle_of, depth)
    metadata = MetadataCopier(text)
    functions = _functions(text)
    clones: list[str] = []
    for name in sorted(members):
        start, end = spans[name]
        body = text[start:end]
        for level in range(depth):
            clone = body if level == 0 else metadata.copy_function(body)
            clone = _renamed_calls(clone, name, level, depth, cycle_of[name])
            if level:
                clone = _rename_definition(clone, name, _level_name(name, level))
            clones.append(clone)
    bounds = [f"declare {functions[name].returns} @{_quoted(BOUND_PREFIX + name)}"
              f"({', '.join(functions[name].parameters)})" for name in sorted(members)]
    pieces, done = [], 0
    for name in sorted(members, key=lambda n: spans[n][0]):
        start, end = spans[name]
        pieces.append(text[done:start])
        done = end
    pieces.append(text[done:])
    text = "".join(pieces)
    text = _append_top_level(text, [], ["\n".join(clones)] + bounds)
    return metadata.appended(text), depth


def _rename_definition(body: str, name: str, new_name: str) -> str:
    match = _DEFINE_LINE.match(body)
    return body[:match.start(2)] + _quoted(new_name) + body[match.end(2):]


def _renamed_calls(body: str, name: str, level: int, depth: int, cycle: frozenset[str]) -> str:
    """Calls into the cycle go one level deeper; from the last level, to the bound."""
    def deeper(match: re.Match) -> str:
        callee = _strip(match.group(1))
        if callee not in cycle:
            return match.group(0)
        target = BOUND_PREFIX + callee if level + 1 >= depth else _level_name(callee, level + 1)
        return match.group(0)[:match.start(1) - match.start(0)] + _quoted(target) + "("

    header_end = body.index("\n")
    return body[:header_end] + _DIRECT_CALL.sub(deeper, body[header_end:])


def _instructions(text: str, start: int, end: int) -> int:
    return text.count("\n  ", start, end)


def _allocations(text: str, start: int, end: int) -> int:
    return sum(text.count(f"@{name}(", start, end) for name in ("malloc", "calloc", "realloc"))


def unrolled_size(text: str, spans: dict[str, tuple[int, int]], cycle_of: dict[str, frozenset[str]],
                  depth: int, measure=_instructions, cap: int = MAX_UNROLLED_INSTRUCTIONS + 1) -> int:
    """What main holds (`measure` of each function: its instructions, its allocation calls)
    once everything is inlined with the cycles unrolled `depth` levels (counted up to `cap`)."""
    graph = _call_graph(text, spans)
    own = {name: measure(text, start, end) for name, (start, end) in spans.items()}
    level0: dict[str, int] = {}

    def size(name: str) -> int:
        """Level 0 of a function: a cycle's levels are summed level by level, deepest first
        (iteratively: the depth may be thousands); across the DAG of cycles, recursively."""
        if name in level0:
            return level0[name]
        level0[name] = 0  # (only cycles recurse, and they are unrolled)
        cycle = cycle_of.get(name)
        if cycle is None:
            level0[name] = min(cap, own.get(name, 0) + sum(size(callee) for callee in graph.get(name, [])))
            return level0[name]
        outside = {member: sum(size(c) for c in graph.get(member, []) if c not in cycle) for member in cycle}
        deeper = {member: 0 for member in cycle}
        for _ in range(depth):
            deeper = {member: min(cap, own.get(member, 0) + outside[member]
                                  + sum(deeper[c] for c in graph.get(member, []) if c in cycle))
                      for member in cycle}
        level0.update(deeper)
        return level0[name]

    return size("main")


class MetadataCopier:
    """Copies of a function's own debug metadata (its DISubprogram and every scope, location,
    variable and label under it), each copy under fresh numbers, for a clone of the function."""

    def __init__(self, text: str):
        self.nodes: dict[int, str] = {int(m.group(1)): m.group(2) for m in _METADATA_LINE.finditer(text)}
        self.next_id = max(self.nodes, default=-1) + 1
        self.new_lines: list[str] = []
        self._owner: dict[int, int | None] = {}

    def _subprogram_of(self, node: int) -> int | None:
        """The DISubprogram a node lies under (itself for a subprogram), through `scope:`."""
        seen = []
        current: int | None = node
        result = None
        while current is not None and current in self.nodes:
            if current in self._owner:
                result = self._owner[current]
                break
            seen.append(current)
            body = self.nodes[current]
            if "DISubprogram(" in body and "DISPFlagDefinition" in body:
                result = current
                break
            if not re.match(r"(distinct )?!(DILocation|DILexicalBlock|DILexicalBlockFile|DILocalVariable|DILabel)\(",
                            body):
                break
            # a location inlined into the function (clang's trap-reason frames) belongs to
            # the function it was inlined into, not to its own (artificial) scope
            scope = _INLINED_AT.search(body) or _SCOPE.search(body)
            current = int(scope.group(1)) if scope else None
        for node_id in seen:
            self._owner[node_id] = result
        return result

    def copy_function(self, body: str) -> str:
        """`body` (a define ... } text) with its subprogram's metadata replaced by a fresh copy."""
        header = body[:body.index("\n")]
        attached = _SUBPROGRAM_OF.search(header)
        if attached is None:
            return body
        subprogram = int(attached.group(1))
        owned = {subprogram}
        for match in _METADATA_REF.finditer(body):
            node = int(match.group(1))
            if node in self.nodes and self._subprogram_of(node) == subprogram:
                owned.add(node)
        # a loop's identity (`!llvm.loop`) holds the locations of its start and end: a copy too
        owned |= {int(match.group(1)) for match in _LOOP_ID.finditer(body) if int(match.group(1)) in self.nodes}
        owned |= self._owned_closure(owned, subprogram)
        mapping = {}
        for node in sorted(owned):
            mapping[node] = self.next_id
            self.next_id += 1

        def renumber(match: re.Match) -> str:
            node = int(match.group(1))
            return f"!{mapping[node]}" if node in mapping else match.group(0)

        for node in sorted(owned):
            self.new_lines.append(f"!{mapping[node]} = {_METADATA_REF.sub(renumber, self.nodes[node])}")
        return _METADATA_REF.sub(renumber, body)

    def _owned_closure(self, owned: set[int], subprogram: int) -> set[int]:
        """Nodes the owned ones refer to that also lie under the subprogram (the scopes of
        locations, the retained variables' tuple of the subprogram)."""
        result = set(owned)
        work = list(owned)
        while work:
            node = work.pop()
            for match in _METADATA_REF.finditer(self.nodes.get(node, "")):
                other = int(match.group(1))
                if other in result or other not in self.nodes:
                    continue
                text = self.nodes[other]  # a tuple `!{...}` when it is the retained nodes' list
                under = self._subprogram_of(other) == subprogram
                retained = node == subprogram and re.search(rf"retainedNodes: !{other}\b", self.nodes[subprogram])
                if under or (retained and text.startswith("!{")):
                    result.add(other)
                    work.append(other)
        return result

    def appended(self, text: str) -> str:
        if not self.new_lines:
            return text
        return text.rstrip("\n") + "\n" + "\n".join(self.new_lines) + "\n"
