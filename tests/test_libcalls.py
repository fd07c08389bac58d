"""Library calls that do not touch the property (printf and its kin) and SV-COMP's nondet
functions: real programs, real clang, real checks and native replays."""

from __future__ import annotations

from pathlib import Path

import pytest

from llumc.check.portfolio import check_program

OUTPUT = """\
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  printf("x = %d, %s\\n", x, "text");
  puts("hello");
  putchar('a');
  fputc('b', stdout);
  fputs("c", stderr);
  fprintf(stderr, "err %d %%n\\n", x);
  fflush(stdout);
  int n = printf("%d", x);
  if (n < 0) n = 0;
  if (x == 42) reach_error();
  return 0;
}
"""


def write(tmp_path: Path, text: str, name: str = "prog.c") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("m32", [False, True])
def test_output_calls_do_not_change_the_state(tmp_path, m32):
    result = check_program(write(tmp_path, OUTPUT), timeout=60, m32=m32)
    assert result.verdict == "false", result.reason
    assert result.error.line == 15 and "reach_error called at prog.c:15" in result.confirmation
    # only the program's own nondet value is an input; printf's result is not replayed
    assert [(i.function, i.value) for s in result.trace for i in s.inputs] == [("__VERIFIER_nondet_int", 42)]

    safe = OUTPUT.replace("if (x == 42) reach_error();", "if (n < 0) reach_error();")
    assert check_program(write(tmp_path, safe, "safe.c"), timeout=60, m32=m32).verdict == "true"


def test_a_result_is_any_value_and_the_replay_decides(tmp_path):
    """printf's result is nondet in the model; natively "ab" is 2 characters, so a counterexample
    that needs 5 is not confirmed: UNKNOWN, never FALSE."""
    program = ('#include <stdio.h>\nextern void reach_error(void);\n'
               'int main(void) {\n  if (printf("ab") == 5) reach_error();\n  return 0;\n}\n')
    result = check_program(write(tmp_path, program), timeout=60)
    assert result.verdict == "unknown"
    assert result.reason.startswith("counterexample not confirmed: exit 0")


@pytest.mark.parametrize("call, cause", [
    # %n writes to k: the call stays (were it dropped, k == 0: a wrong TRUE) and is unknown
    ('int k = 0; printf("ab%n", &k);', "'printf'"),
    ('int k = 0; printf("%2$hhn", 1, &k);', "'printf'"),
    ('char buf[4]; int k = sprintf(buf, "%d", 1);', "'sprintf'"),  # writes to memory: never dropped
    ('char *f = __VERIFIER_nondet_int() ? "a" : "b"; int k = printf(f);', "'printf'"),  # unknown format
    ('int k = rand();', "'rand'"),
])
def test_other_library_calls_stay_named_unknowns(tmp_path, call, cause):
    # the model's answer (the random tests run the real call: below)
    program = ("#include <stdio.h>\n#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\n"
               f"extern void reach_error(void);\nint main(void) {{\n  {call}\n"
               "  if (k == 2) reach_error();\n  return 0;\n}\n")
    result = check_program(write(tmp_path, program), timeout=60, random_tests=False)
    assert result.verdict == "unknown"
    assert cause in result.reason and "unsupported" in result.reason, result.reason


def test_a_refused_call_runs_natively_in_the_random_tests(tmp_path):
    # %n writes 2 to k: a native run reaches the error the model cannot encode
    program = ("#include <stdio.h>\nextern void reach_error(void);\nint main(void) {\n"
               '  int k = 0; printf("ab%n", &k);\n  if (k == 2) reach_error();\n  return 0;\n}\n')
    result = check_program(write(tmp_path, program), timeout=60, random_tests=True)
    assert result.verdict == "false" and result.engine == "random tests", result.reason
    assert result.error.line == 5


def test_a_program_s_own_definition_is_not_dropped(tmp_path):
    program = ("extern void reach_error(void);\nint count;\n"
               "int puts(const char *s) { count++; return 0; }\n"
               'int main(void) {\n  puts("a");\n  puts("b");\n  if (count == 2) reach_error();\n  return 0;\n}\n')
    result = check_program(write(tmp_path, program), timeout=60)
    assert result.verdict == "false", result.reason


# SV-COMP's integer nondet functions: (X of __VERIFIER_nondet_X, C type, bits under LP64/ILP32, signed)
NONDETS = [
    ("bool", "_Bool", 1, 1, False), ("_Bool", "_Bool", 1, 1, False),
    ("char", "char", 8, 8, True), ("schar", "signed char", 8, 8, True), ("uchar", "unsigned char", 8, 8, False),
    ("short", "short", 16, 16, True), ("ushort", "unsigned short", 16, 16, False),
    ("int", "int", 32, 32, True), ("uint", "unsigned int", 32, 32, False), ("unsigned", "unsigned", 32, 32, False),
    ("long", "long", 64, 32, True), ("ulong", "unsigned long", 64, 32, False),
    ("longlong", "long long", 64, 64, True), ("ulonglong", "unsigned long long", 64, 64, False),
    ("size_t", "unsigned long", 64, 32, False), ("ssize_t", "long", 64, 32, True),
    ("loff_t", "long long", 64, 64, True), ("sector_t", "unsigned long long", 64, 64, False),
    ("pthread_t", "unsigned long", 64, 32, False),
    ("u8", "unsigned char", 8, 8, False), ("u16", "unsigned short", 16, 16, False),
    ("u32", "unsigned int", 32, 32, False), ("u64", "unsigned long long", 64, 64, False),
    ("s8", "signed char", 8, 8, True), ("s16", "short", 16, 16, True), ("s32", "int", 32, 32, True),
    ("s64", "long long", 64, 64, True),
]


@pytest.mark.parametrize("m32", [False, True], ids=["LP64", "ILP32"])
def test_every_integer_nondet_of_sv_comp(tmp_path, m32):
    """Each value must be its type's extreme (signed: the minimum, unsigned: the maximum, bool:
    1) for the error: the model must know each function's width, the trace prints each value as
    C reads it, and the replay harness returns each one."""
    declarations = "".join(f"extern {ty} __VERIFIER_nondet_{x}(void);\n" for x, ty, *_ in NONDETS)
    reads, tests = [], []
    for number, (x, ty, _, _, signed) in enumerate(NONDETS):
        reads.append(f"  {ty} v{number} = __VERIFIER_nondet_{x}();\n")
        if ty == "_Bool":
            extreme = "1"
        elif signed:
            extreme = f"({ty})((unsigned long long)1 << (8 * sizeof({ty}) - 1))"
        else:
            extreme = f"({ty})-1"
        tests.append(f"v{number} == {extreme}")
    program = (declarations + "extern void reach_error(void);\nint main(void) {\n" + "".join(reads)
               + "  if (" + " && ".join(tests) + ") reach_error();\n  return 0;\n}\n")
    result = check_program(write(tmp_path, program), timeout=120, m32=m32)
    assert result.verdict == "false", result.reason
    seen = [(i.function, i.value) for s in result.trace for i in s.inputs]
    expected = []
    for x, _, lp64, ilp32, signed in NONDETS:
        bits = ilp32 if m32 else lp64
        value = 1 if bits == 1 else (-(1 << (bits - 1)) if signed else (1 << bits) - 1)
        expected.append((f"__VERIFIER_nondet_{x}", value))
    assert seen == expected
