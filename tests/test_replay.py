"""Concrete replay: real clang builds, real static binaries, real runs (tests/replay_programs/).

The first build per target makes zig build musl once (about a minute); later builds are cached.
"""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

import pytest

from llumc.errors import LlumcError
from llumc.frontend.compile import clang_command
from llumc.check.replay import ReplayExpectation, replay

PROGRAMS = Path(__file__).with_name("replay_programs")


def run(name: str, values: list[int], kind: str, line: int | None, **options):
    return replay(PROGRAMS / name, values, ReplayExpectation(kind, line), **options)


def test_error_needs_specific_inputs():
    result = run("nondet_guarded_error.c", [11, 22], "error-call", 9)
    assert result.confirmed, result.observed
    assert result.line == 9
    assert result.nondet_consumed == 2
    assert "__VERIFIER_error called at nondet_guarded_error.c:9" in result.observed


def _zig_global_cache() -> Path:
    """Where zig keeps what it builds across runs (its own rule: the variable, XDG, home)."""
    if os.environ.get("ZIG_GLOBAL_CACHE_DIR"):
        return Path(os.environ["ZIG_GLOBAL_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "zig"


def test_replayed_program_leaves_nothing_in_zigs_global_cache(tmp_path, monkeypatch):
    """zig cc keeps a copy of every object it compiles in its global cache and never removes
    it; the replayed program's own object is built in the replay's directory instead."""
    if not clang_command(None)[1]:
        pytest.skip("clang is not zig's")
    monkeypatch.delenv("ZIG_LOCAL_CACHE_DIR", raising=False)  # (tests/conftest.py sets it)
    probe = uuid.uuid4().hex  # a name and a text no earlier build had
    source = tmp_path / f"cache_probe_{probe}.c"
    source.write_text((PROGRAMS / "nondet_guarded_error.c").read_text() + f"/* {probe} */\n")
    started = time.time()
    result = replay(source, [11, 22], ReplayExpectation("error-call", 9))
    assert result.confirmed, result.observed
    objects = _zig_global_cache() / "o"
    recent = [Path(entry.path) for entry in os.scandir(objects)
              if entry.is_dir() and entry.stat().st_mtime >= started - 1] if objects.is_dir() else []
    assert not [path for path in recent if (path / f"{source.stem}.o").exists()]


def test_native_builds_are_prepared_for_both_targets():
    """`make install` and `llumc bench` build zig's C library first (warm here: the suite's
    replays built it); a clang that cannot run is one line per target, not an exception."""
    from llumc.check.replay import prepare_native_builds

    assert prepare_native_builds((True, False)) == []
    missing = "/nonexistent/clang"
    assert prepare_native_builds((True, False), clang=missing) == [
        f"native build for ILP32: clang not found: {missing}", f"native build for LP64: clang not found: {missing}"]


def test_wrong_inputs_do_not_confirm():
    result = run("nondet_guarded_error.c", [11, 23], "error-call", 9)
    assert not result.confirmed
    assert result.observed == "exit 0"
    assert result.nondet_consumed == 2


def test_too_few_values_is_a_divergence():
    result = run("nondet_guarded_error.c", [11], "error-call", 9)
    assert not result.confirmed
    assert "diverged" in result.observed and "#2" in result.observed
    assert result.nondet_consumed == 1


def test_line_mismatch_does_not_confirm():
    result = run("nondet_guarded_error.c", [11, 22], "error-call", 8)
    assert not result.confirmed
    assert result.line == 9
    assert "expected line 8" in result.observed


def test_failed_assert_from_assert_h():
    result = run("assert_h.c", [10], "assert", 8)  # 3 * 10 == 30
    assert result.confirmed, result.observed
    assert result.observed.startswith("assertion failed at assert_h.c:8")
    assert not run("assert_h.c", [11], "assert", 8).confirmed


def test_program_defined_reach_error_and_verifier_assert():
    # 65531 is -5 as a 16-bit short: the value is converted to the function's return type.
    for value in (-5, 65531):
        result = run("own_reach_error.c", [value], "error-call", 7)
        assert result.confirmed, result.observed
        assert "reach_error called at own_reach_error.c:7" in result.observed
        assert "own_reach_error.c:13" in result.observed  # the __VERIFIER_assert call in main
    assert not run("own_reach_error.c", [4], "error-call", 7).confirmed


def test_call_of_empty_reach_error_is_the_violation_and_program_nondet_is_overridden():
    result = run("empty_reach_error.c", [42], "error-call", 11)
    assert result.confirmed, result.observed
    assert not run("empty_reach_error.c", [7], "error-call", 11).confirmed


def test_failed_assume_stops_quietly():
    result = run("empty_reach_error.c", [-42], "error-call", 11)
    assert not result.confirmed
    assert "__VERIFIER_assume failed at empty_reach_error.c:9" in result.observed


def test_overflow_at_its_line():
    result = run("overflow_line.c", [1_073_741_500], "overflow", 5)  # 2a fits, 2a + 1000 does not
    assert result.confirmed, result.observed
    assert result.line == 5
    assert "signed addition overflow at overflow_line.c:5" in result.observed


def test_overflow_avoided_by_inputs_is_not_confirmed():
    result = run("overflow_line.c", [12], "overflow", 5)
    assert not result.confirmed
    assert result.observed == "exit 0"  # main returns 1024; the exit status keeps its low byte


def test_overflow_at_another_line_is_not_confirmed():
    result = run("overflow_line.c", [1 << 30], "overflow", 5)  # the multiplication overflows first
    assert not result.confirmed
    assert result.line == 4
    assert "multiplication overflow at overflow_line.c:4" in result.observed


def test_error_call_is_not_an_overflow():
    result = run("nondet_guarded_error.c", [11, 22], "overflow", 9)
    assert not result.confirmed
    assert "__VERIFIER_error called" in result.observed


def test_32_bit_long():
    # 2^32 + 5 truncates to 5 only where long has 32 bits.
    result = run("long_width.c", [2**32 + 5], "error-call", 7, m32=True)
    assert result.confirmed, result.observed
    assert not run("long_width.c", [2**32 + 5], "error-call", 7).confirmed


def test_endless_loop_times_out():
    start = time.monotonic()
    result = run("loops_forever.c", [4], "error-call", 8, timeout=1)
    assert not result.confirmed
    assert result.observed == "timeout after 1 s"
    assert time.monotonic() - start < 30
    assert run("loops_forever.c", [3], "error-call", 8, timeout=1).confirmed


def test_endless_output_is_cut_off():
    result = run("chatty_loop.c", [], "error-call", None, timeout=20)
    assert not result.confirmed
    assert result.observed == "killed by SIGXFSZ (output limit)"


def test_build_failure_is_not_confirmed(tmp_path):
    broken = tmp_path / "broken.c"
    broken.write_text("int main(void) { return undefined_function_xyz(); }\n")
    result = replay(broken, [], ReplayExpectation("error-call", None))
    assert not result.confirmed
    assert result.observed.startswith("build failed:")
    assert "undefined_function_xyz" in result.observed


def test_bad_arguments():
    with pytest.raises(LlumcError, match="no such file"):
        replay(PROGRAMS / "missing.c", [], ReplayExpectation("error-call", None))
    with pytest.raises(ValueError, match="unknown replay kind"):
        replay(PROGRAMS / "assert_h.c", [], ReplayExpectation("memsafety", None))


@pytest.mark.parametrize("m32", [False, True])
def test_program_defining_libc_names_does_not_capture_the_harness(m32):
    """read, write, open, close, malloc, free, getenv, strtoll of the program's own: the harness
    must still read its values file and report (regression: toy1.cil.c's `void read(void)`)."""
    result = run("libc_names.c", [7, -3], "error-call", 24, m32=m32)
    assert result.confirmed, result.observed
    assert result.nondet_consumed == 2
    assert not run("libc_names.c", [7, 3], "error-call", 24, m32=m32).confirmed


def test_uninitialised_locals_start_from_the_recorded_values_per_site():
    """Sites are the front end's `%__uninit.N` numbers; one site's values are handed out in the
    recorded order (here the two calls of pick), a site without values gets 0."""
    from llumc.pipeline import encode_file, read_symbol_map
    from llumc.check.replay import uninit_site

    source = Path(__file__).parent / "programs" / "check" / "uninit_bug.c"
    inputs = read_symbol_map(encode_file(source, m32=True).ts.comments).inputs
    sites = [uninit_site(inp.ir_name) for inp in inputs if inp.site.startswith("__llumc_uninit_")]
    assert len(sites) == 3 and None not in sites
    u, t1, t2 = sites
    assert t1 == t2 != u  # both inlined copies of pick's `t` come from one C site

    def replay_with(uninit):
        return replay(source, [0], ReplayExpectation("error-call", 17), m32=True, uninit_values=uninit)

    confirmed = replay_with([(u, 12345), (t1, 777), (t2, -5)])
    assert confirmed.confirmed, confirmed.observed
    assert not replay_with([(u, 12345), (t1, -5), (t2, 777)]).confirmed  # order within a site
    assert not replay_with([(t1, 777), (t2, -5)]).confirmed  # u gets 0
    assert uninit_site("%__uninit.12.i.i3") == 12 and uninit_site("%call") is None


@pytest.mark.parametrize("m32", [False, True])
def test_line_table_decoded_as_pyelftools_decodes_it(tmp_path, m32):
    """`line_rows` (the replay's own decoder of DWARF line programs) gives pyelftools' rows,
    on every compile unit of a real replay binary, 32- and 64-bit."""
    from elftools.elf.elffile import ELFFile

    from llumc.check.replay import build_program, line_rows

    binary = tmp_path / "replay.bin"
    assert build_program(PROGRAMS / "overflow_line.c", binary, "unreach-call", m32, None) is None
    compared = 0
    with open(binary, "rb") as handle:
        dwarf = ELFFile(handle).get_dwarf_info()
        for unit in dwarf.iter_CUs():
            program = dwarf.line_program_for_CU(unit)
            if program is None:
                continue
            expected = [(entry.state.address, entry.state.file, entry.state.line, entry.state.column,
                         bool(entry.state.end_sequence)) for entry in program.get_entries() if entry.state is not None]
            assert line_rows(program) == expected
            compared += len(expected)
    assert compared > 20
