extern int __VERIFIER_nondet_int(void);
int fact(int n) {
  if (n <= 1) return 1;
  return n * fact(n - 1);
}
int main(void) { return fact(__VERIFIER_nondet_int()); }
