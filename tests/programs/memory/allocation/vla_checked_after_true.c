// int a[n] declared before n is checked (SV-COMP's tasks do this): a length <= 0 or one too large is never accessed (return 0); the fill stays in bounds and every a[k] is 3: TRUE
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  int a[n];
  if (n <= 0 || n > 1000) return 0;
  for (int i = 0; i < n; i++) a[i] = 3;
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < n && a[k] != 3) reach_error();
  return 0;
}
