// insertion sort whose inner loop never moves the first cell (`j > 0`): unsorted for some
// inputs (2, 1, ...).
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main() {
  unsigned char a[4];
  for (int i = 0; i < 4; i++) a[i] = __VERIFIER_nondet_uchar();
  for (int i = 1; i < 4; i++) {
    unsigned char key = a[i];
    int j = i - 1;
    while (j > 0 && a[j] > key) { a[j + 1] = a[j]; j--; }
    a[j + 1] = key;
  }
  for (int i = 0; i + 1 < 4; i++)
    if (a[i] > a[i + 1]) reach_error();
  return 0;
}
