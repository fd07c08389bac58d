/* TRUE: even flips once per decrement of x from n to 0, so it ends 1 exactly when n is even. */
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
  __VERIFIER_assert(even == ((n & 1) == 0));
  return 0;
}
