"""Constant sets of SSA values and the large-block encoder's fixed bits (`llumc/encoding/valuesets.py`):
real clang, real Boolector, real SAT solvers; every verdict is compared with and without the
narrowing, and counterexamples are replayed natively."""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.frontend.cfg import read_main
from llumc.check.counterexample import confirm_counterexample
from llumc.pipeline import EncodeResult, bitblast_system
from llumc.frontend.compile import Checks, classify_call, compile_c
from llumc.encoding.lbe import LargeBlockEncoder
from llumc.encoding.terms import TermBuilder, evaluate
from llumc.encoding.valuesets import KnownBits, constant_sets
from solvers.api import solve
from test_encode import depth

PROGRAMS = Path(__file__).parent / "programs"


def _program(tmp_path: Path, condition: str) -> Path:
    path = tmp_path / "eca.c"
    path.write_text((PROGRAMS / "eca_small.c").read_text().replace("ERROR_CONDITION", condition))
    return path


def _encode(path: Path, narrow: bool) -> EncodeResult:
    front = compile_c(path, m32=True, checks=Checks(), wrapv=True)
    fn = read_main(front.module, front.debug, str(path), text=front.ir)
    word = LargeBlockEncoder(fn, "unreach-call", classify_call, front.debug, narrow=narrow).build()
    ts, stats = bitblast_system(word)
    return EncodeResult(ts, word, stats, fn, front.debug)


def test_constant_sets_of_the_loop_head(tmp_path):
    """The globals (locals of main after the front end) hold only the constants assigned to
    them; `out` takes the input, so its set is unknown."""
    path = _program(tmp_path, "1")
    front = compile_c(path, m32=True, checks=Checks(), wrapv=True)
    fn = read_main(front.module, front.debug, str(path), text=front.ir)
    sets = constant_sets(fn)
    head = {ins.name.split(".")[0]: sets.get(ins.key) for b in fn.blocks[1:2] for ins in b.instrs
            if ins.opcode == "phi"}
    assert head["%a"] == {0, 1, 2}
    assert head["%b"] == {8, 9, 10}
    assert head["%c"] == {3, 4, 5}
    assert head["%out"] is None


def test_known_bits_keep_every_member():
    tb = TermBuilder()
    for values in ({8, 9, 10}, {0, 1}, {5}, {0xFFFFFFFF, 0}, {3, 4, 5, 64}):
        known = KnownBits.of(frozenset(values), 32)
        term = known.apply(tb, tb.state(0, 32))
        for v in values:
            assert evaluate(term, {("state", 0): v}) == v
    assert KnownBits.of(frozenset({8, 9, 10}), 32) == KnownBits(32, 0xFFFFFFFC, 8)  # 10xx
    assert KnownBits.of(frozenset({0xFFFFFFFF, 0}), 32).mask == 0


@pytest.mark.parametrize("condition, steps", [
    ("1", 5),           # inputs 1, 2, 3, then the check in the 4th iteration (entry: 1 step)
    ("out == 3", 6),    # one more iteration with input 3 that matches no rule (out = 3)
    ("out == 7", None),  # out only ever holds an input in 1..3
    ("b == 9", None),   # contradicts b == 10
])
def test_narrowing_keeps_verdicts(tmp_path, condition, steps):
    path = _program(tmp_path, condition)
    wide, narrow = _encode(path, narrow=False), _encode(path, narrow=True)
    assert narrow.stats.state_bits == wide.stats.state_bits  # same state layout and symbols
    assert narrow.stats.total_clauses < wide.stats.total_clauses
    assert depth(wide.ts, 10) == depth(narrow.ts, 10) == steps
    for encoded in (wide, narrow):
        engine = "bmc" if steps is not None else "ic3"
        answer = solve(encoded.ts, engine=engine, timeout=60)
        assert answer.status == ("sat" if steps is not None else "unsat")
        if steps is not None:
            replay = confirm_counterexample(encoded, answer.trace, path, m32=True)
            assert replay.verdict == "false", replay.reason
