/* A recursion that counts its calls in a global on every int: no depth bound covers it, and
 * its effect on the global is more than a summary of parameters and result says. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
unsigned calls;
int down(int n) { calls++; if (n <= 0) return 0; return down(n - 1); }
int main(void) {
  down(__VERIFIER_nondet_int());
  if (calls == 0) reach_error();
  return 0;
}
