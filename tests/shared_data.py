"""Where the workplace's shared data lives: `shared/` beside the checkout (as CI lays it out),
else /work/shared. Tests that read it say so in their names; the data is input, not a fixture."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = next((p for p in (ROOT.parent / "shared", Path("/work/shared")) if p.is_dir()), ROOT.parent / "shared")

# Shortest path lengths of the small shared DimSpec files, from dimspec/README (an independent
# unroller). freecell (7) takes IC3 about 20 s: test_ic3 has one test of its own for it.
DIMSPEC_DEPTHS = [
    ("incplan/mini1.cnf", 1),
    ("incplan/mini2.cnf", 2),
    ("minireachic3/test2.spec", 1),
    ("minireachic3/test3.spec", 1),
    ("minireachic3/test4.spec", 3),
    ("minireachic3/test5.spec", 3),
]
