"""Small-block (edge) vs large-block (lbe) encoding on a subset of LLUMC's benchmark set
(`make bench-schemes`): encoding size, and what BMC and IC3 make of each within a time limit.

Property unreach-call, ILP32 (`--32`). Each solver run is `python -m llumc solve FILE --bmc|--ic3
--timeout T --json` in its own process (answers are checked by the solver API before they are
printed); BMC runs only on FALSE programs (it proves nothing). Prints a Markdown table: per
program and scheme state bits / clauses, then per engine `sat k` (path of k steps) / `unsat` /
`-` (no answer in time) with the wall-clock seconds, and a summary per scheme and engine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from llumc.pipeline import encode_file
from llumc.errors import LlumcError
from solvers.dimspec import format_dimspec
from llumc.bench import PUBLICATIONS

DEFAULT_ROOT = PUBLICATIONS

SUBSET = [
    "FALSE/token_ring.02_false-unreach-call_false-termination.cil.c",
    "FALSE/token_ring.05_false-unreach-call_false-termination.cil.c",
    "FALSE/transmitter.02_false-unreach-call_false-termination.cil.c",
    "FALSE/s3_clnt_1_false-unreach-call_true-termination.cil.c",
    "FALSE/s3_srvr_1_false-unreach-call_false-termination.cil.c",
    "FALSE/pc_sfifo_1_false-unreach-call_false-termination.cil.c",
    "FALSE/toy1_false-unreach-call_false-termination.cil.c",
    "FALSE/kundu1_false-unreach-call_false-termination.cil.c",
    "FALSE/test_locks_14_false-unreach-call_true-valid-memsafety_false-termination.c",
    "FALSE/diamond_false-unreach-call2.c",
    "FALSE/nested5_false-unreach-call.c",
    "TRUE/token_ring.01_true-unreach-call_false-termination.cil.c",
    "TRUE/s3_srvr_1_true-unreach-call_false-termination.cil.c",
    "TRUE/pc_sfifo_1_true-unreach-call_false-termination.cil.c",
    "TRUE/toy_true-unreach-call_false-termination.cil.c",
    "TRUE/kundu_true-unreach-call_false-termination.cil.c",
    "TRUE/test_locks_5_true-unreach-call_true-valid-memsafety_false-termination.c",
    "TRUE/jain_1_true-unreach-call_true-no-overflow_false-termination.c",
    "TRUE/gcd_4_true-unreach-call_true-no-overflow_true-termination.c",
    "TRUE/bist_cell_true-unreach-call_false-termination.cil.c",
    "TRUE/mem_slave_tlm.1_true-unreach-call_false-termination.cil.c",
]
SCHEMES = ("edge", "lbe")


def short(name: str) -> str:
    stem = Path(name).name.split("_false-unreach-call")[0].split("_true-unreach-call")[0]
    return stem.removesuffix(".cil").removesuffix(".c")


def solve(path: Path, engine: str, timeout: float) -> tuple[str, float]:
    """`sat k` / `unsat` / `-` and wall-clock seconds of one checked solver run."""
    start = time.perf_counter()
    try:
        run = subprocess.run([sys.executable, "-m", "llumc", "solve", str(path), f"--{engine}", "--timeout",
                              str(timeout), "--json", "--quiet"], capture_output=True, text=True,
                             timeout=timeout + 30)
        data = json.loads(run.stdout) if run.stdout.strip() else {}
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        data = {}
    seconds = time.perf_counter() - start
    status = data.get("status")
    if status == "sat":
        return f"sat {data.get('steps')}", seconds
    if status == "unsat":
        return "unsat", seconds
    return "-", seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="substring filter on file names")
    args = parser.parse_args(argv)
    files = [f for f in SUBSET if args.only in f]
    work = Path(tempfile.mkdtemp(prefix="llumc-schemes-"))
    sizes: dict[tuple[str, str], str] = {}
    runs: list[tuple[str, str, str, Path]] = []
    for name in files:
        expected_false = name.startswith("FALSE")
        for scheme in SCHEMES:
            try:
                enc = encode_file(args.root / name, prop="unreach-call", m32=True, scheme=scheme)
            except LlumcError as err:
                sizes[(name, scheme)] = f"error: {err}"
                continue
            out = work / f"{short(name)}.{'false' if expected_false else 'true'}.{scheme}.dimspec"
            out.write_text(format_dimspec(enc.ts))
            sizes[(name, scheme)] = f"{enc.stats.blocks} / {enc.stats.state_bits} / {enc.stats.total_clauses}"
            for engine in (("bmc", "ic3") if expected_false else ("ic3",)):
                runs.append((name, scheme, engine, out))
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        answers = dict(zip(((n, s, e) for n, s, e, _ in runs),
                           pool.map(lambda r: solve(r[3], r[2], args.timeout), runs)))
    print(f"unreach-call, `--32`, timeout {args.timeout:g} s per run, {args.jobs} jobs; size = steps' "
          "cut points (lbe) or blocks (edge) / state bits / clauses; `sat k` = counterexample of k steps.\n")
    print("| program | expected | edge size | edge BMC | edge IC3 | lbe size | lbe BMC | lbe IC3 |")
    print("|---|---|---|---|---|---|---|---|")
    solved = {(s, e): [0, 0.0] for s in SCHEMES for e in ("bmc", "ic3")}
    for name in files:
        expected = "false" if name.startswith("FALSE") else "true"
        row = [short(name), expected]
        for scheme in SCHEMES:
            row.append(sizes.get((name, scheme), ""))
            for engine in ("bmc", "ic3"):
                answer = answers.get((name, scheme, engine))
                if answer is None:
                    row.append("")
                    continue
                status, seconds = answer
                row.append(f"{status} ({seconds:.1f} s)" if status != "-" else f"- ({seconds:.0f} s)")
                correct = (status.startswith("sat") and expected == "false") or (status == "unsat" and expected == "true")
                if status != "-" and not correct:
                    row[-1] += " WRONG"
                if correct:
                    solved[(scheme, engine)][0] += 1
                    solved[(scheme, engine)][1] += seconds
        print("| " + " | ".join(row) + " |")
    print()
    for (scheme, engine), (count, seconds) in solved.items():
        print(f"- {scheme} {engine.upper()}: {count} solved, {seconds:.1f} s in total on the solved ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
