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
