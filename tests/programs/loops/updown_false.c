/* FALSE: with i <= n the loop runs n + 1 times, so j ends at -1 (i + j == n still holds) and j == 0 fails. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 1000);
  int i = 0, j = n;
  while (i <= n) {
    i++;
    j--;
  }
  __VERIFIER_assert(j == 0);
  return 0;
}
