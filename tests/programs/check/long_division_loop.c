/* Division by repeated subtraction: q * b + r == a holds after the loop, but no engine proves
   it quickly (the invariant is nonlinear): a check that runs until its time limit. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_error(void);
int main(void) {
  unsigned int a = __VERIFIER_nondet_uint(), b = __VERIFIER_nondet_uint();
  unsigned int q = 0, r = a;
  if (b == 0) return 0;
  while (r >= b) { r -= b; q++; }
  if (q * b + r != a) __VERIFIER_error();
  return 0;
}
