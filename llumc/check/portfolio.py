"""`llumc check`: encode, solve, and only then say TRUE or FALSE.

FALSE only after the counterexample has been replayed natively and the error happened where
the model says (`llumc.check.counterexample`); TRUE only with an inductive invariant that fresh
SAT calls checked (done in `solvers.api.solve`); everything else is UNKNOWN with the reason.
The check runs as a `CheckSchedule` of named phases over one `CheckOptions`.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from solvers.child import call_in_child
from llumc.check.counterexample import (MAX_REPLAY_ARGUMENTS, confirm_counterexample, memory_objects,
                                        with_fewer_arguments)
from llumc.check.refinement import Refinement, can_refine, cells_of, havoc_objects, next_refinement
from llumc.check.result import CheckResult, Progress
from llumc.check.summaries import failing_fact, prove_with_summaries
from llumc.encoding.terms import state_leaves
from llumc.errors import UnsupportedError
from llumc.frontend.callstack import FIRST_STACK_DEPTH, MAX_STACK_DEPTH
from llumc.frontend.compile import clang_outputs_kept
from llumc.frontend.procedures import DEFAULT_RECURSION_DEPTH
from llumc.encoding.memory import DEFAULT_HEAP_POOL, MAX_HEAP_POOL, SITE_SUMMARY
from llumc.pipeline import EncodeResult, TraceBits, encode_file

ENGINES = ("portfolio", "ic3", "bmc", "kind", "explicit", "word-bmc")
# IC3's search directions for `check` (solvers.ic3): forward is the paper's MinireachIC3.
IC3_DIRECTIONS = ("forward", "backward", "both")


class _Timeout(Exception):
    pass


class PhaseClock:
    """Seconds per phase of a check (the JSON's `phases`). Each phase entered is also told to
    the supervising process (`solvers.supervise`), which names it when the time limit cuts it."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.current: str | None = None
        self.since = 0.0

    def enter(self, name: str) -> None:
        from solvers.supervise import enter_phase

        self.stop()
        self.current, self.since = name, time.monotonic()
        enter_phase(name)

    def stop(self) -> None:
        if self.current is not None:
            spent = self.seconds.get(self.current, 0.0) + time.monotonic() - self.since
            self.seconds[self.current] = round(spent, 3)
            self.current = None


def final_reserve(timeout: float | None) -> float:
    """Seconds of a time limit kept from the engines for what must not be cut once started: the
    native replay of a counterexample (about half a second once zig's C library is built; the
    first replay of a machine builds it, a minute) and the check of the loop invariants a proof
    rests on. A tenth of the limit, between 1 and 5 s."""
    return 0.0 if timeout is None else max(1.0, min(5.0, 0.1 * timeout))


@contextmanager
def _deadline(seconds: float | None):
    """Raise _Timeout in the main thread after `seconds` (the encoder has no deadline of its own;
    a long C call such as Boolector's finishes first, then the timeout is raised)."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(_signum, _frame):
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# The engines `check` runs side by side by default: IC3 proves or refutes; k-induction finds the
# shortest counterexample (its base case is BMC), proves terminating loops (forward condition)
# and k-inductive properties. Measured on 9 loop programs of LLUMC's set (40 s, invariants on):
# IC3 ∥ k-induction proved 6, IC3 ∥ BMC 6 (cggmp2005 by k-induction in 0.4 s against IC3's
# 0.5 s); on 5 FALSE programs k-induction found every bug, up to 2.4× later than BMC alone.
PORTFOLIO = ("ic3", "kind")


def _shown(loops) -> str:
    """Loop invariants (`houdini.LoopInvariant`) as the progress lines show them."""
    return "; ".join(f"line {loop.line}: {loop.expression}" + (f" && {loop.memory}" if loop.memory else "")
                     for loop in loops)


def has_loops(encoded: EncodeResult) -> bool:
    """Whether any step starts at a cut point other than the entry: a loop-free program pays
    nothing for the invariant search."""
    from llumc.encoding.lbe import cut_points

    return encoded.fn is not None and len(cut_points(encoded.fn)) > 1


def invariant_budget(timeout: float | None) -> float:
    """Seconds the invariant search may take: a quarter of the time limit, at most 30 s (it
    usually needs well under a second, and the engines run beside it; under load, a search of
    1.3 s took 15 s on 2 cores beside twelve busy processes)."""
    return 30.0 if timeout is None else max(0.5, min(30.0, 0.25 * timeout))


# Systems with more terms than this (RERS: 214 000) skip the word-level BMC in the portfolio:
# their steps branch on inputs at once, so its unrolling merges paths from the first step,
# and the explicit search, which ran first on them, is the engine that answers.
WORD_BMC_MAX_TERMS = 100_000

# The word-level BMC's child is killed this many seconds past its deadline: its last call
# gets the deadline as its own, and a call that does not stop then is not waited for.
WORD_BMC_GRACE = 0.5


def word_bmc_budget(timeout: float | None) -> float:
    """Seconds the word-level BMC may take in the portfolio, beside the members after the
    invariant search (before the explicit search): 30 % of the time limit, at most 60 s. The
    bugs it is there for take 1-3 s behind 1 000 cells (2 000 steps), and about 55 s behind
    100 000 (200 000 steps, beside IC3 and k-induction on 2 cores: SV-COMP's 900 s give it its
    60 s); a program without one uses the whole share unless every run ends first or another
    engine answers, and on 2 cores that share is CPU the members' proofs do not get (half the
    limit made the test suite's checks 4 minutes slower in all)."""
    return 60.0 if timeout is None else max(0.5, min(60.0, 0.3 * timeout))


# the share of the engines' time left that the invariant search's rounds cut short may take
# when they run again beside the members (`CheckSchedule.resume_search`)
RESUME_SHARE = 2 / 3

# the share of the engines' time left that the bit-level check of the word-level BMC's
# bounded proof may take, the members paused (`CheckSchedule.ends_proof`)
ENDS_CHECK_SHARE = 0.5
# ... and only where the unrolling it checks has at most this many clauses (a loop over 1 000
# cells, 2 000 steps deep, is beyond it and is left to k-induction with the loop invariants)
ENDS_CHECK_MAX_CLAUSES = 3_000_000


def explicit_budget(timeout: float | None) -> float:
    """Seconds the explicit-state search may take in the portfolio: a sixth of the time limit,
    at most 10 s (compiling its steps comes on top: `explore(compile_free=True)`). Small state
    machines are enumerated in well under a second, and systems with counters or free data
    exceed its state limit in a few seconds (or another engine answers first and stops it)."""
    return 10.0 if timeout is None else max(0.5, min(10.0, timeout / 6))


@dataclass(frozen=True)
class CheckOptions:
    """How one program is checked: the options of `llumc check` (see `check_program`)."""

    prop: str = "unreach-call"
    engine: str = "portfolio"
    timeout: float | None = None
    m32: bool = False
    clang: str | None = None
    solver: str = "cadical195"
    ir_trace: bool = False
    scheme: str = "lbe"
    ic3_direction: str = "forward"
    invariants: bool = True
    memtrack: bool | None = None
    columns: bool = False
    recursion_depth: int | None = None  # how deep a recursion is unrolled first (None: the front end's default)
    # a rewrite of the prepared IR (llumc.frontend.summaries: the summaries' harness, summarised main)
    ir_transform: Callable[[str], str] | None = None
    summary_harness: bool = False  # the program is a summary harness: a counterexample names a failing fact
    # runs deeper than the recursion bound end without error (bug finding only: never TRUE)
    recursion_cuts: bool = False
    # recursion on a call stack: True always, False never (unrolled), None where unrolling
    # exceeds its size limits (`compile_c`)
    call_stack: bool | None = None
    # large memory objects (IR names) encoded exact: the refinements so far (`_refining`)
    exact_objects: frozenset[str] = frozenset()
    # objects per allocation site in a loop (None: DEFAULT_HEAP_POOL); `_growing_pools` doubles it
    heap_pool: int | None = None
    # runs past a pool's last object end without error (bug finding only: never TRUE)
    pool_cuts: bool = False
    # the most cells an object may have and be exact (None: the encoder's EXACT_CELLS); the
    # first round of `_refining` lowers it to PROOF_EXACT_CELLS
    exact_cells: int | None = None
    # random tests beside the portfolio (llumc.check.testing); the running ones
    # (`RandomTests`), shared by every round, and when their counterexample preempts the
    # engines (time.monotonic(); None: only instead of an UNKNOWN)
    random_tests: bool = True
    running_tests: object | None = None
    tests_preempt_at: float | None = None


def _replay_timeout(end: float | None) -> float:
    """Seconds the replayed program may run: until the check's end, at most 30 s."""
    return 30.0 if end is None else max(1.0, min(30.0, end - time.monotonic()))


def describe_proof(answer) -> str:
    """What a checked unsat answer rests on, in words."""
    proof = getattr(answer, "proof", None) or "invariant"
    k = getattr(answer, "k", None)
    if proof == "k-induction":
        return f"{k}-induction checked (base case and step by fresh solvers)"
    if proof == "forward":
        return f"no execution is longer than {k} steps, and none of them fails (checked)"
    if proof == "ends":
        return f"every execution ends within {k} steps, and none of them fails (checked)"
    clauses = len(answer.invariant) if answer.invariant is not None else 0
    return f"inductive invariant checked ({clauses} clauses)"


def check_program(
    path: str | Path,
    *,
    prop: str = "unreach-call",
    engine: str = "portfolio",
    timeout: float | None = None,
    m32: bool = False,
    clang: str | None = None,
    solver: str = "cadical195",
    ir_trace: bool = False,
    progress: Progress | None = None,
    scheme: str = "lbe",
    ic3_direction: str = "forward",
    invariants: bool = True,
    memtrack: bool | None = None,
    columns: bool = False,
    recursion_depth: int | None = None,
    call_stack: bool | None = None,
    heap_pool: int | None = None,
    random_tests: bool | None = None,
) -> CheckResult:
    """Verdict for one program and property. `invariants`: search loop invariants first
    (llumc/invariants) and give the engines the system they strengthen. Bad input raises LlumcError (exit 2 in the CLI);
    an unsupported construct is UNKNOWN with the front end's reason.

    valid-memsafety in two checks (`memtrack` None): invalid dereferences and frees first,
    then, after a TRUE with heap objects, leaks too (`memtrack` True), so that a leak, which
    the native replay cannot show, does not stand in front of a dereference bug it can.

    `columns`: source columns of locations (error, inputs, invariants), which witnesses need;
    without them the front end is much faster on large programs (see `compile_c`).

    `random_tests`: run the program natively on chosen values beside the portfolio
    (llumc.check.testing); None: unless the environment says `LLUMC_RANDOM_TESTS=0`."""
    if random_tests is None:
        random_tests = os.environ.get("LLUMC_RANDOM_TESTS", "1").strip().lower() not in ("0", "false", "no", "off")
    options = CheckOptions(prop=prop, engine=engine, timeout=timeout, m32=m32, clang=clang, solver=solver,
                           ir_trace=ir_trace, scheme=scheme, ic3_direction=ic3_direction, invariants=invariants,
                           memtrack=memtrack, columns=columns, recursion_depth=recursion_depth,
                           call_stack=call_stack, heap_pool=heap_pool, random_tests=random_tests)
    return check(path, options, progress)


def check(path: str | Path, options: CheckOptions, progress: Progress | None = None) -> CheckResult:
    """`check_program` with its options in one value; the random tests (llumc.check.testing)
    beside it, whose counterexample answers where the check would say UNKNOWN."""
    from llumc.check import testing

    if not options.random_tests or options.running_tests is not None or options.summary_harness \
            or not testing.applies(options.prop, options.engine):
        return _check_model(path, options, progress)
    started = time.monotonic()
    budget = testing.tests_budget(options.timeout)
    tests = testing.RandomTests(Path(path), options.prop, m32=options.m32, clang=options.clang,
                                seconds=budget, delay=testing.start_delay(options.timeout), columns=options.columns)
    first = testing.model_first(options.timeout)
    options = replace(options, running_tests=tests, tests_preempt_at=None if first is None else started + first)
    try:
        result = _check_model(path, options, progress)
    except BaseException:
        tests.stop()
        raise
    if result.verdict == "true" and tests.found is not None:
        # a proof against a run: one of them is wrong, and neither is said
        tests.stop()
        found = tests.result()
        reason = f"the proof excludes the error a native run reaches ({found.confirmation})"
        return CheckResult("unknown", options.prop, result.engine, seconds=result.seconds, phases=result.phases,
                           reason=f"internal error: {reason}", internal_error=reason)
    if result.verdict != "unknown":
        tests.stop()
        return result
    # the rest of their budget (the UNKNOWN stands only if no run finds the error), within the
    # time limit: the machine's first build of zig's C library alone takes a minute; not started
    # when the limit leaves no time for a build
    left = None if options.timeout is None else started + options.timeout - time.monotonic()
    if left is None or left >= testing.LEAST_SECONDS:
        tests.go()
    tests.wait(None if left is None else max(0.0, left))
    tests.stop()
    found = tests.result()
    if found is None:
        return result
    if progress:
        progress(f"random tests: {found.confirmation}")
    found.seconds, found.phases = time.monotonic() - started, result.phases
    return found


def _check_model(path: str | Path, options: CheckOptions, progress: Progress | None) -> CheckResult:
    """The check of the model, its rounds (pools, recursion, summaries, refinement) encoding
    the program again with clang's output kept (`clang_outputs_kept`)."""
    with clang_outputs_kept():
        if options.prop == "valid-memsafety" and options.memtrack is None:
            return _memsafety_in_two_checks(path, options, progress)
        return _growing_pools(path, options, progress)


def _added_phases(first: dict[str, float], second: dict[str, float]) -> dict[str, float]:
    """The seconds per phase of two checks (rounds) of one program, added up."""
    return {name: round(first.get(name, 0.0) + second.get(name, 0.0), 3) for name in {**first, **second}}


def _pool_bound_reached(result: CheckResult) -> bool:
    return result.verdict == "unknown" and result.error is not None and result.error.kind == "allocation-bound"


def _growing_pools(path: str | Path, options: CheckOptions, progress: Progress | None) -> CheckResult:
    """One check (`_deepening_recursion`); while its answer is that an allocation site in a loop
    runs more often than its pool has objects (llumc.encoding.memory.HeapPool), the check
    again with pools twice as large, in the time left, up to MAX_HEAP_POOL objects per site;
    at the largest, errors within the pools (`_bug_within_pools`). Before the pools grow, once,
    a check with summaries instead (`_summarised_sites`; not where the caller chose the pools'
    size or cuts them). A TRUE needs pools the
    program never exhausts: every run that allocates at most K times per site is in the model.
    (The engines' traces are short first, so an error within fewer allocations than the bound
    is mostly found on the way; the search within the bound, which proves nothing and costs a
    check, runs once, where the pools cannot grow.)"""
    started = time.monotonic()
    result = _deepening_recursion(path, options, progress)
    if _pool_bound_reached(result) and result.heap_pool is not None and options.heap_pool is None \
            and not options.pool_cuts:
        summarised = _summarised_sites(path, options, progress, started, result)
        if summarised is not None:
            return summarised
    while _pool_bound_reached(result) and result.heap_pool is not None:
        size = 2 * result.heap_pool
        left = _time_left(options, started)
        if size > MAX_HEAP_POOL:
            found = _bug_within_pools(path, options, progress, started, result.heap_pool)
            if found is not None:
                return found
            result.reason = f"{result.reason} (pools of {result.heap_pool} objects are the largest)"
            return result
        if left is not None and left < 1.0:
            return result
        if progress:
            progress(f"{result.reason}: pools of {size} objects per allocation site in a loop")
        larger = _deepening_recursion(path, replace(options, heap_pool=size, timeout=left), progress)
        larger.seconds = time.monotonic() - started
        larger.phases = _added_phases(result.phases, larger.phases)
        if larger.verdict == "unknown" and not _pool_bound_reached(larger):
            # no answer with the larger pools (time, the object ids): the last bound stands named
            larger.reason = f"{larger.reason} (pools of {size} objects; before: {result.reason})"
            if larger.heap_pool is None:  # they did not fit: look within the last ones
                found = _bug_within_pools(path, options, progress, started, result.heap_pool)
                if found is not None:
                    return found
            return larger
        result = larger
    return result


# Share of the time left that the check with summaries gets after the first pools reached the
# allocation bound (the rest goes to larger pools). With 2/3 a search tree of 100 000 nodes
# (benchmarks/matrix), whose facts take about half the round to find, ran out of time at 20 s.
SUMMARY_SHARE = 3 / 4


def _summarised_sites(path: str | Path, options: CheckOptions, progress: Progress | None,
                      started: float, pooled: CheckResult) -> CheckResult | None:
    """The check with every allocation site in a loop summarised (`SITE_SUMMARY`: one object of
    all its runs' blocks, one node tracked), in SUMMARY_SHARE of the time left: its TRUE (a
    list of any length up to the summary's nodes) or its replayed FALSE, else None (the pools
    grow on in the rest: they answer what needs every node exact, a short list's sum). A
    program the summary cannot represent (`MemoryEncoder._summarise`) answers UNKNOWN at once."""
    left = _time_left(options, started)
    if left is not None and left < 2.0:
        return None
    if progress:
        progress(f"{pooled.reason}: one summary per allocation site in a loop")
    found = _deepening_recursion(path, replace(options, heap_pool=SITE_SUMMARY,
                                               timeout=None if left is None else SUMMARY_SHARE * left), progress)
    if found.verdict == "unknown":
        if progress:
            progress(f"summaries: {found.reason}")
        return None
    found.seconds = time.monotonic() - started
    found.phases = _added_phases(pooled.phases, found.phases)
    return found


def _bug_within_pools(path: str | Path, options: CheckOptions, progress: Progress | None,
                      started: float, size: int) -> CheckResult | None:
    """A replayed FALSE among the runs that stay within pools of `size` objects, in half the
    time left (at most 20 s): the engines' last trace ended at the allocation bound and may
    hide an error as short as it."""
    return _false_within(_deepening_recursion, path, replace(options, pool_cuts=True, heap_pool=size),
                         progress, started, 2, "allocation bound reached: looking for errors within it")


def _false_within(check, path: str | Path, options: CheckOptions, progress: Progress | None,
                  started: float, share: int, message: str) -> CheckResult | None:
    """`check` on a system cut at a bound (its TRUE says nothing), in 1/`share` of the time
    left and at most 20 s: its FALSE, replayed, or None."""
    left = _time_left(options, started)
    if left is not None and left < 2.0:
        return None
    if progress:
        progress(message)
    found = check(path, replace(options, timeout=20.0 if left is None else min(20.0, left / share)), progress)
    if found.verdict != "false":
        return None
    found.seconds = time.monotonic() - started
    return found


# Procedure summaries are tried once the bound has been deepened this far (one round from the
# default 4): many recursions end a few levels deeper, and unrolling answers them in a fraction
# of the time the summaries' checks take (fibo_2calls_6: 0.35 s by unrolling, 4.5 s with
# summaries tried first).
SUMMARIES_FROM_DEPTH = 6


def _deeper(depth: int, call_stack: bool) -> int:
    """The next recursion bound. On a call stack (llumc.frontend.callstack) twice as deep: the
    encoding grows by a few cells per frame. Unrolled, half as deep again: doubling would cost a
    tree recursion (two calls per level) its size squared each round; a linear one gets 24
    calls deep in 6 rounds."""
    return min(max(2 * depth, FIRST_STACK_DEPTH), MAX_STACK_DEPTH) if call_stack else depth + max(1, depth // 2)


def _bound_words(depth: int | None, call_stack: bool) -> str:
    return f"on a call stack of {depth} frames" if call_stack else f"unrolled {depth} calls deep"


def _time_left(options: CheckOptions, started: float) -> float | None:
    """Seconds of the check begun at `started` still left (None: no time limit)."""
    return None if options.timeout is None else options.timeout - (time.monotonic() - started)


def _bound_reached(result: CheckResult) -> bool:
    return result.verdict == "unknown" and result.error is not None and result.error.kind == "recursion-bound"


def _bug_within_bound(path: str | Path, options: CheckOptions, progress: Progress | None,
                      started: float, depth: int | None) -> CheckResult | None:
    """A replayed FALSE among the runs that stay within the recursion bound, in a third of the
    time left (at most 20 s): the engines' first trace may end at the bound and hide an error
    as short as it."""
    return _false_within(_refining, path, replace(options, recursion_cuts=True, recursion_depth=depth),
                         progress, started, 3, "recursion deeper than its bound: looking for errors within it")


def _with_summaries(path: str | Path, options: CheckOptions, progress: Progress | None,
                    started: float) -> CheckResult | None:
    """A proof by procedure summaries (llumc.check.summaries) in a third of the time left: the
    recursion has no small bound, or unrolling would have proven it."""
    left = _time_left(options, started)
    if left is not None and left < 2.0:
        return None
    deadline = time.monotonic() + (60.0 if left is None else left / 3)
    if progress:
        progress("recursion deeper than its first bound: trying procedure summaries")
    proven = prove_with_summaries(path, options, lambda o: _refining(path, o, progress), progress, deadline)
    if proven is not None:
        proven.seconds = time.monotonic() - started
    return proven


def _deepening_recursion(path: str | Path, options: CheckOptions, progress: Progress | None) -> CheckResult:
    """One check; while its answer is that a recursion goes deeper than the bound it was
    unrolled to (llumc.frontend.procedures): errors within the bound (`_bug_within_bound`),
    once a proof by procedure summaries (`_with_summaries`), then the check again with a deeper
    bound (`_deeper`), in the time left. A TRUE needs a bound the program never reaches, or the
    summaries."""
    started = time.monotonic()
    result = _refining(path, options, progress)
    summaries_tried = False
    original = options
    while _bound_reached(result):
        found = _bug_within_bound(path, original, progress, started, result.recursion_depth)
        if found is not None:
            return found
        if not summaries_tried and (result.recursion_depth or 0) >= SUMMARIES_FROM_DEPTH:
            summaries_tried = True
            proven = _with_summaries(path, original, progress, started)
            if proven is not None:
                return proven
        deeper = _deeper_check(path, original, progress, started, result)
        if deeper is None:
            break
        if not summaries_tried and not _bound_reached(deeper) and deeper.verdict == "unknown" \
                and deeper.recursion_depth is not None:
            # the deepening stopped (size limit, time) before summaries had their turn
            summaries_tried = True
            proven = _with_summaries(path, original, progress, started)
            if proven is not None:
                return proven
        result = deeper
    return result


def _deeper_check(path: str | Path, options: CheckOptions, progress: Progress | None, started: float,
                  result: CheckResult) -> CheckResult | None:
    """The check (`options`: the whole check's, begun at `started`) unrolled deeper than
    `result`'s bound; None when no time is left (`result` stands), and `result` with the reason
    why when no deeper unrolling fits."""
    left = _time_left(options, started)
    if left is not None and left < 1.0:
        return None
    depth = _deeper(result.recursion_depth or DEFAULT_RECURSION_DEPTH, result.call_stack)
    if result.call_stack and depth <= (result.recursion_depth or 0):
        result.reason = f"{result.reason}; the call stack is at its largest ({depth} frames)"
        result.error = None  # (ends the deepening)
        return result
    if progress:
        progress(f"{result.reason}: {_bound_words(depth, result.call_stack)}")
    options = replace(options, recursion_depth=depth, timeout=left)
    deeper = _refining(path, options, progress)
    deeper.seconds = time.monotonic() - started
    deeper.phases = _added_phases(result.phases, deeper.phases)
    if deeper.verdict == "unknown" and (deeper.recursion_depth or 0) <= (result.recursion_depth or 0):
        # no deeper unrolling fits (or no time to encode it): the last answer stands
        why = deeper.reason if deeper.recursion_depth is None else \
            f"unrolling deeper than {deeper.recursion_depth} calls exceeds the front end's size limit"
        result.reason = f"{result.reason}; {why}"
        result.seconds, result.phases = deeper.seconds, deeper.phases
        result.error = None  # (ends the deepening)
        return result
    if deeper.verdict == "unknown" and (deeper.error is None or deeper.error.kind != "recursion-bound"):
        deeper.reason = (f"{deeper.reason} ({_bound_words(deeper.recursion_depth, deeper.call_stack)}; "
                         f"before: {result.reason})")
    return deeper


# a refinement round needs at least this long to encode and run the engines at all
MIN_REFINEMENT_SECONDS = 2.0
# how a refinement round's progress line starts (the CLI shows these lines however often)
REFINEMENT_PROGRESS = "refinement "


# Objects of more cells than this, up to the encoder's EXACT_CELLS, are abstract in the first
# round of a portfolio check (`_refining`): a proof about an array's contents is a quantified
# invariant over the tracked cell (`\forall k: k < i ==> a[k] == b[k]`, docs/memory.md), found
# in seconds, where the same proof over 1 000 exact cells is beyond every engine, and over 10
# exact cells of 32 bits often too (a running maximum of 10 timed out at 20 s).
PROOF_EXACT_CELLS = 8
# the first round's share of the time limit, and its seconds without one
ABSTRACT_ROUND_SHARE = 0.5
ABSTRACT_ROUND_SECONDS = 60.0
# From this many cells made exact by the refinement, the first round gets the larger share:
# the exact round's encoding grows with the cells (1 000 cells: 2.7 million clauses, 13 s to
# encode on 2 cores), so at 20 s it answers nothing there, while the abstraction's invariant
# search over a bubble sort of 1 000 cells needs about 8 s.
LARGE_REFINEMENT_CELLS = 256
ABSTRACT_ROUND_SHARE_LARGE = 0.75


def _first_round_cells(options: CheckOptions) -> int | None:
    """The exact bound of the first round: PROOF_EXACT_CELLS for the portfolio's checks that
    may end in a proof, None (the encoder's bound) otherwise."""
    from llumc.encoding import memory

    if options.engine != "portfolio" or options.exact_cells is not None or options.recursion_cuts \
            or options.pool_cuts or options.scheme != "lbe" or not options.invariants:
        return options.exact_cells
    return PROOF_EXACT_CELLS if PROOF_EXACT_CELLS < memory.EXACT_CELLS else None


def _refining(path: str | Path, options: CheckOptions, progress: Progress | None) -> CheckResult:
    """One check (`CheckSchedule`); while its answer is a counterexample the native replay
    refuted (or an undefined behaviour no replay confirms) whose path read havoc values of
    abstract memory objects, the check again with those objects exact (llumc.check.refinement),
    in the time left, at most `MAX_REFINEMENTS` rounds and `REFINE_CELLS` cells. Each round is
    told in progress and in the answer's `refinements`; the seconds and phases add up. Sound:
    a round's system only removes abstraction, and its TRUE and FALSE are checked as ever.

    The first round abstracts more (objects above PROOF_EXACT_CELLS cells, `_first_round_cells`)
    and, where that abstracted anything, has a share of the time (`CheckSchedule.abstraction_share`). When
    it neither proves nor refutes, the next round has those objects exact again, as the
    encoder's own bound has them, outside the refinement budget: the abstraction costs a round,
    never an answer the exact system gives."""
    started = time.monotonic()
    rounds: list[Refinement] = []
    phases: dict[str, float] = {}
    exact = options.exact_objects
    exact_cells = _first_round_cells(options)
    while True:
        schedule = CheckSchedule(path, replace(options, exact_objects=exact, exact_cells=exact_cells,
                                               timeout=_time_left(options, started)), progress)
        result = schedule.run()
        phases = _added_phases(phases, result.phases)
        result.seconds, result.phases = time.monotonic() - started, phases
        result.refinements = [r.to_json() for r in rounds]
        if schedule.provisional and result.verdict == "unknown" and not _no_time_left(options, started):
            step = Refinement([obj.c_name for obj in schedule.provisional],
                              sum(cells_of(obj) for obj in schedule.provisional),
                              result.reason or "no answer", first_round=True)
            rounds.append(step)
            exact_cells = options.exact_cells
            if progress:
                progress(f"{REFINEMENT_PROGRESS}{len(rounds)}: {', '.join(step.objects)} exact again "
                         f"({step.cells} cells) after the abstraction's {step.counterexample}; checking again")
            continue
        used = schedule.refuted_through_havoc(result)
        if not used:
            return result
        step = next_refinement(used, rounds, result.reason or "counterexample not confirmed")
        left = _time_left(options, started)
        if isinstance(step, Refinement) and left is not None and left < MIN_REFINEMENT_SECONDS:
            step = "refinement exhausted: no time left for another round"
        if isinstance(step, str):
            result.reason = f"{result.reason}; {step}"
            return result
        rounds.append(step)
        exact = exact | frozenset(step.ir_names)
        if progress:
            progress(f"{REFINEMENT_PROGRESS}{len(rounds)}: {', '.join(step.objects)} made exact ({step.cells} "
                     f"cells) after {step.counterexample}; checking again")


def _no_time_left(options: CheckOptions, started: float) -> bool:
    left = _time_left(options, started)
    return left is not None and left < MIN_REFINEMENT_SECONDS


def _memsafety_in_two_checks(path: str | Path, options: CheckOptions, progress: Progress | None) -> CheckResult:
    """valid-memsafety: invalid dereferences and frees first (no leak encoding), then, after a
    TRUE with heap objects, leaks too, in the time left; the phases' seconds add up."""
    timeout = options.timeout
    first = check(path, replace(options, memtrack=False), progress)
    if first.verdict != "true" or not first.heap_objects:
        return first
    if first.heap_pool == SITE_SUMMARY:
        first.verdict, first.reason = "unknown", (
            "no invalid dereference or free (proven), but memory leaks (valid-memtrack) are not checked "
            "where allocation sites in loops are summarised")
        return first
    left = None if timeout is None else timeout - first.seconds
    if left is not None and left < 1.0:
        return CheckResult("unknown", options.prop, first.engine, seconds=first.seconds,
                           heap_objects=first.heap_objects,
                           reason="no invalid dereference or free (proven); no time left to check "
                                  "memory leaks (valid-memtrack)")
    if progress:
        progress("no invalid dereference or free (proven); now memory leaks (valid-memtrack)")
    # (the pools the first check needed: a smaller one reaches the bound again)
    second = check(path, replace(options, timeout=left, memtrack=True, heap_pool=first.heap_pool), progress)
    second.seconds += first.seconds
    second.phases = _added_phases(first.phases, second.phases)
    if second.verdict == "unknown" and second.reason:
        second.reason = f"no invalid dereference or free (proven), but {second.reason}"
    return second


class _Answered(Exception):
    """A phase has the check's result (an early UNKNOWN, or an answer of the explicit search)."""

    def __init__(self, result: CheckResult) -> None:
        super().__init__(result.verdict)
        self.result = result


class CheckSchedule:
    """One check of one property, phase by phase: encode; the explicit-state search first (huge
    steps) or last (beside the members); the loop-invariant search; the portfolio's members (or
    the one engine asked for); then the proof check of a TRUE or the native replay of a FALSE.

    Time: the engines get the limit less a final reserve (`final_reserve`), which the replay or
    the proof check may use. Every phase entered is timed (`PhaseClock`) and told to the
    supervisor. A phase that has the result raises `_Answered`; `run` finishes it."""

    def __init__(self, path: str | Path, options: CheckOptions, progress: Progress | None = None) -> None:
        self.path, self.options = path, options  # the path as given: it is the symbol map's `source`
        self.say: Progress = progress or (lambda _msg: None)
        self.started = time.monotonic()
        self.end = None if options.timeout is None else self.started + options.timeout
        self.reserve = final_reserve(options.timeout)
        self.clock = PhaseClock()
        self.encoded: EncodeResult | None = None
        self.strengthening = None  # llumc.invariants.houdini.Strengthening, when the search kept facts
        self.unfinished = None  # llumc.invariants.houdini.Rounds the search cut short, for `resume_search`
        self.search_report: dict | None = None
        self.invariants_checked = False  # the loop invariants passed their check (fresh SAT calls)
        self.reborn: list[str] = []  # locals declared in a loop that a pointer may outlive
        self.heap_objects = 0
        self.members = None  # solvers.portfolio.Portfolio, when the portfolio runs
        self.explicit_last = False
        # the last counterexample the replay did not confirm, and the abstract memory objects
        # its path read havoc values of (llumc.check.refinement.havoc_objects)
        self.refuted: tuple[CheckResult, list] | None = None
        self.word_bmc_reason = "not run"
        # objects abstract only because this round's exact bound is lowered (`_refining`)
        self.provisional: list = []

    # -- the schedule

    def run(self) -> CheckResult:
        try:
            self.encode()
            if self.options.engine == "explicit":
                self.explicit_only()
            answer = self.solve()
            return self.finish(self.conclude(answer))
        except _Answered as answered:
            return self.finish(answered.result)

    def solve(self):
        """The engines' answer (`solvers.result.SolveResult`): the portfolio (with the explicit
        search first or last) after the invariant search, or the one engine asked for."""
        from solvers.check import CheckFailed

        try:
            if self.options.engine == "portfolio":
                self.start_portfolio()
            elif self.options.engine == "word-bmc":
                self.clock.enter("engines")
                self.word_bmc(self.engine_time() or 3600.0)
                raise _Answered(self.refuted[0] if self.refuted is not None else
                                self.unknown(f"word-level BMC: no answer ({self.word_bmc_reason})"))
            if self.options.invariants and self.options.engine != "bmc" and has_loops(self.encoded):
                self.search_invariants()
            if self.provisional:
                self.abstraction_pays()
            if self.members is not None:
                return self.run_members()
            return self.run_engine()
        except _Answered:
            raise
        except CheckFailed as err:
            raise _Answered(self.unknown(f"internal error: {err}", internal_error=str(err))) from err
        except KeyboardInterrupt:
            raise _Answered(self.unknown("interrupted")) from None
        except Exception as err:
            if "keyboard interrupt" in str(err).lower():  # PySAT's own error for SIGINT in a SAT call
                raise _Answered(self.unknown("interrupted")) from err
            raise
        finally:
            if self.members is not None:
                self.members.stop()

    def conclude(self, answer) -> CheckResult:
        """The verdict on the engines' answer: TRUE after its proof check, FALSE after replay."""
        used = answer.engine or self.options.engine
        internal = answer.reason if answer.stats.get("internal_errors") else None
        if internal and answer.status not in ("sat", "unsat"):
            return CheckResult("unknown", self.options.prop, used, reason=f"internal error: {internal}",
                               internal_error=internal)
        if answer.status == "unsat":
            return self.proof_check(answer, used)
        if answer.status != "sat":
            return CheckResult("unknown", self.options.prop, used, steps=answer.steps,
                               reason=answer.reason or "no answer")
        return self.replay(answer, used)

    # -- time

    def engine_time(self) -> float | None:
        """The engines' share of the time left: the final reserve stays for a replay or proof check."""
        return None if self.end is None else max(0.1, self.end - self.reserve - time.monotonic())

    def unknown(self, reason: str, **fields) -> CheckResult:
        return CheckResult("unknown", self.options.prop, self.options.engine, reason=reason, **fields)

    def finish(self, res: CheckResult) -> CheckResult:
        """The result with what the whole check knows: seconds, phases, heap objects, the search's
        report, the checked loop invariants; TRUE demoted where a reborn local makes it unsound."""
        if res.verdict == "true" and self.options.recursion_cuts:
            # the system held the runs within the recursion bound only
            res = CheckResult("unknown", self.options.prop, res.engine, reason=(
                f"no error within {self.encoded.recursion_depth} nested calls"))
        if res.verdict == "true" and self.options.pool_cuts:
            # the system held the runs within the pools only
            res = CheckResult("unknown", self.options.prop, res.engine, reason=(
                f"no error within {self.encoded.heap_pool} allocations per site in a loop"))
        if res.verdict == "true" and self.reborn:
            # memory.MemoryObject.reborn: each iteration's instance is the same object here
            res = CheckResult("unknown", self.options.prop, res.engine, reason=(
                f"no error found (proven), but a pointer to local '{self.reborn[0]}', declared in a loop, "
                "may outlive an iteration, and llumc does not tell the loop's instances apart"))
        res.seconds = time.monotonic() - self.started
        self.clock.stop()
        res.phases = dict(self.clock.seconds)
        res.heap_objects = self.heap_objects
        res.recursion_depth = self.encoded.recursion_depth if self.encoded is not None else None
        res.call_stack = self.encoded.call_stack if self.encoded is not None else False
        res.heap_pool = self.encoded.heap_pool if self.encoded is not None else None
        res.invariant_search = self.search_report
        if self.strengthening is not None and res.verdict == "true" and self.invariants_checked:
            res.invariants = [loop.to_json() for loop in self.strengthening.loops]
        return res

    def engine_progress(self, info: dict) -> None:
        info = dict(info)
        name = info.pop("engine", self.options.engine)
        info.pop("seconds", None)
        self.say(f"{name}: " + ", ".join(f"{k} {v}" for k, v in info.items()))

    # -- the phases

    def encode(self) -> None:
        """C file -> `EncodeResult`, within the whole time limit; UNKNOWN on what it cannot encode."""
        o = self.options
        try:
            self.say(f"encoding {self.path} ({o.prop})")
            self.clock.enter("encoding")
            with _deadline(o.timeout):
                self.encoded = encode_file(self.path, prop=o.prop, m32=o.m32, clang=o.clang, scheme=o.scheme,
                                           memtrack=o.memtrack is not False, columns=o.columns,
                                           recursion_depth=o.recursion_depth, ir_transform=o.ir_transform,
                                           recursion_cuts=o.recursion_cuts, call_stack=o.call_stack,
                                           exact_objects=o.exact_objects, pool_cuts=o.pool_cuts,
                                           exact_cells=o.exact_cells,
                                           heap_pool=DEFAULT_HEAP_POOL if o.heap_pool is None else o.heap_pool)
        except UnsupportedError as err:
            raise _Answered(self.unknown(str(err))) from err
        except _Timeout:
            raise _Answered(self.unknown("timeout while encoding")) from None
        stats = self.encoded.stats
        self.say(f"encoded: {stats.blocks} blocks, {stats.state_bits} state bits, {stats.total_clauses} clauses")
        self.reborn += [obj.c_name for obj in memory_objects(self.encoded) if obj.reborn]
        self.abstraction_share()
        self.heap_objects = sum(1 for obj in memory_objects(self.encoded) if obj.heap)

    def abstraction_share(self) -> None:
        """Where the lowered exact bound (`CheckOptions.exact_cells`) left objects abstract that
        the encoder's own bound keeps exact (`provisional`), this round gets its share of the
        time (ABSTRACT_ROUND_SHARE) and says so; `_refining` makes them exact if it does not answer."""
        from llumc.encoding import memory

        if self.options.exact_cells is None:
            return
        self.provisional = [obj for obj in memory_objects(self.encoded)
                            if obj.abstract and memory.can_be_exact(obj) and self.options.exact_cells
                            < cells_of(obj) <= memory.EXACT_CELLS]
        if not self.provisional:
            return
        total = self.options.timeout
        large = sum(cells_of(obj) for obj in self.provisional) >= LARGE_REFINEMENT_CELLS
        fraction = ABSTRACT_ROUND_SHARE_LARGE if large else ABSTRACT_ROUND_SHARE
        share = ABSTRACT_ROUND_SECONDS if total is None else fraction * total
        self.options = replace(self.options, timeout=max(0.5, share - (time.monotonic() - self.started)))
        self.end = time.monotonic() + self.options.timeout
        self.reserve = final_reserve(self.options.timeout)
        self.say(f"first round with {', '.join(obj.c_name for obj in self.provisional)} abstract "
                 f"(more than {self.options.exact_cells} cells; at most {share:.0f} s)")

    def abstraction_pays(self) -> None:
        """A first round goes on to the engines only where the invariant search kept a fact
        about the contents of an object it abstracted (a tracked cell's): without one the
        abstraction proves nothing the exact system would not, and its round would only take
        the exact round's time (a bug that needs many cells is found there)."""
        tracked = {var.index for obj in self.provisional for _offset, var in obj.tracked_fields}
        kept = self.strengthening.kept if self.strengthening is not None else []
        if any(cand.kind == "tracked" and tracked & state_leaves(cand.term) for cand in kept):
            return
        raise _Answered(self.unknown("no fact about the contents of "
                                     f"{', '.join(obj.c_name for obj in self.provisional)} on the abstraction"))

    def explicit_only(self) -> None:
        """`--engine explicit`: the explicit-state search with all of the engines' time."""
        latest = None if self.end is None else self.end - self.reserve
        found = self.explore(self.engine_time() or 3600.0, latest=latest)
        if found is None and self.refuted is not None:  # its error path, refuted
            found = self.refuted[0]
        raise _Answered(found or self.unknown("explicit-state search: no answer"))

    def start_portfolio(self) -> None:
        """IC3 starts on the encoded system at once, beside the invariant search: many state
        machines (s3_srvr_4: 1.1 s alone, 37 s after the search on the strengthened system) are
        proven fastest so, while the search's facts cost IC3 every SAT call (token_ring.02: 17 s
        on the encoded system, no answer in 60 s strengthened by 127 facts). k-induction, and
        IC3 a second time, run on the strengthened system after the search (gauss_sum needs IC3
        with the invariants). IC3's paths are not shortened: k-induction's base case beside it
        looks for the shortest one anyway.

        On systems whose steps are huge (RERS: 215 000 terms) each of IC3's SAT calls is slow,
        the invariant search too, and the explicit search is the engine that answers: it runs
        first, and IC3 waits for it instead of taking half its CPU. On the others it runs last,
        beside the members, until one of them answers: most loops there are counters it cannot
        exhaust, and k-induction with the invariants answers them in a second or two."""
        from llumc.explicit.explore import NATIVE_FROM
        from solvers.portfolio import Portfolio

        self.clock.enter("engines")
        # members may overrun their timeout by a SAT call or their check: half the reserve
        self.members = Portfolio(timeout=self.engine_time(), progress=self.engine_progress,
                                 grace=min(5.0, self.reserve / 2 or 5.0))
        self.explicit_last = len(self.encoded.word.terms.table) <= NATIVE_FROM
        if not self.explicit_last:
            self.explicit_in_portfolio(None)
        self.members.start("ic3", self.encoded.ts, options=self.ic3_options())

    def search_invariants(self) -> None:
        """Loop invariants within their budget; the engines after it run on the system they
        strengthen (`self.strengthening`)."""
        from llumc.invariants.search import find_invariants

        self.tests_answer()  # (and the tests start if due: the search is no polling point)
        budget = invariant_budget(self.options.timeout)
        abstraction = self.on_abstraction()
        if abstraction:  # the invariants are the proof: half the round
            budget = max(budget, min(15.0, 0.5 * (self.engine_time() or 30.0)))
        self.say(f"searching loop invariants (at most {budget:.0f} s)")
        self.clock.enter("invariant search")
        # on an exact system IC3's counterexample, sent meanwhile, ends the search
        cancelled = None if abstraction or self.members is None else self.counterexample_beside_search
        self.strengthening, report = find_invariants(self.encoded, deadline=time.monotonic() + budget,
                                                     cancelled=cancelled)
        self.clock.enter("engines")
        self.tests_answer()
        self.search_report = {**report.to_json(), "budget": round(budget, 3)}
        self.unfinished = report.unfinished
        if self.strengthening is not None:
            self.say(f"loop invariants: {report.kept} of {report.candidates} candidates inductive "
                     f"({report.seconds:.1f} s): {_shown(self.strengthening.loops)}")
        else:
            self.say(f"loop invariants: none ({report.reason}, {report.seconds:.1f} s)")

    def on_abstraction(self) -> bool:
        """Whether the system abstracts the program: an object too large to be exact (the first
        round's or for good) or allocation sites summarised."""
        return bool(self.provisional) or self.options.heap_pool == SITE_SUMMARY \
            or any(obj.abstract for obj in memory_objects(self.encoded))

    def counterexample_beside_search(self) -> bool:
        """Whether IC3, started beside the invariant search, has sent a counterexample; asked
        on exact systems only (`search_invariants`), where the search's facts would serve no
        proof then and the replay decides at once (a bug 3 steps deep waited 1.3 s for the
        search). Not on an abstraction, whose counterexamples are often refuted and whose
        proofs need the facts; not on a proof, whose TRUE reports the facts."""
        answer = self.members.poll()
        return answer is not None and answer.status == "sat"

    def system(self):
        """The system the engines after the search run on: strengthened, if the search kept facts."""
        return self.strengthening.system if self.strengthening is not None else self.encoded.ts

    def ic3_options(self) -> dict:
        return {"direction": self.options.ic3_direction, "shorten": False}

    def kind_options(self) -> dict:
        """k-induction unrolls the original system for its base case (same paths, fewer clauses)
        and uses the invariants in its step case only."""
        paths = {} if self.strengthening is None else \
            {"paths": self.strengthening.restricted or self.encoded.ts}
        return {"solver": self.options.solver, **paths}

    def run_members(self):
        """k-induction (and IC3 on the strengthened system) join IC3; on systems with memory
        the word-level BMC, then on small systems the explicit search, run beside them until
        one answers; then the first checked answer."""
        members = self.members
        self.start_strengthened()
        settled = lambda: members.poll() is not None or self.tests_ready()  # noqa: E731
        if members.poll() is None and self.word_bmc_pays():
            self.word_bmc(word_bmc_budget(self.options.timeout), cancelled=settled)
            self.tests_answer()
        if self.explicit_last and members.poll() is None:
            self.explicit_in_portfolio(settled)
            self.tests_answer()
        while self.unfinished is not None and self.unfinished.pending and members.poll() is None:
            if not self.resume_search(settled):
                break
            self.tests_answer()
        refuted = None
        while True:
            answer = members.wait(stop=self.tests_ready, keep_on_sat=True)
            if answer.status != "sat" or not members.pending:
                break
            result = self.conclude(answer)
            if not self.others_go_on(result):
                raise _Answered(result)
            self.clock.enter("engines")
            self.say(f"{answer.stats.get('member', answer.engine)}: {result.reason}; the other engines go on")
            members.dismiss(result.reason or "counterexample not confirmed")
            refuted = result
        if answer.status not in ("sat", "unsat"):
            self.tests_answer()
            if refuted is not None:  # the refuted counterexample stands, for `_refining` to read
                raise _Answered(refuted)
        return answer

    def start_strengthened(self) -> None:
        """k-induction, and IC3 on the strengthened system where the search kept facts."""
        members = self.members
        if self.strengthening is not None and self.strengthening.restricted is not None:
            # facts used at reads restrict the system (llumc.invariants.instances): on the
            # unrestricted one IC3's paths may read any value where the facts say what a cell
            # holds; IC3 with the invariants runs on the restricted system instead
            members.cancel("ic3")
        if members.poll() is None:
            members.start("kind", self.system(), options=self.kind_options())
            if self.strengthening is not None:
                members.start("ic3+invariants", self.system(), engine="ic3", options=self.ic3_options())

    def resume_search(self, cancelled: Callable[[], bool]) -> bool:
        """The invariant search's rounds cut short by its budget (a round of products under
        load), run again in a child beside the members, within `RESUME_SHARE` of the engines'
        time left, until one keeps more facts or a member answers (`cancelled`). With more
        facts, k-induction and IC3 with the invariants start again on the stronger system (a
        proof a member sent before stands, on the facts it rested on), and True says that
        the rounds still pending may be run again."""
        from llumc.invariants.houdini import resume

        rounds = self.unfinished
        left = None if self.end is None else self.end - self.reserve - time.monotonic()
        if left is not None and left < 1.0:
            return False
        seconds = 600.0 if left is None else RESUME_SHARE * left
        deadline = time.monotonic() + seconds
        self.say(f"loop invariants: {len(rounds.pending)} round{'' if len(rounds.pending) == 1 else 's'} "
                 f"cut short, run again (at most {seconds:.0f} s)")
        self.clock.enter("invariant search")
        started = time.monotonic()
        try:
            ran = call_in_child(lambda progress: (*resume(rounds, deadline=deadline), rounds.state()),
                                until=deadline + 1.0, cancelled=cancelled)
        finally:
            self.clock.enter("engines")
        if ran.status != "done":
            if ran.status in ("error", "died"):
                self.say(f"loop invariants: internal error, please report: {ran.reason}")
            return False
        stronger, report, state = ran.value
        rounds.restore(state)
        if stronger is None:
            self.say(f"loop invariants: nothing more ({report.reason or 'no round finished'})")
            return False
        return self.adopt(stronger, report.candidates, time.monotonic() - started)

    def adopt(self, stronger, candidates: int, seconds: float) -> bool:
        """The search's stronger facts (`stronger`, a Strengthening from a child) taken, and
        k-induction and IC3 with the invariants started again on them; False, the facts left,
        where a member's answer came first (it stands, on the facts it rested on)."""
        for part in (stronger, stronger.first):
            if part is not None:  # checked, before a TRUE, on this process's system, not the child's copy
                part.original = self.encoded.ts
        members = self.members
        for label in ("ic3+invariants", "kind"):
            members.cancel(label)
        if members.poll() is not None:
            return False
        self.strengthening = stronger
        resumed = self.search_report.get("resumed", 0.0) + seconds
        self.search_report.update(kept=len(stronger.kept), resumed=round(resumed, 3), reason=None)
        self.say(f"loop invariants: {len(stronger.kept)} of {candidates} candidates inductive "
                 f"({seconds:.1f} s more): {_shown(stronger.loops)}")
        self.start_strengthened()
        return True

    def others_go_on(self, result: CheckResult) -> bool:
        """Whether the members still running go on after a counterexample that is not an answer
        (`result`, its replay): where refinement cannot make any object its path read havoc
        values of exact (a summary, an object of nondeterministic size; or none), a proof on
        this abstraction is the answer left, and IC3 or k-induction with the invariants may
        still find it. Not after a FALSE, a path to a bound (the bound is raised instead), in
        a first round that abstracts more than the encoder's bound (`provisional`: the exact
        round after it is the refinement, and needs the time), or in a procedure summary's
        check (its counterexample is what it asks for)."""
        if result.verdict != "unknown" or self.options.summary_harness or self.provisional:
            return False
        if result.error is not None and result.error.kind in ("recursion-bound", "allocation-bound"):
            return False
        used = self.refuted[1] if self.refuted is not None and self.refuted[0] is result else []
        return not can_refine(used)

    def tests_ready(self) -> bool:
        """Whether the random tests have a counterexample and the engines have had their time
        first (`CheckOptions.tests_preempt_at`). Asked at the check's polling points, which
        also start the tests once they are due."""
        o = self.options
        if o.running_tests is None:
            return False
        o.running_tests.start_if_due()
        return (o.running_tests.found is not None
                and o.tests_preempt_at is not None and time.monotonic() >= o.tests_preempt_at)

    def tests_answer(self) -> None:
        """Raises `_Answered` with the random tests' FALSE once it may preempt the engines."""
        if self.tests_ready():
            found = self.options.running_tests.result()
            self.say(f"random tests: {found.confirmation}")
            raise _Answered(found)

    def run_engine(self):
        """The one engine asked for. IC3 keeps its own solver: its timeout interrupts SAT calls,
        which CaDiCaL does not allow."""
        from solvers.api import solve

        o = self.options
        extra = {"ic3": {"direction": o.ic3_direction}, "kind": self.kind_options(),
                 "bmc": {"solver": o.solver}}.get(o.engine, {})
        self.clock.enter("engines")
        return solve(self.system(), engine=o.engine, timeout=self.engine_time(), progress=self.engine_progress,
                     **extra)

    def explicit_in_portfolio(self, cancelled: Callable[[], bool] | None) -> None:
        """The explicit-state search within its share of the portfolio's time; raises
        `_Answered` when it answers."""
        seconds = explicit_budget(self.options.timeout)
        if self.options.timeout is not None:
            seconds = min(seconds, max(0.5, (self.engine_time() or 0.0) - 1.0))
        latest = None if self.end is None else self.end - self.reserve - 1.0
        found = self.explore(seconds, latest=latest, cancelled=cancelled)
        self.clock.enter("engines")
        if found is not None:
            raise _Answered(found)

    def word_bmc_pays(self) -> bool:
        """Whether the portfolio runs the word-level BMC: on systems with memory objects (its
        bugs lie behind loops over arrays, which the DimSpec unroller cannot reach) of at most
        `WORD_BMC_MAX_TERMS` terms. On LLUMC's scalar programs it found nothing IC3 and
        k-induction did not, and beside them on 2 cores it doubled their times (token_ring.10:
        4.9 s -> 22 s) and cost TRUEs near the limit."""
        word = self.encoded.word
        return bool(word.memory_objects) and len(word.terms.table) <= WORD_BMC_MAX_TERMS

    def word_bmc(self, seconds: float, cancelled: Callable[[], bool] | None = None) -> None:
        """The word-level BMC (llumc/wordbmc/bmc.py) for at most `seconds`: raises `_Answered`
        with FALSE when its path replays natively; otherwise the other engines go on (a path
        the replay refutes is kept for refinement, as the other engines' are)."""
        from llumc.wordbmc.bmc import word_bmc

        if self.end is not None:
            seconds = min(seconds, max(0.1, self.end - self.reserve - time.monotonic()))
        self.say(f"word-level bmc (at most {seconds:.0f} s)")
        self.clock.enter("word-level bmc")
        deadline = time.monotonic() + seconds
        try:
            # in a child that is killed a little after its deadline: a Boolector call does not
            # always stop when its terminate callback asks (it ran 10 s past a 6 s budget)
            ran = call_in_child(lambda progress: word_bmc(self.encoded, deadline=deadline, progress=progress),
                                until=deadline + WORD_BMC_GRACE, cancelled=cancelled, progress=self.say)
        finally:
            self.clock.enter("engines")
        if ran.status in ("error", "died"):  # a crash of this engine must not take the others' verdicts down
            self.say(f"word-bmc: internal error, please report: {ran.reason}")
            self.word_bmc_reason = f"internal error: {ran.reason}"
            return
        if ran.status != "done":
            self.word_bmc_reason = ran.status
            if ran.status == "timeout":
                self.say(f"word-bmc: no answer (killed {WORD_BMC_GRACE} s past its {seconds:.0f} s)")
            return
        found = ran.value
        self.word_bmc_reason = f"{found.reason}, depth {found.steps}"
        if found.ended:
            self.ends_proof(found.steps)
        if found.status != "error":
            self.say(f"word-bmc: no answer ({found.reason}; depth {found.steps}, {found.sat_calls} SAT calls, "
                     f"{found.seconds:.1f} s)")
            return
        result = self.confirm(found.trace)
        result.engine, result.steps = "word-bmc", len(found.trace) - 1
        if result.verdict == "false" or _pool_bound_reached(result):
            raise _Answered(result)  # (at the allocation bound: no TRUE here, larger pools next)
        self.say(f"word-bmc: {result.reason}")

    def ends_proof(self, depth: int) -> None:
        """The word-level BMC saw every run leave main within `depth` steps, none reaching
        error (a bubble sort of 6 cells: 43 steps in a second, where k-induction needed 57 s to
        get there one depth at a time). A proof once the bit-level system shows the same by
        fresh SAT calls (`solvers.check.check_ends`: no path reaches G within depth + 1 steps,
        every path of depth + 1 steps is past main, and a state past main steps only to states
        past main): raises `_Answered` with TRUE then. One unrolling, linear in the depth,
        where the forward condition it replaced also compares the states pairwise. The
        members wait meanwhile (`Portfolio.paused`: on two cores beside three of them the
        check took twice as long), for at most half the engines' time left
        (`ENDS_CHECK_SHARE`); past it, or where the check fails, they go on."""
        from solvers.check import CheckFailed, CheckTimeout, check_ends
        from solvers.result import SolveResult

        members = self.members
        if members is not None and members.poll() is not None:
            return  # a member has answered: its answer is taken
        k = depth + 1
        ts = self.encoded.ts
        if k * (len(ts.trans) + len(ts.universal)) > ENDS_CHECK_MAX_CLAUSES:
            self.say(f"word-bmc: every run ends within {depth} steps, too deep to check that on the bit level")
            return
        sink = self.past_main()
        left = self.engine_time()
        deadline = None if left is None else time.monotonic() + ENDS_CHECK_SHARE * left
        self.say(f"word-bmc: every run ends within {depth} steps; checking that on the bit level at {k}")
        self.clock.enter("proof check")
        try:
            with members.paused() if members is not None else nullcontext():
                check_ends(ts, k, sink, deadline=deadline)
        except CheckTimeout:
            self.say(f"word-bmc: that every run ends within {k} steps was not checked in time")
            return
        except CheckFailed as err:
            self.say(f"word-bmc: that every run ends not confirmed ({err})")
            return
        finally:
            self.clock.enter("engines")
        answer = SolveResult("unsat", steps=k, engine="word-bmc", proof="ends", k=k, sink=sink,
                             stats={"member": "word-bmc"})
        raise _Answered(self.proof_check(answer, "word-bmc"))

    def past_main(self) -> list[int]:
        """The DimSpec cube of the states past main: the block variable at `ok`."""
        word = self.encoded.word
        index = word.state.index(word.curr)
        state = tuple(word.ok_code if i == index else 0 for i in range(len(word.state)))
        return TraceBits(self.encoded).cube(state, only={index})

    def explore(self, seconds: float, *, latest: float | None,
                cancelled: Callable[[], bool] | None = None) -> CheckResult | None:
        """The explicit-state engine (llumc/explicit/explore.py): TRUE with its state set checked
        by fresh SAT calls, FALSE with its path replayed natively, else None (the other engines
        go on, or one of them has answered: `cancelled`)."""
        from llumc.explicit.explore import explore

        prop = self.options.prop
        self.clock.enter("explicit-state search")
        self.say(f"explicit-state search (at most {seconds:.0f} s)")
        try:
            found = explore(self.encoded, deadline=time.monotonic() + seconds, solver=self.options.solver,
                            progress=self.say, compile_free=True, latest=latest, cancelled=cancelled)
        except Exception as err:  # a crash of this engine must not take the others' verdicts down
            self.say(f"explicit: internal error, please report: {type(err).__name__}: {err}")
            return None
        if found.status == "true":  # proven on the encoded system: strengthened=False
            if self.strengthening is not None:
                self.check_invariants_to_report()
            if found.invariant is not None:
                return CheckResult("true", prop, "explicit", invariant_clauses=len(found.invariant),
                                   confirmation=f"inductive invariant checked ({len(found.invariant)} clauses, "
                                                f"from the {found.states} reachable states enumerated)",
                                   strengthened=False)
            return CheckResult("true", prop, "explicit", strengthened=False,
                               confirmation=f"all {found.states} reachable states enumerated, the set checked "
                                            f"inductive and free of errors by fresh SAT calls")
        if found.status == "error":
            result = self.confirm(found.trace)
            result.engine, result.steps = "explicit", len(found.trace) - 1
            if result.verdict == "false" or _pool_bound_reached(result):
                return result  # (at the allocation bound: no TRUE here, larger pools next)
            self.say(f"explicit: {result.reason}")
            return None
        if found.reason != "cancelled":
            self.say(f"explicit: no answer ({found.reason}; {found.states} states, {found.seconds:.1f} s)")
        return None

    def check_invariants_to_report(self) -> None:
        """For an answer proven on the encoded system itself: the loop invariants go into the
        answer (and a witness) only once checked, which usually takes a fraction of a second;
        the verdict does not wait long for them."""
        from solvers.check import CheckFailed
        from solvers.strengthen import CheckTimeout

        try:
            self.strengthening.check(deadline=min(time.monotonic() + 5.0, self.end or float("inf")))
            self.invariants_checked = True
        except CheckTimeout:
            self.say("loop invariants: not reported (their check ran out of time)")
        except CheckFailed as err:
            self.say(f"loop invariants: not reported (internal error, please report: {err})")

    def proof_check(self, answer, used: str) -> CheckResult:
        """TRUE on an unsat answer whose proof `solvers.api.solve` checked, once the loop
        invariants it rests on are checked inductive on the original system too."""
        from solvers.check import CheckFailed
        from solvers.strengthen import CheckTimeout

        prop, encoded, strengthening = self.options.prop, self.encoded, self.strengthening
        if prop == "valid-memsafety" and self.options.memtrack is not False \
                and any(obj.heap for obj in memory_objects(encoded)) \
                and not any(fault.leak for fault in encoded.word.memory_faults):
            # valid-memsafety includes valid-memtrack (no leaks), which llumc does not check
            return CheckResult("unknown", prop, used, reason="memory leaks (valid-memtrack) are not checked "
                               "(more heap objects and pointer cells than the leak encoding takes)")
        if not answer.invariant and answer.invariant is not None and answer.engine != "ic3":
            return CheckResult("unknown", prop, used, reason="no invariant to check")
        clauses = len(answer.invariant) if answer.invariant is not None else None
        confirmation = describe_proof(answer)
        self.clock.enter("proof check")
        # the answer rests on the loop invariants unless its engine ran on the encoded system
        if strengthening is not None and answer.stats.get("member") in ("ic3", "word-bmc"):
            self.check_invariants_to_report()
            return CheckResult("true", prop, used, steps=answer.steps, invariant_clauses=clauses,
                               confirmation=confirmation, strengthened=False)
        if strengthening is None:
            return CheckResult("true", prop, used, steps=answer.steps, invariant_clauses=clauses,
                               confirmation=confirmation)
        # The engine's proof was checked on the strengthened system; it proves the program only
        # with the loop invariants inductive on the original one: checked here, by fresh
        # solvers, right before TRUE is said.
        try:
            strengthening.check(deadline=self.end)
        except CheckFailed as err:
            return CheckResult("unknown", prop, used, reason=f"internal error: {err}", internal_error=str(err))
        except CheckTimeout:
            return CheckResult("unknown", prop, used, reason="timeout while checking the loop invariants")
        kept = len(strengthening.kept)
        confirmation += (f", on the system strengthened by {kept} loop invariant"
                         f"{'' if kept == 1 else 's'} (checked inductive)")
        if strengthening.first is not None:
            confirmation += (f", its reads of abstract memory restricted by {strengthening.instances} instance"
                             f"{'' if strengthening.instances == 1 else 's'} of facts about every cell (checked "
                             "inductive on the unrestricted system)")
        # The invariants alone: with them, ¬error is 1-inductive (k-induction needed k = 1).
        # Known only when k-induction answered; IC3's answers leave it open (None).
        alone = (answer.proof == "k-induction" and answer.k == 1) if used == "kind" else None
        self.invariants_checked = True
        return CheckResult("true", prop, used, steps=answer.steps, invariant_clauses=clauses,
                           confirmation=confirmation, invariants_alone=alone, strengthened=True)

    def replay(self, answer, used: str) -> CheckResult:
        """FALSE on a sat answer whose trace replays natively to its error; else UNKNOWN."""
        result = self.confirm(answer.trace)
        result.engine, result.steps = used, answer.steps
        return result

    def confirm(self, trace: list[list[int]]) -> CheckResult:
        """FALSE if the trace replays natively; one with fewer arguments is looked for where
        its argc was more than a replay passes (main's parameters)."""
        o = self.options
        if o.summary_harness:
            return failing_fact(self.encoded, trace, o)
        self.clock.enter("replay")
        result = confirm_counterexample(self.encoded, trace, Path(self.path), m32=o.m32, clang=o.clang,
                                        ir_trace=o.ir_trace, timeout=_replay_timeout(self.end), progress=self.say)
        fewer = None
        if result.verdict != "false" and result.argc is not None and result.argc > MAX_REPLAY_ARGUMENTS:
            fewer = self.trace_with_fewer_arguments(len(trace) - 1)
        if fewer is not None:
            trace = fewer
            result = confirm_counterexample(self.encoded, fewer, Path(self.path), m32=o.m32, clang=o.clang,
                                            ir_trace=o.ir_trace, timeout=_replay_timeout(self.end),
                                            progress=self.say)
            if result.verdict == "false":
                result.confirmation += f" (the counterexample with fewer arguments BMC found, {len(fewer) - 1} steps)"
        if result.verdict != "false":
            self.refuted = (result, havoc_objects(self.encoded, trace))
        return result

    def refuted_through_havoc(self, result: CheckResult) -> list:
        """The abstract memory objects whose havoc reads the counterexample behind `result`
        used, when `result` is UNKNOWN because that counterexample is not evidence (the replay
        refuted it, or it ends in undefined behaviour no replay confirms); else []. A
        recursion deeper than its bound is not refined: the bound is deepened instead."""
        if self.refuted is None or self.refuted[0] is not result or result.verdict != "unknown":
            return []
        if result.error is not None and result.error.kind in ("recursion-bound", "allocation-bound"):
            return []
        return self.refuted[1]

    # the search for a counterexample with fewer arguments: at most this long, and this many
    # steps beyond the first counterexample's
    FEWER_ARGUMENTS_SECONDS = 30.0
    FEWER_ARGUMENTS_EXTRA_STEPS = 8

    def trace_with_fewer_arguments(self, steps: int) -> list[list[int]] | None:
        """A trace (BMC, checked) of the system with argc below what a replay passes, or None."""
        from solvers.api import solve

        system = with_fewer_arguments(self.encoded)
        if system is None:
            return None
        seconds = self.FEWER_ARGUMENTS_SECONDS
        if self.end is not None:
            seconds = min(seconds, self.end - time.monotonic() - 1.0)
        if seconds <= 0:
            return None
        self.say(f"bmc: a counterexample with fewer than {MAX_REPLAY_ARGUMENTS + 1} arguments "
                 f"(at most {seconds:.0f} s)")
        found = solve(system, engine="bmc", solver=self.options.solver, timeout=seconds,
                      max_steps=steps + self.FEWER_ARGUMENTS_EXTRA_STEPS, completeness=False)
        return found.trace if found.status == "sat" else None
