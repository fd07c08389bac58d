/* TRUE: i counts up from 0 while j counts down from n >= 0, so i + j == n and i <= n throughout; the loop ends at i == n, j == 0. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0);
  int i = 0, j = n;
  while (i < n) {
    i++;
    j--;
  }
  __VERIFIER_assert(j == 0);
  return 0;
}
