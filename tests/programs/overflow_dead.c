/* The only bug: a signed overflow in a computation whose result is never used (the
   optimiser would delete it). INT_MAX + 1 overflows at the first step. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = 2147483647;
  int dead = x + 1;
  return 0;
}
