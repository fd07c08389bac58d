// a 100 000-element array filled with 7 up to a nondet length n, then every a[j] (j < n) and a[k] at a nondet k < n checked: TRUE (tracked cell: \forall k < i ==> a[k] == 7)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  for (int i = 0; i < n; i++) a[i] = 7;
  for (int j = 0; j < n; j++)
    if (a[j] != 7) reach_error();
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < n && a[k] != 7) reach_error();
  return 0;
}
