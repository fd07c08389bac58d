/* One C loop, inlined at two calls with different bounds: what holds at the loop holds at
   one copy or the other, so a printed invariant of the loop is their disjunction. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += 1;
  return s;
}
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 3) return 0;
  if (sum(k) + sum(k + 10) != 2 * k + 10) reach_error();
  return 0;
}
