"""SV-COMP verification witnesses, format 2.0 (YAML), from llumc's checked answers.

* FALSE: one `violation_sequence` entry. Its segments follow the replayed trace: one segment
  per `__VERIFIER_nondet_*` value the program read, in order, whose `function_return` waypoint
  sits at the call's closing parenthesis with the ACSL constraint `\\result == V` (V as C reads
  the value: signed types negative), and a final segment whose `target` waypoint is the error
  (the error call, or the overflowing operation). Values the model chose for uninitialised
  locals are not in the witness (the format has no waypoint for them): such a trace may not be
  reproducible from the witness alone (llumc's own replay sets them); `producer.description`
  says how many there are.
* TRUE: one `invariant_set` entry with a `loop_invariant` per loop head (`format: c_expression`)
  from the loop invariants the proof rests on (each checked inductive). A location names the
  loop keyword (`while`/`for`/`do`): the column from the loop's debug location, else the first
  loop keyword on that line of the source. A loop head whose location is not a loop keyword
  (the first statement of the body: no loop metadata) gets a `location_invariant` at that
  line's first token instead. A proof with no C-level invariant (IC3's clauses, k-induction, a
  loop-free program) yields the invariant `1` at the start of main, and `producer.description`
  says so: valid, and useless to a validator.

Lines are those of the input file: for a preprocessed file with `#` line markers (where the
compiler reports the lines of the original `.c`), the marker table maps them back.
`metadata.task` names the input files with their SHA-256, the specification (the property
file's text) and the data model.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from llumc import __version__
from llumc.frontend.sourcetext import SourceText

__all__ = ["SPECIFICATIONS", "default_specification", "WitnessTask", "SourceText", "violation_witness", "correctness_witness",
           "witness_for", "dump_witness"]

FORMAT_VERSION = "2.0"
FLOW_CONTENT_FROM = 2000  # see `dump_witness`
# SV-COMP's property text for each property llumc checks (what its .prp files say).
SPECIFICATIONS = {
    "unreach-call": "CHECK( init(main()), LTL(G ! call(reach_error())) )",
    "no-overflow": "CHECK( init(main()), LTL(G ! overflow) )",
    "valid-memsafety": "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\n"
                       "CHECK( init(main()), LTL(G valid-memtrack) )",
}


def default_specification(prop: str, source: Path) -> str:
    """SV-COMP's text of a property given by name: unreach-call names the error function the
    program calls (older tasks call `__VERIFIER_error`); `all` is both properties."""
    if prop == "all":
        return "\n".join(default_specification(name, source) for name in ("unreach-call", "no-overflow"))
    text = SPECIFICATIONS[prop]
    if prop == "unreach-call":
        program = Path(source).read_text(errors="replace")
        if "reach_error" not in program and "__VERIFIER_error" in program:
            text = text.replace("reach_error", "__VERIFIER_error")
    return text


@dataclass
class WitnessTask:
    """What `metadata.task` says: the input file (as given), the specification, the data model."""

    input_file: Path
    specification: str
    data_model: str  # "ILP32" | "LP64"
    command_line: str | None = None


def _sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _metadata(task: WitnessTask, description: str | None) -> dict:
    producer: dict = {"name": "llumc", "version": __version__}
    if task.command_line:
        producer["command_line"] = task.command_line
    if description:
        producer["description"] = description
    name = str(task.input_file)
    return {
        "format_version": FORMAT_VERSION,
        "uuid": str(uuid.uuid4()),
        "creation_time": datetime.now(timezone.utc).replace(microsecond=0).isoformat(),
        "producer": producer,
        "task": {
            "input_files": [name],
            "input_file_hashes": {name: _sha256(task.input_file)},
            "specification": task.specification,
            "data_model": task.data_model,
            "language": "C",
        },
    }


def _location(task: WitnessTask, line: int, column: int | None, function: str | None = None) -> dict:
    location: dict = {"file_name": str(task.input_file), "line": line}
    if column:
        location["column"] = column
    if function:
        location["function"] = function
    return location


def violation_witness(result, task: WitnessTask) -> list[dict]:
    """The violation_sequence of a FALSE `CheckResult` (see the module docstring)."""
    if result.verdict != "false" or result.error is None:
        raise ValueError("a violation witness needs a confirmed counterexample")
    source = SourceText(task.input_file)
    segments: list[dict] = []
    skipped = 0
    for step in result.trace:
        for value in step.inputs:
            line = source.line(value.line)
            where = source.closing_parenthesis(line, value.column, value.function) if line else None
            if where is None:
                skipped += 1
                continue
            segments.append({"segment": [{"waypoint": {
                "type": "function_return",
                "action": "follow",
                "location": _location(task, where[0], where[1]),
                "constraint": {"value": _acsl_constraint(value), "format": "acsl_expression"},
            }}]})
    error_line = source.line(result.error.line)
    if error_line is None:
        raise ValueError(f"the error's line {result.error.line} is not in {task.input_file}")
    segments.append({"segment": [{"waypoint": {
        "type": "target",
        "action": "follow",
        "location": _location(task, error_line, result.error.column),
    }}]})
    description = f"counterexample {result.confirmation}"
    if skipped:
        description += f"; {skipped} nondet value(s) whose call was not found in the file left out"
    if result.uninitialised_values:
        description += (f"; the path also reads {result.uninitialised_values} value(s) of uninitialised "
                        f"locals, chosen by the model and set by llumc's replay, which the format cannot "
                        f"carry: a validator must choose them too")
    return [{"entry_type": "violation_sequence", "metadata": _metadata(task, description), "content": segments}]


def correctness_witness(result, task: WitnessTask) -> list[dict]:
    """The invariant_set of a TRUE `CheckResult` (see the module docstring)."""
    if result.verdict != "true":
        raise ValueError("a correctness witness needs a checked proof")
    source = SourceText(task.input_file)
    content: list[dict] = []
    for loop in result.invariants:
        line = source.line(loop.get("line"))
        if line is None:
            continue
        kind, column = source.invariant_place(line, loop.get("column"))
        content.append({"invariant": {
            "type": kind,
            "location": _location(task, line, column, loop.get("function") or "main"),
            "value": loop["expression"],
            "format": "c_expression",
        }})
    description = f"proof: {result.confirmation}"
    if not content:
        start = source.main_body()
        if start is None:
            raise ValueError(f"no loop invariant and no main body found in {task.input_file}")
        content.append({"invariant": {
            "type": "location_invariant",
            "location": _location(task, start[0], start[1], "main"),
            "value": "1",
            "format": "c_expression",
        }})
        description += "; no C-level loop invariant: the proof's invariant is over the bit-level system"
    return [{"entry_type": "invariant_set", "metadata": _metadata(task, description), "content": content}]


def witness_for(result, task: WitnessTask) -> list[dict] | None:
    """The witness of a TRUE or FALSE result, None for UNKNOWN."""
    if result.verdict == "false":
        return violation_witness(result, task)
    if result.verdict == "true":
        return correctness_witness(result, task)
    return None


def dump_witness(entries: list[dict], path: Path) -> None:
    """Write a witness file (YAML, keys in the format's order).

    An entry's `content` of more than `FLOW_CONTENT_FROM` items (a counterexample that reads
    100 000 nondet values) goes one item per line in flow style (JSON, which YAML reads as
    such): PyYAML's representer took 18 s for that many segments, this takes a fraction of one."""
    import json

    import yaml

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    parts = []
    for entry in entries:
        content = entry.get("content")
        if not isinstance(content, list) or len(content) <= FLOW_CONTENT_FROM:
            parts.append(yaml.dump([entry], Dumper=dumper, sort_keys=False, allow_unicode=True, width=1 << 16))
            continue
        head = {key: value for key, value in entry.items() if key != "content"}
        parts.append(yaml.dump([head], Dumper=dumper, sort_keys=False, allow_unicode=True, width=1 << 16))
        parts.append("  content:\n" + "".join(f"  - {json.dumps(item, ensure_ascii=False)}\n" for item in content))
    path.write_text("".join(parts))


def _acsl_constraint(value) -> str:
    """`\\result == v` for a nondet value (`llumc.check.result.InputValue`): the integer, or a
    float's C text; a NaN, which no constant equals, as `\\result != \\result`."""
    if value.text is None:
        return f"\\result == {value.value}"
    if "NAN" in value.text:
        return "\\result != \\result"
    return f"\\result == {value.text}"
