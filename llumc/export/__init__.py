"""Exports of the word-level transition system to the model checkers' exchange formats:
AIGER 1.9 (`aiger.py`, bit level) and BTOR2 (`btor2.py`, word level). DimSpec, the third
format of `llumc encode`, is written by `llumc.pipeline` itself.

Both exports carry llumc's symbol map (the DimSpec comment lines of `llumc.pipeline`, with the
variable ranges of the target format) so a trace can be read back in C terms.
"""

from __future__ import annotations

from llumc.encoding.transys import WordTransitionSystem

FORMATS = ("dimspec", "aiger", "btor2")


def symbol_lines(wts: WordTransitionSystem, state_first: list[int], input_first: list[int], *,
                 words: bool = False) -> list[str]:
    """llumc's symbol map (see `llumc.pipeline`) with the numbers of the target format:
    `state_first[k]` is the variable of bit 0 of `wts.state[k]`, its other bits follow it
    (AIGER variables); with `words` it is the node id of the whole word (BTOR2: lo = hi)."""

    def dash(value) -> str:
        return "-" if value in (None, "", []) else str(value)

    lines = ["llumc-symbols 1", f"source {wts.source}", f"property {wts.prop}", f"scheme {wts.scheme}"]
    lines += [f"block {b.code} {b.name} {dash(b.line)}" for b in wts.blocks]
    lines += [f"fused {name} {head}" for name, head in wts.fused.items()]
    if wts.regions:
        for head, members in wts.step_blocks.items():
            lines += [f"member {name} {head}" for name, _cond in members if name != head]
    for var, first in zip(wts.state, state_first):
        last = first if words else first + var.width - 1
        lines.append(f"state {first} {last} {var.kind} {var.name} {dash(','.join(var.c_names))}")
    for inp, first in zip(wts.inputs, input_first):
        last = first if words else first + inp.width - 1
        lines.append(f"input {first} {last} {inp.site} {dash(inp.ir_name)} {inp.block} "
                     f"{dash(inp.line)}")
    return lines


def word_system(path, *, prop: str = "unreach-call", m32: bool = False, scheme: str = "lbe",
                clang: str | None = None, check_div_by_zero: bool = False,
                check_shift: bool = False, recursion_depth: int | None = None,
                call_stack: bool | None = None) -> WordTransitionSystem:
    """C file -> the word-level transition system, as `llumc.pipeline.encode_file` builds it
    (same front end, checks and scheme), without bit-blasting it to DimSpec."""
    from llumc.frontend.cfg import read_main
    from llumc.frontend.compile import Checks, classify_call, compile_c
    from llumc.pipeline import build_transition_system

    checks = Checks(overflow=prop in ("no-overflow", "all"), div_by_zero=check_div_by_zero, shift=check_shift)
    depth = {} if recursion_depth is None else {"recursion_depth": recursion_depth}
    front = compile_c(path, m32=m32, clang=clang, checks=checks, wrapv=not checks.overflow, call_stack=call_stack,
                      **depth)
    fn = read_main(front.module, front.debug, str(path))
    return build_transition_system(fn, prop=prop, scheme=scheme, classify=classify_call, debug=front.debug)


def export(path, fmt: str, *, binary: bool = True, **options) -> tuple[bytes, list[str]]:
    """C file -> the bytes of its AIGER or BTOR2 model and size lines for `--stats`."""
    import time

    from llumc.export.aiger import build_aiger
    from llumc.export.btor2 import write_btor2
    from solvers.aiger import write_aiger

    start = time.perf_counter()
    wts = word_system(path, **options)
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    if fmt == "aiger":
        exported = build_aiger(wts)
        aig = exported.aig
        data = write_aiger(aig, binary=binary, symbols=exported.symbols)
        stats = [f"inputs           {len(aig.inputs)}",
                 f"latches          {len(aig.latches)}" + (" (one initialisation latch)" if exported.general_init else ""),
                 f"AND gates        {len(aig.ands)}",
                 f"constraints      {len(aig.constraints)}"]
    elif fmt == "btor2":
        data = write_btor2(wts).encode()
        nodes = sum(1 for line in data.decode().splitlines() if line and not line.startswith(";"))
        stats = [f"state variables  {len(wts.state)}", f"inputs           {len(wts.inputs)}", f"nodes            {nodes}"]
    else:
        raise ValueError(f"unknown export format {fmt}")
    stats.append(f"seconds          front end and transys {seconds:.2f}, {fmt} {time.perf_counter() - start:.2f}")
    return data, stats
