"""A killed `llumc check` leaves nothing behind, and `--timeout` is kept under load.

Real checks (real clang, engines, replays) ended by SIGKILL, SIGTERM and SIGINT at random
moments: afterwards no process of theirs may remain (found by a variable in their environment,
which every process they start inherits, or, for the replayed program, which gets an
environment of its own, by its working directory) and their temporary directory must be empty.
Then three checks at once on this machine's two cores with `--timeout 6`: each answers within
8 s (the promise of `--timeout`: the verdict by T + 2 s, whatever the load).

About 40 s in all: two checks at a time, each killed within 3 s of its worker's start.
"""

from __future__ import annotations

import json
import os
import re
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

import shared_data

ROOT = Path(__file__).resolve().parent.parent
# every engine busy until the time limit (no engine proves its nonlinear invariant quickly)
LONG = ROOT / "tests" / "programs" / "check" / "long_division_loop.c"
# encoding, explicit search, counterexample and native replay in about a second
QUICK_FALSE = ROOT / "examples" / "appendix.c"
RERS = shared_data.SHARED / "benchmarks" / "llumc-publications" / "TRUE" / "Problem07_label00_true-unreach-call.c"
TAG = "LLUMC_SOAK_TAG"
KILLS = 8
SIGNALS = (signal.SIGKILL, signal.SIGTERM, signal.SIGINT)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux: /proc and prctl")


def _ctrl_c_as_in_a_terminal() -> None:
    """A job started in the background of a non-interactive shell (as CI may run us) inherits
    SIGINT ignored, and llumc keeps it ignored, as it should: restore the default, as a
    terminal gives it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _has_child(pid: int) -> bool:
    return any((fields := _stat(other)) is not None and int(fields[1]) == pid for other in _pids())


def _processes_of(tag: str, directory: Path) -> list[str]:
    """The live processes started for the check tagged `tag`: "pid command" each."""
    found = []
    for pid in _pids():
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                tagged = f"{TAG}={tag}".encode() in environ.read().split(b"\0")
            inside = os.readlink(f"/proc/{pid}/cwd").startswith(str(directory))
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")[:200]
        except OSError:
            continue
        if (tagged or inside) and (_stat(pid) or ["Z"])[0] != "Z":
            found.append(f"{pid} {command}")
    return found


@dataclass
class _Trial:
    """One check, to be ended by `signal_number` `delay` seconds after its worker started."""

    name: str
    program: Path
    signal_number: int
    delay: float
    directory: Path
    process: subprocess.Popen | None = None
    worker_seen: float | None = None
    signalled: bool = False

    def start(self) -> None:
        (self.directory / "tmp").mkdir(parents=True)
        env = {**os.environ, "PYTHONPATH": str(ROOT), TAG: self.name, "TMPDIR": str(self.directory / "tmp")}
        with open(self.directory / "stdout", "w") as out, open(self.directory / "stderr", "w") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "llumc", "check", str(self.program), "--timeout", "30"],
                cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                preexec_fn=_ctrl_c_as_in_a_terminal)

    def step(self) -> bool:
        """Signal when due; True once the check has ended."""
        assert self.process is not None
        if self.process.poll() is not None:
            return True
        now = time.monotonic()
        if self.worker_seen is None and _has_child(self.process.pid):
            self.worker_seen = now
        if not self.signalled and self.worker_seen is not None and now >= self.worker_seen + self.delay:
            self.process.send_signal(self.signal_number)
            self.signalled = True
        return False

    def describe(self) -> str:
        return (f"{self.name}: {self.program.name}, {signal.Signals(self.signal_number).name} "
                f"{self.delay:.2f} s after its worker started")


def _check_left_nothing(trial: _Trial) -> None:
    stop = time.monotonic() + 10.0
    left = _processes_of(trial.name, trial.directory)
    while left and time.monotonic() < stop:
        time.sleep(0.05)
        left = _processes_of(trial.name, trial.directory)
    assert not left, f"{trial.describe()}: processes left behind: {left}"
    files = list((trial.directory / "tmp").iterdir())
    assert not files, f"{trial.describe()}: temporary files left behind: {files}"


def _check_answer(trial: _Trial) -> None:
    assert trial.process is not None
    out = (trial.directory / "stdout").read_text()
    err = (trial.directory / "stderr").read_text()
    code = trial.process.returncode
    if trial.program == QUICK_FALSE and code == 10:  # it answered before the signal came
        assert out.startswith("FALSE\n"), out
        return
    assert trial.signalled, f"{trial.describe()}: ended by itself: exit {code}, stdout {out!r}"
    if trial.signal_number == signal.SIGKILL:
        assert code == -signal.SIGKILL, f"{trial.describe()}: exit {code}, stdout {out!r}"
        return
    assert "Traceback" not in err, f"{trial.describe()}: {err}"
    assert out == "UNKNOWN (interrupted)\n", f"{trial.describe()}: exit {code}, stdout {out!r}, stderr {err[-500:]!r}"
    assert code == 3


def test_checks_killed_at_random_moments_leave_no_process_and_no_file(tmp_path):
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    trials = [_Trial(f"soak-{seed}-{number}", QUICK_FALSE if number % 4 == 3 else LONG,
                     SIGNALS[number % len(SIGNALS)], rng.uniform(0.0, 1.0 if number % 4 == 3 else 3.0),
                     tmp_path / f"trial{number}")
              for number in range(KILLS)]
    for pair in (trials[k:k + 2] for k in range(0, len(trials), 2)):
        for trial in pair:
            trial.start()
        stop = time.monotonic() + 60.0
        while not all(trial.step() for trial in pair):
            assert time.monotonic() < stop, f"seed {seed}: {[t.describe() for t in pair]} did not end"
            time.sleep(0.02)
        for trial in pair:
            _check_answer(trial)
            _check_left_nothing(trial)


def test_three_checks_at_once_each_answer_within_their_timeout_and_two_seconds(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    processes = [subprocess.Popen([sys.executable, "-m", "llumc", "check", str(LONG), "--timeout", "6"],
                                  cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
                 for _ in range(3)]
    ended = []
    for process in processes:
        out, _ = process.communicate(timeout=60)
        ended.append((time.monotonic() - started, process.returncode, out))
    for seconds, code, out in ended:
        assert out.startswith("UNKNOWN ("), out
        assert code == 3
        assert seconds <= 8.0, f"answered after {seconds:.1f} s: {out}"


@pytest.mark.parametrize("signal_number", [signal.SIGKILL, signal.SIGTERM])
def test_solve_killed_leaves_no_process(tmp_path, signal_number):
    """`llumc solve` runs its engine in a worker too: gone with it on SIGKILL; on SIGTERM the
    engine's own UNKNOWN with the depth it reached."""
    name = f"solve-{os.getpid()}-{signal_number}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), TAG: name}
    process = subprocess.Popen([sys.executable, "-m", "llumc", "solve", str(ROOT / "tests" / "data" / "lfsr_safe.dimspec"),
                                "--bmc"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        process.stderr.readline()  # its first progress line: the worker is solving
        process.send_signal(signal_number)
        out, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    if signal_number == signal.SIGKILL:
        assert process.returncode == -signal.SIGKILL
    else:
        # the depth it reached, if it finished one before the signal came (its first progress
        # line may come before)
        assert re.fullmatch(r"s UNKNOWN interrupted( \(no path of length ≤ \d+\))?\n", out), out
        assert process.returncode == 0
    stop = time.monotonic() + 10.0
    while (left := _processes_of(name, tmp_path)) and time.monotonic() < stop:
        time.sleep(0.05)
    assert not left


def test_memory_limit_counts_every_process_of_the_check():
    # the worker alone holds about 100 MB (Python, llvmlite, Boolector), its engines as much again
    run = subprocess.run([sys.executable, "-m", "llumc", "check", str(LONG), "--timeout", "60", "--memory-limit", "64",
                          "--json"], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 3, run.stderr
    answer = json.loads(run.stdout)
    assert answer["verdict"] == "unknown" and answer["reason"] == "memory limit"


@pytest.mark.skipif(not RERS.is_file(), reason="LLUMC's benchmark set absent")
def test_timeout_names_the_phase_it_cut():
    """A RERS program's front end (13-30 s of long calls into LLVM, which no signal interrupts)
    outlasts a limit of 4 s: the supervisor ends it and says where it was; the JSON has the
    phases' times. (At 1 s, under the suite's load, the worker was sometimes still importing
    llumc: "timeout during start-up".)"""
    run = subprocess.run([sys.executable, "-m", "llumc", "check", str(RERS), "--32", "--timeout", "4", "--json"],
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                         timeout=120)
    answer = json.loads(run.stdout)
    assert answer["verdict"] == "unknown"
    assert answer["reason"] in ("timeout during encoding", "timeout while encoding"), answer["reason"]
    assert "encoding" in answer["phases"]


def test_answers_found_before_a_cut_stand(tmp_path, capsys):
    """A task whose first property was answered (and told to the supervisor) before the time
    limit cut the second: the first keeps its answer, the second is UNKNOWN with the phase."""
    from llumc.check.portfolio import check_program
    from llumc.cli import _answer_without_worker
    from llumc.svcomp.task import plan_check
    from solvers.supervise import Ending

    (tmp_path / "properties").mkdir()
    (tmp_path / "properties" / "unreach-call.prp").write_text("CHECK( init(main()), LTL(G ! call(reach_error())) )\n")
    (tmp_path / "properties" / "no-overflow.prp").write_text("CHECK( init(main()), LTL(G ! overflow) )\n")
    (tmp_path / "task").mkdir()
    (tmp_path / "task" / "a.c").write_text(QUICK_FALSE.read_text())
    (tmp_path / "task" / "a.yml").write_text(
        "format_version: '2.0'\ninput_files: 'a.c'\nproperties:\n"
        "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n"
        "  - property_file: ../properties/no-overflow.prp\n    expected_verdict: true\n"
        "options:\n  language: C\n  data_model: LP64\n")
    plan = plan_check(tmp_path / "task" / "a.yml", prop=None, property_file=None, m32=False, data_model=None)
    first = check_program(tmp_path / "task" / "a.c", prop="unreach-call")
    assert first.verdict == "false"
    told = {"finished": "unreach-call", "json": first.to_json(), "text": "unreach-call: FALSE (expected false)\n"}
    cut = Ending("timeout", phase="engines", phases={"encoding": 0.1, "engines": 3.0}, messages=[told], seconds=5.0)
    assert _answer_without_worker(cut, plan, engine="portfolio", as_json=True) == 10
    answer = json.loads(capsys.readouterr().out)
    assert answer["verdict"] == "false"
    assert [(r["property"], r["verdict"], r["reason"]) for r in answer["results"]] == [
        ("unreach-call", "false", None), ("no-overflow", "unknown", "timeout during engines")]
    assert answer["results"][1]["phases"] == {"encoding": 0.1, "engines": 3.0}


def test_messages_in_pieces_are_read_whole():
    """The supervisor's reader joins a message sent in many pieces (a long trace) and reads
    several in one piece; a phase message opens a phase, the rest are kept in order."""
    from solvers.supervise import _Messages

    long = json.dumps({"finished": "unreach-call", "json": {"trace": list(range(50_000))}}).encode() + b"\n"
    phase = json.dumps({"phase": "encoding", "at": 1.0}).encode() + b"\n"
    reader = _Messages()
    stream = phase + long + b'{"other": 1}\n{"other": 2}' + b"\n"
    for start in range(0, len(stream), 4096):
        reader.feed(stream[start:start + 4096])
    assert reader.phase == "encoding"
    assert [message.get("other") for message in reader.other] == [None, 1, 2]
    assert reader.other[0]["json"]["trace"] == list(range(50_000)) and reader.pending == []
