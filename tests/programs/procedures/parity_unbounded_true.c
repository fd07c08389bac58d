/* Mutual recursion on every unsigned value (4 billion calls deep at most): no depth bound
 * covers it; the summaries 0 <= is_even(n) <= 1 and 0 <= is_odd(n) <= 1 prove it. */
extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
int is_odd(unsigned n);
int is_even(unsigned n) { if (n == 0) return 1; return is_odd(n - 1); }
int is_odd(unsigned n) { if (n == 0) return 0; return is_even(n - 1); }
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  int e = is_even(n);
  if (e < 0 || e > 1) reach_error();
  return 0;
}
