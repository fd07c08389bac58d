"""Differential test of pools and summaries (docs/memory.md, "Allocation sites in loops"):
random list programs, the truth computed natively on every input, llumc's verdict never
contradicting it.

Each program reads one nondet `unsigned char`, reduced to x in 0..7 (so the inputs 0..7
cover every behaviour), builds a list of N nodes in a loop (by prepending, or by appending
through a tail pointer) with data from a random pattern, may update every node in a second
walk, walks the list once more asserting a comparison of each node's data, and may free
every node in a last walk (a summary's freed node, docs/memory.md). N is 3 (the
first pools hold it), 30 or 300 (pools of 32 or the summary). The truth: the program compiled
with tests/nondet_driver.c and run on x = 0..7. llumc (`--32`) may say UNKNOWN, never the
wrong verdict; a FALSE's inputs must reach the error natively. Deterministic (seeded).
`LLUMC_LIST_DIFF_EXAMPLES` (default 6), `LLUMC_LIST_DIFF_TIMEOUT` (15 s per check).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from tests.test_memory_differential import check_against_native

EXAMPLES = int(os.environ.get("LLUMC_LIST_DIFF_EXAMPLES", "6"))
TIMEOUT = float(os.environ.get("LLUMC_LIST_DIFF_TIMEOUT", "15"))


def _program(seed: int) -> str:
    rng = random.Random(seed)
    n = rng.choice([3, 30, 300])
    c = lambda: rng.randint(0, 9)  # noqa: E731
    data = rng.choice([str(c()), "x", f"i % {rng.randint(2, 4)}", "i",
                       f"i == {rng.randint(0, n)} ? {c()} : {c()}", f"x + {c()}"])
    lines = [
        "#include <stdlib.h>",
        "extern unsigned char __VERIFIER_nondet_uchar(void);",
        "extern void reach_error(void);",
        "struct node { int data; struct node *next; };",
        "int main() {",
        "  unsigned x = __VERIFIER_nondet_uchar() % 8;",
        "  struct node *head = 0, *tail = 0;",
        f"  for (int i = 0; i < {n}; i++) {{",
        "    struct node *n = malloc(sizeof(struct node));",
        "    if (!n) abort();",
        f"    n->data = {data};",
    ]
    if rng.random() < 0.5:
        lines += ["    n->next = head;", "    head = n;"]
    else:
        lines += ["    n->next = 0;", "    if (tail) tail->next = n; else head = n;", "    tail = n;"]
    lines.append("  }")
    update = rng.randrange(3)
    if update == 1:
        lines.append(f"  for (struct node *p = head; p; p = p->next) p->data = p->data + {c()};")
    elif update == 2:
        lines.append(f"  for (struct node *p = head; p; p = p->next) if (p->data > {c()}) p->data = {c()};")
    op = rng.choice(["==", "!=", ">", "<", ">="])
    lines.append(f"  for (struct node *p = head; p; p = p->next) if (p->data {op} {rng.randint(0, 12)}) reach_error();")
    if rng.random() < 0.5:  # drawn last: the programs before it are those of the seeds without it
        lines.append("  while (head) { struct node *next = head->next; free(head); head = next; }")
    lines += ["  return 0;", "}", ""]
    return "\n".join(lines)


# seed 5 (10 s in the suite) in `make test-all` only
@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.slow) if s == 5 else s for s in range(EXAMPLES)])
def test_list_program_verdict_matches_native_runs(seed: int, tmp_path: Path) -> None:
    source = tmp_path / f"list_{seed}.c"
    source.write_text(_program(seed))
    check_against_native(source, [[x] for x in range(8)], TIMEOUT)
