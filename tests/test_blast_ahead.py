"""The forked child that puts T's terms into Boolector while the encoder makes them
(`llumc.bitblast.blast_ahead`): the same DimSpec as blasting T afterwards, the same circuit with
divisions outside T, and the serial way when the child fails or cannot be started.

The child is only started where no other thread runs (a lock held by one would stay held in
the child), and earlier tests leave threads: the scenarios run in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

from llumc.bitblast.blast_ahead import BlastAhead
from llumc.encoding.terms import Term, TermBuilder

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
PROGRAMS = TESTS / "programs"

# a loop, arithmetic with divisions, memory (an array), nondet branching
_PROGRAMS = ["safe_loop.c", "arith.c", "fe_array.c", "assume_blocks.c"]


def print_outcomes(paths: list[str]) -> None:
    """As JSON: per program, whether the DimSpec with the child equals the one without and
    whether the child's dump was used; then the term-level scenarios (`_term_scenarios`)."""
    import llumc.pipeline as encode
    from solvers.dimspec import format_dimspec

    collected: list[bool] = []
    collect = BlastAhead.collect

    def spied(self, roots):
        text = collect(self, roots)
        collected.append(text is not None)
        return text
    BlastAhead.collect = spied
    programs = []
    for path in paths:
        for variant in (dict(m32=True), dict(m32=False, prop="no-overflow")):
            encode.BLAST_AHEAD_FROM_BYTES = 10 ** 12
            alone = format_dimspec(encode.encode_file(Path(path), **variant).ts)
            collected.clear()
            encode.BLAST_AHEAD_FROM_BYTES = 0
            ahead = format_dimspec(encode.encode_file(Path(path), **variant).ts)
            programs.append([Path(path).name, alone == ahead, list(collected)])
    BlastAhead.collect = collect
    print(json.dumps({"programs": programs, "terms": _term_scenarios()}))


def _term_scenarios() -> dict:
    """Terms with a division outside the roots: the AIG blasted with the child's dump equals
    the one blasted alone (but for the names of division variables); with the child killed, or asked for other roots, `collect` gives
    None and `blast` makes the dump itself, to the same AIG."""
    import os

    from llumc.bitblast.aig import AIG
    from llumc.bitblast.blast import blast

    def circuit(dump=None):
        """The AIG of the roots, its division variables renamed in the order they appear (the
        child names them in the order it made every division, the unused one included; the
        encoder gives each of them a fresh variable by that order, whatever its name)."""
        aig = AIG()
        root = blast(roots, aig, division="aux", dump=dump)
        renamed: dict[str, str] = {}
        nodes = [("input", renamed.setdefault(node[1], f"d#{len(renamed)}") if node[1][0] == "d" else node[1])
                 if node[0] == "input" else node for node in aig.nodes]
        return [root, nodes]

    def started():
        ahead = BlastAhead.start(rewrite_level=3, division="aux")
        tb = TermBuilder()
        ahead.follow(tb)
        x, y = tb.input(0, 8), tb.input(1, 8)
        dead = tb.op("udiv", x, y)  # made, never asserted: its side constraint stays out
        live = tb.op("urem", y, tb.op("add", x, tb.const(1, 8)))
        signed = tb.op("sdiv", x, tb.const(3, 8))
        roots = [tb.eq(live, tb.const(3, 8)), tb.not_(tb.eq(signed, x)), tb.true()]
        assert dead.op == "udiv"
        return ahead, roots

    outcome = {}
    ahead, roots = started()
    alone = circuit()
    try:
        ahead.request(roots)
        given: list[bool] = []

        def dump(rs):
            text = ahead.collect(rs)
            given.append(text is not None)
            return text
        outcome["same"] = circuit(dump) == alone
        outcome["given"] = given
    finally:
        ahead.close()
    ahead, roots = started()
    try:
        ahead.request(roots)
        os.kill(ahead.pid, 9)
        outcome["killed_collect"] = ahead.collect(roots[:2])
        outcome["killed_same"] = circuit(ahead.collect) == alone
    finally:
        ahead.close()
    ahead, roots = started()
    try:
        ahead.request(roots)
        outcome["other_roots"] = ahead.collect(roots[:1])
    finally:
        ahead.close()
    # a builder whose uids are not the order of making: the child refuses it
    ahead = BlastAhead.start(rewrite_level=3, division="aux")
    tb = TermBuilder()
    tb.table[("input", 8, (), 0)] = Term("input", 8, (), 0, uid=2)
    ahead.follow(tb)
    try:
        misnumbered = [tb.eq(tb.table[("input", 8, (), 0)], tb.const(1, 8))]
        ahead.request(misnumbered)
        outcome["misnumbered"] = ahead.collect(misnumbered)
    finally:
        ahead.close()
    return outcome


def _outcomes() -> dict:
    code = (f"import sys; sys.path.insert(0, {str(TESTS)!r}); import test_blast_ahead; "
            f"test_blast_ahead.print_outcomes({[str(PROGRAMS / name) for name in _PROGRAMS]!r})")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_blast_ahead_gives_the_dimspec_of_blasting_afterwards():
    outcomes = _outcomes()
    assert len(outcomes["programs"]) == 2 * len(_PROGRAMS)
    for name, same, collected in outcomes["programs"]:
        assert collected == [True], name  # the child's dump was used for T
        assert same, name
    terms = outcomes["terms"]
    assert terms["given"] == [True] and terms["same"]
    assert terms["killed_collect"] is None and terms["killed_same"]
    assert terms["other_roots"] is None
    assert terms["misnumbered"] is None


def test_blast_ahead_not_started_beside_another_thread():
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert BlastAhead.start(rewrite_level=3, division="aux") is None
    finally:
        release.set()
        other.join()
