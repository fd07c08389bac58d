"""How close this process is to running out of memory, so that an engine can stop with UNKNOWN
before an allocation fails: CaDiCaL then aborts the whole process (SIGABRT) and Python raises
MemoryError in the middle of a step. Linux only (/proc); elsewhere the check never fires."""

from __future__ import annotations

import functools
import os
import resource

STOP_AT = 0.8  # fraction of the limit at which an engine stops


@functools.cache
def _page_size() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return 4096


@functools.cache
def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PHYS_PAGES") * _page_size()
    except (ValueError, OSError):
        return None


def near_limit(fraction: float | None = None) -> bool:
    """Whether the address space used exceeds `fraction` (default `STOP_AT`) of the soft
    RLIMIT_AS (as `llumc bench` and `ulimit -v` set it), or the resident set that fraction of
    the physical memory."""
    if fraction is None:
        fraction = STOP_AT
    try:
        with open("/proc/self/statm") as statm:
            size_pages, resident_pages = (int(x) for x in statm.read().split()[:2])
    except (OSError, ValueError):
        return False
    page = _page_size()
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY and size_pages * page > fraction * soft:
        return True
    physical = _physical_memory()
    return physical is not None and resident_pages * page > fraction * physical
