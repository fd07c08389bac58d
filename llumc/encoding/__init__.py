"""Stage 2, the word-level encoding: a `Function` becomes a `WordTransitionSystem` of terms,
in large blocks (`lbe`) or small blocks (`transys`), with memory and constant sets."""
