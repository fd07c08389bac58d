// the error needs int a[n] with n > 100 000 000 (over 400 MB): reachable as SV-COMP's rules read it (allocation never fails), but no native run can be trusted to follow it
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  int a[n];
  if (n <= 0) return 0;
  a[n - 1] = 5;
  if (n > 100000000 && a[n - 1] == 5) reach_error();
  return 0;
}
