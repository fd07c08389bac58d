"""`llumc bench`: task discovery on tiny fixtures, and real checker processes (a small script
that answers what each fixture tells it, tests/bench_fixtures/fake_checker.py) under the
harness's time and memory limits."""

from __future__ import annotations

import csv
import importlib.util
import subprocess
import sys
import time
from pathlib import Path

import pytest

from llumc.bench.runner import (
    Task,
    TaskResult,
    discover_tasks,
    program_times,
    programs_solved,
    read_reference,
    run_tasks,
    summarise,
    tags_from_name,
    write_tsv,
)
from llumc.errors import LlumcError

FIXTURES = Path(__file__).with_name("bench_fixtures")
FAKE_CHECKER = [sys.executable, str(FIXTURES / "fake_checker.py")]
# Seconds past the 1 s timeout before the hard kill: long enough that a fake task's Python
# starts and answers on a loaded machine.
GRACE = 5


def is_running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for a reaper we do not control)."""
    for _ in range(50):  # SIGKILL is delivered asynchronously
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return False
        if state in ("Z", "X"):
            return False
        time.sleep(0.02)
    return True


def by_key(results):
    return {(Path(r.task.name).name, r.task.property): r for r in results}


def test_tags_from_name():
    assert tags_from_name("s3_clnt_1_false-unreach-call_true-no-overflow.BV.c.cil.c") == {
        "unreach-call": "false", "no-overflow": "true"}
    assert tags_from_name("functions_false-unreach-call1_true-termination.c") == {
        "unreach-call": "false", "termination": "true"}
    assert tags_from_name("bin-suffix-5_true-valid-memsafety_false-termination.c") == {
        "valid-memsafety": "true", "termination": "false"}
    assert tags_from_name("plain.c") == {}


def test_discover_from_file_names():
    tasks = discover_tasks(FIXTURES / "names", m32=True)
    assert [(t.name, t.property, t.expected, t.m32) for t in tasks] == [
        ("alpha_false-unreach-call_true-no-overflow.c", "no-overflow", "true", True),
        ("alpha_false-unreach-call_true-no-overflow.c", "unreach-call", "false", True),
        ("beta_true-unreach-call_false-termination.c", "unreach-call", "true", True),
        ("garbage_false-no-overflow.c", "no-overflow", "false", True),
        ("hang_true-unreach-call1.c", "unreach-call", "true", True),
        ("hog_true-no-overflow.c", "no-overflow", "true", True),
    ]
    only = discover_tasks(FIXTURES / "names", properties=("unreach-call",), name_filter="[ab]*", limit=2)
    assert [(t.name, t.property) for t in only] == [
        ("alpha_false-unreach-call_true-no-overflow.c", "unreach-call"),
        ("beta_true-unreach-call_false-termination.c", "unreach-call"),
    ]


def test_discover_from_task_definitions():
    tasks = discover_tasks(FIXTURES / "yml")
    # delta.yml wins over the tag in its C file's name; epsilon.yml has only memsafety.
    assert [(t.name, t.source.name, t.property, t.expected, t.m32) for t in tasks] == [
        ("delta.yml", "delta_false-no-overflow.c", "no-overflow", "true", True),
        ("delta.yml", "delta_false-no-overflow.c", "unreach-call", "false", True),
        ("zeta.yml", "zeta.i", "unreach-call", "true", False),
    ]
    single = discover_tasks(FIXTURES / "yml" / "zeta.yml")
    assert [(t.name, t.property) for t in single] == [("zeta.yml", "unreach-call")]


def test_discovery_errors(tmp_path):
    with pytest.raises(LlumcError, match="no such file"):
        discover_tasks(tmp_path / "missing")
    (tmp_path / "bad.yml").write_text("format_version: '2.0'\nproperties: []\n")
    with pytest.raises(LlumcError, match="bad.yml: not an SV-COMP task definition"):
        discover_tasks(tmp_path)
    (tmp_path / "bad.yml").write_text("input_files: 'gone.c'\n")
    with pytest.raises(LlumcError, match="input file gone.c not found"):
        discover_tasks(tmp_path)


def test_stale_overflow_label_is_corrected(tmp_path):
    (tmp_path / "s3_srvr_1_true-unreach-call_true-no-overflow.BV.c.cil.c").write_text("int main(){}\n")
    tasks = {t.property: t for t in discover_tasks(tmp_path)}
    assert tasks["no-overflow"].expected == "false"
    assert "label corrected" in tasks["no-overflow"].note
    assert tasks["unreach-call"].expected == "true" and not tasks["unreach-call"].note


def test_run_scores_and_limits(tmp_path, monkeypatch):
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("FAKE_CHECKER_PIDFILE", str(pidfile))
    tasks = discover_tasks(FIXTURES / "names", m32=True)
    start = time.monotonic()
    results = run_tasks(tasks, engines=["ic3"], timeout=1, grace=GRACE, jobs=2, memory_mb=400,
                        checker=FAKE_CHECKER, progress=None)
    elapsed = time.monotonic() - start
    found = by_key(results)
    assert len(results) == 6
    alpha = "alpha_false-unreach-call_true-no-overflow.c"
    assert found[(alpha, "unreach-call")].outcome == "correct-false"
    assert found[(alpha, "unreach-call")].reason == "fake engine=ic3 m32=True timeout=1"
    assert found[(alpha, "no-overflow")].outcome == "wrong"
    assert found[("beta_true-unreach-call_false-termination.c", "unreach-call")].outcome == "correct-true"
    hung = found[("hang_true-unreach-call1.c", "unreach-call")]
    assert (hung.verdict, hung.outcome) == ("unknown", "unknown")
    assert hung.reason == f"killed at the hard limit ({1 + GRACE} s)"
    assert 1 + GRACE <= hung.seconds < 1 + GRACE + 10
    garbage = found[("garbage_false-no-overflow.c", "no-overflow")]
    assert garbage.outcome == "unknown" and garbage.reason.startswith("no verdict (exit 3)")
    hog = found[("hog_true-no-overflow.c", "no-overflow")]
    assert hog.outcome == "unknown" and "MemoryError" in hog.reason
    assert elapsed < 40
    # The hung checker's own child went with its process group.
    checker_pid, child_pid = map(int, pidfile.read_text().split())
    assert not is_running(checker_pid) and not is_running(child_pid)

    [summary] = summarise(results)
    assert (summary.correct_true, summary.correct_false, len(summary.wrong), summary.unknown,
            summary.total) == (1, 1, 1, 3, 6)

    tsv = tmp_path / "out" / "results.tsv"
    write_tsv(results, tsv)
    rows = list(csv.DictReader(tsv.open(), delimiter="\t"))
    assert list(rows[0])[:6] == ["task", "property", "expected", "verdict", "seconds", "reason"]
    wrong = [row for row in rows if row["outcome"] == "wrong"]
    assert [(r["task"], r["property"], r["expected"], r["verdict"]) for r in wrong] == [
        (alpha, "no-overflow", "true", "false")]


def test_cli_end_to_end(tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "llumc", "bench", str(FIXTURES / "yml"), "--engine", "bmc",
         "--engine", "ic3", "--timeout", "5", "--jobs", "2", "--out", str(out),
         "--checker-cmd", " ".join(FAKE_CHECKER), "--reference", str(FIXTURES / "published")],
        capture_output=True, text=True, timeout=120,
    )
    # delta.yml's no-overflow: the checker says true, as expected; unreach-call false; zeta true.
    assert proc.returncode == 0, proc.stderr
    assert "engine bmc:\n  correct TRUE   2\n  correct FALSE  1\n  wrong          0\n" in proc.stdout
    assert "engine ic3:" in proc.stdout and "  total          3" in proc.stdout
    assert "[6/6" in proc.stderr  # progress lines
    rows = list(csv.DictReader((out / "results.tsv").open(), delimiter="\t"))
    assert sorted({row["engine"] for row in rows}) == ["bmc", "ic3"]
    assert all(row["reason"].endswith("m32=True timeout=5") for row in rows if row["task"] == "delta.yml")
    if importlib.util.find_spec("matplotlib"):
        assert (out / "cactus.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_wrong_verdict_exits_1(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "llumc", "bench", str(FIXTURES / "names"), "--filter", "alpha*",
         "--timeout", "5", "--out", str(tmp_path), "--checker-cmd", " ".join(FAKE_CHECKER)],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 1
    assert "!!! WRONG: alpha_false-unreach-call_true-no-overflow.c no-overflow: expected true, got false" in proc.stdout


def test_cli_bad_input(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "llumc", "bench", str(tmp_path / "nothing")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [f"llumc: error: {tmp_path / 'nothing'}: no such file or directory"]
    proc = subprocess.run([sys.executable, "-m", "llumc", "bench", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "no task with a verdict tag" in proc.stderr


def test_program_counts_and_reference(tmp_path):
    a_c, b_c = Path("a.c"), Path("b.c")
    results = [
        TaskResult(Task("a.c", a_c, "unreach-call", "false", False), "ic3", "false", 1.0),
        TaskResult(Task("a.c", a_c, "no-overflow", "true", False), "ic3", "true", 2.5),
        TaskResult(Task("b.c", b_c, "unreach-call", "true", False), "ic3", "unknown", 9.0),
        TaskResult(Task("b.c", b_c, "unreach-call", "true", False), "bmc", "true", 4.0),
    ]
    assert programs_solved(results, "ic3") == (1, 2)
    assert program_times(results, "ic3") == [3.5]
    assert program_times(results, "bmc") == [4.0]
    assert read_reference(FIXTURES / "published") == {"OLDTOOL": [1.5, 0.25]}
    (tmp_path / "TOOL").write_text("prog seconds\n")
    with pytest.raises(LlumcError, match="TOOL:1: expected `name seconds`"):
        read_reference(tmp_path)


def test_outcome_of_a_result():
    task = Task("t.c", Path("t.c"), "unreach-call", "true", False)
    assert TaskResult(task, "ic3", "true", 1.0).outcome == "correct-true"
    assert TaskResult(task, "ic3", "false", 1.0).outcome == "wrong"
    assert TaskResult(task, "ic3", "unknown", 1.0).outcome == "unknown"


def test_real_llumc_check_on_two_tiny_tasks(tmp_path, monkeypatch):
    (tmp_path / "reach_false-unreach-call.c").write_text(
        "extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_error(void);\n"
        "int main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x == 7)\n"
        "    __VERIFIER_error();\n  return 0;\n}\n")
    (tmp_path / "safe_true-unreach-call.c").write_text(
        "extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_error(void);\n"
        "int main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x != x)\n"
        "    __VERIFIER_error();\n  return 0;\n}\n")
    (tmp_path / "loop_true-unreach-call.c").write_text(
        "extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_error(void);\n"
        "int main(void) {\n  int n = __VERIFIER_nondet_int();\n  if (n < 0 || n > 100000) return 0;\n"
        "  int i = 0;\n  while (i < n) i++;\n  if (i != n)\n    __VERIFIER_error();\n  return 0;\n}\n")
    # started where another llumc would shadow the bench's own (a checkout, while the bench runs
    # a frozen copy): the checks run the bench's llumc (`checker_env`)
    shadow = tmp_path / "elsewhere"
    (shadow / "llumc").mkdir(parents=True)
    (shadow / "llumc" / "__init__.py").write_text("raise SystemExit('the llumc of the current directory')\n")
    monkeypatch.chdir(shadow)
    # Generous limit: each answers in seconds, but CI machines may be loaded.
    results = run_tasks(discover_tasks(tmp_path), engines=["portfolio"], timeout=90, jobs=2,
                        progress=None)
    outcomes = {Path(r.task.name).name: r.outcome for r in results}
    assert outcomes == {"reach_false-unreach-call.c": "correct-false",
                        "safe_true-unreach-call.c": "correct-true",
                        "loop_true-unreach-call.c": "correct-true"}, [r.reason for r in results]
    by_name = {Path(r.task.name).name: r.answered_by for r in results}
    # the split of the benchmark: which engine answered, and whether the loop invariants did
    assert by_name["reach_false-unreach-call.c"] in ("ic3", "kind", "explicit", "word-bmc")
    assert "invariants" in by_name["loop_true-unreach-call.c"], by_name
    assert "invariants" not in by_name["safe_true-unreach-call.c"], by_name
