/* A recursion with a local array (an object per activation): unrolled, not on the stack. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int f(int n) {
  int a[3];
  int i = __VERIFIER_nondet_int();
  if (n <= 0) return 0;
  if (i < 0 || i > 2) i = 0;
  a[i] = n;
  return a[i] + f(n - 1) - n;
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 3) return 0;
  if (f(n) != 0) reach_error();
  return 0;
}
