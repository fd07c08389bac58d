"""Stage 3, bit-blasting: word-level terms -> Boolector -> AIG -> CNF."""
