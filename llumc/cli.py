"""Command line: `llumc ir | encode | solve | check | bench`."""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path
from typing import Optional

import typer

from llumc.errors import LlumcError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="llumc: unbounded model checking of C programs through DimSpec.",
    context_settings={"help_option_names": ["-h", "--help"]},
)

EXIT_BAD_INPUT = 2


def _print_version(value: bool) -> None:
    if value:
        from llumc import __version__

        print(__version__)  # alone on stdout: BenchExec's tool-info reads it (llumc/svcomp/benchexec_tool.py)
        raise typer.Exit()


@app.callback()
def _group(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                 help="Print llumc's version and exit."),
) -> None:
    """llumc: unbounded model checking of C programs through DimSpec."""
    # A callback keeps `llumc ir FILE` a subcommand even while `ir` is the only command.


EXIT_TRUE, EXIT_FALSE, EXIT_UNKNOWN, EXIT_INTERNAL = 0, 10, 3, 1


@app.command("check")
def check_command(
    program: Path = typer.Argument(..., help="C file (.c, .i) or SV-COMP task definition (.yml)."),
    prop: Optional[str] = typer.Option(
        None, "--property", help="unreach-call (default) | no-overflow | all (error calls, signed overflow, both)."
    ),
    property_file: Optional[Path] = typer.Option(
        None, "--property-file", help="SV-COMP property file (.prp): the property to check (of a task: only it)."
    ),
    engine: str = typer.Option("portfolio", "--engine", help="portfolio (word-level BMC, explicit-state search, IC3 and k-induction) | ic3 | kind | bmc | explicit | word-bmc (the word-level BMC alone)."),
    timeout: Optional[float] = typer.Option(
        None, "--timeout",
        help="Seconds of wall time: the verdict is printed by then (+2 s at most), else UNKNOWN (timeout during "
             "PHASE); a task's properties share them.",
    ),
    memory_limit: Optional[int] = typer.Option(
        None, "--memory-limit", metavar="MB",
        help="Memory of all the check's processes together (MiB); beyond it: UNKNOWN (memory limit).",
    ),
    m32: bool = typer.Option(False, "--32", help="ILP32 data model (SV-COMP 32-bit tasks): --data-model ILP32."),
    data_model: Optional[str] = typer.Option(
        None, "--data-model", help="ILP32 | LP64 (default LP64; a task file says its own)."
    ),
    witness: Optional[Path] = typer.Option(
        None, "--witness", help="Write an SV-COMP witness (format 2.0, YAML) of a TRUE or FALSE answer here."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object and nothing else on stdout."),
    ir_trace: bool = typer.Option(False, "--ir-trace", help="Show IR values (not only C variables) in the trace."),
    solver: str = typer.Option("cadical195", "--solver", help="PySAT solver for BMC and k-induction."),
    scheme: str = typer.Option("lbe", "--scheme", help="Step encoding: lbe (large blocks) | edge | paper (small blocks)."),
    ic3_direction: str = typer.Option(
        "forward", "--ic3-direction",
        help="IC3 from the initial state (forward), from the error (backward), or both in turns.",
    ),
    invariants: bool = typer.Option(
        True, "--invariants/--no-invariants",
        help="Search loop invariants first (candidates from concrete runs, kept only if inductive).",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress on stderr."),
    recursion_depth: Optional[int] = typer.Option(
        None, "--recursion-depth", help="Recursion bound: this many nested calls first (default 4); deepened while reached."),
    heap_pool: Optional[int] = typer.Option(
        None, "--heap-pool",
        help="Objects per malloc/calloc call site in a loop first (default 4); doubled while a site runs "
             "more often, up to 64."),
    recursion: str = typer.Option(
        "auto", "--recursion",
        help="How recursion is encoded: auto (unrolled while that fits, then a call stack) | unroll | stack."),
    clang: Optional[str] = typer.Option(
        None, "--clang", envvar="LLUMC_CLANG", help="Use this clang instead of ziglang's."
    ),
    random_tests: Optional[bool] = typer.Option(
        None, "--random-tests/--no-random-tests",
        help="Run the program natively on chosen values beside the engines (default: on, unless "
             "LLUMC_RANDOM_TESTS=0); a run that reaches the error is a FALSE."),
) -> None:
    """Verify a C program: TRUE (proof checked), FALSE (counterexample replayed) or UNKNOWN.

    The check runs in processes of its own, watched by this one: at the time or memory limit,
    on Ctrl-C or SIGTERM they are killed and the answer is UNKNOWN; none of them outlives
    this process, however it ends.

    Exit codes: 0 TRUE, 10 FALSE, 3 UNKNOWN, 2 bad input, 1 internal error. A task file gets
    one verdict line per property and the worst exit code: FALSE if any property is FALSE,
    else UNKNOWN if any is (1 if one was an internal error), else TRUE. A property llumc does
    not check (memory safety, termination, ...) is named and answered UNKNOWN.

    Examples:

      llumc check examples/appendix.c

      llumc check prog.c --property no-overflow --32 --timeout 60 --json

      llumc check task.yml --timeout 900

      llumc check prog.i --property-file unreach-call.prp --data-model ILP32
    """
    import json
    import time

    from llumc.check.portfolio import REFINEMENT_PROGRESS, check_program

    _check_options_valid(prop=prop, engine=engine, scheme=scheme, ic3_direction=ic3_direction, timeout=timeout,
                         recursion_depth=recursion_depth, heap_pool=heap_pool, memory_limit=memory_limit)
    call_stack = _call_stack_choice(recursion)
    from solvers.supervise import Limits, process_age, supervise

    started = time.monotonic() - process_age()  # the limit counts from the start of this process
    last_print = [0.0]

    def progress(message: str) -> None:
        """At most one line a second, and only once the run has lasted a second; a round of
        refinement always (a change of the model, rare)."""
        now = time.monotonic()
        if quiet or (now - started < 1.0 or now - last_print[0] < 1.0) \
                and not message.startswith(REFINEMENT_PROGRESS):
            return
        last_print[0] = now
        print(f"[{now - started:7.1f}s] {message}", file=sys.stderr, flush=True)

    from llumc.svcomp.task import plan_check

    plan = plan_check(program, prop=prop, property_file=property_file, m32=m32, data_model=data_model)
    m32 = plan.m32

    def check_one(source: Path, spec, seconds: Optional[float]):
        if spec.unchecked:
            from llumc.check.result import CheckResult

            return CheckResult("unknown", spec.name, "none", reason=f"property {spec.name} not checked: {spec.unchecked}")
        return check_program(source, prop=spec.name, engine=engine, timeout=seconds, m32=m32, clang=clang,
                             solver=solver, ir_trace=ir_trace, progress=progress, scheme=scheme,
                             ic3_direction=ic3_direction, invariants=invariants, recursion_depth=recursion_depth,
                             call_stack=call_stack, columns=witness is not None,  # only witnesses need columns
                             heap_pool=heap_pool, random_tests=random_tests)

    def work() -> None:
        if plan.task is not None:
            _check_task(plan, check_one, timeout=timeout, started=started, as_json=as_json, witness=witness)
        seconds = None if timeout is None else max(0.5, timeout - (time.monotonic() - started))
        result = check_one(plan.source, plan.properties[0], seconds)
        data = _tell_finished(plan.properties[0], result, as_json)
        if witness is not None:
            _write_witness(result, plan.source, plan.properties[0], m32, witness)
        if result.internal_error:
            print(f"llumc: internal error (please report): {result.internal_error}", file=sys.stderr)
        if as_json:
            print(json.dumps(data if data is not None else result.to_json()))
        else:
            _print_check(result)
        sys.exit(_exit_code(result))

    ending = supervise(lambda: _exit_code_of(work), Limits(timeout=timeout, memory_mb=memory_limit))
    if ending.why is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(ending.output)
        sys.exit(ending.code)
    sys.exit(_answer_without_worker(ending, plan, engine=engine, as_json=as_json))


RECURSION_CHOICES = {"auto": None, "unroll": False, "stack": True}


def _require_choice(option: str, value: str, choices) -> None:
    """LlumcError naming the option and its choices unless `value` is one of them."""
    if value not in choices:
        raise LlumcError(f"{option} must be one of {', '.join(choices)}, not {value!r}")


def _check_options_valid(*, prop: str | None, engine: str, scheme: str, ic3_direction: str, timeout: float | None,
                         recursion_depth: int | None, heap_pool: int | None, memory_limit: int | None) -> None:
    """`llumc check`'s option values, or LlumcError naming the first one out of range."""
    from llumc.check.portfolio import ENGINES, IC3_DIRECTIONS
    from llumc.encoding.memory import MAX_HEAP_POOL
    from llumc.encoding.transys import PROPERTIES, SCHEMES

    if prop is not None:
        _require_choice("--property", prop, PROPERTIES)
    _require_choice("--engine", engine, ENGINES)
    _require_choice("--scheme", scheme, SCHEMES)
    _require_choice("--ic3-direction", ic3_direction, IC3_DIRECTIONS)
    if timeout is not None and timeout <= 0:
        raise LlumcError("--timeout must be positive")
    if recursion_depth is not None and recursion_depth <= 0:
        raise LlumcError("--recursion-depth must be positive")
    if heap_pool is not None and not 1 <= heap_pool <= MAX_HEAP_POOL:
        raise LlumcError(f"--heap-pool must be between 1 and {MAX_HEAP_POOL}")
    if memory_limit is not None and memory_limit <= 0:
        raise LlumcError("--memory-limit must be positive")


def _call_stack_choice(recursion: str) -> bool | None:
    """`--recursion` as `compile_c`'s `call_stack`."""
    if recursion not in RECURSION_CHOICES:
        raise LlumcError(f"--recursion must be one of {' | '.join(RECURSION_CHOICES)}, not {recursion!r}")
    return RECURSION_CHOICES[recursion]


def _exit_code(result) -> int:
    if result.internal_error and result.verdict == "unknown":
        return EXIT_INTERNAL
    return {"true": EXIT_TRUE, "false": EXIT_FALSE}.get(result.verdict, EXIT_UNKNOWN)


def _exit_code_of(work) -> int:
    """Run `work` (which may sys.exit) in a check's worker process: its exit code, bad input and
    internal errors on one line as `main` says them."""
    try:
        work()
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except LlumcError as err:
        print(f"llumc: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("llumc: interrupted", file=sys.stderr)
        return 130
    except Exception as err:
        if os.environ.get("LLUMC_DEBUG"):
            raise
        _say_internal_error(err)
        return EXIT_INTERNAL
    return 0


def _tell_finished(spec, result, as_json: bool, heading: str = "", expected: str = "") -> dict | None:
    """Give the supervising process a property's answer as soon as it is known: if the time limit
    ends the check after it (a witness being written, the task's next property), the answer
    still stands. Returns the result's JSON data where it made it (`--json`), for the caller to
    print."""
    import contextlib
    import io

    from solvers.supervise import supervised, tell

    if not supervised():
        return None
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        _print_check(result, heading=heading, expected=expected)
    # the whole JSON only where it is printed: a trace of 100 000 steps took seconds to send
    data = result.to_json() if as_json else None
    told = data if as_json else {"verdict": result.verdict, "internal_error": result.internal_error}
    tell({"finished": spec.name, "json": told, "text": text.getvalue(), "internal_error": result.internal_error})
    return data


def _reason_without_answer(ending) -> str:
    """Why the check's processes ended without an answer, for its UNKNOWN line."""
    from solvers.supervise import signal_name

    if ending.why == "timeout":  # (no phase told yet: the worker was still importing llumc)
        return f"timeout during {ending.phase or 'start-up'}"
    if ending.why == "died":
        name = signal_name(ending.signal_number)
        hint = " (memory ran out?)" if name in ("SIGKILL", "SIGABRT") else ""
        return f"internal error: the checking process was killed by {name}{hint}"
    return ending.why


def _answer_without_worker(ending, plan, *, engine: str, as_json: bool) -> int:
    """The answer when the check's worker was ended (time or memory limit, Ctrl-C, SIGTERM) or
    died: each property it had answered keeps its answer, the others are UNKNOWN with the reason.
    Returns the exit code."""
    import json

    from llumc.check.result import CheckResult
    from llumc.svcomp.task import combined_verdict

    reason = _reason_without_answer(ending)
    internal = reason if ending.why == "died" else None
    if internal:
        print(f"llumc: {reason}", file=sys.stderr)
    finished = {message["finished"]: message for message in ending.messages if "finished" in message}
    if finished and not internal:  # e.g. cut while writing a witness: the answer stands, the witness does not
        print(f"llumc: {reason}; the answers found before it stand (no witness written after them)", file=sys.stderr)
    answers = []  # (spec, JSON of its result, text of its result)
    for spec in plan.properties:
        if spec.name in finished:
            answers.append((spec, finished[spec.name]["json"], finished[spec.name]["text"]))
            continue
        unknown = CheckResult("unknown", spec.name, engine, seconds=ending.seconds, reason=reason,
                              internal_error=internal, phases=ending.phases)
        heading = f"{spec.name}: " if plan.task is not None else ""
        expected = f" (expected {spec.expected})" if plan.task is not None and spec.expected else ""
        answers.append((spec, unknown.to_json(), f"{heading}UNKNOWN ({reason}){expected}\n"))
    verdict = combined_verdict([data["verdict"] for _, data, _ in answers])
    if as_json and plan.task is not None:
        print(json.dumps(_task_json(plan.task, verdict, [(spec, data) for spec, data, _ in answers])))
    elif as_json:
        print(json.dumps(answers[0][1]))
    else:
        sys.stdout.write("".join(text for _, _, text in answers))
    if verdict == "unknown" and any(data.get("internal_error") for _, data, _ in answers):
        return EXIT_INTERNAL
    return {"true": EXIT_TRUE, "false": EXIT_FALSE}.get(verdict, EXIT_UNKNOWN)


def _task_json(task, verdict: str, results: list) -> dict:
    """`llumc check task.yml --json`: the task, its verdict, each property's result (JSON)."""
    return {
        "task": str(task.path), "input_files": [str(f) for f in task.input_files],
        "data_model": task.data_model, "verdict": verdict,
        "results": [{**data, "expected_verdict": spec.expected} for spec, data in results],
    }


def _write_witness(result, source: Path, spec, m32: bool, path: Path) -> None:
    """The witness of a TRUE or FALSE answer (llumc.svcomp.witness); for UNKNOWN none. A witness that
    cannot be made or written is said on stderr; the verdict and exit code stay."""
    from llumc.svcomp.witness import WitnessTask, default_specification, dump_witness, witness_for

    if result.verdict not in ("true", "false"):
        return
    if spec.file is not None and spec.file.is_file():
        lines = [line.strip() for line in spec.file.read_text(errors="replace").splitlines()]
        specification = "\n".join(line for line in lines if line and not line.startswith("//"))
    else:
        specification = default_specification(spec.name, source)
    task = WitnessTask(source, specification, "ILP32" if m32 else "LP64",
                       " ".join(["llumc", *sys.argv[1:]]))
    try:
        dump_witness(witness_for(result, task), path)
    except (ValueError, OSError) as err:
        print(f"llumc: no witness written to {path}: {err}", file=sys.stderr)


def _witness_path(path: Path, prop: str, several: bool) -> Path:
    """One witness per property: FILE itself for one, FILE's stem + property otherwise."""
    return path.with_name(f"{path.stem}.{prop}{path.suffix or '.yml'}") if several else path


def _check_task(plan, check_one, *, timeout: Optional[float], started: float, as_json: bool,
                witness: Optional[Path] = None) -> None:
    """Every property of a task file, in its order; the time left is shared evenly among the
    properties still to check. Exit code: the worst verdict (llumc.svcomp.task.combined_verdict)."""
    import json
    import time

    from llumc.check.result import CheckResult
    from llumc.svcomp.task import combined_verdict

    task = plan.task
    results = []
    for number, spec in enumerate(plan.properties):
        seconds = None
        if timeout is not None:
            left = timeout - (time.monotonic() - started)
            seconds = max(0.5, left / (len(plan.properties) - number))
        if len(task.input_files) != 1 and not spec.unchecked:
            result = CheckResult("unknown", spec.name, "none",
                                 reason=f"{len(task.input_files)} input files: llumc checks one program file")
        else:
            result = check_one(task.input_files[0], spec, seconds)
        heading = f"{spec.name}: "
        expected = f" (expected {spec.expected})" if spec.expected else ""
        _tell_finished(spec, result, as_json, heading=heading, expected=expected)
        if result.internal_error:
            print(f"llumc: internal error (please report): {spec.name}: {result.internal_error}", file=sys.stderr)
        results.append((spec, result))
        if witness is not None and len(task.input_files) == 1:
            _write_witness(result, task.input_files[0], spec, plan.m32,
                           _witness_path(witness, spec.name, len(plan.properties) > 1))
        if not as_json:
            _print_check(result, heading=heading, expected=expected)
    verdict = combined_verdict([result.verdict for _, result in results])
    if as_json:
        print(json.dumps(_task_json(task, verdict, [(spec, result.to_json()) for spec, result in results])))
    if verdict == "unknown" and any(result.internal_error for _, result in results):
        sys.exit(EXIT_INTERNAL)
    sys.exit({"true": EXIT_TRUE, "false": EXIT_FALSE}.get(verdict, EXIT_UNKNOWN))


# a counterexample longer than twice this many lines is shown by its first and last lines
TRACE_LINES_SHOWN = 25


def _print_check(result, heading: str = "", expected: str = "") -> None:
    """Verdict first, then the evidence: a short C-level counterexample or the proof's size.
    `heading` names the property (task files), `expected` the task's expected verdict."""
    if result.verdict == "true":
        print(f"{heading}TRUE{expected}")
        print(f"proof: {result.confirmation} ({result.engine}, {result.seconds:.2f} s)")
        for loop in result.invariants:
            print(f"loop invariant at line {loop['line']}: {loop['expression']}")
            if loop.get("memory"):
                print(f"  memory at line {loop['line']}: {loop['memory']}")
        functions = dict.fromkeys(fact["function"] for fact in result.summaries)
        for function in functions:
            facts = [f"({fact['expression']})" for fact in result.summaries if fact["function"] == function]
            print(f"summary of {function}: " + " && ".join(facts))
        _print_refinements(result)
        return
    if result.verdict == "unknown":
        print(f"{heading}UNKNOWN ({result.reason}){expected}")
        return
    print(f"{heading}FALSE{expected}")
    steps = len(result.trace)
    # valid-memsafety names the part violated (`valid-memsafety: valid-free`), as SV-COMP scores it
    violated = result.property + (f": {result.error.subproperty}" if result.error and result.error.subproperty else "")
    if result.engine == "random tests":  # a native run: its steps are the nondet values it read
        print(f"counterexample ({violated}, a native run reading {steps} nondet value{'' if steps == 1 else 's'}, "
              f"found by {result.engine}):")
    else:
        print(f"counterexample ({violated}, {steps} step{'' if steps == 1 else 's'}, found by {result.engine}):")
    if result.arguments is not None:
        print(f"  arguments: argc = {result.argc}, argv = {{{', '.join(result.arguments)}}}")
    lines = []
    for step in result.trace:
        where = f"line {step.line}" if step.line else step.block
        parts = [f"{i.function}() = {i.text if i.text is not None else i.value}" for i in step.inputs]
        parts += [f"calls {name}() through a pointer" for name in step.indirect_calls]
        parts += [f"{name} = {value}" for name, value in step.changes.items()]
        if parts:
            lines.append(f"  {where:>10}: " + ", ".join(parts))
    if len(lines) > 2 * TRACE_LINES_SHOWN:  # a run over a large array: its start and its end
        hidden = len(lines) - 2 * TRACE_LINES_SHOWN
        lines[TRACE_LINES_SHOWN:-TRACE_LINES_SHOWN] = [f"  {'...':>10}  {hidden} more lines (--json has them all)"]
    for line in lines:
        print(line)
    if result.error is not None:
        at = f" at line {result.error.line}" if result.error.line else ""
        print(f"error: {result.error.description}{at}")
    print(f"confirmed: {result.confirmation}")
    _print_refinements(result)


def _print_refinements(result) -> None:
    """The rounds of refinement the answer rests on (abstract memory made exact)."""
    for number, refinement in enumerate(result.refinements, 1):
        print(f"refinement {number}: {', '.join(refinement['objects'])} made exact ({refinement['cells']} cells) "
              f"after {refinement['counterexample']}")


@app.command("ir")
def ir_command(
    program: Path = typer.Argument(..., help="C source file."),
    m32: bool = typer.Option(False, "--32", help="ILP32 data model (SV-COMP 32-bit tasks)."),
    clang: Optional[str] = typer.Option(
        None, "--clang", envvar="LLUMC_CLANG", help="Use this clang instead of ziglang's."
    ),
    overflow: bool = typer.Option(False, "--check-overflow", help="Instrument signed overflow (traps)."),
    div: bool = typer.Option(False, "--check-div-by-zero", help="Instrument division by zero."),
    shift: bool = typer.Option(False, "--check-shift", help="Instrument shift amounts >= width."),
) -> None:
    """Print the LLVM-IR module that will be encoded (after inlining and promotion).

    Example: llumc ir examples/appendix.c
    """
    from llumc.frontend.compile import Checks, compile_c

    checks = Checks(overflow=overflow, div_by_zero=div, shift=shift)
    result = compile_c(program, m32=m32, clang=clang, checks=checks)
    sys.stdout.write(result.ir)


@app.command("encode")
def encode_command(
    program: Path = typer.Argument(..., help="C source file."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write the model here (default: stdout)."),
    fmt: str = typer.Option(
        "dimspec", "--format",
        help="dimspec | aiger (binary .aig; ASCII to stdout or a .aag file) | btor2 (word level).",
    ),
    prop: str = typer.Option(
        "unreach-call", "--property", help="unreach-call | no-overflow | all (error calls, signed overflow, both)."
    ),
    m32: bool = typer.Option(False, "--32", help="ILP32 data model (SV-COMP 32-bit tasks)."),
    scheme: str = typer.Option("lbe", "--scheme", help="Step encoding: lbe (default; large blocks: loop head to loop head) | edge (small blocks, phis set on entering edges) | paper (LLUMC: pred)."),
    stats: bool = typer.Option(False, "--stats", help="Print encoding size (stderr; stdout with -o)."),
    check_div_by_zero: bool = typer.Option(False, "--check-div-by-zero", help="Division by zero is an error too."),
    check_shift: bool = typer.Option(False, "--check-shift", help="Shift amount >= width is an error too."),
    recursion_depth: int = typer.Option(
        4, "--recursion-depth", help="Recursion bound: this many nested calls; a deeper call is a bad state."),
    recursion: str = typer.Option(
        "auto", "--recursion",
        help="How recursion is encoded: auto (unrolled if that fits, else a call stack) | unroll | stack."),
    clang: Optional[str] = typer.Option(
        None, "--clang", envvar="LLUMC_CLANG", help="Use this clang instead of ziglang's."
    ),
) -> None:
    """Encode a C program as a DimSpec transition system (symbol map in leading comments),
    or as AIGER 1.9 or BTOR2 (symbol table and map as comments; see docs/formats.md).

    Example: llumc encode examples/appendix.c -o appendix.dimspec --stats

    Example: llumc encode examples/appendix.c --format aiger -o appendix.aig
    """
    from llumc.pipeline import encode_file
    from llumc.export import FORMATS, export
    from llumc.encoding.transys import PROPERTIES, SCHEMES
    from solvers.dimspec import format_dimspec

    _require_choice("--property", prop, PROPERTIES)
    _require_choice("--scheme", scheme, SCHEMES)
    _require_choice("--format", fmt, FORMATS)
    call_stack = _call_stack_choice(recursion)
    if fmt != "dimspec":
        binary = output is not None and output.suffix.lower() != ".aag"
        data, lines = export(program, fmt, binary=binary, prop=prop, m32=m32, scheme=scheme, clang=clang,
                             check_div_by_zero=check_div_by_zero, check_shift=check_shift,
                             recursion_depth=recursion_depth, call_stack=call_stack)
        if output is None:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            try:
                output.write_bytes(data)
            except OSError as err:
                raise LlumcError(f"cannot write {output}: {err.strerror}") from err
        if stats:
            for line in lines:
                print(line, file=sys.stdout if output is not None else sys.stderr)
        return
    if recursion_depth <= 0:
        raise LlumcError("--recursion-depth must be positive")
    result = encode_file(program, prop=prop, m32=m32, scheme=scheme, clang=clang,
                         check_div_by_zero=check_div_by_zero, check_shift=check_shift,
                         recursion_depth=recursion_depth, call_stack=call_stack)
    text = format_dimspec(result.ts)
    if output is None:
        sys.stdout.write(text)
    else:
        try:
            output.write_text(text)
        except OSError as err:
            raise LlumcError(f"cannot write {output}: {err.strerror}") from err
    if stats:
        stream = sys.stdout if output is not None else sys.stderr
        for line in result.stats.lines():
            print(line, file=stream)
    _KEPT_UNTIL_EXIT.append(result)  # main() exits without freeing it


# What a finished command leaves for the process to drop at exit: freeing the millions of
# objects of a large model one by one took 0.6 s of Problem07's `encode` (clang's -disable-free
# for the same reason). main() leaves with os._exit when this holds anything.
_KEPT_UNTIL_EXIT: list = []


@app.command(
    "solve",
    add_help_option=False,
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []},
)
def solve_command(ctx: typer.Context) -> None:
    """Solve a DimSpec or AIGER file with IC3 or BMC; every answer checked (see --help).

    Example: llumc solve model.dimspec --bmc --trace
    """
    # A thin wrapper: the options and their help live in solvers.cli (also `python -m solvers`).
    from solvers.cli import main as solve_main

    solve_main(list(ctx.args), prog="llumc solve")


@app.command("bench")
def bench_command(
    tasks: Path = typer.Argument(..., help="Directory of SV-COMP tasks (tagged file names or .yml), or one task file."),
    timeout: float = typer.Option(60.0, "--timeout", help="Seconds per task given to `llumc check`."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Checker processes at a time."),
    engines: list[str] = typer.Option(["portfolio"], "--engine", help="portfolio | ic3 | kind | bmc; repeat for one run (and plot line) each."),
    prop: str = typer.Option("all", "--property", help="unreach-call | no-overflow | all (every supported tag)."),
    out: Path = typer.Option(Path("bench-out"), "--out", help="Directory for results.tsv and cactus.png."),
    m32: bool = typer.Option(False, "--32", help="ILP32 for tasks named by tags (a .yml says its own data model)."),
    limit: Optional[int] = typer.Option(None, "--limit", help="Run only the first N tasks (after --filter)."),
    name_filter: Optional[str] = typer.Option(None, "--filter", help="Only tasks whose file name matches this glob."),
    grace: float = typer.Option(10.0, "--grace", help="Seconds past --timeout before a checker is killed."),
    memory_mb: int = typer.Option(4096, "--memory-mb", help="Address-space limit of each checker process (MiB)."),
    reference: Optional[Path] = typer.Option(
        None, "--reference", help="Directory of published times (one `name seconds` file per tool) to draw beside."
    ),
    checker_cmd: Optional[str] = typer.Option(None, "--checker-cmd", hidden=True, help="Command instead of `python -m llumc check`."),
    witness_dir: Optional[Path] = typer.Option(
        None, "--witness-dir", help="Write the SV-COMP witness (format 2.0) of every TRUE and FALSE answer here."
    ),
    executor: str = typer.Option(
        "local", "--executor",
        help="local (child processes here) | dask (a Dask cluster: --jobs local workers, or --scheduler).",
    ),
    scheduler: Optional[str] = typer.Option(
        None, "--scheduler", help="With --executor dask: address of a running Dask scheduler (tcp://HOST:8786)."
    ),
) -> None:
    """Run `llumc check` on every task, score the verdicts, write a TSV and a cactus plot.

    Exit code 1 if any verdict is wrong, 0 otherwise, 2 for bad input.

    Example: llumc bench ../shared/benchmarks/llumc-publications --32 --timeout 60 --jobs 2
    """
    import functools

    from llumc.bench import runner as bench

    properties = bench.SUPPORTED_PROPERTIES if prop == "all" else (prop,)
    if prop != "all" and prop not in bench.SUPPORTED_PROPERTIES:
        raise LlumcError(f"--property must be all, {', '.join(bench.SUPPORTED_PROPERTIES)}; not {prop!r}")
    for engine in engines:
        if engine not in ("portfolio", "ic3", "bmc"):
            raise LlumcError(f"--engine must be portfolio, ic3 or bmc, not {engine!r}")
    if timeout <= 0 or jobs < 1 or memory_mb < 64 or grace < 0:
        raise LlumcError("--timeout must be > 0, --jobs >= 1, --memory-mb >= 64, --grace >= 0")
    from llumc.bench.dist import EXECUTORS, run_tasks_dask

    if executor not in EXECUTORS:
        raise LlumcError(f"--executor must be one of {', '.join(EXECUTORS)}, not {executor!r}")
    if scheduler is not None and executor != "dask":
        raise LlumcError("--scheduler needs --executor dask")
    published = bench.read_reference(reference) if reference else None
    selected = bench.discover_tasks(tasks, properties=properties, m32=m32, name_filter=name_filter, limit=limit)
    if not selected:
        raise LlumcError(f"{tasks}: no task with a verdict tag or .yml for {', '.join(properties)}")
    print(f"llumc bench: {len(selected)} tasks x {len(engines)} engine(s), {timeout:g} s each, "
          f"{jobs} job(s)", file=sys.stderr)
    if executor == "local":
        _prepare_native_builds(sorted({task.m32 for task in selected}, reverse=True))
    run = bench.run_tasks if executor == "local" else functools.partial(run_tasks_dask, scheduler=scheduler)
    results = run(selected, engines=engines, timeout=timeout, jobs=jobs, grace=grace,
                  memory_mb=memory_mb, checker=bench.checker_from_string(checker_cmd),
                  witness_dir=witness_dir)
    tsv = out / "results.tsv"
    bench.write_tsv(results, tsv)
    plot = out / "cactus.png"
    why_no_plot = bench.plot_cactus(results, plot, timeout=timeout, reference=published)
    print(bench.format_summary(results))
    print(f"results: {tsv}")
    print(f"plot: {plot}" if why_no_plot is None else f"plot: none ({why_no_plot})")
    if witness_dir is not None:
        answered = [r for r in results if r.verdict in ("true", "false")]
        written = sum(bench.witness_path(witness_dir, r.task, r.engine).is_file() for r in answered)
        print(f"witnesses: {written} of {len(answered)} TRUE/FALSE answers in {witness_dir}")
    if any(result.outcome == "wrong" for result in results):
        sys.exit(1)


def _prepare_native_builds(m32_targets: list[bool]) -> None:
    """zig's C library for the tasks' targets, built before the first task: a task's time
    limit would otherwise cut that build (about a minute, once per machine) short, again and
    again, and every bug of the first tasks would go unconfirmed."""
    import time

    from llumc.check.replay import prepare_native_builds

    started = time.monotonic()
    problems = prepare_native_builds(tuple(m32_targets))
    seconds = time.monotonic() - started
    for problem in problems:
        print(f"llumc bench: warning: {problem}", file=sys.stderr)
    if seconds >= 2:
        print(f"llumc bench: zig's C library built for the replays in {seconds:.0f} s (once per machine)",
              file=sys.stderr)


def main() -> None:
    """Entry point: one clear line and exit code 2 for bad input, never a traceback. Once the
    command is done (its answer printed) the process ignores SIGINT, SIGTERM and SIGHUP: Python
    puts their default actions back while it shuts down, and a Ctrl-C in that moment would
    otherwise end a process that has answered FALSE with the status of an interrupted one."""
    try:
        _run()
    finally:
        _ignore_signals_while_exiting()


def _ignore_signals_while_exiting() -> None:
    import signal

    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        try:
            signal.signal(number, signal.SIG_IGN)
        except (ValueError, OSError):  # not the main thread
            pass


def _run() -> None:
    try:
        code = app(standalone_mode=False)
        if code == 130:  # typer's answer to a KeyboardInterrupt (Ctrl-C, SIGTERM in `bench`)
            print("llumc: interrupted", file=sys.stderr)
            sys.exit(130)
        if _KEPT_UNTIL_EXIT:
            from llumc.bitblast.blast import release_dump_directory

            release_dump_directory()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)
    except LlumcError as err:
        print(f"llumc: error: {err}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        print("llumc: interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as err:  # click's usage errors and the like
        from typer._click.exceptions import ClickException  # typer 0.29 vendors click

        if isinstance(err, typer.Abort):
            print("llumc: interrupted", file=sys.stderr)
            sys.exit(130)
        if isinstance(err, ClickException):
            message = err.format_message()
            if not message:  # `llumc` alone: click shows the help
                err.show()
                sys.exit(EXIT_BAD_INPUT)
            # One line, like every other bad input (click would print the usage block first).
            ctx = getattr(err, "ctx", None)
            where = ctx.command_path if ctx is not None else "llumc"
            print(f"{where}: error: {message} (see {where} --help)", file=sys.stderr)
            sys.exit(EXIT_BAD_INPUT)
        if os.environ.get("LLUMC_DEBUG"):
            raise
        _say_internal_error(err)
        sys.exit(1)


def _say_internal_error(err: Exception) -> None:
    where = traceback.extract_tb(err.__traceback__)[-1]
    print(f"llumc: internal error (please report; LLUMC_DEBUG=1 shows the traceback): "
          f"{type(err).__name__}: {err} at {Path(where.filename).name}:{where.lineno}", file=sys.stderr)
