// the maximum (12 cells: abstract in the first round, more than PROOF_EXACT_CELLS) of a nondet 12-element array bounds every element: TRUE (\forall k: k < i ==> a[k] <= m)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[12];
int main() {
  for (int i = 0; i < 12; i++) a[i] = __VERIFIER_nondet_int();
  int m = a[0];
  for (int i = 1; i < 12; i++)
    if (a[i] > m) m = a[i];
  for (int j = 0; j < 12; j++)
    if (a[j] > m) reach_error();
  return 0;
}
