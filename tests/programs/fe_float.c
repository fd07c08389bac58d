extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main(void) {
  float f = __VERIFIER_nondet_int();
  if (f * 0.5f > 3.0f) __VERIFIER_error();
  return 0;
}
