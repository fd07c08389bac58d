"""From an engine's trace to FALSE: the trace read back in C terms (steps, nondet values, error
sites, memory faults, the blocks the allocator handed out again) and replayed natively
(`confirm_counterexample`): FALSE only when the error happened where the model says.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from llumc.check.result import CheckResult, ErrorSite, InputValue, Progress, TraceStep
from llumc.encoding.floatsem import float_text
from llumc.frontend.compile import UNINIT_PREFIX
from llumc.frontend.callstack import STACK_PREFIX
from llumc.frontend.libcalls import NONDET_TYPES
from llumc.frontend.procedures import called_through_pointer
from llumc.pipeline import EncodeResult, SymbolMap, WordAssignment, executed_blocks, read_symbol_map, step_values


def _signed_nondet(function: str) -> bool:
    """`__VERIFIER_nondet_int` returns a signed type, `_uint`/`_bool`/`_size_t` unsigned ones
    (SV-COMP's list with each C type: llumc.frontend.libcalls.NONDET_TYPES)."""
    from llumc.frontend.libcalls import nondet_signed

    return nondet_signed(function)


# the nondet functions whose C type is a float type: their values are printed as C floats
_FLOAT_NONDET = {f"__VERIFIER_nondet_{kind}" for kind, (c_type, _) in NONDET_TYPES.items()
                 if c_type in ("float", "double")}


def _signed(value: int, width: int) -> int:
    return value - (1 << width) if width > 1 and value >> (width - 1) else value


def _sites_in(result: EncodeResult, block_name: str, prop: str) -> list[ErrorSite]:
    from llumc.frontend.compile import TRAP_KINDS, classify_call

    try:
        block = result.fn.block(block_name)
    except KeyError:
        return []
    sites: list[ErrorSite] = []
    for instr in block.instrs:
        if instr.opcode != "call" or not instr.callee:
            continue
        kind = classify_call(instr.callee)
        where = result.debug.location_of(instr.text) if result.debug is not None and instr.text else None
        column = where[1] or None if where and where[0] == instr.line else None
        if kind in ("error", "assert") and prop in ("unreach-call", "all"):
            if kind == "assert":
                description = f"{instr.callee}() failed"
            elif "assert" in instr.callee:
                description = "assertion failed"
            else:
                description = f"{instr.callee}() reached"
            sites.append(ErrorSite("assert" if kind == "assert" else "error-call", instr.line, description, column))
        elif kind == "recursion-bound":
            function = instr.callee.split(".", 1)[1] if "." in instr.callee else instr.callee
            sites.append(ErrorSite("recursion-bound", instr.line,
                                   f"'{function}' called deeper than the recursion bound", column))
        elif kind == "summary-check":
            sites.append(ErrorSite("summary-check", instr.line, f"{instr.callee}() reached", column))
        elif kind == "invalid-call":
            sites.append(ErrorSite("invalid-call", instr.line,
                                   "call through a function pointer that points to no function of the call's type",
                                   column))
        elif kind == "trap" and prop in ("no-overflow", "all"):
            trap = instr.operands[0].value if instr.operands and hasattr(instr.operands[0], "value") else None
            # `check` instruments signed overflow only, so kind 3 is INT_MIN / -1, not x / 0.
            name = "division overflow (INT_MIN / -1)" if trap == 3 else TRAP_KINDS.get(trap, "failed check")
            sites.append(ErrorSite("overflow", instr.line, name, column))
    return sites


def error_sites(result: EncodeResult, blocks: list[str]) -> list[ErrorSite]:
    """The places the last step of a trace can reach `error` from under the encoded property,
    given the blocks it ran in order (`executed_blocks`): the step ends in its last block, at an
    error call or trap there, or at a trap block its sanitizer check branches to (fused check)."""
    if result.fn is None or not blocks:
        return []
    prop = result.word.prop
    last = blocks[-1]
    sites = _sites_in(result, last, prop)
    for target in result.fn.block(last).instrs[-1].targets:
        if target not in blocks:
            sites += [s for s in _sites_in(result, target, prop) if s.kind == "overflow"]
    return sites


@dataclass
class FaultSite:
    line: int | None
    # "NULL dereference (read of 4 bytes)", "out-of-bounds or invalid write of 4 bytes",
    # "use of local 'a' outside its lifetime (read of 4 bytes)"
    description: str
    leak: bool = False  # valid-memtrack: no access, nothing the native replay could show
    # an access the model does not hold (main's arguments past what it models): neither a
    # fault nor a valid access as far as the model knows, so the answer is UNKNOWN
    undecided: bool = False
    # an allocation site in a loop ran more often than its pool has objects: the allocation
    # bound (llumc.encoding.memory.HeapPool), an outcome of its own (`llumc.check` enlarges the pools)
    bound: bool = False
    # the part of valid-memsafety violated: a leak valid-memtrack, an invalid or double free
    # valid-free, any other access valid-deref
    subproperty: str = "valid-deref"


def memory_objects(encoded: EncodeResult) -> list:
    return list(getattr(encoded.word, "memory_objects", []) or [])


def memory_fault(encoded: EncodeResult, trace: list[list[int]]) -> FaultSite | None:
    """The invalid memory access the last step of a trace ends in (llumc.encoding.memory.MemoryFault
    conditions evaluated on that step's state and inputs), or None."""
    from llumc.encoding.terms import evaluate

    faults = encoded.word.memory_faults
    if not faults or len(trace) < 2:
        return None
    leaves = step_values(encoded, read_symbol_map(encoded.ts.comments), trace[-2])
    cache: dict[int, int] = {}
    for fault in faults:
        if evaluate(fault.cond, leaves, cache):
            if fault.leak:
                return FaultSite(fault.line, fault.access, leak=True, subproperty="valid-memtrack")
            if fault.bound:
                return FaultSite(fault.line, fault.access, bound=True)
            for what, outside in fault.unmodelled:
                if evaluate(outside, leaves, cache):
                    return FaultSite(fault.line, what, undecided=True)
            part = "valid-free" if fault.access == "free" else "valid-deref"
            if evaluate(fault.null, leaves, cache):
                return FaultSite(fault.line, f"NULL dereference ({fault.access})", subproperty=part)
            for what, dead in fault.dead:
                if evaluate(dead, leaves, cache):
                    return FaultSite(fault.line, f"{what} ({fault.access})", subproperty=part)
            return FaultSite(fault.line, f"out-of-bounds or invalid {fault.access}", subproperty=part)
    return None


def native_mismatch(encoded: EncodeResult, trace: list[list[int]]) -> str | None:
    """Why a native run cannot be trusted to follow the trace, or None: some step of it makes
    an allocation of nondeterministic size a native run does not make as the model does
    (llumc.encoding.memory.NativeMismatch: a VLA of length <= 0, or a very large one)."""
    from llumc.encoding.terms import evaluate

    mismatches = getattr(encoded.word, "native_mismatches", None)
    if not mismatches:
        return None
    symbols = read_symbol_map(encoded.ts.comments)
    for assignment in trace[:-1]:
        leaves = step_values(encoded, symbols, assignment)
        cache: dict[int, int] = {}
        for mismatch in mismatches:
            if evaluate(mismatch.cond, leaves, cache):
                return mismatch.description
    return None


def heap_reuse(encoded: EncodeResult, trace: list[list[int]]) -> list[tuple[int, int]] | None:
    """The allocator's choices a trace makes, for the native replay: (k, j) when the k-th heap
    allocation of the run (malloc and calloc in the order they run, from 0) got the address
    of the j-th, freed by then (docs/memory.md, "Allocation model and address reuse"). None when the model
    observes no heap address: then no choice of the allocator matters to the trace."""
    objects = memory_objects(encoded)
    by_site: dict[int, list] = {}  # a call site -> its object, or its pool's in order
    for obj in objects:
        if obj.heap and obj.site_key is not None:
            by_site.setdefault(obj.site_key, []).append(obj)
    if encoded.fn is None or not any(obj.address is not None for site in by_site.values() for obj in site):
        return None
    symbols = read_symbol_map(encoded.ts.comments)
    symbol_of = {var.index: symbol for symbol, var in zip(symbols.state, encoded.word.state)}
    allocations: list[int | None] = []  # the address each allocation got, in run order
    for i in range(len(trace) - 1):
        for name in executed_blocks(encoded, trace[i]):
            for ins in encoded.fn.block(name).instrs:
                site = by_site.get(ins.key) if ins.opcode == "call" else None
                if site is not None:
                    # a site in a loop hands out object n after n runs (a step runs it at most once)
                    runs = site[0].pool_runs
                    n = 0 if runs is None else symbols.value(symbol_of[runs.index], trace[i])
                    if n >= len(site):
                        continue  # all of the pool taken: the run ends at the allocation bound
                    obj = site[n]
                    address = obj.address
                    allocations.append(None if address is None
                                       else symbols.value(symbol_of[address.index], trace[i + 1]))
    pairs = []
    for k, address in enumerate(allocations):
        earlier = [j for j in range(k) if address is not None and allocations[j] == address]
        if earlier:
            pairs.append((k, earlier[-1]))
    return pairs


# A replay passes fewer than 2^REPLAY_ARGC_BITS arguments: building and passing more (the model
# allows any argc up to INT_MAX) costs more than a run is worth, and Linux's limit on the size of
# the arguments (a quarter of the stack limit) took at most 233 014 empty ones here (8 MiB).
REPLAY_ARGC_BITS = 16
MAX_REPLAY_ARGUMENTS = (1 << REPLAY_ARGC_BITS) - 1


@dataclass
class ProgramArguments:
    """main's arguments in a trace (llumc.frontend.mainargs): argc, and the strings the model
    holds (argv[0 .. MODELLED_ARGUMENTS-1] as far as argc goes; each with its real length,
    its bytes past the model's MODELLED_BYTES unknown)."""

    argc: int
    strings: list[bytes]  # the known bytes of argv[k], without the NUL
    lengths: list[int]  # strlen(argv[k])

    def for_replay(self) -> list[bytes] | None:
        """argv for a real run: argc strings, each of its length (bytes the model does not
        hold are `a`: the trace never read them, reading them is undecided); None where argc
        is more than a replay passes."""
        if self.argc > MAX_REPLAY_ARGUMENTS:
            return None
        known = [text + b"a" * (length - len(text)) for text, length in zip(self.strings, self.lengths)]
        return known + [b""] * (self.argc - len(known))

    def text(self) -> list[str]:
        """argv as C string literals (`"x"`), `…` closing a string the model holds a prefix of
        and the list where argc is larger than the strings the model holds."""
        shown = [_c_literal(text) + (f"… (length {length})" if length > len(text) else "")
                 for text, length in zip(self.strings, self.lengths)]
        return shown + (["…"] if self.argc > len(shown) else [])


def _c_literal(text: bytes) -> str:
    escaped = {ord("\\"): "\\\\", ord('"'): '\\"', ord("\n"): "\\n", ord("\t"): "\\t"}
    return '"' + "".join(escaped.get(b, chr(b) if 32 <= b < 127 else f"\\x{b:02x}") for b in text) + '"'


def program_arguments(encoded: EncodeResult, trace: list[list[int]]) -> ProgramArguments | None:
    """argc and argv as the trace has them at the start (main's first step reads argc and sets
    up argv; the strings' contents and sizes are that step's pre-state); None where main has
    no parameters."""
    from llumc.frontend.mainargs import ARGC_FUNCTION

    symbols = read_symbol_map(encoded.ts.comments)
    argc_input = next((inp for inp in symbols.inputs if inp.site == ARGC_FUNCTION), None)
    if argc_input is None or not trace:
        return None
    argc = symbols.value(argc_input, trace[0])
    vector = next((obj for obj in memory_objects(encoded) if obj.argument == "vector"), None)
    if vector is None:  # argv unused: the model holds no string
        return ProgramArguments(argc, [], [])
    symbol_of = {var.index: symbol for symbol, var in zip(symbols.state, encoded.word.state)}

    def start(var) -> int:
        return symbols.value(symbol_of[var.index], trace[0])

    strings, lengths = [], []
    for string in vector.strings[:argc]:
        length = max(0, start(string.size_var) - 1)
        cells = b"".join(start(var).to_bytes(string.cell, "little") for var in string.cells)
        known = cells[:min(length, len(cells))]
        strings.append(known.replace(b"\0", b"a"))  # (only a trace the model does not allow has one)
        lengths.append(length)
    return ProgramArguments(argc, strings, lengths)


def with_fewer_arguments(encoded: EncodeResult):
    """The encoded DimSpec system with argc below 2^REPLAY_ARGC_BITS (its input's high bits 0
    in every step: only main's first step reads it), for a counterexample a replay can run
    when the engines' first one had more arguments than it passes; None where main has no
    parameters. Its paths are paths of the system, so a trace of it is one of the program."""
    from dataclasses import replace

    from llumc.frontend.mainargs import ARGC_FUNCTION

    symbols = read_symbol_map(encoded.ts.comments)
    argc = next((inp for inp in symbols.inputs if inp.site == ARGC_FUNCTION), None)
    if argc is None:
        return None
    high = [[-var] for var in range(argc.lo + REPLAY_ARGC_BITS, argc.hi + 1)]
    return replace(encoded.ts, trans=encoded.ts.trans + high)


def _call_column(result: EncodeResult, chain: list[str], inp) -> int | None:
    """Column of the call that read input `inp` (its debug location), when it is on `inp.line`."""
    if result.fn is None or result.debug is None or not inp.ir_name:
        return None
    try:
        block = result.fn.block(inp.block)
    except KeyError:
        return None
    for instr in block.instrs:
        if instr.name == inp.ir_name and instr.text:
            where = result.debug.location_of(instr.text)
            return where[1] or None if where and where[0] == inp.line else None
    return None


def _changed(shown: list, before, after, symbols: SymbolMap) -> list:
    """The variables of `shown` whose values differ between two time steps of a trace (for
    steps held as words, `WordAssignment`, by comparing the words: a trace of 2 000 steps over
    1 000 cells)."""
    if isinstance(before, WordAssignment) and isinstance(after, WordAssignment):
        old, new = before.words, after.words
        return [var for var in shown if old.get(var.lo, 0) != new.get(var.lo, 0)]
    return [var for var in shown if symbols.value(var, before) != symbols.value(var, after)]


def _ran_in(var, chain: list[str], result: EncodeResult) -> bool:
    """Whether a state variable's value was set by an instruction of `chain` (the blocks a
    step ran). The step into `error` or `ok` may also write values of blocks after the check
    that ended it, and the phis of the cut point it did not reach: those writes are guarded
    without the checks (`LargeBlockEncoder._follow_branches`), so they are no values of the
    program. Memory is written under exact conditions and always shown."""
    if var.kind == "memory" or result.fn is None:
        return True
    for name in chain:
        for ins in result.fn.block(name).instrs:
            if ins.name == var.ir_name:
                return not (ins.opcode == "phi" and name == chain[0])
    return False


def decode_trace(result: EncodeResult, trace: list[list[int]], *, ir_names: bool = False
                 ) -> tuple[list[TraceStep], list[InputValue]]:
    """C-level steps of a model trace, and the inputs in the order the program reads them: the
    `__VERIFIER_nondet_*` values (also listed in their steps) and the values the model chose for
    uninitialised locals (function `__llumc_uninit_iN`, told apart by `ir_name`; not shown in
    the steps: they are not calls in the C program).

    State i is the state *before* block curr_i runs; what block i changed is visible in state i+1.
    """
    symbols: SymbolMap = read_symbol_map(result.ts.comments)
    curr = next(s for s in symbols.state if s.kind == "block")
    values_only = [s for s in symbols.state if s.kind in ("value", "phi", "memory", "pointer")]
    steps: list[TraceStep] = []
    ordered_inputs: list[InputValue] = []
    from llumc.frontend.cfg import POINTER_WIDTH
    from llumc.encoding.memory import pointer_text, stored_pointer_text

    objects = result.word.memory_objects
    pointer_cells = {var.index for obj in objects for var in obj.pointer_cell_vars}
    index_of = {id(symbol): var.index for symbol, var in zip(symbols.state, result.word.state)}
    # main's arguments set up in the first step: the trace's `arguments` line shows them
    setup = {var.index for obj in objects if obj.argument
             for var in [*obj.cells, obj.size_var, obj.terminator] if var is not None}
    error_code = max(symbols.blocks)
    # IR temporaries and the call stack's frames (llumc.frontend.callstack) only with --ir-trace
    shown = [var for var in values_only if ir_names or (
        var.c_names and not all(name.startswith(STACK_PREFIX) for name in var.c_names))]
    for i in range(len(trace) - 1):
        code = symbols.value(curr, trace[i])
        name, line = symbols.blocks.get(code, (f"<block {code}>", None))
        if code == error_code:
            break
        chain = executed_blocks(result, trace[i])
        if chain and result.fn is not None:
            # a step may run several blocks (fused chain, large block): show where it ended
            line = result.fn.block(chain[-1]).line or line
        step = TraceStep(step=i, block=name, line=line, blocks=chain,
                         indirect_calls=[f for f in map(called_through_pointer, chain) if f])
        for inp in sorted((inp for inp in symbols.inputs if inp.block in chain),
                          key=lambda inp: chain.index(inp.block)):
            width = inp.hi - inp.lo + 1
            value = symbols.value(inp, trace[i])
            is_float = inp.site in _FLOAT_NONDET
            if _signed_nondet(inp.site) and not is_float:
                value = _signed(value, width)
            item = InputValue(inp.site, value, width, inp.line, inp.ir_name, _call_column(result, chain, inp),
                              text=float_text(value, width) if is_float else None)
            if inp.site.startswith("__VERIFIER_nondet_"):
                step.inputs.append(item)
                ordered_inputs.append(item)
            elif inp.site.startswith(UNINIT_PREFIX):
                ordered_inputs.append(item)
        ends_run = symbols.value(curr, trace[i + 1]) in (error_code, error_code - 1)
        for var in _changed(shown, trace[i], trace[i + 1], symbols):
            if i == 0 and index_of.get(id(var)) in setup:
                continue
            if ends_run and not _ran_in(var, chain, result):
                continue
            after = symbols.value(var, trace[i + 1])
            label = var.ir_name if ir_names else ",".join(var.c_names)
            width = var.hi - var.lo + 1
            unsigned = result.debug is not None and any(
                name in result.debug.unsigned_variables for name in var.c_names)
            if result.debug is not None and width in (32, 64) and any(
                    name in result.debug.float_variables for name in var.c_names):
                step.changes[label] = float_text(after, width)
            elif objects and width == POINTER_WIDTH and var.kind == "pointer":
                step.changes[label] = pointer_text(objects, after)
            elif var.kind == "memory" and index_of.get(id(var)) in pointer_cells:
                step.changes[label] = stored_pointer_text(objects, after, width)
            else:
                step.changes[label] = after if unsigned else _signed(after, width)
        steps.append(step)
    return steps, ordered_inputs


def confirm_counterexample(encoded: EncodeResult, trace: list[list[int]], source: Path, *, m32: bool = False,
                           clang: str | None = None, ir_trace: bool = False, timeout: float = 30.0,
                           progress: Progress | None = None) -> CheckResult:
    """FALSE if the model trace replays natively to the error it ends in; else UNKNOWN."""
    from llumc.check.replay import ReplayExpectation, replay, uninit_site

    prop = encoded.word.prop
    steps, all_inputs = decode_trace(encoded, trace, ir_names=ir_trace)
    inputs = [i for i in all_inputs if not i.function.startswith(UNINIT_PREFIX)]
    # Values the model chose for uninitialised locals: the replay build starts those locals from
    # them (None: the model read none, compile the C file directly).
    uninit = [(uninit_site(i.ir_name or ""), i.value & ((1 << i.width) - 1), i.width)
              for i in all_inputs if i.function.startswith(UNINIT_PREFIX)]
    uninit_values = [(site, value, width) for site, value, width in uninit if site is not None] if uninit else None
    last_block = steps[-1].blocks[-1] if steps and steps[-1].blocks else None
    sites = error_sites(encoded, steps[-1].blocks) if steps else []
    result = CheckResult("unknown", prop, "", steps=len(trace) - 1, trace=steps,
                         uninitialised_values=len(uninit_values or []))
    arguments = program_arguments(encoded, trace)
    argv = None
    if arguments is not None:
        result.arguments = arguments.text()
        result.argc = arguments.argc
        argv = arguments.for_replay()
        if argv is None:
            result.reason = (f"counterexample not confirmed: argc = {arguments.argc}, more arguments than a "
                             f"replay passes (at most {MAX_REPLAY_ARGUMENTS})")
            return result
    reuse = heap_reuse(encoded, trace)
    fault = memory_fault(encoded, trace)
    if fault is not None:
        name = Path(encoded.fn.source).name if encoded.fn is not None and encoded.fn.source else source.name
        where = f"{name}:{fault.line}" if fault.line else name
        if fault.leak:
            result.error = ErrorSite("memory", fault.line, fault.description, subproperty=fault.subproperty)
            if prop != "valid-memsafety":
                result.reason = f"possible {fault.description} at {where}: a leak is not confirmed natively"
                return result
            return _leak_replayed(source, inputs, result, fault, where, m32=m32, clang=clang, timeout=timeout,
                                  uninit_values=uninit_values, heap_reuse=reuse, arguments=argv, progress=progress)
        if fault.undecided:
            result.reason = f"not modelled: {fault.description} at {where}"
            return result
        if fault.bound:
            result.error = ErrorSite("allocation-bound", fault.line, fault.description)
            result.reason = f"heap allocation bound reached: {fault.description} at {where}"
            return result
        if prop == "valid-memsafety":
            if progress:
                progress(f"replaying the counterexample ({len(inputs)} nondet values)")
            expect = ReplayExpectation(kind="memory", line=fault.line)
            replayed = replay(source, [i.value for i in inputs], expect, m32=m32, clang=clang, timeout=timeout,
                              uninit_values=uninit_values, heap_reuse=reuse, arguments=argv)
            if not replayed.confirmed and reuse:
                # a use of a dangling pointer whose block the trace handed out again is valid
                # natively; with every block new (an allocator's choice too) it faults
                replayed = replay(source, [i.value for i in inputs], expect, m32=m32, clang=clang,
                                  timeout=timeout, uninit_values=uninit_values, heap_reuse=[], arguments=argv)
            # the model's access may have lost its line (a load hoisted out of its branch):
            # the replay saw the fault's line
            line = fault.line if fault.line is not None or not replayed.confirmed else replayed.line
            result.error = ErrorSite("memory", line, fault.description, subproperty=fault.subproperty)
            return _settled(result, replayed, f"counterexample not confirmed: {fault.description} at {where}; natively")
        # undefined behaviour before the property's error: the program's answer is not defined
        result.reason = f"invalid memory access (undefined behaviour): {fault.description} at {where}"
        result.error = ErrorSite("memory", fault.line, fault.description)
        return result
    mismatch = native_mismatch(encoded, trace)
    if mismatch is not None:
        result.error = sites[0] if len(sites) == 1 else None
        result.reason = f"counterexample not confirmed: {mismatch}"
        return result
    if sites and sites[0].kind in ("recursion-bound", "invalid-call"):
        return _outcome_of_its_own(encoded, sites[0], source, result, [i.value for i in inputs],
                                   m32=m32, clang=clang, timeout=timeout, uninit_values=uninit_values,
                                   progress=progress)
    sites = [site for site in sites if site.kind not in ("recursion-bound", "invalid-call")]
    if not sites:
        result.reason = f"counterexample not confirmed: no error site in block {last_block}"
        return result
    if progress:
        progress(f"replaying the counterexample ({len(inputs)} nondet values)")
    # One native run per kind of check: each build compiles in only its own kind's checks.
    families: dict[str, list[ErrorSite]] = {}
    for site in sites:
        families.setdefault("unreach" if site.kind in ("error-call", "assert") else site.kind, []).append(site)
    observed = []
    for group in families.values():
        lines = {site.line for site in group}
        expect = ReplayExpectation(kind=group[0].kind, line=group[0].line if len(lines) == 1 else None)
        replayed = replay(source, [i.value for i in inputs], expect, m32=m32, clang=clang, timeout=timeout,
                          uninit_values=uninit_values, heap_reuse=reuse, arguments=argv)
        # several sites in the last block: the replay tells which one, by a line of its call
        # chain (the error of an inlined assert from a header is at the assert's call)
        hit = next((line for line in [replayed.line, *replayed.chain] if line in lines), None)
        if replayed.confirmed and (len(lines) == 1 or hit is not None):
            at = next((site for site in group if site.line == hit), group[0])
            result.error = ErrorSite(at.kind, at.line if at.line is not None else replayed.line, at.description,
                                     at.column if at.line is not None else None)
            result.verdict = "false"
            result.confirmation = f"replayed: {replayed.observed}"
            return result
        observed.append(replayed.observed)
    result.error = sites[0] if len(sites) == 1 else None
    result.reason = f"counterexample not confirmed: {'; '.join(observed)}"
    return result


def _settled(result: CheckResult, replayed, unconfirmed: str) -> CheckResult:
    """`result` FALSE where the native run showed the violation (`replayed: ...`), else
    UNKNOWN with `unconfirmed`, then what the native run did instead."""
    if replayed.confirmed:
        result.verdict = "false"
        result.confirmation = f"replayed: {replayed.observed}"
    else:
        result.reason = f"{unconfirmed}: {replayed.observed}"
    return result


def _leak_replayed(source: Path, inputs: list[InputValue], result: CheckResult, fault: "FaultSite", where: str,
                   *, m32: bool, clang: str | None, timeout: float, uninit_values, heap_reuse,
                   arguments: list[bytes] | None, progress: Progress | None) -> CheckResult:
    """A trace into a leak edge (valid-memtrack), replayed natively: the trace's values, then 0
    for every further nondet value, until main returns, where the harness looks for a heap block
    that no pointer from the program's globals reaches (`replay_harness.c`). FALSE when it finds
    one: whatever the continuation, it is a run of the program that loses memory. The model's
    leak edges are stricter than SV-COMP's (memory a global still points to at the end counts
    there), so a leak the native run does not show stays UNKNOWN."""
    from llumc.check.replay import LEAK_KIND, ReplayExpectation, replay

    if progress:
        progress(f"replaying the counterexample to the end of main ({len(inputs)} nondet values)")
    replayed = replay(source, [i.value for i in inputs], ReplayExpectation(kind=LEAK_KIND, line=None),
                      m32=m32, clang=clang, timeout=timeout, uninit_values=uninit_values,
                      heap_reuse=heap_reuse or [], arguments=arguments)
    return _settled(result, replayed, f"possible {fault.description} at {where}: not confirmed natively")


def _outcome_of_its_own(encoded: EncodeResult, site: ErrorSite, source: Path, result: CheckResult,
                        values: list[int], *, m32: bool, clang: str | None, timeout: float,
                        uninit_values, progress: Progress | None) -> CheckResult:
    """A trace ending where the model stops without the property's error: a recursion deeper
    than the unrolled bound (UNKNOWN; `llumc.check` tries a deeper one), or a call through an
    invalid function pointer (undefined behaviour: UNKNOWN, but FALSE under valid-memsafety
    when the native run faults there)."""
    from llumc.check.replay import ReplayExpectation, replay

    name = Path(encoded.fn.source).name if encoded.fn is not None and encoded.fn.source else source.name
    where = f"{name}:{site.line}" if site.line else name
    result.error = site
    if site.kind == "recursion-bound":
        result.reason = (f"recursion deeper than {encoded.recursion_depth} calls "
                         f"({site.description.split(' called')[0]} at {where})")
        return result
    if encoded.word.prop != "valid-memsafety":
        result.reason = f"undefined behaviour: {site.description} at {where}"
        return result
    if progress:
        progress(f"replaying the counterexample ({len(values)} nondet values)")
    replayed = replay(source, values, ReplayExpectation(kind="memory", line=site.line), m32=m32, clang=clang,
                      timeout=timeout, uninit_values=uninit_values)
    result.error = ErrorSite("memory", site.line if site.line is not None else replayed.line,
                             f"invalid function pointer: {site.description}", site.column, subproperty="valid-deref")
    return _settled(result, replayed, f"counterexample not confirmed: {site.description} at {where}; natively")
