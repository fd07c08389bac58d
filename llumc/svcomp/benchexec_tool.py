"""BenchExec tool-info module for llumc: BenchExec runs llumc as it runs the other verifiers.

BenchExec loads a tool-info module by its full Python name when the name has a dot, so with
llumc installed in BenchExec's Python environment a benchmark definition says

    <benchmark tool="llumc.svcomp.benchexec_tool" timelimit="900 s" memlimit="15 GB" cpuCores="2">

(`benchexec.tools.llumc` would need a file inside BenchExec's own package). The module imports
BenchExec, so it is loaded only by BenchExec (and the tests); llumc itself never imports it.

* version: `llumc --version`;
* command line: `llumc check [options] --property-file P --data-model M --witness witness.yml
  [--timeout T] FILE`, the property file and data model from the task definition
  (`options.data_model`), the witness where SV-COMP collects it (the run's directory: list it
  in the benchmark's `<resultfiles>`), T from the
  CPU-time limit: llumc's portfolio runs two engines in parallel, so T is 45 % of the CPU
  time (90 % of it shared by two processes), and at most 90 % of the wall-time limit, so that
  llumc's own UNKNOWN comes before BenchExec's kill;
* result: from the verdict line, the first line llumc prints (`TRUE`, `FALSE`, `UNKNOWN (...)`):
  FALSE is `false(unreach-call)` or `false(no-overflow)` as the counterexample line names the
  property, and under valid-memsafety `false(valid-deref)`, `false(valid-free)` or
  `false(valid-memtrack)` as it names the part violated; a one-line `llumc: error: ...` (exit 2) is an ERROR with its cause.
"""

from __future__ import annotations

import re

import benchexec.result as result
import benchexec.tools.template

_VERDICT = re.compile(r"^(?:([a-z-]+): )?(TRUE|FALSE|UNKNOWN)\b(.*)$")
_COUNTEREXAMPLE = re.compile(r"^counterexample \(([a-z-]+)(?:: (valid-[a-z]+))?,")
WITNESS = "witness.yml"  # SV-COMP's file name for a format-2.0 witness
_FALSE_RESULTS = {"unreach-call": result.RESULT_FALSE_REACH, "no-overflow": result.RESULT_FALSE_OVERFLOW}


class Tool(benchexec.tools.template.BaseTool2):
    """llumc: unbounded model checking of C programs (LLVM-IR, DimSpec, IC3 and k-induction)."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("llumc")

    def name(self):
        return "llumc"

    def version(self, executable):
        return self._version_from_tool(executable)

    def cmdline(self, executable, options, task, rlimits):
        command = [executable, "check", *options]
        if task.property_file and "--property-file" not in options and "--property" not in options:
            command += ["--property-file", task.property_file]
        data_model = task.options.get("data_model") if isinstance(task.options, dict) else None
        if data_model and not {"--data-model", "--32"} & set(options):
            command += ["--data-model", str(data_model)]
        if "--witness" not in options:
            command += ["--witness", WITNESS]  # SV-COMP collects it from the run's directory
        if "--timeout" not in options:
            limits = []
            if rlimits.cputime:
                limits.append(0.45 * rlimits.cputime)
            if rlimits.walltime:
                limits.append(0.9 * rlimits.walltime)
            if limits:
                command += ["--timeout", f"{max(1.0, min(limits)):g}"]
        return [*command, task.single_input_file]

    def determine_result(self, run):
        lines = [line.strip() for line in run.output]
        for line in lines:
            if line.startswith("llumc: error:") or line.startswith("llumc check: error:"):
                return f"{result.RESULT_ERROR} ({line.split('error:', 1)[1].strip()})"
            if line.startswith("llumc: internal error"):
                return f"{result.RESULT_ERROR} (internal error)"
        for line in lines:
            verdict = _VERDICT.match(line)
            if not verdict:
                continue
            answer = verdict.group(2)
            if answer == "TRUE":
                return result.RESULT_TRUE_PROP
            if answer == "UNKNOWN":
                return result.RESULT_UNKNOWN
            prop = verdict.group(1)
            named = next((match for match in map(_COUNTEREXAMPLE.match, lines) if match), None)
            if named and named.group(2):  # valid-memsafety's part: `false(valid-free)`
                return f"{result.RESULT_FALSE_PROP}({named.group(2)})"
            if prop is None:
                prop = named.group(1) if named else None
            if prop == "all":  # --property all: the error line says which
                prop = "no-overflow" if any(l.startswith("error:") and "overflow" in l for l in lines) \
                    else "unreach-call"
            return _FALSE_RESULTS.get(prop, result.RESULT_FALSE_PROP)
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        return result.RESULT_ERROR
