"""Word-level bounded model checking: the word-level transition system unrolled term by term,
values that the unrolling knows folded as it goes, and only what stays symbolic handed to an
SMT solver (Boolector, incremental). `bmc.py` is the engine."""
