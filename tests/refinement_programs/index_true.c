// perm[i] = 9 - i is a valid index of data: with `perm` abstract, data[perm[k]] may be out of
// bounds (undefined behaviour under unreach-call, not confirmed natively under valid-memsafety);
// refinement makes `perm` exact and the check proves every access valid
extern int __VERIFIER_nondet_int(void);
int perm[10];
int data[10];
int main() {
  for (int i = 0; i < 10; i++) perm[i] = 9 - i;
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 10) return 0;
  data[perm[k]] = 1;
  return 0;
}
