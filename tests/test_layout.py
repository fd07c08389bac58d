"""The package reads as the pipeline: one subpackage per stage, few modules at the top, and no
import that reaches up a stage or closes a loop (docs/architecture.md, "Module layout").

Read from the source files' own import statements (ast), so a new module is checked the day it
is added.
"""

from __future__ import annotations

import ast
from pathlib import Path

LLUMC = Path(__file__).resolve().parents[1] / "llumc"
SOLVERS = LLUMC.parent / "solvers"

#: Each unit's place in the pipeline. A module may import the foundation (`llumc`, `llumc.errors`,
#: `llumc.gcpause`), its own unit, and units of a lower rank: never a unit of its own rank or above.
STAGES: dict[str, int] = {
    "llumc.frontend": 1,
    "llumc.encoding": 2,
    "llumc.bitblast": 3,
    "llumc.pipeline": 4,
    "llumc.export": 5,
    "llumc.invariants": 5,
    "llumc.explicit": 6,
    "llumc.wordbmc": 6,
    "llumc.check": 7,
    "llumc.svcomp": 8,
    "llumc.bench": 8,
    "llumc.cli": 9,
    "llumc.__main__": 10,
}
FOUNDATION = {"llumc", "llumc.errors", "llumc.gcpause"}


def module_name(path: Path, package: Path = LLUMC) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit_of(module: str) -> str | None:
    """The stage a module belongs to: its subpackage, or itself at the top level."""
    if module in FOUNDATION:
        return None
    parts = module.split(".")
    return ".".join(parts[:2])


def imports(path: Path, *, top_level_only: bool = False, package: Path = LLUMC) -> set[str]:
    """Modules named by `import x` / `from x import y` (with `from llumc import name` as
    `llumc.name` when that is a module); only those run at import time with `top_level_only`."""
    tree = ast.parse(path.read_text(), filename=str(path))
    nodes = tree.body if top_level_only else ast.walk(tree)
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                if (package.parent / name.replace(".", "/")).with_suffix(".py").exists():
                    found.add(name)
    return found


def llumc_modules() -> list[Path]:
    return sorted(LLUMC.rglob("*.py"))


def test_top_level_has_at_most_ten_modules():
    top = sorted(p.name for p in LLUMC.glob("*.py"))
    assert len(top) <= 10, top


def test_every_module_belongs_to_a_known_stage():
    unknown = {module_name(p) for p in llumc_modules()
               if module_name(p) not in FOUNDATION and unit_of(module_name(p)) not in STAGES}
    assert not unknown, f"give these a place in STAGES (and docs/architecture.md): {sorted(unknown)}"


def stage_violations(package: Path = LLUMC) -> list[str]:
    """'module imports target' for every import of a stage of the same rank or a later one."""
    wrong = []
    for path in sorted(package.rglob("*.py")):
        me = module_name(path, package)
        my_unit = unit_of(me)
        for target in imports(path, package=package):
            if not target.startswith("llumc") or target in FOUNDATION:
                continue
            unit = unit_of(target)
            if unit == my_unit or unit not in STAGES:
                continue
            if my_unit is None or STAGES[unit] >= STAGES[my_unit]:
                wrong.append(f"{me} imports {target}")
    return wrong


def test_no_module_imports_its_own_stage_or_a_later_one():
    wrong = stage_violations()
    assert not wrong, wrong


def test_no_import_cycle_at_import_time():
    graph = {module_name(p): {t for t in imports(p, top_level_only=True) if t.startswith("llumc")}
             for p in llumc_modules()}
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError(" -> ".join(path[path.index(module):] + [module]))
        if module in done or module not in graph:
            return
        for target in sorted(graph[module]):
            visit(target, path + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


def test_solvers_import_nothing_from_llumc():
    offenders = [str(p) for p in SOLVERS.rglob("*.py") if any(t.startswith("llumc") for t in imports(p))]
    assert not offenders, offenders


def test_the_stage_check_finds_imports_against_the_order(tmp_path):
    """The checker itself, on a package of its own: a front-end module importing the encoder
    inside a function, and an export importing the invariants (same rank), are both found;
    an import down the order is not."""
    package = tmp_path / "llumc"
    for unit in ("frontend", "encoding", "export", "invariants"):
        (package / unit).mkdir(parents=True)
        (package / unit / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "encoding" / "terms.py").write_text("from llumc.frontend import cfg\n")
    (package / "frontend" / "cfg.py").write_text("def f():\n    from llumc.encoding.terms import Term\n")
    (package / "invariants" / "search.py").write_text("import llumc.errors\n")
    (package / "export" / "aiger.py").write_text("from llumc.invariants import search\n")
    assert sorted(stage_violations(package)) == ["llumc.export.aiger imports llumc.invariants",
                                         "llumc.export.aiger imports llumc.invariants.search",
                                         "llumc.frontend.cfg imports llumc.encoding.terms"]
