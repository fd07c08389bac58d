"""The word-level BMC's exact contents of abstract objects (llumc/wordbmc/contents.py): its reads
against a plain list of cells under the same writes, solved by Boolector; and programs whose
arrays are abstract (an exact bound of 8 cells) checked as the exact ones are."""

from __future__ import annotations

import random
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from llumc.bitblast.blast import Translator, incremental_solver
from llumc.check.counterexample import confirm_counterexample
from llumc.encoding.memory import OFFSET_BITS
from llumc.encoding.terms import TermBuilder
from llumc.pipeline import encode_file
from llumc.wordbmc.bmc import word_bmc
from llumc.wordbmc.contents import ObjectContents, SelectBudget, trailing_zeros

HERE = Path(__file__).parent
CELLS = 6


def _solve(tb: TermBuilder, terms: list, fixed: dict) -> list[int]:
    """The values of `terms` with the input leaves in `fixed` (leaf -> value) set."""
    btor = incremental_solver()
    translator = Translator(btor)
    settings = [tb.eq(leaf, tb.const(value, leaf.width)) for leaf, value in fixed.items()]
    cone, stack = {}, list(terms) + settings
    while stack:
        t = stack.pop()
        if t.uid not in cone:
            cone[t.uid] = t
            stack.extend(t.args)
    for uid in sorted(cone):
        translator.translate(cone[uid])
    for setting in settings:
        btor.Assert(translator.nodes[setting.uid])
    assert btor.Sat() == btor.SAT
    return [int(translator.nodes[t.uid].assignment, 2) for t in terms]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("initial", [None, bytes(4 * CELLS), bytes(range(4 * CELLS))])
def test_reads_hold_the_last_write(seed: int, initial: bytes | None) -> None:
    """Random writes (known or symbolic index, unconditional or under a condition) then reads at
    every cell and at a symbolic index: each read is the cell's value in a list updated the
    same way (a free initial cell reads as the array's own initial value, the same at every read)."""
    rng = random.Random(seed)
    tb = TermBuilder()
    memory = ObjectContents.of(tb, SimpleNamespace(id=seed, cell=4, initial=initial))
    width = ObjectContents.index_width(4)
    cells: list[int | None] = [None if initial is None else int.from_bytes(initial[4 * k:4 * k + 4], "little")
                               for k in range(CELLS)]
    fixed = {}
    for n in range(rng.randrange(1, 3 * CELLS)):
        value, runs = rng.getrandbits(32), rng.random() < 0.7
        where = rng.randrange(CELLS)
        if rng.random() < 0.5:
            index = tb.const(where, width)
        else:  # symbolic: an input the solver is told
            index = tb.input(("index", n), width)
            fixed[index] = where
        if rng.random() < 0.5:
            condition = tb.const(int(runs), 1)
        else:
            condition = tb.input(("runs", n), 1)
            fixed[condition] = int(runs)
        memory.write(condition, index, tb.const(value, 32))
        if runs:
            cells[where] = value
    reads = [memory.read(tb.const(k, width)) for k in range(CELLS)]
    probe = tb.input(("probe",), width)
    at = rng.randrange(CELLS)
    fixed[probe] = at
    reads.append(memory.read(probe))
    values = _solve(tb, reads, fixed)
    for k in range(CELLS):
        if cells[k] is not None:
            assert values[k] == cells[k], (k, values, cells)
    assert values[CELLS] == values[at]  # the symbolic read agrees with the known one


def test_offsets_of_scaled_indices_are_cell_boundaries() -> None:
    tb = TermBuilder()
    k = tb.input(0, 32)
    offset = tb.extract(tb.op("mul", tb.sext(k, 64), tb.const(4, 64)), OFFSET_BITS - 1, 0)
    assert trailing_zeros(offset) >= 2
    assert trailing_zeros(tb.op("add", offset, tb.const(8, OFFSET_BITS))) >= 2
    assert trailing_zeros(tb.op("add", offset, tb.const(2, OFFSET_BITS))) == 1
    assert trailing_zeros(tb.sext(k, 64)) == 0


ABSTRACT = [
    ("programs/arrays/copy_false.c", "false"), ("programs/arrays/copy_true.c", "true"),
    ("programs/arrays/tiling_false.c", "false"), ("programs/arrays/parity_false.c", "false"),
    ("programs/arrays/fpi_sum_false.c", "false"), ("programs/arrays/struct_flags_false.c", "false"),
    ("programs/arrays/read_after_write_false.c", "false"), ("programs/arrays/struct_neighbours_false.c", "false"),
    ("wordbmc_programs/fill_one_wrong_1000_false.c", "false"), ("wordbmc_programs/fill_10_true.c", "true"),
    ("wordbmc_programs/fill_1000_true.c", "true"), ("wordbmc_programs/search_absent_100_false.c", "false"),
    ("wordbmc_programs/max_skips_last_100_false.c", "false"), ("wordbmc_programs/copy_last_100_false.c", "false"),
    ("wordbmc_programs/flags_100_false.c", "false"),
    ("wordbmc_programs/symbolic_read_2000_false.c", "false"), ("wordbmc_programs/symbolic_read_2000_true.c", "true"),
    ("wordbmc_programs/uninitialised_2000_false.c", "false"), ("wordbmc_programs/prefix_2000_true.c", "true"),
    ("wordbmc_programs/prefix_2000_false.c", "false"),
]


@pytest.mark.parametrize("path, expected", ABSTRACT)
def test_abstract_arrays_followed_exactly(path: str, expected: str) -> None:
    """With every array abstract (more than 8 cells), the unrolling reads what the program wrote:
    each FALSE program's bug is found and replayed natively; a TRUE program gets no path at all
    (its reads never take a value the memory does not hold), and one whose runs all end is
    unrolled to the end."""
    encoded = encode_file(HERE / path, m32=True, exact_cells=8)
    assert any(obj.abstract for obj in encoded.word.memory_objects)
    found = word_bmc(encoded, deadline=time.monotonic() + (30.0 if expected == "false" else 8.0))
    if expected == "false":
        assert found.status == "error", found.reason
        result = confirm_counterexample(encoded, found.trace, HERE / path, m32=True, timeout=30)
        assert result.verdict == "false", result.reason
    else:
        assert found.status == "unknown", "a path on a correct program"
        assert found.reason.startswith("every run ends") or found.reason == "timeout", found.reason


def test_fill_and_the_select_budget() -> None:
    """A whole-object memset makes every cell its value; a lifetime's start (an input) any
    contents; reads of a written array at symbolic indices stop at the budget (the read keeps
    its havoc value), and a conditional write at a symbolic index then ends the following."""
    tb = TermBuilder()
    memory = ObjectContents.of(tb, SimpleNamespace(id=1, cell=4, initial=None, size=4 * CELLS), SelectBudget(left=1))
    width = ObjectContents.index_width(4)
    memory.write(tb.true(), tb.const(2, width), tb.const(5, 32))
    assert memory.fill(tb.true(), tb.const(7, 32), "filled")
    assert memory.read(tb.const(2, width)) is tb.const(7, 32)
    memory.write(tb.true(), tb.const(3, width), tb.const(9, 32))
    assert memory.read(tb.const(3, width)) is tb.const(9, 32) and memory.read(tb.const(4, width)) is tb.const(7, 32)
    assert not memory.fill(tb.input(0, 1), tb.const(0, 32), "maybe")  # a fill that may not run
    k = tb.input(1, width)
    assert memory.read(k) is not None and memory.budget.left == 0
    assert memory.read(tb.input(2, width)) is None
    memory.write(tb.input(3, 1), k, tb.const(1, 32))
    assert memory.lost
    fresh = ObjectContents.of(tb, SimpleNamespace(id=2, cell=4, initial=None, size=4 * CELLS))
    assert fresh.fill(tb.true(), tb.input(4, 32 * CELLS), "undefined") and fresh.read(k).op == "select"
