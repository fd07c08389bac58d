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
from solvers.dimspec import format_dimspec, parse_dimspec


def test_every_program_encodes_to_its_reference_digest():
    """The failure lists every case whose digest moved. The DimSpec reader is checked on the
    way, on real encodings (comments, aux ranges, every section): what it reads of a default
    encoding formats back to the bytes it read."""
    reference = encoding_digests.load_reference()
    current: dict[str, str] = {}
    read_back = 0
    cases = encoding_digests.cases()
    # two processes: each case is clang and the encoder in one thread, and nothing else of the
    # suite runs beside this test
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
    assert read_back >= 60, f"only {read_back} programs encoded: has tests/programs lost its programs?"
