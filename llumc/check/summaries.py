"""Proofs of recursive programs by procedure summaries (llumc.frontend.summaries says what a
summary is and why the proof is sound): the candidate facts, a Houdini fixpoint that checks
each function's body against them with the engines (a fact a counterexample breaks is dropped,
the rest checked again), then main with every call into the cycle replaced by the facts.

Every step is an ordinary check of a program llumc builds from the program's own IR: a TRUE of
each comes with the engines' proof, checked by fresh SAT calls, so the summaries' TRUE rests on
checked proofs only. A FALSE of the summarised main is replayed natively on the real program,
so it is a real bug; anything else is UNKNOWN and the caller goes on without summaries."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

from llumc.check.counterexample import decode_trace, error_sites
from llumc.check.result import CheckResult, ErrorSite, Progress
from llumc.frontend.compile import SUMMARY_CHECK_PREFIX, Checks, classify_call, source_ir
from llumc.frontend.summaries import (Fact, candidate_facts, harness_text, pure_cycles, strongest, summarized_text,
                                     unsigned_positions)

__all__ = ["prove_with_summaries"]

# Houdini rounds at most (each drops one fact; the candidates agree with concrete runs, so few fail)
MAX_ROUNDS = 40


def failing_fact(encoded, trace: list[list[int]], options) -> CheckResult:
    """What a counterexample of a summary harness says: the fact that fails (by the error call
    it ends in), or an error inside the recursive function. Not replayed: the harness is no C
    program."""
    steps, _ = decode_trace(encoded, trace)
    sites = error_sites(encoded, steps[-1].blocks) if steps else []
    for site in sites:
        match = re.match(re.escape(SUMMARY_CHECK_PREFIX) + r"(\d+)\(\)", site.description)
        if match:
            return CheckResult("unknown", options.prop, options.engine, reason=f"summary fact {match.group(1)} fails",
                               error=ErrorSite("summary-fact", None, match.group(1)))
    return CheckResult("unknown", options.prop, options.engine,
                       reason="an error inside the recursive function, for some arguments")


def prove_with_summaries(path: str | Path, options, run: Callable, progress: Progress | None,
                         deadline: float) -> CheckResult | None:
    """TRUE (with the summaries) or a replayed FALSE of the summarised program, else None.
    `run(options)` is one check of `path` (`llumc.check.portfolio.CheckSchedule`) with options
    such as these (`dataclasses.replace` of them), `ir_transform` and `summary_harness` set."""
    say = progress or (lambda _message: None)
    checks = Checks(overflow=options.prop in ("no-overflow", "all"))
    try:
        text = source_ir(Path(path), m32=options.m32, clang=options.clang, checks=checks, wrapv=not checks.overflow)
    except Exception:  # the check proper reports the front end's errors
        return None
    cycles = pure_cycles(text, classify_call)
    if cycles is None:
        return None
    facts, functions = candidate_facts(text, cycles, classify_call)
    if not facts:
        return None
    say(f"procedure summaries: {len(facts)} candidate facts from concrete runs")
    facts = _houdini(options, run, cycles, facts, deadline, say)
    if not facts or time.monotonic() > deadline - 1.0:
        return None
    say(f"procedure summaries: {len(facts)} facts proven; checking main with them")
    final = run(replace(options, timeout=deadline - time.monotonic(),
                        ir_transform=lambda t: summarized_text(t, cycles, facts)))
    if final.verdict == "true":
        names = {name: [p.lstrip("%") for p, _ in fn.parameters] for name, fn in functions.items()}
        unsigned = {name: unsigned_positions(text, name) for name in names}
        final.summaries = [{"function": f.function, "expression": f.c_text(names[f.function], unsigned[f.function])}
                           for f in strongest(facts)]
        final.confirmation = (f"{final.confirmation}; with procedure summaries ({len(facts)} facts), proven by "
                              f"induction over the calls: each body checked with its calls replaced by them")
        return final
    return final if final.verdict == "false" else None


def _houdini(options, run: Callable, cycles, facts: list[Fact], deadline: float, say) -> list[Fact]:
    """The greatest subset of `facts` that every function's body keeps (empty: none)."""
    names = sorted(set().union(*cycles))
    for _ in range(MAX_ROUNDS):
        dropped = None
        for name in names:
            left = deadline - time.monotonic()
            if left < 1.0:
                return []
            current = list(facts)
            transform = (lambda function, kept: lambda t: harness_text(t, cycles, kept, function))(name, current)
            result = run(replace(options, timeout=min(left, max(5.0, left / 3)), ir_transform=transform,
                                 summary_harness=True))
            if result.verdict == "true":
                continue
            if result.error is not None and result.error.kind == "summary-fact":
                dropped = int(result.error.description)
                break
            say(f"procedure summaries: {result.reason}")
            return []
        if dropped is None:
            return facts
        say(f"procedure summaries: dropped a fact of {facts[dropped].function} (a counterexample breaks it)")
        facts = facts[:dropped] + facts[dropped + 1:]
        if not facts:
            return []
    return []
