"""llumc's BenchExec tool-info module, loaded through BenchExec's own API: its version, the
command line it builds from a task, and the result it reads from each of llumc's answers, the
runs made by the real llumc on real programs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import benchexec.result as result
from benchexec.model import load_tool_info
from benchexec.tools.template import BaseTool2
from benchexec.util import ProcessExitCode

from llumc import __version__

PROGRAMS = Path(__file__).parent / "programs"
UNREACH = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n"
OVERFLOW = "CHECK( init(main()), LTL(G ! overflow) )\n"
MEMSAFETY = "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n"
MEMSAFETY_ALL = MEMSAFETY + "CHECK( init(main()), LTL(G valid-memtrack) )\n"
HEAP = Path(__file__).parent / "heap_programs"


def load():
    name, tool = load_tool_info("llumc.svcomp.benchexec_tool", SimpleNamespace(container=False))
    locator = BaseTool2.ToolLocator(tool_directory=str(Path(sys.executable).parent))
    return name, tool, tool.executable(locator)


def run_through(tool, executable: str, program: Path, prp_text: str, tmp_path: Path, data_model: str = "ILP32"):
    """Run llumc on `program` with the command line the tool-info module builds, as BenchExec
    would (stdout and stderr together), and hand the run to `determine_result`."""
    prp = tmp_path / f"p{abs(hash(prp_text))}.prp"
    prp.write_text(prp_text)
    task = BaseTool2.Task.with_files([str(program)], property_file=str(prp),
                                     options={"language": "C", "data_model": data_model})
    limits = BaseTool2.ResourceLimits(cputime=120, cputime_hard=130, walltime=None, memory=None, cpu_cores=2)
    cmdline = tool.cmdline(executable, [], task, limits)
    workdir = tmp_path / f"run{len(list(tmp_path.glob('run*')))}"
    workdir.mkdir()
    process = subprocess.run(cmdline, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300,
                             cwd=workdir)
    output = BaseTool2.RunOutput(process.stdout.splitlines())
    run = BaseTool2.Run(cmdline, ProcessExitCode.create(value=process.returncode), output, None)
    return cmdline, tool.determine_result(run)


def test_loaded_by_benchexec_with_its_version_and_command_line(tmp_path):
    name, tool, executable = load()
    assert name == "llumc.svcomp.benchexec_tool" and tool.name() == "llumc"
    assert Path(executable).name == "llumc" and Path(executable).is_file()
    assert tool.version(executable) == __version__
    task = BaseTool2.Task.with_files(["prog.i"], property_file="unreach-call.prp",
                                     options={"language": "C", "data_model": "LP64"})
    limits = BaseTool2.ResourceLimits(cputime=900, cputime_hard=960, walltime=None, memory=None, cpu_cores=2)
    assert tool.cmdline(executable, ["--engine", "ic3"], task, limits) == [
        executable, "check", "--engine", "ic3", "--property-file", "unreach-call.prp",
        "--data-model", "LP64", "--witness", "witness.yml", "--timeout", "405", "prog.i"]


def test_every_verdict_maps_to_benchexec_s_result(tmp_path):
    _, tool, executable = load()
    cases = [
        (PROGRAMS / "check" / "clamp_safe.c", UNREACH, result.RESULT_TRUE_PROP),
        (PROGRAMS / "check" / "nondet_bug.c", UNREACH, result.RESULT_FALSE_REACH),
        (PROGRAMS / "check" / "overflow_bug.c", OVERFLOW, result.RESULT_FALSE_OVERFLOW),
        (PROGRAMS / "check" / "overflow_bug.c", UNREACH, result.RESULT_TRUE_PROP),
        (PROGRAMS / "check" / "float_unsupported.c", UNREACH, result.RESULT_UNKNOWN),
        (PROGRAMS / "check" / "clamp_safe.c", MEMSAFETY, result.RESULT_UNKNOWN),  # not checked: UNKNOWN
        # valid-memsafety: the part violated, as SV-COMP scores it
        (HEAP / "use_after_free_false.c", MEMSAFETY_ALL, result.RESULT_FALSE_DEREF),
        (HEAP / "buffer_double_free_false.c", MEMSAFETY_ALL, result.RESULT_FALSE_FREE),
        (HEAP / "leak_false.c", MEMSAFETY_ALL, result.RESULT_FALSE_MEMTRACK),
    ]
    for program, prp, expected in cases:
        cmdline, answer = run_through(tool, executable, program, prp, tmp_path)
        assert answer == expected, (program.name, cmdline)
        # the witness of a TRUE or FALSE answer is in the run's directory, for SV-COMP to collect
        written = (tmp_path / f"run{len(list(tmp_path.glob('run*'))) - 1}" / "witness.yml").is_file()
        assert written == (expected != result.RESULT_UNKNOWN)
    # bad input: BenchExec shows llumc's one-line cause
    _, answer = run_through(tool, executable, tmp_path / "missing.c", UNREACH, tmp_path)
    assert answer.startswith(result.RESULT_ERROR) and "missing.c" in answer
    # the data model reaches llumc: a 64-bit long makes this FALSE, a 32-bit one TRUE
    wide = tmp_path / "wide.c"
    wide.write_text("extern long __VERIFIER_nondet_long(void);\nextern void reach_error(void);\n"
                    "int main(void) {\n  if (__VERIFIER_nondet_long() > 2147483647L) reach_error();\n  return 0;\n}\n")
    assert run_through(tool, executable, wide, UNREACH, tmp_path, "LP64")[1] == result.RESULT_FALSE_REACH
    assert run_through(tool, executable, wide, UNREACH, tmp_path, "ILP32")[1] == result.RESULT_TRUE_PROP
