extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main(void) {
  long double f = __VERIFIER_nondet_int();
  if (f * 0.5L > 3.0L) __VERIFIER_error();
  return 0;
}
