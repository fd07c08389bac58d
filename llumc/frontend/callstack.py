"""Recursion as a call stack in the program's own state: a recursive function's body is
encoded once, whatever the depth, as the small-block and large-block encodings encode each
block once.

Why a rewrite of the IR and not a new kind of state in the encoder: once the recursion is a
loop over an explicit stack held in memory, every stage after the front end (both step
encoders, the memory model, bit-blasting, every engine, DimSpec/AIGER/BTOR2 export, the
invariant search) handles it as it handles any loop over an array, and the counterexample is
still a run of the program's own instructions, in the order the real program executes them,
so the native replay judges it unchanged.

The rewrite (`stack_recursion`), on the module after SROA, for each call cycle reachable from
main:

- The cycle's other members are inlined into one *head* (kept `noinline` for that pass), so
  the head calls only itself. A cycle whose members still form a cycle without the head is
  left to unrolling (`llumc.frontend.procedures`).
- The head's body runs in a loop. A recursive call pushes a frame and jumps back to the
  body's entry: the values live across the call (each in a frame array `[D x T]` indexed by
  the stack pointer), and the call site's number; a parameter passed on unchanged by every
  call stays the function's own. A `ret` stores the result and pops: back at the call site the
  frame is read back, or, in the outermost activation, the function returns.
- Inside the body each value that lives across a call is read from and written to a scalar
  register (an alloca that SROA turns back into SSA values): the rewrite only has to say where
  a value changes (its definition, a return to its frame), and SROA builds the phis.
- A call made with D activations running (sp = D-1) calls `__llumc_recursion_bound.F`
  instead: the recursion bound, an outcome of its own, as with unrolling. D doubles while the
  bound is reached (`llumc.check`); the encoding grows by D cells per saved value, not by a
  copy of the body per level.

What stays with unrolling (`NotStackable`): locals whose address is taken (allocas left after
SROA: each activation would need its own object), heap allocation in the recursion (the memory
model has one object per allocation site outside loops; unrolled, each level has its own
site), values of aggregate or vector type live across a call, `sret`/`byval` parameters,
inline assembly, cycles that stay cycles without their head (`plan_heads`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from llumc.frontend.cfg import split_top
from llumc.frontend.procedures import BOUND_PREFIX, call_cycles

__all__ = ["FIRST_STACK_DEPTH", "MAX_STACK_DEPTH", "NotStackable", "STACK_PREFIX", "StackPlan", "plan_heads",
           "stack_function", "stack_recursion", "with_inline_attribute"]

STACK_PREFIX = "llumc.stack."
# the largest stack bound: frame arrays beyond the memory model's exact objects would be
# abstract (their contents havocked), and every popped frame then any value
MAX_STACK_DEPTH = 1024
# The first stack bound where unrolling gave way to the stack: a frame costs a few cells, and
# the engines' work grows with the calls a trace makes, not with the bound.
FIRST_STACK_DEPTH = 32

_LABEL = re.compile(r"^([\w.$-]+):")
_DEF = re.compile(r"^  %([\w.$-]+) = ")
_VALUE = re.compile(r"%([\w.$-]+)")
_LABEL_REF = re.compile(r"label %([\w.$-]+)")
_PHI_PAIR = re.compile(r"\[ ([^\[\],]+), %([\w.$-]+) \]")
_ATTRIBUTES = re.compile(r"^(?:(?:noundef|nonnull|signext|zeroext|inreg|noalias|nocapture|readonly|writeonly|"
                         r"returned|immarg|noundef|align \d+|dereferenceable(?:_or_null)?\(\d+\))\s+)*")
_SCALAR_TYPE = re.compile(r"^(?:i\d+|ptr)$")
# Calls that make an object per execution: in a loop the memory model has one object for all of
# them (llumc.encoding.memory), where unrolling gives each level its own call site.
_ALLOCATION_CALL = re.compile(r"\bcall [^@]*@(malloc|calloc|realloc|alloca|__llumc_lifetime_start)\(")


class NotStackable(Exception):
    """The recursion has a shape the call stack does not take (module docstring): unrolled."""


@dataclass
class _Segment:
    """A stretch of a block between recursive calls: the first starts at the block's label,
    each later one just after a call (whose result it defines)."""
    label: str
    lines: list[str]
    call: str | None = None  # the call line that ends it (None: the block's terminator ends it)
    result: str | None = None  # the value the call before it defines (a later segment)


@dataclass
class StackPlan:
    """The heads of the call cycles and the functions inlined into them."""
    heads: list[str]
    inlined: set[str] = field(default_factory=set)


def plan_heads(graph: dict[str, list[str]]) -> StackPlan:
    """For each cycle reachable from main one head, such that the other members form no
    cycle among themselves (then inlining them into the head leaves only its own calls);
    NotStackable otherwise."""
    plan = StackPlan(heads=[])
    for cycle in call_cycles(graph, "main"):
        callers_outside = [name for caller, callees in graph.items() if caller not in cycle
                           for name in callees if name in cycle]
        candidates = sorted(cycle, key=lambda name: (name not in callers_outside, name))
        for head in candidates:
            rest = {name: [callee for callee in graph[name] if callee in cycle and callee != head]
                    for name in cycle if name != head}
            if not any(call_cycles({"main": list(rest), **rest}, "main")):
                plan.heads.append(head)
                plan.inlined |= cycle - {head}
                break
        else:
            raise NotStackable(f"the calls among {', '.join(sorted(cycle))} form more than one cycle")
    return plan


# --------------------------------------------------------------------------- one function


def _blocks(body: list[str]) -> list[tuple[str, list[str]]]:
    blocks: list[tuple[str, list[str]]] = []
    for line in body:
        label = _LABEL.match(line)
        if label:
            blocks.append((label.group(1), []))
        elif line.strip() and not line.lstrip().startswith(";"):
            if not blocks:
                blocks.append((STACK_PREFIX + "entry0", []))
            blocks[-1][1].append(line)
    return blocks


def _is_record(line: str) -> bool:
    return line.lstrip().startswith("#dbg_")


def _defined(line: str) -> str | None:
    match = _DEF.match(line)
    return match.group(1) if match else None


def _arguments(line: str, start: int) -> tuple[list[str], int]:
    """The argument texts of the call whose parenthesis opens at `start`, and where it closes."""
    depth = 0
    for position in range(start, len(line)):
        depth += line[position] in "([{<"
        depth -= line[position] in ")]}>"
        if depth == 0:
            return split_top(line[start + 1:position]), position
    raise NotStackable("a call's arguments could not be read")


def _argument_value(argument: str) -> tuple[str, str]:
    """(`i32 noundef %x` →) the type and the value of one call argument."""
    argument = argument.strip()
    type_text = argument.split()[0]
    rest = _ATTRIBUTES.sub("", argument[len(type_text):].strip())
    return type_text, rest


@dataclass
class _Function:
    """The head being rewritten: its parts as read from the module text."""
    name: str
    returns: str
    parameters: list[tuple[str, str]]  # (type, name)
    segments: list[_Segment]
    block_end: dict[str, str]  # block label → label of its last segment
    types: dict[str, str]  # value name → type


def _read(define_line: str, body: list[str], name: str, types: dict[str, str]) -> _Function:
    header = re.match(r"^define ([^@]*)@[\w.$-]+\((.*)\)([^(){}]*)\{$", define_line)
    if header is None or any(word in define_line for word in ("sret", "byval", "inalloca", "preallocated")):
        raise NotStackable(f"{name}'s parameters are passed in memory")
    returns = header.group(1).split()[-1]
    parameters = []
    for parameter in split_top(header.group(2)):
        if parameter == "...":
            raise NotStackable(f"{name} takes variable arguments")
        value = re.search(r"%([\w.$-]+)$", parameter)
        if value is None:
            raise NotStackable(f"{name} has an unnamed parameter")
        parameters.append((parameter.split()[0], value.group(1)))
    if any('%"' in line or line.startswith('"') for line in body):
        raise NotStackable(f"{name} has quoted value names")
    call = re.compile(r"\bcall [^@]*@" + re.escape(name) + r"\(")
    segments: list[_Segment] = []
    block_end: dict[str, str] = {}
    for label, lines in _blocks(body):
        segment = _Segment(label, [])
        segments.append(segment)
        for line in lines:
            if "asm " in line or line.lstrip().startswith(("alloca", "%")) and " = alloca " in line:
                raise NotStackable(f"{name} keeps {'inline assembly' if 'asm ' in line else 'a local in memory'}")
            allocation = _ALLOCATION_CALL.search(line)
            if allocation:
                raise NotStackable(f"{name} calls {allocation.group(1)}")
            if " = phi " in line and len(_PHI_PAIR.findall(line)) != line.count("[ "):
                raise NotStackable(f"{name} has a phi whose operands are not plain values")
            if call.search(line) and not _is_record(line):
                segment.call = line
                segment = _Segment(f"{STACK_PREFIX}cont.{len([s for s in segments if s.call])}", [],
                                   result=_defined(line))
                segments.append(segment)
            else:
                segment.lines.append(line)
        block_end[label] = segment.label
    return _Function(name, returns, parameters, segments, block_end, types)


def _uses(line: str, values: set[str]) -> set[str]:
    defined = _defined(line)
    return {name for name in _VALUE.findall(line) if name in values and name != defined}


def _successors(segment: _Segment) -> list[str]:
    if segment.call is not None or not segment.lines:
        return []
    return _LABEL_REF.findall(segment.lines[-1])


def _live_across_calls(function: _Function, values: set[str]) -> dict[str, set[str]]:
    """For each continuation segment (after a call) the values live at its start: what the
    call must save and the return restore. Backward liveness over the segments, a call ending
    its segment with no successor (the callee does not read the caller's values), phi operands
    live at the end of their incoming block."""
    by_label = {segment.label: segment for segment in function.segments}
    uses: dict[str, set[str]] = {}
    defs: dict[str, set[str]] = {}
    phi_in: dict[str, set[str]] = {segment.label: set() for segment in function.segments}
    for segment in function.segments:
        used, defined = set(), {segment.result} - {None}
        for line in segment.lines + ([segment.call] if segment.call else []):
            if _is_record(line):
                continue
            if " = phi " in line:
                for value, incoming in _PHI_PAIR.findall(line):
                    if value.startswith("%") and value[1:] in values:
                        phi_in[function.block_end.get(incoming, incoming)].add(value[1:])
            else:
                used |= _uses(line, values) - defined
            if _defined(line):
                defined.add(_defined(line))
        uses[segment.label], defs[segment.label] = used, defined
    live_in = {label: set(used) for label, used in uses.items()}
    changed = True
    while changed:
        changed = False
        for segment in reversed(function.segments):
            out = set(phi_in[segment.label])
            for successor in _successors(segment):
                if successor in by_label:
                    out |= live_in[successor]
            new = uses[segment.label] | (out - defs[segment.label])
            if new != live_in[segment.label]:
                live_in[segment.label], changed = new, True
    return {segment.label: live_in[segment.label] for segment in function.segments if segment.label.startswith(
        STACK_PREFIX + "cont.")}


def stack_function(define_line: str, body: list[str], name: str, types: dict[str, str], depth: int) -> str:
    """The function `name` (its define line, the lines of its body, the types of its values)
    rewritten to run its own recursive calls on a stack of `depth` frames (module docstring)."""
    function = _read(define_line, body, name, types)
    writer = _Writer(function, depth)
    return writer.text(define_line)


class _Writer:
    """Builds the rewritten function's text from a read `_Function`."""

    def __init__(self, function: _Function, depth: int):
        self.function = function
        self.depth = depth
        self.counter = 0
        parameters = {pname for _, pname in function.parameters}
        values = parameters | {d for s in function.segments for line in s.lines if (d := _defined(line))} | \
            {s.result for s in function.segments if s.result}
        self.calls = [s for s in function.segments if s.call]
        if len(self.calls) > 255:
            raise NotStackable(f"{function.name} calls itself at more than 255 places")
        self.one_site = len(self.calls) == 1  # (then no frame needs to say where to return)
        self.arguments = [self._call_arguments(s.call) for s in self.calls]
        self.invariant = {pname for position, (_, pname) in enumerate(function.parameters)
                          if all(len(args) > position and args[position][1] == f"%{pname}" for args in self.arguments)}
        self.live = {label: live - self.invariant for label, live in _live_across_calls(function, values).items()}
        self.saved = set().union(*self.live.values()) if self.live else set()
        for value in sorted(self.saved):
            if not _SCALAR_TYPE.match(function.types.get(value, "?")):
                raise NotStackable(f"a value of type {function.types.get(value, '?')} lives across a call of {function.name}")
        self.changing = [(ptype, pname) for ptype, pname in function.parameters if pname not in self.invariant]

    def _call_arguments(self, line: str) -> list[tuple[str, str]]:
        opening = line.index("@" + self.function.name + "(") + len(self.function.name) + 1
        arguments, _ = _arguments(line, opening)
        return [_argument_value(argument) for argument in arguments]

    def fresh(self, what: str) -> str:
        self.counter += 1
        return f"%{STACK_PREFIX}{what}.{self.counter}"

    def slot_type(self, value: str) -> str:
        value_type = self.function.types[value]
        return "i8" if value_type == "i1" else value_type

    @staticmethod
    def register(value: str) -> str:
        return f"%{STACK_PREFIX}cur.{value}"

    @staticmethod
    def frames(value: str) -> str:
        return f"%{STACK_PREFIX}frame.{value}"

    # ----------------------------------------------------------------- pieces

    def read_register(self, value: str) -> tuple[str, str]:
        """A load of `value`'s register: (its line, the loaded name)."""
        loaded = self.fresh("use")
        return f"  {loaded} = load {self.function.types[value]}, ptr {self.register(value)}", loaded

    def write_register(self, value: str) -> str:
        return f"  store {self.function.types[value]} %{value}, ptr {self.register(value)}"

    def frame_access(self, value: str, index: str, store: bool) -> list[str]:
        """Save `value`'s register into, or restore it from, its frame array at `index`."""
        value_type, slot_type = self.function.types[value], self.slot_type(value)
        address, held = self.fresh("slot"), self.fresh("held")
        lines = [f"  {address} = getelementptr inbounds [{self.depth} x {slot_type}], ptr {self.frames(value)}, "
                 f"i32 0, i32 {index}"]
        if store:
            lines.append(f"  {held} = load {value_type}, ptr {self.register(value)}")
            if value_type != slot_type:
                widened = self.fresh("wide")
                lines += [f"  {widened} = zext i1 {held} to i8", f"  store i8 {widened}, ptr {address}"]
            else:
                lines.append(f"  store {slot_type} {held}, ptr {address}")
        else:
            lines.append(f"  {held} = load {slot_type}, ptr {address}")
            if value_type != slot_type:
                narrowed = self.fresh("narrow")
                lines.append(f"  {narrowed} = trunc i8 {held} to i1")
                held = narrowed
            lines.append(f"  store {value_type} {held}, ptr {self.register(value)}")
        return lines

    def rewritten_lines(self, segment: _Segment, tail_loads: list[str]) -> list[str]:
        """The segment's lines with each saved value read from and written to its register."""
        out: list[str] = []
        phi_stores: list[str] = []
        lines = segment.lines
        for position, line in enumerate(lines):
            if _is_record(line):
                if not (_uses(line, self.saved)):
                    out.append(line)
                continue
            defined = _defined(line)
            if " = phi " in line:
                out.append(line)
                if defined in self.saved:
                    phi_stores.append(self.write_register(defined))
                continue
            if phi_stores:
                out += phi_stores
                phi_stores = []
            if position == len(lines) - 1 and segment.call is None:
                out += tail_loads
            line = self.with_registers(line, out)
            if line.startswith("  ret"):
                out += self.return_lines(line)
                continue
            out.append(line)
            if defined in self.saved:
                out.append(self.write_register(defined))
        out += phi_stores
        return out

    def with_registers(self, line: str, out: list[str]) -> str:
        """`line` reading its saved operands from their registers (loads appended to `out`)."""
        used = _uses(line, self.saved)
        if not used:
            return line
        defined = _defined(line)
        head, rest = (line.split(" = ", 1) if defined else ("", line))
        names = {}
        for value in sorted(used):
            load, names[value] = self.read_register(value)
            out.append(load)
        rest = _VALUE.sub(lambda m: names.get(m.group(1), m.group(0)), rest)
        return f"{head} = {rest}" if defined else rest

    def return_lines(self, line: str) -> list[str]:
        debug = line[line.index(", !dbg"):] if ", !dbg" in line else ""
        lines = []
        if self.function.returns != "void":
            value = line.strip()[len("ret "):].split(", !dbg")[0]
            lines.append(f"  store {value}, ptr %{STACK_PREFIX}ret")
        return lines + [f"  br label %{STACK_PREFIX}return{debug}"]

    def phi_loads(self) -> tuple[dict[str, list[str]], dict[str, dict[tuple[str, str], str]]]:
        """For phi operands that are saved values: a load at the end of the incoming segment."""
        loads: dict[str, list[str]] = {}
        renamed: dict[str, dict[tuple[str, str], str]] = {}
        for segment in self.function.segments:
            for line in segment.lines:
                if " = phi " not in line:
                    continue
                for value, incoming in _PHI_PAIR.findall(line):
                    name = value[1:] if value.startswith("%") else None
                    if name in self.saved:
                        load, loaded = self.read_register(name)
                        end = self.function.block_end.get(incoming, incoming)
                        loads.setdefault(end, []).append(load)
                        renamed.setdefault(segment.label, {})[(value, incoming)] = loaded
        return loads, renamed

    def renamed_phi(self, line: str, renamed: dict[tuple[str, str], str]) -> str:
        def pair(match: re.Match) -> str:
            value, incoming = match.group(1), match.group(2)
            value = renamed.get((value, incoming), value)
            return f"[ {value}, %{self.function.block_end.get(incoming, incoming)} ]"
        return _PHI_PAIR.sub(pair, line)

    # ----------------------------------------------------------------- calls and returns

    def push_lines(self, site: int, segment: _Segment) -> list[str]:
        """The call at the end of `segment`: save the live values and the site, bump sp, set the
        changing parameters, back to the body; at the bound, the bound's call instead."""
        cont = self.calls_continuation(site)
        sp = f"%{STACK_PREFIX}sp.at.{site}"
        debug = segment.call[segment.call.index(", !dbg"):] if ", !dbg" in segment.call else ""
        lines = [f"  {sp} = load i32, ptr %{STACK_PREFIX}sp"]
        for value in sorted(self.live[cont]):
            lines += self.frame_access(value, sp, store=True)
        site_address = self.fresh("site")
        if not self.one_site:
            lines += [f"  {site_address} = getelementptr inbounds [{self.depth} x i8], "
                      f"ptr %{STACK_PREFIX}sites, i32 0, i32 {sp}",
                      f"  store i8 {site}, ptr {site_address}"]
        lines += [f"  %{STACK_PREFIX}full.{site} = icmp eq i32 {sp}, {self.depth - 1}",
                  f"  br i1 %{STACK_PREFIX}full.{site}, label %{STACK_PREFIX}bound.{site}, "
                  f"label %{STACK_PREFIX}push.{site}",
                  "",
                  f"{STACK_PREFIX}bound.{site}:"]
        call = segment.call
        callee_at = call.index("@" + self.function.name + "(")
        call = re.sub(r"^  %[\w.$-]+ = ", "  ", call)
        callee_at = call.index("@" + self.function.name + "(")
        bound_call = call[:callee_at] + f'@"{BOUND_PREFIX}{self.function.name}"' + \
            call[callee_at + 1 + len(self.function.name):]
        lines.append(bound_call)
        lines += ["  unreachable", "", f"{STACK_PREFIX}push.{site}:",
                  f"  %{STACK_PREFIX}deeper.{site} = add i32 {sp}, 1",
                  f"  store i32 %{STACK_PREFIX}deeper.{site}, ptr %{STACK_PREFIX}sp"]
        for position, (ptype, pname) in enumerate(self.function.parameters):
            if pname not in self.invariant:
                _, value = self.arguments[site][position]
                lines.append(f"  store {ptype} {value}, ptr %{STACK_PREFIX}arg.{pname}")
        lines.append(f"  br label %{STACK_PREFIX}body{debug}")
        return lines

    def calls_continuation(self, site: int) -> str:
        return f"{STACK_PREFIX}cont.{site + 1}"

    def continuation_lines(self, segment: _Segment) -> list[str]:
        """At the start of a continuation: the call's result, the frame read back."""
        lines = []
        sp = self.fresh("sp")
        lines.append(f"  {sp} = load i32, ptr %{STACK_PREFIX}sp")
        for value in sorted(self.live[segment.label]):
            lines += self.frame_access(value, sp, store=False)
        if segment.result is not None:
            lines.append(f"  %{segment.result} = load {self.function.returns}, ptr %{STACK_PREFIX}ret")
            if segment.result in self.saved:
                lines.append(self.write_register(segment.result))
        return lines

    # ----------------------------------------------------------------- the whole

    def text(self, define_line: str) -> str:
        function = self.function
        renamed_header = define_line
        for ptype, pname in self.changing:
            renamed_header = re.sub(rf"%{re.escape(pname)}(?=[,)])", f"%{STACK_PREFIX}outer.{pname}", renamed_header)
        out = [renamed_header, f"{STACK_PREFIX}entry:",
               f"  %{STACK_PREFIX}sp = alloca i32"]
        if not self.one_site:
            out.append(f"  %{STACK_PREFIX}sites = alloca [{self.depth} x i8]")
        if function.returns != "void":
            out.append(f"  %{STACK_PREFIX}ret = alloca {function.returns}")
        for value in sorted(self.saved):
            out += [f"  {self.register(value)} = alloca {function.types[value]}",
                    f"  {self.frames(value)} = alloca [{self.depth} x {self.slot_type(value)}]"]
        for ptype, pname in self.changing:
            out.append(f"  %{STACK_PREFIX}arg.{pname} = alloca {ptype}")
        out.append(f"  store i32 0, ptr %{STACK_PREFIX}sp")
        for ptype, pname in self.changing:
            out.append(f"  store {ptype} %{STACK_PREFIX}outer.{pname}, ptr %{STACK_PREFIX}arg.{pname}")
        out += [f"  br label %{STACK_PREFIX}body", "", f"{STACK_PREFIX}body:"]
        for ptype, pname in self.changing:
            out.append(f"  %{pname} = load {ptype}, ptr %{STACK_PREFIX}arg.{pname}")
            if pname in self.saved:
                out.append(self.write_register(pname))
        out += [f"  br label %{function.segments[0].label}", ""]
        loads, renamed = self.phi_loads()
        site = 0
        for segment in function.segments:
            out.append(f"{segment.label}:")
            if segment.label.startswith(STACK_PREFIX + "cont."):
                out += self.continuation_lines(segment)
            lines = [self.renamed_phi(line, renamed.get(segment.label, {})) if " = phi " in line else line
                     for line in segment.lines]
            out += self.rewritten_lines(_Segment(segment.label, lines, segment.call), loads.get(segment.label, []))
            if segment.call is not None:
                call = self.with_registers(segment.call, out)
                segment.call = call
                self.arguments[site] = self._call_arguments(call)
                out += self.push_lines(site, segment)
                site += 1
            out.append("")
        out += self.return_block()
        out.append("}")
        return "\n".join(out) + "\n"

    def return_block(self) -> list[str]:
        """The one return: in the outermost activation the function's own, else a pop to the
        call site the frame names."""
        returns = self.function.returns
        sp, top = f"%{STACK_PREFIX}sp.ret", f"%{STACK_PREFIX}outermost"
        lines = [f"{STACK_PREFIX}return:",
                 f"  {sp} = load i32, ptr %{STACK_PREFIX}sp",
                 f"  {top} = icmp eq i32 {sp}, 0",
                 f"  br i1 {top}, label %{STACK_PREFIX}exit, label %{STACK_PREFIX}pop",
                 "", f"{STACK_PREFIX}pop:",
                 f"  %{STACK_PREFIX}sp.pop = sub i32 {sp}, 1",
                 f"  store i32 %{STACK_PREFIX}sp.pop, ptr %{STACK_PREFIX}sp"]
        if self.one_site:
            lines.append(f"  br label %{self.calls_continuation(0)}")
        else:
            lines += [f"  %{STACK_PREFIX}site.addr = getelementptr inbounds [{self.depth} x i8], "
                      f"ptr %{STACK_PREFIX}sites, i32 0, i32 %{STACK_PREFIX}sp.pop",
                      f"  %{STACK_PREFIX}site = load i8, ptr %{STACK_PREFIX}site.addr"]
            cases = " ".join(f"i8 {site}, label %{self.calls_continuation(site)}" for site in range(1, len(self.calls)))
            lines.append(f"  switch i8 %{STACK_PREFIX}site, label %{self.calls_continuation(0)} [ {cases} ]")
        lines += ["", f"{STACK_PREFIX}exit:"]
        if returns == "void":
            lines.append("  ret void")
        else:
            lines += [f"  %{STACK_PREFIX}result = load {returns}, ptr %{STACK_PREFIX}ret",
                      f"  ret {returns} %{STACK_PREFIX}result"]
        return lines


# --------------------------------------------------------------------------- the module

_DEFINE = re.compile(r"^define [^@\n]*@([\w.$-]+)\(.*$", re.M)
_ATTRIBUTE_GROUP = re.compile(r"^attributes #(\d+) = \{ (.*) \}$", re.M)


def stack_recursion(text: str, heads: list[str], depth: int, types: dict[str, dict[str, str]]) -> str:
    """The module `text` with each head (already calling only itself) run on a call stack of
    `depth` frames, and the recursion bound's function declared. `types`: for each head, the
    type of each of its values (parameters and instructions)."""
    for head in heads:
        match = next((m for m in _DEFINE.finditer(text) if m.group(1) == head), None)
        if match is None:
            raise NotStackable(f"{head} is not defined")
        end = text.index("\n}\n", match.start())
        define_line = match.group(0)
        body = text[match.end() + 1:end].split("\n")
        rewritten = stack_function(define_line, body, head, types[head], depth)
        declared = re.search(r"^define ([^@]*)@[\w.$-]+\((.*)\)", define_line)
        returns = declared.group(1).split()[-1]
        parameter_types = ", ".join(parameter.split()[0] for parameter in split_top(declared.group(2)))
        text = text[:match.start()] + rewritten + text[end + 3:]
        text += f'\ndeclare {returns} @"{BOUND_PREFIX}{head}"({parameter_types})\n'
    return text


def with_inline_attribute(text: str, function: str, attribute: str) -> tuple[str, tuple[str, str] | None]:
    """`function`'s attribute group replaced by a copy with `alwaysinline`/`noinline` set to
    `attribute`; returns the text and (old group, new group) (None: the function has no group)."""
    match = next((m for m in _DEFINE.finditer(text) if m.group(1) == function), None)
    group = re.search(r" #(\d+)\b", match.group(0)) if match else None
    if group is None:
        return text, None
    attributes = {m.group(1): m.group(2) for m in _ATTRIBUTE_GROUP.finditer(text)}
    words = [w for w in attributes.get(group.group(1), "").split(" ") if w not in ("alwaysinline", "noinline")]
    new_group = str(max(int(n) for n in attributes) + 1 if attributes else 0)
    line = match.group(0)
    new_line = line[:group.start()] + f" #{new_group}" + line[group.end():]
    text = text[:match.start()] + new_line + text[match.end():]
    text += f"\nattributes #{new_group} = {{ {' '.join([attribute] + words)} }}\n"
    return text, (group.group(1), new_group)

