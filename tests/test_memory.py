"""Memory (llumc/encoding/memory.py): arrays at computed indices, pointers, structs, memset/memcpy.

Each program of tests/programs/memory is TRUE or FALSE by construction (the verdict is in the
file name, the reason in its first line) and is checked twice: by `llumc check --32`, which
must give exactly that verdict (FALSE replayed natively by llumc), and natively without llumc:
the program is compiled with tests/nondet_driver.c and run — on the FALSE trace's inputs it
must reach the error, on a set of small inputs the TRUE program must never. `_unknown.c`
programs have undefined behaviour (an out-of-bounds write) reachable before the error: UNKNOWN
with the reason and line under unreach-call. Constructs outside the model are named UNKNOWNs.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.frontend.compile import Checks, compile_c, source_ir
from tests.test_loop_programs import build_native, run_native

MEMORY = Path(__file__).parent / "programs" / "memory"
PROGRAMS = sorted(MEMORY.glob("*.c"))
TIMEOUT = 60.0


def _expected(path: Path) -> str:
    return path.stem.rsplit("_", 1)[1]


def _native_outcomes(path: Path, vectors: list[list[int]], tmp_path: Path) -> list[str]:
    binary = tmp_path / (path.stem + ".bin")
    build_native(path, binary)
    # one process per vector: some programs keep state in globals
    return [run_native(binary, [vector])[0][0] for vector in vectors]


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_memory_program(path: Path, tmp_path: Path) -> None:
    expected = _expected(path)
    result = check_program(path, m32=True, timeout=TIMEOUT)
    if expected == "unknown":
        assert result.verdict == "unknown", result.reason
        assert "invalid memory access" in result.reason and f"{path.name}:" in result.reason, result.reason
        return
    assert result.verdict == expected, result.reason
    if expected == "false":
        inputs = [i.value for step in result.trace for i in step.inputs]
        assert _native_outcomes(path, [inputs + [0] * 4], tmp_path) == ["error"]
    else:
        small = [-1, 0, 1, 2, 3, 4, 7]
        vectors = [[small[(seed * 7 + k * 3 + k * k * seed) % len(small)] for k in range(40)]
                   for seed in range(24)]
        vectors += [[v] * 40 for v in small]
        outcomes = _native_outcomes(path, vectors, tmp_path)
        assert "error" not in outcomes and "diverged" not in outcomes, outcomes


def test_trace_names_array_elements() -> None:
    """Counterexamples speak C: an element that changed is shown as `b[3]`, in --json too."""
    out = subprocess.run([sys.executable, "-m", "llumc", "check", str(MEMORY / "copy_false.c"), "--32",
                          "--json", "--timeout", "60"], capture_output=True, text=True, timeout=200)
    data = json.loads(out.stdout)
    assert data["verdict"] == "false"
    changed = set(itertools.chain.from_iterable(step["changes"] for step in data["trace"]))
    assert any(name.startswith("b[") for name in changed), changed
    assert any(name.startswith("a[") for name in changed), changed


def test_trace_names_pointer_targets() -> None:
    """A pointer is shown as its target (`p = &a[4]`), a pointer stored in memory too."""
    walk = check_program(MEMORY / "pointer_walk_false.c", m32=True, timeout=TIMEOUT)
    assert walk.verdict == "false", walk.reason
    values = [step.changes["p"] for step in walk.trace if "p" in step.changes]
    assert values and values[0] == "&a[0]" and values[-1] == "&a[4]", values


UNSUPPORTED = {
    "pointer cast to integer": ("int main() { int a[2]; long p = (long)&a[1];"
                                " if (p == 0) reach_error(); return 0; }", "cast between pointer and integer"),
    # the address is a constant expression inside a constant expression (and in a debug record):
    # it crashed the front end's re-parse ("LLVM IR parsing error") before it was left alone
    "global's address cast to integer": ("int g[4];\nint main() { long p = (long)&g[1];"
                                         " if (p == 0) reach_error(); g[2] = 1; return 0; }", "ptrtoint"),
}


@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_outside_the_model_is_a_named_unknown(name: str, tmp_path: Path) -> None:
    body, reason = UNSUPPORTED[name]
    path = tmp_path / "prog.c"
    path.write_text("extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n" + body + "\n")
    result = check_program(path, m32=True, timeout=20)
    assert result.verdict == "unknown"
    assert reason in result.reason and "prog.c" in result.reason, result.reason
    cli = subprocess.run([sys.executable, "-m", "llumc", "check", str(path), "--32", "--timeout", "20"],
                         capture_output=True, text=True, timeout=100)
    assert cli.returncode == 3 and "Traceback" not in cli.stderr, cli.stderr


def test_valid_memsafety_out_of_bounds_write_is_false_and_replayed() -> None:
    result = check_program(MEMORY / "oob_write_unknown.c", m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict == "false", result.reason
    assert result.error.kind == "memory" and result.error.line == 10
    assert result.confirmation.startswith("replayed:") and "oob_write_unknown.c:10" in result.confirmation
    assert [i.value for step in result.trace for i in step.inputs] == [4]


@pytest.mark.parametrize("name, local, line", [("dead_callee_local_unknown", "a", 10),
                                               ("dead_scope_local_unknown", "x", 12)])
def test_use_of_a_dead_local_is_false_under_valid_memsafety_and_replayed(name: str, local: str, line: int) -> None:
    """A pointer that outlives its local (a callee's array, a block's variable): under
    unreach-call the program is UNKNOWN with the reason (test_memory_program); under
    valid-memsafety FALSE, confirmed by the native replay, where the local lives in memory of
    its own and the access traps once the local is dead (llumc.frontend.lifetimes, replay_harness.c)."""
    result = check_program(MEMORY / f"{name}.c", m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict == "false", result.reason
    assert result.error.kind == "memory" and result.error.line == line
    assert f"use of local '{local}' outside its lifetime" in result.error.description, result.error.description
    assert result.confirmation == f"replayed: invalid memory access at {name}.c:{line}", result.confirmation


LIFETIMES = MEMORY / "lifetimes"


def test_a_dead_local_read_in_a_later_branch_is_found() -> None:
    """The search for accesses after a local's end follows the control flow (the read is in
    another block than the end of the local's scope)."""
    path = LIFETIMES / "dead_in_branch.c"
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "unknown" and "use of local 'x' outside its lifetime" in result.reason, result.reason
    # the load stays in its branch (llumc.frontend.lifetimes: no speculative loads), so only paths
    # that read x after its block ended fault, and the fault has its line
    assert "dead_in_branch.c:11" in result.reason, result.reason
    memsafety = check_program(path, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert memsafety.verdict == "false" and memsafety.error.line == 11, memsafety.reason
    assert "invalid memory access at dead_in_branch.c:11" in memsafety.confirmation, memsafety.confirmation


def test_a_pointer_into_the_previous_iteration_is_never_true() -> None:
    """`previous = &x` for a loop body's `x`, read in the next iteration: the instances of x
    are one object in the model, so no TRUE under either property (the reason says why); the
    error call the native run reaches is a replayed FALSE under unreach-call."""
    path = LIFETIMES / "loop_local_carried.c"
    memsafety = check_program(path, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert memsafety.verdict == "unknown" and "declared in a loop" in memsafety.reason, memsafety.reason
    assert check_program(path, m32=True, timeout=TIMEOUT).verdict != "true"


def test_a_variable_length_array_dies_at_the_end_of_its_scope() -> None:
    """A VLA's scope ends at the `llvm.stackrestore` clang puts there (`MemoryEncoder._vla_deaths`):
    dead_vla.c reads one through a pointer after its block, which is a fault (UNKNOWN under
    unreach-call with its line; never TRUE under valid-memsafety, where the native run cannot
    confirm it: a VLA's stack stays readable), while vla_scopes.c, whose two VLAs are used
    only inside their blocks, is memory safe."""
    dead = LIFETIMES / "dead_vla.c"
    result = check_program(dead, m32=True, timeout=TIMEOUT)
    assert result.verdict == "unknown", result.reason
    assert "use of local 'a' outside its lifetime" in result.reason and "dead_vla.c:16" in result.reason, result.reason
    memsafety = check_program(dead, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert memsafety.verdict == "unknown" and "outside its lifetime" in memsafety.reason, memsafety.reason
    safe = check_program(LIFETIMES / "vla_scopes.c", m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert safe.verdict == "true", safe.reason


def test_arrays_allocated_in_a_loop_are_one_object_per_run(tmp_path: Path) -> None:
    """An alloca in a loop (a VLA declared in it, `__builtin_alloca` called in it) is one object
    allocated anew at each run (`MemoryEncoder._reborn_vlas`): vla_in_loop.c, whose arrays never
    outlive their iteration, is TRUE under both properties. alloca_carried.c keeps the last
    run's block (`prev`), which natively still holds its value: one object would read the new
    block there, so it is never TRUE (it was, wrongly, when the alloca was one object for the
    whole run), and the native run reaches the error: the model's engines say UNKNOWN, the
    portfolio's random tests FALSE."""
    path = LIFETIMES / "vla_in_loop.c"
    for prop in ("unreach-call", "valid-memsafety"):
        result = check_program(path, m32=True, timeout=TIMEOUT, prop=prop)
        assert result.verdict == "true", (prop, result.reason)
    carried = LIFETIMES / "alloca_carried.c"
    assert _native_outcomes(carried, [[]], tmp_path) == ["error"]
    result = check_program(carried, m32=True, timeout=TIMEOUT, random_tests=False)
    assert result.verdict == "unknown" and "declared in a loop" in result.reason, result.reason
    result = check_program(carried, m32=True, timeout=TIMEOUT, random_tests=True)
    assert result.verdict == "false" and result.engine == "random tests", result.reason


def test_a_callees_alloca_ends_where_the_callee_returns() -> None:
    """`__builtin_alloca` of constant size in a callee is hoisted into main's entry block by the
    inliner, without a stack restore: the front end marks its block's lifetime itself
    (`mark_escaping_allocations`) where its address escapes. alloca_returned.c reads it after
    the callee returned: UNKNOWN (undefined behaviour at its line) under unreach-call, FALSE
    replayed under valid-memsafety (it was TRUE); alloca_in_callee.c keeps it inside: TRUE."""
    path = LIFETIMES / "alloca_returned.c"
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "unknown", result.reason
    assert "use of local 'p' outside its lifetime" in result.reason and "alloca_returned.c:12" in result.reason
    memsafety = check_program(path, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert memsafety.verdict == "false" and memsafety.error.line == 12, memsafety.reason
    assert memsafety.confirmation.startswith("replayed: invalid memory access at alloca_returned.c:12")
    inside = LIFETIMES / "alloca_in_callee.c"
    for prop in ("unreach-call", "valid-memsafety"):
        assert check_program(inside, m32=True, timeout=TIMEOUT, prop=prop).verdict == "true", prop


def test_a_compound_literal_kept_into_the_next_iteration_is_never_true() -> None:
    """clang marks no lifetime for a compound literal: one written in a loop whose pointer is
    live at its next initialisation (compound_literal_carried.c) is `reborn`
    (`MemoryEncoder._reborn_compound_literals`), never TRUE (it was TRUE under
    valid-memsafety, where C's object is dead); one used within its iteration is TRUE."""
    carried = check_program(LIFETIMES / "compound_literal_carried.c", m32=True, timeout=TIMEOUT,
                            prop="valid-memsafety")
    assert carried.verdict == "unknown" and "declared in a loop" in carried.reason, carried.reason
    inside = LIFETIMES / "compound_literal_in_loop.c"
    for prop in ("unreach-call", "valid-memsafety"):
        assert check_program(inside, m32=True, timeout=TIMEOUT, prop=prop).verdict == "true", prop


def test_a_compound_literal_ends_with_its_block() -> None:
    """The front end marks a compound literal's lifetime from the debug scopes
    (`lifetimes.mark_compound_literals`): compound_literal_block.c reads one after its inner
    block, compound_literal_returned.c after its function returned: UNKNOWN (undefined
    behaviour at the read's line) under unreach-call, FALSE replayed under valid-memsafety
    (both were TRUE there); compound_literal_scoped.c uses one only inside its block: TRUE."""
    for name, line in (("compound_literal_block.c", 10), ("compound_literal_returned.c", 7)):
        result = check_program(LIFETIMES / name, m32=True, timeout=TIMEOUT)
        assert result.verdict == "unknown" and "outside its lifetime" in result.reason, result.reason
        assert f"{name}:{line}" in result.reason, result.reason
        memsafety = check_program(LIFETIMES / name, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
        assert memsafety.verdict == "false" and memsafety.error.line == line, memsafety.reason
        assert memsafety.confirmation.startswith(f"replayed: invalid memory access at {name}:{line}")
    for prop in ("unreach-call", "valid-memsafety"):
        scoped = check_program(LIFETIMES / "compound_literal_scoped.c", m32=True, timeout=TIMEOUT, prop=prop)
        assert scoped.verdict == "true", (prop, scoped.reason)


def test_structs_returned_by_value_and_their_lifetimes() -> None:
    """Under ILP32 every struct is returned through the callee's sret parameter, to which the
    inliner gives a noalias scope (`llvm.experimental.noalias.scope.decl`, a hint the front
    end leaves out: such programs were `unsupported` before). struct_returned.c is TRUE;
    struct_returned_dead.c reads the first result through a pointer after its block: UNKNOWN
    (undefined behaviour) under unreach-call, FALSE replayed under valid-memsafety."""
    for prop in ("unreach-call", "valid-memsafety"):
        result = check_program(LIFETIMES / "struct_returned.c", m32=True, timeout=TIMEOUT, prop=prop)
        assert result.verdict == "true", (prop, result.reason)
    dead = LIFETIMES / "struct_returned_dead.c"
    result = check_program(dead, m32=True, timeout=TIMEOUT)
    assert result.verdict == "unknown" and "use of local 't' outside its lifetime" in result.reason, result.reason
    memsafety = check_program(dead, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert memsafety.verdict == "false" and memsafety.error.line == 10, memsafety.reason
    assert memsafety.confirmation.startswith("replayed: invalid memory access at struct_returned_dead.c:10")


def test_a_parameter_ends_where_its_function_returns(tmp_path: Path) -> None:
    """clang marks no lifetime for a parameter and the inliner hoists its memory into main's
    entry block; the front end marks an escaping one itself (`mark_escaping_parameters`), a
    struct passed `byval` copied into a local of the callee first. parameter_kept.c reads a
    parameter after its call returned: natively the next call reused its stack slot and the
    error is reached, so TRUE under unreach-call was wrong; now UNKNOWN (undefined behaviour),
    and FALSE replayed under valid-memsafety; byval_kept.c the same for a struct's copy;
    byval_used.c reads its copy inside the call: TRUE."""
    kept = LIFETIMES / "parameter_kept.c"
    assert _native_outcomes(kept, [[]], tmp_path) == ["error"]
    for name, variable, line in (("parameter_kept.c", "x", 10), ("byval_kept.c", "s", 12)):
        result = check_program(LIFETIMES / name, m32=True, timeout=TIMEOUT)
        assert result.verdict == "unknown", result.reason
        assert f"use of local '{variable}' outside its lifetime" in result.reason and f"{name}:{line}" in result.reason
        memsafety = check_program(LIFETIMES / name, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
        assert memsafety.verdict == "false" and memsafety.error.line == line, memsafety.reason
    for prop in ("unreach-call", "valid-memsafety"):
        used = check_program(LIFETIMES / "byval_used.c", m32=True, timeout=TIMEOUT, prop=prop)
        assert used.verdict == "true", (prop, used.reason)


HEAP_FAULTS = {
    "use_after_free": ("int *p = malloc(8); p[0] = 1; int k = __VERIFIER_nondet_int();\n"
                       "if (k == 3) free(p);\nint v = p[0];\nif (k != 3) free(p); return v;", 6),
    "overflow_by_one": ("int *p = malloc(16); int n = __VERIFIER_nondet_int(); if (n < 0 || n > 4) return 0;\n"
                        "for (int i = 0; i <= n; i++)\np[i] = i;\nfree(p); return 0;", 6),
    "double_free": ("int *p = malloc(4); *p = 1; free(p);\nif (__VERIFIER_nondet_int())\nfree(p);\nreturn 0;", 6),
}


@pytest.mark.parametrize("name", sorted(HEAP_FAULTS))
def test_heap_faults_are_false_under_valid_memsafety_and_replayed(name: str, tmp_path: Path) -> None:
    """The replay keeps heap objects in the harness's arena (never reused, a gap after each):
    a use after free, a write one past the end, a double free trap at their line."""
    body, line = HEAP_FAULTS[name]
    path = tmp_path / "prog.c"
    path.write_text("#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\nint main() {\n"
                    + body + "\n}\n")
    result = check_program(path, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict == "false", result.reason
    assert result.error.kind == "memory" and result.error.line == line, result.error
    trap = "invalid free" if name == "double_free" else "invalid memory access"  # (the harness's free traps apart)
    assert result.confirmation.startswith(f"replayed: {trap} at prog.c:{line}"), result.confirmation


def test_the_replay_arena_never_traps_on_valid_accesses() -> None:
    """The arena's checks confirm nothing a valid run does: the heap and pointer programs,
    replayed under valid-memsafety with their own FALSE inputs (they end in reach_error, which
    is no memory fault), are not confirmed."""
    from llumc.check.replay import ReplayExpectation, replay
    for name, values in [("malloc_buffer_false.c", [3, 1, 2, 3, 4]), ("malloc_index_false.c", [7, 3, 2]),
                         ("swap_false.c", [1, 2, 3]), ("pointer_walk_false.c", [1, 2, 3])]:
        result = replay(MEMORY / name, values, ReplayExpectation("memory", None), m32=True)
        assert not result.confirmed, (name, result.observed)
        assert "invalid memory access" not in result.observed, (name, result.observed)


def test_pointers_that_stay_in_scope_leave_no_memory() -> None:
    """Locals whose address is passed to callees (swap, out-parameters, a callee's array) are
    followed until inlining shows no access after their end, then promoted as before: no
    memory object is left, and valid-memsafety is TRUE."""
    path = MEMORY / "scoped_pointers_true.c"
    before = source_ir(path, m32=True, clang=None, checks=Checks(), wrapv=True)
    assert "@__llumc_lifetime_end(ptr %a)" in before and "@__llumc_lifetime_end(ptr %z)" in before
    assert "@__llumc_lifetime_end(ptr %total)" not in before  # its address is never taken
    module = compile_c(path, m32=True)
    assert " alloca " not in module.ir and "__llumc_lifetime" not in module.ir
    assert check_program(path, m32=True, timeout=TIMEOUT, prop="valid-memsafety").verdict == "true"


LEAKS = {
    # the only pointer overwritten on one path: lost (found where the program ends, line 8)
    "overwritten": ("int *p = malloc(8); p[0] = 1;\nif (__VERIFIER_nondet_int()) p = 0;\nif (p) free(p);\n"
                    "return 0;", "not freed at the end of the program", 8, "false"),
    # a cycle of two blocks that nothing points to, in a loop that may not end: lost mid-run;
    # natively the loop ends (every nondet value past the trace is 0) and main returns
    "cycle": ("struct node { struct node *next; };\nstruct node *a = malloc(sizeof *a), *b = malloc(sizeof *b);\n"
              "a->next = b; b->next = a; a = 0; b = 0;\nwhile (__VERIFIER_nondet_int()) {}\nreturn 0;",
              "no pointer reaches", None, "false"),
    # still reached from a global where main returns: not freed (the model's stricter edge),
    # but tracked (SV-COMP's valid-memtrack holds): never TRUE, never FALSE
    "global": ("global = malloc(8);\nif (__VERIFIER_nondet_int()) global[0] = 1;\nreturn 0;",
               "not freed at the end of the program", 7, "unknown"),
}


def test_valid_memsafety_true_with_and_without_heap() -> None:
    """valid-memsafety includes valid-memtrack: a TRUE with heap objects also proves that none
    is lost (a pointer to it, or to a block that points to it, is live) or left allocated
    where the program ends; malloc_buffer frees its buffer."""
    assert check_program(MEMORY / "two_dim_true.c", m32=True, timeout=TIMEOUT,
                         prop="valid-memsafety").verdict == "true"
    heap = check_program(MEMORY / "malloc_buffer_true.c", m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert heap.verdict == "true", heap.reason


@pytest.mark.parametrize("name", sorted(LEAKS))
def test_leaks_are_false_where_the_native_run_loses_the_block(name: str, tmp_path: Path) -> None:
    """A leak edge's trace is replayed natively to the end of main (0 for every nondet value
    past the trace), where the harness looks for a live heap block no pointer from a global
    reaches: FALSE (valid-memtrack) when it finds one, else UNKNOWN with what and where."""
    body, what, line, verdict = LEAKS[name]
    path = tmp_path / "prog.c"
    path.write_text("#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\nint *global;\nint main() {\n"
                    + body + "\n}\n")
    result = check_program(path, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert result.verdict == verdict, result.reason
    if verdict == "false":
        assert what in result.error.description and "valid-memtrack" in result.error.description
        assert result.error.subproperty == "valid-memtrack"
        assert result.confirmation.startswith("replayed: memory leak: the block of heap allocation #"), \
            result.confirmation
        assert line is None or result.error.line == line, result.error
    else:
        assert what in result.reason and "not confirmed natively" in result.reason, result.reason
        assert f"prog.c:{line}" in result.reason, result.reason
    # the leak is no memory fault under unreach-call
    assert check_program(path, m32=True, timeout=TIMEOUT).verdict == "true"


@pytest.mark.parametrize("body, access", [
    ("int *p = malloc(8); p[0] = 1; free(p); if (p[0] == 1) reach_error();", "read of 4 bytes"),
    ("int *p = malloc(8); free(p); free(p);", "free"),
    ("int x = 0; int *t[2] = {&x, 0}; int *p = t[__VERIFIER_nondet_int() & 1]; *p = 1; if (x == 5) reach_error();",
     "NULL dereference"),
    # SROA makes this a store to x under assume(c): named, never encoded without the NULL path
    ("int x = 0; int *p = __VERIFIER_nondet_int() ? &x : 0; *p = 1; if (x) reach_error();", "may be NULL"),
])
def test_invalid_heap_and_null_accesses_are_unknown_under_unreach_call(tmp_path: Path, body: str, access: str) -> None:
    """The model's answer (random tests off: they find the path without the invalid access, below)."""
    path = tmp_path / "prog.c"
    path.write_text("#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n"
                    f"int main() {{\n  {body}\n  return 0;\n}}\n")
    result = check_program(path, m32=True, timeout=TIMEOUT, random_tests=False)
    assert result.verdict == "unknown"
    assert ("invalid memory access" in result.reason or "unsupported" in result.reason) and \
        access in result.reason and "prog.c:5" in result.reason, result.reason


def test_a_path_without_the_invalid_access_is_found_natively(tmp_path: Path) -> None:
    """`p` is NULL or `&x`: the model names the construct (above), while a native run with
    `p == &x` reaches the error without any invalid access, and the portfolio answers FALSE
    from it; the runs with `p == NULL` trap in the tests' build and say nothing."""
    path = tmp_path / "prog.c"
    path.write_text("#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n"
                    "int main() {\n  int x = 0; int *p = __VERIFIER_nondet_int() ? &x : 0; *p = 1; "
                    "if (x) reach_error();\n  return 0;\n}\n")
    result = check_program(path, m32=True, timeout=TIMEOUT, random_tests=True)
    assert result.verdict == "false" and result.engine == "random tests", result.reason
    assert [step.inputs[0].value for step in result.trace] != [0]


def test_beyond_the_exact_bound_contents_are_not_tracked(tmp_path: Path) -> None:
    """`int a[100000]` is abstract (docs/memory.md): a read is any value, so a property that
    depends on the contents gets a counterexample that the native replay refutes (UNKNOWN),
    while its bounds stay exact (valid-memsafety: an index one past the end is FALSE, replayed)."""
    path = tmp_path / "prog.c"
    path.write_text("extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint a[100000];\n"
                    "int main() {\n  int i = __VERIFIER_nondet_int();\n"
                    "  if (i >= 0 && i <= 100000 && a[i] != 0) reach_error();\n  return 0;\n}\n")
    contents = check_program(path, m32=True, timeout=TIMEOUT)
    # the engine may find the spurious path (havoc read) or the read one past the end (a fault)
    assert contents.verdict == "unknown" and ("not confirmed" in contents.reason or
                                              "invalid memory access" in contents.reason), contents.reason
    bounds = check_program(path, m32=True, timeout=TIMEOUT, prop="valid-memsafety")
    assert bounds.verdict == "false" and bounds.error.line == 6, bounds.reason
    assert [i.value for step in bounds.trace for i in step.inputs] == [100000]


def test_two_reads_in_one_step_do_not_prove_a_bug(tmp_path: Path) -> None:
    """`a[j] > a[j + 1]` reads the abstract array twice in one step: the error edge is
    restricted to both reads at the two tracked cells (docs/memory.md, cell morphing), which
    must lose no violation. The program is buggy (natively too): llumc must not say TRUE; a
    FALSE must be replayed and reach the error natively."""
    path = MEMORY / "two_reads" / "sorted_bug.c"
    assert _native_outcomes(path, [[12, 5], [12, 0], [3, 1]], tmp_path) == ["error", "ok", "ok"]
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict in ("unknown", "false"), result.reason
    if result.verdict == "false":
        inputs = [i.value for step in result.trace for i in step.inputs]
        assert _native_outcomes(path, [inputs + [0] * 4], tmp_path) == ["error"]


def test_memory_facts_shown_not_in_witness(tmp_path: Path) -> None:
    """The facts over all elements that prove vla_fill_true (`\\forall k: k < i ==> a[k] == 3`)
    are reported under `memory`, and a witness (C expressions only) holds none of them."""
    witness = tmp_path / "witness.yml"
    out = subprocess.run([sys.executable, "-m", "llumc", "check", str(MEMORY / "vla_fill_true.c"), "--32",
                          "--json", "--timeout", "60", "--witness", str(witness)],
                         capture_output=True, text=True, timeout=200)
    data = json.loads(out.stdout)
    assert data["verdict"] == "true", data["reason"]
    memory = " ".join(loop["memory"] for loop in data["invariants"])
    assert "\\forall k: k < i ==> a[k] == 3" in memory, data["invariants"]
    assert all("forall" not in loop["expression"] and ".size" not in loop["expression"]
               for loop in data["invariants"]), data["invariants"]
    text = witness.read_text()
    assert "invariant_set" in text and "forall" not in text and "a.size" not in text, text


@pytest.mark.parametrize("name", ["big_fill_true", "malloc_index_true"])
def test_tracked_cell_candidates_hold_on_their_samples(name: str) -> None:
    """The tracked-cell facts (`\\forall k: k < i ==> a[k] == 7`) are filtered on the samples in
    Python; each one's term must agree: 1 on every sample of its loop head. And the facts the
    proof needs are among them."""
    from llumc.pipeline import encode_file
    from llumc.invariants.candidates import propose
    from llumc.invariants.simulate import simulate
    from llumc.encoding.terms import evaluate

    encoded = encode_file(MEMORY / f"{name}.c", m32=True)
    tracked = [o for o in encoded.word.memory_objects if o.tracked_value is not None]
    assert len(tracked) == 1 and tracked[0].tracked_index.name.endswith(".tracked_index"), tracked
    samples = simulate(encoded.word, seed=0, seconds=5.0)
    cands = [c for c in propose(encoded.word, encoded.debug, samples, fn=encoded.fn) if c.kind == "tracked"]
    checked = 0
    for cand in cands:
        for state in samples.states.get(cand.cut, []):
            assert evaluate(cand.term, {("state", k): v for k, v in state.items()}) == 1, (cand.expression, state)
            checked += 1
    assert checked > 0
    texts = {c.expression for c in cands}
    wanted = "(\\forall k: k < i ==> a[k] == 7)" if name == "big_fill_true" else \
        "(\\forall k: k < i ==> malloc_8[k] == k)"
    assert wanted in texts, sorted(texts)


def test_addresses_of_objects_of_nondeterministic_size_under_32_bits(tmp_path):
    """A VLA and an array compared by address under --32: the VLA's 64-bit size enters the
    34-bit address arithmetic (it stopped the encoder before), and distinct objects never
    compare equal."""
    program = tmp_path / "vla_compare.c"
    program.write_text("extern int __VERIFIER_nondet_int(void);\n"
                       "extern void reach_error(void);\n"
                       "int main(void) {\n"
                       "  int n = __VERIFIER_nondet_int();\n"
                       "  if (n < 1 || n > 10) return 0;\n"
                       "  int a[n];\n"
                       "  int b[3];\n"
                       "  int *p = __VERIFIER_nondet_int() ? a : b;\n"
                       "  if (p == b && p == a) reach_error();\n"
                       "  return 0;\n"
                       "}\n")
    result = check_program(program, m32=True, timeout=TIMEOUT)
    assert result.verdict == "true", result.reason


def test_a_pointer_read_as_an_int_in_a_large_table_is_refused(tmp_path: Path) -> None:
    """The residue test that lets a 100 000-entry table of flags and pointers be encoded
    (struct_table_100000_true.c) still refuses one whose pointer bytes are also read as an
    `int` (offsets 4 modulo 8 on both sides)."""
    from llumc.errors import UnsupportedError
    from llumc.pipeline import encode_file

    source = tmp_path / "punned.c"
    source.write_text((MEMORY / "struct_table_100000_true.c").read_text().replace(
        "if (t[i].flag && t[i].p == 0) reach_error();",
        "if (t[i].flag && ((int *)t)[2 * i + 1] == 0) reach_error();"))
    with pytest.raises(UnsupportedError, match="pointers and integers stored in the same memory"):
        encode_file(source, m32=True)
