"""Bit-blasting through Boolector: word-level terms -> pyboolector nodes -> AIGER -> `AIG`.

Boolector is the SMT layer here as STP was for LLUMC: it rewrites the word-level formula
and bit-blasts it with its own (well-tested) adder, multiplier and divider circuits. We take
the bits out through `Dump("aag")`, which names bit i of variable v `v[i]` (a 1-bit variable
just `v`) and merges all asserted roots into one output. That merge is why every DimSpec
formula gets its own Boolector instance: one call of `blast` per formula.

Terms go into Boolector in the order they were made (by uid), not in a walk from the roots:
Boolector orders commutative operands by when their nodes were made, so the order shapes the
circuit (never its meaning), and this is the order `llumc.bitblast.blast_ahead` can use while the
encoder is still making the terms: with or without it, the same circuit.

Leaf naming: state variable j -> `s<j>`, its next-state copy -> `n<j>`, input k -> `i<k>`,
auxiliary quotient/remainder k of a division -> `d<k>` (fresh per Boolector instance).

Division (`division="aux"`, the default of `blast`): Boolector's divider costs about 24 800
clauses per 32-bit udiv/urem (restoring array). We encode q = a udiv b, r = a urem b instead
as fresh auxiliary bit-vectors constrained by the usual SMT identity, which needs only a
multiplier: b != 0 -> a = q*b + r, q*b and q*b + r do not overflow, r < b; b = 0 -> q = ~0,
r = a (SMT-LIB). q and r are unique, so the constraint defines them functionally and adds no
behaviour. Signed division works on absolute values, as bvsdiv/bvsrem are defined. Measured
(32 bits, `out = x urem y`): 13 590 clauses instead of 24 863; at 8 bits 1 062 instead of 1 391.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing.util
import os
import re
import shutil
import tempfile
import threading
from operator import attrgetter

import pyboolector

from llumc.bitblast.aig import AIG
from llumc.encoding.terms import Term

# Boolector option ids (pyboolector takes the enum's integer). Looked up by name once.
_OPTION_IDS: dict[str, int] = {}

LEAF_PREFIX = {"state": "s", "next": "n", "input": "i"}
_ARRAY_OPS = ("select", "store", "array")
_LEAF_NAME = re.compile(r"^([snid])(\d+)(?:\[(\d+)\])?$")
DIVISION_MODES = ("aux", "native")


def _option_id(btor: pyboolector.Boolector, name: str) -> int:
    if not _OPTION_IDS:
        for index, option in enumerate(btor.Options()):
            _OPTION_IDS[option.lng] = index
    return _OPTION_IDS[name]


def parse_leaf_bit(name: str) -> tuple[str, int, int]:
    """`s3[5]` -> ("state", 3, 5); `n2` -> ("next", 2, 0); `d4[1]` -> ("div", 4, 1)."""
    match = _LEAF_NAME.match(name)
    if not match:
        raise ValueError(f"unexpected AIGER input name {name!r}")
    kind = {"s": "state", "n": "next", "i": "input", "d": "div"}[match.group(1)]
    return kind, int(match.group(2)), int(match.group(3) or 0)


_BINARY = {
    "add": "Add", "sub": "Sub", "mul": "Mul", "udiv": "Udiv", "urem": "Urem", "sdiv": "Sdiv",
    "srem": "Srem", "shl": "Sll", "lshr": "Srl", "ashr": "Sra", "and": "And", "or": "Or",
    "xor": "Xor", "eq": "Eq", "ult": "Ult", "slt": "Slt", "concat": "Concat",
    "saddo": "Saddo", "ssubo": "Ssubo", "smulo": "Smulo", "uaddo": "Uaddo", "usubo": "Usubo",
    "umulo": "Umulo",
}


_DIVISIONS = ("udiv", "urem", "sdiv", "srem")


def _auxiliary_division_pays(t: Term) -> bool:
    """Where the auxiliary-variable division is smaller than Boolector's divider (measured,
    clauses of `out = x op d`): a variable divisor from 8 bits on (urem 8 bits 1 070 vs 1 391,
    32 bits 13 622 vs 24 863; at 4 bits 322 vs 279); a constant divisor that is not a power of
    two from 16 bits on (urem 7 at 32 bits 2 330 vs 7 399, at 8 bits 482 vs 403); never for a
    power of two, which Boolector rewrites into slices (x urem 2 at 32 bits: 33 clauses)."""
    divisor = t.args[1]
    if divisor.op != "const":
        return t.width >= 8
    value = divisor.param
    return t.width >= 16 and value & (value - 1) != 0


def to_boolector(btor: pyboolector.Boolector, roots: list[Term], *, division: str = "native",
                 side: list | None = None) -> list:
    """Boolector nodes for `roots` (shared sub-terms translated once). With `division="aux"`
    divisions become fresh variables `d<k>` whose defining constraints are appended to `side`
    (the caller must assert them)."""
    if division == "aux" and side is None:
        raise ValueError("division='aux' needs a list for the side constraints")
    translator = Translator(btor, division=division)
    # the terms under the roots, translated in the order they were made (their uids): the
    # order `llumc.bitblast.blast_ahead` translates them in, so both give the same circuit (Boolector
    # orders commutative operands by when their nodes were made)
    cone: set[int] = set()
    under: list[Term] = []
    stack = list(roots)
    while stack:
        t = stack.pop()
        if t.uid not in cone:
            cone.add(t.uid)
            under.append(t)
            stack.extend(t.args)
    under.sort(key=attrgetter("uid"))
    for t in under:
        translator.translate(t)
    nodes = translator.nodes
    if side is not None:
        side.extend(translator.side.values())
    return [nodes[r.uid] for r in roots]


class Translator:
    """Terms into one Boolector instance (`translate`), each after its arguments: by uid,
    the order they were made in (`to_boolector` those under its roots, `llumc.bitblast.blast_ahead`
    every term as it comes). With `division="aux"` a division becomes fresh
    variables `d<k>` defined by a side constraint, kept per (signedness, operands) in `side`
    and named in `division_of` for each division term (the caller asserts those it needs)."""

    def __init__(self, btor: pyboolector.Boolector, *, division: str = "native"):
        if division not in DIVISION_MODES:
            raise ValueError(f"unknown division mode {division}")
        self.nodes: dict[int, object] = {}  # term uid -> Boolector node
        self.side: dict[tuple[bool, int, int], object] = {}  # division key -> its constraint
        self.division_of: dict[int, tuple[bool, int, int]] = {}  # division term uid -> key
        self.translate = self._translator(btor, division == "aux")

    def _translator(self, btor: pyboolector.Boolector, aux: bool):
        nodes, side, division_of = self.nodes, self.side, self.division_of
        sorts: dict[int, object] = {}
        divmods: dict[tuple[bool, int, int], tuple[object, object]] = {}

        def sort(width: int):
            if width not in sorts:
                sorts[width] = btor.BitVecSort(width)
            return sorts[width]

        def const(value: int, width: int):
            return btor.Const(format(value & ((1 << width) - 1), f"0{width}b"), width)

        def unsigned_divmod(key, a, b, width: int, dividend: int | None):
            """Fresh q, r with a = q*b + r exactly, r < b (b != 0); q = ~0, r = a (b = 0). A
            constant dividend bounds q and r (both <= a when b != 0): they get only its bits, and
            the product is computed exactly at width + those bits (cheap: few partial products)."""
            by_zero = btor.Eq(b, const(0, width))
            first = 2 * len(divmods)
            if dividend is None or dividend.bit_length() >= width:
                q, r = btor.Var(sort(width), f"d{first}"), btor.Var(sort(width), f"d{first + 1}")
                product = btor.Mul(q, b)
                exact = btor.And(btor.And(btor.Eq(a, btor.Add(product, r)), btor.Not(btor.Umulo(q, b))),
                                 btor.And(btor.Not(btor.Uaddo(product, r)), btor.Ult(r, b)))
                side[key] = btor.Cond(by_zero, btor.And(btor.Eq(q, const(-1, width)), btor.Eq(r, a)), exact)
                return q, r
            narrow = max(1, dividend.bit_length())
            q_bits, r_bits = btor.Var(sort(narrow), f"d{first}"), btor.Var(sort(narrow), f"d{first + 1}")
            wide = width + narrow + 1

            def widen(node, bits: int):
                return btor.Uext(node, wide - bits)

            r = btor.Uext(r_bits, width - narrow)
            exact = btor.And(btor.Eq(widen(a, width), btor.Add(btor.Mul(widen(q_bits, narrow), widen(b, width)),
                                                                 widen(r_bits, narrow))),
                             btor.Ult(r, b))
            side[key] = btor.Cond(by_zero, btor.Eq(r, a), exact)
            return btor.Cond(by_zero, const(-1, width), btor.Uext(q_bits, width - narrow)), r

        def division_node(t: Term, a, b):
            signed = t.op in ("sdiv", "srem")
            key = (signed, t.args[0].uid, t.args[1].uid)
            division_of[t.uid] = key
            if key not in divmods:
                dividend = t.args[0].param if t.args[0].op == "const" else None
                if signed:
                    if dividend is not None:
                        dividend = abs(dividend - (1 << t.width) if dividend >> (t.width - 1) else dividend)
                    zero = const(0, t.width)
                    a_neg, b_neg = btor.Slt(a, zero), btor.Slt(b, zero)
                    q, r = unsigned_divmod(key, btor.Cond(a_neg, btor.Neg(a), a), btor.Cond(b_neg, btor.Neg(b), b),
                                           t.width, dividend)
                    divmods[key] = (btor.Cond(btor.Xor(a_neg, b_neg), btor.Neg(q), q), btor.Cond(a_neg, btor.Neg(r), r))
                else:
                    divmods[key] = unsigned_divmod(key, a, b, t.width, dividend)
            q, r = divmods[key]
            return q if t.op in ("udiv", "sdiv") else r

        def array_node(t: Term):
            """The word-level BMC's memory (llumc.wordbmc.contents): `array` (param: name,
            index width, the value of every element or None for any contents), `store`
            (array, index, value) and `select` (array, index); an array term's width is its
            elements'. Never bit-blasted: only the unrolling's terms hold them."""
            if t.op == "select":
                return btor.Read(*[nodes[a.uid] for a in t.args])
            if t.op == "store":
                return btor.Write(*[nodes[a.uid] for a in t.args])
            name, index_width, value = t.param  # type: ignore[misc]
            array_sort = btor.ArraySort(sort(index_width), sort(t.width))
            return btor.Array(array_sort, name) if value is None else btor.ConstArray(array_sort, const(value, t.width))

        binary = {op: getattr(btor, name) for op, name in _BINARY.items()}  # bound methods, once

        def translate(t: Term) -> None:
            """`nodes[t.uid]`, from the nodes of its arguments."""
            op = t.op
            method = binary.get(op)  # the operators are disjoint: the commonest tests first
            if method is not None:
                if aux and op in _DIVISIONS and _auxiliary_division_pays(t):
                    node = division_node(t, *[nodes[a.uid] for a in t.args])
                else:
                    a, b = t.args
                    node = method(nodes[a.uid], nodes[b.uid])
            elif op == "ite":
                c, a, b = t.args
                node = btor.Cond(nodes[c.uid], nodes[a.uid], nodes[b.uid])
            elif op == "not":
                node = btor.Not(nodes[t.args[0].uid])
            elif op == "const":
                node = btor.Const(format(t.param, f"0{t.width}b"), t.width)
            elif op in LEAF_PREFIX:
                node = btor.Var(sort(t.width), f"{LEAF_PREFIX[op]}{t.param}")
            elif op == "neg":
                node = btor.Neg(nodes[t.args[0].uid])
            elif op == "zext":
                node = btor.Uext(nodes[t.args[0].uid], t.width - t.args[0].width)
            elif op == "sext":
                node = btor.Sext(nodes[t.args[0].uid], t.width - t.args[0].width)
            elif op == "extract":
                hi, lo = t.param  # type: ignore[misc]
                node = btor.Slice(nodes[t.args[0].uid], hi, lo)
            elif op in _ARRAY_OPS:
                node = array_node(t)
            else:
                raise ValueError(f"bitblast: unknown operator {t.op}")
            nodes[t.uid] = node

        return translate

    def side_constraints(self, roots: list[Term]) -> list:
        """The side constraints of the divisions under `roots` (their cone walked only when
        some division was translated)."""
        if not self.side:
            return []
        needed: set[tuple[bool, int, int]] = set()
        seen: set[int] = set()
        stack = list(roots)
        while stack:
            t = stack.pop()
            if t.uid in seen:
                continue
            seen.add(t.uid)
            key = self.division_of.get(t.uid)
            if key is not None:
                needed.add(key)
            stack.extend(t.args)
        return [node for key, node in self.side.items() if key in needed]


def blast(roots: list[Term], aig: AIG, *, rewrite_level: int = 3, division: str = "aux",
          dump=None) -> int:
    """Add the conjunction of the 1-bit `roots` to `aig`; return its literal. Division
    auxiliaries (`d<k>` inputs of the AIG) are existentially quantified, functionally defined.
    `dump`: a function giving Boolector's dump of the roots with variable substitution (as
    `_dump_aag`) or None, made elsewhere (`llumc.bitblast.blast_ahead`); None: made here."""
    for r in roots:
        if r.width != 1:
            raise ValueError("blast: roots must be 1-bit terms")
    roots = asserted_roots(roots)
    if any(r.op == "const" for r in roots):
        return 0  # a false root
    if not roots:
        return 1
    text = dump(roots) if dump is not None else None
    if text is None:
        text = _dump_aag(roots, rewrite_level, division, var_subst=True)
    lines = text.splitlines()
    if _has_unnamed_input(lines):
        # Boolector's variable substitution normalises linear equations like x = 2*q + r by
        # introducing fresh (unnamed) variables; without it every input keeps its name.
        lines = _dump_aag(roots, rewrite_level, division, var_subst=False).splitlines()
    outputs = aig.read_aag(lines)
    if len(outputs) != 1:
        raise RuntimeError(f"Boolector's AIGER dump has {len(outputs)} outputs, expected 1")
    return outputs[0]


def asserted_roots(roots: list[Term]) -> list[Term]:
    """The roots `blast` puts into Boolector: all but the constant true ones."""
    return [r for r in roots if not (r.op == "const" and r.param == 1)]


def boolector_instance(rewrite_level: int, *, var_subst: bool) -> pyboolector.Boolector:
    """A fresh Boolector with the rewrite level, and variable substitution on or off."""
    btor = pyboolector.Boolector()
    btor.Set_opt(_option_id(btor, "rewrite-level"), rewrite_level)
    if not var_subst:
        btor.Set_opt(_option_id(btor, "var-subst"), 0)
    return btor


def incremental_solver() -> pyboolector.Boolector:
    """A Boolector for many satisfiability calls with assumptions and models (llumc.wordbmc)."""
    btor = pyboolector.Boolector()
    btor.Set_opt(_option_id(btor, "incremental"), 1)
    btor.Set_opt(_option_id(btor, "model-gen"), 1)
    return btor


class _DumpFiles:
    """Where Boolector writes its AIGER dumps (it writes only to a file, never over one): one
    private directory per process (`llumc-aag-<pid>-*` in the temporary directory), one file
    name per thread, the file removed once read. A directory made and removed per dump cost
    2-3 ms on a disk (removing a file 0.05 ms): 1.35 s of the 3.0 s one invariant search
    spent blasting (hundreds of dumps per search). The directory goes at exit; one left by a killed
    process is removed by the next process that makes its own (`remove_stale`)."""

    PREFIX = "llumc-aag-"

    def __init__(self) -> None:
        self.directory: str | None = None
        self.owner = 0  # the process that made the directory removes it at exit

    def path(self) -> str:
        # made again if gone: another pid namespace sharing the temporary directory may take
        # this process's id for a dead one's (`remove_stale`)
        if self.directory is None or self.owner != os.getpid() or not os.path.isdir(self.directory):
            self.owner = os.getpid()
            self.remove_stale()
            self.directory = tempfile.mkdtemp(prefix=f"{self.PREFIX}{self.owner}-")
            atexit.register(self._remove, self.directory, self.owner)
            # a multiprocessing worker leaves through os._exit after running these
            multiprocessing.util.Finalize(None, self._remove, args=(self.directory, self.owner), exitpriority=0)
        return os.path.join(self.directory, f"formula-{threading.get_ident()}.aag")

    @classmethod
    def remove_stale(cls) -> None:
        """Remove the dump directories of processes that no longer run (killed: no atexit)."""
        root = tempfile.gettempdir()
        try:
            names = os.listdir(root)
        except OSError:
            return
        for name in names:
            pid = name[len(cls.PREFIX):].split("-")[0] if name.startswith(cls.PREFIX) else ""
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                shutil.rmtree(os.path.join(root, name), ignore_errors=True)
            except OSError:
                continue  # another user's process: alive

    def release(self) -> None:
        """Remove this process's directory now (a later dump makes a new one)."""
        if self.directory is not None and self.owner == os.getpid():
            self._remove(self.directory, self.owner)
            self.directory = None

    @staticmethod
    def _remove(directory: str, owner: int) -> None:
        if os.getpid() == owner:
            shutil.rmtree(directory, ignore_errors=True)


_DUMPS = _DumpFiles()


def release_dump_directory() -> None:
    """Remove this process's dump directory now: for exits that skip atexit (`os._exit`)."""
    _DUMPS.release()


def dump_asserted(btor: pyboolector.Boolector, nodes: list) -> str:
    """The AIGER text of the conjunction of `nodes` (asserted here): one output."""
    for node in nodes:
        btor.Assert(node)
    path = _DUMPS.path()
    # a dump cut short (a time limit's exception between Dump and the removal) leaves its
    # file, and Boolector refuses to write over one: every later dump of this thread failed
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)
    try:
        btor.Dump("aag", path)
        with open(path) as f:
            return f.read()
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)


def _dump_aag(roots: list[Term], rewrite_level: int, division: str, *, var_subst: bool) -> str:
    btor = boolector_instance(rewrite_level, var_subst=var_subst)
    side: list = []
    nodes = to_boolector(btor, roots, division=division, side=side)
    return dump_asserted(btor, nodes + side)


def _has_unnamed_input(lines: list[str]) -> bool:
    """Fewer input symbols than inputs, in an AIGER dump's lines."""
    inputs = int(lines[0].split()[2])
    return sum(1 for line in lines if line.startswith("i")) < inputs
