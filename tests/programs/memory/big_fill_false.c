// as big_fill_true.c, but the fill loop skips the element at index 2 (left 0): FALSE for n >= 3
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  for (int i = 0; i < n; i++)
    if (i != 2) a[i] = 7;
  for (int j = 0; j < n; j++)
    if (a[j] != 7) reach_error();
  return 0;
}
