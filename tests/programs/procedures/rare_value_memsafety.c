/* Under valid-memsafety: f returns 100 on one input the concrete runs do not try (5001), 0 on
 * the others, and a[f(n)] is written. A fact `f(n) == 0` must be dropped by its body check under
 * this property too (its failing check is an error whatever the property: a reach_error is no
 * error under valid-memsafety). */
extern int __VERIFIER_nondet_int(void);
int f(int n) {
  if ((unsigned)n * 3u == 15003u) return 100;
  if (n <= 0) return 0;
  return f(n - 1);
}
int main(void) {
  int a[4] = {0};
  a[f(__VERIFIER_nondet_int())] = 1;
  return a[0];
}
