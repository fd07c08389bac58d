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
        import click

        if isinstance(err, click.exceptions.Abort):
            print("llumc: interrupted", file=sys.stderr)
            sys.exit(130)
        if isinstance(err, click.ClickException):
            err.show()
            sys.exit(EXIT_BAD_INPUT)
        raise
