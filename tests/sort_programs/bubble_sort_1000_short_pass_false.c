extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int a[1000];

int main(void) {
  for (int i = 0; i < 1000; i++)
    a[i] = __VERIFIER_nondet_int();
  for (int pass = 0; pass < 1000; pass++)
    for (int j = 0; j + 2 < 1000 - pass; j++)
      if (a[j] > a[j + 1]) {
        int t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
      }
  for (int i = 0; i + 1 < 1000; i++)
    if (a[i] > a[i + 1])
      reach_error();
  return 0;
}
