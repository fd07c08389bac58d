// b[i] = a[i] over a nondet array, then a[k] compared with b[k + 1]: two reads at different cells, and a[k] != a[k + 1] in general: buggy, must not be TRUE
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[2000], b[2000];
int main() {
  for (int i = 0; i < 2000; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < 2000; i++) b[i] = a[i];
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 1999 && a[k] != b[k + 1]) reach_error();
  return 0;
}
