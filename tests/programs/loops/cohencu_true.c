/* TRUE: cohencu (nla-digbench): x, y, z follow n^3, 3n^2+3n+1, 6n+6 by finite differences; polynomial identities, so they hold modulo 2^32 too (a <= 1000 keeps them exact). */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "cohencu_true.c", 5, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } return; }
int main(void) {
  int a = __VERIFIER_nondet_int();
  __VERIFIER_assume(a >= 0 && a <= 1000);
  int n = 0, x = 0, y = 1, z = 6;
  while (1) {
    __VERIFIER_assert(z == 6 * n + 6);
    __VERIFIER_assert(y == 3 * n * n + 3 * n + 1);
    __VERIFIER_assert(x == n * n * n);
    __VERIFIER_assert(z * z - 12 * y - 6 * z + 12 == 0);
    if (!(n <= a)) break;
    n = n + 1;
    x = x + y;
    y = y + z;
    z = z + 6;
  }
  __VERIFIER_assert(x == n * n * n);
  return 0;
}
