"""Constant sets of SSA values, and the bits every value of a set shares.

Why: programs such as RERS's event-condition-action systems keep their state in integers
that only ever hold a handful of constants (`a14` in {8, 9, 10}); as 32-bit words, every
comparison and every choice over them costs 32 bits in the circuit. If every value an SSA
value can take lies in a known finite set, the bits all members agree on are constants, and
the encoder may read the value with those bits fixed (`KnownBits.apply`): Boolector then folds
them away.

The analysis is a least fixpoint, proven by construction, not a guess: a constant's set is
itself; a phi's set is the union of its incoming values' sets, a select's the union of its two
choices'; every other instruction, an `undef` or a set grown past `limit` is unknown (None).
Each time a phi or select runs, its result is one of its operands' current values, and (SSA)
each operand was defined before, so by induction over the execution every runtime value of an
SSA value lies in its set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from llumc.frontend.cfg import Const, Function, Instr, Ref
from llumc.encoding.terms import Term, TermBuilder

LIMIT = 64


def constant_sets(fn: Function, limit: int = LIMIT, wanted: Iterable[int] | None = None,
                  instr_of: Callable[[int], Instr] | None = None) -> dict[int, frozenset[int]]:
    """Instruction key -> the finite set of values it may take, for the phis and selects whose
    operands are (transitively) only constants; the others are absent (unknown).

    `wanted` (with `instr_of`, key -> its instruction): only the values these keys depend on
    (through phi and select operands) are analysed. Their sets are the same: a set depends only
    on its sources', and the least fixpoint of a system closed under dependence is the whole
    system's fixpoint restricted to it. RERS programs ask for a few dozen of 84 000 selects."""
    # value key -> operand lists whose union is its set (phi: incoming; select: the choices)
    sources: dict[int, list] = {}
    users: dict[int, list[int]] = {}

    def add(ins: Instr) -> list | None:
        if ins.opcode == "phi":
            ops = [value for value, _pred in ins.incoming]
        elif ins.opcode == "select":
            ops = ins.operands[1:3]
        else:
            return None
        sources[ins.key] = ops
        for op in ops:
            if isinstance(op, Ref):
                users.setdefault(op.key, []).append(ins.key)
        return ops

    if wanted is None:
        for block in fn.blocks:
            for ins in block.instrs:
                add(ins)
    else:
        assert instr_of is not None
        seen = set(wanted)
        stack = list(seen)
        while stack:
            ops = add(instr_of(stack.pop()))
            for op in ops or ():
                if isinstance(op, Ref) and op.key not in seen:
                    seen.add(op.key)
                    stack.append(op.key)
    unknown: set[int] = set()
    sets: dict[int, set[int]] = {key: set() for key in sources}
    work = list(sources)
    queued = set(work)
    while work:
        key = work.pop()
        queued.discard(key)
        if key in unknown:
            continue
        values = sets[key]
        before = len(values)
        lost = False
        for op in sources[key]:
            if isinstance(op, Const):
                values.add(op.value)
            elif isinstance(op, Ref) and op.key in sets and op.key not in unknown:
                values |= sets[op.key]
            else:  # undef, or defined by an instruction this analysis does not follow
                lost = True
                break
            if len(values) > limit:
                lost = True
                break
        if lost:
            unknown.add(key)
        elif len(values) == before:
            continue
        for user in users.get(key, ()):
            if user not in queued and user not in unknown:
                queued.add(user)
                work.append(user)
    return {key: frozenset(values) for key, values in sets.items() if key not in unknown and values}


@dataclass(frozen=True)
class KnownBits:
    """Bits on which all values of a set agree: `mask` has them set, `value` gives them."""

    width: int
    mask: int
    value: int

    @staticmethod
    def of(values: frozenset[int], width: int) -> "KnownBits":
        full = (1 << width) - 1
        ones, zeros = full, full
        for v in values:
            ones &= v
            zeros &= ~v & full
        return KnownBits(width, ones | zeros, ones)

    def apply(self, tb: TermBuilder, term: Term) -> Term:
        """`term` with the known bits replaced by their constants: equal to `term` whenever its
        value is in the set the bits were computed from."""
        if self.mask == 0:
            return term
        free = tb.op("and", term, tb.const(~self.mask, self.width))
        return tb.op("or", free, tb.const(self.value, self.width))
