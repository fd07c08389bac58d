"""Word-level transition system -> BTOR2 (Niemetz, Preiner, Wolf, Biere, CAV 2018).

Written from the terms before bit-blasting, so word-level model checkers (BtorMC, Pono,
AVR) see the additions, multiplications and comparisons, not their circuits. One node per
term (the terms are hash-consed, so shared sub-terms stay shared):

- `state` per state variable, named by its IR name (C names in the symbol map), with `init`
  where I fixes it to a constant, and `next` from `wts.next`;
- `input` per nondeterministic input, fresh in every step;
- `constraint` per conjunct of U (it restricts every step, the last included);
- `bad` for the conjunction of G;
- I that is not a reset value: a 1-bit state `llumc_initialised` (init 0, next 1) and the
  constraint `llumc_initialised | I`.

The operators map one to one: BTOR2's semantics of division by zero and of over-wide shifts
are SMT-LIB's, as those of `llumc.encoding.terms`. llumc's symbol map follows as `;` comments, with
node ids where the DimSpec map has variable ranges.
"""

from __future__ import annotations

from llumc.export import symbol_lines
from llumc.export.aiger import INIT_LATCH, _reset_values
from llumc.encoding.terms import Term, postorder
from llumc.encoding.transys import WordTransitionSystem

_OPS = {
    "add": "add", "sub": "sub", "mul": "mul", "udiv": "udiv", "urem": "urem", "sdiv": "sdiv", "srem": "srem",
    "shl": "sll", "lshr": "srl", "ashr": "sra", "and": "and", "or": "or", "xor": "xor", "eq": "eq", "ult": "ult",
    "slt": "slt", "concat": "concat", "saddo": "saddo", "ssubo": "ssubo", "smulo": "smulo", "uaddo": "uaddo",
    "usubo": "usubo", "umulo": "umulo", "not": "not", "neg": "neg", "ite": "ite",
}


def _symbol(name: str) -> str:
    """A BTOR2 symbol is one token."""
    return "".join(c if c.isprintable() and not c.isspace() else "_" for c in name) or "_"


def write_btor2(wts: WordTransitionSystem) -> str:
    """The BTOR2 text of `wts`."""
    lines: list[str] = []
    sorts: dict[int, int] = {}
    node: dict[int, int] = {}  # term uid -> node id
    next_id = [1]

    def emit(text: str) -> int:
        nid = next_id[0]
        next_id[0] += 1
        lines.append(f"{nid} {text}")
        return nid

    def sort(width: int) -> int:
        if width not in sorts:
            sorts[width] = emit(f"sort bitvec {width}")
        return sorts[width]

    def term(root: Term) -> int:
        for t in postorder(root, node):
            args = " ".join(str(node[a.uid]) for a in t.args)
            if t.op == "const":
                node[t.uid] = emit(f"const {sort(t.width)} {t.param:0{t.width}b}")
            elif t.op in _OPS:
                node[t.uid] = emit(f"{_OPS[t.op]} {sort(t.width)} {args}")
            elif t.op in ("zext", "sext"):
                extra = t.width - t.args[0].width
                node[t.uid] = emit(f"{'uext' if t.op == 'zext' else 'sext'} {sort(t.width)} {args} {extra}")
            elif t.op == "extract":
                hi, lo = t.param  # type: ignore[misc]
                node[t.uid] = emit(f"slice {sort(t.width)} {args} {hi} {lo}")
            else:
                raise ValueError(f"BTOR2 export: unexpected term {t.op}")
        return node[root.uid]

    tb = wts.terms
    reset, general = _reset_values(wts)
    for v in wts.state:
        node[tb.state(v.index, v.width).uid] = emit(f"state {sort(v.width)} {_symbol(v.name)}")
    for inp in wts.inputs:
        node[tb.input(inp.index, inp.width).uid] = emit(
            f"input {sort(inp.width)} {_symbol(f'{inp.site}:{inp.ir_name or inp.index}')}")
    initialised = None
    if general:
        initialised = emit(f"state {sort(1)} {INIT_LATCH}")
    for v in wts.state:
        if v.index in reset:
            value = term(tb.const(reset[v.index], v.width))
            emit(f"init {sort(v.width)} {node[tb.state(v.index, v.width).uid]} {value}")
    for v in wts.state:
        emit(f"next {sort(v.width)} {node[tb.state(v.index, v.width).uid]} {term(wts.next[v.index])}")
    if initialised is not None:
        emit(f"init {sort(1)} {initialised} {term(tb.false())}")
        emit(f"next {sort(1)} {initialised} {term(tb.true())}")
        emit(f"constraint {emit(f'or {sort(1)} {initialised} {term(tb.all_of(general))}')} initial_state")
    for k, u in enumerate(wts.universal):
        emit(f"constraint {term(u)} assume_{k}")
    emit(f"bad {term(tb.all_of(list(wts.goal)))} error_reachable")
    state_ids = [node[tb.state(v.index, v.width).uid] for v in wts.state]
    input_ids = [node[tb.input(i.index, i.width).uid] for i in wts.inputs]
    comments = [f"; {line}" for line in symbol_lines(wts, state_ids, input_ids, words=True)]
    return "\n".join(comments + lines) + "\n"
