"""`python -m llumc ...` runs the command line (same as the `llumc` script)."""

from llumc.cli import main

if __name__ == "__main__":
    main()
