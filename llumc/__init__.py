"""llumc: an unbounded software model checker for C (the LLUMC encoding, DimSpec, IC3)."""

__version__ = "0.1.0"


def child_environment() -> dict[str, str]:
    """os.environ with the directory this llumc was imported from first on PYTHONPATH: a child
    `python -m llumc...` then runs the same llumc as its parent, wherever that came from (a
    checkout, a frozen copy of a commit, a worktree, an install)."""
    import os
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
