"""llumc.encoding.floatnative against the circuits: concrete runs compute float operations on the
machine's floats, the engines through the circuits of llumc.encoding.floats; the two must give
the same bits for every instruction floatsem encodes (the circuits are compared with the
machine itself in tests/test_floats.py). Each case builds the instruction's term on constant
operands (TermBuilder folds the whole circuit) and compares it with `floatnative.evaluate`.
LLUMC_FP_NATIVE_SAMPLES sets the random operands per case (default 300)."""

from __future__ import annotations

import os
import random

import pytest

from llumc.encoding import floatnative, floatsem
from llumc.encoding.terms import TermBuilder
from llumc.frontend.cfg import FCMP_PREDICATES, Instr

SAMPLES = int(os.environ.get("LLUMC_FP_NATIVE_SAMPLES", "300"))


def _specials(width: int) -> list[int]:
    e, f = (8, 23) if width == 32 else (11, 52)
    sign = 1 << (width - 1)
    exp_ones = ((1 << e) - 1) << f
    one = ((1 << (e - 1)) - 1) << f
    base = [0, 1, (1 << f) - 1, 1 << f, exp_ones - 1, exp_ones, exp_ones | 1 << (f - 1), exp_ones | 1,
            one, one + 1, one - 1, one + (1 << (f - 1)), (one + (1 << f)) | 1 << (f - 1),
            ((1 << (e - 1)) - 1 + f) << f]  # 2^f: where the integral values begin
    return base + [b | sign for b in base]


def _operand(rng: random.Random, width: int, specials: list[int]) -> int:
    pick = rng.random()
    if pick < 0.25:
        return rng.choice(specials)
    if pick < 0.6:  # exponents near 1.0: close operands, cancellation, integral boundaries
        e, f = (8, 23) if width == 32 else (11, 52)
        exponent = (1 << (e - 1)) - 1 + rng.randint(-30, 60)
        return rng.getrandbits(1) << (width - 1) | exponent << f | rng.getrandbits(f)
    return rng.getrandbits(width)


MODES = (0, 0x400, 0x800, 0xC00)  # C's rounding modes, x86's values


def _compare(ins: Instr, key: tuple, operand_widths: list[int], choices: list[int], seed: int,
             samples: int = SAMPLES, mode_last: bool = False) -> None:
    """`mode_last`: the last operand is a rounding mode (one of MODES)."""
    rng = random.Random(seed)
    widths = [w for w in operand_widths]
    specials = {w: _specials(w) if w in (32, 64) else [0, 1, (1 << w) - 1, 1 << (w - 1)] for w in widths}
    for _ in range(samples):
        values = [_operand(rng, w, specials[w]) if w in (32, 64) else
                  rng.choice([rng.getrandbits(w), rng.choice(specials[w]), rng.randint(0, 1 << 25)]) & ((1 << w) - 1)
                  for w in widths]
        if mode_last:
            values[-1] = rng.choice(MODES)
        chosen = [rng.getrandbits(w) for w in choices]
        tb = TermBuilder()
        slots: list[int] = []

        def fresh(width: int, slot: int) -> object:
            slots.append(slot)
            return tb.const(chosen[len(slots) - 1], width)

        term = floatsem.float_value(tb, ins, lambda i: tb.const(values[i], widths[i]), fresh, "test")
        assert term.op == "const"
        # a choice the folded circuit did not ask for (no NaN possible) is 0 in the registered term
        used = [c if i < len(slots) else 0 for i, c in enumerate(chosen)]
        expected = floatnative.evaluate(key, *values, *used)
        assert term.param == expected, (ins.opcode, ins.callee, key, [hex(v) for v in values], hex(term.param),
                                        hex(expected))


@pytest.mark.parametrize("width", [32, 64])
@pytest.mark.parametrize("opcode", ["fadd", "fsub", "fmul", "fdiv", "frem"])
def test_arithmetic(opcode: str, width: int) -> None:
    _compare(Instr(opcode, 1, "%r", width), ("arith", opcode, width), [width, width], [width], 1)


@pytest.mark.parametrize("width", [32, 64])
def test_sqrt_roundings_and_min_max(width: int) -> None:
    suffix = f"f{width}"
    _compare(Instr("call", 1, "%r", width, callee=f"llvm.sqrt.{suffix}"), ("sqrt", width), [width], [width], 2)
    for mode in ("floor", "ceil", "trunc", "round", "roundeven"):
        _compare(Instr("call", 1, "%r", width, callee=f"llvm.{mode}.{suffix}"), ("round", mode, width),
                 [width], [width], 3)
    for kind in ("minnum", "maxnum"):
        _compare(Instr("call", 1, "%r", width, callee=f"llvm.{kind}.{suffix}"), ("minmax", kind, width),
                 [width, width], [1, width], 4)


@pytest.mark.parametrize("width", [32, 64])
def test_comparisons(width: int) -> None:
    for predicate in FCMP_PREDICATES:
        ins = Instr("fcmp", 1, "%r", 1, predicate=predicate)
        _compare(ins, ("cmp", predicate, width), [width, width], [], 5)


@pytest.mark.parametrize("width", [32, 64])
def test_conversions(width: int) -> None:
    for iwidth in (8, 32, 64):
        for opcode in ("fptosi", "fptoui"):
            _compare(Instr(opcode, 1, "%r", iwidth), ("to_int", opcode == "fptosi", width, iwidth),
                     [width], [iwidth], 6)
    for iwidth in (8, 32, 64, 128):
        for opcode in ("sitofp", "uitofp"):
            _compare(Instr(opcode, 1, "%r", width), ("from_int", opcode == "sitofp", iwidth, width),
                     [iwidth], [], 7)
    other = 96 - width
    opcode = "fpext" if width == 32 else "fptrunc"
    _compare(Instr(opcode, 1, "%r", other), ("resize", width, other), [width], [other], 8)


@pytest.mark.parametrize("width", [32, 64])
def test_rounding_modes(width: int) -> None:
    """The `__llumc_rounded.*` calls of a program that changes the rounding mode (the mode
    their last operand): exact arithmetic rounded by mode against the circuits."""
    suffix, samples = f"f{width}", SAMPLES // 2
    for op in ("fadd", "fsub", "fmul", "fdiv"):
        _compare(Instr("call", 1, "%r", width, callee=f"__llumc_rounded.{op}.{suffix}"),
                 ("rounded_arith", op, width), [width, width, 32], [width], 9, samples, mode_last=True)
    _compare(Instr("call", 1, "%r", width, callee=f"__llumc_rounded.sqrt.{suffix}"), ("rounded_sqrt", width),
             [width, 32], [width], 10, samples, mode_last=True)
    _compare(Instr("call", 1, "%r", width, callee=f"__llumc_rounded.rint.{suffix}"), ("rint", width),
             [width, 32], [width], 11, samples, mode_last=True)
    for iwidth in (32, 64):
        for op in ("sitofp", "uitofp"):
            _compare(Instr("call", 1, "%r", width, callee=f"__llumc_rounded.{op}.{suffix}.i{iwidth}"),
                     ("rounded_from_int", op == "sitofp", iwidth, width), [iwidth, 32], [], 12, samples,
                     mode_last=True)
    if width == 32:
        _compare(Instr("call", 1, "%r", 32, callee="__llumc_rounded.fptrunc.f32.f64"), ("rounded_resize", 64, 32),
                 [64, 32], [32], 13, samples, mode_last=True)


@pytest.mark.parametrize("width", [32, 64])
def test_class_tests(width: int) -> None:
    for mask in (0x3, 0x204, 0x60, 0x90, 0x108, 0x1, 0x2, 0x3FF):
        ins = Instr("call", 1, "%r", 1, callee=f"llvm.is.fpclass.f{width}")
        rng = random.Random(mask)
        specials = _specials(width)
        for _ in range(SAMPLES // 4):
            value = _operand(rng, width, specials)
            tb = TermBuilder()
            args = [tb.const(value, width), tb.const(mask, 32)]
            term = floatsem.float_value(tb, ins, args.__getitem__, lambda w, s: tb.const(0, w), "test")
            assert term.param == floatnative.evaluate(("class", mask, width), value), (hex(value), mask)


@pytest.mark.parametrize("program", ["filter_bounded_true.c", "newton_sqrt_true.c", "associativity_false.c",
                                     "toward_zero_sum_true.c"])
def test_compiled_float_step_is_the_circuits(program: str) -> None:
    """A float program's compiled steps (floats on the machine) agree with `evaluate` (the
    circuits) on random states and inputs, NaN choices included."""
    from pathlib import Path

    from llumc.invariants.simulate import compile_step, reference_step
    from llumc.pipeline import encode_file

    word = encode_file(Path(__file__).parent / "float_programs" / program).word
    assert word.terms.native  # the float operations are registered
    rng = random.Random(program)
    for code in range(len(word.blocks)):
        step = compile_step(word, code)
        for _ in range(40):
            state = [rng.getrandbits(v.width) if rng.random() < 0.5 else
                     _operand(rng, v.width, _specials(v.width)) if v.width in (32, 64) else rng.getrandbits(v.width)
                     for v in word.state]
            state[word.curr.index] = code
            x = [rng.getrandbits(i.width) if i.width not in (32, 64) or rng.random() < 0.3 else
                 _operand(rng, i.width, _specials(i.width)) for i in word.inputs]
            assert step.fn(state, x) == reference_step(word, state, x)
