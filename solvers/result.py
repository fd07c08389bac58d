"""What an engine answers: a checked path, a checked invariant, or unknown with a reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Status = Literal["sat", "unsat", "unknown"]


@dataclass
class SolveResult:
    status: Status
    # sat: the path length k (number of transitions); unknown: the depth/frame reached;
    # unsat: the IC3 frame at which the invariant closed (None for other engines).
    steps: int | None = None
    # sat: k+1 full assignments of 1..n, one per time step, as signed literals ordered by
    # variable (trace[i][j-1] is j or -j). Auxiliary variables (inputs) included.
    trace: list[list[int]] | None = None
    # unsat: an inductive invariant as CNF over state variables of 1..n; of the reversed system
    # (`TransitionSystem.reversed`) when `direction` is "backward".
    invariant: list[list[int]] | None = None
    reason: str | None = None
    engine: str = ""
    # Which way the engine searched: "forward" from I, or "backward" from G (IC3 on the reversed
    # system); "both" for an unknown answer after IC3 searched both ways. A trace is always
    # given forwards, from I to G.
    direction: str = "forward"
    stats: dict[str, float | int] = field(default_factory=dict)
