/* switch on a truncated 64-bit value, with 8- and 16-bit arithmetic. */
extern void __VERIFIER_error(void);
extern long long __VERIFIER_nondet_longlong(void);
int main(void) {
  long long big = __VERIFIER_nondet_longlong();
  unsigned char low = (unsigned char)big;
  short s = (short)(big >> 48);
  switch (low) {
  case 7:
    if (s == -2 && big == (long long)0xFFFE000000000007LL) {
      __VERIFIER_error();
    }
    break;
  case 200:
    break;
  default:
    break;
  }
  return 0;
}
