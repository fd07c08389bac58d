"""Pause Python's cyclic garbage collector while a pipeline stage builds large structures.

Why: the encoder allocates millions of small objects that stay alive (IR lines, instructions,
terms, AIG nodes, clauses). Every few hundred allocations the collector scans a generation, and
the full collections it triggers as the heap grows walk everything alive: on Problem07 (RERS)
they were about half the CPU time of the large-block encoding and of the bit-blasting
(`python -m cProfile` put the time into whatever function allocated). These stages create no
reference cycles worth collecting early; reference counting still frees everything else, and
the collector runs again as soon as the outermost pause ends.
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
            gc.enable()
