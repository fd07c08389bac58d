// int a[n] declared before n is checked, a[i] = i: for n >= 8 and k = 7, a[k] == 7 reaches the error: FALSE
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  int a[n];
  if (n <= 0 || n > 1000) return 0;
  for (int i = 0; i < n; i++) a[i] = i;
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < n && a[k] == 7) reach_error();
  return 0;
}
