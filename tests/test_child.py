"""`solvers.child.call_in_child`: a function run in a forked child that is killed when its
time is up or the caller cancels, whatever the function does meanwhile."""

from __future__ import annotations

import os
import time

from solvers.child import call_in_child


def _sleeps(seconds: float):
    def function(progress):
        progress("started")
        time.sleep(seconds)  # stands for a native call that never asks whether to stop
        return "woke"
    return function


def test_the_result_and_progress_come_back():
    said: list[str] = []
    ran = call_in_child(lambda progress: (progress("half"), [1, 2, 3])[1], until=time.monotonic() + 30,
                        progress=said.append)
    assert (ran.status, ran.value) == ("done", [1, 2, 3])
    assert said == ["half"]


def test_a_child_that_does_not_stop_is_killed_at_its_time():
    started = time.monotonic()
    ran = call_in_child(_sleeps(60), until=started + 1.0)
    assert ran.status == "timeout"
    assert time.monotonic() - started < 5.0


def test_cancelled_kills_the_child_at_once():
    started = time.monotonic()
    asked: list[float] = []
    def cancelled() -> bool:
        asked.append(time.monotonic())
        return time.monotonic() - started > 0.5
    ran = call_in_child(_sleeps(60), until=started + 60, cancelled=cancelled)
    assert ran.status == "cancelled" and len(asked) >= 2
    assert time.monotonic() - started < 5.0


def test_an_exception_and_a_death_are_reported_not_raised():
    def raises(_progress):
        raise ValueError("no such cell")
    ran = call_in_child(raises, until=time.monotonic() + 30)
    assert (ran.status, ran.reason) == ("error", "ValueError: no such cell")
    ran = call_in_child(lambda _progress: os._exit(3), until=time.monotonic() + 30)
    assert (ran.status, ran.reason) == ("died", "exit code 3")


def test_a_result_that_cannot_be_sent_is_an_error_not_a_traceback(capfd):
    ran = call_in_child(lambda _progress: (lambda: None), until=time.monotonic() + 30)  # a lambda does not pickle
    assert ran.status == "error" and ran.reason.startswith("its result could not be sent:"), ran.reason
    assert "Traceback" not in capfd.readouterr().err
