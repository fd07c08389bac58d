"""A command whose work runs in a child process it watches: the answer comes by the time limit,
within the memory limit, and no process of the work outlives the command, however it ends.

Why a separate process: a SAT call of PySAT's CaDiCaL holds the GIL for as long as it runs, so
no timer, signal handler or thread of the process doing the work can stop it or even print.
Here the command's own process (the supervisor) does no work: it forks a worker in a process
group of its own, relays the worker's standard output once the worker has finished, and at the
hard limit, at the memory limit or on Ctrl-C / SIGTERM kills the whole group and lets the
caller print an UNKNOWN answer instead.

How nothing is left behind:
- every process of the work is in the worker's process group (forked children and the
  programs they run stay in it), which the supervisor kills with SIGKILL when the work ends;
- each process llumc forks or starts asks the kernel for SIGKILL when its parent dies
  (`die_with_parent`, prctl PR_SET_PDEATHSIG), so a supervisor killed by SIGKILL takes the
  worker with it, and the worker its engines;
- a janitor process in a session of its own waits on a pipe from the supervisor: when that
  pipe closes without the supervisor's word that all is done (it was killed), the janitor kills
  the worker's group (programs started by the work's children too) and removes the work's
  temporary directory, then exits.

Linux (fork, /proc, prctl); where `os.fork` is missing the work runs in the command's process.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import json
import os
import selectors
import shutil
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable

MARGIN = 1.0  # seconds past the time limit before the worker is killed (the answer is due at +2 s)
INTERRUPT_GRACE = 1.5  # seconds the worker has to print its own UNKNOWN after Ctrl-C / SIGTERM
MEMORY_POLL = 0.25  # seconds between two looks at the work's memory
_DONE = b"done"  # the supervisor to the janitor: the worker's group is gone, so is the directory

_PR_SET_PDEATHSIG = 1


@functools.cache
def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None


def die_with_parent(expected_parent: int | None = None) -> None:
    """Have the kernel send SIGKILL to this process when its parent ends (Linux; elsewhere
    nothing). Call it first thing in a child; `expected_parent`: the parent's pid as the parent
    saw it before forking: if the parent is already gone (this process was handed to another),
    this process exits at once. Safe between fork and exec (`preexec_fn`) once `prepare` ran in
    the parent (ctypes loads libc there, not in the child)."""
    libc = _libc()
    if libc is None:
        return
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if expected_parent is not None and os.getppid() != expected_parent:
        os._exit(1)


def signal_name(number: int) -> str:
    """A signal's name (`SIGKILL`), or "signal N" for a number Python does not name."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def send_last(channel, message: tuple, failure: Callable[[str], tuple]) -> None:
    """A child's last message to its parent on a multiprocessing connection. A parent that
    stopped reading (it has its answer) is no error; a message that does not pickle is replaced
    by `failure(reason)`, so that the parent learns why instead of seeing the child end mute."""
    try:
        channel.send(message)
    except OSError:
        pass
    except Exception as err:  # noqa: BLE001 - whatever pickling raises
        try:
            channel.send(failure(f"{type(err).__name__}: {err}"))
        except Exception:  # noqa: BLE001 - the parent is gone or the pipe broke: nothing to tell
            pass


def prepare() -> None:
    """Load what `die_with_parent` needs, in the parent, before forking."""
    _libc()


def process_age() -> float:
    """Seconds since this process started (a time limit counts from there: Python's own start-up
    and the imports are part of it); 0 where /proc does not say."""
    try:
        with open("/proc/self/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime") as uptime:
            now = float(uptime.read().split()[0])
        return max(0.0, now - int(fields[19]) / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


# ----------------------------------------------------------------------------- the worker's side

_channel: int | None = None  # the worker's end of the message pipe to its supervisor


def tell(message: dict) -> None:
    """Send the supervisor a message (a JSON object on one line): {"phase": NAME} when the work
    enters a phase, or a partial result the fallback answer can use. Nothing when not
    supervised."""
    if _channel is None:
        return
    data = memoryview((json.dumps(message) + "\n").encode())
    try:
        while data:
            data = data[os.write(_channel, data):]
    except OSError:
        pass


def enter_phase(name: str) -> None:
    tell({"phase": name, "at": time.monotonic()})


def supervised() -> bool:
    """Whether this process is a supervised worker."""
    return _channel is not None


# ----------------------------------------------------------------------------- memory


@functools.cache
def _page_size() -> int:
    return os.sysconf("SC_PAGE_SIZE")


def group_members(pgid: int) -> list[int]:
    """The live processes of process group `pgid` (from /proc)."""
    members = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            members.append(int(name))
    return members


def _resident_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as statm:
        return int(statm.read().split()[1]) * _page_size()


def _proportional_bytes(pid: int) -> int:
    """The process's share of the memory it touches (PSS: a page shared by n processes counts
    1/n to each); forked engines share most of their pages with the worker."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return _resident_bytes(pid)


def group_memory(pgid: int, limit: int | None = None) -> int:
    """Bytes of memory the processes of group `pgid` use together: their resident sets added up,
    or, where that exceeds `limit`, their proportional shares (exact but slower to read)."""
    members = group_members(pgid)
    total = _summed(members, _resident_bytes)
    if limit is None or total <= limit:
        return total
    return _summed(members, _proportional_bytes)  # shared pages counted once


def _summed(pids, read: Callable[[int], int]) -> int:
    """`read` added up over the processes still there to be read (one may end meanwhile)."""
    total = 0
    for pid in pids:
        try:
            total += read(pid)
        except (OSError, ValueError, IndexError):
            continue
    return total


# ----------------------------------------------------------------------------- the supervisor


@dataclass
class Limits:
    """`timeout`: seconds of wall time from the command's start after which the work is killed
    (at `timeout + MARGIN`: the work itself should have answered by `timeout`); `memory_mb`: the
    memory of all the work's processes together; `interrupt_grace`: seconds the worker has to
    answer after Ctrl-C / SIGTERM before it is killed."""

    timeout: float | None = None
    memory_mb: int | None = None
    interrupt_grace: float = INTERRUPT_GRACE


@dataclass
class Ending:
    """How the supervised work ended. `why`: None (the worker finished: `code` is its exit code,
    `output` its standard output), "timeout", "memory limit", "interrupted" (Ctrl-C or SIGTERM,
    and the worker did not answer in time, or answered nothing), or "died" (killed by signal
    `signal_number`, or exited without output). `phase`: the last phase the work entered;
    `phases`: seconds per phase; `messages`: everything else the work told (`tell`)."""

    why: str | None
    code: int | None = None
    output: bytes = b""
    phase: str | None = None
    phases: dict[str, float] = field(default_factory=dict)
    messages: list[dict] = field(default_factory=list)
    signal_number: int | None = None
    seconds: float = 0.0


class _Messages:
    """The supervisor's reading of the work's messages: phases with their times, the rest kept."""

    def __init__(self) -> None:
        self.pending: list[bytes] = []  # the pieces of a line not yet ended
        self.phase: str | None = None
        self.phase_started = 0.0
        self.phases: dict[str, float] = {}
        self.other: list[dict] = []

    def feed(self, data: bytes) -> None:
        """Read what came; a line is joined once its end has come (a message of a 100 000-step
        trace comes in hundreds of pieces: joining each to all before took seconds)."""
        if b"\n" not in data:
            self.pending.append(data)
            return
        *lines, rest = b"".join([*self.pending, data]).split(b"\n")
        self.pending = [rest] if rest else []
        for line in lines:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if "phase" in message:
                self.close_phase(float(message.get("at", time.monotonic())))
                self.phase, self.phase_started = str(message["phase"]), float(message.get("at", time.monotonic()))
            else:
                self.other.append(message)

    def close_phase(self, now: float) -> None:
        if self.phase is not None:
            self.phases[self.phase] = round(self.phases.get(self.phase, 0.0) + max(0.0, now - self.phase_started), 3)
            self.phase_started = now


def _worker(work: Callable[[], int], parent: int, out_write: int, message_write: int, closing: list[int],
            directory: str | None, interrupts: _Interrupts) -> None:
    """The forked worker: its own process group, dies with the supervisor, stdout into the pipe,
    the signal handlers the command had; runs `work` and exits with its code (never returns)."""
    global _channel
    code = 1
    try:
        os.setpgid(0, 0)
        die_with_parent(parent)
        interrupts.restore()
        for fd in closing:
            os.close(fd)
        os.dup2(out_write, 1)
        os.close(out_write)
        _channel = message_write
        if directory is not None:
            os.environ["TMPDIR"] = directory
            tempfile.tempdir = directory
        code = work()
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)


def _janitor(watch: int, pgid: int, directory: str | None) -> None:
    """Waits for the supervisor's pipe to close; unless the supervisor said it cleaned up, kills
    the worker's group and removes the directory (never returns)."""
    try:
        os.setsid()
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
            signal.signal(number, signal.SIG_IGN)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, watch)
        os.closerange(watch + 1, 1 << 16)
        heard = b""
        while chunk := os.read(watch, 64):
            heard += chunk
        if heard != _DONE:
            _kill_group(pgid)
            stop = time.monotonic() + 3.0
            while group_members(pgid) and time.monotonic() < stop:
                time.sleep(0.02)
            if directory is not None:
                shutil.rmtree(directory, ignore_errors=True)
    finally:
        os._exit(0)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class _Interrupts:
    """SIGINT, SIGTERM and SIGHUP in the supervisor: noted (the loop acts on them), the previous
    handlers back on `restore` (in the worker). A signal this process was started ignoring
    (SIGINT in a background job of a shell) stays ignored. The supervisor keeps these handlers
    to its end: a signal while it prints the answer does not cut the answer short."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def __init__(self) -> None:
        self.at: float | None = None
        self.previous = {number: signal.signal(number, self.note) for number in self.SIGNALS
                         if signal.getsignal(number) is not signal.SIG_IGN}

    def note(self, _number, _frame) -> None:
        if self.at is None:
            self.at = time.monotonic()

    def restore(self) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)


def supervise(work: Callable[[], int], limits: Limits, *, temporary: bool = True) -> Ending:
    """Run `work` (returns an exit code; its standard output is kept and returned) in a worker
    process under `limits` (see the module). `temporary`: the work gets a temporary directory of
    its own (TMPDIR), removed however it ends."""
    started = time.monotonic() - process_age()
    if not hasattr(os, "fork"):
        return _unsupervised(work, started)
    prepare()
    directory = tempfile.mkdtemp(prefix="llumc-work-") if temporary else None
    out_read, out_write = os.pipe()
    message_read, message_write = os.pipe()
    watch_read, watch_write = os.pipe()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    parent = os.getpid()
    interrupts = _Interrupts()  # before the fork: no moment in which a signal would kill this process
    worker = os.fork()
    if worker == 0:
        _worker(work, parent, out_write, message_write, [out_read, message_read, watch_read, watch_write], directory,
                interrupts)
    try:
        os.setpgid(worker, worker)  # (the worker does too: whichever runs first)
    except OSError:
        pass
    janitor = os.fork()
    if janitor == 0:
        _janitor(watch_read, worker, directory)
    os.close(watch_read)
    os.close(out_write)
    os.close(message_write)
    try:
        ending = _watch(worker, out_read, message_read, limits, started, interrupts)
    finally:
        _kill_group(worker)
        try:
            os.waitpid(worker, 0)
        except ChildProcessError:
            pass
        if directory is not None:
            shutil.rmtree(directory, ignore_errors=True)
        try:
            os.write(watch_write, _DONE)
        except OSError:  # the janitor is gone (killed with this process's group): nothing to tell
            pass
        os.close(watch_write)
        os.close(out_read)
        os.close(message_read)
        try:
            os.waitpid(janitor, 0)
        except ChildProcessError:
            pass
    ending.seconds = time.monotonic() - started
    return ending


def _unsupervised(work: Callable[[], int], started: float) -> Ending:
    """Where there is no fork: the work in this process, its output printed as it comes."""
    try:
        code = work()
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except KeyboardInterrupt:
        return Ending("interrupted", seconds=time.monotonic() - started)
    return Ending(None, code=code, seconds=time.monotonic() - started)


def _exited(pid: int) -> int | None:
    """The worker's wait status once it has ended, without reaping it (its pid, which names its
    process group, stays taken until the group is killed); None while it runs."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return 0
    if info is None or info.si_pid == 0:
        return None
    return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status


def _watch(worker: int, out_read: int, message_read: int, limits: Limits, started: float,
           interrupts: _Interrupts) -> Ending:
    """The supervisor's loop: read the worker's output and messages until it ends, or end it."""
    output = bytearray()
    messages = _Messages()
    selector = selectors.DefaultSelector()
    selector.register(out_read, selectors.EVENT_READ)
    selector.register(message_read, selectors.EVENT_READ)
    hard = None if limits.timeout is None else started + limits.timeout + MARGIN
    limit_bytes = None if limits.memory_mb is None else limits.memory_mb << 20
    next_memory_look = time.monotonic()
    forwarded = False

    def ending(why: str | None, **extra) -> Ending:
        messages.close_phase(time.monotonic())
        return Ending(why, output=bytes(output), phase=messages.phase, phases=messages.phases,
                      messages=messages.other, **extra)

    while True:
        now = time.monotonic()
        wait = 0.5 if limit_bytes is None else MEMORY_POLL
        if hard is not None:
            wait = min(wait, max(0.0, hard - now))
        for key, _ in selector.select(wait):
            try:
                data = os.read(key.fd, 1 << 16)
            except OSError as err:
                if err.errno == errno.EINTR:
                    continue
                data = b""
            if not data:
                selector.unregister(key.fd)
            elif key.fd == out_read:
                output += data
            else:
                messages.feed(data)
        status = _exited(worker)
        if status is not None:
            _kill_group(worker)  # whatever the worker left running
            _drain(selector, out_read, output, messages)
            if interrupts.at is not None and not output:
                return ending("interrupted")
            if status < 0:
                return ending("died", code=status, signal_number=-status)
            return ending(None, code=status)
        now = time.monotonic()
        if interrupts.at is not None:
            if not forwarded:
                forwarded = True
                try:
                    os.kill(worker, signal.SIGINT)  # the worker answers UNKNOWN itself if it can
                except ProcessLookupError:
                    pass
            elif now >= interrupts.at + limits.interrupt_grace:
                return ending("interrupted")
        if hard is not None and now >= hard:
            return ending("timeout")
        if limit_bytes is not None and now >= next_memory_look:
            next_memory_look = now + MEMORY_POLL
            if group_memory(worker, limit_bytes) > limit_bytes:
                return ending("memory limit")


def _drain(selector: selectors.BaseSelector, out_read: int, output: bytearray, messages: _Messages) -> None:
    """What the ended worker wrote and is still in the pipes (its group is dead: EOF comes)."""
    stop = time.monotonic() + 2.0
    while selector.get_map() and time.monotonic() < stop:
        for key, _ in selector.select(0.1):
            data = os.read(key.fd, 1 << 16)
            if not data:
                selector.unregister(key.fd)
            elif key.fd == out_read:
                output += data
            else:
                messages.feed(data)
