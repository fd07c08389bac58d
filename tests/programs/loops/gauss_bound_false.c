/* FALSE: s = 1 + ... + i reaches 5050 at i == 100 (4950 at 99), so s < 5000 fails exactly for n >= 100, after 100 iterations. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "gauss_bound_false.c", 5, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } return; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 1000);
  int i = 0, s = 0;
  while (i < n) {
    i++;
    s = s + i;
  }
  __VERIFIER_assert(s < 5000);
  return 0;
}
