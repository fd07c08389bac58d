"""Stage 1, the front end: clang and LLVM passes make a C file one SSA function `main`
(`compile`), read into the `Function` the encoders consume (`cfg`), with its debug info,
local lifetimes and library calls."""
