"""Procedure summaries: facts over a recursive function's parameters and result, and the IR
rewrites that check them and use them (the checks run in `llumc.check.summaries`).

Unrolling (llumc.frontend.procedures) proves a recursive program only when its recursion has a
depth bound; McCarthy's 91 function on every `int` has none. A summary S_f(a, r) of each
function f of a call cycle says what a call f(a) returns. It is proven by induction on the
calls: `harness_text` replaces every call inside the cycle by its summary (any result r with
S_g(args, r)) and asks, for every argument, that f's body returns a result with S_f and reaches
no error. Then every call of the real program, at any depth, satisfies S_f, and `summarized_text`
checks main with each call replaced by its summary. The facts come from templates over the
program's constants, kept where concrete runs of f (`Interpreter`, on the IR text, any depth)
agree, then by a Houdini fixpoint on the harness (a failing fact is dropped, the rest checked
again).

Only pure functions are summarised: integer parameters and result, memory only in their own
scalar locals, calls only to pure functions and to the verifier's primitives (`pure_cycles`):
a fact over parameters and result says all such a call does."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product

from llumc.frontend.procedures import recursive_functions

__all__ = ["Fact", "Interpreter", "SUMMARY_CHECK_PREFIX", "candidate_facts", "harness_text", "pure_cycles",
           "strongest", "summarized_text", "unsigned_positions"]

SUMMARY_PREFIX = "llumc.summary."
from llumc.frontend.compile import SUMMARY_CHECK_PREFIX  # noqa: E402  fact K fails: `__llumc_summary_fails.K`
MAX_FACTS = 200
MAX_RUNS = 400  # concrete calls per function
RUN_STEPS = 20_000  # interpreted instructions per call
# interpreted instructions of all the calls of one function together (about a second): a
# budget of steps, not of wall time, so a loaded machine samples the same runs and keeps the
# same candidate facts as an idle one (with a wall-time bound, McCarthy's 91 beside a test
# suite got no complete run, hence no fact, and its proof failed)
SAMPLE_STEPS = 200_000

_DEFINE = re.compile(r"^define [^@\n]*?(i\d+|void) @(\"[^\"]+\"|[\w.$-]+)\(([^)]*)\)[^\n]*\{$", re.M)
_LINE = re.compile(r"^  (?:(%[\w.$-]+) = )?(.*)$")


@dataclass
class Function:
    name: str
    result: int  # bits of the result
    parameters: list[tuple[str, int]]  # (IR name, bits)
    blocks: dict[str, list[str]]
    entry: str


def _functions(text: str) -> dict[str, Function]:
    found = {}
    for match in _DEFINE.finditer(text):
        result, name, parameters = match.group(1), match.group(2).strip('"'), match.group(3)
        end = text.index("\n}\n", match.start())
        blocks: dict[str, list[str]] = {}
        entry, current = None, None
        params = []
        typed = [p.split() for p in parameters.split(",") if p.strip()]
        if result == "void" or any(not p[0].startswith("i") for p in typed):
            params = None
        else:
            params = [(p[-1], int(p[0][1:])) for p in typed]
        for line in text[text.index("\n", match.start()) + 1:end].split("\n"):
            if not line.strip() or line.strip().startswith((";", "#dbg_")):
                continue
            if not line.startswith(" "):
                current = line.split(":", 1)[0].strip().strip('"')
                blocks[current] = []
                entry = entry or current
                continue
            if current is None:
                current = entry = "entry"
                blocks[current] = []
            blocks[current].append(re.sub(r", !\w+ !\d+", "", line))
        if params is not None and entry is not None:
            found[name] = Function(name, int(result[1:]), params, blocks, entry)
    return found


_MEMORY_FREE_OPS = {"add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "and", "or", "xor", "shl", "lshr",
                    "ashr", "icmp", "select", "zext", "sext", "trunc", "phi", "freeze", "br", "switch", "ret",
                    "unreachable"}


def _pure(fn: Function, functions: dict[str, Function], classify) -> bool:
    """Integer parameters and result (checked by `_functions`), memory only in its own scalar
    allocas, calls only to defined integer functions and the verifier's primitives."""
    allocas = set()
    for lines in fn.blocks.values():
        for line in lines:
            target, code = _LINE.match(line).groups()
            opcode = code.split()[0]
            if opcode == "alloca":
                if not re.fullmatch(r"alloca i\d+, align \d+", code):
                    return False
                allocas.add(target)
            elif opcode in ("load", "store"):
                pointer = code.rsplit("ptr ", 1)[-1].split(",")[0].strip()
                if pointer not in allocas:
                    return False
            elif opcode in ("call", "tail"):
                callee = re.search(r"@(\"[^\"]+\"|[\w.$-]+)\(", code)
                if callee is None:
                    return False
                name = callee.group(1).strip('"')
                if name not in functions and classify(name) not in ("nondet", "assume", "error", "assert") \
                        and not name.startswith(("llvm.dbg", "llvm.lifetime", "__llumc_lifetime")):
                    return False
            elif opcode not in _MEMORY_FREE_OPS:
                return False
    return True


def pure_cycles(text: str, classify) -> list[set[str]] | None:
    """The call cycles reachable from main, if every function in them (and every function they
    call) is pure; None otherwise, or when there is no cycle."""
    cycles = recursive_functions(text)
    if not cycles or any("main" in cycle for cycle in cycles):
        return None  # (a recursive main: its harness would have to replace main itself)
    functions = _functions(text)
    defined = set(re.findall(r"^define [^@\n]*@(\"[^\"]+\"|[\w.$-]+)\(", text, re.M))
    for cycle in cycles:
        todo, seen = list(cycle), set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            fn = functions.get(name)
            if fn is None or not _pure(fn, functions, classify):
                return None
            for lines in fn.blocks.values():
                for line in lines:
                    callee = re.search(r"call [^@]*@(\"[^\"]+\"|[\w.$-]+)\(", line)
                    if callee and callee.group(1).strip('"') in defined:
                        todo.append(callee.group(1).strip('"'))
    return cycles


# --------------------------------------------------------------------------- concrete runs


class _Stop(Exception):
    """The run leaves what the samples may use: an error, a failed assumption, the budget."""


def _signed(value: int, bits: int) -> int:
    return value - (1 << bits) if bits > 1 and value >> (bits - 1) & 1 else value


_ICMP = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
         "ugt": lambda a, b: a > b, "uge": lambda a, b: a >= b, "ult": lambda a, b: a < b, "ule": lambda a, b: a <= b}


class Interpreter:
    """Runs pure functions of the IR text on concrete arguments (recursion at any depth up to
    the step budget): the samples candidate facts must agree with."""

    def __init__(self, text: str, classify, budget: int = 200_000):
        self.functions = _functions(text)
        self.classify = classify
        self.budget = budget
        self.steps = 0

    def call(self, name: str, arguments: list[int]) -> int:
        """f(arguments) as an unsigned value of the result's width; raises _Stop."""
        self.steps = 0
        return self._run(self.functions[name], arguments)

    def _value(self, token: str, env: dict[str, int], bits: int) -> int:
        token = token.strip()
        if token.startswith("%"):
            return env[token]
        if token in ("true", "false"):
            return int(token == "true")
        if re.fullmatch(r"-?\d+", token):
            return int(token) & ((1 << bits) - 1)
        raise _Stop(f"operand {token}")

    def _run(self, fn: Function, arguments: list[int]) -> int:
        env = {name: value & ((1 << bits) - 1) for (name, bits), value in zip(fn.parameters, arguments)}
        memory: dict[str, int] = {}
        block, previous = fn.entry, None
        while True:
            for line in fn.blocks[block]:
                self.steps += 1
                if self.steps > self.budget:
                    raise _Stop("budget")
                target, code = _LINE.match(line).groups()
                outcome = self._step(fn, target, code, env, memory, previous)
                if outcome is None:
                    continue
                kind, value = outcome
                if kind == "ret":
                    return value
                previous, block = block, value
                break
            else:
                raise _Stop("block without terminator")

    def _step(self, fn, target, code, env, memory, previous):
        words = code.split()
        opcode = words[0]
        if opcode in ("tail", "notail"):
            words, opcode = words[1:], words[1]
        if opcode == "alloca":
            memory[target] = 0
        elif opcode == "store":
            match = re.match(r"store i(\d+) ([^,]+), ptr (%[\w.$-]+)", code)
            memory[match.group(3)] = self._value(match.group(2), env, int(match.group(1)))
        elif opcode == "load":
            match = re.match(r"load i\d+, ptr (%[\w.$-]+)", code)
            env[target] = memory[match.group(1)]
        elif opcode in ("br", "switch", "ret", "unreachable"):
            return self._jump(code, env)
        elif opcode == "call":
            return self._call(target, code, env)
        elif opcode == "phi":
            bits = int(re.match(r"phi i(\d+)", code).group(1))
            for value, label in re.findall(r"\[ ([^,]+), %([\w.$\"-]+) \]", code):
                if label.strip('"') == previous:
                    env[target] = self._value(value, env, bits)
                    break
            else:
                raise _Stop("phi")
        else:
            env[target] = self._operation(opcode, code, env)
        return None

    def _operation(self, opcode: str, code: str, env: dict[str, int]) -> int:
        if opcode in ("zext", "sext", "trunc"):
            match = re.match(r"\w+ i(\d+) ([^ ]+) to i(\d+)", code)
            source, value, bits = int(match.group(1)), self._value(match.group(2), env, int(match.group(1))), \
                int(match.group(3))
            if opcode == "sext":
                value = _signed(value, source)
            return value & ((1 << bits) - 1)
        if opcode == "freeze":
            match = re.match(r"freeze i(\d+) (.+)", code)
            return self._value(match.group(2), env, int(match.group(1)))
        if opcode == "select":
            match = re.match(r"select i1 ([^,]+), i(\d+) ([^,]+), i\d+ (.+)", code)
            bits = int(match.group(2))
            return self._value(match.group(3) if self._value(match.group(1), env, 1) else match.group(4), env, bits)
        match = re.match(r"(\w+)(?: (?:nsw|nuw|exact|disjoint|samesign))* (\w+ )?i(\d+) ([^,]+), (.+)", code)
        if match is None:
            raise _Stop(code)
        bits = int(match.group(3))
        a, b = self._value(match.group(4), env, bits), self._value(match.group(5), env, bits)
        return _arithmetic(opcode, match.group(2), a, b, bits)

    def _jump(self, code: str, env: dict[str, int]):
        words = code.split()
        if words[0] == "unreachable":
            raise _Stop("unreachable")
        if words[0] == "ret":
            if words[1] == "void":
                return "ret", 0
            return "ret", self._value(words[2], env, int(words[1][1:]))
        if words[0] == "br":
            if words[1] == "label":
                return "jump", words[2].lstrip("%").strip('"')
            condition = self._value(words[2].rstrip(","), env, 1)
            return "jump", (words[4] if condition else words[6]).lstrip("%").rstrip(",").strip('"')
        match = re.match(r"switch i(\d+) ([^,]+), label %([\w.$\"-]+) \[(.*)\]", code.replace("\n", " "))
        if match is None:
            raise _Stop("switch")
        bits = int(match.group(1))
        value = self._value(match.group(2), env, bits)
        for case, label in re.findall(r"i\d+ (-?\d+), label %([\w.$\"-]+)", match.group(4)):
            if int(case) & ((1 << bits) - 1) == value:
                return "jump", label.strip('"')
        return "jump", match.group(3).strip('"')

    def _call(self, target, code, env):
        match = re.match(r"call (?:[\w()]+ )*?(i\d+|void) @(\"[^\"]+\"|[\w.$-]+)\((.*)\)$", code)
        if match is None:
            raise _Stop(code)
        name = match.group(2).strip('"')
        arguments = [a for a in re.findall(r"i(\d+)(?: \w+)* ([^,]+)", match.group(3))]
        values = [self._value(value, env, int(bits)) for bits, value in arguments]
        if name in self.functions:
            result = self._run(self.functions[name], values)
        else:
            kind = self.classify(name)
            if kind == "nondet":
                result = 0  # one of the values it may give
            elif kind == "assume":
                if not values or values[0] == 0:
                    raise _Stop("assumption")
                result = 0
            elif name.startswith(("llvm.dbg", "llvm.lifetime", "__llumc_lifetime")):
                result = 0
            else:
                raise _Stop(f"call of {name}")  # an error, abort, exit: not a sample
        if target is not None:
            env[target] = result
        return None


def _arithmetic(opcode: str, predicate: str | None, a: int, b: int, bits: int) -> int:
    mask = (1 << bits) - 1
    sa, sb = _signed(a, bits), _signed(b, bits)
    if opcode == "icmp":
        predicate = predicate.strip()
        if predicate[0] == "s":
            return int(_ICMP["u" + predicate[1:]](sa, sb))
        return int(_ICMP[predicate](a, b))
    if opcode in ("sdiv", "srem", "udiv", "urem"):
        if b == 0 or (opcode[0] == "s" and sa == -(1 << (bits - 1)) and sb == -1):
            raise _Stop("division")
        if opcode == "udiv":
            return a // b
        if opcode == "urem":
            return a % b
        quotient = abs(sa) // abs(sb) * (1 if (sa < 0) == (sb < 0) else -1)
        return (quotient if opcode == "sdiv" else sa - quotient * sb) & mask
    if opcode in ("shl", "lshr", "ashr"):
        if b >= bits:
            raise _Stop("shift")
        return ((a << b) if opcode == "shl" else (a >> b) if opcode == "lshr" else (sa >> b)) & mask
    operations = {"add": a + b, "sub": a - b, "mul": a * b, "and": a & b, "or": a | b, "xor": a ^ b}
    if opcode not in operations:
        raise _Stop(opcode)
    return operations[opcode] & mask


# --------------------------------------------------------------------------- facts


@dataclass(frozen=True)
class Fact:
    """`guard ==> r REL a_i + k` over one call of `function` (signed comparisons; `a_i + k`
    wraps as the machine's addition does). `parameter` None: `r REL k`; `guard` None: always."""

    function: str
    relation: str  # "==" | ">=" | "<="
    parameter: int | None
    constant: int
    guard: tuple[int, str, int] | None = None  # (parameter, ">" | "<=", constant)

    def holds(self, arguments: list[int], result: int, fn: Function) -> bool:
        if self.guard is not None:
            j, relation, c = self.guard
            a = _signed(arguments[j], fn.parameters[j][1])
            if (a > c) != (relation == ">"):
                return True
        bits = fn.result
        right = self.constant if self.parameter is None else arguments[self.parameter] + self.constant
        right = _signed(right & ((1 << bits) - 1), bits)
        r = _signed(result, bits)
        return {"==": r == right, ">=": r >= right, "<=": r <= right}[self.relation]

    def guarded_by(self, arguments: list[int], fn: Function) -> bool:
        if self.guard is None:
            return True
        j, relation, c = self.guard
        return (_signed(arguments[j], fn.parameters[j][1]) > c) == (relation == ">")

    def c_text(self, names: list[str], unsigned: set[int] = frozenset()) -> str:
        """The fact in C over the parameters' names and `\\result`. Its comparisons are signed:
        an unsigned parameter or result (index in `unsigned`, -1 for the result) is read
        through `(int)` (or the signed type of its width), as the check read it."""
        names = [f"(int){name}" if index in unsigned else name for index, name in enumerate(names)]
        result = "(int)\\result" if -1 in unsigned else "\\result"
        if self.parameter is None:
            right = str(self.constant)
        else:
            right = names[self.parameter] + (f" + {self.constant}" if self.constant > 0 else
                                             f" - {-self.constant}" if self.constant < 0 else "")
        fact = f"{result} {self.relation} {right}"
        if self.guard is None:
            return fact
        j, relation, c = self.guard
        return f"!({names[j]} {relation} {c}) || {fact}"

    def ir(self, prefix: str, arguments: list[str], result: str, fn: Function) -> tuple[list[str], str]:
        """IR lines computing the fact as an i1 named `%{prefix}`, and that name."""
        bits = fn.result
        lines = []
        right = str(self.constant)
        if self.parameter is not None:
            lines.append(f"  %{prefix}.right = add i{bits} {arguments[self.parameter]}, {self.constant}")
            right = f"%{prefix}.right"
        predicate = {"==": "eq", ">=": "sge", "<=": "sle"}[self.relation]
        lines.append(f"  %{prefix}.fact = icmp {predicate} i{bits} {result}, {right}")
        if self.guard is None:
            return lines, f"%{prefix}.fact"
        j, relation, c = self.guard
        guard_bits = fn.parameters[j][1]
        lines.append(f"  %{prefix}.guard = icmp {'sgt' if relation == '>' else 'sle'} i{guard_bits} "
                     f"{arguments[j]}, {c}")
        lines.append(f"  %{prefix} = select i1 %{prefix}.guard, i1 %{prefix}.fact, i1 true")
        return lines, f"%{prefix}"


def _constants(text: str) -> list[int]:
    """Integer constants of the program's instructions (not of its metadata), small first."""
    code = text[:text.find("\n!")] if "\n!" in text else text
    found = set()
    for line in re.findall(r"^  [^\n]*$", code, re.M):
        line = re.sub(r"(, !\w+ !\d+|align \d+|#\d+|%[\w.$-]+|@[\w.$-]+|\bi\d+\b)", " ", line)
        found |= {int(v) for v in re.findall(r"(?<![\w.!\"])-?\d+\b", line)}
    found |= {0, 1}
    return sorted((v for v in found if abs(v) <= 1 << 20), key=lambda v: (abs(v), v))[:16]


def _samples(fn: Function, constants: list[int]) -> list[list[int]]:
    per = []
    for _, bits in fn.parameters:
        low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        values = set(range(-3, 13)) | {c + d for c in constants for d in (-1, 0, 1)} | {-100, 1000, -1000}
        per.append(sorted(v for v in values if low <= v <= high))
    if len(per) > 1:
        per = [p[::max(1, len(p) // 14)] for p in per]
    return [list(values) for values in product(*per)][:2000]


def candidate_facts(text: str, cycles: list[set[str]], classify,
                    steps: int = SAMPLE_STEPS) -> tuple[list[Fact], dict[str, Function]]:
    """Template facts for each function of the cycles that every concrete run agrees with;
    the runs of each function within `steps` interpreted instructions in all (Ackermann's
    function explodes on most samples: each run stops at RUN_STEPS)."""
    interpreter = Interpreter(text, classify, budget=RUN_STEPS)
    constants = _constants(text)
    offsets = sorted({0, 1, -1} | {c for c in constants} | {-c for c in constants}, key=abs)
    facts: list[Fact] = []
    for name in sorted(set().union(*cycles)):
        fn = interpreter.functions[name]
        runs = []
        spent = 0
        for arguments in _samples(fn, constants)[:MAX_RUNS]:
            if spent >= steps:
                break
            try:
                runs.append((arguments, interpreter.call(name, arguments)))
            except (_Stop, KeyError, RecursionError):
                continue
            finally:
                spent += interpreter.steps
        if not runs:
            continue
        same_width = [i for i, (_, bits) in enumerate(fn.parameters) if bits == fn.result]
        atoms = [Fact(name, rel, None, k) for rel in ("==", ">=", "<=") for k in constants]
        atoms += [Fact(name, rel, i, k) for rel in ("==", ">=", "<=") for i in same_width for k in offsets]
        kept = [f for f in atoms if all(f.holds(a, r, fn) for a, r in runs)]
        equalities = [f for f in atoms if f.relation == "=="]
        # guarded facts: one guard per parameter, up to two parameters (their number grows with
        # parameters x constants x equalities, each tried on every run)
        for j, (_, bits) in enumerate(fn.parameters[:2]):
            for c in constants:
                for relation in (">", "<="):
                    for atom in equalities:
                        fact = Fact(name, "==", atom.parameter, atom.constant, (j, relation, c))
                        guarded = [(a, r) for a, r in runs if fact.guarded_by(a, fn)]
                        if guarded and len(guarded) < len(runs) and all(fact.holds(a, r, fn) for a, r in guarded):
                            kept.append(fact)
        facts += kept[:MAX_FACTS]
    return facts, interpreter.functions


def unsigned_positions(text: str, function: str) -> set[int]:
    """Which parameters (by index) and whether the result (-1) of `function` are of unsigned
    C types, from its debug information (DW_ATE_unsigned, through typedefs)."""
    define = re.search(r"^define [^\n]*@" + re.escape(function) + r"\([^\n]*!dbg !(\d+)", text, re.M)
    if define is None:
        return set()
    nodes = dict(re.findall(r"^!(\d+) = (.*)$", text, re.M))

    def is_unsigned(node: str | None) -> bool:
        for _ in range(8):  # typedef chains
            body = nodes.get(node or "", "")
            if "DW_ATE_unsigned" in body:
                return True
            base = re.search(r"baseType: !(\d+)", body) if "DIDerivedType(tag: DW_TAG_typedef" in body or \
                "DW_TAG_const_type" in body else None
            if base is None:
                return False
            node = base.group(1)
        return False

    subprogram = define.group(1)
    found = set()
    for arg, type_node in re.findall(r"DILocalVariable\([^)]*?arg: (\d+), scope: !" + subprogram +
                                     r"\b[^)]*?type: !(\d+)", text):
        if is_unsigned(type_node):
            found.add(int(arg) - 1)
    types = re.search(r"type: !(\d+)", nodes.get(subprogram, ""))
    listed = re.search(r"types: !(\d+)", nodes.get(types.group(1), "")) if types else None
    first = re.match(r"!\{!(\d+)", nodes.get(listed.group(1), "")) if listed else None
    if first and is_unsigned(first.group(1)):
        found.add(-1)
    return found


def strongest(facts: list[Fact]) -> list[Fact]:
    """The facts without those another one implies by its constants alone: of `r >= k` the
    largest k, of `r <= k` the smallest; of `a_j <= c ==> E` the largest c, of `a_j > c ==> E`
    the smallest (not `r >= a_i + k`: the sum wraps). What a summary says, the way a reader
    wants it; every fact was proven, those left out too."""
    def weaker(fact: Fact, other: Fact) -> bool:
        if fact is other or (fact.function, fact.relation, fact.parameter) != \
                (other.function, other.relation, other.parameter):
            return False
        if fact.guard is None and other.guard is None:
            if fact.parameter is not None:
                return False  # `a_i + k` wraps: a larger k does not give a stronger fact
            if fact.relation == ">=":
                return other.constant > fact.constant
            return fact.relation == "<=" and other.constant < fact.constant
        if fact.guard is None or other.guard is None or fact.constant != other.constant:
            return False
        (j, relation, c), (k, other_relation, d) = fact.guard, other.guard
        if (j, relation) != (k, other_relation):
            return False
        return d > c if relation == "<=" else d < c

    return [fact for fact in facts if not any(weaker(fact, other) for other in facts)]


# --------------------------------------------------------------------------- IR rewrites


def _summary_function(fn: Function, facts: list[Fact]) -> str:
    """`@llumc.summary.f`: any result the facts allow (assumed, not checked: the harness checks)."""
    parameters = ", ".join(f"i{bits} %a{i}" for i, (_, bits) in enumerate(fn.parameters))
    arguments = [f"%a{i}" for i in range(len(fn.parameters))]
    lines = [f"define internal i{fn.result} @\"{SUMMARY_PREFIX}{fn.name}\"({parameters}) alwaysinline nounwind {{",
             "entry:", f"  %r = call i{fn.result} @__llumc_uninit_i{fn.result}()"]
    for index, fact in enumerate(f for f in facts if f.function == fn.name):
        ir, value = fact.ir(f"f{index}", arguments, "%r", fn)
        lines += ir + [f"  call void @__llumc_assume(i1 {value})"]
    lines += [f"  ret i{fn.result} %r", "}"]
    return "\n".join(lines)


def _calls_summarised(text: str, names: set[str], within: set[str] | None) -> str:
    """Calls of `names` become calls of their summaries: inside the functions `within`, or
    (None) in every function outside `names`."""
    pattern = re.compile(r"(call (?:[\w()]+ )*?i\d+ )@(" + "|".join(map(re.escape, sorted(names))) + r")\(")
    pieces, done = [], 0
    for match in _DEFINE.finditer(text):
        name = match.group(2).strip('"')
        inside = name in within if within is not None else name not in names
        if not inside:
            continue
        end = text.index("\n}\n", match.start())
        pieces.append(text[done:match.start()])
        pieces.append(pattern.sub(lambda m: f"{m.group(1)}@\"{SUMMARY_PREFIX}{m.group(2)}\"(",
                                  text[match.start():end]))
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def _declarations(text: str, widths: set[int]) -> list[str]:
    wanted = [f"declare i{w} @__llumc_uninit_i{w}()" for w in sorted(widths)
              if not re.search(rf"^declare [^\n]*@__llumc_uninit_i{w}\(", text, re.M)]
    if not re.search(r"^declare [^\n]*@__llumc_assume\(", text, re.M):
        wanted.append("declare void @__llumc_assume(i1)")
    return wanted


def _append(text: str, definitions: list[str]) -> str:
    at = text.find("\n!")
    at = len(text) if at < 0 else at + 1
    return text[:at] + "\n\n".join(definitions) + "\n\n" + text[at:]


def summarized_text(text: str, cycles: list[set[str]], facts: list[Fact]) -> str:
    """The program with every call into a cycle from outside it replaced by the summary."""
    functions = _functions(text)
    names = set().union(*cycles)
    text = _calls_summarised(text, names, None)
    summaries = [_summary_function(functions[name], facts) for name in sorted(names)]
    widths = {functions[name].result for name in names}
    return _append(text, summaries + _declarations(text, widths))


def harness_text(text: str, cycles: list[set[str]], facts: list[Fact], function: str) -> str:
    """A program whose main calls `function` on any arguments, with every call inside the
    cycles replaced by its summary, and fails at `__llumc_summary_fails.K` where fact K of the
    function does not hold of the result (K: the index in `facts`)."""
    functions = _functions(text)
    names = set().union(*cycles)
    text = _calls_summarised(text, names, names)
    main = re.search(r"^define [^@\n]*@main\(", text, re.M)
    end = text.index("\n}\n", main.start()) + 3
    text = text[:main.start()] + text[end:]
    fn = functions[function]
    lines = ["define i32 @main() {", "entry:"]
    arguments = []
    widths = {fn.result}
    for i, (_, bits) in enumerate(fn.parameters):
        lines.append(f"  %a{i} = call i{bits} @__llumc_uninit_i{bits}()")
        arguments.append(f"%a{i}")
        widths.add(bits)
    call_arguments = ", ".join(f"i{bits} {a}" for (_, bits), a in zip(fn.parameters, arguments))
    lines.append(f"  %r = call i{fn.result} @\"{function}\"({call_arguments})")
    failures = []
    for index, fact in enumerate(facts):
        if fact.function != function:
            continue
        ir, value = fact.ir(f"c{index}", arguments, "%r", fn)
        lines += ir + [f"  br i1 {value}, label %ok{index}, label %fails{index}", f"ok{index}:"]
        failures += [f"fails{index}:", f"  call void @{SUMMARY_CHECK_PREFIX}{index}()", "  unreachable"]
    lines += ["  ret i32 0", *failures, "}"]
    declarations = [f"declare void @{SUMMARY_CHECK_PREFIX}{index}()" for index, fact in enumerate(facts)
                    if fact.function == function]
    summaries = [_summary_function(functions[name], facts) for name in sorted(names)]
    return _append(text, ["\n".join(lines)] + summaries + declarations + _declarations(text, widths))
