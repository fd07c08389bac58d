"""What `llumc check` answers (`--json` too): the verdict, with the trace and error site of a
FALSE, what a TRUE's proof rests on, and the figures of the check."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Callable

Progress = Callable[[str], None]  # told one line of progress at a time


@dataclass
class InputValue:
    function: str  # __VERIFIER_nondet_X, or __llumc_uninit_iN for an uninitialised local
    value: int
    width: int
    line: int | None
    ir_name: str | None = None
    column: int | None = None  # of the call (1-based, from its debug location): for witnesses
    text: str | None = None  # the value in C when `value` (the bits) does not say it: a float


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
    # the functions the step called through a function pointer, in order
    indirect_calls: list[str] = field(default_factory=list)


@dataclass
class ErrorSite:
    kind: str  # replay kind: error-call | assert | overflow | div-by-zero | shift
    line: int | None
    description: str
    column: int | None = None  # of the call or operation (1-based): for witnesses
    # valid-memsafety: which of SV-COMP's parts a memory error violates (valid-deref,
    # valid-free, valid-memtrack), as BenchExec scores it (`false(valid-free)`)
    subproperty: str | None = None


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
    # a trace of a main with parameters: argc, and argv as C string literals (those the model
    # holds; "…" ends a string or the list where the rest is not modelled)
    argc: int | None = None
    arguments: list[str] | None = None
    heap_objects: int = 0  # heap allocation sites in the model (valid-memsafety checks leaks then)
    # the program recurses: the bound its recursion was unrolled to (a TRUE shows it never
    # reached; llumc.frontend.procedures); None if it does not recurse
    recursion_depth: int | None = None
    call_stack: bool = False  # the recursion ran on a call stack of that many frames (else unrolled)
    # objects per allocation site in a loop (llumc.encoding.memory.HeapPool: a TRUE shows no
    # site runs more often), 0 where each site was one summary (`SITE_SUMMARY`); None if no
    # allocation site is in a loop
    heap_pool: int | None = None
    # TRUE by procedure summaries (llumc.check.summaries): {function, expression} per fact, each
    # proven by induction over the calls; main proven with the calls replaced by them
    summaries: list[dict] = field(default_factory=list)
    # Counterexample-guided refinement (llumc.check.refinement): one entry per round, in order,
    # {objects, cells, counterexample}: the abstract memory objects made exact, their cells, and
    # why the counterexample that asked for it was not an answer
    refinements: list[dict] = field(default_factory=list)
    # Seconds per phase, in the order run: encoding, explicit-state search, invariant search,
    # engines, replay, proof check (`PhaseClock`).
    phases: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict:
        """The result as JSON data. The trace is converted by hand: `asdict` deep-copies every
        leaf, and a native run reading 100 000 values took seconds there."""
        data = asdict(replace(self, trace=[]))
        data["trace"] = [_step_json(step) for step in self.trace]
        data["seconds"] = round(self.seconds, 3)
        return data


def _step_json(step: TraceStep) -> dict:
    """`asdict(step)`, its leaves (ints and strings) shared rather than copied."""
    return {"step": step.step, "block": step.block, "line": step.line,
            "inputs": [dict(vars(value)) for value in step.inputs], "changes": dict(step.changes),
            "blocks": list(step.blocks), "indirect_calls": list(step.indirect_calls)}
