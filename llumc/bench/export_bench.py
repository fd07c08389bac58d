"""AIGER export against an outside oracle (`make bench-export`; a benchmark, not a test).

Part 1, LLUMC's set: each program of a sample (unreach-call, ILP32; verdict by directory) is
written as AIGER by `llumc encode --format aiger --32`, then solved by ABC's `pdr` (Debian's
`berkeley-abc`; `read; logic; undc; strash; zero; fold; pdr`: `undc` and `zero` turn the
uninitialised latches into zero-initialised ones behind inputs, `fold` folds the invariant
constraints into the property, as ABC's maintainers advise for AIGER 1.9) and by `llumc solve
--kind` on the AIGER file, beside llumc's own verdict on the C program (`llumc check --32`,
loop invariants and its portfolio). Without ABC the ABC column says so.

Part 2, the project's own programs (tests/programs, loops/): `llumc solve --kind` on DimSpec and
AIGER with a long budget, the full-length version of tests/test_export.py's comparison.

Every run is its own process with a timeout. Prints Markdown tables; exit 1 on a disagreement
between two definite verdicts, or with the directory's verdict.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from llumc.bench import PUBLICATIONS

ROOT = Path(__file__).resolve().parents[2]
# Ten programs of LLUMC's set (unreach-call), five per verdict, on which ABC's pdr answered
# within 25 s when they were chosen (a probe of 30 small ones; it also proved the unreach-call
# property of jain_1/2/4_false-no-overflow, whose tags are about overflow only).
SAMPLE = [
    "FALSE/diamond_false-unreach-call1.c",
    "FALSE/kundu1_false-unreach-call_false-termination.cil.c",
    "FALSE/kundu2_false-unreach-call_false-termination.cil.c",
    "FALSE/pc_sfifo_1_false-unreach-call_false-termination.cil.c",
    "FALSE/test_locks_14_false-unreach-call_true-valid-memsafety_false-termination.c",
    "TRUE/bist_cell_true-unreach-call_false-termination.cil.c",
    "TRUE/count_by_1_true-unreach-call_true-termination.c",
    "TRUE/diamond_true-unreach-call2.c",
    "TRUE/jain_1_true-unreach-call_true-no-overflow_false-termination.c",
    "TRUE/jain_2_true-unreach-call_true-no-overflow_false-termination.c",
]
ABC_SCRIPT = "read {path}; logic; undc; strash; zero; fold; pdr"
WORD = {"sat": "FALSE", "unsat": "TRUE"}


def abc_binary() -> str | None:
    return shutil.which("berkeley-abc") or shutil.which("abc")


def run(command: list[str], timeout: float) -> tuple[subprocess.CompletedProcess | None, float]:
    started = time.monotonic()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - started
    return proc, time.monotonic() - started


def run_abc(binary: str, path: Path, timeout: float) -> tuple[str, float]:
    proc, wall = run([binary, "-c", ABC_SCRIPT.format(path=path)], timeout)
    if proc is None:
        return "timeout", wall
    if "Property proved" in proc.stdout:
        return "unsat", wall
    if re.search(r"was asserted in frame \d+", proc.stdout):
        return "sat", wall
    return "error: " + ((proc.stdout + proc.stderr).strip().splitlines() or ["no output"])[-1][:60], wall


def run_solve(path: Path, engine: str, timeout: float) -> tuple[str, float]:
    command = [sys.executable, "-m", "llumc", "solve", str(path), f"--{engine}", "--json", "--quiet",
               "--timeout", str(timeout)]
    proc, wall = run(command, timeout + 60)
    if proc is None:
        return "hang", wall
    if proc.returncode in (0, 10, 20) and proc.stdout.strip():
        answer = json.loads(proc.stdout)
        status = answer["status"]
        return (f"sat {answer.get('steps')}" if status == "sat" else status), wall
    return f"error (exit {proc.returncode})", wall


def run_check(program: Path, timeout: float) -> tuple[str, float]:
    """llumc's verdict on the C program, as sat (FALSE) / unsat (TRUE) / unknown."""
    command = [sys.executable, "-m", "llumc", "check", str(program), "--32", "--json", "--quiet",
               "--timeout", str(timeout)]
    proc, wall = run(command, timeout + 60)
    if proc is None:
        return "hang", wall
    try:
        answer = json.loads(proc.stdout)
    except ValueError:
        return f"error (exit {proc.returncode})", wall
    return {"false": "sat", "true": "unsat"}.get(answer.get("verdict"), "unknown"), wall


def encode(program: Path, fmt: str, out: Path, m32: bool) -> tuple[str | None, bool]:
    """None or why the encoding failed, and whether the program was refused as bad input (exit 2:
    the front end does not support it) rather than by an error."""
    command = [sys.executable, "-m", "llumc", "encode", str(program), "--format", fmt, "-o", str(out), "--stats"]
    proc, _wall = run(command + (["--32"] if m32 else []), 600)
    if proc is None or proc.returncode != 0:
        why = "timeout" if proc is None else (proc.stderr.strip().splitlines() or ["?"])[-1][:70]
        return f"encode failed: {why}", proc is not None and proc.returncode == 2
    return None, False


def verdict(cell: str) -> str | None:
    word = cell.split()[0]
    return word if word in WORD else None


def cell(answer: tuple[str, float]) -> str:
    status, wall = answer
    return f"{status} {wall:.1f} s"


def part_one(root: Path, names: list[str], timeout: float, jobs: int, tmp: Path) -> bool:
    abc = abc_binary()
    print(f"### LLUMC's set: ABC `pdr` on llumc's AIGER (timeout {timeout:g} s)\n")
    if abc is None:
        print("ABC not found (`apt-get install berkeley-abc`): its column is empty.\n")
    print("| program | expected | AIGER latches / ANDs | ABC pdr on the AIGER | llumc solve --kind on the AIGER "
          "| llumc check on the C |")
    print("|---|---|---|---|---|---|")

    def one(name: str) -> tuple[str, bool]:
        program = root / name
        expected = name.split("/")[0]
        aig = tmp / f"{expected}-{program.stem}.aig"
        failed, _ = encode(program, "aiger", aig, True)
        if failed is not None:
            return f"| {program.name} | {expected} | {failed} | | | |", False
        header = aig.read_bytes()[:120].split(b"\n")[0].split()
        size = f"{int(header[3])} / {int(header[5])}"
        abc_answer = run_abc(abc, aig, timeout) if abc else ("no ABC", 0.0)
        on_aiger = run_solve(aig, "kind", timeout)
        checked = run_check(program, timeout)
        verdicts = {v for v in (verdict(abc_answer[0]), verdict(on_aiger[0]), verdict(checked[0])) if v}
        wrong = bool(verdicts - {"sat" if expected == "FALSE" else "unsat"})
        row = (f"| {program.name} | {expected} | {size} | {cell(abc_answer)} | {cell(on_aiger)} | "
               f"{cell(checked)}{' **DISAGREE**' if wrong else ''} |")
        return row, wrong

    bad = False
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for row, wrong in pool.map(one, names):
            print(row, flush=True)
            bad |= wrong
    return bad


def part_two(timeout: float, jobs: int, tmp: Path) -> bool:
    programs = sorted((ROOT / "tests" / "programs").glob("*.c")) + sorted((ROOT / "tests" / "programs" / "loops").glob("*.c"))
    print(f"\n### tests/programs: `llumc solve --kind` on DimSpec and AIGER (timeout {timeout:g} s)\n")
    print("| program | DimSpec | AIGER |")
    print("|---|---|---|")

    def one(program: Path) -> tuple[str | None, bool, int]:
        dim, aig = tmp / f"t-{program.stem}.dimspec", tmp / f"t-{program.stem}.aig"
        failed, refused = encode(program, "dimspec", dim, True)
        if refused:
            return None, False, 0  # the front end refuses it (tests/programs/fe_*)
        if failed is None:
            failed, _ = encode(program, "aiger", aig, True)
        if failed is not None:
            return f"| {program.name} | | {failed} |", True, 0
        a, b = run_solve(dim, "kind", timeout), run_solve(aig, "kind", timeout)
        both = verdict(a[0]) and verdict(b[0])
        wrong = bool(both and a[0] != b[0])
        return f"| {program.name} | {cell(a)} | {cell(b)}{' **DISAGREE**' if wrong else ''} |", wrong, int(bool(both))

    bad, compared, total = False, 0, 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for row, wrong, both in pool.map(one, programs):
            if row is None:
                continue
            print(row, flush=True)
            bad |= wrong
            compared += both
            total += 1
    print(f"\n{compared} of {total} programs answered on both formats, {'a DISAGREEMENT' if bad else 'all alike'}")
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=PUBLICATIONS, help="LLUMC's set (TRUE/, FALSE/)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per solver run")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-tests", action="store_true", help="only part 1 (LLUMC's set)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="llumc-export-bench-") as tmp:
        bad = part_one(args.root, SAMPLE, args.timeout, args.jobs, Path(tmp))
        if not args.skip_tests:
            bad |= part_two(args.timeout, args.jobs, Path(tmp))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
