"""Facts over the cells of small exact arrays (`llumc.invariants.candidates._exact_cells`):
sortedness with a hole and the cells the hole has passed, which prove insertion sorts.

An array of at most 8 cells is exact in every round (`PROOF_EXACT_CELLS`): its cells are state
variables, there is no tracked cell, and the quantified facts are stated as the conjunction of their instances. The
programs (tests/sort_programs) are TRUE or FALSE by construction and run natively here; the
candidates' terms are checked against their C text on states the runs never saw.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.encoding.terms import evaluate, mask, to_signed
from llumc.invariants.candidates import cut_variables, propose
from llumc.invariants.simulate import simulate
from llumc.pipeline import encode_file
from tests.test_loop_programs import build_native, run_native

SORTS = Path(__file__).parent / "sort_programs"
TIMEOUT = 120.0  # seconds alone (10 s or less); the rest is the margin for a loaded machine

# the facts each TRUE program's proof needs, as the invariants print them
NEEDED = {
    "insertion_sort_5_true": ["(\\forall k, l: k < l && l <= i && k != j + 1 && l != j + 1 ==> a[k] <= a[l])",
                              "(\\forall k: k > j + 1 && k <= i ==> a[k] > key)",
                              "(\\forall k, l: k < l ==> a[k] <= a[l])"],
    # the hole at j; unsigned char cells compared unsigned (a signed reading would reorder 200 and 1)
    "insertion_sort_desc_uchar_true": ["(\\forall k, l: k < l && l <= i && k != j && l != j ==> a[k] >= a[l])",
                                       "(\\forall k, l: k < l ==> a[k] >= a[l])"],
}
NATIVE_INPUTS = {
    "insertion_sort_5_true": [[5, 4, 3, 2, 1], [1, 2, 3, 4, 5], [0, -1, 2147483647, -2147483648, 0]],
    "insertion_sort_desc_uchar_true": [[1, 200, 3, 255, 0, 7], [0] * 6, [6, 5, 4, 3, 2, 1]],
}


def _native(path: Path, vectors: list[list[int]], tmp_path: Path) -> list[str]:
    binary = tmp_path / (path.stem + ".bin")
    build_native(path, binary)
    return [outcome for outcome, _used in run_native(binary, vectors)]


@pytest.mark.parametrize("name", sorted(NEEDED))
def test_an_insertion_sort_is_proven_by_sortedness_with_a_hole(name: str, tmp_path: Path) -> None:
    path = SORTS / f"{name}.c"
    assert set(_native(path, NATIVE_INPUTS[name], tmp_path)) == {"ok"}
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "true", result.reason
    memory = " && ".join(loop.get("memory", "") for loop in result.invariants)
    for fact in NEEDED[name]:
        assert fact in memory, result.invariants


def test_an_insertion_sort_that_never_moves_below_cell_one_is_false(tmp_path: Path) -> None:
    path = SORTS / "insertion_sort_5_false.c"
    assert _native(path, [[1, 0, 2, 3, 4]], tmp_path) == ["error"]
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "false", result.reason
    inputs = [i.value for step in result.trace for i in step.inputs]
    assert _native(path, [inputs], tmp_path) == ["error"]


def test_unsigned_elements_are_read_from_the_debug_info() -> None:
    encoded = encode_file(SORTS / "insertion_sort_desc_uchar_true.c", m32=True)
    assert "a" in encoded.debug.unsigned_elements
    assert "a" not in encoded.debug.unsigned_variables  # the array itself is no unsigned scalar
    assert "a" not in encode_file(SORTS / "insertion_sort_5_true.c", m32=True).debug.unsigned_elements


def test_cells_no_comparison_reads_get_no_facts() -> None:
    """pointer_walk_true sums `a[0..5]` through a pointer and compares no cell: order facts over
    its cells would only cost Houdini (0.06 s of search became 0.9 s). The insertion sort
    compares two cells (`a[i] > a[i + 1]`) and a cell with the key."""
    walk = encode_file(Path(__file__).parent / "programs" / "memory" / "pointer_walk_true.c", m32=True)
    assert [o.compared_cells for o in walk.word.memory_objects] == [0]
    samples = simulate(walk.word, seed=0, seconds=5.0)
    assert not [c for c in propose(walk.word, walk.debug, samples, fn=walk.fn) if "a[k]" in c.expression]
    sort = encode_file(SORTS / "insertion_sort_5_true.c", m32=True)
    assert [o.compared_cells for o in sort.word.memory_objects] == [2]


_FORALL = re.compile(r"\(\\forall ([kl, ]+): (.*) ==> (.*)\)")


def _text_holds(expression: str, cells: list[int], values: dict[str, int]) -> bool:
    """The C text of an exact-cell fact over mathematical integers, its quantifiers over the
    array's indices (`a[k]` is cells[k])."""
    match = _FORALL.fullmatch(expression)
    assert match, expression
    names, premise, fact = match.group(1).replace(" ", "").split(","), match.group(2), match.group(3)

    def resolve(text: str, index: dict[str, int]) -> str:
        text = re.sub(r"\ba\[([kl])\]", lambda m: f"({cells[index[m.group(1)]]})", text)
        for name in sorted([*values, *index], key=len, reverse=True):
            value = index[name] if name in index else values[name]
            text = re.sub(rf"(?<![\w\[]){re.escape(name)}(?![\w\]])", f"({value})", text)
        assert re.fullmatch(r"[\d\s()+\-<>=!&]+", text), text
        return text.replace("&&", " and ").replace("!=", "__NE__").replace("!", " not ").replace("__NE__", "!=")

    for ks in (range(len(cells)) if len(names) == 1 else [(k, l) for k in range(len(cells)) for l in range(len(cells))]):
        index = dict(zip(names, ks if isinstance(ks, tuple) else (ks,)))
        if eval(resolve(premise, index)) and not eval(resolve(fact, index)):  # noqa: S307 - digits and operators
            return False
    return True


@pytest.mark.parametrize("name", ["insertion_sort_5_true", "insertion_sort_desc_uchar_true"])
def test_exact_cell_facts_say_what_their_text_says(name: str) -> None:
    """Each candidate is 1 on every sample it was proposed from, and on states with the cells
    shuffled and redrawn (where many are false) its term and its C text agree."""
    encoded = encode_file(SORTS / f"{name}.c", m32=True)
    word = encoded.word
    (array,) = word.memory_objects
    signed = array.c_name not in encoded.debug.unsigned_elements
    samples = simulate(word, seed=0, seconds=5.0)
    facts = [c for c in propose(word, encoded.debug, samples, fn=encoded.fn)
             if c.kind == "tracked" and "a[k]" in c.expression]
    assert len({c.cut for c in facts}) >= 3  # both loops of the sort and the check's loop
    variables = {cut: [v for v in cut_variables(word, encoded.debug, cut, encoded.fn) if v.c_named]
                 for cut in samples.states}
    rng = random.Random(1)
    disagreed = falsified = 0
    for cand in facts:
        states = samples.states[cand.cut]
        for state in states[:: max(1, len(states) // 40)]:
            leaves = {("state", k): v for k, v in state.items()}
            assert evaluate(cand.term, leaves) == 1, (cand.expression, state)
            for _ in range(5):
                changed = dict(state)
                width = array.cells[0].width
                redrawn = [state[c.index] for c in array.cells]
                rng.shuffle(redrawn)
                redrawn[rng.randrange(len(redrawn))] = rng.randrange(1 << width)
                for cell, value in zip(array.cells, redrawn):
                    changed[cell.index] = value
                term = evaluate(cand.term, {("state", k): v for k, v in changed.items()}) == 1
                cells = [to_signed(v, width) if signed else v & mask(width) for v in redrawn]
                values = {v.name: v.value(changed[v.index]) for v in variables[cand.cut]}
                disagreed += term != _text_holds(cand.expression, cells, values)
                falsified += not term
    assert disagreed == 0
    assert falsified > 0  # the shuffles reach states where facts are false
