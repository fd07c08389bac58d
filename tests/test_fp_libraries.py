"""The float-lowering bench (llumc/bench/fp_libraries.py) on its quick queries: our circuits
give each query's expected answer, and so do z3's and Bitwuzla's FP theories where they are
installed (bench only: not llumc dependencies, so those cases skip without them)."""

from __future__ import annotations

import importlib.util

import pytest

from llumc.bench.fp_libraries import BACKENDS, QUERIES, llumc_size, solve_query
from llumc.encoding.floats import DOUBLE, SINGLE

QUICK = ["nan", "int-float inexact", "int-float exact", "filter step", "x*x == 2 float"]
MODULES = {"llumc": None, "z3": "z3", "bitwuzla": "bitwuzla"}


@pytest.mark.parametrize("backend", list(BACKENDS))
@pytest.mark.parametrize("name", QUICK)
def test_quick_queries(name: str, backend: str) -> None:
    module = MODULES[backend]
    if module is not None and importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} not installed (bench only)")
    expected = next(q.expected for q in QUERIES if q.name == name)
    answer, _, _ = solve_query(name, backend)
    assert answer == expected


def test_our_sizes_are_counted() -> None:
    """fadd's circuit: its AND nodes and clauses are counted, binary64's larger than binary32's."""
    small, large = llumc_size("fadd", SINGLE), llumc_size("fadd", DOUBLE)
    assert 0 < small["and"] < large["and"] and 0 < small["clauses"] < large["clauses"]
