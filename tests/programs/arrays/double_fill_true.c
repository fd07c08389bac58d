// a 100 000-element array with a[i] = 2*i for i < n (n nondet), every a[j] (j < n) checked: TRUE (\forall k: k < i ==> a[k] == 2*k)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  for (int i = 0; i < n; i++) a[i] = 2 * i;
  for (int j = 0; j < n; j++)
    if (a[j] != 2 * j) reach_error();
  return 0;
}
