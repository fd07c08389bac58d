"""SV-COMP witnesses, format 2.0: every witness llumc writes is valid against the format's schema
(tests/data/witness-2.0.schema.json, written from the format's public description) and says
something true: a violation witness's values, replayed natively, reach the error at its target;
its waypoints sit at the calls they name; a correctness witness's loop invariants sit at loop
keywords. Real programs, the real CLI, real replays."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import jsonschema
import pytest
import yaml

from llumc.check.replay import ReplayExpectation, replay
from tests.test_preprocessed import preprocess

SCHEMA = json.loads((Path(__file__).parent / "data" / "witness-2.0.schema.json").read_text())
PROGRAMS = Path(__file__).parent / "programs"

NONDETS = """\
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern long __VERIFIER_nondet_long(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned char c = __VERIFIER_nondet_uchar();
  long big = __VERIFIER_nondet_long();
  int s = 0;
  for (int i = 0; i < 3; i++) {
    s += __VERIFIER_nondet_int(  );
  }
  __VERIFIER_assert(!(x < -5 && c > 200 && s == 7 && big < -3));
  return 0;
}
"""


def validate(path: Path) -> list[dict]:
    """Schema-valid, with a real UUID and creation time, the input file's real hash."""
    entries = yaml.safe_load(path.read_text())
    jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker()).validate(entries)
    for entry in entries:
        metadata = entry["metadata"]
        datetime.fromisoformat(metadata["creation_time"])
        for name, digest in metadata["task"]["input_file_hashes"].items():
            # names as given on the command line, which ran in the witness's directory here
            assert hashlib.sha256((path.parent / name).read_bytes()).hexdigest() == digest
        assert metadata["producer"]["name"] == "llumc"
    return entries


def llumc(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "llumc", "check", "-q", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def waypoints(entry: dict) -> list[dict]:
    return [item["waypoint"] for segment in entry["content"] for item in segment["segment"]]


def replay_witness(source: Path, entry: dict, *, m32: bool) -> tuple[list[int], object]:
    """The witness's `\\result == V` values in order, replayed natively to its target line."""
    points = waypoints(entry)
    values = [int(re.fullmatch(r"\\result == (-?\d+)", w["constraint"]["value"]).group(1))
              for w in points if w["type"] == "function_return"]
    target = points[-1]
    assert target["type"] == "target" and target["action"] == "follow"
    # the replay reports lines of the compiled file: a .i file's markers give its .c's lines
    return values, replay(source, values, ReplayExpectation("error-call", None), m32=m32, timeout=30)


@pytest.mark.parametrize("m32", [False, True], ids=["LP64", "ILP32"])
def test_violation_witness_replays_to_the_error(tmp_path, m32):
    source = tmp_path / "nondets.c"
    source.write_text(NONDETS)
    run = llumc("nondets.c", "--witness", "w.yml", *(["--32"] if m32 else []), cwd=tmp_path)
    assert run.returncode == 10, run.stdout + run.stderr
    [entry] = validate(tmp_path / "w.yml")
    assert entry["entry_type"] == "violation_sequence"
    task = entry["metadata"]["task"]
    assert task["input_files"] == ["nondets.c"] and task["data_model"] == ("ILP32" if m32 else "LP64")
    assert task["specification"] == "CHECK( init(main()), LTL(G ! call(reach_error())) )"
    lines = NONDETS.split("\n")
    for point in waypoints(entry)[:-1]:
        # each function_return waypoint is the `)` closing a nondet call on its line
        location = point["location"]
        text = lines[location["line"] - 1]
        assert text[location["column"] - 1] == ")"
        assert "__VERIFIER_nondet_" in text[:location["column"]]
    target = waypoints(entry)[-1]["location"]
    assert lines[target["line"] - 1][target["column"] - 1:].startswith("reach_error()")
    values, replayed = replay_witness(source, entry, m32=m32)
    assert len(values) == 6 and values[0] < -5 and values[1] > 200 and values[2] < -3
    assert sum(values[3:]) == 7
    assert replayed.confirmed and replayed.line == target["line"], replayed.observed


def test_violation_witness_of_a_preprocessed_file_names_its_own_lines(tmp_path):
    """A .i file with line markers: the compiler reports the .c's lines, the witness the .i's."""
    original = tmp_path / "orig.c"
    original.write_text(NONDETS)
    source = preprocess(original, tmp_path / "prog.i", m32=False)
    run = llumc("prog.i", "--witness", "w.yml", cwd=tmp_path)
    assert run.returncode == 10, run.stdout + run.stderr
    [entry] = validate(tmp_path / "w.yml")
    lines = source.read_text().split("\n")
    points = waypoints(entry)
    for point in points[:-1]:
        location = point["location"]
        assert location["file_name"] == "prog.i" and location["line"] > 100  # past glibc's headers
        assert "__VERIFIER_nondet_" in lines[location["line"] - 1][:location["column"]]
    target = points[-1]["location"]
    assert lines[target["line"] - 1][target["column"] - 1:].startswith("reach_error()")
    _, replayed = replay_witness(source, entry, m32=False)
    assert replayed.confirmed, replayed.observed


def test_a_path_through_uninitialised_locals_says_so(tmp_path):
    """uninit_bug.c reaches the error only with values the model chose for uninitialised locals
    (u == 12345, and t in `pick`): the witness cannot carry them, and says how many it leaves out;
    a path without them says nothing of the kind."""
    source = tmp_path / "uninit_bug.c"
    source.write_text((PROGRAMS / "check" / "uninit_bug.c").read_text())
    run = llumc("uninit_bug.c", "--witness", "w.yml", "--json", cwd=tmp_path)
    assert run.returncode == 10, run.stdout + run.stderr
    assert json.loads(run.stdout)["uninitialised_values"] >= 2  # u and pick's t (at least once)
    [entry] = validate(tmp_path / "w.yml")
    description = entry["metadata"]["producer"]["description"]
    assert re.search(r"reads \d+ value\(s\) of uninitialised locals", description), description
    source.write_text(NONDETS)
    assert llumc("uninit_bug.c", "--witness", "w.yml", cwd=tmp_path).returncode == 10
    [entry] = validate(tmp_path / "w.yml")
    assert "uninitialised" not in entry["metadata"]["producer"]["description"]


def test_overflow_witness_targets_the_operation(tmp_path):
    source = tmp_path / "ovf.c"
    source.write_text((PROGRAMS / "check" / "overflow_bug.c").read_text())
    run = llumc("ovf.c", "--property", "no-overflow", "--witness", "w.yml", cwd=tmp_path)
    assert run.returncode == 10, run.stdout + run.stderr
    [entry] = validate(tmp_path / "w.yml")
    assert entry["metadata"]["task"]["specification"] == "CHECK( init(main()), LTL(G ! overflow) )"
    points = waypoints(entry)
    assert [p["type"] for p in points] == ["function_return", "target"]
    assert points[-1]["location"]["line"] == 6  # y = x + 1000;
    value = int(points[0]["constraint"]["value"].split("==")[1])
    replayed = replay(source, [value], ReplayExpectation("overflow", 6), timeout=30)
    assert replayed.confirmed, replayed.observed


def test_memsafety_witnesses(tmp_path):
    """valid-memsafety: a violation witness targets the invalid access (replayed natively to it
    from the witness's values), a correctness witness names the three subproperties."""
    source = tmp_path / "dead.c"
    source.write_text((PROGRAMS / "memory" / "dead_callee_local_unknown.c").read_text())
    run = llumc("dead.c", "--32", "--property", "valid-memsafety", "--witness", "w.yml", cwd=tmp_path)
    assert run.returncode == 10, run.stdout + run.stderr
    [entry] = validate(tmp_path / "w.yml")
    specification = entry["metadata"]["task"]["specification"]
    assert specification.split("\n") == [f"CHECK( init(main()), LTL(G {name}) )"
                                         for name in ("valid-free", "valid-deref", "valid-memtrack")]
    points = waypoints(entry)
    assert points[-1]["type"] == "target" and points[-1]["location"]["line"] == 10  # w = *p;
    values = [int(p["constraint"]["value"].split("==")[1]) for p in points if p["type"] == "function_return"]
    replayed = replay(source, values, ReplayExpectation("memory", 10), m32=True, timeout=30)
    assert replayed.confirmed, replayed.observed
    safe = tmp_path / "safe.c"
    safe.write_text((PROGRAMS / "memory" / "two_dim_true.c").read_text())
    run = llumc("safe.c", "--32", "--property", "valid-memsafety", "--witness", "t.yml", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    [entry] = validate(tmp_path / "t.yml")
    assert entry["entry_type"] == "invariant_set" and "valid-deref" in entry["metadata"]["task"]["specification"]


def test_correctness_witness_has_the_loop_invariants_at_the_loop_keywords(tmp_path):
    source = tmp_path / "counter.c"
    source.write_text((PROGRAMS / "loops" / "counter_true.c").read_text())
    run = llumc("counter.c", "--32", "--witness", "w.yml", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    [entry] = validate(tmp_path / "w.yml")
    assert entry["entry_type"] == "invariant_set"
    # an older task's error function is named in the specification
    assert entry["metadata"]["task"]["specification"] == "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )"
    lines = source.read_text().split("\n")
    printed = [line.split(": ", 1)[1] for line in run.stdout.splitlines() if line.startswith("loop invariant at line")]
    invariants = [item["invariant"] for item in entry["content"]]
    assert [i["value"] for i in invariants] == printed and printed
    for invariant in invariants:
        location = invariant["location"]
        assert invariant["type"] == "loop_invariant" and location["function"] == "main"
        assert re.match(r"(while|for|do)\b", lines[location["line"] - 1][location["column"] - 1:])


def test_a_proof_without_c_invariant_says_so(tmp_path):
    source = tmp_path / "clamp.c"
    source.write_text((PROGRAMS / "check" / "clamp_safe.c").read_text())
    run = llumc("clamp.c", "--witness", "w.yml", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    [entry] = validate(tmp_path / "w.yml")
    [item] = entry["content"]
    assert item["invariant"]["value"] == "1" and item["invariant"]["type"] == "location_invariant"
    assert "no C-level loop invariant" in entry["metadata"]["producer"]["description"]
    location = item["invariant"]["location"]
    line = source.read_text().split("\n")[location["line"] - 1]
    assert line[location["column"] - 1] not in " \t{"  # the first token of main's body


def test_unknown_writes_no_witness_and_a_task_one_per_property(tmp_path):
    source = tmp_path / "float.c"
    source.write_text((PROGRAMS / "check" / "float_unsupported.c").read_text())
    run = llumc("float.c", "--witness", "none.yml", cwd=tmp_path)
    assert run.returncode == 3 and not (tmp_path / "none.yml").exists()

    (tmp_path / "prog.c").write_text((PROGRAMS / "check" / "overflow_bug.c").read_text())
    (tmp_path / "task.yml").write_text(
        "format_version: '2.0'\ninput_files: prog.c\nproperties:\n"
        "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n"
        "  - property_file: ../properties/no-overflow.prp\n    expected_verdict: false\n"
        "options:\n  language: C\n  data_model: ILP32\n")
    run = llumc("task.yml", "--witness", "out/w.yml", cwd=tmp_path)
    assert run.returncode == 10, run.stdout + run.stderr
    proof_file, violation_file = tmp_path / "w.unreach-call.yml", tmp_path / "w.no-overflow.yml"
    (tmp_path / "out/w.unreach-call.yml").rename(proof_file)
    (tmp_path / "out/w.no-overflow.yml").rename(violation_file)
    [proof] = validate(proof_file)
    [violation] = validate(violation_file)
    assert proof["entry_type"] == "invariant_set" and violation["entry_type"] == "violation_sequence"
    assert violation["metadata"]["task"]["data_model"] == "ILP32"


def test_the_schema_rejects_what_the_format_forbids():
    """The schema is not vacuous: each broken variant of a valid witness fails."""
    valid = [{
        "entry_type": "violation_sequence",
        "metadata": {"format_version": "2.0", "uuid": "0f8c7b52-5a0e-4f7e-9d8e-0d1c2b3a4f5e",
                     "creation_time": "2026-01-01T00:00:00+00:00", "producer": {"name": "x", "version": "1"},
                     "task": {"input_files": ["a.c"], "input_file_hashes": {"a.c": "0" * 64},
                              "specification": "CHECK( init(main()), LTL(G ! overflow) )",
                              "data_model": "LP64", "language": "C"}},
        "content": [{"segment": [{"waypoint": {"type": "target", "action": "follow",
                                               "location": {"file_name": "a.c", "line": 3}}}]}],
    }]
    validator = jsonschema.Draft202012Validator(SCHEMA)
    validator.validate(valid)
    broken = [
        lambda w: w[0]["metadata"]["task"].update(data_model="64bit"),
        lambda w: w[0]["metadata"].pop("uuid"),
        lambda w: w[0]["content"][0]["segment"][0]["waypoint"].update(constraint={"value": "x == 1"}),
        lambda w: w[0]["content"][0]["segment"][0]["waypoint"].update(action="avoid"),
        lambda w: w[0]["content"][0]["segment"][0]["waypoint"]["location"].update(line=0),
        lambda w: w[0]["content"][0]["segment"][0]["waypoint"].update(type="function_return"),
        lambda w: w[0].update(entry_type="invariant_set"),
    ]
    for breaks in broken:
        witness = json.loads(json.dumps(valid))
        breaks(witness)
        assert not validator.is_valid(witness)


def test_bench_writes_a_valid_witness_for_every_true_and_false(tmp_path):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "safe_true-unreach-call.c").write_text((PROGRAMS / "check" / "clamp_safe.c").read_text())
    (tasks / "bug_false-unreach-call_false-no-overflow.c").write_text(NONDETS.replace("int s = 0;", "int s = 0; x = x * 2;"))
    run = subprocess.run([sys.executable, "-m", "llumc", "bench", str(tasks), "--timeout", "60", "--jobs", "2",
                          "--out", str(tmp_path / "out"), "--witness-dir", str(tmp_path / "witnesses")],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "witnesses: 3 of 3 TRUE/FALSE answers" in run.stdout, run.stdout
    files = sorted(p.name for p in (tmp_path / "witnesses").iterdir())
    assert files == ["bug_false-unreach-call_false-no-overflow.c.no-overflow.portfolio.yml",
                     "bug_false-unreach-call_false-no-overflow.c.unreach-call.portfolio.yml",
                     "safe_true-unreach-call.c.unreach-call.portfolio.yml"]
    kinds = []
    for name in files:
        # the checker ran with absolute paths: the hashes are checked against those
        [entry] = validate(tmp_path / "witnesses" / name)
        kinds.append(entry["entry_type"])
        assert entry["metadata"]["task"]["input_files"][0].startswith(str(tasks))
    assert kinds == ["violation_sequence", "violation_sequence", "invariant_set"]


JAIN = """\
extern void __VERIFIER_error() __attribute__ ((__noreturn__));
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
    ERROR: __VERIFIER_error();
  }
  return;
}
int main()
{
  unsigned int x = 0U, y = 0U;
  while(1)
    {
      x = x +2U*__VERIFIER_nondet_uint();
      y = y +4U*__VERIFIER_nondet_uint();
      __VERIFIER_assert(2U*x+y!=2U);
    }
    return 0;
}
"""


def test_a_loop_head_without_loop_metadata_gets_a_location_invariant(tmp_path):
    """Here the loop head's location is the body's first statement (no `!llvm.loop` names the
    `while`): the invariant is placed there, as a location invariant at the statement."""
    source = tmp_path / "jain.c"
    source.write_text(JAIN)
    run = llumc("jain.c", "--32", "--witness", "w.yml", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    [entry] = validate(tmp_path / "w.yml")
    lines = JAIN.split("\n")
    for item in entry["content"]:
        invariant = item["invariant"]
        location = invariant["location"]
        text = lines[location["line"] - 1]
        if invariant["type"] == "loop_invariant":
            assert re.match(r"(while|for|do)\b", text[location["column"] - 1:])
        else:  # today's placement; a keyword found later would be the branch above
            assert invariant["type"] == "location_invariant"
            assert location["line"] == 14 and location["column"] == 7 and text.strip().startswith("x = x")
        assert "x % 2 == 0" in invariant["value"]  # a real loop invariant, not the fallback `1`
