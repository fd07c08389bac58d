"""Counterexample-guided refinement (llumc/check/refinement.py, docs/memory.md "Refinement").

The programs of tests/refinement_programs hold arrays of 10 elements, checked with the
exact bound lowered to 8 cells (`LLUMC_EXACT_CELLS`, read when llumc starts: a process of its
own), so each array is abstract at first and its contents are havoc values outside one tracked
cell. Each program's first counterexample then reads such values and is not confirmed natively
(the refinement budget lowered below the array's cells shows it: UNKNOWN); refinement makes the
array exact and the check answers: a TRUE proven, a FALSE replayed and its inputs run natively
to the error.

The portfolio's word-level BMC follows the contents of abstract arrays, so its counterexamples
are not refuted this way: the FALSE program that shows refinement is checked with the DimSpec
BMC. copy_1000_true.c and sum_100_false.c are checked with the encoder's own bound: their
arrays are exact by it but abstract in the first round of a check (more than
PROOF_EXACT_CELLS), which proves the copy and finds the sum's bug.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import llumc.encoding.memory
from llumc.check.refinement import MAX_REFINEMENTS, REFINE_CELLS, Refinement, next_refinement
from llumc.encoding.memory import MemoryObject
from llumc.pipeline import encode_file
from tests.test_loop_programs import build_native, run_native

ROOT = Path(__file__).resolve().parent.parent
REFINEMENT = Path(__file__).with_name("refinement_programs")


def _check(name: str, prop: str = "unreach-call", exact_cells: str | None = "8", engine: str = "portfolio",
           **env: str) -> dict:
    """`llumc check --json` of one program with arrays of more than `exact_cells` cells abstract
    (None: the encoder's own bound)."""
    environment = {k: v for k, v in os.environ.items() if k != "LLUMC_EXACT_CELLS"}
    environment.update({"PYTHONPATH": str(ROOT), **env})
    if exact_cells is not None:
        environment["LLUMC_EXACT_CELLS"] = exact_cells
    proc = subprocess.run([sys.executable, "-m", "llumc", "check", str(REFINEMENT / name), "--32", "--property",
                           prop, "--timeout", "60", "--json", "--quiet", "--engine", engine],
                          capture_output=True, text=True, env=environment, timeout=180, cwd=ROOT)
    assert proc.stdout, proc.stderr
    return json.loads(proc.stdout)


def test_refinement_proves_what_the_abstraction_cannot() -> None:
    """progression_true.c compares three neighbours in one step: through the abstract array the check
    is refuted natively, with `a` exact it is proven."""
    refined = _check("progression_true.c")
    assert refined["verdict"] == "true", refined["reason"]
    assert [(r["objects"], r["cells"]) for r in refined["refinements"]] == [(["a"], 10)]
    assert refined["refinements"][0]["counterexample"].startswith("counterexample not confirmed")
    # without a budget for its 10 cells the first counterexample is the answer: not evidence
    unrefined = _check("progression_true.c", LLUMC_REFINE_CELLS="9")
    assert unrefined["verdict"] == "unknown" and unrefined["refinements"] == []
    assert unrefined["reason"].startswith("counterexample not confirmed"), unrefined["reason"]
    assert "refinement exhausted: 'a' has 10 cells" in unrefined["reason"], unrefined["reason"]


def test_refined_counterexample_replays(tmp_path: Path) -> None:
    """sum_false.c errs only for k == 285, the sum of the array: the first counterexample of the
    DimSpec BMC takes the abstract sum, the refined one k = 285, which replays and reaches the
    error natively. (The portfolio's word-level BMC follows the contents and finds k = 285 on
    the abstraction at once: test_first_round_finds_a_bug_through_the_contents.)"""
    result = _check("sum_false.c", engine="bmc")
    assert result["verdict"] == "false", result["reason"]
    assert result["error"]["line"] == 13
    assert [r["objects"] for r in result["refinements"]] == [["a"]]
    inputs = [i["value"] for step in result["trace"] for i in step["inputs"]]
    assert inputs == [285]
    binary = tmp_path / "sum_false.bin"
    build_native(REFINEMENT / "sum_false.c", binary)
    assert run_native(binary, [inputs])[0][0] == "error"
    assert run_native(binary, [[284]])[0][0] == "ok"


@pytest.mark.parametrize("name, prop, verdict", [
    ("index_pair_true.c", "unreach-call", "true"),
    ("index_pair_true.c", "valid-memsafety", "true"),
    ("index_pair_false.c", "valid-memsafety", "false"),
    ("index_pair_false.c", "unreach-call", "unknown"),
])
def test_refinement_of_an_index_read_from_memory(name: str, prop: str, verdict: str) -> None:
    """data[perm[k] + perm[9 - k] - 9]: through the abstract `perm` the two reads are havoc and
    the write may be out of bounds (undefined behaviour under unreach-call, refuted natively
    under valid-memsafety); with `perm` exact it is proven in bounds (index_pair_true.c) or
    replayed out of bounds (index_pair_false.c: perm[3] = 16), which under unreach-call is
    undefined behaviour at its line."""
    result = _check(name, prop)
    assert result["verdict"] == verdict, result["reason"]
    refined = [r["objects"] for r in result["refinements"]]
    # a FALSE may also come first without refinement: from an engine whose path through the
    # abstract `perm` happened to read the values the program stores (word-level BMC, IC3), or
    # from the random tests (native runs: k is 3 or 6 in one run of five); every FALSE is
    # replayed natively all the same
    assert refined == [["perm"]] or (verdict == "false" and refined == []), (refined, result["engine"])
    if verdict == "false":
        assert result["error"]["kind"] == "memory" and result["error"]["line"] == 12
        assert result["confirmation"].startswith("replayed: sanitizer trap")
    if verdict == "unknown":
        assert result["reason"].startswith("invalid memory access (undefined behaviour)")
        assert f"{name}:12" in result["reason"] and "refinement exhausted" not in result["reason"]


@pytest.mark.parametrize("name, prop, verdict", [
    ("index_true.c", "unreach-call", "true"),
    ("index_true.c", "valid-memsafety", "true"),
    ("index_false.c", "valid-memsafety", "false"),
    ("index_false.c", "unreach-call", "unknown"),
])
def test_an_index_read_once_is_answered_on_the_abstraction(name: str, prop: str, verdict: str) -> None:
    """data[perm[k]] reads the abstract `perm` once: the write's fault edge is restricted to
    the tracked cell as a failed check's is (`LbeEncoder._restrict_errors`), so no refinement
    is needed: index_true.c is proven, index_false.c's out-of-bounds write (perm[3] = 10) is
    found with the tracked index at 3 (replayed under valid-memsafety; undefined behaviour at
    its line under unreach-call)."""
    result = _check(name, prop)
    assert result["verdict"] == verdict, result["reason"]
    assert result["refinements"] == [], result["refinements"]
    if verdict == "false":
        assert result["error"]["kind"] == "memory" and result["error"]["line"] == 12
    if verdict == "unknown":
        assert result["reason"].startswith("invalid memory access (undefined behaviour)")
        assert "index_false.c:12" in result["reason"], result["reason"]


def test_object_of_nondeterministic_size_is_not_refined() -> None:
    """A variable-length array has no exact encoding: the refuted counterexample stays UNKNOWN,
    saying why refinement is exhausted."""
    result = _check("vla_progression_unknown.c")
    assert result["verdict"] == "unknown" and result["refinements"] == []
    assert "refinement exhausted: 'a' has a nondeterministic size" in result["reason"], result["reason"]


def test_exact_objects_option_makes_an_abstract_object_exact(monkeypatch, tmp_path: Path) -> None:
    """The encoder's `exact_objects`: cells for the named object however many, its havoc reads
    gone; a local over the front end's fresh-value bound stays abstract (no exact encoding
    would renew its contents)."""
    monkeypatch.setattr(llumc.encoding.memory, "EXACT_CELLS", 8)
    abstract = encode_file(REFINEMENT / "progression_true.c", m32=True).word.memory_objects
    assert [(o.ir_name, o.abstract, len(o.cells)) for o in abstract] == [("%a.global", True, 0)]
    assert abstract[0].havoc_reads
    exact = encode_file(REFINEMENT / "progression_true.c", m32=True, exact_objects=frozenset({"%a.global"}))
    objects = exact.word.memory_objects
    assert [(o.abstract, len(o.cells), o.havoc_reads) for o in objects] == [(False, 10, [])]
    big = tmp_path / "big_local.c"
    big.write_text("extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n"
                   "int main() {\n  int b[3000];\n  int k = __VERIFIER_nondet_int();\n"
                   "  if (k < 0 || k >= 3000) return 0;\n  b[k] = 1;\n  if (b[k] != 1) reach_error();\n"
                   "  return 0;\n}\n")
    local = encode_file(big, m32=True, exact_objects=frozenset({"%b"})).word.memory_objects
    assert [(o.ir_name, o.abstract) for o in local] == [("%b", True)]


def _array(object_id: int, name: str, cells: int, **fields) -> MemoryObject:
    return MemoryObject(object_id, f"@{name}", name, f"[{cells} x i32]", 4 * cells, True, cell=4, abstract=True,
                        **fields)


def test_next_refinement_keeps_to_rounds_and_budget() -> None:
    """Objects within the budget are made exact together, one beyond it is named; no round
    after the last."""
    small, large = _array(1, "small", 10), _array(2, "large", REFINE_CELLS)
    first = next_refinement([small, large], [], "counterexample not confirmed: exit 0")
    assert isinstance(first, Refinement)
    assert (first.objects, first.cells, first.ir_names) == (["small"], 10, ("@small",))
    assert first.to_json() == {"objects": ["small"], "cells": 10, "counterexample": "counterexample not confirmed: exit 0",
                               "first_round": False}
    refused = next_refinement([large], [first], "again")
    assert refused == (f"refinement exhausted: 'large' has {REFINE_CELLS} cells, beyond the {REFINE_CELLS - 10} "
                       f"left of the refinement budget ({REFINE_CELLS} cells, LLUMC_REFINE_CELLS)")
    done = next_refinement([_array(3, "other", 1)], [first] * MAX_REFINEMENTS, "again")
    assert done == f"refinement exhausted: {MAX_REFINEMENTS} rounds done"
    vla = _array(4, "v", 0, size_operands=["n"])
    assert next_refinement([vla], [], "x") == "refinement exhausted: 'v' has a nondeterministic size"


def test_first_round_proves_a_copy_on_the_abstraction() -> None:
    """copy_1000_true.c: 2 000 cells, exact by the encoder's bound, abstract in the first round
    (more than PROOF_EXACT_CELLS), where the copy's quantified invariant proves it; no round after."""
    result = _check("copy_1000_true.c", exact_cells=None)
    assert result["verdict"] == "true", result["reason"]
    assert result["refinements"] == []
    memory = " ".join(loop.get("memory") or "" for loop in result["invariants"])
    assert "a[k] == b[k]" in memory or "b[k] == a[k]" in memory, result["invariants"]


def test_first_round_finds_a_bug_through_the_contents(tmp_path: Path) -> None:
    """sum_100_false.c: its array of 100 cells is abstract in the first round; the word-level
    BMC follows its contents there (llumc/wordbmc/contents.py) and finds k = 328350, replayed,
    with no round after."""
    result = _check("sum_100_false.c", exact_cells=None)
    assert result["verdict"] == "false", result["reason"]
    assert result["engine"] == "word-bmc" and result["refinements"] == []
    inputs = [i["value"] for step in result["trace"] for i in step["inputs"]]
    assert inputs == [328350]
    binary = tmp_path / "sum_100_false.bin"
    build_native(REFINEMENT / "sum_100_false.c", binary)
    assert run_native(binary, [inputs])[0][0] == "error"
    assert run_native(binary, [[328349]])[0][0] == "ok"
