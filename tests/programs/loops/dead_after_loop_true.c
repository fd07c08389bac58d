/* TRUE: the assertion n != 0 holds: n >= 1 is assumed and never changes. Regression: a claimed invariant said n + v == 0 at the for head (v before the loop), where v is 0 after the first iteration (v is dead after the loop). */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 1 && n <= 8);
  int v = -n;
  int g = 0;
  int i = 0;
  while (g < 2 && n <= g) {
    g++;
    v--;
    __VERIFIER_assert(n != 0);
  }
  for (i = 0; i < 1; i++) {
    v = 0;
  }
  return 0;
}
