"""Counterexample-guided refinement of abstract memory (docs/memory.md, "Refinement").

A large memory object is *abstract*: a read of it returns its tracked cell or any value (a
havoc input). A counterexample whose path used such a value may be one the program cannot
take, and the native replay refutes it. That is evidence about the model, not an answer: the
objects whose havoc reads the path used (`havoc_objects`, from the trace's own values) are
made exact (`next_refinement`, within a budget of cells) and the check runs again on the
system encoded with them exact (`llumc.check.portfolio`). Refinement only removes abstraction
— an exact object is encoded as every small object is — so each round's system is at least as
precise as the one before, and its TRUE and FALSE are proven and replayed as ever.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass

from llumc.check.counterexample import memory_objects
from llumc.encoding.memory import MemoryObject, can_be_exact
from llumc.encoding.terms import evaluate
from llumc.frontend.compile import MAX_UNINIT_BITS
from llumc.pipeline import EncodeResult, read_symbol_map, step_values

# Cells all refinements of one check may make exact together. The exact encoding costs about
# 590 clauses per cell (docs/memory.md); 4096 int cells were measured at 2.4 M clauses and half
# a minute of encoding, more than most checks have left for a round.
REFINE_CELLS = int(os.environ.get("LLUMC_REFINE_CELLS", "4096"))
# rounds of refinement at most: each re-encodes and reruns the engines
MAX_REFINEMENTS = 4


@dataclass
class Refinement:
    """One round: what was made exact, and the counterexample that asked for it."""

    objects: list[str]  # C names of the objects made exact
    cells: int  # their cells together
    counterexample: str  # why the refuted counterexample was not an answer (its UNKNOWN reason)
    ir_names: tuple[str, ...] = ()  # the objects as the encoder knows them (`exact_objects`)
    # the round after the first, which had objects within the encoder's exact bound abstract
    # (llumc.check.portfolio.PROOF_EXACT_CELLS): outside the budget, as they are exact by default
    first_round: bool = False

    def to_json(self) -> dict:
        data = asdict(self)
        del data["ir_names"]
        return data


def havoc_objects(encoded: EncodeResult, trace: list[list[int]]) -> list[MemoryObject]:
    """The abstract objects a trace read havoc values from (one of their
    `MemoryObject.havoc_reads` holds in one of its steps), in object order."""
    candidates = [obj for obj in memory_objects(encoded) if obj.havoc_reads]
    if not candidates or len(trace) < 2:
        return []
    symbols = read_symbol_map(encoded.ts.comments)
    used: set[int] = set()
    for step in range(len(trace) - 1):
        leaves = step_values(encoded, symbols, trace[step])
        cache: dict[int, int] = {}
        for obj in candidates:
            if obj.id not in used and any(evaluate(read, leaves, cache) for read in obj.havoc_reads):
                used.add(obj.id)
        if len(used) == len(candidates):
            break
    return [obj for obj in candidates if obj.id in used]


def cells_of(obj: MemoryObject) -> int:
    return obj.size // obj.cell if obj.cell else obj.size


def _why_not_exact(obj: MemoryObject) -> str:
    """Why `can_be_exact` refuses an object, in words."""
    if obj.size_operands:
        return f"'{obj.c_name}' has a nondeterministic size"
    if not (obj.static or obj.heap) and 8 * obj.size > MAX_UNINIT_BITS:
        return f"'{obj.c_name}' is a local of more than {MAX_UNINIT_BITS // 8} bytes"
    return f"'{obj.c_name}' cannot be made exact"


def can_refine(used: list[MemoryObject]) -> bool:
    """Whether some object a refuted path read havoc values of could be made exact, the budget
    aside: where none can (summaries, objects of nondeterministic size; no object at all), no
    round of refinement helps, and a proof on this abstraction is what is left."""
    return any(can_be_exact(obj) for obj in used)


def next_refinement(used: list[MemoryObject], rounds: list[Refinement], reason: str) -> Refinement | str:
    """The next round after a counterexample (refuted for `reason`) read havoc values of the
    objects `used`, given the rounds so far: the objects to make exact, or why refinement is
    exhausted (no round left; none of them can be made exact within the budget)."""
    budgeted = [r for r in rounds if not r.first_round]
    if len(budgeted) >= MAX_REFINEMENTS:
        return f"refinement exhausted: {MAX_REFINEMENTS} rounds done"
    if not can_refine(used):
        return "refinement exhausted: " + "; ".join(_why_not_exact(obj) for obj in used)
    spent = sum(r.cells for r in budgeted)
    chosen: list[MemoryObject] = []
    refused: list[str] = []
    for obj in used:
        cells = cells_of(obj)
        if not can_be_exact(obj):
            refused.append(_why_not_exact(obj))
        elif spent + cells > REFINE_CELLS:
            refused.append(f"'{obj.c_name}' has {cells} cells, beyond the {REFINE_CELLS - spent} left of "
                           f"the refinement budget ({REFINE_CELLS} cells, LLUMC_REFINE_CELLS)")
        else:
            chosen.append(obj)
            spent += cells
    if not chosen:
        return "refinement exhausted: " + "; ".join(refused)
    return Refinement([obj.c_name for obj in chosen], sum(cells_of(obj) for obj in chosen), reason,
                      tuple(obj.ir_name for obj in chosen))
