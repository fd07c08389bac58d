// as progression_true.c over a variable-length array: an object of nondeterministic size has no
// exact encoding, so the refuted counterexample cannot be refined (UNKNOWN, refinement exhausted)
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 3 || n > 10) return 0;
  int a[n];
  for (int i = 0; i < n; i++) a[i] = i;
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n - 2 && a[j] + a[j + 2] != 2 * a[j + 1]) reach_error();
  return 0;
}
