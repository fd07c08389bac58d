"""Arrays of structs that mix integer and pointer fields, accessed at computed indices: the
memory model's offset analysis (llumc.encoding.memory, `_gep_offsets`) gives such a field's
address a congruence (`&table[i].value` is 4 modulo the struct's 8 bytes under ILP32), so it
can tell that no integer access overlaps a stored pointer. Programs in tests/memory_programs,
verdicts by construction (first line of each)."""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.encoding.memory import _Congruence, _join_offsets

PROGRAMS = Path(__file__).parent / "memory_programs"


@pytest.mark.parametrize("program, verdict", [
    ("struct_pointer_fields_true.c", "true"),
    ("struct_pointer_fields_false.c", "false"),
])
def test_struct_array_with_pointer_fields(program: str, verdict: str) -> None:
    result = check_program(PROGRAMS / program, m32=True, timeout=90)
    assert result.verdict == verdict, result.reason
    if verdict == "false":
        assert result.confirmation and result.confirmation.startswith("replayed"), result.confirmation


def test_pointer_bytes_read_at_a_computed_index_stay_unknown() -> None:
    result = check_program(PROGRAMS / "pointer_bytes_at_index_unknown.c", m32=True, timeout=60)
    assert result.verdict == "unknown"
    assert "pointer read or written as an integer ('pointers')" in result.reason, result.reason


def test_offsets_join() -> None:
    """Finite sets unite up to the limit; a congruence absorbs a set modulo its modulus; two
    congruences meet at the gcd of their moduli."""
    assert _join_offsets(frozenset({0}), frozenset({4}), 16) == frozenset({0, 4})
    assert _join_offsets(frozenset(range(10)), frozenset(range(10, 20)), 16) is None
    assert _join_offsets(_Congruence(8, frozenset({4})), frozenset({12, 16}), 16) == _Congruence(8, frozenset({0, 4}))
    assert _join_offsets(_Congruence(8, frozenset({4})), _Congruence(12, frozenset({0})), 16) == \
        _Congruence(4, frozenset({0}))
    assert _join_offsets(_Congruence(8, frozenset({4})), None, 16) is None
