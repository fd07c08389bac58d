// bubble sort of 5 unsigned chars: sorted afterwards
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  unsigned char a[5];
  for (int i = 0; i < 5; i++) a[i] = __VERIFIER_nondet_uchar();
  for (int i = 0; i < 5; i++)
    for (int j = 0; j + 1 < 5 - i; j++)
      if (a[j] > a[j + 1]) { unsigned char t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; }
  for (int i = 0; i + 1 < 5; i++)
    if (a[i] > a[i + 1]) reach_error();
  return 0;
}
