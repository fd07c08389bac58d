"""Pause Python's cyclic garbage collector while a pipeline stage builds large structures.

Why: the encoder allocates millions of small objects that stay alive (IR lines, instructions,
terms, AIG nodes, clauses). Every few hundred allocations the collector scans a generation, and
the full collections it triggers as the heap grows walk everything alive: on Problem07 (RERS)
they were about half the CPU time of the large-block encoding and of the bit-blasting
(`python -m cProfile` put the time into whatever function allocated). These stages create no
reference cycles (`gc.collect()` after encoding Problem07 finds nothing to free, with the
result alive or dropped); reference counting frees what they drop.

When the outermost pause ends, what is alive is frozen (`gc.freeze`) before the collector is
enabled again: otherwise its first collection walks every object allocated during the pause
(0.7 s at the end of encoding Problem07) and each later full collection walks them again (1 s
each there), for no garbage. Frozen objects are still freed by reference counting; only a
cycle among them would never be collected.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()
            gc.enable()
