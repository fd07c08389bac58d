"""Front end: real clang (ziglang's), real llvmlite passes, tiny C programs in tests/programs/."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from llumc.errors import LlumcError, UnsupportedError
from llumc.frontend.compile import TRAP_KINDS, Checks, classify_call, compile_c, nondet_width

TESTS = Path(__file__).parent
PROGRAMS = TESTS / "programs"
ROOT = TESTS.parent
MEMORY_OPCODES = {"alloca", "load", "store", "getelementptr"}


def instructions(result):
    main = result.module.get_function("main")
    return [instr for block in main.blocks for instr in block.instructions]


def callees(result) -> list[str]:
    return [list(instr.operands)[-1].name for instr in instructions(result) if instr.opcode == "call"]


def defined_functions(result) -> list[str]:
    return [fn.name for fn in result.module.functions if not fn.is_declaration]


def test_helper_loop_globals_become_one_ssa_main():
    result = compile_c(PROGRAMS / "fe_helper_globals.c")
    assert defined_functions(result) == ["main"]
    opcodes = {instr.opcode for instr in instructions(result)}
    assert not opcodes & MEMORY_OPCODES, opcodes
    assert "phi" in opcodes  # the loop carries i and the globals
    names = callees(result)
    assert "__VERIFIER_error" in names and "__VERIFIER_nondet_int" in names
    assert all(classify_call(name) is not None for name in names), names
    assert not result.module.global_variables or all(
        g.name.startswith(".") for g in result.module.global_variables)
    # The globals (written in the helper) are SSA values that keep their C names.
    held = {name for names in result.debug.value_names.values() for name in names}
    assert {"counter", "mode", "total", "i"} <= held, held


def test_appendix_example_is_a_loop_over_x():
    result = compile_c(ROOT / "examples" / "appendix.c")
    assert defined_functions(result) == ["main"]
    assert not {i.opcode for i in instructions(result)} & MEMORY_OPCODES
    phis = [i for i in instructions(result) if i.opcode == "phi"]
    assert len(phis) == 1 and result.debug.names_of(phis[0].name) == ["x"]
    assert "__VERIFIER_error" in callees(result)
    assert "-102" in str(phis[0])  # 4294967295u - 101 as an i32


def test_uninitialised_local_stays_nondeterministic():
    result = compile_c(PROGRAMS / "fe_uninit.c")
    # Without the front end's nondet initialisation simplifycfg may fold `u == 42` on undef
    # and delete the error call: a wrong TRUE.
    assert "__VERIFIER_error" in callees(result)
    compare = next(i for i in instructions(result) if i.opcode == "icmp")
    operand = list(compare.operands)[0].name
    producer = next(i for i in instructions(result) if i.name == operand)
    assert producer.opcode == "call"
    assert classify_call(list(producer.operands)[-1].name) == "nondet"
    assert not re.search(r"\b(undef|poison)\b", "\n".join(
        re.split(r", !", str(i))[0] for i in instructions(result)))


def test_local_declared_in_a_loop_is_fresh_in_every_iteration():
    result = compile_c(PROGRAMS / "fe_uninit_in_loop.c")
    # `x != 5` must compare a fresh nondet value, not a phi carrying the 5 of the previous
    # iteration (that would make the error unreachable: a wrong TRUE).
    compare = next(i for i in instructions(result)
                   if i.opcode == "icmp" and str(i).rstrip().split(", !")[0].endswith(", 5"))
    producer_name = list(compare.operands)[0].name
    producer = next(i for i in instructions(result) if i.name == producer_name)
    assert producer.opcode == "call"
    assert classify_call(list(producer.operands)[-1].name) == "nondet"
    assert "__VERIFIER_error" in callees(result)


def test_uninitialised_struct_and_array_stay_nondeterministic():
    result = compile_c(PROGRAMS / "fe_uninit_aggregate.c")
    # Both errors need a value never written (x.a, arr[1]); SROA would make them undef and
    # simplifycfg would then delete both error calls.
    assert callees(result).count("__VERIFIER_error") == 2
    assert not {i.opcode for i in instructions(result)} & MEMORY_OPCODES
    assert sum(name.startswith("__llumc_uninit_") for name in callees(result)) == 2


def test_a_byte_written_into_an_int_reads_no_undef():
    """SROA inserts the byte into the int's slices from `and i32 undef, C`, and the next mask
    clears every bit taken from the undef (`_masked_away`): no value read before a write, so
    the program is encoded (it was `value read before any write`), and the error that needs
    the byte is unreachable while the one that needs the low bits is found and replayed."""
    from llumc.check.portfolio import check_program

    result = check_program(PROGRAMS / "fe_byte_into_int.c", m32=True, timeout=60)
    assert result.verdict == "false" and result.error.line == 12, result.reason
    assert result.confirmation.startswith("replayed: reach_error called at fe_byte_into_int.c:12")


def test_union_views_are_no_read_before_a_write():
    """A union written whole, read through its byte and half views, then written by halves
    and bytes: a chain of SROA insertions whose masks clear every undefined bit in turn. The
    views agree (the first error is unreachable); the second error is found and replayed."""
    from llumc.check.portfolio import check_program

    result = check_program(PROGRAMS / "fe_union_views.c", m32=True, timeout=60)
    assert result.verdict == "false" and result.error.line == 15, result.reason
    assert result.confirmation.startswith("replayed: reach_error called at fe_union_views.c:15")


@pytest.mark.parametrize("m32, width", [(False, 64), (True, 32)])
def test_data_model_sets_the_width_of_long(m32, width):
    result = compile_c(PROGRAMS / "fe_data_model.c", m32=m32)
    call = next(i for i in instructions(result)
                if i.opcode == "call" and list(i.operands)[-1].name == "__VERIFIER_nondet_long")
    assert nondet_width(str(call.type)) == width
    assert result.module.triple.startswith("i386" if m32 else "x86_64")


def test_overflow_instrumented_only_when_asked():
    checked = compile_c(PROGRAMS / "fe_overflow.c", checks=Checks(overflow=True))
    assert "@llvm.sadd.with.overflow.i32" in checked.ir
    assert "call void @llvm.ubsantrap(i8 0)" in checked.ir
    plain = compile_c(PROGRAMS / "fe_overflow.c")
    assert "with.overflow" not in plain.ir and "ubsantrap" not in plain.ir
    assert re.search(r"= add i32 %call, 1", plain.ir)  # -fwrapv: no nsw


OPERATIONS = {
    "a + b": "addition",
    "a - b": "subtraction",
    "a * b": "multiplication",
    "-a": "negation",
    "a / b": "division",
    "a % b": "division",
    "a << b": "shift",
}


@pytest.mark.parametrize("expression", OPERATIONS)
def test_trap_kinds(tmp_path, expression):
    """The K of llvm.ubsantrap(i8 K) that each check produces is the one TRAP_KINDS names."""
    program = tmp_path / "op.c"
    program.write_text(
        "extern int __VERIFIER_nondet_int(void);\n"
        "int main(void) { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();\n"
        f"  return {expression}; }}\n")
    result = compile_c(program, checks=Checks(overflow=True, div_by_zero=True, shift=True))
    kinds = {int(k) for k in re.findall(r"@llvm\.ubsantrap\(i8 (\d+)\)", result.ir)}
    assert kinds, result.ir
    assert all(OPERATIONS[expression] in TRAP_KINDS[k] for k in kinds), kinds


def test_aggregates_with_constant_indices_are_split():
    result = compile_c(PROGRAMS / "fe_local_struct_global_array.c")
    assert not {i.opcode for i in instructions(result)} & MEMORY_OPCODES
    assert "__VERIFIER_error" in callees(result)
    # The nondet value is p.a (bits 0..32 of p) and table[2] (bits 64..96 of table).
    call = next(i for i in instructions(result) if i.opcode == "call"
                and list(i.operands)[-1].name == "__VERIFIER_nondet_int")
    assert set(result.debug.value_fragments[call.name]) == {("p", 0, 32), ("table", 64, 32)}


def test_primitives_are_kept_as_calls():
    result = compile_c(PROGRAMS / "fe_primitives.c")
    names = set(callees(result))
    assert {"reach_error", "__VERIFIER_assert", "__assert_fail", "__VERIFIER_assume",
            "abort", "__VERIFIER_nondet_int"} <= names, names
    assert defined_functions(result) == ["main"]  # reach_error's body was dropped
    kinds = {classify_call(name) for name in names}
    assert kinds == {"error", "assert", "assume", "abort", "nondet"}


@pytest.mark.parametrize("program, category, construct, line", [
    ("fe_pointer_int.c", "memory", "cast between pointer and integer", 4),
    ("fe_pthread.c", "concurrency", "concurrency (pthread_create) is not supported", 5),
    ("fe_setjmp.c", "setjmp", "non-local jump (_setjmp) is not supported", 4),
    ("fe_float.c", "float", "long double (x87 80-bit floating point)", 4),
    ("fe_main_envp.c", "main-parameters", "use of the third parameter of main (envp)", 3),
    ("fe_asm.c", "inline-asm", "inline assembly", 2),
    ("fe_uninit_pointer.c", "undef", "value read before any write (uninitialised memory)", 5),
    ("fe_uninit_pointer_branch.c", "undef", "value read before any write (uninitialised memory)", 7),
])
def test_unsupported_constructs_name_construct_and_line(program, category, construct, line):
    with pytest.raises(UnsupportedError) as caught:
        compile_c(PROGRAMS / program)
    assert caught.value.category == category
    assert str(caught.value) == f"unsupported: {construct} at {program}:{line}"


def test_debug_lines_of_instructions_and_blocks():
    result = compile_c(PROGRAMS / "fe_uninit.c")
    error_call = next(i for i in instructions(result)
                      if i.opcode == "call" and list(i.operands)[-1].name == "__VERIFIER_error")
    assert result.debug.line_of(str(error_call)) == 6
    assert result.debug.block_line[error_call.block.name] == 6
    assert result.debug.block_line["entry"] == 5


def test_classify_call():
    assert classify_call("__VERIFIER_nondet_ulonglong") == "nondet"
    assert classify_call("__llumc_uninit_i8") == "nondet"
    assert classify_call("__VERIFIER_error") == "error"
    assert classify_call("reach_error") == "error"
    assert classify_call("__assert_fail") == "error"
    assert classify_call("__VERIFIER_assume") == "assume"
    assert classify_call("exit") == "exit"
    assert classify_call("llvm.ubsantrap") == "trap"
    assert classify_call("printf") is None
    assert nondet_width("i8") == 8 and nondet_width("ptr") is None


def test_missing_file_is_an_error():
    with pytest.raises(LlumcError, match="no such file"):
        compile_c(PROGRAMS / "does_not_exist.c")


# ---------------------------------------------------------------- through the real CLI


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "llumc", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("argument, message", [
    ("tests/programs/does_not_exist.c", "no such file: tests/programs/does_not_exist.c"),
    ("tests/programs", "is a directory"),
    ("tests/programs/fe_syntax_error.c",
     "fe_syntax_error.c:2:12: error: expected ';' at end of declaration"),
    ("tests/programs/fe_pointer_int.c", "unsupported: cast between pointer and integer at fe_pointer_int.c:4"),
])
def test_cli_bad_input_is_one_line_and_exit_2(argument, message):
    proc = run_cli("ir", argument)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_cli_ir_prints_the_module():
    proc = run_cli("ir", "--32", "examples/appendix.c")
    assert proc.returncode == 0, proc.stderr
    assert "define i32 @main()" in proc.stdout and 'target triple = "i386' in proc.stdout


def test_cli_ir_shows_overflow_instrumentation_on_request():
    plain = run_cli("ir", "tests/programs/fe_overflow.c")
    checked = run_cli("ir", "--check-overflow", "tests/programs/fe_overflow.c")
    assert plain.returncode == 0 and checked.returncode == 0, checked.stderr
    assert "ubsantrap" not in plain.stdout
    assert "call void @llvm.ubsantrap(i8 0)" in checked.stdout


def test_undef_check_shortcut_agrees_with_the_printed_check(monkeypatch):
    """`_promotion_reads_no_undef` / `_localise_globals` skip printing a module for the undef
    check only where the check would pass: with LLUMC_FRONTEND_SELFCHECK the check runs anyway
    (and an internal error says if the shortcut was wrong). Both kinds of program occur."""
    import llumc.frontend.compile as frontend

    decisions = []
    check = frontend._check_promoted
    monkeypatch.setattr(frontend, "_check_promoted",
                        lambda module, source, ok: (decisions.append(ok), check(module, source, ok))[1])
    monkeypatch.setenv("LLUMC_FRONTEND_SELFCHECK", "1")
    for program in ("fe_helper_globals.c", "fe_primitives.c", "fe_uninit.c"):
        compile_c(PROGRAMS / program)
    with pytest.raises(UnsupportedError, match="value read before any write"):
        compile_c(PROGRAMS / "fe_uninit_pointer.c")
    assert True in decisions and False in decisions, decisions


def test_shortcut_refuses_what_sroa_could_leave_undefined():
    from llumc.frontend.compile import _promotion_reads_no_undef

    def function(body: str) -> str:
        return f"define i32 @main() {{\nentry:\n{body}\n}}\n"
    fresh = ("  %x = alloca i32, align 4\n  %__uninit.1 = call i32 @__llumc_uninit_i32()\n"
             "  store i32 %__uninit.1, ptr %x\n")
    assert _promotion_reads_no_undef(function(fresh + "  %v = load i32, ptr %x, align 4\n  ret i32 %v"))
    # never stored at the top of the entry block
    assert not _promotion_reads_no_undef(function(
        "  %x = alloca i32, align 4\n  %v = load i32, ptr %x, align 4\n  ret i32 %v"))
    # read with another type, passed to a call, a pointer alloca, an undef operand
    assert not _promotion_reads_no_undef(function(fresh + "  %v = load i8, ptr %x, align 4\n  ret i32 0"))
    assert not _promotion_reads_no_undef(function(fresh + "  call void @f(ptr %x)\n  ret i32 0"))
    assert not _promotion_reads_no_undef(function("  %p = alloca ptr, align 4\n  ret i32 0"))
    assert not _promotion_reads_no_undef(function(fresh + "  %v = add i32 undef, 1\n  ret i32 %v"))
    # a name that only starts like the alloca's is not a use of it
    assert _promotion_reads_no_undef(function(fresh + "  %x.1 = add i32 1, 2\n  ret i32 %x.1"))


def test_invalid_debug_info_is_dropped_as_before():
    """The front end turns off LLVM's check inside the parser (it verifies each parsed module
    itself); a module whose only defect is its debug info must still be parsed as before: the
    debug info dropped (LLVM warns), the code kept."""
    from llumc.frontend.compile import _init_llvm, _parse

    _init_llvm()
    text = """define i32 @main() !dbg !5 {
entry:
  %b = add i32 1, 2, !dbg !9
  ret i32 %b, !dbg !9
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/tmp")
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!9 = !DILocation(line: 2, column: 3, scope: !10)
!10 = distinct !DISubprogram(name: "foo", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
"""
    module = _parse(text, Path("a.c"))
    printed = str(module)
    assert "add i32 1, 2" in printed and "!dbg" not in printed
    # and the parser's own check is off again for the next parse
    import llvmlite.binding as llvm
    again = llvm.parse_assembly(text)
    with pytest.raises(RuntimeError, match="wrong subprogram"):
        again.verify()


# Globals that `_globals_as_arguments` localises before inlining, and ones for which it leaves
# the work to `_localise_globals` after inlining (None): SROA or the inliner may still turn
# their uses into plain loads and stores, or they are not scalar integers.
_EARLY_GLOBALS = {
    "helper": (True, "fe_helper_globals.c"),
    "assert string": (True, """
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
int g = 1, h;
static void bump(void) { g = g + h; }
int main(void) { bump(); if (g != 1) __assert_fail("g == 1", "p.c", 5, "main"); return 0; }
"""),
    "address to a helper": (False, """
extern void __VERIFIER_error(void);
int g;
static void set(int *p) { *p = 3; }
int main(void) { set(&g); if (g == 3) __VERIFIER_error(); return 0; }
"""),
    "stored address": (False, """
extern void __VERIFIER_error(void);
int g;
int main(void) { int *p = &g; *p = 2; if (g == 2) __VERIFIER_error(); return 0; }
"""),
    "array": (False, """
extern void __VERIFIER_error(void);
int t[4];
static void fill(void) { t[1] = 5; }
int main(void) { fill(); if (t[1] == 5) __VERIFIER_error(); return 0; }
"""),
    "function address": (False, """
extern void __VERIFIER_error(void);
int g;
static void f(void) { g = 1; }
void (*hook)(void) = f;
int main(void) { f(); if (g == 1) __VERIFIER_error(); return 0; }
"""),
}


@pytest.mark.parametrize("name", list(_EARLY_GLOBALS))
def test_globals_localised_before_inlining_as_after(tmp_path, monkeypatch, name):
    """Both ways of turning globals into main's SSA values give the same transition system
    (the CNF; value names may be numbered differently), and the early one declines exactly
    where its result could differ."""
    import llumc.frontend.compile as frontend
    from llumc.pipeline import encode_file
    from solvers.dimspec import format_dimspec

    early_applies, program = _EARLY_GLOBALS[name]
    if program.endswith(".c"):
        path = PROGRAMS / program
    else:
        path = tmp_path / "p.c"
        path.write_text(program)
    text = frontend.source_ir(path, m32=True, clang=None, checks=Checks(), wrapv=True)
    assert (frontend._globals_as_arguments(text) is not None) == early_applies

    def outcome():
        """The CNF (value names may be numbered differently) and C names of main's values,
        or the reason the program is not supported."""
        try:
            result = encode_file(path, m32=True)
        except UnsupportedError as err:
            return str(err)
        held = {n for names in result.debug.value_names.values() for n in names}
        return [line for line in format_dimspec(result.ts).splitlines() if not line.startswith("c ")], held
    early = outcome()
    monkeypatch.setattr(frontend, "_globals_as_arguments", lambda text: None)
    assert early == outcome()
    if early_applies:  # the globals became main's values, named after them
        assert {"g", "counter"} & early[1], early


def test_clang_leaves_nothing_in_zigs_caches(tmp_path, monkeypatch):
    """zig cc keeps a copy of every output in its caches; the IR's copies go with the run."""
    from llumc.frontend.compile import clang_command
    if not clang_command(None)[1]:
        pytest.skip("clang is not zig's")
    caches = tmp_path / "caches"
    monkeypatch.setenv("ZIG_GLOBAL_CACHE_DIR", str(caches / "global"))
    monkeypatch.setenv("ZIG_LOCAL_CACHE_DIR", str(caches / "local"))
    source = tmp_path / "p.c"
    source.write_text("int main(void) { int x = 1; return x; }\n")
    result = compile_c(source)
    assert "define" in result.ir
    assert not caches.exists() or not any(caches.rglob("*"))


# A chain of helpers as in the RERS programs (each calls the next), globals written in each.
_CHAIN = """
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
int a = 1, b = 2;
int step3(int x) { if (x == 3 && a == 1) { b = a + 4; return 1; } return 0; }
int step2(int x) { if (x == 2) { a = b; return 2; } return step3(x); }
int step1(int x) { if (x == 1 && b == 2) { a = 0; return 3; } return step2(x); }
int main(void) {
  while (1) {
    int x = __VERIFIER_nondet_int();
    if (x < 1 || x > 3) return 0;
    step1(x);
    if (a == 0 && b == 5) __VERIFIER_error();
  }
}
"""
# An undefined read (a pointer never written) in the first or the last function of the text.
_UNDEF_READ = "int q; int *p; return p == &q;"


def print_two_process_outcomes(path: str) -> None:
    """For `_two_process_outcomes`, in a fresh interpreter (the fork is only taken where no
    other thread runs, and earlier tests leave some): as JSON, the encoding of `path` (DimSpec
    text and the C names of main's values, or the error) in one process, then with
    `_simplified_in_two_processes` from any size on, and whether each of those calls forked
    and linked (its result not None), and what each that did said of undef reads."""
    import json

    import llumc.frontend.compile as frontend
    from llumc.pipeline import encode_file
    from solvers.dimspec import format_dimspec

    def outcome():
        try:
            result = encode_file(Path(path), m32=True)
        except LlumcError as err:
            return f"{type(err).__name__}: {err}"
        return [format_dimspec(result.ts), result.debug.value_names]
    one = outcome()
    used: list[bool] = []
    reads_no_undef: list[bool] = []
    split = frontend._simplified_in_two_processes

    def spied(*args):
        done = split(*args)
        used.append(done is not None)
        if done is not None:
            reads_no_undef.append(done[1])
        return done
    frontend.TWO_PROCESSES_FROM_BYTES = 0
    frontend._simplified_in_two_processes = spied
    print(json.dumps([one, outcome(), used, reads_no_undef]))


def _two_process_outcomes(path: Path) -> tuple[object, object, list[bool], list[bool]]:
    import json

    code = (f"import sys; sys.path.insert(0, {str(TESTS)!r}); import test_frontend; "
            f"test_frontend.print_two_process_outcomes({str(path)!r})")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    one, two, used, reads_no_undef = json.loads(proc.stdout)
    return one, two, used, reads_no_undef


def test_two_processes_simplify_as_one(tmp_path):
    """Parsing and the passes before inlining on two halves of the module in two processes
    (what the RERS programs get) give the encoding of one process, names and symbols alike."""
    path = tmp_path / "chain.c"
    path.write_text(_CHAIN)
    one, two, used, reads_no_undef = _two_process_outcomes(path)
    assert used == [True] and reads_no_undef == [True]
    assert isinstance(one, list), one
    assert {"a", "b"} <= {name for names in one[1].values() for name in names}, one[1]
    assert one == two


@pytest.mark.parametrize("where", ["first", "last"])
def test_two_processes_report_the_error_of_one(tmp_path, where):
    """An error in either half (here a pointer read before any write) is the error one process
    reports. The read is a fresh `__llumc_uninit_ptr()` that survives the passes, not an
    `undef` (llumc.frontend.compile._initialise_locals), so the halves link and the check
    after them finds it."""
    helpers = [f"int h{k}(int x) {{ return x + {k}; }}" for k in range(4)]
    index = 0 if where == "first" else -1
    helpers[index] = helpers[index].replace("return x + ", _UNDEF_READ + " return x + ", 1)
    path = tmp_path / "undef.c"
    path.write_text("\n".join(helpers) + "\nint main(void) { return h0(1) + h1(2) + h2(3) + h3(4); }\n")
    one, two, used, _ = _two_process_outcomes(path)
    assert one.startswith("UnsupportedError") and "value read before any write" in one, one
    assert two == one and used == [True]


@pytest.mark.parametrize("where", ["first", "last"])
def test_two_processes_check_the_undef_reads_of_either_half(tmp_path, where):
    """A half whose text does not show that its promotions read no undef (a local array) is
    printed and checked after its promotion, in whichever process has it, and the inlined
    main again: the encoding of one process, the fork taken."""
    helpers = [f"int h{k}(int x) {{ return x + {k}; }}" for k in range(4)]
    index = 0 if where == "first" else -1
    helpers[index] = helpers[index].replace(
        "return x + ", "int t[2]; t[0] = x; t[1] = __VERIFIER_nondet_int(); return t[x & 1] + ", 1)
    path = tmp_path / "array.c"
    path.write_text("extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_error(void);\n"
                    + "\n".join(helpers)
                    + "\nint main(void) { if (h0(1) + h1(2) + h2(3) + h3(4) == 7) __VERIFIER_error(); return 0; }\n")
    one, two, used, reads_no_undef = _two_process_outcomes(path)
    assert isinstance(one, list), one
    assert one == two and used == [True]
    assert reads_no_undef == [False]  # the half's verdict, whichever process had it


def test_module_split_keeps_globals_in_one_half():
    """A function of the second half that names a global variable (here an array, which stays
    a global) keeps the module in one piece: linking would define the global twice."""
    import llumc.frontend.compile as frontend

    def module(late_body: str) -> str:
        return ("@t = global [2 x i32] zeroinitializer, align 4\n\n"
                "define i32 @early() {\n  ret i32 0\n}\n\n"
                f"define i32 @late() {{\n{late_body}\n}}\n\n"
                "define i32 @main() {\n  %r = call i32 @late()\n  ret i32 %r\n}\n\n"
                "declare i32 @__VERIFIER_nondet_int()\n")
    plain = frontend._split_module(module("  %v = call i32 @__VERIFIER_nondet_int()\n  ret i32 %v"))
    assert plain is not None
    first, second, later = plain
    assert later == {"late"}
    assert "define i32 @late()" in second and "declare i32 @late()" in first
    assert "@t = global" in first and "@t" not in second and "define i32 @main()" in first
    assert frontend._split_module(module("  %v = load i32, ptr @t, align 4\n  ret i32 %v")) is None


@pytest.mark.parametrize("program", ["loops/gcd_uchar_false.c",
                                     "memory/scoped_pointers_true.c", "memory/swap_true.c", "chain"])
def test_inlined_main_without_simplifycfg_keeps_the_verdict(tmp_path, monkeypatch, program):
    """Large programs skip simplifycfg after inlining (`SIMPLIFY_AFTER_INLINING_UP_TO_BYTES`):
    the blocks it would fold stay (these programs have some), and the system has the same
    shortest path to an error (or none within the bound) as with it."""
    import llumc.frontend.compile as frontend
    from llumc.pipeline import encode_file
    from test_encode import depth

    path = PROGRAMS / program
    if program == "chain":
        path = tmp_path / "chain.c"
        path.write_text(_CHAIN)
    bound = 12
    simplified = encode_file(path, m32=True)
    monkeypatch.setattr(frontend, "SIMPLIFY_AFTER_INLINING_UP_TO_BYTES", 0)
    unsimplified = encode_file(path, m32=True)
    assert simplified.fn.blocks != unsimplified.fn.blocks
    assert depth(simplified.ts, bound) == depth(unsimplified.ts, bound)


def test_function_spans_remembered_only_while_compiling(tmp_path):
    """The spans of a text are read once per text while `compile_c` runs (by identity: an
    equal but new text is read again), and nothing is kept after it."""
    import llumc.frontend.compile as frontend

    text = "define i32 @f() {\n  ret i32 0\n}\n\ndefine i32 @main() {\n  ret i32 1\n}\n"
    with frontend._function_spans_remembered():
        first = frontend._function_spans(text)
        assert frontend._function_spans(text) is first
        assert set(first) == {"f", "main"}
        other = frontend._function_spans(text.replace("@f()", "@g()"))
        assert set(other) == {"g", "main"}
    assert frontend._SPANS_CACHE is None
    assert frontend._function_spans(text) is not frontend._function_spans(text)
    source = tmp_path / "p.c"
    source.write_text("int main(void) { return 0; }\n")
    compile_c(source)
    assert frontend._SPANS_CACHE is None


def test_unsequenced_modifications_are_a_named_unknown(tmp_path: Path) -> None:
    """`i++ + i++` is undefined behaviour whose IR shows only clang's order: no verdict."""
    from llumc.check.portfolio import check_program

    source = tmp_path / "unsequenced.c"
    source.write_text("extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n"
                      "int main(void) {\n  int i = __VERIFIER_nondet_int();\n  int j = i++ + i++;\n"
                      "  if (j == 2 * i - 3) reach_error();\n  return 0;\n}\n")
    result = check_program(source)
    assert result.verdict == "unknown"
    assert result.reason == "undefined behaviour: multiple unsequenced modifications to 'i' at unsequenced.c:5"


@pytest.mark.parametrize("index", ["5", "k"])
def test_large_local_declared_in_a_loop_keeps_no_value_of_the_last_iteration(tmp_path, index):
    """A local too large for one fresh value (over MAX_UNINIT_BITS) is kept in memory, where it
    is abstract: read before it is written in the second iteration it holds any value, not the
    first iteration's 7 (which C does not promise; natively it is there, so the answer is
    UNKNOWN, never TRUE). At a constant index SROA would otherwise have made it a phi of 7."""
    from llumc.check.portfolio import check_program

    source = tmp_path / "large_local.c"
    source.write_text(
        "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n"
        "int main(void) {\n  int k = __VERIFIER_nondet_int();\n  if (k < 0 || k >= 600) return 0;\n"
        "  for (int i = 0; i < 2; i++) {\n    __int128 big[600];\n"
        f"    if (i == 1 && big[{index}] != 7) reach_error();\n    big[{index}] = 7;\n  }}\n  return 0;\n}}\n")
    result = check_program(source, timeout=60)
    assert result.verdict == "unknown", (result.verdict, result.reason)
    assert "counterexample not confirmed" in result.reason, result.reason


def test_clang_output_is_kept_only_within_a_check(tmp_path):
    """Within a check a program's clang output is made once per command and source; a changed
    source is compiled again. Outside one, clang runs every time, so a changed header is seen."""
    from llumc.frontend.compile import clang_outputs_kept

    header, program = tmp_path / "limit.h", tmp_path / "prog.c"
    header.write_text("#define LIMIT 7\n")
    program.write_text('#include "limit.h"\nint main(void) { return LIMIT; }\n')
    assert "ret i32 7" in compile_c(program).ir
    header.write_text("#define LIMIT 8\n")
    assert "ret i32 8" in compile_c(program).ir
    with clang_outputs_kept():
        assert "ret i32 8" in compile_c(program).ir
        program.write_text('#include "limit.h"\nint main(void) { return LIMIT + 1; }\n')
        assert "ret i32 9" in compile_c(program).ir
