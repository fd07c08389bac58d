"""Candidate loop invariants: facts that hold on every state the runs recorded at a cut point.

`propose(word, debug, samples)` looks at each cut point's recorded states (`simulate.Samples`)
through the C variables the state variables hold, read as their C type says (signed unless
`debug.unsigned_variables` names the variable), and keeps, per family, what all samples satisfy:

- linear equalities `a1*v1 + ... + am*vm == b` (the affine hull of the samples; constants
  `v == c` among them), e.g. `i + j == n`, `x == 2*i`;
- polynomial equalities of degree 2, and 3 over few variables (the affine hull over monomials
  of the variables the linear hull leaves independent), e.g. `2*s == i*i + i`;
- orderings `v < w`, `v <= w`, `v <= w + 1` between variables of the same signedness;
- bounds `v >= c`, `v <= c` with constants the program compares with (and 0, 1);
- congruences `v % m == r`, m in 8, 4, 2 and 3, and parities that move together
  (`((even ^ n ^ x) & 1) == 1`: affine relations of the lowest bits over GF(2));
- "modular": the equalities again, modulo 2**32 (2**64) as the machine computes them, when
  the values may wrap around (`(unsigned)x == 2*(unsigned)i`).

Each candidate's term states the fact about the C values exactly: every variable is sign- or
zero-extended (per its C signedness) to a width where no sum or product of the fact can wrap
around, so the term means the mathematical fact. A fact that is true over the integers but
broken by the machine's wrap-around is then simply false in some reachable state, and Houdini
drops it. The C expression states the same fact, read over mathematical integers.

The hulls are exact and hand-written: Gaussian elimination over the rationals, done
fraction-free on integer rows (each row scaled to coprime integers, so the relations come out
with integer coefficients directly; `fractions.Fraction` gives the same relations, measured
3.5 times slower on pipeline.cil.c's cut points). Not numpy: its linear algebra is floating point, whose rounding
turns `2*s == i*i + i` over 64-bit squares into near-misses and cannot tell an exact relation
from an almost-relation at all; an invariant candidate must be an exact identity.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement, product
from typing import TYPE_CHECKING, Callable, Mapping

from llumc.encoding import floats
from llumc.encoding.floatsem import float_text
from llumc.encoding.memory import OBJECT_BITS
from llumc.encoding.terms import Term, mask, to_signed
from llumc.encoding.transys import StateVar, WordTransitionSystem
from llumc.encoding.liveness import successors
from llumc.frontend.cfg import POINTER_WIDTH, Const, Ref
from llumc.invariants.simulate import compile_terms

if TYPE_CHECKING:
    from llumc.frontend.cfg import Function
    from llumc.frontend.debuginfo import DebugInfo
    from llumc.invariants.simulate import Samples, Scale

MAX_WIDTH = 160  # widest term a candidate may use (exact degree 3 over 32-bit values: 96 bits)
MAX_COEFFICIENT = 1 << 20  # larger coefficients in a hull: an artefact of too few samples
HULL_VARIABLES = 24  # at most this many variables per cut point in the linear hull
ORDER_VARIABLES = 24  # ... in the pairwise orderings
POLY2_VARIABLES = 6  # degree 2 over at most 6 variables (28 monomials)
POLY3_VARIABLES = 3  # degree 3 over at most 3 variables (20 monomials)
MODULI = (8, 4, 2, 3)
PARITY_VARIABLES = 12  # GF(2) relations of the lowest bits over at most 12 variables
COMBINATION_VARIABLES = 5  # bounds of a*v + b*w over pairs of at most 5 variables
COMBINATIONS = ((1, -1), (1, 1), (2, -1), (1, -2))  # (a, b): v - w, v + w, 2v - w, v - 2w
SCALES = 4  # ... and v ± K*w, K*v ± w for at most 4 negative program constants -K (-65536..-3)
GUARD_VARIABLES = 5  # disjunctions `guard || fact` split the samples on at most 5 variables
UNSAMPLED_VARIABLES = 8  # at a loop head without samples: orderings and bounds of 8 variables
UNSAMPLED_CONSTANTS = 6  # ... with the 6 largest positive program constants
GUARDED_PER_SPLIT = 12  # ... keeping at most this many facts per side of a split
_UNSIGNED_CAST = {32: "(unsigned)", 64: "(unsigned long long)"}


@dataclass(frozen=True)
class Candidate:
    cut: str  # cut-point block name (a name in word.blocks)
    term: Term  # 1-bit term over ("state", index) leaves only
    expression: str  # the same fact as a C expression over C variable names (mathematical integers)
    kind: str  # "bound" | "order" | "linear" | "polynomial" | "modular" | "congruence" | "parity"
    #            | "combination" (a*v + b*w bounded) | "disjunction" (`guard || fact`)
    # few and likely enough to join Houdini's first round whatever its kind (`houdini_round_of`):
    # the disjunctions that scaled runs show (`_hinted`)
    first_round: bool = False


@dataclass
class Var:
    """A state variable as the candidates read it."""

    state: StateVar
    name: str  # C name, or the IR name (with its %) when it has none of its own
    signed: bool
    c_named: bool
    is_float: bool = False  # a C float or double: its bits are an IEEE value (`float_bounds`)

    @property
    def index(self) -> int:
        return self.state.index

    @property
    def width(self) -> int:
        return self.state.width

    def value(self, unsigned: int) -> int:
        return to_signed(unsigned, self.width) if self.signed else unsigned

    @property
    def magnitude(self) -> int:
        """The largest |value|."""
        return 1 << (self.width - 1) if self.signed else mask(self.width)


# ---------------------------------------------------------------------------- variables
def cut_variables(word: WordTransitionSystem, debug: "DebugInfo | None", cut: str,
                  fn: "Function | None" = None) -> list[Var]:
    """The state variables candidates speak about at `cut` (phi/value, wider than one bit), each
    with the C name it holds there (`DebugInfo.scope_at`), or its IR name. Without the module's
    debug info for `cut`, by the flow-insensitive names: the name no other of them claims; a
    name several claim goes to the phi of the cut point itself (known from `fn`), else to a phi,
    else to the first."""
    chosen = [v for v in word.state if v.kind in ("phi", "value") and v.width > 1]
    unsigned = debug.unsigned_variables if debug is not None else set()
    floating = debug.float_variables if debug is not None else set()

    def variable(v: StateVar, name: str | None) -> Var:
        type_name = name or (v.c_names[0] if v.c_names else None)
        return Var(v, name or v.name, type_name not in unsigned, name is not None,
                   type_name in floating and v.width in (32, 64))

    scope = debug.scope_at(cut) if debug is not None else None
    if scope is not None:
        # Flow-sensitive names: the C variable `g` at this cut point is the value its last
        # `#dbg_value` on every path gave it (after `g++`, %inc, not the loop's %g.0), and
        # only if it is in scope here. Other values keep their IR names: facts about them
        # still strengthen the system, but are not C (`loop_invariants` leaves them out).
        held_by: dict[str, list[str]] = {}
        for c_name, value in scope.holders.items():
            held_by.setdefault(value, []).append(c_name)
        out = []
        for v in chosen:
            names = sorted(held_by.get(v.name[1:].strip('"') if v.name.startswith("%") else v.name, []))
            out.append(variable(v, names[0] if names else None))
        return out
    own_phis: set[str] = set()
    if fn is not None:
        try:
            own_phis = {i.name for i in fn.block(cut).instrs if i.opcode == "phi"}
        except KeyError:
            own_phis = set()
    claims: dict[str, list[StateVar]] = {}
    for v in chosen:
        for n in v.c_names:
            claims.setdefault(n, []).append(v)
    names: dict[int, str] = {}
    for v in chosen:
        unique = [n for n in v.c_names if len(claims[n]) == 1]
        if unique:
            names[v.index] = unique[0]
    taken = set(names.values())
    rank = {v.index: (v.name not in own_phis, v.kind != "phi", v.index) for v in chosen}
    for v in sorted((v for v in chosen if v.index not in names), key=lambda v: rank[v.index]):
        for n in v.c_names:
            rivals = [w for w in claims[n] if w.index not in names and w is not v]
            if n not in taken and all(rank[v.index] < rank[w.index] for w in rivals):
                names[v.index] = n
                taken.add(n)
                break
    out = []
    for v in chosen:
        out.append(variable(v, names.get(v.index)))
    return out


# ---------------------------------------------------------------------------- exact algebra
def _primitive(row: list[int]) -> list[int]:
    g = 0
    for a in row:
        g = math.gcd(g, a)
    if g > 1:
        row = [a // g for a in row]
    return row


class _Hull:
    """Incremental row echelon form (integer rows) of sample rows, and the null space of the
    rows seen so far: the linear relations every sample satisfies."""

    def __init__(self, cols: int):
        self.cols = cols
        self.rows: dict[int, list[int]] = {}  # pivot column -> row (zero at the other pivots)
        self.relations: list[list[int]] = [[int(i == j) for j in range(cols)] for i in range(cols)]

    def add(self, row: list[int]) -> None:
        if not any(sum(a * b for a, b in zip(rel, row)) for rel in self.relations):
            return
        for p in sorted(self.rows):
            if row[p]:
                b = self.rows[p]
                f, g = b[p], row[p]
                row = [f * x - g * y for x, y in zip(row, b)]
        pivot = next(i for i, a in enumerate(row) if a)
        row = _primitive(row)
        if row[pivot] < 0:
            row = [-a for a in row]
        for p, b in list(self.rows.items()):  # keep it reduced: zero at the new pivot
            if b[pivot]:
                f, g = row[pivot], b[pivot]
                b = _primitive([f * x - g * y for x, y in zip(b, row)])
                self.rows[p] = b if b[p] > 0 else [-a for a in b]
        self.rows[pivot] = row
        self.relations = self._null_space()

    def _null_space(self) -> list[list[int]]:
        """One relation per free column f: f = sum over pivots (expressed by earlier columns
        when the columns are ordered simplest first), integer, primitive, f's coefficient > 0."""
        out = []
        for f in range(self.cols):
            if f in self.rows:
                continue
            # rel[f] = L and rel[p] = -b[f] * L / b[p]: integers for L = lcm of the pivots
            # involved (the rational solution, scaled; what Fraction would give, faster)
            scale = 1
            for p, b in self.rows.items():
                if b[f]:
                    scale = scale * b[p] // math.gcd(scale, b[p])
            rel = [0] * self.cols
            rel[f] = scale
            for p, b in self.rows.items():
                if b[f]:
                    rel[p] = -b[f] * scale // b[p]
            out.append(_primitive(rel))
        return out


def _gf2_reduce(x: int, basis: dict[int, int]) -> int:
    for p in sorted(basis, reverse=True):
        if x >> p & 1:
            x ^= basis[p]
    return x


def _gf2_span_basis(vectors: list[int]) -> dict[int, int]:
    basis: dict[int, int] = {}
    for x in vectors:
        x = _gf2_reduce(x, basis)
        if x:
            basis[x.bit_length() - 1] = x
    return basis


def _gf2_null_space(rows: list[int], cols: int) -> list[int]:
    """Vectors r over GF(2) (bit masks of `cols` bits) with popcount(r & row) even for all rows."""
    pivots: dict[int, int] = {}  # reduced row echelon form, keyed by pivot bit
    for row in rows:
        row = _gf2_reduce(row, pivots)
        if not row:
            continue
        p = row.bit_length() - 1
        for q in list(pivots):
            if pivots[q] >> p & 1:
                pivots[q] ^= row
        pivots[p] = row
    out = []
    for f in range(cols):
        if f in pivots:
            continue
        r = 1 << f
        for p, row in pivots.items():
            if row >> f & 1:
                r |= 1 << p
        out.append(r)
    return out


# ---------------------------------------------------------------------------- terms
class _Builder:
    """Exact terms: variables extended to a common width where nothing wraps around."""

    def __init__(self, word: WordTransitionSystem):
        self.tb = word.terms

    def leaf(self, v: Var) -> Term:
        return self.tb.state(v.index, v.width)

    def ext(self, v: Var, width: int) -> Term:
        """v's value at `width` bits: extended per its signedness (exact); narrower than v only
        in a computation modulo 2**width, where the low bits are all that counts."""
        t = self.leaf(v)
        if width < v.width:
            return self.tb.extract(t, width - 1, 0)
        return self.tb.sext(t, width) if v.signed else self.tb.zext(t, width)

    def monomial(self, factors: tuple[Var, ...], width: int | None = None) -> tuple[Term, int]:
        """The product and the largest magnitude it can have. Without `width`: exact, a signed
        term just wide enough; with it: the product modulo 2**width."""
        top = factors[0].magnitude
        w = width or top.bit_length() + 1
        acc = self.ext(factors[0], w)
        for v in factors[1:]:
            top *= v.magnitude
            if width is None:
                w = top.bit_length() + 1
                acc = self.tb.sext(acc, w)
            acc = self.tb.op("mul", acc, self.ext(v, w))
        return acc, top

    def equation(self, terms: list[tuple[int, tuple[Var, ...]]]) -> Term | None:
        """sum coefficient * monomial == 0 (the empty monomial is the constant 1) over the
        integers, as positive part == negated negative part at a width where neither side
        wraps around; None when that width exceeds MAX_WIDTH."""
        narrow = self._univariate(terms)
        if narrow is not None:
            return narrow
        total = 0
        for coef, factors in terms:
            total += abs(coef) * (self.monomial(factors)[1] if factors else 1)
        width = total.bit_length() + 2
        if width > MAX_WIDTH:
            return None
        return self._sides(terms, width, exact=True)

    def _sides(self, terms: list[tuple[int, tuple[Var, ...]]], width: int, exact: bool) -> Term:
        tb = self.tb
        sides = [tb.const(0, width), tb.const(0, width)]
        for coef, factors in terms:
            if not factors:
                value = tb.const(abs(coef), width)
            else:
                if exact:
                    m, _top = self.monomial(factors)
                    value = tb.sext(m, width)
                else:
                    value, _top = self.monomial(factors, width)
                if abs(coef) != 1:
                    value = tb.op("mul", value, tb.const(abs(coef), width))
            side = 0 if coef > 0 else 1
            sides[side] = tb.op("add", sides[side], value)
        return tb.eq(sides[0], sides[1])

    def _univariate(self, terms: list[tuple[int, tuple[Var, ...]]]) -> Term | None:
        """`c*v == Q(u)` with Q a polynomial of degree >= 2 in one variable u, stated exactly
        but narrowly: it implies |Q(u)| <= |c|*max|v|, hence |u| <= R for the R computed here,
        and for |u| <= R both sides are so small that equality modulo 2**W' is equality. So the
        fact is `|u| <= R && c*v == Q(u) (mod 2**W')`, the same fact, with multipliers of about
        v's width instead of degree times it (x == n*n*n over int: 34 bits, not 96)."""
        linear = [(a, f[0]) for a, f in terms if len(f) == 1]
        powers = [(a, f) for a, f in terms if len(f) >= 2]
        if not powers or len({v.index for _a, f in powers for v in f}) != 1:
            return None
        u = powers[0][1][0]
        defined = [(a, v) for a, v in linear if v.index != u.index]
        if len(defined) != 1:
            return None
        c, v = defined[0]
        q = {}  # Q(u) = -(the rest)
        for a, f in terms:
            if f != (v,):
                q[len(f)] = q.get(len(f), 0) - a
        d = max(q)
        lead = abs(q[d])
        bound = abs(c) * v.magnitude

        def lower(t: int) -> int:  # |Q(u)| >= lower(|u|)
            return lead * t ** d - sum(abs(a) * t ** k for k, a in q.items() if k < d)

        t0 = sum(k * abs(a) for k, a in q.items() if k < d) + 1  # lower() increases beyond t0
        hi = max(t0, 1)
        while lower(hi + 1) <= bound:
            hi *= 2
        lo = t0
        while lo < hi:  # least R >= t0 with lower(R + 1) > bound
            mid = (lo + hi) // 2
            if lower(mid + 1) > bound:
                hi = mid
            else:
                lo = mid + 1
        r = lo
        width = (bound + sum(abs(a) * r ** k for k, a in q.items())).bit_length() + 2
        if width >= self._exact_width(terms):
            return None
        tb = self.tb
        fact = self._sides(terms, width, exact=False)
        x = self.leaf(u)
        if u.signed and r < (1 << (u.width - 1)) - 1:
            low = tb.const(-r & mask(u.width), u.width)
            high = tb.const(r, u.width)
            inside = tb.and_(tb.not_(tb.op("slt", x, low)), tb.not_(tb.op("slt", high, x)))
            fact = tb.and_(inside, fact)
        elif not u.signed and r < mask(u.width):
            fact = tb.and_(tb.not_(tb.op("ult", tb.const(r, u.width), x)), fact)
        return fact

    def _exact_width(self, terms: list[tuple[int, tuple[Var, ...]]]) -> int:
        total = sum(abs(a) * (self.monomial(f)[1] if f else 1) for a, f in terms)
        return total.bit_length() + 2

    def le(self, v: Var, w: Var, offset: int = 0, strict: bool = False) -> Term:
        """v <= w + offset (v < w + offset when strict), exact."""
        width = max(v.width, w.width) + 2 + abs(offset).bit_length()
        a, b = self.ext(v, width), self.ext(w, width)
        if offset:
            b = self.tb.op("add", b, self.tb.const(offset, width))
        if strict:
            return self.tb.op("slt", a, b)
        return self.tb.not_(self.tb.op("slt", b, a))

    def combination_bound(self, a: int, v: Var, b: int, w: Var, c: int, lower: bool) -> Term:
        """a*v + b*w >= c (lower) or <= c, over the integers (a width where nothing wraps)."""
        tb = self.tb
        width = max(v.width, w.width) + 2 + abs(a).bit_length() + abs(b).bit_length() + abs(c).bit_length()
        terms = []
        for coef, x in ((a, v), (b, w)):
            t = self.ext(x, width)
            if abs(coef) != 1:
                t = tb.op("mul", t, tb.const(abs(coef), width))
            terms.append((coef, t))
        total = tb.const(0, width)
        for coef, t in terms:
            total = tb.op("add" if coef > 0 else "sub", total, t)
        k = tb.const(c & mask(width), width)
        return tb.not_(tb.op("slt", total, k)) if lower else tb.not_(tb.op("slt", k, total))

    def bound(self, v: Var, c: int, lower: bool) -> Term:
        tb = self.tb
        less = "slt" if v.signed else "ult"
        x, k = self.leaf(v), tb.const(c & mask(v.width), v.width)
        return tb.not_(tb.op(less, x, k)) if lower else tb.not_(tb.op(less, k, x))

    def congruence(self, v: Var, m: int, r: int) -> Term:
        tb = self.tb
        if m & (m - 1) == 0:  # low bits: the mathematical residue for either signedness
            k = m.bit_length() - 1
            return tb.eq(tb.extract(self.leaf(v), k - 1, 0), tb.const(r, k))
        if not v.signed:
            return tb.eq(tb.op("urem", self.leaf(v), tb.const(m, v.width)), tb.const(r, v.width))
        width = v.width + 1 + m.bit_length()
        shifted = tb.op("sub", self.ext(v, width), tb.const(r, width))
        return tb.eq(tb.op("srem", shifted, tb.const(m, width)), tb.const(0, width))


# ---------------------------------------------------------------------------- expressions
def _monomial_text(factors: tuple[Var, ...], cast: str = "") -> str:
    return "*".join(cast + v.name for v in factors)


def _equation_text(terms: list[tuple[int, tuple[Var, ...]]], cast: str = "") -> str:
    """Positive terms == negated negative terms, higher degree first, then variable order;
    the constant last on the right."""
    left, right = [], []
    constant = 0
    for coef, factors in sorted(terms, key=lambda t: (-len(t[1]), [v.index for v in t[1]])):
        if not factors:
            constant = coef
            continue
        text = _monomial_text(factors, cast)
        if abs(coef) != 1:
            text = f"{abs(coef)}*{text}"
        (left if coef > 0 else right).append(text)
    rhs = " + ".join(right)
    if constant:
        if not rhs:
            rhs = str(-constant)
        else:
            rhs += f" - {constant}" if constant > 0 else f" + {-constant}"
    return f"{' + '.join(left) or '0'} == {rhs or '0'}"


def _combination_text(a: int, v: Var, b: int, w: Var) -> str:
    """a*v + b*w as C computes it without wrapping around: in `long long` (both are at most 32
    bits wide), so that `i - s >= -300` over unsigned i, s means what the fact means."""
    first = f"(long long){v.name}" if a == 1 else f"{a}*(long long){v.name}"  # a > 0 always
    second = f"(long long){w.name}" if abs(b) == 1 else f"{abs(b)}*(long long){w.name}"
    return f"{first} {'+' if b > 0 else '-'} {second}"


def _column(v: Var, states: list[dict[int, int]]) -> list[int]:
    """v's values in the states, as its C type reads them (the hot loop of `propose`)."""
    index = v.index
    raw = [s[index] for s in states]
    if not v.signed:
        return raw
    top, full = 1 << (v.width - 1), 1 << v.width
    return [x - full if x >= top else x for x in raw]


# ---------------------------------------------------------------------------- proposing
@dataclass
class _Proposal:
    priority: int
    order: int
    candidate: Candidate


class _CutPoint:
    def __init__(self, word: WordTransitionSystem, cut: str, variables: list[Var],
                 states: list[dict[int, int]], constants: list[int], visits: int = 0):
        self.word = word
        self.cut = cut
        self.visits = visits
        self.build = _Builder(word)
        self.tb_ = word.terms
        self.states = states
        self.constants = constants
        self.proposals: list[_Proposal] = []
        # floats and doubles have their own family (`float_bounds`): the integer families
        # would read their bit patterns as numbers
        self.float_vars = [v for v in variables if v.is_float]
        self.float_columns = {v.index: _column(v, states) for v in self.float_vars}
        self.float_constants: dict[int, list[float]] = {}  # width -> the program's constants
        variables = [v for v in variables if not v.is_float]
        self.columns = {v.index: _column(v, states) for v in variables}
        self.distinct = {v.index: len(set(self.columns[v.index])) for v in variables}
        self.vars = variables
        self.constant_vars = [v for v in variables if self.distinct[v.index] == 1]
        self.moving = [v for v in variables if self.distinct[v.index] > 1]
        self.moving.sort(key=self.priority_key)
        self.dependent: set[int] = set()  # defined by another variable: v == w + c
        self.integer_relations: list[list[tuple[int, tuple[Var, ...]]]] = []  # equalities proposed
        self.free: set[int] = set()  # defined by the others in a linear relation
        self.affine: set[int] = set()  # defined by one other variable: v == a*w + b
        self.modulus: dict[int, int] = {}  # v == b + (multiple of this): residues it implies

    def priority_key(self, v: Var):
        return (not v.c_named, v.state.kind != "phi", -min(self.distinct[v.index], 64), v.index)

    def penalty(self, *vs: Var) -> int:
        return 0 if all(v.c_named for v in vs) else 10

    def add(self, priority: int, term: Term | None, expression: str, kind: str) -> None:
        if term is None or (term.op == "const"):
            return  # unstatable, or a tautology (constant folding decided it)
        self.proposals.append(_Proposal(priority, len(self.proposals), Candidate(self.cut, term, expression, kind)))

    # -- families ----------------------------------------------------------------------
    def constants_(self) -> None:
        if len(self.states) < 2 and self.visits < 2:
            return  # one state seen once: nothing says it is not a coincidence
        for v in self.constant_vars:
            c = self.columns[v.index][0]
            tb = self.build.tb
            term = tb.eq(self.build.leaf(v), tb.const(c & mask(v.width), v.width))
            self.add(1 + self.penalty(v), term, f"{v.name} == {c}", "linear")

    def linear(self) -> None:
        variables = self.moving[:HULL_VARIABLES]
        rows = list({tuple(self.columns[v.index][k] for v in variables) for k in range(len(self.states))})
        if len(rows) < 3 or not variables:
            return
        if len(rows) < len(variables) + 3:  # too few points for this many dimensions
            variables = variables[:max(1, len(rows) - 3)]
            rows = list({tuple(self.columns[v.index][k] for v in variables) for k in range(len(self.states))})
        # C variables first (the basis gets the bounds, and a value without a C name is better
        # expressed by them than the other way round), then the simplest (smallest magnitude):
        # pivots are the basis, later columns are expressed
        order = sorted(range(len(variables)),
                       key=lambda i: (not variables[i].c_named, max(abs(r[i]) for r in rows),
                                      variables[i].index))
        variables = [variables[i] for i in order]
        hull = _Hull(len(variables) + 1)
        for r in sorted(rows):
            hull.add([1] + [r[i] for i in order])
            if not hull.relations:
                break
        self.basis = [v for i, v in enumerate(variables) if i + 1 in hull.rows]
        for rel in hull.relations:
            if max(abs(a) for a in rel[1:]) > MAX_COEFFICIENT:
                continue
            terms = [(rel[0], ())] if rel[0] else []
            terms += [(a, (v,)) for a, v in zip(rel[1:], variables) if a]
            involved = [v for _a, (v,) in terms[1 if rel[0] else 0:]]
            free = next(v for i, v in enumerate(variables) if rel[i + 1] and i + 1 not in hull.rows)
            self.free.add(free.index)
            if len(involved) == 2 and sorted(abs(a) for a, f in terms if f) == [1, 1] \
                    and {a for a, f in terms if f} == {1, -1}:
                self.dependent.add(free.index)
            if len(involved) == 2:
                self.affine.add(free.index)
            self._note_modulus(free, terms)
            self.integer_relations.append(terms)
            self.add(0 + self.penalty(*involved), self.build.equation(terms), _equation_text(terms), "linear")
            self.modular(terms)

    def modular(self, terms: list[tuple[int, tuple[Var, ...]]]) -> None:
        """The same equation modulo 2**w, as the machine computes it, when all its variables
        are w = 32 or 64 bits wide: implied by the exact one, but it survives when the values
        wrap around (`x += 2; i++` without a bound on i: x == 2*i only modulo 2**32). Its C
        expression computes in the unsigned type of that width, which wraps the same way."""
        widths = {v.width for _a, f in terms for v in f}
        if len(widths) != 1 or next(iter(widths)) not in _UNSIGNED_CAST:
            return
        width = next(iter(widths))
        involved = {v.index: v for _a, f in terms for v in f}.values()
        term = self.build._sides(terms, width, exact=False)
        self.add(1 + self.penalty(*involved), term, _equation_text(terms, _UNSIGNED_CAST[width]), "modular")

    def parity(self) -> None:
        """Affine relations of the lowest bits over GF(2) (`(even ^ n ^ x) & 1 == 1`: parities
        that move together), those not already implied by an integer equality or a residue
        modulo 2; at most PARITY_VARIABLES variables, relations over at most 4."""
        variables = [v for v in self.moving if v.index not in self.dependent][:PARITY_VARIABLES]
        if len(variables) < 2:
            return
        rows = {sum((self.columns[v.index][k] & 1) << i for i, v in enumerate(variables)) | (1 << len(variables))
                for k in range(len(self.states))}  # bit len(variables): the constant 1
        if len(self.states) < 4 * (len(variables) + 1):
            return  # few states: a relation among few bits would be a coincidence
        cols = len(variables) + 1
        # null space over GF(2): relations r (bit masks) with parity(r & row) == 0 for every row
        basis: dict[int, int] = {}  # pivot bit -> row
        for row in rows:
            for p in sorted(basis, reverse=True):
                if row >> p & 1:
                    row ^= basis[p]
            if row:
                basis[row.bit_length() - 1] = row
        relations = _gf2_null_space(list(basis.values()), cols)
        known = []  # implied: integer equalities and residues mod 2 reduced modulo 2
        position = {v.index: i for i, v in enumerate(variables)}
        for v in self.moving:
            if v.index in position and len({x & 1 for x in self.columns[v.index]}) == 1:
                known.append(1 << position[v.index])
        for rel in self.integer_relations:
            mask_ = 0
            for a, f in rel:
                if len(f) == 1 and a % 2:
                    if f[0].index not in position:
                        mask_ = -1
                        break
                    mask_ ^= 1 << position[f[0].index]
                elif f and a % 2:
                    mask_ = -1  # a product: its parity is not one variable's
                    break
            if mask_ > 0:
                known.append(mask_)
        span = _gf2_span_basis(known)
        for rel in relations:
            picked = rel & ((1 << len(variables)) - 1)
            if bin(picked).count("1") < 2 or bin(picked).count("1") > 4 or _gf2_reduce(picked, span) == 0:
                continue
            span = _gf2_span_basis(known + [picked])
            known.append(picked)
            members = sorted((v for i, v in enumerate(variables) if picked >> i & 1), key=lambda v: v.index)
            r = rel >> len(variables) & 1  # the XOR of the low bits equals r
            tb = self.build.tb
            bit = tb.extract(self.build.leaf(members[0]), 0, 0)
            for v in members[1:]:
                bit = tb.op("xor", bit, tb.extract(self.build.leaf(v), 0, 0))
            text = f"(({' ^ '.join(v.name for v in members)}) & 1) == {r}"
            self.add(3 + self.penalty(*members), tb.eq(bit, tb.const(r, 1)), text, "congruence")

    def _note_modulus(self, defined: Var, terms: list[tuple[int, tuple[Var, ...]]]) -> None:
        """`defined == b + sum of a_k * monomial_k` fixes its residue modulo gcd(a_k)."""
        if (1, (defined,)) not in terms:
            return
        g = 0
        for a, factors in terms:
            if factors and factors != (defined,):
                g = math.gcd(g, a)
        if g > 1:
            self.modulus[defined.index] = g

    def polynomial(self) -> None:
        """Degree 2, then 3: one relation at a time, the one over the fewest variables among
        those that define a variable (it occurs only as itself, once: `y == 3*n*n + 3*n + 1`);
        that variable leaves the set and the hull is taken again, so relations that only
        follow from it by substitution (`3*x + 3*n*n + n == n*y` for `x == n*n*n`) never
        show."""
        basis = [v for v in getattr(self, "basis", []) if self.distinct[v.index] >= 4]
        basis.sort(key=self.priority_key)
        variables = basis[:POLY2_VARIABLES]
        for degree, most in ((2, POLY2_VARIABLES), (3, POLY3_VARIABLES)):
            variables = variables[:most]
            while len(variables) >= 1:
                found = self._relation(variables, degree)
                if found is None:
                    break
                defined, terms = found
                involved = sorted({v.index: v for _a, f in terms for v in f}.values(), key=lambda v: v.index)
                self.add(0 + self.penalty(*involved), self.build.equation(terms), _equation_text(terms),
                         "polynomial")
                self.modular(terms)
                self._note_modulus(defined, terms)
                self.integer_relations.append(terms)
                variables = [v for v in variables if v is not defined]

    def _relation(self, variables: list[Var], degree: int):
        """The simplest relation of degree `degree` over the monomials of `variables` that
        defines a variable: (that variable, [(coefficient, factors)]), or None."""
        rows = list({tuple(self.columns[v.index][k] for v in variables) for k in range(len(self.states))})
        # simplest first: pivots are the smaller quantities, the larger ones get defined
        order = sorted(range(len(variables)),
                       key=lambda i: (max(abs(r[i]) for r in rows), variables[i].index))
        variables = [variables[i] for i in order]
        rows = [tuple(r[i] for i in order) for r in rows]
        monomials: list[tuple[int, ...]] = [()]
        for d in range(degree, 1, -1):
            monomials += list(combinations_with_replacement(range(len(variables)), d))
        monomials += [(i,) for i in range(len(variables))]
        if len(rows) < len(monomials) + max(4, len(monomials) // 4):
            return None  # too few points: the hull would be an artefact
        hull = _Hull(len(monomials))
        for r in sorted(rows, key=lambda r: [abs(x) for x in r]):
            hull.add([math.prod(r[i] for i in mono) for mono in monomials])
            if not hull.relations:
                return None
        best = None
        for rel in hull.relations:
            free = next(i for i, a in enumerate(rel) if a and i not in hull.rows)
            used = [mono for a, mono in zip(rel, monomials) if a]
            if len(monomials[free]) != 1 or max(len(mono) for mono in used) < 2:
                continue
            var = monomials[free][0]
            if sum(var in mono for mono in used) != 1:
                continue
            if max(abs(a) for a, mono in zip(rel, monomials) if mono) > MAX_COEFFICIENT:
                continue
            key = (len({i for mono in used for i in mono}), len(used), max(map(abs, rel)))
            if best is None or key < best[0]:
                terms = [(a, tuple(variables[i] for i in mono)) for a, mono in zip(rel, monomials) if a]
                best = (key, variables[var], terms)
        return None if best is None else best[1:]

    def orders(self) -> None:
        variables = [v for v in self.moving if v.index not in self.dependent][:ORDER_VARIABLES]
        for a_pos, v in enumerate(variables):
            for w in variables[a_pos + 1:]:
                if v.signed != w.signed:
                    continue
                cv, cw = self.columns[v.index], self.columns[w.index]
                for x, y, xs, ys in ((v, w, cv, cw), (w, v, cw, cv)):
                    d = min(map(int.__sub__, ys, xs))  # y - x >= d on every sample
                    few = min(self.distinct[x.index], self.distinct[y.index]) < 3
                    priority = (2 if not few else 4) + self.penalty(x, y)
                    if d >= 1:
                        self.add(priority, self.build.le(x, y, strict=True), f"{x.name} < {y.name}", "order")
                    elif d == 0:
                        self.add(priority, self.build.le(x, y), f"{x.name} <= {y.name}", "order")
                    elif d == -1:
                        self.add(priority + 1, self.build.le(x, y, 1), f"{x.name} <= {y.name} + 1", "order")

    def unsampled(self) -> None:
        """At a loop head the runs never reached (after a loop of 100 000 iterations): the
        orderings `v <= w`, `v < w` and the bounds `v >= 0`, `v >= 1`, `v <= c` (c a positive
        program constant) of its C variables, unfiltered (Houdini decides): the facts that
        keep an index in bounds there (`0 <= j < i <= 100000`)."""
        variables = sorted((v for v in self.vars if v.c_named), key=self.priority_key)[:UNSAMPLED_VARIABLES]
        for v in variables:
            top = (1 << (v.width - 1)) - 1 if v.signed else mask(v.width)
            for c in [0, 1] + sorted({c for c in self.constants if 1 < c <= top})[-UNSAMPLED_CONSTANTS:]:
                if c <= 1:
                    self.add(6, self.build.bound(v, c, True), f"{v.name} >= {c}", "bound")
                else:
                    self.add(6, self.build.bound(v, c, False), f"{v.name} <= {c}", "bound")
            for w in variables:
                if w is not v and v.signed == w.signed:
                    self.add(6, self.build.le(v, w), f"{v.name} <= {w.name}", "order")
                    self.add(6, self.build.le(v, w, strict=True), f"{v.name} < {w.name}", "order")

    def bounds(self) -> None:
        for v in self.moving:
            if v.index in self.dependent or v.index in self.affine:
                continue  # its bounds are those of the variable that defines it
            values = self.columns[v.index]
            lo_type = -(1 << (v.width - 1)) if v.signed else 0
            hi_type = (1 << (v.width - 1)) - 1 if v.signed else mask(v.width)
            # the constants and their negations: `x >= -999999` where x falls by up to y < 1000000
            pool = sorted({c for c in self.constants + [-c for c in self.constants] if lo_type <= c <= hi_type})
            low, high = min(values), max(values)
            below = [c for c in reversed(pool) if c <= low and c > lo_type][:2]
            above = [c for c in pool if c >= high and c < hi_type][:2]
            for cs, lower in ((below, True), (above, False)):
                if len(cs) == 2 and cs[0] == (low if lower else high):
                    cs = cs[:1]  # met exactly: the tight one is the bound
                for c in cs:
                    priority = (3 if c in (0, 1) else 5) + self.penalty(v)
                    text = f"{v.name} {'>=' if lower else '<='} {c}"
                    self.add(priority, self.build.bound(v, c, lower), text, "bound")

    def float_bounds(self) -> None:
        """`x == x` (never NaN) and bounds `x >= c`, `x <= c` of float and double variables,
        with the nearest of the program's float constants (and 0, ±1) outside the samples'
        range; compared as IEEE values (`fp_compare`), stated in C with the constant exact."""
        tb = self.build.tb
        for v in self.float_vars:
            fmt = floats.FORMATS[v.width]
            values = [_float_value(bits & mask(v.width), v.width) for bits in self.float_columns[v.index]]
            if any(math.isnan(x) for x in values):
                continue
            leaf = self.build.leaf(v)
            self.add(4 + self.penalty(v), floats.fp_compare(tb, "ord", fmt, leaf, leaf),
                     f"{v.name} == {v.name}", "bound")
            pool = sorted({0.0, 1.0, -1.0, *self.float_constants.get(v.width, [])})
            below = [c for c in reversed(pool) if c <= min(values)][:2]
            above = [c for c in pool if c >= max(values)][:2]
            for cs, predicate in ((below, "oge"), (above, "ole")):
                for c in cs:
                    bits = _float_bits(c, v.width)
                    term = floats.fp_compare(tb, predicate, fmt, leaf, tb.const(bits, v.width))
                    text = f"{v.name} {'>=' if predicate == 'oge' else '<='} {float_text(bits, v.width)}"
                    self.add(5 + self.penalty(v), term, text, "bound")

    def combinations(self) -> None:
        """Bounds of v - w, v + w, 2v - w, v - 2w by the program's constants (octagon-like
        facts: `2*n - i <= 1` when n counts every other i; `l - k <= 999999`)."""
        # at most 32 bits wide: the C text computes in long long (see _combination_text)
        variables = [v for v in self.moving if v.c_named and v.width <= 32][:COMBINATION_VARIABLES]
        pool = sorted(set(self.constants) | {-c for c in self.constants} | {-1, 0, 1})  # differences: both signs
        signed_pool = [c for c in pool if -(1 << 31) <= c < 1 << 31]
        # the magnitude K of a negative bound the program tests as a coefficient: x + K*y never
        # falls while x += y with y > -K (gsv2008: `x + 1000*y >= -999999` from `-1000 < y`).
        # Only the constants compared with, not their neighbours ±1, and only negative ones:
        # every scaled candidate costs Houdini and the engines wide multipliers (gsv2008's
        # Houdini: 12 s with 999, 1000 and 1001, 5 s with 1000; uchar_wrap's `c - 1000*i <= 0`
        # doubled the time to its bug)
        known = set(self.constants)
        scales = sorted({-c for c in known if -(1 << 16) <= c <= -3 and c - 1 in known and c + 1 in known})[:SCALES]
        scaled = [(1, s) for s in scales] + [(1, -s) for s in scales] + [(s, 1) for s in scales] + \
            [(s, -1) for s in scales]
        for a_pos, v in enumerate(variables):
            for w in variables[a_pos + 1:]:
                cv, cw = self.columns[v.index], self.columns[w.index]
                for a, b in COMBINATIONS + tuple(scaled):
                    if (a, b) == (1, -1) and ({v.index, w.index} & self.dependent):
                        continue  # v - w is a constant: an equality says it
                    values = [a * x + b * y for x, y in zip(cv, cw)]
                    low, high = min(values), max(values)
                    if low == high:
                        continue  # a linear equality (proposed by `linear`)
                    # two signed values: an unsigned reading of a constant is no bound
                    usable = signed_pool if v.signed and w.signed else pool
                    below = next((c for c in reversed(usable) if c <= low), None)
                    above = next((c for c in usable if c >= high), None)
                    name = _combination_text(a, v, b, w)
                    # a scaled sum whose extreme is the sum of its terms' extremes says nothing
                    # the bounds of v and w do not (`c + 1000*i >= 0` beside c, i >= 0) and only
                    # costs Houdini wide multipliers
                    box = (a * min(cv) + min(b * y for y in cw), a * max(cv) + max(b * y for y in cw))
                    scaled_pair = max(abs(a), abs(b)) > 2
                    for c, lower, extreme in ((below, True, low), (above, False, high)):
                        if c is None or scaled_pair and extreme == box[0 if lower else 1]:
                            continue
                        priority = (6 if max(abs(a), abs(b)) <= 2 else 8) + self.penalty(v, w)
                        self.add(priority, self.build.combination_bound(a, v, b, w, c, lower),
                                 f"{name} {'>=' if lower else '<='} {c}", "combination")

    def guarded(self) -> None:
        """Disjunctions `!guard || fact`: the facts true on the samples where a guard (`v < 0`,
        `v >= 0`, `v == 0`, `v != 0`) holds, but not on all (`x < 0 || y > 0` at a loop that
        runs while x < 0; `flag == 0 || a == b` when only flag's runs keep a == b)."""
        if len(self.states) < 6:
            return
        tb = self.tb_
        seen = {p.candidate.expression for p in self.proposals}
        # variables with few values (flags, modes) split best; then in the order of the state
        guards = sorted((v for v in self.vars if v.c_named), key=lambda v: (min(self.distinct[v.index], 3), v.index))
        for v in guards[:GUARD_VARIABLES]:
            column = self.columns[v.index]
            zero = tb.const(0, v.width)
            is_zero = tb.eq(self.build.leaf(v), zero)
            splits = [(lambda x: x == 0, is_zero, f"{v.name} != 0"),
                      (lambda x: x != 0, tb.not_(is_zero), f"{v.name} == 0")]
            if v.signed:
                negative = tb.op("slt", self.build.leaf(v), zero)
                splits += [(lambda x: x < 0, negative, f"{v.name} >= 0"),
                           (lambda x: x >= 0, tb.not_(negative), f"{v.name} < 0")]
            for holds, guard, otherwise in splits:
                part = [s for s, x in zip(self.states, column) if holds(x)]
                if len(part) < 3 or len(part) == len(self.states):
                    continue
                side = _CutPoint(self.word, self.cut, self.vars, part, self.constants, len(part))
                side.constants_()
                side.linear()
                side.orders()
                side.bounds()
                side.congruences()
                facts = sorted(side.proposals, key=lambda p: (p.priority, p.order))
                taken = 0
                for p in facts:
                    if taken >= GUARDED_PER_SPLIT:
                        break
                    if p.candidate.expression in seen or v.name in p.candidate.expression.split():
                        continue  # true everywhere, or about the guard's own variable
                    taken += 1
                    self.add(7 + p.priority, tb.or_(tb.not_(guard), p.candidate.term),
                             f"({otherwise} || {p.candidate.expression})", "disjunction")

    def congruences(self) -> None:
        for v in self.moving:
            if v.index in self.dependent:
                continue
            values = self.columns[v.index]
            power_found = False
            for m in MODULI:
                if power_found and m & (m - 1) == 0:
                    continue  # implied by the residue modulo a larger power of two
                if self.distinct[v.index] < m + 2 or self.modulus.get(v.index, 1) % m == 0 or m >= 1 << v.width:
                    continue  # too few values to tell, or implied by an equality
                r = values[0] % m
                if any(x % m != r for x in values):
                    continue
                if r == 0:
                    text = f"{v.name} % {m} == 0"
                elif not v.signed:
                    text = f"{v.name} % {m} == {r}"
                else:
                    text = f"({v.name} - {r}) % {m} == 0"
                self.add(3 + self.penalty(v), self.build.congruence(v, m, r), text, "congruence")
                power_found = power_found or m & (m - 1) == 0


TRACKED_VARIABLES = 8  # tracked-cell facts compare the tracked index with at most 8 variables
TRACKED_CONSTANTS = 3  # ... and state `x[#] == c` for at most 3 constants written into x
TRACKED_PATTERNS = 4  # ... and `x[#] == a*idx + b` for at most 4 lines seen in the runs
PATTERN_BOUNDS = 16  # ... read off the cells below or above one of at most 16 variables
TRACKED_SLOPE = 16  # ... with |a| at most this
TRACKED_OFFSET = 1 << 16  # ... and |b| below this
TRACKED_COMPARED = 6  # `x[#] <= w` (!=, ==, >=) for at most 6 variables w
TRACKED_SCALES = (2, 3, 4)  # `k < c*v` too: a loop that fills c cells per iteration (tiling)
_TRACKED_RELATIONS = (("<", lambda k, v: k < v), ("<=", lambda k, v: k <= v),
                      (">", lambda k, v: k > v), (">=", lambda k, v: k >= v))


@dataclass
class _CellFact:
    """What the tracked cell may be said to hold, given the index and one sample: its C text
    (over the element `x[k]`), its term, and the test on a sample (index, raw cell value, row)."""

    text: str
    term: Term
    satisfied: Callable[[int, int, int], bool]
    compared: bool = False  # about another variable (`x[k] <= m`): not proposed without samples


@dataclass
class _TrackedObject:
    """An abstract object's tracked cell as the candidates read it."""

    obj: object
    idx: Var
    val: Var
    index_column: list[int]
    value_column: list[int]  # as C reads the cell (signed)
    offset: int = 0  # of the cell in the element, for an object tracked per element


def _tracked_objects(point: _CutPoint) -> list[_TrackedObject]:
    """Each tracked cell: one per abstract object, or one per cell of the element of an array
    of structs tracked per element (`table[k]`, `table[k]+4`: same index, several cells)."""
    out = []
    for obj in point.word.memory_objects:
        index_var, value_var = getattr(obj, "tracked_index", None), getattr(obj, "tracked_value", None)
        if index_var is None or value_var is None:
            continue
        fields = getattr(obj, "tracked_fields", None) or [(0, value_var)]
        idx = Var(index_var, "k", False, True)
        index_column = [st.get(index_var.index, 0) for st in point.states]
        for offset, var in fields:
            if getattr(obj, "summary", False) and offset >= obj.size:
                continue  # the padding of a summary's node (to a power of two): never accessed
            name = obj.field_text("k", offset) if len(fields) > 1 else obj.cell_text("k")
            val = Var(var, name, True, True)
            out.append(_TrackedObject(obj, idx, val, index_column, [val.value(st.get(var.index, 0))
                                                                    for st in point.states], offset))
    return out


def tracked_patterns(word: WordTransitionSystem, states_by_cut: Mapping[str, list[dict[int, int]]]
                     ) -> dict[int, list[tuple[int, int] | Period]]:
    """Per abstract object (by id), the lines `x[#] == a*idx + b` (|a| <= TRACKED_SLOPE, a != 0)
    that the samples of some loop head show on the cells one bound of the index selects
    (`idx < v`, `idx > v` for a variable v): how the program fills the array (`a[i] = 2*i`).
    Collected over all loop heads, so that a loop the runs never reached (after 100 000
    iterations) gets them too; most often seen first, at most TRACKED_PATTERNS. Beside the
    lines, periodic patterns (`Period`): `x[#] == c_(idx % m)` for m = 2..4 with values that
    differ (`a[i] = i % 2 == 0 ? 1 : -1`)."""
    seen: dict[int, dict[tuple[int, int] | Period, int]] = {}
    # the bounds: loop counters are phis (at most PATTERN_BOUNDS, phis first)
    others = sorted((v for v in word.state if v.kind in ("phi", "value") and 1 < v.width <= 64),
                    key=lambda v: (v.kind != "phi", v.index))[:PATTERN_BOUNDS]
    for obj in word.memory_objects:
        index_var, value_var = getattr(obj, "tracked_index", None), getattr(obj, "tracked_value", None)
        if index_var is None or value_var is None:
            continue
        counts = seen.setdefault(obj.id, {})
        for states in states_by_cut.values():
            if len(states) < 3:
                continue
            points = [(st.get(index_var.index, 0), to_signed(st.get(value_var.index, 0), value_var.width))
                      for st in states]
            for v in others:
                column = [to_signed(st.get(v.index, 0), v.width) for st in states]
                for _name, holds in _TRACKED_RELATIONS[::2]:  # below v, above v
                    chosen = [p for p, x in zip(points, column) if holds(p[0], x)]
                    for pattern in (_line(chosen), _period(chosen)):
                        if pattern is not None:
                            counts[pattern] = counts.get(pattern, 0) + 1
    def order(counts: dict):
        return lambda pattern: (-counts[pattern], isinstance(pattern, Period), getattr(pattern, "values", pattern))

    return {obj_id: sorted(counts, key=order(counts))[:TRACKED_PATTERNS] for obj_id, counts in seen.items()}


def _line(points: list[tuple[int, int]]) -> tuple[int, int] | None:
    """(a, b) with y == a*k + b on every point, 0 < |a| <= TRACKED_SLOPE, |b| < TRACKED_OFFSET;
    None where the points show no such line (fewer than 3 distinct indices, or none fits)."""
    distinct = {k for k, _y in points}
    if len(distinct) < 3:
        return None
    (k1, y1) = points[0]
    k2, y2 = next((k, y) for k, y in points if k != k1)
    if (y2 - y1) % (k2 - k1):
        return None
    a = (y2 - y1) // (k2 - k1)
    b = y1 - a * k1
    if a == 0 or abs(a) > TRACKED_SLOPE or abs(b) >= TRACKED_OFFSET:
        return None
    return (a, b) if all(y == a * k + b for k, y in points) else None


@dataclass(frozen=True)
class Period:
    """A periodic pattern of a tracked cell: `x[#] == values[idx % len(values)]`."""

    values: tuple[int, ...]


def _period(points: list[tuple[int, int]]) -> Period | None:
    """The values c_0..c_{m-1} with y == c_(k % m) on every point, for the least m in 2..4
    that fits, where the c differ and every residue is seen twice; None where no period fits
    (and for a constant, which `_cell_facts` states anyway)."""
    for m in (2, 3, 4):
        values: dict[int, int] = {}
        seen: dict[int, int] = {}
        for k, y in points:
            if values.setdefault(k % m, y) != y:
                break
            seen[k % m] = seen.get(k % m, 0) + 1
        else:
            if len(values) == m and min(seen.values()) >= 2 and len(set(values.values())) > 1:
                return Period(tuple(values[r] for r in range(m)))
    return None


def _period_text(values: tuple[int, ...]) -> str:
    m = len(values)
    arms = " : ".join(f"k % {m} == {r} ? {c}" for r, c in enumerate(values[:-1]))
    return f"({arms} : {values[-1]})"


def _affine_text(a: int, b: int) -> str:
    head = "k" if a == 1 else "-k" if a == -1 else f"{a}*k"
    return head if b == 0 else f"{head} {'+' if b > 0 else '-'} {abs(b)}"


def _cell_facts(point: _CutPoint, t: _TrackedObject, patterns: list[tuple[int, int] | Period],
                compared: list[Var], copies: list[_TrackedObject]) -> list[_CellFact]:
    """The facts the tracked cell may satisfy: a constant written into the object, an affine
    function of its index (`a[k] == 2*k + 1`), the same cell of an object that shares its
    tracked index (`b[k] == a[k]`, a copy), and its order with a variable w (`a[k] != x`,
    `a[k] <= m`, `a[k] >= m`, `a[k] == x`), each exact (no wrap-around)."""
    tb, build = point.tb_, point.build
    obj, idx, val = t.obj, t.idx, t.val
    cell = val.name
    facts: list[_CellFact] = []
    for c in sorted(obj.stored_constants)[:TRACKED_CONSTANTS]:
        signed = to_signed(c, val.width)
        facts.append(_CellFact(f"{cell} == {signed}", tb.eq(build.leaf(val), tb.const(c, val.width)),
                               lambda k, y, row, c=signed: y == c))
    for period in (p for p in patterns if isinstance(p, Period)):
        facts.append(_period_fact(point, t, period.values))
    for a, b in [(1, 0)] + [p for p in patterns if p != (1, 0) and not isinstance(p, Period)]:
        width = max(idx.width, val.width) + abs(a).bit_length() + abs(b).bit_length() + 2
        line = build.ext(idx, width)
        if a != 1:
            line = tb.op("mul", line, tb.const(a & mask(width), width))
        if b:
            line = tb.op("add", line, tb.const(b & mask(width), width))
        facts.append(_CellFact(f"{cell} == {_affine_text(a, b)}", tb.eq(line, build.ext(val, width)),
                               lambda k, y, row, a=a, b=b: y == a * k + b))
    for other in copies:
        if other.val.width == val.width:
            facts.append(_CellFact(f"{cell} == {other.val.name}", tb.eq(build.leaf(val), build.leaf(other.val)),
                                   lambda k, y, row, column=other.value_column: y == column[row]))
    for w in compared:
        column = point.columns[w.index]
        width = max(val.width, w.width) + 2
        x, y = build.ext(val, width), build.ext(w, width)
        relations = (("==", tb.eq(x, y), lambda u, v: u == v), ("!=", tb.not_(tb.eq(x, y)), lambda u, v: u != v),
                     ("<=", tb.not_(tb.op("slt", y, x)), lambda u, v: u <= v),
                     (">=", tb.not_(tb.op("slt", x, y)), lambda u, v: u >= v))
        for op, term, holds in relations:
            facts.append(_CellFact(f"{cell} {op} {w.name}", term,
                                   lambda k, y, row, holds=holds, column=column: holds(y, column[row]), True))
    return facts


def _field_implications(point: _CutPoint, t: _TrackedObject, fields: list[_TrackedObject]) -> list[_CellFact]:
    """Between two cells of one element of an array of structs tracked per element: `t == 0`
    or `t != 0` implies `u != 0` or `u == c` for the constants written into the object (a flag
    that says whether a pointer field is set: `table[k] != 0 ==> table[k]+4 != 0`)."""
    tb, build = point.tb_, point.build
    facts: list[_CellFact] = []
    constants = sorted(t.obj.stored_constants | {0})[:TRACKED_CONSTANTS]
    for u in fields:
        width = u.val.width
        zero_t = tb.eq(build.leaf(t.val), tb.const(0, t.val.width))
        conclusions = [(f"{u.val.name} != 0", tb.not_(tb.eq(build.leaf(u.val), tb.const(0, width))),
                        lambda y: y != 0)]
        conclusions += [(f"{u.val.name} == {to_signed(c, width)}", tb.eq(build.leaf(u.val), tb.const(c & mask(width),
                                                                                                        width)),
                         lambda y, c=to_signed(c, width): y == c) for c in constants]
        for premise, premise_term, premise_holds in ((f"{t.val.name} != 0", tb.not_(zero_t), lambda y: y != 0),
                                                     (f"{t.val.name} == 0", zero_t, lambda y: y == 0)):
            for text, term, holds in conclusions:
                facts.append(_CellFact(
                    f"({premise} ==> {text})", tb.or_(tb.not_(premise_term), term),
                    lambda k, y, row, p=premise_holds, h=holds, column=u.value_column: not p(y) or h(column[row]),
                    True))
    return facts


def _period_fact(point: _CutPoint, t: _TrackedObject, values: tuple[int, ...]) -> _CellFact:
    """`x[#] == c_(idx % m)`: a periodic pattern (`tracked_patterns`)."""
    tb, build, val = point.tb_, point.build, t.val
    m = len(values)
    width = t.idx.width + 3
    residue = tb.op("urem", build.ext(t.idx, width), tb.const(m, width))
    expected = tb.const(values[-1] & mask(val.width), val.width)
    for r in range(m - 2, -1, -1):
        expected = tb.ite(tb.eq(residue, tb.const(r, width)), tb.const(values[r] & mask(val.width), val.width),
                          expected)
    return _CellFact(f"{val.name} == {_period_text(values)}", tb.eq(build.leaf(val), expected),
                     lambda k, y, row, values=values: y == values[k % len(values)])


def _tracked(point: _CutPoint, patterns: Mapping[int, list[tuple[int, int] | Period]] | None = None) -> None:
    """Facts about the tracked cell of an abstract object (docs/memory.md, cell morphing):
    `x.tracked_index < v → F` (and `<=`, `>`, `>=`) for loop variables v, where F is one of
    `_cell_facts` (`x[#] == c`, `x[#] == 2*x.tracked_index`, `x[#] <= m`, ...), the same F
    over every cell of a constant-size object, and `x.size == e*v` for an object of
    nondeterministic size. The tracked index is any cell's, fixed for the run, so such a fact
    says: every element below v satisfies F — the C text reads so (`\\forall k: k < i ==>
    x[k] == 0`). Kept where every sample satisfies it; Houdini decides, as for every candidate.
    At a loop head without samples only the facts that mention no second variable besides the
    bound (few; Houdini decides) and the bounded facts `k < v ==> x[k] <= w` over C variables."""
    variables = sorted((v for v in point.vars if v.width <= 64), key=point.priority_key)[:TRACKED_VARIABLES]
    compared = [v for v in variables if v.c_named][:TRACKED_COMPARED]
    objects = _tracked_objects(point)
    for position, t in enumerate(objects):
        copies = [o for o in objects[position + 1:] if o.idx.state is t.idx.state]  # each pair once
        facts = _cell_facts(point, t, (patterns or {}).get(t.obj.id, []), compared, copies)
        facts += _field_implications(point, t, [o for o in objects if o.obj is t.obj and o is not t])
        if getattr(t.obj, "summary", False):
            # a node's number bounded by the runs only (by a loop variable, as `k < i`, it
            # repeats `k < x.runs` where the two are equal and says nothing elsewhere)
            _tracked_nodes(point, t, facts)
            continue
        _tracked_bounded(point, t, facts, variables)
        _tracked_everywhere(point, t, facts)
        _tracked_size(point, t, variables)
    _tracked_pairs(point, variables)
    _summary_facts(point)


# the constants a pair fact's guard subtracts a loop variable from (`l >= 10 - pass`): the
# program's, at most this many of the largest up to the object's size
PAIR_CONSTANTS = 2


def _tracked_pairs(point: _CutPoint, variables: list[Var]) -> None:
    """Facts about the two tracked cells of an object compared with itself (`pair_index`): `k <
    l && G ==> x[k] <= x[l]` (and `>=`), k the first tracked index and l the second, G one of
    true, `l == v`, `l >= v`, `l > v` and `l >= c - v` for loop variables v and the program's
    constants c, with l inside the object. The indices are any two cells, fixed for the run,
    so such a fact says: the cells are ordered (sortedness), or ordered from `c - v` on (a
    bubble sort's finished suffix) or up to `v` (its running maximum at `a[j]`). Kept where
    every sample satisfies it (the runs choose both indices); Houdini decides."""
    tb, build = point.tb_, point.build
    if any(getattr(obj, "pair_value", None) is not None for obj in point.word.memory_objects):
        # what the guards' variables rest on: an outer loop's counter that the samples of an
        # inner head show only as 0 (a bubble sort's first pass) gets `pass == 0` from
        # `constants_`, false in general, and no bound; the suffix fact needs `pass >= 0` there
        for v in variables:
            if v.c_named and v.signed and all(v.value(x) >= 0 for x in point.columns[v.index]):
                point.add(2, build.bound(v, 0, True), f"{v.name} >= 0", "bound")
    for obj in point.word.memory_objects:
        if getattr(obj, "pair_value", None) is None or obj.size_var is not None or obj.size_operands:
            continue
        cells = obj.size // obj.cell
        k, l = Var(obj.tracked_index, "k", False, True), Var(obj.pair_index, "l", False, True)
        x, y = Var(obj.tracked_value, obj.cell_text("k"), True, True), Var(obj.pair_value, obj.cell_text("l"), True, True)
        width = k.width + 2
        ordered = tb.and_(tb.op("slt", build.ext(k, width), build.ext(l, width)),
                          tb.op("slt", build.ext(l, width), tb.const(cells, width)))
        rows = [(st.get(k.index, 0), st.get(l.index, 0), x.value(st.get(x.index, 0)), y.value(st.get(y.index, 0)))
                for st in point.states]
        orders = [("<=", tb.not_(tb.op("slt", build.leaf(y), build.leaf(x))), lambda a, b: a <= b),
                  (">=", tb.not_(tb.op("slt", build.leaf(x), build.leaf(y))), lambda a, b: a >= b)]
        if not point.states:
            orders = orders[:1]  # unfiltered: ascending order only (descending would double them)
        for text, guard, holds in _pair_guards(point, l, variables, cells):
            for relation, fact, satisfied in orders:
                if all(not (a < b < cells and holds(b, row)) or satisfied(u, w)
                       for row, (a, b, u, w) in enumerate(rows)):
                    premise = "k < l" + (f" && {text}" if text else "")
                    point.add(3, tb.or_(tb.not_(tb.and_(ordered, guard)), fact),
                              f"(\\forall k, l: {premise} ==> {x.name} {relation} {y.name})", "tracked")


def _pair_guards(point: _CutPoint, l: Var, variables: list[Var], cells: int
                 ) -> list[tuple[str, Term, Callable[[int, int], bool]]]:
    """The guards of `_tracked_pairs` on the second index: (C text, term, test on (l, sample
    row))."""
    tb, build = point.tb_, point.build
    guards: list[tuple[str, Term, Callable[[int, int], bool]]] = [("", tb.true(), lambda _l, _row: True)]
    constants = sorted({c for c in point.constants if 1 < c <= cells})[-PAIR_CONSTANTS:]
    for v in variables:
        if not v.c_named:
            continue
        column = point.columns[v.index]
        width = max(l.width, v.width) + 2
        index, value = build.ext(l, width), build.ext(v, width)
        guards += [(f"l == {v.name}", tb.eq(index, value), lambda b, row, c=column: b == c[row]),
                   (f"l >= {v.name}", tb.not_(tb.op("slt", index, value)), lambda b, row, c=column: b >= c[row]),
                   (f"l > {v.name}", tb.op("slt", value, index), lambda b, row, c=column: b > c[row])]
        for constant in constants:
            bound = tb.op("sub", tb.const(constant, width), value)
            guards.append((f"l >= {constant} - {v.name}", tb.not_(tb.op("slt", index, bound)),
                           lambda b, row, c=column, n=constant: b >= n - c[row]))
    return guards


# sortedness with a hole (`_exact_cells`) over exact one-dimensional integer arrays of at most
# this many cells, their facts filtered on at most EXACT_CELL_SAMPLES of a cut point's samples
EXACT_PAIR_CELLS = 8
EXACT_CELL_SAMPLES = 300
EXACT_GUARD_VARIABLES = 8  # ... their guards over at most 8 C variables (`priority_key` order)


@dataclass(frozen=True)
class _IndexGuard:
    """A condition on a constant cell index against a loop variable (`l <= i`, `k != j + 1`):
    its C text over an index's name, its term for a given index, and its test on (index,
    sample row)."""

    text: Callable[[str], str]
    term: Callable[[int], Term]
    holds: Callable[[int, int], bool]


def _index_guards(point: _CutPoint, variables: list[Var]) -> dict[str, list[_IndexGuard]]:
    """The guards `_exact_cells` combines, by role: "upper" (`k < v`, `k <= v`), "lower" (`k >
    v`, `k > v + 1`) and "hole" (`k != v`, `k != v + 1`: the cell an insertion sort moves
    through), for the C-named variables v."""
    tb, build = point.tb_, point.build
    roles: dict[str, list[_IndexGuard]] = {"upper": [], "lower": [], "hole": []}

    def at(p: int, x: Term) -> Term:  # the index p beside x, at x's width
        return tb.const(p, x.width)

    for v in variables:
        column = point.columns[v.index]
        width = v.width + 2
        value = build.ext(v, width)
        plus_one = tb.op("add", value, tb.const(1, width))

        roles["upper"] += [
            _IndexGuard(lambda k, n=v.name: f"{k} < {n}", lambda p, x=value: tb.op("slt", at(p, x), x),
                        lambda p, row, c=column: p < c[row]),
            _IndexGuard(lambda k, n=v.name: f"{k} <= {n}", lambda p, x=value: tb.not_(tb.op("slt", x, at(p, x))),
                        lambda p, row, c=column: p <= c[row])]
        roles["lower"] += [
            _IndexGuard(lambda k, n=v.name: f"{k} > {n}", lambda p, x=value: tb.op("slt", x, at(p, x)),
                        lambda p, row, c=column: p > c[row]),
            _IndexGuard(lambda k, n=v.name: f"{k} > {n} + 1", lambda p, x=plus_one: tb.op("slt", x, at(p, x)),
                        lambda p, row, c=column: p > c[row] + 1)]
        roles["hole"] += [
            _IndexGuard(lambda k, n=v.name: f"{k} != {n}", lambda p, x=value: tb.not_(tb.eq(x, at(p, x))),
                        lambda p, row, c=column: p != c[row]),
            _IndexGuard(lambda k, n=v.name: f"{k} != {n} + 1", lambda p, x=plus_one: tb.not_(tb.eq(x, at(p, x))),
                        lambda p, row, c=column: p != c[row] + 1)]
    return roles


def _exact_arrays(point: _CutPoint, debug: "DebugInfo | None") -> list[tuple[object, list[Var]]]:
    """The cells, as variables, of each exact one-dimensional integer array of 2 to
    EXACT_PAIR_CELLS cells, read signed unless the C type of its elements is unsigned."""
    unsigned = debug.unsigned_elements if debug is not None else set()
    arrays = []
    for obj in point.word.memory_objects:
        if obj.abstract or obj.heap or obj.pointer_cells or not 2 <= len(obj.cells) <= EXACT_PAIR_CELLS \
                or not obj.compared_cells:
            continue  # (no comparison reads a cell: its order facts would cost Houdini and prove nothing)
        one_d = re.fullmatch(r"\[\d+ x i(\d+)\]", obj.type_text.strip())
        if not one_d or {c.width for c in obj.cells} != {int(one_d.group(1))} or obj.cells[0].width < 2:
            continue  # cell n is then element n: `a[n]`
        signed = obj.c_name not in unsigned
        arrays.append((obj, [Var(c, f"{obj.c_name}[{n}]", signed, True) for n, c in enumerate(obj.cells)]))
    return arrays


def _exact_cells(point: _CutPoint, debug: "DebugInfo | None") -> None:
    """Facts over the cells of small exact arrays, quantified over their indices and stated as
    the conjunction of their instances: `\\forall k, l: k < l && U && H ==> a[k] REL a[l]` (an
    ordered prefix `U` = `l <= i`, with a hole `H` = `k, l != j + 1`: an insertion sort's inner
    loop) and `\\forall k: L && U ==> a[k] REL x` (the cells the hole has passed exceed the
    key: `j + 1 < k <= i ==> a[k] > key`). An exact array has no tracked cell; its cells are
    state variables like any other, so each instance is a plain term. Kept where every sample
    satisfies it, the guard holds on some sample, and no candidate with fewer guards (or a
    stricter relation) already holds. The samples are tested as bit sets of rows (`_Rows`):
    thousands of guard combinations, each a few integer operations per instance."""
    arrays = _exact_arrays(point, debug)
    if not arrays or not point.states:
        return
    variables = sorted((v for v in point.vars if v.c_named and not v.is_float and v.width <= 64),
                       key=point.priority_key)[:EXACT_GUARD_VARIABLES]
    step = max(1, len(point.states) // EXACT_CELL_SAMPLES)
    rows = _Rows(list(range(0, len(point.states), step)))
    roles = _index_guards(point, variables)
    for obj, cells in arrays:
        values = [[cell.value(point.states[r].get(cell.index, 0)) for cell in cells] for r in rows.rows]
        if obj.compared_cells >= 2:  # the program compares two of its cells: their order may matter
            _exact_pairs(point, obj, cells, values, rows, roles)
        _exact_bounds(point, obj, cells, values, rows, roles, variables)


_CELL_RELATIONS = (("<", lambda a, b: a < b), ("<=", lambda a, b: a <= b),
                   (">", lambda a, b: a > b), (">=", lambda a, b: a >= b))
_WEAKER = {"<": "<=", ">": ">="}  # implied by the key's relation


def _relation_term(point: _CutPoint, relation: str, x: Var, y: Term, signed: bool) -> Term:
    """x REL y for the cell x and a term y of its width."""
    tb = point.tb_
    less = "slt" if signed else "ult"
    a = point.build.leaf(x)
    return {"<": lambda: tb.op(less, a, y), "<=": lambda: tb.not_(tb.op(less, y, a)),
            ">": lambda: tb.op(less, y, a), ">=": lambda: tb.not_(tb.op(less, a, y))}[relation]()


class _Rows:
    """The sample rows a fact is tested on, as bit sets (bit n: the n-th row): where a guard
    holds for an index (cached), where an instance's fact fails."""

    def __init__(self, rows: list[int]):
        self.rows = rows
        self.all = (1 << len(rows)) - 1
        self._guards: dict[tuple[int, int], int] = {}

    def where(self, test: Callable[[int, int], bool]) -> int:
        """The rows where `test(n, row)` holds."""
        bits = 0
        for n, row in enumerate(self.rows):
            if test(n, row):
                bits |= 1 << n
        return bits

    def guard(self, guard: _IndexGuard, index: int) -> int:
        key = (id(guard), index)
        if key not in self._guards:
            self._guards[key] = self.where(lambda _n, row: guard.holds(index, row))
        return self._guards[key]

    def witnessed(self, instances: list[tuple[int, ...]], guards: list[tuple[_IndexGuard, tuple[int, ...]]],
                  fails: Mapping[tuple[int, ...], int]) -> bool:
        """Whether no instance fails (`fails`: its rows where the fact is false) on a row where
        its premise (`guards`, each on the instance's indices at the given positions) holds,
        and some premise holds at all: a fact no sample tests is no evidence, only a guess."""
        tested = 0
        for instance in instances:
            premise = self.all
            for guard, positions in guards:
                for position in positions:
                    premise &= self.guard(guard, instance[position])
            if premise & fails[instance]:
                return False
            tested |= premise
        return tested != 0


def _instances_term(point: _CutPoint, instances: list[tuple[int, ...]],
                    guards: list[tuple[_IndexGuard, tuple[int, ...]]], fact: Callable[[tuple[int, ...]], Term]
                    ) -> Term:
    """The conjunction over the instances of `guards ==> fact`, each guard applied to the
    instance's indices at the given positions."""
    tb = point.tb_
    term = tb.true()
    for instance in instances:
        guard = tb.true()
        for index_guard, positions in guards:
            for position in positions:
                guard = tb.and_(guard, index_guard.term(instance[position]))
        term = tb.and_(term, tb.or_(tb.not_(guard), fact(instance)))
    return term


def _guarded_facts(point: _CutPoint, rows: _Rows, instances: list[tuple[int, ...]],
                   slots: list[tuple[list[_IndexGuard], tuple[int, ...]]],
                   relations: tuple[tuple[str, Callable[[int, int], bool]], ...],
                   fails: Callable[[Callable[[int, int], bool]], Mapping[tuple[int, ...], int]],
                   fact: Callable[[str, tuple[int, ...]], Term], statement: Callable[[str, list[str]], str],
                   priority: int) -> None:
    """The candidates `\\forall indices: G ==> fact` for every relation and every choice of at
    most one guard per slot (a slot: its guards and the instance positions it applies to, `k`
    at 0 and `l` at 1), in order; kept where the samples witness them (`_Rows.witnessed`) and
    no candidate with a subset of the guards and the same or a stricter relation was kept
    before. `fails(satisfied)`: each instance's rows where the relation fails."""
    held: set[tuple[tuple[int, ...], str]] = set()
    for relation, satisfied in relations:
        failing = fails(satisfied)
        stricter = {relation, *(r for r, weaker in _WEAKER.items() if weaker == relation)}
        for chosen in product(*(range(len(guards) + 1) for guards, _positions in slots)):
            if any((fewer, r) in held for fewer in product(*({0, c} for c in chosen)) for r in stricter):
                continue  # a fact with fewer guards or a stricter relation says it already
            guards = [(slots[s][0][c - 1], slots[s][1]) for s, c in enumerate(chosen) if c]
            if not rows.witnessed(instances, guards, failing):
                continue
            held.add((chosen, relation))
            term = _instances_term(point, instances, guards, lambda instance, r=relation: fact(r, instance))
            conditions = [guard.text("kl"[p]) for guard, positions in guards for p in positions]
            point.add(priority + len(guards), term, statement(relation, conditions), "tracked")


def _exact_pairs(point: _CutPoint, obj, cells: list[Var], values: list[list[int]], rows: _Rows,
                 roles: dict[str, list[_IndexGuard]]) -> None:
    """`\\forall k, l: k < l && U && H ==> a[k] REL a[l]` (REL `<=` or `>=`, `U` on l, `H` on both)."""
    pairs = [(p, q) for p in range(len(cells)) for q in range(p + 1, len(cells))]
    _guarded_facts(
        point, rows, pairs, [(roles["upper"], (1,)), (roles["hole"], (0, 1))], _CELL_RELATIONS[1::2],  # <=, >=
        lambda satisfied: {(p, q): rows.where(lambda n, _row, p=p, q=q: not satisfied(values[n][p], values[n][q]))
                           for p, q in pairs},
        lambda r, pair: _relation_term(point, r, cells[pair[0]], point.build.leaf(cells[pair[1]]), cells[0].signed),
        lambda r, conditions: f"(\\forall k, l: {' && '.join(['k < l', *conditions])} ==> "
                              f"{obj.c_name}[k] {r} {obj.c_name}[l])",
        3)


def _exact_bounds(point: _CutPoint, obj, cells: list[Var], values: list[list[int]], rows: _Rows,
                  roles: dict[str, list[_IndexGuard]], variables: list[Var]) -> None:
    """`\\forall k: L && U ==> a[k] REL x` for the variables x of the cells' width and signedness
    (REL `<` before `<=`, `>` before `>=`)."""
    singles = [(p,) for p in range(len(cells))]
    for x in variables:
        if x.width != cells[0].width or x.signed != cells[0].signed:
            continue
        column = [x.value(point.states[r].get(x.index, 0)) for r in rows.rows]
        _guarded_facts(
            point, rows, singles, [(roles["lower"], (0,)), (roles["upper"], (0,))], _CELL_RELATIONS,
            lambda satisfied: {(p,): rows.where(lambda n, _row, p=p: not satisfied(values[n][p], column[n]))
                               for p in range(len(cells))},
            lambda r, single, x=x: _relation_term(point, r, cells[single[0]], point.build.leaf(x), cells[0].signed),
            lambda r, conditions, x=x: f"(\\forall k: {' && '.join(conditions) or f'k < {len(cells)}'} ==> "
                                       f"{obj.c_name}[k] {r} {x.name})",
            3 + point.penalty(x))


def _in_bounds(point: _CutPoint, t: _TrackedObject) -> tuple[Term, int | None]:
    """The tracked index lies inside a constant-size object (true for one of nondeterministic
    size: its index covers what the size may reach), and the object's cell count if constant."""
    obj, tb = t.obj, point.tb_
    if getattr(obj, "summary", False):  # the nodes handed out so far
        runs = _runs_var(obj)
        width = max(t.idx.width, runs.width) + 1
        return tb.op("ult", point.build.ext(t.idx, width), point.build.ext(runs, width)), None
    if obj.size_var is not None or obj.size_operands:
        return tb.true(), None
    cells = obj.size // (getattr(obj, "tracked_stride", 0) or obj.cell)
    inside = tb.op("ult", point.build.leaf(t.idx), tb.const(cells, t.idx.width)) if cells < 1 << t.idx.width \
        else tb.true()
    return inside, cells


def _tracked_bounded(point: _CutPoint, t: _TrackedObject, facts: list[_CellFact], variables: list[Var]) -> None:
    """`idx REL v → F` for REL in <, <=, >, >= (the cells above v also inside the object)."""
    tb, build = point.tb_, point.build
    inside, cells = _in_bounds(point, t)
    sampled = bool(point.states)
    for v in variables:
        column = point.columns[v.index]
        width = max(t.idx.width, v.width) + 2
        left, right = build.ext(t.idx, width), build.ext(v, width)
        terms = {"<": tb.op("slt", left, right), "<=": tb.not_(tb.op("slt", right, left)),
                 ">": tb.and_(tb.op("slt", right, left), inside),
                 ">=": tb.and_(tb.not_(tb.op("slt", left, right)), inside)}
        for relation, holds in _TRACKED_RELATIONS:
            above = relation.startswith(">") and cells is not None
            bound = f"{v.name} {relation.replace('>', '<')} k && k < {cells}" if above else f"k {relation} {v.name}"
            for fact in facts:
                if fact.compared and (fact.text.endswith(f" {v.name}") or not sampled and relation not in ("<", ">")):
                    continue  # about the bound itself, or too many to try unfiltered
                if all(not holds(k, x) or fact.satisfied(k, y, row)
                       for row, (k, y, x) in enumerate(zip(t.index_column, t.value_column, column))):
                    penalty = point.penalty(v) + (2 if fact.compared else 0)
                    point.add(2 + penalty, tb.or_(tb.not_(terms[relation]), fact.term),
                              f"(\\forall k: {bound} ==> {fact.text})", "tracked")
        _tracked_scaled(point, t, facts, v)


def _tracked_scaled(point: _CutPoint, t: _TrackedObject, facts: list[_CellFact], v: Var) -> None:
    """`idx < c*v → F` for c in TRACKED_SCALES: the cells a loop fills c at a time
    (`a[2*i] = x; a[2*i + 1] = x;`: below 2*i at its head). Only where the samples show a
    tracked cell between v and c*v that satisfies F (else `idx < v → F` says as much)."""
    if not point.states:
        return
    tb, build = point.tb_, point.build
    rows = list(enumerate(zip(t.index_column, t.value_column, point.columns[v.index])))
    for c in TRACKED_SCALES:
        if not any(x <= k < c * x for _row, (k, _y, x) in rows):
            continue
        width = max(t.idx.width, v.width) + c.bit_length() + 2
        below = tb.op("slt", build.ext(t.idx, width), tb.op("mul", build.ext(v, width), tb.const(c, width)))
        for fact in facts:
            if fact.compared and fact.text.endswith(f" {v.name}"):
                continue
            if all(not k < c * x or fact.satisfied(k, y, row) for row, (k, y, x) in rows):
                penalty = point.penalty(v) + (2 if fact.compared else 0) + 1
                point.add(2 + penalty, tb.or_(tb.not_(below), fact.term),
                          f"(\\forall k: k < {c}*{v.name} ==> {fact.text})", "tracked")


def _tracked_everywhere(point: _CutPoint, t: _TrackedObject, facts: list[_CellFact]) -> None:
    """`idx < N → F` over every cell of a constant-size object of N cells (the index may lie
    beyond it: nothing writes there, so such facts need the bound)."""
    inside, cells = _in_bounds(point, t)
    if cells is None:
        return
    for fact in facts:
        if all(k >= cells or fact.satisfied(k, y, row)
               for row, (k, y) in enumerate(zip(t.index_column, t.value_column))):
            point.add(2 + (2 if fact.compared else 0), point.tb_.or_(point.tb_.not_(inside), fact.term),
                      f"(\\forall k: k < {cells} ==> {fact.text})", "tracked")


def _runs_var(obj) -> Var:
    """A summary's run counter (`MemoryObject.pool_runs`): the nodes handed out so far."""
    return Var(obj.pool_runs, f"{obj.c_name}.runs", False, True)


def _node_pointer(point: _CutPoint, obj, value: Term, width: int, fields: frozenset[int] = frozenset({0}),
                  others: tuple[int, ...] = (), null: bool = True) -> Term:
    """`value` (a pointer: the object id above the offset, `width` bits) is NULL (unless not
    `null`), a byte `fields` into a node of summary `obj` handed out so far (llumc.encoding.
    memory.MemoryObject.summary; the node's start by default), or one of the pointers `others`
    (into other objects: `&root`, where a `struct node **link` starts)."""
    tb, build = point.tb_, point.build
    runs = _runs_var(obj)
    shift = obj.node_stride.bit_length() - 1
    inside = _into_summary(point, obj, value, width)
    if shift:
        field = tb.extract(value, shift - 1, 0)
        inside = tb.and_(inside, tb.any_of([tb.eq(field, tb.const(f, shift)) for f in sorted(fields)]))
    wide = max(width - OBJECT_BITS, runs.width) + 1
    inside = tb.and_(inside, tb.op("ult", _node_number(point, obj, value, width, wide), build.ext(runs, wide)))
    return tb.any_of([*([tb.eq(value, tb.const(0, width))] if null else []), inside,
                      *(tb.eq(value, tb.const(other, width)) for other in others)])


def _into_summary(point: _CutPoint, obj, value: Term, width: int) -> Term:
    """`value` (a pointer, `width` bits) points into summary `obj` at an offset that is not
    negative (a stored pointer's offset is sign-extended where it is loaded)."""
    tb = point.tb_
    return tb.and_(tb.eq(tb.extract(value, width - 1, width - OBJECT_BITS), tb.const(obj.id, OBJECT_BITS)),
                   tb.eq(tb.extract(value, width - OBJECT_BITS - 1, width - OBJECT_BITS - 1), tb.const(0, 1)))


def _node_number(point: _CutPoint, obj, value: Term, width: int, wide: int) -> Term:
    """The node a pointer `value` into summary `obj` points into, `wide` bits."""
    tb = point.tb_
    shift = obj.node_stride.bit_length() - 1
    offset = tb.extract(value, width - OBJECT_BITS - 1, 0)
    return tb.op("lshr", tb.zext(offset, wide), tb.const(shift, wide))


def _node_before(point: _CutPoint, obj, value: Term, width: int, index: Var, below: bool) -> Term:
    """`value` is NULL, or points into a node of `obj` numbered below (`below`) or above the
    node `index`: a list built by prepending links each node to an earlier one, by appending
    to a later one, and a walk that frees what it leaves behind has freed only nodes on one
    side of where it is."""
    tb, build = point.tb_, point.build
    wide = max(width, index.width) + 1
    node, other = _node_number(point, obj, value, width, wide), build.ext(index, wide)
    ordered = tb.op("ult", node, other) if below else tb.op("ult", other, node)
    return tb.or_(tb.eq(value, tb.const(0, width)), tb.and_(_into_summary(point, obj, value, width), ordered))


def _is_node_before(obj, value: int, width: int, index: int, below: bool) -> bool:
    """`_node_before` on a sample."""
    value &= mask(width)
    if value == 0:
        return True
    if value >> (width - OBJECT_BITS) != obj.id:
        return False
    node = (value & mask(width - OBJECT_BITS)) // obj.node_stride
    return node < index if below else node > index


def _is_node_pointer(obj, value: int, width: int, runs: int) -> bool:
    """`_node_pointer` (NULL or a node's start) on a sample."""
    return _node_pointer_shape(obj, [value], width, [runs]) == (frozenset({0}), ())


# a pointer that is not NULL or into a summary's nodes may be one of this many other pointers
# (`&root` for a `struct node **link` that walks a tree's links)
NODE_POINTER_OTHERS = 2


def _node_pointer_shape(obj, column: list[int], width: int, runs_column: list[int]
                        ) -> tuple[frozenset[int], tuple[int, ...]] | None:
    """The fields of `obj`'s nodes and the other pointers a pointer's samples point to, where
    every sample is NULL, into a node handed out at a cell boundary inside its block, or one of
    at most NODE_POINTER_OTHERS pointers into other objects; None otherwise."""
    fields: set[int] = set()
    others: set[int] = set()
    for value, runs in zip(column, runs_column):
        value &= mask(width)
        if value == 0:
            continue
        offset = value & mask(width - OBJECT_BITS)
        if value >> (width - OBJECT_BITS) != obj.id:
            others.add(value)
        elif offset < 1 << (width - OBJECT_BITS - 1) and offset // obj.node_stride < runs \
                and offset % obj.node_stride < obj.size and offset % obj.cell == 0:
            fields.add(offset % obj.node_stride)
        else:
            return None
    if len(others) > NODE_POINTER_OTHERS:
        return None
    return frozenset(fields or {0}), tuple(sorted(others))


def _node_pointer_text(name: str, obj, fields: frozenset[int], others: tuple[int, ...], width: int,
                       names: Mapping[int, str], null: bool = True) -> str:
    """`(p == NULL || p == &root || p points into a node at +4, +8 of malloc_13)`; without
    `null`, `(p == &root || ...)`."""
    where = "points to a node" if fields == {0} else \
        "points into a node at " + ", ".join(f"+{f}" for f in sorted(fields))
    texts = []
    for other in others:
        offset = other & mask(width - OBJECT_BITS)
        target = "&" + names.get(other >> (width - OBJECT_BITS), "?")
        texts.append(f"{name} == {target}" + (f" + {offset}" if offset else "") + " || ")
    return f"({name} == NULL || " * null + "(" * (not null) + "".join(texts) + f"{name} {where} of {obj.c_name})"


def _tracked_nodes(point: _CutPoint, t: _TrackedObject, facts: list[_CellFact]) -> None:
    """A summary's facts about every node handed out: `k < x.runs ==> F` for the cell facts F,
    and for a cell that holds pointers, that it is NULL or points to a node handed out (a
    list's `next`). Proven on the tracked node, they hold for every node, and their instances
    at reads (llumc.invariants.instances) say what an untracked node's cell read holds: a walk
    along `next` stays on the nodes."""
    obj = t.obj
    inside, _ = _in_bounds(point, t)
    runs = _runs_var(obj)
    runs_column = [st.get(runs.index, 0) for st in point.states]
    name = t.val.name
    if t.offset in obj.node_pointers:
        facts = facts + [_CellFact(
            f"({name} == NULL || {name} points to a node of {obj.c_name})",
            _node_pointer(point, obj, point.build.leaf(t.val), t.val.width),
            lambda k, y, row, width=t.val.width: _is_node_pointer(obj, y, width, runs_column[row]))]
        # the order of the links: prepending links each node to an earlier one, appending to
        # a later one; a walk that frees the nodes behind it rests on it (`_freed_nodes`)
        facts = facts + [_CellFact(
            f"({name} == NULL || {name} points to a node of {obj.c_name} {'below' if below else 'above'} k)",
            _node_before(point, obj, point.build.leaf(t.val), t.val.width, t.idx, below),
            lambda k, y, row, width=t.val.width, below=below: _is_node_before(obj, y, width, k, below))
            for below in (True, False)]
    else:  # a node's value is not negative (a search tree's keys, clamped where inserted)
        tb = point.tb_
        facts = facts + [_CellFact(f"{name} >= 0", tb.not_(tb.op("slt", point.build.leaf(t.val),
                                                                 tb.const(0, t.val.width))),
                                   lambda k, y, row, width=t.val.width: to_signed(y, width) >= 0)]
    for fact in facts:
        if all(k >= r or fact.satisfied(k, y, row)
               for row, (k, y, r) in enumerate(zip(t.index_column, t.value_column, runs_column))):
            point.add(2 + (2 if fact.compared else 0), point.tb_.or_(point.tb_.not_(inside), fact.term),
                      f"(\\forall k: k < {runs.name} ==> {fact.text})", "tracked")


# `x.runs == v + d` (and `<=`) for |d| at most this: a loop body that allocates before it
# counts (`n = malloc(..)` then `i++`) has `runs == i + 1` at an inner loop's head
RUNS_OFFSET = 2


def _runs_bounds(point: _CutPoint, obj, runs_column: list[int]) -> None:
    """`x.runs == v + d` or `x.runs <= v + d` (|d| <= RUNS_OFFSET) for integer variables v
    where every sample says so (a loop that allocates once per iteration): they bound the
    runs, so that the allocation bound is out of reach. (`linear` sees only the program's
    variables, not the counter.)"""
    tb, build = point.tb_, point.build
    runs = _runs_var(obj)
    for v in point.vars:
        if v.width > 64:
            continue
        column = point.columns[v.index]
        differences = {r - x for r, x in zip(runs_column, column)}
        if not differences:
            differences = {0}
        d = max(differences)
        equal = len(differences) == 1 and abs(d) <= RUNS_OFFSET
        if d > RUNS_OFFSET:
            continue
        width = max(runs.width, v.width) + 3
        left = build.ext(runs, width)

        def plus(offset: int):  # v + offset, wide enough for neither side to wrap
            return tb.op("add", build.ext(v, width), tb.const(offset & mask(width), width))

        def shown(offset: int) -> str:
            return v.name + (f" + {offset}" if offset > 0 else f" - {-offset}" if offset < 0 else "")

        if equal:
            point.add(2 + point.penalty(v) + (d != 0), tb.eq(left, plus(d)), f"{runs.name} == {shown(d)}", "tracked")
        if not equal or d < 0:  # (and `runs <= v` beside `runs == v - 1`, which may not be inductive)
            d = max(d, 0)
            point.add(3 + point.penalty(v) + (d != 0), tb.not_(tb.op("slt", plus(d), left)),
                      f"{runs.name} <= {shown(d)}", "tracked")


# `x.runs <= c` candidates per summary and cut point at most (`_runs_constant_bound`): a loop
# bound's constant comes with its neighbours (`program_constants`)
RUNS_CONSTANT_BOUNDS = 4


def _runs_constant_bound(point: _CutPoint, obj, runs_column: list[int]) -> None:
    """`x.runs <= c` for the least few of the program's constants c that every sample's runs
    is at most (the samples may be a scaled program's), where c lies below the far node and
    is not one of U's `tracked_index != far` and its neighbours (docs/memory.md, summaries):
    after a loop that allocates a constant number of nodes (a walk over a list of 100 000), no
    node is far, and the facts about the links' order hold at every read
    (llumc.invariants.instances)."""
    if getattr(obj, "far_node", 0) <= 0:
        return
    runs = _runs_var(obj)
    tb = point.tb_
    if runs_column:
        most = max(runs_column)
        bounds = sorted(c for c in point.constants if most <= c < obj.far_node - 1)[:RUNS_CONSTANT_BOUNDS]
    else:  # a loop head the runs never reached (after a loop of 100 000 allocations): the largest
        bounds = sorted(c for c in point.constants if 1 < c < obj.far_node - 1)[-RUNS_CONSTANT_BOUNDS:]
    for bound in bounds:
        point.add(3, tb.not_(tb.op("ult", tb.const(bound, runs.width), point.build.leaf(runs))),
                  f"{runs.name} <= {bound}", "tracked")


def _summary_facts(point: _CutPoint) -> None:
    """Per summary, the bounds of its runs (`_runs_bounds`) and, for each pointer variable
    (state of kind "pointer", which `cut_variables` leaves out) and each pointer cell of an
    exact object, that it is NULL or points to a node handed out (a list's head, the walk's
    current node), where every sample says so (`_node_pointer_shape`: into a node at the
    fields the samples show, or one of a few other pointers, `link == &root`)."""
    objects = point.word.memory_objects
    summaries = [obj for obj in objects if getattr(obj, "summary", False)
                 and getattr(obj, "pool_runs", None) is not None]
    if not summaries:
        return
    names = {obj.id: obj.c_name for obj in objects}
    # the pointer variables, and the pointer cells of exact objects (`root`, whose address a
    # `struct node **link` takes)
    pointers = [state for state in point.word.state if state.kind == "pointer" and state.width == POINTER_WIDTH]
    pointers += [state for obj in objects if not obj.abstract for state in obj.pointer_cell_vars]
    variables = [Var(state, state.c_names[0] if state.c_names else state.name, False, bool(state.c_names))
                 for state in pointers]
    columns = [(v, [st.get(v.index, 0) for st in point.states]) for v in variables]
    for obj in summaries:
        runs_column = [st.get(obj.pool_runs.index, 0) for st in point.states]
        _runs_bounds(point, obj, runs_column)
        _runs_constant_bound(point, obj, runs_column)
        for v, column in columns:
            shape = _node_pointer_shape(obj, column, v.width, runs_column)
            if shape is None:
                continue
            fields, others = shape
            # never NULL in the samples (a `struct node **link` walking a tree's links): the
            # fact without NULL too, which makes its dereference valid
            for null in (True, False) if column and all(value & mask(v.width) for value in column) else (True,):
                point.add(2 + point.penalty(v) + len(others) + (not null),
                          _node_pointer(point, obj, point.build.leaf(v), v.width, fields, others, null),
                          _node_pointer_text(v.name, obj, fields, others, v.width, names, null), "tracked")
        if getattr(obj, "node_freed", None) is not None:
            _freed_nodes(point, obj, columns)


def _freed_nodes(point: _CutPoint, obj, columns: list[tuple[Var, list[int]]]) -> None:
    """A summary whose nodes are freed (`MemoryObject.node_freed`, the tracked node's freed
    bit): no node freed yet (before the walk that frees them), and for each pointer variable
    that every freed node lies on one side of the node it points to (`p` is NULL or points
    below or above every freed node: a walk along the links that frees what it leaves), where
    every sample says so. With the order of the links (`_tracked_nodes`) they prove that the
    walk never frees or reads a node twice."""
    tb, build = point.tb_, point.build
    freed = Var(obj.node_freed, f"{obj.c_name}[k] freed", False, True)
    index = Var(obj.tracked_index, "k", False, True)
    freed_column = [st.get(freed.index, 0) for st in point.states]
    index_column = [st.get(index.index, 0) for st in point.states]
    runs = _runs_var(obj).name
    if not any(freed_column):
        point.add(2, tb.not_(build.leaf(freed)), f"(\\forall k: k < {runs} ==> !({freed.name}))", "tracked")
    for v, column in columns:
        for below in (True, False):
            if all(not f or _is_node_before(obj, value, v.width, k, below)
                   for f, value, k in zip(freed_column, column, index_column)):
                side = "below" if below else "above"
                point.add(3 + point.penalty(v),
                          tb.or_(tb.not_(build.leaf(freed)),
                                 _node_before(point, obj, build.leaf(v), v.width, index, below)),
                          f"(\\forall k: k < {runs} && {freed.name} ==> "
                          f"({v.name} == NULL || {v.name} points to a node of {obj.c_name} {side} k))", "tracked")


# the signed comparisons a loop's guard may make, as (relation staying in the loop, its negation)
_GUARD_RELATIONS = {"slt": ("<", ">="), "sle": ("<=", ">"), "sgt": (">", "<="), "sge": (">=", "<")}
# the guard weakened by one step: what holds at the head when the loop leaves as the guard fails
_AT_HEAD = {"<": ("<=", 0), "<=": ("<=", 1), ">": (">=", 0), ">=": (">=", -1)}


def _guard_bound(point: _CutPoint, fn: "Function | None") -> None:
    """The loop's guard, weakened by one step, as a fact at its head: `for (j = 0; j + 1 < 1000
    - pass; j++)` gives `j + 1 <= 1000 - pass`. The runs seldom show it where an outer variable
    stays constant over their samples (a bubble sort's inner loop in its first pass), and a
    loop after a long one has no samples; the pair facts of a sort rest on it. The guard must be
    a signed comparison of linear terms over the state's variables (phis, with their C names)
    and constants, evaluated at the head; exact (wide) arithmetic, as every candidate's."""
    if fn is None:
        return
    try:
        head = fn.block(point.cut)
    except KeyError:
        return
    branch = head.instrs[-1]
    if branch.opcode != "br" or len(branch.targets) != 2 or not isinstance(branch.operands[0], Ref):
        return
    defs = {ins.key: ins for ins in head.instrs}
    compare = defs.get(branch.operands[0].key)
    if compare is None or compare.opcode != "icmp" or compare.predicate not in _GUARD_RELATIONS:
        return
    other_heads = {b.name for b in point.word.blocks} - {head.name}
    stays = [_reaches(fn, target, head.name, other_heads) for target in branch.targets]
    if stays[0] == stays[1]:
        return
    relation = _GUARD_RELATIONS[compare.predicate][0 if stays[0] else 1]
    by_name = {v.state.name: v for v in point.vars}
    sides = [_linear(op, defs, by_name) for op in compare.operands]
    if None in sides:
        return
    relation, step = _AT_HEAD[relation]
    (left, c_left), (right, c_right) = sides
    terms = dict(left)  # variable index -> (Var, coefficient)
    for index, (v, a) in right.items():
        terms[index] = (v, terms.get(index, (v, 0))[1] - a)
    bound = c_right - c_left + step  # sum(terms) REL bound
    terms = {index: (v, a) for index, (v, a) in terms.items() if a}
    if not terms:
        return
    value = lambda row: sum(a * v.value(point.columns[v.index][row]) for v, a in terms.values())
    holds = (lambda x: x <= bound) if relation == "<=" else (lambda x: x >= bound)
    if not all(holds(value(row)) for row in range(len(point.states))):
        return
    tb, build = point.tb_, point.build
    width = max(v.width for v, _a in terms.values()) + 2 + sum(abs(a).bit_length() for _v, a in terms.values()) + \
        max(1, abs(bound).bit_length())
    total = tb.const(0, width)
    for v, a in terms.values():
        total = tb.op("add", total, tb.op("mul", build.ext(v, width), tb.const(a & mask(width), width)))
    limit = tb.const(bound & mask(width), width)
    term = tb.not_(tb.op("slt", limit, total)) if relation == "<=" else tb.not_(tb.op("slt", total, limit))
    text = " + ".join((f"{a}*" if a != 1 else "") + v.name for v, a in terms.values()).replace("+ -1*", "- ")
    point.add(2 + point.penalty(*(v for v, _a in terms.values())), term, f"{text} {relation} {bound}", "linear")


def _reaches(fn: "Function", start: str, goal: str, avoid: set[str]) -> bool:
    """Whether `goal` is reachable from block `start` (itself included) through no block of
    `avoid` (the other loop heads: the exit of an inner loop reaches its head again through
    the outer one's)."""
    seen, todo = {start}, [start]
    while todo:
        name = todo.pop()
        if name == goal:
            return True
        if name in avoid:
            continue
        for succ in successors(fn.block(name)):
            if succ not in seen:
                seen.add(succ)
                todo.append(succ)
    return False


def _linear(op, defs: dict, by_name: dict) -> tuple[dict, int] | None:
    """A guard's operand as ({variable index: (Var, coefficient)}, constant), signed, or None: constants,
    the state's variables, and add, sub and multiplication by a constant of them within the
    head block (sign extension kept)."""
    if isinstance(op, Const):
        return {}, to_signed(op.value, op.width)
    if not isinstance(op, Ref):
        return None
    ins = defs.get(op.key)
    if ins is None or ins.opcode == "phi":
        v = by_name.get(op.name)
        return ({v.index: (v, 1)}, 0) if v is not None and v.signed else None
    if ins.opcode == "sext":
        return _linear(ins.operands[0], defs, by_name)
    if ins.opcode not in ("add", "sub", "mul") or len(ins.operands) != 2:
        return None
    first, second = (_linear(o, defs, by_name) for o in ins.operands)
    if first is None or second is None:
        return None
    if ins.opcode == "mul":
        if first[0] and second[0]:
            return None
        (terms, c), k = (first, second[1]) if not second[0] else (second, first[1])
        return {index: (v, a * k) for index, (v, a) in terms.items()}, c * k
    sign = 1 if ins.opcode == "add" else -1
    terms = dict(first[0])
    for index, (v, a) in second[0].items():
        terms[index] = (v, terms.get(index, (v, 0))[1] + sign * a)
    return terms, first[1] + sign * second[1]


def _initial_runs(word: WordTransitionSystem, cut: str) -> list[Candidate]:
    """At the initial cut point, each summary's run counter is 0. Consecution assumes nothing
    of the state before a step from there but the candidates at it, and the step into the
    first loop leaves the counter as it was: without this, `k < x.runs ==> F` would fail there
    for an arbitrary counter. (No step enters the initial cut point: it holds initial states
    only, so the fact is inductive; Houdini checks it all the same.) Likewise no node is freed
    there, where nodes may be freed (`MemoryObject.node_freed`)."""
    tb = word.terms
    summaries = [obj for obj in word.memory_objects if getattr(obj, "summary", False) and obj.pool_runs is not None]
    runs = [Candidate(cut, tb.eq(tb.state(obj.pool_runs.index, obj.pool_runs.width), tb.const(0, obj.pool_runs.width)),
                      f"{obj.c_name}.runs == 0", "tracked") for obj in summaries]
    freed = [Candidate(cut, tb.not_(tb.state(obj.node_freed.index, 1)),
                       f"(\\forall k: k < {obj.c_name}.runs ==> !({obj.c_name}[k] freed))", "tracked")
             for obj in summaries if getattr(obj, "node_freed", None) is not None]
    return runs + freed


def _tracked_size(point: _CutPoint, t: _TrackedObject, variables: list[Var]) -> None:
    """`x.size == e*v` for an object of nondeterministic size, e the element, the cell, or
    their product in bytes."""
    obj, tb = t.obj, point.tb_
    if obj.size_var is None:
        return
    size = Var(obj.size_var, f"{obj.c_name}.size", False, True)
    sizes = [st.get(obj.size_var.index, 0) for st in point.states]
    for v in variables:
        column = point.columns[v.index]
        for unit in sorted({obj.element, obj.cell, obj.element * obj.cell}):
            if all(s == unit * v.value(x) for s, x in zip(sizes, column)):
                width = max(64, v.width) + unit.bit_length() + 2
                term = tb.eq(point.build.ext(size, width),
                             tb.op("mul", point.build.ext(v, width), tb.const(unit, width)))
                point.add(2 + point.penalty(v), term, f"{obj.c_name}.size == {unit}*{v.name}", "tracked")


def _float_value(bits: int, width: int) -> float:
    return struct.unpack("<f" if width == 32 else "<d", bits.to_bytes(width // 8, "little"))[0]


def _float_bits(value: float, width: int) -> int:
    return int.from_bytes(struct.pack("<f" if width == 32 else "<d", value), "little")


def program_float_constants(fn: "Function | None") -> dict[int, list[float]]:
    """The finite float (width 32) and double (64) constants the program computes or compares
    with: the operands of its floating-point instructions."""
    from llumc.encoding.floatsem import FLOAT_OPCODES
    from llumc.frontend.cfg import Const

    out: dict[int, set[float]] = {32: set(), 64: set()}
    for block in fn.blocks if fn is not None else []:
        for ins in block.instrs:
            if ins.opcode not in FLOAT_OPCODES or ins.opcode == "bitcast":
                continue
            for op in ins.operands:
                if isinstance(op, Const) and op.width in out:
                    value = _float_value(op.value, op.width)
                    if math.isfinite(value):
                        out[op.width].add(value)
    return {width: sorted(values) for width, values in out.items()}


def program_constants(word: WordTransitionSystem) -> list[int]:
    """0, 1 and the constants the program compares with (as unsigned and signed values of
    their width), with their neighbours ±1 (`i < 100` bounds `i <= 100` at the loop head)."""
    from llumc.invariants.simulate import comparison_constants

    out = {0, 1}
    for value, width in comparison_constants(word):
        if width == 1:
            continue
        for c in (value, to_signed(value, width)):
            out.update((c - 1, c, c + 1))
    return sorted(out)


def _hinted(word: WordTransitionSystem, cut: str, variables: list[Var], states: list[dict[int, int]],
            constants: list[int]) -> list[_Proposal]:
    """Facts over C variables that the states of scaled runs (`simulate.scaled_constants`) show
    at a loop head the program's own runs never reached: linear equalities, orderings, bounds,
    congruences and disjunctions (`found == 0 || x < i` of a search after a loop over 100 000
    cells). Their states are the scaled program's, so a fact about a large constant is usually
    not the program's; Houdini decides, as for every candidate."""
    point = _CutPoint(word, cut, variables, states, constants, len(states))
    point.linear()
    point.orders()
    point.bounds()
    point.congruences()
    point.guarded()
    for p in point.proposals:
        p.candidate = replace(p.candidate, first_round=True)
    return point.proposals


def _true_when_scaled(word: WordTransitionSystem, code: int, proposals: list[_Proposal],
                      states: list[dict[int, int]], scale: "Scale | None") -> list[_Proposal]:
    """The proposals whose facts, their constants scaled as the runs' were (`k < 100000` read
    as `k < 128`), hold on every state of the scaled runs: a loop head the program's own runs
    never reached otherwise gets every fact about its tracked cells unfiltered, hundreds, and
    Houdini's time goes to them."""
    if not proposals or not states or scale is None:
        return proposals
    values = compile_terms(word, code, [p.candidate.term for p in proposals], scale)
    inputs = [0] * len(word.inputs)
    keep = [True] * len(proposals)
    for state in states:
        s = [state.get(i, 0) for i in range(len(word.state))]
        for k, value in enumerate(values(s, inputs)):
            if not value:
                keep[k] = False
    return [p for p, kept in zip(proposals, keep) if kept]


def propose(word: WordTransitionSystem, debug: "DebugInfo | None",
            samples: "Samples | Mapping[str, list[dict[int, int]]]", *, limit: int = 400,
            fn: "Function | None" = None) -> list[Candidate]:
    """Candidates at every cut point with samples, each true on all of that cut point's
    samples; at most `limit`, equalities and orderings among C variables first, bounds with
    arbitrary constants and facts about values without a C name last. `samples` is a
    `simulate.Samples` or its `states` (cut point -> states). With `fn` (the encoded CFG), a
    C name that several state variables hold goes to the cut point's own phi."""
    states_by_cut = samples.states if hasattr(samples, "states") else samples
    scaled = getattr(samples, "scaled", {})
    constants = program_constants(word)
    float_constants = program_float_constants(fn)
    proposals: list[tuple[int, int, int, Candidate]] = []
    cut_order = {b.name: i for i, b in enumerate(word.blocks)}
    curr = word.curr
    initial = next((b.name for b in word.blocks if b.code == curr.init), None)
    tracked = any(getattr(obj, "tracked_value", None) is not None for obj in word.memory_objects)
    patterns = tracked_patterns(word, states_by_cut) if tracked else {}
    for block in word.blocks:
        cut = block.name
        states = states_by_cut.get(cut) or []
        if cut == initial:
            proposals += [(1, 0, n, cand) for n, cand in enumerate(_initial_runs(word, cut))]
        if cut in ("ok", "error", initial) or not (states or tracked):
            continue  # the initial cut point (the entry) only ever holds initial states
        visits = getattr(samples, "visits", {}).get(cut, 0)
        variables = cut_variables(word, debug, cut, fn)
        point = _CutPoint(word, cut, variables, states, constants, visits)
        if not states:
            # a loop the runs never reached (after a loop of 100 000 iterations): the
            # tracked-cell facts and simple orderings and bounds, unfiltered (Houdini decides)
            _tracked(point, patterns)
            point.unsampled()
            _guard_bound(point, fn)
            hinted = scaled.get(cut)
            if hinted:  # what runs of the program with its large constants scaled down show
                point.proposals += _hinted(word, cut, variables, hinted, constants)
                point.proposals = _true_when_scaled(word, block.code, point.proposals, hinted,
                                                    getattr(samples, "scale", None))
            for p in point.proposals:
                proposals.append((p.priority, cut_order.get(cut, 0), p.order, p.candidate))
            continue
        point.constants_()
        point.linear()
        point.polynomial()
        point.orders()
        point.congruences()
        point.parity()
        point.bounds()
        point.combinations()
        point.guarded()
        point.float_constants = float_constants
        point.float_bounds()
        _tracked(point, patterns)
        _exact_cells(point, debug)
        _guard_bound(point, fn)
        for p in point.proposals:
            proposals.append((p.priority, cut_order.get(cut, 0), p.order, p.candidate))
    proposals.sort(key=lambda p: p[:3])
    out: list[Candidate] = []
    seen: set[tuple[str, int]] = set()
    for _priority, _cut, _order, cand in proposals:
        key = (cand.cut, cand.term.uid)
        if key in seen:
            continue
        seen.add(key)
        out.append(cand)
        if len(out) >= limit:
            break
    return out
