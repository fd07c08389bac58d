"""SV-COMP's usual input is a preprocessed `.i` file: libc's prototypes, `__attribute__`s and `#`
line markers in front of the program. Ten of the project's own programs are preprocessed here
by the project's clang (`-E`, for the data model checked, with stdio/stdlib/assert/string
included so the file carries glibc's declarations as SV-COMP's do) and each `.i` must get the
verdict of its `.c` (by construction; the `.c` files' own checks are in the other tests), with
`--32` and (in `make test-all`) without; FALSE ones replay natively at the line of the `.c`
file's check."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from llumc.check.portfolio import check_program
from llumc.frontend.compile import clang_command

PROGRAMS = Path(__file__).parent / "programs"

# (program, verdict by construction): both verdicts, loops and straight code, signed and
# unsigned nondet values, an uninitialised local (replayed through the front end's IR).
CASES = [
    ("loops/counter_false.c", "false"),
    ("loops/counter_true.c", "true"),
    ("loops/gcd_uchar_true.c", "true"),
    ("loops/dowhile_sum_true.c", "true"),
    ("loops/updown_false.c", "false"),
    ("loops/break_continue_true.c", "true"),
    ("check/branch_reads.c", "false"),
    ("check/signedness.c", "false"),
    ("check/uninit_bug.c", "false"),
    ("safe_loop.c", "true"),
]
HEADERS = ["stdio.h", "stdlib.h", "assert.h", "string.h"]


def preprocess(source: Path, out: Path, *, m32: bool) -> Path:
    """`clang -E` as SV-COMP's task files were made: for one data model, headers expanded."""
    command, is_zig = clang_command(None)
    if is_zig:
        target = ["-target", "x86-linux-gnu" if m32 else "x86_64-linux-gnu"]
    else:
        target = ["-m32" if m32 else "-m64"]
    includes = [flag for header in HEADERS for flag in ("-include", header)]
    subprocess.run([*command, "-E", *target, *includes, "-o", str(out), str(source)], check=True,
                   capture_output=True, timeout=120)
    return out


# LP64 in `make test-all` only: the benchmarks and SV-COMP's tasks here are ILP32, and LP64 is
# every other test's default
@pytest.mark.parametrize("m32", [pytest.param(False, marks=pytest.mark.slow), True], ids=["LP64", "ILP32"])
@pytest.mark.parametrize("name, verdict", CASES, ids=[Path(n).stem for n, _ in CASES])
def test_preprocessed_variant_gets_the_verdict_of_its_source(tmp_path, name, verdict, m32):
    source = PROGRAMS / name
    preprocessed = preprocess(source, tmp_path / (source.stem + ".i"), m32=m32)
    text = preprocessed.read_text()
    # really SV-COMP-like: line markers, glibc's attributes and prototypes
    assert text.startswith("# 1 ") and "__attribute__" in text and "printf" in text
    variant = check_program(preprocessed, timeout=60, m32=m32)
    assert variant.verdict == verdict, variant.reason
    if verdict == "false":
        # the line markers give the `.c` file's lines, in the model and in the native replay
        original = check_program(source, timeout=60, m32=m32)
        assert original.verdict == verdict, original.reason
        assert variant.error.line == original.error.line
        assert f"{source.name}:{original.error.line}" in variant.confirmation
