// the maximum of a nondet 100 000-element array bounds every element: TRUE (\forall k: k < i ==> a[k] <= m)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  for (int i = 0; i < 100000; i++) a[i] = __VERIFIER_nondet_int();
  int m = a[0];
  for (int i = 1; i < 100000; i++)
    if (a[i] > m) m = a[i];
  for (int j = 0; j < 100000; j++)
    if (a[j] > m) reach_error();
  return 0;
}
