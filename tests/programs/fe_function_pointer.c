extern int __VERIFIER_nondet_int(void);
static int twice(int x) { return 2 * x; }
int main(void) {
  int (*f)(int) = twice;
  return f(__VERIFIER_nondet_int());
}
