/* reach_error with an empty body: the *call* is the violation (SV-COMP), and the program also
 * defines its own __VERIFIER_nondet_int, which the replay must override. */
extern void abort(void);
void reach_error() {}
int __VERIFIER_nondet_int(void) { return 0; }
extern void __VERIFIER_assume(int);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0);
  if (n == 42) {
    reach_error();
    abort();
  }
  return 0;
}
