"""A small BTOR2 reader for the tests: parses a model back into `llumc.encoding.terms` terms.

PyPI has no kept-up BTOR2 parser (pono 0.1.1 dates from 2020, btor2-opt calls itself very
basic), so this reads the subset of BTOR2 (bit-vector sorts, no arrays) that a
word-level transition system needs, checking each line's sort as a BTOR2 tool would. It is
independent of `llumc.export.btor2`: only the term language is shared, and the tests evaluate
the parsed terms against the exporter's input.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llumc.encoding.terms import Term, TermBuilder

_BINARY = {
    "add": "add", "sub": "sub", "mul": "mul", "udiv": "udiv", "urem": "urem", "sdiv": "sdiv", "srem": "srem",
    "sll": "shl", "srl": "lshr", "sra": "ashr", "and": "and", "or": "or", "xor": "xor", "eq": "eq", "ult": "ult",
    "slt": "slt", "concat": "concat", "saddo": "saddo", "ssubo": "ssubo", "smulo": "smulo", "uaddo": "uaddo",
    "usubo": "usubo", "umulo": "umulo",
}


class Btor2Error(ValueError):
    pass


@dataclass
class Btor2Model:
    terms: TermBuilder
    states: list[tuple[int, int, str]] = field(default_factory=list)  # (node id, width, symbol), in order
    inputs: list[tuple[int, int, str]] = field(default_factory=list)
    init: dict[int, Term] = field(default_factory=dict)  # state position -> initial value
    next: dict[int, Term] = field(default_factory=dict)  # state position -> next-state term
    constraints: list[Term] = field(default_factory=list)
    bad: list[Term] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def read_btor2(text: str) -> Btor2Model:
    """Terms over `state` k (the k-th state line) and `input` k (the k-th input line)."""
    tb = TermBuilder()
    model = Btor2Model(tb)
    sorts: dict[int, int] = {}
    nodes: dict[int, Term] = {}
    state_pos: dict[int, int] = {}

    def arg(token: str, lineno: int) -> Term:
        nid = int(token)
        term = nodes.get(abs(nid))
        if term is None:
            raise Btor2Error(f"line {lineno}: node {nid} used before it is defined")
        return tb.not_(term) if nid < 0 else term

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith(";"):
            model.comments.append(line[1:].strip())
            continue
        tokens = line.split(";")[0].split()
        nid, tag, rest = int(tokens[0]), tokens[1], tokens[2:]
        if nid in nodes or nid in sorts:
            raise Btor2Error(f"line {lineno}: node {nid} defined twice")
        if tag == "sort":
            if rest[0] != "bitvec":
                raise Btor2Error(f"line {lineno}: sort {rest[0]} not supported")
            sorts[nid] = int(rest[1])
            continue
        if tag in ("constraint", "bad"):
            term = arg(rest[0], lineno)
            if term.width != 1:
                raise Btor2Error(f"line {lineno}: {tag} of width {term.width}")
            (model.constraints if tag == "constraint" else model.bad).append(term)
            continue
        width = sorts[int(rest[0])]
        if tag == "state":
            state_pos[nid] = len(model.states)
            model.states.append((nid, width, rest[1] if len(rest) > 1 else ""))
            term = tb.state(state_pos[nid], width)
        elif tag == "input":
            term = tb.input(len(model.inputs), width)
            model.inputs.append((nid, width, rest[1] if len(rest) > 1 else ""))
        elif tag in ("init", "next"):
            target, value = int(rest[1]), arg(rest[2], lineno)
            if target not in state_pos:
                raise Btor2Error(f"line {lineno}: {tag} of node {target}, which is no state")
            if value.width != width or model.states[state_pos[target]][1] != width:
                raise Btor2Error(f"line {lineno}: {tag} with a value of the wrong sort")
            table = model.init if tag == "init" else model.next
            if state_pos[target] in table:
                raise Btor2Error(f"line {lineno}: second {tag} of state {target}")
            table[state_pos[target]] = value
            continue
        elif tag == "const":
            term = tb.const(int(rest[1], 2), width)
            if len(rest[1]) != width:
                raise Btor2Error(f"line {lineno}: constant of {len(rest[1])} digits for width {width}")
        elif tag in _BINARY:
            term = tb.op(_BINARY[tag], arg(rest[1], lineno), arg(rest[2], lineno))
        elif tag in ("not", "neg"):
            term = tb.op(tag, arg(rest[1], lineno))
        elif tag == "ite":
            term = tb.ite(arg(rest[1], lineno), arg(rest[2], lineno), arg(rest[3], lineno))
        elif tag in ("uext", "sext"):
            a = arg(rest[1], lineno)
            if a.width + int(rest[2]) != width:
                raise Btor2Error(f"line {lineno}: {tag} to the wrong width")
            term = tb.zext(a, width) if tag == "uext" else tb.sext(a, width)
        elif tag == "slice":
            term = tb.extract(arg(rest[1], lineno), int(rest[2]), int(rest[3]))
        else:
            raise Btor2Error(f"line {lineno}: operator {tag} not supported")
        if term.width != width:
            raise Btor2Error(f"line {lineno}: {tag} has width {term.width}, its sort says {width}")
        nodes[nid] = term
    return model
