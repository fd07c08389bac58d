extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_error(void);
int main(void) {
  long double f = __VERIFIER_nondet_double();
  if (f > 1.5L) {
    __VERIFIER_error();
  }
  return 0;
}
