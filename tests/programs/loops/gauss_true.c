/* TRUE: s = 1 + 2 + ... + i, so 2*s == i*(i+1) (n <= 1000: no overflow, and the identity holds modulo 2^32 anyway). */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "gauss_true.c", 5, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } return; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 1000);
  int i = 0, s = 0;
  while (i < n) {
    i++;
    s = s + i;
  }
  __VERIFIER_assert(2 * s == i * (i + 1));
  return 0;
}
