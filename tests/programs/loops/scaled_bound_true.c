/* TRUE: y starts above -100 and grows by one per turn while x < 0, so x + 100*y never falls (x + 100*y >= -20 - 9900) and x stays far from wrapping around; the loop leaves x < 0 only after adding a positive y, so y > 0 at the end. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int x = -20;
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(-100 < y && y < 100000);
  while (x < 0) {
    x = x + y;
    y++;
  }
  __VERIFIER_assert(y > 0);
  return 0;
}
