"""DimSpec toolkit: read, write and solve transition systems given as DimSpec (or AIGER).

Stands on its own: imports nothing from llumc.
"""

from solvers.transys import TransitionSystem, infer_auxiliaries

__all__ = ["TransitionSystem", "infer_auxiliaries"]
