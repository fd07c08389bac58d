"""Run several engines on one transition system in parallel processes; the first definite,
checked answer wins and the others are stopped.

Processes rather than threads: PySAT's solvers hold the GIL during a SAT call, so threads
would run the engines one after another.
"""

from __future__ import annotations

import multiprocessing
import queue as queue_module
import signal
import time
from typing import Callable

from solvers.result import SolveResult
from solvers.transys import TransitionSystem

Progress = Callable[[dict], None]


def _worker(engine: str, ts: TransitionSystem, timeout: float | None, options: dict, out) -> None:
    """Child process: solve (the result is checked inside `solve`) and send it to the parent."""
    # The parent decides about Ctrl-C; a child only stops when the parent terminates it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from solvers.api import solve
    from solvers.check import CheckFailed

    def report(info: dict) -> None:
        out.put(("progress", engine, info))

    try:
        result = solve(ts, engine=engine, timeout=timeout, progress=report, **options)
        out.put(("result", engine, result))
    except CheckFailed as err:
        out.put(("internal-error", engine, f"{engine} produced a result that failed its check: {err}"))
    except Exception as err:  # a crash of one engine must not take the verdict of another down
        out.put(("internal-error", engine, f"{engine} crashed: {type(err).__name__}: {err}"))


def _death(engine: str, exitcode: int) -> str:
    """Why a child stopped without an answer, in words (negative exit codes are signals)."""
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        hint = " (a SAT solver aborts so when memory runs out)" if name == "SIGABRT" else ""
        return f"{engine} was killed by {name}{hint}"
    return f"{engine} died with exit code {exitcode}"


def portfolio(
    ts: TransitionSystem,
    engines: tuple[str, ...] = ("ic3", "bmc"),
    *,
    timeout: float | None = None,
    progress: Progress | None = None,
    options: dict[str, dict] | None = None,
) -> SolveResult:
    """First definite (sat/unsat) answer of `engines` run side by side; unknown if none gives one.

    Internal errors of an engine (a result that failed its check) are returned in
    `stats["internal_errors"]` and never become a verdict.
    """
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    options = options or {}
    procs = {
        name: ctx.Process(target=_worker, args=(name, ts, timeout, options.get(name, {}), out), daemon=True)
        for name in engines
    }
    started = time.monotonic()
    for proc in procs.values():
        proc.start()
    deadline = None if timeout is None else started + timeout + 5.0
    pending = set(engines)
    unknown: list[SolveResult] = []
    errors: list[str] = []
    winner: SolveResult | None = None
    try:
        while pending and winner is None:
            wait = 0.5 if deadline is None else max(0.0, min(0.5, deadline - time.monotonic()))
            try:
                kind, engine, payload = out.get(timeout=wait)
            except queue_module.Empty:
                for name in list(pending):
                    if not procs[name].is_alive() and procs[name].exitcode not in (0, None):
                        pending.discard(name)
                        errors.append(_death(name, procs[name].exitcode))
                if deadline is not None and time.monotonic() >= deadline:
                    break
                continue
            if kind == "progress":
                if progress is not None:
                    progress({"engine": engine, **payload})
            elif kind == "result":
                pending.discard(engine)
                if payload.status in ("sat", "unsat"):
                    winner = payload
                else:
                    unknown.append(payload)
            else:
                pending.discard(engine)
                errors.append(payload)
    finally:
        for proc in procs.values():
            if proc.is_alive():
                proc.terminate()
        for proc in procs.values():
            proc.join(timeout=2.0)
            if proc.is_alive():
                proc.kill()
                proc.join()
    elapsed = time.monotonic() - started
    if winner is not None:
        winner.stats.setdefault("seconds", elapsed)
        if errors:
            winner.stats["internal_errors"] = len(errors)
            winner.reason = "; ".join(errors)
        return winner
    reasons = [f"{r.engine or '?'}: {r.reason}" for r in unknown if r.reason]
    reasons += errors
    if pending:
        reasons.append("timeout")
    depth = max((r.steps for r in unknown if r.steps is not None), default=None)
    result = SolveResult("unknown", steps=depth, reason="; ".join(reasons) or "no engine answered",
                         engine="portfolio")
    result.stats["seconds"] = elapsed
    if errors:
        result.stats["internal_errors"] = len(errors)
    return result
