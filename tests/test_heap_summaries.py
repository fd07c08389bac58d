"""Summaries of allocation sites in loops (`SITE_SUMMARY`, docs/memory.md, "Allocation sites in
loops: summaries"): one object holds every run's block, node n at n times the node's size, one
node tracked; facts about every node handed out (`k < x.runs ==> ...`, a `next` that is NULL or
a node) prove lists of any size the program builds, where pools stop at 64 objects.

The programs of tests/heap_programs are TRUE, FALSE or UNKNOWN by construction (the reason in
the first line); each is run natively too (tests/nondet_driver.c). All checks are ILP32.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.encoding.memory import SITE_SUMMARY
from llumc.errors import UnsupportedError
from llumc.pipeline import encode_file
from tests.test_loop_programs import build_native, run_native

HEAP = Path(__file__).parent / "heap_programs"
TIMEOUT = 60.0


def _native(path: Path, tmp_path: Path) -> str:
    binary = tmp_path / (path.stem + ".bin")
    build_native(path, binary)
    return run_native(binary, [[]])[0][0]


@pytest.mark.parametrize("name", ["list_walk_10_true.c", "list_walk_1000_true.c", "list_walk_100000_true.c",
                                  "list_append_true.c", "list_mark_true.c"])
def test_a_list_built_in_a_loop_is_proven_by_its_summary(name: str, tmp_path: Path) -> None:
    """The first pools reach the allocation bound; the summary's facts about every node prove
    the walk, whatever the list's length. In list_mark_true.c the walk that marks each node
    reads `p->next` after writing `p->mark`: the fact about `next` holds at that read too, since
    the step's write covers another cell (`ContentRead.step_writes`)."""
    path = HEAP / name
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "true", result.reason
    assert result.heap_pool == SITE_SUMMARY
    memory = " ".join(invariant["memory"] for invariant in result.invariants)
    assert "points to a node of malloc_" in memory, memory
    assert _native(path, tmp_path) == "ok"


@pytest.mark.parametrize("name, random_tests", [
    ("list_walk_10_false.c", False),
    pytest.param("list_walk_1000_false.c", False, marks=pytest.mark.slow),  # 13 s; list_walk_10 runs
    pytest.param("list_walk_100000_false.c", True, marks=pytest.mark.slow),  # 8 s
    pytest.param("list_mark_false.c", True, marks=pytest.mark.slow)])  # 8 s; list_mark_true runs
def test_a_wrong_node_is_false_and_replayed(name: str, random_tests: bool, tmp_path: Path) -> None:
    """The engines find the wrong node among 10 and 1 000 (the word-level BMC follows every
    node's contents); behind 150 000 steps, the random tests' native run does."""
    path = HEAP / name
    result = check_program(path, m32=True, timeout=30.0 if random_tests else TIMEOUT, random_tests=random_tests)
    assert result.verdict == "false", result.reason
    # (a trace of the engines is replayed; the random tests' run is native already)
    assert result.confirmation.startswith(("replayed", "native run")), result.confirmation
    assert _native(path, tmp_path) == "error"


def test_a_summary_is_one_object_with_a_tracked_node() -> None:
    encoded = encode_file(HEAP / "list_walk_1000_true.c", m32=True, heap_pool=SITE_SUMMARY)
    (node,) = [obj for obj in encoded.word.memory_objects if obj.heap]
    assert node.summary and node.abstract and node.c_name == "malloc_8"
    assert (node.size, node.node_stride, node.node_pointers) == (8, 8, (4,))
    assert [var.name for _index, _offset, var in node.tracked_cells()] == ["malloc_8[#]", "malloc_8[#]+4"]
    # node offsets fit a stored pointer's 24 bits under ILP32 (the object id in the top byte)
    assert node.max_nodes == 1 << 20 and node.pool_runs.width == 21
    assert node.far_node == (1 << 20) - 2  # (and node (1 << 20) - 1 the tracked far one)
    assert encoded.heap_pool == SITE_SUMMARY


def test_a_pointer_to_a_tree_s_links_gets_a_node_fact() -> None:
    """`struct node **link` starts at `&root` and moves to `&(*link)->left` or `->right`: the
    candidate says so (`&root`, or into a node at +4 or +8; never NULL in the runs, so also
    without NULL, which makes `*link` valid), the root cell gets the node fact of a pointer
    variable, the keys `>= 0`, and the inner loop's head, where the node is allocated but not
    yet counted by `i`, has `runs == i + 1`."""
    import time

    from llumc.invariants.candidates import propose
    from llumc.invariants.simulate import simulate

    encoded = encode_file(HEAP / "tree_insert_1000_true.c", m32=True, heap_pool=SITE_SUMMARY)
    samples = simulate(encoded.word, seconds=None, deadline=time.monotonic() + 2.0)
    proposed = {cand.expression for cand in propose(encoded.word, encoded.debug, samples, fn=encoded.fn)}
    assert "(link == NULL || link == &root || link points into a node at +4, +8 of malloc_11)" in proposed
    assert "(root == NULL || root points to a node of malloc_11)" in proposed
    assert "(\\forall k: k < malloc_11.runs ==> malloc_11[k] >= 0)" in proposed
    assert "(link == &root || link points into a node at +4, +8 of malloc_11)" in proposed
    assert "malloc_11.runs == i + 1" in proposed


@pytest.mark.parametrize("name, verdict", [
    # 35 s beside the suite, and its search's runs are bounded by time (too few facts under
    # load); the tree through a pointer to its links (tests/test_heap_pools.py) runs
    pytest.param("tree_insert_1000_true.c", "true", marks=pytest.mark.slow),
    pytest.param("tree_insert_1000_false.c", "false", marks=pytest.mark.slow)])  # 15 s; tree_insert_3_false runs
def test_a_search_tree_built_in_a_loop(name: str, verdict: str, tmp_path: Path) -> None:
    """The search tree's summary is proven by the facts above with every node's keys `>= 0`
    and links NULL or nodes (the search reads untracked nodes' cells, which their instances
    describe); its FALSE twin, whose last key is -1, is found by the random tests (1 000
    insertions are beyond the engines' paths)."""
    path = HEAP / name
    # 120 s: alone the TRUE takes 21 s, but its search's runs are bounded by time, and beside
    # the suite on a slow host they kept too few facts within 60 s
    result = check_program(path, m32=True, timeout=2 * TIMEOUT, random_tests=verdict == "false")
    assert result.verdict == verdict, result.reason
    if verdict == "true":
        assert result.heap_pool == SITE_SUMMARY
        memory = " ".join(invariant["memory"] for invariant in result.invariants)
        assert "malloc_11[k] >= 0" in memory and "malloc_11[k]+8 points to a node of malloc_11" in memory, memory
    else:
        assert result.confirmation.startswith(("replayed", "native run")), result.confirmation
    binary = tmp_path / (path.stem + ".bin")
    build_native(path, binary)
    assert run_native(binary, [[0] * 1001, list(range(1001))]) == [(verdict == "true" and "ok" or "error", 1001)] * 2


@pytest.mark.parametrize("name, why", [
    ("list_next_node_unknown.c", "summary of blocks accessed outside the block"),
    ("list_free_reused_false.c", "summary of freed blocks whose pointers are compared"),
])
def test_a_summary_refuses_what_it_would_hide(name: str, why: str) -> None:
    """Laid out one after another, the nodes would let `n + 1` reach the next node (outside
    the block in C); a freed block's address may be handed out again, which node n for run n
    never is, so a comparison of two such pointers could come out otherwise than in C."""
    with pytest.raises(UnsupportedError) as refused:
        encode_file(HEAP / name, m32=True, heap_pool=SITE_SUMMARY)
    assert why in str(refused.value), refused.value


def test_a_node_reached_past_its_block_is_never_true() -> None:
    result = check_program(HEAP / "list_next_node_unknown.c", m32=True, timeout=6.0)
    assert result.verdict == "unknown", result.reason


def test_valid_memsafety_proves_the_accesses_but_not_the_leaks() -> None:
    """A summary has no allocated bit per node: the walk's accesses are proven valid, leaks are
    not checked (the list is never freed: natively it leaks)."""
    result = check_program(HEAP / "list_walk_1000_true.c", m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict == "unknown"
    assert result.reason == ("no invalid dereference or free (proven), but memory leaks (valid-memtrack) are not "
                             "checked where allocation sites in loops are summarised"), result.reason
