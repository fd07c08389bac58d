"""Run several engines on one transition system in parallel processes; the first definite,
checked answer wins and the others are stopped.

Processes rather than threads: PySAT's solvers hold the GIL during a SAT call, so threads
would run the engines one after another.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import select
import signal
import time
from multiprocessing.connection import Connection, wait as wait_for_channels
from typing import Callable, Iterator

from solvers.result import SolveResult
from solvers.supervise import die_with_parent, prepare, send_last, signal_name
from solvers.transys import TransitionSystem

Progress = Callable[[dict], None]


def _worker(label: str, engine: str, ts: TransitionSystem, timeout: float | None, options: dict, channel: Connection,
            parent: int) -> None:
    """Child process: solve (the result is checked inside `solve`) and send it to the parent on
    this member's own channel."""
    # The parent decides about Ctrl-C; a child only stops when the parent terminates it, or dies.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    from solvers.api import solve
    from solvers.check import CheckFailed

    room = select.poll()
    room.register(channel.fileno(), select.POLLOUT)

    def report(info: dict) -> None:
        # progress is for display: sent only where the pipe has room for it now (a pipe polls
        # writable with a page free, more than a progress message takes), never waited for,
        # so that a member goes on while the parent is busy elsewhere (k-induction reports
        # every depth: hundreds a second on small systems)
        if room.poll(0):
            channel.send(("progress", info))

    try:
        result = solve(ts, engine=engine, timeout=timeout, progress=report, **options)
        message = ("result", result)
    except CheckFailed as err:
        message = ("internal-error", f"{label} produced a result that failed its check: {err}")
    except Exception as err:  # a crash of one engine must not take the verdict of another down
        message = ("internal-error", f"{label} crashed: {type(err).__name__}: {err}")
    send_last(channel, message, lambda reason: ("internal-error", f"{label}: its result could not be sent: {reason}"))
    channel.close()


def _death(engine: str, exitcode: int | None) -> str:
    """Why a child stopped without an answer, in words (negative exit codes are signals)."""
    if not exitcode:
        return f"{engine} ended without an answer"
    if exitcode < 0:
        name = signal_name(-exitcode)
        hint = " (a SAT solver aborts so when memory runs out)" if name == "SIGABRT" else ""
        return f"{engine} was killed by {name}{hint}"
    return f"{engine} died with exit code {exitcode}"


class Portfolio:
    """Engines in processes of their own, started when the caller has their system (`start`),
    so that one can run while the caller still prepares another's (llumc's IC3 on the encoded
    system while the loop-invariant search strengthens it for the others); `wait` returns the
    first definite, checked answer and stops the rest. Each member has a label ("ic3",
    "ic3+invariants") and runs one engine of `solvers.api.solve` on its own system; the
    winner's label is in `SolveResult.stats["member"]`.

    Internal errors of an engine (a result that failed its check) are returned in
    `stats["internal_errors"]` and never become a verdict. A member dies with the process that
    started it, however that one ends (`solvers.supervise.die_with_parent`).

    Each start of a member has a pipe of its own, written by that member alone. Why not one
    queue for all: a `multiprocessing.Queue`'s writers share a lock, held while a message is
    written, and a member terminated while it held it (cancelled as its system was replaced)
    left every other member blocked on its next message, its answer never sent; one killed in
    the middle of a message left the reader waiting for the rest of it. With a pipe per start a
    member's end costs only its own channel (end-of-file), and nothing a cancelled run wrote
    can be read as the answer of the run that replaced it."""

    def __init__(self, timeout: float | None = None, progress: Progress | None = None, grace: float = 5.0) -> None:
        prepare()
        self.ctx = multiprocessing.get_context("fork")
        self.grace = grace
        self.started = time.monotonic()
        self.deadline = None if timeout is None else self.started + timeout
        self.progress = progress
        self.procs: dict[str, multiprocessing.Process] = {}
        self.channels: dict[str, Connection] = {}  # label -> the reading end of its running start
        self.pending: set[str] = set()
        self.unknown: list[SolveResult] = []
        self.errors: list[str] = []
        self.winner: SolveResult | None = None

    def remaining(self) -> float | None:
        return None if self.deadline is None else max(0.1, self.deadline - time.monotonic())

    def start(self, label: str, ts: TransitionSystem, engine: str | None = None, options: dict | None = None) -> None:
        """Run `engine` (default: the label) on `ts` until the portfolio's deadline; a label
        whose member ended or was cancelled may start again (on a stronger system)."""
        if label in self.pending:
            raise ValueError(f"a member {label!r} runs already")
        reading, writing = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=_worker, daemon=True,
                                args=(label, engine or label, ts, self.remaining(), options or {}, writing,
                                      os.getpid()))
        proc.start()
        writing.close()  # the member's end only: end-of-file here once it is gone
        self.procs[label] = proc
        self.channels[label] = reading
        self.pending.add(label)

    def poll(self, wait: float = 0.0) -> SolveResult | None:
        """Read what the members sent (waiting up to `wait` s for the first message); the winner
        if there is one by now."""
        while self.pending and self.winner is None:
            owners = {self.channels[label]: label for label in self.pending}
            ready = wait_for_channels(list(owners), timeout=wait)
            if not ready:
                break
            wait = 0.0
            for channel in ready:
                self._read(owners[channel])
                if self.winner is not None:
                    break
        return self.winner

    def _read(self, label: str) -> None:
        """One message of member `label`: progress, its answer, or its end without one."""
        try:
            kind, payload = self.channels[label].recv()
        except (EOFError, OSError):  # ended without an answer (killed, or its end cut a message)
            self.procs[label].join(timeout=1.0)
            self._end(label)
            self.errors.append(_death(label, self.procs[label].exitcode))
            return
        if kind == "progress":
            if self.progress is not None:
                self.progress({"engine": label, **payload})
            return
        self._end(label)
        if kind == "result":
            payload.stats["member"] = label
            if payload.status in ("sat", "unsat"):
                self.winner = payload
            else:
                self.unknown.append(payload)
        else:
            self.errors.append(payload)

    def _end(self, label: str) -> None:
        self.pending.discard(label)
        self._close_channel(label)

    def _close_channel(self, label: str) -> None:
        channel = self.channels.pop(label, None)
        if channel is not None:
            channel.close()

    def wait(self, stop: Callable[[], bool] | None = None, keep_on_sat: bool = False) -> SolveResult:
        """The first definite answer (every member stopped), or unknown with every reason;
        `stop()`, asked twice a second, ends the wait early (the caller has an answer of its own).
        `keep_on_sat`: a counterexample leaves the other members running, for the caller to
        check it and, where it is not real, `dismiss` it and wait for them again."""
        # a member may overrun its timeout by a SAT call or its check: `grace` seconds
        hard = None if self.deadline is None else self.deadline + self.grace
        try:
            while self.pending and self.winner is None:
                wait = 0.5 if hard is None else max(0.0, min(0.5, hard - time.monotonic()))
                self.poll(wait)
                if hard is not None and time.monotonic() >= hard:
                    break
                if stop is not None and self.winner is None and stop():
                    break
        finally:
            if not (keep_on_sat and self.winner is not None and self.winner.status == "sat"):
                self.stop()
        elapsed = time.monotonic() - self.started
        if self.winner is not None:
            self.winner.stats.setdefault("seconds", elapsed)
            if self.errors:
                self.winner.stats["internal_errors"] = len(self.errors)
                self.winner.reason = "; ".join(self.errors)
            return self.winner
        reasons = [f"{r.stats.get('member') or r.engine or '?'}: {r.reason}" for r in self.unknown if r.reason]
        reasons += self.errors
        if self.pending:
            reasons.append("timeout")
        depth = max((r.steps for r in self.unknown if r.steps is not None), default=None)
        result = SolveResult("unknown", steps=depth, reason="; ".join(reasons) or "no engine answered",
                             engine="portfolio")
        result.stats["seconds"] = elapsed
        if self.errors:
            result.stats["internal_errors"] = len(self.errors)
        return result

    def dismiss(self, reason: str) -> None:
        """Drop the winner, a counterexample the caller found not real (`wait(keep_on_sat=
        True)`): it counts as that member's unknown answer, and `wait` goes on with the rest."""
        winner, self.winner = self.winner, None
        if winner is not None:
            self.unknown.append(SolveResult("unknown", steps=winner.steps, reason=reason, engine=winner.engine,
                                            stats={"member": winner.stats.get("member", winner.engine)}))

    def cancel(self, label: str) -> None:
        """Stop one member whose system the caller has replaced by a more precise one. A proof
        (unsat) it sent already stands; a counterexample (sat) it sent is dropped, as the caller
        looks for counterexamples on the other system."""
        proc = self.procs.get(label)
        if proc is None:
            return
        self.poll()
        winner = self.winner
        if winner is not None and winner.stats.get("member") == label and winner.status == "sat":
            self.winner = None
            self.unknown.append(SolveResult("unknown", steps=winner.steps, reason="cancelled", engine=winner.engine))
        if label not in self.pending:
            return
        if proc.is_alive():
            proc.terminate()
            proc.join(timeout=2.0)
            if proc.is_alive():
                proc.kill()
                proc.join()
        self._end(label)

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The running members stopped (SIGSTOP) while the caller works, continued (SIGCONT)
        however that ends: for a proof check that will most likely end the run, which on two
        cores beside three members took twice as long. Their deadlines run on meanwhile. A
        stopped member still dies by SIGKILL with its parent."""
        stopped = [proc for label, proc in self.procs.items() if label in self.pending and proc.is_alive()]
        for proc in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGSTOP)
        try:
            yield
        finally:
            for proc in stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGCONT)

    def stop(self) -> None:
        """Every member ended and its process object closed: each holds two descriptors
        (multiprocessing's sentinel pipes) until then, and a process that runs many checks
        (a test worker, a caller of `check_program`) with its garbage collector paused
        (llumc.gcpause) ran out of them."""
        for proc in self.procs.values():
            if proc.is_alive():
                proc.terminate()
        for proc in self.procs.values():
            proc.join(timeout=2.0)
            if proc.is_alive():
                proc.kill()
                proc.join()
            proc.close()
        self.procs.clear()
        for label in list(self.channels):
            self._close_channel(label)


def portfolio(
    ts: TransitionSystem,
    engines: tuple[str, ...] = ("ic3", "bmc"),
    *,
    timeout: float | None = None,
    progress: Progress | None = None,
    options: dict[str, dict] | None = None,
) -> SolveResult:
    """First definite (sat/unsat) answer of `engines` run side by side on `ts`; unknown if none
    gives one (see `Portfolio`)."""
    members = Portfolio(timeout, progress)
    try:
        for name in engines:
            members.start(name, ts, options=(options or {}).get(name, {}))
    except BaseException:
        members.stop()
        raise
    return members.wait()
