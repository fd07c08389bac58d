"""Loop invariants from concrete runs: simulate → candidates → Houdini.

1. `simulate` runs the word-level transition system (`llumc.encoding.transys.WordTransitionSystem`)
   concretely from its initial state with drawn nondet inputs and records the states seen at
   every cut point (the loop heads of the large-block encoding, and the entry).
2. `candidates` proposes facts that hold on every recorded state of a cut point (bounds,
   orderings, linear and polynomial equalities, congruences), each as a 1-bit term over the
   state variables stating the fact about the C values exactly (no wrap-around of its own),
   with the same fact as a C expression.
3. `houdini` bit-blasts the candidates over the DimSpec state bits and keeps the largest
   inductive subset: a candidate that the runs suggested but that is false is dropped, never
   trusted. The runs only make the guesses good and cheap.
"""
