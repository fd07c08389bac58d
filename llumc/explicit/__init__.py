"""Explicit-state reachability over the word-level system, its steps compiled to Python or
machine code."""
