/* f's address is taken but no call goes through a pointer. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int f(int a) { return a + 1; }
int main(void) {
  int (*p)(int) = 0;
  if (__VERIFIER_nondet_int()) p = f;
  if (f(1) != 2) reach_error();
  return p == 0;
}
