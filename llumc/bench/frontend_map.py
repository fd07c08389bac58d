"""Front-end coverage map: which benchmark programs give a module, and why the others do not.

Run: `make bench-frontend` (= `python -m llumc.bench.frontend_map`). For every program of
the LLUMC benchmark set it runs `compile_c(m32=True)` (the originals were compiled with -m32),
with overflow checks for files whose names say `no-overflow`, and counts "module" against
each unsupported category. The table it prints is the map of what the encoder must cover.

`--to-dimspec` times the whole encoding instead, clang to DimSpec text (`llumc encode`'s work:
ILP32, unreach-call, large blocks), each program in a fresh process: wall clock, CPU (clang
included), peak memory and the seconds of each stage, one row per program, then how many
finished within `--limit` seconds. E.g. the 60 RERS programs:
`make bench-frontend FRONTEND_BENCH_ARGS='--to-dimspec --only ^Problem07'`.
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import sys
import time
from collections import Counter
from pathlib import Path

from llumc.errors import LlumcError, UnsupportedError
from llumc.frontend.compile import Checks, compile_c
from llumc.bench import PUBLICATIONS

DEFAULT_ROOT = PUBLICATIONS


def classify(path: Path) -> tuple[str, str, Counter]:
    """("module" | category, detail, what the module contains) for one program: the
    instructions (opcode, or `call @name`) of main and the integer widths they use."""
    checks = Checks(overflow=True) if "no-overflow" in path.name else Checks()
    try:
        result = compile_c(path, m32=True, checks=checks)
    except UnsupportedError as err:
        return getattr(err, "category", "unsupported"), str(err), Counter()
    except LlumcError as err:
        return "error", str(err), Counter()
    contents: Counter = Counter()
    main = result.ir[result.ir.index("define "):result.ir.index("\n}\n")]
    for line in main.split("\n")[1:]:
        match = re.match(r"^  (?:%\S+ = )?(?:tail )?([a-z_]+)\b(.*)$", line)
        if not match:
            continue
        opcode, rest = match.groups()
        if opcode == "call":
            callee = re.search(r"@([\w.$]+)\(", rest)
            name = re.sub(r"\.i\d+$", ".iN", callee.group(1)) if callee else "?"
            contents[f"call @{name}"] += 1
        else:
            contents[opcode] += 1
        for width in set(re.findall(r"(?<![%\w.$-])i(\d+)\b", rest.split(", !")[0])):
            contents[f"type i{width}"] += 1
    return "module", "", contents


def time_to_dimspec(path: Path) -> dict:
    """clang to DimSpec text for one program, in this (fresh) process: the seconds of each
    stage, wall clock, CPU (clang's included) and peak resident memory."""
    import os
    import resource

    from llumc.pipeline import encode_file
    from solvers.dimspec import format_dimspec

    started, cpu_before = time.perf_counter(), os.times()
    try:
        result = encode_file(path, prop="unreach-call", m32=True)
        text = format_dimspec(result.ts)
    except LlumcError as err:  # UnsupportedError included
        return {"error": str(err).splitlines()[0]}
    wall = time.perf_counter() - started
    cpu = os.times()
    stages = result.stats.seconds
    return {
        "wall": wall,
        "cpu": sum(cpu[:4]) - sum(cpu_before[:4]),
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "frontend": stages.get("frontend", 0.0),
        "transys": stages.get("transys", 0.0),
        "blast": sum(v for k, v in stages.items() if k.startswith(("blast", "cnf"))),
        "clauses": result.stats.total_clauses,
        "bytes": len(text),
    }


def report_times(programs: list[Path], jobs: int, limit: float) -> int:
    """One row per program (`--to-dimspec`), then the count within `limit` seconds."""
    print("| program | wall s | CPU s | clang + front end s | CFG + transition system s "
          "| bit-blast + CNF s | peak MB | clauses |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    # one process per program: its peak memory and CPU are its own
    with multiprocessing.Pool(jobs, maxtasksperchild=1) as pool:
        for path, row in zip(programs, pool.imap(time_to_dimspec, programs)):
            rows.append(row)
            name = f"{path.parent.name}/{path.name}"
            if "error" in row:
                print(f"| {name} | {row['error']} | | | | | | |", flush=True)
                continue
            print(f"| {name} | {row['wall']:.1f} | {row['cpu']:.1f} | {row['frontend']:.1f} "
                  f"| {row['transys']:.1f} | {row['blast']:.1f} | {row['rss_mb']:.0f} "
                  f"| {row['clauses']} |", flush=True)
    done = [row for row in rows if "error" not in row]
    if done:
        walls = sorted(row["wall"] for row in done)
        print(f"\n{sum(w <= limit for w in walls)} of {len(programs)} within {limit:g} s wall clock "
              f"({jobs} job(s)); wall {walls[0]:.1f}-{walls[-1]:.1f} s, median "
              f"{walls[len(walls) // 2]:.1f} s; CPU max {max(row['cpu'] for row in done):.1f} s; "
              f"peak memory max {max(row['rss_mb'] for row in done):.0f} MB")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=DEFAULT_ROOT)
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per program")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="programs compiled in parallel")
    parser.add_argument("--only", metavar="REGEX", help="only programs whose name matches")
    parser.add_argument("--exclude", metavar="REGEX", help="skip programs whose name matches")
    parser.add_argument("--to-dimspec", action="store_true",
                        help="time clang to DimSpec per program instead (one job unless --jobs)")
    parser.add_argument("--limit", type=float, default=15.0, metavar="SECONDS",
                        help="with --to-dimspec: count the programs within this wall clock")
    args = parser.parse_args(argv)
    programs = sorted(args.root.glob("FALSE/*.c")) + sorted(args.root.glob("TRUE/*.c"))
    if args.only:
        programs = [p for p in programs if re.search(args.only, p.name)]
    if args.exclude:
        programs = [p for p in programs if not re.search(args.exclude, p.name)]
    if not programs:
        print(f"no programs under {args.root}/{{FALSE,TRUE}}/", file=sys.stderr)
        return 2
    if args.to_dimspec:
        return report_times(programs, args.jobs, args.limit)
    counts: dict[str, Counter] = {"FALSE": Counter(), "TRUE": Counter()}
    constructs: Counter = Counter()
    everything: Counter = Counter()  # instructions over all modules
    programs_with: Counter = Counter()  # modules that contain each instruction
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs, maxtasksperchild=4) as pool:
        outcomes = pool.imap(classify, programs) if args.jobs > 1 else map(classify, programs)
        results = []
        for path, (outcome, detail, contents) in zip(programs, outcomes):
            results.append((path, outcome, detail))
            everything.update(contents)
            programs_with.update(contents.keys())
            if args.verbose:
                print(f"{outcome:16} {path.parent.name}/{path.name} {detail}", flush=True)
    for path, outcome, detail in results:
        counts[path.parent.name][outcome] += 1
        if detail:
            constructs[(outcome, detail.split(" at ")[0])] += 1
    elapsed = time.perf_counter() - start
    outcomes = sorted(set(counts["FALSE"]) | set(counts["TRUE"]),
                      key=lambda o: (o != "module", -(counts["FALSE"][o] + counts["TRUE"][o])))
    print("| outcome | FALSE/ | TRUE/ | total |")
    print("|---|---:|---:|---:|")
    for outcome in outcomes:
        f, t = counts["FALSE"][outcome], counts["TRUE"][outcome]
        print(f"| {outcome} | {f} | {t} | {f + t} |")
    total_f, total_t = sum(counts["FALSE"].values()), sum(counts["TRUE"].values())
    print(f"| **all** | {total_f} | {total_t} | {total_f + total_t} |")
    print()
    print("| unsupported construct (first one found per program) | programs |")
    print("|---|---:|")
    for (outcome, construct), n in constructs.most_common():
        print(f"| {construct} | {n} |")
    print()
    print("| in the modules: instruction / callee / type | occurrences | modules |")
    print("|---|---:|---:|")
    for item, n in sorted(everything.items(), key=lambda kv: (kv[0].split()[0], -kv[1])):
        print(f"| `{item}` | {n} | {programs_with[item]} |")
    print(f"\n{len(programs)} programs in {elapsed:.0f} s wall clock, {args.jobs} job(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
