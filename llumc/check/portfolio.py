"""`llumc check`: encode, solve, and only then say TRUE or FALSE.

FALSE only after the counterexample has been replayed natively and the error happened where
the model says; TRUE only with an inductive invariant that fresh SAT calls checked (done in
`solvers.api.solve`); everything else is UNKNOWN with the reason.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from llumc.pipeline import EncodeResult, SymbolMap, encode_file, executed_blocks, read_symbol_map, step_values
from llumc.errors import UnsupportedError
from llumc.frontend.compile import UNINIT_PREFIX

ENGINES = ("portfolio", "ic3", "bmc", "kind", "explicit")
# IC3's search directions for `check` (solvers.ic3): forward is the paper's MinireachIC3.
IC3_DIRECTIONS = ("forward", "backward", "both")

Progress = Callable[[str], None]


@dataclass
class InputValue:
    function: str  # __VERIFIER_nondet_X, or __llumc_uninit_iN for an uninitialised local
    value: int
    width: int
    line: int | None
    ir_name: str | None = None
    column: int | None = None  # of the call (1-based, from its debug location): for witnesses


@dataclass
class TraceStep:
    """One step of the model: the block it starts in, the C line of the last block it ran,
    what it read from nondet calls, what it changed."""

    step: int
    block: str
    line: int | None
    inputs: list[InputValue] = field(default_factory=list)
    # variable -> value after the block (a pointer as C text: `&a[3]`, `NULL`)
    changes: dict[str, int | str] = field(default_factory=dict)
    blocks: list[str] = field(default_factory=list)  # the basic blocks the step ran, in order


@dataclass
class ErrorSite:
    kind: str  # replay kind: error-call | assert | overflow | div-by-zero | shift
    line: int | None
    description: str
    column: int | None = None  # of the call or operation (1-based): for witnesses


@dataclass
class CheckResult:
    verdict: str  # "true" | "false" | "unknown"
    property: str
    engine: str
    steps: int | None = None
    seconds: float = 0.0
    reason: str | None = None
    trace: list[TraceStep] = field(default_factory=list)
    error: ErrorSite | None = None
    confirmation: str | None = None  # what the replay observed / how the proof was checked
    invariant_clauses: int | None = None
    internal_error: str | None = None  # an engine answer that failed its check: a bug to report
    # The loop invariants the proof rests on, one conjunction of C expressions per loop head
    # ({line, column, function, expression}); each was checked inductive on the original system.
    invariants: list[dict] = field(default_factory=list)
    # What the invariant search did: candidates, kept, seconds, budget, reason (None: not run).
    invariant_search: dict | None = None
    # TRUE on a strengthened system: did the loop invariants alone prove it, i.e. is ¬error
    # 1-inductive once they are conjoined (k-induction answered with k = 1)? None: not a TRUE
    # on invariants, or an engine that does not tell (IC3).
    invariants_alone: bool | None = None
    # TRUE: did the proof rest on the loop invariants (the engine ran on the system they
    # strengthen)? False: the engine proved the encoded system as it is. None: there were no
    # loop invariants (no search, or nothing inductive found), or the answer is not TRUE.
    strengthened: bool | None = None
    # FALSE: values the model chose for uninitialised locals that the replayed trace read
    # (SV-COMP: nondet). The replay sets them; a witness has no waypoint for them.
    uninitialised_values: int = 0
    heap_objects: int = 0  # heap allocation sites in the model (valid-memsafety checks leaks then)
    # Seconds per phase, in the order run: encoding, explicit-state search, invariant search,
    # engines, replay, proof check (`PhaseClock`).
    phases: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict:
        data = asdict(self)
        data["seconds"] = round(self.seconds, 3)
        return data


# ----------------------------------------------------------------------------- trace decoding


def _signed_nondet(function: str) -> bool:
    """`__VERIFIER_nondet_int` returns a signed type, `_uint`/`_bool`/`_size_t` unsigned ones
    (SV-COMP's list with each C type: llumc.frontend.libcalls.NONDET_TYPES)."""
    from llumc.frontend.libcalls import nondet_signed

    return nondet_signed(function)


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


def _memory_objects(encoded: EncodeResult) -> list:
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
                return FaultSite(fault.line, fault.access, leak=True)
            if evaluate(fault.null, leaves, cache):
                return FaultSite(fault.line, f"NULL dereference ({fault.access})")
            for what, dead in fault.dead:
                if evaluate(dead, leaves, cache):
                    return FaultSite(fault.line, f"{what} ({fault.access})")
            return FaultSite(fault.line, f"out-of-bounds or invalid {fault.access}")
    return None


def heap_reuse(encoded: EncodeResult, trace: list[list[int]]) -> list[tuple[int, int]] | None:
    """The allocator's choices a trace makes, for the native replay: (k, j) when the k-th heap
    allocation of the run (malloc and calloc in the order they run, from 0) got the address
    of the j-th, freed by then (docs/memory.md, "Allocation model"). None when the model
    observes no heap address: then no choice of the allocator matters to the trace."""
    objects = _memory_objects(encoded)
    by_site = {obj.site_key: obj for obj in objects if obj.heap and obj.site_key is not None}
    if encoded.fn is None or not any(obj.address is not None for obj in by_site.values()):
        return None
    symbols = read_symbol_map(encoded.ts.comments)
    symbol_of = {var.index: symbol for symbol, var in zip(symbols.state, encoded.word.state)}
    allocations: list[int | None] = []  # the address each allocation got, in run order
    for i in range(len(trace) - 1):
        for name in executed_blocks(encoded, trace[i]):
            for ins in encoded.fn.block(name).instrs:
                obj = by_site.get(ins.key) if ins.opcode == "call" else None
                if obj is not None:
                    address = obj.address
                    allocations.append(None if address is None or isinstance(address, bool)
                                       else symbols.value(symbol_of[address.index], trace[i + 1]))
    pairs = []
    for k, address in enumerate(allocations):
        earlier = [j for j in range(k) if address is not None and allocations[j] == address]
        if earlier:
            pairs.append((k, earlier[-1]))
    return pairs


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
    pointer_cells = {var.index for obj in objects if obj.pointer_cells for var in obj.cells}
    index_of = {id(symbol): var.index for symbol, var in zip(symbols.state, result.word.state)}
    error_code = max(symbols.blocks)
    for i in range(len(trace) - 1):
        code = symbols.value(curr, trace[i])
        name, line = symbols.blocks.get(code, (f"<block {code}>", None))
        if code == error_code:
            break
        chain = executed_blocks(result, trace[i])
        if chain and result.fn is not None:
            # a step may run several blocks (fused chain, large block): show where it ended
            line = result.fn.block(chain[-1]).line or line
        step = TraceStep(step=i, block=name, line=line, blocks=chain)
        for inp in sorted((inp for inp in symbols.inputs if inp.block in chain),
                          key=lambda inp: chain.index(inp.block)):
            width = inp.hi - inp.lo + 1
            value = symbols.value(inp, trace[i])
            if _signed_nondet(inp.site):
                value = _signed(value, width)
            item = InputValue(inp.site, value, width, inp.line, inp.ir_name, _call_column(result, chain, inp))
            if inp.site.startswith("__VERIFIER_nondet_"):
                step.inputs.append(item)
                ordered_inputs.append(item)
            elif inp.site.startswith(UNINIT_PREFIX):
                ordered_inputs.append(item)
        for var in values_only:
            if not (ir_names or var.c_names):
                continue  # an IR temporary: shown with --ir-trace only
            before, after = symbols.value(var, trace[i]), symbols.value(var, trace[i + 1])
            if before != after:
                label = var.ir_name if ir_names else ",".join(var.c_names)
                width = var.hi - var.lo + 1
                unsigned = result.debug is not None and any(
                    name in result.debug.unsigned_variables for name in var.c_names)
                if objects and width == POINTER_WIDTH and var.kind == "pointer":
                    step.changes[label] = pointer_text(objects, after)
                elif var.kind == "memory" and index_of.get(id(var)) in pointer_cells:
                    step.changes[label] = stored_pointer_text(objects, after, width)
                else:
                    step.changes[label] = after if unsigned else _signed(after, width)
        steps.append(step)
    return steps, ordered_inputs


# ----------------------------------------------------------------------------- the check


class _Timeout(Exception):
    pass


class PhaseClock:
    """Seconds per phase of a check (the JSON's `phases`). Each phase entered is also told to
    the supervising process (`solvers.supervise`), which names it when the time limit cuts it."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.current: str | None = None
        self.since = 0.0

    def enter(self, name: str) -> None:
        from solvers.supervise import enter_phase

        self.stop()
        self.current, self.since = name, time.monotonic()
        enter_phase(name)

    def stop(self) -> None:
        if self.current is not None:
            spent = self.seconds.get(self.current, 0.0) + time.monotonic() - self.since
            self.seconds[self.current] = round(spent, 3)
            self.current = None


def final_reserve(timeout: float | None) -> float:
    """Seconds of a time limit kept from the engines for what must not be cut once started: the
    native replay of a counterexample (about half a second once zig's C library is built; the
    first replay of a machine builds it, a minute) and the check of the loop invariants a proof
    rests on. A tenth of the limit, between 1 and 5 s."""
    return 0.0 if timeout is None else max(1.0, min(5.0, 0.1 * timeout))


@contextmanager
def _deadline(seconds: float | None):
    """Raise _Timeout in the main thread after `seconds` (the encoder has no deadline of its own;
    a long C call such as Boolector's finishes first, then the timeout is raised)."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(_signum, _frame):
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# The engines `check` runs side by side by default: IC3 proves or refutes; k-induction finds the
# shortest counterexample (its base case is BMC), proves terminating loops (forward condition)
# and k-inductive properties. Measured on 9 loop programs of LLUMC's set (40 s, invariants on):
# IC3 ∥ k-induction proved 6, IC3 ∥ BMC 6 (cggmp2005 by k-induction in 0.4 s against IC3's
# 0.5 s); on 5 FALSE programs k-induction found every bug, up to 2.4× later than BMC alone.
PORTFOLIO = ("ic3", "kind")


def has_loops(encoded: EncodeResult) -> bool:
    """Whether any step starts at a cut point other than the entry: a loop-free program pays
    nothing for the invariant search."""
    from llumc.encoding.lbe import cut_points

    return encoded.fn is not None and len(cut_points(encoded.fn)) > 1


def invariant_budget(timeout: float | None) -> float:
    """Seconds the invariant search may take: a quarter of the time limit, at most 15 s (it
    usually needs well under a second; the engines need the rest)."""
    return 15.0 if timeout is None else max(0.5, min(15.0, 0.25 * timeout))


def explicit_budget(timeout: float | None) -> float:
    """Seconds the explicit-state search may take in the portfolio: a sixth of the time limit,
    at most 10 s (compiling its steps comes on top: `explore(compile_free=True)`). Small state
    machines are enumerated in well under a second, and systems with counters or free data
    exceed its state limit in a few seconds (or another engine answers first and stops it)."""
    return 10.0 if timeout is None else max(0.5, min(10.0, timeout / 6))


def _explicit(encoded: EncodeResult, path: str | Path, *, seconds: float, prop: str, m32: bool, clang: str | None,
              solver: str, ir_trace: bool, say: Progress, latest: float | None = None,
              cancelled: Callable[[], bool] | None = None, clock: PhaseClock | None = None,
              end: float | None = None) -> CheckResult | None:
    """The explicit-state engine (llumc/explicit/explore.py): TRUE with its state set checked by fresh
    SAT calls, FALSE with its path replayed natively, else None (the other engines go on, or
    one of them has answered: `cancelled`). `end`: when the whole check must have answered
    (the replay's time limit)."""
    from llumc.explicit.explore import explore

    clock = clock or PhaseClock()
    clock.enter("explicit-state search")
    say(f"explicit-state search (at most {seconds:.0f} s)")
    try:
        found = explore(encoded, deadline=time.monotonic() + seconds, solver=solver, progress=say,
                        compile_free=True, latest=latest, cancelled=cancelled)
    except Exception as err:  # a crash of this engine must not take the others' verdicts down
        say(f"explicit: internal error, please report: {type(err).__name__}: {err}")
        return None
    if found.status == "true":  # proven on the encoded system: strengthened=False
        if found.invariant is not None:
            return CheckResult("true", prop, "explicit", invariant_clauses=len(found.invariant),
                               confirmation=f"inductive invariant checked ({len(found.invariant)} clauses, "
                                            f"from the {found.states} reachable states enumerated)",
                               strengthened=False)
        return CheckResult("true", prop, "explicit", strengthened=False,
                           confirmation=f"all {found.states} reachable states enumerated, the set checked "
                                        f"inductive and free of errors by fresh SAT calls")
    if found.status == "error":
        clock.enter("replay")
        result = confirm_counterexample(encoded, found.trace, Path(path), m32=m32, clang=clang, ir_trace=ir_trace,
                                        timeout=_replay_timeout(end), progress=say)
        if result.verdict == "false":
            result.engine, result.steps = "explicit", len(found.trace) - 1
            return result
        say(f"explicit: {result.reason}")
        return None
    if found.reason != "cancelled":
        say(f"explicit: no answer ({found.reason}; {found.states} states, {found.seconds:.1f} s)")
    return None


def _replay_timeout(end: float | None) -> float:
    """Seconds the replayed program may run: until the check's end, at most 30 s."""
    return 30.0 if end is None else max(1.0, min(30.0, end - time.monotonic()))


def describe_proof(answer) -> str:
    """What a checked unsat answer rests on, in words."""
    proof = getattr(answer, "proof", None) or "invariant"
    k = getattr(answer, "k", None)
    if proof == "k-induction":
        return f"{k}-induction checked (base case and step by fresh solvers)"
    if proof == "forward":
        return f"no execution is longer than {k} steps, and none of them fails (checked)"
    clauses = len(answer.invariant) if answer.invariant is not None else 0
    return f"inductive invariant checked ({clauses} clauses)"


def check_program(
    path: str | Path,
    *,
    prop: str = "unreach-call",
    engine: str = "portfolio",
    timeout: float | None = None,
    m32: bool = False,
    clang: str | None = None,
    solver: str = "cadical195",
    ir_trace: bool = False,
    progress: Progress | None = None,
    scheme: str = "lbe",
    ic3_direction: str = "forward",
    invariants: bool = True,
    memtrack: bool | None = None,
    columns: bool = False,
) -> CheckResult:
    """Verdict for one program and property. `invariants`: search loop invariants first
    (llumc/invariants) and give the engines the system they strengthen. Bad input raises LlumcError (exit 2 in the CLI);
    an unsupported construct is UNKNOWN with the front end's reason.

    valid-memsafety in two checks (`memtrack` None): invalid dereferences and frees first,
    then, after a TRUE with heap objects, leaks too (`memtrack` True), so that a leak, which
    the native replay cannot show, does not stand in front of a dereference bug it can.

    `columns`: source columns of locations (error, inputs, invariants), which witnesses need;
    without them the front end is much faster on large programs (see `compile_c`)."""
    if prop == "valid-memsafety" and memtrack is None:
        options = dict(prop=prop, engine=engine, m32=m32, clang=clang, solver=solver, ir_trace=ir_trace,
                       progress=progress, scheme=scheme, ic3_direction=ic3_direction, invariants=invariants,
                       columns=columns)
        first = check_program(path, timeout=timeout, memtrack=False, **options)
        if first.verdict != "true" or not first.heap_objects:
            return first
        left = None if timeout is None else timeout - first.seconds
        if left is not None and left < 1.0:
            return CheckResult("unknown", prop, first.engine, seconds=first.seconds, heap_objects=first.heap_objects,
                               reason="no invalid dereference or free (proven); no time left to check "
                                      "memory leaks (valid-memtrack)")
        if progress:
            progress("no invalid dereference or free (proven); now memory leaks (valid-memtrack)")
        second = check_program(path, timeout=left, memtrack=True, **options)
        second.seconds += first.seconds
        second.phases = {name: round(first.phases.get(name, 0.0) + second.phases.get(name, 0.0), 3)
                         for name in {**first.phases, **second.phases}}
        if second.verdict == "unknown" and second.reason:
            second.reason = f"no invalid dereference or free (proven), but {second.reason}"
        return second
    from solvers.api import solve
    from solvers.check import CheckFailed
    from solvers.portfolio import Portfolio

    started = time.monotonic()
    say = progress or (lambda _msg: None)
    end = None if timeout is None else started + timeout
    reserve = final_reserve(timeout)
    clock = PhaseClock()

    def engine_time() -> float | None:
        """The engines' share of the time left: the final reserve stays for a replay or proof check."""
        return None if end is None else max(0.1, end - reserve - time.monotonic())

    strengthening = None
    search_report: dict | None = None
    invariants_checked = False  # the loop invariants passed their check (fresh SAT calls)

    reborn: list[str] = []  # locals declared in a loop that a pointer may outlive (below)
    heap_objects = 0

    def finish(res: CheckResult) -> CheckResult:
        if res.verdict == "true" and reborn:
            # memory.MemoryObject.reborn: each iteration's instance is the same object here
            res = CheckResult("unknown", prop, res.engine, reason=(
                f"no error found (proven), but a pointer to local '{reborn[0]}', declared in a loop, "
                "may outlive an iteration, and llumc does not tell the loop's instances apart"))
        res.seconds = time.monotonic() - started
        clock.stop()
        res.phases = dict(clock.seconds)
        res.heap_objects = heap_objects
        res.invariant_search = search_report
        if strengthening is not None and res.verdict == "true" and invariants_checked:
            res.invariants = [loop.to_json() for loop in strengthening.loops]
        return res

    try:
        say(f"encoding {path} ({prop})")
        clock.enter("encoding")
        with _deadline(timeout):
            encoded = encode_file(path, prop=prop, m32=m32, clang=clang, scheme=scheme, memtrack=memtrack is not False,
                                  columns=columns)
    except UnsupportedError as err:
        return finish(CheckResult("unknown", prop, engine, reason=str(err)))
    except _Timeout:
        return finish(CheckResult("unknown", prop, engine, reason="timeout while encoding"))
    stats = encoded.stats
    say(f"encoded: {stats.blocks} blocks, {stats.state_bits} state bits, {stats.total_clauses} clauses")
    reborn += [obj.c_name for obj in _memory_objects(encoded) if obj.reborn]
    heap_objects = sum(1 for obj in _memory_objects(encoded) if obj.heap)

    def engine_progress(info: dict) -> None:
        info = dict(info)
        name = info.pop("engine", engine)
        info.pop("seconds", None)
        say(f"{name}: " + ", ".join(f"{k} {v}" for k, v in info.items()))

    if engine == "explicit":
        found = _explicit(encoded, path, seconds=engine_time() or 3600.0, prop=prop, m32=m32, clang=clang,
                          solver=solver, ir_trace=ir_trace, say=say,
                          latest=None if end is None else end - reserve, clock=clock, end=end)
        return finish(found or CheckResult("unknown", prop, engine, reason="explicit-state search: no answer"))
    search = invariants and engine != "bmc" and has_loops(encoded)

    def explicit(cancelled: Callable[[], bool] | None) -> CheckResult | None:
        """The explicit-state search within its share of the portfolio's time."""
        seconds = explicit_budget(timeout)
        if timeout is not None:
            seconds = min(seconds, max(0.5, (engine_time() or 0.0) - 1.0))
        found = _explicit(encoded, path, seconds=seconds, prop=prop, m32=m32, clang=clang, solver=solver,
                          ir_trace=ir_trace, say=say, latest=None if end is None else end - reserve - 1.0,
                          cancelled=cancelled, clock=clock, end=end)
        clock.enter("engines")
        return found

    ic3_options = {"direction": ic3_direction, "shorten": False}
    members: Portfolio | None = None
    explicit_last = False
    try:
        if engine == "portfolio":
            # IC3 starts on the encoded system at once, beside the invariant search: many state
            # machines (s3_srvr_4: 1.1 s alone, 37 s after the search on the strengthened
            # system) are proven fastest so, while the search's facts cost IC3 every SAT call
            # (token_ring.02: 17 s on the encoded system, no answer in 60 s strengthened by 127
            # facts). k-induction, and IC3 a second time, run on the strengthened system after
            # the search (gauss_sum needs IC3 with the invariants). IC3's paths are not
            # shortened: k-induction's base case beside it looks for the shortest one anyway.
            clock.enter("engines")
            # members may overrun their timeout by a SAT call or their check: half the reserve
            members = Portfolio(timeout=engine_time(), progress=engine_progress, grace=min(5.0, reserve / 2 or 5.0))
            # On systems whose steps are huge (RERS: 215 000 terms) each of IC3's SAT calls is
            # slow, the invariant search too, and the explicit search is the engine that
            # answers: it runs first, and IC3 waits for it instead of taking half its CPU. On
            # the others it runs last, beside the members, until one of them answers: most
            # loops there are counters it cannot exhaust, and k-induction with the invariants
            # answers them in a second or two.
            from llumc.explicit.explore import NATIVE_FROM

            explicit_last = len(encoded.word.terms.table) <= NATIVE_FROM
            if not explicit_last:
                found = explicit(None)
                if found is not None:
                    return finish(found)
            members.start("ic3", encoded.ts, options=ic3_options)
        if search:
            from llumc.invariants.search import find_invariants

            budget = invariant_budget(timeout)
            say(f"searching loop invariants (at most {budget:.0f} s)")
            clock.enter("invariant search")
            strengthening, report = find_invariants(encoded, deadline=time.monotonic() + budget)
            clock.enter("engines")
            search_report = {**report.to_json(), "budget": round(budget, 3)}
            if strengthening is not None:
                say(f"loop invariants: {report.kept} of {report.candidates} candidates inductive "
                    f"({report.seconds:.1f} s): " + "; ".join(f"line {loop.line}: {loop.expression}"
                                                               + (f" && {loop.memory}" if loop.memory else "")
                                                               for loop in strengthening.loops))
            else:
                say(f"loop invariants: none ({report.reason}, {report.seconds:.1f} s)")
        system = strengthening.system if strengthening is not None else encoded.ts
        # k-induction unrolls the original system for its base case (same paths, fewer clauses)
        # and uses the invariants in its step case only.
        paths = {"paths": encoded.ts} if strengthening is not None else {}
        kind_options = {"solver": solver, **paths}
        if members is not None:
            if members.poll() is None:
                members.start("kind", system, options=kind_options)
                if strengthening is not None:
                    members.start("ic3+invariants", system, engine="ic3", options=ic3_options)
            if explicit_last and members.poll() is None:
                found = explicit(lambda: members.poll() is not None)
                if found is not None:
                    return finish(found)
            answer = members.wait()
        else:
            # IC3 keeps its own solver: its timeout interrupts SAT calls, which CaDiCaL does not allow.
            extra = {"ic3": {"direction": ic3_direction}, "kind": kind_options, "bmc": {"solver": solver}}.get(engine, {})
            clock.enter("engines")
            answer = solve(system, engine=engine, timeout=engine_time(), progress=engine_progress, **extra)
    except CheckFailed as err:
        return finish(CheckResult("unknown", prop, engine, reason=f"internal error: {err}",
                                  internal_error=str(err)))
    except KeyboardInterrupt:
        return finish(CheckResult("unknown", prop, engine, reason="interrupted"))
    except Exception as err:
        if "keyboard interrupt" in str(err).lower():  # PySAT's own error for SIGINT in a SAT call
            return finish(CheckResult("unknown", prop, engine, reason="interrupted"))
        raise
    finally:
        if members is not None:
            members.stop()
    member = answer.stats.get("member")
    # the answer rests on the loop invariants unless its engine ran on the encoded system
    on_invariants = strengthening is not None and member != "ic3"
    used = answer.engine or engine
    internal = answer.reason if answer.stats.get("internal_errors") else None
    if internal and answer.status not in ("sat", "unsat"):
        return finish(CheckResult("unknown", prop, used, reason=f"internal error: {internal}",
                                  internal_error=internal))

    if answer.status == "unsat" and prop == "valid-memsafety" and memtrack is not False \
            and any(obj.heap for obj in _memory_objects(encoded)) \
            and not any(fault.leak for fault in encoded.word.memory_faults):
        # valid-memsafety includes valid-memtrack (no leaks), which llumc does not check
        return finish(CheckResult("unknown", prop, used, reason="memory leaks (valid-memtrack) are not checked "
                                  "(more heap objects and pointer cells than the leak encoding takes)"))
    if answer.status == "unsat":
        if not answer.invariant and answer.invariant is not None and answer.engine != "ic3":
            return finish(CheckResult("unknown", prop, used, reason="no invariant to check"))
        clauses = len(answer.invariant) if answer.invariant is not None else None
        confirmation = describe_proof(answer)
        from solvers.strengthen import CheckTimeout

        clock.enter("proof check")
        if strengthening is not None and not on_invariants:
            # Proven on the encoded system itself. The loop invariants go into the answer (and
            # a witness) only once checked, which usually takes a fraction of a second; the
            # verdict does not wait long for them.
            try:
                strengthening.check(deadline=min(time.monotonic() + 5.0, end or float("inf")))
                invariants_checked = True
            except CheckTimeout:
                say("loop invariants: not reported (their check ran out of time)")
            except CheckFailed as err:
                say(f"loop invariants: not reported (internal error, please report: {err})")
            return finish(CheckResult("true", prop, used, steps=answer.steps, invariant_clauses=clauses,
                                      confirmation=confirmation, strengthened=False))
        if strengthening is not None:
            # The engine's proof was checked on the strengthened system; it proves the program
            # only with the loop invariants inductive on the original one: checked here, by
            # fresh solvers, right before TRUE is said.
            try:
                strengthening.check(deadline=end)
            except CheckFailed as err:
                return finish(CheckResult("unknown", prop, used, reason=f"internal error: {err}",
                                          internal_error=str(err)))
            except CheckTimeout:
                return finish(CheckResult("unknown", prop, used,
                                          reason="timeout while checking the loop invariants"))
            confirmation += (f", on the system strengthened by {len(strengthening.kept)} loop invariant"
                             f"{'' if len(strengthening.kept) == 1 else 's'} (checked inductive)")
            # The invariants alone: with them, ¬error is 1-inductive (k-induction needed k = 1).
            # Known only when k-induction answered; IC3's answers leave it open (None).
            alone = (answer.proof == "k-induction" and answer.k == 1) if used == "kind" else None
            invariants_checked = True
            return finish(CheckResult("true", prop, used, steps=answer.steps, invariant_clauses=clauses,
                                      confirmation=confirmation, invariants_alone=alone, strengthened=True))
        return finish(CheckResult("true", prop, used, steps=answer.steps, invariant_clauses=clauses,
                                  confirmation=confirmation))
    if answer.status != "sat":
        return finish(CheckResult("unknown", prop, used, steps=answer.steps,
                                  reason=answer.reason or "no answer"))

    clock.enter("replay")
    result = confirm_counterexample(encoded, answer.trace, Path(path), m32=m32, clang=clang,
                                    ir_trace=ir_trace, timeout=_replay_timeout(end), progress=say)
    result.engine, result.steps = used, answer.steps
    return finish(result)


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
    reuse = heap_reuse(encoded, trace)
    fault = memory_fault(encoded, trace)
    if fault is not None:
        name = Path(encoded.fn.source).name if encoded.fn is not None and encoded.fn.source else source.name
        where = f"{name}:{fault.line}" if fault.line else name
        if fault.leak:
            result.error = ErrorSite("memory", fault.line, fault.description)
            result.reason = f"possible {fault.description} at {where}: a leak is not confirmed natively"
            return result
        if prop == "valid-memsafety":
            if progress:
                progress(f"replaying the counterexample ({len(inputs)} nondet values)")
            expect = ReplayExpectation(kind="memory", line=fault.line)
            replayed = replay(source, [i.value for i in inputs], expect, m32=m32, clang=clang, timeout=timeout,
                              uninit_values=uninit_values, heap_reuse=reuse)
            if not replayed.confirmed and reuse:
                # a use of a dangling pointer whose block the trace handed out again is valid
                # natively; with every block new (an allocator's choice too) it faults
                replayed = replay(source, [i.value for i in inputs], expect, m32=m32, clang=clang,
                                  timeout=timeout, uninit_values=uninit_values, heap_reuse=[])
            # the model's access may have lost its line (a load hoisted out of its branch):
            # the replay saw the fault's line
            line = fault.line if fault.line is not None or not replayed.confirmed else replayed.line
            result.error = ErrorSite("memory", line, fault.description)
            if replayed.confirmed:
                result.verdict = "false"
                result.confirmation = f"replayed: {replayed.observed}"
            else:
                result.reason = f"counterexample not confirmed: {fault.description} at {where}; natively: {replayed.observed}"
            return result
        # undefined behaviour before the property's error: the program's answer is not defined
        result.reason = f"invalid memory access (undefined behaviour): {fault.description} at {where}"
        result.error = ErrorSite("memory", fault.line, fault.description)
        return result
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
                          uninit_values=uninit_values, heap_reuse=reuse)
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
