// two malloc'd arrays of a nondet size n (up to 100 000 ints): b[i] = a[i], then every b[j] == a[j] checked: TRUE (\forall k: k < i ==> a[k] == b[k], one tracked index for both)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000) return 0;
  int *a = malloc(sizeof(int) * n);
  int *b = malloc(sizeof(int) * n);
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) b[i] = a[i];
  for (int j = 0; j < n; j++)
    if (b[j] != a[j]) reach_error();
  return 0;
}
