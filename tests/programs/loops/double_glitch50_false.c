/* FALSE: x == 2*i until i reaches 50, where x gets one extra: fails exactly for n >= 50, after 50 iterations. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n <= 1000);
  int i = 0, x = 0;
  while (i < n) {
    i++;
    x += 2;
    if (i == 50) {
      x++;
    }
  }
  __VERIFIER_assert(x == 2 * i);
  return 0;
}
