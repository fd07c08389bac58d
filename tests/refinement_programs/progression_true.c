// a[i] = i over 10 elements, then three neighbours compared in one step: with `a` abstract (more
// cells than LLUMC_EXACT_CELLS) the three reads are havoc values (no restriction makes three
// exact) and the first counterexample is refuted natively; refinement makes `a` exact and the
// check proves it
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[10];
int main() {
  for (int i = 0; i < 10; i++) a[i] = i;
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < 8 && a[j] + a[j + 2] != 2 * a[j + 1]) reach_error();
  return 0;
}
