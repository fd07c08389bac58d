"""`llumc bench --executor dask`: a real two-worker Dask LocalCluster on this machine runs the
same tasks as the local executor and gives the same TSV rows (all but the measured seconds),
with the same limits: the hung checker is killed at the hard limit with its child, the memory
hog stops at the address-space limit. Tasks: the six fixtures of tests/bench_fixtures/names
under the fake checker, and four of the project's programs under the real `llumc check`."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the dist extra (dask.distributed) is not installed")

from distributed import LocalCluster  # noqa: E402

from llumc.bench.runner import discover_tasks, run_tasks, write_tsv  # noqa: E402
from llumc.bench.dist import run_tasks_dask  # noqa: E402
from test_bench import FAKE_CHECKER, FIXTURES, GRACE, is_running  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REAL = {  # program -> its name with the verdict tag the harness reads
    "tests/programs/loop_count.c": "loop_count_false-unreach-call.c",
    "tests/programs/safe_loop.c": "safe_loop_true-unreach-call.c",
    "examples/appendix.c": "appendix_false-unreach-call.c",
    "tests/programs/loops/kinduction_chain_true.c": "kinduction_chain_true-unreach-call.c",
}


def rows(results, path: Path) -> list[tuple[str, ...]]:
    """The TSV's rows without the seconds column, in a fixed order."""
    write_tsv(results, path)
    table = list(csv.DictReader(path.open(), delimiter="\t"))
    return sorted(tuple(value for key, value in row.items() if key != "seconds") for row in table)


@pytest.fixture(scope="module")
def pidfile(tmp_path_factory):
    """Where the fake checker's hung tasks write their pids; set before the workers start, so
    they inherit it."""
    path = tmp_path_factory.mktemp("pids") / "pids"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FAKE_CHECKER_PIDFILE", str(path))
        yield path


@pytest.fixture(scope="module")
def cluster(pidfile):
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=40) as local:
        yield local


@pytest.mark.slow  # 22 s; test_cli_executor_dask runs the cluster in every suite
def test_dask_executor_same_rows_and_limits(cluster, pidfile, tmp_path) -> None:
    assert len(cluster.workers) == 2
    fake = discover_tasks(FIXTURES / "names", m32=True)
    for source, name in REAL.items():
        shutil.copy(ROOT / source, tmp_path / name)
    real = discover_tasks(tmp_path, properties=("unreach-call",), m32=True)
    assert len(fake) + len(real) == 10

    answers = {}
    for executor in ("local", "dask"):
        pidfile.unlink(missing_ok=True)
        options = dict(engines=["ic3"], jobs=2, progress=None)  # the portfolio's winner is a race
        if executor == "local":
            run = run_tasks
        else:
            def run(tasks, **kwargs):
                return run_tasks_dask(tasks, scheduler=cluster.scheduler_address, **kwargs)
        started = time.monotonic()
        limited = run(fake, timeout=1, grace=GRACE, memory_mb=400, checker=FAKE_CHECKER, **options)
        assert time.monotonic() - started < 60
        checked = run(real, timeout=60, grace=10, memory_mb=4096, **options)
        answers[executor] = rows(limited + checked, tmp_path / executor / "results.tsv")
        # The hung checker and its own child went with their process group.
        checker_pid, child_pid = map(int, pidfile.read_text().split())
        assert not is_running(checker_pid) and not is_running(child_pid)
        hung = next(r for r in limited if r.task.name.startswith("hang"))
        assert hung.reason == f"killed at the hard limit ({1 + GRACE} s)" and 1 + GRACE <= hung.seconds < 20
        hog = next(r for r in limited if r.task.name.startswith("hog"))
        assert "MemoryError" in hog.reason
        assert sorted(r.outcome for r in checked) == ["correct-false", "correct-false", "correct-true", "correct-true"]
    assert answers["dask"] == answers["local"]


def test_cli_executor_dask(cluster, tmp_path) -> None:
    out = tmp_path / "out"
    command = [sys.executable, "-m", "llumc", "bench", str(FIXTURES / "names"), "--32", "--timeout", "1",
               "--grace", str(GRACE), "--memory-mb", "400", "--engine", "ic3", "--filter", "[ab]*",
               "--checker-cmd", " ".join(FAKE_CHECKER), "--out", str(out), "--executor", "dask",
               "--scheduler", cluster.scheduler_address]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 1, done.stderr  # alpha's no-overflow answer is wrong on purpose
    assert len(list(csv.DictReader((out / "results.tsv").open(), delimiter="\t"))) == 3
    bad = subprocess.run([*command[:-4], "--executor", "ray"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert bad.returncode == 2 and "--executor" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
