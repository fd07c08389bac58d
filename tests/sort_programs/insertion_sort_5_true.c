// insertion sort of 5 ints, then checked sorted: TRUE. Its proof is sortedness with a hole at
// the inner loop's head (`k, l != j + 1`) and the cells the hole passed above the key.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int a[5];
  for (int i = 0; i < 5; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 1; i < 5; i++) {
    int key = a[i], j = i - 1;
    while (j >= 0 && a[j] > key) { a[j + 1] = a[j]; j--; }
    a[j + 1] = key;
  }
  for (int i = 0; i + 1 < 5; i++)
    if (a[i] > a[i + 1]) reach_error();
  return 0;
}
