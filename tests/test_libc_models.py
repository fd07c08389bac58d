"""Library models (llumc/frontend/libc_models.c, llumc/frontend/libcmodels.py): memset/memcpy of
nondeterministic length and <string.h> functions without a body become loops the engines handle.

Each program of tests/libc_programs is TRUE or FALSE by construction (the verdict is in the file
name, the reason in its first line; `_memsafety_` ones under valid-memsafety) and is checked by
`llumc check --32`, which must give exactly that verdict (FALSE replayed natively against the
real C library), and natively without llumc: on the FALSE trace's inputs the program reaches
the error, on a set of small inputs the TRUE program never does. Then: a model's invalid access
names the line of the call, uninitialised bytes copied stay nondeterministic, a program's own
`strlen` is kept, and a constant-length memset keeps the memory model's wide access.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.frontend.compile import compile_c
from tests.test_loop_programs import build_native, run_native

PROGRAMS_DIR = Path(__file__).parent / "libc_programs"
PROGRAMS = sorted(PROGRAMS_DIR.glob("*.c"))
TIMEOUT = 90.0
HEADER = ("#include <string.h>\nextern unsigned int __VERIFIER_nondet_uint(void);\n"
          "extern void reach_error(void);\nextern void __VERIFIER_assume(int);\n")


def _line_of(path: Path, text: str) -> int:
    return next(number for number, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_libc_program(path: Path, tmp_path: Path) -> None:
    expected = path.stem.rsplit("_", 1)[1]
    memsafety = "_memsafety_" in path.name
    result = check_program(path, m32=True, timeout=TIMEOUT, prop="valid-memsafety" if memsafety else "unreach-call")
    assert result.verdict == expected, result.reason
    binary = tmp_path / (path.stem + ".bin")
    if expected == "false":
        assert result.confirmation.startswith("replayed:"), result.confirmation
        if memsafety:  # the fault inside strcpy's body is the line of the call
            line = _line_of(path, "strcpy(")
            assert result.error.kind == "memory" and result.error.line == line, result.error
            assert f"{path.name}:{line}" in result.confirmation, result.confirmation
            return
        build_native(path, binary)
        inputs = [i.value for step in result.trace for i in step.inputs]
        assert run_native(binary, [inputs + [0] * 4])[0][0] == "error"
        return
    build_native(path, binary)
    small = [-1, 0, 1, 2, 3, 4, 5, 7, 9]
    vectors = [[small[(seed * 7 + k * 3 + k * k * seed) % len(small)] for k in range(20)] for seed in range(30)]
    vectors += [[v] * 20 for v in small]
    outcomes = [outcome for outcome, _ in run_native(binary, vectors)]
    assert "error" not in outcomes and "diverged" not in outcomes, outcomes
    assert outcomes.count("ok") >= 10, outcomes  # not every run cut off by an assumption


def test_an_out_of_bounds_memcpy_is_undefined_behaviour_at_the_call(tmp_path: Path) -> None:
    path = tmp_path / "prog.c"
    path.write_text(HEADER + "int main() {\n  unsigned char source[12] = {0}, target[8];\n"
                    "  unsigned int n = __VERIFIER_nondet_uint();\n  __VERIFIER_assume(n <= 12);\n"
                    "  memcpy(target, source, n);\n  return target[0];\n}\n")
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "unknown", result.reason
    assert "invalid memory access" in result.reason and "write of 1 bytes at prog.c:9" in result.reason, result.reason


def test_uninitialised_bytes_copied_stay_nondeterministic(tmp_path: Path) -> None:
    path = tmp_path / "prog.c"
    path.write_text(HEADER + "int main() {\n  unsigned char source[4], target[4];\n"
                    "  unsigned int n = __VERIFIER_nondet_uint();\n  __VERIFIER_assume(n >= 1 && n <= 4);\n"
                    "  memcpy(target, source, n);\n  if (target[0] == 5) reach_error();\n  return 0;\n}\n")
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "false" and result.error.line == 10, result.reason
    assert result.confirmation.startswith("replayed:"), result.confirmation


def test_a_strlen_of_the_program_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "prog.c"
    path.write_text("extern void reach_error(void);\nunsigned long strlen(const char *s) { return 42; }\n"
                    "int main() {\n  char s[2] = {0, 0};\n  if (strlen(s) != 42) reach_error();\n  return 0;\n}\n")
    assert check_program(path, m32=True, timeout=TIMEOUT).verdict == "true"


def test_constant_lengths_keep_the_wide_access() -> None:
    """A memset/memcpy whose length is a constant after the passes is no model's loop."""
    constant = compile_c(Path(__file__).parent / "programs" / "memory" / "memset_memcpy_true.c", m32=True)
    assert "@llvm.memset." in constant.ir and "@llvm.memcpy." in constant.ir and "__llumc_mem" not in constant.ir
    nondet = compile_c(PROGRAMS_DIR / "memset_nondet_true.c", m32=True)
    assert "@llvm.memset." not in nondet.ir and "@__llumc_memset" not in nondet.ir  # inlined: a loop


def test_a_comparison_is_any_value_of_its_sign(tmp_path: Path) -> None:
    """C fixes only the sign of strcmp's result; the replay's C library returns -1 here (glibc
    the difference, -4): a model returning the difference would call this TRUE."""
    path = tmp_path / "prog.c"
    path.write_text("#include <string.h>\nextern void reach_error(void);\nint main() {\n"
                    "  char a[8] = \"hello\", b[8] = \"help\";\n  if (strcmp(a, b) == -1) reach_error();\n"
                    "  return 0;\n}\n")
    result = check_program(path, m32=True, timeout=TIMEOUT)
    assert result.verdict == "false" and result.confirmation.startswith("replayed:"), result.reason
