"""AIG -> CNF: Plaisted–Greenbaum (default) or Tseitin clauses, with three size measures.

1. The root's top-level conjunction is split: every conjunct becomes its own clause (an
   input literal is a unit clause, a negated AND becomes one clause over its flattened
   inputs), so no variable is spent on the root.
2. AND trees are flattened through nodes that have one fanout: a k-input AND costs one
   variable and k+1 clauses instead of k-1 variables and 3(k-1) clauses.
3. Next-state aliasing (transition formula only): a conjunct pair n <-> f, where n is the
   next-state copy of a state bit and f an AND node, makes n itself f's variable, saving a
   variable and the two equivalence clauses per state bit.

Plaisted–Greenbaum only emits the implications in the polarity a node is used in. That is
enough for satisfiability-preserving translation of each formula, and for reachability
(formulas only ever occur positively in the unrolling). A node aliased to a next-state bit is
used in both polarities by the next time step, so it always gets both directions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from llumc.bitblast.aig import AIG, FALSE, TRUE

POSITIVE = 1  # need: var(node) -> node
NEGATIVE = 2  # need: node -> var(node)


@dataclass
class CnfBuilder:
    aig: AIG
    # AIG input name -> DimSpec literal (positive int) or None if not an allowed input here
    input_literal: Callable[[str], int]
    new_var: Callable[[], int]
    mode: str = "pg"  # "pg" | "tseitin"
    # AIG input names whose literal may stand for an AND node (next-state bits in T)
    aliasable: Callable[[str], bool] = lambda name: False
    clauses: list[list[int]] = field(default_factory=list)
    node_lit: dict[int, int] = field(default_factory=dict)  # node index -> DimSpec literal
    done: dict[int, int] = field(default_factory=dict)  # node index -> polarities emitted
    fanout: dict[int, int] = field(default_factory=dict)

    def literal(self, lit: int) -> int:
        """DimSpec literal of an AIG literal (allocating a variable for an AND node)."""
        node = lit >> 1
        dimspec = self.node_lit.get(node)
        if dimspec is None:
            kind = self.aig.nodes[node]
            if kind[0] == "input":
                dimspec = self.input_literal(kind[1])
            else:
                dimspec = self.new_var()
            self.node_lit[node] = dimspec
        return -dimspec if lit & 1 else dimspec

    def _count_fanout(self, root: int) -> None:
        nodes, fanout = self.aig.nodes, self.fanout
        seen: set[int] = set()
        stack = [root >> 1]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            entry = nodes[node]
            if entry[0] == "and":
                for child in (entry[1] >> 1, entry[2] >> 1):
                    fanout[child] = fanout.get(child, 0) + 1
                    stack.append(child)

    def _leaves(self, node: int, top: bool = False) -> list[int]:
        """Inputs (AIG literals) of the multi-input AND rooted at `node`, flattening through
        un-negated AND children with one fanout (top: flatten through shared ones too)."""
        nodes, node_lit, fanout = self.aig.nodes, self.node_lit, self.fanout
        result: list[int] = []
        stack = list(nodes[node][1:])
        while stack:
            child = stack.pop()
            c = child >> 1
            if (
                not child & 1
                and nodes[c][0] == "and"
                and c not in node_lit
                and (top or fanout.get(c, 0) <= 1)
            ):
                stack.extend(nodes[c][1:])
            else:
                result.append(child)
        return result

    def _require(self, lit: int, polarity: int) -> None:
        """Emit the definition of `lit`'s node for the polarity its occurrence needs."""
        if lit & 1:
            polarity = POSITIVE + NEGATIVE - polarity
        nodes, node_lit, done, clauses = self.aig.nodes, self.node_lit, self.done, self.clauses
        tseitin = self.mode == "tseitin"
        work = [(lit >> 1, polarity)]
        while work:
            node, pol = work.pop()
            if nodes[node][0] != "and":
                continue
            if tseitin:
                pol = POSITIVE | NEGATIVE
            have = done.get(node, 0)
            missing = pol & ~have
            if not missing:
                continue
            done[node] = have | missing
            g = node_lit.get(node)
            if g is None:
                g = self.literal(2 * node)
            leaves = self._leaves(node)
            for leaf in leaves:  # variables in the order the clauses below name them first
                if leaf >> 1 not in node_lit:
                    self.literal(leaf)
            lits = [-node_lit[leaf >> 1] if leaf & 1 else node_lit[leaf >> 1] for leaf in leaves]
            if missing & POSITIVE:
                for leaf_lit in lits:
                    clauses.append([-g, leaf_lit])
            if missing & NEGATIVE:
                clauses.append([g] + [-leaf_lit for leaf_lit in lits])
            for leaf in leaves:
                leaf_pol = missing
                if leaf & 1:
                    leaf_pol = ((missing & POSITIVE) and NEGATIVE) | ((missing & NEGATIVE) and POSITIVE)
                work.append((leaf >> 1, leaf_pol))

    def _find_and(self, a: int, b: int) -> int:
        """Literal of the existing AND node (a ∧ b), or -2 (never a conjunct) if none."""
        return self.aig.strash.get((min(a, b), max(a, b)), -2)

    def _input_name(self, lit: int) -> str | None:
        entry = self.aig.nodes[lit >> 1]
        return entry[1] if entry[0] == "input" else None

    def define(self, lit: int) -> int:
        """The DimSpec literal of AIG literal `lit` with its full definition (both polarities of
        every node below it), so the literal equals the formula in every model: a fact that is
        assumed in one step and negated in the next needs both (Houdini, llumc/invariants).
        Constants get a fresh variable fixed by a unit clause."""
        if lit in (TRUE, FALSE):
            v = self.new_var()
            self.clauses.append([v] if lit == TRUE else [-v])
            return v
        self._count_fanout(lit)
        self._require(lit, POSITIVE | NEGATIVE)
        return self.literal(lit)

    def add_root(self, root: int) -> None:
        """Assert AIG literal `root`."""
        if root == TRUE:
            return
        if root == FALSE:
            v = self.new_var()
            self.clauses += [[v], [-v]]
            return
        self._count_fanout(root)
        if root & 1 or self.aig.nodes[root >> 1][0] != "and":
            conjuncts = [root]
        else:
            conjuncts = self._leaves(root >> 1, top=True)
        present = set(conjuncts)
        used: set[int] = set()
        # Next-state aliasing: conjuncts ¬(n ∧ ¬f) and ¬(¬n ∧ f) say n <-> f.
        for c in conjuncts:
            if c in used or not (c & 1) or self.aig.nodes[c >> 1][0] != "and":
                continue
            _, p, q = self.aig.nodes[c >> 1]
            for a, b in ((p, q), (q, p)):  # c = ¬(a ∧ b): a -> ¬b
                name = self._input_name(a)
                partner = self._find_and(a ^ 1, b ^ 1) ^ 1  # ¬(¬a ∧ ¬b): ¬a -> b
                if (
                    name is not None
                    and not a & 1
                    and self.aliasable(name)
                    and partner in present
                    and partner not in used
                    and self.aig.nodes[b >> 1][0] == "and"
                    and (b >> 1) not in self.node_lit
                ):
                    # a <-> ¬b: the node of b gets literal ¬a (adjusted for b's sign)
                    n_lit = self.literal(a)
                    self.node_lit[b >> 1] = n_lit if b & 1 else -n_lit
                    used.update((c, partner))
                    self._require(b >> 1 << 1, POSITIVE | NEGATIVE)
                    break
        for c in conjuncts:
            if c in used:
                continue
            if c & 1 and self.aig.nodes[c >> 1][0] == "and":
                leaves = self._leaves(c >> 1)
                self.clauses.append([-self.literal(leaf) for leaf in leaves])
                for leaf in leaves:
                    self._require(leaf, NEGATIVE)
            else:
                self.clauses.append([self.literal(c)])
                self._require(c, POSITIVE)
