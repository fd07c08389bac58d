/* TRUE: the unsigned char c counts with i but wraps at 256, so c == (unsigned char)i, i.e. the low 8 bits of i. */
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
  __VERIFIER_assert(c == (i & 255));
  return 0;
}
