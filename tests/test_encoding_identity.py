"""Every C program of tests/programs encodes to the same DimSpec bytes as at the commit that
wrote tests/data/encoding_digests.json: real clang, real Boolector, every program with the
default options and the C scopes of main's blocks, some with `--32`, the `edge` scheme,
`--property all` or valid-memsafety (which: see tests/encoding_digests.py). A refactoring of the front end, the CFG reader or the encoders
must keep this test passing without touching the data file.

An intended change of encodings (a new memory model, say) regenerates the file with
`.venv/bin/python tests/encoding_digests.py` and says in its commit which programs moved; the
failure message below lists them.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import encoding_digests
import pytest
from solvers.dimspec import format_dimspec, parse_dimspec


@pytest.mark.parametrize("half", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_every_program_encodes_to_its_reference_digest(half: int):
    """The failure lists every case whose digest moved. The DimSpec reader is checked on the
    way, on real encodings (comments, aux ranges, every section): what it reads of a default
    encoding formats back to the bytes it read.

    Half of the programs (pairs of neighbours in sorted order, so that each half has both
    the `--32` and the `edge` cases) per test; `make test` runs the first half, `make
    test-all` both (the whole took about 140 s of the suite's 22 minutes on 2 cores). A
    reference entry of a program no longer in tests/programs fails the first half."""
    every_program = encoding_digests.programs()
    ours = {p for index, p in enumerate(every_program) if (index // 2) % 2 == half}
    known = set(every_program)

    def in_half(key: str) -> bool:
        program = key.rsplit(" [", 1)[0]
        return program in ours or (half == 0 and program not in known)

    reference = {k: v for k, v in encoding_digests.load_reference().items() if in_half(k)}
    current: dict[str, str] = {}
    read_back = 0
    cases = [case for case in encoding_digests.cases() if case.program in ours]
    # two processes: each case is clang and the encoder in one thread
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("fork")) as pool:
        encoded = list(pool.map(encoding_digests.encode, cases, chunksize=4))
    for case, (digests, text) in zip(cases, encoded):
        current.update(digests)
        if text is not None and case.options == "default":
            assert format_dimspec(parse_dimspec(text, name=case.key, warn=None)) == text, case.key
            read_back += 1
    changed = encoding_digests.differences(reference, current)
    assert not changed, (
        f"{len(changed)} of {len(current)} encodings differ from tests/data/encoding_digests.json "
        "(if intended, regenerate it with `.venv/bin/python tests/encoding_digests.py`):\n  "
        + "\n  ".join(changed)
    )
    assert read_back >= 30, f"only {read_back} programs encoded: has tests/programs lost its programs?"
