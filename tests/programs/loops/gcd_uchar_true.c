/* TRUE: subtractive gcd on positive 8-bit a, b: x and y only decrease and stay positive (the larger minus the smaller), so 0 < x <= a, x <= b at the end. */
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
  __VERIFIER_assert(x > 0);
  __VERIFIER_assert(x <= a);
  __VERIFIER_assert(x <= b);
  return 0;
}
