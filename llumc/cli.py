"""Command line: `llumc ir | encode | solve | check | bench`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from llumc.errors import LlumcError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="llumc: unbounded model checking of C programs through DimSpec.",
    context_settings={"help_option_names": ["-h", "--help"]},
)

EXIT_BAD_INPUT = 2


@app.callback()
def _group() -> None:
    """llumc: unbounded model checking of C programs through DimSpec."""
    # A callback keeps `llumc ir FILE` a subcommand even while `ir` is the only command.


@app.command("ir")
def ir_command(
    program: Path = typer.Argument(..., help="C source file."),
    m32: bool = typer.Option(False, "--32", help="ILP32 data model (SV-COMP 32-bit tasks)."),
    clang: Optional[str] = typer.Option(
        None, "--clang", envvar="LLUMC_CLANG", help="Use this clang instead of ziglang's."
    ),
) -> None:
    """Print the LLVM-IR module that will be encoded (after inlining and promotion).

    Example: llumc ir examples/appendix.c
    """
    from llumc.frontend import compile_c

    result = compile_c(program, m32=m32, clang=clang)
    sys.stdout.write(result.ir)


@app.command("encode")
def encode_command(
    program: Path = typer.Argument(..., help="C source file."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write DimSpec here (default: stdout)."),
    prop: str = typer.Option(
        "unreach-call", "--property", help="unreach-call | no-overflow | all (error calls, signed overflow, both)."
    ),
    m32: bool = typer.Option(False, "--32", help="ILP32 data model (SV-COMP 32-bit tasks)."),
    scheme: str = typer.Option("edge", "--scheme", help="Phi encoding: edge (phis set on entering edges) | paper (pred)."),
    stats: bool = typer.Option(False, "--stats", help="Print encoding size (stderr; stdout with -o)."),
    check_div_by_zero: bool = typer.Option(False, "--check-div-by-zero", help="Division by zero is an error too."),
    check_shift: bool = typer.Option(False, "--check-shift", help="Shift amount >= width is an error too."),
    clang: Optional[str] = typer.Option(
        None, "--clang", envvar="LLUMC_CLANG", help="Use this clang instead of ziglang's."
    ),
) -> None:
    """Encode a C program as a DimSpec transition system (symbol map in leading comments).

    Example: llumc encode examples/appendix.c -o appendix.dimspec --stats
    """
    from llumc.encode import encode_file
    from llumc.transys import PROPERTIES, SCHEMES
    from solvers.dimspec import format_dimspec

    if prop not in PROPERTIES:
        raise LlumcError(f"--property must be one of {', '.join(PROPERTIES)}, not {prop!r}")
    if scheme not in SCHEMES:
        raise LlumcError(f"--scheme must be one of {', '.join(SCHEMES)}, not {scheme!r}")
    result = encode_file(program, prop=prop, m32=m32, scheme=scheme, clang=clang,
                         check_div_by_zero=check_div_by_zero, check_shift=check_shift)
    text = format_dimspec(result.ts)
    if output is None:
        sys.stdout.write(text)
    else:
        try:
            output.write_text(text)
        except OSError as err:
            raise LlumcError(f"cannot write {output}: {err.strerror}") from err
    if stats:
        stream = sys.stdout if output is not None else sys.stderr
        for line in result.stats.lines():
            print(line, file=stream)


@app.command(
    "solve",
    add_help_option=False,
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []},
)
def solve_command(ctx: typer.Context) -> None:
    """Solve a DimSpec or AIGER file with IC3 or BMC; every answer checked (see --help).

    Example: llumc solve model.dimspec --bmc --trace
    """
    # A thin wrapper: the options and their help live in solvers.cli (also `python -m solvers`).
    from solvers.cli import main as solve_main

    solve_main(list(ctx.args), prog="llumc solve")


def main() -> None:
    """Entry point: one clear line and exit code 2 for bad input, never a traceback."""
    try:
        app(standalone_mode=False)
    except LlumcError as err:
        print(f"llumc: error: {err}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        print("llumc: interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as err:  # click's usage errors and the like
        from typer._click.exceptions import ClickException  # typer 0.29 vendors click

        if isinstance(err, typer.Abort):
            print("llumc: interrupted", file=sys.stderr)
            sys.exit(130)
        if isinstance(err, ClickException):
            err.show()
            sys.exit(EXIT_BAD_INPUT)
        raise
