/* FALSE: as scaled_bound_true.c, but the check is y > 7: for y = -1, 0, 1 or 2 at the start the loop ends with y == 7 (x: -20, -21, -21, -20, -18, -15, -11, -6, 0 for y = -1), for every other start y ends above 7. */
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
  __VERIFIER_assert(y > 7);
  return 0;
}
