/* TRUE: n <= 30 doublings of 1 give 2^n <= 2^30, still a positive int. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 30);
  int x = 1, i;
  for (i = 0; i < n; i++) {
    x = x * 2;
  }
  __VERIFIER_assert(x > 0);
  return 0;
}
