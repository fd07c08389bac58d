// n nondet elements copied, but the copy loop stops one short: b[n-1] is still 0 while a[n-1] may not be: FALSE
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000], b[100000];
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000) return 0;
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i + 1 < n; i++) b[i] = a[i];
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < n && a[k] != b[k]) reach_error();
  return 0;
}
