"""Word-level transition system -> AIGER 1.9 (latches, inputs, invariant constraints, bad).

Why from the terms and not from the DimSpec CNF: an AIGER latch needs its next-state
*function*, and the CNF only has the relation n <-> f through Tseitin variables. The terms
give that function per state variable (`wts.next`), so each next-state bit, each U conjunct,
each G conjunct and each I conjunct that is not a reset value is bit-blasted by Boolector
into one `AIG`, and the circuit is written from it:

- latch: every state bit, reset 0/1 where I fixes it (`state = const`), else uninitialised
  (reset = the latch itself, AIGER 1.9's nondeterministic initial value);
- input: every nondeterministic input bit;
- constraint: every conjunct of U (AIGER 1.9: they restrict every state of a trace, the last,
  bad one included, exactly as U restricts every step of a DimSpec path);
- bad: the conjunction of G;
- I that is not a reset value: an extra latch `llumc_initialised` (reset 0, next 1) and the
  constraint `llumc_initialised | I`, so the first state is any state satisfying I.

Boolector dumps only the conjunction of asserted formulas, as one output, and simplifies what
is asserted at the top level (x = t may substitute x). To get many *functions* out of one
instance and nothing assumed about them, the root asserted is p0 | (p1 & f1) | ... | (pk & fk)
with fresh selector bits p: nothing about the f's follows from it, and fj is its cofactor
p0 = 0, pj = 1, the other p's 0, computed in our AIG. Divisions use Boolector's divider
(`division="native"`): the auxiliary-variable division of the DimSpec encoder would need
its quotient and remainder as inputs plus constraints.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.aiger import Aig, AigerSymbols

from llumc.bitblast.aig import AIG, FALSE, TRUE
from llumc.bitblast.blast import blast, parse_leaf_bit
from llumc.export import symbol_lines
from llumc.encoding.terms import Term
from llumc.encoding.transys import WordTransitionSystem

CHUNK = 64  # functions per Boolector instance: cofactoring costs chunk^2, re-blasting shared cones chunk^-1
INIT_LATCH = "llumc_initialised"


@dataclass
class AigerExport:
    aig: Aig
    symbols: AigerSymbols
    general_init: bool  # I needed the initialisation latch


def _reset_values(wts: WordTransitionSystem) -> tuple[dict[int, int], list[Term]]:
    """I split into reset values (state index -> constant) and the rest."""
    reset: dict[int, int] = {}
    rest: list[Term] = []
    for term in wts.init:
        if term.op == "eq":
            a, b = term.args
            if b.op == "state":
                a, b = b, a
            if a.op == "state" and b.op == "const" and a.param not in reset:
                reset[a.param] = b.param  # type: ignore[index]
                continue
        if not (term.op == "const" and term.param == 1):
            rest.append(term)
    return reset, rest


def _dependent(aig: AIG, root: int, leaves: set[int]) -> set[int]:
    """Nodes of `root`'s cone whose own cone contains one of the `leaves` (node indices)."""
    depends: dict[int, bool] = {}
    stack = [root >> 1]
    while stack:
        i = stack[-1]
        if i in depends:
            stack.pop()
            continue
        node = aig.nodes[i]
        if node[0] != "and":
            depends[i] = i in leaves
            stack.pop()
            continue
        pending = [c >> 1 for c in node[1:] if (c >> 1) not in depends]
        if pending:
            stack.extend(pending)
            continue
        depends[i] = depends[node[1] >> 1] or depends[node[2] >> 1]
        stack.pop()
    return {i for i, value in depends.items() if value}


def _cofactor(aig: AIG, root: int, values: dict[int, bool], dependent: set[int]) -> int:
    """`root` with the selector nodes `values` (node index -> constant) set, rebuilt through
    `aig`'s hashing; only the `dependent` nodes (`_dependent`) change."""
    memo: dict[int, int] = {i: TRUE if value else FALSE for i, value in values.items()}
    stack = [root >> 1]
    while stack:
        i = stack[-1]
        if i in memo:
            stack.pop()
            continue
        if i not in dependent:
            memo[i] = 2 * i
            stack.pop()
            continue
        _, a, b = aig.nodes[i]
        pending = [c >> 1 for c in (a, b) if (c >> 1) not in memo]
        if pending:
            stack.extend(pending)
            continue
        memo[i] = aig.and_(memo[a >> 1] ^ (a & 1), memo[b >> 1] ^ (b & 1))
        stack.pop()
    return memo[root >> 1] ^ (root & 1)


def blast_functions(wts: WordTransitionSystem, roots: list[Term], aig: AIG, *, rewrite_level: int = 3) -> list[int]:
    """AIG literals of the 1-bit `roots` as functions of the state and input bits (leaves
    named as `llumc.bitblast.blast` names them)."""
    tb = wts.terms
    base = 1 + max((inp.index for inp in wts.inputs), default=-1)
    out: list[int] = []
    for start in range(0, len(roots), CHUNK):
        chunk = roots[start : start + CHUNK]
        names = [f"i{base + k}" for k in range(len(chunk) + 1)]
        selectors = [tb.input(base + k, 1) for k in range(len(chunk) + 1)]
        guarded = tb.any_of([selectors[0]] + [tb.and_(p, f) for p, f in zip(selectors[1:], chunk)])
        root = blast([guarded], aig, rewrite_level=rewrite_level, division="native")
        nodes = [aig.inputs[name] >> 1 if name in aig.inputs else None for name in names]
        dependent = _dependent(aig, root, {i for i in nodes if i is not None})
        for k in range(len(chunk)):
            values = {i: j == k + 1 for j, i in enumerate(nodes) if i is not None}
            out.append(_cofactor(aig, root, values, dependent))
    return out


def build_aiger(wts: WordTransitionSystem, *, rewrite_level: int = 3) -> AigerExport:
    """The AIGER circuit of `wts`, numbered as the binary format wants it."""
    tb = wts.terms
    reset, general = _reset_values(wts)
    next_bits = [tb.extract(wts.next[v.index], b, b) for v in wts.state for b in range(v.width)]
    roots = next_bits + list(wts.universal) + list(wts.goal) + general
    graph = AIG()
    lits = blast_functions(wts, roots, graph, rewrite_level=rewrite_level)
    ends = [len(next_bits), len(next_bits) + len(wts.universal), len(next_bits) + len(wts.universal) + len(wts.goal)]
    next_lits, u_lits, g_lits, i_lits = lits[: ends[0]], lits[ends[0] : ends[1]], lits[ends[1] : ends[2]], lits[ends[2] :]

    bad = TRUE
    for lit in g_lits:
        bad = graph.and_(bad, lit)
    constraints = [lit for lit in u_lits if lit != TRUE]
    if general:
        initialised = graph.input(INIT_LATCH)
        first_ok = TRUE
        for lit in i_lits:
            first_ok = graph.and_(first_ok, lit)
        constraints.append(graph.or_(initialised, first_ok))

    # Numbering: inputs 1..I, latches I+1..I+L, gates after them in topological order.
    input_bits = [(inp.index, b) for inp in wts.inputs for b in range(inp.width)]
    state_bits = [(v.index, b) for v in wts.state for b in range(v.width)]
    variable: dict[int, int] = {}  # node index of `graph` -> AIGER variable
    leaf_var: dict[tuple[str, int, int], int] = {}
    for pos, (index, b) in enumerate(input_bits):
        leaf_var[("input", index, b)] = 1 + pos
    for pos, (index, b) in enumerate(state_bits):
        leaf_var[("state", index, b)] = 1 + len(input_bits) + pos
    n_latches = len(state_bits) + (1 if general else 0)
    widths = {("input", inp.index): inp.width for inp in wts.inputs} | {("state", v.index): v.width for v in wts.state}
    for name, lit in graph.inputs.items():
        if name == INIT_LATCH:
            variable[lit >> 1] = len(input_bits) + n_latches
            continue
        kind, index, b = parse_leaf_bit(name)
        if (kind, index) not in widths:
            continue  # a selector: cofactored away, must not be reached below
        variable[lit >> 1] = leaf_var[(kind, index, b)]
    outputs = next_lits + constraints + [bad]
    cone: set[int] = set()
    stack = [lit >> 1 for lit in outputs]
    while stack:
        i = stack.pop()
        if i in cone or i == 0:
            continue
        node = graph.nodes[i]
        if node[0] == "input":
            if i not in variable:
                raise AssertionError(f"AIGER export: leaf {node[1]} left in a function")
            continue
        cone.add(i)
        stack.extend(c >> 1 for c in node[1:])
    ands: dict[int, tuple[int, int]] = {}
    next_var = len(input_bits) + n_latches + 1

    def lit_of(lit: int) -> int:
        return 2 * variable[lit >> 1] + (lit & 1) if lit >> 1 else lit

    for i in sorted(cone):  # node indices of `graph` are topological
        variable[i] = next_var
        _, a, b = graph.nodes[i]
        ands[next_var] = (lit_of(a), lit_of(b))
        next_var += 1

    latches: list[tuple[int, int, int]] = []
    for pos, (index, b) in enumerate(state_bits):
        lit = 2 * leaf_var[("state", index, b)]
        value = reset.get(index)
        latches.append((lit, lit_of(next_lits[pos]), lit if value is None else value >> b & 1))
    if general:
        latches.append((2 * (len(input_bits) + n_latches), TRUE, FALSE))
    aig = Aig(maxvar=next_var - 1, inputs=[2 * (k + 1) for k in range(len(input_bits))], latches=latches,
              outputs=[], bad=[lit_of(bad)], constraints=[lit_of(c) for c in constraints], justice=0,
              fairness=0, ands=ands)

    input_name = {inp.index: f"{inp.site}:{inp.ir_name or '-'}" for inp in wts.inputs}
    state_name = {v.index: v.name for v in wts.state}
    input_names = [f"{input_name[index]}[{b}]" for index, b in input_bits]
    latch_names = [f"{state_name[index]}[{b}]" for index, b in state_bits] + ([INIT_LATCH] if general else [])
    state_first: list[int] = []
    for v in wts.state:
        state_first.append(leaf_var[("state", v.index, 0)] if v.width else 0)
    input_first = [leaf_var[("input", inp.index, 0)] for inp in wts.inputs]
    comments = symbol_lines(wts, state_first, input_first)
    symbols = AigerSymbols(inputs=input_names, latches=latch_names, bad=["error_reachable"],
                           constraints=[f"assume {k}" for k in range(len(constraints) - bool(general))]
                           + (["initial state"] if general else []), comments=comments)
    return AigerExport(aig, symbols, bool(general))

