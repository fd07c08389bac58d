"""The invariant search as `llumc check` runs it: simulate, propose, keep what is inductive."""

from __future__ import annotations

import time

from llumc.pipeline import EncodeResult
from llumc.invariants.candidates import propose
from llumc.invariants.houdini import SearchReport, Strengthening, strengthen
from llumc.invariants.simulate import simulate

# Share of the search's time the concrete runs may take: Houdini needs the rest (usually far
# less than the runs; the runs stop early once every loop head has its samples).
SIMULATION_SHARE = 0.4


def find_invariants(encoded: EncodeResult, *, deadline: float, seed: int = 0,
                    solver: str = "cadical195") -> tuple[Strengthening | None, SearchReport]:
    """Loop invariants of the encoded program, checked inductive on its transition system by
    fresh SAT calls (`Strengthening.check`), or None with the reason in the report."""
    started = time.monotonic()
    samples = simulate(encoded.word, seed=seed, seconds=None,
                       deadline=started + SIMULATION_SHARE * max(0.0, deadline - started))
    candidates = propose(encoded.word, encoded.debug, samples, fn=encoded.fn)
    result, report = strengthen(encoded, candidates, deadline=deadline, solver=solver)
    report.samples = samples.count
    report.seconds = time.monotonic() - started
    return result, report
