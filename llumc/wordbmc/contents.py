"""Exact contents of abstract objects in the word-level BMC.

Why: an object of more cells than the exact bound is abstract in the system (docs/memory.md,
cell morphing): one tracked cell is exact, and every other read returns a havoc input. A
bounded search on that system finds paths where `a[i]` holds a value the program never wrote
there, which the native replay then refutes, and it cannot tell a real bug from those. The
word-level BMC follows one unrolling of the program, so it can keep what the program wrote
instead: per abstract object an SMT array (Boolector's theory of arrays) of its cells, updated
by each write (`MemoryObject.content_writes`) under the write's condition, and each read
(`ContentRead`) tied to the cell it reads. "Fill 100 000 cells, then find the wrong one" is
then a path of the unrolling whose reads hold what the loop wrote.

How the terms stay small. The array is a chain of `store`s that Boolector sees only when a read
needs it. Writes at indices the unrolling has folded to constants (`a[i] = v` with `i` known)
also go into a map cell -> value (`known`), so that a read at a known index is the value
written there, not a `select` over 100 000 `store`s: a loop that fills and checks an array
folds to constants wherever its data is known. A write at a symbolic index (`a[k] = x`, `k` an
input) is kept in a list, and a read at a known index folds the few such writes made since its
cell was last known (`ite(k == c, x, old)`); past `MAX_FOLD` of them, or at a symbolic index,
the read is a `select` on the array, within a budget per unrolling (`SelectBudget`).

Soundness: every value a read gets is the value of that cell after the writes before it, in
their order, each under the condition that it ran; the read's havoc input is then asserted
equal to it, so a model is a path of the abstract system whose havoc values are what the
memory holds, and the native replay confirms it like any other trace. Where the contents are
not followed (a write of another size, an unaligned cell, a read of another size), the read
keeps its havoc value: the unrolling over-approximates there, as the system does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from llumc.encoding.memory import OFFSET_BITS
from llumc.encoding.terms import Term, TermBuilder

# a read at a known index folds at most this many writes at symbolic indices made since its
# cell's value was last known; beyond, it reads the array (Boolector resolves it)
MAX_FOLD = 32
# a non-uniform initializer with more cells than this differing from its commonest value gives
# the array free initial contents (a read at a known index still gets the initializer's value)
MAX_INITIAL_STORES = 4096


@dataclass
class SelectBudget:
    """Reads of arrays with writes (`select` over `store`s) left to the whole unrolling. Why a
    budget: a loop that reads at a symbolic index each step asks Boolector about a new read of
    a longer chain each time, and its lemma loop over hundreds of them ran for minutes past
    the terminate callback (a fill of `n` cells then `a[k] == 2*k` for `k < n`). Beyond it a
    read keeps its havoc value (as the system has it) and a conditional write at a symbolic
    index ends the following of its object."""

    left: int = 64


@dataclass
class ObjectContents:
    """The cells of one abstract object along the unrolling (see the module's docstring)."""

    tb: TermBuilder
    name: str
    cell: int  # bytes per cell
    initial: bytes | None  # static contents; None: any
    base: Term  # the array of the initial contents
    array: Term  # the array after every write so far
    known: dict[int, tuple[int, Term]] = field(default_factory=dict)  # cell -> (symbolic writes then, value)
    symbolic: list[tuple[Term, Term, Term]] = field(default_factory=list)  # (condition, index, value)
    lost: bool = False  # a write this model cannot follow ran: reads keep their havoc values
    budget: SelectBudget = field(default_factory=SelectBudget)
    uniform: int | None = None  # every cell's initial value, where all are the same
    size: int = 0  # bytes; 0 where the object's size is not constant

    @classmethod
    def of(cls, tb: TermBuilder, obj, budget: SelectBudget | None = None) -> "ObjectContents":
        width, index_width = 8 * obj.cell, cls.index_width(obj.cell)
        initial = obj.initial
        name = f"mem_{obj.id}"
        uniform = None
        if initial is None:
            base = tb.unfolded("array", width, (), (name, index_width, None))
        else:
            values = [int.from_bytes(initial[k:k + obj.cell], "little") for k in range(0, len(initial), obj.cell)]
            common = Counter(values).most_common(1)[0][0] if values else 0
            differing = [(k, v) for k, v in enumerate(values) if v != common]
            uniform = None if differing else common
            if len(differing) > MAX_INITIAL_STORES:
                base = tb.unfolded("array", width, (), (name, index_width, None))
            else:
                base = tb.unfolded("array", width, (), (name, index_width, common))
                for k, v in differing:
                    base = tb.unfolded("store", width, (base, tb.const(k, index_width), tb.const(v, width)))
        # (a summary's size is one node's: no write covers the whole object)
        size = 0 if getattr(obj, "size_operands", None) or getattr(obj, "summary", False) else getattr(obj, "size", 0)
        return cls(tb, name, obj.cell, initial, base, base, uniform=uniform, size=size,
                   budget=budget or SelectBudget())

    @staticmethod
    def index_width(cell: int) -> int:
        return OFFSET_BITS - (cell.bit_length() - 1)

    def index(self, offset: Term) -> tuple[Term, Term]:
        """(the cell index of a byte offset, the offset is a cell boundary)."""
        tb = self.tb
        shift = self.cell.bit_length() - 1
        if not shift or trailing_zeros(offset) >= shift:
            return (offset if not shift else tb.extract(offset, OFFSET_BITS - 1, shift)), tb.true()
        aligned = tb.eq(tb.extract(offset, shift - 1, 0), tb.const(0, shift))
        return tb.extract(offset, OFFSET_BITS - 1, shift), aligned

    def _initial_cell(self, cell: int) -> Term:
        if self.uniform is not None:
            return self.tb.const(self.uniform, 8 * self.cell)
        if self.initial is None:
            return self._select(self.base, self.tb.const(cell, self.index_width(self.cell)))
        chunk = self.initial[cell * self.cell:(cell + 1) * self.cell]
        return self.tb.const(int.from_bytes(chunk, "little"), 8 * self.cell)

    def _select(self, array: Term, index: Term) -> Term | None:
        """A read of `array`; None where it has writes and the unrolling's budget of such reads
        is spent (`SelectBudget`)."""
        if array is not self.base:
            if self.budget.left <= 0:
                return None
            self.budget.left -= 1
        return self.tb.unfolded("select", 8 * self.cell, (array, index))

    def read(self, index: Term) -> Term | None:
        """The cell at `index` after every write so far; None where that would take a read of
        the array beyond the budget."""
        if index.op != "const":
            return self._select(self.array, index)
        cell: int = index.param  # type: ignore[assignment]
        since, value = self.known.get(cell) or (0, None)
        if len(self.symbolic) - since > MAX_FOLD:
            return self._select(self.array, index)
        if value is None:
            value = self._initial_cell(cell)
        tb = self.tb
        for condition, where, written in self.symbolic[since:]:
            value = tb.ite(tb.and_(condition, tb.eq(where, index)), written, value)
        self.known[cell] = (len(self.symbolic), value)
        return value

    def fill(self, condition: Term, value: Term, name: str) -> bool:
        """Every cell := `value` where `condition` holds: a constant cell value (a memset of the
        whole object), or any contents (an `input` leaf: a lifetime's start, whose contents are
        undefined), a fresh array `name`. False where this cannot be followed (another value,
        or a condition that is not known to hold)."""
        if not (condition.op == "const" and condition.param == 1):
            return False
        width, index_width = 8 * self.cell, self.index_width(self.cell)
        if value.op == "const":
            self.base = self.tb.unfolded("array", width, (), (name, index_width, value.param))
            self.uniform = value.param  # type: ignore[assignment]
        elif value.op == "input":
            self.base = self.tb.unfolded("array", width, (), (name, index_width, None))
            self.uniform = None
        else:
            return False
        self.initial = None
        self.array, self.known, self.symbolic = self.base, {}, []
        return True

    def write(self, condition: Term, index: Term, value: Term) -> None:
        """Cell `index` := `value` where `condition` holds."""
        tb = self.tb
        if condition.op == "const" and condition.param == 0:
            return
        conditional = not (condition.op == "const" and condition.param == 1)
        old = None
        if conditional:
            old = self.read(index) if index.op == "const" else self._select(self.array, index)
            if old is None:
                self.lost = True  # the budget is spent: the object is no longer followed
                return
        new = tb.ite(condition, value, old) if old is not None else value
        if index.op == "const":
            self.known[index.param] = (len(self.symbolic), new)  # type: ignore[index]
        else:
            self.symbolic.append((condition, index, value))
        self.array = self.tb.unfolded("store", 8 * self.cell, (self.array, index, new))


def exact_objects(word) -> list:
    """The abstract objects whose contents the unrolling can follow: those with a tracked cell
    (their reads and writes are recorded), of cells of a power of two bytes."""
    return [obj for obj in getattr(word, "memory_objects", [])
            if getattr(obj, "abstract", False) and getattr(obj, "tracked_value", None) is not None
            and (obj.content_reads or obj.content_writes) and obj.cell & (obj.cell - 1) == 0]


def trailing_zeros(t: Term, depth: int = 12) -> int:
    """Low bits of `t` known to be 0 from its shape (`k * 4` has two): the cell boundary of an
    offset computed as index times element size, which folding alone does not show."""
    op = t.op
    if op == "const":
        value: int = t.param  # type: ignore[assignment]
        return t.width if value == 0 else (value & -value).bit_length() - 1
    if depth == 0:
        return 0
    args = t.args
    if op == "mul":
        return min(t.width, trailing_zeros(args[0], depth - 1) + trailing_zeros(args[1], depth - 1))
    if op in ("add", "sub", "or", "xor", "ite"):
        return min(trailing_zeros(a, depth - 1) for a in (args[1:] if op == "ite" else args))
    if op == "and":
        return max(trailing_zeros(a, depth - 1) for a in args)
    if op == "shl" and args[1].op == "const":
        return min(t.width, trailing_zeros(args[0], depth - 1) + args[1].param)  # type: ignore[operator]
    if op == "concat":
        low = trailing_zeros(args[1], depth - 1)
        return low if low < args[1].width else low + trailing_zeros(args[0], depth - 1)
    if op == "extract":
        hi, lo = t.param  # type: ignore[misc]
        return max(0, min(t.width, trailing_zeros(args[0], depth - 1) - lo))
    if op in ("zext", "sext"):
        inner = trailing_zeros(args[0], depth - 1)
        return t.width if inner >= args[0].width else inner
    return 0
