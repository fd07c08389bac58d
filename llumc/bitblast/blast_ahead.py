"""Bit-blasting T while the encoder is still making it, on the second core.

On the RERS programs the transition formula T is 214 000 hash-consed terms; putting them into
Boolector took 0.75 s after the encoder's 1.9 s, on one core while the other waited. Here a
forked child replays the terms into its own Boolector instance as the encoder makes them, so
that once the encoder is done only T's roots, Boolector's dump and the translation of its
circuit are left. This works because `TermBuilder` numbers terms in the order it makes them
and makes every argument before the term using it: the child can translate each term the
moment it arrives (`bitblast.Translator`), without knowing which of them T will need. Terms
that end up outside T (those of I, U and G, and the few the encoder drops) are translated
too, and never asserted: Boolector dumps only the cone of what is asserted.

A thread cannot do it: Boolector's calls and the encoder's Python both hold the GIL. A thread
of this process does only the sending: every `FLUSH_SECONDS` it copies the builder's table
(one C call, so it sees a consistent table) and writes the new terms down a pipe.

The child's circuit is the one `bitblast.blast` makes from the same roots: both put the terms
into Boolector in the order they were made (Boolector orders commutative operands by when
their nodes were made, so the order shapes the circuit, never its meaning), and the terms
the child translated outside T are not asserted. Only the names of division variables can
differ (the child numbers every division it saw), and the encoder gives each a fresh
variable whatever its name: the DimSpec is the same, with or without the child. Anything that
goes wrong (no fork, other threads, the child failing or dying) gives None from `collect`,
and the caller blasts T itself.
"""

from __future__ import annotations

import marshal
import os
import struct
import threading

from llumc.bitblast.blast import Translator, asserted_roots, boolector_instance, dump_asserted, release_dump_directory
from llumc.encoding.terms import Term, TermBuilder
from solvers.supervise import die_with_parent, prepare

# How often the sending thread looks for new terms. Each look copies the table's keys (one
# C call, 2-3 ms at RERS's 214 000 terms): 10 looks a second cost little, and the child is never
# more than one look behind.
FLUSH_SECONDS = 0.1

_HEADER = struct.Struct("<Q")


def _send(stream, message) -> None:
    data = marshal.dumps(message)
    stream.write(_HEADER.pack(len(data)))
    stream.write(data)
    stream.flush()


def _receive(stream):
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("blast-ahead pipe closed")
    size = _HEADER.unpack(header)[0]
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("blast-ahead pipe closed")
    return marshal.loads(data)


class BlastAhead:
    """A forked child translating the terms of a `TermBuilder` into Boolector as they are
    made. `start()` forks it, early, while this process is still small (its pages are then
    not shared with the child, so writing them costs no copies); `follow(terms)` starts
    sending it the terms of `terms`, once no other fork is to come; `request(roots)` asks it
    for the dump `bitblast.blast` would make of those roots (AIGER text) and `collect(roots)`
    takes it, or None if the child could not make it; `close()` ends the child (call it in a
    `finally`)."""

    def __init__(self, pid: int, to_child: int, from_child: int):
        self.pid = pid
        self.terms: TermBuilder | None = None
        self.to_child = os.fdopen(to_child, "wb")
        self.from_child = os.fdopen(from_child, "rb")
        self.sent = 0
        self.requested: list[int] | None = None
        self.failed = False
        self.lock = threading.Lock()  # one sender at a time: the thread, then `request`
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    @classmethod
    def start(cls, *, rewrite_level: int, division: str) -> "BlastAhead | None":
        """The child, waiting for terms; None where it cannot be started: no `fork`, or other
        threads running (a lock one of them holds would stay held in the child)."""
        if not hasattr(os, "fork") or threading.active_count() > 1:
            return None
        prepare()
        parent = os.getpid()
        down_read, down_write = os.pipe()
        up_read, up_write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            for fd in (down_read, down_write, up_read, up_write):
                os.close(fd)
            return None
        if pid == 0:
            die_with_parent(parent)
            os.close(down_write)
            os.close(up_read)
            _replay(down_read, up_write, rewrite_level, division)  # never returns
        os.close(down_read)
        os.close(up_write)
        # (not inherited by later children: `subprocess` closes them, and a forked child
        # holding them only delays the end of this one until it exits)
        return cls(pid, down_write, up_read)

    def follow(self, terms: TermBuilder) -> None:
        """Send the child every term `terms` makes, from now on every `FLUSH_SECONDS`, by a
        thread of this process (start no fork of this process while it runs)."""
        self.terms = terms
        self.thread = threading.Thread(target=self._keep_sending, name="llumc-blast-ahead", daemon=True)
        self.thread.start()

    def _stop_sending(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join()

    def _send_new_terms(self) -> None:
        keys = list(self.terms.table)  # one C call: no term is half made in it
        if len(keys) > self.sent:
            # with the uid of its first term, which the child checks against its count: a
            # builder whose uids were not its order of making would be refused, not misread
            first_uid = self.terms.table[keys[self.sent]].uid
            _send(self.to_child, ("terms", first_uid, keys[self.sent:]))
            self.sent = len(keys)

    def _keep_sending(self) -> None:
        while not self.stop.wait(FLUSH_SECONDS):
            with self.lock:
                if self.failed:
                    return
                try:
                    self._send_new_terms()
                except (OSError, ValueError):  # the child is gone: `collect` will say so
                    self.failed = True
                    return

    def request(self, roots: list[Term]) -> None:
        """Ask for the AIGER dump of the conjunction of `roots` (1-bit terms of this builder)
        as `bitblast.blast` makes it: its `asserted_roots`, with variable substitution
        (`bitblast._dump_aag`). The child dumps it meanwhile; `collect` takes it."""
        self._stop_sending()
        self.requested = [root.uid for root in asserted_roots(roots)]
        with self.lock:
            if self.failed or self.terms is None:
                self.failed = True
                return
            try:
                self._send_new_terms()
                _send(self.to_child, ("roots", self.requested))
            except (OSError, ValueError):
                self.failed = True

    def collect(self, roots: list[Term]) -> str | None:
        """The dump `request` asked for, if `roots` are the roots it was asked for (as `blast`
        passes them: its `asserted_roots`); None if not, or if the child failed."""
        with self.lock:
            if self.failed or self.requested != [root.uid for root in roots]:
                return None
            self.failed = True  # one dump per child
            try:
                kind, payload = _receive(self.from_child)
            except (OSError, ValueError, EOFError):
                return None
        return payload if kind == "aag" else None

    def close(self) -> None:
        """End the child (whatever state it is in) and reap it: killed first, so that neither
        the sending thread nor closing the pipes can wait on it."""
        self.stop.set()
        if self.pid:
            try:
                os.kill(self.pid, 9)
            except OSError:
                pass
        if self.thread is not None:
            self.thread.join()
        for stream in (self.to_child, self.from_child):
            try:
                stream.close()
            except OSError:
                pass
        if self.pid:
            try:
                os.waitpid(self.pid, 0)
            except OSError:
                pass
            self.pid = 0


def _replay(read_fd: int, write_fd: int, rewrite_level: int, division: str) -> None:
    """The child: terms from the pipe into Boolector, in the order they were made; on the
    roots, the dump of their conjunction back up the pipe. Exits, never returns."""
    status = 1
    try:
        down = os.fdopen(read_fd, "rb")
        up = os.fdopen(write_fd, "wb")
        btor = boolector_instance(rewrite_level, var_subst=True)
        translator = Translator(btor, division=division)
        translate = translator.translate
        terms: list[Term | None] = [None]  # by uid (the builder's uids start at 1)
        while True:
            kind, *payload = _receive(down)
            if kind == "terms":
                first_uid, keys = payload
                if first_uid != len(terms):
                    return  # (status 1: the parent blasts T itself)
                for op, width, arg_uids, param in keys:
                    term = Term(op, width, tuple([terms[uid] for uid in arg_uids]), param, len(terms))
                    terms.append(term)
                    translate(term)
            elif kind == "roots":
                roots = [terms[uid] for uid in payload[0]]
                text = dump_asserted(btor, [translator.nodes[root.uid] for root in roots]
                                     + translator.side_constraints(roots))
                _send(up, ("aag", text))
                status = 0
                return
    except BaseException:  # the parent blasts T itself
        pass
    finally:
        try:
            release_dump_directory()
        finally:
            os._exit(status)
