"""Houdini on DimSpec (solvers/strengthen.py): candidate literals over defined extension
variables, the largest inductive subset, and the fresh check that guards every use of it."""

from __future__ import annotations

import pytest

from solvers.api import solve
from solvers.check import CheckFailed
from solvers.strengthen import Lemmas, check_lemmas, extend, houdini
from solvers.transys import TransitionSystem


def two_bit_counter(stop_at_two: bool) -> TransitionSystem:
    """Bits x1 (low), x2 (high) count 0, 1, 2, (3 unless stopped at 2); G: x1 ∧ x2 (value 3).
    Next: low' = ¬low (or stays 0 at 2), high' = high ⊕ low."""
    trans = [
        # high' = high xor low
        [-4, 2, 1], [-4, -2, -1], [4, -2, 1], [4, 2, -1],
    ]
    if stop_at_two:
        # low' = ¬low ∧ ¬high
        trans += [[-3, -1], [-3, -2], [3, 1, 2]]
    else:
        trans += [[-3, -1], [3, 1]]
    return TransitionSystem(n=2, init=[[-1], [-2]], goal=[[1], [2]], trans=trans, aux=frozenset())


def lemmas_value_is_not_3() -> Lemmas:
    """Candidates: ¬(x1 ∧ x2) through a defined variable 3 ↔ x1 ∧ x2, and two plain state
    literals: ¬x1 (false at 1), ¬x2 (false at 2)."""
    definitions = [[-3, 1], [-3, 2], [3, -1, -2]]
    return Lemmas(n=2, n_ext=3, definitions=definitions, literals=[-3, -1, -2])


def test_houdini_keeps_the_inductive_subset():
    ts = two_bit_counter(stop_at_two=True)
    found = houdini(ts, lemmas_value_is_not_3())
    assert found.kept == [0]  # value ≠ 3; ¬x1 and ¬x2 fail consecution (0 → 1 → 2)
    assert found.dropped_consecution == 2 and found.dropped_initiation == 0
    check_lemmas(ts, lemmas_value_is_not_3(), found.kept)


def test_houdini_drops_what_is_reachable():
    ts = two_bit_counter(stop_at_two=False)
    found = houdini(ts, lemmas_value_is_not_3())
    assert found.kept == []


def test_initiation_drops_first():
    ts = two_bit_counter(stop_at_two=True)
    lemmas = Lemmas(n=2, n_ext=2, definitions=[], literals=[1, -2])  # x1 (false initially), ¬x2
    found = houdini(ts, lemmas)
    assert found.dropped_initiation == 1
    assert found.kept == []  # ¬x2 alone is not inductive (1 → 2)


def test_wrong_invariant_fails_the_fresh_check():
    """A candidate the search did not keep, handed in as if it had been, never passes."""
    ts = two_bit_counter(stop_at_two=False)
    with pytest.raises(CheckFailed, match="not inductive"):
        check_lemmas(ts, lemmas_value_is_not_3(), [0])
    with pytest.raises(CheckFailed, match="initial states"):
        check_lemmas(ts, Lemmas(n=2, n_ext=2, literals=[1]), [0])


def test_strengthened_system_is_solved_with_the_same_verdicts():
    for stop, status in ((True, "unsat"), (False, "sat")):
        ts = two_bit_counter(stop_at_two=stop)
        lemmas = lemmas_value_is_not_3()
        kept = houdini(ts, lemmas).kept
        wide = extend(ts, lemmas, kept)
        assert wide.n == 3 and wide.aux == frozenset({3})
        for engine in ("ic3", "bmc"):
            if engine == "bmc" and status == "unsat":
                continue
            result = solve(wide, engine=engine, timeout=10)
            assert result.status == status
            if status == "sat":
                assert result.steps == 3


def test_deadline_gives_no_partial_answer():
    ts = two_bit_counter(stop_at_two=True)
    import time

    found = houdini(ts, lemmas_value_is_not_3(), deadline=time.monotonic() - 1)
    assert found.kept is None
    assert found.remaining == list(range(len(lemmas_value_is_not_3().literals)))  # nothing dropped yet


def test_kind_unrolls_the_original_paths_and_proves_with_the_strengthened_step():
    """k-induction given the original system as `paths`: its base case and forward condition
    unroll the original, the step case the strengthened system; the trace is one of the original
    system (checked against it), the k-induction proof one of the strengthened system."""
    safe, unsafe = two_bit_counter(stop_at_two=True), two_bit_counter(stop_at_two=False)
    safe_strong = extend(safe, lemmas_value_is_not_3(), [0])
    answer = solve(safe_strong, "kind", paths=safe, max_steps=50)
    assert answer.status == "unsat" and answer.proof == "k-induction"  # 0 → 1 → 2 → 2 ...
    # a path of the original system: 0 → 1 → 2 → 3 (x1 is the low bit)
    unsafe_wide = extend(unsafe, lemmas_value_is_not_3(), [])  # one more (auxiliary) variable
    assert unsafe_wide.n == 3
    found = solve(unsafe_wide, "kind", paths=unsafe)
    assert found.status == "sat" and found.trace == [[-1, -2], [1, -2], [-1, 2], [1, 2]]
    with pytest.raises(ValueError):
        solve(safe_strong, "kind", paths=TransitionSystem(n=3, init=[[-1]], goal=[[1]], trans=[], aux=frozenset()))


def test_houdini_assumes_what_is_known_inductive_and_still_drops_the_rest():
    """`assumed`: candidates known to be inductive together stay without being asked about and
    support the others' consecution; the rest is decided as without them."""
    ts = two_bit_counter(stop_at_two=True)
    plain = houdini(ts, lemmas_value_is_not_3())
    found = houdini(ts, lemmas_value_is_not_3(), assumed=plain.kept)
    assert found.kept == plain.kept == [0]
    assert found.dropped_consecution == 2
    check_lemmas(ts, lemmas_value_is_not_3(), found.kept)
