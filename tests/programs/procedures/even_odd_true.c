extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
int is_odd(unsigned n);
int is_even(unsigned n) { if (n == 0) return 1; return is_odd(n - 1); }
int is_odd(unsigned n) { if (n == 0) return 0; return is_even(n - 1); }
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  if (n > 10) return 0;
  if (is_even(n) == is_odd(n)) reach_error();
  return 0;
}
