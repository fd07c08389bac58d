"""CFG wrapper and word-level encoding on hand-written LLVM-IR (no clang): unnamed values,
odd widths, exact 64-bit constants, intrinsics, and the SMT-LIB semantics of x/0."""

from __future__ import annotations

import llvmlite.binding as llvm
import pytest

from llumc.frontend.cfg import Const, Ref, read_main
from llumc.pipeline import bitblast_system
from llumc.errors import UnsupportedError
from llumc.frontend.compile import classify_call
from llumc.pipeline import build_transition_system
from tests.test_encode import depth, reachable

llvm.initialize_native_target() if hasattr(llvm, "initialize_native_target") else None


def parse(ir: str):
    return llvm.parse_assembly(ir)


def system(ir: str, **kwargs):
    fn = read_main(parse(ir), None, "test.ll")
    word = build_transition_system(fn, classify=classify_call, **kwargs)
    return fn, bitblast_system(word)[0]


UNNAMED = """
declare void @__VERIFIER_error()
declare i16 @__VERIFIER_nondet_short()
define i32 @main() {
  %1 = call i16 @__VERIFIER_nondet_short()
  %2 = sext i16 %1 to i64
  %3 = add i64 %2, -9223372036854775807
  %4 = icmp eq i64 %3, -9223372036854775808
  br i1 %4, label %5, label %6
5:
  call void @__VERIFIER_error()
  unreachable
6:
  ret i32 0
}
"""


@pytest.mark.parametrize("scheme, steps", [("edge", 2), ("lbe", 1)])
def test_unnamed_values_and_exact_64_bit_constants(scheme, steps):
    fn, ts = system(UNNAMED, scheme=scheme)
    first = fn.blocks[0].instrs
    assert [i.name for i in first[:4]] == ["%0", "%1", "%2", "%3"]
    add = first[2]
    assert add.operands[1] == Const((1 << 63) + 1, 64)
    assert isinstance(add.operands[0], Ref) and add.operands[0].name == "%1"
    assert first[3].predicate == "eq" and first[3].operands[1] == Const(1 << 63, 64)
    assert first[4].targets == [fn.blocks[1].name, fn.blocks[2].name]  # [true, false]
    # x = -1 gives -1 + (-2^63 + 1) = -2^63: block 0, error call block, error (lbe: one step)
    assert depth(ts, 4) == steps


INTRINSICS = """
declare void @__VERIFIER_error()
declare i8 @__VERIFIER_nondet_char()
declare { i8, i1 } @llvm.sadd.with.overflow.i8(i8, i8)
declare i8 @llvm.smax.i8(i8, i8)
declare i8 @llvm.umin.i8(i8, i8)
declare i8 @llvm.abs.i8(i8, i1)
define i32 @main() {
entry:
  %x = call i8 @__VERIFIER_nondet_char()
  %s = call { i8, i1 } @llvm.sadd.with.overflow.i8(i8 %x, i8 100)
  %sum = extractvalue { i8, i1 } %s, 0
  %ovf = extractvalue { i8, i1 } %s, 1
  %mx = call i8 @llvm.smax.i8(i8 %x, i8 -3)
  %mn = call i8 @llvm.umin.i8(i8 %x, i8 200)
  %ab = call i8 @llvm.abs.i8(i8 %x, i1 false)
  %f = freeze i8 %ab
  %c1 = icmp eq i8 %mx, %x
  %c2 = icmp ult i8 %mn, 201
  %c3 = icmp eq i8 %f, 28
  %c12 = and i1 %c1, %c2
  %c = and i1 %c12, %c3
  %all = and i1 %c, %ovf
  br i1 %all, label %bad, label %next
next:
  %q = udiv i8 %sum, 0
  %r = urem i8 %sum, 0
  %qok = icmp eq i8 %q, -1
  %rok = icmp eq i8 %r, %sum
  %both = and i1 %qok, %rok
  br i1 %both, label %done, label %bad
bad:
  call void @__VERIFIER_error()
  unreachable
done:
  ret i32 0
}
"""


@pytest.mark.parametrize("scheme, steps", [("edge", 2), ("lbe", 1)])
def test_intrinsics_and_division_by_zero_semantics(scheme, steps):
    """Error reachable exactly through x = 28 (smax(x,-3) = x, umin(x,200) <= 200, |x| = 28,
    28 + 100 overflows i8). Division by zero never reaches `bad` (udiv -> all ones, urem -> x)."""
    fn, ts = system(INTRINSICS, scheme=scheme)
    assert depth(ts, 4) == steps
    # without the x = 28 path (|x| = 27 has no overflowing solution: 27+100 = 127) unreachable
    _, ts2 = system(INTRINSICS.replace("i8 %f, 28", "i8 %f, 27"), scheme=scheme)
    assert not reachable(ts2, 5)


SWITCH_LOOP = """
declare void @__VERIFIER_error()
define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i16 [ 0, %entry ], [ %j, %body ]
  %t = phi i16 [ 1, %entry ], [ %i, %body ]
  switch i16 %i, label %body [ i16 3, label %check
                               i16 100, label %body ]
body:
  %j = add i16 %i, 1
  br label %loop
check:
  %ok = icmp eq i16 %t, 2
  br i1 %ok, label %err, label %exit
err:
  call void @__VERIFIER_error()
  br label %exit
exit:
  ret i32 0
}
"""


@pytest.mark.parametrize("scheme, steps", [("edge", 10), ("paper", 10), ("lbe", 5)])
def test_phis_read_old_values_and_switch(scheme, steps):
    """%t takes the *old* %i (parallel phi semantics): at i = 3, t = 2, so the error is
    reached: entry 0, loop 1,3,5,7 (i = 0..3), body 2,4,6, check 8, err 9, error 10.
    lbe: entry 1, one step per iteration i = 0..2 (3), loop -> check -> err -> error (1)."""
    _, ts = system(SWITCH_LOOP, scheme=scheme)
    assert depth(ts, 12) == steps
    _, ts2 = system(SWITCH_LOOP.replace("i16 %t, 2", "i16 %t, 3"), scheme=scheme)
    assert not reachable(ts2, 14)


def test_unsupported_instruction_is_named():
    ir = """
define i32 @main() {
  %p = alloca i32
  store i32 1, ptr %p
  %v = atomicrmw add ptr %p, i32 1 seq_cst
  ret i32 %v
}
"""
    with pytest.raises(UnsupportedError, match="unsupported"):
        system(ir)
