extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int a[8];

int main(void) {
  for (int i = 0; i < 8; i++)
    a[i] = __VERIFIER_nondet_int();
  for (int j = 0; j + 1 < 8; j++)
    if (a[j] > a[j + 1]) {
      int t = a[j];
      a[j] = a[j + 1];
      a[j + 1] = t;
    }
  for (int i = 0; i < 7; i++)
    if (a[i] > a[7])
      reach_error();
  return 0;
}
