/* A loop in a recursive function: each clone's loop keeps its own debug locations. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int r(int n, int a) {
  int i;
  if (n <= 0) return a;
  for (i = 0; i < 2; i++) a += i;
  return r(n - 1, a);
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 3) return 0;
  if (r(n, 0) != n) reach_error();
  return 0;
}
