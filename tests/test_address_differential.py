"""Differential test of the allocation model (docs/memory.md, "Allocation model"): generated
programs over a small array, a struct holding a pointer, and heap blocks that are allocated,
freed (some only on some inputs) and compared — dangling pointers included — against each
other, one past their ends, the array's elements and NULL.

The truth comes from native runs on every input (two nondet values, each reduced to 0..2)
under two allocators: glibc's, which hands a freed block out again at once, and one that never
reuses an address (tests/noreuse_alloc.c). A program may reach the error under either; a real
allocator may do either. llumc (`check_program`, LP64 like the native builds) may say UNKNOWN,
but its TRUE must hold under both allocators, and each FALSE is replayed natively by llumc
itself (the replay follows the counterexample's allocator choices). The programs have no
undefined behaviour but the comparisons of dangling pointers: no access to a freed block, no
double free, no read of memory never written.

Hypothesis draws the programs, derandomised (the same programs every run).
`LLUMC_ADDRESS_DIFF_EXAMPLES` (default 8) sets how many; `LLUMC_ADDRESS_DIFF_TIMEOUT` (10 s)
bounds each check.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llumc.check.portfolio import check_program

EXAMPLES = int(os.environ.get("LLUMC_ADDRESS_DIFF_EXAMPLES", "8"))
TIMEOUT = float(os.environ.get("LLUMC_ADDRESS_DIFF_TIMEOUT", "10"))
TESTS = Path(__file__).parent
DRIVER = TESTS / "nondet_driver.c"
NO_REUSE = TESTS / "noreuse_alloc.c"
GCC = shutil.which("gcc")

HEADER = """#include <stdlib.h>
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
struct holder { int value; int *pointer; };
int main(void) {
  unsigned x = __VERIFIER_nondet_uchar() % 3, y = __VERIFIER_nondet_uchar() % 3;
  int r = 0;
  int arr[4] = {1, 2, 3, 4};
  struct holder s = {0, &arr[1]};
"""


@dataclass
class _Block:
    name: str
    cells: int
    status: str = "live"  # live | maybe (freed on some inputs: flag `f<name>`) | freed


@dataclass
class _Program:
    blocks: list[_Block] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


@st.composite
def programs(draw) -> str:
    program = _Program()
    small = st.integers(0, 3)

    def pointer() -> str:
        """A pointer expression: a block (dangling or not) at an offset up to one past its
        end, an element of `arr` up to one past its end, the struct's pointer, NULL."""
        kinds = ["arr", "null", "held"] + ["block"] * 8 * bool(program.blocks)
        kind = draw(st.sampled_from(kinds))
        if kind == "block":
            block = draw(st.sampled_from(program.blocks))
            offset = draw(st.integers(0, block.cells))
            return block.name if offset == 0 else f"({block.name} + {offset})"
        if kind == "arr":
            return f"&arr[{draw(st.integers(0, 4))}]"
        return "s.pointer" if kind == "held" else "(int *)0"

    def usable(block: _Block) -> str | None:
        """A guard under which the block may be used (None: never)."""
        return {"live": "1", "maybe": f"!f{block.name}"}.get(block.status)

    for _ in range(draw(st.integers(4, 12))):
        choice = draw(st.sampled_from(["alloc", "alloc", "free", "free", "compare", "compare", "compare",
                                       "hold", "use", "array", "reuse", "reuse"]))
        if choice == "alloc" and len(program.blocks) < 4:
            block = _Block(f"h{len(program.blocks)}", draw(st.sampled_from([1, 2, 4])))
            how = draw(st.sampled_from(["malloc", "calloc"]))
            size = f"sizeof(int) * {block.cells}"
            call = f"malloc({size})" if how == "malloc" else f"calloc({block.cells}, sizeof(int))"
            program.lines.append(f"  int *{block.name} = {call}; int f{block.name} = 0;")
            program.lines += [f"  {block.name}[{i}] = x + {draw(small)};" for i in range(block.cells)]
            program.blocks.append(block)
        elif choice == "free" and any(b.status == "live" for b in program.blocks):
            block = draw(st.sampled_from([b for b in program.blocks if b.status == "live"]))
            if draw(st.booleans()):
                program.lines.append(f"  free({block.name}); f{block.name} = 1;")
                block.status = "freed"
            else:
                which = draw(st.sampled_from(["x", "y"]))
                program.lines.append(f"  if ({which} == {draw(st.integers(0, 2))}) "
                                     f"{{ free({block.name}); f{block.name} = 1; }}")
                block.status = "maybe"
        elif choice == "reuse" and len(program.blocks) < 4 and any(b.status == "live" for b in program.blocks):
            # the pattern glibc answers with the freed block: free, allocate, compare
            old = draw(st.sampled_from([b for b in program.blocks if b.status == "live"]))
            block = _Block(f"h{len(program.blocks)}", draw(st.sampled_from([old.cells, 1, 2])))
            program.lines.append(f"  free({old.name}); f{old.name} = 1;")
            program.lines.append(f"  int *{block.name} = malloc(sizeof(int) * {block.cells}); int f{block.name} = 0;")
            program.lines += [f"  {block.name}[{i}] = y + {draw(small)};" for i in range(block.cells)]
            program.lines.append(f"  if ({old.name} == {block.name}) r += {draw(st.integers(1, 3))};")
            old.status = "freed"
            program.blocks.append(block)
        elif choice == "compare":
            operator = draw(st.sampled_from(["==", "==", "!="]))
            program.lines.append(f"  if ({pointer()} {operator} {pointer()}) r += {draw(st.integers(1, 3))};")
        elif choice == "hold":
            program.lines.append(f"  s.pointer = {pointer()};")
        elif choice == "use" and any(usable(b) for b in program.blocks):
            block = draw(st.sampled_from([b for b in program.blocks if usable(b)]))
            cell = draw(st.integers(0, block.cells - 1))
            program.lines.append(f"  if ({usable(block)}) r += {block.name}[{cell}];")
        elif choice == "array":
            program.lines.append(f"  arr[(y + {draw(small)}) % 4] = r + {draw(small)};")
            program.lines.append(f"  r += arr[(x + {draw(small)}) % 4] % 3;")
    for block in program.blocks:
        if usable(block):
            program.lines.append(f"  if ({usable(block)}) free({block.name});")
    program.lines.append(f"  if (r == {draw(st.integers(0, 6))}) reach_error();")
    return HEADER + "\n".join(program.lines) + "\n  return 0;\n}\n"


_BUILD = tempfile.TemporaryDirectory(prefix="llumc-address-diff-")


def _native_errors(source: Path) -> dict[str, bool]:
    """Allocator -> whether some input reaches the error natively under it."""
    reached = {}
    for allocator, extra in (("glibc", []), ("no-reuse", [str(NO_REUSE), "-Wl,--wrap=malloc,--wrap=calloc,--wrap=free"])):
        binary = source.with_suffix(f".{allocator}.bin")
        argv = [GCC, "-O0", "-fwrapv", "-w", "-Dmain=llumc_program_main", "-o", str(binary), str(source),
                str(DRIVER), *extra]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outcomes = []
        for x, y in itertools.product(range(3), repeat=2):  # a process per input: a fresh heap
            run = subprocess.run([str(binary)], input=f"{x} {y}\n", capture_output=True, text=True, timeout=30)
            assert run.returncode == 0, f"{allocator} {x} {y}: exit {run.returncode} {run.stderr}"
            outcomes.append(run.stdout.split()[0])
        assert "diverged" not in outcomes
        reached[allocator] = "error" in outcomes
    return reached


_counter = itertools.count()


@pytest.mark.skipif(GCC is None, reason="the native truth needs gcc and glibc")
@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs())
def test_address_model_against_native_allocators(text: str) -> None:
    source = Path(_BUILD.name) / f"prog{next(_counter)}.c"
    source.write_text(text)
    result = check_program(source, timeout=TIMEOUT)
    assert result.verdict in ("true", "false", "unknown"), result
    if result.verdict == "true":
        reached = _native_errors(source)
        assert not any(reached.values()), f"TRUE, but natively the error is reached: {reached}\n{text}"
    elif result.verdict == "false":
        assert "replayed" in (result.confirmation or ""), result
