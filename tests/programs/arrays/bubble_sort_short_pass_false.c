extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int a[10];

int main(void) {
  for (int i = 0; i < 10; i++)
    a[i] = __VERIFIER_nondet_int();
  for (int pass = 0; pass < 10; pass++)
    for (int j = 0; j + 2 < 10 - pass; j++)
      if (a[j] > a[j + 1]) {
        int t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
      }
  for (int i = 0; i + 1 < 10; i++)
    if (a[i] > a[i + 1])
      reach_error();
  return 0;
}
