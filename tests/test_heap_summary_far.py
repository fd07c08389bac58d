"""The far nodes of a summary (docs/memory.md, "Allocation sites in loops: summaries"): the
runs past the numbered nodes share node F, one of them (where the tracked index is F + 1) gets
node F + 1, and two pointers into node F may be one block or two. So a site may run without
bound, a list of any length is proven, and whatever a far block does is still in the model.

The numbered nodes are 2^20 under ILP32, beyond what the engines' paths reach: these tests make
them few (`MAX_SUMMARY_NODES` 8: nodes 0..5 numbered, 6 far, 7 the tracked far one) so that
the far nodes are where the bugs are. Each program of tests/heap_programs is TRUE or FALSE by
construction, and run natively too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.encoding import memory
from llumc.encoding.memory import SITE_SUMMARY
from llumc.pipeline import encode_file
from tests.test_heap_summary_differential import _program
from tests.test_loop_programs import build_native, run_native
from tests.test_memory_differential import check_against_native

HEAP = Path(__file__).parent / "heap_programs"
TIMEOUT = 30.0
FEW_NODES = 8


@pytest.fixture
def few_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "MAX_SUMMARY_NODES", FEW_NODES)


def _native(path: Path, tmp_path: Path) -> str:
    binary = tmp_path / (path.stem + ".bin")
    build_native(path, binary)
    return run_native(binary, [[]])[0][0]


def test_the_far_nodes_follow_the_numbered_ones(few_nodes: None) -> None:
    encoded = encode_file(HEAP / "far_wrong_node_false.c", m32=True, heap_pool=SITE_SUMMARY)
    (node,) = [obj for obj in encoded.word.memory_objects if obj.heap]
    assert (node.max_nodes, node.far_node, node.tracked_index.width, node.pool_runs.width) == (8, 6, 3, 4)


@pytest.mark.parametrize("name, prop, subproperty", [
    ("far_wrong_node_false.c", "unreach-call", None),  # the tracked far node holds 3
    ("far_distinct_false.c", "unreach-call", None),  # two pairs of far pointers, both unequal
    ("far_double_free_false.c", "valid-memsafety", "valid-free"),  # the tracked far node freed twice
])
def test_a_bug_on_a_far_node_is_found_and_replayed(name: str, prop: str, subproperty: str | None,
                                                   few_nodes: None, tmp_path: Path) -> None:
    path = HEAP / name
    result = check_program(path, m32=True, timeout=TIMEOUT, heap_pool=SITE_SUMMARY, prop=prop, random_tests=False)
    assert result.verdict == "false", result.reason
    assert result.heap_pool == SITE_SUMMARY
    assert result.confirmation.startswith("replayed"), result.confirmation
    if subproperty:
        assert result.error is not None and result.error.subproperty == subproperty
    else:
        assert _native(path, tmp_path) == "error"


def test_a_list_of_any_length_is_proven_past_the_numbered_nodes(few_nodes: None) -> None:
    result = check_program(HEAP / "nondet_length_true.c", m32=True, timeout=TIMEOUT, heap_pool=SITE_SUMMARY)
    assert result.verdict == "true", result.reason


# (the seeds whose lists outgrow the first pools; 7, 15 s beside the suite, in `make test-all`)
@pytest.mark.parametrize("seed", [0, 5, pytest.param(7, marks=pytest.mark.slow), pytest.param(9, marks=pytest.mark.slow)])
def test_list_programs_with_few_numbered_nodes_match_native_runs(seed: int, few_nodes: None, tmp_path: Path) -> None:
    """tests/test_heap_summary_differential.py's programs, their lists of 30 or 300 nodes mostly
    on the far nodes: llumc's verdict never contradicts the native runs."""
    source = tmp_path / f"list_{seed}.c"
    source.write_text(_program(seed))
    assert "i < 3;" not in source.read_text()
    check_against_native(source, [[x] for x in range(8)], 15.0)
