/* TRUE: with n >= 0, i counts from 0 up to n and stops there (invariant 0 <= i <= n), so i == n after the loop. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0);
  int i;
  for (i = 0; i < n; i++) {
  }
  __VERIFIER_assert(i == n);
  return 0;
}
