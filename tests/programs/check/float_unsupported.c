extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_error(void);
int main(void) {
  float f = __VERIFIER_nondet_float();
  if (f > 1.5f) {
    __VERIFIER_error();
  }
  return 0;
}
