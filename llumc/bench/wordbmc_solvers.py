"""The word-level BMC's queries solved by Boolector (the solver llumc uses) and by Bitwuzla
(`make bench-wordbmc`, `python -m llumc.bench.wordbmc_solvers [programs...]`).

Bitwuzla is not a dependency of llumc: `make bench-wordbmc` installs it into the venv.

For each program the word-level BMC first runs as `llumc check --engine word-bmc` would, for the
depth where it finds the bug. Then two queries are written as SMT-LIB 2 (by Boolector's
`Dump`, from the unrolling's terms: every U asserted up to that depth, the disjunction of goals
asserted):
- `first`: the goals of the first depth whose goal does not fold to false (for a running
  maximum, `a[0] > m` over 98 `ite`s: the "unreachable" answer CDCL finds hard);
- `found`: every goal up to the depth of the bug (satisfiable).
Each file is solved by a fresh Boolector (`Parse`) and by Bitwuzla (its parser, `check_sat`),
each in a child process under the time limit; the time includes parsing.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import time
from pathlib import Path

LIMIT = 60.0
DEFAULT_PROGRAMS = [f"benchmarks/memory/{name}-unreach-call.c" for name in (
    "copy_false", "search_false", "running_max_false", "pattern_false", "fill_check_false",
    "struct_flags_false", "tiling_false")]


def write_queries(program: str, folder: Path) -> dict[str, Path]:
    """The `first` and `found` queries of `program` (ILP32) as SMT-LIB 2 files in `folder`."""
    import pyboolector

    from llumc.bitblast.blast import Translator
    from llumc.pipeline import encode_file
    from llumc.wordbmc.bmc import Unrolling, word_bmc

    encoded = encode_file(program, m32=True)
    found = word_bmc(encoded, deadline=time.monotonic() + LIMIT)
    if found.status != "error":
        raise SystemExit(f"{program}: the word-level BMC found no bug ({found.reason})")
    unrolling = Unrolling(encoded.word)
    goals, first = [], None
    while unrolling.depth <= found.steps:
        goal = unrolling.goal
        if not (goal.op == "const" and goal.param == 0):
            goals.append(goal)
            first = first or list(goals)
        if unrolling.depth == found.steps:
            break
        unrolling.step()
    files = {}
    for name, chosen in (("first", first), ("found", goals)):
        btor = pyboolector.Boolector()
        translator = Translator(btor)
        for term in [*unrolling.asserted, unrolling.tb.any_of(chosen)]:
            cone, stack = {}, [term]
            while stack:
                t = stack.pop()
                if t.uid not in translator.nodes and t.uid not in cone:
                    cone[t.uid] = t
                    stack.extend(t.args)
            for uid in sorted(cone):
                translator.translate(cone[uid])
            btor.Assert(translator.nodes[term.uid])
        path = folder / f"{Path(program).stem}.{name}.smt2"
        btor.Dump("smt2", str(path))
        files[name] = path
    return files


def _solve(solver: str, path: str, out) -> None:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # Boolector prints its answer
    started = time.monotonic()
    if solver == "boolector":
        import pyboolector

        result, _status, _error = pyboolector.Boolector().Parse(path)  # runs the file's check-sat
        answer = {10: "sat", 20: "unsat"}.get(result, "unknown")
    else:
        import bitwuzla

        parser = bitwuzla.Parser(bitwuzla.TermManager(), bitwuzla.Options())
        parser.parse(path, parse_only=True)
        answer = str(parser.bitwuzla().check_sat())
    out.put((answer, time.monotonic() - started))


def solve(solver: str, path: Path, limit: float) -> tuple[str, float]:
    """(answer, seconds) of `solver` on one file, in a child process killed at `limit`."""
    out: multiprocessing.Queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=_solve, args=(solver, str(path), out))
    child.start()
    child.join(limit)
    if child.is_alive():
        child.kill()
        child.join()
        return "timeout", limit
    return out.get() if not out.empty() else ("error", 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*", default=DEFAULT_PROGRAMS)
    parser.add_argument("--limit", type=float, default=LIMIT, help="seconds per solver and query")
    args = parser.parse_args()
    print("| program | query | Boolector | Bitwuzla |\n|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="llumc-wordbmc-") as tmp:
        for program in args.programs:
            for name, path in write_queries(program, Path(tmp)).items():
                cells = []
                for solver in ("boolector", "bitwuzla"):
                    answer, seconds = solve(solver, path, args.limit)
                    cells.append(f"{answer} {seconds:.2f} s")
                print(f"| {Path(program).stem} | {name} | {cells[0]} | {cells[1]} |", flush=True)


if __name__ == "__main__":
    main()
