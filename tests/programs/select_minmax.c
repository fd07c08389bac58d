/* Conditional expressions become select / min-max; the error needs a < b and m == a. */
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int m = a < b ? a : b;
  unsigned u = (unsigned)a > 100u ? 100u : (unsigned)a;
  if (m == -5 && u == 100) {
    __VERIFIER_error();
  }
  return 0;
}
