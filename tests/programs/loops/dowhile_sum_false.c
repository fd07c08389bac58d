/* FALSE: n == 0 is allowed, but the do-while body still runs once: s == 3 != 3*0. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 1000);
  int i = 0, s = 0;
  do {
    s = s + 3;
    i++;
  } while (i < n);
  __VERIFIER_assert(s == 3 * n);
  return 0;
}
