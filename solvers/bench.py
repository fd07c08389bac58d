"""The six AIGER circuits of the shared aiger/ folder with IC3 and BMC next to ABC's `pdr`
(part of `make bench-solvers`; a benchmark, not a test).

Each engine runs as a real `python -m solvers FILE --json` child process, so the wall time
includes Python start-up, reading the circuit and checking the answer (trace replay or invariant
proof) — what a user waits for. ABC (Debian's `berkeley-abc`, or `abc`) is an oracle only at
benchmark time; without it the ABC column says so. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = next((p for p in (ROOT.parent / "shared", Path("/work/shared")) if p.is_dir()), ROOT.parent / "shared")
AIGER_DIR = SHARED / "aiger" / "minireachic3"
# Verdicts from the shared README (ABC and minireachIC3 agree).
EXPECTED = {"a": "sat", "b": "sat", "c": "unsat", "d": "unsat", "e": "unsat", "f": "unsat"}
WORD = {"sat": "unsafe", "unsat": "safe"}


def run_solve(path: Path, args: list[str], timeout: float) -> dict:
    """One `python -m solvers` run: its JSON answer plus the wall time (load + solve + check)."""
    command = [sys.executable, "-m", "solvers", str(path), *args, "--json", "--quiet", "--timeout", str(timeout)]
    started = time.monotonic()
    try:
        proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout + 120)
    except subprocess.TimeoutExpired:
        return {"status": "hang", "wall": time.monotonic() - started}
    wall = time.monotonic() - started
    if proc.returncode in (0, 10, 20) and proc.stdout.strip():
        answer = json.loads(proc.stdout)
        answer["wall"] = wall
        return answer
    last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
    return {"status": f"error (exit {proc.returncode}): {last[:80]}", "wall": wall}


def abc_binary() -> str | None:
    return shutil.which("berkeley-abc") or shutil.which("abc")


def run_abc(binary: str, path: Path, timeout: float) -> dict:
    started = time.monotonic()
    try:
        proc = subprocess.run([binary, "-c", f"read {path}; pdr"], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "unknown", "wall": time.monotonic() - started}
    wall = time.monotonic() - started
    out = proc.stdout
    if "Property proved" in out:
        status = "unsat"
    elif re.search(r"Output \d+ of miter .* was asserted in frame \d+", out) or "was asserted" in out:
        status = "sat"
    else:
        status = "unknown"
    return {"status": status, "wall": wall}


def cell(answer: dict, expected: str) -> str:
    status = answer["status"]
    if status in WORD:
        mark = "" if status == expected else " **WRONG**"
        steps = f" ({answer['steps']} steps)" if status == "sat" and answer.get("steps") is not None else ""
        return f"{WORD[status]}{steps} {answer['wall']:.2f} s{mark}"
    return f"{status} ({answer['wall']:.0f} s)"


def machine_note() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            names = [line.split(":", 1)[1].strip() for line in info if line.startswith("model name")]
        cpu = names[0] if names else cpu
    except OSError:
        pass
    load = os.getloadavg()[0]
    return f"{os.cpu_count()} cores, {cpu}, load average {load:.1f} at the end"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per engine per circuit (IC3, ABC)")
    parser.add_argument("--bmc-timeout", type=float, default=60.0, help="seconds per circuit for BMC")
    parser.add_argument("circuits", nargs="*", default=sorted(EXPECTED), help="subset of a..f")
    args = parser.parse_args(argv)
    abc = abc_binary()
    print("| circuit | expected | IC3 | BMC | ABC pdr | IC3 / ABC |")
    print("|---|---|---|---|---|---|")
    for name in args.circuits:
        path = AIGER_DIR / f"{name}.aig"
        expected = EXPECTED[name]
        ic3 = run_solve(path, ["--ic3"], args.timeout)
        bmc = run_solve(path, ["--bmc"], args.bmc_timeout)
        if abc is None:
            abc_cell, ratio = "ABC not installed", "–"
        else:
            abc_answer = run_abc(abc, path, args.timeout)
            abc_cell = cell(abc_answer, expected)
            solved = ic3["status"] == expected and abc_answer["status"] == expected
            ratio = f"{ic3['wall'] / abc_answer['wall']:.1f}×" if solved else "–"
        print(f"| {name}.aig | {WORD[expected]} | {cell(ic3, expected)} | {cell(bmc, expected)} | {abc_cell} | {ratio} |",
              flush=True)
    print()
    print(f"Wall times per run (start-up, reading, solving, checking); IC3/ABC limit {args.timeout:.0f} s, "
          f"BMC limit {args.bmc_timeout:.0f} s; {machine_note()}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
