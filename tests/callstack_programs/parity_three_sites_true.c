/* One recursion called from three places of main: on a call stack, its body and its stack
 * are shared by the three calls (one copy in main, not three). */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int parity(int n) {
  if (n <= 0) return 0;
  return 1 - parity(n - 1);
}
int main(void) {
  int a = __VERIFIER_nondet_int();
  if (a < 0 || a > 6) return 0;
  int x = parity(a);
  if (x != 0 && x != 1) reach_error();
  int y = parity(a + 1);
  if (y != 0 && y != 1) reach_error();
  int z = parity(3);
  if (z != 0 && z != 1) reach_error();
  return 0;
}
