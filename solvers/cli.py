"""`llumc solve` / `python -m solvers`: solve a DimSpec or AIGER file, print a checked verdict.

Output (stdout), as SAT solvers and IncPlan print it:
  s SATISFIABLE <steps>      a path of <steps> transitions reaches the goal (trace checked)
  s UNSATISFIABLE            the goal is unreachable (IC3's inductive invariant, or the forward
                             condition or k-induction at k, checked by fresh SAT solvers; for the
                             latter two a line 'c proof: …' follows)
  s UNKNOWN <reason>         timeout, Ctrl-C, --max-steps, … with the depth reached
  v <lits> 0                 with --trace: one line per step 0..k, the state variables' values
Exit codes: 10 sat, 20 unsat, 0 unknown, 2 bad input, 1 internal error (a failed check).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import NoReturn, TextIO

from solvers.aiger import AigerError
from solvers.api import default_engine, load, solve
from solvers.bmc import SolverNameError, validate_schedule, validate_solver_name
from solvers.check import CheckFailed
from solvers.dimspec import DimSpecError
from solvers.ic3 import DIRECTIONS
from solvers.result import SolveResult
from solvers.supervise import process_age
from solvers.transys import TransitionSystem

EXIT_SAT, EXIT_UNSAT, EXIT_UNKNOWN, EXIT_BAD_INPUT, EXIT_INTERNAL = 10, 20, 0, 2, 1
PROGRESS_AFTER = 1.0  # seconds before the first progress line, and between lines

EXAMPLES = """\
examples:
  llumc solve model.dimspec                  IC3 (default): path or proof, both checked
  llumc solve model.dimspec --bmc --trace    shortest path, one 'v' line per step
  llumc solve model.dimspec --kind --json    k-induction: shortest path, or proof with its k
  llumc solve circuit.aig --timeout 60       AIGER input (.aag/.aig)
  llumc solve model.dimspec --bmc --schedule exp --max-steps 100 --solver glucose4
  llumc solve model.dimspec --ic3 --invariant inv.cnf --json
  llumc solve plan.dimspec --direction backward    IC3 from the goal (planning problems)

exit codes: 10 SATISFIABLE, 20 UNSATISFIABLE, 0 UNKNOWN, 2 bad input, 1 internal error
"""


class _OneLineErrors(argparse.ArgumentParser):
    """A bad option is one line on stderr and exit 2, like every other bad input (argparse
    would print the whole usage block first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see --help)\n")


def build_parser(prog: str = "llumc solve") -> argparse.ArgumentParser:
    parser = _OneLineErrors(
        prog=prog,
        description="Decide whether the goal G of a DimSpec (or AIGER) transition system is "
        "reachable from I. Every answer is checked before it is printed.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="DimSpec file, or AIGER (.aag/.aig; detected by content too)")
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument("--ic3", dest="engine", action="store_const", const="ic3",
                        help="IC3/PDR: finds paths and proves unreachability (default when available)")
    engine.add_argument("--bmc", dest="engine", action="store_const", const="bmc",
                        help="incremental unroller: shortest path; proves unreachability only when "
                        "every execution ends (forward condition)")
    engine.add_argument("--kind", dest="engine", action="store_const", const="kind",
                        help="k-induction: shortest path (base case), or a proof by k-induction or by "
                        "the forward condition")
    parser.add_argument("--solver", metavar="NAME", help="PySAT solver (bmc and kind default: cadical195)")
    parser.add_argument("--max-steps", type=int, metavar="K", help="bmc, kind: give up after depth K")
    parser.add_argument("--schedule", default="linear", metavar="S",
                        help="bmc: linear (every depth), every:S (every S-th depth), exp (1,2,4,…); "
                        "the gap schedules then search the last gap for the shortest path")
    parser.add_argument("--direction", choices=DIRECTIONS, default="auto",
                        help="ic3: search from I (forward), from G (backward: IC3 on the reversed system), "
                        "or both in turns; auto (default): forward for a functional T (circuits), else both")
    parser.add_argument("--timeout", type=float, metavar="S", help="give up after S seconds (s UNKNOWN timeout)")
    parser.add_argument("--trace", action="store_true", help="print the path: one 'v <lits> 0' line per step")
    parser.add_argument("--invariant", metavar="FILE", help="write IC3's invariant to FILE as DIMACS")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object (status, steps, engine, seconds, reason, direction, shortest, trace; "
                        "unsat: proof, k)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress or warnings on stderr")
    return parser


class _ProgressPrinter:
    """Keeps the latest progress report (Ctrl-C needs the depth reached) and prints one line
    per second on stderr, starting after the first second."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.started = time.monotonic()
        self.next_print = self.started + PROGRESS_AFTER
        self.latest: dict = {}

    def __call__(self, info: dict) -> None:
        self.latest = info
        now = time.monotonic()
        if self.stream is None or now < self.next_print:
            return
        self.next_print = now + PROGRESS_AFTER
        print(f"c {self.describe(info)} ({now - self.started:.1f} s)", file=self.stream, flush=True)

    @staticmethod
    def describe(info: dict) -> str:
        if "depth" in info:
            return f"{info.get('engine', 'bmc')}: no path of length ≤ {info['depth']}"
        if "frame" in info:
            direction = f" {info['direction']}" if "direction" in info else ""
            parts = [f"ic3{direction}: frame {info['frame']}"]
            if "lemmas" in info:
                parts.append(f"{info['lemmas']} lemmas")
            if "obligations" in info:
                parts.append(f"{info['obligations']} obligations")
            return ", ".join(parts)
        return ", ".join(f"{k} {v}" for k, v in info.items())


def _state_literals(ts: TransitionSystem, assignment: list[int]) -> list[int]:
    state = set(ts.state_vars())
    return [lit for lit in assignment if abs(lit) in state]


def _write_invariant(path: str, ts: TransitionSystem, result: SolveResult) -> None:
    invariant = result.invariant or []
    lines = [f"c inductive invariant over state variables of 1..{ts.n}"]
    if result.direction == "backward":
        lines.append("c of the reversed system (IC3 searched backward): it holds in every state from which")
        lines.append("c G is reachable, is closed under predecessors (Inv' ∧ U' ∧ T ∧ U ⇒ Inv) and excludes I")
    lines.append(f"p cnf {ts.n} {len(invariant)}")
    lines += [" ".join(map(str, clause + [0])) for clause in invariant]
    with open(path, "w") as stream:
        stream.write("\n".join(lines) + "\n")


def _shortest(result: SolveResult) -> bool:
    """Whether a sat answer's length is proven minimal: BMC's and k-induction's always is; IC3's
    when its frames and the shortening pass say so (`solvers.ic3.ic3`)."""
    return result.engine in ("bmc", "kind") or bool(result.stats.get("shortest", 0))


def describe_proof(result: SolveResult) -> str | None:
    """The comment line after `s UNSATISFIABLE` for proofs other than IC3's invariant."""
    k = result.k
    if result.proof == "forward":
        return (f"c proof: forward condition at k = {k} (no path from I has {k} step{'' if k == 1 else 's'} over "
                f"pairwise different states; none shorter reaches G), checked by fresh solvers")
    if result.proof == "k-induction":
        return (f"c proof: {k}-induction (base case: no path shorter than {k} reaches G; step: no {k + 1} "
                f"pairwise different states with G in the last only), checked by fresh solvers")
    return None


def _unknown_after_interrupt(progress: _ProgressPrinter, engine: str) -> SolveResult:
    info = progress.latest
    steps = info.get("depth", info.get("frame"))
    reached = f" ({_ProgressPrinter.describe(info)})" if info else ""
    return SolveResult("unknown", steps=steps, reason=f"interrupted{reached}", engine=engine)


def run(argv: Sequence[str] | None = None, prog: str = "llumc solve", started: float | None = None) -> int:
    """The command; returns the exit code. `started`: when the command started (time.monotonic),
    if before this call: `--timeout` counts from there."""
    args = build_parser(prog).parse_args(argv)
    err = sys.stderr

    def fail(message: str, code: int = EXIT_BAD_INPUT) -> int:
        print(f"{prog}: error: {message}", file=err)
        return code

    engine = args.engine or default_engine()
    if args.max_steps is not None and args.max_steps < 0:
        return fail("--max-steps must be ≥ 0")
    if args.timeout is not None and args.timeout <= 0:
        return fail("--timeout must be > 0")
    if engine not in ("bmc", "kind") and args.max_steps is not None:
        return fail("--max-steps applies to --bmc and --kind only")
    if engine != "bmc" and args.schedule != "linear":
        return fail("--schedule applies to --bmc only")
    if engine != "ic3" and args.direction != "auto":
        return fail("--direction applies to --ic3 only")
    try:
        validate_schedule(args.schedule)
        if args.solver is not None:
            validate_solver_name(args.solver)
    except (SolverNameError, ValueError) as bad:
        return fail(str(bad))

    warn = None if args.quiet else (lambda message: print(message, file=err))
    try:
        ts = load(args.file, warn=warn or (lambda message: None))
    except (DimSpecError, AigerError) as bad:
        return fail(str(bad))

    progress = _ProgressPrinter(None if args.quiet else err)
    # the time limit counts from the command's start (loading the file is part of it)
    timeout = args.timeout
    if timeout is not None and started is not None:
        timeout = max(0.1, timeout - (time.monotonic() - started))
    options = {"solver": args.solver, "timeout": timeout, "progress": progress}
    if engine == "bmc":
        options.update(max_steps=args.max_steps, schedule=args.schedule)
    elif engine == "kind":
        options.update(max_steps=args.max_steps)
    else:
        options.update(direction=args.direction)
    started = time.monotonic()
    try:
        result = solve(ts, engine, **options)
    except KeyboardInterrupt:
        result = _unknown_after_interrupt(progress, engine)
    except CheckFailed as bad:
        return fail(f"internal error: {engine} gave an answer that failed its check: {bad}", EXIT_INTERNAL)
    except SolverNameError as bad:  # a solver name the engine refuses
        return fail(str(bad))
    except Exception as bad:  # an engine bug: one line, exit 1, never a verdict
        if "keyboard interrupt" in str(bad).lower():  # PySAT's own error for SIGINT in a SAT call
            result = _unknown_after_interrupt(progress, engine)
        else:
            return fail(f"internal error: {engine} crashed: {type(bad).__name__}: {bad}", EXIT_INTERNAL)
    if result.status == "unknown" and result.reason == "interrupted":
        # An engine that caught Ctrl-C itself (between SAT calls): say how far it got, as above.
        result = _unknown_after_interrupt(progress, engine)
    seconds = time.monotonic() - started

    if args.invariant:
        if result.status == "unsat" and result.invariant is not None:
            try:
                _write_invariant(args.invariant, ts, result)
            except OSError as bad:
                return fail(f"cannot write invariant to {args.invariant}: {bad.strerror or bad}")
        elif not args.quiet:
            why = f"the proof is {result.proof}" if result.status == "unsat" else f"the answer is {result.status}"
            print(f"c no invariant written: {why}", file=err)

    out = sys.stdout
    if args.json:
        payload = {
            "status": result.status,
            "steps": result.steps,
            "engine": result.engine or engine,
            "seconds": round(seconds, 6),
            "reason": result.reason,
            "direction": result.direction,
            # Full assignments of 1..n per step (inputs/auxiliaries included), signed literals.
            "trace": result.trace if result.status == "sat" else None,
        }
        if result.status == "unsat" and result.invariant is not None:
            payload["invariant_clauses"] = len(result.invariant)
        if result.status == "unsat":
            # "invariant" (IC3), "forward" or "k-induction"; k for the latter two.
            payload["proof"] = result.proof
            payload["k"] = result.k
        # sat: whether no shorter path exists (proven); None otherwise.
        payload["shortest"] = _shortest(result) if result.status == "sat" else None
        out.write(json.dumps(payload) + "\n")
    elif result.status == "sat":
        out.write(f"s SATISFIABLE {result.steps}\n")
        if not _shortest(result) and not args.quiet:
            print(f"c the path of {result.steps} steps may not be the shortest: shortening it ran out of time",
                  file=err)
        if args.trace and result.trace is not None:
            for assignment in result.trace:
                out.write("v " + " ".join(map(str, _state_literals(ts, assignment) + [0])) + "\n")
    elif result.status == "unsat":
        out.write("s UNSATISFIABLE\n")
        if (line := describe_proof(result)) is not None:
            out.write(line + "\n")
    else:
        out.write(f"s UNKNOWN {result.reason or 'no answer'}\n")
    out.flush()
    return {"sat": EXIT_SAT, "unsat": EXIT_UNSAT}.get(result.status, EXIT_UNKNOWN)


def _run_in_worker(argv: Sequence[str] | None, prog: str, started: float) -> int:
    """`run`, in the supervised worker: a second Ctrl-C while printing ends quietly."""
    try:
        return run(argv, prog, started)
    except KeyboardInterrupt:
        print("s UNKNOWN interrupted", flush=True)
        return EXIT_UNKNOWN


def main(argv: Sequence[str] | None = None, prog: str = "llumc solve") -> None:
    """Entry point: `run` in a worker process this one watches (`solvers.supervise`): at
    `--timeout` + 2 s at the latest, on Ctrl-C or SIGTERM, the answer is printed here, and the
    worker is gone when this process is, however it ends. Exits with `run`'s code."""
    from solvers.supervise import Limits, supervise

    started = time.monotonic() - process_age()
    args = build_parser(prog).parse_args(argv)  # bad options: one line, exit 2, nothing started
    timeout = args.timeout if args.timeout is not None and args.timeout > 0 else None
    ending = supervise(lambda: _run_in_worker(argv, prog, started), Limits(timeout=timeout), temporary=False)
    if ending.why is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(ending.output)
        sys.exit(ending.code)
    reason = ending.why
    if ending.why == "died":
        reason = f"internal error: the solving process was killed by signal {ending.signal_number}"
        print(f"{prog}: {reason}", file=sys.stderr)
    if args.json:
        print(json.dumps({"status": "unknown", "steps": None, "engine": args.engine or default_engine(),
                          "seconds": round(ending.seconds, 6), "reason": reason, "direction": None,
                          "trace": None, "shortest": None}))
    else:
        print(f"s UNKNOWN {reason}")
    sys.exit(EXIT_INTERNAL if ending.why == "died" else EXIT_UNKNOWN)
