// a[i] = 2*i for i < n only, then a nondet k <= n checked: a[n] is still 0, so k == n >= 1 fails: FALSE
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n >= 100000) return 0;
  for (int i = 0; i < n; i++) a[i] = 2 * i;
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k <= n && a[k] != 2 * k) reach_error();
  return 0;
}
