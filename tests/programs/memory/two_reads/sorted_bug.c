// a 100 000-element array a[i] = i up to a nondet n, then one element set to -1 (n > 10): not sorted, so the check a[j] <= a[j + 1] (two reads in one step) fails; llumc must not answer TRUE
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  for (int i = 0; i < n; i++) a[i] = i;
  int p = __VERIFIER_nondet_int();
  if (n > 10 && p >= 1 && p < n) a[p] = -1;
  for (int j = 0; j + 1 < n; j++)
    if (a[j] > a[j + 1]) reach_error();
  return 0;
}
