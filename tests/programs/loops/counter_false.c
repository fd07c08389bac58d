/* FALSE: k may grow in every iteration, so with n = 2 and both choices taken k == i == 2 and 2*k <= i + 1 fails. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 1000);
  int i = 0, k = 0;
  while (i < n) {
    i++;
    if (__VERIFIER_nondet_int()) {
      k++;
    }
  }
  __VERIFIER_assert(2 * k <= i + 1);
  return 0;
}
