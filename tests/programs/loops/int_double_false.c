/* FALSE: n == 31 doublings of 1 wrap the int to 2^31 - 2^32 = INT_MIN (signed arithmetic wraps), so x > 0 fails only for n == 31. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 31);
  int x = 1, i;
  for (i = 0; i < n; i++) {
    x = x * 2;
  }
  __VERIFIER_assert(x > 0);
  return 0;
}
