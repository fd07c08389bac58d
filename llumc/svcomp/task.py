"""SV-COMP's inputs: task definitions (`.yml`, format 2.0) and property files (`.prp`).

A task names its program (`input_files`), its properties (each a `property_file`, maybe with
an `expected_verdict`) and its data model. llumc checks two of SV-COMP's properties,
unreach-call and no-overflow; every other one it recognises (memory safety, termination, ...)
is kept, by name, so that the caller answers it UNKNOWN instead of dropping it. A property
file is read by its text (`CHECK( init(main()), LTL(G ! overflow) )`), so a renamed file is
still understood; a file that is not there is known by its SV-COMP name alone. Every problem
with a task is one LlumcError naming the file and the cause (exit 2 in the CLI).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from llumc.errors import LlumcError

__all__ = ["CHECKED_PROPERTIES", "KNOWN_PROPERTIES", "DATA_MODELS", "PropertySpec", "Task",
           "read_property_file", "read_task", "combined_verdict"]

CHECKED_PROPERTIES = ("unreach-call", "no-overflow", "valid-memsafety")
# valid-memsafety's parts: llumc checks the three together (a file with fewer is not checked)
MEMSAFETY_PARTS = ("valid-free", "valid-deref", "valid-memtrack")
# SV-COMP's property names (the stem of its .prp files): recognised, answered UNKNOWN if not checked.
KNOWN_PROPERTIES = (
    "unreach-call", "no-overflow", "valid-memsafety", "valid-memcleanup", "termination",
    "no-data-race", "def-behavior", "coverage-error-call", "coverage-branches",
)
DATA_MODELS = ("ILP32", "LP64")
# Error functions whose calls llumc's unreach-call looks for (frontend.PRIMITIVES' "error" kind
# besides assert's internals): a property naming another function is not checked.
ERROR_FUNCTIONS = ("reach_error", "__VERIFIER_error")

_CHECK = re.compile(r"CHECK\s*\(\s*init\s*\(\s*(\w+)\s*\(\s*\)\s*\)\s*,\s*LTL\s*\((.*)\)\s*\)\s*$")
_COVER = re.compile(r"COVER\s*\(\s*init\s*\(\s*(\w+)\s*\(\s*\)\s*\)\s*,\s*FQL\s*\((.*)\)\s*\)\s*$")


@dataclass(frozen=True)
class PropertySpec:
    """One property of a task: its SV-COMP name, where it came from, the verdict the task expects."""

    name: str  # an SV-COMP property name (KNOWN_PROPERTIES)
    file: Path | None = None
    expected: str | None = None  # "true" | "false" | None
    subproperty: str | None = None  # e.g. valid-deref for a FALSE valid-memsafety task
    # Why llumc cannot check it (None: it can): shown with its UNKNOWN.
    unchecked: str | None = None


@dataclass
class Task:
    """A task definition as llumc uses it."""

    path: Path
    input_files: list[Path]
    properties: list[PropertySpec] = field(default_factory=list)
    language: str = "C"
    data_model: str = "LP64"

    @property
    def m32(self) -> bool:
        return self.data_model == "ILP32"


def _property_from_text(text: str, where: str) -> tuple[str, str | None]:
    """(name, why unchecked) from a property file's text; LlumcError if no line is SV-COMP's."""
    names: list[str] = []
    parts: set[str] = set()
    unchecked: str | None = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("//", "#")):
            continue
        check = _CHECK.match(line)
        if check is None:
            cover = _COVER.match(line)
            if cover is None:
                raise LlumcError(f"{where}: not an SV-COMP property: {line[:80]!r}")
            goal = re.sub(r"\s+", "", cover.group(2))
            names.append("coverage-error-call" if "@CALL" in goal else "coverage-branches")
            continue
        entry, formula = check.group(1), re.sub(r"\s+", "", check.group(2))
        if entry != "main":
            unchecked = f"the program starts at {entry}(), llumc starts at main()"
        call = re.fullmatch(r"G!call\((\w+)\(\)\)", formula)
        if call:
            names.append("unreach-call")
            if call.group(1) not in ERROR_FUNCTIONS:
                unchecked = (f"the error function is {call.group(1)}(); llumc looks for calls of "
                             f"{' and '.join(ERROR_FUNCTIONS)}")
        elif formula == "G!overflow":
            names.append("no-overflow")
        elif formula in ("Gvalid-free", "Gvalid-deref", "Gvalid-memtrack"):
            names.append("valid-memsafety")
            parts.add(formula[1:])
        elif formula == "Gvalid-memcleanup":
            names.append("valid-memcleanup")
        elif formula == "Fend":
            names.append("termination")
        elif formula == "G!data-race":
            names.append("no-data-race")
        elif formula == "Gdef-behavior":
            names.append("def-behavior")
        else:
            raise LlumcError(f"{where}: unknown property LTL({check.group(2).strip()})")
    if not names:
        raise LlumcError(f"{where}: empty property file")
    # memcleanup's file repeats valid-free and valid-deref beside valid-memcleanup
    name = "valid-memcleanup" if "valid-memcleanup" in names else names[0]
    if any(other != name for other in names if name != "valid-memcleanup"):
        raise LlumcError(f"{where}: more than one property in one file ({', '.join(dict.fromkeys(names))})")
    if name == "valid-memsafety" and parts != set(MEMSAFETY_PARTS) and unchecked is None:
        unchecked = (f"llumc checks {', '.join(MEMSAFETY_PARTS)} together; this file states "
                     f"{', '.join(part for part in MEMSAFETY_PARTS if part in parts)} only")
    return name, unchecked


def read_property_file(path: Path, *, base: Path | None = None) -> PropertySpec:
    """The property a `.prp` file states. A file that does not exist is known by its SV-COMP
    name (`../properties/unreach-call.prp` is unreach-call); any other name is an error."""
    path = Path(path)
    where = str(base / path if base is not None and not path.is_absolute() else path)
    resolved = Path(where)
    if resolved.is_file():
        try:
            text = resolved.read_text()
        except (OSError, UnicodeDecodeError) as err:
            raise LlumcError(f"{where}: cannot read the property file: {err}") from None
        name, unchecked = _property_from_text(text, where)
    elif resolved.exists():
        raise LlumcError(f"{where}: not a property file")
    elif path.suffix == ".prp" and path.stem in KNOWN_PROPERTIES:
        name, unchecked = path.stem, None
    else:
        raise LlumcError(f"{where}: property file not found (and not an SV-COMP property name)")
    if name not in CHECKED_PROPERTIES and unchecked is None:
        unchecked = f"llumc checks {' and '.join(CHECKED_PROPERTIES)} only"
    return PropertySpec(name, resolved, unchecked=unchecked)


def read_task(path: Path) -> Task:
    """Read an SV-COMP task definition; every problem is one LlumcError naming the file."""
    import yaml

    path = Path(path)
    if not path.is_file():
        raise LlumcError(f"{path}: no such task file")
    try:
        definition = yaml.safe_load(path.read_text())
    except UnicodeDecodeError:
        raise LlumcError(f"{path}: malformed task file: not UTF-8 text") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise LlumcError(f"{path}: malformed YAML{at}: {problem}") from None
    if not isinstance(definition, dict) or "input_files" not in definition:
        raise LlumcError(f"{path}: not an SV-COMP task definition (no input_files)")
    inputs = definition["input_files"]
    inputs = [inputs] if isinstance(inputs, str) else inputs
    if not isinstance(inputs, list) or not inputs or not all(isinstance(i, str) for i in inputs):
        raise LlumcError(f"{path}: input_files must be a file name or a list of them")
    files = []
    for name in inputs:
        source = path.parent / name
        if not source.is_file():
            raise LlumcError(f"{path}: input file {name} not found")
        files.append(source)
    options = definition.get("options") or {}
    if not isinstance(options, dict):
        raise LlumcError(f"{path}: options must be a mapping")
    language = str(options.get("language", "C"))
    if language.upper() != "C":
        raise LlumcError(f"{path}: language {language}: llumc checks C programs")
    data_model = str(options.get("data_model", "LP64")).upper()
    if data_model not in DATA_MODELS:
        raise LlumcError(f"{path}: data_model {options.get('data_model')!r}: one of {', '.join(DATA_MODELS)}")
    entries = definition.get("properties")
    if not isinstance(entries, list) or not entries:
        raise LlumcError(f"{path}: no properties")
    properties = []
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or "property_file" not in entry:
            raise LlumcError(f"{path}: property {number} has no property_file")
        try:
            spec = read_property_file(Path(str(entry["property_file"])), base=path.parent)
        except LlumcError as err:
            raise LlumcError(f"{path}: property {number}: {err}") from None
        expected = entry.get("expected_verdict")
        if expected is not None:
            expected = str(expected).lower()  # YAML reads `false` as a bool
            if expected not in ("true", "false"):
                raise LlumcError(f"{path}: expected_verdict {entry['expected_verdict']!r} of "
                                 f"{spec.name}: true or false")
        sub = entry.get("subproperty")
        properties.append(PropertySpec(spec.name, spec.file, expected, str(sub) if sub else None,
                                       spec.unchecked))
    return Task(path, files, properties, language, data_model)


def combined_verdict(verdicts: list[str]) -> str:
    """One answer for several properties, the worst: FALSE if any is FALSE (a violation is a
    violation whatever the others say), else UNKNOWN if any is, else TRUE."""
    if "false" in verdicts:
        return "false"
    if any(verdict != "true" for verdict in verdicts) or not verdicts:
        return "unknown"
    return "true"


@dataclass
class CheckPlan:
    """What `llumc check` runs: one program (or a task's input files) and the properties, in order."""

    source: Path
    task: Task | None
    properties: list[PropertySpec]
    m32: bool


TASK_SUFFIXES = (".yml", ".yaml")


def plan_check(program: Path, *, prop: str | None = None, property_file: Path | None = None,
               m32: bool = False, data_model: str | None = None) -> CheckPlan:
    """Resolve `llumc check`'s input and options (SV-COMP's names beside llumc's own): a task
    file gives the program, its properties and its data model; `--property`/`--property-file`
    then choose among its properties (one the task does not list is checked, with no expected
    verdict); `--32`/`--data-model` may only repeat the task's data model."""
    program = Path(program)
    if prop is not None and property_file is not None:
        raise LlumcError("give --property or --property-file, not both")
    requested: str | None = None
    if data_model is not None:
        requested = data_model.upper()
        if requested not in DATA_MODELS:
            raise LlumcError(f"--data-model must be one of {', '.join(DATA_MODELS)}, not {data_model!r}")
        if m32 and requested != "ILP32":
            raise LlumcError(f"--32 contradicts --data-model {data_model}")
    elif m32:
        requested = "ILP32"
    selected: PropertySpec | None = None
    if property_file is not None:
        selected = read_property_file(property_file)
    elif prop is not None:
        selected = PropertySpec(prop)  # validated by the CLI (llumc's names, `all` included)
    if program.suffix.lower() not in TASK_SUFFIXES:
        # at once, before any progress line: the one line of bad input
        if not program.exists():
            raise LlumcError(f"no such file: {program}")
        if program.is_dir():
            raise LlumcError(f"is a directory, not a C file: {program}")
        return CheckPlan(program, None, [selected or PropertySpec("unreach-call")], requested == "ILP32")
    task = read_task(program)
    if requested is not None and requested != task.data_model:
        raise LlumcError(f"{program}: the task's data model is {task.data_model}, not {requested}")
    properties = task.properties
    if selected is not None:
        properties = [spec for spec in properties if spec.name == selected.name] or [selected]
    return CheckPlan(task.input_files[0], task, properties, task.m32)
