// as index_true.c, but perm[3] = 10 is out of data's bounds: under valid-memsafety the first
// counterexample (any havoc index) is refuted natively when k is not 3; refinement makes `perm`
// exact and the write data[perm[3]] replays (a sanitizer trap)
extern int __VERIFIER_nondet_int(void);
int perm[10];
int data[10];
int main() {
  for (int i = 0; i < 10; i++) perm[i] = 9 - i;
  perm[3] = 10;
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 10) return 0;
  data[perm[k]] = 1;
  return 0;
}
