// as index_pair_true.c, but perm[3] = 16: for k = 3 or 6 the index is 10, out of data's
// bounds; under valid-memsafety the first counterexample (havoc reads) is refuted natively for
// other k, refinement makes `perm` exact and the write replays (a sanitizer trap)
extern int __VERIFIER_nondet_int(void);
int perm[10];
int data[10];
int main() {
  for (int i = 0; i < 10; i++) perm[i] = 9 - i;
  perm[3] = 16;
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 10) return 0;
  data[perm[k] + perm[9 - k] - 9] = 1;
  return 0;
}
