/* FALSE: cohencu with z stepping by 5 instead of 6: after the first iteration z == 11 != 6*1 + 6. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "cohencu_false.c", 5, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } return; }
int main(void) {
  int a = __VERIFIER_nondet_int();
  __VERIFIER_assume(a >= 0 && a <= 1000);
  int n = 0, x = 0, y = 1, z = 6;
  while (1) {
    __VERIFIER_assert(z == 6 * n + 6);
    __VERIFIER_assert(y == 3 * n * n + 3 * n + 1);
    __VERIFIER_assert(x == n * n * n);
    if (!(n <= a)) break;
    n = n + 1;
    x = x + y;
    y = y + z;
    z = z + 5;
  }
  return 0;
}
