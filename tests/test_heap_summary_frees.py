"""Summaries whose nodes are freed (docs/memory.md, "Allocation sites in loops: summaries"):
the tracked node has a freed bit, a free or an access of the tracked node after its free
faults, and the facts that a freeing walk leaves freed nodes on one side of it (`p` below every
freed node, each `next` below its node) prove the walk; every SV-COMP list program frees its
list at the end.

The programs of tests/heap_programs are TRUE or FALSE by construction (the reason in their
first line), each run natively too. All checks are ILP32.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.encoding.memory import SITE_SUMMARY
from llumc.pipeline import encode_file
from tests.test_heap_summaries import _native

HEAP = Path(__file__).parent / "heap_programs"
TIMEOUT = 60.0
FREED_WALK = "(\\forall k: k < malloc_8.runs && malloc_8[k] freed ==> (head == NULL || head points to a node of malloc_8 below k))"
LINKS_DOWN = "(\\forall k: k < malloc_8.runs ==> (malloc_8[k]+4 == NULL || malloc_8[k]+4 points to a node of malloc_8 below k))"


@pytest.mark.parametrize("size", [10, 1000, pytest.param(100000, marks=pytest.mark.slow)])
def test_a_list_freed_node_by_node_is_proven(size: int, tmp_path: Path) -> None:
    path = HEAP / f"list_free_{size}_true.c"
    assert _native(path, tmp_path) == "ok"
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "true", result.reason
    assert result.heap_pool == SITE_SUMMARY
    memory = " ".join(invariant["memory"] for invariant in result.invariants)
    assert FREED_WALK in memory and LINKS_DOWN in memory, memory


def test_the_tracked_node_has_a_freed_bit_where_nodes_are_freed() -> None:
    (freed,) = [obj for obj in encode_file(HEAP / "list_free_1000_true.c", m32=True,
                                           heap_pool=SITE_SUMMARY).word.memory_objects if obj.heap]
    assert freed.summary and freed.frees_nodes and freed.node_freed.name == "malloc_8[#].freed"
    assert freed.node_freed.width == 1 and freed.node_freed.init == 0
    (kept,) = [obj for obj in encode_file(HEAP / "list_walk_1000_true.c", m32=True,
                                          heap_pool=SITE_SUMMARY).word.memory_objects if obj.heap]
    assert kept.summary and not kept.frees_nodes and kept.node_freed is None


def test_a_wrong_node_before_the_frees_is_false_and_replayed(tmp_path: Path) -> None:
    path = HEAP / "list_free_wrong_node_false.c"
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "false", result.reason
    assert result.confirmation.startswith("replayed"), result.confirmation
    assert _native(path, tmp_path) == "error"


@pytest.mark.parametrize("name, part, why", [
    ("list_free_then_read_false.c", "valid-deref", "use of a node of 'malloc_7' after free (read of 4 bytes)"),
    ("list_free_twice_false.c", "valid-free", "use of a node of 'malloc_7' after free (free)"),
])
def test_a_freed_node_used_again_is_false_and_replayed(name: str, part: str, why: str) -> None:
    """The fault lies at a node the search chooses as the tracked one (the word-level BMC
    leaves that index free where nodes are freed); the replay confirms it natively."""
    result = check_program(HEAP / name, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict == "false", result.reason
    assert result.confirmation.startswith("replayed"), result.confirmation
    assert (result.error.subproperty, result.error.description) == (part, why), result.error


def test_a_double_free_among_1000_nodes_is_found_by_a_native_run() -> None:
    """The word-level BMC would have to choose the node freed twice as the tracked one among
    1 000; the random tests run under valid-memsafety too, and their run's free traps in the
    replay's harness, which names the subproperty."""
    result = check_program(HEAP / "list_free_twice_1000_false.c", m32=True, timeout=TIMEOUT, prop="valid-memsafety",
                           random_tests=True)
    assert result.verdict == "false", result.reason
    assert result.engine == "random tests" and result.confirmation.startswith("native run"), result.confirmation
    assert (result.error.subproperty, result.error.description, result.error.line) == ("valid-free", "invalid free", 19)


def test_unreach_call_is_never_true_over_a_use_after_free() -> None:
    """Under unreach-call an invalid access is no TRUE either: the model stops there."""
    result = check_program(HEAP / "list_free_then_read_false.c", m32=True, timeout=10.0)
    assert result.verdict != "true", result.reason


def test_a_reused_address_is_found_by_the_pools(tmp_path: Path) -> None:
    """The summary refuses the comparison of a freed block's address with a new one
    (test_heap_summaries); the recycling pool hands the freed object out again, and the
    native allocator does the same: FALSE, replayed."""
    path = HEAP / "list_free_reused_false.c"
    result = check_program(path, m32=True, timeout=30.0)
    assert result.verdict == "false", result.reason
    assert _native(path, tmp_path) == "error"
