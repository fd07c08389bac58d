/* TRUE: with n > 0 the do-while runs exactly n times adding 3, so s == 3*i == 3*n (modulo 2^32 as well). */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0);
  int i = 0, s = 0;
  do {
    s = s + 3;
    i++;
  } while (i < n);
  __VERIFIER_assert(s == 3 * n);
  return 0;
}
