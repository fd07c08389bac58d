"""Shared procedures (llumc.frontend.sharing): a function's body merged into main once and
entered from every call site, for a recursion on a call stack called from several places and
for call trees too large to inline. Checked end to end (every FALSE replayed natively, every
TRUE proven) and by the size of what is built."""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.frontend.compile import Checks, compile_c, source_ir
from llumc.frontend import sharing
from llumc.frontend.procedures import BOUND_PREFIX
from llumc.frontend.sharing import MAX_INLINED_INSTRUCTIONS, SHARE_PREFIX, measured, read_call_graph, worth_sharing

PROGRAMS = Path(__file__).parent / "callstack_programs"  # (outside programs/: not among the encoding digests)


def _calls_of(ir: str, function: str) -> int:
    return sum(f"@{function}(" in line or f'@"{function}"(' in line
               for line in ir.splitlines() if " call " in f" {line.strip()} ")


def test_stack_called_from_three_sites_is_built_once() -> None:
    """Inlined at each of its three call sites, the recursion would hold three stack machines
    (three calls of the bound, one per copy of the body); shared, it holds one."""
    result = compile_c(PROGRAMS / "parity_three_sites_false.c", recursion_depth=8, call_stack=True)
    assert result.call_stack and result.shared == ("parity",)
    assert _calls_of(result.ir, f"{BOUND_PREFIX}parity") == 1
    assert result.ir.count(f"{SHARE_PREFIX}0.entry:") == 1
    assert _calls_of(result.ir, "reach_error") == 3  # main's own code is not copied


def test_body_keeping_a_local_in_memory_is_not_shared() -> None:
    result = compile_c(PROGRAMS / "walk_local_array_three_sites.c", recursion_depth=8, call_stack=True)
    assert result.call_stack and not result.shared and SHARE_PREFIX not in result.ir
    assert _calls_of(result.ir, f"{BOUND_PREFIX}walk") == 3


def test_call_tree_beyond_the_limit_is_shared() -> None:
    """8 levels of 4 calls: inlined, 4^8 copies of `leaf` (its error call among them); shared,
    main holds a few hundred."""
    program = PROGRAMS / "call_tree_false.c"
    text = source_ir(program, m32=False, clang=None, checks=Checks(), wrapv=False)
    assert worth_sharing(text)
    graph = measured(read_call_graph(text), text)
    assert graph.calls["level1"]["leaf"] == 4 and graph.calls["main"]["level8"] == 1
    result = compile_c(program)
    assert result.shared  # (which ones: the greedy choice, module docstring)
    errors = _calls_of(result.ir, "reach_error")
    assert 1 <= errors <= 4 ** 4, errors
    assert len(result.ir.splitlines()) < MAX_INLINED_INSTRUCTIONS // 20


def test_shared_body_with_a_loop(monkeypatch) -> None:
    """With the limit lowered, a small program's function called twice is shared: its loop
    (and the loop's debug metadata) is in main once, and the proof still goes through."""
    monkeypatch.setattr(sharing, "MAX_INLINED_INSTRUCTIONS", 1)
    program = Path(__file__).parent / "programs" / "procedures" / "loop_inlined_twice_true.c"
    assert compile_c(program).shared == ("sum",)
    result = check_program(program, timeout=120)
    assert result.verdict == "true", result.reason


@pytest.mark.parametrize("program, stack, verdict, line", [
    ("parity_three_sites_false.c", True, "false", 17),  # the error needs the third call's result
    ("parity_three_sites_true.c", True, "true", None),
    ("call_tree_false.c", None, "false", 10),  # the sixth leaf call, with k == 5
    ("call_tree_true.c", None, "true", None),
])
def test_verdicts_with_shared_procedures(program: str, stack: bool | None, verdict: str, line: int | None) -> None:
    result = check_program(PROGRAMS / program, timeout=120, recursion_depth=8, call_stack=stack,
                           engine="bmc" if verdict == "false" else "portfolio")
    assert result.verdict == verdict, result.reason
    if verdict == "false":
        assert result.confirmation.startswith("replayed:"), result.confirmation
        assert result.error.line == line
    else:
        assert result.confirmation
