"""Bit-vector terms: the word-level language the transition system is written in.

Why our own small term language instead of building pyboolector nodes directly: the four
DimSpec formulas must be bit-blasted separately (their auxiliary variables must be disjoint),
and pyboolector merges every asserted root of one instance into one AIG output. So the
encoder builds terms once here (hash-consed DAG, constants folded), and `bitblast.py`
replays each formula into a fresh Boolector instance. The same terms can be evaluated on
concrete values (`evaluate`), which the tests use as an independent reference.

Semantics are SMT-LIB's (QF_BV): division by zero gives all ones (udiv) / the dividend
(urem); sdiv/srem follow bvsdiv/bvsrem; shifts by >= width give 0 (shl, lshr) or the
sign fill (ashr). Booleans are 1-bit vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass, field

# op -> number of bit-vector arguments
BINARY_OPS = (
    "add", "sub", "mul", "udiv", "urem", "sdiv", "srem", "shl", "lshr", "ashr",
    "and", "or", "xor",
)
COMPARE_OPS = ("eq", "ult", "slt")
OVERFLOW_OPS = ("saddo", "ssubo", "smulo", "uaddo", "usubo", "umulo")


@dataclass(eq=False, slots=True)
class Term:
    """One node of the DAG. Identity is structural: `TermBuilder` returns the same object for
    the same (op, width, args, params), so `is`/`==` by identity is structural equality.
    Slotted: a RERS transition system has 200 000 of them."""

    op: str  # const, state, next, input, not, neg, ite, zext, sext, extract, concat, BINARY_OPS...
    width: int
    args: tuple["Term", ...] = ()
    # const: value; extract: (hi, lo); state/next/input: the variable's index
    param: object = None
    uid: int = 0

    def __repr__(self) -> str:
        if self.op == "const":
            return f"{self.param}:{self.width}"
        if self.op in ("state", "next", "input"):
            return f"{self.op}{self.param}:{self.width}"
        return f"({self.op} {' '.join(map(repr, self.args))})"


def mask(width: int) -> int:
    return (1 << width) - 1


def to_signed(value: int, width: int) -> int:
    return value - (1 << width) if value >> (width - 1) & 1 else value


@dataclass
class TermBuilder:
    """Creates hash-consed terms and folds constants (so dead branches never reach Boolector)."""

    table: dict[tuple, Term] = field(default_factory=dict)
    # term uid -> (key, operand terms): a floating-point operation whose circuit (made of the
    # terms below it) computes `llumc.encoding.floatnative.evaluate(key, *operands)`; concrete
    # runs (llumc.invariants.simulate) compute it so, on the machine's floats
    native: dict[int, tuple[tuple, tuple["Term", ...]]] = field(default_factory=dict)

    def _make(self, op: str, width: int, args: tuple[Term, ...] = (), param: object = None) -> Term:
        key = (op, width, _uids(args), param)
        term = self.table.get(key)
        if term is None:
            term = Term(op, width, args, param, uid=len(self.table) + 1)
            self.table[key] = term
        return term

    def unfolded(self, op: str, width: int, args: tuple[Term, ...] = (), param: object = None) -> Term:
        """A term made as given, hash-consed but neither folded nor checked: the word-level
        BMC's array terms (`array`, `store`, `select`; llumc.wordbmc.contents), which only
        Boolector reads."""
        return self._make(op, width, args, param)

    # --- leaves -------------------------------------------------------------------------
    def const(self, value: int, width: int) -> Term:
        # `_make` inlined: the encoders ask for constants half a million times on RERS programs
        value &= (1 << width) - 1
        key = ("const", width, (), value)
        term = self.table.get(key)
        if term is None:
            term = Term("const", width, (), value, uid=len(self.table) + 1)
            self.table[key] = term
        return term

    def true(self) -> Term:
        return self.const(1, 1)

    def false(self) -> Term:
        return self.const(0, 1)

    def state(self, index: int, width: int) -> Term:
        return self._make("state", width, (), index)

    def next(self, index: int, width: int) -> Term:
        return self._make("next", width, (), index)

    def input(self, index: int, width: int) -> Term:
        return self._make("input", width, (), index)

    # --- operators ----------------------------------------------------------------------
    def op(self, name: str, *args: Term, param: object = None) -> Term:
        """Generic constructor with width inference and constant folding."""
        if param is None:
            direct = _DIRECT.get(name)
            if direct is not None and len(args) == direct[1]:
                return direct[0](self, *args)
        width = result_width(name, args, param)
        for a in args:  # fold when every argument is a constant
            if a.op != "const":
                break
        else:
            if args:
                return self.const(evaluate_op(name, width, [a.param for a in args], [a.width for a in args], param),
                                  width)
        if name in _SIMPLIFIED:
            simplified = self._simplify(name, width, args)
            if simplified is not None:
                return simplified
        # `_make` inlined
        key = (name, width, _uids(args), param)
        term = self.table.get(key)
        if term is None:
            term = self.table[key] = Term(name, width, args, param, uid=len(self.table) + 1)
        return term

    def _simplify(self, name: str, width: int, args: tuple[Term, ...]) -> Term | None:
        """Rules of the operators `op` builds itself (`and_`, `or_`, `not_`, `eq`, `ite` have theirs)."""
        if name in ("xor", "add"):
            for a, b in ((args[0], args[1]), (args[1], args[0])):
                if a.op == "const" and a.param == 0:
                    return b
        if name in ("zext", "sext") and width == args[0].width:
            return args[0]
        if name == "extract" and width == args[0].width:
            return args[0]
        return None

    # The five operators the encoders build most (RERS: 400 000 times), each written out: what
    # `op` would do (width check, folding, the simplifications, hash-consing) without its
    # generic steps. `op` sends these names here, so each rule exists once.
    def and_(self, a: Term, b: Term) -> Term:
        return self._and_or("and", a, b)

    def or_(self, a: Term, b: Term) -> Term:
        return self._and_or("or", a, b)

    def _and_or(self, name: str, a: Term, b: Term) -> Term:
        """`and`/`or`: folding, the rules of a constant operand (in `and` 0 absorbs and all ones
        is neutral, in `or` the other way round) and of `a is b`, then hash-consing."""
        width = a.width
        if b.width != width:
            raise ValueError(f"{name}: widths {width} and {b.width} differ")
        ones = (1 << width) - 1
        absorbing, neutral = (0, ones) if name == "and" else (ones, 0)
        if a.op == "const":
            if b.op == "const":
                return self.const(a.param & b.param if name == "and" else a.param | b.param, width)
            if a.param == absorbing:
                return a
            if a.param == neutral:
                return b
        elif a is b:
            return a
        elif b.op == "const":
            if b.param == absorbing:
                return b
            if b.param == neutral:
                return a
        elif name == "or" and a.op == "and" and b.op == "and":
            joined = _join_of_split(a, b)
            if joined is not None:
                return joined
        key = (name, width, (a.uid, b.uid), None)
        term = self.table.get(key)
        if term is None:
            term = self.table[key] = Term(name, width, (a, b), None, uid=len(self.table) + 1)
        return term

    def not_(self, a: Term) -> Term:
        if a.op == "const":
            return self.const(~a.param, a.width)
        if a.op == "not":
            return a.args[0]
        key = ("not", a.width, (a.uid,), None)
        term = self.table.get(key)
        if term is None:
            term = self.table[key] = Term("not", a.width, (a,), None, uid=len(self.table) + 1)
        return term

    def ite(self, c: Term, a: Term, b: Term) -> Term:
        if c.width != 1 or a.width != b.width:
            raise ValueError("ite: bad widths")
        if c.op == "const":  # (with constant branches too: folding gives the same term)
            return a if c.param else b
        if a is b:
            return a
        width = a.width
        if width == 1 and a.op == "const" and b.op == "const":
            return c if a.param else self.not_(c)
        key = ("ite", width, (c.uid, a.uid, b.uid), None)
        term = self.table.get(key)
        if term is None:
            term = self.table[key] = Term("ite", width, (c, a, b), None, uid=len(self.table) + 1)
        return term

    def eq(self, a: Term, b: Term) -> Term:
        if a.width != b.width:
            raise ValueError(f"eq: widths {a.width} and {b.width} differ")
        if a.op == "const" and b.op == "const":
            return self.const(int(a.param == b.param), 1)
        if a is b:
            return self.true()
        key = ("eq", 1, (a.uid, b.uid), None)
        term = self.table.get(key)
        if term is None:
            term = self.table[key] = Term("eq", 1, (a, b), None, uid=len(self.table) + 1)
        return term

    def extract(self, a: Term, hi: int, lo: int) -> Term:
        return self.op("extract", a, param=(hi, lo))

    def zext(self, a: Term, width: int) -> Term:
        return self.op("zext", a, param=width)

    def sext(self, a: Term, width: int) -> Term:
        return self.op("sext", a, param=width)

    def all_of(self, terms: list[Term]) -> Term:
        result = self.true()
        for t in terms:
            result = self.and_(result, t)
        return result

    def any_of(self, terms: list[Term]) -> Term:
        result = self.false()
        for t in terms:
            result = self.or_(result, t)
        return result


_SAME_WIDTH = frozenset(BINARY_OPS)
_BOOLEAN = frozenset(COMPARE_OPS + OVERFLOW_OPS)
# the operators `TermBuilder._simplify` knows (it answers None for every other)
_SIMPLIFIED = frozenset(("xor", "add", "zext", "sext", "extract"))
# name -> (builder method, arity) of the operators written out in `TermBuilder`
_DIRECT = {"and": (TermBuilder.and_, 2), "or": (TermBuilder.or_, 2), "not": (TermBuilder.not_, 1),
           "ite": (TermBuilder.ite, 3), "eq": (TermBuilder.eq, 2)}


def _join_of_split(a: Term, b: Term) -> Term | None:
    """`x` for `(x ∧ c) ∨ (x ∧ ¬c)` in any order of the operands, else None: the two edges of a
    branch meeting again (the large-block encoder's reach condition of an if's join block)."""
    for x, c in ((a.args[0], a.args[1]), (a.args[1], a.args[0])):
        for y, d in ((b.args[0], b.args[1]), (b.args[1], b.args[0])):
            if x is y and ((c.op == "not" and c.args[0] is d) or (d.op == "not" and d.args[0] is c)):
                return x
    return None


def _uids(args: tuple[Term, ...]) -> tuple[int, ...]:
    """The uids of `args`, the hash-consing key's part; the usual arities without a loop."""
    if len(args) == 2:
        return (args[0].uid, args[1].uid)
    if len(args) == 1:
        return (args[0].uid,)
    if len(args) == 3:
        return (args[0].uid, args[1].uid, args[2].uid)
    return tuple([a.uid for a in args])


def result_width(name: str, args: tuple[Term, ...] | list[Term], param: object) -> int:
    if name in _SAME_WIDTH:
        a, b = args
        if a.width != b.width:
            raise ValueError(f"{name}: widths {a.width} and {b.width} differ")
        return a.width
    if name in _BOOLEAN:
        if args[0].width != args[1].width:
            raise ValueError(f"{name}: widths {args[0].width} and {args[1].width} differ")
        return 1
    if name in ("not", "neg"):
        return args[0].width
    if name == "ite":
        if args[0].width != 1 or args[1].width != args[2].width:
            raise ValueError("ite: bad widths")
        return args[1].width
    if name in ("zext", "sext"):
        assert isinstance(param, int) and param >= args[0].width
        return param
    if name == "extract":
        hi, lo = param  # type: ignore[misc]
        assert 0 <= lo <= hi < args[0].width
        return hi - lo + 1
    if name == "concat":
        return args[0].width + args[1].width
    raise ValueError(f"unknown operator {name}")


def evaluate_op(name: str, width: int, values: list[int], widths: list[int], param: object = None) -> int:
    """Concrete value of one operator application (SMT-LIB semantics, unsigned results)."""
    m = mask(width)
    if name in BINARY_OPS or name in COMPARE_OPS or name in OVERFLOW_OPS:
        a, b = values
        w = widths[0]
        sa, sb = to_signed(a, w), to_signed(b, w)
        if name == "add":
            return (a + b) & m
        if name == "sub":
            return (a - b) & m
        if name == "mul":
            return (a * b) & m
        if name == "udiv":
            return m if b == 0 else a // b
        if name == "urem":
            return a if b == 0 else a % b
        if name == "sdiv":
            if sb == 0:
                return 1 if sa < 0 else m
            q = abs(sa) // abs(sb)
            return (q if (sa < 0) == (sb < 0) else -q) & m
        if name == "srem":
            if sb == 0:
                return a
            r = abs(sa) % abs(sb)
            return (-r if sa < 0 else r) & m
        if name == "shl":
            return 0 if b >= w else (a << b) & m
        if name == "lshr":
            return 0 if b >= w else a >> b
        if name == "ashr":
            return (sa >> min(b, w)) & m
        if name == "and":
            return a & b
        if name == "or":
            return a | b
        if name == "xor":
            return a ^ b
        if name == "eq":
            return int(a == b)
        if name == "ult":
            return int(a < b)
        if name == "slt":
            return int(sa < sb)
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        if name == "saddo":
            return int(not lo <= sa + sb <= hi)
        if name == "ssubo":
            return int(not lo <= sa - sb <= hi)
        if name == "smulo":
            return int(not lo <= sa * sb <= hi)
        if name == "uaddo":
            return int(a + b > mask(w))
        if name == "usubo":
            return int(a < b)
        if name == "umulo":
            return int(a * b > mask(w))
    if name == "not":
        return ~values[0] & m
    if name == "neg":
        return -values[0] & m
    if name == "ite":
        return values[1] if values[0] else values[2]
    if name == "zext":
        return values[0]
    if name == "sext":
        return to_signed(values[0], widths[0]) & m
    if name == "extract":
        hi, lo = param  # type: ignore[misc]
        return (values[0] >> lo) & mask(hi - lo + 1)
    if name == "concat":
        return (values[0] << widths[1]) | values[1]
    raise ValueError(f"unknown operator {name}")


def postorder(root: Term, done: Container[int]) -> Iterator[Term]:
    """The terms of `root`'s DAG whose uid is not in `done`, each after its arguments. The caller
    records each term in `done` before asking for the next. Iterative: the DAGs of large
    programs are far deeper than Python's recursion limit."""
    stack = [root]
    while stack:
        t = stack[-1]
        if t.uid in done:
            stack.pop()
            continue
        pending = [a for a in t.args if a.uid not in done]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        yield t


def substitute(root: Term, leaf: Callable[[Term], Term], builder: TermBuilder, cache: dict[int, Term],
               facts: dict[int, int] | None = None) -> Term:
    """`root` rebuilt in `builder` with each `state`/`input` leaf replaced by `leaf(t)`, folding
    as it goes. An `ite` (and a 1-bit `and`/`or`) whose first argument folds to a constant
    takes only the argument that constant chooses: the blocks a known code does not run are
    never visited. `cache` maps the uids of `root`'s terms to their images (one cache per
    leaf mapping and facts). `facts` (image uid -> value, `implied_facts`): 1-bit images known
    on the path the caller follows, replaced by their values. Iterative: multiplexer chains
    are deeper than Python's recursion limit."""
    stack: list[tuple[Term, int]] = [(root, 0)]
    known = {} if facts is None else facts
    while stack:
        t, stage = stack.pop()
        if stage == 0:
            if t.uid in cache:
                continue
            op = t.op
            if op == "const":
                cache[t.uid] = builder.const(t.param, t.width)  # type: ignore[arg-type]
                continue
            if op in ("state", "input"):
                image = leaf(t)
            elif op == "ite" or (op in ("and", "or") and t.width == 1):
                stack.append((t, 1))
                if t.args[0].uid not in cache:
                    stack.append((t.args[0], 0))
                continue
            else:
                stack.append((t, 2))
                stack.extend((a, 0) for a in t.args if a.uid not in cache)
                continue
        elif stage == 1:  # a lazy operator, its first argument known
            first = cache[t.args[0].uid]
            if first.op == "const":
                if t.op != "ite" and first.param == (0 if t.op == "and" else 1):
                    cache[t.uid] = first
                    continue
                chosen = t.args[2] if t.op == "ite" and not first.param else t.args[1]
                stack.append((t, 3))
                if chosen.uid not in cache:
                    stack.append((chosen, 0))
            else:
                stack.append((t, 2))
                stack.extend((a, 0) for a in t.args[1:] if a.uid not in cache)
            continue
        elif stage == 3:  # the first argument decided: the chosen argument's image
            first = cache[t.args[0].uid]
            image = cache[(t.args[2] if t.op == "ite" and not first.param else t.args[1]).uid]
        else:
            image = _complementary(t, cache, builder) or builder.op(t.op, *[cache[a.uid] for a in t.args],
                                                                    param=t.param)
        value = known.get(image.uid) if image.width == 1 else None
        cache[t.uid] = image if value is None else builder.const(value, 1)
    return cache[root.uid]


def _complementary(t: Term, cache: dict[int, Term], builder: TermBuilder) -> Term | None:
    """`x ∨ ¬x` is 1 and `x ∧ ¬x` is 0, which `TermBuilder` does not fold: a large block joins
    the two arms of an `if` into `(¬c ∨ c) ? i + 1 : i` for the counter both arms increment."""
    if t.op not in ("and", "or") or t.width != 1:
        return None
    a, b = cache[t.args[0].uid], cache[t.args[1].uid]
    if (a.op == "not" and a.args[0] is b) or (b.op == "not" and b.args[0] is a):
        return builder.const(0 if t.op == "and" else 1, 1)
    return None


def state_leaves(root: Term) -> set[int]:
    """The indices of the state variables `root` reads."""
    done: set[int] = set()
    found: set[int] = set()
    for t in postorder(root, done):
        done.add(t.uid)
        if t.op == "state":
            found.add(t.param)  # type: ignore[arg-type]
    return found


def evaluate(term: Term, leaves: dict[tuple[str, int], int], cache: dict[int, int] | None = None) -> int:
    """Value of `term` given values of its leaves, keyed (op, index) e.g. ("state", 3)."""
    cache = {} if cache is None else cache
    for t in postorder(term, cache):
        cache[t.uid] = _node_value(t, leaves, cache)
    return cache[term.uid]


def _node_value(t: Term, leaves: dict[tuple[str, int], int], cache: dict[int, int]) -> int:
    """The value of one term whose arguments are all in `cache`."""
    if t.op == "const":
        return t.param  # type: ignore[return-value]
    if t.op in ("state", "next", "input"):
        return leaves[(t.op, t.param)] & mask(t.width)  # type: ignore[index]
    return evaluate_op(t.op, t.width, [cache[a.uid] for a in t.args], [a.width for a in t.args], t.param)


def evaluate_lazily(term: Term, leaves: dict[tuple[str, int], int], cache: dict[int, int] | None = None) -> int:
    """`evaluate`, but an `and`/`or` whose first argument decides it (all zeros / all ones) and
    an `ite` leave the arguments they do not need unevaluated (not in `cache`) — the same value.

    Why: a large block's reach conditions are `or`s of `and(reach of a predecessor, branch)`;
    on a trace only the blocks of one path run, so nearly every branch condition is never
    needed. Deciding which blocks a RERS step ran (`encode.executed_blocks`) evaluated its
    200 000 terms in full, 4 s per counterexample of 9 steps."""
    cache = {} if cache is None else cache
    stack = [term]
    while stack:
        t = stack[-1]
        if t.uid in cache:
            stack.pop()
            continue
        op = t.op
        if op in ("and", "or", "ite"):
            first = cache.get(t.args[0].uid)
            if first is None:
                stack.append(t.args[0])
                continue
            if op == "ite":
                needed = t.args[1] if first else t.args[2]
            elif first == (0 if op == "and" else mask(t.width)):
                cache[t.uid] = first
                stack.pop()
                continue
            else:
                needed = t.args[1]
            value = cache.get(needed.uid)
            if value is None:
                stack.append(needed)
                continue
            cache[t.uid] = value if op == "ite" else first & value if op == "and" else first | value
            stack.pop()
            continue
        pending = [a for a in t.args if a.uid not in cache]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        cache[t.uid] = _node_value(t, leaves, cache)
    return cache[term.uid]
