// two arrays of 1 000 ints, one copied into the other and compared cell by cell: within the
// exact bound (1 024 cells), but the proof over 2 000 exact cells is beyond the engines; with
// both abstract in the first round it is the invariant \forall k: k < i ==> a[k] == b[k]
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[1000], b[1000];
  for (int i = 0; i < 1000; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < 1000; i++) b[i] = a[i];
  for (int i = 0; i < 1000; i++)
    if (a[i] != b[i]) reach_error();
  return 0;
}
