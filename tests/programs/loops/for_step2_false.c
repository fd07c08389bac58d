/* FALSE: i steps by 2, so for odd n it jumps over n (n = 1 ends with i == 2) and i == n fails. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 1000);
  int i;
  for (i = 0; i < n; i += 2) {
  }
  __VERIFIER_assert(i == n);
  return 0;
}
