"""k-induction (solvers/kind.py) and BMC's forward condition: real verdicts on hand-built DimSpec
systems, certificates that fail their fresh check once mutated, and the `--kind` command line."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from solvers.api import solve, verify
from solvers.bmc import bmc
from solvers.check import CheckFailed, CheckTimeout, check_ends, check_forward, check_k_induction, distinct_vars
from solvers.dimspec import format_dimspec
from solvers.kind import goal_definitions, kind
from solvers.portfolio import Portfolio, portfolio
from solvers.result import SolveResult
from solvers.transys import Clause, TransitionSystem

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def counter_clauses(bits: int, n: int, stop: int | None) -> tuple[list[Clause], int]:
    """T clauses of a `bits`-bit counter in variables 1..bits (1 least significant) of a system
    of n variables: +1 per step, and once it holds `stop` it stays (None: it wraps). Carries and
    the stop flag are auxiliary variables from n−bits+1 on… returned: (clauses, next free)."""
    x = list(range(1, bits + 1))
    free = bits + 1
    carry = {1: None}
    clauses: list[Clause] = []
    for i in range(2, bits + 1):  # carry_i ↔ x_1 ∧ … ∧ x_{i−1}
        c = free
        free += 1
        below = carry[i - 1]
        if below is None:
            clauses += [[-c, x[0]], [c, -x[0]]]
        else:
            clauses += [[-c, below], [-c, x[i - 2]], [c, -below, -x[i - 2]]]
        carry[i] = c
    s = None
    if stop is not None:  # s ↔ (x = stop)
        s = free
        free += 1
        pattern = [x[i] if stop >> i & 1 else -x[i] for i in range(bits)]
        clauses += [[-s, lit] for lit in pattern] + [[s] + [-lit for lit in pattern]]
    for i in range(1, bits + 1):
        cur, nxt, c = x[i - 1], n + x[i - 1], carry[i]
        keep = [] if s is None else [s]
        if s is not None:
            clauses += [[-s, -nxt, cur], [-s, nxt, -cur]]
        if c is None:  # bit 1 toggles
            clauses += [keep + [-nxt, -cur], keep + [nxt, cur]]
        else:  # nxt ↔ cur ⊕ c
            clauses += [keep + [-nxt, cur, c], keep + [-nxt, -cur, -c], keep + [nxt, -cur, c], keep + [nxt, cur, -c]]
    return clauses, free


def stopping_counter(bits: int, stop: int, goal: int) -> TransitionSystem:
    """A counter from 0 that counts to `stop` and stays there; G: it holds `goal`."""
    n = 2 * bits
    trans, free = counter_clauses(bits, n, stop)
    assert free == n + 1
    return TransitionSystem(
        n=n, init=[[-i] for i in range(1, bits + 1)], trans=trans,
        goal=[[i] if goal >> (i - 1) & 1 else [-i] for i in range(1, bits + 1)],
    )


def shift_register() -> TransitionSystem:
    """An 8-bit counter (wrapping, so every path from I is simple for 255 steps) beside a
    shift register r1 → r2 → r3 into which only 0 is shifted; all 0 at first. G: r3 = 1.
    Unreachable, and 3-inductive but not 2-inductive: r3 = 1 needs r1 = 1 two steps before,
    which no state with a predecessor has."""
    bits = 8
    r1, r2, r3 = 16, 17, 18
    n = 18
    trans, _ = counter_clauses(bits, n, None)
    trans += [[-(n + r1)], [-(n + r2), r1], [n + r2, -r1], [-(n + r3), r2], [n + r3, -r2]]
    return TransitionSystem(n=n, init=[[-i] for i in list(range(1, bits + 1)) + [r1, r2, r3]], trans=trans,
                            goal=[[r3]])


def high_bit_counter() -> TransitionSystem:
    """x1..x3 count modulo 8 from 0; x4 starts 0 and is cleared when they wrap (else kept). G is
    h with h ↔ x4, h a variable of G alone (a Tseitin gate, as in AIGER's bad-state cones).
    1-inductive with G negated as ¬x4; without the definition, ¬G holds by h = 0 alone, and the
    step case only holds once it spans more than the 8 states x4 = 1 can keep for."""
    trans, _ = counter_clauses(3, 7, None)  # x1..x3, carries 4 and 5; next of v is 7 + v
    x4, h = 6, 7
    # x4' ↔ x4 ∧ ¬(x1 ∧ x2 ∧ x3)
    w = [[-(7 + x4), x4], [-(7 + x4), -1, -2, -3], [7 + x4, -x4, 1], [7 + x4, -x4, 2], [7 + x4, -x4, 3]]
    return TransitionSystem(n=7, init=[[-1], [-2], [-3], [-x4]], trans=trans + w,
                            goal=[[h], [-h, x4], [h, -x4]])


def test_k_induction_proves_a_3_inductive_system_that_is_not_1_inductive():
    ts = shift_register()
    result = solve(ts, "kind")  # checked by fresh solvers inside solve
    assert (result.status, result.proof, result.k, result.engine) == ("unsat", "k-induction", 3, "kind")
    assert result.stats["step_case"] == 1
    # The certificate at a smaller k does not hold: the step fails at 1 and 2.
    for k in (1, 2):
        with pytest.raises(CheckFailed, match="step case fails"):
            check_k_induction(ts, k)
    # Without completeness BMC never proves it (255 simple steps from I), with it not within 10.
    assert bmc(ts, max_steps=10, completeness=True).status == "unknown"


def test_k_induction_negates_a_goal_with_a_tseitin_gate_through_its_definition():
    ts = high_bit_counter()
    assert goal_definitions(ts) == [(7, [[-7, 6], [7, -6]])]
    result = solve(ts, "kind")
    assert (result.status, result.proof, result.k) == ("unsat", "k-induction", 1)
    assert [o for o, _ in result.goal_definitions] == [7]
    # Without the definition, ¬G is satisfied by h alone (h = 0, x4 = 1): no proof at 1.
    with pytest.raises(CheckFailed, match="step case fails"):
        verify(ts, replace(result, goal_definitions=[]))
    # A "definition" that is not one of G's clauses, or not total, is refused.
    with pytest.raises(CheckFailed, match="not in G"):
        check_k_induction(ts, 1, [(7, [[7, 6]])])
    with pytest.raises(CheckFailed, match="not total"):
        check_k_induction(ts, 1, [(7, [[7], [-7, 6]])])  # x4 = 0 leaves h no value


def test_step_case_is_skipped_when_a_goal_variable_has_no_definition():
    ts = shift_register()
    p = ts.n + 1
    ts = replace(ts, n=p, goal=[[p, 18], [-p, 18]],  # r3 either way; p is G's alone, undefined
                 trans=[[lit + 1 if lit > ts.n else lit - 1 if lit < -ts.n else lit for lit in c] for c in ts.trans])
    assert goal_definitions(ts) is None
    result = kind(ts, max_steps=6)
    assert result.status == "unknown" and result.stats["step_case"] == 0
    assert "step case skipped" in result.reason and "no path of length ≤ 6" in result.reason


def test_forward_condition_proves_a_300_iteration_loop():
    ts = stopping_counter(bits=9, stop=300, goal=400)  # 0, 1, …, 300, 300, …: G never holds
    result = solve(ts, "bmc")  # BMC runs with its forward condition from solve
    assert (result.status, result.proof, result.engine) == ("unsat", "forward", "bmc")
    # No simple path has 301 steps; the query may be asked some depths later (its time share).
    assert 301 <= result.k == result.steps
    tight = replace(result, k=301, steps=301)
    verify(ts, tight)
    with pytest.raises(CheckFailed, match="forward condition fails"):
        verify(ts, replace(tight, k=300))  # 0..300 is a simple path of 300 steps
    longer = stopping_counter(bits=9, stop=400, goal=401)  # the system changed after the proof
    with pytest.raises(CheckFailed, match="forward condition fails"):
        verify(longer, tight)
    reached = stopping_counter(bits=9, stop=300, goal=200)
    with pytest.raises(CheckFailed, match="base case fails"):
        verify(reached, result)


def test_forward_condition_check_stops_at_its_deadline():
    """A deadline already past stops the check before its first answer: CheckTimeout, which
    says nothing either way; with time enough the same check passes."""
    ts = stopping_counter(bits=9, stop=300, goal=400)
    with pytest.raises(CheckTimeout):
        check_forward(ts, 301, deadline=time.monotonic())
    check_forward(ts, 301, deadline=time.monotonic() + 60)


def _value_cube(bits: int, value: int) -> list[int]:
    return [i if value >> (i - 1) & 1 else -i for i in range(1, bits + 1)]


def test_every_run_ending_is_a_proof_checked_by_fresh_solvers():
    """A counter that stops at 300 in a state it never leaves: every run is there after 300
    steps, so G (401) is unreachable; the proof names the end states and its k, and
    `verify` checks it again. Fewer steps, a set T leaves, a set inside G, or a G on the way
    fail the check, each with its reason."""
    ts = stopping_counter(bits=9, stop=300, goal=401)
    end = _value_cube(9, 300)
    check_ends(ts, 300, end)
    result = SolveResult("unsat", engine="word-bmc", proof="ends", k=300, sink=end)
    verify(ts, result)
    with pytest.raises(CheckFailed, match="has not ended after 299 steps"):
        verify(ts, replace(result, k=299))
    with pytest.raises(CheckFailed, match="a step leaves the end states"):
        check_ends(ts, 300, _value_cube(9, 299))
    with pytest.raises(CheckFailed, match="an end state is in G"):
        check_ends(stopping_counter(bits=9, stop=300, goal=300), 300, end)
    with pytest.raises(CheckFailed, match="base case fails"):
        check_ends(stopping_counter(bits=9, stop=300, goal=200), 300, end)
    with pytest.raises(CheckFailed, match="no cube"):
        check_ends(ts, 300, [])
    with pytest.raises(CheckTimeout):
        check_ends(ts, 300, end, deadline=time.monotonic())


def _process_state(pid: int) -> str:
    """The state letter of /proc/PID/stat ("T": stopped)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def _settles(pid: int, holds, seconds: float = 5.0) -> bool:
    """Whether the process's state satisfies `holds` within `seconds`."""
    end = time.monotonic() + seconds
    while not holds(_process_state(pid)):
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_portfolio_members_wait_while_paused():
    """`Portfolio.paused`: the members are stopped inside the block and run again after it
    (llumc's check pauses them while it checks the word-level BMC's bounded proof)."""
    members = Portfolio(timeout=60)
    members.start("kind", stopping_counter(bits=20, stop=1_000_000, goal=1_000_001))
    pid = members.procs["kind"].pid
    try:
        with members.paused():
            assert _settles(pid, lambda state: state == "T")  # a signal takes effect a moment later
        assert _settles(pid, lambda state: state != "T")
        assert members.poll() is None
    finally:
        members.stop()
    assert not Path(f"/proc/{pid}").exists() and not members.procs  # ended, reaped, its object closed


def test_a_dismissed_counterexample_leaves_the_other_members_running():
    """llumc's check replays a counterexample before it takes it; one the replay refutes on an
    abstraction is dismissed, and the members still running may prove the system (the
    counterexample's system and the proof's differ here, as an abstract and a strengthened
    one may)."""
    members = Portfolio(timeout=60)
    members.start("bmc", stopping_counter(bits=5, stop=20, goal=13))  # a path of 13 steps, at once
    members.start("kind", stopping_counter(bits=8, stop=200, goal=255))  # a proof at k = 55
    pid = members.procs["kind"].pid
    try:
        first = members.wait(keep_on_sat=True)
        assert (first.status, first.stats["member"]) == ("sat", "bmc")
        assert "kind" in members.pending
        members.dismiss("counterexample not confirmed")
        second = members.wait()
    finally:
        members.stop()
    assert (second.status, second.stats["member"], second.proof) == ("unsat", "kind", "k-induction")
    assert not Path(f"/proc/{pid}").exists()
    assert [(r.stats["member"], r.reason) for r in members.unknown] == [("bmc", "counterexample not confirmed")]


def test_a_member_started_again_takes_no_answer_of_its_cancelled_run():
    """llumc's check cancels k-induction and starts it again on a stronger system; an answer
    the cancelled run had sent already belongs to the other system and is not taken."""
    members = Portfolio(timeout=60)
    members.start("kind", stopping_counter(bits=5, stop=20, goal=13))  # a path of 13 steps, at once
    members.procs["kind"].join(timeout=30)  # its counterexample sent, not read
    members.cancel("kind")
    members.start("kind", stopping_counter(bits=8, stop=200, goal=255))  # a proof at k = 55
    try:
        answer = members.wait()
    finally:
        members.stop()
    assert (answer.status, answer.stats["member"], answer.proof) == ("unsat", "kind", "k-induction")


def wide_latches(n: int) -> TransitionSystem:
    """n latches, all 0 at first, x1 set in the next step, the others kept; G: x1. A path of
    one step whose trace (two states of n values) is a message far larger than a pipe holds."""
    keep = [clause for i in range(2, n + 1) for clause in ([-(n + i), i], [n + i, -i])]
    return TransitionSystem(n=n, init=[[-i] for i in range(1, n + 1)], trans=[[n + 1]] + keep, goal=[[1]])


def test_a_member_killed_in_the_middle_of_its_answer_leaves_the_others_theirs():
    """BMC's answer (200 KB) waits unread in its channel, half written, when BMC is killed
    (as a cancel terminates a member): the member started after it still answers, and the
    killed one is named. With one queue for all members the next answer never came (the
    dead writer held the queue's lock) and the reader waited for the rest of the message."""
    members = Portfolio(timeout=30)
    members.start("bmc", wide_latches(20_000))
    try:
        time.sleep(2.0)  # BMC answers within a second, then blocks on the full pipe
        os.kill(members.procs["bmc"].pid, signal.SIGKILL)
        members.start("kind", shift_register())
        answer = members.wait()
    finally:
        members.stop()
    assert (answer.status, answer.stats["member"], answer.proof) == ("unsat", "kind", "k-induction")
    assert answer.reason == "bmc was killed by SIGKILL"


def test_k_induction_and_bmc_find_the_same_shortest_path():
    ts = stopping_counter(bits=5, stop=20, goal=13)
    found = solve(ts, "kind")
    assert (found.status, found.steps, found.proof) == ("sat", 13, None)
    assert found.trace == solve(ts, "bmc").trace


def test_kind_answers_by_the_step_case_or_the_forward_condition_whichever_holds_first():
    # G: the counter holds 31. Only 30 leads there, and nothing leads to the state after the
    # stopping value, so the step case holds once it spans more states than that chain.
    chain = stopping_counter(bits=5, stop=20, goal=31)  # 21 … 31: step case at 11; forward at 21
    result = solve(chain, "kind")
    assert (result.status, result.proof, result.k) == ("unsat", "k-induction", 11)
    early = stopping_counter(bits=5, stop=3, goal=31)  # 4 … 31: step case at 28; forward at 4
    result = solve(early, "kind")
    assert (result.status, result.proof, result.k) == ("unsat", "forward", 4)
    with pytest.raises(CheckFailed, match="forward condition fails"):
        verify(early, replace(result, k=3))
    with pytest.raises(CheckFailed, match="step case fails"):
        verify(early, replace(result, proof="k-induction"))


def test_mutated_k_induction_certificates_fail():
    ts = shift_register()
    result = solve(ts, "kind")
    verify(ts, result)
    with pytest.raises(CheckFailed, match="step case fails"):
        verify(ts, replace(result, k=2))
    with pytest.raises(CheckFailed):
        verify(ts, replace(result, proof="bogus"))
    with pytest.raises(CheckFailed, match="valid k"):
        verify(ts, replace(result, k=None))
    # The system changed after the proof: r1 may start at 1, so r3 holds after two steps.
    changed = replace(ts, init=[c for c in ts.init if c != [-16]])
    with pytest.raises(CheckFailed, match="base case fails"):
        verify(changed, result)
    # Or 1 can be shifted in: the step case fails (and the base case as well).
    freed = replace(ts, trans=[c for c in ts.trans if c != [-(ts.n + 16)]])
    with pytest.raises(CheckFailed):
        verify(freed, result)


def test_distinctness_compares_linked_variables_only():
    ts = stopping_counter(bits=4, stop=9, goal=12)
    assert distinct_vars(ts) == [1, 2, 3, 4]  # carries and the stop flag are not compared


def test_a_stopped_portfolio_keeps_no_descriptor():
    """Each member's process object holds two of multiprocessing's pipes and its channel one
    until `stop` closes them: a process running many checks with its garbage collector paused
    (a test worker) ran out of descriptors."""
    if not Path("/proc/self/fd").exists():
        pytest.skip("counts descriptors in /proc/self/fd")
    gc.collect()
    before = len(os.listdir("/proc/self/fd"))
    gc.disable()  # as llumc.gcpause does during a check: nothing is closed by the collector
    try:
        for _ in range(3):
            members = Portfolio(timeout=60)
            members.start("ic3", shift_register())
            members.start("kind", shift_register())
            assert members.wait().status == "unsat"
        assert len(os.listdir("/proc/self/fd")) == before
    finally:
        gc.enable()


def test_portfolio_runs_kind_beside_ic3():
    ts = shift_register()
    result = portfolio(ts, ("ic3", "kind"), timeout=60)
    assert result.status == "unsat" and result.engine in ("ic3", "kind")
    alone = portfolio(ts, ("kind",), timeout=60)
    assert (alone.status, alone.proof, alone.k) == ("unsat", "k-induction", 3)


def test_portfolio_members_started_one_after_another_each_on_its_own_system():
    """llumc's check starts IC3 first and the other members once their (strengthened) system is
    ready: the winner names its member; a member's label is taken once."""
    ts = shift_register()
    members = Portfolio(timeout=60)
    members.start("ic3", ts)
    with pytest.raises(ValueError):
        members.start("ic3", ts)
    members.start("kind-second", ts, engine="kind")
    result = members.wait()
    assert result.status == "unsat" and result.stats["member"] in ("ic3", "kind-second")
    assert result.engine == {"ic3": "ic3", "kind-second": "kind"}[result.stats["member"]]
    late = Portfolio(timeout=60)
    late.start("kind-only", ts, engine="kind")
    assert late.wait().stats["member"] == "kind-only"


def run_cli(*args: str, llumc: bool = False) -> subprocess.CompletedProcess:
    """`python -m solvers ARGS`, or `llumc solve ARGS` (the same command behind llumc's front end)."""
    code = "import sys; from llumc.cli import main; sys.argv[0] = 'llumc'; main()"
    command = [sys.executable, "-c", code, "solve"] if llumc else [sys.executable, "-m", "solvers"]
    return subprocess.run(command + list(args), cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60)


def test_llumc_solve_kind_text_and_json(tmp_path):
    path = tmp_path / "shift.dimspec"
    path.write_text(format_dimspec(shift_register()))
    run = run_cli(str(path), "--kind", "-q", llumc=True)
    assert run.returncode == 20, run.stderr
    assert run.stdout.splitlines() == [
        "s UNSATISFIABLE",
        "c proof: 3-induction (base case: no path shorter than 3 reaches G; step: no 4 pairwise different "
        "states with G in the last only), checked by fresh solvers"]
    payload = json.loads(run_cli(str(path), "--kind", "--json", llumc=True).stdout)
    assert (payload["status"], payload["engine"], payload["proof"], payload["k"]) == ("unsat", "kind", "k-induction", 3)
    bounded = run_cli(str(path), "--kind", "--max-steps", "1", "-q")
    assert (bounded.returncode, bounded.stdout) == (0, "s UNKNOWN max-steps 1 reached (no path of length ≤ 1)\n")
    loop = tmp_path / "loop.dimspec"
    loop.write_text(format_dimspec(stopping_counter(bits=4, stop=9, goal=12)))
    forward = json.loads(run_cli(str(loop), "--bmc", "--json").stdout)
    assert (forward["status"], forward["proof"], forward["k"], forward["engine"]) == ("unsat", "forward", 10, "bmc")
    text = run_cli(str(loop), "--bmc", "-q").stdout.splitlines()
    assert text[0] == "s UNSATISFIABLE" and text[1].startswith("c proof: forward condition at k = 10 ")
    sat = tmp_path / "sat.dimspec"
    sat.write_text(format_dimspec(stopping_counter(bits=4, stop=9, goal=7)))
    run = run_cli(str(sat), "--kind", "--json")
    payload = json.loads(run.stdout)
    assert (run.returncode, payload["status"], payload["steps"], payload["shortest"]) == (10, "sat", 7, True)
    assert "proof" not in payload and len(payload["trace"]) == 8


@pytest.mark.parametrize("other, message", [
    ("--ic3", "not allowed with argument"), ("--bmc", "not allowed with argument"),
    ("--schedule=exp", "--schedule applies to --bmc only"),
    ("--direction=backward", "--direction applies to --ic3 only"),
])
def test_kind_is_refused_with_other_engines_and_their_options(tmp_path, other, message):
    path = tmp_path / "shift.dimspec"
    path.write_text(format_dimspec(shift_register()))
    run = run_cli(str(path), "--kind", other)
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and message in run.stderr
