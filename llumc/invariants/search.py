"""The invariant search as `llumc check` runs it: simulate, propose, keep what is inductive."""

from __future__ import annotations

import time
from collections.abc import Callable

from llumc.pipeline import EncodeResult
from llumc.invariants.candidates import propose
from llumc.invariants.houdini import CANCELLED, SearchReport, Strengthening, strengthen
from llumc.invariants.simulate import scaled_constants, simulate

# Share of the search's time the concrete runs may take: Houdini needs the rest (usually far
# less than the runs; the runs stop early once every loop head has its samples).
SIMULATION_SHARE = 0.4
# Share of the runs' time the scaled runs (`scaled_constants`) may take, before the others
SCALED_SHARE = 0.25


def find_invariants(encoded: EncodeResult, *, deadline: float, seed: int = 0,
                    solver: str = "cadical195", cancelled: Callable[[], bool] | None = None
                    ) -> tuple[Strengthening | None, SearchReport]:
    """Loop invariants of the encoded program, checked inductive on its transition system by
    fresh SAT calls (`Strengthening.check`), or None with the reason in the report.
    `cancelled()`, asked between the search's steps and Houdini's rounds: the caller no longer
    needs the facts (an engine beside the search has answered); the rounds not run are left
    pending in the report, as if out of time."""
    started = time.monotonic()
    stop = cancelled or (lambda: False)
    runs_end = started + SIMULATION_SHARE * max(0.0, deadline - started)
    word = encoded.word
    scale = scaled_constants(word) if len(word.blocks) > 3 else None
    scaled = None
    if scale is not None:  # first: the other runs may use all their time on the first long loop
        scaled = simulate(word, seed=seed, seconds=None, scale=scale,
                          deadline=started + SCALED_SHARE * (runs_end - started))
    # where the scaled runs reached every loop head, the long runs are left out: a loop after
    # one of 100 000 iterations is not reached in their time, the hints are there already
    reached = scaled is not None and all(scaled.states.get(b.name) for b in word.blocks[:-2])
    samples = simulate(word, seed=seed, seconds=None, deadline=runs_end, long_runs=not reached)
    if scaled is not None:
        samples.scaled = {cut: states for cut, states in scaled.states.items()
                          if states and not samples.states.get(cut)}
        samples.scale = scale
    if stop():
        return None, SearchReport(samples=samples.count, seconds=time.monotonic() - started,
                                  reason=CANCELLED)
    candidates = propose(encoded.word, encoded.debug, samples, fn=encoded.fn)
    result, report = strengthen(encoded, candidates, deadline=deadline, solver=solver, cancelled=stop)
    report.samples = samples.count
    report.seconds = time.monotonic() - started
    return result, report
