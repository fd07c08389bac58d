"""Time per engine per file for the DimSpec toolkit (`make bench-solvers`).

DimSpec part: every file of the shared dimspec/ folder (depths known from its README) and of
dimspec_samples/, with BMC and IC3, each run as a real `python -m solvers FILE --json` child
process (so a crash or a hang of one engine cannot spoil the others). Then BMC on freecell
with other SAT solvers and schedules. Prints Markdown tables.

The AIGER/ABC part (the six circuits next to ABC's `pdr`) is `solvers/bench.py`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from llumc.bench import SHARED
from solvers.bench import run_solve

ROOT = Path(__file__).resolve().parents[2]
SHARED_DIMSPEC = SHARED / "dimspec"
# Shortest path lengths from the shared README (computed there by an independent unroller).
README_DEPTHS = {
    "incplan/mini1.cnf": 1,
    "incplan/mini2.cnf": 2,
    "minireachic3/test2.spec": 1,
    "minireachic3/test3.spec": 1,
    "minireachic3/test4.spec": 3,
    "minireachic3/test5.spec": 3,
    "minireachic3/freecell.spec": 7,
}


def cell(answer: dict) -> str:
    status = answer["status"]
    if status == "sat":
        verdict = f"sat {answer['steps']}"
    elif status == "unknown":
        verdict = f"unknown ({(answer.get('reason') or '').split(' (')[0]})"
    else:
        verdict = status
    if answer.get("direction") == "backward":  # IC3 answered from the goal (`--direction`)
        verdict += " (backward)"
    return f"{verdict}, {answer['wall']:.2f} s"


def dimspec_table(timeout: float) -> None:
    files: list[tuple[str, Path, str]] = []
    if SHARED_DIMSPEC.exists():
        for name, depth in README_DEPTHS.items():
            files.append((name, SHARED_DIMSPEC / name, f"reachable in {depth}"))
    for path in sorted((ROOT / "dimspec_samples").glob("*.dimspec")):
        files.append((f"dimspec_samples/{path.name}", path, "?"))
    print(f"### DimSpec files, both engines (timeout {timeout:g} s; wall time of `python -m solvers "
          "FILE --json`, i.e. parse + solve + check)\n")
    print("| file | expected | BMC (cadical195) | IC3 |")
    print("|---|---|---|---|")
    for name, path, expected in files:
        bmc = run_solve(path, ["--bmc"], timeout)
        ic3 = run_solve(path, ["--ic3"], timeout)
        print(f"| {name} | {expected} | {cell(bmc)} | {cell(ic3)} |", flush=True)
    print()


def freecell_table(timeout: float) -> None:
    path = SHARED_DIMSPEC / "minireachic3/freecell.spec"
    if not path.exists():
        return
    print("### BMC on freecell.spec (n = 1481, 118 814 U clauses; depth 7) by solver and schedule\n")
    print("| solver | schedule | answer, wall |")
    print("|---|---|---|")
    for solver, schedule in [("cadical195", "linear"), ("cadical195", "every:3"), ("cadical195", "exp"),
                             ("cadical153", "linear"), ("glucose4", "linear"), ("minisat22", "linear")]:
        answer = run_solve(path, ["--bmc", "--solver", solver, "--schedule", schedule], timeout)
        print(f"| {solver} | {schedule} | {cell(answer)} |", flush=True)
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    args = parser.parse_args(argv)
    dimspec_table(args.timeout)
    freecell_table(args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
