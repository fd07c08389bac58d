"""Word-level candidates → DimSpec literals → Houdini → a checked strengthening of the system.

Each candidate (a 1-bit term over the state variables at one cut point) is read as
`curr == cut → fact`, bit-blasted through the same Boolector path as the system itself (one
shared AIG, so candidates share their circuits) and given a full Tseitin definition over the
DimSpec state bits. `solvers.strengthen` then keeps the largest inductive subset. The semantics
are the machine's: a fact that holds over mathematical integers but not with wrap-around is
false in some reachable state and is dropped, never trusted.
"""

from __future__ import annotations

import re
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

from solvers.strengthen import Lemmas, check_lemmas, extend, houdini
from solvers.transys import TransitionSystem

from llumc.bitblast.aig import AIG
from llumc.bitblast.blast import blast, parse_leaf_bit
from llumc.bitblast.cnf import CnfBuilder
from llumc.pipeline import EncodeResult, read_symbol_map
from llumc.invariants.candidates import Candidate
from llumc.encoding.terms import Term, state_leaves


@dataclass
class LoopInvariant:
    """The facts proven at one cut point, as the user (and an SV-COMP witness) reads them."""

    cut: str
    line: int | None
    column: int | None
    function: str
    expression: str  # C: a witness's `c_expression`
    # facts about memory contents over all indices (`\forall k: k < i ==> a[k] == 0`, from a
    # tracked cell) and sizes of nondeterministic objects (`a.size == 4*n`): not C, so not in
    # `expression` (nor in a witness), shown beside it
    memory: str = ""

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column, "function": self.function,
                "expression": self.expression, "memory": self.memory}


@dataclass
class Strengthening:
    """What the invariant search found: the inductive subset of the candidates, as literals
    over an extension of the system (`lemmas`, all of them kept), and the system with them
    conjoined to U. `check` proves, by fresh SAT calls on the original system, that the
    conjunction is an inductive invariant: no TRUE may rest on it before that."""

    original: TransitionSystem
    kept: list[Candidate]
    lemmas: Lemmas
    system: TransitionSystem
    loops: list[LoopInvariant] = field(default_factory=list)

    # facts used at reads (llumc.invariants.instances): `restricted` is the original system with
    # the instances of the facts `first` (proven on the original) conjoined to U; the kept facts
    # are inductive on it, as `restricted_lemmas` over its variables
    first: "Strengthening | None" = None
    restricted: TransitionSystem | None = None
    restricted_lemmas: Lemmas | None = None
    instances: int = 0

    def check(self, solver: str = "cadical195", deadline: float | None = None) -> None:
        """CheckFailed if the conjunction is not inductive on the original system (a bug in the
        search); CheckTimeout if `deadline` passed first. With facts used at reads: the facts the
        instances come from inductive on the original system, and all kept facts inductive on
        the system the instances restrict (a fact about two cells with its own instances before
        the step: `restricted_lemmas.pre_literals`)."""
        if self.first is None:
            check_lemmas(self.original, self.lemmas, list(range(len(self.kept))), solver=solver, deadline=deadline)
            return
        self.first.check(solver, deadline)
        check_lemmas(self.restricted, self.restricted_lemmas, list(range(len(self.kept))), solver=solver,
                     deadline=deadline)


def guarded_terms(encoded: EncodeResult, candidates: list[Candidate]) -> list[Term]:
    """`curr == code(cut) → fact` for every candidate."""
    word = encoded.word
    tb = word.terms
    curr = word.curr
    codes = {b.name: b.code for b in word.blocks}
    out = []
    for cand in candidates:
        at_cut = tb.eq(tb.state(curr.index, curr.width), tb.const(codes[cand.cut], curr.width))
        out.append(tb.or_(tb.not_(at_cut), cand.term))
    return out


class OutOfTime(Exception):
    """The deadline passed while the candidates were bit-blasted."""


def blast_candidates(encoded: EncodeResult, candidates: list[Candidate], deadline: float | None = None,
                     extra: list[Term] = ()) -> Lemmas:
    """One literal per candidate over n+1.. (full definitions), n = the encoded system's n, then
    one per `extra` term (already guarded; it may read the step's inputs too: the instances of
    llumc.invariants.instances). Raises OutOfTime when `deadline` passes first."""
    ts = encoded.ts
    symbols = read_symbol_map(ts.comments)
    first_bit = {var.index: sym.lo for var, sym in zip(encoded.word.state, symbols.state)}
    input_bit = {var.index: sym.lo for var, sym in zip(encoded.word.inputs, symbols.inputs)} if extra else {}
    next_var = ts.n + 1

    def new_var() -> int:
        nonlocal next_var
        next_var += 1
        return next_var - 1

    def leaf(name: str) -> int:
        kind, index, bit = parse_leaf_bit(name)
        if kind == "input" and index in input_bit:
            return input_bit[index] + bit
        if kind != "state":
            raise ValueError(f"an invariant candidate may only read state variables, not {name}")
        return first_bit[index] + bit

    aig, roots = _blasted_terms(encoded)
    builder = CnfBuilder(aig, leaf, new_var, mode="tseitin")
    literals = []
    for term in guarded_terms(encoded, candidates) + list(extra):
        root = roots.get(term.uid)
        if root is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise OutOfTime()
            # native division: a candidate's `%` must be a function of the state, with no
            # auxiliary quotient left to choose
            root = roots[term.uid] = blast([term], aig, division="native")
        literals.append(builder.define(root))
    return Lemmas(n=ts.n, n_ext=next_var - 1, definitions=builder.clauses, literals=literals)


# The circuits of the terms blasted for a system's candidates, kept with the system: a search
# blasts most candidates two or three times (each Houdini round, the facts used at reads, the
# kept facts alone), and Boolector's dump and its reading were half of Houdini's time on a
# bubble sort of 1 000 cells (3.9 s of 6.7 s). Only the AIG is shared: each call numbers its
# own DimSpec variables.
# (By id, dropped when the system goes: its dataclass is not hashable.)
_BLASTED: dict[int, tuple[AIG, dict[int, int]]] = {}


def _blasted_terms(encoded: EncodeResult) -> tuple[AIG, dict[int, int]]:
    """The AIG of `encoded`'s blasted candidate terms and each term's root (by term uid)."""
    key = id(encoded.word)
    entry = _BLASTED.get(key)
    if entry is None:
        entry = _BLASTED[key] = (AIG(), {})
        weakref.finalize(encoded.word, _BLASTED.pop, key, None)
    return entry


def _location(encoded: EncodeResult, cut: str) -> tuple[int | None, int | None, str]:
    """(line, column, function) of a cut point: the loop's own keyword where the module says
    (`DebugInfo.scope_at`), else the block's first located instruction."""
    line = next((b.line for b in encoded.word.blocks if b.name == cut), None)
    scope = encoded.debug.scope_at(cut) if encoded.debug is not None else None
    if scope is not None and scope.line is not None:
        return scope.line, scope.column, scope.function or "main"
    column = None
    if encoded.fn is not None and encoded.debug is not None:
        for ins in encoded.fn.block(cut).instrs:
            where = encoded.debug.location_of(ins.text) if ins.text else None
            if where is not None:
                line = line or where[0]
                column = where[1] or None
                break
    return line, column, "main"


# An IR name (`%inc`, `%"x y"`) in a candidate's text: the fact is about a value that holds no C
# variable at its cut point. (The modulo operator is always written with spaces: ` % `.)
_IR_NAME = re.compile(r"%[\w.$\"-]")


_BOUND_TEXT = re.compile(r"^(.+) (<=|>=) (-?\d+)$")
_CASTS = re.compile(r"\((?:unsigned|unsigned long long)\)")


def readable(facts: list[str]) -> list[str]:
    """The facts without those the others plainly imply: of several bounds of one expression
    the tightest (`k <= 999999` beside `k <= 1000000`), an equation modulo 2**w beside the same
    equation over the integers. Dropping implied conjuncts does not change the conjunction."""
    tightest: dict[tuple[str, str], int] = {}
    for fact in facts:
        m = _BOUND_TEXT.match(fact)
        if m and "||" not in fact:
            key, c = (m.group(1), m.group(2)), int(m.group(3))
            old = tightest.get(key)
            tightest[key] = c if old is None else (max(old, c) if m.group(2) == ">=" else min(old, c))
    exact = {fact for fact in facts if not _CASTS.search(fact)}
    out = []
    for fact in facts:
        m = _BOUND_TEXT.match(fact)
        if m and "||" not in fact and tightest[(m.group(1), m.group(2))] != int(m.group(3)):
            continue
        if _CASTS.search(fact) and "||" not in fact and _CASTS.sub("", fact) in exact:
            continue
        out.append(fact)
    return out


def loop_invariants(encoded: EncodeResult, kept: list[Candidate]) -> list[LoopInvariant]:
    """One conjunction per cut point, in the order of the program's blocks: the kept facts that
    are C expressions over the variables in scope there. Facts about values without a C name
    there still strengthen the system (the proof uses them) but are not shown: every conjunct
    shown is implied by the checked invariant, so the C text is an invariant too."""
    by_cut: dict[str, list[str]] = {}
    memory: dict[str, list[str]] = {}
    curr = encoded.word.curr
    initial = next((b.name for b in encoded.word.blocks if b.code == curr.init), None)
    for cand in kept:
        if cand.cut == initial:
            continue  # (a summary's runs == 0: about the initial state, no loop)
        facts = (memory if cand.kind == "tracked" else by_cut).setdefault(cand.cut, [])
        if cand.expression not in facts and not _IR_NAME.search(cand.expression):
            facts.append(cand.expression)
    by_cut = {cut: readable(facts) for cut, facts in by_cut.items()}
    out: list[LoopInvariant] = []
    at: dict[tuple, LoopInvariant] = {}
    for block in encoded.word.blocks:
        if by_cut.get(block.name) or memory.get(block.name):
            line, column, function = _location(encoded, block.name)
            found = LoopInvariant(block.name, line, column, function, " && ".join(by_cut.get(block.name, []))
                                  or "1", " && ".join(memory.get(block.name, [])))
            same = at.get((line, column, function)) if line is not None else None
            if same is None:
                at[(line, column, function)] = found
                out.append(found)
            else:
                # one C loop, several cut points (a function inlined at two calls, the clones of a
                # recursive one): each fact holds at its own copy only, the C loop is one of them
                same.expression = _either(same.expression, found.expression)
                same.memory = _either(same.memory, found.memory) if same.memory and found.memory else ""
    return out


def _either(first: str, second: str) -> str:
    if first == second:
        return first
    return "1" if "1" in (first, second) else f"({first}) || ({second})"


# SearchReport.reason of a search its caller ended (`cancelled`)
CANCELLED = "an engine answered first"


@dataclass
class SearchReport:
    candidates: int = 0
    kept: int = 0
    samples: int = 0
    seconds: float = 0.0
    houdini_calls: int = 0
    reason: str | None = None  # why nothing was found (no loop, timeout, ...)
    unfinished: "Rounds | None" = None  # rounds cut short by the deadline (`resume`); not in the JSON

    def to_json(self) -> dict:
        return {"candidates": self.candidates, "kept": self.kept, "samples": self.samples,
                "seconds": round(self.seconds, 3), "sat_calls": self.houdini_calls, "reason": self.reason}


# Houdini runs in rounds, the cheap and usually decisive facts first: each later round adds its
# candidates to those of the earlier rounds that finished; a round that runs out of time is
# given up (its candidates dropped, the earlier rounds' inductive set stands) and the next runs. A round that is not the last may use this share of what is left.
ROUND_SHARE = 0.5
# The families of the second round: many candidates each (pairs of variables, splits of the
# samples), which multiply Houdini's SAT calls.
WIDE_KINDS = frozenset({"combination", "disjunction"})


def is_costly(candidate: Candidate) -> bool:
    """A product of two non-constant values (a polynomial fact, exact or modular): SAT solvers
    decide multiplier circuits slowly, so Houdini runs these last, and a slow product cannot
    cost the other facts. Division and remainder by a constant are cheap."""
    seen: set[int] = set()
    stack = [candidate.term]
    while stack:
        term = stack.pop()
        if term.uid in seen:
            continue
        seen.add(term.uid)
        if term.op == "mul" and all(arg.op != "const" for arg in term.args):
            return True
        stack.extend(term.args)
    return False


def houdini_round_of(candidate: Candidate) -> int:
    """0: single facts; 1: exact products (few, needed by polynomial loops such as gauss's
    `2*s == i*i + i`); 2: combinations and disjunctions (many); 3: products modulo 2**w (needed
    only where the exact ones wrap around). A candidate marked `first_round` (few: what scaled
    runs showed) joins the first round unless it is a product."""
    if is_costly(candidate):
        return 3 if candidate.kind == "modular" else 1
    return 2 if candidate.kind in WIDE_KINDS and not candidate.first_round else 0


def strengthen(encoded: EncodeResult, candidates: list[Candidate], *, deadline: float | None,
               solver: str = "cadical195", cancelled: Callable[[], bool] | None = None
               ) -> tuple[Strengthening | None, SearchReport]:
    """Houdini over the candidates, in rounds (`houdini_round_of`), then the survivors re-blasted
    alone (dropped candidates would only cost the engines clauses). Not checked here:
    `Strengthening.check` runs, with fresh solvers, before any TRUE that rests on it. Rounds
    cut short by the deadline are left in `report.unfinished`, for `resume`; so are the rounds
    not begun once `cancelled()` says so."""
    started = time.monotonic()
    report = SearchReport(candidates=len(candidates))
    if not candidates:
        report.reason = "no candidates"
        return None, report
    by_round: dict[int, list[Candidate]] = {}
    for cand in candidates:
        by_round.setdefault(houdini_round_of(cand), []).append(cand)
    rounds = Rounds(encoded, [by_round[r] for r in sorted(by_round)], solver)
    rounds.run(deadline, report, cancelled=cancelled)
    result = rounds.strengthening(deadline, report)
    if result is None and rounds.pending and cancelled is not None and cancelled():
        report.reason = CANCELLED
    report.unfinished = rounds if rounds.pending else None
    report.seconds = time.monotonic() - started
    return result, report


def resume(rounds: Rounds, *, deadline: float | None) -> tuple[Strengthening | None, SearchReport]:
    """The rounds `strengthen` left unfinished, run again until `deadline` (the engines run
    meanwhile: `llumc.check.portfolio`): a Strengthening that keeps more facts than before, or
    None. Its facts include the earlier ones, since a set inductive alone stays in every
    larger fixpoint. The first round cut short may take all of the time: it is the one the
    later rounds were ordered after (products before products modulo 2**w); and the first
    round that keeps more facts ends the call, so that the engines have them at once."""
    report = SearchReport(candidates=sum(len(batch) for batch in rounds.batches))
    if not rounds.run(deadline, report, share=1.0, until_more=True):
        return None, report
    return rounds.strengthening(deadline, report), report


@dataclass
class Rounds:
    """Houdini's rounds over one program's candidates (`houdini_round_of`), as far as they got:
    the candidates of the rounds that finished (`accepted`), their largest inductive subset
    (`kept`: None before any round finished), and the rounds not run or cut short by their
    deadline (`pending`), which `run` tries again. Why rounds may be tried again: under load a
    round of products took 9 s where it takes 1.8 s alone, past its share of the search,
    while the engines after it had 45 s they could not use without it."""

    encoded: EncodeResult
    batches: list[list[Candidate]]
    solver: str
    accepted: list[Candidate] = field(default_factory=list)
    kept: list[Candidate] | None = None
    pending: list[int] = field(init=False)  # at first every round
    # a round cut short -> (how many candidates were accepted then, the candidates it had not
    # dropped): run again over the same candidates (none accepted since), it starts from these.
    # Why that loses nothing: Houdini drops a candidate only when it fails relative to a
    # superset of the fixpoint, so no dropped one is in the fixpoint of those candidates.
    cut: dict[int, tuple[int, list[Candidate]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.pending = list(range(len(self.batches)))

    def state(self) -> tuple:
        """How far the rounds got, as positions among the candidates (to send from a child,
        whose candidates are copies): the accepted ones, the kept ones, the pending rounds,
        the rounds cut short with the candidates they had not dropped."""
        position = {id(cand): i for i, cand in enumerate(cand for batch in self.batches for cand in batch)}
        kept = None if self.kept is None else [position[id(cand)] for cand in self.kept]
        cut = {number: (count, [position[id(cand)] for cand in remaining])
               for number, (count, remaining) in self.cut.items()}
        return [position[id(cand)] for cand in self.accepted], kept, list(self.pending), cut

    def restore(self, state: tuple) -> None:
        """The rounds as far as `state` (`Rounds.state`, from a copy of these rounds) says."""
        every = [cand for batch in self.batches for cand in batch]
        accepted, kept, self.pending, cut = state
        self.accepted = [every[i] for i in accepted]
        self.kept = None if kept is None else [every[i] for i in kept]
        self.cut = {number: (count, [every[i] for i in remaining]) for number, (count, remaining) in cut.items()}

    def run(self, deadline: float | None, report: SearchReport, share: float = ROUND_SHARE,
            until_more: bool = False, cancelled: Callable[[], bool] | None = None) -> bool:
        """The pending rounds in order, each but the last within `share` of the time left;
        `until_more`: only until one keeps more facts (the rest stay pending); `cancelled()`:
        asked before each round, the rest stay pending once it is true. Whether more facts
        are kept than before."""
        todo, self.pending = self.pending, []
        before = len(self.kept) if self.kept is not None else 0
        more = lambda: self.kept is not None and len(self.kept) > before  # noqa: E731
        for position, number in enumerate(todo):
            if until_more and more() or cancelled is not None and cancelled():
                self.pending += todo[position:]
                break
            until = deadline
            if deadline is not None:
                now = time.monotonic()
                if now >= deadline:
                    self.pending += todo[position:]
                    break
                if position < len(todo) - 1:
                    until = now + share * (deadline - now)
            batch = self.batches[number]
            # every candidate so far, not the survivors alone: a fact dropped earlier may be
            # inductive relative to this round's (l >= 1 once l - k is bounded)
            candidates = self.accepted + batch
            earlier = self.cut.pop(number, None)
            if earlier is not None and earlier[0] == len(self.accepted):
                candidates = earlier[1]  # the same candidates: what the cut attempt dropped stays out
            survivors, remaining = _houdini_round(self.encoded, candidates, until, self.solver, report,
                                                  self.kept or [])
            if survivors is None:
                self.pending.append(number)  # out of time: given up for now, the next may run
                if remaining is not None:
                    self.cut[number] = (len(self.accepted), remaining)
                continue
            self.accepted += batch
            self.kept = survivors
        return more()

    def strengthening(self, deadline: float | None, report: SearchReport) -> Strengthening | None:
        """The kept facts as a Strengthening (None, with the reason in `report`, if none)."""
        if self.kept is None:
            report.reason = "timeout"
            return None
        report.kept = len(self.kept)
        if not self.kept:
            short = len(self.pending)
            report.reason = "no candidate is inductive" + (
                f" ({short} of {len(self.batches)} rounds out of time)" if short else "")
            return None
        encoded, kept = self.encoded, self.kept
        lemmas = blast_candidates(encoded, kept)
        result = Strengthening(
            original=encoded.ts, kept=kept, lemmas=lemmas, system=extend(encoded.ts, lemmas, list(range(len(kept)))),
            loops=loop_invariants(encoded, kept),
        )
        restricted = _used_at_reads(encoded, result, self.accepted, deadline, self.solver, report)
        if restricted is not None:
            result = restricted
            report.kept = len(result.kept)
        return result


def _used_at_reads(encoded: EncodeResult, first: Strengthening, candidates: list[Candidate],
                   deadline: float | None, solver: str, report: SearchReport) -> Strengthening | None:
    """Houdini once more on the system whose havoc reads are restricted by the kept facts
    about tracked cells (llumc.invariants.instances), the facts kept so far assumed: the facts
    that need the contents of the cells a loop reads (`sum == i` over an array of ones). None
    where no fact applies to a read, nothing more is inductive, or time runs out.

    A fact about two cells of an array (`k < l ⇒ a[k] <= a[l]`) is inductive only with its
    own instances at the reads of the step (the swap reads a[j] and a[j+1]): its pre-literal
    (`Lemmas.pre_literals`) is the fact with them (`_own_instances`, `_blast_with_instances`)."""
    from llumc.invariants.instances import content_instances

    instances = content_instances(encoded.word, first.kept)
    known = {id(cand) for cand in first.kept}
    rest = [cand for cand in candidates if id(cand) not in known]
    if not rest:
        return None
    own = _own_instances(encoded, rest)
    if not (instances or own) or (deadline is not None and time.monotonic() >= deadline):
        return None
    ordered = first.kept + rest
    try:
        lemmas, pre = _blast_with_instances(encoded, ordered, instances, own, deadline)
    except OutOfTime:
        return None
    restricted_ts = extend(encoded.ts, lemmas, list(range(len(ordered), len(ordered) + len(instances))))
    over = Lemmas(n=restricted_ts.n, n_ext=restricted_ts.n, literals=lemmas.literals[:len(ordered)],
                  pre_literals=pre)
    found = houdini(restricted_ts, over, solver=solver, deadline=deadline, assumed=list(range(len(first.kept))))
    report.houdini_calls += found.sat_calls
    if found.kept is None or len(found.kept) == len(first.kept):
        return None
    kept = [ordered[i] for i in found.kept]
    # re-blasted alone: the kept facts and the instances over the original system
    final, pre = _blast_with_instances(encoded, kept, instances, own, None)
    restricted = extend(encoded.ts, final, list(range(len(kept), len(kept) + len(instances))))
    restricted_lemmas = Lemmas(n=restricted.n, n_ext=restricted.n, literals=final.literals[:len(kept)],
                               pre_literals=pre)
    return Strengthening(
        original=encoded.ts, kept=kept, lemmas=final, system=extend(restricted, restricted_lemmas,
                                                                   list(range(len(kept)))),
        loops=loop_invariants(encoded, kept), first=first, restricted=restricted,
        restricted_lemmas=restricted_lemmas, instances=len(instances),
    )


def _own_instances(encoded: EncodeResult, candidates: list[Candidate]) -> dict[int, list[Term]]:
    """id(candidate) -> its instances at reads, for the facts about two tracked cells of one
    object (`MemoryObject.pair_index`). Why only those: a fact about one cell is proven
    without them (the loop writes the cell it reads), and each instance is a circuit in every
    step."""
    from llumc.invariants.instances import content_instances

    pairs = {obj.pair_value.index for obj in encoded.word.memory_objects
             if getattr(obj, "pair_value", None) is not None}
    out: dict[int, list[Term]] = {}
    for cand in candidates:
        if cand.kind == "tracked" and pairs & state_leaves(cand.term):
            found = content_instances(encoded.word, [cand])
            if found:
                out[id(cand)] = found
    return out


def _blast_with_instances(encoded: EncodeResult, candidates: list[Candidate], instances: list[Term],
                          own: dict[int, list[Term]], deadline: float | None) -> tuple[Lemmas, list[int]]:
    """The candidates, then the `instances`, then for each candidate with instances of its own
    its guarded fact with them, blasted (`blast_candidates`); and each candidate's pre-literal:
    that last literal, or its own."""
    tb = encoded.word.terms
    guarded = guarded_terms(encoded, candidates)
    with_own = [i for i, cand in enumerate(candidates) if id(cand) in own]
    extra = list(instances) + [tb.all_of([guarded[i], *own[id(candidates[i])]]) for i in with_own]
    lemmas = blast_candidates(encoded, candidates, deadline, extra=extra)
    pre = lemmas.literals[:len(candidates)]
    for position, i in enumerate(with_own):
        pre[i] = lemmas.literals[len(candidates) + len(instances) + position]
    return lemmas, pre


def _houdini_round(encoded: EncodeResult, candidates: list[Candidate], deadline: float | None,
                   solver: str, report: SearchReport, inductive: list[Candidate] = ()
                   ) -> tuple[list[Candidate] | None, list[Candidate] | None]:
    """The largest inductive subset of `candidates`, or None if `deadline` passed first, and
    then the candidates not dropped by then, if any were asked about (a superset of that
    subset, `HoudiniResult.remaining`). `inductive`: some of them, known inductive together
    (assumed, not asked about again)."""
    try:
        lemmas = blast_candidates(encoded, candidates, deadline)
    except OutOfTime:
        return None, None
    known = {id(cand) for cand in inductive}
    found = houdini(encoded.ts, lemmas, solver=solver, deadline=deadline,
                    assumed=[i for i, cand in enumerate(candidates) if id(cand) in known])
    report.houdini_calls += found.sat_calls
    if found.kept is None:
        return None, None if found.remaining is None else [candidates[i] for i in found.remaining]
    return [candidates[i] for i in found.kept], None
