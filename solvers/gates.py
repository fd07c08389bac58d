"""Syntactic gate detection on CNF: which clauses are Tseitin definitions of a variable as a
function of others (AND/OR/equivalence, multiplexer, XOR, constant), and whether a set of
definitions is acyclic.

Written by hand: this is a syntactic gate detection on the CNF of a DimSpec file, which no
library offers. IC3 uses it to decide how it lifts (`solvers.ic3._analyse_definitions`),
k-induction to negate a goal with Tseitin variables (`solvers.kind`); neither ever trusts it for
a verdict (answers are checked by fresh SAT calls, `solvers.check`).
"""

from __future__ import annotations

from solvers.transys import Clause


def mux_definitions(clauses: list[Clause], allowed: set[int], n: int) -> dict[int, list[Clause]]:
    """Outputs o defined by four ternary clauses as a function of two or three current
    variables (a multiplexer o ↔ (s ? t : e), or an XOR), as `solvers.aiger` writes them. The
    output is the largest variable of its clauses, as in AIGER (a gate is numbered after its
    inputs), which tells a gate's clauses from those of the gates it feeds."""
    by_top: dict[int, list[Clause]] = {}
    for clause in clauses:
        if len(clause) == 3:
            by_top.setdefault(max(abs(x) for x in clause), []).append(clause)
    found: dict[int, list[Clause]] = {}
    for o, group in by_top.items():
        if len(group) != 4 or o not in allowed:
            continue
        inputs = sorted({abs(x) for c in group for x in c} - {o})
        if not 2 <= len(inputs) <= 3 or any(v > n for v in inputs):
            continue
        # A function: every assignment of the inputs leaves exactly one value of o.
        functional = True
        for bits in range(1 << len(inputs)):
            value = {v: bool(bits >> i & 1) for i, v in enumerate(inputs)}
            fits = 0
            for out in (False, True):
                value[o] = out
                if all(any(value[abs(x)] == (x > 0) for x in c) for c in group):
                    fits += 1
            if fits != 1:
                functional = False
                break
        if functional:
            found[o] = group
    return found


def find_definitions(
    clauses: list[Clause], allowed: set[int], n: int, strict: bool = True
) -> tuple[bool, dict[int, list[int]], dict[int, list[Clause]]]:
    """Definitions among `clauses` whose outputs are variables of `allowed` and whose inputs are
    variables of 1..n; `strict`: fail unless every clause belongs to one. Returns (ok, output ->
    input variables, output -> its defining clauses); the last is filled as far as the search
    got even when it fails."""
    clauses_of: dict[int, list[Clause]] = {}  # output -> its defining clauses

    def pair(x: int, y: int) -> tuple[int, int]:
        return (x, y) if x < y else (y, x)

    binaries = {pair(c[0], c[1]) for c in clauses if len(c) == 2}
    defined: dict[int, list[int]] = {}  # output var -> input vars
    covered_bin: set[tuple[int, int]] = set()
    covered_mux: set[int] = set()  # ids of the clauses of multiplexers
    for o, group in mux_definitions(clauses, allowed, n).items():
        defined[o] = sorted({abs(x) for c in group for x in c} - {o})
        clauses_of[o] = [list(c) for c in group]
        covered_mux.update(id(c) for c in group)
    for clause in sorted(clauses, key=len, reverse=True):
        if id(clause) in covered_mux:
            continue
        if len(clause) == 1:
            v = abs(clause[0])
            if v in allowed and v not in defined:
                defined[v] = []
                clauses_of[v] = [list(clause)]
                continue
            if v in defined and not defined[v]:
                continue
            if not strict:
                continue  # a unit on a defined or state variable: a constraint, not a definition
            return False, {}, clauses_of
        if len(clause) == 2 and pair(clause[0], clause[1]) in covered_bin:
            continue
        for o in clause:
            if abs(o) not in allowed:
                continue
            others = [c for c in clause if c != o]
            if any(abs(c) > n for c in others):
                continue
            needed = [pair(-o, -c) for c in others]
            if all(b in binaries for b in needed):
                if abs(o) in defined:
                    return False, {}, clauses_of  # a second definition of one output: not a function
                defined[abs(o)] = [abs(c) for c in others]
                clauses_of[abs(o)] = [list(clause)] + [[-o, -c] for c in others]
                covered_bin.update(needed)
                if len(clause) == 2:
                    covered_bin.add(pair(clause[0], clause[1]))
                break
        else:
            if strict:
                return False, {}, clauses_of  # a clause that defines nothing
    if strict and any(len(c) == 2 and pair(c[0], c[1]) not in covered_bin for c in clauses):
        return False, {}, clauses_of
    return True, defined, clauses_of


def acyclic(defs: dict[int, list[int]]) -> bool:
    """No output depends on itself through other definitions (iterative DFS)."""
    colour: dict[int, int] = {}  # 1 on stack, 2 done
    for root in defs:
        if colour.get(root):
            continue
        stack = [(root, iter(defs[root]))]
        colour[root] = 1
        while stack:
            node, children = stack[-1]
            for child in children:
                if child not in defs:
                    continue
                c = colour.get(child)
                if c == 1:
                    return False
                if c is None:
                    colour[child] = 1
                    stack.append((child, iter(defs[child])))
                    break
            else:
                colour[node] = 2
                stack.pop()
    return True
