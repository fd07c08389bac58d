/* FALSE: the unsigned char c wraps to 0 at i == 256, so c == i fails exactly for n >= 256 (after 256 iterations). */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 1000);
  unsigned char c = 0;
  int i = 0;
  while (i < n) {
    c++;
    i++;
  }
  __VERIFIER_assert(c == i);
  return 0;
}
