"""Settings for the whole test run."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def zig_objects_in_the_test_runs_cache(tmp_path_factory):
    """zig cc keeps a copy of each object it compiles in its global cache (~/.cache/zig) and
    never removes it; the suite compiles thousands of distinct programs natively (replays,
    differential tests), so they go to a cache of this test run instead, among pytest's
    temporary directories. The C libraries zig builds once per target (about a minute each)
    stay in the global cache: `ZIG_LOCAL_CACHE_DIR` moves only the rest."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ZIG_LOCAL_CACHE_DIR", str(tmp_path_factory.mktemp("zig-cache")))
        yield


@pytest.fixture(autouse=True, scope="session")
def random_tests_where_asked():
    """The portfolio's random tests (llumc.check.testing) run where a test asks for them
    (`random_tests=True`, or `LLUMC_RANDOM_TESTS=1` for a command): elsewhere the tests are
    about the model's engines, whose answers the random tests would take over after a few
    seconds on a loaded machine, and their builds and runs beside every longer check took
    the suite over 20 minutes."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LLUMC_RANDOM_TESTS", "0")
        yield



_WARMING: list = []


def pytest_configure(config):
    """zig builds its C library once per target, about a minute each (musl, for the replays'
    x86 and x86_64 binaries). Built lazily, the first replays of each width wait for it, and
    with two workers both may wait for the same build while the other target's has not begun:
    the run starts both builds at once, beside the first tests (in the controller only). On a
    machine where zig has built them they take a few milliseconds."""
    import subprocess
    import tempfile
    from pathlib import Path

    from llumc.frontend.compile import clang_command

    if hasattr(config, "workerinput"):
        return
    command, is_zig = clang_command(None)
    if not is_zig:
        return
    directory = Path(tempfile.mkdtemp(prefix="llumc-zig-warm-"))
    source = directory / "warm.c"
    source.write_text("#include <stdio.h>\nint main(void) { return puts(\"\") < 0; }\n")
    for target in ("x86-linux-musl", "x86_64-linux-musl"):
        _WARMING.append(subprocess.Popen(
            [*command, "-target", target, "-O0", "-o", str(directory / target), str(source)],
            cwd=directory, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    config.llumc_warm_directory = directory


def pytest_unconfigure(config):
    """The builds end with the run (waited for; killed if still going after 5 minutes)."""
    import shutil
    import subprocess

    for process in _WARMING:
        try:
            process.wait(timeout=300)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    _WARMING.clear()
    directory = getattr(config, "llumc_warm_directory", None)
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)
