extern long __VERIFIER_nondet_long(void);
extern void __VERIFIER_error(void);
int main(void) {
  long v = __VERIFIER_nondet_long();
  if (v + 1 == 0) __VERIFIER_error();
  return 0;
}
