"""`llumc bench`: run `llumc check` on a set of SV-COMP tasks and score the verdicts.

Tasks come from file names carrying SV-COMP verdict tags (`foo_false-unreach-call_true-no-overflow.c`)
or from SV-COMP task definition files (`.yml`). Each task runs in its own process group with a
hard wall-clock limit (the checker's own timeout plus a grace period) and an address-space
limit, so one runaway task can neither hang the run nor take the machine's memory. Results go
to a TSV and a cactus plot (tasks solved correctly against time, one line per engine).
"""

from __future__ import annotations

import csv
import fnmatch
import json
import os
import re
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence, TextIO

from llumc import child_environment
from llumc.errors import LlumcError
from solvers.supervise import die_with_parent, prepare

__all__ = [
    "SUPPORTED_PROPERTIES",
    "Task",
    "TaskResult",
    "BenchSummary",
    "discover_tasks",
    "tags_from_name",
    "run_tasks",
    "write_tsv",
    "plot_cactus",
    "summarise",
    "format_summary",
    "programs_solved",
    "program_times",
    "read_reference",
    "witness_path",
    "LABEL_CORRECTIONS",
]

SUPPORTED_PROPERTIES = ("unreach-call", "no-overflow")
TSV_COLUMNS = ("task", "property", "expected", "verdict", "seconds", "reason", "engine", "outcome",
               "answered_by")
# A verdict tag in an SV-COMP file name: `_false-unreach-call`, `_true-no-overflow`, ... (a digit
# may follow, as in `_false-unreach-call1`).
_TAG = re.compile(r"_(true|false)-([a-z]+(?:-[a-z]+)*)")
_SOURCE_SUFFIXES = (".c", ".i")

# Labels known to be wrong in the benchmark sets we ship numbers for (see
# shared/benchmarks/llumc-publications/README.md): later SV-COMP versions found these programs
# to overflow. A FALSE there counts as correct only because llumc prints FALSE only for a
# counterexample it replayed concretely; a TRUE counts as wrong.
LABEL_CORRECTIONS: list[tuple[str, str, str]] = [
    # (file-name glob, property, corrected expected verdict)
    ("s3_*.BV.c.cil.c", "no-overflow", "false"),
]


@dataclass(frozen=True)
class Task:
    name: str  # shown in the TSV: the task file's path relative to TASKS
    source: Path
    property: str  # "unreach-call" | "no-overflow"
    expected: str  # "true" | "false"
    m32: bool
    note: str = ""  # e.g. a corrected label


@dataclass
class TaskResult:
    task: Task
    engine: str
    verdict: str  # "true" | "false" | "unknown"
    seconds: float  # wall clock of the checker process, measured here
    reason: str = ""
    # Which engine of the portfolio answered, and for TRUE what the proof rests on:
    # "kind", "ic3+invariants", "invariants alone (kind)", ... (empty: no answer)
    answered_by: str = ""

    @property
    def outcome(self) -> str:
        """correct-true | correct-false | wrong | unknown"""
        if self.verdict not in ("true", "false"):
            return "unknown"
        if self.verdict != self.task.expected:
            return "wrong"
        return f"correct-{self.verdict}"


@dataclass
class BenchSummary:
    engine: str
    correct_true: int = 0
    correct_false: int = 0
    wrong: list[TaskResult] = field(default_factory=list)
    unknown: int = 0
    total: int = 0


# --------------------------------------------------------------------------- discovery


def tags_from_name(name: str) -> dict[str, str]:
    """Property → expected verdict from the tags in an SV-COMP file name (all properties)."""
    return {prop: verdict for verdict, prop in _TAG.findall(name)}


def _corrected(source: Path, prop: str, expected: str) -> tuple[str, str]:
    for pattern, corrected_prop, verdict in LABEL_CORRECTIONS:
        if prop == corrected_prop and fnmatch.fnmatch(source.name, pattern) and verdict != expected:
            return verdict, f"label corrected: {expected} -> {verdict}"
    return expected, ""


def _tasks_from_yml(path: Path, root: Path, properties: Sequence[str]) -> list[Task]:
    """Tasks of an SV-COMP task definition (format 2.0): input_files, properties, data_model."""
    try:
        import yaml
    except ImportError:
        raise LlumcError(f"{path}: reading .yml task files needs PyYAML (pip install '.[bench]')") from None
    try:
        definition = yaml.safe_load(path.read_text())
    except (yaml.YAMLError, UnicodeDecodeError) as err:
        raise LlumcError(f"{path}: not a YAML task definition: {str(err).splitlines()[0]}") from None
    if not isinstance(definition, dict) or "input_files" not in definition:
        raise LlumcError(f"{path}: not an SV-COMP task definition (no input_files)")
    inputs = definition["input_files"]
    inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
    if len(inputs) != 1:
        print(f"llumc bench: skipping {path}: {len(inputs)} input files (llumc checks one)", file=sys.stderr)
        return []
    source = (path.parent / inputs[0]).resolve()
    if not source.is_file():
        raise LlumcError(f"{path}: input file {inputs[0]} not found")
    options = definition.get("options") or {}
    language = str(options.get("language", "C"))
    if language.upper() != "C":
        return []
    m32 = str(options.get("data_model", "LP64")).upper() == "ILP32"
    tasks = []
    for entry in definition.get("properties") or []:
        if not isinstance(entry, dict) or "property_file" not in entry:
            continue
        prop = Path(str(entry["property_file"])).stem
        if prop not in properties or "expected_verdict" not in entry:
            continue
        expected = str(entry["expected_verdict"]).lower()  # YAML reads `false` as a bool
        if expected not in ("true", "false"):
            continue
        expected, note = _corrected(source, prop, expected)
        tasks.append(Task(str(path.relative_to(root)), source, prop, expected, m32, note))
    return tasks


def discover_tasks(
    tasks_path: Path,
    *,
    properties: Sequence[str] = SUPPORTED_PROPERTIES,
    m32: bool = False,
    name_filter: str | None = None,
    limit: int | None = None,
) -> list[Task]:
    """Every (file, property) task under `tasks_path` (a directory, a .c/.i or a .yml file).

    `.yml` task definitions win over name tags: a C file that a .yml names is not read for tags.
    `m32` applies to tasks from file names; a .yml says its own data model."""
    tasks_path = Path(tasks_path)
    if not tasks_path.exists():
        raise LlumcError(f"{tasks_path}: no such file or directory")
    root = tasks_path if tasks_path.is_dir() else tasks_path.parent
    files = sorted(tasks_path.rglob("*")) if tasks_path.is_dir() else [tasks_path]
    ymls = [f for f in files if f.suffix in (".yml", ".yaml") and f.is_file()]
    sources = [f for f in files if f.suffix in _SOURCE_SUFFIXES and f.is_file()]

    tasks: list[Task] = []
    from_yml: set[Path] = set()
    for yml in ymls:
        for task in _tasks_from_yml(yml, root, properties):
            tasks.append(task)
            from_yml.add(task.source)
    for source in sources:
        if source.resolve() in from_yml:
            continue
        for prop, expected in sorted(tags_from_name(source.name).items()):
            if prop in properties:
                expected, note = _corrected(source, prop, expected)
                tasks.append(Task(str(source.relative_to(root)), source, prop, expected, m32, note))
    if name_filter:
        tasks = [t for t in tasks if fnmatch.fnmatch(Path(t.name).name, name_filter)
                 or fnmatch.fnmatch(t.name, name_filter)]
    tasks.sort(key=lambda t: (t.name, t.property))
    return tasks[:limit] if limit is not None else tasks


# --------------------------------------------------------------------------- running


def default_checker() -> list[str]:
    """This interpreter's `llumc check`; -P: not the current directory's llumc (a checkout
    there would shadow the bench's own, `checker_env`)."""
    return [sys.executable, "-P", "-m", "llumc", "check"]


def checker_env(checker: Sequence[str]) -> dict[str, str] | None:
    """The default checker's environment: the llumc this bench runs comes first on its path, so
    that the checks run the same code as the bench, wherever it was started from (a frozen copy
    of a commit, a worktree, an install). None for another checker: its own environment."""
    return child_environment() if list(checker) == default_checker() else None


def witness_path(directory: Path, task: Task, engine: str) -> Path:
    """Where `--witness-dir` puts a task's witness: one flat file per (task, property, engine)."""
    name = re.sub(r"[^\w.-]+", "_", task.name)
    return Path(directory) / f"{name}.{task.property}.{engine}.yml"


def _checker_argv(checker: Sequence[str], task: Task, engine: str, timeout: float,
                  witness_dir: Path | None = None, memory_mb: int | None = None) -> list[str]:
    """The checker's command line; `memory_mb`: its memory limit, all its processes together
    (`llumc check --memory-limit`: UNKNOWN (memory limit) rather than a process killed)."""
    argv = [*checker, str(task.source), "--property", task.property, "--json",
            "--timeout", f"{timeout:g}", "--engine", engine]
    if memory_mb is not None:
        argv += ["--memory-limit", str(memory_mb)]
    if witness_dir is not None:
        argv += ["--witness", str(witness_path(witness_dir, task, engine))]
    return argv + (["--32"] if task.m32 else [])


def _memory_limiter(memory_mb: int) -> Callable[[], None]:
    """Between fork and exec of a checker: its address space limited, and it dies with the bench
    (its own session keeps it from the bench's process group)."""
    limit = memory_mb << 20
    parent = os.getpid()
    prepare()

    def limit_child() -> None:  # between fork and exec; the run loop is single-threaded
        die_with_parent(parent)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return limit_child


@dataclass
class _Running:
    task: Task
    engine: str
    process: subprocess.Popen
    started: float
    stdout: TextIO
    stderr: TextIO


def _kill_group(process: subprocess.Popen) -> None:
    """The checker and everything it started (the portfolio's engines)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _one_line(text: str, limit: int = 300) -> str:
    return " ".join(text.split())[:limit]


def _result_from_output(running: _Running, seconds: float, killed: bool, hard_limit: float) -> TaskResult:
    # All of both (temporary files): a counterexample of 30 000 steps is a JSON answer of 5 MB,
    # and the last line of stderr says where a checker without an answer stopped.
    running.stdout.seek(0)
    running.stderr.seek(0)
    out = running.stdout.read()
    err = running.stderr.read()
    task, engine = running.task, running.engine
    if killed:
        return TaskResult(task, engine, "unknown", seconds, f"killed at the hard limit ({hard_limit:g} s)")
    report = None
    for candidate in [out.strip(), *reversed(out.strip().splitlines())]:
        try:
            report = json.loads(candidate)
            break
        except (json.JSONDecodeError, ValueError):
            continue
    code = running.process.returncode
    if not isinstance(report, dict) or "verdict" not in report:
        last = err.strip().splitlines()[-1] if err.strip() else "no output"
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit {code}"
        return TaskResult(task, engine, "unknown", seconds, _one_line(f"no verdict ({how}): {last}"))
    verdict = str(report.get("verdict", "")).lower()
    if verdict not in ("true", "false", "unknown"):
        return TaskResult(task, engine, "unknown", seconds, _one_line(f"unreadable verdict {verdict!r}"))
    return TaskResult(task, engine, verdict, seconds, _one_line(str(report.get("reason") or "")),
                      answered_by(report))


def answered_by(report: dict) -> str:
    """The engine that answered (from the checker's JSON) and, for TRUE, whether the loop
    invariants took part or proved the property alone (k-induction needed k = 1 with them)."""
    verdict, used = report.get("verdict"), str(report.get("engine") or "")
    if verdict not in ("true", "false") or not used:
        return ""
    if verdict == "true" and report.get("invariants_alone"):
        return f"invariants alone ({used})"
    if verdict == "true" and report.get("strengthened") is not None:
        return f"{used}+invariants" if report["strengthened"] else used
    search = report.get("invariant_search") or {}  # reports of checkers before `strengthened`
    if verdict == "true" and search.get("kept"):
        return f"{used}+invariants"
    return used


def run_tasks(
    tasks: Sequence[Task],
    *,
    engines: Sequence[str] = ("portfolio",),
    timeout: float = 60.0,
    jobs: int = 1,
    grace: float = 10.0,
    memory_mb: int = 4096,
    checker: Sequence[str] | None = None,
    progress: TextIO | None = sys.stderr,
    witness_dir: Path | None = None,
) -> list[TaskResult]:
    """Run every task with every engine, at most `jobs` checker processes at a time.

    A process still running at `timeout + grace` seconds is killed with its process group and
    counts as unknown (`llumc check` itself answers by `timeout` + 2 s; the grace is for other
    checkers). Each checker dies with the bench, however the bench ends; Ctrl-C and SIGTERM kill
    the running checkers' process groups. A single thread polls the processes, so the memory limit can be set
    between fork and exec (preexec_fn is unsafe only with threads). `witness_dir`: each checker
    writes the witness of its TRUE or FALSE answer there (`witness_path`)."""
    checker = list(checker) if checker else default_checker()
    hard_limit = timeout + grace
    queue = [(task, engine) for engine in engines for task in tasks]
    queue.reverse()  # pop() from the end keeps the given order
    total = len(queue)
    running: list[_Running] = []
    results: list[TaskResult] = []
    bench_start = time.monotonic()
    previous_term = _terminate_as_interrupt()
    try:
        while queue or running:
            while queue and len(running) < max(1, jobs):
                task, engine = queue.pop()
                stdout = tempfile.TemporaryFile("w+", errors="replace")
                stderr = tempfile.TemporaryFile("w+", errors="replace")
                process = subprocess.Popen(
                    _checker_argv(checker, task, engine, timeout, witness_dir, memory_mb), stdin=subprocess.DEVNULL,
                    stdout=stdout, stderr=stderr, start_new_session=True,
                    preexec_fn=_memory_limiter(memory_mb), text=True, env=checker_env(checker),
                )
                running.append(_Running(task, engine, process, time.monotonic(), stdout, stderr))
            time.sleep(0.02)
            for entry in list(running):
                elapsed = time.monotonic() - entry.started
                killed = False
                if entry.process.poll() is None:
                    if elapsed < hard_limit:
                        continue
                    killed = True
                _kill_group(entry.process)  # also stray children of a finished checker
                entry.process.wait()
                running.remove(entry)
                result = _result_from_output(entry, round(elapsed, 3), killed, hard_limit)
                entry.stdout.close()
                entry.stderr.close()
                results.append(result)
                if progress is not None:
                    _print_progress(progress, result, len(results), total, time.monotonic() - bench_start)
    finally:
        for entry in running:  # interrupted: leave nothing behind
            _kill_group(entry.process)
            entry.process.wait()
        if previous_term is not None:
            signal.signal(signal.SIGTERM, previous_term)
    return results


def _interrupt(_number, _frame) -> None:
    raise KeyboardInterrupt


def _terminate_as_interrupt():
    """SIGTERM ends the bench as Ctrl-C does: its checkers' process groups killed on the way out
    (by default SIGTERM ends Python at once, and they would run on). The previous handler, or
    None where this is not the main thread."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _interrupt)


def _print_progress(stream: TextIO, result: TaskResult, done: int, total: int, elapsed: float) -> None:
    outcome = result.outcome
    mark = "WRONG" if outcome == "wrong" else outcome
    reason = f" ({result.reason})" if result.reason and outcome != "correct-true" else ""
    width = 20
    filled = width * done // max(total, 1)
    bar = "#" * filled + "." * (width - filled)
    eta = f" eta {elapsed / done * (total - done):.0f}s" if 0 < done < total else ""
    print(f"[{done}/{total} {bar} {elapsed:.0f}s{eta}] {result.task.name} {result.task.property} "
          f"{result.engine}: {result.verdict} in {result.seconds:.1f}s, {mark}{reason}"[:400],
          file=stream, flush=True)


# --------------------------------------------------------------------------- reporting


def summarise(results: Sequence[TaskResult]) -> list[BenchSummary]:
    """One summary per engine, in the order the engines first appear."""
    summaries: dict[str, BenchSummary] = {}
    for result in results:
        summary = summaries.setdefault(result.engine, BenchSummary(result.engine))
        summary.total += 1
        outcome = result.outcome
        if outcome == "correct-true":
            summary.correct_true += 1
        elif outcome == "correct-false":
            summary.correct_false += 1
        elif outcome == "wrong":
            summary.wrong.append(result)
        else:
            summary.unknown += 1
    return list(summaries.values())


def write_tsv(results: Sequence[TaskResult], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(TSV_COLUMNS)
        for r in results:
            reason = "; ".join(part for part in (r.reason, r.task.note) if part)
            writer.writerow([r.task.name, r.task.property, r.task.expected, r.verdict,
                             f"{r.seconds:.3f}", _one_line(reason), r.engine, r.outcome, r.answered_by])


def read_reference(directory: Path) -> dict[str, list[float]]:
    """Published times: one file per tool, one `name seconds` line per task solved correctly."""
    runs: dict[str, list[float]] = {}
    for path in sorted(Path(directory).iterdir()):
        if not path.is_file() or path.suffix:
            continue
        times = []
        for number, line in enumerate(path.read_text().splitlines(), 1):
            parts = line.split()
            if not parts:
                continue
            try:
                times.append(float(parts[-1]))
            except ValueError:
                raise LlumcError(f"{path}:{number}: expected `name seconds`") from None
        runs[path.name] = times
    if not runs:
        raise LlumcError(f"{directory}: no reference result files (one `name seconds` file per tool)")
    return runs


def plot_cactus(results: Sequence[TaskResult], path: Path, *, timeout: float,
                reference: dict[str, list[float]] | None = None, title: str = "") -> str | None:
    """Cactus plot as in Figure 1 of the LLUMC paper: x = tasks solved correctly, y = time of
    the k-th fastest. Returns None when written, else why not (matplotlib missing)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        return "matplotlib not installed (pip install '.[bench]'): no plot"
    curves: dict[str, list[float]] = {}
    if reference:
        # Published results count programs: draw llumc per program too (every task correct,
        # time = the sum over its tasks).
        for engine in dict.fromkeys(result.engine for result in results):
            curves[f"llumc {engine}"] = program_times(results, engine)
    else:
        for result in results:
            curves.setdefault(f"llumc {result.engine}", [])
            if result.outcome.startswith("correct"):
                curves[f"llumc {result.engine}"].append(result.seconds)
    for name, times in (reference or {}).items():
        curves[f"{name} (published)"] = list(times)
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for name, times in curves.items():
        times = sorted(times)
        linestyle = "--" if name.endswith("(published)") else "-"
        axes.plot(range(1, len(times) + 1), times, marker=".", linestyle=linestyle,
                  label=f"{name}: {len(times)}")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    # Published results count programs; llumc counts (program, property) tasks.
    axes.set_xlabel("programs solved correctly" if reference else "tasks solved correctly")
    axes.set_ylabel("time per task (s)")
    axes.set_yscale("log")
    axes.set_title(title or f"llumc bench, {timeout:g} s per task")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return None


def program_times(results: Sequence[TaskResult], engine: str) -> list[float]:
    """Seconds per program whose every task `engine` answered correctly (sum over its tasks)."""
    total: dict[Path, float] = {}
    correct: dict[Path, bool] = {}
    for result in results:
        if result.engine == engine:
            source = result.task.source
            total[source] = total.get(source, 0.0) + result.seconds
            correct[source] = correct.get(source, True) and result.outcome.startswith("correct")
    return [seconds for source, seconds in total.items() if correct[source]]


def programs_solved(results: Sequence[TaskResult], engine: str) -> tuple[int, int]:
    """(programs whose every task is correct, programs) for one engine: the published counts
    are per program, not per (program, property)."""
    by_program: dict[Path, bool] = {}
    for result in results:
        if result.engine == engine:
            ok = result.outcome.startswith("correct")
            by_program[result.task.source] = by_program.get(result.task.source, True) and ok
    return sum(by_program.values()), len(by_program)


def format_summary(results: Sequence[TaskResult]) -> str:
    lines = []
    for summary in summarise(results):
        solved, programs = programs_solved(results, summary.engine)
        lines += [
            f"engine {summary.engine}:",
            f"  correct TRUE   {summary.correct_true}",
            f"  correct FALSE  {summary.correct_false}",
            f"  wrong          {len(summary.wrong)}",
            f"  unknown        {summary.unknown}",
            f"  total          {summary.total}",
            f"  programs with every task correct: {solved} of {programs}",
        ]
        split: dict[str, int] = {}
        for r in results:
            if r.engine == summary.engine and r.outcome.startswith("correct") and r.answered_by:
                key = f"{r.verdict.upper()} by {r.answered_by}"
                split[key] = split.get(key, 0) + 1
        if split:
            lines.append("  correct answers by engine:")
            lines += [f"    {key:<32} {count}" for key, count in sorted(split.items())]
        if summary.wrong:
            lines.append(f"  !!! {len(summary.wrong)} WRONG VERDICT(S) — a verifier's worst bug:")
            lines += [f"  !!! WRONG: {r.task.name} {r.task.property}: expected {r.task.expected}, "
                      f"got {r.verdict} ({r.reason})" for r in summary.wrong]
    return "\n".join(lines)


def checker_from_string(command: str | None) -> list[str] | None:
    return shlex.split(command) if command else None
