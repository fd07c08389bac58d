// as vla_fill_true.c, but the element at index 4 is written 2: FALSE for n >= 5
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  int a[n];
  for (int i = 0; i < n; i++) a[i] = i == 4 ? 2 : 3;
  for (int j = 0; j < n; j++)
    if (a[j] != 3) reach_error();
  return 0;
}
