"""What an engine answers: a checked path, a checked invariant, or unknown with a reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from solvers.transys import Clause

Status = Literal["sat", "unsat", "unknown"]


@dataclass
class SolveResult:
    status: Status
    # sat: the path length k (number of transitions); unknown: the depth/frame reached;
    # unsat: the IC3 frame at which the invariant closed; k of a "forward" or "k-induction" proof.
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
    # unsat: what the proof is, each checked by fresh SAT solvers (`solvers.check`):
    #   "invariant"    IC3: `invariant` is inductive and excludes G;
    #   "forward"      no path from I reaches G within 0..k−1 steps, and no path from I has k steps
    #                  over pairwise different states (every execution ends before: completeness);
    #   "k-induction"  no path from I reaches G within 0..k−1 steps, and no k+1 pairwise different
    #                  states linked by T with G in the last only (the step case);
    #   "ends"         no path from I reaches G within 0..k steps, every path of k steps ends in
    #                  `sink`, which T never leaves and G does not meet (a program's runs all end).
    # None for sat and unknown.
    proof: str | None = None
    k: int | None = None
    # "ends" only: the end states, a cube over 1..n
    sink: list[int] | None = None
    # "k-induction" only: definitions of goal variables that no other section mentions, as
    # (output, its clauses of G) in dependency order; the step case negates G with them in force
    # (`solvers.check.check_k_induction` verifies that they define their outputs totally).
    goal_definitions: list[tuple[int, list[Clause]]] | None = None
