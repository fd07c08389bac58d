"""Front end of the toolkit: load a file (DimSpec or AIGER), run an engine, check its answer.

Every definite answer leaving `solve` has been checked independently of the engine: a sat
trace replayed clause by clause (`check_trace`), an unsat answer by fresh SAT calls according to
its proof — an invariant proven inductive (`check_invariant`), the forward condition
(`check_forward`), every run ending (`check_ends`) or k-induction (`check_k_induction`)
re-established at its k. A failed check
raises `CheckFailed` — an internal error, never a verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from solvers.check import CheckFailed, check_ends, check_forward, check_invariant, check_k_induction, check_trace
from solvers.dimspec import DimSpecError, read_dimspec
from solvers.result import SolveResult
from solvers.transys import TransitionSystem

Progress = Callable[[dict], None]
ENGINES = ("bmc", "ic3", "kind")
AIGER_SUFFIXES = (".aag", ".aig")


def ic3_available() -> bool:
    try:
        import solvers.ic3  # noqa: F401
    except ImportError:
        return False
    return True


def default_engine() -> str:
    """IC3 when present: it answers both ways (path or proof); BMC only ever finds paths."""
    return "ic3" if ic3_available() else "bmc"


def load(path: str | Path, warn: Callable[[str], None] | None = None) -> TransitionSystem:
    """Read a DimSpec or AIGER file, chosen by extension and else by content ('aag '/'aig ').

    Raises DimSpecError or AigerError (both ValueError, one line file:line: cause)."""
    from solvers.aiger import read_aiger

    name = str(path)
    try:
        with open(path, "rb") as stream:
            head = stream.read(4)
    except OSError as err:
        raise DimSpecError(name, None, f"cannot read file: {err.strerror or err}") from None
    if Path(name).suffix.lower() in AIGER_SUFFIXES or head in (b"aag ", b"aig "):
        return read_aiger(path)
    if Path(name).suffix.lower() in (".btor", ".btor2"):
        raise DimSpecError(name, None, "BTOR2 is word level and not read here; write the same system as AIGER "
                           "(llumc encode --format aiger)")
    if warn is None:
        return read_dimspec(path)
    return read_dimspec(path, warn=warn)


def solve(
    ts: TransitionSystem,
    engine: str | None = None,
    *,
    solver: str | None = None,
    timeout: float | None = None,
    progress: Progress | None = None,
    max_steps: int | None = None,
    schedule: str = "linear",
    check_solver: str = "cadical195",
    **engine_options,
) -> SolveResult:
    """Run `engine` ("bmc", "ic3", "kind"; None: `default_engine()`) and check a definite answer.

    `max_steps` is BMC's and k-induction's, `schedule` BMC's; `solver` is the PySAT solver name
    for the engine. BMC runs with its forward condition (`completeness=True`) unless
    `completeness=False` is given: it can then answer unsat too.
    """
    engine = engine or default_engine()
    try:
        result = _run_engine(ts, engine, solver, timeout, progress, max_steps, schedule, engine_options)
    except MemoryError:
        # Python could not allocate (e.g. under `ulimit -v`): a resource limit, not a verdict.
        return SolveResult("unknown", reason="out of memory", engine=engine)
    result.engine = result.engine or engine
    # k-induction's base case and forward condition unroll `paths` when given (see kind): a
    # trace or a forward proof is checked against that system, a k-induction proof against ts.
    paths = engine_options.get("paths") if engine == "kind" else None
    if paths is not None and (result.status == "sat" or result.proof == "forward"):
        verify(paths, result, check_solver)
    else:
        verify(ts, result, check_solver)
    if result.status == "unsat" and result.proof is None:
        result.proof = "invariant"
    return result


def _run_engine(ts: TransitionSystem, engine: str, solver: str | None, timeout: float | None,
                progress: Progress | None, max_steps: int | None, schedule: str,
                engine_options: dict) -> SolveResult:
    if engine == "bmc":
        from solvers.bmc import DEFAULT_SOLVER, bmc

        result = bmc(
            ts,
            solver=solver or DEFAULT_SOLVER,
            max_steps=max_steps,
            timeout=timeout,
            progress=progress,
            schedule=schedule,
            **{"completeness": True, **engine_options},
        )
    elif engine == "kind":
        if schedule != "linear":
            raise ValueError("--schedule applies to the bmc engine only")
        from solvers.bmc import DEFAULT_SOLVER
        from solvers.kind import kind

        result = kind(ts, solver=solver or DEFAULT_SOLVER, timeout=timeout, progress=progress,
                      max_steps=max_steps, **engine_options)
    elif engine == "ic3":
        if max_steps is not None or schedule != "linear":
            raise ValueError("--max-steps and --schedule apply to the bmc and kind engines only")
        from solvers.ic3 import ic3

        if solver is not None:
            engine_options["solver"] = solver
        result = ic3(ts, timeout=timeout, progress=progress, **engine_options)
    else:
        raise ValueError(f"unknown engine {engine!r}; valid: {', '.join(ENGINES)}")
    return result


def verify(ts: TransitionSystem, result: SolveResult, check_solver: str = "cadical195") -> None:
    """Check a definite answer; CheckFailed if it does not hold."""
    if result.status == "sat":
        if result.trace is None:
            raise CheckFailed(f"{result.engine} answered sat without a trace")
        if result.steps is not None and len(result.trace) != result.steps + 1:
            raise CheckFailed(
                f"{result.engine} answered sat in {result.steps} steps with {len(result.trace)} states"
            )
        check_trace(ts, result.trace)
    elif result.status == "unsat":
        proof = result.proof
        if proof in (None, "invariant"):
            if result.invariant is None:
                raise CheckFailed(f"{result.engine} answered unsat without an invariant")
            # A backward search proves G unreachable with an invariant of the reversed system.
            system = ts.reversed() if result.direction == "backward" else ts
            check_invariant(system, result.invariant, solver=check_solver)
        elif result.direction != "forward":
            raise CheckFailed(f"{result.engine} gave a {proof} proof of the {result.direction} search")
        elif proof == "forward":
            check_forward(ts, result.k, solver=check_solver)
        elif proof == "ends":
            check_ends(ts, result.k, result.sink or [], solver=check_solver)
        elif proof == "k-induction":
            check_k_induction(ts, result.k, result.goal_definitions, solver=check_solver)
        else:
            raise CheckFailed(f"{result.engine} answered unsat with an unknown proof {proof!r}")
    elif result.status != "unknown":
        raise CheckFailed(f"{result.engine} answered an unknown status {result.status!r}")
