"""Encoding size and time on the programs of the LLUMC paper's Table 2, next to the paper's
numbers (`make bench-encode`). Property `all` (the paper's error definition), ILP32 (-m32).

Prints a Markdown table: per program the paper's blocks / #Variables / #Bits / #Clauses and
ours for the large-block (lbe), small-block (edge) and the paper's phi scheme, plus the
encoding time of lbe.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from llumc.pipeline import encode_file
from llumc.errors import LlumcError
from llumc.bench import PUBLICATIONS

DEFAULT_ROOT = PUBLICATIONS

# (file, paper: basic blocks, #Variables, #Bits, #Clauses) — Table 2 of the paper
TABLE2 = [
    ("FALSE/diamond_false-unreach-call2.c", 37, 34, 1036, 35788),
    ("FALSE/implicitunsignedconversion_false-unreach-call_true-termination.c", 4, 2, 6, 151),
    ("FALSE/jain_1_false-no-overflow.c", 5, 3, 38, 2179),
    ("FALSE/jain_2_false-no-overflow.c", 5, 4, 70, 5125),
    ("FALSE/jain_4_false-no-overflow.c", 5, 5, 102, 8022),
    ("FALSE/jain_5_false-no-overflow.c", 5, 4, 70, 3415),
    ("FALSE/jain_6_false-no-overflow.c", 5, 5, 102, 7999),
    ("FALSE/jain_7_false-no-overflow.c", 5, 5, 102, 7171),
    ("FALSE/signextension2_false-unreach-call_true-termination.c", 7, 2, 8, 263),
    ("FALSE/overflow_false-unreach-call1.c", 7, 3, 40, 1652),
    ("FALSE/s3_clnt_1_false-unreach-call_true-no-overflow.BV.c.cil.c", 227, 93, 2928, 116777),
    ("FALSE/s3_clnt_2_false-unreach-call_true-no-overflow.BV.c.cil.c", 227, 95, 2992, 94826),
    ("TRUE/implicitunsignedconversion_true-unreach-call_true-termination.c", 4, 2, 6, 151),
    ("TRUE/jain_1_true-unreach-call_true-no-overflow_false-termination.c", 5, 3, 38, 2128),
    ("TRUE/jain_2_true-unreach-call_true-no-overflow_false-termination.c", 5, 4, 70, 4999),
    ("TRUE/jain_4_true-unreach-call_true-no-overflow_false-termination.c", 5, 5, 102, 7738),
    ("TRUE/jain_5_true-unreach-call_true-no-overflow.c", 5, 4, 70, 3370),
    ("TRUE/jain_6_true-unreach-call_true-no-overflow_false-termination.c", 5, 5, 102, 7672),
    ("TRUE/jain_7_true-unreach-call_true-no-overflow_false-termination.c", 5, 5, 102, 6148),
    ("TRUE/signextension2_true-unreach-call_true-termination.c", 7, 2, 8, 263),
    ("TRUE/gcd_4_true-unreach-call_true-no-overflow_true-termination.c", 12, 8, 200, 21862),
    ("TRUE/s3_srvr_1_alt_true-unreach-call_true-no-overflow.BV.c.cil.c", 256, 99, 3122, 102932),
]


def short(name: str) -> str:
    stem = Path(name).name
    for cut in ("_true-unreach-call", "_false-unreach-call", "_false-no-overflow", "_true-no-overflow"):
        stem = stem.split(cut)[0]
    return f"{stem} ({'false' if name.startswith('FALSE') else 'true'})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    parser.add_argument("--property", default="all")
    parser.add_argument("--only", default="", help="substring filter on file names")
    args = parser.parse_args(argv)
    print(f"Property `{args.property}`, `--32`; ours = blocks / state vars / state bits / aux vars / "
          "clauses (blocks = steps' head blocks: cut points for lbe); time = whole `llumc encode` pipeline "
          "(clang included), lbe scheme; `vs paper` = lbe clauses / paper clauses (edge in brackets).\n")
    print("| program | paper BB / vars / bits / clauses | ours (lbe) | ours (edge) | ours (paper scheme) | clauses vs paper | time |")
    print("|---|---|---|---|---|---|---|")
    wins = edge_wins = total = 0
    for name, bb, nvars, bits, clauses in TABLE2:
        if args.only not in name:
            continue
        path = args.root / name
        row = [short(name), f"{bb} / {nvars} / {bits} / {clauses}"]
        try:
            start = time.perf_counter()
            lbe = encode_file(path, prop=args.property, m32=True, scheme="lbe").stats
            seconds = time.perf_counter() - start
            edge = encode_file(path, prop=args.property, m32=True, scheme="edge").stats
            paper = encode_file(path, prop=args.property, m32=True, scheme="paper").stats
        except LlumcError as err:
            print(f"| {row[0]} | {row[1]} | error: {err} | | | | |")
            sys.stdout.flush()
            continue
        for s in (lbe, edge, paper):
            row.append(f"{s.blocks} / {s.state_vars} / {s.state_bits} / {s.aux_vars} / {s.total_clauses}")
        total += 1
        wins += lbe.total_clauses < clauses
        edge_wins += edge.total_clauses < clauses
        row.append(f"{lbe.total_clauses / clauses:.2f}× ({edge.total_clauses / clauses:.2f}×)")
        row.append(f"{seconds:.2f} s")
        print("| " + " | ".join(row) + " |")
        sys.stdout.flush()
    print(f"\nFewer clauses than LLUMC: lbe {wins} of {total}, edge {edge_wins} of {total}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
