"""Which pointer values of `main` are live where: backward liveness over its SSA blocks.

Two users: the large-block encoder's roots of valid-memtrack (the pointers live where a step
starts: a state variable keeps its last value after the value died, so only live ones count),
and the heap pools' reuse of freed objects (no pointer of an earlier run may be live where an
allocation site runs again, `MemoryEncoder._recycles`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llumc.frontend.cfg import POINTER_WIDTH, Block, Function, Ref


def successors(block: Block) -> list[str]:
    """Distinct CFG successors of a block, in terminator order."""
    term = block.instrs[-1]
    out: list[str] = []
    for target in term.targets + [dest for _, dest in term.cases]:
        if target not in out:
            out.append(target)
    return out


@dataclass
class PointerLiveness:
    """Live pointer values (instruction keys) at each block's start (after its phis, which
    count when used) and just before any instruction. A phi's operand is used on its edge,
    not in the phi's block."""

    fn: Function
    start: dict[str, set[int]] = field(default_factory=dict)
    phi_defs: dict[str, set[int]] = field(default_factory=dict)
    edge_uses: dict[tuple[str, str], set[int]] = field(default_factory=dict)

    @classmethod
    def of(cls, fn: Function) -> "PointerLiveness":
        live = cls(fn)
        pointers = {ins.key for b in fn.blocks for ins in b.instrs if ins.width == POINTER_WIDTH}
        uses: dict[str, set[int]] = {}
        defs: dict[str, set[int]] = {}
        for b in fn.blocks:
            used, defined, phis = set(), set(), set()
            for ins in b.instrs:
                if ins.opcode == "phi":
                    if ins.key in pointers:
                        phis.add(ins.key)
                    for value, pred in ins.incoming:
                        if isinstance(value, Ref) and value.key in pointers:
                            live.edge_uses.setdefault((pred, b.name), set()).add(value.key)
                    continue
                used |= {op.key for op in ins.operands
                         if isinstance(op, Ref) and op.key in pointers and op.key not in defined}
                defined.add(ins.key)
            uses[b.name], defs[b.name], live.phi_defs[b.name] = used, defined, phis
        live.start = {b.name: set() for b in fn.blocks}
        changed = True
        while changed:
            changed = False
            for b in reversed(fn.blocks):
                new = uses[b.name] | (live.live_out(b) - defs[b.name])
                if new != live.start[b.name]:
                    live.start[b.name], changed = new, True
        return live

    def live_out(self, block: Block) -> set[int]:
        out: set[int] = set()
        for target in successors(block):
            out |= (self.start[target] - self.phi_defs[target]) | self.edge_uses.get((block.name, target), set())
        return out

    def before(self, block: Block, position: int) -> set[int]:
        """The pointer values live just before `block.instrs[position]` runs (its own operands
        among them)."""
        live = self.live_out(block)
        pointers = None
        for ins in reversed(block.instrs[position:]):
            if ins.opcode == "phi":
                continue
            live.discard(ins.key)
            if pointers is None:
                pointers = self._pointers()
            live |= {op.key for op in ins.operands if isinstance(op, Ref) and op.key in pointers}
        return live

    def _pointers(self) -> set[int]:
        return {ins.key for b in self.fn.blocks for ins in b.instrs if ins.width == POINTER_WIDTH}
