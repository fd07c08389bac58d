"""Bit-blasting through Boolector: word-level terms -> pyboolector nodes -> AIGER -> `AIG`.

Boolector is the SMT layer here as STP was for LLUMC: it rewrites the word-level formula
and bit-blasts it with its own (well-tested) adder, multiplier and divider circuits. We take
the bits out through `Dump("aag")`, which names bit i of variable v `v[i]` (a 1-bit variable
just `v`) and merges all asserted roots into one output. That merge is why every DimSpec
formula gets its own Boolector instance: one call of `blast` per formula.

Leaf naming: state variable j -> `s<j>`, its next-state copy -> `n<j>`, input k -> `i<k>`.
"""

from __future__ import annotations

import os
import re
import tempfile

import pyboolector

from llumc.aig import AIG
from llumc.terms import Term

# Boolector option ids (pyboolector takes the enum's integer). Looked up by name once.
_OPTION_IDS: dict[str, int] = {}

LEAF_PREFIX = {"state": "s", "next": "n", "input": "i"}
_LEAF_NAME = re.compile(r"^([sni])(\d+)(?:\[(\d+)\])?$")


def _option_id(btor: pyboolector.Boolector, name: str) -> int:
    if not _OPTION_IDS:
        for index, option in enumerate(btor.Options()):
            _OPTION_IDS[option.lng] = index
    return _OPTION_IDS[name]


def parse_leaf_bit(name: str) -> tuple[str, int, int]:
    """`s3[5]` -> ("state", 3, 5); `n2` -> ("next", 2, 0)."""
    match = _LEAF_NAME.match(name)
    if not match:
        raise ValueError(f"unexpected AIGER input name {name!r}")
    kind = {"s": "state", "n": "next", "i": "input"}[match.group(1)]
    return kind, int(match.group(2)), int(match.group(3) or 0)


_BINARY = {
    "add": "Add", "sub": "Sub", "mul": "Mul", "udiv": "Udiv", "urem": "Urem", "sdiv": "Sdiv",
    "srem": "Srem", "shl": "Sll", "lshr": "Srl", "ashr": "Sra", "and": "And", "or": "Or",
    "xor": "Xor", "eq": "Eq", "ult": "Ult", "slt": "Slt", "concat": "Concat",
    "saddo": "Saddo", "ssubo": "Ssubo", "smulo": "Smulo", "uaddo": "Uaddo", "usubo": "Usubo",
    "umulo": "Umulo",
}


def to_boolector(btor: pyboolector.Boolector, roots: list[Term]) -> list:
    """Boolector nodes for `roots` (shared sub-terms translated once)."""
    nodes: dict[int, object] = {}
    sorts: dict[int, object] = {}

    def sort(width: int):
        if width not in sorts:
            sorts[width] = btor.BitVecSort(width)
        return sorts[width]

    for root in roots:
        stack = [root]
        while stack:
            t = stack[-1]
            if t.uid in nodes:
                stack.pop()
                continue
            pending = [a for a in t.args if a.uid not in nodes]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            args = [nodes[a.uid] for a in t.args]
            if t.op == "const":
                node = btor.Const(format(t.param, f"0{t.width}b"), t.width)
            elif t.op in LEAF_PREFIX:
                node = btor.Var(sort(t.width), f"{LEAF_PREFIX[t.op]}{t.param}")
            elif t.op in _BINARY:
                node = getattr(btor, _BINARY[t.op])(*args)
            elif t.op == "not":
                node = btor.Not(args[0])
            elif t.op == "neg":
                node = btor.Neg(args[0])
            elif t.op == "ite":
                node = btor.Cond(*args)
            elif t.op == "zext":
                node = btor.Uext(args[0], t.width - t.args[0].width)
            elif t.op == "sext":
                node = btor.Sext(args[0], t.width - t.args[0].width)
            elif t.op == "extract":
                hi, lo = t.param  # type: ignore[misc]
                node = btor.Slice(args[0], hi, lo)
            else:
                raise ValueError(f"bitblast: unknown operator {t.op}")
            nodes[t.uid] = node
    return [nodes[r.uid] for r in roots]


def blast(roots: list[Term], aig: AIG, *, rewrite_level: int = 3) -> int:
    """Add the conjunction of the 1-bit `roots` to `aig`; return its literal."""
    for r in roots:
        if r.width != 1:
            raise ValueError("blast: roots must be 1-bit terms")
    roots = [r for r in roots if not (r.op == "const" and r.param == 1)]
    if any(r.op == "const" for r in roots):
        return 0  # a false root
    if not roots:
        return 1
    btor = pyboolector.Boolector()
    btor.Set_opt(_option_id(btor, "rewrite-level"), rewrite_level)
    for node in to_boolector(btor, roots):
        btor.Assert(node)
    with tempfile.TemporaryDirectory(prefix="llumc-aag-") as tmp:
        path = os.path.join(tmp, "formula.aag")
        btor.Dump("aag", path)
        with open(path) as f:
            text = f.read()
    outputs = aig.read_aag(text)
    if len(outputs) != 1:
        raise RuntimeError(f"Boolector's AIGER dump has {len(outputs)} outputs, expected 1")
    return outputs[0]
