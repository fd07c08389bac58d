"""Differential test of the memory model: random small programs over arrays and pointers, the
truth computed natively on every input, llumc's verdict never contradicting it.

Each program reads two nondet `unsigned char`s, reduces them to x, y in 0..7 (so the inputs
0..7 cover every behaviour), fills an array in a loop, applies a few random statements
(stores at computed indices, reads, copies to a second array, swaps and updates through
pointers, memset), all indices reduced modulo the length (no undefined behaviour), and
asserts a comparison of an element at a computed index with a constant. The truth: the program
is compiled once with tests/nondet_driver.c and run on all 64 input pairs. llumc (`--32`, a
few seconds each) may say UNKNOWN but never the wrong verdict; a FALSE is replayed by llumc
itself and its inputs must reach the error natively too. Deterministic (seeded).
`LLUMC_MEMORY_DIFF_EXAMPLES` (default 8), `LLUMC_MEMORY_DIFF_TIMEOUT` (8 s per check).

The same programs again with every array abstract (`EXACT_CELLS` 0): contents only through
the tracked cell and the restricted error edges (docs/memory.md, cell morphing), whose
soundness this checks against the native truth (`LLUMC_MEMORY_DIFF_ABSTRACT`, default 6).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import llumc.encoding.memory
from llumc.check.portfolio import check_program
from llumc.pipeline import encode_file
from tests.test_loop_programs import build_native, run_native

EXAMPLES = int(os.environ.get("LLUMC_MEMORY_DIFF_EXAMPLES", "8"))
ABSTRACT_EXAMPLES = int(os.environ.get("LLUMC_MEMORY_DIFF_ABSTRACT", "6"))
TIMEOUT = float(os.environ.get("LLUMC_MEMORY_DIFF_TIMEOUT", "8"))


def _program(seed: int) -> str:
    rng = random.Random(seed)
    n = rng.randint(3, 6)
    c = lambda: rng.randint(0, 9)  # noqa: E731
    index = lambda var: f"({var} + {c()}) % {n}"  # noqa: E731
    lines = [
        "extern unsigned char __VERIFIER_nondet_uchar(void);",
        "extern void reach_error(void);",
        "#include <string.h>",
        "void swap(int *p, int *q) { int t = *p; *p = *q; *q = t; }",
        "int main() {",
        f"  int a[{n}], b[{n}];",
        "  unsigned x = __VERIFIER_nondet_uchar() % 8, y = __VERIFIER_nondet_uchar() % 8;",
        f"  for (int i = 0; i < {n}; i++) a[i] = {rng.choice(['i', 'x', 'i * x', 'i + y', str(c())])} + {c()};",
        f"  memset(b, 0, sizeof b);",
    ]
    for _ in range(rng.randint(2, 4)):
        kind = rng.randrange(6)
        if kind == 0:
            lines.append(f"  a[{index('x')}] = a[{index('y')}] + {c()};")
        elif kind == 1:
            lines.append(f"  for (int i = 0; i < {n}; i++) b[i] = a[(i + {c()}) % {n}];")
        elif kind == 2:
            lines.append(f"  swap(&a[{index('x')}], &a[{index('y')}]);")
        elif kind == 3:
            lines.append(f"  {{ int *p = &a[{index('y')}]; *p = *p * {rng.randint(1, 3)} + {c()}; }}")
        elif kind == 4:
            lines.append(f"  if (a[{index('x')}] > {c()}) b[{index('y')}] = a[{index('x')}];")
        else:
            lines.append(f"  {{ int *p = a; for (int i = 0; i < {n}; i++) {{ *p += {c()}; p++; }} }}")
    target = rng.choice(["a", "b"])
    op = rng.choice(["==", "!=", ">", "<"])
    lines.append(f"  if ({target}[{index(rng.choice(['x', 'y']))}] {op} {rng.randint(0, 12)}) reach_error();")
    lines += ["  return 0;", "}", ""]
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(EXAMPLES))
def test_memory_program_verdict_matches_native_runs(seed: int, tmp_path: Path) -> None:
    _differential(seed, tmp_path)


# seeds 3 and 5 (8 s each in the suite) in `make test-all` only
@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.slow) if s in (3, 5) else s
                                  for s in range(ABSTRACT_EXAMPLES)])
def test_abstract_memory_verdict_matches_native_runs(seed: int, tmp_path: Path, monkeypatch) -> None:
    """Every array abstract: a tracked cell each, reads elsewhere havoc. Never a wrong verdict."""
    monkeypatch.setattr(llumc.encoding.memory, "EXACT_CELLS", 0)
    _differential(seed, tmp_path)
    objects = encode_file(tmp_path / f"mem_{seed}.c", m32=True).word.memory_objects
    assert objects and all(o.abstract and o.tracked_value is not None for o in objects), objects


def _differential(seed: int, tmp_path: Path):
    source = tmp_path / f"mem_{seed}.c"
    source.write_text(_program(seed))
    return check_against_native(source, [[x, y] for x in range(8) for y in range(8)], TIMEOUT)


def check_against_native(source: Path, vectors: list[list[int]], timeout: float):
    """llumc's verdict (`--32`) on `source` never contradicts its native runs on `vectors`
    (which must cover its behaviours): UNKNOWN or the truth, and a FALSE's inputs reach the
    error natively."""
    binary = source.with_suffix(".bin")
    build_native(source, binary)
    outcomes = [outcome for outcome, _ in run_native(binary, vectors)]
    assert set(outcomes) <= {"ok", "error"}, outcomes
    truth = "false" if "error" in outcomes else "true"
    result = check_program(source, m32=True, timeout=timeout)
    assert result.verdict in ("unknown", truth), f"llumc {result.verdict}, natively {truth}:\n{source.read_text()}"
    if result.verdict == "false":
        inputs = [i.value for step in result.trace for i in step.inputs]
        assert run_native(binary, [inputs])[0][0] == "error", inputs
    return result
