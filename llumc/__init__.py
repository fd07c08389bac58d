"""llumc: an unbounded software model checker for C (the LLUMC encoding, DimSpec, IC3)."""

__version__ = "0.1.0"
