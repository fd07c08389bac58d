"""Shared procedures: a function's body placed once in `main` and entered from every call site,
as the small-block and large-block encodings encode each block once, where inlining it at each
call site would copy it once per site.

Two reasons to share a function f (`plan_sharing`):

- f is the head of a recursion on a call stack (llumc.frontend.callstack) called from two or
  more places of main (counting the copies inlining makes): inlined, each place would hold a
  stack machine of its own.
- Inlining everything would make main larger than `MAX_INLINED_INSTRUCTIONS` (estimated
  bottom-up over the call graph: the copies of each function times its instructions): the
  functions whose sharing saves most are shared, one at a time, until the rest fits.

Sharing is sound where f is never entered while it runs, from main's point of view: f does not
recurse (after the call stack's rewrite a head calls itself only through its own stack). Each
call site stores the arguments into f's parameter registers and its own number into f's site
register and branches to f's entry; f's `ret` stores the result and a switch on the site
number branches back to the continuation of the right call site. A shared f that calls a shared
g is merged first; then g's call sites inside f's one body get numbers of their own.

SSA dominance does not survive that: a value defined before a call site and used after it is
no longer dominated by its definition. So every value used outside its block is demoted to
memory first (LLVM's reg2mem, after the blocks are split at the shared calls), and SROA builds
the SSA values and phis again, as the call stack's rewrite does with its registers. Each demoted
slot starts as zero at main's entry: the CFG has paths the site numbers rule out (from site 1
through f back to site 2's continuation), and on those a slot is read before any store; zero
keeps them free of `undef`, and they are never run.

Not shared (`shareable`): a function that keeps locals in memory or allocates (after the
functions it calls are inlined into it): each run would reuse one object where inlining gives
each site its own, and the memory model and the lifetime checks (llumc.frontend.lifetimes)
count objects per site; `sret`/`byval`/variadic parameters; quoted value names.

Names: the shared body's values and blocks get the inliner's suffix (`x.i`, `x.i1`), which the
names read after inlining allow for (the replay's `%__uninit.N`, `llumc.call.f`, `llumc.stack.`).
Debug information: the shared body's locations (and its loops') are marked inlined at the first
call site (LLVM requires every location in main to lead to main's subprogram), so C lines and
variable names stay right in counterexamples; only the frame above the shared function is
always the first call site's."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from llumc.frontend.callstack import _DEF, _LABEL, STACK_PREFIX, _argument_value, _arguments
from llumc.frontend.callstack import _VALUE as _LOCAL
from llumc.frontend.cfg import split_top
from llumc.frontend.procedures import BOUND_PREFIX

__all__ = ["MAX_INLINED_INSTRUCTIONS", "SHARE_PREFIX", "CallGraph", "NotShareable", "callers_first",
           "inlined_size", "measured", "merge_shared", "worth_sharing",
           "plan_sharing", "read_call_graph", "shareable", "split_at_shared_calls"]

SHARE_PREFIX = "llumc.share."
# main's estimated size once everything is inlined beyond which functions are shared (the limit
# unrolling a recursion keeps to, llumc.frontend.procedures.MAX_UNROLLED_INSTRUCTIONS)
MAX_INLINED_INSTRUCTIONS = 400_000
# what a call site of a shared function costs: argument and site stores, the branch, the result
CALL_SITE_INSTRUCTIONS = 4

_DEFINE = re.compile(r"^define ([^@\n]*)@([\w.$-]+)\((.*)\)([^(){}\n]*)\{$", re.M)
_CALL = re.compile(r"\bcall [^@\n]*?@([\w.$-]+)\(")
# inside a function body `@f(` is a call of f (a function used as a value is `@f` alone)
_CALLEE = re.compile(r"@([\w.$-]+)\(")
_PHI_INCOMING = re.compile(r", %([\w.$-]+) \]")
_ALLOCATION = re.compile(r"\bcall [^@\n]*@(malloc|calloc|realloc|alloca|free|__llumc_lifetime_\w+|llvm\.stacksave"
                         r"[\w.]*)\(")
_ALLOCA = re.compile(r"^  %([\w.$-]+) = alloca ", re.M)
_DBG = re.compile(r"!dbg !(\d+)")
_LOOP = re.compile(r"!llvm\.loop !(\d+)")
_RECORD_LOCATION = re.compile(r"(#dbg_\w+\(.*, )!(\d+)\)$")
_LOCATION_LINE = re.compile(r"^!(\d+) = ((?:distinct )?!DILocation\(.*\))$", re.M)
_METADATA_ID = re.compile(r"^!(\d+) = ", re.M)
# what stands between `define` and a function's return type: linkage, visibility, calling
# convention, return attributes
_RETURN_PREFIX = re.compile(r"^(?:(?:internal|private|external|linkonce_odr|weak_odr|dso_local|dso_preemptable|hidden|"
                            r"protected|default|local_unnamed_addr|unnamed_addr|fastcc|coldcc|ccc|noundef|signext|"
                            r"zeroext|inreg|noalias|nonnull|dereferenceable(?:_or_null)?\(\d+\)|align \d+|"
                            r"range\([^)]*\))\s+)*")
# reg2mem's slots (`x.reg2mem`, uniqued `x.reg2mem7`; in a shared body renamed `x.reg2mem.i`)
_DEMOTED = re.compile(r"\.reg2mem\d*(?:\.i\d*)?$")
_REGISTER = re.compile(re.escape(SHARE_PREFIX) + r"\d+\.(?:arg\.\d+|site|result)$")
_ALLOCA_POINT = re.compile(r'^  %"reg2mem alloca point" = [^\n]*\n', re.M)


class NotShareable(Exception):
    """The program has a shape the sharing rewrite does not take: everything is inlined."""


@dataclass
class CallGraph:
    """Each defined function's own instruction count and its direct calls of defined functions
    (callee → number of call sites)."""
    size: dict[str, int]
    calls: dict[str, Counter]
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)  # name → (start, end) in the text


def read_call_graph(text: str) -> CallGraph:
    """The call graph of the module `text` (defined functions only); their sizes are counted
    by `measured`. Runs on every program (`worth_sharing`), so it slices nothing."""
    graph = CallGraph({}, {})
    position = text.find("\ndefine ")  # (a module's text starts with its header, never a define)
    while position >= 0:
        start = position + 1
        line_end = text.index("\n", start)
        match = _DEFINE.match(text, start, line_end)
        end = text.find("\n}\n", line_end)
        if match and end > 0:
            graph.calls[match.group(2)] = Counter(_CALLEE.findall(text, line_end, end))
            graph.spans[match.group(2)] = (start, end + 3)
        position = text.find("\ndefine ", line_end)
    for name, callees in graph.calls.items():
        graph.calls[name] = Counter({callee: n for callee, n in callees.items() if callee in graph.spans})
    return graph


def measured(graph: CallGraph, text: str) -> CallGraph:
    """`graph` with each function's own instruction count (debug records left out)."""
    for name, (start, end) in graph.spans.items():
        graph.size[name] = text.count("\n  ", start, end) - text.count("\n    #dbg_", start, end)
    return graph


def callers_first(graph: CallGraph, root: str = "main") -> list[str] | None:
    """The functions reachable from `root`, each after all its callers; None on a cycle (or
    without `root`)."""
    if root not in graph.spans:
        return None
    reachable, stack = {root}, [root]
    while stack:
        for callee in graph.calls[stack.pop()]:
            if callee not in reachable:
                reachable.add(callee)
                stack.append(callee)
    callers = Counter(callee for name in reachable for callee in graph.calls[name])
    order, ready = [], [root]
    while ready:
        name = ready.pop()
        order.append(name)
        for callee in graph.calls[name]:
            callers[callee] -= 1
            if callers[callee] == 0:
                ready.append(callee)
    return order if len(order) == len(reachable) else None


def copies(graph: CallGraph, order: list[str], shared: set[str]) -> Counter:
    """How many copies of each function inlining makes, a shared function's body counting once."""
    count = Counter({order[0]: 1})
    for name in order:
        weight = 1 if name in shared else count[name]
        for callee, sites in graph.calls[name].items():
            count[callee] += weight * sites
    return count


def worth_sharing(text: str, limit: int | None = None) -> bool:
    """Whether sharing could matter for the module `text`: some function would be copied more
    than once, and main, everything inlined, would exceed `limit` (None: the module's
    `MAX_INLINED_INSTRUCTIONS`, read at the call)."""
    limit = MAX_INLINED_INSTRUCTIONS if limit is None else limit
    graph = read_call_graph(text)
    order = callers_first(graph)
    if order is None or max(copies(graph, order, set()).values()) < 2:
        return False
    return inlined_size(measured(graph, text), order, set()) > limit


def inlined_size(graph: CallGraph, order: list[str], shared: set[str]) -> int:
    """main's instructions once everything but `shared` is inlined (each shared body once)."""
    count = copies(graph, order, shared)
    total = 0
    for name in order:
        body_copies = min(count[name], 1) if name in shared else count[name]
        total += body_copies * graph.size[name]
        if name in shared:
            total += count[name] * CALL_SITE_INSTRUCTIONS
    return total


def shareable(graph: CallGraph, text: str, name: str) -> bool:
    """Whether `name`'s body, with the functions it calls, keeps no local in memory (but the
    call stack's frames), allocates nothing, takes no parameter in memory (module docstring)."""
    if name == "main":
        return False
    start, end = graph.spans[name]
    header = text[start:text.index("\n", start)]
    if any(word in header for word in ("sret", "byval", "inalloca", "preallocated", "...")):
        return False
    seen, stack = {name}, [name]
    while stack:
        function = stack.pop()
        start, end = graph.spans[function]
        body = text[start:end]
        if '%"' in body or _ALLOCATION.search(body) or "asm " in body:
            return False
        if any(not local.startswith(STACK_PREFIX) for local in _ALLOCA.findall(body)):
            return False
        for callee in graph.calls[function]:
            if callee not in seen:
                seen.add(callee)
                stack.append(callee)
    return True


def plan_sharing(graph: CallGraph, text: str, limit: int | None = None) -> set[str]:
    """The functions to share (module docstring): stacked heads with two or more copies, then,
    while main would exceed `limit` (None: `MAX_INLINED_INSTRUCTIONS`), the one whose sharing
    saves most instructions (greedy)."""
    limit = MAX_INLINED_INSTRUCTIONS if limit is None else limit
    order = callers_first(graph)
    if order is None:
        return set()
    measured(graph, text)
    heads = {name for name in order if f"@\"{BOUND_PREFIX}{name}\"(" in text or f"@{BOUND_PREFIX}{name}(" in text}
    count = copies(graph, order, set())
    shared = {head for head in heads if count[head] >= 2 and shareable(graph, text, head)}
    if inlined_size(graph, order, set()) <= limit and not shared:
        return set()
    refused: set[str] = set()
    while inlined_size(graph, order, shared) > limit:
        count, body = copies(graph, order, shared), _inlined_bodies(graph, order, shared)
        candidates = sorted((name for name in order[1:] if name not in shared | refused and count[name] >= 2),
                            key=lambda name: (-(count[name] - 1) * body[name], name))
        chosen = None
        for name in candidates:
            if shareable(graph, text, name):
                chosen = name
                break
            refused.add(name)
        if chosen is None:
            break
        shared.add(chosen)
    return shared


def _inlined_bodies(graph: CallGraph, order: list[str], shared: set[str]) -> dict[str, int]:
    """The size of one copy of each function with all it calls inlined (shared callees as call
    sites)."""
    size: dict[str, int] = {}
    for function in reversed(order):
        size[function] = graph.size[function] + sum(
            sites * (CALL_SITE_INSTRUCTIONS if callee in shared else size[callee])
            for callee, sites in graph.calls[function].items())
    return size


# --------------------------------------------------------------------------- the rewrite


def _shared_call(line: str, shared: set[str]) -> str | None:
    """The shared function `line` calls (None: not a call of one)."""
    if line.lstrip().startswith("#dbg_"):
        return None
    match = _CALL.search(line)
    return match.group(1) if match and match.group(1) in shared else None


def split_at_shared_calls(text: str, shared: set[str]) -> str:
    """Each block of each function cut just after every call of a shared function, into a block
    `llumc.share.cont.N` (the phis of the block's successors renamed after its last part), so
    that reg2mem then demotes every value that lives across such a call."""
    out: list[str] = []
    counter = 0
    position = 0
    for match in _DEFINE.finditer(text):
        end = text.index("\n}\n", match.end())
        out.append(text[position:match.end()])
        lines = text[match.end():end].split("\n")
        new_lines: list[str] = []
        last_part: dict[str, str] = {}
        block = None
        for line in lines:
            found = _LABEL.match(line)
            if found:
                block = found.group(1)
            new_lines.append(line)
            if _shared_call(line, shared):
                if block is None:
                    raise NotShareable("a function's entry block has no name")
                counter += 1
                cont = f"{SHARE_PREFIX}cont.{counter}"
                new_lines += [f"  br label %{cont}", "", f"{cont}:"]
                last_part[block] = cont
        if last_part:
            new_lines = [_PHI_INCOMING.sub(lambda m: f", %{last_part.get(m.group(1), m.group(1))} ]", line)
                         if " = phi " in line else line for line in new_lines]
        out.append("\n".join(new_lines))
        position = end
    out.append(text[position:])
    return "".join(out)


@dataclass
class _Site:
    """A call of the shared function: its arguments (type, value), result, debug location."""
    arguments: list[tuple[str, str]]
    result: str | None
    location: str | None
    continuation: str = ""  # the label of the block after the call


@dataclass
class _Shared:
    """The shared function being merged: its number, header parts and body lines."""
    number: int
    name: str
    returns: str
    parameters: list[tuple[str, str]]  # (type, name)
    body: list[str]

    def register(self, what: str) -> str:
        return f"%{SHARE_PREFIX}{self.number}.{what}"


def _function_lines(text: str, name: str) -> tuple[int, int, str, list[str]]:
    """Where `name`'s definition starts and ends (after its `}` line), its define line, its body."""
    match = next((m for m in _DEFINE.finditer(text) if m.group(2) == name), None)
    if match is None:
        raise NotShareable(f"{name} is not defined")
    end = text.index("\n}\n", match.end())
    return match.start(), end + 3, match.group(0), text[match.end() + 1:end].split("\n")


def _read_shared(text: str, name: str, number: int) -> _Shared:
    _, _, define_line, body = _function_lines(text, name)
    header = _DEFINE.match(define_line)
    parameters = []
    for parameter in _split_parameters(header.group(3)):
        value = re.search(r"%([\w.$-]+)$", parameter)
        if value is None:
            raise NotShareable(f"{name} has an unnamed parameter")
        parameters.append((parameter.split()[0], value.group(1)))
    if not body or not _LABEL.match(body[0]):
        raise NotShareable(f"{name}'s entry block has no name")
    return _Shared(number, name, _RETURN_PREFIX.sub("", header.group(1).strip()).strip(), parameters, body)


def _split_parameters(text: str) -> list[str]:
    return [part for part in split_top(text) if part.strip()]


def _read_site(line: str, function: _Shared) -> _Site:
    opening = line.index(f"@{function.name}(") + len(function.name) + 1
    arguments, closing = _arguments(line, opening)
    result = _DEF.match(line)
    location = _DBG.search(line[closing:])
    return _Site([_argument_value(argument) for argument in arguments], result.group(1) if result else None,
                 location.group(1) if location else None)


def _invariant_parameters(main: list[str], function: _Shared, sites: list[_Site]) -> dict[str, str]:
    """The parameters every site passes the same value that holds everywhere in main (a
    constant, a global, one of main's allocas): used as that value, with no register."""
    main_allocas = {match.group(1) for line in main if (match := _ALLOCA.match(line))}
    invariant = {}
    for index, (_, name) in enumerate(function.parameters):
        values = {site.arguments[index][1] for site in sites if len(site.arguments) > index}
        if len(values) == 1 and all(len(site.arguments) > index for site in sites):
            value = values.pop()
            local = re.fullmatch(r"%([\w.$-]+)", value)
            if "%" not in value or (local and local.group(1) in main_allocas):
                invariant[name] = value
    return invariant


def _rewrite_sites(main: list[str], function: _Shared, invariant: dict[str, str]) -> list[_Site]:
    """Each call of `function` in main's lines becomes: arguments into the parameter
    registers, the site's number into the site register, a branch to the shared entry; its
    continuation (the block split after the call) starts by reading the result."""
    sites: list[_Site] = []
    position = 0
    while position < len(main):
        line = main[position]
        if _shared_call(line, {function.name}) is None:
            position += 1
            continue
        sites.append(_read_site(line, function))
        arguments, result, location = sites[-1].arguments, sites[-1].result, sites[-1].location
        branch = next(index for index in range(position + 1, len(main))
                      if main[index].startswith(f"  br label %{SHARE_PREFIX}cont."))
        moved = main[position + 1:branch]
        label_line = main[branch + 2]
        sites[-1].continuation = _LABEL.match(label_line).group(1)
        debug = f", !dbg !{location}" if location else ""
        replacement = [f"  store {ptype} {value}, ptr {function.register(f'arg.{index}')}"
                       for index, (ptype, value) in enumerate(arguments)
                       if function.parameters[index][1] not in invariant]
        replacement += [f"  store i32 {len(sites) - 1}, ptr {function.register('site')}",
                        f"  br label %{SHARE_PREFIX}{function.number}.entry{debug}", "", label_line]
        if result:
            replacement.append(f"  %{result} = load {function.returns}, ptr {function.register('result')}")
        main[position:branch + 3] = replacement + moved
        position += len(replacement)
    return sites


def _fresh_names(function: _Shared, taken: set[str]) -> dict[str, str]:
    """A new name for each parameter, value and label of the shared body, none in `taken`
    (main's names, to which they are added): `x` becomes `x.i`, `x.i1`, ..., the suffix LLVM's
    inliner gives, which the names the front end reads after inlining allow for (`%__uninit.N`
    of the replay, `llumc.call.f` blocks, the call stack's `llumc.stack.` values). The blocks
    the split made (`llumc.share.cont.N`) are unique in the module and keep their names."""
    names = [name for _, name in function.parameters]
    for line in function.body:
        found = _DEF.match(line) or _LABEL.match(line)
        if found and not found.group(1).startswith(f"{SHARE_PREFIX}cont."):
            names.append(found.group(1))
    fresh = {}
    for name in names:
        candidate, number = f"{name}.i", 0
        while candidate in taken:
            number += 1
            candidate = f"{name}.i{number}"
        taken.add(candidate)
        fresh[name] = candidate
    return fresh


def _shared_body(function: _Shared, invariant: dict[str, str], sites: list[_Site],
                 relocate: dict[str, str], taken: set[str]) -> tuple[list[str], list[str]]:
    """The shared body for main: (its allocas, its blocks). Its values and labels renamed apart
    from main's (`_fresh_names`), the parameters read from their registers (or the invariant values),
    each `ret` a store of the result and a branch to the switch on the site number;
    `relocate` maps its debug locations to ones marked inlined into main."""
    names = _fresh_names(function, taken)

    def rename(match: re.Match) -> str:
        name = match.group(1)
        if name in invariant:
            return invariant[name]
        return f"%{names[name]}" if name in names else match.group(0)

    def relocated(line: str) -> str:
        line = _DBG.sub(lambda m: f"!dbg !{relocate.get(m.group(1), m.group(1))}", line)
        line = _LOOP.sub(lambda m: f"!llvm.loop !{relocate.get(m.group(1), m.group(1))}", line)
        return _RECORD_LOCATION.sub(lambda m: f"{m.group(1)}!{relocate.get(m.group(2), m.group(2))})", line)

    allocas: list[str] = []
    blocks = [f"{SHARE_PREFIX}{function.number}.entry:"]
    for index, (ptype, name) in enumerate(function.parameters):
        if name not in invariant:
            blocks.append(f"  %{names[name]} = load {ptype}, ptr {function.register(f'arg.{index}')}")
    # the body's first location for the branches that have none (a trace names a block by its
    # first line: the stack's bookkeeping blocks would show their labels otherwise)
    first = _DBG.search(next((relocated(line) for line in function.body if _DBG.search(line)), ""))
    debug = f", !dbg !{first.group(1)}" if first else ""
    blocks.append(f"  br label %{names[_LABEL.match(function.body[0]).group(1)]}{debug}")
    for line in function.body:
        label = _LABEL.match(line)
        if label:
            blocks += ["", f"{_LOCAL.sub(rename, '%' + label.group(1))[1:]}:"]
            continue
        line = relocated(_LOCAL.sub(rename, line))
        if _ALLOCA.match(line):
            allocas.append(line)
        elif line.startswith("  ret "):
            blocks += _return_lines(function, line)
        elif line.startswith("  br ") and "!dbg" not in line:
            blocks.append(line + debug)
        elif line.strip():
            blocks.append(line)
    blocks += ["", f"{SHARE_PREFIX}{function.number}.return:"]
    conts = [site.continuation for site in sites]
    if len(sites) == 1:
        blocks.append(f"  br label %{conts[0]}")
    else:
        site = f"%{SHARE_PREFIX}{function.number}.site.value"
        cases = " ".join(f"i32 {index}, label %{cont}" for index, cont in enumerate(conts) if index)
        blocks += [f"  {site} = load i32, ptr {function.register('site')}",
                   f"  switch i32 {site}, label %{conts[0]} [ {cases} ]"]
    return allocas, blocks


def _return_lines(function: _Shared, line: str) -> list[str]:
    debug = line[line.index(", !dbg"):] if ", !dbg" in line else ""
    returned = line[len("  ret "):len(line) - len(debug)]
    stores = [] if returned == "void" else [f"  store {returned}, ptr {function.register('result')}"]
    return stores + [f"  br label %{SHARE_PREFIX}{function.number}.return{debug}"]


class _Locations:
    """The module's debug locations, and new ones: copies of a shared body's locations marked
    inlined into main (the chain of `inlinedAt` ending at an anchor location of main)."""

    def __init__(self, text: str):
        self.bodies = {match.group(1): match.group(2) for match in _LOCATION_LINE.finditer(text)}
        self.next = max((int(match.group(1)) for match in _METADATA_ID.finditer(text)), default=-1) + 1
        self.added: list[str] = []

    def add(self, body: str) -> str:
        number = str(self.next)
        self.next += 1
        self.bodies[number] = body
        self.added.append(f"!{number} = {body}")
        return number

    def relocate(self, used: set[str], anchor: str) -> dict[str, str]:
        """For each location in `used`, its copy inlined at `anchor`."""
        copies: dict[str, str] = {}

        def copy(number: str) -> str:
            if number not in copies:
                body = self.bodies.get(number)
                if body is None:
                    return number
                inlined = re.search(r"inlinedAt: !(\d+)", body)
                if inlined:
                    body = body.replace(inlined.group(0), f"inlinedAt: !{copy(inlined.group(1))}")
                else:
                    body = body[:-1] + f", inlinedAt: !{anchor})"
                copies[number] = self.add(body)
            return copies[number]
        return {number: copy(number) for number in used}

    def relocate_loops(self, text: str, used: set[str], locations: dict[str, str]) -> dict[str, str]:
        """For each loop node in `used` (`!llvm.loop`), a new distinct one whose locations are
        the relocated ones (LLVM checks those as it checks `!dbg`)."""
        copies: dict[str, str] = {}
        for number in sorted(used):
            node = re.search(rf"^!{number} = distinct !\{{!{number}((?:, [^\n]*)?)\}}$", text, re.M)
            if node is None:
                continue
            new = str(self.next)
            operands = re.sub(r"!(\d+)", lambda m: f"!{locations.get(m.group(1), m.group(1))}", node.group(1))
            copies[number] = self.add(f"distinct !{{!{new}{operands}}}")
        return copies


def _used_locations(body: list[str]) -> set[str]:
    """The locations `body` uses: attachments, debug records', its loops' (`!llvm.loop`)."""
    used = set()
    for line in body:
        used.update(_DBG.findall(line))
        record = _RECORD_LOCATION.search(line.strip())
        if record:
            used.add(record.group(2))
    return used


def _used_loops(body: list[str]) -> set[str]:
    return {number for line in body for number in _LOOP.findall(line)}


def _loop_locations(text: str, body: list[str]) -> set[str]:
    """The operands of the loop nodes `body` uses (the locations among them get relocated)."""
    found = set()
    for number in _used_loops(body):
        node = re.search(rf"^!{number} = distinct !\{{([^\n]*)\}}$", text, re.M)
        if node:
            found.update(re.findall(r"!(\d+)", node.group(1)))
    return found - _used_loops(body)


def _alloca_type(line: str) -> str:
    return split_top(line.split(" = alloca ", 1)[1])[0].strip()


def _with_entry_allocas(main: list[str], allocas: list[str]) -> list[str]:
    """main's lines with `allocas` and every alloca of its entry block first, then a zero
    stored into each slot reg2mem or the sharing made (module docstring: no `undef` on the
    paths the site numbers rule out), then the rest of the entry block."""
    end = main.index("") if "" in main else len(main)
    entry = main[1:end]
    allocas = allocas + [line for line in entry if _ALLOCA.match(line)]
    rest = [line for line in entry if not _ALLOCA.match(line)]
    zeros = []
    for line in allocas:
        name = _ALLOCA.match(line).group(1)
        if _DEMOTED.search(name) or _REGISTER.match(name):
            zeros.append(f"  store {_alloca_type(line)} zeroinitializer, ptr %{name}")
    return main[:1] + allocas + zeros + rest + main[end:]


def merge_shared(text: str, shared: set[str]) -> str:
    """The module `text` (everything but `shared` inlined into main, blocks split at the
    shared calls and values demoted by reg2mem) with each shared function's body merged into
    main once and entered from all its call sites (module docstring)."""
    text = _ALLOCA_POINT.sub("", text)  # (reg2mem's marker, unused, one per function of one name)
    graph = read_call_graph(text)
    order = callers_first(graph)
    if order is None:
        raise NotShareable("the shared functions call each other in a cycle")
    main_start, main_end, main_define, main = _function_lines(text, "main")
    if not main or not _LABEL.match(main[0]):
        raise NotShareable("main's entry block has no name")
    locations = _Locations(text)
    main_scope = re.search(r"!dbg !(\d+)\s*\{$", main_define)
    allocas: list[str] = []
    for number, name in enumerate(name for name in order if name in shared):
        function = _read_shared(text, name, number)
        sites = [_read_site(line, function) for line in main if _shared_call(line, {name})]
        if not sites:  # (its calls were in code the passes deleted: it goes with them)
            continue
        invariant = _invariant_parameters(main, function, sites)
        sites = _rewrite_sites(main, function, invariant)
        anchor = sites[0].location
        if anchor is None and main_scope:
            anchor = locations.add(f"!DILocation(line: 0, scope: !{main_scope.group(1)})")
        relocate = locations.relocate(_used_locations(function.body) | _loop_locations(text, function.body),
                                      anchor) if anchor else {}
        relocate |= locations.relocate_loops(text, _used_loops(function.body), relocate) if anchor else {}
        taken = set(_LOCAL.findall("\n".join(main))) | {label.group(1) for line in main if (label := _LABEL.match(line))}
        body_allocas, blocks = _shared_body(function, invariant, sites, relocate, taken)
        allocas += [f"  {function.register(f'arg.{index}')} = alloca {ptype}"
                    for index, (ptype, pname) in enumerate(function.parameters) if pname not in invariant]
        allocas.append(f"  {function.register('site')} = alloca i32")
        if function.returns != "void":
            allocas.append(f"  {function.register('result')} = alloca {function.returns}")
        allocas += body_allocas
        main += [""] + blocks
    main = _with_entry_allocas(main, allocas)
    text = text[:main_start] + main_define + "\n" + "\n".join(main) + "\n}\n" + text[main_end:]
    for name in shared:
        start, end, _, _ = _function_lines(text, name)
        text = text[:start] + text[end:]
    return text + "\n" + "\n".join(locations.added) + "\n"
