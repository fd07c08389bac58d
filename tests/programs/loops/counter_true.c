/* TRUE: k grows at most once per iteration of i and never decreases, so 0 <= k <= i. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0);
  int i = 0, k = 0;
  while (i < n) {
    i++;
    if (__VERIFIER_nondet_int()) {
      k++;
    }
  }
  __VERIFIER_assert(k >= 0);
  __VERIFIER_assert(k <= i);
  return 0;
}
