/* FALSE: even tells bit 0 of n, not bit 1: n = 1 ends with even == 0 while (n & 2) == 0. */
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  unsigned char x = n;
  int even = 1;
  while (x > 0) {
    x--;
    even = !even;
  }
  __VERIFIER_assert(even == ((n & 2) == 0));
  return 0;
}
