"""Where the workplace's shared data lives: `shared/` beside the checkout (as CI lays it out),
else /work/shared. Tests that read it say so in their names; the data is input, not a fixture."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = next((p for p in (ROOT.parent / "shared", Path("/work/shared")) if p.is_dir()), ROOT.parent / "shared")
