"""`llumc bench --executor dask`: the benchmark's tasks on a Dask cluster.

Why Dask (dask.distributed) and not a scheduler of our own, or Ray: a Dask cluster is a
scheduler and worker processes that run Python functions; `LocalCluster` starts one on this
machine (the default: `--jobs` workers of one thread each), and `--scheduler tcp://HOST:8786`
sends the same tasks to workers on other machines (`dask scheduler` / `dask worker` there, with
llumc installed and the task files at the same paths). It installs from PyPI as pure Python
(Ray ships a ~70 MB binary and a dashboard we would not use).

Isolation and limits are the local executor's, per task: on the worker, each task is the same
`llumc check` child process (`llumc.bench.runner._checker_argv`) in its own process group with the same
address-space limit and the same hard wall-clock limit, after which its whole process group is
killed; its output is read by the same `_result_from_output`. The limit is set by a small
Python shim that execs the checker, since a Dask worker runs tasks in threads, where
`preexec_fn` is unsafe; the shim also has the checker die with the worker that started it (the
bench killed, even by SIGKILL, takes its local cluster's workers along, and they their checkers). Results come back as `TaskResult`s, so the TSV and the plot are written
by the same code.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence, TextIO

from llumc.bench.runner import (Task, TaskResult, _checker_argv, checker_env, _kill_group, _print_progress, _result_from_output, _Running,
                         _terminate_as_interrupt)
from llumc.errors import LlumcError

EXECUTORS = ("local", "dask")

# Dies with the Dask worker that started it (prctl PR_SET_PDEATHSIG; its parent's pid checked
# after, as `solvers.supervise.die_with_parent` does), sets the address-space limit, then becomes
# the checker: argv = [python, -c, SHIM, parent pid, MiB, checker...].
_LIMIT_SHIM = (
    "import ctypes, os, resource, signal, sys; "
    "ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0) if sys.platform.startswith('linux') else None; "
    "os.getppid() == int(sys.argv.pop(1)) or os._exit(1); "
    "limit = int(sys.argv[1]) << 20; "
    "resource.setrlimit(resource.RLIMIT_AS, (limit, limit)); resource.setrlimit(resource.RLIMIT_CORE, (0, 0)); "
    "os.execv(sys.argv[2], sys.argv[2:])"
)


def dask_available() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def run_one(task: Task, engine: str, timeout: float, grace: float, memory_mb: int, checker: Sequence[str],
            witness_dir: Path | None = None) -> TaskResult:
    """One task as the local executor runs it, blocking: the checker in its own process group under
    the memory limit, killed with its process group at `timeout + grace`."""
    hard_limit = timeout + grace
    argv = _checker_argv(checker, task, engine, timeout, witness_dir, memory_mb)
    stdout = tempfile.TemporaryFile("w+", errors="replace")
    stderr = tempfile.TemporaryFile("w+", errors="replace")
    try:
        started = time.monotonic()
        process = subprocess.Popen([sys.executable, "-c", _LIMIT_SHIM, str(os.getpid()), str(memory_mb), *argv],
                                   stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                                   start_new_session=True, text=True, env=checker_env(checker))
        killed = False
        try:
            process.wait(timeout=hard_limit)
        except subprocess.TimeoutExpired:
            killed = True
        elapsed = time.monotonic() - started
        _kill_group(process)  # also stray children of a finished checker
        process.wait()
        running = _Running(task, engine, process, started, stdout, stderr)
        return _result_from_output(running, round(elapsed, 3), killed, hard_limit)
    finally:
        stdout.close()
        stderr.close()


def run_tasks_dask(
    tasks: Sequence[Task],
    *,
    engines: Sequence[str] = ("portfolio",),
    timeout: float = 60.0,
    jobs: int = 1,
    grace: float = 10.0,
    memory_mb: int = 4096,
    checker: Sequence[str] | None = None,
    scheduler: str | None = None,
    progress: TextIO | None = sys.stderr,
    witness_dir: Path | None = None,
) -> list[TaskResult]:
    """Every task with every engine on a Dask cluster: the one at `scheduler`, else a
    `LocalCluster` of `jobs` worker processes with one thread each (one checker at a time per
    worker, as `--jobs` means locally). Results in completion order, like `run_tasks`."""
    if not dask_available():
        raise LlumcError("--executor dask needs dask.distributed: pip install 'llumc[dist]' (make install does)")
    from distributed import Client, LocalCluster, as_completed

    from llumc.bench.runner import default_checker

    checker = list(checker) if checker else default_checker()
    cluster = None
    try:
        if scheduler is None:
            cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=40)
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout=30)
    except OSError as err:
        raise LlumcError(f"--scheduler {scheduler}: cannot connect: {err}") from err
    results: list[TaskResult] = []
    bench_start = time.monotonic()
    previous_term = _terminate_as_interrupt()
    try:
        pairs = [(task, engine) for engine in engines for task in tasks]
        futures = [client.submit(run_one, task, engine, timeout, grace, memory_mb, checker, witness_dir,
                                 pure=False, key=f"llumc-{k}-{engine}") for k, (task, engine) in enumerate(pairs)]
        for future in as_completed(futures):
            result = future.result()
            results.append(result)
            if progress is not None:
                _print_progress(progress, result, len(results), len(futures), time.monotonic() - bench_start)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
        if previous_term is not None:
            signal.signal(signal.SIGTERM, previous_term)
    return results
