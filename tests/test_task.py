"""SV-COMP task definitions and property files: `llumc check task.yml`, `--property-file`,
`--data-model`. Real files written here, the real CLI, real checks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from llumc.errors import LlumcError
from llumc.svcomp.task import combined_verdict, read_property_file, read_task

# SV-COMP's property files, as its benchmark repository ships them.
PRP = {
    "unreach-call": "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
    "no-overflow": "CHECK( init(main()), LTL(G ! overflow) )\n",
    "valid-memsafety": ("CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n"
                        "CHECK( init(main()), LTL(G valid-memtrack) )\n"),
    "valid-memcleanup": ("CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n"
                         "CHECK( init(main()), LTL(G valid-memcleanup) )\n"),
    "termination": "CHECK( init(main()), LTL(F end) )\n",
}

# unreach-call holds (x > 1000 gives y > 0... the error is never called), no-overflow does not.
PROGRAM = """\
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 1000) {
    y = x + 1000;
  }
  if (x > 1000 && x < 2000 && y < 2000) reach_error();
  return 0;
}
"""

# Needs a 64-bit long: FALSE under LP64, TRUE under ILP32.
WIDE_LONG = """\
extern long __VERIFIER_nondet_long(void);
extern void reach_error(void);
int main(void) {
  long v = __VERIFIER_nondet_long();
  if (v > 2147483647L) reach_error();
  return 0;
}
"""


def llumc(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "llumc", "check", "-q", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def write_task(tmp_path: Path, *, name: str = "task.yml", program: str = "prog.c",
               properties: list[tuple[str, str | None]], data_model: str = "ILP32") -> Path:
    """A task in an SV-COMP-like tree: programs/, properties/ beside them."""
    (tmp_path / "properties").mkdir(exist_ok=True)
    for prop, text in PRP.items():
        (tmp_path / "properties" / f"{prop}.prp").write_text(text)
    directory = tmp_path / "programs"
    directory.mkdir(exist_ok=True)
    lines = ["format_version: '2.0'", f"input_files: '{program}'", "properties:"]
    for prop, expected in properties:
        lines.append(f"  - property_file: ../properties/{prop}.prp")
        if expected is not None:
            lines.append(f"    expected_verdict: {expected}")
    lines += ["options:", "  language: C", f"  data_model: {data_model}"]
    path = directory / name
    path.write_text("\n".join(lines) + "\n")
    return path


def test_two_properties_two_verdict_lines_and_the_worst_exit_code(tmp_path):
    task = write_task(tmp_path, properties=[("unreach-call", "true"), ("no-overflow", "false")])
    (task.parent / "prog.c").write_text(PROGRAM)
    run = llumc(str(task), cwd=tmp_path)
    verdicts = [line for line in run.stdout.splitlines() if line.split(":")[0] in ("unreach-call", "no-overflow")]
    assert verdicts[0] == "unreach-call: TRUE (expected true)"
    assert verdicts[1] == "no-overflow: FALSE (expected false)"
    assert "signed addition overflow at prog.c:7" in run.stdout  # replayed natively
    assert run.returncode == 10, run.stderr  # FALSE wins

    # one property chosen by SV-COMP's property file: TRUE alone, exit 0
    only = llumc(str(task), "--property-file", str(tmp_path / "properties/unreach-call.prp"), cwd=tmp_path)
    assert only.stdout.splitlines()[0] == "unreach-call: TRUE (expected true)" and only.returncode == 0

    as_json = json.loads(llumc(str(task), "--json", cwd=tmp_path).stdout)
    assert as_json["verdict"] == "false" and as_json["data_model"] == "ILP32"
    assert [(r["property"], r["verdict"], r["expected_verdict"]) for r in as_json["results"]] == [
        ("unreach-call", "true", "true"), ("no-overflow", "false", "false")]


def test_a_property_llumc_does_not_check_is_named_and_unknown(tmp_path):
    task = write_task(tmp_path, properties=[("unreach-call", "true"), ("valid-memcleanup", "true"),
                                            ("termination", None)])
    (task.parent / "prog.c").write_text(PROGRAM)
    run = llumc(str(task), cwd=tmp_path)
    lines = run.stdout.splitlines()
    assert lines[0] == "unreach-call: TRUE (expected true)"
    assert any(line.startswith("valid-memcleanup: UNKNOWN (property valid-memcleanup not checked")
               and line.endswith("(expected true)") for line in lines)
    assert any(line.startswith("termination: UNKNOWN (property termination not checked") for line in lines)
    assert run.returncode == 3  # TRUE and UNKNOWN: UNKNOWN

    alone = llumc(str(tmp_path / "programs/prog.c"), "--property-file",
                  str(tmp_path / "properties/termination.prp"), cwd=tmp_path)
    assert alone.stdout.startswith("UNKNOWN (property termination not checked") and alone.returncode == 3


def test_valid_memsafety_is_checked_with_all_three_parts(tmp_path):
    """SV-COMP's valid-memsafety file (valid-free, valid-deref, valid-memtrack) is checked; a
    file with only some of the parts states a weaker property, which llumc does not check."""
    task = write_task(tmp_path, properties=[("valid-memsafety", "true")])
    (task.parent / "prog.c").write_text(PROGRAM)
    run = llumc(str(task), cwd=tmp_path)
    assert run.stdout.splitlines()[0] == "valid-memsafety: TRUE (expected true)", run.stdout + run.stderr
    partial = tmp_path / "deref-only.prp"
    partial.write_text("CHECK( init(main()), LTL(G valid-deref) )\n")
    spec = read_property_file(partial)
    assert spec.name == "valid-memsafety" and "valid-deref only" in spec.unchecked


def test_the_task_data_model_decides(tmp_path):
    for model, verdict, code in (("LP64", "FALSE", 10), ("ILP32", "TRUE", 0)):
        task = write_task(tmp_path, name=f"{model}.yml", program="wide.c", data_model=model,
                          properties=[("unreach-call", "false" if model == "LP64" else "true")])
        (task.parent / "wide.c").write_text(WIDE_LONG)
        run = llumc(str(task), cwd=tmp_path)
        assert run.stdout.startswith(f"unreach-call: {verdict}"), run.stdout + run.stderr
        assert run.returncode == code
    # the command line names the same models SV-COMP does; --32 is the short form
    source = str(tmp_path / "programs/wide.c")
    assert llumc(source, "--data-model", "ILP32", cwd=tmp_path).returncode == 0
    assert llumc(source, "--data-model", "LP64", cwd=tmp_path).returncode == 10
    clash = llumc("programs/LP64.yml", "--32", cwd=tmp_path)
    assert clash.returncode == 2
    assert clash.stderr.strip() == "llumc: error: programs/LP64.yml: the task's data model is LP64, not ILP32"


@pytest.mark.parametrize("text, cause", [
    ("input_files: missing.c\nproperties:\n  - property_file: ../properties/unreach-call.prp\n",
     "input file missing.c not found"),
    ("input_files: prog.c\nproperties:\n  - property_file: ../properties/no-such-thing.prp\n",
     "property 1: programs/../properties/no-such-thing.prp: property file not found"),
    ("input_files: prog.c\nproperties:\n  - property_file: bogus.prp\n",
     "property 1: programs/bogus.prp: unknown property LTL(G ! frobnicated)"),
    ("input_files: [prog.c\nproperties: x\n", "malformed YAML at line 2"),
    ("properties:\n  - property_file: ../properties/unreach-call.prp\n", "not an SV-COMP task definition (no input_files)"),
    ("input_files: prog.c\nproperties:\n  - property_file: ../properties/unreach-call.prp\n"
     "options:\n  data_model: ILP16\n", "data_model 'ILP16'"),
])
def test_bad_task_files_one_line_exit_2(tmp_path, text, cause):
    write_task(tmp_path, properties=[("unreach-call", None)])
    (tmp_path / "programs/prog.c").write_text(PROGRAM)
    (tmp_path / "programs/bogus.prp").write_text("CHECK( init(main()), LTL(G ! frobnicated) )\n")
    bad = tmp_path / "programs/bad.yml"
    bad.write_text(text)
    run = llumc("programs/bad.yml", cwd=tmp_path)
    assert run.returncode == 2 and run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("llumc: error: programs/bad.yml: "), lines
    assert cause in lines[0]


def test_property_files_are_read_by_their_text(tmp_path):
    renamed = tmp_path / "mine.prp"
    renamed.write_text("// comment\nCHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )\n")
    assert read_property_file(renamed).name == "unreach-call" and read_property_file(renamed).unchecked is None
    for name, text in PRP.items():
        path = tmp_path / f"x-{name}.prp"
        path.write_text(text)
        spec = read_property_file(path)
        assert spec.name == name
        assert (spec.unchecked is None) == (name in ("unreach-call", "no-overflow", "valid-memsafety"))
    other = tmp_path / "other.prp"
    other.write_text("CHECK( init(main()), LTL(G ! call(my_error())) )\n")
    assert "my_error()" in read_property_file(other).unchecked  # named, never checked as reach_error
    # absent file: SV-COMP's own name is enough; anything else is an error
    assert read_property_file(tmp_path / "nowhere/no-overflow.prp").name == "no-overflow"
    with pytest.raises(LlumcError, match="property file not found"):
        read_property_file(tmp_path / "nowhere/overflow.prp")


def test_task_fields(tmp_path):
    task_path = write_task(tmp_path, properties=[("unreach-call", "false"), ("no-overflow", None)],
                           data_model="LP64")
    (task_path.parent / "prog.c").write_text(PROGRAM)
    task = read_task(task_path)
    assert [p.name for p in task.properties] == ["unreach-call", "no-overflow"]
    assert [p.expected for p in task.properties] == ["false", None]  # YAML's bool false read as "false"
    assert task.data_model == "LP64" and not task.m32 and task.input_files == [task_path.parent / "prog.c"]


def test_combined_verdict_is_the_worst():
    assert combined_verdict(["true", "true"]) == "true"
    assert combined_verdict(["true", "unknown"]) == "unknown"
    assert combined_verdict(["unknown", "false", "true"]) == "false"
    assert combined_verdict([]) == "unknown"
