/* A tree recursion (two calls per level) whose first descent reaches the error 20 calls
 * deep: unrolled, 2^20 copies; on a call stack, 20 pushes. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int walk(int n, int acc) {
  if (n == 0) {
    if (acc == 20) reach_error();
    return acc;
  }
  return walk(n - 1, acc + 1) + walk(n - 1, acc + 1);
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 30) return 0;
  walk(n, 0);
  return 0;
}
