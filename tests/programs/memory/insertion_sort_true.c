// insertion sort of 4 unsigned chars: sorted afterwards. The inner loop's paths end after
// different numbers of steps, so the word-level BMC's frontier keeps finished cases until
// it asks for them again (llumc.wordbmc.bmc.Unrolling.feasible).
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main() {
  unsigned char a[4];
  for (int i = 0; i < 4; i++) a[i] = __VERIFIER_nondet_uchar();
  for (int i = 1; i < 4; i++) {
    unsigned char key = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > key) { a[j + 1] = a[j]; j--; }
    a[j + 1] = key;
  }
  for (int i = 0; i + 1 < 4; i++)
    if (a[i] > a[i + 1]) reach_error();
  return 0;
}
