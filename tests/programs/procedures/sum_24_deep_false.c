extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 30) return 0;
  int s = sum(n);
  if (s == 300) reach_error();   /* n = 24 */
  return 0;
}
