/* The error is inside the recursive function, 20 calls deep: its line must be reported. */
extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
unsigned down(unsigned n, unsigned depth) {
  if (depth == 20 && n == 5) reach_error();
  if (n == 0) return depth;
  return down(n - 1, depth + 1);
}
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  if (n > 40) return 0;
  down(n, 0);
  return 0;
}
