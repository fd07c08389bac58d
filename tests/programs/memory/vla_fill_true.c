// a VLA int a[n] (n nondet, 1..1000) filled with 3, then every a[j] and a[k] at a nondet k < n checked: TRUE
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  int a[n];
  for (int i = 0; i < n; i++) a[i] = 3;
  for (int j = 0; j < n; j++)
    if (a[j] != 3) reach_error();
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < n && a[k] != 3) reach_error();
  return 0;
}
