/* One recursion called from three places of main; the error needs the third call's result
 * (parity(a + 2) == 1 with a == 3), so each return must go back to its own call site. */
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
  if (x == y) reach_error();
  int z = parity(a + 2);
  if (z == 1 && a == 3) reach_error();
  return 0;
}
