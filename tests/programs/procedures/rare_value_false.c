/* f returns 0 on every input the concrete runs try, and 7 on one they do not (5001): a
 * summary `f(n) == 0` agrees with every sample but not with the body, and must be dropped. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int f(int n) {
  if (n * 3 == 15003) return 7;
  if (n <= 0) return 0;
  return f(n - 1);
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (f(n) == 7) reach_error();
  return 0;
}
