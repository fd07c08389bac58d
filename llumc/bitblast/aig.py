"""And-inverter graph with structural hashing and constant propagation, and an AIGER (aag)
reader for Boolector's dumps.

Literals follow AIGER: 0 is false, 1 is true, 2*i is node i, 2*i+1 its negation. Nodes are
either named inputs or two-input ANDs. Reading Boolector's dump into this graph (rather than
converting the dump's gates one by one) re-hashes and re-propagates: gates that become
duplicates or constants once we identify inputs across dumps disappear.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FALSE = 0
TRUE = 1


def negate(lit: int) -> int:
    return lit ^ 1


@dataclass
class AIG:
    # node index -> ("input", name) or ("and", a, b); index 0 is the constant.
    nodes: list[tuple] = field(default_factory=lambda: [("const",)])
    strash: dict[tuple[int, int], int] = field(default_factory=dict)
    inputs: dict[str, int] = field(default_factory=dict)  # name -> positive literal

    def input(self, name: str) -> int:
        lit = self.inputs.get(name)
        if lit is None:
            lit = 2 * len(self.nodes)
            self.nodes.append(("input", name))
            self.inputs[name] = lit
        return lit

    def and_(self, a: int, b: int) -> int:
        if a > b:
            a, b = b, a
        if a == FALSE or a == negate(b):
            return FALSE
        if a == TRUE or a == b:
            return b
        key = (a, b)
        lit = self.strash.get(key)
        if lit is None:
            lit = 2 * len(self.nodes)
            self.nodes.append(("and", a, b))
            self.strash[key] = lit
        return lit

    def or_(self, a: int, b: int) -> int:
        return negate(self.and_(negate(a), negate(b)))

    def node(self, lit: int) -> tuple:
        return self.nodes[lit >> 1]

    def is_and(self, lit: int) -> bool:
        return self.nodes[lit >> 1][0] == "and"

    def evaluate(self, lits: list[int], values: dict[str, bool]) -> list[bool]:
        """Values of `lits` under an assignment to the named inputs (missing inputs: false)."""
        memo: dict[int, bool] = {0: False}

        def value(lit: int) -> bool:
            idx = lit >> 1
            stack = [idx]
            while stack:
                i = stack[-1]
                if i in memo:
                    stack.pop()
                    continue
                node = self.nodes[i]
                if node[0] == "input":
                    memo[i] = bool(values.get(node[1], False))
                    stack.pop()
                    continue
                pending = [c >> 1 for c in node[1:] if (c >> 1) not in memo]
                if pending:
                    stack.extend(pending)
                    continue
                stack.pop()
                memo[i] = all(memo[c >> 1] ^ bool(c & 1) for c in node[1:])
            return memo[idx] ^ bool(lit & 1)

        return [value(lit) for lit in lits]

    def read_aag(self, text: str | list[str]) -> list[int]:
        """Add an ASCII AIGER combinational circuit to this graph; return its outputs as
        literals of this graph. Inputs are identified by their symbol names (Boolector names
        bit i of variable v `v[i]`, and a 1-bit variable just `v`). `text` may be given as its
        lines (`str.splitlines`), if the caller has split it already."""
        lines = text.splitlines() if isinstance(text, str) else text
        header = lines[0].split()
        if header[0] != "aag" or len(header) < 6:
            raise ValueError(f"not an ASCII AIGER file: {lines[0]!r}")
        _maxvar, n_in, n_latch, n_out, n_and = map(int, header[1:6])
        if n_latch:
            raise ValueError("sequential AIGER circuits are not expected from Boolector")
        input_lits = [int(lines[1 + i]) for i in range(n_in)]
        output_lits = [int(lines[1 + n_in + i]) for i in range(n_out)]
        first = 1 + n_in + n_out
        # the gates' numbers in one split (a split and a tuple per gate cost 0.2 s on RERS's T);
        # Boolector writes three per line; if the count does not fit, line by line (and raise)
        numbers = list(map(int, " ".join(lines[first:first + n_and]).split()))
        if len(numbers) == 3 * n_and:
            definition = {lhs >> 1: (rhs0, rhs1)
                          for lhs, rhs0, rhs1 in zip(numbers[0::3], numbers[1::3], numbers[2::3])}
        else:
            gates = [tuple(map(int, lines[first + i].split())) for i in range(n_and)]
            definition = {lhs >> 1: (rhs0, rhs1) for lhs, rhs0, rhs1 in gates}
        names: dict[int, str] = {}
        for line in lines[first + n_and:]:
            if line.startswith("c"):
                break
            if line.startswith("i"):
                pos, name = line[1:].split(" ", 1)
                names[int(pos)] = name
        mapping: dict[int, int] = {0: FALSE}
        for pos, lit in enumerate(input_lits):
            if pos not in names:
                raise ValueError(f"AIGER input {pos} has no symbol name")
            mapping[lit >> 1] = self.input(names[pos])

        def translate(lit: int) -> int:
            return mapping[lit >> 1] ^ (lit & 1)

        # ASCII AIGER does not promise topological order: translate depth-first. Boolector's
        # gates come in topological order, so a gate's inputs are usually translated already:
        # then the depth-first walk from it would do just this, without its stack.
        and_ = self.and_
        nodes, strash = self.nodes, self.strash
        for root, (rhs0, rhs1) in definition.items():
            if root in mapping:
                continue
            a = mapping.get(rhs0 >> 1)
            b = mapping.get(rhs1 >> 1)
            if a is not None and b is not None:
                a ^= rhs0 & 1
                b ^= rhs1 & 1
                if a > b:
                    a, b = b, a
                if a > TRUE and a != b and a != b ^ 1:  # `and_`'s new or hashed node, inline
                    lit = strash.get((a, b))
                    if lit is None:
                        lit = strash[(a, b)] = 2 * len(nodes)
                        nodes.append(("and", a, b))
                    mapping[root] = lit
                else:
                    mapping[root] = and_(a, b)
                continue
            stack = [root]
            while stack:
                var = stack[-1]
                if var in mapping:
                    stack.pop()
                    continue
                rhs0, rhs1 = definition[var]
                pending = [r >> 1 for r in (rhs0, rhs1) if (r >> 1) not in mapping]
                if pending:
                    stack.extend(pending)
                    continue
                stack.pop()
                mapping[var] = and_(translate(rhs0), translate(rhs1))
        return [translate(lit) for lit in output_lits]
