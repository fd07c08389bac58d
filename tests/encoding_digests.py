"""Reference digests of the DimSpec encodings of the C programs in tests/programs.

Why: refactorings of the front end, the CFG reader and the encoders must not change a single
byte of what a program encodes to; `tests/test_encoding_identity.py` compares every encoding
against the sha256 stored in `tests/data/encoding_digests.json`, made by this module at a
commit whose encodings are trusted.

When an intended change alters encodings (a new memory model, say), regenerate the file and
commit it with the change, naming the programs whose digest moved:

    .venv/bin/python tests/encoding_digests.py            # rewrite tests/data/encoding_digests.json
    .venv/bin/python tests/encoding_digests.py --check    # only list the programs that differ

Each case is one program with one set of options: the default encoding (large blocks, LP64)
for every program; `--32` for every second program (by sorted path) and every program in
memory/ (where pointer widths change the most); the small-block `edge` scheme for the other
programs outside memory/ (that scheme rejects memory programs); `--property all` (signed
overflow checks too) for every third program; `--property valid-memsafety` (faults and
leaks) for every program in memory/. A program the front end rejects is recorded as
"rejected: <error class>", so that it stays rejected the same way. The default case also
records the C scopes of each block of main (`scopes_text`). Why not every option on every
program: that took 74 s of the test suite's 17 minutes on 2 cores, and a refactoring that
moves one program's encoding moves many.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

PROGRAMS = Path(__file__).resolve().parent / "programs"
DIGESTS = Path(__file__).resolve().parent / "data" / "encoding_digests.json"

#: option sets by label: keyword arguments of `llumc.pipeline.encode_file`
OPTIONS: dict[str, dict] = {
    "default": {},
    "m32": {"m32": True},
    "edge": {"scheme": "edge"},
    "all": {"prop": "all"},
    "memsafety": {"prop": "valid-memsafety"},
}

#: `--property all` is checked on every ALL_EVERY-th program (sorted by path): it shares the
#: front end and the bit-blaster with the default, only the checks it adds differ
ALL_EVERY = 3


@dataclass(frozen=True)
class Case:
    """One program encoded with one option set; `key` names it in the digests file and in
    failure messages."""

    program: str  # path relative to tests/programs, with '/'
    options: str  # a key of OPTIONS ("scopes" in keys: the default case's C scopes)

    @property
    def key(self) -> str:
        return f"{self.program} [{self.options}]"


def programs() -> list[str]:
    """Every C program under tests/programs, recursively, sorted, relative with '/'."""
    return sorted(path.relative_to(PROGRAMS).as_posix() for path in PROGRAMS.rglob("*.c"))


def cases() -> list[Case]:
    """The cases checked (see the module's docstring)."""
    found: list[Case] = []
    for index, program in enumerate(programs()):
        found.append(Case(program, "default"))
        if index % 2 == 0 or program.startswith("memory/"):
            found.append(Case(program, "m32"))
        if index % 2 == 1 and not program.startswith("memory/"):
            found.append(Case(program, "edge"))
        if index % ALL_EVERY == 0:
            found.append(Case(program, "all"))
        if program.startswith("memory/"):
            found.append(Case(program, "memsafety"))
    return found


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def scopes_text(result) -> str:
    """The C view (`DebugInfo.scope_at`: variables' holders, line, column, function) of
    every block of an encoded main, one line per block; holders sorted by C name, as their
    order is not part of the answer."""
    lines = []
    for block in result.fn.blocks:
        scope = result.debug.scope_at(block.name)
        view = None if scope is None else (sorted(scope.holders.items()), scope.line, scope.column, scope.function)
        lines.append(f"{block.name}: {view!r}")
    return "\n".join(lines)


def encode(case: Case) -> tuple[dict[str, str], str | None]:
    """Digests of the case by key, and its DimSpec text (symbol map comments included, as
    `llumc encode` writes it). The digest is the sha256 of the text, or "rejected: <error
    class>" (and no text) when the front end or the encoder refuses the program with one of
    llumc's own errors; anything else propagates: a crash is never a reference. A default
    case also gives its C scopes (`scopes_text`) under the key `<program> [scopes]`: loop
    invariants are stated in them."""
    from llumc.pipeline import encode_file
    from llumc.errors import LlumcError
    from solvers.dimspec import format_dimspec

    try:
        # from tests/programs, by a relative path: the checkout's place is no part of the
        # encoding (`__FILE__` of an assert is a string in memory, the symbol map names the source)
        with contextlib.chdir(PROGRAMS):
            result = encode_file(case.program, **OPTIONS[case.options])
    except LlumcError as err:
        return {case.key: f"rejected: {type(err).__name__}"}, None
    text = format_dimspec(result.ts)
    digests = {case.key: _sha256(text)}
    if case.options == "default":
        digests[Case(case.program, "scopes").key] = _sha256(scopes_text(result))
    return digests, text


def current_digests() -> dict[str, str]:
    """Every case's digests, as `encode` gives them."""
    found: dict[str, str] = {}
    for case in cases():
        found.update(encode(case)[0])
    return found


def load_reference() -> dict[str, str]:
    """The stored digests by case key."""
    return json.loads(DIGESTS.read_text())["digests"]


def differences(reference: dict[str, str], current: dict[str, str]) -> list[str]:
    """One line per case whose digest differs, that is new, or that is gone."""
    lines = []
    for key in sorted(reference.keys() | current.keys()):
        old, new = reference.get(key), current.get(key)
        if old == new:
            continue
        if old is None:
            lines.append(f"{key}: not in {DIGESTS.name} (regenerate it)")
        elif new is None:
            lines.append(f"{key}: in {DIGESTS.name} but no longer a case")
        else:
            lines.append(f"{key}: {old[:16]} -> {new[:16]}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write (or --check) the reference encoding digests.")
    parser.add_argument("--check", action="store_true", help="compare with the stored file, write nothing")
    args = parser.parse_args(argv)
    current = current_digests()
    if args.check:
        changed = differences(load_reference(), current)
        print("\n".join(changed) if changed else f"all {len(current)} encodings identical")
        return 1 if changed else 0
    DIGESTS.write_text(json.dumps({
        "about": "sha256 of each program's DimSpec encoding; regenerate with "
                 "`.venv/bin/python tests/encoding_digests.py` (see that file)",
        "digests": current,
    }, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(current)} digests to {DIGESTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
