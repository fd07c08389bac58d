/* TRUE: x = n = 1 before the assertion. Regression: a claimed invariant said i == 1 at the second loop's head (the first loop's last i), where i starts again from 0. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 1 && n <= 1);
  int x = n + n;
  int i;
  for (i = 0; i < n; i++) {
  }
  x = n;
  for (i = 0; i < n; i++) {
  }
  __VERIFIER_assert(x == 1);
  return 0;
}
