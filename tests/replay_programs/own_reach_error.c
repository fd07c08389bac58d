/* SV-COMP 2020+ style: the program defines reach_error and __VERIFIER_assert itself. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "own_reach_error.c", 4, "reach_error"); }
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
  ERROR: {reach_error(); abort();}
  }
}
extern short __VERIFIER_nondet_short(void);
int main() {
  short s = __VERIFIER_nondet_short();
  __VERIFIER_assert(s != -5);
  return 0;
}
