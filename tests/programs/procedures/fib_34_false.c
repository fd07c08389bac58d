extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 12) return 0;
  if (fib(n) == 34) reach_error();
  return 0;
}
