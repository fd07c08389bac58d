"""Allocation sites in loops (llumc.encoding.memory.HeapPool, docs/memory.md): a malloc/calloc
call site that may run more than once is a pool of K objects, its (K+1)-th run the allocation
bound, an outcome of its own; llumc.check doubles K while the bound is reached.

The programs of tests/heap_programs are TRUE, FALSE or UNKNOWN by construction (the verdict
is in the file name, the reason in its first line). Each is also run natively, without llumc
(tests/nondet_driver.c): a FALSE trace's inputs reach the error, a TRUE program never errs
on small inputs. All checks are ILP32 (`--32`), as the other memory tests.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from llumc.check.portfolio import check_program
from llumc.encoding.memory import DEFAULT_HEAP_POOL, SITE_SUMMARY
from llumc.pipeline import encode_file
from tests.test_loop_programs import build_native, run_native

HEAP = Path(__file__).parent / "heap_programs"
TIMEOUT = 90.0


def _native(path: Path, vectors: list[list[int]], tmp_path: Path) -> list[str]:
    binary = tmp_path / (path.stem + ".bin")
    build_native(path, binary)
    return [outcome for outcome, _ in run_native(binary, vectors)]


def _inputs(result) -> list[int]:
    return [i.value for step in result.trace for i in step.inputs]


def test_a_list_of_five_is_true_once_the_pool_holds_five(tmp_path: Path) -> None:
    """The bound is reached with the first pool (4 objects, 5 runs) and proven unreachable
    with the next (8): TRUE, and natively the program never errs."""
    path = HEAP / "list_sum_true.c"
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "true", result.reason
    assert result.heap_pool == 2 * DEFAULT_HEAP_POOL
    assert _native(path, [[]], tmp_path) == ["ok"]


def test_a_wrong_sum_is_false_and_replayed(tmp_path: Path) -> None:
    path = HEAP / "list_sum_false.c"
    # (pools from the start: without them the summaries' word-level BMC may find it first)
    result = check_program(path, m32=True, timeout=TIMEOUT, heap_pool=DEFAULT_HEAP_POOL)
    assert result.verdict == "false", result.reason
    assert result.confirmation.startswith("replayed:"), result.confirmation
    # counterexamples name each run's object
    changed = {name for step in result.trace for name in step.changes}
    assert {f"malloc_8#{n}.allocated" for n in range(1, 6)} <= changed, changed
    assert _native(path, [[]], tmp_path) == ["error"]


def test_a_bug_at_the_third_node_of_a_list_of_any_length(tmp_path: Path) -> None:
    path = HEAP / "nondet_length_false.c"
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "false", result.reason
    assert result.confirmation.startswith("replayed:"), result.confirmation
    assert _inputs(result)[0] >= 3
    assert _native(path, [_inputs(result)], tmp_path) == ["error"]
    assert _native(path, [[n] for n in (-1, 0, 1, 2)], tmp_path) == ["ok"] * 4


def test_a_tree_built_through_a_pointer_to_its_links(tmp_path: Path) -> None:
    """`struct node **link` is `&root` or `&n->left` / `&n->right`: a pointer's offsets are
    kept per object it points to (offset 0 in `root`, 4 or 8 in the nodes), so the links
    never overlap the nodes' `int` field at offset 0 (the program was `UNKNOWN (unsupported:
    pointer read or written as an integer)`). TRUE with a pool of 4; the tree whose third
    node holds -1 is FALSE, replayed, and natively so."""
    encode_file(HEAP / "tree_insert_3_true.c", m32=True)  # (no refusal)
    result = check_program(HEAP / "tree_insert_3_true.c", m32=True, timeout=TIMEOUT)
    assert result.verdict == "true", result.reason
    assert _native(HEAP / "tree_insert_3_true.c", [[0, 0, 0, 0], [5, 3, 7, 4]], tmp_path) == ["ok", "ok"]
    result = check_program(HEAP / "tree_insert_3_false.c", m32=True, timeout=TIMEOUT)
    assert result.verdict == "false", result.reason
    assert result.confirmation.startswith("replayed:"), result.confirmation
    assert _native(HEAP / "tree_insert_3_false.c", [_inputs(result), [0, 0, 0, 0]], tmp_path) == ["error", "error"]


def test_use_after_free_in_a_loop_is_false_under_valid_memsafety() -> None:
    result = check_program(HEAP / "use_after_free_false.c", m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict == "false", result.reason
    assert result.error.kind == "memory" and result.error.line == 14
    assert "after free" in result.error.description, result.error.description
    assert result.confirmation.startswith("replayed: invalid memory access at use_after_free_false.c:14")


def test_a_list_freed_completely_is_memory_safe(tmp_path: Path) -> None:
    """valid-memsafety TRUE: no invalid dereference or free, and no leak (the leak edges
    follow the pointer cells of every pool object)."""
    path = HEAP / "freed_list_true.c"
    result = check_program(path, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict == "true", result.reason
    assert _native(path, [[]], tmp_path) == ["ok"]


def test_a_list_of_any_length_is_proven_by_the_summary(tmp_path: Path) -> None:
    """Correct for every length: no pool is large enough, the summary (whose far nodes take
    every run past its numbered ones) proves it."""
    path = HEAP / "nondet_length_true.c"
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "true", result.reason
    assert result.heap_pool == SITE_SUMMARY
    assert _native(path, [[n] for n in (-1, 0, 1, 2, 3, 9)], tmp_path) == ["ok"] * 6


def test_a_pool_is_k_objects_and_a_counter() -> None:
    """The encoding: K objects per site in a loop, named by run, one counter; a site outside
    loops keeps its one object."""
    encoded = encode_file(HEAP / "freed_list_true.c", m32=True, heap_pool=3)
    heap = [obj for obj in encoded.word.memory_objects if obj.heap]
    assert [obj.c_name for obj in heap] == ["calloc_8#1", "calloc_8#2", "calloc_8#3"]
    assert encoded.heap_pool == 3
    assert [var.name for var in encoded.word.state if var.name.endswith(".runs")] == ["calloc_8.runs"]
    single = encode_file(Path(__file__).parent / "programs" / "memory" / "malloc_buffer_true.c", m32=True)
    assert single.heap_pool is None and all(obj.pool_index is None for obj in single.word.memory_objects)


def test_a_bad_pool_size_is_one_line_and_exit_2() -> None:
    completed = subprocess.run([sys.executable, "-m", "llumc", "check", str(HEAP / "list_sum_true.c"),
                                "--heap-pool", "0"], capture_output=True, text=True, timeout=100)
    assert completed.returncode == 2, completed.stderr
    assert completed.stderr.strip() == "llumc: error: --heap-pool must be between 1 and 64", completed.stderr


def _recycling(path: Path) -> bool:
    """Whether the program's pool hands freed objects out again (no run counter then)."""
    encoded = encode_file(path, m32=True, prop="valid-memsafety")
    pooled = [obj for obj in encoded.word.memory_objects if obj.heap and "#" in obj.c_name]
    assert pooled, "no pool"
    return all(obj.pool_runs is None for obj in pooled)


def test_a_buffer_freed_in_each_run_is_handed_out_again(tmp_path: Path) -> None:
    """buffer_reused_true.c allocates and frees a buffer 100 times: no pointer to a run's block
    outlives the run, so the site hands the freed object out again (`MemoryEncoder._recycles`)
    and the first pool suffices: TRUE under both properties. The twin whose 58th buffer is
    wrong is FALSE, replayed."""
    path = HEAP / "buffer_reused_true.c"
    assert _recycling(path)
    assert _native(path, [[]], tmp_path) == ["ok"]
    for prop in ("unreach-call", "valid-memsafety"):
        result = check_program(path, m32=True, timeout=TIMEOUT, prop=prop)
        assert result.verdict == "true", (prop, result.reason)
        assert result.heap_pool == DEFAULT_HEAP_POOL
    twin = HEAP / "buffer_reused_false.c"
    found = check_program(twin, m32=True, timeout=TIMEOUT)
    assert found.verdict == "false", found.reason
    assert found.confirmation.startswith("replayed:"), found.confirmation
    assert _native(twin, [[]], tmp_path) == ["error"]


def test_reuse_keeps_use_after_free_and_double_free(tmp_path: Path) -> None:
    """A pointer to the last run's buffer live where the site runs again (`prev`) keeps the pool
    from reusing its objects, so reading it after free is found; a second free before the next
    run is found with reuse. Both replayed natively."""
    stale = HEAP / "buffer_stale_false.c"
    assert not _recycling(stale)
    result = check_program(stale, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict == "false", result.reason
    assert "after free" in result.error.description, result.error.description
    twice = HEAP / "buffer_double_free_false.c"
    assert _recycling(twice)
    result = check_program(twice, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict == "false", result.reason
    assert result.error.line == 9 and "free" in result.error.description, result.error
    assert result.confirmation.startswith("replayed: invalid free"), result.confirmation
