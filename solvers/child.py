"""Call a function in a forked child process that is killed when its time is up.

Why: a native solver call does not always stop when asked. Boolector asks its terminate
callback inside the SAT search, not in every phase of `Sat()` (rewriting and array lemmas over
a thousand writes ran 10 s past a 6 s budget), and CaDiCaL holds the GIL. A child process can
be killed at any moment, so the caller's time limit holds whatever the library does.

The child is forked (it shares the caller's data: nothing is pickled on the way in), dies with
its parent, ignores Ctrl-C (the parent decides), and sends its progress messages and its
result through a pipe; the parent polls its own `cancelled` between reads, so nothing of the
parent (queues, members) is touched in the child.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from dataclasses import dataclass
from typing import Any, Callable

from solvers.supervise import die_with_parent, prepare, send_last, signal_name

Progress = Callable[[str], None]


@dataclass
class ChildOutcome:
    """status: "done" (`value` is the function's result), "error" (it raised: `reason` names
    the exception), "cancelled", "timeout" (killed at `until`) or "died" (`reason`: how)."""

    status: str
    value: Any = None
    reason: str = ""


def _child(function: Callable[[Progress], Any], send, parent: int) -> None:
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        message = ("done", function(lambda text: send.send(("progress", text))))
    except Exception as err:  # reported to the parent, which decides what it means
        message = ("error", f"{type(err).__name__}: {err}")
    send_last(send, message, lambda reason: ("error", f"its result could not be sent: {reason}"))
    send.close()


def call_in_child(function: Callable[[Progress], Any], *, until: float, cancelled: Callable[[], bool] | None = None,
                  progress: Progress | None = None, poll_seconds: float = 0.1) -> ChildOutcome:
    """`function(progress)` in a forked child; its result (which must pickle) once it returns,
    or the child killed at `until` (monotonic time) or as soon as `cancelled()` (asked every
    `poll_seconds` in this process) says so."""
    prepare()
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(function, send, os.getpid()), daemon=True)
    process.start()
    send.close()  # the child's end: end-of-file here once the child is gone
    try:
        while True:
            now = time.monotonic()
            if now >= until:
                return ChildOutcome("timeout")
            if cancelled is not None and cancelled():
                return ChildOutcome("cancelled")
            if not receive.poll(min(poll_seconds, until - now)):
                continue
            try:
                kind, payload = receive.recv()
            except EOFError:
                process.join(1.0)
                return ChildOutcome("died", reason=_how_it_ended(process.exitcode))
            if kind == "progress":
                if progress is not None:
                    progress(payload)
            elif kind == "done":
                return ChildOutcome("done", value=payload)
            else:
                return ChildOutcome("error", reason=payload)
    finally:
        if process.is_alive():
            process.kill()  # before its pipe closes: a child writing to it then would complain
        process.join()
        receive.close()


def _how_it_ended(exitcode: int | None) -> str:
    if exitcode is None:
        return "still running"
    if exitcode < 0:
        return f"killed by {signal_name(-exitcode)}"
    return f"exit code {exitcode}"
