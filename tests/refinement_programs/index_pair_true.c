// perm[i] = 9 - i, so perm[k] + perm[9 - k] - 9 is 0, a valid index of data: with `perm`
// abstract the two reads (at different cells) are havoc and the write may be out of bounds
// (undefined behaviour under unreach-call, not confirmed natively under valid-memsafety);
// refinement makes `perm` exact and the check proves every access valid
extern int __VERIFIER_nondet_int(void);
int perm[10];
int data[10];
int main() {
  for (int i = 0; i < 10; i++) perm[i] = 9 - i;
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 10) return 0;
  data[perm[k] + perm[9 - k] - 9] = 1;
  return 0;
}
