"""Facts about every cell, used where a loop reads a cell (docs/invariants.md, "Facts used at reads").

A fact proven about the tracked cell of an abstract object x at a cut point c, say
`idx < n ⇒ x[#] == 1`, holds for every cell: take any run of the program and any cell j;
the abstract system follows the run with the tracked index chosen as j (docs/memory.md, cell
morphing), so at every visit of c the fact holds with idx = j and x[#] = the contents of cell j.
A read of x at the start of a step from c (no memory update before it in the step) returns
the contents of the cell at its offset, so the havoc value the abstract system gives it can be
restricted to what the fact says about that cell: `i < n ⇒ r == 1` for the read `r` of `a[i]`.
Every run of the program satisfies the restriction, so the restricted system still contains
every run, and a proof on it (`sum == i` in the loop that adds the cells up) holds for the program.
The facts the restriction rests on are checked inductive on the unrestricted system, the
proof's own facts on the restricted one (`llumc.invariants.houdini.Strengthening.check`).
"""

from __future__ import annotations

from llumc.encoding.memory import OFFSET_BITS
from llumc.encoding.terms import Term, TermBuilder, postorder, state_leaves, substitute
from llumc.encoding.wordsys import WordTransitionSystem
from llumc.invariants.candidates import Candidate


# instances at most (facts times reads): each is a circuit in every step of the engines' system
MAX_INSTANCES = 512


def content_instances(word: WordTransitionSystem, kept: list[Candidate]) -> list[Term]:
    """For each kept fact about the tracked cell of one object (and no other object's tracked
    cell) and each `ContentRead` of that object in a step from the fact's cut point:
    `curr == cut ∧ the read runs and hits x at a cell of index j ⇒ fact[idx := j, x[#] := r]`,
    a 1-bit term over the step's state and inputs; at most MAX_INSTANCES (any subset is sound:
    each one holds on every run by itself). A fact about both tracked cells of an object
    (`pair_index`: `k < l ⇒ x[k] <= x[l]`) gets one instance per read and cell, the other cell
    kept: it holds for every two cells, so for the cell read and the other tracked one."""
    tb = word.terms
    curr = word.curr
    codes = {b.name: b.code for b in word.blocks}
    tracked = [obj for obj in word.memory_objects
               if getattr(obj, "tracked_value", None) is not None
               and (len(getattr(obj, "tracked_fields", ())) == 1 or getattr(obj, "summary", False))
               and any(_usable(read) for read in getattr(obj, "content_reads", ()))]
    by_value = {value.index: obj for obj in tracked for _index, _offset, value in obj.tracked_cells()}
    memory_leaves = {v.index for v in word.state if v.kind == "memory"}
    out: list[Term] = []
    for cand in kept:
        if cand.kind != "tracked" or cand.cut not in codes:
            continue
        leaves = state_leaves(cand.term)
        objects = {id(by_value[i]): by_value[i] for i in leaves if i in by_value}
        if len(objects) != 1:
            continue  # about two objects (a copy) or none with reads
        (obj,) = objects.values()
        cells = [(index, offset, value) for index, offset, value in obj.tracked_cells() if value.index in leaves]
        element = len(obj.tracked_fields) > 1  # a summary's node: a fact about one of its cells
        if element and len(cells) != 1:
            continue  # about two cells of the node: a read sees one
        allowed = {var.index for cell in obj.tracked_cells() for var in (cell[0], cell[2])} | \
            ({obj.size_var.index} if getattr(obj, "size_var", None) is not None else set()) | \
            ({obj.pool_runs.index} if getattr(obj, "pool_runs", None) is not None else set())
        if any(i in memory_leaves and i not in allowed for i in leaves):
            continue  # about another object's memory state
        at_cut = tb.eq(tb.state(curr.index, curr.width), tb.const(codes[cand.cut], curr.width))
        far = _far_node(obj)
        numbered = far is not None and _numbers_nodes(cand.term, obj)
        for read in obj.content_reads:
            if read.head != cand.cut or not _usable(read):
                continue
            untouched = _untouched(tb, obj, read)
            for index_var, field, value_var in cells:  # a fact about two cells: one at a time
                index, fits = _element_index(tb, read.offset, obj.tracked_stride, field, index_var.width) \
                    if element else _cell_index(tb, read.offset, obj.cell, index_var.width)
                images = {index_var.index: index, value_var.index: read.value}
                body = substitute(cand.term, lambda t: images.get(t.param, t) if t.op == "state" else t, tb, {})
                guard = tb.and_(tb.and_(tb.and_(at_cut, read.condition), fits), untouched)
                if numbered:  # (the far node's blocks have no number of their own: `_far_node`)
                    guard = tb.and_(guard, tb.not_(tb.eq(index, tb.const(far, index.width))))
                out.append(tb.or_(tb.not_(guard), body))
                if len(out) >= MAX_INSTANCES:
                    return out
    return out


def _far_node(obj) -> int | None:
    """A summary's far node (llumc.encoding.memory `_summary_call`), which every run past the
    numbered ones hands out: None for other objects. A fact about every node holds at a read
    of it only where it says nothing about the node's number but that it is handed out: the
    fact is proven for every block as the tracked one, a far block's being node far + 1, and
    among the blocks the far node stands for the numbers mean nothing (`_numbers_nodes`)."""
    return getattr(obj, "far_node", None) if getattr(obj, "summary", False) else None


def _numbers_nodes(term: Term, obj) -> bool:
    """The fact reads the tracked node's number other than in its premise `k < x.runs` (the
    links' order, `... points to a node of x below k`; a value that is the node's number)."""
    index, runs = obj.tracked_index.index, obj.pool_runs.index
    reads_index: dict[int, bool] = {}  # uid -> the term reads k outside a premise `ext(k) < ext(runs)`
    for t in postorder(term, reads_index):
        if t.op == "ult" and state_leaves(t.args[0]) == {index} and state_leaves(t.args[1]) == {runs}:
            reads_index[t.uid] = False
        elif t.op == "state":
            reads_index[t.uid] = t.param == index
        else:
            reads_index[t.uid] = any(reads_index[a.uid] for a in t.args)
    return reads_index[term.uid]


def _usable(read) -> bool:
    """A read whose value a fact about the step's start describes: no memory update precedes it
    in its step, or (a summary's) only writes of the object it can tell apart (`_untouched`)."""
    return read.fresh or read.step_writes is not None


def _untouched(tb: TermBuilder, obj, read) -> Term:
    """None of the step's writes of `obj` before `read` covers the cell it reads: then the cell
    holds what it held at the step's start (true for a fresh read)."""
    if read.fresh:
        return tb.true()
    first, last = read.step_writes
    untouched = tb.true()
    for write in obj.content_writes[first:last]:
        if not write.size:
            return tb.false()  # (a write of unknown extent: no instance)
        relative = tb.op("sub", read.offset, write.offset)
        covers = tb.and_(write.condition, tb.op("ult", relative, tb.const(write.size, relative.width)))
        untouched = tb.and_(untouched, tb.not_(covers))
    return untouched


def _element_index(tb: TermBuilder, offset: Term, stride: int, field: int, width: int) -> tuple[Term, Term]:
    """(the element index of a byte offset at `width` bits, the offset is the cell at byte
    `field` of an element of `stride` bytes, a power of two, whose index fits that width)."""
    shift = stride.bit_length() - 1
    at_field = tb.eq(tb.extract(offset, shift - 1, 0), tb.const(field, shift)) if shift else tb.true()
    below = tb.op("ult", offset, tb.const(stride << width, OFFSET_BITS)) if shift + width < OFFSET_BITS else tb.true()
    return tb.extract(offset, shift + width - 1, shift), tb.and_(at_field, below)


def _cell_index(tb: TermBuilder, offset: Term, cell: int, width: int) -> tuple[Term, Term]:
    """(the cell index of a byte offset at `width` bits, the offset is a cell boundary whose
    index fits that width)."""
    shift = cell.bit_length() - 1
    aligned = tb.true() if shift == 0 else tb.eq(tb.extract(offset, shift - 1, 0), tb.const(0, shift))
    below = tb.op("ult", offset, tb.const(cell << width, OFFSET_BITS)) if shift + width < OFFSET_BITS else tb.true()
    return tb.extract(offset, shift + width - 1, shift), tb.and_(aligned, below)
