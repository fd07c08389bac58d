"""AIGER input: hand-written circuits (ASCII and their binary encoding) and the shared circuits."""

from __future__ import annotations

from pathlib import Path

import pytest

from solvers.aiger import AigerError, parse_aiger, read_aiger
from solvers.api import load, solve
from solvers.bmc import bmc
import shared_data

DATA = Path(__file__).parent / "data"
SHARED = shared_data.SHARED / "aiger" / "minireachic3"


def aag_to_aig(text: str) -> bytes:
    """Binary AIGER of an ASCII one whose variables are already in binary order (inputs,
    latches, gates; gates with lhs > rhs0 ≥ rhs1 after sorting) — enough for these files."""
    lines = text.split("\n")
    m, i, l, o, a, *rest = (int(t) for t in lines[0].split()[1:])
    b, c = (rest + [0, 0])[:2]
    out = [("aig " + " ".join(lines[0].split()[1:])).encode()]
    pos = 1 + i
    for k in range(l):
        _, *values = lines[pos + k].split()
        out.append(" ".join(values).encode())
    pos += l
    out += [lines[pos + k].encode() for k in range(o + b + c)]
    pos += o + b + c
    gates = b""
    for k in range(a):
        lhs, r0, r1 = (int(t) for t in lines[pos + k].split())
        r0, r1 = max(r0, r1), min(r0, r1)
        assert lhs == 2 * (i + l + k + 1) and lhs > r0
        for delta in (lhs - r0, r0 - r1):
            while delta >= 0x80:
                gates += bytes([delta & 0x7F | 0x80])
                delta >>= 7
            gates += bytes([delta])
    return b"\n".join(out) + b"\n" + gates


def normalised(clauses: list[list[int]]) -> list[list[int]]:
    return sorted(sorted(clause) for clause in clauses)


# (file, engine, status, steps)
VERDICTS = [
    ("counter.aag", "bmc", "sat", 7),
    ("counter.aag", "ic3", "sat", None),
    ("toggle_output.aag", "bmc", "sat", 1),
    ("toggle_pair.aag", "ic3", "unsat", None),
    ("uninit.aag", "bmc", "sat", 0),
    ("constraint.aag", "ic3", "unsat", None),
]


@pytest.mark.parametrize("name, engine, status, steps", VERDICTS)
def test_hand_written_circuits(name, engine, status, steps):
    ts = load(DATA / name)
    options = {"max_steps": 20} if engine == "bmc" else {"timeout": 30}
    result = solve(ts, engine, **options)  # checked: trace replayed / invariant proven
    assert result.status == status
    if steps is not None:
        assert result.steps == steps


def test_counter_encoding_latches_are_state_gates_and_inputs_aux():
    ts = read_aiger(DATA / "counter.aag")
    assert ts.n == 11
    assert ts.state_vars() == [1, 2, 3]
    assert ts.aux == frozenset(range(4, 12))
    assert sorted(ts.init) == [[-3], [-2], [-1]]
    assert [-(11 + 1), -1] in ts.trans and [11 + 1, 1] in ts.trans  # next x1 ↔ ¬x1
    assert [11] in ts.goal  # bad gate 11 …
    assert [-11, 7] in ts.goal and [-11, 3] in ts.goal  # … with its cone's definitions


def test_constraint_becomes_a_unit_in_u_and_without_it_the_bad_state_is_reachable():
    ts = read_aiger(DATA / "constraint.aag")
    assert ts.universal == [[-1]]
    ts.universal = []
    result = solve(ts, "bmc", max_steps=5)
    assert (result.status, result.steps) == ("sat", 1)


def test_uninitialised_latch_has_no_initial_clause_while_reset_one_has_a_positive_unit():
    assert read_aiger(DATA / "uninit.aag").init == []
    assert sorted(read_aiger(DATA / "toggle_pair.aag").init) == [[-1], [2]]


@pytest.mark.parametrize("name", ["counter.aag", "toggle_pair.aag", "constraint.aag", "uninit.aag"])
def test_binary_encoding_reads_as_the_same_system(name, tmp_path):
    text = (DATA / name).read_text()
    binary = tmp_path / (Path(name).stem + ".aig")
    binary.write_bytes(aag_to_aig(text))
    ascii_ts, binary_ts = read_aiger(DATA / name), read_aiger(binary)
    assert (binary_ts.n, binary_ts.aux) == (ascii_ts.n, ascii_ts.aux)
    for section in ("init", "universal", "goal", "trans"):  # the binary format orders AND inputs
        assert normalised(getattr(binary_ts, section)) == normalised(getattr(ascii_ts, section))


def test_load_detects_aiger_by_content_without_extension(tmp_path):
    copy = tmp_path / "circuit.model"
    copy.write_bytes((DATA / "counter.aag").read_bytes())
    loaded, direct = load(copy), read_aiger(DATA / "counter.aag")
    assert (loaded.n, loaded.trans, loaded.goal, loaded.aux) == (direct.n, direct.trans, direct.goal, direct.aux)


# (text, line, cause fragment)
MALFORMED = [
    ("", 1, "empty file"),
    ("aag 1 0\n", 1, "malformed header"),
    ("aag 1 0 1 0 0 1\n2 5\n2\n", 2, "next-state literal 5 beyond M = 1"),
    ("aag 1 0 1 0 0 1\n2 3 4\n2\n", 2, "latch reset 4 must be 0, 1 or the latch literal 2"),
    ("aag 2 1 0 2 0\n2\n2\n3\n", 1, "2 outputs and no bad-state property"),
    ("aag 1 1 0 0 0\n2\n", 1, "no property"),
    ("aag 1 1 0 0 0 0 0 1 0\n2\n1\n2\n", 1, "liveness properties"),
    ("aag 2 1 0 0 1 1\n2\n4\n", 4, "file ends before AND gate"),
    ("aag 2 1 0 0 1 1\n2\n4\n4 2 x\n", 4, "AND gate: expected 3 unsigned integers"),
    ("aag 3 1 0 0 1 1\n2\n4\n4 2 6\n", 4, "AND input literal 6: variable 3 is never defined"),
    ("aag 3 1 0 0 2 1\n2\n4\n4 2 6\n6 4 2\n", 4, "combinational cycle through AND gate"),
]


@pytest.mark.parametrize("text, line, cause", MALFORMED)
def test_malformed_aiger_is_refused_with_line_and_cause(text, line, cause, tmp_path):
    path = tmp_path / "bad.aag"
    path.write_text(text)
    with pytest.raises(AigerError) as info:
        read_aiger(path)
    assert info.value.line == line and cause in info.value.cause
    assert str(info.value).startswith(f"{path}:{line}: ")


@pytest.mark.skipif(not SHARED.exists(), reason="shared AIGER circuits not present")
@pytest.mark.parametrize(
    "name, inputs, latches, ands",
    [("a", 82, 151, 1406), ("b", 366, 486, 14359), ("c", 10, 16, 146), ("d", 3, 48, 794),
     ("e", 36, 34, 1489), ("f", 435, 567, 19929)],
)
def test_shared_circuits_read(name, inputs, latches, ands):
    aig = parse_aiger((SHARED / f"{name}.aig").read_bytes(), name)
    assert (len(aig.inputs), len(aig.latches), len(aig.ands)) == (inputs, latches, ands)
    ts = read_aiger(SHARED / f"{name}.aig")
    assert len(ts.state_vars()) == latches


@pytest.mark.skipif(not SHARED.exists(), reason="shared AIGER circuits not present")
def test_shared_circuit_b_is_unsafe_at_depth_4():
    ts = read_aiger(SHARED / "b.aig")
    result = solve(ts, "bmc", max_steps=6, timeout=60)
    assert (result.status, result.steps) == ("sat", 4)


@pytest.mark.skipif(not SHARED.exists(), reason="shared AIGER circuits not present")
def test_shared_circuit_c_is_safe():
    ts = read_aiger(SHARED / "c.aig")
    assert bmc(ts, max_steps=10).status == "unknown"
    result = solve(ts, "ic3", timeout=60)
    assert result.status == "unsat"


def _mutations_of(data: bytes):
    """Random small edits (AIGER-ish characters) of `data`, as bytes (latin-1 keeps binary intact)."""
    from hypothesis import strategies as st

    text = data.decode("latin-1")
    alphabet = "aig 0123456789\nc\x80\xff"
    edit = st.tuples(st.integers(0, len(text)), st.integers(0, 3), st.text(alphabet, max_size=4))

    def apply(edits):
        out = text
        for pos, cut, insert in edits:
            out = out[:pos] + insert + out[pos + cut:]
        return out.encode("latin-1")

    return st.lists(edit, min_size=1, max_size=3).map(apply)


def test_any_mutation_of_an_aiger_file_reads_or_is_one_aiger_error():
    from hypothesis import given, settings

    from solvers.aiger import aig_to_transition_system

    ascii_bytes = (DATA / "counter.aag").read_bytes()
    binary = aag_to_aig(ascii_bytes.decode())

    @settings(max_examples=300, deadline=None)
    @given(_mutations_of(ascii_bytes) | _mutations_of(binary))
    def check(data: bytes):
        try:
            ts = aig_to_transition_system(parse_aiger(data, "fuzz"), "fuzz")
        except AigerError as err:
            assert str(err).startswith("fuzz") and "\n" not in str(err)
            return
        for clauses, width in ((ts.init, ts.n), (ts.universal, ts.n), (ts.goal, ts.n), (ts.trans, 2 * ts.n)):
            assert all(0 < abs(lit) <= width for clause in clauses for lit in clause)

    check()


def random_aag_with_muxes(rng, inputs: int, latches: int, blocks: int) -> tuple[str, list[tuple[int, int, int]]]:
    """An ASCII AIGER circuit built from AND gates, AND trees, multiplexers and XORs (three ANDs
    each), the shapes `solvers.aiger` encodes directly, with latches fed by gates, and its gates."""
    lits = [2 * (1 + k) for k in range(inputs + latches)]
    ands: list[tuple[int, int, int]] = []
    top = inputs + latches

    def gate(a: int, b: int) -> int:
        nonlocal top
        top += 1
        ands.append((2 * top, a, b))
        return 2 * top

    def pick() -> int:
        return rng.choice(lits) ^ rng.randint(0, 1)

    for _ in range(blocks):
        shape = rng.choice(["and", "tree", "mux", "xor"])
        if shape == "and":
            out = gate(pick(), pick())
        elif shape == "tree":  # the inner gate feeds one AND gate alone
            out = gate(gate(pick(), pick()), pick())
        else:
            s, t = pick(), pick()
            e = t ^ 1 if shape == "xor" else pick()
            x, y = gate(s, t), gate(s ^ 1, e)
            out = gate(x ^ 1, y ^ 1)
        lits.append(out)
    bad = pick()
    header = f"aag {top} {inputs} {latches} 0 {len(ands)} 1"
    body = [str(2 * (1 + k)) for k in range(inputs)]
    body += [f"{2 * (1 + inputs + k)} {pick()}" for k in range(latches)]
    body.append(str(bad))
    body += [f"{g} {a} {b}" for g, a, b in ands]
    return "\n".join([header] + body) + "\n", ands


def test_multiplexers_xors_and_and_trees_encode_the_same_functions_as_their_and_gates():
    """Multiplexers and XORs get four clauses of their own, AND trees one n-input AND
    (`_find_structure`). For random circuits and random current states and inputs, the next
    state and the bad output the CNF forces agree with simulating the AND gates, and IC3 still
    recognises T as functional."""
    import random

    from pysat.solvers import Solver

    from solvers.aiger import _find_structure, aig_to_transition_system
    from solvers.ic3 import _analyse_definitions

    rng = random.Random(7)
    muxes = merged = 0
    for _ in range(40):
        inputs, latches = rng.randint(1, 4), rng.randint(1, 4)
        text, ands = random_aag_with_muxes(rng, inputs, latches, rng.randint(1, 12))
        aig = parse_aiger(text.encode())
        ts = aig_to_transition_system(aig)
        structure = _find_structure(aig)
        muxes += len(structure.select)
        merged += len(structure.merged)
        defs = _analyse_definitions(ts, set(ts.state_vars()))
        assert defs.functional
        for _ in range(8):
            value = {0: False}
            for v in range(1, inputs + latches + 1):
                value[v] = rng.random() < 0.5
            for g, a, b in ands:  # gates are listed after their inputs
                value[g >> 1] = (value[a >> 1] ^ bool(a & 1)) and (value[b >> 1] ^ bool(b & 1))
            assumptions = [v if value[v] else -v for v in range(1, inputs + latches + 1)]
            with Solver(name="minisat22", bootstrap_with=ts.trans) as s:
                assert s.solve(assumptions=assumptions)
                model = set(s.get_model())
            for lit, nxt, _ in aig.latches:
                expected = value[nxt >> 1] ^ bool(nxt & 1)
                assert ((ts.n + (lit >> 1)) in model) == expected
            bad = (aig.bad or aig.outputs)[0]
            with Solver(name="minisat22", bootstrap_with=ts.goal) as s:
                assert s.solve(assumptions=assumptions) == (value[bad >> 1] ^ bool(bad & 1))
    assert muxes > 10 and merged > 10
