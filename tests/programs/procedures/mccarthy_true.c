/* McCarthy's 91 function on a bounded range of inputs: 91 for every n <= 101, n - 10 above. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int f91(int n) {
  if (n > 100) return n - 10;
  return f91(f91(n + 11));
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 95 || n > 105) return 0;
  int r = f91(n);
  if (!(r == 91 || r == n - 10)) reach_error();
  return 0;
}
