/* FALSE: the gcd of two different positive 8-bit numbers can be 1 (a = 2, b = 3), so x > 1 fails. */
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  unsigned char a = __VERIFIER_nondet_uchar();
  unsigned char b = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(a > 0);
  __VERIFIER_assume(b > 0);
  unsigned char x = a, y = b;
  while (x != y) {
    if (x > y) {
      x = x - y;
    } else {
      y = y - x;
    }
  }
  if (a != b) {
    __VERIFIER_assert(x > 1);
  }
  return 0;
}
