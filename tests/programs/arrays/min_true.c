// the minimum of a nondet 2 000-element array, found from the end, is below every element: TRUE (\forall k: k > i ==> a[k] >= m)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[2000];
int main() {
  for (int i = 0; i < 2000; i++) a[i] = __VERIFIER_nondet_int();
  int m = a[1999];
  for (int i = 1998; i >= 0; i--)
    if (a[i] < m) m = a[i];
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 2000 && a[k] < m) reach_error();
  return 0;
}
