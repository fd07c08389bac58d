"""Lifetimes of locals: which locals a pointer may outlive, on the front end's IR text.

C ends an automatic object's lifetime where its block ends (or its function returns); a use
through a pointer afterwards is undefined behaviour (docs/memory.md). clang marks both ends
with `llvm.lifetime.start/end` (`-fsanitize-address-use-after-scope` asks for them at -O0),
but SROA deletes the markers and promotes the local, and the dead read becomes a read of the
last value: silently defined. So, on clang's text, the markers of every local whose address
escapes (stored, passed to a call, returned: all a -O0 pointer can do to outlive its scope)
become calls of our own functions, which capture the pointer, so SROA keeps the local in
memory (`protect_escaping_locals`). After inlining, the ones no access can follow the end of
are released again (`release_contained_locals`), so only a local a pointer may really outlive
stays memory, with a state bit for "alive" (llumc.encoding.memory) that the markers set and clear.

Text, not llvmlite: these run between clang's text and the first parse, and between the
inliner's print and the second parse, where the front end has the text anyway."""

from __future__ import annotations

import re
from collections.abc import Callable

from llumc.frontend.cfg import split_type
from llumc.frontend.libcmodels import MODELLED_FUNCTIONS

LIFETIME_START = "__llumc_lifetime_start"
LIFETIME_END = "__llumc_lifetime_end"
LIFETIME_FUNCTIONS = (LIFETIME_START, LIFETIME_END)
DECLARATIONS = "".join(f"\ndeclare void @{name}(ptr)\n" for name in LIFETIME_FUNCTIONS)

_NAME = r"%(?:[\w.$-]+|\"[^\"]*\")"
# LLVM 21's markers take the pointer only; older ones a size first
_LLVM_MARKER = re.compile(r"@llvm\.lifetime\.(start|end)\.p0\((?:i64 -?\d+, )?ptr (" + _NAME + r")\)")
_OUR_MARKER = re.compile(r"@(" + LIFETIME_START + "|" + LIFETIME_END + r")\(ptr (" + _NAME + r")\)")
_DEFINITION = re.compile(r"^\s+(" + _NAME + r") = ")
_LOAD = re.compile(r"^\s+" + _NAME + r" = load (?:volatile |atomic )?(?:\{[^{}]*\}|[^,]+), ptr (" + _NAME + r")(?:,|$)")
_STORE = re.compile(r"^\s+store (?:volatile |atomic )?(.+?), ptr (" + _NAME + r")(?:,|$)")
_GEP = re.compile(r"^\s+(" + _NAME + r") = getelementptr (?:[a-z]+(?:\(\S+\))? )*.*?, ptr (" + _NAME + r")(?=,|$)")
_MERGE = re.compile(r"^\s+(" + _NAME + r") = (?:phi|select|bitcast|addrspacecast|freeze)\b")
_MEMORY_INTRINSIC = re.compile(r"call void @llvm\.mem(?:set|cpy|move)\.")
_COMPARE = re.compile(r"^\s+" + _NAME + r" = icmp ")


def _uses(body: str, name: str) -> list[tuple[int, str]]:
    """(line start, line) of every line of `body` where `name` occurs as a whole operand."""
    found = []
    # the whole-operand test in the regex (C speed): with clang's value names discarded a
    # local is `%1`, which occurs inside `%10`...`%19999` on every line of a RERS function
    whole = re.compile(re.escape(name) if name.startswith('%"') else re.escape(name) + r"(?![\w.$-])")
    match = whole.search(body)
    while match is not None:
        position = match.start()
        start = body.rfind("\n", 0, position) + 1
        end = body.find("\n", position)
        end = len(body) if end < 0 else end
        if not found or found[-1][0] != start:
            found.append((start, body[start:end]))
        match = whole.search(body, end)
    return found


def _occurs(name: str, text: str) -> bool:
    return any(True for _ in _uses(text, name))


def _follow(body: str, root: str, merges: bool) -> tuple[bool, set[str], list[int], bool]:
    """Walk the pointers derived from `root` (GEPs; with `merges`, also phis and selects).
    Returns (the address escapes, the derived names, the line starts of accesses through
    them, some derived pointer is a phi's value). An escape is any use but a load's or
    store's address, a GEP's base, a memory intrinsic's operand, a comparison, a marker or a
    debug record."""
    derived, pending, accesses, carried = {root}, [root], [], False
    while pending:
        name = pending.pop()
        for start, line in _uses(body, name):
            definition = _DEFINITION.match(line)
            if definition and definition.group(1) == name:
                continue  # its own definition (a GEP's other operands are checked below)
            if "#dbg_" in line or "@llvm.dbg." in line or _LLVM_MARKER.search(line) or _OUR_MARKER.search(line):
                continue
            load = _LOAD.match(line)
            if load and load.group(1) == name:
                accesses.append(start)
                continue
            store = _STORE.match(line)
            if store and store.group(2) == name and not _occurs(name, store.group(1)):
                accesses.append(start)
                continue
            gep = _GEP.match(line)
            if gep and gep.group(2) == name and not _occurs(name, line[gep.end():]):
                if gep.group(1) not in derived:
                    derived.add(gep.group(1))
                    pending.append(gep.group(1))
                continue
            if _MEMORY_INTRINSIC.search(line):
                accesses.append(start)
                continue
            if _COMPARE.match(line):
                continue
            merge = _MERGE.match(line) if merges else None
            if merge:
                if " = phi " in line:
                    carried = True
                if merge.group(1) not in derived:
                    derived.add(merge.group(1))
                    pending.append(merge.group(1))
                continue
            return True, derived, accesses, carried
    return False, derived, accesses, carried


def _function_bodies(text: str) -> list[tuple[int, int]]:
    spans = []
    position = text.find("\ndefine ")
    while position >= 0:
        end = text.find("\n}\n", position)
        if end < 0:
            break
        spans.append((position + 1, end + 3))
        position = text.find("\ndefine ", end)
    return spans


_ALLOCA_NAME = re.compile(r"^  (" + _NAME + r") = alloca ", re.M)


def escapes(body: str, name: str) -> bool:
    """Whether the address of local `name` escapes in a function's -O0 `body` (stored, passed
    to a call, returned)."""
    return _follow(body, name, merges=True)[0]


def address_escapes(text: str) -> bool:
    """Whether some local's address escapes in clang's text (compiled without markers): only
    then does the front end ask clang for lifetime markers, which also reshape the code of
    scopes (cleanup blocks), so every other program keeps exactly the IR it had."""
    for start, end in _function_bodies(text):
        body = text[start:end]
        entry_end = body.find("\n\n")  # -O0 puts every alloca in the entry block
        entry = body if entry_end < 0 else body[:entry_end]
        for name in _ALLOCA_NAME.findall(entry):
            if _follow(body, name, merges=True)[0]:
                return True
    return False


def protect_escaping_locals(text: str) -> str:
    """clang's text with the markers of each local whose address escapes turned into calls
    of LIFETIME_START/LIFETIME_END (and their declarations added); unchanged without markers."""
    if "@llvm.lifetime." not in text:
        return text
    pieces, done, protected = [], 0, False
    for start, end in _function_bodies(text):
        body = text[start:end]
        if "@llvm.lifetime." not in body:
            continue
        marked = {match.group(2) for match in _LLVM_MARKER.finditer(body)}
        escaping = {name for name in marked if _follow(body, name, merges=True)[0]}
        if not escaping:
            continue

        def rename(match: re.Match) -> str:
            if match.group(2) not in escaping:
                return match.group(0)
            function = LIFETIME_START if match.group(1) == "start" else LIFETIME_END
            return f"@{function}(ptr {match.group(2)})"

        pieces += [text[done:start], _LLVM_MARKER.sub(rename, body)]
        done = end
        protected = True
    if not protected:
        return text
    pieces.append(text[done:])
    return _without_speculative_loads("".join(pieces)) + DECLARATIONS


# `__builtin_alloca(8)` at -O0: an alloca with an explicit constant count (locals have none)
_COUNTED_ALLOCA = re.compile(r"^  (" + _NAME + r") = alloca [^,\n]+, i\d+ \d+", re.M)
_RETURN = re.compile(r"^  ret ", re.M)


def mark_escaping_allocations(text: str) -> str:
    """clang's text with `__builtin_alloca`'s blocks of constant size in functions other than
    main marked as locals whose address escapes are: LIFETIME_START after the alloca,
    LIFETIME_END before each return. Why: such an alloca sits in its function's entry block, so
    the inliner hoists it into main's entry block as a static alloca, without the stack
    save/restore it puts around a dynamic one, and the block would live for the whole run,
    although it ends where its function returns (a pointer to it returned and read was a
    silent TRUE under valid-memsafety). Only where its address escapes (`_follow`)."""
    def mark(body: str) -> str | None:
        if _is_main(body):
            return None
        entry_end = body.find("\n\n")
        entry = body if entry_end < 0 else body[:entry_end]
        names = [name for name in _COUNTED_ALLOCA.findall(entry) if _follow(body, name, merges=True)[0]]
        if not names:
            return None
        for name in names:
            line = re.search(r"^  " + re.escape(name) + r" = alloca [^\n]*\n", body, re.M)
            body = body[:line.end()] + f"  call void @{LIFETIME_START}(ptr {name})\n" + body[line.end():]
        ends = "".join(f"  call void @{LIFETIME_END}(ptr {name})\n" for name in names)
        return _RETURN.sub(lambda match: ends + match.group(0), body)

    return _marked_functions(text, mark)


def _is_main(body: str) -> bool:
    return " @main(" in body.split("\n", 1)[0]


def _marked_functions(text: str, mark: Callable[[str], "str | None"]) -> str:
    """`text` with each function's body replaced by `mark(body)` where that is not None, and
    what the markers need: the functions' `sanitize_address` (`_without_speculative_loads`) and
    the marker functions' declarations; unchanged where no body changed."""
    pieces, done = [], 0
    for start, end in _function_bodies(text):
        marked = mark(text[start:end])
        if marked is None:
            continue
        pieces += [text[done:start], marked]
        done = end
    if not pieces:
        return text
    pieces.append(text[done:])
    result = _without_speculative_loads("".join(pieces))
    return result if f"declare void @{LIFETIME_START}(ptr)" in result else result + DECLARATIONS


_DBG = re.compile(r"!dbg !(\d+)")
_DECLARED = re.compile(r"#dbg_declare\(ptr (" + _NAME + r"),")
_BYVAL_PARAMETER = re.compile(r"ptr (?:noundef |nonnull |noalias )*byval\(([^)]+)\) (?:align (\d+) )?(" + _NAME + r")")
_MEMCPY_DECLARATION = "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1 immarg)"


def mark_escaping_parameters(text: str, size_of: Callable[[str], int | None]) -> str:
    """clang's text with the parameters whose address escapes, in functions other than main,
    marked as locals are: alive from the function's entry to each return. Why: C ends a
    parameter where its function returns, but clang marks no lifetime for it, and its memory
    (the `%x.addr` alloca, a struct's copy) is hoisted into main's entry block by the inliner,
    so it lived for the whole run: a pointer to it kept past the return read its last value
    (a silent TRUE under valid-memsafety, and a wrong TRUE under unreach-call where natively the
    next call reuses the stack slot). A struct passed `byval` (ILP32) has no alloca of the
    callee's: it is copied into one here (`%__llumc_byval.N`, `size_of` its type's bytes),
    which the body then uses; one whose size is unknown is left as it was."""
    copied = [0]  # byval copies made so far: their numbers

    def mark(body: str) -> str | None:
        if _is_main(body):
            return None
        header, _, rest = body.partition("\n")
        marked, copied[0] = _parameter_lifetimes(header, rest, copied[0], size_of)
        return marked

    result = _marked_functions(text, mark)
    if copied[0] and "\ndeclare void @llvm.memcpy.p0.p0.i64(" not in result:
        result += "\n" + _MEMCPY_DECLARATION + "\n"
    return result


def _parameter_lifetimes(header: str, rest: str, copied: int, size_of: Callable[[str], int | None]
                         ) -> tuple[str | None, int]:
    """One function (its `define` line and the rest): the body with its escaping parameters
    marked (None if none escapes), and the number of byval copies made so far."""
    body = header + "\n" + rest
    entry_end = body.find("\n\n")
    entry = body if entry_end < 0 else body[:entry_end]
    marked = {match.group(2) for match in _LLVM_MARKER.finditer(body)}
    parameters = [name for name in _DECLARED.findall(entry)
                  if name not in marked and re.search(r"^  " + re.escape(name) + r" = alloca ", entry, re.M)
                  and _is_parameter(body, name) and _follow(body, name, merges=True)[0]]
    byvals = [(ty, align or "1", name, size_of(ty)) for ty, align, name in _BYVAL_PARAMETER.findall(header)
              if _follow(rest, name, merges=True)[0]]
    byvals = [byval for byval in byvals if byval[3]]
    if not parameters and not byvals:
        return None, copied
    allocas, starts, copies = [], [], []
    for ty, align, name, size in byvals:
        copied += 1
        local = f"%__llumc_byval.{copied}"
        rest = re.sub(re.escape(name) + r"(?![\w.$-])", local, rest)
        allocas.append(f"  {local} = alloca {ty}, align {align}\n")
        starts.append(f"  call void @{LIFETIME_START}(ptr {local})\n")
        copies.append(f"  call void @llvm.memcpy.p0.p0.i64(ptr align {align} {local}, ptr align {align} {name}, "
                      f"i64 {size}, i1 false)\n")
        parameters.append(local)
    starts += [f"  call void @{LIFETIME_START}(ptr {name})\n" for name in parameters if not name.startswith("%__llumc_byval.")]
    body = header + "\n" + rest
    # after the entry block's leading allocas (`_initialise_locals` reads that run)
    position = body.find("\n") + 1
    while True:
        line_end = body.find("\n", position)
        line = body[position:line_end]
        if not (line.endswith(":") or " = alloca " in line or line.strip() == "" or line.lstrip().startswith(";")):
            break
        position = line_end + 1
    body = body[:position] + "".join(allocas + starts + copies) + body[position:]
    ends = "".join(f"  call void @{LIFETIME_END}(ptr {name})\n" for name in parameters)
    return _RETURN.sub(lambda match: ends + match.group(0), body), copied


def _is_parameter(body: str, name: str) -> bool:
    """Whether the alloca `name` holds a parameter: the argument is stored into it in the entry
    block (`store i32 %x, ptr %x.addr`, or a coerced struct's parts), clang's only use of an
    unmarked, declared local."""
    header = body.split("\n", 1)[0]
    arguments = set(re.findall(r"(" + _NAME + r")(?=[,)])", header))
    entry_end = body.find("\n\n")
    entry = body if entry_end < 0 else body[:entry_end]
    for store in re.finditer(r"^\s+store (?:volatile )?\S+ (" + _NAME + r"), ptr (" + _NAME + r")", entry, re.M):
        if store.group(1) in arguments:
            target = store.group(2)
            if target == name:
                return True
            gep = re.search(r"^  " + re.escape(target) + r" = getelementptr [^\n]*?ptr " + re.escape(name) + r"(?![\w.$-])",
                            entry, re.M)
            if gep:
                return True
    return False


def _unmarked_temporaries(body: str) -> list[str]:
    """The allocas of a function's entry block that clang gave no lifetime markers and no
    variable: compound literals (`%.compoundliteral`), and the temporaries of calls that pass
    or return a struct by value (`%agg.tmp`, `%tmp`). By these facts, not by name: a large
    source's values have no names (`keeps_value_names`), and the encoding must not depend on
    that. Counted allocas are `__builtin_alloca`'s (`mark_escaping_allocations`)."""
    entry_end = body.find("\n\n")
    entry = body if entry_end < 0 else body[:entry_end]
    marked = {match.group(2) for match in _LLVM_MARKER.finditer(body)}
    marked |= {match.group(2) for match in _OUR_MARKER.finditer(body)}
    declared = set(_DECLARED.findall(body))
    counted = set(_COUNTED_ALLOCA.findall(entry))
    return [name for name in _ALLOCA_NAME.findall(entry)
            if name not in marked and name not in declared and name not in counted]


def _block_scope_facts(body: str, blocks) -> list[tuple[int | None, int | None, list[str]]]:
    """Per block of `body`: the debug location of its first located line, of its last located
    line (the terminator at -O0), and the labels it branches to."""
    facts = []
    for _, start, end in blocks:
        located = [int(match.group(1)) for match in _DBG.finditer(body, start, end)]
        last_line = body.rfind("\n  ", start, end - 1)
        targets = [label.lstrip("%") for label in _TARGET.findall(body, last_line, end)] if last_line >= 0 else []
        facts.append((located[0] if located else None, located[-1] if located else None, targets))
    return facts


def mark_compound_literals(text: str) -> str:
    """clang's text with each unmarked temporary whose address escapes (a compound literal
    `(int[]){1, 2}` kept in a pointer, above all) marked as a local is: LIFETIME_START before
    its first use, LIFETIME_END where control leaves the C block it was made in (at the head
    of each block entered from inside that block and lying outside it, by the debug scopes of
    their lines), and before each `ret` inside it in functions other than main. Why: C ends
    a compound literal with its enclosing block, but clang marks no lifetime for it and its
    alloca lies in the entry block, so it lived for the whole run here: a read through a
    pointer kept past the block was a silent TRUE under valid-memsafety (CBMC: dead object).
    A temporary with no located use keeps the function's lifetime (as before)."""
    scopes = []  # (read once, from the first function that needs them)

    def mark(body: str) -> str | None:
        names = [name for name in _unmarked_temporaries(body) if _follow(body, name, merges=True)[0]]
        if not names:
            return None
        if not scopes:
            from llumc.frontend.debuginfo import LexicalScopes
            scopes.append(LexicalScopes.of(text))
        marked = _mark_block_lifetimes(body, names, scopes[0], _is_main(body))
        return None if marked == body else marked

    return _marked_functions(text, mark)


def _mark_block_lifetimes(body: str, names: list[str], scopes, is_main: bool) -> str:
    """`body` with the markers of `mark_compound_literals` for each of `names` (insertions
    collected as (offset, text) and applied from the end, so offsets stay valid)."""
    blocks = _blocks(body)[0]
    facts = _block_scope_facts(body, blocks)
    index_of = {label: i for i, (label, _, _) in enumerate(blocks)}
    insertions: list[tuple[int, str]] = []
    for name in names:
        uses = [start for start, line in _uses(body, name)
                if not _ALLOCA_LINE.match(line) and "#dbg_" not in line]
        first = next((start for start in uses if _DBG.search(body, start, body.find("\n", start))), None)
        if first is None or " = phi " in body[uses[0]:body.find("\n", uses[0])]:
            continue  # (no marker can go before a phi: such a temporary keeps the function's lifetime)
        location = int(_DBG.search(body, first, body.find("\n", first)).group(1))
        scope = scopes.scope_of_location.get(location)
        if scope is None:
            continue
        within = lambda loc: loc is not None and scopes.location_within(loc, scope)  # noqa: E731
        insertions.append((uses[0], f"  call void @{LIFETIME_START}(ptr {name})\n"))
        ending = f"  call void @{LIFETIME_END}(ptr {name})\n"
        ended: set[int] = set()
        for block, (_, last, targets) in enumerate(facts):
            if not within(last):
                continue
            for label in targets:
                target = index_of.get(label)
                if target is None or target in ended or within(facts[target][0]):
                    continue
                ended.add(target)
                insertions.append((_after_phis(body, blocks[target]), ending))
        if not is_main:
            for match in _RETURN.finditer(body):
                line_end = body.find("\n", match.start())
                location_match = _DBG.search(body, match.start(), line_end)
                if location_match and within(int(location_match.group(1))):
                    insertions.append((match.start(), ending))
    for offset, inserted in sorted(insertions, key=lambda item: item[0], reverse=True):
        body = body[:offset] + inserted + body[offset:]
    return body


def _after_phis(body: str, block: tuple[str, int, int]) -> int:
    """Offset of the first line of `block` after its label and phis."""
    _, start, end = block
    position = body.find("\n", start) + 1
    while position < end and re.match(r"\s+" + _NAME + r" = phi ", body[position:body.find("\n", position)]):
        position = body.find("\n", position) + 1
    return position


_DEFINE_GROUP = re.compile(r"^define [^\n]*\) #(\d+) ", re.M)


def _without_speculative_loads(text: str) -> str:
    """Every defined function gets `sanitize_address`, which makes LLVM's passes keep each
    load where it is: simplifycfg would hoist a load from a local out of its branch (an alloca
    is always dereferenceable to LLVM), so the model would read a dead local on paths where C
    does not (no wrong verdict, but spurious faults). All of them: inlining needs the caller's
    and the callee's to agree. Only an attribute: no ASan pass runs."""
    groups = set(_DEFINE_GROUP.findall(text))
    if not groups:
        return text

    def add(match: re.Match) -> str:
        if match.group(1) not in groups or "sanitize_address" in match.group(2):
            return match.group(0)
        return f"attributes #{match.group(1)} = {{ sanitize_address {match.group(2)}}}"

    return re.sub(r"^attributes #(\d+) = \{ ([^\n]*)\}$", add, text, flags=re.M)


def protected_locals(body: str) -> set[str]:
    """The locals of a function's text whose lifetimes the encoder follows (LIFETIME_START)."""
    return {match.group(2) for match in _OUR_MARKER.finditer(body) if match.group(1) == LIFETIME_START}


_LABEL = re.compile(r"([\w.$-]+|\"[^\"]*\"):")  # matched at line starts (no `^`: pos > 0)
_TARGET = re.compile(r"label (" + _NAME + r")")


def _blocks(body: str) -> tuple[list[tuple[str, int, int]], dict[str, int]]:
    """Basic blocks of a function's text: (label, start, end) in order, and label -> index."""
    starts: list[tuple[str, int]] = []
    first = body.find("{\n") + 2
    entry = _LABEL.match(body, first)
    starts.append((entry.group(1) if entry else "", first))  # the entry block's label may be implicit
    position = first
    while True:
        newline = body.find("\n", position)
        if newline < 0:
            break
        position = newline + 1
        match = _LABEL.match(body, position)
        if match:
            starts.append((match.group(1), position))
    blocks = [(label, start, starts[i + 1][1] if i + 1 < len(starts) else len(body))
              for i, (label, start) in enumerate(starts)]
    return blocks, {label: i for i, (label, _, _) in enumerate(blocks)}


def _start_after_end(body: str, blocks, name: str) -> bool:
    """Whether a start marker of `name` can run after one of its end markers (a loop)."""
    starts = [m.start() for m in _OUR_MARKER.finditer(body) if m.group(2) == name and m.group(1) == LIFETIME_START]
    return _access_after_end(body, blocks, name, starts, through_starts=True)


def _access_after_end(body: str, blocks, name: str, accesses: list[int], through_starts: bool = False) -> bool:
    """Whether some access (line starts in `body`) can run after an end marker of `name`
    without a start marker of `name` between them (forward search over the blocks); with
    `through_starts`, start markers do not stop the search."""
    markers = sorted((m.start(), m.group(1) == LIFETIME_START) for m in _OUR_MARKER.finditer(body)
                     if m.group(2) == name and not (through_starts and m.group(1) == LIFETIME_START))
    if not any(not is_start for _, is_start in markers):
        return False
    blocks, index_of = blocks
    block_starts = [start for _, start, _ in blocks]

    def block_of(position: int) -> int:
        low, high = 0, len(block_starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if block_starts[middle] <= position:
                low = middle
            else:
                high = middle - 1
        return low

    events_in: dict[int, list[tuple[int, str]]] = {}
    for position, is_start in markers:
        events_in.setdefault(block_of(position), []).append((position, "start" if is_start else "end"))
    for position in accesses:
        events_in.setdefault(block_of(position), []).append((position, "access"))
    for events in events_in.values():
        events.sort()

    def successors(block: int) -> list[int]:
        _, start, end = blocks[block]
        return [index_of[label.lstrip("%")] for label in _TARGET.findall(body, start, end)
                if label.lstrip("%") in index_of]

    seen: set[int] = set()
    pending: list[int] = []
    for block, events in events_in.items():
        dead = False
        for _, kind in events:
            if kind == "end":
                dead = True
            elif kind == "start":
                dead = False
            elif dead:
                return True
        if dead:
            pending.extend(successors(block))
    while pending:
        block = pending.pop()
        if block in seen:
            continue
        seen.add(block)
        stop = False
        for _, kind in events_in.get(block, []):
            if kind == "access":
                return True
            if kind == "start":
                stop = True
                break
        if not stop:
            pending.extend(successors(block))
    return False


def release_contained_locals(text: str) -> str:
    """After inlining: delete the markers of each protected local of `main` whose address
    does not escape and which no access can reach after its lifetime ended, so SROA promotes
    it again; the others keep theirs (llumc.encoding.memory gives them an "alive" bit)."""
    if f"@{LIFETIME_END}(" not in text:
        return text
    pieces, done = [], 0
    for start, end in _function_bodies(text):
        body = text[start:end]
        names = {match.group(2) for match in _OUR_MARKER.finditer(body)}
        blocks = _blocks(body) if names else None
        released = set()
        for name in sorted(names):
            escapes, _, accesses, carried = _follow(body, name, merges=True)
            if escapes or _access_after_end(body, blocks, name, accesses):
                continue
            # a pointer in a phi may come from the previous iteration, when the local's next
            # lifetime starts in a loop: the old instance's pointer, which must stay followed
            # (llumc.encoding.memory: `reborn`, no TRUE)
            if carried and _start_after_end(body, blocks, name):
                continue
            released.add(name)
        if not released:
            continue
        lines = body.split("\n")
        kept = [line for line in lines
                if not ((match := _OUR_MARKER.search(line)) and match.group(2) in released)]
        pieces += [text[done:start], "\n".join(kept)]
        done = end
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


_ALLOCA_LINE = re.compile(r"^(\s+)(" + _NAME + r") = alloca (.+?), align \d+(.*)$")
_DEBUG_LOCATION = re.compile(r", (!dbg !\d+)")


_HEAP_CALL = re.compile(r"@(malloc|calloc|realloc|free)\(")
# `call void @llvm.memcpy.p0.p0.i64(ptr align 4 %d, ptr align 4 %s, i64 %n, i1 false)`
_INTRINSIC_ARGUMENTS = re.compile(r"^\s+(?:tail |notail )?call void @llvm\.(memset|memcpy|memmove)\.[\w.]+\("
                                  r"ptr (?:align \d+ |noundef |nonnull )*(%[\w.$-]+|@[\w.$-]+), "
                                  r"(?:ptr (?:align \d+ |noundef |nonnull )*(%[\w.$-]+|@[\w.$-]+)|i8 [^,]+), "
                                  r"(i\d+) ([^,]+), i1 (?:false|true)\)")


def _checked_library_calls(text: str) -> str:
    """Calls of the modelled <string.h> functions the program does not define go to the
    harness's checked versions (`__llumc_replay_strlen`, ...: replay_harness.c), which check
    every byte the call touches, then run the C library's function."""
    defined = set(re.findall(r"^define [^@\n]*@([\w.$]+)\(", text, re.M))
    names = sorted(MODELLED_FUNCTIONS - defined)
    if not names:
        return text
    return re.sub(r"@(" + "|".join(names) + r")\(", lambda match: f"@__llumc_replay_{match.group(1)}(", text)


def _range_checks(line: str) -> tuple[list[str], str | None]:
    """Before a memset/memcpy/memmove: a call of the harness's `__llumc_replay_range` for each
    byte range it touches (destination, then source), and the length's type; none where an
    operand is not a plain name (no check: no confirmation, never a wrong one)."""
    match = _INTRINSIC_ARGUMENTS.match(line)
    if not match:
        return [], None
    location = _DEBUG_LOCATION.search(line)
    suffix = f", {location.group(1)}" if location else ""
    _, destination, source, length_type, length = match.groups()
    return ([f"  call void @__llumc_replay_range(ptr {pointer}, {length_type} {length}){suffix}"
             for pointer in (destination, source) if pointer], length_type)


def native_replay_text(text: str, check_accesses: bool, own_heap: bool = False) -> str:
    """The front end's text made for the native replay (llumc.check.replay). Without
    `check_accesses` the markers do nothing. With it (valid-memsafety), where the program has
    followed locals or heap calls: each followed local and each malloc/calloc/realloc gets memory of
    its own from the harness (never reused), the markers and free tell the harness where an
    object dies (and a local comes alive again), and every load and store through a named
    pointer asks the harness first, which traps on an address outside every live object
    (replay_harness.c; the call carries the access's line), as does every byte a memset/memcpy/
    memmove or a modelled <string.h> function (llumc.frontend.libcmodels) will touch before the
    C library's function runs. `own_heap` (any property): malloc,
    calloc and free go to the harness's allocator, which follows the counterexample's choices
    of addresses (a freed block handed out again)."""
    followed_anywhere = f"@{LIFETIME_START}(" in text or f"@{LIFETIME_END}(" in text
    if own_heap and not check_accesses:
        text = _HEAP_CALL.sub(lambda match: f"@__llumc_replay_{match.group(1)}(", text)
    if not check_accesses or not (followed_anywhere or _HEAP_CALL.search(text)):
        if not followed_anywhere:
            return text
        return text.replace(DECLARATIONS, "".join(
            f"\ndefine void @{name}(ptr %p) {{\n  ret void\n}}\n" for name in LIFETIME_FUNCTIONS))
    text = _checked_library_calls(_HEAP_CALL.sub(lambda match: f"@__llumc_replay_{match.group(1)}(", text))
    pieces, done = [], 0
    range_types: set[str] = set()
    for start, end in _function_bodies(text):
        body = text[start:end]
        followed = {match.group(2) for match in _OUR_MARKER.finditer(body)}
        in_arena: set[str] = set()
        lines = []
        for line in body.split("\n"):
            alloca = _ALLOCA_LINE.match(line)
            if alloca and alloca.group(2) in followed:
                indent, name, ty = alloca.group(1), alloca.group(2), alloca.group(3)
                counted = re.fullmatch(r"(.+?), i\d+ (\d+)", ty)  # __builtin_alloca's count
                if counted:
                    ty = f"[{counted.group(2)} x {counted.group(1)}]"
                size = f"ptrtoint (ptr getelementptr ({ty}, ptr null, i32 1) to i64)"  # sizeof
                lines.append(f"{indent}{name} = call ptr @__llumc_replay_local(i64 {size})")
                in_arena.add(name)
                continue
            marker = _OUR_MARKER.search(line)
            if marker and marker.group(2) in in_arena:
                alive = 1 if marker.group(1) == LIFETIME_START else 0
                lines.append(line[:marker.start()] + f"@__llumc_replay_lifetime(ptr {marker.group(2)}, i32 {alive})"
                             + line[marker.end():])
                continue
            checks, length_type = _range_checks(line) if "@llvm.mem" in line else ([], None)
            lines += checks
            if checks:
                range_types.add(length_type)
            access = _LOAD.match(line) or _STORE.match(line)
            if access:
                pointer = access.group(access.lastindex)
                location = _DEBUG_LOCATION.search(line)
                lines.append(f"  call void @__llumc_replay_access(ptr {pointer})"
                             + (f", {location.group(1)}" if location else ""))
            lines.append(line)
        pieces += [text[done:start], "\n".join(lines)]
        done = end
    pieces.append(text[done:])
    return ("".join(pieces).replace(DECLARATIONS, "")
            + "\ndeclare ptr @__llumc_replay_local(i64)\ndeclare void @__llumc_replay_lifetime(ptr, i32)"
            + "\ndeclare void @__llumc_replay_access(ptr)\n"
            + "".join(f"declare void @__llumc_replay_range(ptr, {ty})\n" for ty in sorted(range_types)[:1]))


_GLOBAL_DEFINITION = re.compile(r"^(@[\w.$-]+|@\"[^\"]*\") = ((?:[a-z_]+(?:\([^)]*\))? )*)(global|constant) (.+)$",
                                re.M)
_DECLARATION_WORDS = {"external", "extern_weak"}


def with_leak_roots(text: str) -> str | None:
    """The replay's text for valid-memtrack (llumc.check.replay, kind "leak"): `main` renamed
    `__llumc_replay_main`, which the harness's weak main calls before it looks for leaks, and
    a table `__llumc_replay_roots` of the start and size of every global variable the program
    defines (its constants hold no heap pointer). None where some global's type cannot be read:
    then no roots are known and no leak can be confirmed."""
    roots = []
    for match in _GLOBAL_DEFINITION.finditer(text):
        name, words, kind, rest = match.groups()
        if kind == "constant" or _DECLARATION_WORDS & set(words.split()) or name.startswith(("@llvm.", "@__llumc")):
            continue
        ty = split_type(rest)[0]
        if not ty or (ty[0] in "[{<") != (ty[-1] in "]}>"):  # (brackets not closed)
            return None
        roots.append(f"{{ ptr, i64 }} {{ ptr {name}, i64 ptrtoint (ptr getelementptr ({ty}, ptr null, i32 1) to i64) }}")
    renamed = re.sub(r"@main(?=[(,) ]|$)", "@__llumc_replay_main", text, flags=re.M)
    table = ("\n@__llumc_replay_roots = constant [" + str(len(roots)) + " x { ptr, i64 }] "
             + (f"[{', '.join(roots)}]" if roots else "zeroinitializer")
             + f"\n@__llumc_replay_root_count = constant i64 {len(roots)}\n")
    return renamed + table
