// insertion sort of 6 unsigned chars into descending order (the hole at j, the cells compared
// unsigned), then checked: TRUE.
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main(void) {
  unsigned char a[6];
  for (int i = 0; i < 6; i++) a[i] = __VERIFIER_nondet_uchar();
  for (int i = 1; i < 6; i++) {
    unsigned char key = a[i];
    int j = i;
    while (j > 0 && a[j - 1] < key) { a[j] = a[j - 1]; j--; }
    a[j] = key;
  }
  for (int i = 0; i + 1 < 6; i++)
    if (a[i] < a[i + 1]) reach_error();
  return 0;
}
