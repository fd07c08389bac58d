"""Floating-point programs end to end: C with float and double through the front end, the
circuits of llumc.encoding.floats and the engines; every FALSE replayed natively, every TRUE
proven. The circuits themselves are compared with the machine in tests/test_floats.py."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.encoding.floatsem import float_text
from llumc.errors import UnsupportedError
from llumc.frontend.cfg import float_constant
from llumc.frontend.compile import compile_c

PROGRAMS = Path(__file__).parent / "float_programs"  # (outside programs/: not among the encoding digests)
C_FLOAT = re.compile(r"-?(\d+\.\d*(e[-+]\d+)?f?|\d+e[-+]\d+f?|INFINITY|NAN \(0x[0-9a-f]+\))")


@pytest.mark.parametrize("program, verdict", [
    ("associativity_false.c", "false"),
    ("nan_false.c", "false"),
    ("int_float_inexact_false.c", "false"),
    ("powers_of_two_true.c", "true"),
    ("int_float_exact_true.c", "true"),
    ("filter_bounded_true.c", "true"),
    ("rounding_upward_false.c", "false"),  # fesetround's mode reaches the circuits
    pytest.param("toward_zero_sum_true.c", "true", marks=pytest.mark.slow),  # 14 s; rounding_upward_false runs
    ("fegetround_true.c", "true"),
    ("fmod_tenths_false.c", "false"),
])
def test_float_programs(program: str, verdict: str) -> None:
    result = check_program(PROGRAMS / program, timeout=120)
    assert result.verdict == verdict, result.reason
    if program == "filter_bounded_true.c":  # its proof rests on bounds of y, printed as C floats
        texts = " ".join(inv["expression"] for inv in result.invariants)
        assert "y >= -10.0f" in texts and "y <= 10.0f" in texts, texts
    if program == "rounding_upward_false.c":  # the one mode that exceeds 1: FE_UPWARD
        assert [i.value for step in result.trace for i in step.inputs] == [0x800], result.trace
    if verdict == "false":
        assert result.confirmation and result.confirmation.startswith("replayed"), result.confirmation
        floats_read = [i for step in result.trace for i in step.inputs if "float" in i.function or "double" in i.function]
        assert all(i.text is not None and C_FLOAT.fullmatch(i.text) for i in floats_read), floats_read


@pytest.mark.parametrize("m32, verdict", [(True, "true"), (False, "false")])
def test_signalling_nan_returned_through_x87(m32: bool, verdict: str) -> None:
    """On i386 a float result comes back through st(0), quietened (llumc.frontend.x87returns);
    the replay (a native i386 or x86-64 binary) confirms the x86-64 FALSE."""
    result = check_program(PROGRAMS / "snan_return.c", timeout=120, m32=m32)
    assert result.verdict == verdict, result.reason
    if verdict == "false":
        assert result.confirmation and result.confirmation.startswith("replayed"), result.confirmation


@pytest.mark.slow  # 14 s; the float differential's programs are answered by the explicit search too
def test_newton_iteration_proven_by_its_states() -> None:
    """Three inputs, at most four iterations each: the explicit-state search enumerates the
    states (the float circuits evaluated concretely) and proves the tolerance by SAT calls."""
    result = check_program(PROGRAMS / "newton_sqrt_true.c", timeout=120, engine="explicit")
    assert result.verdict == "true", result.reason


@pytest.mark.parametrize("type_text, token, bits", [
    ("float", "0x3FB99999A0000000", 0x3DCCCCCD),  # 0.1f, printed as the double it equals
    ("float", "1.500000e+00", 0x3FC00000),
    ("float", "-0.000000e+00", 0x80000000),
    ("float", "0x7FF8000000000000", 0x7FC00000),  # a quiet NaN: the payload's top bits
    ("float", "0xFFF0000000000000", 0xFF800000),  # -inf
    ("double", "0x3FB999999999999A", 0x3FB999999999999A),
    ("double", "1.000000e+00", 0x3FF0000000000000),
    ("i32", "1", None),
])
def test_llvm_float_constants(type_text: str, token: str, bits: int | None) -> None:
    assert float_constant(type_text, token) == bits


def test_float_text_reads_back() -> None:
    for value in (0.1, 10.0, -2.5e-3, 3.4028234663852886e38, 1e-45, -0.0):
        bits = int.from_bytes(struct.pack("<f", value), "little")
        text = float_text(bits, 32)
        assert text.endswith("f") and struct.pack("<f", float(text[:-1])) == struct.pack("<f", value)
    assert float_text(0x7FF0000000000000, 64) == "INFINITY"
    assert float_text(0xFFF8000000000000, 64).startswith("-NAN")


def test_long_double_is_a_named_unknown(tmp_path: Path) -> None:
    source = tmp_path / "ld.c"
    source.write_text("int main(void) {\n  volatile long double x = 1.0L;\n  return x > 2.0L;\n}\n")
    with pytest.raises(UnsupportedError) as caught:
        compile_c(source)
    assert str(caught.value).startswith("unsupported: long double (x87 80-bit floating point) at ld.c")


@pytest.mark.parametrize("call, construct", [
    ("fesetenv(FE_DFL_ENV)", "call to unknown function 'fesetenv'"),
    ("fetestexcept(FE_INEXACT)", "call to unknown function 'fetestexcept'"),
])
def test_other_fenv_functions_are_named_unknowns(tmp_path: Path, call: str, construct: str) -> None:
    """Only the rounding mode is modelled: the floating-point environment and the exception
    flags stay unknown functions, even beside fesetround."""
    source = tmp_path / "fenv.c"
    source.write_text(f"#include <fenv.h>\nint main(void) {{\n  fesetround(FE_UPWARD);\n  return {call};\n}}\n")
    with pytest.raises(UnsupportedError) as caught:
        compile_c(source)
    assert str(caught.value) == f"unsupported: {construct} at fenv.c:4"
