"""`python -m solvers FILE …`: the `llumc solve` command without the llumc front end."""

from solvers.cli import main

if __name__ == "__main__":
    main(prog="python -m solvers")
