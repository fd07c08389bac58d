/* McCarthy's 91 function for every int: the recursion is as deep as (101 - n) / 11 * 2. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int f91(int n) {
  if (n > 100) return n - 10;
  return f91(f91(n + 11));
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  int r = f91(n);
  if (n <= 101 && r != 91) reach_error();
  return 0;
}
