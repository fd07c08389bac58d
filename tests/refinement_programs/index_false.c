// as index_true.c, but perm[3] = 10 is out of data's bounds: found on the abstraction with the
// tracked index at 3 (the fault edge restricted to the tracked cell), replayed under
// valid-memsafety (a sanitizer trap)
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
