"""Benchmarking: `llumc bench` (`runner`, `dist` for a Dask cluster) scores `llumc check` on SV-COMP
tasks; the other modules are the `make bench-*` scripts (run by Makefile targets, never by the tests)."""

from pathlib import Path

# The workplace's shared data: `shared/` beside the checkout, else /work/shared.
_ROOT = Path(__file__).resolve().parents[2]
SHARED = next((p for p in (_ROOT.parent / "shared", Path("/work/shared")) if p.is_dir()), _ROOT.parent / "shared")
PUBLICATIONS = SHARED / "benchmarks" / "llumc-publications"
